/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stream pmusim's Valgrind tool (vgtool/pmusim_vg.c) writes: a real
 * program's retired control flow, one file per process image, read by
 * pmusim (sim/vg_stream.c).  Shared by both sides, so it includes nothing
 * but fixed-width types; the encoder is here, so that the tool and the
 * tests write records alike.
 *
 * A file is DIR/vg.PID.SEQ: PID the real process id, SEQ the image of that
 * process (0 at start or after fork, +1 after each execve).  It starts with
 * struct vgs_file_header; then records, packed bytes, no alignment.
 * Records belong to the thread named by the last VGS_THREAD record (thread
 * 1 before any).  A thread's number is the stream's, not Valgrind's slot:
 * Valgrind gives an ended thread's slot to the next one it creates, and
 * the stream numbers every thread of the process anew (1 the main thread,
 * then 2, 3, ... in creation order), so no two threads share one.
 *
 * A record starts with a lead byte:
 *   - low nibble a branch kind (1 .. VGK__NR - 1): a branch record,
 *     VGS_SIGNAL for VGK_SIGNAL, VGS_SIGRETURN for VGK_SIGRETURN, else
 *     VGS_BRANCH; the high nibble is the branch instruction's length;
 *   - low nibble 0: the high nibble is the record type (not VGS_BRANCH);
 *   - any other low nibble: not a record.
 * Then the instruction count (below), then the type's fields, in order.
 * Numbers are unsigned LEB128 (7 bits a byte, low first, the top bit says
 * more follow; at most 10 bytes), signed ones zigzagged first (0, -1, 1,
 * -2, ... as 0, 1, 2, 3, ...):
 *
 *   branch kinds    from - the last branch record's to (wrapping, unsigned),
 *                   to - from (signed), sp - the last branch record's sp
 *                   (signed); "last" in file order, 0 before the first
 *   VGS_THREAD, VGS_THREAD_NEW, VGS_THREAD_EXIT    tid
 *   VGS_MMAP        addr, len, pgoff, prot, flags, dev, ino, name_len, then
 *                   the name's bytes; flags as the kernel's MMAP2 has them
 *                   (MAP_SHARED or MAP_PRIVATE, MAP_LOCKED, MAP_HUGETLB);
 *                   dev and ino the file's (st_dev, st_ino of the mapped
 *                   file, 0 for anonymous code)
 *   VGS_FORK, VGS_EXEC, VGS_EXIT, VGS_WAKE    pid, status (signed),
 *                   path_len, then the path's bytes (VGS_EXEC only; 0 for
 *                   the others)
 *                   (names and paths: no NUL, at most VGS_NAME_MAX bytes)
 *   VGS_INSNS, VGS_EXEC_FAILED      nothing
 *   VGS_CODE        addr, n, then n bytes: the lengths (1..15) of n
 *                   instructions laid end to end from addr, as the tool
 *                   translated them (count 0: it belongs to no thread)
 *   VGS_RUN         (count 0) what: VGS_RUN_START, then the bytes of the
 *                   run's records as a number of exactly three bytes
 *                   (written once they are); or VGS_RUN_END, then the
 *                   run's records n (1..VGS_RUN_MAX), the sum over them of
 *                   the count less one where it is not 0, the highest sp
 *                   among them, the last one's to and sp (those three
 *                   signed, from the deltas' to and sp before the run)
 *
 * Runs: the tool marks a thread's stretch of VGS_RUN_MIN to VGS_RUN_MAX
 * branch records of kinds VGK_COND, VGK_JMP and VGK_IND_JMP (nothing else
 * between them) with a VGS_RUN start before them and a VGS_RUN end after
 * them.
 * Those kinds push or pop no frame, and most LBR filters keep none of
 * them, so a reader that needs only their sums (the instructions and
 * branches they retire, the highest sp, where the last one went) may go
 * from the start to after the end at once. Any other reader passes the
 * two as records of no instructions: the stream says the same without
 * them.
 *
 * A taken branch in a loop is some 5 bytes: lead, count, the straight
 * code since the last branch's target, a short displacement, a stack
 * pointer that did not move.
 *
 * Instruction counts: every record carries the instructions the current
 * thread retired since its previous record, the branch instruction itself
 * included, so the sum over a thread's records is exactly what it retired
 * (a REP-prefixed string instruction counts once).  It fits 32 bits.
 *
 * Where each instruction is: between two branch records of a thread its
 * instructions run straight from the first one's target, and the VGS_CODE
 * records say where each instruction starts (every translated superblock
 * is described once, before it first runs), so the reader can name the
 * address of any instruction it counts without decoding x86 itself.  A
 * later VGS_CODE for the same address (code mapped again, or rewritten)
 * replaces the earlier one.
 */
