// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel backend of `pmusim ringbuf`: the script runs against the
 * host's perf ring buffer.
 *
 * Every record is a sample of a minor page fault of this process
 * (PERF_COUNT_SW_PAGE_FAULTS_MIN, period 1), one per fresh page touched;
 * the sample layout gives it its size (ringbuf_sample_layout()). There is
 * one event per size, all disabled except while their own records are
 * written, and all but the first send their output to the first one's
 * buffer (PERF_EVENT_IOC_SET_OUTPUT), so one buffer sees the whole script.
 *
 * Nothing else may land in the buffer: attr.mmap/comm/task are off, kernel
 * mode faults are excluded, and an event is enabled only around a burst
 * of touches of pages that were made fresh (MADV_DONTNEED) while it was
 * disabled. Transparent huge pages would turn many touches into one
 * fault, so the touched region is MADV_NOHUGEPAGE. The host throttles an
 * event beyond perf_event_max_sample_rate / HZ samples a tick (and says so
 * with a THROTTLE record); bursts are kept well under a tick's budget and
 * separated by a busy wait of over a millisecond, which keeps the tick
 * running where an idle sleep might stop it. This pacing is the only use
 * of the host clock, and it only spaces the writes out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "replay/ringbuf_backend.h"

#define TOUCH_PAGES	1024

struct kernel_event {
	unsigned int size;
	int fd;
};

struct ringbuf_kernel {
	struct kernel_event *events;
	size_t nr_events;
	void *base;			/* control page, then the data pages */
	size_t map_len;
	unsigned char *touch;		/* pages whose first touch is a record */
	size_t page_size;
	size_t touch_next;
	unsigned long burst;
	unsigned long since_pace;	/* records since the last pause for the tick */
	int warm_fd;			/* an event like the first, with no buffer */
	bool warm;			/* the write path has run once through warm_fd */
};

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static bool not_permitted(int err)
{
	return err == EACCES || err == EPERM || err == ENOSYS || err == ENOENT ||
	       err == EOPNOTSUPP;
}

static unsigned long read_max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned long rate = 0;

	if (f) {
		if (fscanf(f, "%lu", &rate) != 1)
			rate = 0;
		fclose(f);
	}
	return rate;
}

/* Spin for just over a millisecond: at least one tick boundary for HZ >= 1000. */
static void pace(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 1100000L);
}

static void kernel_close(void *priv)
{
	struct ringbuf_kernel *k = priv;

	if (!k)
		return;
	for (size_t i = 0; i < k->nr_events; i++)
		if (k->events[i].fd >= 0)
			close(k->events[i].fd);
	if (k->warm_fd >= 0)
		close(k->warm_fd);
	if (k->base)
		munmap(k->base, k->map_len);
	if (k->touch)
		munmap(k->touch, TOUCH_PAGES * k->page_size);
	free(k->events);
	free(k);
}

static void init_attr(struct perf_event_attr *attr, const struct ringbuf_config *cfg,
		      unsigned int size)
{
	struct ringbuf_layout layout = ringbuf_sample_layout(size);

	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	attr->sample_period = 1;
	attr->sample_type = layout.sample_type;
	attr->sample_stack_user = layout.sample_stack_user;
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->sample_id_all = cfg->sample_id_all;
	attr->write_backward = cfg->backward;
	if (cfg->watermark) {
		attr->watermark = 1;
		attr->wakeup_watermark = cfg->watermark;
	} else {
		attr->wakeup_events = cfg->wakeup_events;
	}
}

