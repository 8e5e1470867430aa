// SPDX-License-Identifier: GPL-2.0-only
/* The Valgrind tool's streams, from files or from the pipe; see vg_feed.h. */
#define _GNU_SOURCE	/* fallocate */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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
	/* the pipe's bytes [lo, lo + len) of the stream: in data, or spilled */
	unsigned char *data;
	size_t lo, len, cap;
	int spill_fd;			/* -1, or the file that holds them, at their offsets */
	struct vgs_ring *ring;		/* where its bytes come after a VGS_FRAME_RING, or NULL */
	bool ring_end;			/* ended once its ring is empty */
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
	uint64_t moved;			/* by chan_trim(), to free what was read */
	uint64_t spilled, spilled_max, spills;
	uint64_t held_cap;		/* FEED_HELD_MAX, or vg_feed_set_held_max()'s */
	const char *ring_dir;		/* where the tool makes its rings (the caller's), or NULL */
	struct vg_chan **ring_chans;	/* the streams whose rings are mapped */
	unsigned int nr_rings, rings_cap;
	uint64_t rings;			/* ever mapped */
	bool discard;			/* vg_feed_close(): what comes is dropped */
	char err[160];
};

#define FEED_READ	(256 * 1024)
/* The most taken from a ring at a pull: what is held stays some 128 KiB, whatever the pace. */
#define RING_TAKE	(128 * 1024)

/*
 * The most of the streams held in memory: past it, the stream that holds
 * the most goes to a file of its own in TMPDIR (a process that runs far
 * ahead of the one the replay needs), read back from there, its bytes
 * freed there as in memory, and back to memory once the replay has caught
 * up with it.
 */
#define FEED_HELD_MAX	(32u << 20)

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
	f->held_cap = FEED_HELD_MAX;
	return f;
}

void vg_feed_set_held_max(struct vg_feed *f, uint64_t bytes)
{
	f->held_cap = bytes;
}

void vg_feed_set_ring_dir(struct vg_feed *f, const char *dir)
{
	f->ring_dir = dir;
	/*
	 * one thread waits on the pipe and the rings: poll() for the one, a
	 * look for the other (a pipe's flags can always be set)
	 */
	(void)fcntl(f->fd, F_SETFL, fcntl(f->fd, F_GETFL) | O_NONBLOCK);
}

static void ring_unmap(struct vg_chan *c)
{
	struct vg_feed *f = c->f;

	if (!c->ring)
		return;
	munmap(c->ring, sizeof(*c->ring));
	c->ring = NULL;
	for (unsigned int i = 0; i < f->nr_rings; i++)
		if (f->ring_chans[i] == c) {
			f->ring_chans[i] = f->ring_chans[--f->nr_rings];
			break;
		}
}

static void chan_free(struct vg_chan *c)
{
	ring_unmap(c);
	if (c->fd >= 0)
		close(c->fd);
	if (c->spill_fd >= 0)
		close(c->spill_fd);
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
	free(f->ring_chans);
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
	c->spill_fd = -1;
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

/* A spilled stream's bytes [@from, @to) freed in its file (whole pages; where holes can be made). */
static void spill_free(struct vg_chan *c, size_t from, size_t to)
{
	from = (from + 4095) & ~(size_t)4095;
	to &= ~(size_t)4095;
	if (to > from)
		fallocate(c->spill_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from,
			  (off_t)(to - from));
}

/* The first byte a reader of @c still needs (lo: its readers are still to come). */
static size_t chan_keep(const struct vg_chan *c)
{
	size_t keep = c->lo + c->len;

	if (!c->taken)
		return c->lo;
	for (unsigned int i = 0; i < c->nr_readers; i++)
		if (*c->readers[i] < keep)
			keep = *c->readers[i];
	return keep > c->lo ? keep : c->lo;
}

/* The bytes before @keep (chan_keep()'s) go. */
static void chan_trim_to(struct vg_chan *c, size_t keep)
{
	if (keep <= c->lo)
		return;
	if (c->spill_fd >= 0) {
		spill_free(c, c->lo, keep);
		c->f->spilled -= keep - c->lo;
	} else {
		memmove(c->data, c->data + (keep - c->lo), c->lo + c->len - keep);
		c->f->moved += c->lo + c->len - keep;
		c->f->held -= keep - c->lo;
	}
	c->len -= keep - c->lo;
	c->lo = keep;
	/* caught up: back to memory */
	if (c->spill_fd >= 0 && !c->len) {
		close(c->spill_fd);
		c->spill_fd = -1;
	}
}

/* The bytes no reader needs any more go (all of them once its readers are gone). */
static void chan_trim(struct vg_chan *c)
{
	chan_trim_to(c, chan_keep(c));
}

/* Write all of @p at @off of @fd. 0, or -1 with errno. */
static int pwrite_all(int fd, const unsigned char *p, size_t n, size_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
		off += (size_t)w;
	}
	return 0;
}

