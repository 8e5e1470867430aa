// SPDX-License-Identifier: GPL-2.0-only
/*
 * The core unit's link-time shim: what kernel/events/core.c and
 * ring_buffer.c call in the rest of the kernel, for one process and one
 * CPU (the declarations are the shim's, ksrc/kernel/events/include/shim).
 * Every name here stays local to the unit (ksrc/core.syms keeps only the
 * bridge's), so none of it meets pmusim's core/.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/perf_event.h>
#include "ksrc/core_ksrc.h"

/* ---- the loud stubs' end ---------------------------------------------------- */
void ksrc_core_unexpected(const char *what, ...)
{
	fprintf(stderr, "ksrc core: kernel/events/core.c called %s, which the core unit's shim "
		"does not model (ksrc/kernel/events/include/shim/core_stubbed.h)\n", what);
	abort();
}

/* ---- the running task, CPU and interrupt ---------------------------------- */
/* a user process: its mm says so to the callchain (nothing walks it) */
#define KSRC_TASK(name, id)							\
	static struct signal_struct name##_signal;				\
	static struct mm_struct name##_mm;					\
	static struct task_struct name = {					\
		.pid = (id), .tgid = (id), .comm = "ksrc",			\
		.signal = &name##_signal, .mm = &name##_mm,			\
		.usage = REFCOUNT_INIT(1),					\
		.perf_event_list = LIST_HEAD_INIT(name.perf_event_list),	\
	}
KSRC_TASK(ksrc_init_task, 1);
/* a second process, pid 2, for per-task events and context switches */
KSRC_TASK(ksrc_task2, 2);
struct task_struct *ksrc_current = &ksrc_init_task;

struct task_struct *ksrc_find_task_by_vpid(pid_t pid)
{
	if (pid == ksrc_init_task.pid)
		return &ksrc_init_task;
	return pid == ksrc_task2.pid ? &ksrc_task2 : NULL;
}

/* The task is the bridge's: its last reference is never dropped. */
void put_task_struct(struct task_struct *t)
{
	if (refcount_dec_and_test(&t->usage))
		ksrc_core_unexpected("put_task_struct of the last reference");
}
struct pt_regs *ksrc_irq_regs;
static struct cpumask ksrc_cpu_mask = { { 1 } };
const struct cpumask *const cpu_online_mask = &ksrc_cpu_mask;
const struct cpumask *const cpu_possible_mask = &ksrc_cpu_mask;
struct mm_struct init_mm;
const struct cred ksrc_cred;
const struct proc_ns_operations mntns_operations = { "mnt" };


/* ---- clocks: the bridge's -------------------------------------------------- */
static u64 ksrc_now;
void ksrc_core_set_clock(u64 ns);
void ksrc_core_set_clock(u64 ns)
{
	ksrc_now = ns;
}
u64 ksrc_clock(void) { return ksrc_now; }
u64 local_clock(void) { return ksrc_now; }
u64 ktime_get_mono_fast_ns(void) { return ksrc_now; }
u64 ktime_get_raw_fast_ns(void) { return ksrc_now; }
u64 ktime_get_real_ns(void) { return ksrc_now; }
u64 ktime_get_boottime_ns(void) { return ksrc_now; }
u64 ktime_get_clocktai_ns(void) { return ksrc_now; }

/* ---- allocation ---------------------------------------------------------------- */
void *kzalloc_node(size_t size, gfp_t flags, int node)
{
	(void)flags;
	(void)node;
	return calloc(1, size ? size : 1);
}

void *kcalloc_node(size_t n, size_t size, gfp_t flags, int node)
{
	(void)flags;
	(void)node;
	return calloc(n ? n : 1, size ? size : 1);
}

void *ksrc_kmalloc(size_t size, gfp_t flags)
{
	return (flags & __GFP_ZERO) ? calloc(1, size ? size : 1) : malloc(size ? size : 1);
}

void kfree(const void *p)
{
	free((void *)p);
}

void *ksrc_alloc_percpu(size_t size)
{
	return calloc(1, size ? size : 1);
}

struct kmem_cache *ksrc_kmem_cache_create(size_t size)
{
	static struct kmem_cache caches[8];
	static unsigned int nr;

	if (nr == ARRAY_SIZE(caches))
		ksrc_core_unexpected("a ninth kmem_cache");
	caches[nr].size = size;
	return &caches[nr++];
}

/* Nothing runs beside the caller: a grace period is over at once. */
void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	func(head);
}

/* ---- irq_work: a queue the bridge runs ----------------------------------------- */
static struct irq_work *ksrc_irq_work_list;

void ksrc_irq_work_queue(struct irq_work *work)
{
	if (work->pending)
		return;
	work->pending = 1;
	work->next = ksrc_irq_work_list;
	ksrc_irq_work_list = work;
}

void ksrc_irq_work_run(void)
{
	while (ksrc_irq_work_list) {
		struct irq_work *work = ksrc_irq_work_list;

		ksrc_irq_work_list = work->next;
		work->pending = 0;
		work->func(work);
	}
}

