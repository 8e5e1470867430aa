/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf_event.h - the kernel-internal perf types (the counterpart of
 * include/linux/perf_event.h): struct perf_event, hw_perf_event, struct
 * pmu, the output handle and the sample data, and the functions the
 * pieces of core/ call in each other.
 *
 * Only what pmusim models is here; names and meanings are the kernel's.
 */
#ifndef PMUSIM_CORE_PERF_EVENT_H
#define PMUSIM_CORE_PERF_EVENT_H

#include "kernel.h"
#include "sched.h"
#include <pmusim/perf_event.h>

struct perf_event;
struct perf_buffer;
struct perf_sample_data;

/* The register state an interrupt saw: enough for IP, misc and callchains. */
struct pt_regs {
	u64 ip;
	u64 sp;
	bool user;		/* CPL > 0 at the interrupt */
	bool exact;		/* ip is the exact instruction (PEBS-like) */
	/*
	 * pmusim: the instruction whose event overflowed, which a PEBS
	 * record would carry (its real_ip); 0 when the simulator does not
	 * know it. ip is where the interrupt came, the instruction after.
	 */
	u64 eventing_ip;
	/*
	 * What an unwinder finds above ip: the return addresses, innermost
	 * first (a kernel walk stops at a 0). For kernel-mode regs,
	 * user_regs is the task's user state at kernel entry (the kernel's
	 * task_pt_regs()), NULL in a kernel thread.
	 */
	const u64 *callers;
	unsigned int nr_callers;
	struct pt_regs *user_regs;
};
#define user_mode(regs)			((regs)->user)
#define instruction_pointer(regs)	((regs)->ip)
#define perf_misc_flags(regs) \
	(user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL)

struct perf_callchain_entry {
	u64 nr;
	u64 ip[];		/* PERF_MAX_STACK_DEPTH entries at most */
};

struct perf_branch_stack {
	u64 nr;
	u64 hw_idx;
	struct perf_branch_entry entries[];
};

/* hw_perf_event::state */
#define PERF_HES_STOPPED	0x01	/* the counter is stopped */
#define PERF_HES_UPTODATE	0x02	/* event->count up to date */
#define PERF_HES_ARCH		0x04

/* pmu::start/stop/add flags */
#define PERF_EF_START		0x01
#define PERF_EF_RELOAD		0x02
#define PERF_EF_UPDATE		0x04

/* hw_perf_event::interrupts value while throttled */
#define MAX_INTERRUPTS		(~0ULL)

/* An extra register an event programs: x86's LBR_SELECT. */
struct hw_perf_event_extra {
	u64 config;			/* the register's value */
	unsigned int reg;		/* x86: the X86_BR_* software filter */
	int idx;
};

struct hw_perf_event {
	u64 config;			/* the event select the driver built */
	u64 last_tag;
	unsigned long config_base;	/* MSR of the event select */
	unsigned long event_base;	/* MSR of the counter */
	int event_base_rdpmc;
	int idx;			/* counter index, -1 when not scheduled */
	int last_cpu;
	int flags;
	int state;			/* PERF_HES_* */
	local64_t prev_count;		/* last counter value read */
	u64 sample_period;
	u64 last_period;
	local64_t period_left;
	u64 interrupts_seq;
	u64 interrupts;
	u64 freq_time_stamp;
	u64 freq_count_stamp;
	/* RFC: alternating periods; true while alternative_sample_period runs */
	bool using_alternative_sample_period;
	struct hw_perf_event_extra branch_reg;	/* LBR_SELECT / ARCH_LBR_CTL */
};

/* pmu::capabilities */
#define PERF_PMU_CAP_NO_INTERRUPT	0x0001
#define PERF_PMU_CAP_NO_NMI		0x0002
#define PERF_PMU_CAP_EXTENDED_REGS	0x0008
#define PERF_PMU_CAP_EXCLUSIVE		0x0010
#define PERF_PMU_CAP_NO_EXCLUDE		0x0040
#define PERF_PMU_CAP_AUX_OUTPUT		0x0080
/* takes PERF_TYPE_HARDWARE/HW_CACHE events naming its type in config's top half */
#define PERF_PMU_CAP_EXTENDED_HW_TYPE	0x0100
#define PERF_PMU_CAP_AUX_PAUSE		0x0200

