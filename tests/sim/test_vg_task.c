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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <elf.h>
#include <limits.h>
#include <pthread.h>
#include <link.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tests/test.h"
#include "core/sideband.h"
#include "core/x86/pmu.h"
#include "model/msr-index.h"
#include "sim/machine.h"
#include "sim/vg_feed.h"
#include "sim/vg_stream.h"
#include "sim/vg_task.h"
#include "tests/lib/scratch.h"
#include "tests/lib/vg_writer.h"
/* test_nomem's malloc that fails on demand: vg_task_failmalloc.c links to it */
#include "tests/cmd/nomem_failmalloc.h"

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

/* PMIs of a model counter armed by hand, and where the machine said they came */
struct pmi_seen {
	struct machine *m;
	uint64_t period;
	unsigned int nr;
	uint64_t ip[64], eventing_ip[64];
};

static void arm_gp0(struct model_cpu *cpu, uint64_t period)
{
	assert_int_equal(model_wrmsr(cpu, MSR_IA32_PMC0, (0 - period) & ((1ULL << 48) - 1)), 0);
}

static void pmi_seen_fn(void *ctx, int cpu_id)
{
	struct pmi_seen *p = ctx;
	struct sim_cpu *cpu = &p->m->cpus[cpu_id];
	uint64_t status = 0;

	assert_true(p->nr < 64);
	p->ip[p->nr] = cpu->regs.ip;
	p->eventing_ip[p->nr++] = cpu->regs.eventing_ip;
	assert_int_equal(model_rdmsr(cpu->model, MSR_CORE_PERF_GLOBAL_STATUS, &status), 0);
	assert_int_equal(model_wrmsr(cpu->model, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status), 0);
	arm_gp0(cpu->model, p->period);
}

/*
 * Exact sample ips: a loop of 20 instructions of lengths 1..5 (VGS_CODE
 * says where each starts), its last a conditional back to the first,
 * entered by a jump. An instructions counter with PMI every 7: each PMI
 * comes right after the 7th, 14th, ... instruction, and the machine names
 * it (the eventing ip) and the next (the ip): in the loop body, or the
 * branch and its target.
 */
static void test_exact_ips(void **state)
{
	static struct pmi_seen seen;
	uint64_t addr[20], a = 0x1000;
	uint8_t lens[20];
	struct vg_trace *tr;
	struct vg_writer w;
	struct machine *m;
	char err[256];

	(void)state;
	for (unsigned int i = 0; i < 20; a += lens[i++]) {
		lens[i] = (uint8_t)(1 + i % 5);
		addr[i] = a;
	}
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_code(&w, 0x1000, lens, 20);
	vgw_branch(&w, VGK_JMP, 0x500, 0x1000, 0x7000, 1);	/* instruction 1 */
	for (unsigned int it = 0; it < 10; it++)
		vgw_branch(&w, VGK_COND, addr[19], 0x1000, 0x7000, 20);
	vgw_close(&w);
	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	m = new_machine(1);
	assert_int_equal(vg_trace_add_tasks(tr, m, "prog"), 0);
	seen = (struct pmi_seen){ .m = m, .period = 7 };
	model_cpu_set_pmi(m->cpus[0].model, pmi_seen_fn, &seen);
	assert_int_equal(model_wrmsr(m->cpus[0].model, MSR_ARCH_PERFMON_EVENTSEL0, 0xc0 |
				     ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_INT |
				     ARCH_PERFMON_EVENTSEL_ENABLE), 0);
	arm_gp0(m->cpus[0].model, 7);
	assert_int_equal(model_wrmsr(m->cpus[0].model, MSR_CORE_PERF_GLOBAL_CTRL, 1), 0);
	machine_run(m, 1000 * N);
	assert_true(vg_trace_done(tr));
	/* 201 instructions: PMIs after 7, 14, ..., 196 */
	assert_int_equal(seen.nr, 28);
	for (unsigned int k = 0; k < seen.nr; k++) {
		uint64_t g = 7 * (k + 1);		/* the overflowing instruction, from 1 */
		unsigned int i = (unsigned int)((g - 2) % 20);	/* its place in the loop */

		if (seen.eventing_ip[k] != addr[i])
			fail_msg("PMI %u (instruction %llu): eventing ip %#llx, not %#llx", k,
				 (unsigned long long)g, (unsigned long long)seen.eventing_ip[k],
				 (unsigned long long)addr[i]);
		if (seen.ip[k] != addr[(i + 1) % 20])
			fail_msg("PMI %u (instruction %llu): ip %#llx, not %#llx", k,
				 (unsigned long long)g, (unsigned long long)seen.ip[k],
				 (unsigned long long)addr[(i + 1) % 20]);
	}
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
 * The files a program mapped: each once, anonymous code ("//anon", or
 * no name) and "[vdso]" never, a build-id where the file is an ELF file that has one, none
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
	vgw_mmap(&w, 0x7080000, "//anon");	/* what the tool names anonymous code */
	vgw_mmap(&w, 0x7100000, "[vdso]");
	vgw_mmap(&w, 0x500000, self);		/* a second mapping of the same file */
	vgw_mmap(&w, 0x600000, w.path);		/* the stream itself: not ELF */
	vgw_mmap(&w, 0x700000, "/nonexistent/libgone.so");
	vgw_mmap(&w, 0x780000, "/nonexistent/libgonf.so");	/* as long, not the same */
	vgw_branch(&w, VGK_JMP, 0x400100, 0x400110, 0x7000, N);
	vgw_close(&w);

	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	d = vg_trace_dsos(tr, &nr);
	assert_int_equal(nr, 4);
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
	assert_string_equal(d[3].path, "/nonexistent/libgonf.so");
	vg_trace_free(tr);
	x86_branch_text_reset();
	unlink(w.path);
}