/* ---- idr: ids from start, in a growing table ------------------------------------ */
static int idr_grow(struct idr *idr, int nr)
{
	void **p = realloc(idr->ptrs, (size_t)nr * sizeof(*p));
	bool *u;

	if (!p)
		return -ENOMEM;
	idr->ptrs = p;
	u = realloc(idr->used, (size_t)nr * sizeof(*u));
	if (!u)
		return -ENOMEM;
	idr->used = u;
	memset(p + idr->nr, 0, (size_t)(nr - idr->nr) * sizeof(*p));
	memset(u + idr->nr, 0, (size_t)(nr - idr->nr) * sizeof(*u));
	idr->nr = nr;
	return 0;
}

int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	(void)gfp;
	if (end <= 0)
		end = 1 << 20;
	for (int id = start; id < end; id++) {
		if (id >= idr->nr && idr_grow(idr, id + 16))
			return -ENOMEM;
		if (!idr->used[id]) {
			idr->used[id] = true;
			idr->ptrs[id] = ptr;
			return id;
		}
	}
	return -ENOSPC;
}

void *idr_find(const struct idr *idr, unsigned long id)
{
	return id < (unsigned long)idr->nr ? idr->ptrs[id] : NULL;
}

void *idr_remove(struct idr *idr, unsigned long id)
{
	void *p;

	if (id >= (unsigned long)idr->nr || !idr->used[id])
		return NULL;
	p = idr->ptrs[id];
	idr->ptrs[id] = NULL;
	idr->used[id] = false;
	return p;
}

void *idr_replace(struct idr *idr, void *ptr, unsigned long id)
{
	void *p;

	if (id >= (unsigned long)idr->nr || !idr->used[id])
		return ERR_PTR(-ENOENT);
	p = idr->ptrs[id];
	idr->ptrs[id] = ptr;
	return p;
}

/* ---- the min-heap's sift-down ------------------------------------------------------ */
void ksrc_min_heap_sift_down(void *data, int nr, size_t elem_size, int pos,
			     bool (*less)(const void *, const void *, void *),
			     void (*swp)(void *, void *, void *), void *args,
			     bool (*less2)(const void *, const void *), void (*swp2)(void *, void *))
{
	char *base = data;

	/* less/swp: v6.11's callbacks, with args; less2/swp2: the trees' before */
#define KSRC_LESS(a, b)	(less ? less((a), (b), args) : less2((a), (b)))
	for (;;) {
		int l = 2 * pos + 1, r = l + 1, least = pos;
		char *lp = base + (size_t)l * elem_size, *rp = base + (size_t)r * elem_size;

		if (l < nr && KSRC_LESS(lp, base + (size_t)least * elem_size))
			least = l;
		if (r < nr && KSRC_LESS(rp, base + (size_t)least * elem_size))
			least = r;
		if (least == pos)
			return;
		if (swp)
			swp(base + (size_t)pos * elem_size, base + (size_t)least * elem_size, args);
		else
			swp2(base + (size_t)pos * elem_size, base + (size_t)least * elem_size);
		pos = least;
	}
#undef KSRC_LESS
}

/*
 * ---- rbtree: the order of a binary search tree, unbalanced ----------------------
 * core.c only relies on the order (rb_add/rb_find_first/rb_next); the
 * colour is never looked at, so no rebalancing is done. The parent pointer
 * lives in __rb_parent_color as the kernel's does.
 */
static void rb_set_parent(struct rb_node *n, struct rb_node *p)
{
	n->__rb_parent_color = (unsigned long)p;
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	(void)node;
	(void)root;
}

static void rb_replace_child(struct rb_node *old, struct rb_node *new, struct rb_node *parent,
			     struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
	if (new)
		rb_set_parent(new, parent);
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *parent = rb_parent(node);

	if (!node->rb_left) {
		rb_replace_child(node, node->rb_right, parent, root);
	} else if (!node->rb_right) {
		rb_replace_child(node, node->rb_left, parent, root);
	} else {
		struct rb_node *succ = node->rb_right;

		while (succ->rb_left)
			succ = succ->rb_left;
		if (rb_parent(succ) != node) {
			rb_replace_child(succ, succ->rb_right, rb_parent(succ), root);
			succ->rb_right = node->rb_right;
			rb_set_parent(succ->rb_right, succ);
		}
		rb_replace_child(node, succ, parent, root);
		succ->rb_left = node->rb_left;
		rb_set_parent(succ->rb_left, succ);
	}
	RB_CLEAR_NODE(node);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_left)
		n = n->rb_left;
	return n;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	struct rb_node *n = root->rb_node;

	while (n && n->rb_right)
		n = n->rb_right;
	return n;
}

struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (node->rb_right) {
		node = node->rb_right;
		while (node->rb_left)
			node = node->rb_left;
		return (struct rb_node *)node;
	}
	while ((parent = rb_parent(node)) && node == parent->rb_right)
		node = parent;
	return parent;
}

struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *parent;

	if (node->rb_left) {
		node = node->rb_left;
		while (node->rb_right)
			node = node->rb_right;
		return (struct rb_node *)node;
	}
	while ((parent = rb_parent(node)) && node == parent->rb_left)
		node = parent;
	return parent;
}

/* the fd table's size: a group at perf_event_validate_size()'s limit has ~680 members */
#define KSRC_NR_FDS 1024

/* ---- O_ASYNC: an owner per fd, the SIGIOs counted ------------------------------ */
struct inode ksrc_anon_inode;
struct fasync_struct { int fd; };
static struct fasync_struct ksrc_fasync[KSRC_NR_FDS];
static struct ksrc_core_sigio ksrc_sigio;

int fasync_helper(int fd, struct file *filp, int on, struct fasync_struct **fapp)
{
	(void)filp;
	if (fd < 0 || fd >= (int)ARRAY_SIZE(ksrc_fasync))
		return -EBADF;
	ksrc_fasync[fd].fd = fd;
	*fapp = on ? &ksrc_fasync[fd] : NULL;
	/* the kernel's: 1 when the list changed, 0 when it had the fd already */
	return 1;
}

void kill_fasync(struct fasync_struct **fp, int sig, int band)
{
	if (*fp && sig == SIGIO) {
		ksrc_sigio.nr++;
		ksrc_sigio.band = band;
	}
}

void ksrc_core_sigio(struct ksrc_core_sigio *sig)
{
	*sig = ksrc_sigio;
}

/* ---- files and fds: a small table, as perf_event_open uses them -------------------- */
static struct file *ksrc_fds[KSRC_NR_FDS];
static bool ksrc_fd_used[KSRC_NR_FDS];

struct file *anon_inode_getfile(const char *name, const struct file_operations *fops, void *priv,
				int flags)
{
	struct file *file = calloc(1, sizeof(*file));

	(void)name;
	if (!file)
		return ERR_PTR(-ENOMEM);
	file->f_op = fops;
	file->private_data = priv;
	file->f_flags = (unsigned int)flags;
	file->f_count = 1;
	return file;
}

int get_unused_fd_flags(unsigned int flags)
{
	(void)flags;
	for (int fd = 3; fd < KSRC_NR_FDS; fd++) {
		if (!ksrc_fd_used[fd]) {
			ksrc_fd_used[fd] = true;
			return fd;
		}
	}
	return -EMFILE;
}

void put_unused_fd(unsigned int fd)
{
	if (fd < KSRC_NR_FDS)
		ksrc_fd_used[fd] = false;
}

void fd_install(unsigned int fd, struct file *file)
{
	ksrc_fds[fd] = file;
}

struct fd fdget(unsigned int fd)
{
	return (struct fd){ fd < KSRC_NR_FDS ? ksrc_fds[fd] : NULL, 0 };
}

struct file *fget(unsigned int fd)
{
	struct file *file = fd < KSRC_NR_FDS ? ksrc_fds[fd] : NULL;

	if (file)
		file->f_count++;
	return file;
}

void fput(struct file *file)
{
	if (--file->f_count == 0) {
		if (file->f_op->release)
			file->f_op->release(NULL, file);
		free(file);
	}
}

/* The fd's file, for the bridge (the kernel's fdget()). */
struct file *ksrc_core_fd_file(int fd);
struct file *ksrc_core_fd_file(int fd)
{
	return fd >= 0 && fd < KSRC_NR_FDS ? ksrc_fds[fd] : NULL;
}

/* close(fd): the table forgets it, the file loses a reference */
void ksrc_core_fd_close(int fd);
void ksrc_core_fd_close(int fd)
{
	struct file *file = ksrc_core_fd_file(fd);

	if (!file)
		return;
	ksrc_fds[fd] = NULL;
	ksrc_fd_used[fd] = false;
	fput(file);
}

/* ---- the one user ---------------------------------------------------------------------- */
static struct user_struct ksrc_user = { .__count = REFCOUNT_INIT(1) };

struct user_struct *get_current_user(void)
{
	refcount_inc(&ksrc_user.__count);
	return &ksrc_user;
}

struct user_struct *get_current_user_noref(void)
{
	return &ksrc_user;
}

void free_uid(struct user_struct *user)
{
	if (user)
		refcount_dec(&user->__count);
}

/* ---- strings and user copies --------------------------------------------------------- */
int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : (size_t)n >= size ? (int)size - 1 : n;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	char *end;

	*res = strtoul(s, &end, (int)base);
	return end == s ? -EINVAL : 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	char *end;

	*res = (int)strtol(s, &end, (int)base);
	return end == s ? -EINVAL : 0;
}

/* <linux/uaccess.h>: a larger struct from user space must be zero past ksize */
int copy_struct_from_user(void *dst, size_t ksize, const void __user *src, size_t usize)
{
	size_t size = min(ksize, usize);

	if (usize > ksize) {
		for (size_t i = ksize; i < usize; i++)
			if (((const char *)src)[i])
				return -E2BIG;
	}
	__builtin_memcpy(dst, src, size);
	if (ksize > usize)
		memset((char *)dst + size, 0, ksize - usize);
	return 0;
}