/*
 * The events of one context on one PMU; for a per-task context it holds
 * the PMU's per-task data (v6.12: x86 keeps the LBR call stack there).
 */
struct perf_event_pmu_context {
	struct pmu *pmu;
	struct task_struct *task;	/* NULL for a CPU's context */
	void *task_ctx_data;
	refcount_t refcount;
};

struct pmu {
	const char *name;
	int type;
	int capabilities;
	int (*event_init)(struct perf_event *event);
	int (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);
	/* may the event run with this period? non-zero refuses (NULL: yes) */
	int (*check_period)(struct perf_event *event, u64 value);
	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);
	/* per CPU: perf_pmu_disable() nests, only the outermost pair calls the PMU */
	int pmu_disable_count[CONFIG_MODEL_MAX_CPUS];
	int (*event_idx)(struct perf_event *event);
	/* context switch: save/restore per-task state such as LBR call stacks */
	u16 pmc_width;			/* counter bits, for the user page */
	bool cap_user_rdpmc;		/* user space may rdpmc its counters */
	void (*sched_task)(struct perf_event_pmu_context *pmu_ctx,
			   struct task_struct *task, bool sched_in);
	size_t task_ctx_size;		/* bytes of per-task PMU data */
	void *priv;
	atomic_t exclusive_cnt;		/* PERF_PMU_CAP_EXCLUSIVE: <0 cpu-wide, >0 per-task events */
};

enum perf_event_state {
	PERF_EVENT_STATE_DEAD		= -4,
	PERF_EVENT_STATE_EXIT		= -3,
	PERF_EVENT_STATE_ERROR		= -2,
	PERF_EVENT_STATE_OFF		= -1,
	PERF_EVENT_STATE_INACTIVE	=  0,
	PERF_EVENT_STATE_ACTIVE		=  1,
};

typedef void (*perf_overflow_handler_t)(struct perf_event *event,
					struct perf_sample_data *data,
					struct pt_regs *regs);

/* POLL_* codes for event->pending_kill, as <signal.h> numbers them */
#ifndef POLL_IN
#define POLL_IN		1
#define POLL_HUP	6
#endif
#define EPOLLIN		0x001
#define EPOLLRDNORM	0x040
#define EPOLLHUP	0x010

struct perf_event {
	struct perf_event_attr attr;
	u16 header_size;		/* fixed part of a sample beyond the header */
	u16 id_header_size;		/* sample_id trailer of non-sample records */
	u16 read_size;			/* PERF_SAMPLE_READ payload */
	struct hw_perf_event hw;
	struct pmu *pmu;
	enum perf_event_state state;
	local64_t count;
	atomic64_t child_count;
	u64 total_time_enabled;
	u64 total_time_running;
	u64 tstamp;

	struct perf_event *group_leader;
	struct perf_event **siblings;	/* group members other than the leader */
	int nr_siblings;
	struct perf_event *parent;

	int cpu;			/* -1 for a per-task event on any CPU */
	int pid;			/* -1 for a system-wide event */
	u64 id;
	u64 stream_id;			/* the parent's id, or id */
	atomic64_t lost_samples;

	struct perf_buffer *rb;		/* the buffer its records go to */
	struct perf_event *output_event;/* PERF_EVENT_IOC_SET_OUTPUT target */
	int pending_kill;		/* POLL_IN, POLL_HUP, ... for user space */
	bool fasync;			/* O_ASYNC set: wakeups also send SIGIO */
	int pending_wakeup;
	int pending_disable;
	atomic_t event_limit;		/* PERF_EVENT_IOC_REFRESH budget */
	perf_overflow_handler_t overflow_handler;
	void *overflow_handler_context;
	u64 (*clock)(void);

	void *pmu_private;		/* the driver's per-event data */
	struct perf_event_pmu_context *pmu_ctx;	/* set by the driver that needs one */
	/* the driver's release, run by free_event when set */
	void (*destroy)(struct perf_event *event);

	/* core/event.c: where the event lives and runs */
	struct perf_event_context *ctx;	/* per-CPU or per-task context */
	struct perf_event *ctx_next;	/* ctx->event_list */
	struct perf_event *active_next;	/* perf_cpu_context::active_list */
	int oncpu;			/* CPU it is added on, -1 when not */
	int attach_state;		/* PERF_ATTACH_* */
	int nr_siblings_max;		/* room in siblings[] */
	struct task_struct *target;	/* the kernel's hw.target: the task watched */
};