/* A stream mapping as the kernel describes a vma: whole pages, the file's device and inode. */
static void test_mmap_info_is_the_kernels(void **state)
{
	static const char so[] = "/usr/lib/libx.so";
	struct vg_event ev = {
		.type = VGS_MMAP, .addr = 0x5807d299, .len = 0x65, .pgoff = 0x7d299, .prot = 5,
		.flags = 0x02, .dev = makedev(254, 3), .ino = 247476, .name = so, .name_len = sizeof(so) - 1,
	};
	struct perf_mmap_info info;
	char name[4096];

	(void)state;
	/* a part of a page: the page, pgoff moved back as far as the start */
	vg_mmap_info(&ev, 7, 8, &info, name);
	assert_true(info.pid == 7 && info.tid == 8);
	assert_true(info.addr == 0x5807d000 && info.len == 0x1000 && info.pgoff == 0x7d000);
	assert_true(info.maj == 254 && info.min == 3 && info.ino == 247476);
	assert_true(info.ino_generation == 0 && info.prot == 5 && info.flags == 0x02);
	assert_string_equal(info.filename, so);
	/* a shared, locked mapping says so */
	ev.flags = 0x01 | 0x2000;
	vg_mmap_info(&ev, 7, 8, &info, name);
	assert_int_equal(info.flags, 0x2001);
	/* across a page boundary: both pages */
	ev.addr = 0x400ff0;
	ev.len = 0x20;
	ev.pgoff = 0x10;
	vg_mmap_info(&ev, 7, 8, &info, name);
	assert_true(info.addr == 0x400000 && info.len == 0x2000 && info.pgoff == 0);
	/* whole pages stay as they are */
	ev.addr = 0x486d000;
	ev.len = 0x156000;
	ev.pgoff = 0x26000;
	vg_mmap_info(&ev, 7, 8, &info, name);
	assert_true(info.addr == 0x486d000 && info.len == 0x156000 && info.pgoff == 0x26000);
	/* the top page of the address space */
	ev.addr = UINT64_MAX - 0xfff;
	ev.len = 0x2000;
	vg_mmap_info(&ev, 7, 8, &info, name);
	assert_true(info.addr == UINT64_MAX - 0xfff && info.len == 0);
	/* anonymous code: no file, no device, no inode, whatever the record says */
	ev = (struct vg_event){ .type = VGS_MMAP, .addr = 0x7000, .len = 0x1000, .prot = 7,
				.dev = 5, .ino = 6, .name = "//anon", .name_len = 6 };
	vg_mmap_info(&ev, 7, 8, &info, name);
	assert_null(info.filename);
	assert_true(info.maj == 0 && info.min == 0 && info.ino == 0 && info.prot == 7);
	ev.name_len = 0;
	vg_mmap_info(&ev, 7, 8, &info, name);
	assert_null(info.filename);
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
	/* the child's task comes with its fork, as its stream does */
	assert_int_equal(m->nr_tasks, 1);
	machine_run(m, 3 * N);
	/* two processes, two tasks: the exec'd image runs on the child's */
	assert_int_equal(m->nr_tasks, 2);
	assert_int_equal(m->tasks[1]->task.pid, m->tasks[1]->task.tid);
	assert_true(m->tasks[1]->task.pid != m->tasks[0]->task.pid);
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

/* ---- the rare paths ------------------------------------------------------------ */

struct replay {
	struct vg_trace *tr;
	struct machine *m;
	char dir[64];			/* a scratch directory for the streams, or "" */
};

static void scratch(struct replay *r)
{
	assert_int_equal(scratch_dir_make(r->dir, sizeof(r->dir), "vgtask"), 0);
}

/* the streams of program @path loaded and its threads on a machine of @cpus */
static void replay_start(struct replay *r, const char *path, unsigned int cpus)
{
	char err[256];

	if (vg_trace_load(&r->tr, path, err, sizeof(err)))
		fail_msg("%s", err);
	r->m = new_machine(cpus);
	assert_int_equal(vg_trace_add_tasks(r->tr, r->m, "prog"), 0);
}

static void replay_end(struct replay *r)
{
	machine_destroy(r->m);
	vg_trace_free(r->tr);
	x86_branch_text_reset();
	if (r->dir[0])
		assert_int_equal(scratch_dir_remove(r->dir), 0);
}

static struct vg_trace_stats stats_of(const struct vg_trace *tr)
{
	struct vg_trace_stats st;

	vg_trace_stats(tr, &st);
	return st;
}

static struct vg_trace_stats stats(const struct replay *r)
{
	return stats_of(r->tr);
}

static struct sim_task *task(const struct replay *r, unsigned int i)
{
	assert_true(i < r->m->nr_tasks);
	return r->m->tasks[i];
}

/* @path's load fails with exactly @want, one line, and leaves no trace */
static void assert_load_fails(const char *path, const char *want)
{
	struct vg_trace *tr = (struct vg_trace *)&tr;
	char err[512];

	assert_int_equal(vg_trace_load(&tr, path, err, sizeof(err)), -1);
	assert_null(tr);
	assert_string_equal(err, want);
	x86_branch_text_reset();
}

/*
 * @path loads (its first image is whole), but a later stream is bad: the
 * run stops there with exactly @want (a prefix of it with @prefix).
 */
static void assert_run_fails(const char *path, const char *want, bool prefix)
{
	struct vg_trace *tr;
	struct machine *m;
	char err[512];

	assert_int_equal(vg_trace_load(&tr, path, err, sizeof(err)), 0);
	m = new_machine(1);
	assert_int_equal(vg_trace_add_tasks(tr, m, "prog"), 0);
	for (unsigned int i = 1; i < 100 && !vg_trace_done(tr); i++)
		machine_run(m, i * N);
	assert_true(vg_trace_done(tr));
	assert_non_null(vg_trace_error(tr));
	if (prefix)
		assert_true(!strncmp(vg_trace_error(tr), want, strlen(want)));
	else
		assert_string_equal(vg_trace_error(tr), want);
	assert_null(strchr(vg_trace_error(tr), '\n'));
	machine_destroy(m);
	vg_trace_free(tr);
	x86_branch_text_reset();
}

static void put_bytes_at(const char *path, long off, const void *bytes, size_t len)
{
	FILE *f = fopen(path, "r+b");

	assert_non_null(f);
	assert_int_equal(fseek(f, off, SEEK_SET), 0);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* One ELF note: owner @name (its size with the NUL, as the header says), @type, @desc */
static size_t put_note(uint8_t *p, const char *name, uint32_t namesz, uint32_t type,
		       const uint8_t *desc, uint32_t descsz)
{
	Elf64_Nhdr nh = { .n_namesz = namesz, .n_descsz = descsz, .n_type = type };
	size_t at = sizeof(nh);

	memcpy(p, &nh, sizeof(nh));
	memset(p + at, 0, (namesz + 3) & ~3u);
	memcpy(p + at, name, strlen(name));
	at += (namesz + 3) & ~3u;
	memset(p + at, 0, (descsz + 3) & ~3u);
	memcpy(p + at, desc, descsz);
	return at + ((descsz + 3) & ~3u);
}

/* An ELF file at @path of one note section: the notes that are no build-id, then @id if any */
static void put_elf_with_notes(const char *path, const uint8_t *id, uint32_t id_size)
{
	uint8_t notes[512], desc[24];
	size_t len = 0;
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_DYN, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
		.e_ehsize = sizeof(Elf64_Ehdr), .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 2,
	};
	Elf64_Shdr sh[2] = { { 0 }, { .sh_type = SHT_NOTE, .sh_offset = sizeof(eh), .sh_addralign = 4 } };
	FILE *f;

	for (unsigned int i = 0; i < sizeof(desc); i++)
		desc[i] = (uint8_t)(0xa0 + i);
	len += put_note(notes + len, "XYZ", 4, NT_GNU_BUILD_ID, desc, 20);	/* another owner */
	len += put_note(notes + len, "GNU", 4, NT_GNU_ABI_TAG, desc, 16);	/* another kind */
	len += put_note(notes + len, "GNUX", 5, NT_GNU_BUILD_ID, desc, 20);	/* owner "GNUX" */
	len += put_note(notes + len, "GNU", 4, NT_GNU_BUILD_ID, desc, 0);	/* empty */
	len += put_note(notes + len, "GNU", 4, NT_GNU_BUILD_ID, desc, 24);	/* over 20 bytes */
	if (id)
		len += put_note(notes + len, "GNU", 4, NT_GNU_BUILD_ID, id, id_size);
	sh[1].sh_size = len;
	eh.e_shoff = sizeof(eh) + len;
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(&eh, sizeof(eh), 1, f), 1);
	assert_int_equal(fwrite(notes, 1, len, f), len);
	assert_int_equal(fwrite(sh, sizeof(sh), 1, f), 1);
	assert_int_equal(fclose(f), 0);
}

/*
 * The build-id of a mapped file is its first GNU build-id note of 1 to
 * 20 bytes (what perf keeps): notes of another owner or kind, an empty
 * one and a longer one are passed over; a file with no other has none.
 */
