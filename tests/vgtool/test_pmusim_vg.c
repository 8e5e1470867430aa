// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim's Valgrind tool on small guest programs (tests/vgtool/progs/),
 * built here and run under `valgrind --tool=pmusim`; their streams are
 * read with sim/vg_stream and held against what each program is known to
 * do: exact instruction and branch counts, each branch kind, threads,
 * signals, longjmp, fork, exec, dlopen'ed code, the exit status, and the
 * bytes a loop's branch takes.  (The reader's refusals of broken streams
 * need no Valgrind: tests/sim/test_vg_stream.c.)
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/test.h"
#include "sim/vg_stream.h"

static char work[] = "/tmp/pmusim-vgtool.XXXXXX";
static char tool_lib[4096], progs[4096];
static const char *why_not;	/* set when the tool cannot run here */
static bool tool_missing;	/* the host could build it, make did not */

/* Run a shell command; its exit status, or -1. */
static int sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

static int setup_all(void **state)
{
	const char *obj = getenv("PMUSIM_OBJTREE"), *src = getenv("PMUSIM_SRCTREE");
	struct stat st;

	(void)state;
	if (!mkdtemp(work))
		return -1;
	snprintf(tool_lib, sizeof(tool_lib), "%s/vgtool/lib", obj ? obj : ".");
	snprintf(progs, sizeof(progs), "%s/tests/vgtool/progs", src ? src : "../..");
	if (getenv("TALLY") && strcmp(getenv("LABEL") ? getenv("LABEL") : "", "defconfig") != 0)
		why_not = "the Valgrind tool is built alike in every configuration; make check runs "
			  "this in defconfig only";
	else if (stat("/usr/lib/x86_64-linux-gnu/valgrind/libcoregrind-amd64-linux.a", &st) != 0)
		why_not = "no valgrind archives to build the tool with (Debian's valgrind on x86-64)";
	else if (sh("command -v valgrind >/dev/null") != 0)
		why_not = "no valgrind (Debian package valgrind)";
	else if (stat(tool_lib, &st) != 0)
		tool_missing = true;	/* make builds it wherever it can: a failure */
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	sh("rm -rf '%s'", work);
	return 0;
}

#define NEED_TOOL() do {								\
	if (why_not)									\
		pmusim_skip("%s", why_not);						\
	if (tool_missing)								\
		fail_msg("make did not build the Valgrind tool (%s)", tool_lib);	\
} while (0)

/* Build progs/NAME.{S,c} into work/NAME with @flags. */
static void build(const char *name, const char *ext, const char *flags)
{
	assert_int_equal(sh("cc %s -o '%s/%s' '%s/%s.%s' 2>&1", flags, work, name, progs, name, ext), 0);
}

/*
 * Run work/NAME ARGS under the tool into a fresh work/out-NAME; the
 * guest's stdout goes to work/NAME.stdout.  Returns the guest's exit code.
 */
static int run(const char *name, const char *args, const char *vgflags)
{
	sh("rm -rf '%s/out-%s' && mkdir '%s/out-%s'", work, name, work, name);
	return sh("VALGRIND_LIB='%s' valgrind -q --tool=pmusim --pmusim-out='%s/out-%s' %s '%s/%s' %s "
		  ">'%s/%s.stdout' </dev/null",
		  tool_lib, work, name, vgflags, work, name, args, work, name);
}

/* The address the guest printed after "@label ". */
static uint64_t printed(const char *name, const char *label)
{
	char path[4200], line[256], want[64];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.stdout", work, name);
	snprintf(want, sizeof(want), "%s %%llx", label);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, want, &v) == 1)
			break;
	fclose(f);
	assert_true(v != 0);
	return v;
}

