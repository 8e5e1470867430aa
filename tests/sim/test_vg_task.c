// SPDX-License-Identifier: GPL-2.0-only
/*
 * A recorded program's threads on the machine (sim/vg_task.c), from
 * streams written here record by record: exact counts at CPI 1, the
 * shadow call stack through calls and returns, longjmp (a jump up the
 * stack), a signal handler's frames on the interrupted ones and gone at
 * its return, a tail call, a call into a frame's own return-address slot;
 * a second thread asleep until its creator's
 * records create it, never starting before that on another CPU, and
 * the run's end when every thread has ended; a thread back from a wait
 * (VGS_WAKE) going on only when the other thread has retired what the
 * stream holds before it; a child process and the image its execve
 * ran, from files named as the tool names them; a bad stream refused.
 *
 * Every record here has 1000 instructions (a branch's included) and the
 * machine's quantum is 1000 cycles, so each machine_run() step retires
 * exactly one record and the stack can be looked at between them.
 */
#define _GNU_SOURCE		/* dl_iterate_phdr */
#include <stdio.h>
#include <stdlib.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "core/x86/pmu.h"
#include "sim/machine.h"
#include "sim/vg_stream.h"
#include "sim/vg_task.h"
#include "tests/lib/vg_writer.h"

#define N	1000u		/* instructions per record */

static struct machine *new_machine(unsigned int cpus)
{
	struct machine_config cfg = {
		.desc = model_cpu_desc_lookup("skylake"), .nr_cpus = cpus, .hz = 1000,
		.timeslice = 1000000, .quantum = N, .seed = 1,
	};
	struct machine *m = machine_create(&cfg);

	assert_non_null(m);
	return m;
}

/* The task's true stack now: its depth, and frames into @ips. */
static unsigned int stack(const struct machine *m, unsigned int task, uint64_t *ips)
{
	return vg_trace_callstack(m->tasks[task], ips, 64);
}

