/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A real program's threads as simulator tasks: the recorded control flow
 * of one process (the Valgrind tool's stream, sim/vg_stream.h) retired on
 * the model CPUs, one task per guest thread, instead of a synthetic
 * workload.
 *
 * Timing model: one core cycle per instruction (CPI 1), a taken branch
 * included; no branch mispredicts. Instructions and taken branches are
 * the program's, exactly.
 *
 * Threads: a thread's task sleeps until its creator's records reach the
 * creation (FORK goes out then), and ends at its last record (EXIT). Each
 * thread retires its own records in order; what the threads waited for
 * on each other (locks, joins) is not replayed, so on the simulated CPUs
 * they interleave as the simulator's scheduler runs them, not as the host
 * ran them.
 *
 * Ground truth: each thread keeps a shadow call stack: a call pushes its
 * site with the stack pointer after it, and a frame goes when the stack
 * pointer rises above its return address (a return, longjmp, an
 * exception's landing pad); a signal handler's frames sit on a segment of
 * their own, dropped at its return. The true stack of a sample is the
 * innermost call's target (the function entered), then the call sites
 * innermost first: what an LBR call stack shows when it holds them all
 * (perf's LBR call chain starts at the newest record's target, not at the
 * sample's ip). After a tail call the innermost frame is the function
 * that made it, in the LBR as here; the ip says where the thread was.
 */
#ifndef PMUSIM_SIM_VG_TASK_H
#define PMUSIM_SIM_VG_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/machine.h"
#include "tools/perf/util/perf_data.h"

struct vg_trace;

/* An executable file the program mapped, with its build-id (size 0: none found). */
struct vg_dso {
	char *path;
	uint8_t build_id[20];
	uint8_t build_id_size;
};

/*
 * Read and check the stream file @path (every record), register its
 * branch sites with the driver's LBR filter, and read the build-ids of
 * the files it mapped. 0, or -1 with a one-line error.
 */
int vg_trace_load(struct vg_trace **out, const char *path, char *err, size_t errlen);
void vg_trace_free(struct vg_trace *tr);

/*
 * Add a task per guest thread to @m (pid = the main thread's tid), named
 * @comm; the main thread runnable, the others asleep until created.
 */
int vg_trace_add_tasks(struct vg_trace *tr, struct machine *m, const char *comm);
/* Every thread has retired its last record. */
bool vg_trace_done(const struct vg_trace *tr);
/* @t's true stack now (see above), innermost first; the number written. */
unsigned int vg_trace_callstack(const struct sim_task *t, uint64_t *ips, unsigned int max);

/* Mapped files, in the order first mapped. */
const struct vg_dso *vg_trace_dsos(const struct vg_trace *tr, unsigned int *nr);

struct vg_trace_stats {
	uint64_t insns, branches;	/* retired so far, all threads */
	uint64_t records;		/* in the file */
	unsigned int threads;
	uint32_t max_depth;		/* deepest shadow stack of any thread */
	bool exited;			/* the stream ends with the process's exit */
	int32_t status;			/* then: wait() status, -1: no exit syscall */
	bool exec;			/* the process called execve (not followed) */
	unsigned int forks;		/* child processes (not followed) */
	bool truth_lost;		/* out of memory for a shadow stack: truth unsure */
};
void vg_trace_stats(const struct vg_trace *tr, struct vg_trace_stats *st);

#endif /* PMUSIM_SIM_VG_TASK_H */