static inline bool is_write_backward(struct perf_event *event)
{
	return !!event->attr.write_backward;
}

/* Overflows act on the group's AUX event (only ever refused: no AUX PMU). */
static inline bool has_aux_action(struct perf_event *event)
{
	return event->attr.aux_sample_size || event->attr.aux_pause || event->attr.aux_resume;
}

static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

static inline bool has_branch_stack(struct perf_event *event)
{
	return event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK;
}

static inline bool branch_sample_hw_index(const struct perf_event *event)
{
	return event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;
}

/* ---- output (core/ring_buffer.c) ----------------------------------------- */

struct perf_output_handle {
	struct perf_event *event;
	struct perf_buffer *rb;
	unsigned long wakeup;		/* rb->wakeup when the handle was taken */
	unsigned long size;		/* bytes left in the current page */
	u64 flags;
	void *addr;			/* where the next byte goes */
	int page;
};

int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size);
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size);
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size);
void perf_output_end(struct perf_output_handle *handle);
/* The page walk of perf_output_copy(), out of line (core/ring_buffer.c). */
unsigned int __perf_output_copy(struct perf_output_handle *handle,
				const void *buf, unsigned int len);
/*
 * Copy @len bytes of the record. Returns the bytes not copied: always 0.
 * Bytes that end before the current page does (nearly all of them:
 * fields are small, pages 4K) are copied inline, where a constant @len
 * becomes a few moves; a copy that reaches the page's end walks the
 * pages out of line. Either way PI_OUTPUT_COPY follows each chunk.
 */
static __always_inline unsigned int
perf_output_copy(struct perf_output_handle *handle, const void *buf, unsigned int len)
{
	struct perf_output_handle walk;
	unsigned int left;

	/*
	 * 0 < len < handle->size. A constant len leaves the second compare
	 * alone; any other len is tested in one: handle->size is never 0
	 * here (the walk turns to the next page when it reaches 0), so
	 * len - 1 wraps past handle->size - 1 exactly when len is 0.
	 * Without interleaving points len 0 needs no test at all: the fast
	 * path then copies nothing and moves nothing, as the walk does; only
	 * the PI_OUTPUT_COPY it would add tells the two apart.
	 */
	if (likely(__builtin_constant_p(len) ? len && len < handle->size :
		   IS_ENABLED(CONFIG_PERF_INTERLEAVE) ?
		   (unsigned long)len - 1 < handle->size - 1 : len < handle->size)) {
		memcpy(handle->addr, buf, len);
		handle->addr = (char *)handle->addr + len;
		handle->size -= len;
		perf_interleave(PI_OUTPUT_COPY, handle->rb);
		return 0;
	}
	/* On a copy: the caller's handle can stay in registers (core/ring_buffer.h). */
	walk = *handle;
	left = __perf_output_copy(&walk, buf, len);
	*handle = walk;
	return left;
}
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len);
#define perf_output_put(handle, x) perf_output_copy((handle), &(x), sizeof(x))

/* ---- samples and the sample_id trailer ------------------------------------ */

struct perf_sample_data {
	u64 sample_flags;		/* which fields below are filled */
	u64 period;
	u64 dyn_size;			/* callchain, branch stack, ... bytes */

	u64 type;
	struct {
		u32 pid;
		u32 tid;
	} tid_entry;
	u64 time;
	u64 id;
	struct {
		u32 cpu;
		u32 reserved;
	} cpu_entry;

	u64 ip;
	struct perf_callchain_entry *callchain;
	/* where perf_callchain() builds this sample's chain */
	u64 callchain_buf[1 + PERF_MAX_STACK_DEPTH + PERF_MAX_CONTEXTS_PER_STACK];
	struct perf_branch_stack *br_stack;
	u64 stream_id;
	u64 addr;
};

