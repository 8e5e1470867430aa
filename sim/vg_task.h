/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A real program's processes and threads as simulator tasks: the recorded
 * control flow (the Valgrind tool's streams, sim/vg_stream.h, one file
 * per process image) retired on the model CPUs, one task per guest
 * thread, instead of a synthetic workload.
 *
 * Timing model: one core cycle per instruction (CPI 1), a taken branch
 * included; no branch mispredicts. Instructions and taken branches are
 * the program's, exactly.
 *
 * Sample ips: each thread knows where its straight run began (the last
 * branch's target, or where its creator's clone or fork returned) and how
 * many of its instructions retired; with the image's instruction lengths
 * (VGS_CODE, sim/vg_code.h) the model's PMI, taken right after the
 * instruction that wrapped a counter (model_cpu_set_pmi_at), gets that
 * instruction as pt_regs.eventing_ip and the next as ip: a skid of one.
 *
 * Threads: a thread's task sleeps until its creator's records reach the
 * creation (FORK goes out then), and ends at its last record (EXIT). Each
 * thread retires its own records in order.
 *
 * Processes: a child (the stream vg.PID.0 of a pid a FORK record names)
 * is a new process whose first thread starts when its parent's records
 * reach the fork (FORK, current the parent); it inherits the parent's
 * mappings (perf copies them at the FORK) and its true stack. An execve
 * that worked and whose image was traced (vg.PID.SEQ+1) begins that image
 * when every thread of the old one has ended, on the process's leader
 * task (tid = pid): COMM with PERF_RECORD_MISC_COMM_EXEC, then the new
 * image's MMAP2s as it maps them; the old leader gets no EXIT. A pid is
 * followed once: a FORK of one followed already (the process itself, an
 * ancestor, a pid the host reused for a later child) starts no process.
 *
 * Waits: Valgrind runs one guest thread at a time, so a stream's order is
 * one real interleaving of its threads. A VGS_WAKE record (the return of
 * a syscall that may have waited: futex, read, poll, wait4, ...) is a
 * point the thread may not pass before every other thread of its image
 * has retired all its records that come before it in the file; it then
 * goes on at the simulated time the last of them did (its CPU idles until
 * then). A wait4 that reaped a recorded child waits for that process's
 * end as well. This replays joins, mutex and condition-variable handoffs,
 * pipes and waitpid in the order the host ran them, and more: a thread
 * also waits for what the others did after waking it until Valgrind
 * switched to it. Waits through memory alone (spin locks, lock-free
 * flags, a condition variable whose predicate the host had already made
 * true, so no futex call) are not seen: those threads interleave as the
 * scheduler runs them.
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

/*
 * An executable file the program mapped, with its build-id (size 0: none
 * found) and, as the kernel's MMAP2 has it, its inode's generation
 * (FS_IOC_GETVERSION; 0 where the file system does not tell), of the
 * inode DEV:INO the path led to when it was read.
 */
struct vg_dso {
	char *path;
	uint8_t build_id[20];
	uint8_t build_id_size;
	uint64_t dev, ino, ino_generation;
};

/*
 * The program whose first stream is @path, its later images and child
 * processes beside it (DIR/vg.PID.SEQ). Streams are read as the replay
 * goes (see vg_task.c's scout): each record is checked, its branch site
 * registered with the driver's LBR filter, the files mapped get their
 * build-ids. 0, or -1 with a one-line error (the first stream unreadable
 * or bad); an error later stops the run (vg_trace_error()).
 */
int vg_trace_load(struct vg_trace **out, const char *path, char *err, size_t errlen);
/*
 * The same from @feed (sim/vg_feed.h; not taken over), the program's
 * stream its first (@first: its file, or NULL for a pipe).
 */
struct vg_feed;
int vg_trace_open_feed(struct vg_trace **out, struct vg_feed *feed, const char *first,
		       char *err, size_t errlen);
/* A stream went wrong during the run (a bad record, a pipe error): the message, or NULL. */
const char *vg_trace_error(const struct vg_trace *tr);
void vg_trace_free(struct vg_trace *tr);

/*
 * Add a task per guest thread known so far to @m (the program's first,
 * named @comm, runnable); the threads and processes the stream shows
 * later get theirs when it does (pid = their process's first thread's
 * tid; a child named as its parent's image).
 */
int vg_trace_add_tasks(struct vg_trace *tr, struct machine *m, const char *comm);
/*
 * With a record session, whose events are all opened before the run:
 * vg_trace_add_tasks() makes @n tasks asleep that the later threads and
 * processes become. Past those, a thread is not replayed (stats: lost).
 */
void vg_trace_set_spare_tasks(struct vg_trace *tr, unsigned int n);
/*
 * @fast false: every record is read and retired one at a time, the way
 * the fast ones (runs of records decoded once, other threads' records
 * skipped by their lengths, the scout reading ahead) must match
 * exactly: tests replay a stream both ways. True by default.
 */
void vg_trace_set_fast(struct vg_trace *tr, bool fast);
/* Every thread has retired its last record, or those left wait for nothing that will come. */
bool vg_trace_done(const struct vg_trace *tr);
/* @t's true stack now (see above), innermost first; the number written. */
unsigned int vg_trace_callstack(const struct sim_task *t, uint64_t *ips, unsigned int max);

/*
 * The process and the last comm of the task that was thread @tid, after
 * the run too (the task goes with the machine): false if there was none.
 */
bool vg_trace_thread(const struct vg_trace *tr, uint32_t tid, uint32_t *pid, const char **comm);

/* Mapped files, in the order first mapped. */
const struct vg_dso *vg_trace_dsos(const struct vg_trace *tr, unsigned int *nr);

struct vg_event;
struct perf_mmap_info;
/*
 * The mapping @ev (VGS_MMAP) as the kernel's perf_event_mmap() describes
 * a vma: whole pages (start rounded down, end up, pgoff moved with the
 * start), maj, min and ino of the file, prot and flags as mapped;
 * anonymous code has 0s and no file. @name (at least 4096 bytes) holds the file's
 * name, which info->filename points at.
 */
void vg_mmap_info(const struct vg_event *ev, uint32_t pid, uint32_t tid,
		  struct perf_mmap_info *info, char *name);

struct vg_trace_stats {
	uint64_t insns, branches;	/* retired so far, all threads */
	uint64_t records;		/* in the files */
	unsigned int threads;		/* tasks: every thread of every process */
	unsigned int processes;		/* the program and the children it forked */
	uint32_t max_depth;		/* deepest shadow stack of any thread */
	bool exited;			/* the program's last image ends with its exit */
	int32_t status;			/* then: wait() status, -1: no exit syscall */
	bool exec;			/* it ends in an execve whose image was not traced */
	unsigned int execs;		/* execve calls followed, every process */
	unsigned int forks;		/* child processes recorded (processes - 1) */
	unsigned int unfollowed;	/* child processes forked but not traced */
	bool stalled;			/* threads left that nothing would wake */
	bool truth_lost;		/* out of memory for a shadow stack: truth unsure */
	unsigned int lost;		/* threads past the spare tasks: not replayed */
	uint64_t fast;			/* reads of records the fast ways (vg_trace_set_fast()) */
	uint64_t jumped;		/* of them, records walks jumped over (not read) */
	uint64_t summed;		/* of them, records retired by their run's sums */
};
void vg_trace_stats(const struct vg_trace *tr, struct vg_trace_stats *st);

#endif /* PMUSIM_SIM_VG_TASK_H */
