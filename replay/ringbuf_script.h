/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scripts of `pmusim ringbuf`: one operation a line, '#' starts a
 * comment.
 *
 *   write SIZE [COUNT]   COUNT (default 1) sample records of SIZE bytes,
 *                        SIZE a multiple of 8 from 16 to 65528
 *   read [N]             the forward reader consumes up to N records (all
 *                        by default); only for a forward writable buffer,
 *                        the one mode with a data_tail to move
 *   pause, resume        PERF_EVENT_IOC_PAUSE_OUTPUT 1 / 0
 *   dump                 print what user space can see
 */
#ifndef PMUSIM_SIM_RINGBUF_SCRIPT_H
#define PMUSIM_SIM_RINGBUF_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#define RINGBUF_SIZE_MIN	16
#define RINGBUF_SIZE_MAX	65528
#define RINGBUF_COUNT_MAX	1000000UL

enum ringbuf_op_kind {
	RINGBUF_OP_WRITE,
	RINGBUF_OP_READ,
	RINGBUF_OP_PAUSE,
	RINGBUF_OP_RESUME,
	RINGBUF_OP_DUMP,
};

struct ringbuf_op {
	enum ringbuf_op_kind kind;
	unsigned int size;		/* write */
	unsigned long count;		/* write: records; read: at most (0: all) */
	unsigned int line;
};

struct ringbuf_script {
	struct ringbuf_op *ops;
	size_t nr_ops;
};

/*
 * Parse @path. @can_read says whether `read` is allowed (a forward
 * writable buffer). On bad input prints "PATH:LINE: problem" (or
 * "PATH: problem" when the file cannot be read) on stderr and returns -1.
 */
int ringbuf_script__parse(struct ringbuf_script *script, const char *path, bool can_read);
void ringbuf_script__exit(struct ringbuf_script *script);

#endif /* PMUSIM_SIM_RINGBUF_SCRIPT_H */
