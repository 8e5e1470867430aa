// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bridge to the kernel's kernel/events/core.c (interface:
 * ksrc/core_ksrc.h): boots it as start_kernel() would (perf_event_init()),
 * registers the model PMU (ksrc/core_model_pmu.c) as x86 registers its
 * "cpu" PMU, and reaches the file only through what user space reaches:
 * the perf_event_open() syscall body, the event file's mmap, ioctl and
 * release. Built with the core unit's shim and the tree's own
 * <linux/perf_event.h>.
 */
#include <stdlib.h>

#include <linux/perf_event.h>
#include "ksrc/core_ksrc.h"

/* the shim's access hook: the core unit installs none */
ksrc_access_fn ksrc_access_hook;

/* ksrc/core_model_pmu.c, ksrc/kernel/events/core_shim.c */
extern struct pmu ksrc_model_pmu;
void ksrc_model_pmu_attach(struct model_cpu *cpu);
struct file *ksrc_core_fd_file(int fd);
void ksrc_core_fd_close(int fd);
/* kernel/events/internal.h's, as ring_buffer.c defines it */
struct page *perf_mmap_to_page(struct perf_buffer *rb, unsigned long pgoff);
long ksrc_sys_perf_event_open(struct perf_event_attr __user *attr_uptr, pid_t pid, int cpu,
			      int group_fd, unsigned long flags);

static bool ksrc_core_booted;
static struct mm_struct ksrc_mm;
/* each fd's mapping (one at most), unmapped at close as munmap would */
#define KSRC_CORE_MAX_FDS 64
static struct vm_area_struct *ksrc_vmas[KSRC_CORE_MAX_FDS];

int ksrc_core_boot(struct model_cpu *cpu)
{
	if (ksrc_core_booted)
		return -EBUSY;
	perf_event_init();
	ksrc_model_pmu_attach(cpu);
	ksrc_core_booted = true;
	return perf_pmu_register(&ksrc_model_pmu, "cpu", PERF_TYPE_RAW);
}

int ksrc_core_perf_event_open(const void *uattr, int pid, int cpu, int group_fd,
			      unsigned long flags)
{
	return (int)ksrc_sys_perf_event_open((struct perf_event_attr __user *)uattr, pid, cpu,
					     group_fd, flags);
}

static struct perf_event *ksrc_fd_event(int fd)
{
	struct file *file = ksrc_core_fd_file(fd);

	return file ? file->private_data : NULL;
}

int ksrc_core_mmap(int fd, unsigned int nr_pages)
{
	return ksrc_core_mmap_prot(fd, nr_pages, 1);
}

int ksrc_core_mmap_prot(int fd, unsigned int nr_pages, int writable)
{
	struct file *file = ksrc_core_fd_file(fd);
	struct vm_area_struct *vma;
	int ret;

	if (!file || fd >= KSRC_CORE_MAX_FDS)
		return -EBADF;
	if (ksrc_vmas[fd])
		return -EBUSY;
	vma = calloc(1, sizeof(*vma));
	if (!vma)
		return -ENOMEM;
	/* a made-up user address: nothing dereferences it */
	vma->vm_start = 0x7f0000000000UL;
	vma->vm_end = vma->vm_start + ((unsigned long)nr_pages + 1) * PAGE_SIZE;
	vma->vm_mm = &ksrc_mm;
	vma->vm_flags = VM_READ | VM_SHARED | VM_MAYSHARE | (writable ? VM_WRITE : 0);
	vma->vm_file = file;
	ret = file->f_op->mmap(file, vma);
	if (ret) {
		free(vma);
		return ret;
	}
	/* the mapping holds the file, as mmap_region()'s get_file() */
	get_file(file);
	ksrc_vmas[fd] = vma;
	return 0;
}

/* munmap() of the fd's mapping, then close(): the kernel's order */
void ksrc_core_close(int fd)
{
	struct vm_area_struct *vma = fd >= 0 && fd < KSRC_CORE_MAX_FDS ? ksrc_vmas[fd] : NULL;

	if (vma) {
		ksrc_vmas[fd] = NULL;
		if (vma->vm_ops && vma->vm_ops->close)
			vma->vm_ops->close(vma);
		fput(vma->vm_file);
		free(vma);
	}
	ksrc_core_fd_close(fd);
}

