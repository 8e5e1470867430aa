/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stubbed: kernel facilities the files under test call but whose work has
 * no counterpart in one user-space process: they do nothing, or the one
 * trivial thing. Locks (one thread runs the code; nesting is what the
 * interleaving hook makes), RCU (nothing is freed under a writer), the
 * preemption count, NUMA nodes, irq_work (the harness reads
 * event->pending_wakeup instead), user copies (user memory is ours).
 */
#ifndef KSRC_SHIM_STUBBED_H
#define KSRC_SHIM_STUBBED_H

#include <shim/customised.h>

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#define rcu_read_lock()		do { } while (0)
#define rcu_read_unlock()	do { } while (0)
#define preempt_disable()	barrier()
#define preempt_enable()	barrier()
#define pagefault_disable()	barrier()
#define pagefault_enable()	barrier()
#define in_atomic()		0
#define interrupt_context_level() 0
#define smp_processor_id()	0
#define raw_smp_processor_id()	0
#define cpu_to_node(cpu)	((void)(cpu), 0)

typedef struct { int locked; } spinlock_t;
struct mutex { int locked; };
#define spin_lock_init(l)	((l)->locked = 0)
#define mutex_init(m)		((m)->locked = 0)
static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

/* <linux/sched/user.h>: one user, its references counted (core_stubs.c) */
struct user_struct *get_current_user(void);
void free_uid(struct user_struct *user);

struct irq_work { int pending; void (*func)(struct irq_work *work); struct irq_work *next; };
static inline bool irq_work_queue(struct irq_work *work)
{
	(void)work;
	return true;
}

static inline unsigned long __copy_from_user_inatomic(void *to, const void __user *from,
							unsigned long n)
{
	__builtin_memcpy(to, from, n);
	return 0;
}

#endif /* KSRC_SHIM_STUBBED_H */
