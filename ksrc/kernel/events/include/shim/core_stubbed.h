/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stubbed: what kernel/events/core.c calls and the unit has no use for in
 * one process with one CPU. Two kinds:
 *  - no-ops with the kernel's meaning on one CPU and one thread: locks,
 *    lockdep's assertions, interrupt masking, RCU grace periods (nothing
 *    runs beside the caller), the tick dependency, module references;
 *  - the loud ones, KSRC_UNEXPECTED(): what the configuration leaves out
 *    (files, paths, the mm, sysfs, BPF, namespaces, credentials, signals,
 *    build ids) but core.c still names. Reached, it stops the program
 *    naming the call (ksrc_core_unexpected(), core_stubs.c), so a test
 *    that strays there fails instead of getting a made-up answer.
 */
#ifndef KSRC_CORE_STUBBED_H
#define KSRC_CORE_STUBBED_H

__attribute__((__noreturn__)) void ksrc_core_unexpected(const char *what, ...);
#define KSRC_UNEXPECTED(T, name, ...)	({ ksrc_core_unexpected(#name, ##__VA_ARGS__); (T)0; })
#define KSRC_UNEXPECTED_V(name, ...)	ksrc_core_unexpected(#name, ##__VA_ARGS__)

/* ---- locks: one thread, no contention -------------------------------------- */
typedef struct { int locked; } raw_spinlock_t;
#define DEFINE_RAW_SPINLOCK(x)		raw_spinlock_t x = { 0 }
#define DEFINE_SPINLOCK(x)		spinlock_t x = { 0 }
#define DEFINE_MUTEX(x)			struct mutex x = { 0 }
#define __RAW_SPIN_LOCK_UNLOCKED(x)	{ 0 }
#define raw_spin_lock_init(l)		((l)->locked = 0)
#define raw_spin_lock(l)		((void)(l))
#define raw_spin_unlock(l)		((void)(l))
#define raw_spin_lock_nested(l, s)	((void)(l))
#define raw_spin_lock_irq(l)		((void)(l))
#define raw_spin_unlock_irq(l)		((void)(l))
#define raw_spin_lock_irqsave(l, f)	((void)(l), (f) = 0)
#define raw_spin_unlock_irqrestore(l, f) ((void)(l), (void)(f))
#define spin_lock(l)			((void)(l))
#define spin_unlock(l)			((void)(l))
#define spin_lock_irqsave(l, f)		((void)(l), (f) = 0)
#define spin_unlock_irqrestore(l, f)	((void)(l), (void)(f))
#define mutex_lock(m)			((void)(m))
#define mutex_lock_nested(m, s)		((void)(m))
#define mutex_unlock(m)			((void)(m))
#define mutex_trylock(m)		((void)(m), 1)
#define mutex_is_locked(m)		((void)(m), 1)
#define mutex_destroy(m)		((void)(m))
#define SINGLE_DEPTH_NESTING		1
#define local_irq_disable()		barrier()
#define local_irq_enable()		barrier()
#define local_irq_save(f)		((f) = 0)
#define local_irq_restore(f)		((void)(f))
#define irqs_disabled()			1
#define lockdep_assert_held(l)		((void)(l))
#define lockdep_assert_irqs_disabled()	do { } while (0)
#define lockdep_assert_preemption_disabled() do { } while (0)
#define lockdep_is_held(l)		((void)(l), 1)
#define lockdep_set_class(l, k)		((void)(l), (void)(k))
#define preempt_disable_notrace()	barrier()
#define preempt_enable_notrace()	barrier()
#define cond_resched()			((void)0)
#define might_sleep()			do { } while (0)
#define might_fault()			do { } while (0)
#define in_nmi()			0
#define in_task()			1
#define cpus_read_lock()		do { } while (0)
#define cpus_read_unlock()		do { } while (0)
#define get_online_cpus()		do { } while (0)

/* atomic_dec_and_*_lock: the lock is nothing here */
#define atomic_dec_and_mutex_lock(a, m)	atomic_dec_and_test(a)
#define atomic_dec_and_raw_lock_irqsave(a, l, f) ((f) = 0, atomic_dec_and_test(a))

