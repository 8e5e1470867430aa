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
/* the user page and data pages as user space sees them, up to len bytes */
size_t ksrc_core_rb_copy(int fd, void *buf, size_t len);
/* a reader consumed everything: the user page's data_tail = data_head; 0 or -EBADF */
int ksrc_core_rb_consume(int fd);
/* the fd's perf_ioctl(); its return */
long ksrc_core_ioctl(int fd, unsigned int cmd, unsigned long arg);
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
};
int ksrc_core_event_state(int fd, struct ksrc_core_state *st);

/* the scheduler tick's perf_event_task_tick(): unthrottles, adjusts freq events */
void ksrc_core_tick(void);

/* the clock every timestamp reads (ns) */
void ksrc_core_set_clock(uint64_t ns);
/* the irq_work queued so far (pending wakeups, disables), as on return from the PMI */
void ksrc_irq_work_run(void);

#endif /* PMUSIM_KSRC_CORE_KSRC_H */