static inline void perf_sample_data_init(struct perf_sample_data *data,
					 u64 addr, u64 period)
{
	data->sample_flags = PERF_SAMPLE_PERIOD;
	data->period = period;
	data->dyn_size = 0;
	if (addr) {
		data->addr = addr;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
}

/*
 * The sample_id trailer of non-sample records (core/sample_id.c): the
 * PERF_SAMPLE_ID_ALL fields of attr.sample_type, appended when
 * attr.sample_id_all is set.
 */
#define PERF_SAMPLE_ID_ALL  (PERF_SAMPLE_TID | PERF_SAMPLE_TIME |	\
			     PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |	\
			     PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

/* The id user space knows the event by: an inherited event reports its parent's. */
static inline u64 primary_event_id(struct perf_event *event)
{
	return event->parent ? event->parent->id : event->id;
}

/* The event's clock (attr.use_clockid), else perf time. */
static inline u64 perf_event_clock(struct perf_event *event)
{
	return event->clock ? event->clock() : perf_clock();
}

/* Fill @data's sample_id fields named in @sample_type from the running context. */
void __perf_event_header__init_id(struct perf_sample_data *data,
				  struct perf_event *event, u64 sample_type);

/* Set event->id_header_size from attr.sample_type. */
void perf_event__id_header_size(struct perf_event *event);
/*
 * With attr.sample_id_all: grow header->size by the trailer and fill the
 * trailer's fields of @data from the running task, the clock and the CPU.
 */
void perf_event_header__init_id(struct perf_event_header *header,
				 struct perf_sample_data *data,
				 struct perf_event *event);
/* Set type, misc and size, then perf_event_header__init_id(). */
void perf_event_header__init(struct perf_event_header *header,
			     struct perf_sample_data *data,
			     u32 type, u16 misc, u16 size,
			     struct perf_event *event);
/* With attr.sample_id_all: write the trailer that init_id prepared. */
void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *data);

/* ---- sample sizes and output (core/sample.c) ------------------------------ */

int __perf_event_read_size(u64 read_format, int nr_siblings);
/* Sets event->read_size and event->header_size from the attr and group. */
void perf_event__header_size(struct perf_event *event);

/* The sample_type bits pmusim fills; perf_event_open() refuses the rest. */
#define PERF_SAMPLE_PMUSIM_MASK						\
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |		\
	 PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |		\
	 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |	\
	 PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK)

/*
 * Fill what @data lacks for event->attr.sample_type (the driver may have
 * filled some: data->sample_flags), sizing the variable parts.
 */
void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);
void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);
/* Write a prepared sample between perf_output_begin*() and _end(). */
void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data,
			struct perf_event *event);
/*
 * One event's read_format values (no PERF_FORMAT_GROUP): @count, the times,
 * ID, LOST as the format asks, into @values (5 at most); returns how many.
 * read() and PERF_SAMPLE_READ lay them out alike.
 */
int perf_read_one_values(struct perf_event *event, u64 count, u64 enabled, u64 running,
			 u64 *values);
/* The read_format block of @event (a group's, with PERF_FORMAT_GROUP). */
void perf_output_read(struct perf_output_handle *handle,
		      struct perf_event *event);
/* Overflow handlers: prepare, reserve, write, publish one sample. */
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs);
/* Returns 0, or the error of perf_output_begin() (-ENOSPC: lost). */
int perf_event_output(struct perf_event *event,
		      struct perf_sample_data *data,
		      struct pt_regs *regs);
/* A driver that took the branch stack itself (hw_idx, entries). */
void perf_sample_save_brstack(struct perf_sample_data *data,
			      struct perf_event *event,
			      struct perf_branch_stack *brs);

/*
 * attr.hw_time (CONFIG_PERF_HW_TIME): the clock a sample's TIME field
 * reads instead of perf time. core/x86/tsc.c points it at rdtsc(), the
 * model TSC; a driver with its own time stamps may replace it.
 */
extern u64 (*perf_hw_time)(void);

/* ---- callchains (core/callchain.c) ---------------------------------------- */

extern int sysctl_perf_event_max_stack;
extern int sysctl_perf_event_max_contexts_per_stack;
/*
 * The chain for a sample at @regs into @entry (room for
 * PERF_MAX_STACK_DEPTH + PERF_MAX_CONTEXTS_PER_STACK ips): context
 * markers, kernel then user frames, as the attr allows.
 */
struct perf_callchain_entry *
perf_callchain(struct perf_event *event, struct pt_regs *regs,
	       struct perf_callchain_entry *entry);

/* ---- the user page (core/user_page.c, core/x86/userpage.c) ---------------- */

