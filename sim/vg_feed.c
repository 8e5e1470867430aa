// SPDX-License-Identifier: GPL-2.0-only
/* The Valgrind tool's streams, from files or from the pipe; see vg_feed.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/vg_feed.h"
#include "vgtool/vgstream.h"

struct vg_chan {
	struct vg_feed *f;
	char *name;
	uint32_t pid, seq;
	bool taken;			/* handed out by vg_feed_find() */
	bool ended;			/* no more bytes come */
	int fd;				/* a file's; -1 for the pipe's */
	/* the pipe's bytes [lo, lo + len) of the stream */
	unsigned char *data;
	size_t lo, len, cap;
	const size_t **readers;
	unsigned int nr_readers, readers_cap;
};

struct vg_feed {
	char *dir;			/* files; NULL for a pipe */
	int fd;				/* the pipe */
	bool eof;
	struct vg_chan **chans;
	unsigned int nr_chans;
	unsigned char *in;		/* what was read of frames not yet whole */
	size_t in_len;
	uint64_t bytes, held, held_max;
	char err[160];
};

#define FEED_READ	(256 * 1024)

struct vg_feed *vg_feed_open_dir(const char *dir)
{
	struct vg_feed *f = calloc(1, sizeof(*f));

	if (!f || !(f->dir = strdup(dir))) {
		free(f);
		return NULL;
	}
	f->fd = -1;
	return f;
}

struct vg_feed *vg_feed_open_pipe(int fd)
{
	struct vg_feed *f = calloc(1, sizeof(*f));

	if (!f || !(f->in = malloc(FEED_READ + VGS_FRAME_MAX))) {
		free(f);
		return NULL;
	}
	f->fd = fd;
	return f;
}

static void chan_free(struct vg_chan *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->data);
	free(c->readers);
	free(c->name);
	free(c);
}

void vg_feed_free(struct vg_feed *f)
{
	if (!f)
		return;
	for (unsigned int i = 0; i < f->nr_chans; i++)
		chan_free(f->chans[i]);
	if (f->fd >= 0)
		close(f->fd);
	free(f->chans);
	free(f->in);
	free(f->dir);
	free(f);
}

static struct vg_chan *chan_new(struct vg_feed *f, uint32_t pid, uint32_t seq, const char *name)
{
	struct vg_chan *c = calloc(1, sizeof(*c)), **v;

	if (!c) {
		snprintf(f->err, sizeof(f->err), "pmusim: out of memory reading %s", name);
		return NULL;
	}
	c->f = f;
	c->pid = pid;
	c->seq = seq;
	c->fd = -1;
	c->name = strdup(name);
	v = realloc(f->chans, (f->nr_chans + 1) * sizeof(*v));
	if (!c->name || !v) {
		free(c->name);
		free(c);
		if (v)
			f->chans = v;
		snprintf(f->err, sizeof(f->err), "pmusim: out of memory reading %s", name);
		return NULL;
	}
	f->chans = v;
	v[f->nr_chans++] = c;
	return c;
}

const char *vg_chan_name(const struct vg_chan *c)
{
	return c->name;
}

/* The bytes no reader needs any more go (all of them once its readers are gone). */
static void chan_trim(struct vg_chan *c)
{
	size_t keep = c->lo + c->len;

	if (!c->taken)
		return;		/* its readers are still to come */
	for (unsigned int i = 0; i < c->nr_readers; i++)
		if (*c->readers[i] < keep)
			keep = *c->readers[i];
	if (keep <= c->lo)
		return;
	memmove(c->data, c->data + (keep - c->lo), c->lo + c->len - keep);
	c->f->held -= keep - c->lo;
	c->len -= keep - c->lo;
	c->lo = keep;
}

static int chan_append(struct vg_chan *c, const unsigned char *p, size_t n)
{
	if (c->len + n > c->cap) {
		chan_trim(c);
		if (c->len + n > c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 64 * 1024;
			unsigned char *v;

			while (cap < c->len + n)
				cap *= 2;
			v = realloc(c->data, cap);
			if (!v)
				return -1;
			c->data = v;
			c->cap = cap;
		}
	}
	memcpy(c->data + c->len, p, n);
	c->len += n;
	c->f->held += n;
	if (c->f->held > c->f->held_max)
		c->f->held_max = c->f->held;
	return 0;
}

/* The open stream of @pid, the latest; NULL if none. */
static struct vg_chan *open_chan(struct vg_feed *f, uint32_t pid)
{
	for (unsigned int i = f->nr_chans; i > 0; i--)
		if (f->chans[i - 1]->pid == pid)
			return f->chans[i - 1]->ended ? NULL : f->chans[i - 1];
	return NULL;
}

static int frame(struct vg_feed *f, const struct vgs_frame *h, const unsigned char *p)
{
	struct vg_chan *c = open_chan(f, h->pid);

	if (h->flags & VGS_FRAME_START) {
		struct vgs_file_header fh = { .ppid = 1 };
		uint32_t seq = 0;
		char name[64];

		if (h->len >= sizeof(fh))
			memcpy(&fh, p, sizeof(fh));
		/* ppid 0: not a fork's child, so the image an execve ran */
		if (c && !fh.ppid)
			seq = c->seq + 1;
		if (c)
			c->ended = true;
		snprintf(name, sizeof(name), "pipe:%u.%u", h->pid, seq);
		c = chan_new(f, h->pid, seq, name);
		if (!c)
			return -1;
	}
	if (!c) {
		snprintf(f->err, sizeof(f->err), "the stream pipe: a frame of pid %u outside a stream",
			 h->pid);
		return -1;
	}
	if (chan_append(c, p, h->len))
		return -1;
	if (h->flags & VGS_FRAME_END)
		c->ended = true;
	return 0;
}

