// SPDX-License-Identifier: GPL-2.0-only
/*
 * rb_pages.c - ring-buffer data pages that are separate pages, as the
 * kernel's are (RING_BUFFER_SCATTERED to rb_alloc()).
 *
 * The kernel allocates each data page on its own: the writer sees them
 * at unrelated addresses (data_pages[]), user space through its mmap()
 * as one contiguous area. Laid out contiguously in both views, a writer
 * that runs past the end of a page without moving to data_pages[next]
 * still lands in the right bytes, and the bug stays hidden. Here one
 * memfd backs both views: user space's mapping of the user page and the
 * data pages in order, and the writer's, where each data page stands
 * alone in descending order with an inaccessible page after it, so
 * running off a page faults at once. Under CONFIG_PERF_USE_VMALLOC the
 * one data "page" of order ilog2(n) stands alone the same way, so
 * running off the end of the data area faults.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "core/internal.h"

int rb_pages_scatter(struct perf_buffer *rb, int nr_pages, int order)
{
	size_t chunk = PAGE_SIZE << order;
	size_t user_size = (size_t)nr_pages * chunk + PAGE_SIZE;
	size_t kern_size = (size_t)nr_pages * (chunk + PAGE_SIZE);
	char *user = MAP_FAILED, *kern = MAP_FAILED;
	int fd, i;

	if (sysconf(_SC_PAGESIZE) != (long)PAGE_SIZE)
		return -EINVAL;	/* the views are made of host pages */
	fd = memfd_create("pmusim-rb", MFD_CLOEXEC);
	if (fd < 0)
		return -ENOMEM;
	if (ftruncate(fd, (off_t)user_size))
		goto fail;
	user = mmap(NULL, user_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (user == MAP_FAILED)
		goto fail;
	/* reserved, inaccessible; each data page is mapped over its slot */
	if (nr_pages) {
		kern = mmap(NULL, kern_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (kern == MAP_FAILED)
			goto fail;
	}
	for (i = 0; i < nr_pages; i++) {
		char *slot = kern + (size_t)(nr_pages - 1 - i) * (chunk + PAGE_SIZE);

		if (mmap(slot, chunk, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
			 (off_t)(PAGE_SIZE + (size_t)i * chunk)) == MAP_FAILED)
			goto fail;
		rb->data_pages[i] = slot;
	}
	close(fd);
	rb->user_page = (struct perf_event_mmap_page *)user;
	rb->scatter_user_size = user_size;
	rb->scatter_kern = nr_pages ? kern : NULL;
	rb->scatter_kern_size = kern_size;
	return 0;

fail:
	if (kern != MAP_FAILED)
		munmap(kern, kern_size);
	if (user != MAP_FAILED)
		munmap(user, user_size);
	close(fd);
	return -ENOMEM;
}

void rb_pages_unscatter(struct perf_buffer *rb)
{
	if (rb->scatter_kern)
		munmap(rb->scatter_kern, rb->scatter_kern_size);
	munmap(rb->user_page, rb->scatter_user_size);
}
