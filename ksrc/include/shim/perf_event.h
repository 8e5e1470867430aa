/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * duplicated: <linux/perf_event.h> as far as kernel/events/ring_buffer.c
 * uses it: the fields of struct perf_event, struct perf_output_handle and
 * struct perf_sample_data it touches, with the kernel's names and types;
 * the ABI is pmusim's copy of the uapi header. Keep in sync with the kernel.
 */
#ifndef KSRC_SHIM_PERF_EVENT_H
#define KSRC_SHIM_PERF_EVENT_H

#include <shim/mm.h>
#include <pmusim/perf_event.h>

struct perf_buffer;
struct perf_event;

#define PERF_PMU_CAP_AUX_NO_SG		0x0004
#define PERF_PMU_CAP_AUX_PREFER_LARGE	0x0200

struct pmu {
	int capabilities;
	void *(*setup_aux)(struct perf_event *event, void **pages, int nr_pages, bool overwrite);
	void (*free_aux)(void *aux);
};

struct perf_event {
	struct perf_event_attr		attr;
	u16				id_header_size;
	struct pmu			*pmu;
	struct perf_event		*parent;
	int				cpu;
	u64				id;
	atomic64_t			lost_samples;
	struct perf_buffer		*rb;
	struct fasync_struct		*fasync;
	unsigned int			pending_wakeup;
	unsigned int			pending_kill;
	unsigned int			pending_disable;
	struct irq_work			pending_irq;
};

struct perf_output_handle {
	struct perf_event		*event;
	struct perf_buffer		*rb;
	unsigned long			wakeup;
	unsigned long			size;
	union {
		u64			flags;
		u64			aux_flags;
	};
	union {
		void			*addr;
		unsigned long		head;
	};
	int				page;
};

/* The sample_id fields: what perf_event_header__init() fills for a LOST record. */
struct perf_sample_data {
	u64				sample_flags;
	u64				type;
	struct {
		u32	pid;
		u32	tid;
	}				tid_entry;
	u64				time;
	u64				id;
	u64				stream_id;
	struct {
		u32	cpu;
		u32	reserved;
	}				cpu_entry;
};

#define PERF_SAMPLE_ID_ALL	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
				 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

typedef unsigned long (*perf_copy_f)(void *dst, const void *src, unsigned long off,
				     unsigned long len);

static inline bool is_write_backward(struct perf_event *event)
{
	return !!event->attr.write_backward;
}

static inline bool has_aux(struct perf_event *event)
{
	return event->pmu && event->pmu->setup_aux;
}

static inline struct fasync_struct **perf_event_fasync(struct perf_event *event)
{
	/* An inherited event's signals go to its parent's owner. */
	if (event->parent)
		event = event->parent;
	return &event->fasync;
}

/* kernel/events/ring_buffer.c */
int perf_output_begin(struct perf_output_handle *handle, struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size);
int perf_output_begin_forward(struct perf_output_handle *handle, struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size);
int perf_output_begin_backward(struct perf_output_handle *handle, struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size);
void perf_output_end(struct perf_output_handle *handle);
unsigned int perf_output_copy(struct perf_output_handle *handle, const void *buf, unsigned int len);
unsigned int perf_output_skip(struct perf_output_handle *handle, unsigned int len);
#define perf_output_put(handle, x)	perf_output_copy((handle), &(x), sizeof(x))
long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to);
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags);
void *perf_aux_output_begin(struct perf_output_handle *handle, struct perf_event *event);
void perf_aux_output_end(struct perf_output_handle *handle, unsigned long size);
int perf_aux_output_skip(struct perf_output_handle *handle, unsigned long size);
void *perf_get_aux(struct perf_output_handle *handle);

/* kernel/events/core.c (ksrc/kernel/events/core_stubs.c) */
void perf_event_header__init(struct perf_event_header *header, struct perf_sample_data *data,
			     u32 type, u16 misc, u16 size, struct perf_event *event);
/* what the trees before it call, after setting type, misc and size themselves */
void perf_event_header__init_id(struct perf_event_header *header, struct perf_sample_data *data,
				struct perf_event *event);
void perf_event__output_id_sample(struct perf_event *event, struct perf_output_handle *handle,
				  struct perf_sample_data *sample);
/* what newer trees' AUX paths call (pmusim's core/ has one of the same name) */
void perf_event_disable_inatomic(struct perf_event *event);

#endif /* KSRC_SHIM_PERF_EVENT_H */