/* Enabled and running time of @event up to *now = perf_clock(). */
void calc_timer_values(struct perf_event *event, u64 *now,
		       u64 *enabled, u64 *running);
/*
 * What perf_mmap() writes once into a new mapping's user page (event->rb
 * attached): cap_bit0_is_deprecated, size, data_offset, data_size.
 */
void perf_event_init_userpage(struct perf_event *event);
/* Rewrite the self-monitoring fields of event->rb's user page. */
void perf_event_update_userpage(struct perf_event *event);
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now);

/* ---- events: open, controls, contexts (core/event.c, core/attr.c) ------- */

#define PERF_FLAG_ALL	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
			 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

/* perf_event::attach_state */
#define PERF_ATTACH_CONTEXT	0x01
#define PERF_ATTACH_GROUP	0x02
#define PERF_ATTACH_TASK	0x04
#define PERF_ATTACH_EXCLUSIVE	0x08
#define PERF_ATTACH_TASK_DATA	0x10	/* needs per-task PMU data (LBR call stack) */

/*
 * The events of one CPU (cpu >= 0, pid -1) or of one task (pid >= 0). A
 * task's context runs on at most one CPU at a time: oncpu.
 */
struct perf_event_context {
	int cpu;			/* per-CPU context: its CPU; else -1 */
	int pid;			/* per-task context: the thread's tid; else -1 */
	int oncpu;			/* CPU the context is scheduled on, -1 */
	struct perf_event *event_list;	/* every event, through ctx_next */
	int nr_events;
	struct perf_event_context *next;/* the list of task contexts */
};

/* Per CPU: its own context and what runs there now. */
struct perf_cpu_context {
	struct perf_event_context ctx;
	struct perf_event_context *task_ctx;	/* current task's, if scheduled */
	struct perf_event *active_list;	/* events added to a PMU on this CPU */
	int throttled_count;		/* perf_throttled_count */
	u64 throttled_seq;		/* perf_throttled_seq: one per tick */
};

extern struct perf_cpu_context perf_cpu_context[CONFIG_MODEL_MAX_CPUS];

/* sysctls: kernel.perf_event_max_sample_rate and friends. */
extern int sysctl_perf_event_sample_rate;
extern int max_samples_per_tick;
/*
 * Set the sample-rate sysctl: the tick budget follows, as the sysctl
 * handler recomputes it. 0, or -EINVAL for a rate below 1.
 */
int perf_event_max_sample_rate_set(int rate);
/* kernel.perf_cpu_time_max_percent: 0 or 100 turn the dynamic throttling off. */
extern int sysctl_perf_cpu_time_max_percent;
int perf_cpu_time_max_percent_set(int percent);
/*
 * A PMI handler took @sample_len_ns (x86 measures it around the handler):
 * too long on average and the sample rate drops (kernel/events/core.c).
 */
void perf_sample_event_took(u64 sample_len_ns);
/* How many times it did (the kernel prints "interrupt took too long"). */
extern unsigned long perf_sample_rate_lowered;
/* The sysctls and the running PMI lengths as at boot (the end of a run). */
void perf_cpu_limits_reset(void);

/*
 * The machine's tick rate. The kernel's HZ is CONFIG_HZ, fixed when it
 * is built; a simulated machine picks its own (a scenario's machine.hz),
 * so here HZ reads a setting that starts at CONFIG_HZ. Everything that
 * depends on the tick follows it: max_samples_per_tick, TICK_NSEC (the
 * frequency-mode window). 0, or -EINVAL for a rate below 1 or above
 * NSEC_PER_SEC.
 */
extern int perf_event_hz;
int perf_event_hz_set(int hz);

#define NSEC_PER_SEC	1000000000ULL
#define HZ		READ_ONCE(perf_event_hz)
#define TICK_NSEC	((NSEC_PER_SEC + HZ / 2) / HZ)

/* Clock ids for attr.clockid (Linux's numbers). */
#define PERF_CLOCK_REALTIME		0
#define PERF_CLOCK_MONOTONIC		1
#define PERF_CLOCK_MONOTONIC_RAW	4
#define PERF_CLOCK_BOOTTIME		7
#define PERF_CLOCK_TAI			11