/* Read what the pipe has (waiting for some) and file its frames. 0, or -1 at its end or error. */
static int pull(struct vg_feed *f)
{
	size_t done = 0;
	ssize_t n;

	if (f->eof)
		return -1;
	do
		n = read(f->fd, f->in + f->in_len, FEED_READ);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		if (n < 0)
			snprintf(f->err, sizeof(f->err), "the stream pipe: %s", strerror(errno));
		else if (f->in_len)
			snprintf(f->err, sizeof(f->err), "the stream pipe: a frame cut short");
		f->eof = true;
		for (unsigned int i = 0; i < f->nr_chans; i++)
			f->chans[i]->ended = true;
		return -1;
	}
	f->bytes += (uint64_t)n;
	f->in_len += (size_t)n;
	while (f->in_len - done >= sizeof(struct vgs_frame)) {
		struct vgs_frame h;

		memcpy(&h, f->in + done, sizeof(h));
		if (h.len > VGS_FRAME_MAX - sizeof(h)) {
			snprintf(f->err, sizeof(f->err), "the stream pipe: a frame of %u bytes",
				 h.len);
			f->eof = true;
			return -1;
		}
		if (f->in_len - done < sizeof(h) + h.len)
			break;
		if (frame(f, &h, f->in + done + sizeof(h))) {
			if (!f->err[0])
				snprintf(f->err, sizeof(f->err), "pmusim: out of memory");
			f->eof = true;
			return -1;
		}
		done += sizeof(h) + h.len;
	}
	memmove(f->in, f->in + done, f->in_len - done);
	f->in_len -= done;
	return 0;
}

static struct vg_chan *open_file(struct vg_feed *f, const char *path, uint32_t pid, uint32_t seq)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct vg_chan *c;

	if (fd < 0)
		return NULL;
	c = chan_new(f, pid, seq, path);
	if (!c) {
		close(fd);
		return NULL;
	}
	c->fd = fd;
	c->taken = c->ended = true;
	return c;
}

struct vg_chan *vg_feed_find(struct vg_feed *f, uint32_t pid, uint32_t seq)
{
	if (f->dir) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/vg.%u.%u", f->dir, pid, seq);
		for (unsigned int i = 0; i < f->nr_chans; i++)
			if (!strcmp(f->chans[i]->name, path))
				return NULL;	/* handed out once */
		return open_file(f, path, pid, seq);
	}
	for (;;) {
		for (unsigned int i = 0; i < f->nr_chans; i++) {
			struct vg_chan *c = f->chans[i];

			if (!c->taken && c->pid == pid && c->seq == seq) {
				c->taken = true;
				return c;
			}
		}
		if (pull(f))
			return NULL;
	}
}

struct vg_chan *vg_feed_first(struct vg_feed *f, const char *path)
{
	if (f->dir)
		return open_file(f, path, 0, 0);
	while (!f->nr_chans)
		if (pull(f))
			return NULL;
	f->chans[0]->taken = true;
	return f->chans[0];
}

ssize_t vg_chan_read(struct vg_chan *c, uint64_t off, void *buf, size_t n)
{
	if (c->fd >= 0)
		return pread(c->fd, buf, n, (off_t)off);
	for (;;) {
		if (off < c->lo) {
			errno = EINVAL;		/* freed: a reader that did not say it needs them */
			return -1;
		}
		if (off < c->lo + c->len) {
			size_t have = c->lo + c->len - off;

			if (n > have)
				n = have;
			memcpy(buf, c->data + (off - c->lo), n);
			return (ssize_t)n;
		}
		if (c->ended || pull(c->f))
			return 0;
	}
}

int vg_chan_add_reader(struct vg_chan *c, const size_t *pos)
{
	if (c->nr_readers == c->readers_cap) {
		unsigned int n = c->readers_cap ? 2 * c->readers_cap : 8;
		const size_t **v = realloc(c->readers, n * sizeof(*v));

		if (!v)
			return -1;
		c->readers = v;
		c->readers_cap = n;
	}
	c->readers[c->nr_readers++] = pos;
	return 0;
}

void vg_chan_del_reader(struct vg_chan *c, const size_t *pos)
{
	for (unsigned int i = 0; i < c->nr_readers; i++)
		if (c->readers[i] == pos) {
			c->readers[i] = c->readers[--c->nr_readers];
			break;
		}
	if (!c->nr_readers && c->fd < 0) {
		c->f->held -= c->len;
		c->lo += c->len;
		c->len = 0;
	}
}

void vg_feed_close(struct vg_feed *f)
{
	unsigned char buf[65536];
	ssize_t n;

	if (!f || f->dir)
		return;
	/* to its end, unread: a writer that blocked on it goes on to its stop, not to EPIPE */
	while (f->fd >= 0 && ((n = read(f->fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)))
		;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->eof = true;
	for (unsigned int i = 0; i < f->nr_chans; i++)
		f->chans[i]->ended = true;
}

bool vg_feed_began(const struct vg_feed *f)
{
	return f->nr_chans > 0;
}

void vg_feed_stats(const struct vg_feed *f, uint64_t *bytes, uint64_t *held_max)
{
	*bytes = f->bytes;
	*held_max = f->held_max;
}

const char *vg_feed_error(const struct vg_feed *f)
{
	return f->err[0] ? f->err : NULL;
}