static int kernel_open(void **priv, const struct ringbuf_config *cfg,
		       const unsigned int *sizes, size_t nr_sizes)
{
	struct ringbuf_kernel *k = calloc(1, sizeof(*k));
	unsigned long rate = read_max_sample_rate();
	int prot = PROT_READ | (cfg->overwrite ? 0 : PROT_WRITE);

	*priv = k;
	if (!k || !(k->events = calloc(nr_sizes ? nr_sizes : 1, sizeof(*k->events)))) {
		fprintf(stderr, "pmusim ringbuf: out of memory\n");
		return 1;
	}
	k->warm_fd = -1;
	k->page_size = (size_t)sysconf(_SC_PAGESIZE);
	/* A quarter of a 1000 Hz tick's budget a burst. */
	k->burst = rate / 4000;
	if (k->burst < 1)
		k->burst = 1;
	if (k->burst > 64)
		k->burst = 64;

	/* The buffer's owner; a script without writes still gets a buffer. */
	for (size_t i = 0; i < (nr_sizes ? nr_sizes : 1); i++) {
		struct perf_event_attr attr;
		unsigned int size = nr_sizes ? sizes[i] : 16;

		init_attr(&attr, cfg, size);
		k->events[i].size = size;
		k->events[i].fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		k->nr_events = i + 1;
		if (k->events[i].fd < 0) {
			int err = errno;

			fprintf(stderr, "pmusim ringbuf: perf_event_open %s: %s\n",
				not_permitted(err) ? "not permitted" : "failed", strerror(err));
			return not_permitted(err) ? RINGBUF_SKIP : 1;
		}
		if (i && ioctl(k->events[i].fd, PERF_EVENT_IOC_SET_OUTPUT, k->events[0].fd)) {
			fprintf(stderr, "pmusim ringbuf: PERF_EVENT_IOC_SET_OUTPUT: %s\n", strerror(errno));
			return 1;
		}
		if (!i) {
			k->warm_fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
			if (k->warm_fd < 0) {
				fprintf(stderr, "pmusim ringbuf: perf_event_open failed: %s\n",
					strerror(errno));
				return 1;
			}
			k->map_len = (1 + cfg->nr_pages) * k->page_size;
			k->base = mmap(NULL, k->map_len, prot, MAP_SHARED, k->events[0].fd, 0);
			if (k->base == MAP_FAILED) {
				int err = errno;

				k->base = NULL;
				fprintf(stderr, "pmusim ringbuf: mmap of the ring buffer %s: %s\n",
					err == EPERM ? "not permitted" : "failed", strerror(err));
				return err == EPERM ? RINGBUF_SKIP : 1;
			}
		}
	}

	k->touch = mmap(NULL, TOUCH_PAGES * k->page_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (k->touch == MAP_FAILED) {
		k->touch = NULL;
		fprintf(stderr, "pmusim ringbuf: mmap: %s\n", strerror(errno));
		return 1;
	}
	madvise(k->touch, TOUCH_PAGES * k->page_size, MADV_NOHUGEPAGE);
	return 0;
}

/*
 * One fault each: nothing else in here may touch a page for the first
 * time, and AddressSanitizer's check of each store would read shadow
 * memory that was never touched, a fault of its own.
 */
__attribute__((no_sanitize_address, noinline))
static void touch_pages(unsigned char *first, size_t page_size, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		*(volatile unsigned char *)(first + i * page_size) = 1;
}

/*
 * @n records of @fd's event: @n fresh pages touched while it is enabled.
 * Not inlined: the warm-up below runs these very instructions.
 */
__attribute__((noinline))
static int burst(int fd, unsigned char *first, size_t page_size, unsigned long n)
{
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		fprintf(stderr, "pmusim ringbuf: PERF_EVENT_IOC_ENABLE: %s\n", strerror(errno));
		return 1;
	}
	touch_pages(first, page_size, n);
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0)) {
		fprintf(stderr, "pmusim ringbuf: PERF_EVENT_IOC_DISABLE: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

static int kernel_write(void *priv, unsigned int size, unsigned long count)
{
	struct ringbuf_kernel *k = priv;
	struct kernel_event *ev = NULL;

	for (size_t i = 0; i < k->nr_events; i++)
		if (k->events[i].size == size)
			ev = &k->events[i];
	if (!ev) {
		fprintf(stderr, "pmusim ringbuf: no event for %u-byte records\n", size);
		return 1;
	}
	while (count) {
		unsigned long n = k->burst - k->since_pace;

		if (!n) {
			pace();
			k->since_pace = 0;
			continue;
		}
		if (n > count)
			n = count;
		if (k->touch_next + n > TOUCH_PAGES) {
			/* Unmapped again, each page's next touch is a fresh fault. */
			if (madvise(k->touch, TOUCH_PAGES * k->page_size, MADV_DONTNEED)) {
				fprintf(stderr, "pmusim ringbuf: madvise: %s\n", strerror(errno));
				return 1;
			}
			k->touch_next = 0;
		}
		/*
		 * The first burst of a run may fault on more than its pages:
		 * code or stack of this very path, or memory the sanitizers'
		 * ioctl interceptor reads, touched for the first time while the
		 * event is enabled. One burst of an event with no buffer, on
		 * the same path, faults them in first; its page is then made
		 * fresh again. (A sanitizer build gave the host an extra first
		 * record in about 1 run in 20.)
		 */
		if (!k->warm) {
			unsigned char *page = k->touch + k->touch_next * k->page_size;

			if (burst(k->warm_fd, page, k->page_size, 1))
				return 1;
			if (madvise(page, k->page_size, MADV_DONTNEED)) {
				fprintf(stderr, "pmusim ringbuf: madvise: %s\n", strerror(errno));
				return 1;
			}
			k->warm = true;
		}
		if (burst(ev->fd, k->touch + k->touch_next * k->page_size, k->page_size, n))
			return 1;
		k->touch_next += n;
		k->since_pace += n;
		count -= n;
	}
	return 0;
}

static int kernel_pause(void *priv, bool pause)
{
	struct ringbuf_kernel *k = priv;

	if (ioctl(k->events[0].fd, PERF_EVENT_IOC_PAUSE_OUTPUT, pause ? 1 : 0)) {
		fprintf(stderr, "pmusim ringbuf: PERF_EVENT_IOC_PAUSE_OUTPUT: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}

static struct perf_event_mmap_page *kernel_user_page(void *priv)
{
	struct ringbuf_kernel *k = priv;

	return k->base;
}

const struct ringbuf_backend ringbuf_kernel_backend = {
	.name		= "kernel",
	.open		= kernel_open,
	.write		= kernel_write,
	.pause		= kernel_pause,
	.user_page	= kernel_user_page,
	.close		= kernel_close,
};
