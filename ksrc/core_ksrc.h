/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The core unit's interface (ksrc/core_bridge.c): the kernel's own
 * kernel/events/core.c and ring_buffer.c, booted on a model CPU with a
 * model PMU driver (ksrc/core_model_pmu.c). It names no kernel type:
 * attrs go in as the bytes perf_event_open() reads.
 */
#ifndef PMUSIM_KSRC_CORE_KSRC_H
#define PMUSIM_KSRC_CORE_KSRC_H

#include <stddef.h>
#include <stdint.h>

struct model_cpu;

/* perf_event_init() and the model PMU's perf_pmu_register(), once; 0 or -errno */
int ksrc_core_boot(struct model_cpu *cpu);
/* the kernel's perf_event_open() syscall body: an fd, or -errno */
int ksrc_core_perf_event_open(const void *uattr, int pid, int cpu, int group_fd,
			      unsigned long flags);
/* perf_mmap() of 1 + nr_pages pages at offset 0, shared, read-write; 0 or -errno */
int ksrc_core_mmap(int fd, unsigned int nr_pages);
/* the same with the mapping's protection: read-only (writable 0) is the overwrite mode */
int ksrc_core_mmap_prot(int fd, unsigned int nr_pages, int writable);
/* the user page and data pages as user space sees them, up to len bytes */
size_t ksrc_core_rb_copy(int fd, void *buf, size_t len);
/* a reader consumed everything: the user page's data_tail = data_head; 0 or -EBADF */
int ksrc_core_rb_consume(int fd);
/* the fd's perf_ioctl(); its return */
long ksrc_core_ioctl(int fd, unsigned int cmd, unsigned long arg);
/* read(fd, buf, count): the fd's perf_read(); bytes, 0 or -errno */
long ksrc_core_read(int fd, void *buf, size_t count);
/* poll(fd): the EPOLL* bits perf_poll() returns (it clears the buffer's) */
unsigned int ksrc_core_poll(int fd);
/* fcntl(fd, F_SETFL, O_ASYNC) on (1) or off (0): the fd's perf_fasync(); 0 or -errno */
int ksrc_core_fasync(int fd, int on);
/* the SIGIOs kill_fasync() sent so far, and the band (POLL_IN, POLL_HUP) of the last */
struct ksrc_core_sigio {
	unsigned long	nr;
	int		band;
};
void ksrc_core_sigio(struct ksrc_core_sigio *sig);
/* close(fd) */
void ksrc_core_close(int fd);

/* what the differential checks compare (the fd's event) */
struct ksrc_core_state {
	uint64_t	count;
	uint64_t	sample_period;
	uint64_t	last_period;
	int64_t		period_left;
	uint64_t	interrupts;	/* hw.interrupts: MAX_INTERRUPTS when throttled */
	int		state;		/* PERF_EVENT_STATE_* */
	int		pending_kill;	/* POLL_IN, POLL_HUP: the band of the next SIGIO */
	uint64_t	lost_samples;
};
int ksrc_core_event_state(int fd, struct ksrc_core_state *st);

/*
 * fork()'s perf part, perf_event_init_task(), for a child of the running
 * task whose task_struct was copied whole, task->perf_ctx_data included,
 * as dup_task_struct() copies it: 1 if the child still has its parent's
 * PMU data after it, 0 if not, -errno if it failed
 */
int ksrc_core_fork_ctx_data(void);

/*
 * A context switch on CPU 0 to the shim's task @pid (1 runs at boot, 2
 * waits), the task switched out still runnable (preempted) or not (asleep);
 * 0 or -ESRCH.
 */
int ksrc_core_switch_to(int pid, int prev_runnable);

/* the scheduler tick's perf_event_task_tick(): unthrottles, adjusts freq events */
void ksrc_core_tick(void);

/* the model's user stack at the next PMIs: @nr return addresses, innermost first */
void ksrc_core_set_user_stack(const uint64_t *ret, unsigned int nr);

/* the clock every timestamp reads (ns) */
void ksrc_core_set_clock(uint64_t ns);
/* the irq_work queued so far (pending wakeups, disables), as on return from the PMI */
void ksrc_irq_work_run(void);

#endif /* PMUSIM_KSRC_CORE_KSRC_H */
