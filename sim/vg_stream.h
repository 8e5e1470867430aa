/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading the stream of pmusim's Valgrind tool (format: vgtool/vgstream.h):
 * one file per process image, walked record by record.  The reader checks
 * every record against the file's size and the format, so a truncated or
 * corrupted file is an error naming the file and the record's byte offset,
 * never a read out of bounds.  (A corrupted number that still decodes is
 * read as what it says: the format has no checksum.)
 */
#ifndef PMUSIM_SIM_VG_STREAM_H
#define PMUSIM_SIM_VG_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vgtool/vgstream.h"

/* What a file's reader has in hand: enough for a record and its name. */
#define VG_STREAM_BUF	(64 * 1024)

struct vg_stream {
	const char *path;
	size_t off;			/* the next record's first byte in the file */
	/* the window: the file's bytes [base, base + size) are at data */
	const unsigned char *data;
	size_t base, size;
	uint64_t file_size;
	int fd;				/* where more comes from; -1: a stream in memory */
	struct vg_chan *chan;		/* or this (sim/vg_feed.h) */
	size_t chan_pos;		/* the channel's first byte not yet in the window */
	unsigned char *buf;		/* the window's storage, VG_STREAM_BUF bytes */
	struct vgs_file_header header;
	uint32_t tid;			/* thread of the records being read */
	struct vgs_coder coder;		/* the last branch record's to and sp */
	bool runs;			/* VGS_RUN records are events too (else passed) */
	struct vgs_coder run_before;	/* runs: the deltas at the last run's start */
};

/* A VGS_RUN record's fields (vgstream.h), its numbers made absolute. */
struct vg_run {
	enum vgs_run_what what;
	uint32_t n;			/* the end's: records */
	uint64_t bytes;			/* the start's: its records' bytes */
	uint64_t left;			/* the end's: counts less one (where not 0), summed */
	uint64_t max_sp;		/* the end's: the highest sp */
	struct vgs_coder after;		/* the end's: the deltas after the run */
	size_t end;			/* vg_run_skip(): where the end is, from the start */
};

/* One record, decoded. */
struct vg_event {
	enum vgs_rec_type type;
	enum vgs_branch_kind kind;	/* VGS_BRANCH, VGS_SIGNAL, VGS_SIGRETURN */
	uint32_t tid;			/* the thread it belongs to */
	uint32_t insns;			/* instructions since the thread's last record */
	unsigned int insn_len;		/* VGS_BRANCH */
	uint64_t from, to, sp;		/* VGS_BRANCH, VGS_SIGNAL, VGS_SIGRETURN */
	uint32_t other_tid;		/* VGS_THREAD_NEW, VGS_THREAD_EXIT: the thread */
	uint64_t addr, len, pgoff;	/* VGS_MMAP; addr also VGS_CODE's */
	uint32_t prot, flags;		/* VGS_MMAP: flags as MMAP2 has them */
	uint64_t dev, ino;		/* VGS_MMAP: the file's st_dev and st_ino, or 0 */
	uint32_t pid;			/* VGS_FORK: the child; VGS_EXEC, VGS_EXIT: this one;
					 * VGS_WAKE: the child reaped, or 0 */
	int32_t status;			/* VGS_EXIT; VGS_WAKE: the syscall's number */
	const char *name;		/* VGS_MMAP: file; VGS_EXEC: path (not NUL-terminated;
					 * valid until the next vg_stream_next()); VGS_CODE:
					 * name_len instruction lengths */
	uint32_t name_len;
	struct vg_run run;		/* VGS_RUN, to a reader that asks (runs) */
};

/*
 * Open and check the header. 0, or -1 with a one-line message in @err
 * ("PATH: not a pmusim stream", "PATH: stream version 7, this pmusim
 * reads 4", the system's reason for an unreadable file).
 */
int vg_stream_open(struct vg_stream *s, const char *path, char *err, size_t errlen);
/*
 * The same for a stream already in memory: @size bytes at @data, neither
 * copied nor freed; @name stands for the file in errors.
 */
int vg_stream_open_mem(struct vg_stream *s, const char *name, const void *data, size_t size,
		       char *err, size_t errlen);
/*
 * The next record: 1, or 0 at the end of the file, or -1 with "PATH: byte
 * N: what is wrong" in @err.  Inline below: it runs twice per branch of
 * the program (the scout's and the thread's walk), and a call across
 * files costs as much as the decoding.
 */