static void test_build_id_notes(void **state)
{
	static const uint8_t id[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const struct vg_dso *d;
	struct replay r = { 0 };
	struct vg_writer w;
	char with[96], without[96], slash[] = "/";
	unsigned int nr;

	(void)state;
	scratch(&r);
	snprintf(with, sizeof(with), "%s/with.so", r.dir);
	snprintf(without, sizeof(without), "%s/without.so", r.dir);
	put_elf_with_notes(with, id, sizeof(id));
	put_elf_with_notes(without, NULL, 0);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_mmap(&w, 0x400000, with);
	vgw_mmap(&w, 0x500000, without);
	vgw_mmap(&w, 0x600000, slash);			/* a directory: no ELF file */
	vgw_branch(&w, VGK_JMP, 0x400100, 0x400110, 0x7000, N);
	vgw_close(&w);
	replay_start(&r, w.path, 1);
	d = vg_trace_dsos(r.tr, &nr);
	assert_int_equal(nr, 3);
	assert_string_equal(d[0].path, with);
	assert_int_equal(d[0].build_id_size, sizeof(id));
	assert_memory_equal(d[0].build_id, id, sizeof(id));
	assert_string_equal(d[1].path, without);
	assert_int_equal(d[1].build_id_size, 0);
	assert_string_equal(d[2].path, "/");
	assert_int_equal(d[2].build_id_size, 0);
	replay_end(&r);
}

/*
 * Truncated or corrupt streams, the program's or a later one's: the
 * load fails with one line naming the file and the problem (and the
 * record's byte), whatever the record and wherever it is in the file.
 */
static void test_corrupt_streams(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;
	char path[VGW_PATH_MAX], want[512];
	uint8_t rec[VGS_REC_MAX + 16], *end;
	uint32_t version = 7;
	long at;

	(void)state;
	scratch(&r);
	snprintf(path, sizeof(path), "%s/vg.10.0", r.dir);

	/* the header cut, its magic wrong, a version this pmusim does not read */
	vgw_open(&w, path, 10, 0, 0);
	vgw_close(&w);
	assert_int_equal(truncate(path, 10), 0);
	snprintf(want, sizeof(want), "%s: not a pmusim stream (10 bytes)", path);
	assert_load_fails(path, want);
	vgw_open(&w, path, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_close(&w);
	put_bytes_at(path, 0, "PMUSIMVX", 8);
	snprintf(want, sizeof(want), "%s: not a pmusim stream (bad magic)", path);
	assert_load_fails(path, want);
	put_bytes_at(path, 0, VGS_MAGIC, 8);
	put_bytes_at(path, 8, &version, sizeof(version));
	snprintf(want, sizeof(want), "%s: stream version 7, this pmusim reads %u", path, VGS_VERSION);
	assert_load_fails(path, want);

	/* a branch record cut at the end, past the reader's first 64 KiB */
	vgw_open(&w, path, 10, 0, 0);
	for (unsigned int i = 0; i < 20000; i++)
		vgw_branch(&w, VGK_COND, 0x100 + 0x20 * (i % 7), 0x108, 0x7000, N);
	at = ftell(w.f);
	end = vgs_put_branch(rec, &w.coder, VGK_JMP, 5, N, 0x120, 0x130, 0x7000);
	assert_true(end - rec > 3);
	vgw_raw(&w, rec, 3);
	vgw_close(&w);
	assert_true(at > 64 * 1024);
	snprintf(want, sizeof(want), "%s: byte %ld: branch record cut short", path, at);
	assert_load_fails(path, want);

	/* a mapping's name cut short; an unknown record; a number over 64 bits; thread 0 */
	vgw_open(&w, path, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	at = ftell(w.f);
	end = vgs_put_rec(rec, VGS_MMAP, 0);
	for (unsigned int i = 0; i < 7; i++)	/* addr, len, pgoff, prot, flags, dev, ino */
		end = vgs_put_num(end, 0x1000);
	end = vgs_put_num(end, 10);		/* the name's length */
	vgw_raw(&w, rec, (size_t)(end - rec));
	vgw_raw(&w, "/lib", 4);
	vgw_close(&w);
	snprintf(want, sizeof(want), "%s: byte %ld: mmap name cut short", path, at);
	assert_load_fails(path, want);

	vgw_open(&w, path, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	at = ftell(w.f);
	vgw_raw(&w, "\x00\x00", 2);		/* type 0 */
	vgw_close(&w);
	snprintf(want, sizeof(want), "%s: byte %ld: unknown record type", path, at);
	assert_load_fails(path, want);

	vgw_open(&w, path, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	at = ftell(w.f);
	vgw_raw(&w, "\x52\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f", 11);
	vgw_close(&w);
	snprintf(want, sizeof(want), "%s: byte %ld: number over 64 bits", path, at);
	assert_load_fails(path, want);

	vgw_open(&w, path, 10, 0, 0);
	at = ftell(w.f);
	vgw_thread(&w, VGS_THREAD, 0);
	vgw_close(&w);
	snprintf(want, sizeof(want), "%s: byte %ld: thread 0", path, at);
	assert_load_fails(path, want);

	/* the program's stream is good; its child's is cut, then its new image's is not a stream */
	vgw_open(&w, path, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_proc(&w, VGS_EXEC, 10, 0, "/usr/bin/next");
	vgw_close(&w);
	vgw_open_at(&w, r.dir, 11, 0, 10);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x7000, N);
	at = ftell(w.f);
	vgw_proc(&w, VGS_EXIT, 11, 0, NULL);
	vgw_close(&w);
	assert_int_equal(truncate(w.path, at + 2), 0);
	/* (the child's and the new image's streams are read as the run reaches them) */
	snprintf(want, sizeof(want), "%s: byte %ld: process record cut short", w.path, at);
	assert_run_fails(path, want, false);
	unlink(w.path);
	vgw_open_at(&w, r.dir, 10, 1, 0);
	vgw_close(&w);
	put_bytes_at(w.path, 0, "NOTVGSTR", 8);
	snprintf(want, sizeof(want), "%s: not a pmusim stream (bad magic)", w.path);
	assert_run_fails(path, want, false);
	unlink(w.path);
	/* a child's "stream" that is a directory */
	snprintf(want, sizeof(want), "%s/vg.11.0", r.dir);
	assert_int_equal(mkdir(want, 0755), 0);
	{
		char prefix[520];

		snprintf(prefix, sizeof(prefix), "%s: ", want);
		assert_run_fails(path, prefix, true);
	}
	assert_int_equal(rmdir(want), 0);
	assert_int_equal(scratch_dir_remove(r.dir), 0);
}

/*
 * An execve of a file that is not there (EXEC, then EXEC_FAILED): the
 * program goes on in its image, under its name, and a stream that
 * looks like a next image is not followed. Then one that failed and
 * one that worked, by a relative path: the new image is the second's,
 * named by the file.
 */
static void test_exec_of_a_missing_file(void **state)
{
	struct replay r = { 0 };
	struct vg_trace_stats st;
	struct vg_writer w;
	char path[VGW_PATH_MAX];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_proc(&w, VGS_EXEC, 10, 0, "/nonexistent/prog");
	vgw_rec(&w, VGS_EXEC_FAILED, 0);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_proc(&w, VGS_EXIT, 10, 1 << 8, NULL);
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 10, 1, 0);	/* not this program's: it never ran an image */
	vgw_branch(&w, VGK_JMP, 0x900, 0x910, 0x7000, 50 * N);
	vgw_close(&w);
	replay_start(&r, path, 1);
	assert_int_equal(r.m->nr_tasks, 1);
	machine_run(r.m, 10 * N);
	assert_true(vg_trace_done(r.tr));
	st = stats(&r);
	assert_int_equal(st.insns, 2 * N);
	assert_false(st.exec);
	assert_int_equal(st.execs, 0);
	assert_true(st.exited && st.status == 1 << 8);
	assert_string_equal(task(&r, 0)->task.comm, "prog");
	machine_destroy(r.m);
	vg_trace_free(r.tr);

	vgw_open_at(&w, r.dir, 20, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_proc(&w, VGS_EXEC, 20, 0, "/nonexistent/prog");
	vgw_rec(&w, VGS_EXEC_FAILED, 0);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_proc(&w, VGS_EXEC, 20, 0, "a-program-of-long-name");
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 20, 1, 0);
	vgw_branch(&w, VGK_JMP, 0x300, 0x310, 0x7000, N);
	vgw_proc(&w, VGS_EXIT, 20, 3 << 8, NULL);
	vgw_close(&w);
	replay_start(&r, path, 1);
	machine_run(r.m, 10 * N);
	assert_true(vg_trace_done(r.tr));
	st = stats(&r);
	assert_int_equal(st.insns, 3 * N);
	assert_int_equal(st.execs, 1);
	assert_false(st.exec);
	assert_true(st.exited && st.status == 3 << 8);
	assert_string_equal(task(&r, 0)->task.comm, "a-program-of-lo");	/* 15 bytes */
	replay_end(&r);
}

/*
 * A fork in a signal handler running on its own stack (sigaltstack):
 * the child is in the same calls, the handler's segment included, so
 * its return from the handler drops the handler's frames though they
 * lie above the stack it returns to; the parent's stack is its own.
 */
static void test_fork_in_a_signal_handler(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w, child;
	uint64_t ips[64];
	const uint64_t sp = 0x7000, alt = 0x9000;

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_CALL, 0x110, 0x200, sp - 8, N);			/* [0, 1000) */
	vgw_branch(&w, VGK_SIGNAL, 0x210, 0x500, alt - 8, 0);		/* at 1000 */
	vgw_branch(&w, VGK_CALL, 0x510, 0x600, alt - 0x10, N);		/* [1000, 2000) */
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);				/* at 2000 */
	vgw_branch(&w, VGK_JMP, 0x610, 0x620, alt - 0x10, N);
	vgw_branch(&w, VGK_JMP, 0x620, 0x630, alt - 0x10, N);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);
	vgw_open_at(&child, r.dir, 11, 0, 10);
	vgw_branch(&child, VGK_CALL, 0x620, 0x700, alt - 0x20, N);		/* [2000, 3000) */
	vgw_branch(&child, VGK_SIGRETURN, 0, 0x210, sp - 8, 0);		/* at 3000 */
	vgw_branch(&child, VGK_JMP, 0x210, 0x220, sp - 8, N);		/* [3000, 4000) */
	vgw_proc(&child, VGS_EXIT, 11, 0, NULL);
	vgw_close(&child);

	replay_start(&r, w.path, 2);
	machine_run(r.m, 2 * N + 1);
	/* forked: the child's stack is the parent's */
	assert_ptr_equal(task(&r, 1)->task.real_parent, &task(&r, 0)->task);
	assert_int_equal(vg_trace_callstack(task(&r, 1), ips, 64), 3);
	assert_true(ips[0] == 0x600 && ips[1] == 0x510 && ips[2] == 0x110);
	machine_run(r.m, 3 * N);
	assert_int_equal(vg_trace_callstack(task(&r, 1), ips, 64), 4);
	assert_true(ips[0] == 0x700 && ips[1] == 0x620 && ips[2] == 0x510);
	machine_run(r.m, 4 * N);
	/* back from the handler: in the function it interrupted */
	assert_int_equal(vg_trace_callstack(task(&r, 1), ips, 64), 2);
	assert_true(ips[0] == 0x200 && ips[1] == 0x110);
	/* the parent is still in the handler */
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 64), 3);
	assert_true(ips[0] == 0x600 && ips[1] == 0x510 && ips[2] == 0x110);
	machine_run(r.m, 6 * N);
	assert_true(vg_trace_done(r.tr));
	assert_int_equal(stats(&r).insns, 6 * N);
	replay_end(&r);
}

/*
 * A parent that forks, waits for its child and then runs execve; the
 * child and the new image have a thread their first creates and one
 * that nothing creates (which starts with its process or image), each
 * a task of its own: the exec'd image's first thread on the leader.
 */
static void test_fork_then_exec(void **state)
{
	struct replay r = { 0 };
	struct vg_trace_stats st;
	struct vg_writer w;
	char path[VGW_PATH_MAX];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);			/* [0, 1000) */
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);		/* [1000, 2000) */
	vgw_proc(&w, VGS_WAKE, 11, 61 /* wait4 */, NULL);		/* asleep until 3000 */
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);			/* [3000, 4000) */
	vgw_proc(&w, VGS_EXEC, 10, 0, "/usr/bin/next");
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 10, 1, 0);
	vgw_branch(&w, VGK_JMP, 0x300, 0x310, 0x7000, N);			/* [4000, 5000) */
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_JMP, 0x310, 0x320, 0x7000, N);			/* [5000, 6000) */
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x400, 0x410, 0x6000, N);			/* [5000, 6000) */
	vgw_thread(&w, VGS_THREAD, 3);
	vgw_branch(&w, VGK_JMP, 0x500, 0x510, 0x5000, N);			/* [4000, 5000) */
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);
	vgw_open_at(&w, r.dir, 11, 0, 10);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x7000, N);			/* [1000, 2000) */
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_JMP, 0x210, 0x220, 0x7000, N);			/* [2000, 3000) */
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x600, 0x610, 0x6000, N);			/* [2000, 3000) */
	vgw_thread(&w, VGS_THREAD, 3);
	vgw_branch(&w, VGK_JMP, 0x700, 0x710, 0x5000, N);			/* [1000, 2000) */
	vgw_close(&w);

	replay_start(&r, path, 4);
	/* the leader; the child's tasks come with its stream, at the fork */
	assert_int_equal(r.m->nr_tasks, 1);
	machine_run(r.m, 2 * N + 1);
	/* the parent in wait4 from 2000: the child runs on */
	assert_true(task(&r, 0)->sleeping);
	assert_int_equal(task(&r, 1)->task.pid, task(&r, 1)->task.tid);
	assert_ptr_equal(task(&r, 1)->task.real_parent, &task(&r, 0)->task);
	assert_int_equal(task(&r, 2)->task.pid, task(&r, 1)->task.pid);
	assert_false(vg_trace_done(r.tr));
	machine_run(r.m, 3 * N);
	assert_string_equal(task(&r, 0)->task.comm, "prog");
	/*
	 * (the child's third thread, which no THREAD_NEW makes, begins when
	 * the stream shows it, not at the fork: when the child ends varies)
	 */
	machine_run(r.m, 20 * N);
	/* the new image: its first thread on the leader */
	assert_string_equal(task(&r, 0)->task.comm, "next");
	assert_true(vg_trace_done(r.tr));
	assert_int_equal(r.m->nr_tasks, 6);
	assert_int_equal(task(&r, 0)->runtime, 5 * N);
	st = stats(&r);
	assert_int_equal(st.processes, 2);
	assert_int_equal(st.threads, 6);
	assert_int_equal(st.execs, 1);
	assert_int_equal(st.insns, 11 * N);
	assert_true(st.exited && st.status == 0 && !st.exec && !st.stalled);
	replay_end(&r);
}

