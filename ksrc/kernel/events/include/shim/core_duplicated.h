/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * duplicated: what the kernel's headers define and kernel/events/core.c
 * or the tree's <linux/perf_event.h> use, restated with the kernel's names
 * and meaning (x86-64). Keep in sync with the kernel: when a new tree fails
 * to build, look here first. The ring unit's shim (ksrc/include/shim)
 * already has the types, the compiler's words, READ_ONCE, local_t and
 * the atomics; what is here is what core.c needs beyond them.
 */
#ifndef KSRC_CORE_DUPLICATED_H
#define KSRC_CORE_DUPLICATED_H

#include <assert.h>
#include <stdarg.h>
#include <sys/types.h>

/* the structs the prototypes below name before they are defined */
struct file;
struct inode;
struct vm_area_struct;
struct vm_fault;
struct poll_table_struct;
struct module;
struct user_namespace;
struct page;
typedef unsigned int vm_fault_t;

/* <uapi/asm-generic/int-ll64.h>, <linux/types.h> */
typedef u8 __u8;
typedef s8 __s8;
typedef s16 __s16;
typedef u16 __le16;
typedef u32 __le32;
typedef u64 __le64;
typedef u16 __be16;
typedef u32 __be32;
typedef u64 __be64;
typedef s64 ktime_t;
typedef unsigned int fmode_t;
typedef unsigned short umode_t;
typedef unsigned int kuid_val_t;
typedef struct { kuid_val_t val; } kuid_t;
typedef struct { kuid_val_t val; } kgid_t;
typedef unsigned long phys_addr_t;
typedef unsigned long dma_addr_t;
typedef unsigned long irq_hw_number_t;
typedef struct { long counter; } atomic_long_t;
#define __aligned_u64	__u64 __attribute__((aligned(8)))
#define __bitwise
#define __force
#define __percpu
#define __iomem
#define __kernel
#define __read_mostly
#define __ro_after_init
#define __init
#define __initdata
#define __exit
#define __weak			__attribute__((__weak__))
#define __packed		__attribute__((__packed__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define __noreturn		__attribute__((__noreturn__))
#define __printf(a, b)		__attribute__((__format__(printf, a, b)))
#define __always_unused		__attribute__((__unused__))
#define __used			__attribute__((__used__))
#define __section(s)		__attribute__((__section__(s)))
#define noinstr
#define notrace
#define __visible
#define fallthrough		__attribute__((__fallthrough__))
#define __counted_by(m)
#define __no_sanitize_or_inline	inline
#define __must_hold(x)
#define __acquires(x)
#define __releases(x)
#define __cacheline_aligned_in_smp
#define ____cacheline_aligned	__attribute__((__aligned__(64)))
#define ____cacheline_aligned_in_smp ____cacheline_aligned
#define __stringify_1(x...)	#x
#define __stringify(x...)	__stringify_1(x)
#define _RET_IP_		((unsigned long)__builtin_return_address(0))
#define _THIS_IP_		({ __label__ __here; __here: (unsigned long)&&__here; })
#define CALLER_ADDR0		((unsigned long)__builtin_return_address(0))
#define __LITTLE_ENDIAN_BITFIELD
#define __LITTLE_ENDIAN		1234
#define typeof_member(T, m)	typeof(((T *)0)->m)
#define __same_type(a, b)	__builtin_types_compatible_p(typeof(a), typeof(b))
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")
#define BUILD_BUG_ON_MSG(cond, msg) _Static_assert(!(cond), msg)
/*
 * <linux/build_bug.h>: the message is optional and the expression stands
 * in for it. C11 wants one; clang refuses the one-argument form as a C2x
 * extension (the fuzz builds compile the unit with clang).
 */