static int spill_write(struct vg_chan *c, const unsigned char *p, size_t n)
{
	struct vg_feed *f = c->f;

	if (pwrite_all(c->spill_fd, p, n, c->lo + c->len)) {
		snprintf(f->err, sizeof(f->err), "the stream of %s: cannot hold it in TMPDIR: %s",
			 c->name, strerror(errno));
		return -1;
	}
	c->len += n;
	f->spilled += n;
	if (f->spilled > f->spilled_max)
		f->spilled_max = f->spilled;
	return 0;
}

/* The stream that holds the most memory to a file of its own (unlinked at once). 0, or -1. */
static int spill_largest(struct vg_feed *f)
{
	const char *tmp = getenv("TMPDIR");
	struct vg_chan *c = NULL;
	char path[4200];
	int fd;

	for (unsigned int i = 0; i < f->nr_chans; i++)
		if (f->chans[i]->spill_fd < 0 && f->chans[i]->fd < 0 &&
		    (!c || f->chans[i]->len > c->len))
			c = f->chans[i];
	if (!c || !c->len)
		return 0;
	snprintf(path, sizeof(path), "%s/pmusim-stream.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0 || unlink(path) || fcntl(fd, F_SETFD, FD_CLOEXEC) ||
	    pwrite_all(fd, c->data, c->len, c->lo)) {
		snprintf(f->err, sizeof(f->err), "the stream of %s: cannot hold it in TMPDIR: %s",
			 c->name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	c->spill_fd = fd;
	f->held -= c->len;
	f->spilled += c->len;
	if (f->spilled > f->spilled_max)
		f->spilled_max = f->spilled;
	f->spills++;
	free(c->data);
	c->data = NULL;
	c->cap = 0;
	return 0;
}

static int chan_append(struct vg_chan *c, const unsigned char *p, size_t n)
{
	if (c->f->discard)
		return 0;
	if (c->spill_fd < 0 && c->f->held + n > c->f->held_cap) {
		chan_trim(c);
		if (c->f->held + n > c->f->held_cap && spill_largest(c->f))
			return -1;
	}
	if (c->spill_fd >= 0)
		return spill_write(c, p, n);
	if (c->len + n > c->cap) {
		/*
		 * Full: what the readers are done with goes where moving what
		 * they still need down costs no more than that frees, else the
		 * buffer grows (to some twice what they need). A walk far behind
		 * the others keeps megabytes, which each append that filled the
		 * buffer moved again: for sort of 200,000 lines, 2.1 GB moved for
		 * a stream of 683 MB.
		 */
		size_t keep = chan_keep(c);

		if (c->lo + c->len - keep <= keep - c->lo)
			chan_trim_to(c, keep);
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

/*
 * Up to RING_TAKE of the bytes @c's ring has into the stream, the writer
 * woken if it waits for room. 0, or -1.
 */
static int ring_take(struct vg_chan *c, uint64_t *moved)
{
	struct vg_feed *f = c->f;
	uint32_t n, most = RING_TAKE;

	/*
	 * What the readers are past goes first: a take is up to 128 KiB, and
	 * the buffer would otherwise grow to hold a few, however the replay
	 * and the program happened to keep pace.
	 */
	if (vgs_ring_ready(c->ring))
		chan_trim(c);
	/* no further past the bound on memory than a frame would go (chan_append() spills) */
	if (c->spill_fd < 0) {
		uint64_t room = f->held < f->held_cap ? f->held_cap - f->held : 0;

		if (room < most)
			most = room > VGS_FRAME_MAX ? (uint32_t)room : VGS_FRAME_MAX;
	}
	while (most && (n = vgs_ring_ready(c->ring))) {
		const uint8_t *p;

		if (n > most)
			n = most;
		p = vgs_ring_at(c->ring, &n);
		most -= n;
		if (chan_append(c, p, n))
			return -1;
		if (!f->discard)
			f->bytes += n;
		*moved += n;
		if (vgs_ring_take(c->ring, n))
			syscall(SYS_futex, &c->ring->tail_seq, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
	if (c->ring_end && !vgs_ring_ready(c->ring)) {
		ring_unmap(c);
		c->ended = true;
	}
	return 0;
}

/*
 * No more bytes come to @c but what its ring holds (its END, its image's
 * execve, the pipe's end): it ends once they are taken, as pulls take
 * them (all at once, they would be up to a ring's worth held).
 */
static void chan_end(struct vg_chan *c)
{
	if (c->ring && vgs_ring_ready(c->ring)) {
		c->ring_end = true;
		return;
	}
	ring_unmap(c);
	c->ended = true;
}

/* A VGS_FRAME_RING: the file @name (@len bytes) in the ring directory, mapped and unlinked. */
static int ring_map(struct vg_chan *c, const unsigned char *name, size_t len)
{
	struct vg_feed *f = c->f;
	char path[4200];
	struct stat st;
	void *m = MAP_FAILED;
	int fd = -1;

	if (!f->ring_dir || c->ring || !len || len > 64 || memchr(name, '/', len) ||
	    memchr(name, '\0', len) || (name[0] == '.' && (len == 1 || (len == 2 && name[1] == '.')))) {
		snprintf(f->err, sizeof(f->err), "the stream pipe: %s: a ring frame out of place",
			 c->name);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%.*s", f->ring_dir, (int)len, (const char *)name);
	fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	/* (a shorter file would fault where the ring is read) */
	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size == (off_t)sizeof(struct vgs_ring))
		m = mmap(NULL, sizeof(struct vgs_ring), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	else if (fd >= 0)
		errno = EINVAL;
	if (m == MAP_FAILED) {
		snprintf(f->err, sizeof(f->err), "the stream pipe: %s: its ring %.*s: %s", c->name,
			 (int)len, (const char *)name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	unlink(path);
	close(fd);
	if (f->nr_rings == f->rings_cap) {
		unsigned int cap = f->rings_cap ? 2 * f->rings_cap : 8;
		struct vg_chan **v = realloc(f->ring_chans, cap * sizeof(*v));

		if (!v) {
			munmap(m, sizeof(struct vgs_ring));
			return -1;	/* (out of memory) */
		}
		f->ring_chans = v;
		f->rings_cap = cap;
	}
	c->ring = m;
	f->ring_chans[f->nr_rings++] = c;
	f->rings++;
	return 0;
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
			chan_end(c);
		snprintf(name, sizeof(name), "pipe:%u.%u", h->pid, seq);
		c = chan_new(f, h->pid, seq, name);
		if (!c)
			return -1;
	}
	if (!c || c->ring_end) {
		snprintf(f->err, sizeof(f->err), "the stream pipe: a frame of pid %u outside a stream",
			 h->pid);
		return -1;
	}
	if (h->flags & VGS_FRAME_RING)
		return ring_map(c, p, h->len);
	/* (its bytes would come before what the ring still holds) */
	if (c->ring && h->len) {
		snprintf(f->err, sizeof(f->err), "the stream pipe: %s: bytes in a frame beside its ring",
			 c->name);
		return -1;
	}
	if (chan_append(c, p, h->len))
		return -1;
	if (h->flags & VGS_FRAME_END)
		chan_end(c);
	return 0;
}

/* The new bytes of every ring into their streams, how many added to *@moved. 0, or -1. */
static int take_rings(struct vg_feed *f, uint64_t *moved)
{
	/* (downwards: a ring that ends is replaced in the list by the last, taken already) */
	for (unsigned int i = f->nr_rings; i-- > 0;)
		if (ring_take(f->ring_chans[i], moved))
			return -1;
	return 0;
}

/*
 * Read what the pipe has (with @wait, waiting for some) and file its
 * frames. 1, 0 if there was nothing (without @wait), or -1 at its end or
 * error.
 */
static int read_frames(struct vg_feed *f, bool wait)
{
	struct pollfd pfd = { .fd = f->fd, .events = POLLIN };
	size_t done = 0;
	ssize_t n;

	for (;;) {
		n = read(f->fd, f->in + f->in_len, FEED_READ);
		if (n >= 0 || (errno != EINTR && errno != EAGAIN))
			break;
		if (errno == EAGAIN && !wait)
			return 0;
		if (errno == EAGAIN)
			poll(&pfd, 1, -1);	/* (a signal: read again) */
	}
	if (n <= 0) {
		if (n < 0)
			snprintf(f->err, sizeof(f->err), "the stream pipe: %s", strerror(errno));
		else if (f->in_len)
			snprintf(f->err, sizeof(f->err), "the stream pipe: a frame cut short");
		f->eof = true;
		/* every writer is gone: what they put in their rings is all there is (pull() takes it) */
		for (unsigned int i = 0; i < f->nr_chans; i++)
			chan_end(f->chans[i]);
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
	return 1;
}

/*
 * Bytes for the readers: what the rings and the pipe have, waiting for
 * some if neither has any. 0, or -1 at the pipe's end or an error.
 */
static int pull(struct vg_feed *f)
{
	uint64_t moved = 0;
	int r;

	if (f->eof && (!f->nr_rings || f->err[0]))
		return -1;
	if (take_rings(f, &moved))
		goto nomem;
	if (f->eof)		/* every writer gone: what the rings still hold */
		return moved ? 0 : -1;
	if (f->nr_rings || moved) {
		r = read_frames(f, false);
		if (r || moved)
			return r < 0 && !moved ? -1 : 0;
		/* nothing anywhere: say so in every ring, look again, then sleep on the pipe */
		for (unsigned int i = 0; i < f->nr_rings; i++)
			vgs_ring_reader_waits(f->ring_chans[i]->ring);
		if (take_rings(f, &moved))
			goto nomem;
		if (moved)
			return 0;
	}
	return read_frames(f, true) < 0 ? -1 : 0;
nomem:
	if (!f->err[0])
		snprintf(f->err, sizeof(f->err), "pmusim: out of memory");
	f->eof = true;
	return -1;
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
			if (c->spill_fd < 0) {
				memcpy(buf, c->data + (off - c->lo), n);
				return (ssize_t)n;
			}
			/* (what the readers are done with freed now and then, not at each read) */
			if (off - c->lo >= (1u << 20))
				chan_trim(c);
			return c->spill_fd >= 0 ? pread(c->spill_fd, buf, n, (off_t)off) :
			       vg_chan_read(c, off, buf, n);
		}
		/* (the pipe's end takes what the rings still have: look again) */
		if (c->ended || (pull(c->f) && off >= c->lo + c->len))
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
		if (c->spill_fd >= 0) {
			close(c->spill_fd);
			c->spill_fd = -1;
			c->f->spilled -= c->len;
		} else {
			c->f->held -= c->len;
		}
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
	if (f->ring_dir) {
		/* the rings too, and those of processes still to come */
		f->discard = true;
		while (!pull(f))
			;
		/*
		 * After a bad frame (or no memory) the rings that frames named
		 * are beyond reach, and a writer blocked on one would wait for
		 * ever: the pipe closes now, each writer stops at EPIPE.
		 */
		if (f->err[0]) {
			close(f->fd);
			f->fd = -1;
		}
	}
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

uint64_t vg_feed_moved(const struct vg_feed *f)
{
	return f->moved;
}

uint64_t vg_feed_rings(const struct vg_feed *f)
{
	return f->rings;
}

void vg_feed_spill_stats(const struct vg_feed *f, uint64_t *spills, uint64_t *spilled_max)
{
	*spills = f->spills;
	*spilled_max = f->spilled_max;
}

const char *vg_feed_error(const struct vg_feed *f)
{
	return f->err[0] ? f->err : NULL;
}