/*
 * execve from a second thread: the first (the leader) ends before it,
 * without an EXIT (the process goes on); the second's task gets its
 * EXIT, and the new image starts on the leader's task when it ended.
 */
static void test_exec_by_a_second_thread(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;
	char path[VGW_PATH_MAX];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);			/* [0, 1000) */
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_JMP, 0x110, 0x120, 0x7000, N);			/* [1000, 2000) */
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x6000, 3 * N);		/* [1000, 4000) */
	vgw_proc(&w, VGS_EXEC, 10, 0, "/usr/bin/next");
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 10, 1, 0);
	vgw_branch(&w, VGK_JMP, 0x300, 0x310, 0x7000, N);			/* [4000, 5000) */
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);

	replay_start(&r, path, 2);
	assert_int_equal(r.m->nr_tasks, 2);
	machine_run(r.m, 3 * N);
	assert_true(task(&r, 0)->sleeping);
	assert_int_equal(task(&r, 0)->runtime, 2 * N);
	machine_run(r.m, 4 * N);
	assert_int_equal(task(&r, 1)->runtime, 3 * N);
	assert_string_equal(task(&r, 0)->task.comm, "prog");
	machine_run(r.m, 6 * N);
	assert_true(vg_trace_done(r.tr));
	assert_string_equal(task(&r, 0)->task.comm, "next");
	assert_int_equal(task(&r, 0)->runtime, 3 * N);
	assert_true(task(&r, 1)->sleeping);
	assert_int_equal(stats(&r).execs, 1);
	replay_end(&r);
}

struct pump {
	const char *path;
	int fd;
};

/* The stream file as the tool would write it into the pipe: frames, then the pipe's end. */
static void *pump_frames(void *arg)
{
	struct pump *p = arg;
	unsigned char buf[VGS_FRAME_MAX];
	struct vgs_frame *f = (struct vgs_frame *)buf;
	uint16_t flags = VGS_FRAME_START;
	FILE *in = fopen(p->path, "rb");
	size_t n;

	assert_non_null(in);
	while ((n = fread(buf + sizeof(*f), 1, sizeof(buf) - sizeof(*f), in)) > 0) {
		*f = (struct vgs_frame){ .pid = 10, .len = (uint16_t)n, .flags = flags };
		flags = 0;
		assert_int_equal(write(p->fd, buf, sizeof(*f) + n), (ssize_t)(sizeof(*f) + n));
	}
	fclose(in);
	close(p->fd);
	return NULL;
}

/*
 * A thread that waits in the host while another runs on (a join): its
 * walk, looking for its next record past the other's, parks 4 MiB ahead
 * of the other's (asleep), and goes on when the other comes near or
 * ends: through a pipe, what is held of a 20 MB stream stays under 9 MiB
 * (not the whole loop). The replay is the one it would be: every
 * instruction, and the waiter's code after the wake-up after all the
 * other's.
 */
static void test_waiter_parks_ahead(void **state)
{
	const unsigned int loops = 4000000;	/* some 5 bytes each: 20 MB */
	struct replay r = { 0 };
	struct vg_writer w;
	struct vg_feed *feed;
	struct pump pump;
	uint64_t bytes, held;
	pthread_t t;
	char err[256];
	int p[2];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);	/* the join's futex */
	vgw_thread(&w, VGS_THREAD, 2);
	for (unsigned int i = 0; i < loops; i++)
		vgw_branch(&w, VGK_COND, 0x210, 0x200, 0x6000, 4);
	vgw_thread(&w, VGS_THREAD_EXIT, 2);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_proc(&w, VGS_WAKE, 0, 202 /* futex */, NULL);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);
	assert_int_equal(pipe(p), 0);
	pump = (struct pump){ w.path, p[1] };
	assert_int_equal(pthread_create(&t, NULL, pump_frames, &pump), 0);
	feed = vg_feed_open_pipe(p[0]);
	assert_non_null(feed);
	if (vg_trace_open_feed(&r.tr, feed, NULL, err, sizeof(err)))
		fail_msg("%s", err);
	r.m = new_machine(2);
	assert_int_equal(vg_trace_add_tasks(r.tr, r.m, "prog"), 0);
	for (unsigned int i = 1; i < 10000 && !vg_trace_done(r.tr); i++)
		machine_run(r.m, (uint64_t)i * 1000 * N);
	assert_true(vg_trace_done(r.tr));
	pthread_join(t, NULL);
	vg_feed_stats(feed, &bytes, &held);
	assert_true(bytes > 20000000);
	assert_true(held < 9u << 20);
	assert_int_equal(stats(&r).insns, 3 * N + 4ull * loops);
	assert_false(stats(&r).stalled);
	/* the waiter's last 1000 came after the other's whole loop */
	assert_int_equal(task(&r, 0)->runtime, 3 * N);
	assert_true(model_cpu_tsc(r.m->cpus[0].model) >= 2 * N + 4ull * loops ||
		    model_cpu_tsc(r.m->cpus[1].model) >= 2 * N + 4ull * loops);
	machine_destroy(r.m);
	vg_trace_free(r.tr);
	vg_feed_free(feed);
	x86_branch_text_reset();
	assert_int_equal(scratch_dir_remove(r.dir), 0);
}

/* ---- the fast ways against the slow one ---------------------------------------- */

/* What a replay shows after each machine step, folded (FNV-1a); and its PMIs. */
struct fast_run {
	struct machine *m;
	uint64_t hash;
	unsigned int pmis;
};

static void fold64(struct fast_run *f, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		f->hash ^= (v >> (8 * i)) & 0xff;
		f->hash *= 0x100000001b3ULL;
	}
}

#define FAST_PERIOD	997	/* instructions between PMIs, each CPU */

/* A PMI of counter 0: where the machine says it came, folded; re-armed. */
static void fast_pmi(void *ctx, int cpu_id)
{
	struct fast_run *f = ctx;
	struct sim_cpu *cpu = &f->m->cpus[cpu_id];
	uint64_t status = 0;

	f->pmis++;
	fold64(f, (uint64_t)cpu_id);
	fold64(f, cpu->regs.ip);
	fold64(f, cpu->regs.eventing_ip);
	assert_int_equal(model_rdmsr(cpu->model, MSR_CORE_PERF_GLOBAL_STATUS, &status), 0);
	assert_int_equal(model_wrmsr(cpu->model, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status), 0);
	arm_gp0(cpu->model, FAST_PERIOD);
}

/* The state after a step: counts, each task's runtime and true stack, each CPU's LBR. */
static void fold_state(struct fast_run *f, const struct vg_trace *tr)
{
	struct vg_trace_stats st;
	uint64_t ips[64], v;

	/* (not st.records: the records the scout has read, which it may read ahead) */
	vg_trace_stats(tr, &st);
	fold64(f, st.insns);
	fold64(f, st.branches);
	fold64(f, st.max_depth);
	for (unsigned int i = 0; i < f->m->nr_tasks; i++) {
		unsigned int n = vg_trace_callstack(f->m->tasks[i], ips, 64);

		fold64(f, f->m->tasks[i]->runtime);
		for (unsigned int k = 0; k < n; k++)
			fold64(f, ips[k]);
	}
	for (unsigned int c = 0; c < 2; c++) {	/* replay_hashes()'s machine */
		struct model_cpu *cpu = f->m->cpus[c].model;

		fold64(f, model_cpu_tsc(cpu));
		assert_int_equal(model_rdmsr(cpu, MSR_LBR_TOS, &v), 0);
		fold64(f, v);
		for (unsigned int k = 0; k < 32; k++) {
			assert_int_equal(model_rdmsr(cpu, MSR_LBR_NHM_FROM + k, &v), 0);
			fold64(f, v);
			assert_int_equal(model_rdmsr(cpu, MSR_LBR_NHM_TO + k, &v), 0);
			fold64(f, v);
		}
	}
}

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A run of @n records of a thread whose code is at @base and whose stack is at *@sp. */
static void random_run(struct vg_writer *w, uint64_t *x, uint64_t base, uint64_t *sp,
		       unsigned int *depth, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		uint64_t r = next_rand(x);
		/* a site per kind from a few thousand: more than the scout's cache holds */
		uint64_t site = base + ((r >> 8) % 3000) * 16;
		uint32_t insns = (r >> 20) % 64 == 0 ? 1 + (uint32_t)((r >> 26) % 5000) :
				 1 + (uint32_t)((r >> 26) % 30);
		unsigned int pick = (unsigned int)(r % 100);

		if (pick < 60) {
			vgw_branch(w, VGK_COND, site | 1, site - 0x40, *sp, insns);
		} else if (pick < 68) {
			vgw_branch(w, VGK_JMP, site | 2, site + 0x80, *sp, insns);
		} else if (pick < 72) {
			vgw_branch(w, VGK_IND_JMP, site | 3, base + ((r >> 40) % 3000) * 16, *sp, insns);
		} else if (pick < 84 && *depth < 200) {
			*sp -= 8 + 16 * ((r >> 40) % 4);
			++*depth;
			vgw_branch(w, pick < 80 ? VGK_CALL : VGK_IND_CALL, site | 4,
				   base + 0x100000 + ((r >> 44) % 500) * 64, *sp, insns);
		} else if (pick < 96 && *depth) {
			*sp += 8 + 16 * ((r >> 40) % 4);
			--*depth;
			vgw_branch(w, VGK_RET, site | 5, base + ((r >> 44) % 3000) * 16 + 5, *sp,
				   insns);
		} else if (pick < 98) {
			vgw_branch(w, VGK_SYSCALL, site | 6, (site | 6) + 2, *sp, insns);
			if ((r >> 50) % 2)
				vgw_proc(w, VGS_WAKE, 0, 202, NULL);
		} else {
			/* a signal: a handler that calls and returns, then rt_sigreturn */
			vgw_branch(w, VGK_SIGNAL, site | 7, base + 0x200000, *sp - 0x400, insns);
			vgw_branch(w, VGK_CALL, base + 0x200010, base + 0x210000, *sp - 0x408, 3);
			vgw_branch(w, VGK_RET, base + 0x210020, base + 0x200015, *sp - 0x400, 4);
			vgw_branch(w, VGK_SIGRETURN, 0, site | 7, *sp, 2);
		}
	}
}