#ifndef PMUSIM_VGTOOL_VGSTREAM_H
#define PMUSIM_VGTOOL_VGSTREAM_H

#include <stdint.h>

#define VGS_MAGIC	"PMUSIMVG"
#define VGS_VERSION	5

struct vgs_file_header {
	char magic[8];		/* VGS_MAGIC, not NUL-terminated */
	uint32_t version;	/* VGS_VERSION */
	uint32_t pid;		/* the real pid of this process */
	uint32_t seq;		/* image number: 0, then +1 per execve */
	uint32_t ppid;		/* for seq 0 after a fork: the parent's real pid; else 0 */
};

enum vgs_rec_type {
	VGS_BRANCH = 1,		/* a taken branch */
	VGS_INSNS,		/* instructions with no branch after them yet */
	VGS_THREAD,		/* the records that follow are thread tid's */
	VGS_THREAD_NEW,		/* tid created by the current thread */
	VGS_THREAD_EXIT,	/* tid ended */
	VGS_MMAP,		/* an executable mapping */
	VGS_SIGNAL,		/* a signal handler entered (kind VGK_SIGNAL) */
	VGS_SIGRETURN,		/* back from a handler (kind VGK_SIGRETURN) */
	VGS_FORK,		/* a child process (its own file) */
	VGS_EXEC,		/* execve; the image continues in SEQ + 1 */
	VGS_EXEC_FAILED,	/* the last VGS_EXEC returned an error */
	VGS_EXIT,		/* the process ends; status as wait() has it, -1 if it
				 * ended without an exit syscall (killed by a signal) */
	VGS_WAKE,		/* back from a syscall that may have waited for another
				 * thread or process (futex, read, poll, wait4, ...): what
				 * the stream holds before this record happened before
				 * what the thread does after it. status: the syscall's
				 * number; pid: the child wait4/waitid reaped, else 0 */
	VGS_CODE,		/* where the instructions of translated code start */
	VGS_RUN,		/* a run of branch records starts or ends (above) */
	VGS__NR
};

/* What the LBR's filters tell apart (perf's PERF_BR_* and branch_sample_type). */
enum vgs_branch_kind {
	VGK_COND = 1,		/* conditional, taken */
	VGK_JMP,		/* direct unconditional jump */
	VGK_IND_JMP,		/* indirect jump (longjmp, switch tables, PLT) */
	VGK_CALL,		/* direct near call */
	VGK_IND_CALL,		/* indirect near call */
	VGK_RET,		/* near return */
	VGK_SYSCALL,		/* syscall: from the instruction to where it resumes */
	VGK_SIGNAL,		/* signal delivery: from the interrupted ip to the handler */
	VGK_SIGRETURN,		/* rt_sigreturn: to the interrupted ip (from is 0) */
	VGK__NR
};

/*
 * --pmusim-fd=N instead of files: every process and image of the program
 * writes its stream into one pipe (inherited across fork and execve), in
 * frames of at most VGS_FRAME_MAX bytes, each one write(): a pipe writes
 * that much atomically, so frames of different processes never mix. A
 * frame is struct vgs_frame, then len bytes of the stream of process pid
 * (the bytes a file would hold, header first). VGS_FRAME_START begins a
 * stream, VGS_FRAME_END ends it (pv_fini); an image that execve replaced
 * ends where the next START of its pid with ppid 0 in its header begins.
 */
struct vgs_frame {
	uint32_t pid;
	uint16_t len;		/* the bytes after this header */
	uint16_t flags;		/* VGS_FRAME_START, VGS_FRAME_END */
};

#define VGS_FRAME_MAX	4096
#define VGS_FRAME_START	1
#define VGS_FRAME_END	2
#define VGS_FRAME_RING	4

