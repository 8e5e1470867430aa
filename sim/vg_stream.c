// SPDX-License-Identifier: GPL-2.0-only
/* The reader of the Valgrind tool's stream; see vg_stream.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/vg_feed.h"
#include "sim/vg_stream.h"

static const char *const type_names[VGS__NR] = {
	[VGS_BRANCH] = "branch",
	[VGS_INSNS] = "insns",
	[VGS_THREAD] = "thread",
	[VGS_THREAD_NEW] = "thread-new",
	[VGS_THREAD_EXIT] = "thread-exit",
	[VGS_MMAP] = "mmap",
	[VGS_SIGNAL] = "signal",
	[VGS_SIGRETURN] = "sigreturn",
	[VGS_FORK] = "fork",
	[VGS_EXEC] = "exec",
	[VGS_EXEC_FAILED] = "exec-failed",
	[VGS_EXIT] = "exit",
	[VGS_WAKE] = "wake",
	[VGS_CODE] = "code",
	[VGS_RUN] = "run",
};

const char *vg_rec_type_name(unsigned int type)
{
	return type < VGS__NR ? type_names[type] : NULL;
}

_Static_assert(VG_STREAM_BUF >= VGS_REC_MAX + VGS_NAME_MAX, "a record with its name fits the window");

/*
 * Have the @need bytes from s->off in hand, or all that is left of the
 * file; more is read from the file when the window runs short (what is
 * left of it moves to the buffer's start).  0, or -1 with errno.
 */
static int fill(struct vg_stream *s, size_t need)
{
	size_t have = s->size - (s->off - s->base);

	if (have >= need || s->base + s->size == s->file_size)
		return 0;
	memmove(s->buf, s->data + (s->off - s->base), have);
	s->base = s->off;
	/* a pipe's channel gives what it has: wait for no more than is needed */
	while (have < (s->chan ? need : VG_STREAM_BUF) && s->base + have < s->file_size) {
		ssize_t n = s->chan ? vg_chan_read(s->chan, s->base + have, s->buf + have,
						   VG_STREAM_BUF - have) :
				      read(s->fd, s->buf + have, VG_STREAM_BUF - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			s->file_size = s->base + have;	/* it shrank */
			break;
		}
		have += (size_t)n;
	}
	s->data = s->buf;
	s->size = have;
	s->chan_pos = s->base + have;
	return 0;
}

int vg_stream_refill(struct vg_stream *s)
{
	return fill(s, VGS_REC_MAX);
}

/* The stream's header: 0, or -1 with the reason (the stream closed). */
static int check_header(struct vg_stream *s, char *err, size_t errlen)
{
	if (fill(s, sizeof(s->header))) {
		snprintf(err, errlen, "%s: %s", s->path, strerror(errno));
		vg_stream_close(s);
		return -1;
	}
	if (s->size < sizeof(s->header)) {
		snprintf(err, errlen, "%s: not a pmusim stream (%zu bytes)", s->path, s->size);
		vg_stream_close(s);
		return -1;
	}
	memcpy(&s->header, s->data, sizeof(s->header));
	if (memcmp(s->header.magic, VGS_MAGIC, sizeof(s->header.magic)) != 0) {
		snprintf(err, errlen, "%s: not a pmusim stream (bad magic)", s->path);
		vg_stream_close(s);
		return -1;
	}
	if (s->header.version != VGS_VERSION) {
		snprintf(err, errlen, "%s: stream version %u, this pmusim reads %u", s->path,
			 s->header.version, VGS_VERSION);
		vg_stream_close(s);
		return -1;
	}
	s->off = sizeof(s->header);
	s->tid = 1;
	return 0;
}

int vg_stream_open(struct vg_stream *s, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	memset(s, 0, sizeof(*s));
	s->path = path;
	s->fd = -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !(s->buf = malloc(VG_STREAM_BUF))) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	s->fd = fd;
	s->data = s->buf;
	s->file_size = (uint64_t)st.st_size;
	return check_header(s, err, errlen);
}

int vg_stream_open_mem(struct vg_stream *s, const char *name, const void *data, size_t size,
		       char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->path = name;
	s->fd = -1;
	s->data = data;
	s->size = size;
	s->file_size = size;
	return check_header(s, err, errlen);
}

int vg_stream_open_chan(struct vg_stream *s, struct vg_chan *c, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->path = vg_chan_name(c);
	s->fd = -1;
	s->buf = malloc(VG_STREAM_BUF);
	if (!s->buf || vg_chan_add_reader(c, &s->chan_pos)) {
		free(s->buf);
		s->buf = NULL;
		snprintf(err, errlen, "%s: %s", s->path, strerror(ENOMEM));
		return -1;
	}
	s->chan = c;
	s->data = s->buf;
	s->file_size = UINT64_MAX;
	return check_header(s, err, errlen);
}