#undef static_assert
#define __static_assert(expr, msg, ...)	_Static_assert(expr, msg)
#define static_assert(expr, ...)	__static_assert(expr, ##__VA_ARGS__, #expr)
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + ((__typeof__(x))(a) - 1)) & ~((__typeof__(x))(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((__typeof__(x))(a) - 1)) == 0)
#define PTR_ALIGN(p, a)		((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define round_up(x, y)		((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)
#define round_down(x, y)	((x) & ~((__typeof__(x))((y) - 1)))
#define clamp(v, lo, hi)	min(max((v), (lo)), (hi))
#define clamp_t(t, v, lo, hi)	min_t(t, max_t(t, (v), (lo)), (hi))
#define clamp_val(v, lo, hi)	clamp_t(__typeof__(v), (v), (lo), (hi))
#define min3(a, b, c)		min(min((a), (b)), (c))
#define swap(a, b)		do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)
#define abs(x)			__builtin_choose_expr(sizeof(x) == sizeof(long), __builtin_labs(x), __builtin_abs(x))
#define upper_32_bits(n)	((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n)	((u32)((n) & 0xffffffff))
#define BITS_PER_LONG		64
#define BITS_PER_BYTE		8
#define BITS_TO_LONGS(n)	DIV_ROUND_UP((n), BITS_PER_LONG)
#define GENMASK(h, l)		(((~0UL) - (1UL << (l)) + 1) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)	(((~0ULL) - (1ULL << (l)) + 1) & (~0ULL >> (63 - (h))))
#define U8_MAX			((u8)~0U)
#define U16_MAX			((u16)~0U)
#define U64_MAX			((u64)~0ULL)
#define S64_MAX			((s64)(U64_MAX >> 1))
#define NSEC_PER_USEC		1000L
#define NSEC_PER_MSEC		1000000L
#define NSEC_PER_SEC		1000000000L
#define USEC_PER_SEC		1000000L
#define MSEC_PER_SEC		1000L
#define HZ			CONFIG_HZ
#define NR_CPUS			CONFIG_NR_CPUS
#define TASK_COMM_LEN		16
#define KSYM_NAME_LEN		512
#define NAME_MAX		255
#define __ALIGN_KERNEL(x, a)	ALIGN(x, a)
#define sizeof_field(T, m)	sizeof(((T *)0)->m)
#define struct_size(p, member, n) (sizeof(*(p)) + sizeof(*(p)->member) * (n))
#define flex_array_size(p, member, n) (sizeof(*(p)->member) * (n))
#define ERR_PTR(e)		((void *)(long)(e))
#define PTR_ERR(p)		((long)(p))
#define IS_ERR(p)		unlikely((unsigned long)(void *)(p) >= (unsigned long)-4095)
#define IS_ERR_OR_NULL(p)	(!(p) || IS_ERR(p))
#define ERR_CAST(p)		((void *)(p))
#define PTR_ERR_OR_ZERO(p)	(IS_ERR(p) ? PTR_ERR(p) : 0)
#define ENOTSUPP		524
#define data_race(expr)		(expr)
#define unreachable()		__builtin_unreachable()

/* <linux/math64.h> */
static inline u64 div64_u64(u64 a, u64 b) { return a / b; }
static inline s64 div64_s64(s64 a, s64 b) { return a / b; }
static inline u64 div_u64(u64 a, u32 b) { return a / b; }
static inline s64 div_s64(s64 a, s32 b) { return a / b; }
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}
#define do_div(n, base) ({ u32 __b = (base); u32 __r = (u32)((n) % __b); (n) /= __b; __r; })

/* <linux/list.h>: a circular doubly linked list, and the hashed one */
#define LIST_HEAD_INIT(name)	{ &(name), &(name) }
#define LIST_HEAD(name)		struct list_head name = LIST_HEAD_INIT(name)
#define LIST_POISON1		((void *)0x100)
#define LIST_POISON2		((void *)0x122)
static inline void __list_add(struct list_head *n, struct list_head *prev, struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	WRITE_ONCE(prev->next, n);
}
static inline void list_add(struct list_head *n, struct list_head *head) { __list_add(n, head, head->next); }
static inline void list_add_tail(struct list_head *n, struct list_head *head) { __list_add(n, head->prev, head); }
static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}
static inline void __list_del_entry(struct list_head *e) { __list_del(e->prev, e->next); }
static inline void list_del(struct list_head *e)
{
	__list_del_entry(e);
	e->next = LIST_POISON1;
	e->prev = LIST_POISON2;
}
static inline void list_del_init(struct list_head *e) { __list_del_entry(e); INIT_LIST_HEAD(e); }
static inline int list_empty(const struct list_head *head) { return READ_ONCE(head->next) == head; }
static inline void list_move_tail(struct list_head *e, struct list_head *head)
{
	__list_del_entry(e);
	list_add_tail(e, head);
}
static inline void list_move(struct list_head *e, struct list_head *head)
{
	__list_del_entry(e);
	list_add(e, head);
}
static inline int list_is_last(const struct list_head *e, const struct list_head *head) { return e->next == head; }
static inline void list_splice_init(struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		struct list_head *first = list->next, *last = list->prev, *at = head->next;

		first->prev = head;
		head->next = first;
		last->next = at;
		at->prev = last;
		INIT_LIST_HEAD(list);
	}
}
#define list_entry(ptr, type, member)		container_of(ptr, type, member)
#define list_first_entry(ptr, type, member)	list_entry((ptr)->next, type, member)
#define list_last_entry(ptr, type, member)	list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member) ({			\
	struct list_head *__h = (ptr), *__n = READ_ONCE(__h->next);	\
	__n != __h ? list_entry(__n, type, member) : NULL; })