/*
 * A replay of the stream @path through a pipe on two CPUs, each with an
 * LBR (all branches on CPU 0, call stacks on CPU 1; with @call_stacks,
 * call stacks on both) and an instructions
 * counter giving a PMI every FAST_PERIOD; the state after each step into
 * @hashes (@nr of them at most): how many steps it took.
 */
static unsigned int replay_hashes(const char *path, bool fast, bool call_stacks,
				  uint64_t *hashes, unsigned int nr, struct vg_trace_stats *st)
{
	struct fast_run f = { .hash = 0xcbf29ce484222325ULL };
	struct vg_trace *tr;
	struct vg_feed *feed;
	struct pump pump;
	pthread_t t;
	char err[256];
	unsigned int steps = 0;
	int p[2];

	assert_int_equal(pipe(p), 0);
	pump = (struct pump){ path, p[1] };
	assert_int_equal(pthread_create(&t, NULL, pump_frames, &pump), 0);
	feed = vg_feed_open_pipe(p[0]);
	assert_non_null(feed);
	if (vg_trace_open_feed(&tr, feed, NULL, err, sizeof(err)))
		fail_msg("%s", err);
	vg_trace_set_fast(tr, fast);
	f.m = new_machine(2);
	assert_int_equal(vg_trace_add_tasks(tr, f.m, "prog"), 0);
	for (unsigned int c = 0; c < 2; c++) {
		struct model_cpu *cpu = f.m->cpus[c].model;

		model_cpu_set_pmi(cpu, fast_pmi, &f);
		assert_int_equal(model_wrmsr(cpu, MSR_LBR_SELECT,
					     c || call_stacks ? LBR_CALL_STACK | LBR_KERNEL | LBR_JCC |
						 LBR_IND_JMP | LBR_REL_JMP | LBR_FAR : 0), 0);
		assert_int_equal(model_wrmsr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR), 0);
		assert_int_equal(model_wrmsr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, 0xc0 |
					     ARCH_PERFMON_EVENTSEL_USR | ARCH_PERFMON_EVENTSEL_INT |
					     ARCH_PERFMON_EVENTSEL_ENABLE), 0);
		arm_gp0(cpu, FAST_PERIOD);
		assert_int_equal(model_wrmsr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1), 0);
	}
	while (!vg_trace_done(tr)) {
		assert_true(steps < nr);
		machine_run(f.m, (uint64_t)(steps + 1) * 7 * N);
		fold_state(&f, tr);
		fold64(&f, f.pmis);
		hashes[steps++] = f.hash;
	}
	pthread_join(t, NULL);
	vg_trace_stats(tr, st);
	assert_null(vg_trace_error(tr));
	machine_destroy(f.m);
	vg_trace_free(tr);
	vg_feed_free(feed);
	x86_branch_text_reset();
	return steps;
}

/*
 * The fast ways of reading records (runs of a thread's records decoded
 * once and retired at once, other threads' records skipped by their
 * lengths, the scout reading ahead) retire exactly what the slow way
 * does, record by record: a stream of three threads in runs of random
 * lengths, with branches of every kind at thousands of sites, calls and
 * returns moving sp (two threads' stacks at the same addresses), signal
 * handlers, wake-ups (half the runs begin with one, which waits for the
 * records before it), and runs so long that waiting threads park ahead
 * of them, replayed through a pipe with LBRs
 * and PMIs, both ways: after every step the counts, every task's runtime
 * and true stack, each CPU's LBR and the PMIs' ips are the same; and the
 * fast replay reads most records the fast ways.
 */
static void test_fast_ways_match_the_slow_way(void **state)
{
	enum { MAX_STEPS = 200000 };
	static uint64_t slow[MAX_STEPS], fast[MAX_STEPS];
	struct replay r = { 0 };
	struct vg_trace_stats st_slow, st_fast;
	struct vg_writer w;
	/*
	 * threads 2 and 3 with stacks at the same addresses (a made-up
	 * stream): a thread's first branch after a switch may come at the sp
	 * of the other's last, which the stream's deltas go on from
	 */
	uint64_t x = 0x2545f4914f6cdd1dULL, sp[4] = { 0, 0x7f0000, 0x6f0000, 0x6f0000 };
	unsigned int depth[4] = { 0 }, cur = 1, n_slow, n_fast;

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	w.runs = true;		/* as the tool writes them: runs marked */
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, sp[1], 5);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_JMP, 0x110, 0x120, sp[1], 5);
	vgw_thread(&w, VGS_THREAD_NEW, 3);
	for (unsigned int run = 0; run < 400; run++) {
		uint64_t pick = next_rand(&x);
		unsigned int t = 1 + (unsigned int)(pick % 3);
		/* three runs long enough (some 5 MB) for a waiting walk to park */
		unsigned int len = run % 130 == 100 ? 1000000 : 1 + (unsigned int)((pick >> 8) % 2500);

		if (t != cur) {
			vgw_thread(&w, VGS_THREAD, t);
			/*
			 * a quarter of the time, after a mapping (a record of its own
			 * that no branch is), its first branch is a return to the sp
			 * of the other's last (whose delta is 0): it pops the frames
			 * of its own below that, which the other's branch did not
			 */
			if ((pick >> 44) % 4 == 0) {
				vgw_mmap(&w, 0x400000ULL * t + 0x100000, "/nonexistent/pmusim-test.so");
				sp[t] = sp[cur];
				vgw_branch(&w, VGK_RET, 0x400000ULL * t + 0x20, 0x400000ULL * t + 0x30,
					   sp[t], 2);
				depth[t] = depth[t] ? depth[t] - 1 : 0;
			}
			/* back from a wait, half the time: it waits for the others' records before */
			if ((pick >> 40) % 2) {
				vgw_branch(&w, VGK_SYSCALL, 0x400000ULL * t + 0x10, 0x400000ULL * t + 0x12,
					   sp[t], 3);
				vgw_proc(&w, VGS_WAKE, 0, 202, NULL);
			}
		}
		cur = t;
		random_run(&w, &x, 0x400000ULL * t, &sp[t], &depth[t], len);
	}
	for (unsigned int t = 2; t <= 3; t++) {
		vgw_thread(&w, VGS_THREAD, t);
		vgw_thread(&w, VGS_THREAD_EXIT, t);
	}
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_proc(&w, VGS_WAKE, 0, 202, NULL);
	vgw_branch(&w, VGK_JMP, 0x130, 0x140, sp[1], 5);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);

	n_slow = replay_hashes(w.path, false, false, slow, MAX_STEPS, &st_slow);
	n_fast = replay_hashes(w.path, true, false, fast, MAX_STEPS, &st_fast);
	for (unsigned int i = 0; i < n_slow && i < n_fast; i++)
		if (slow[i] != fast[i])
			fail_msg("step %u of %u: the fast ways differ from the slow way", i, n_slow);
	assert_int_equal(n_fast, n_slow);
	assert_int_equal(st_fast.insns, st_slow.insns);
	assert_int_equal(st_fast.records, st_slow.records);
	assert_false(st_slow.stalled);
	assert_int_equal(st_slow.fast, 0);
	/* (the scout reading ahead and a walk reading the same record count twice) */
	if (st_fast.fast < st_slow.records)
		fail_msg("only %llu fast reads of %llu records", (unsigned long long)st_fast.fast,
			 (unsigned long long)st_slow.records);
	/* the walks jumped over most of the others' long runs, and arrived where reading would */
	assert_int_equal(st_slow.jumped, 0);
	if (st_fast.jumped < st_slow.records / 4)
		fail_msg("walks jumped over %llu of %llu records", (unsigned long long)st_fast.jumped,
			 (unsigned long long)st_slow.records);
	/* (runs are retired by their sums in images of one thread only: below) */
	assert_int_equal(st_fast.summed, 0);
	assert_int_equal(scratch_dir_remove(r.dir), 0);
}

/*
 * A thread's runs of conditional branches and jumps (vgstream.h) retired
 * by their sums where its CPU's LBR keeps call stacks only, against the
 * slow way, record by record: after every step the same counts, true
 * stacks, LBRs and PMIs. Its stack pointer moves between branches, up and
 * down; now and then a jump inside a run leaves frames behind (longjmp's),
 * which the run's highest sp pops.
 */