/*
 * --pmusim-ring=DIR as well: the bulk of each stream goes through a
 * shared-memory ring instead (a pipe costs two copies and a page's
 * allocation in the kernel per 4 KiB: a fifth of a recording's CPU).
 * After its START frame an image creates DIR/NAME (NAME free of '/',
 * struct vgs_ring then VGS_RING_SIZE bytes), maps it shared and sends a
 * frame with VGS_FRAME_RING whose len bytes are NAME: every byte of the
 * stream after that goes through the ring, none in frames. pmusim maps
 * it and unlinks it. The pipe still carries START, END (after the last
 * byte is in the ring), and empty frames that wake pmusim (below). An
 * image that cannot make its ring writes frames as without the option.
 *
 * One writer (the image's tool: Valgrind runs one thread at a time), one
 * reader. head and tail count bytes since the ring began; byte i is at
 * data[i % VGS_RING_SIZE]. The writer fills [head, tail + SIZE), then
 * publishes head (release); the reader takes [tail, head), then publishes
 * tail (release). Sleeping, each side announces it, then looks again
 * (both orders fenced, so one of the two sees the other):
 *   - the reader, out of bytes, sets reader_waiting and waits on the
 *     pipe; the writer, after publishing head, clears a set
 *     reader_waiting and writes an empty frame (len 0, no flags);
 *   - the writer, out of room, reads tail_seq, sets writer_waiting and
 *     waits on the futex tail_seq (not private: two processes); the
 *     reader, after publishing tail, clears a set writer_waiting, bumps
 *     tail_seq and wakes it. The writer's wait times out now and then to
 *     write an empty frame: a reader that is gone is EPIPE, as with frames.
 */
#define VGS_RING_SIZE	(1u << 20)

struct vgs_ring {
	uint64_t head;			/* the writer's */
	uint32_t reader_waiting;
	uint32_t pad0;
	uint8_t pad1[48];		/* (head and tail on cache lines of their own) */
	uint64_t tail;			/* the reader's */
	uint32_t tail_seq;		/* the writer's futex */
	uint32_t writer_waiting;
	uint8_t pad2[4096 - 80];
	uint8_t data[VGS_RING_SIZE];
};

/* How the writer copies into the ring (the tool has no C library's memcpy). */
#ifndef VGS_RING_COPY
#define VGS_RING_COPY(to, from, n)	__builtin_memcpy(to, from, n)
#endif

/* The ring's free bytes, as the writer sees them. */
static inline uint32_t vgs_ring_room(struct vgs_ring *r)
{
	return VGS_RING_SIZE - (uint32_t)(r->head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE));
}

/* The ring's bytes not taken yet, as the reader sees them. */
static inline uint32_t vgs_ring_ready(struct vgs_ring *r)
{
	return (uint32_t)(__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) - r->tail);
}

/*
 * The writer: @n bytes (at most vgs_ring_room()) in, then published;
 * true if the reader waits for them (wake it: an empty frame).
 */
static inline int vgs_ring_put(struct vgs_ring *r, const uint8_t *p, uint32_t n)
{
	uint32_t at = (uint32_t)r->head % VGS_RING_SIZE, first = VGS_RING_SIZE - at;

	if (first > n)
		first = n;
	VGS_RING_COPY(r->data + at, p, first);
	VGS_RING_COPY(r->data, p + first, n - first);
	__atomic_store_n(&r->head, r->head + n, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&r->reader_waiting, __ATOMIC_RELAXED) &&
	       __atomic_exchange_n(&r->reader_waiting, 0, __ATOMIC_RELAXED);
}

/*
 * The writer, out of room: the tail_seq to wait on, after saying so;
 * then look at vgs_ring_room() again before waiting.
 */
static inline uint32_t vgs_ring_writer_waits(struct vgs_ring *r)
{
	uint32_t seq = __atomic_load_n(&r->tail_seq, __ATOMIC_ACQUIRE);

	__atomic_store_n(&r->writer_waiting, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return seq;
}

/* The reader: where its @n bytes from tail are (two pieces at the end). */
static inline const uint8_t *vgs_ring_at(const struct vgs_ring *r, uint32_t *n)
{
	uint32_t at = (uint32_t)r->tail % VGS_RING_SIZE;

	if (*n > VGS_RING_SIZE - at)
		*n = VGS_RING_SIZE - at;
	return r->data + at;
}

/* The reader: @n bytes taken; true if the writer waits for room (wake it: the futex). */
static inline int vgs_ring_take(struct vgs_ring *r, uint32_t n)
{
	__atomic_store_n(&r->tail, r->tail + n, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&r->writer_waiting, __ATOMIC_RELAXED) ||
	    !__atomic_exchange_n(&r->writer_waiting, 0, __ATOMIC_RELAXED))
		return 0;
	__atomic_add_fetch(&r->tail_seq, 1, __ATOMIC_RELEASE);
	return 1;
}