#define list_next_entry(pos, member)	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member)	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_entry_is_head(pos, head, member) (&(pos)->member == (head))
#define list_for_each_entry(pos, head, member)					\
	for (pos = list_first_entry(head, __typeof__(*pos), member);		\
	     !list_entry_is_head(pos, head, member); pos = list_next_entry(pos, member))
#define list_for_each_entry_reverse(pos, head, member)				\
	for (pos = list_last_entry(head, __typeof__(*pos), member);		\
	     !list_entry_is_head(pos, head, member); pos = list_prev_entry(pos, member))
#define list_for_each_entry_safe(pos, n, head, member)				\
	for (pos = list_first_entry(head, __typeof__(*pos), member),		\
	     n = list_next_entry(pos, member);					\
	     !list_entry_is_head(pos, head, member); pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_continue(pos, head, member)				\
	for (pos = list_next_entry(pos, member);				\
	     !list_entry_is_head(pos, head, member); pos = list_next_entry(pos, member))
#define list_for_each_entry_rcu(pos, head, member, ...) list_for_each_entry(pos, head, member)
#define list_add_rcu(n, h)		list_add((n), (h))
#define list_add_tail_rcu(n, h)		list_add_tail((n), (h))
#define list_del_rcu(e)			__list_del_entry(e)
#define list_entry_rcu(p, t, m)		list_entry((p), t, m)
#define list_first_or_null_rcu(p, t, m)	list_first_entry_or_null((p), t, m)

struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };
#define INIT_HLIST_HEAD(h)	((h)->first = NULL)
static inline void INIT_HLIST_NODE(struct hlist_node *n) { n->next = NULL; n->pprev = NULL; }
static inline int hlist_unhashed(const struct hlist_node *n) { return !n->pprev; }
static inline int hlist_empty(const struct hlist_head *h) { return !READ_ONCE(h->first); }
static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	if (first)
		first->pprev = &n->next;
	WRITE_ONCE(h->first, n);
	n->pprev = &h->first;
}
static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next, **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		next->pprev = pprev;
}
static inline void hlist_del_init(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		INIT_HLIST_NODE(n);
	}
}
#define hlist_add_head_rcu(n, h)	hlist_add_head((n), (h))
#define hlist_del_rcu(n)		__hlist_del(n)
#define hlist_del_init_rcu(n)		hlist_del_init(n)
#define hlist_entry(ptr, type, member)	container_of(ptr, type, member)
#define hlist_entry_safe(ptr, type, member) ({ __typeof__(ptr) ____p = (ptr); ____p ? hlist_entry(____p, type, member) : NULL; })
#define hlist_for_each_entry(pos, head, member)					\
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)), member);	\
	     pos; pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)), member))
#define hlist_for_each_entry_rcu(pos, head, member, ...) hlist_for_each_entry(pos, head, member)
#define hlist_for_each_entry_safe(pos, n, head, member)				\
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member);	\
	     pos && ({ n = pos->member.next; 1; });				\
	     pos = hlist_entry_safe(n, __typeof__(*pos), member))

