/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's own kernel/events/ring_buffer.c, built from KSRC=DIR
 * against the shim in ksrc/include, behind an interface that names none
 * of its types, so pmusim's code (core/'s struct perf_event and struct
 * perf_buffer are different types of the same names) can drive it beside
 * core/. Only with a kernel tree: KSRC_VERSION in <generated/ksrc.h> says
 * whether this build has one. ksrc/README.md has the whole picture.
 *
 * Every ring-buffer interleaving point of core/interleave.h is reached in
 * the kernel's file too: perf_interleave_hook is called at the same
 * places, with the kernel's struct perf_buffer (ksrc_rb_kernel()) as the
 * object, and smp_wmb()/smp_mb() call perf_store_fence_hook.
 */
#ifndef PMUSIM_KSRC_RING_BUFFER_KSRC_H
#define PMUSIM_KSRC_RING_BUFFER_KSRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

struct ksrc_buffer;
struct ksrc_event;

/* Room for the kernel's struct perf_output_handle. */
struct ksrc_output_handle {
	_Alignas(16) unsigned char opaque[64];
};

/* Who runs when a LOST record's sample_id trailer is filled. */
struct ksrc_running {
	uint32_t pid, tid, cpu;
	uint64_t time;
};
typedef struct ksrc_running (*ksrc_running_fn)(void *arg);
/* Sets what LOST trailers carry (NULL: all zero). */
void ksrc_set_running(ksrc_running_fn fn, void *arg);

/* The kernel version of the tree built, "VERSION.PATCHLEVEL.SUBLEVEL". */
const char *ksrc_version(void);

/*
 * rb_alloc() of the kernel file (@writable: RING_BUFFER_WRITABLE) and a
 * user mapping of it made as perf_mmap() makes one, through the file's
 * perf_mmap_to_page(): user_page->data_offset and data_size are set as
 * the kernel's perf_mmap() sets them. NULL when memory runs out.
 */
struct ksrc_buffer *ksrc_rb_alloc(int nr_pages, long watermark, bool writable);
/* Unmap and rb_free(); its events must be freed first. */
void ksrc_rb_free(struct ksrc_buffer *buf);
struct perf_event_mmap_page *ksrc_rb_user_page(struct ksrc_buffer *buf);
/*
 * A second mapping of the same frames, every page PROT_READ: what a
 * PROT_READ mmap() (overwrite mode) gives user space. Made on first use,
 * unmapped by ksrc_rb_free(); NULL if it cannot be made.
 */
struct perf_event_mmap_page *ksrc_rb_user_page_ro(struct ksrc_buffer *buf);
/* The kernel's struct perf_buffer: the object the interleaving points name. */
void *ksrc_rb_kernel(struct ksrc_buffer *buf);
/* rb_toggle_paused() of the kernel's internal.h. */
void ksrc_rb_pause(struct ksrc_buffer *buf, bool pause);

/* The buffer's private state, as core/'s struct perf_buffer names it. */
struct ksrc_rb_state {
	unsigned long head;
	long lost, wakeup, events;
	unsigned int nest;
	int paused, overwrite, nr_pages;
	long watermark;
	unsigned long data_size;	/* perf_data_size() */
};
struct ksrc_rb_state ksrc_rb_state(struct ksrc_buffer *buf);

/*
 * An event writing to @buf with @attr (sample_type, sample_id_all,
 * write_backward, watermark, wakeup_events are what the file reads) and
 * @id. id_header_size is set as core.c sets it.
 */
struct ksrc_event *ksrc_event_new(struct ksrc_buffer *buf, const struct perf_event_attr *attr,
				  uint64_t id);
void ksrc_event_free(struct ksrc_event *ev);
uint64_t ksrc_event_lost_samples(struct ksrc_event *ev);
/* event->pending_wakeup, cleared: did a writer wake the reader? */
bool ksrc_event_take_wakeup(struct ksrc_event *ev);

/* perf_output_begin/copy/end; sample_wakeup is core.c's wakeup_events count. */
int ksrc_output_begin(struct ksrc_output_handle *handle, struct ksrc_event *ev, unsigned int size);
unsigned int ksrc_output_copy(struct ksrc_output_handle *handle, const void *buf, unsigned int len);
void ksrc_output_sample_wakeup(struct ksrc_output_handle *handle);
void ksrc_output_end(struct ksrc_output_handle *handle);

#endif /* PMUSIM_KSRC_RING_BUFFER_KSRC_H */