/* The reader, out of bytes: say so, then look at vgs_ring_ready() again before waiting. */
static inline void vgs_ring_reader_waits(struct vgs_ring *r)
{
	__atomic_store_n(&r->reader_waiting, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#define VGS_NUM_MAX	10	/* bytes of a 64-bit number */
#define VGS_NAME_MAX	16384	/* the longest name or path a record carries */
#define VGS_CODE_MAX	VGS_NAME_MAX	/* the most instructions a VGS_CODE record lists */
/* The most bytes a record takes, but for a name or path (VGS_MMAP's nine numbers). */
#define VGS_REC_MAX	(1 + 9 * VGS_NUM_MAX)

/* A VGS_RUN record's first field. */
enum vgs_run_what {
	VGS_RUN_START,
	VGS_RUN_END,
};

#define VGS_RUN_MAX	128	/* the most records a run holds */
#define VGS_RUN_MIN	16	/* the fewest the tool marks (a reader takes fewer too) */
/* A run's start: lead, count, what, then its records' bytes in three */
#define VGS_RUN_START_SIZE	6
/* The most bytes a run's end takes: lead, count, what, n (two), five numbers */
#define VGS_RUN_END_MAX	(5 + 4 * VGS_NUM_MAX)

/* What the branch records' deltas are taken from; zero at the file's start. */
struct vgs_coder {
	uint64_t to, sp;
};

static inline uint8_t *vgs_put_num(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

static inline uint64_t vgs_zigzag(uint64_t v)
{
	return (v << 1) ^ (0 - (v >> 63));
}

static inline uint64_t vgs_unzigzag(uint64_t v)
{
	return (v >> 1) ^ (0 - (v & 1));
}

/*
 * A run's start at @p, its length to be filled in by vgs_set_run_bytes()
 * when its records are written. Where they go.
 */
static inline uint8_t *vgs_put_run_start(uint8_t *p)
{
	p[0] = VGS_RUN << 4;
	p[1] = 0;
	p[2] = VGS_RUN_START;
	return p + VGS_RUN_START_SIZE;
}

/* The run that starts at @start has @bytes of records (under 2^21). */
static inline void vgs_set_run_bytes(uint8_t *start, uint32_t bytes)
{
	/* a number of three bytes whatever its value: the first two say more follow */
	start[3] = (uint8_t)(bytes | 0x80);
	start[4] = (uint8_t)(bytes >> 7 | 0x80);
	start[5] = (uint8_t)(bytes >> 14 & 0x7f);
}

/*
 * A run's end: @n records whose counts less one (where not 0) sum to
 * @left, with @max_sp the highest sp among them; @before the deltas'
 * to and sp before the run, @c after its last record.
 */
static inline uint8_t *vgs_put_run_end(uint8_t *p, const struct vgs_coder *before,
				       const struct vgs_coder *c, uint32_t n, uint64_t left,
				       uint64_t max_sp)
{
	*p++ = VGS_RUN << 4;
	*p++ = 0;
	*p++ = VGS_RUN_END;
	p = vgs_put_num(p, n);
	p = vgs_put_num(p, left);
	p = vgs_put_num(p, vgs_zigzag(max_sp - before->sp));
	p = vgs_put_num(p, vgs_zigzag(c->to - before->to));
	return vgs_put_num(p, vgs_zigzag(c->sp - before->sp));
}

/* A record of @type (not a branch kind's) and its instruction count. */
static inline uint8_t *vgs_put_rec(uint8_t *p, unsigned int type, uint32_t insns)
{
	*p++ = (uint8_t)(type << 4);
	return vgs_put_num(p, insns);
}

/* A branch record (VGS_BRANCH, VGS_SIGNAL, VGS_SIGRETURN by @kind). */
static inline uint8_t *vgs_put_branch(uint8_t *p, struct vgs_coder *c, unsigned int kind,
				      unsigned int insn_len, uint32_t insns, uint64_t from,
				      uint64_t to, uint64_t sp)
{
	*p++ = (uint8_t)(kind | (insn_len & 15) << 4);
	p = vgs_put_num(p, insns);
	p = vgs_put_num(p, from - c->to);
	p = vgs_put_num(p, vgs_zigzag(to - from));
	p = vgs_put_num(p, vgs_zigzag(sp - c->sp));
	c->to = to;
	c->sp = sp;
	return p;
}

#endif /* PMUSIM_VGTOOL_VGSTREAM_H */