int vg_stream_clone(struct vg_stream *dst, const struct vg_stream *src)
{
	unsigned char *buf = malloc(VG_STREAM_BUF);

	if (!buf || (src->chan && vg_chan_add_reader(src->chan, &dst->chan_pos))) {
		free(buf);
		return -1;
	}
	*dst = *src;
	memcpy(buf, src->data, src->size);
	dst->buf = buf;
	dst->data = buf;
	dst->fd = -1;
	return 0;
}

void vg_stream_close(struct vg_stream *s)
{
	if (s->chan && s->buf)
		vg_chan_del_reader(s->chan, &s->chan_pos);
	if (s->buf) {
		if (s->fd >= 0)
			close(s->fd);
		free(s->buf);
	}
	s->chan = NULL;
	s->buf = NULL;
	s->fd = -1;
	s->data = NULL;
	s->size = 0;
}

static int bad(const struct vg_stream *s, size_t at, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: byte %zu: %s", s->path, at, what);
	return -1;
}

enum { NUM_OK, NUM_CUT, NUM_LONG };

/* A number longer than a byte at *@pp; see get_num(). */
static int get_long_num(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	const unsigned char *p = *pp;
	uint64_t x = 0;
	unsigned int shift = 0, b;

	do {
		if (p == end)
			return NUM_CUT;
		b = *p++;
		if (shift == 63 && b > 1)
			return NUM_LONG;	/* an 11th byte, or bits past 64 */
		x |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	*v = x;
	*pp = p;
	return NUM_OK;
}

/*
 * The number at *@pp (not reaching @end) into *@v, *@pp past it; NUM_CUT
 * if the record ends first, NUM_LONG for one over 64 bits.  Most are a
 * byte.
 */
static inline int get_num(const unsigned char **pp, const unsigned char *end, uint64_t *v)
{
	if (*pp != end && **pp < 0x80) {
		*v = *(*pp)++;
		return NUM_OK;
	}
	return get_long_num(pp, end, v);
}

/* @n numbers into @v[]: as get_num(). */
static int get_nums(const unsigned char **pp, const unsigned char *end, uint64_t *v,
		    unsigned int n)
{
	int why = NUM_OK;

	for (unsigned int i = 0; i < n && !why; i++)
		why = get_num(pp, end, &v[i]);
	return why;
}

/*
 * A VGS_RUN record's count and fields from *@pp (after its lead) up to
 * @end into @r, @before the deltas before the run; *@pp past them. NULL,
 * or what is wrong (*@why says if a number was cut short or too long).
 */
static const char *run_fields(const unsigned char **pp, const unsigned char *end,
			      const struct vgs_coder *before, struct vg_run *r, int *why)
{
	uint64_t v[5];

	if ((*why = get_nums(pp, end, v, 2)))
		return "run record";
	if (v[0])
		return "instructions counted on a run record";
	if (v[1] == VGS_RUN_START) {
		r->what = VGS_RUN_START;
		if ((*why = get_num(pp, end, &r->bytes)))
			return "run record";
		return NULL;
	}
	if (v[1] != VGS_RUN_END)
		return "run record neither a start nor an end";
	if ((*why = get_nums(pp, end, v, 5)))
		return "run record";
	if (v[0] == 0 || v[0] > VGS_RUN_MAX)
		return "run of no or too many records";
	r->what = VGS_RUN_END;
	r->n = (uint32_t)v[0];
	r->left = v[1];
	r->max_sp = before->sp + vgs_unzigzag(v[2]);
	r->after.to = before->to + vgs_unzigzag(v[3]);
	r->after.sp = before->sp + vgs_unzigzag(v[4]);
	return NULL;
}

size_t vg_run_marker(const unsigned char *p, size_t avail)
{
	const unsigned char *q = p + 1;
	struct vg_run r;
	int why;

	if (!avail || *p != VGS_RUN << 4 || run_fields(&q, p + avail, &(struct vgs_coder){ 0 }, &r, &why))
		return 0;
	return (size_t)(q - p);
}

size_t vg_run_skip(const unsigned char *p, size_t avail, const struct vgs_coder *before,
		   struct vg_run *r)
{
	const unsigned char *q = p + 1, *end = p + avail;
	int why;

	if (!avail || *p != VGS_RUN << 4 || run_fields(&q, end, before, r, &why) ||
	    r->what != VGS_RUN_START || r->bytes >= (size_t)(end - q))
		return 0;
	q += r->bytes;
	r->end = (size_t)(q - p);
	if (*q++ != VGS_RUN << 4 || run_fields(&q, end, before, r, &why) || r->what != VGS_RUN_END)
		return 0;
	return (size_t)(q - p);
}

static int num_error(const struct vg_stream *s, size_t at, char *err, size_t errlen, int why,
		     const char *what)
{
	char msg[64];

	if (why == NUM_LONG)
		return bad(s, at, err, errlen, "number over 64 bits");
	snprintf(msg, sizeof(msg), "%s cut short", what);
	return bad(s, at, err, errlen, msg);
}

static int read_error(const struct vg_stream *s, size_t at, char *err, size_t errlen)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "read error: %s", strerror(errno));
	return bad(s, at, err, errlen, msg);
}