/* ---- RCU and SRCU: nothing runs beside the caller ----------------------- */
struct srcu_struct { int idx; };
#define DEFINE_STATIC_SRCU(x)		static struct srcu_struct x
#define init_srcu_struct(s)		((s)->idx = 0)
#define srcu_read_lock(s)		((void)(s), 0)
#define srcu_read_unlock(s, i)		((void)(s), (void)(i))
#define synchronize_srcu(s)		((void)(s))
#define synchronize_rcu()		do { } while (0)
#define get_state_synchronize_rcu()	0UL
#define cond_synchronize_rcu(s)		((void)(s))
#define rcu_read_lock_sched()		do { } while (0)
#define rcu_read_unlock_sched()		do { } while (0)
#define rcu_dereference_protected(p, c)	(p)
#define rcu_dereference_raw(p)		READ_ONCE(p)
#define rcu_dereference_check(p, c)	READ_ONCE(p)
#define rcu_dereference_sched(p)	READ_ONCE(p)
#define rcu_access_pointer(p)		READ_ONCE(p)
#define rcu_assign_pointer(p, v)	WRITE_ONCE((p), (v))
#define RCU_INIT_POINTER(p, v)		((p) = (v))
#define RCU_LOCKDEP_WARN(c, s)		do { } while (0)

/* ---- tick, modules, reboot, hotplug ----------------------------------------- */
#define TICK_DEP_BIT_PERF_EVENTS	1
#define tick_nohz_full_enabled()	false
#define tick_dep_set_cpu(c, b)		((void)(c))
#define tick_dep_clear_cpu(c, b)	((void)(c))
#define tick_nohz_full_cpu(c)		false
struct module;
#define THIS_MODULE			((struct module *)0)
#define try_module_get(m)		((void)(m), true)
#define module_put(m)			((void)(m))
#define __module_get(m)			((void)(m))
struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action, void *data);
	int priority;
};
#define NOTIFY_OK			1
#define register_reboot_notifier(nb)	({ (void)(nb); 0; })
#define early_initcall(f)
/* the initcalls core.c names: kept, never run (the bridge calls perf_event_init) */
#define device_initcall(f)		static int (*const __ksrc_initcall_##f)(void) __attribute__((__used__)) = (f)
#define core_initcall(f)
#define subsys_initcall(f)
#define late_initcall(f)
#define arch_initcall(f)

/* ---- printk ---------------------------------------------------------------- */
#define KERN_INFO			""
#define KERN_WARNING			""
#define KERN_ERR			""
#define KERN_CONT			""
#define pr_info(fmt, ...)		((void)0)
#define pr_warn(fmt, ...)		((void)0)
#define pr_err(fmt, ...)		((void)0)
#define pr_debug(fmt, ...)		((void)0)
#define pr_info_once(fmt, ...)		((void)0)
#define pr_warn_once(fmt, ...)		((void)0)
#define printk(fmt, ...)		((void)0)
#define printk_ratelimited(fmt, ...)	((void)0)
#define early_printk(fmt, ...)		((void)0)
#define printk_deferred(fmt, ...)	((void)0)

/* ---- what the configuration leaves out, loud -------------------------------- */
struct file;
struct inode;
struct dentry;
struct vfsmount;
struct device;
struct attribute;
struct kobject;
struct bpf_prog;
struct mm_struct;
struct vm_area_struct;
struct ns_common;
struct pid_namespace;
struct user_namespace;
struct cred;
struct seq_file;
struct kernel_siginfo;
struct perf_event;

#define capable(c)			((void)(c), true)
#define ns_capable(ns, c)		((void)(ns), (void)(c), true)
#define perfmon_capable()		true
#define CAP_IPC_LOCK			14
#define CAP_KILL			5
#define CAP_SYS_ADMIN			21
#define CAP_PERFMON			38
#define security_perf_event_open(a, ...)	((void)(a), 0)
#define security_perf_event_alloc(e)	((void)(e), 0)
#define security_perf_event_free(e)	((void)(e))
#define security_perf_event_read(e)	((void)(e), 0)
#define security_perf_event_write(e)	((void)(e), 0)
#define security_locked_down(w)		0
#define ptrace_may_access(t, m)		KSRC_UNEXPECTED(bool, ptrace_may_access, t, m)
#define PTRACE_MODE_READ_REALCREDS	0x11
#define PTRACE_MODE_ATTACH_REALCREDS	0x12