static void test_runs_retired_by_their_sums(void **state)
{
	enum { MAX_STEPS = 200000 };
	static uint64_t slow[MAX_STEPS], fast[MAX_STEPS];
	struct replay r = { 0 };
	struct vg_trace_stats st_slow, st_fast;
	struct vg_writer w;
	uint64_t x = 0x9e3779b97f4a7c15ULL, frame = 0x7f0000, sp = frame, base = 0x400000;
	uint64_t frames[256], summed = 0;
	unsigned int depth = 0, n_slow, n_fast;

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	w.runs = true;
	for (unsigned int i = 0; i < 400000; i++) {
		uint64_t rnd = next_rand(&x), site = base + ((rnd >> 8) % 2000) * 16;
		uint32_t insns = 1 + (uint32_t)((rnd >> 26) % 40);
		unsigned int pick = (unsigned int)(rnd % 1000);

		if (pick < 900) {
			/* inside the frame: pushes and pops move sp below its base */
			sp = frame - 8 * ((rnd >> 40) % 8);
			vgw_branch(&w, pick < 700 ? VGK_COND : pick < 850 ? VGK_JMP : VGK_IND_JMP,
				   site | 1, site - 0x40, sp, insns);
		} else if (pick < 950 && depth < 256) {
			frames[depth++] = frame;
			frame = sp - 8 - 16 * ((rnd >> 44) % 4);
			sp = frame;
			vgw_branch(&w, VGK_CALL, site | 4, base + 0x100000 + ((rnd >> 48) % 300) * 64,
				   sp, insns);
		} else if (pick < 995 && depth) {
			frame = frames[--depth];
			sp = frame;
			vgw_branch(&w, VGK_RET, site | 5, site + 0x25, sp, insns);
		} else if (depth > 3) {
			/* a longjmp: an indirect jump three frames up */
			depth -= 3;
			frame = frames[depth];
			sp = frame;
			vgw_branch(&w, VGK_IND_JMP, site | 3, base + 0x8000, sp, insns);
		}
	}
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);

	/* both ways with call stacks only on both CPUs, then with all branches on CPU 0 */
	for (unsigned int all = 0; all < 2; all++) {
		n_slow = replay_hashes(w.path, false, !all, slow, MAX_STEPS, &st_slow);
		n_fast = replay_hashes(w.path, true, !all, fast, MAX_STEPS, &st_fast);
		for (unsigned int i = 0; i < n_slow && i < n_fast; i++)
			if (slow[i] != fast[i])
				fail_msg("step %u of %u: the fast ways differ from the slow way", i,
					 n_slow);
		assert_int_equal(n_fast, n_slow);
		assert_int_equal(st_fast.insns, st_slow.insns);
		assert_int_equal(st_fast.branches, st_slow.branches);
		if (!all)
			summed = st_fast.summed;
	}
	st_fast.summed = summed;
	assert_int_equal(st_slow.summed, 0);
	if (st_fast.summed < st_slow.records / 10)
		fail_msg("%llu of %llu records retired by their run's sums",
			 (unsigned long long)st_fast.summed, (unsigned long long)st_slow.records);
	print_message("# %llu records, %llu of them retired by their run's sums\n",
		      (unsigned long long)st_slow.records, (unsigned long long)st_fast.summed);
	assert_int_equal(scratch_dir_remove(r.dir), 0);
}

/* A join: the thread waited for exits (THREAD_EXIT its last record), the waiter goes on then. */
static void test_thread_exits_while_another_waits(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);			/* [0, 1000) */
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);		/* [1000, 2000) */
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x6000, 2500);		/* [1000, 3500) */
	vgw_thread(&w, VGS_THREAD_EXIT, 2);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_wake(&w);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);			/* [3500, 4500) */
	vgw_close(&w);

	replay_start(&r, w.path, 2);
	machine_run(r.m, 3 * N);
	assert_true(task(&r, 0)->sleeping);
	assert_int_equal(task(&r, 0)->runtime, 2 * N);
	machine_run(r.m, 4 * N);
	/* the thread exited at 3500: the waiter went on from then */
	assert_true(task(&r, 1)->sleeping);
	assert_false(task(&r, 0)->sleeping);
	assert_int_equal(task(&r, 0)->runtime, 2 * N + 500);
	machine_run(r.m, 5 * N);
	assert_int_equal(task(&r, 0)->runtime, 3 * N);
	assert_true(vg_trace_done(r.tr));
	unlink(w.path);
	replay_end(&r);
}

/*
 * A thread at its wake-up after the other thread retired what comes
 * before it, but at an earlier time on its own CPU: it goes on when
 * the other did (1800), idling until then, not at once (1100).
 */
static void test_wake_after_the_others_passed_it(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);			/* [0, 1000) */
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_JMP, 0x110, 0x120, 0x7000, 800);		/* [1000, 1800) */
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x6000, 100);		/* [1000, 1100) */
	vgw_wake(&w);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x210, 0x220, 0x6000, N);			/* from 1800 */
	vgw_close(&w);

	replay_start(&r, w.path, 2);
	machine_run(r.m, 2 * N);
	assert_int_equal(task(&r, 1)->runtime, 100 + 200);
	assert_int_equal(r.m->cpus[1].busy, 100 + 200);
	machine_run(r.m, 4 * N);
	assert_true(vg_trace_done(r.tr));
	assert_int_equal(task(&r, 1)->runtime, N + 100);
	unlink(w.path);
	replay_end(&r);
}

/*
 * Wake-ups that wait for nobody: wait4 returning a pid that is no
 * recorded child, the program's own, or its child's child; a read in a
 * program of one thread. The program never sleeps nor idles.
 */
static void test_wakes_that_wait_for_nobody(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;
	char path[VGW_PATH_MAX];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);
	vgw_proc(&w, VGS_WAKE, 99, 61, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x112, 0x114, 0x7000, N);
	vgw_proc(&w, VGS_WAKE, 10, 61, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x114, 0x116, 0x7000, N);
	vgw_proc(&w, VGS_WAKE, 12, 61, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x116, 0x118, 0x7000, N);
	vgw_proc(&w, VGS_WAKE, 0, 0 /* read */, NULL);
	vgw_branch(&w, VGK_JMP, 0x118, 0x120, 0x7000, N);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 11, 0, 10);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x7000, N);
	vgw_proc(&w, VGS_FORK, 12, 0, NULL);
	vgw_branch(&w, VGK_JMP, 0x210, 0x220, 0x7000, 20 * N);
	vgw_proc(&w, VGS_EXIT, 11, 0, NULL);
	vgw_close(&w);
	vgw_open_at(&w, r.dir, 12, 0, 11);
	vgw_branch(&w, VGK_JMP, 0x300, 0x310, 0x7000, 20 * N);
	vgw_close(&w);

	replay_start(&r, path, 3);
	machine_run(r.m, 6 * N);
	assert_int_equal(task(&r, 0)->runtime, 6 * N);
	machine_run(r.m, 7 * N);
	assert_true(task(&r, 0)->sleeping);		/* ended */
	assert_false(vg_trace_done(r.tr));
	machine_run(r.m, 30 * N);
	assert_true(vg_trace_done(r.tr));
	assert_int_equal(stats(&r).processes, 3);
	assert_int_equal(stats(&r).insns, 47 * N);	/* 6 + 21 + 20 */
	replay_end(&r);
}

/*
 * wait4 in a parent of two threads: its child ended (2000) before the
 * other thread retired what precedes the wake-up (6000); it goes on at
 * the later of the two.
 */
static void test_wait_for_a_child_and_a_thread(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;
	char path[VGW_PATH_MAX];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);			/* [0, 1000) */
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);		/* [1000, 2000) */
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x6000, 5 * N);		/* [1000, 6000) */
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_proc(&w, VGS_WAKE, 11, 61, NULL);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);			/* [6000, 7000) */
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 11, 0, 10);
	vgw_branch(&w, VGK_JMP, 0x300, 0x310, 0x7000, N);			/* [1000, 2000) */
	vgw_proc(&w, VGS_EXIT, 11, 0, NULL);
	vgw_close(&w);

	replay_start(&r, path, 3);
	machine_run(r.m, 5 * N);
	assert_true(task(&r, 0)->sleeping);
	machine_run(r.m, 6 * N);
	assert_false(task(&r, 0)->sleeping);
	assert_int_equal(task(&r, 0)->runtime, 2 * N);
	machine_run(r.m, 7 * N);
	assert_int_equal(task(&r, 0)->runtime, 3 * N);
	assert_true(vg_trace_done(r.tr));
	replay_end(&r);
}

/*
 * Runs of nothing: a program whose stream has no record; a child and a
 * new image whose streams have none (killed at once: not followed); a
 * branch record and trailing instructions of count 0 (the branch is
 * still one instruction); a thread created that never ran (it starts
 * and ends at once).
 */
static void test_zero_length_runs(void **state)
{
	struct replay r = { 0 };
	struct vg_trace_stats st;
	struct vg_writer w;
	char path[VGW_PATH_MAX];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_close(&w);
	replay_start(&r, w.path, 1);
	assert_int_equal(r.m->nr_tasks, 0);
	assert_true(vg_trace_done(r.tr));
	st = stats(&r);
	assert_true(st.threads == 0 && st.records == 0 && st.processes == 1);
	assert_true(!st.exited && st.status == -1 && !st.stalled);
	machine_destroy(r.m);
	vg_trace_free(r.tr);

	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_proc(&w, VGS_EXEC, 10, 0, "/usr/bin/next");
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 11, 0, 10);
	vgw_close(&w);
	vgw_open_at(&w, r.dir, 10, 1, 0);
	vgw_close(&w);
	replay_start(&r, path, 1);
	assert_int_equal(r.m->nr_tasks, 1);
	machine_run(r.m, 3 * N);
	assert_true(vg_trace_done(r.tr));
	st = stats(&r);
	assert_true(st.processes == 1 && st.unfollowed == 1 && st.execs == 0 && st.exec);
	assert_int_equal(st.insns, 2 * N);
	machine_destroy(r.m);
	vg_trace_free(r.tr);

	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, 0);
	vgw_rec(&w, VGS_INSNS, 0);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_JMP, 0x110, 0x120, 0x7000, N);
	vgw_rec(&w, VGS_INSNS, N);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);
	replay_start(&r, w.path, 2);
	assert_int_equal(r.m->nr_tasks, 2);
	machine_run(r.m, 5 * N);
	assert_true(vg_trace_done(r.tr));
	assert_true(task(&r, 1)->sleeping && task(&r, 1)->runtime == 0);
	st = stats(&r);
	assert_int_equal(st.insns, 2 * N + 1);
	assert_int_equal(st.branches, 2);
	assert_int_equal(st.threads, 2);
	assert_int_equal(task(&r, 0)->runtime, 2 * N + 1);
	replay_end(&r);
}

/*
 * Records out of the order the tool writes them. A thread's records
 * before its creation, with a wake-up of its creator between: nothing
 * will ever run, the replay ends stalled. A THREAD_EXIT naming another
 * thread, or none, and a THREAD_NEW of a running thread change
 * nothing; records after a thread's exit are never retired.
 */
