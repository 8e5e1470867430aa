/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Streams of pmusim's Valgrind tool written by hand, record by record
 * (tests/lib/vg_writer.c), in the format of vgtool/vgstream.h and with
 * its encoder, for the tests of the replay: sim/vg_task.c and pmusim
 * record. Every write is checked (a cmocka failure if it does not go).
 */
#ifndef PMUSIM_TESTS_LIB_VG_WRITER_H
#define PMUSIM_TESTS_LIB_VG_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vgtool/vgstream.h"

#define VGW_PATH_MAX	256	/* a stream's path, with its NUL */

struct vg_writer {
	FILE *f;
	char path[VGW_PATH_MAX];
	struct vgs_coder coder;		/* the branch records' deltas, as the tool keeps them */
	/*
	 * Set by a test: runs of VGK_COND, VGK_JMP and VGK_IND_JMP records
	 * marked as the tool marks them (vgstream.h). The run being written
	 * is held here until something else is written, or it is full.
	 */
	bool runs;
	uint8_t run[VGS_RUN_MAX * VGS_REC_MAX];
	size_t run_len;
	uint32_t run_n;
	uint64_t run_left, run_max_sp;
	struct vgs_coder run_before;
};

/* A new stream at @path (made or emptied), its header saying @pid, @seq and @ppid */
void vgw_open(struct vg_writer *w, const char *path, uint32_t pid, uint32_t seq, uint32_t ppid);
/* The same at DIR/vg.PID.SEQ, as the tool names its streams */
void vgw_open_at(struct vg_writer *w, const char *dir, uint32_t pid, uint32_t seq,
		 uint32_t ppid);
/* A new file /tmp/NAME.XXXXXX with a stream of @pid (its path in w->path) */
void vgw_open_temp(struct vg_writer *w, const char *name, uint32_t pid);
void vgw_close(struct vg_writer *w);

/* A branch record of @kind (VGK_SIGNAL, VGK_SIGRETURN: those records) after @insns */
void vgw_branch(struct vg_writer *w, unsigned int kind, uint64_t from, uint64_t to, uint64_t sp,
		uint32_t insns);
/* VGS_THREAD, VGS_THREAD_NEW or VGS_THREAD_EXIT of thread @tid */
void vgw_thread(struct vg_writer *w, unsigned int type, uint32_t tid);
/* VGS_FORK, VGS_EXEC (with @path), VGS_EXIT or VGS_WAKE; @path NULL: none */
void vgw_proc(struct vg_writer *w, unsigned int type, uint32_t pid, int32_t status,
	      const char *path);
/* A wake-up from a futex wait, the commonest kind */
void vgw_wake(struct vg_writer *w);
/* An executable mapping (r-x, 4 KiB) of @name, its bytes as they are ("", "[vdso]", a path) */
void vgw_mmap(struct vg_writer *w, uint64_t addr, const char *name);
/* A record of @type with no fields of its own (VGS_INSNS, VGS_EXEC_FAILED) after @insns */
void vgw_rec(struct vg_writer *w, unsigned int type, uint32_t insns);
/* VGS_CODE: @n instructions laid end to end from @addr, @lens their lengths */
void vgw_code(struct vg_writer *w, uint64_t addr, const uint8_t *lens, uint32_t n);
/* @len bytes as they are: a corrupt or cut record */
void vgw_raw(struct vg_writer *w, const void *bytes, size_t len);

#endif