/* <linux/rbtree_types.h>, <linux/rbtree.h>: implemented in core_rbtree.c */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));
struct rb_root { struct rb_node *rb_node; };
#define RB_ROOT			(struct rb_root) { NULL, }
#define rb_entry(ptr, type, member)	container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member) ({ __typeof__(ptr) ____p = (ptr); ____p ? rb_entry(____p, type, member) : NULL; })
#define rb_parent(r)		((struct rb_node *)((r)->__rb_parent_color & ~3))
#define RB_EMPTY_NODE(node)	((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node)	((node)->__rb_parent_color = (unsigned long)(node))
#define RB_EMPTY_ROOT(root)	(READ_ONCE((root)->rb_node) == NULL)
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);
void rb_erase(struct rb_node *node, struct rb_root *root);
void rb_insert_color(struct rb_node *node, struct rb_root *root);
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent, struct rb_node **link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = node->rb_right = NULL;
	*link = node;
}
static inline void rb_add(struct rb_node *node, struct rb_root *tree,
			  bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = less(node, parent) ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
}
static inline struct rb_node *rb_find_first(const void *key, const struct rb_root *tree,
					    int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node, *match = NULL;

	while (node) {
		int c = cmp(key, node);

		if (c <= 0) {
			if (!c)
				match = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return match;
}
static inline struct rb_node *rb_next_match(const void *key, struct rb_node *node,
					    int (*cmp)(const void *key, const struct rb_node *))
{
	node = rb_next(node);
	if (node && cmp(key, node))
		node = NULL;
	return node;
}
#define rb_for_each(node, key, tree, cmp)					\
	for ((node) = rb_find_first((key), (tree), (cmp));			\
	     (node); (node) = rb_next_match((key), (node), (cmp)))

/* <asm/ptrace.h> (x86-64), <linux/perf_regs.h> */
struct pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax;
	unsigned long ip, cs, flags, sp, ss;
};
typedef struct pt_regs bpf_user_pt_regs_t;
#define instruction_pointer(regs)	((regs)->ip)
#define user_mode(regs)			(!!((regs)->cs & 3))
#define user_stack_pointer(regs)	((regs)->sp)
#define PERF_REG_X86_64_MAX		24
struct perf_regs {
	__u64		abi;
	struct pt_regs	*regs;
};

/* <linux/hrtimer.h>, <linux/timerqueue.h> */
enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode {
	HRTIMER_MODE_ABS = 0x00, HRTIMER_MODE_REL = 0x01, HRTIMER_MODE_PINNED = 0x02,
	HRTIMER_MODE_SOFT = 0x04, HRTIMER_MODE_HARD = 0x08,
	HRTIMER_MODE_ABS_PINNED = 0x02, HRTIMER_MODE_REL_PINNED = 0x03,
	HRTIMER_MODE_ABS_PINNED_HARD = 0x0a, HRTIMER_MODE_REL_PINNED_HARD = 0x0b,
};
struct hrtimer {
	ktime_t			expires;
	enum hrtimer_restart	(*function)(struct hrtimer *);
	bool			active;
};

/* <linux/path.h>, <linux/fs.h> as far as the structs name them */
struct path { struct vfsmount *mnt; struct dentry *dentry; };
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};

/* <linux/wait.h> */
struct wait_queue_head { int nr; struct list_head head; };
typedef struct wait_queue_head wait_queue_head_t;

/* <asm/local64.h> */
typedef struct { local_t a; } local64_t;
#define local64_read(l)		local_read(&(l)->a)
#define local64_set(l, i)	local_set(&(l)->a, (i))
#define local64_add(i, l)	local_add((i), &(l)->a)
#define local64_sub(i, l)	local_sub((i), &(l)->a)
#define local64_inc(l)		local_inc(&(l)->a)
#define local64_xchg(l, n)	local_xchg(&(l)->a, (n))
#define local64_cmpxchg(l, o, n) local_cmpxchg(&(l)->a, (o), (n))
#define local64_try_cmpxchg(l, po, n) local_try_cmpxchg(&(l)->a, (po), (n))
#define local64_add_return(i, l) ({ long __i = (i); local_add(__i, &(l)->a); (u64)local_read(&(l)->a); })

/* <uapi/asm-generic/ioctl.h> */
#define _IOC(dir, type, nr, size)	(((dir) << 30) | ((type) << 8) | (nr) | ((size) << 16))
#define _IO(type, nr)			_IOC(0U, (type), (nr), 0U)
#define _IOW(type, nr, T)		_IOC(1U, (type), (nr), sizeof(T))
#define _IOR(type, nr, T)		_IOC(2U, (type), (nr), sizeof(T))
#define _IOWR(type, nr, T)		_IOC(3U, (type), (nr), sizeof(T))
#define _IOC_NR(nr)			((nr) & 0xff)
#define _IOC_SIZE(nr)			(((nr) >> 16) & 0x3fff)

/* <linux/compiler_types.h>: the type without its qualifiers */
#define __unqual_scalar_typeof(x)	__typeof__(({ __auto_type __u = (x); __u; }))