static void test_records_out_of_order(void **state)
{
	struct replay r = { 0 };
	struct vg_trace_stats st;
	struct vg_writer w;

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x6000, N);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_wake(&w);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_branch(&w, VGK_JMP, 0x110, 0x120, 0x7000, N);
	vgw_close(&w);
	replay_start(&r, w.path, 2);
	machine_run(r.m, 10 * N);
	assert_true(vg_trace_done(r.tr));
	st = stats(&r);
	assert_true(st.stalled);
	assert_int_equal(st.insns, N);
	assert_true(task(&r, 0)->sleeping && task(&r, 1)->sleeping);
	machine_destroy(r.m);
	vg_trace_free(r.tr);
	x86_branch_text_reset();

	vgw_open(&w, w.path, 42, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_thread(&w, VGS_THREAD_EXIT, 3);		/* no such thread */
	vgw_thread(&w, VGS_THREAD_NEW, 1);		/* itself */
	vgw_wake(&w);					/* before thread 2's first: no wait */
	vgw_branch(&w, VGK_JMP, 0x110, 0x120, 0x7000, N);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x6000, N);
	vgw_thread(&w, VGS_THREAD_EXIT, 1);		/* not itself */
	vgw_branch(&w, VGK_JMP, 0x210, 0x220, 0x6000, N);
	vgw_thread(&w, VGS_THREAD_EXIT, 2);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_thread(&w, VGS_THREAD_NEW, 2);		/* again */
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x220, 0x230, 0x6000, 7 * N);	/* after its exit */
	vgw_thread(&w, VGS_THREAD, 3);			/* nothing creates it: from the start */
	vgw_branch(&w, VGK_JMP, 0x300, 0x310, 0x5000, N);
	vgw_close(&w);
	replay_start(&r, w.path, 3);
	assert_false(task(&r, 2)->sleeping);
	machine_run(r.m, 20 * N);
	assert_true(vg_trace_done(r.tr));
	st = stats(&r);
	assert_false(st.stalled);
	assert_int_equal(st.threads, 3);
	assert_int_equal(st.insns, 6 * N);
	assert_int_equal(task(&r, 0)->runtime, 3 * N);
	assert_int_equal(task(&r, 1)->runtime, 2 * N);
	assert_int_equal(task(&r, 2)->runtime, N);
	unlink(w.path);
	replay_end(&r);
}

/*
 * FORKs the replay does not follow, none of them for ever: of the
 * process itself and, in its child, of its parent and itself (their
 * streams are theirs: a corrupt record); of a pid with no stream; of a
 * pid a second time (the host reused it: the child's stream is not
 * vg.PID.0). And a wait4 whose record comes before its child's FORK
 * waits for nothing.
 */
static void test_forks_not_followed(void **state)
{
	struct replay r = { 0 };
	struct vg_trace_stats st;
	struct vg_writer w;
	char path[VGW_PATH_MAX];

	(void)state;
	scratch(&r);
	vgw_open_at(&w, r.dir, 10, 0, 0);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_proc(&w, VGS_FORK, 10, 0, NULL);
	vgw_proc(&w, VGS_FORK, 77, 0, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x110, 0x112, 0x7000, N);
	vgw_proc(&w, VGS_WAKE, 11, 61, NULL);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_JMP, 0x120, 0x130, 0x7000, N);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_JMP, 0x130, 0x140, 0x7000, N);
	vgw_close(&w);
	snprintf(path, sizeof(path), "%s", w.path);
	vgw_open_at(&w, r.dir, 11, 0, 10);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x7000, 10 * N);
	vgw_proc(&w, VGS_FORK, 10, 0, NULL);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_close(&w);
	replay_start(&r, path, 2);
	machine_run(r.m, 4 * N);
	/* the program never waited: its child runs on */
	assert_int_equal(task(&r, 0)->runtime, 4 * N);
	assert_false(vg_trace_done(r.tr));
	machine_run(r.m, 15 * N);
	assert_true(vg_trace_done(r.tr));
	st = stats(&r);
	assert_int_equal(st.processes, 2);
	assert_int_equal(st.unfollowed, 5);
	assert_int_equal(st.insns, 14 * N);
	replay_end(&r);
}

/*
 * Branch sites for the driver's LBR filter: each once, a loop's
 * branch taken again and again too; a branch from address 0 (a
 * corrupt record that still decodes) cannot be one, and is no reason
 * to refuse the stream.
 */
static void test_branch_sites(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	for (unsigned int i = 0; i < 5; i++)
		vgw_branch(&w, VGK_COND, 0x120, 0x110, 0x7000, N);
	vgw_branch(&w, VGK_JMP, 0, 0x130, 0x7000, N);
	vgw_branch(&w, VGK_JMP, 0x130, 0x140, 0x7000, N);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_close(&w);
	replay_start(&r, w.path, 1);
	assert_int_equal(x86_branch_text_size(), 3);
	machine_run(r.m, 10 * N);
	assert_true(vg_trace_done(r.tr));
	assert_int_equal(stats(&r).branches, 9);
	unlink(w.path);
	replay_end(&r);
}

/*
 * Call stacks deeper than the shadow stack's first allocation (64
 * frames) and signals nested deeper than its first segments' (8); a
 * stack asked for with less room than it has (its innermost part); a
 * sigreturn with no signal taken (a program's own rt_sigreturn).
 */
static void test_deep_stacks(void **state)
{
	struct replay r = { 0 };
	struct vg_writer w;
	uint64_t ips[256];
	const uint64_t sp = 0x70000, alt = 0x90000;

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_CALL, 0x110, 0x200, sp - 8, N);
	for (unsigned int i = 1; i < 100; i++)			/* recursion: [N, 100 N) */
		vgw_branch(&w, VGK_CALL, 0x210, 0x200, sp - 8 * (i + 1), N);
	for (unsigned int k = 0; k < 10; k++) {			/* nested handlers: 110 N */
		vgw_branch(&w, VGK_SIGNAL, k ? 0x520 : 0x220, 0x500, alt - 0x100 * k - 8, 0);
		vgw_branch(&w, VGK_CALL, 0x510, 0x600, alt - 0x100 * k - 0x10, N);
	}
	for (unsigned int k = 10; k-- > 0;) {			/* their returns: 120 N */
		vgw_branch(&w, VGK_SIGRETURN, 0, k ? 0x520 : 0x220,
			   k ? alt - 0x100 * (k - 1) - 0x10 : sp - 800, 0);
		vgw_branch(&w, VGK_JMP, 0x220, 0x230, k ? alt - 0x100 * (k - 1) - 0x10 : sp - 800,
			   N);
	}
	vgw_branch(&w, VGK_SIGRETURN, 0, 0x230, sp - 800, 0);	/* none taken */
	vgw_branch(&w, VGK_JMP, 0x230, 0x240, sp - 800, N);		/* 121 N */
	for (unsigned int i = 100; i-- > 0;)			/* 221 N */
		vgw_branch(&w, VGK_RET, 0x250, i ? 0x215 : 0x115, sp - 8 * i, N);
	vgw_close(&w);

	replay_start(&r, w.path, 1);
	machine_run(r.m, 100 * N);
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 256), 101);
	assert_true(ips[0] == 0x200 && ips[1] == 0x210 && ips[99] == 0x210 && ips[100] == 0x110);
	machine_run(r.m, 110 * N);
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 256), 111);
	assert_true(ips[0] == 0x600 && ips[1] == 0x510 && ips[10] == 0x510 && ips[11] == 0x210);
	/* the innermost 5 */
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 5), 5);
	assert_true(ips[0] == 0x600 && ips[4] == 0x510);
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 0), 0);
	machine_run(r.m, 120 * N);
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 256), 101);
	machine_run(r.m, 121 * N);
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 256), 101);
	machine_run(r.m, 250 * N);
	assert_int_equal(vg_trace_callstack(task(&r, 0), ips, 256), 0);
	assert_true(vg_trace_done(r.tr));
	assert_int_equal(stats(&r).max_depth, 110);
	assert_false(stats(&r).truth_lost);
	unlink(w.path);
	replay_end(&r);
}

/*
 * The streams are read again for the replay: they are opened at the
 * load, so one removed after it still replays, and every thread's walk
 * shares the stream's one descriptor, so many threads need no more.
 */
static void test_streams_opened_at_load(void **state)
{
	struct replay r = { 0 };
	struct vg_trace *tr = (struct vg_trace *)&tr;
	struct vg_writer w;
	struct rlimit old, low;
	char err[256], want[512];

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x200, 0x210, 0x6000, N);
	vgw_close(&w);
	assert_int_equal(vg_trace_load(&r.tr, w.path, err, sizeof(err)), 0);
	assert_int_equal(unlink(w.path), 0);
	r.m = new_machine(2);
	assert_int_equal(vg_trace_add_tasks(r.tr, r.m, "prog"), 0);
	machine_run(r.m, 5 * N);
	assert_true(vg_trace_done(r.tr));
	assert_int_equal(stats(&r).insns, 2 * N);
	replay_end(&r);

	vgw_open_temp(&w, "test_vg_task", 42);
	for (uint32_t t = 2; t <= 64; t++)
		vgw_thread(&w, VGS_THREAD_NEW, t);
	vgw_close(&w);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	low = old;
	low.rlim_cur = 32;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	/* the threads' walks share the stream's one descriptor: 63 of them need no more */
	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	vg_trace_free(tr);
	(void)want;
	x86_branch_text_reset();
	unlink(w.path);
}

/*
 * Before the tasks, no thread has a task: none is found, tid 0 included.
 * A stream named without a directory is in the current one. Freeing no
 * trace does nothing.
 */