#define d_path(p, b, l)			KSRC_UNEXPECTED(char *, d_path, p, b, l)
#define file_path(f, b, l)		KSRC_UNEXPECTED(char *, file_path, f, b, l)
#define build_id_parse(v, b, s)		KSRC_UNEXPECTED(int, build_id_parse, v, b, s)
#define no_llseek			NULL
#define d_inode(d)			KSRC_UNEXPECTED(struct inode *, d_inode, d)
#define path_put(p)			KSRC_UNEXPECTED_V(path_put, p)
#define kern_path(n, f, p)		KSRC_UNEXPECTED(int, kern_path, n, f, p)
#define LOOKUP_FOLLOW			1
#define file_inode(f)			KSRC_UNEXPECTED(struct inode *, file_inode, f)
#define file_user_inode(f)		KSRC_UNEXPECTED(struct inode *, file_user_inode, f)
#define file_user_path(f)		KSRC_UNEXPECTED(const struct path *, file_user_path, f)
#define inode_lock(i)			KSRC_UNEXPECTED_V(inode_lock, i)
#define inode_unlock(i)			KSRC_UNEXPECTED_V(inode_unlock, i)
#define S_ISREG(m)			((void)(m), 0)
#define MAJOR(d)			((unsigned int)((d) >> 20))
#define MINOR(d)			((unsigned int)((d) & 0xfffff))
#define new_encode_dev(d)		((u32)(d))
#define ns_get_path(p, t, o)		KSRC_UNEXPECTED(int, ns_get_path, p, t, o)
#define arch_vma_name(v)		KSRC_UNEXPECTED(const char *, arch_vma_name, v)
#define build_id_parse_nofault(v, b, s)	KSRC_UNEXPECTED(int, build_id_parse_nofault, v, b, s)
#define BUILD_ID_SIZE_MAX		20
#define bpf_prog_get(fd)		KSRC_UNEXPECTED(struct bpf_prog *, bpf_prog_get, fd)
#define bpf_prog_put(p)			KSRC_UNEXPECTED_V(bpf_prog_put, p)
#define BPF_TAG_SIZE			8
#define send_sig_perf(a, e, t)		KSRC_UNEXPECTED(int, send_sig_perf, a, e, t)
#define proc_dointvec_minmax(...)	KSRC_UNEXPECTED(int, proc_dointvec_minmax, __VA_ARGS__)
#define proc_dointvec(...)		KSRC_UNEXPECTED(int, proc_dointvec, __VA_ARGS__)
/* <linux/syscalls.h>: the syscall's body is a function of its own, ksrc_sys_NAME */
#define __KSRC_MAP0(m, ...)
#define __KSRC_MAP1(m, t, a, ...) m(t, a)
#define __KSRC_MAP2(m, t, a, ...) m(t, a), __KSRC_MAP1(m, __VA_ARGS__)
#define __KSRC_MAP3(m, t, a, ...) m(t, a), __KSRC_MAP2(m, __VA_ARGS__)
#define __KSRC_MAP4(m, t, a, ...) m(t, a), __KSRC_MAP3(m, __VA_ARGS__)
#define __KSRC_MAP5(m, t, a, ...) m(t, a), __KSRC_MAP4(m, __VA_ARGS__)
#define __KSRC_MAP(n, ...) __KSRC_MAP##n(__VA_ARGS__)
#define __KSRC_DECL(t, a) t a
#define SYSCALL_DEFINE5(name, ...)					\
	long ksrc_sys_##name(__KSRC_MAP(5, __KSRC_DECL, __VA_ARGS__));	\
	long ksrc_sys_##name(__KSRC_MAP(5, __KSRC_DECL, __VA_ARGS__))