/*
 * A name of @len bytes at @p, after the @fixed bytes of the record at
 * s->off: in hand, where *@rec and *@p are then (the window may have
 * moved).  0, or -1 with the error.
 */
static int get_name(struct vg_stream *s, const unsigned char **rec, const unsigned char **p,
		    uint64_t len, const char *what, char *err, size_t errlen)
{
	size_t at = s->off, fixed = (size_t)(*p - *rec);
	char msg[64];

	if (len > VGS_NAME_MAX) {
		snprintf(msg, sizeof(msg), "%s over %u bytes", what, VGS_NAME_MAX);
		return bad(s, at, err, errlen, msg);
	}
	if (fill(s, fixed + len))
		return read_error(s, at, err, errlen);
	/* what is in hand reaches the file's end, even one that shrank while read */
	if (len > s->size - (at - s->base) - fixed) {
		snprintf(msg, sizeof(msg), "%s cut short", what);
		return bad(s, at, err, errlen, msg);
	}
	*rec = s->data + (at - s->base);
	*p = *rec + fixed;
	return 0;
}

/* vg_stream_next_checked()'s one record: 2 for a run's start or end passed. */
static int next_record(struct vg_stream *s, struct vg_event *ev, char *err, size_t errlen)
{
	size_t at = s->off;
	const unsigned char *rec, *p, *end;
	unsigned int lead, type;
	uint64_t v[9];
	int why;

	if (fill(s, VGS_REC_MAX))
		return read_error(s, at, err, errlen);
	rec = p = s->data + (at - s->base);
	end = s->data + s->size;
	if (p == end)
		return 0;
	lead = *p++;
	*ev = (struct vg_event){ .tid = s->tid };

	if (lead & 15) {
		unsigned int kind = lead & 15;

		if (kind >= VGK__NR)
			return bad(s, at, err, errlen, "unknown branch kind");
		if ((why = get_num(&p, end, &v[0])) || (why = get_num(&p, end, &v[1])) ||
		    (why = get_num(&p, end, &v[2])) || (why = get_num(&p, end, &v[3])))
			return num_error(s, at, err, errlen, why, "branch record");
		if (v[0] > UINT32_MAX)
			return bad(s, at, err, errlen, "instruction count over 32 bits");
		ev->type = vg_branch_type(kind);
		ev->kind = kind;
		ev->insn_len = lead >> 4;
		ev->insns = (uint32_t)v[0];
		ev->from = s->coder.to + v[1];
		ev->to = ev->from + vgs_unzigzag(v[2]);
		ev->sp = s->coder.sp + vgs_unzigzag(v[3]);
		s->coder.to = ev->to;
		s->coder.sp = ev->sp;
		s->off = at + (size_t)(p - rec);
		return 1;
	}

	type = lead >> 4;
	if (type == 0 || type == VGS_BRANCH || type == VGS_SIGNAL || type == VGS_SIGRETURN ||
	    type >= VGS__NR)
		return bad(s, at, err, errlen, "unknown record type");
	if ((why = get_nums(&p, end, v, 1)))
		return num_error(s, at, err, errlen, why, "record header");
	if (v[0] > UINT32_MAX)
		return bad(s, at, err, errlen, "instruction count over 32 bits");
	if (type == VGS_RUN) {
		const char *what;

		p = rec + 1;
		/* (an end's numbers are from the deltas at the start: kept for a reader that asks) */
		if ((what = run_fields(&p, end, &s->run_before, &ev->run, &why)))
			return why ? num_error(s, at, err, errlen, why, what) :
				     bad(s, at, err, errlen, what);
		s->off = at + (size_t)(p - rec);
		if (ev->run.what == VGS_RUN_START)
			s->run_before = s->coder;
		if (!s->runs)
			return 2;	/* passed */
		ev->type = VGS_RUN;
		return 1;
	}
	ev->type = type;
	ev->insns = (uint32_t)v[0];

	switch (type) {
	case VGS_INSNS:
	case VGS_EXEC_FAILED:
		break;
	case VGS_THREAD:
	case VGS_THREAD_NEW:
	case VGS_THREAD_EXIT:
		if ((why = get_nums(&p, end, v, 1)))
			return num_error(s, at, err, errlen, why, "thread record");
		if (v[0] == 0)
			return bad(s, at, err, errlen, "thread 0");
		if (v[0] > UINT32_MAX)
			return bad(s, at, err, errlen, "thread number over 32 bits");
		if (type == VGS_THREAD) {
			if (ev->insns)
				return bad(s, at, err, errlen, "instructions counted before a thread switch");
			s->tid = ev->tid = (uint32_t)v[0];
		} else {
			ev->other_tid = (uint32_t)v[0];
		}
		break;
	case VGS_MMAP:
		if ((why = get_nums(&p, end, v, 8)))
			return num_error(s, at, err, errlen, why, "mmap record");
		if (v[3] > UINT32_MAX)
			return bad(s, at, err, errlen, "mmap protection over 32 bits");
		if (v[4] > UINT32_MAX)
			return bad(s, at, err, errlen, "mmap flags over 32 bits");
		if (get_name(s, &rec, &p, v[7], "mmap name", err, errlen))
			return -1;
		ev->addr = v[0];
		ev->len = v[1];
		ev->pgoff = v[2];
		ev->prot = (uint32_t)v[3];
		ev->flags = (uint32_t)v[4];
		ev->dev = v[5];
		ev->ino = v[6];
		ev->name = (const char *)p;
		ev->name_len = (uint32_t)v[7];
		if (memchr(ev->name, 0, ev->name_len))
			return bad(s, at, err, errlen, "NUL inside a mapping's name");
		p += ev->name_len;
		break;
	case VGS_CODE:
		if ((why = get_nums(&p, end, v, 2)))
			return num_error(s, at, err, errlen, why, "code record");
		if (ev->insns)
			return bad(s, at, err, errlen, "instructions counted on a code record");
		if (v[1] == 0 || v[1] > VGS_CODE_MAX)
			return bad(s, at, err, errlen, "code record of no or too many instructions");
		if (get_name(s, &rec, &p, v[1], "code lengths", err, errlen))
			return -1;
		for (uint64_t i = 0; i < v[1]; i++)
			if (p[i] == 0 || p[i] > 15)
				return bad(s, at, err, errlen, "instruction length not 1..15");
		if (v[0] + v[1] * 15 < v[0])
			return bad(s, at, err, errlen, "code past the end of the address space");
		ev->addr = v[0];
		ev->name = (const char *)p;
		ev->name_len = (uint32_t)v[1];
		p += ev->name_len;
		break;
	case VGS_FORK:
	case VGS_EXEC:
	case VGS_EXIT:
	case VGS_WAKE: {
		int64_t status;

		if ((why = get_nums(&p, end, v, 3)))
			return num_error(s, at, err, errlen, why, "process record");
		status = (int64_t)vgs_unzigzag(v[1]);
		if (v[0] > UINT32_MAX || status < INT32_MIN || status > INT32_MAX)
			return bad(s, at, err, errlen, "process id or status over 32 bits");
		if (type != VGS_EXEC && v[2])
			return bad(s, at, err, errlen, "a path on a record that has none");
		if (get_name(s, &rec, &p, v[2], "exec path", err, errlen))
			return -1;
		ev->pid = (uint32_t)v[0];
		ev->status = (int32_t)status;
		ev->name = (const char *)p;
		ev->name_len = (uint32_t)v[2];
		p += ev->name_len;
		break;
	}
	}
	s->off = at + (size_t)(p - rec);
	return 1;
}

/*
 * Any record, every byte checked against the end of what is in hand,
 * which holds the largest record but for its name, or reaches the file's
 * end; the fast path's fallback (vg_stream.h). A run's start and end are
 * passed (but to a reader that asks for them): they say nothing the
 * records between them do not.
 */
int vg_stream_next_checked(struct vg_stream *s, struct vg_event *ev, char *err, size_t errlen)
{
	int ret;

	while ((ret = next_record(s, ev, err, errlen)) == 2)
		;
	return ret;
}

/* See vg_stream.h: the fast path's number of three bytes or more. */
const unsigned char *vg_stream_long_num(const unsigned char *p, uint64_t *v)
{
	const unsigned char *end = p + VGS_NUM_MAX;

	return get_long_num(&p, end, v) == NUM_OK ? p : NULL;
}