static void test_thread_lookup(void **state)
{
	struct vg_trace *tr;
	struct vg_writer w;
	const char *comm = NULL;
	uint32_t pid = 7;
	char err[256];
	struct machine *m;

	(void)state;
	vgw_open_temp(&w, "test_vg_task", 42);
	vgw_branch(&w, VGK_JMP, 0x100, 0x110, 0x7000, N);
	vgw_close(&w);
	assert_int_equal(vg_trace_load(&tr, w.path, err, sizeof(err)), 0);
	assert_false(vg_trace_thread(tr, 0, &pid, &comm));
	m = new_machine(1);
	assert_int_equal(vg_trace_add_tasks(tr, m, "prog"), 0);
	assert_false(vg_trace_thread(tr, 0, &pid, &comm));
	assert_true(vg_trace_thread(tr, (uint32_t)m->tasks[0]->task.tid, &pid, &comm));
	assert_int_equal(pid, m->tasks[0]->task.pid);
	assert_string_equal(comm, "prog");
	machine_destroy(m);
	vg_trace_free(tr);
	x86_branch_text_reset();
	{
		char cwd[PATH_MAX];

		assert_non_null(getcwd(cwd, sizeof(cwd)));
		assert_int_equal(chdir("/tmp"), 0);
		assert_int_equal(vg_trace_load(&tr, w.path + strlen("/tmp/"), err, sizeof(err)), 0);
		assert_int_equal(chdir(cwd), 0);
		assert_int_equal(stats_of(tr).records, 1);
		vg_trace_free(tr);
		x86_branch_text_reset();
	}
	vg_trace_free(NULL);
	unlink(w.path);
}

/* ---- out of memory ------------------------------------------------------------- */

/*
 * A program of every kind of record, forking in nested handlers deep
 * in its calls (shadow stacks past their first allocation, copied to
 * the child), a second thread, a wait for the child, an execve whose
 * image is traced, a mapping of this test's own ELF file.
 */
static void write_everything(const char *dir, char *first, size_t len)
{
	const uint64_t sp = 0x70000, alt = 0x90000;
	struct vg_writer w;
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	assert_true(n > 0);
	self[n] = '\0';
	vgw_open_at(&w, dir, 10, 0, 0);
	snprintf(first, len, "%s", w.path);
	vgw_mmap(&w, 0x400000, self);
	vgw_mmap(&w, 0x500000, "/nonexistent/lib.so");
	for (unsigned int i = 0; i < 70; i++)
		vgw_branch(&w, VGK_CALL, 0x400100 + 16 * i, 0x400200, sp - 8 * (i + 1), 10);
	for (unsigned int k = 0; k < 9; k++) {
		vgw_branch(&w, VGK_SIGNAL, 0x400210, 0x400500, alt - 0x100 * k - 8, 0);
		vgw_branch(&w, VGK_CALL, 0x400510, 0x400600, alt - 0x100 * k - 0x10, 10);
	}
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_proc(&w, VGS_FORK, 11, 0, NULL);
	vgw_branch(&w, VGK_SYSCALL, 0x400610, 0x400612, alt - 0x810, 10);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x400700, 0x400710, 0x60000, 10);
	vgw_wake(&w);
	vgw_branch(&w, VGK_JMP, 0x400710, 0x400720, 0x60000, 10);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_proc(&w, VGS_WAKE, 11, 61, NULL);
	vgw_branch(&w, VGK_JMP, 0x400620, 0x400630, alt - 0x810, 10);
	vgw_proc(&w, VGS_EXEC, 10, 0, "/usr/bin/next");
	vgw_close(&w);
	vgw_open_at(&w, dir, 10, 1, 0);
	vgw_mmap(&w, 0x400000, self);
	vgw_branch(&w, VGK_JMP, 0x400100, 0x400110, sp, 10);
	vgw_proc(&w, VGS_EXIT, 10, 0, NULL);
	vgw_close(&w);
	vgw_open_at(&w, dir, 11, 0, 10);
	vgw_branch(&w, VGK_RET, 0x400620, 0x400518, alt - 0x808, 10);
	vgw_thread(&w, VGS_THREAD_NEW, 2);
	vgw_thread(&w, VGS_THREAD, 2);
	vgw_branch(&w, VGK_JMP, 0x400800, 0x400810, 0x60000, 10);
	vgw_thread(&w, VGS_THREAD, 1);
	vgw_proc(&w, VGS_EXIT, 11, 0, NULL);
	vgw_close(&w);
}

enum replay_end { LOAD_FAILED, MACHINE_FAILED, TASKS_FAILED, RAN, RUN_FAILED };

/* Load, add the tasks and run: how far it came; its error, its figures if it ran. */
static enum replay_end replay_once(const char *path, char *err, size_t errlen,
				   struct vg_trace_stats *st)
{
	struct vg_trace *tr;
	struct machine *m;
	enum replay_end end = RAN;

	if (vg_trace_load(&tr, path, err, errlen))
		return LOAD_FAILED;
	m = machine_create(&(struct machine_config){
		.desc = model_cpu_desc_lookup("skylake"), .nr_cpus = 2, .hz = 1000,
		.timeslice = 1000000, .quantum = N, .seed = 1 });
	if (!m) {
		end = MACHINE_FAILED;
	} else if (vg_trace_add_tasks(tr, m, "prog")) {
		end = TASKS_FAILED;
	} else {
		for (unsigned int i = 0; i < 100 && !vg_trace_done(tr); i++)
			machine_run(m, (i + 1) * N);
		assert_true(vg_trace_done(tr));
		vg_trace_stats(tr, st);
		/* a stream read during the run that could not be: the run stops there */
		if (vg_trace_error(tr)) {
			snprintf(err, errlen, "%s", vg_trace_error(tr));
			end = RUN_FAILED;
		}
	}
	if (m)
		machine_destroy(m);
	vg_trace_free(tr);
	return end;
}

/*
 * Out of memory at each allocation in turn, from the load to the run's
 * end: the load fails with one line saying so and naming a stream, or
 * the tasks are refused, or the replay runs to the end as without the
 * failure, its truth marked lost if a shadow stack could not grow (and
 * whole if it says so); and nothing is leaked.
 */
static void test_out_of_memory(void **state)
{
	struct replay r = { 0 };
	struct vg_trace_stats ref, st;
	char first[256], err[512];
	unsigned int loads = 0, ran = 0, lost = 0, stops = 0, lost_threads = 0;
	long n;

	(void)state;
	if (!failmalloc_works())
		pmusim_skip("the sanitizer's malloc cannot be made to fail");
	scratch(&r);
	write_everything(r.dir, first, sizeof(first));
	x86_branch_text_reset();
	assert_int_equal(replay_once(first, err, sizeof(err), &ref), RAN);
	assert_true(ref.processes == 2 && ref.execs == 1 && ref.threads == 4 && !ref.truth_lost);
	assert_int_equal(ref.max_depth, 79);
	for (n = 0;; n++) {
		enum replay_end end;
		long live;
		bool failed;

		x86_branch_text_reset();
		live = failmalloc_live();
		err[0] = '\0';
		failmalloc_after(n);
		end = replay_once(first, err, sizeof(err), &st);
		failmalloc_after(-1);
		failed = failmalloc_failed();
		x86_branch_text_reset();
		if (failmalloc_live() != live)
			fail_msg("allocation %ld refused: %ld blocks leaked", n, failmalloc_live() - live);
		if (!failed) {
			assert_int_equal(end, RAN);
			break;
		}
		if (end == LOAD_FAILED || end == RUN_FAILED) {
			loads += end == LOAD_FAILED;
			stops += end == RUN_FAILED;
			assert_null(strchr(err, '\n'));
			if (!strstr(err, r.dir) ||
			    (!strstr(err, "out of memory") && !strstr(err, strerror(ENOMEM))))
				fail_msg("allocation %ld refused: \"%s\"", n, err);
		} else if (end == RAN) {
			ran++;
			/* a thread with no task is said to be lost, and not replayed */
			lost_threads += st.lost != 0;
			if (st.lost)
				continue;
			/* the same run; the truth is whole or said to be lost */
			assert_int_equal(st.insns, ref.insns);
			assert_int_equal(st.branches, ref.branches);
			assert_int_equal(st.threads, ref.threads);
			lost += st.truth_lost;
			if (!st.truth_lost)
				assert_int_equal(st.max_depth, ref.max_depth);
		}
	}
	/* each stage was reached with an allocation refused */
	assert_true(loads > 10 && n > loads);
	print_message("# %ld allocations refused in turn: %u loads failed, %u runs stopped, %u "
		      "runs to the end (%u with the truth lost, %u with a thread lost)\n", n, loads,
		      stops, ran, lost, lost_threads);
	assert_int_equal(scratch_dir_remove(r.dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shadow_stack),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_mapped_files),
		cmocka_unit_test(test_mmap_info_is_the_kernels),
		cmocka_unit_test(test_build_id_notes),
		cmocka_unit_test(test_wake_waits_for_the_stream_before_it),
		cmocka_unit_test(test_fork_and_exec),
		cmocka_unit_test(test_bad_stream),
		cmocka_unit_test(test_corrupt_streams),
		cmocka_unit_test(test_exec_of_a_missing_file),
		cmocka_unit_test(test_fork_in_a_signal_handler),
		cmocka_unit_test(test_fork_then_exec),
		cmocka_unit_test(test_exec_by_a_second_thread),
		cmocka_unit_test(test_thread_exits_while_another_waits),
		cmocka_unit_test(test_waiter_parks_ahead),
		cmocka_unit_test(test_fast_ways_match_the_slow_way),
		cmocka_unit_test(test_runs_retired_by_their_sums),
		cmocka_unit_test(test_wake_after_the_others_passed_it),
		cmocka_unit_test(test_wakes_that_wait_for_nobody),
		cmocka_unit_test(test_wait_for_a_child_and_a_thread),
		cmocka_unit_test(test_zero_length_runs),
		cmocka_unit_test(test_records_out_of_order),
		cmocka_unit_test(test_forks_not_followed),
		cmocka_unit_test(test_branch_sites),
		cmocka_unit_test(test_exact_ips),
		cmocka_unit_test(test_deep_stacks),
		cmocka_unit_test(test_streams_opened_at_load),
		cmocka_unit_test(test_thread_lookup),
		cmocka_unit_test(test_out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