static void test_shadow_stack(void **state)
{
	struct vg_trace *tr;
	struct vg_trace_stats st;
	struct vg_writer w;
	struct machine *m;
	uint64_t ips[64];
	char err[256];
	uint64_t sp = 0x7000;

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	/* main (at 0x100) calls f (0x200), f calls g (0x300), g calls h (0x400) */
	vgw_branch(&w, VGK_CALL, 0x110, 0x200, sp - 8, N);
	vgw_branch(&w, VGK_CALL, 0x210, 0x300, sp - 0x28, N);
	vgw_branch(&w, VGK_IND_CALL, 0x310, 0x400, sp - 0x48, N);
	/* a conditional branch in h, its stack lower still: nothing goes */
	vgw_branch(&w, VGK_COND, 0x420, 0x410, sp - 0x60, N);
	/* a signal: the handler (0x500) calls 0x600 */
	vgw_branch(&w, VGK_SIGNAL, 0x410, 0x500, sp - 0x300, N);
	vgw_branch(&w, VGK_CALL, 0x510, 0x600, sp - 0x310, N);
	/* the handler's return to the restorer: its frames go, h's stay */
	vgw_branch(&w, VGK_RET, 0x610, 0x518, sp - 0x308, N);
	vgw_branch(&w, VGK_SIGRETURN, 0, 0x410, sp - 0x60, N);
	/* longjmp from h back into main's frame: f, g and h are gone at once */
	vgw_branch(&w, VGK_IND_JMP, 0x430, 0x120, sp, N);
	/* main calls k (0x700), which tail-jumps to t (0x800): k's frame is t's */
	vgw_branch(&w, VGK_CALL, 0x130, 0x700, sp - 8, N);
	vgw_branch(&w, VGK_JMP, 0x710, 0x800, sp - 8, N);
	vgw_branch(&w, VGK_RET, 0x810, 0x135, sp, N);
	/*
	 * main calls u (0x900), which pops its return address and calls v
	 * (0xa00): v's return address is where u's was, so u's frame is gone
	 */
	vgw_branch(&w, VGK_CALL, 0x140, 0x900, sp - 8, N);
	vgw_branch(&w, VGK_CALL, 0x910, 0xa00, sp - 8, N);
	vgw_branch(&w, VGK_RET, 0xa10, 0x145, sp, N);
	vgw_close(&w);

	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	m = new_machine(1);
	assert_int_equal(vg_trace_add_tasks(tr, m, "prog"), 0);
	assert_int_equal(m->nr_tasks, 1);

	machine_run(m, 1 * N);		/* main -> f */
	assert_int_equal(stack(m, 0, ips), 2);
	assert_true(ips[0] == 0x200 && ips[1] == 0x110);
	machine_run(m, 3 * N);		/* f -> g -> h */
	assert_int_equal(stack(m, 0, ips), 4);
	assert_true(ips[0] == 0x400 && ips[1] == 0x310 && ips[2] == 0x210 && ips[3] == 0x110);
	machine_run(m, 4 * N);		/* the loop in h */
	assert_int_equal(stack(m, 0, ips), 4);
	machine_run(m, 6 * N);		/* signal, the handler's call */
	assert_int_equal(stack(m, 0, ips), 5);
	assert_true(ips[0] == 0x600 && ips[1] == 0x510 && ips[2] == 0x310);
	machine_run(m, 8 * N);		/* the handler returned */
	assert_int_equal(stack(m, 0, ips), 4);
	assert_true(ips[0] == 0x400 && ips[1] == 0x310);
	machine_run(m, 9 * N);		/* longjmp */
	assert_int_equal(stack(m, 0, ips), 0);
	machine_run(m, 11 * N);		/* main -> k, k jumps to t */
	assert_int_equal(stack(m, 0, ips), 2);
	assert_true(ips[0] == 0x700 && ips[1] == 0x130);
	machine_run(m, 12 * N);		/* t returned */
	assert_int_equal(stack(m, 0, ips), 0);
	machine_run(m, 14 * N);		/* main -> u, u -> v in u's slot */
	assert_int_equal(stack(m, 0, ips), 2);
	assert_true(ips[0] == 0xa00 && ips[1] == 0x910);
	assert_false(vg_trace_done(tr));
	machine_run(m, 20 * N);
	assert_int_equal(stack(m, 0, ips), 0);
	assert_true(vg_trace_done(tr));

	vg_trace_stats(tr, &st);
	/* the signal and its return are no instruction: 13 branches, 15000 instructions */
	assert_int_equal(st.insns, 15 * N);
	assert_int_equal(st.branches, 13);
	assert_int_equal(st.threads, 1);
	assert_int_equal(st.max_depth, 4);	/* f, g, h and the handler's callee */
	assert_int_equal(model_cpu_cycles(m->cpus[0].model), 15 * N);	/* CPI 1 */
	machine_destroy(m);
	vg_trace_free(tr);
	x86_branch_text_reset();
	unlink(w.path);
}

static void test_threads(void **state)
{
	struct vg_trace *tr;
	struct vg_writer w;
	struct machine *m;
	char err[256];

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_branch(&w, VGK_JMP, 0x110, 0x120, 0x7000, N / 2);
	vgw_thread(&w, VGS_THREAD_NEW, 2);	/* created at 1500 cycles, mid-quantum */
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x900, 0x910, 0x5000, N);
	vgw_thread(&w, VGS_THREAD_EXIT, 2);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_branch(&w, VGK_JMP, 0x130, 0x140, 0x7000, N);
	vgw_close(&w);

	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	m = new_machine(2);
	assert_int_equal(vg_trace_add_tasks(tr, m, "prog"), 0);
	assert_int_equal(m->nr_tasks, 2);
	assert_int_equal(m->tasks[1]->task.pid, m->tasks[0]->task.pid);
	assert_true(m->tasks[1]->sleeping);
	machine_run(m, N);
	assert_true(m->tasks[1]->sleeping);
	/*
	 * CPU 1 runs the quantum [1000, 2000) after CPU 0 created the thread
	 * at 1500: it idles until then, and the thread runs 500 cycles of it.
	 */
	machine_run(m, 2 * N);
	assert_false(m->tasks[1]->sleeping);
	assert_int_equal(m->cpus[1].busy, N / 2);
	assert_int_equal(model_cpu_tsc(m->cpus[1].model), 2 * N);
	machine_run(m, 10 * N);
	assert_true(vg_trace_done(tr));
	assert_int_equal(m->tasks[1]->runtime, N);
	assert_int_equal(m->tasks[0]->runtime, 3 * N + N / 2);
	assert_true(m->tasks[0]->sleeping && m->tasks[1]->sleeping);
	machine_destroy(m);
	vg_trace_free(tr);
	x86_branch_text_reset();
	unlink(w.path);
}