/* <linux/list.h>'s list_splice */
static inline void list_splice(const struct list_head *list, struct list_head *head)
{
	if (!list_empty(list)) {
		struct list_head *first = list->next, *last = list->prev, *at = head->next;

		first->prev = head;
		head->next = first;
		last->next = at;
		at->prev = last;
	}
}

/* <linux/sched.h>: a callchain buffer per context level (task, softirq, irq, NMI) */
#define PERF_NR_CONTEXTS		4

/* <linux/sysctl.h>: a sysctl table's entry, which callchain.c's handler copies */
struct ctl_table {
	const char	*procname;
	void		*data;
	int		maxlen;
	umode_t		mode;
	void		*proc_handler;
	void		*poll;
	void		*extra1;
	void		*extra2;
};

/* <linux/fs.h>, <linux/mm_types.h>, <linux/mm.h>: the fields core.c touches */
struct fasync_struct;
struct inode {
	unsigned long		i_ino;
	umode_t			i_mode;
	u32			i_generation;
	struct super_block	*i_sb;
};
struct super_block { dev_t s_dev; };
struct dentry { struct inode *d_inode; };
struct file_operations {
	struct module *owner;
	loff_t (*llseek)(struct file *, loff_t, int);	/* set by trees before v6.12 */
	ssize_t (*read)(struct file *, char __user *, size_t, loff_t *);
	__poll_t (*poll)(struct file *, struct poll_table_struct *);
	long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
	long (*compat_ioctl)(struct file *, unsigned int, unsigned long);
	int (*mmap)(struct file *, struct vm_area_struct *);
	int (*release)(struct inode *, struct file *);
	int (*fasync)(int, struct file *, int);
};
struct file {
	const struct file_operations	*f_op;
	void				*private_data;
	unsigned int			f_flags;
	fmode_t				f_mode;
	struct path			f_path;
	void				*f_mapping;
	long				f_count;
};
struct fd { struct file *file; unsigned int flags; };	/* flags: before v6.12 */
struct mm_struct {
	atomic64_t		pinned_vm;
	unsigned long		start_brk, brk, start_stack;
};
struct vm_fault;
struct vm_operations_struct {
	const char *(*name)(struct vm_area_struct *vma);
	void (*open)(struct vm_area_struct *area);
	void (*close)(struct vm_area_struct *area);
	int (*may_split)(struct vm_area_struct *area, unsigned long addr);
	vm_fault_t (*fault)(struct vm_fault *vmf);
	vm_fault_t (*page_mkwrite)(struct vm_fault *vmf);
	vm_fault_t (*pfn_mkwrite)(struct vm_fault *vmf);
};
struct vm_area_struct {
	unsigned long				vm_start;
	unsigned long				vm_end;
	struct mm_struct			*vm_mm;
	unsigned long				vm_flags;
	unsigned long				vm_pgoff;
	struct file				*vm_file;
	const struct vm_operations_struct	*vm_ops;
	void					*vm_private_data;
};
struct vm_fault {
	struct vm_area_struct	*vma;
	unsigned int		flags;
	pgoff_t			pgoff;
	unsigned long		address;
	struct page		*page;
};
static inline unsigned long vma_pages(const struct vm_area_struct *vma)
{
	return (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
}
static inline void vm_flags_set(struct vm_area_struct *vma, unsigned long flags) { vma->vm_flags |= flags; }
struct user_struct {
	refcount_t	__count;
	atomic_long_t	locked_vm;
	atomic_long_t	perf_mlock;	/* v6.12's name of it, beside the older field */
};
struct cred { kuid_t euid; struct user_namespace *user_ns; };
struct lock_class_key { int unused; };

/* <linux/bpf.h>: the fields of a program core.c reads (none is ever attached) */
struct bpf_ksym { char name[KSYM_NAME_LEN]; };
struct bpf_prog_aux {
	u32			id;
	u32			func_cnt;
	u32			max_ctx_offset;
	struct bpf_prog		**func;
	struct bpf_ksym		ksym;
};
struct bpf_prog {
	u32			jited_len;
	u8			tag[8];
	int			type;
	u16			sleepable:1, kprobe_override:1, call_get_stack:1;
	struct bpf_prog_aux	*aux;
	unsigned int		(*bpf_func)(const void *ctx, const void *insn);
};

#endif /* KSRC_CORE_DUPLICATED_H */