#define strndup_user(s, n)		KSRC_UNEXPECTED(char *, strndup_user, s, n)
#define match_token(s, t, a)		KSRC_UNEXPECTED(int, match_token, s, t, a)
#define match_strdup(s)			KSRC_UNEXPECTED(char *, match_strdup, s)
#define MAX_OPT_ARGS			3
typedef struct { char *from; char *to; } substring_t;
struct match_token { int token; const char *pattern; };
typedef struct match_token match_table_t[];

/* devices and sysfs: the pmu bus is never started (perf_event_sysfs_init is not called) */
struct attribute { const char *name; umode_t mode; };
struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr, const char *buf, size_t count);
};
struct attribute_group {
	const char *name;
	umode_t (*is_visible)(struct kobject *, struct attribute *, int);
	struct attribute **attrs;
};
struct bus_type {
	const char *name;
	const char *dev_name;
	const struct attribute_group **dev_groups;
};
struct kobject { int unused; };
struct device {
	struct kobject kobj;
	const struct bus_type *bus;
	const struct attribute_group **groups;
	void (*release)(struct device *dev);
	void *driver_data;
	struct device *parent;
};
#define DEVICE_ATTR_RO(n)		struct device_attribute dev_attr_##n = { .attr = { #n, 0444 }, .show = n##_show }
#define DEVICE_ATTR_RW(n)		struct device_attribute dev_attr_##n = { .attr = { #n, 0644 }, .show = n##_show, .store = n##_store }
#define __ATTR_RO(n)			{ .attr = { #n, 0444 }, .show = n##_show }
#define ATTRIBUTE_GROUPS(n)		static const struct attribute_group *n##_groups[] = { NULL }
#define kobj_to_dev(k)			container_of(k, struct device, kobj)
#define dev_get_drvdata(d)		((d)->driver_data)
#define dev_set_drvdata(d, p)		((d)->driver_data = (p))
#define dev_set_name(d, ...)		KSRC_UNEXPECTED(int, dev_set_name, d)
#define device_initialize(d)		KSRC_UNEXPECTED_V(device_initialize, d)
#define device_add(d)			KSRC_UNEXPECTED(int, device_add, d)
#define device_del(d)			KSRC_UNEXPECTED_V(device_del, d)
#define device_remove_file(d, a)	KSRC_UNEXPECTED_V(device_remove_file, d, a)
#define device_create_file(d, a)	KSRC_UNEXPECTED(int, device_create_file, d, a)
#define put_device(d)			KSRC_UNEXPECTED_V(put_device, d)
#define bus_register(b)			KSRC_UNEXPECTED(int, bus_register, b)
#define sysfs_update_groups(k, g)	KSRC_UNEXPECTED(int, sysfs_update_groups, k, g)
#define cpumap_print_to_pagebuf(l, b, m) KSRC_UNEXPECTED(ssize_t, cpumap_print_to_pagebuf, l, b, m)
/* its arguments named (not evaluated): 6.17's show functions read a local only for it */
#define sysfs_emit(b, ...)		((void)sizeof(__builtin_snprintf(NULL, 0, __VA_ARGS__)),		\
					 KSRC_UNEXPECTED(int, sysfs_emit, b))

/* the hw_breakpoint of !CONFIG_HAVE_HW_BREAKPOINT (<linux/hw_breakpoint.h>) */
#define init_hw_breakpoint()		0
#define modify_user_hw_breakpoint_check(b, a, c) KSRC_UNEXPECTED(int, modify_user_hw_breakpoint_check, b, a, c)

/*
 * the arch's user regs (x86's perf_regs.c): no regs sampled from user
 * space; an empty mask is EINVAL, as x86's perf_reg_validate() says
 */
#define perf_reg_validate(m)		((m) ? -ENOSYS : -EINVAL)
#define perf_reg_abi(t)			KSRC_UNEXPECTED(u64, perf_reg_abi, t)
#define perf_reg_value(r, i)		KSRC_UNEXPECTED(u64, perf_reg_value, r, i)
#define perf_get_regs_user(ru, r)	KSRC_UNEXPECTED_V(perf_get_regs_user, ru, r)
/* a task's user regs at its kernel entry: no sample here is taken in the kernel */
#define task_pt_regs(t)			KSRC_UNEXPECTED(struct pt_regs *, task_pt_regs, t)
/* x86's: the XMM registers, from bit 32 (PERF_REG_X86_XMM0) up */
#define PERF_REG_EXTENDED_MASK		(~((1ULL << 32) - 1))