/* The running program's own GNU build-id, from its loaded notes: its size */
static int own_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	uint8_t *id = data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;

		if (ph->p_type != PT_NOTE)
			continue;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const char *name = p + sizeof(*n), *desc = name + ((n->n_namesz + 3) & ~3u);

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
			    n->n_descsz <= 20) {
				memcpy(id, desc, n->n_descsz);
				return (int)n->n_descsz;
			}
			p = desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return -1;	/* the first object is the program: stop there */
}

/*
 * The files a program mapped: each once, anonymous code and "[vdso]"
 * never, a build-id where the file is an ELF file that has one, none
 * where it is not ELF or not there any more.
 */
static void test_mapped_files(void **state)
{
	const struct vg_dso *d;
	struct vg_trace *tr;
	struct vg_writer w;
	char self[PATH_MAX], err[256];
	uint8_t own[20];
	unsigned int nr;
	int own_size;
	ssize_t n;

	(void)state;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0';
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_mmap(&w, 0x400000, self);
	vgw_mmap(&w, 0x7000000, "");
	vgw_mmap(&w, 0x7100000, "[vdso]");
	vgw_mmap(&w, 0x500000, self);		/* a second mapping of the same file */
	vgw_mmap(&w, 0x600000, w.path);		/* the stream itself: not ELF */
	vgw_mmap(&w, 0x700000, "/nonexistent/libgone.so");
	vgw_branch(&w, VGK_JMP, 0x400100, 0x400110, 0x7000, N);
	vgw_close(&w);

	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	d = vg_trace_dsos(tr, &nr);
	assert_int_equal(nr, 3);
	assert_string_equal(d[0].path, self);
	own_size = dl_iterate_phdr(own_build_id, own);
	if (own_size < 0)
		own_size = 0;			/* linked without --build-id: none to find */
	assert_int_equal(d[0].build_id_size, own_size);
	assert_memory_equal(d[0].build_id, own, (size_t)own_size);
	assert_string_equal(d[1].path, w.path);
	assert_int_equal(d[1].build_id_size, 0);
	assert_string_equal(d[2].path, "/nonexistent/libgone.so");
	assert_int_equal(d[2].build_id_size, 0);
	vg_trace_free(tr);
	x86_branch_text_reset();
	unlink(w.path);
}

static void test_wake_waits_for_the_stream_before_it(void **state)
{
	struct vg_trace *tr;
	struct vg_writer w;
	struct machine *m;
	char err[256];

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_thread(&w, VGS_THREAD_NEW, 2);	/* at 1000 */
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);	/* futex wait */
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x900, 0x910, 0x5000, 5 * N);	/* then the wake */
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_wake(&w);				/* thread 1 back: after thread 2's 5000 */
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x910, 0x920, 0x5000, N);
	vgw_close(&w);

	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	m = new_machine(2);
	assert_int_equal(vg_trace_add_tasks(tr, m, "prog"), 0);
	machine_run(m, 3 * N);
	/* thread 1 is at its wake-up at 2000; thread 2 runs [1000, 6000) on CPU 1 */
	assert_true(m->tasks[0]->sleeping);
	assert_int_equal(m->tasks[0]->runtime, 2 * N);
	machine_run(m, 6 * N);
	assert_int_equal(m->tasks[0]->runtime, 2 * N);
	assert_false(vg_trace_done(tr));
	/* thread 2 retired its record at 6000: thread 1 goes on from then */
	assert_false(m->tasks[0]->sleeping);
	machine_run(m, 7 * N);
	assert_int_equal(m->tasks[0]->runtime, 3 * N);
	assert_int_equal(m->tasks[1]->runtime, 6 * N);
	assert_true(vg_trace_done(tr));
	machine_destroy(m);
	vg_trace_free(tr);
	x86_branch_text_reset();
	unlink(w.path);
}