size_t ksrc_core_rb_copy(int fd, void *buf, size_t len)
{
	struct perf_event *event = ksrc_fd_event(fd);
	struct perf_buffer *rb = event ? event->rb : NULL;
	size_t done = 0;

	if (!rb)
		return 0;
	for (unsigned long pgoff = 0; done < len; pgoff++) {
		struct page *page = perf_mmap_to_page(rb, pgoff);
		size_t n = min_t(size_t, PAGE_SIZE, len - done);

		if (!page)
			break;
		__builtin_memcpy((char *)buf + done, page_address(page), n);
		done += n;
	}
	return done;
}

int ksrc_core_rb_consume(int fd)
{
	struct perf_event *event = ksrc_fd_event(fd);
	struct perf_buffer *rb = event ? event->rb : NULL;
	/* page 0 of the mapping is the user page (internal.h's struct is not in view here) */
	struct page *page = rb ? perf_mmap_to_page(rb, 0) : NULL;
	struct perf_event_mmap_page *up = page ? page_address(page) : NULL;

	if (!up)
		return -EBADF;
	WRITE_ONCE(up->data_tail, READ_ONCE(up->data_head));
	return 0;
}

long ksrc_core_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *file = ksrc_core_fd_file(fd);

	if (!file)
		return -EBADF;
	return file->f_op->unlocked_ioctl(file, cmd, arg);
}

long ksrc_core_read(int fd, void *buf, size_t count)
{
	struct file *file = ksrc_core_fd_file(fd);
	loff_t pos = 0;

	if (!file)
		return -EBADF;
	return file->f_op->read(file, buf, count, &pos);
}

unsigned int ksrc_core_poll(int fd)
{
	struct file *file = ksrc_core_fd_file(fd);

	return file ? (unsigned int)file->f_op->poll(file, NULL) : 0;
}

int ksrc_core_fasync(int fd, int on)
{
	struct file *file = ksrc_core_fd_file(fd);

	if (!file)
		return -EBADF;
	return file->f_op->fasync(fd, file, on);
}

int ksrc_core_event_state(int fd, struct ksrc_core_state *st)
{
	struct perf_event *event = ksrc_fd_event(fd);

	if (!event)
		return -EBADF;
	if (event->pmu->read && event->state == PERF_EVENT_STATE_ACTIVE)
		event->pmu->read(event);
	st->count = (uint64_t)local64_read(&event->count);
	st->sample_period = event->hw.sample_period;
	st->last_period = event->hw.last_period;
	st->period_left = local64_read(&event->hw.period_left);
	st->interrupts = event->hw.interrupts;
	st->state = event->state;
	st->pending_kill = event->pending_kill;
	st->lost_samples = (uint64_t)atomic64_read(&event->lost_samples);
	return 0;
}

/* the scheduler's context switch on CPU 0: out of current, into @pid's task */
int ksrc_core_switch_to(int pid, int prev_runnable)
{
	struct task_struct *prev = current, *next = find_task_by_vpid(pid);

	if (!next)
		return -ESRCH;
	prev->on_rq = prev_runnable;
	next->on_rq = 1;
	perf_event_task_sched_out(prev, next);
	ksrc_current = next;
	perf_event_task_sched_in(prev, next);
	ksrc_irq_work_run();
	return 0;
}

void ksrc_core_tick(void)
{
	perf_event_task_tick();
	ksrc_irq_work_run();
}

int ksrc_core_fork_ctx_data(void)
{
	/* the parent's data: only its address is compared */
	static char parent_data;
	struct task_struct *child = malloc(sizeof(*child));
	int ret;

	if (!child)
		return -ENOMEM;
	*child = *current;
	child->perf_ctx_data = (struct perf_ctx_data *)&parent_data;
	ret = perf_event_init_task(child, 0);
	if (!ret) {
		struct task_struct *parent = current;

		ret = child->perf_ctx_data == (struct perf_ctx_data *)&parent_data;
		/* a task's exit runs in the task */
		ksrc_current = child;
		perf_event_exit_task(child);
		ksrc_current = parent;
	}
	free(child);
	return ret;
}
