// SPDX-License-Identifier: GPL-2.0-only
/*
 * sideband.c - the records that describe the world around the samples
 * (kernel/events/core.c): COMM, MMAP/MMAP2, FORK/EXIT, SWITCH and
 * SWITCH_CPU_WIDE, THROTTLE/UNTHROTTLE and LOST_SAMPLES. Each goes to
 * every event that asked for it, with the sample_id trailer when the
 * event has attr.sample_id_all.
 */
#include "perf_event.h"
#include "sideband.h"

static u32 perf_event_pid(struct perf_event *event, struct task_struct *p)
{
	(void)event;	/* no pid namespaces in the model */
	return p ? (u32)p->pid : 0;
}

static u32 perf_event_tid(struct perf_event *event, struct task_struct *p)
{
	(void)event;
	return p ? (u32)p->tid : 0;
}

/* ---- COMM ------------------------------------------------------------------ */

struct perf_comm_event {
	struct task_struct *task;
	char comm[TASK_COMM_LEN + 8];	/* NUL-padded to a multiple of 8 */
	unsigned int comm_size;
	struct {
		struct perf_event_header header;
		u32 pid;
		u32 tid;
	} event_id;
};

void perf_event_comm_output(struct perf_event *event, void *data)
{
	struct perf_comm_event *comm_event = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	u16 size = comm_event->event_id.header.size;

	if (!event->attr.comm)
		return;

	perf_event_header__init_id(&comm_event->event_id.header, &sample, event);
	if (!perf_output_begin(&handle, &sample, event, comm_event->event_id.header.size)) {
		comm_event->event_id.pid = perf_event_pid(event, comm_event->task);
		comm_event->event_id.tid = perf_event_tid(event, comm_event->task);
		perf_output_put(&handle, comm_event->event_id);
		perf_output_copy(&handle, comm_event->comm, comm_event->comm_size);
		perf_event__output_id_sample(event, &handle, &sample);
		perf_output_end(&handle);
	}
	comm_event->event_id.header.size = size;
}

void perf_event_comm(struct task_struct *task, bool exec)
{
	struct perf_comm_event comm_event = { .task = task };
	size_t len = strnlen(task->comm, TASK_COMM_LEN - 1);

	memcpy(comm_event.comm, task->comm, len);
	comm_event.comm_size = ALIGN(len + 1, sizeof(u64));
	comm_event.event_id.header.type = PERF_RECORD_COMM;
	comm_event.event_id.header.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	comm_event.event_id.header.size = sizeof(comm_event.event_id) + comm_event.comm_size;
	perf_iterate_sb(perf_event_comm_output, &comm_event);
}

/* ---- MMAP / MMAP2 ------------------------------------------------------------ */

#define PERF_MMAP_NAME_MAX	4096

struct perf_mmap_event {
	const struct perf_mmap_info *info;
	const char *file_name;
	unsigned int file_size;		/* name, NUL and padding */
	struct {
		struct perf_event_header header;
		u32 pid;
		u32 tid;
		u64 start;
		u64 len;
		u64 pgoff;
	} event_id;
};

static bool perf_event_mmap_match(struct perf_event *event, const struct perf_mmap_info *info)
{
	bool executable = info->prot & PERF_MMAP_PROT_EXEC;

	return (!executable && event->attr.mmap_data) ||
	       (executable && (event->attr.mmap || event->attr.mmap2));
}

