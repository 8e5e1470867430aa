/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stream pmusim's Valgrind tool (vgtool/pmusim_vg.c) writes: a real
 * program's retired control flow, one file per process image, read by
 * pmusim (vgtool/vgstream_read.c).  Shared by both sides, so it includes
 * nothing but fixed-width types.
 *
 * A file is DIR/vg.PID.SEQ: PID the real process id, SEQ the image of that
 * process (0 at start or after fork, +1 after each execve).  It starts with
 * struct vgs_file_header; then records, each a struct vgs_rec_header
 * followed by its payload, all little-endian and 8-byte aligned; a record's
 * size follows from its type (and, for VGS_MMAP and VGS_EXEC, the name
 * length it carries), so the reader can map the file and walk it.  Records belong to the thread named
 * by the last VGS_THREAD record (thread 1 before any).
 *
 * Instruction counts: every record's header carries the instructions the
 * current thread retired since its previous record, the branch
 * instruction itself included, so the sum over a thread's records is
 * exactly what it retired (a REP-prefixed string instruction counts once).
 */
#ifndef PMUSIM_VGTOOL_VGSTREAM_H
#define PMUSIM_VGTOOL_VGSTREAM_H

#include <stdint.h>

#define VGS_MAGIC	"PMUSIMVG"
#define VGS_VERSION	1

struct vgs_file_header {
	char magic[8];		/* VGS_MAGIC, not NUL-terminated */
	uint32_t version;	/* VGS_VERSION */
	uint32_t pid;		/* the real pid of this process */
	uint32_t seq;		/* image number: 0, then +1 per execve */
	uint32_t ppid;		/* for seq 0 after a fork: the parent's real pid; else 0 */
};

enum vgs_rec_type {
	VGS_BRANCH = 1,		/* struct vgs_branch: a taken branch */
	VGS_INSNS,		/* no payload: instructions with no branch after them yet */
	VGS_THREAD,		/* struct vgs_thread: the records that follow are thread tid's */
	VGS_THREAD_NEW,		/* struct vgs_thread: tid created by the current thread */
	VGS_THREAD_EXIT,	/* struct vgs_thread: tid ended */
	VGS_MMAP,		/* struct vgs_mmap + name: an executable mapping */
	VGS_SIGNAL,		/* struct vgs_branch: a signal handler entered (kind VGK_SIGNAL) */
	VGS_SIGRETURN,		/* struct vgs_branch: back from a handler (kind VGK_SIGRETURN) */
	VGS_FORK,		/* struct vgs_proc: a child process (its own file) */
	VGS_EXEC,		/* struct vgs_proc + path: execve; the image continues in SEQ + 1 */
	VGS_EXEC_FAILED,	/* no payload: the last VGS_EXEC returned an error */
	VGS_EXIT,		/* struct vgs_proc: the process ends; status as wait() has it */
	VGS_WAKE,		/* struct vgs_proc: back from a syscall that may have waited for
				 * another thread or process (futex, read, poll, wait4, ...):
				 * what the stream holds before this record happened before
				 * what the thread does after it. status: the syscall's
				 * number; pid: the child wait4/waitid reaped, else 0 */
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
	VGK_SIGRETURN,		/* rt_sigreturn: to the interrupted ip */
	VGK__NR
};

struct vgs_rec_header {
	uint8_t type;		/* enum vgs_rec_type */
	uint8_t kind;		/* VGS_BRANCH, VGS_SIGNAL, VGS_SIGRETURN: enum vgs_branch_kind */
	uint8_t insn_len;	/* VGS_BRANCH: length of the branch instruction */
	uint8_t pad;
	uint32_t insns;		/* instructions retired since the thread's last record */
};

struct vgs_branch {
	uint64_t from;		/* the branch instruction */
	uint64_t to;		/* where control went */
	uint64_t sp;		/* the stack pointer after it (the shadow stack's key) */
};

struct vgs_thread {
	uint32_t tid;		/* Valgrind's thread number: 1 is the main thread */
	uint32_t pad;
};

struct vgs_mmap {
	uint64_t addr, len, pgoff;
	uint32_t prot;		/* PROT_* bits */
	uint32_t name_len;	/* bytes of the name that follows, without NUL; padded to 8 */
};

struct vgs_proc {
	uint32_t pid;		/* FORK: the child's real pid; EXEC, EXIT: this process;
				 * WAKE: the child reaped, or 0 */
	int32_t status;		/* EXIT: exit code << 8; -1 if it ended without an exit
				 * syscall (killed by a signal); WAKE: the syscall's
				 * number; else 0 */
	uint32_t path_len;	/* EXEC: bytes of the path that follows, padded to 8 */
	uint32_t pad;
};

#endif /* PMUSIM_VGTOOL_VGSTREAM_H */