static inline int vg_stream_next(struct vg_stream *s, struct vg_event *ev, char *err,
				 size_t errlen);
/*
 * The same for a channel of a feed (sim/vg_feed.h), read as a reader of
 * it from its start: a pipe's bytes are freed once every reader is past.
 */
struct vg_chan;
int vg_stream_open_chan(struct vg_stream *s, struct vg_chan *c, char *err, size_t errlen);
/*
 * @dst reads on from where @src is, as another reader of its channel (the
 * records' deltas go on from there). 0, or -1 out of memory.
 */
int vg_stream_clone(struct vg_stream *dst, const struct vg_stream *src);
void vg_stream_close(struct vg_stream *s);

/*
 * The reader of a channel or of memory goes on at @off, where another
 * reader of the same stream stood after a record with @coder and @tid
 * (the records between read by it, not by @s). Past what @s has in hand,
 * its window empties there, and the bytes before @off are no longer its
 * to keep (vg_chan_add_reader()).
 */
static inline void vg_stream_seek(struct vg_stream *s, size_t off, const struct vgs_coder *coder,
				  uint32_t tid)
{
	s->off = off;
	s->coder = *coder;
	s->tid = tid;
	if (off - s->base > s->size) {
		s->base = off;
		s->size = 0;
		s->data = s->buf;
		s->chan_pos = off;
	}
}

/*
 * @s's window holds at least VGS_REC_MAX bytes from its place again, if
 * the file or channel has them: 0, or -1 with errno. (A channel waits on
 * the pipe for bytes it does not hold yet.)
 */
int vg_stream_refill(struct vg_stream *s);

/*
 * At @p, with @avail bytes in hand and @before the deltas there: a run's
 * start, its records and its end, all in hand. The bytes up to after the
 * end, with the end's fields in @r; 0 for anything else. (A reader that
 * retires a run by its sums goes on from there with r->after; its place
 * after the run's last record is r->end on.)
 */
size_t vg_run_skip(const unsigned char *p, size_t avail, const struct vgs_coder *before,
		   struct vg_run *r);
/* At @p: a run's start or end, whole in @avail bytes: its length; else 0. */
size_t vg_run_marker(const unsigned char *p, size_t avail);

/* The record type's name ("branch", "mmap", ...), or NULL if there is none. */
const char *vg_rec_type_name(unsigned int type);

/* ---- vg_stream_next(): its fast path; the rest is in vg_stream.c ---- */

/* Any record, every byte checked; what vg_stream_next() falls back to. */
int vg_stream_next_checked(struct vg_stream *s, struct vg_event *ev, char *err, size_t errlen);
/* A number of three bytes or more at @p: where it ends, or NULL for one over 64 bits. */
const unsigned char *vg_stream_long_num(const unsigned char *p, uint64_t *v);

/*
 * The number at @p, with at least VGS_NUM_MAX bytes there (the end is not
 * in reach): where it ends, or NULL for one over 64 bits.  Most are a byte.
 */
static inline __attribute__((always_inline))
const unsigned char *vg_stream_num_here(const unsigned char *p, uint64_t *v)
{
	if (p[0] < 0x80) {
		*v = p[0];
		return p + 1;
	}
	if (p[1] < 0x80) {
		*v = (p[0] & 0x7fu) | (uint64_t)p[1] << 7;
		return p + 2;
	}
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
		/* up to eight bytes at once: the first clear top bit ends it */
		uint64_t w, stop, x;

		memcpy(&w, p, sizeof(w));
		stop = ~w & 0x8080808080808080ULL;
		if (stop) {
			/* its bytes (stop ^ (stop - 1) masks them), seven bits each, packed */
			x = w & (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7fULL;
			x = (x & 0x007f007f007f007fULL) | (x >> 1 & 0x3f803f803f803f80ULL);
			x = (x & 0x00003fff00003fffULL) | (x >> 2 & 0x0fffc0000fffc000ULL);
			x = (x & 0x000000000fffffffULL) | (x >> 4 & 0x00fffffff0000000ULL);
			*v = x;
			return p + (__builtin_ctzll(stop) >> 3) + 1;
		}
	}
	return vg_stream_long_num(p, v);
}