void perf_event_mmap_output(struct perf_event *event, void *data)
{
	struct perf_mmap_event *mmap_event = data;
	const struct perf_mmap_info *info = mmap_event->info;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	u16 size = mmap_event->event_id.header.size;
	u32 type = mmap_event->event_id.header.type;
	static const u64 zero;

	if (!perf_event_mmap_match(event, info))
		return;

	if (event->attr.mmap2) {
		mmap_event->event_id.header.type = PERF_RECORD_MMAP2;
		mmap_event->event_id.header.size += sizeof(info->maj) + sizeof(info->min) +
			sizeof(info->ino) + sizeof(info->ino_generation) +
			sizeof(info->prot) + sizeof(info->flags);
	}

	perf_event_header__init_id(&mmap_event->event_id.header, &sample, event);
	if (!perf_output_begin(&handle, &sample, event, mmap_event->event_id.header.size)) {
		unsigned int name_len = strlen(mmap_event->file_name);

		mmap_event->event_id.pid = info->pid;
		mmap_event->event_id.tid = info->tid;
		perf_output_put(&handle, mmap_event->event_id);
		if (event->attr.mmap2) {
			perf_output_put(&handle, info->maj);
			perf_output_put(&handle, info->min);
			perf_output_put(&handle, info->ino);
			perf_output_put(&handle, info->ino_generation);
			perf_output_put(&handle, info->prot);
			perf_output_put(&handle, info->flags);
		}
		perf_output_copy(&handle, mmap_event->file_name, name_len);
		for (unsigned int pad = mmap_event->file_size - name_len; pad; ) {
			unsigned int n = min(pad, (unsigned int)sizeof(zero));

			perf_output_copy(&handle, &zero, n);
			pad -= n;
		}
		perf_event__output_id_sample(event, &handle, &sample);
		perf_output_end(&handle);
	}
	mmap_event->event_id.header.size = size;
	mmap_event->event_id.header.type = type;
}

void perf_event_mmap(const struct perf_mmap_info *info)
{
	struct perf_mmap_event mmap_event = { .info = info };
	const char *name = info->filename ? info->filename : "//anon";
	size_t len = strnlen(name, PERF_MMAP_NAME_MAX - 1);

	mmap_event.file_name = name;
	if (name[len])		/* longer than the kernel's path buffer */
		name = "//toolong", len = strlen(name), mmap_event.file_name = name;
	mmap_event.file_size = ALIGN(len + 1, sizeof(u64));
	mmap_event.event_id.header.type = PERF_RECORD_MMAP;
	mmap_event.event_id.header.misc = PERF_RECORD_MISC_USER;
	if (!(info->prot & PERF_MMAP_PROT_EXEC))
		mmap_event.event_id.header.misc |= PERF_RECORD_MISC_MMAP_DATA;
	mmap_event.event_id.header.size = sizeof(mmap_event.event_id) + mmap_event.file_size;
	mmap_event.event_id.start = info->addr;
	mmap_event.event_id.len = info->len;
	mmap_event.event_id.pgoff = info->pgoff;
	perf_iterate_sb(perf_event_mmap_output, &mmap_event);
}

/* ---- FORK / EXIT ------------------------------------------------------------- */

struct perf_task_event {
	struct task_struct *task;
	int new;
	struct {
		struct perf_event_header header;
		u32 pid;
		u32 ppid;
		u32 tid;
		u32 ptid;
		u64 time;
	} event_id;
};

void perf_event_task_output(struct perf_event *event, void *data)
{
	struct perf_task_event *task_event = data;
	struct task_struct *task = task_event->task;
	struct perf_output_handle handle;
	struct perf_sample_data sample;

	if (!(event->attr.comm || event->attr.mmap || event->attr.mmap2 ||
	      event->attr.mmap_data || event->attr.task))
		return;

	perf_event_header__init(&task_event->event_id.header, &sample,
				task_event->new ? PERF_RECORD_FORK : PERF_RECORD_EXIT,
				0, sizeof(task_event->event_id), event);
	if (perf_output_begin(&handle, &sample, event, task_event->event_id.header.size))
		return;

	task_event->event_id.pid = perf_event_pid(event, task);
	task_event->event_id.tid = perf_event_tid(event, task);
	if (task_event->new) {
		task_event->event_id.ppid = perf_event_pid(event, current);
		task_event->event_id.ptid = perf_event_tid(event, current);
	} else {
		/* The kernel puts the parent's pid in both (ptid too). */
		task_event->event_id.ppid = perf_event_pid(event, task->real_parent);
		task_event->event_id.ptid = perf_event_pid(event, task->real_parent);
	}
	task_event->event_id.time = perf_event_clock(event);
	perf_output_put(&handle, task_event->event_id);
	perf_event__output_id_sample(event, &handle, &sample);
	perf_output_end(&handle);
}