/*
 * perf_copy_attr - copy and check @size bytes of a user attr at @uattr
 * (size 0 means PERF_ATTR_SIZE_VER0; the caller passes attr.size as the
 * syscall reads it). 0 or -E2BIG/-EINVAL/-EFAULT. On -E2BIG the size the
 * kernel writes back into uattr->size goes to *@size_ret when non-NULL.
 */
int perf_copy_attr(const void *uattr, u32 size, struct perf_event_attr *attr,
		   u32 *size_ret);
/* perf_reg_validate - x86-64 sample_regs mask check: 0 or -EINVAL. */
int perf_reg_validate(u64 mask);

/*
 * The PMU registry: perf_init_event() finds a PMU by attr.type;
 * PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE go to PERF_TYPE_RAW's PMU.
 * 0, -EINVAL for a bad type, -EEXIST for a type taken.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);

/*
 * The task with this pid (0: current), or NULL. sim/ installs it; unset,
 * only tasks running on some CPU are found.
 */
extern struct task_struct *(*perf_find_task_by_vpid)(int pid);

/*
 * perf_event_open_attr - the perf_event_open() syscall. @pmu NULL picks
 * the PMU by attr.type from the registry. @group_leader stands for
 * group_fd (NULL for -1). 0 and the event in *@out, or a negative errno.
 */
int perf_event_open_attr(const void *uattr, size_t size, int pid, int cpu,
			 struct perf_event *group_leader, unsigned long flags,
			 struct pmu *pmu, struct perf_event **out);
/* close(): removes the event (and a leader's group ties) and frees it */
void perf_event_release_kernel(struct perf_event *event);

/*
 * perf_event_create_kernel_counter - an in-kernel counter with its own
 * overflow handler (no attr copy, no syscall checks).
 */
struct perf_event *perf_event_create_kernel_counter(struct perf_event_attr *attr,
		int cpu, struct task_struct *task,
		perf_overflow_handler_t overflow_handler, void *context,
		struct pmu *pmu, int *err);

/*
 * perf_ioctl - PERF_EVENT_IOC_*; @arg is a u64 * for PERIOD and ID, a
 * struct perf_event * (or NULL) for SET_OUTPUT, an int otherwise.
 * 0 or the kernel's errno (-EINVAL, -EFAULT, -ENOTTY, ...).
 */
int perf_ioctl(struct perf_event *event, unsigned int cmd, unsigned long arg);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
void perf_event_disable_inatomic(struct perf_event *event);
int perf_event_refresh(struct perf_event *event, int refresh);
int perf_event_period(struct perf_event *event, u64 value);
int perf_event_set_output(struct perf_event *event, struct perf_event *output_event);
u64 perf_event_read_value(struct perf_event *event, u64 *enabled, u64 *running);
/* read() of the event's fd: its read_format bytes, 0, -ENOSPC or -ENOMEM */
ssize_t perf_read(struct perf_event *event, void *buf, size_t count);

/*
 * Irq work of this CPU: the disables perf_event_disable_inatomic() left
 * pending. sim/ runs it after each PMI; the tick runs it too.
 */
void perf_event_irq_work_run(void);

/*
 * A transaction on this CPU's PMU: they nest, and only the outermost pair
 * calls pmu->pmu_disable/pmu_enable, which applies what changed between.
 */
void perf_pmu_disable(struct pmu *pmu);
void perf_pmu_enable(struct pmu *pmu);

/* Context switch on this CPU: @task's events go on / come off the PMU. */
void perf_event_sched_in(int cpu, struct task_struct *task);
void perf_event_sched_out(int cpu, struct task_struct *task);

/* ---- overflow (core/overflow.c) ------------------------------------------ */

int perf_event_overflow(struct perf_event *event, struct perf_sample_data *data,
			struct pt_regs *regs);
int __perf_event_overflow(struct perf_event *event, int throttle,
			  struct perf_sample_data *data, struct pt_regs *regs);
int perf_event_account_interrupt(struct perf_event *event);
u64 perf_calculate_period(struct perf_event *event, u64 nsec, u64 count);
void perf_adjust_period(struct perf_event *event, u64 nsec, u64 count, bool disable);
/* The scheduler tick on this CPU (smp_processor_id()): unthrottle, freq. */
void perf_event_task_tick(void);

#endif /* PMUSIM_CORE_PERF_EVENT_H */
