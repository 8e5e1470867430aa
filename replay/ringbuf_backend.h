/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two places `pmusim ringbuf` can run a script: pmusim's own ring
 * buffer (core/ring_buffer.c, the model backend) and the host kernel's
 * (perf_event_open, the kernel backend). Both produce a buffer that user
 * space sees only through its control page; the command reads both with
 * the same readers (tools/lib/perf/mmap_read.h), so their dumps can be diffed.
 */
#ifndef PMUSIM_SIM_RINGBUF_BACKEND_H
#define PMUSIM_SIM_RINGBUF_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

/* A backend's open() return when the host cannot do it (exit status 77). */
#define RINGBUF_SKIP	77

struct ringbuf_config {
	unsigned int nr_pages;		/* data pages, a power of two */
	bool backward;			/* attr.write_backward */
	bool overwrite;			/* read-only mapping */
	bool sample_id_all;
	uint32_t watermark;		/* bytes; 0: wake by wakeup_events */
	uint32_t wakeup_events;
};

/*
 * The sample layout that gives a record of exactly @size bytes, the same
 * for both backends so that sample and LOST sizes (the LOST record
 * carries the sample_id trailer of the event that writes next) agree:
 *
 *   16  IP                         hdr + ip
 *   24  IP|TID                     hdr + ip + pid/tid
 *   32  IP|TID|TIME                hdr + ip + pid/tid + time
 *   40+ TID|STACK_USER, stack S    hdr + pid/tid + size + S bytes + dyn_size
 *                                  (S = size - 32)
 */
#define RINGBUF_STACK_MAX	(65528 - 32)

struct ringbuf_layout {
	uint64_t sample_type;
	uint32_t sample_stack_user;
};

static inline struct ringbuf_layout ringbuf_sample_layout(unsigned int size)
{
	switch (size) {
	case 16:
		return (struct ringbuf_layout){ PERF_SAMPLE_IP, 0 };
	case 24:
		return (struct ringbuf_layout){ PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0 };
	case 32:
		return (struct ringbuf_layout){ PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME, 0 };
	default:
		return (struct ringbuf_layout){ PERF_SAMPLE_TID | PERF_SAMPLE_STACK_USER, size - 32 };
	}
}

struct ringbuf_backend {
	const char *name;
	/*
	 * Set up a buffer for @cfg and one sampling event per record size in
	 * @sizes. Returns 0; RINGBUF_SKIP when the host does not permit it;
	 * 1 on failure. Either way but 0 it has printed one line saying why.
	 */
	int (*open)(void **priv, const struct ringbuf_config *cfg,
		    const unsigned int *sizes, size_t nr_sizes);
	/* @count sample records of @size bytes (one of the open() sizes). 0 or 1. */
	int (*write)(void *priv, unsigned int size, unsigned long count);
	/* PERF_EVENT_IOC_PAUSE_OUTPUT. 0 or 1. */
	int (*pause)(void *priv, bool pause);
	struct perf_event_mmap_page *(*user_page)(void *priv);
	/*
	 * The same buffer as a PROT_READ mmap() maps it, every page read-only
	 * (overwrite mode). NULL op: user_page() is that already (the host
	 * kernel's), or this process can only write-protect it (core/'s).
	 */
	struct perf_event_mmap_page *(*user_page_ro)(void *priv);
	void (*close)(void *priv);
};

extern const struct ringbuf_backend ringbuf_kernel_backend;
extern const struct ringbuf_backend ringbuf_model_backend;
/* the kernel's own ring_buffer.c of the tree built with (KSRC=DIR), ringbuf_ksrc.c */
extern const struct ringbuf_backend ringbuf_ksrc_backend;

#endif /* PMUSIM_SIM_RINGBUF_BACKEND_H */