void perf_event_task(struct task_struct *task, int new)
{
	struct perf_task_event task_event = { .task = task, .new = new };

	perf_iterate_sb(perf_event_task_output, &task_event);
}

/* ---- SWITCH / SWITCH_CPU_WIDE ------------------------------------------------- */

struct perf_switch_event {
	struct task_struct *task;
	struct task_struct *next_prev;
	struct {
		struct perf_event_header header;
		u32 next_prev_pid;
		u32 next_prev_tid;
	} event_id;
};

void perf_event_switch_output(struct perf_event *event, void *data)
{
	struct perf_switch_event *se = data;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	bool per_task = event->pid != -1;

	if (!event->attr.context_switch)
		return;

	/* Only a CPU-wide event may learn who came or went. */
	if (per_task) {
		se->event_id.header.type = PERF_RECORD_SWITCH;
		se->event_id.header.size = sizeof(se->event_id.header);
	} else {
		se->event_id.header.type = PERF_RECORD_SWITCH_CPU_WIDE;
		se->event_id.header.size = sizeof(se->event_id);
		se->event_id.next_prev_pid = perf_event_pid(event, se->next_prev);
		se->event_id.next_prev_tid = perf_event_tid(event, se->next_prev);
	}

	perf_event_header__init_id(&se->event_id.header, &sample, event);
	if (perf_output_begin(&handle, &sample, event, se->event_id.header.size))
		return;
	if (per_task)
		perf_output_put(&handle, se->event_id.header);
	else
		perf_output_put(&handle, se->event_id);
	perf_event__output_id_sample(event, &handle, &sample);
	perf_output_end(&handle);
}

void perf_event_switch(struct task_struct *task, struct task_struct *next_prev,
		       bool sched_in)
{
	struct perf_switch_event switch_event = {
		.task = task,
		.next_prev = next_prev,
	};

	if (!sched_in) {
		switch_event.event_id.header.misc = PERF_RECORD_MISC_SWITCH_OUT;
		if (READ_ONCE(task->on_rq))
			switch_event.event_id.header.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	perf_iterate_sb(perf_event_switch_output, &switch_event);
}

/* ---- THROTTLE / UNTHROTTLE, LOST_SAMPLES -------------------------------------- */

void perf_log_throttle(struct perf_event *event, int enable)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u64 time;
		u64 id;
		u64 stream_id;
	} throttle_event = {
		.header = {
			.type = enable ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE,
			.misc = 0,
			.size = sizeof(throttle_event),
		},
		.time = perf_event_clock(event),
		.id = primary_event_id(event),
		.stream_id = event->id,
	};

	perf_event_header__init_id(&throttle_event.header, &sample, event);
	if (perf_output_begin(&handle, &sample, event, throttle_event.header.size))
		return;
	perf_output_put(&handle, throttle_event);
	perf_event__output_id_sample(event, &handle, &sample);
	perf_output_end(&handle);
}

void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header header;
		u64 lost;
	} lost_samples_event = {
		.header = {
			.type = PERF_RECORD_LOST_SAMPLES,
			.misc = 0,
			.size = sizeof(lost_samples_event),
		},
		.lost = lost,
	};

	perf_event_header__init_id(&lost_samples_event.header, &sample, event);
	if (perf_output_begin(&handle, &sample, event, lost_samples_event.header.size))
		return;
	perf_output_put(&handle, lost_samples_event);
	perf_event__output_id_sample(event, &handle, &sample);
	perf_output_end(&handle);
}