/* A branch record's fields (VGS_BRANCH, VGS_SIGNAL, VGS_SIGRETURN by kind). */
struct vg_branch {
	uint64_t from, to, sp;
	uint32_t insns;
	uint8_t kind, insn_len;
};

/* The record type of a branch of @kind. */
static inline enum vgs_rec_type vg_branch_type(unsigned int kind)
{
	/* (the two kinds it names last are rare) */
	_Static_assert(VGK_SIGNAL + 1 == VGK_SIGRETURN && VGK_SIGRETURN + 1 == VGK__NR,
		       "signal kinds last");
	return __builtin_expect(kind < VGK_SIGNAL, 1) ? VGS_BRANCH :
	       kind == VGK_SIGNAL ? VGS_SIGNAL : VGS_SIGRETURN;
}

/*
 * The branch record at @rec, @avail bytes in hand there, its deltas from
 * @c, of a kind below @kind_end: its length, with @c then its own and the
 * record in @b; or 0, nothing read, for anything else (another kind, any
 * other record) or anything wrong, and for a record that may
 * reach past @avail (a branch record is at most VGS_REC_MAX bytes), with
 * no check of the end per byte. Always inlined: the compiler would
 * otherwise keep one copy, whose calls cost a fifth of the decoding.
 */
static inline __attribute__((always_inline))
size_t vg_branch_decode(const unsigned char *rec, size_t avail, struct vgs_coder *c,
			struct vg_branch *b, unsigned int kind_end)
{
	const unsigned char *p = rec;
	unsigned int lead, kind;
	uint64_t insns, from, to, sp;
	uint32_t four;

	if (avail < VGS_REC_MAX)
		return 0;
	lead = *p++;
	kind = lead & 15;
	/* (one compare: kind 0 wraps) */
	if (kind - 1 >= kind_end - 1)
		return 0;
	memcpy(&four, p, sizeof(four));
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && !(four & 0x80808080u)) {
		/* most (a loop's): four numbers of a byte each, the first lowest */
		insns = four & 0x7f;
		from = four >> 8 & 0x7f;
		to = four >> 16 & 0x7f;
		sp = four >> 24;
		p += 4;
	} else if (!(p = vg_stream_num_here(p, &insns)) || insns > UINT32_MAX ||
		   !(p = vg_stream_num_here(p, &from)) || !(p = vg_stream_num_here(p, &to)) ||
		   !(p = vg_stream_num_here(p, &sp))) {
		return 0;
	}
	from += c->to;
	to = from + vgs_unzigzag(to);
	sp = c->sp + vgs_unzigzag(sp);
	c->to = to;
	c->sp = sp;
	b->from = from;
	b->to = to;
	b->sp = sp;
	b->insns = (uint32_t)insns;
	b->kind = (uint8_t)kind;
	b->insn_len = (uint8_t)(lead >> 4);
	return (size_t)(p - rec);
}

/*
 * Most records are branches far from the end of what is in hand: this
 * reads one into @b (vg_branch_decode()). False, and nothing read, for
 * anything else or anything wrong: vg_stream_next() then reads it (and
 * says what is wrong).
 */
static inline __attribute__((always_inline))
bool vg_stream_next_branch(struct vg_stream *s, struct vg_branch *b)
{
	size_t n = vg_branch_decode(s->data + (s->off - s->base), s->size - (s->off - s->base),
				    &s->coder, b, VGK__NR);

	s->off += n;
	return n != 0;
}

/*
 * The branch fast path above, or vg_stream_next_checked(); every field
 * of @ev written without clearing it first.
 */
static inline __attribute__((always_inline))
int vg_stream_next(struct vg_stream *s, struct vg_event *ev, char *err, size_t errlen)
{
	struct vg_branch b;

	if (!vg_stream_next_branch(s, &b))
		return vg_stream_next_checked(s, ev, err, errlen);
	ev->type = vg_branch_type(b.kind);
	ev->kind = b.kind;
	ev->tid = s->tid;
	ev->insns = b.insns;
	ev->insn_len = b.insn_len;
	ev->from = b.from;
	ev->to = b.to;
	ev->sp = b.sp;
	ev->other_tid = 0;
	ev->addr = ev->len = ev->pgoff = 0;
	ev->prot = 0;
	ev->pid = 0;
	ev->status = 0;
	ev->name = NULL;
	ev->name_len = 0;
	return 1;
}

#endif /* PMUSIM_SIM_VG_STREAM_H */