#endif /* KSRC_CORE_STUBBED_H */

/* ---- files, the mm and BPF, as far as the configuration leaves them ---------- */
#ifndef KSRC_CORE_STUBBED_FILES
#define KSRC_CORE_STUBBED_FILES
#define EPOLLHUP			0x00000010u
#define EPOLLERR			0x00000008u
#define POLL_HUP			6
#define SIGIO				29
#define SIGTRAP				5
#define VM_READ				0x00000001UL
#define VM_WRITE			0x00000002UL
#define VM_EXEC				0x00000004UL
#define VM_SHARED			0x00000008UL
#define VM_MAYSHARE			0x00000080UL
#define VM_LOCKED			0x00002000UL
#define VM_DONTCOPY			0x00020000UL
#define VM_DONTEXPAND			0x00040000UL
#define VM_DONTDUMP			0x04000000UL
#define VM_FAULT_SIGBUS			0x0002
#define FAULT_FLAG_WRITE		0x01
#define FAULT_FLAG_MKWRITE		0x02
#define MAP_SHARED			0x01
#define MAP_PRIVATE			0x02
#define MAP_HUGETLB			0x40000
#define MAP_LOCKED			0x02000
#define PROT_READ			0x1
#define PROT_WRITE			0x2
#define PROT_EXEC			0x4
#define VMALLOC_START			0xffffc90000000000UL
#define VMALLOC_END			0xffffe8ffffffffffUL
/* the perf_event_free_bpf_prog & co of !CONFIG_BPF_EVENTS (<linux/trace_events.h>) */
/* what <linux/trace_events.h> has without CONFIG_BPF_EVENTS */
static inline int perf_event_query_prog_array(struct perf_event *event, void __user *info)
{
	(void)event;
	(void)info;
	return -EOPNOTSUPP;
}
/* <linux/trace_events.h> declares it whatever the configuration; core.c defines it */
void perf_event_free_bpf_prog(struct perf_event *event);
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog, u64 bpf_cookie);
#define BPF_PROG_TYPE_PERF_EVENT		7
#define BPF_PROG_TYPE_KPROBE			2
#define BPF_PROG_TYPE_TRACEPOINT		5
#define is_vm_hugetlb_page(v)			KSRC_UNEXPECTED(bool, is_vm_hugetlb_page, v)
#define vma_is_initial_heap(v)			KSRC_UNEXPECTED(bool, vma_is_initial_heap, v)
#define vma_is_initial_stack(v)			KSRC_UNEXPECTED(bool, vma_is_initial_stack, v)
#define virt_addr_valid(a)			KSRC_UNEXPECTED(bool, virt_addr_valid, a)
#define virt_to_phys(a)				KSRC_UNEXPECTED(phys_addr_t, virt_to_phys, a)
#define get_user_page_fast_only(a, f, p)	KSRC_UNEXPECTED(bool, get_user_page_fast_only, a, f, p)
#define page_to_phys(p)				KSRC_UNEXPECTED(phys_addr_t, page_to_phys, p)
#define put_page(p)				KSRC_UNEXPECTED_V(put_page, p)
#define get_page(p)				((void)(p))
#define mmap_read_lock(m)			KSRC_UNEXPECTED_V(mmap_read_lock, m)
#define mmap_read_unlock(m)			KSRC_UNEXPECTED_V(mmap_read_unlock, m)
struct vma_iterator { struct mm_struct *mm; };
#define VMA_ITERATOR(n, m, a)			struct vma_iterator n = { (m) }
#define for_each_vma(vmi, vma)			while (((vma) = KSRC_UNEXPECTED(struct vm_area_struct *, for_each_vma, &(vmi))))
extern struct mm_struct init_mm;
struct proc_ns_operations { const char *name; };
extern const struct proc_ns_operations mntns_operations;
#endif