static void test_fork_and_exec(void **state)
{
	char dir[] = "/tmp/test_vg_task.XXXXXX";
	struct vg_trace_stats st;
	struct vg_trace *tr;
	struct vg_writer w, child, image;
	struct machine *m;
	char err[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* the parent: forks 11 at 1000, waits for it from 2000, then works */
	vgw_open_at(&w, dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);
	vgw_proc(&w, VGS_WAKE, 11, 61 /* wait4 */, NULL);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);
	/* the child: 2000 instructions, then execve; the new image 1000 more */
	vgw_open_at(&child, dir, 11, 0, 10);
	vgw_branch(&child, VGK_JMP, 0x200, 0x210, 0x7000, 2 * N);
	vgw_proc(&child, VGS_EXEC, 11, 0, "/usr/bin/newprog");
	vgw_close(&child);
	vgw_open_at(&image, dir, 11, 1, 0);
	vgw_branch(&image, VGK_JMP, 0x300, 0x310, 0x6000, N);
	vgw_proc(&image, VGS_EXIT, 11, 3 << 8, NULL);
	vgw_close(&image);

	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	m = new_machine(2);
	assert_int_equal(vg_trace_add_tasks(tr, m, "prog"), 0);
	/* two processes, two tasks: the exec'd image runs on the child's */
	assert_int_equal(m->nr_tasks, 2);
	assert_int_equal(m->tasks[1]->task.pid, m->tasks[1]->task.tid);
	assert_true(m->tasks[1]->task.pid != m->tasks[0]->task.pid);
	assert_true(m->tasks[1]->sleeping);
	machine_run(m, 3 * N);
	/* the child from the fork at 1000; the parent asleep in wait4 since 2000 */
	assert_ptr_equal(m->tasks[1]->task.real_parent, &m->tasks[0]->task);
	assert_int_equal(m->tasks[1]->runtime, 2 * N);
	assert_int_equal(m->tasks[0]->runtime, 2 * N);
	assert_true(m->tasks[0]->sleeping);
	machine_run(m, 4 * N);
	/* the new image's 1000 on the same task, under the new name */
	assert_int_equal(m->tasks[1]->runtime, 3 * N);
	assert_string_equal(m->tasks[1]->task.comm, "newprog");
	assert_int_equal(m->tasks[0]->runtime, 2 * N);
	machine_run(m, 5 * N);
	/* the child ended at 4000: the parent's work after the wait */
	assert_int_equal(m->tasks[0]->runtime, 3 * N);
	machine_run(m, 6 * N);		/* its EXIT record, at the next quantum */
	assert_true(vg_trace_done(tr));
	vg_trace_stats(tr, &st);
	assert_int_equal(st.processes, 2);
	assert_int_equal(st.threads, 2);
	assert_int_equal(st.execs, 1);
	assert_int_equal(st.insns, 6 * N);
	assert_true(st.exited && st.status == 0 && !st.stalled);
	machine_destroy(m);
	vg_trace_free(tr);
	x86_branch_text_reset();
	unlink(w.path);
	unlink(child.path);
	unlink(image.path);
	rmdir(dir);
}

static void test_bad_stream(void **state)
{
	struct vg_trace *tr = (struct vg_trace *)&tr;
	struct vg_writer w;
	char err[256];

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK__NR, 0x100, 0x110, 0x7000, N);	/* no such kind */
	vgw_close(&w);
	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), -1);
	assert_null(tr);
	assert_non_null(strstr(err, "byte 24: unknown branch kind"));
	unlink(w.path);
	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shadow_stack),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_mapped_files),
		cmocka_unit_test(test_wake_waits_for_the_stream_before_it),
		cmocka_unit_test(test_fork_and_exec),
		cmocka_unit_test(test_bad_stream),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