/* The stream files of one run, sorted by name. */
static int list_streams(const char *name, char files[][4200], int max)
{
	char dir[3800];
	struct dirent **ents;
	int n, i, k = 0;

	snprintf(dir, sizeof(dir), "%s/out-%s", work, name);
	n = scandir(dir, &ents, NULL, alphasort);
	assert_true(n >= 0);
	for (i = 0; i < n; i++) {
		if (!strncmp(ents[i]->d_name, "vg.", 3) && k < max)
			snprintf(files[k++], 4200, "%s/%s", dir, ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	return k;
}

struct tally {
	uint64_t insns, branches;
	uint64_t kinds[VGK__NR];
	uint64_t types[VGS__NR];
	uint64_t insns_by_tid[8];
	uint64_t bytes[VGK__NR];	/* of the branch records, by kind */
	enum vgs_branch_kind order[64];
	unsigned int nr_order;
	uint32_t exit_pid;
	int32_t exit_status;
	uint64_t runs, run_records;	/* runs marked (vgstream.h), the records in them */
	uint64_t runs_threaded;		/* of them, after the image's second thread began */
	bool threaded;
};

/* The run being read: what its end must say of the records since its start. */
struct run_check {
	bool open;
	uint32_t n;
	uint64_t left, max_sp;
};

/* A run's start or end, or a record in between, against the run's sums. */
static void check_run(struct run_check *rc, struct tally *t, const struct vg_event *ev,
		      const char *path)
{
	if (ev->type == VGS_RUN && ev->run.what == VGS_RUN_START) {
		if (rc->open)
			fail_msg("%s: a run starts inside another", path);
		*rc = (struct run_check){ .open = true };
		return;
	}
	if (ev->type == VGS_RUN) {
		if (!rc->open || ev->run.n != rc->n || ev->run.left != rc->left ||
		    ev->run.max_sp != rc->max_sp)
			fail_msg("%s: a run's end says %u records, %llu, sp %#llx; they were %u, "
				 "%llu, sp %#llx", path, ev->run.n, (unsigned long long)ev->run.left,
				 (unsigned long long)ev->run.max_sp, rc->n,
				 (unsigned long long)rc->left, (unsigned long long)rc->max_sp);
		t->runs++;
		t->runs_threaded += t->threaded;
		t->run_records += rc->n;
		rc->open = false;
		return;
	}
	if (!rc->open)
		return;
	if (ev->type != VGS_BRANCH || ev->kind > VGK_IND_JMP)
		fail_msg("%s: a %s record inside a run", path, vg_rec_type_name(ev->type));
	rc->n++;
	rc->left += ev->insns - (ev->insns != 0);
	if (ev->sp > rc->max_sp || rc->n == 1)
		rc->max_sp = ev->sp;
}

typedef void (*visit_fn)(const struct vg_event *ev, void *ctx);

static void read_stream(const char *path, struct tally *t, visit_fn fn, void *ctx,
			struct vgs_file_header *hdr)
{
	struct run_check rc = { 0 };
	struct vg_stream s;
	struct vg_event ev;
	char err[512];
	int r;

	memset(t, 0, sizeof(*t));
	if (vg_stream_open(&s, path, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	if (hdr)
		*hdr = s.header;
	/* each run's end checked against its records (the bytes below are the records') */
	s.runs = true;
	for (size_t at = s.off; (r = vg_stream_next(&s, &ev, err, sizeof(err))) == 1; at = s.off) {
		check_run(&rc, t, &ev, path);
		if (ev.type == VGS_RUN) {
			t->types[VGS_RUN]++;
			continue;
		}
		if (ev.type == VGS_THREAD_NEW)
			t->threaded = true;
		t->insns += ev.insns;
		if (ev.tid < 8)
			t->insns_by_tid[ev.tid] += ev.insns;
		t->types[ev.type]++;
		if (ev.type == VGS_BRANCH) {
			t->branches++;
			t->kinds[ev.kind]++;
			t->bytes[ev.kind] += s.off - at;
			if (t->nr_order < 64)
				t->order[t->nr_order++] = ev.kind;
		}
		if (ev.type == VGS_EXIT) {
			t->exit_pid = ev.pid;
			t->exit_status = ev.status;
		}
		if (fn)
			fn(&ev, ctx);
	}
	vg_stream_close(&s);
	if (r < 0)
		fail_msg("%s", err);
	if (rc.open)
		fail_msg("%s: a run with no end", path);
}

/* One process, one file: read it. */
static void read_only_stream(const char *name, struct tally *t, visit_fn fn, void *ctx)
{
	char files[4][4200];

	assert_int_equal(list_streams(name, files, 4), 1);
	read_stream(files[0], t, fn, ctx, NULL);
}

/* ---- exact counts and kinds --------------------------------------------- */

static void test_counts_are_exact(void **state)
{
	struct tally t;

	(void)state;
	NEED_TOOL();
	build("count", "S", "-nostdlib -static");
	assert_int_equal(run("count", "", ""), 0);
	read_only_stream("count", &t, NULL, NULL);
	/* the REP STOSB's 64 iterations retire as one instruction */
	assert_int_equal(t.insns, 3009);
	assert_int_equal(t.kinds[VGK_COND], 999);
	/*
	 * The loop's jnz in 5 bytes: lead, 3 instructions, the 5 bytes of
	 * code since the last target, a short jump back, the same stack
	 * pointer; but the stream's first, whose from and sp are whole
	 */
	assert_in_range(t.bytes[VGK_COND], 999 * 5, 999 * 5 + 2 * (VGS_NUM_MAX - 1));
	assert_int_equal(t.kinds[VGK_CALL], 1);
	assert_int_equal(t.kinds[VGK_RET], 1);
	assert_int_equal(t.kinds[VGK_SYSCALL], 1);
	assert_int_equal(t.branches, 1002);
	assert_int_equal(t.types[VGS_EXIT], 1);
	assert_int_equal(t.exit_status, 0);
	/*
	 * The loop's jnz in runs (their sums checked as read), of the most a
	 * run holds but where a code record ends one: the loop's translation
	 * comes after the first jnz, which alone is too short a run to mark
	 */
	assert_in_range(t.run_records, 999 - 2 * (VGS_RUN_MIN - 1), 999);
	assert_in_range(t.runs, 999 / VGS_RUN_MAX, 999 / VGS_RUN_MAX + 3);
	/* none where pmusim record asks for none (an LBR that keeps every branch) */
	assert_int_equal(run("count", "", "--pmusim-runs=no"), 0);
	read_only_stream("count", &t, NULL, NULL);
	assert_int_equal(t.insns, 3009);
	assert_int_equal(t.runs, 0);
	assert_int_equal(t.types[VGS_RUN], 0);
}

/*
 * Marking runs stops where it does not pay (fewer than one record in eight
 * of a million in runs long enough to mark), for 16M branches, then starts
 * again: of the loop's 24M records after the calls, those of the first
 * 16M-odd branches are in no run, the rest in runs (their sums checked).
 */
static void test_runs_marked_where_they_pay(void **state)
{
	struct tally t;

	(void)state;
	NEED_TOOL();
	build("phases", "c", "-O1 -fno-inline");
	assert_int_equal(run("phases", "", ""), 0);
	read_only_stream("phases", &t, NULL, NULL);
	/* 11.4M here; all marked: 25.2M; none marked again after the pause: 0 */
	assert_in_range(t.run_records, 4u << 20, 16u << 20);
}

static void test_each_kind_in_order(void **state)
{
	static const enum vgs_branch_kind want[] = {
		VGK_JMP, VGK_COND, VGK_IND_JMP, VGK_CALL, VGK_RET, VGK_IND_CALL, VGK_RET,
		VGK_SYSCALL,
	};
	struct tally t;
	unsigned int i;

	(void)state;
	NEED_TOOL();
	build("kinds", "S", "-nostdlib -static");
	assert_int_equal(run("kinds", "", ""), 7);
	read_only_stream("kinds", &t, NULL, NULL);
	assert_int_equal(t.insns, 15);
	assert_int_equal(t.nr_order, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < t.nr_order; i++)
		assert_int_equal(t.order[i], want[i]);
	assert_int_equal(t.exit_status, 7 << 8);
}

/* ---- calls, returns and the stack pointer ------------------------------- */

struct calls {
	uint64_t fn;
	unsigned int calls, rets, depth, max_depth;
	uint64_t min_sp, last_sp;
	int bad_sp;
};

static void count_calls(const struct vg_event *ev, void *ctx)
{
	struct calls *c = ctx;

	if (ev->type != VGS_BRANCH || ev->tid != 1)
		return;
	if (ev->kind == VGK_CALL && ev->to == c->fn) {
		c->calls++;
		c->depth++;
		if (c->depth > c->max_depth)
			c->max_depth = c->depth;
		/* each nested call pushes: the stack pointer goes down */
		if (c->depth > 1 && ev->sp >= c->last_sp)
			c->bad_sp++;
		c->last_sp = ev->sp;
		if (!c->min_sp || ev->sp < c->min_sp)
			c->min_sp = ev->sp;
	} else if (ev->kind == VGK_RET && c->depth) {
		c->rets++;
		c->depth--;
	}
}

static void test_recursion_deeper_than_lbr(void **state)
{
	struct calls c = { 0 };
	struct tally t;

	(void)state;
	NEED_TOOL();
	build("recurse", "c", "-O1 -fno-optimize-sibling-calls -fno-inline");
	assert_int_equal(run("recurse", "", ""), 0);
	c.fn = printed("recurse", "rec");
	read_only_stream("recurse", &t, count_calls, &c);
	assert_int_equal(c.calls, 101);	/* rec(100) .. rec(0) */
	assert_int_equal(c.max_depth, 101);
	assert_int_equal(c.rets, 101);
	assert_int_equal(c.bad_sp, 0);
}

struct unwind {
	uint64_t down;
	unsigned int calls, depth;
	uint64_t deepest_sp, jump_sp;
	int jumps_up;
};

static void watch_longjmp(const struct vg_event *ev, void *ctx)
{
	struct unwind *u = ctx;

	if (ev->type != VGS_BRANCH || ev->tid != 1)
		return;
	if (ev->kind == VGK_CALL && ev->to == u->down) {
		u->calls++;
		u->deepest_sp = ev->sp;
	} else if (ev->kind == VGK_IND_JMP && u->calls == 21 && ev->sp > u->deepest_sp + 20 * 8) {
		/* longjmp's jump back to setjmp's caller, 21 frames up */
		u->jumps_up++;
		u->jump_sp = ev->sp;
	}
}

static void test_longjmp_unwinds_the_stack(void **state)
{
	struct unwind u = { 0 };
	struct tally t;

	(void)state;
	NEED_TOOL();
	build("longjmp", "c", "-O1 -fno-optimize-sibling-calls -fno-inline");
	assert_int_equal(run("longjmp", "", ""), 0);
	u.down = printed("longjmp", "down");
	read_only_stream("longjmp", &t, watch_longjmp, &u);
	assert_int_equal(u.calls, 21);
	assert_int_equal(u.jumps_up, 1);
}

/* ---- signals --------------------------------------------------------- */

struct sig {
	uint64_t handler;
	int entered, returned, entered_before_return;
};

static void watch_signal(const struct vg_event *ev, void *ctx)
{
	struct sig *s = ctx;

	if (ev->type == VGS_SIGNAL && ev->to == s->handler && ev->kind == VGK_SIGNAL &&
	    ev->from != 0)
		s->entered++;
	if (ev->type == VGS_SIGRETURN) {
		s->returned++;
		s->entered_before_return += s->entered == 1;
	}
}

static void test_signal_handler_entry_and_return(void **state)
{
	struct sig s = { 0 };
	struct tally t;

	(void)state;
	NEED_TOOL();
	build("signal", "c", "-O1");
	assert_int_equal(run("signal", "", ""), 0);
	s.handler = printed("signal", "handler");
	read_only_stream("signal", &t, watch_signal, &s);
	assert_int_equal(s.entered, 1);
	assert_int_equal(s.returned, 1);
	assert_int_equal(s.entered_before_return, 1);
}

/* ---- threads ------------------------------------------------------------ */

struct thr {
	uint64_t work;
	unsigned int created, exited, work_calls_t2, work_calls_t1;
	unsigned int futex_wakes_after_exit;	/* the join's return */
};

static void watch_threads(const struct vg_event *ev, void *ctx)
{
	struct thr *t = ctx;

	if (ev->type == VGS_THREAD_NEW && ev->other_tid == 2)
		t->created++;
	if (ev->type == VGS_THREAD_EXIT && ev->other_tid == 2)
		t->exited++;
	if (ev->type == VGS_WAKE && ev->tid == 1 && ev->status == __NR_futex && t->exited)
		t->futex_wakes_after_exit++;
	if (ev->type == VGS_BRANCH && ev->kind == VGK_CALL && ev->to == t->work) {
		if (ev->tid == 2)
			t->work_calls_t2++;
		else
			t->work_calls_t1++;
	}
}

static void test_threads_are_numbered(void **state)
{
	struct thr th = { 0 };
	struct tally t;

	(void)state;
	NEED_TOOL();
	build("threads", "c", "-O1 -pthread -fno-inline");
	assert_int_equal(run("threads", "", ""), 0);
	th.work = printed("threads", "work");
	read_only_stream("threads", &t, watch_threads, &th);
	assert_int_equal(th.created, 1);
	assert_int_equal(th.exited, 1);
	/* runs only while the image had one thread (pmusim retires them there only) */
	assert_int_equal(t.runs_threaded, 0);
	assert_int_equal(th.work_calls_t2, 1000);
	assert_int_equal(th.work_calls_t1, 0);
	/* main waited in the join's futex: it comes back after thread 2's end */
	assert_true(th.futex_wakes_after_exit >= 1);
	assert_true(t.insns_by_tid[2] > 1000 * 4);
}

/* ---- processes ----------------------------------------------------------- */

struct procs {
	uint32_t fork_child, reaped;
	int execs, exec_path_ok;
};

static void watch_procs(const struct vg_event *ev, void *ctx)
{
	struct procs *p = ctx;

	if (ev->type == VGS_FORK)
		p->fork_child = ev->pid;
	if (ev->type == VGS_WAKE && ev->status == __NR_wait4)
		p->reaped = ev->pid;
	if (ev->type == VGS_EXEC) {
		p->execs++;
		p->exec_path_ok += ev->name_len > 6 &&
				   !memcmp(ev->name + ev->name_len - 6, "/count", 6);
	}
}

static void test_fork_and_exec_are_reported(void **state)
{
	char files[8][4200], args[4200];
	struct vgs_file_header h[8];
	struct procs parent = { 0 }, child = { 0 };
	struct tally t;
	int n, i, parent_i = -1, child_i = -1, exec_i = -1;

	(void)state;
	NEED_TOOL();
	build("count", "S", "-nostdlib -static");
	build("forkexec", "c", "-O1");
	snprintf(args, sizeof(args), "'%s/count'", work);
	assert_int_equal(run("forkexec", args, "--trace-children=yes"), 5);
	n = list_streams("forkexec", files, 8);
	assert_int_equal(n, 3);	/* the parent, the child before and after exec */
	for (i = 0; i < n; i++)
		read_stream(files[i], &t, NULL, NULL, &h[i]);
	for (i = 0; i < n; i++) {
		if (h[i].seq == 0 && h[i].ppid == 0)
			parent_i = i;
		else if (h[i].seq == 0)
			child_i = i;
		else
			exec_i = i;
	}
	assert_true(parent_i >= 0 && child_i >= 0 && exec_i >= 0);
	read_stream(files[parent_i], &t, watch_procs, &parent, NULL);
	assert_int_equal(t.exit_status, 5 << 8);
	assert_int_equal(parent.fork_child, h[child_i].pid);
	/* waitpid's wait4 came back with the child: its wake-up names it */
	assert_int_equal(parent.reaped, h[child_i].pid);
	assert_int_equal(h[child_i].ppid, h[parent_i].pid);
	read_stream(files[child_i], &t, watch_procs, &child, NULL);
	assert_int_equal(child.execs, 1);
	assert_int_equal(child.exec_path_ok, 1);
	/* the exec'd image is count.S: its exact count again */
	assert_int_equal(h[exec_i].pid, h[child_i].pid);
	assert_int_equal(h[exec_i].seq, 1);
	read_stream(files[exec_i], &t, NULL, NULL, NULL);
	assert_int_equal(t.insns, 3009);
}

static void test_killed_guest_ends_without_exit_status(void **state)
{
	struct tally t;

	(void)state;
	NEED_TOOL();
	assert_int_equal(sh("printf '%%s\\n' '#include <signal.h>' 'int main(void) { raise(SIGKILL); return 0; }' "
			    ">'%s/killed.c'", work), 0);
	assert_int_equal(sh("cc -O1 -o '%s/killed' '%s/killed.c'", work, work), 0);
	run("killed", "", "");
	read_only_stream("killed", &t, NULL, NULL);
	/* Valgrind runs the tool's fini before it dies of the signal: no exit syscall was made */
	assert_int_equal(t.types[VGS_EXIT], 1);
	assert_int_equal(t.exit_status, -1);
	assert_true(t.branches > 0);
}

struct lib {
	uint64_t fn;
	int mapped, called;
};

static void watch_lib(const struct vg_event *ev, void *ctx)
{
	struct lib *l = ctx;

	if (ev->type == VGS_MMAP && ev->name_len > 7 &&
	    !memcmp(ev->name + ev->name_len - 7, "/lib.so", 7) && (ev->prot & PROT_EXEC) &&
	    l->fn >= ev->addr && l->fn < ev->addr + ev->len)
		l->mapped++;
	if (ev->type == VGS_BRANCH && ev->to == l->fn && ev->kind == VGK_IND_CALL)
		l->called++;
}

static void test_dlopen_mapping_is_named(void **state)
{
	char args[4200];
	struct lib l = { 0 };
	struct tally t;

	(void)state;
	NEED_TOOL();
	assert_int_equal(sh("cc -O1 -shared -fPIC -o '%s/lib.so' '%s/lib.c'", work, progs), 0);
	build("dlopen", "c", "-O1");
	snprintf(args, sizeof(args), "'%s/lib.so'", work);
	assert_int_equal(run("dlopen", args, ""), 0);
	l.fn = printed("dlopen", "lib_func");
	read_only_stream("dlopen", &t, watch_lib, &l);
	assert_int_equal(l.mapped, 1);
	assert_int_equal(l.called, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_are_exact),
		cmocka_unit_test(test_runs_marked_where_they_pay),
		cmocka_unit_test(test_each_kind_in_order),
		cmocka_unit_test(test_recursion_deeper_than_lbr),
		cmocka_unit_test(test_longjmp_unwinds_the_stack),
		cmocka_unit_test(test_signal_handler_entry_and_return),
		cmocka_unit_test(test_threads_are_numbered),
		cmocka_unit_test(test_fork_and_exec_are_reported),
		cmocka_unit_test(test_dlopen_mapping_is_named),
		cmocka_unit_test(test_killed_guest_ends_without_exit_status),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
