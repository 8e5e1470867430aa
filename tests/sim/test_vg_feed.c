// SPDX-License-Identifier: GPL-2.0-only
/*
 * The streams' feed (sim/vg_feed.c) on a real pipe, written here as the
 * tool writes it (vgtool/vgstream.h's frames): streams of two processes
 * interleaved frame by frame come apart whole; an execve's image (a
 * START of the same pid, ppid 0) is the next SEQ and ends the one before,
 * a fork's child (ppid set) is a new process; a reader reads each byte
 * once, the bytes every reader is past are freed (held stays bounded
 * while gigabytes could pass; a reader far behind costs few bytes moved
 * to free them), a stream's readers cloned with
 * vg_stream_clone() each keep theirs; a malformed frame is one line and
 * the end of every stream; vg_feed_close() drains a writer blocked on a
 * full pipe; past the bound on memory, a child far ahead of the stream
 * read is held in TMPDIR and read back whole. Rings (VGS_FRAME_RING):
 * megabytes through a ring of one, with frames of another process
 * between, the writer waiting for room and the reader for bytes; an
 * execve's image with a ring of its own; a pipe's end with no END; a
 * blocked ring writer drained by vg_feed_close(); a ring frame out of
 * place, or a ring file missing or short, is one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tests/test.h"
#include "sim/vg_feed.h"
#include "sim/vg_stream.h"

static void put_frame(int fd, uint32_t pid, uint16_t flags, const void *p, size_t len)
{
	unsigned char buf[VGS_FRAME_MAX];
	struct vgs_frame f = { .pid = pid, .len = (uint16_t)len, .flags = flags };

	assert_true(len <= VGS_FRAME_MAX - sizeof(f));
	memcpy(buf, &f, sizeof(f));
	memcpy(buf + sizeof(f), p, len);
	assert_int_equal(write(fd, buf, sizeof(f) + len), (ssize_t)(sizeof(f) + len));
}

/* A stream's header, as the tool writes it first. */
static void put_header(int fd, uint32_t pid, uint32_t ppid)
{
	struct vgs_file_header h = { .version = VGS_VERSION, .pid = pid, .ppid = ppid };

	memcpy(h.magic, VGS_MAGIC, 8);
	put_frame(fd, pid, VGS_FRAME_START, &h, sizeof(h));
}

/* All of a stream from @off, as one string. */
static void read_all(struct vg_chan *c, uint64_t off, char *out, size_t max)
{
	size_t n = 0;
	ssize_t got;

	while (n < max - 1 && (got = vg_chan_read(c, off + n, out + n, max - 1 - n)) > 0)
		n += (size_t)got;
	out[n] = '\0';
}

static void test_two_processes_and_an_exec(void **state)
{
	const size_t h = sizeof(struct vgs_file_header);
	struct vg_chan *prog, *child, *image;
	struct vg_feed *f;
	char buf[256];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	put_header(p[1], 10, 0);		/* the program */
	put_frame(p[1], 10, 0, "ab", 2);
	put_header(p[1], 11, 10);		/* its child */
	put_frame(p[1], 11, 0, "XY", 2);
	put_frame(p[1], 10, 0, "cd", 2);
	put_header(p[1], 11, 0);		/* the child's execve */
	put_frame(p[1], 11, VGS_FRAME_END, "new", 3);
	put_frame(p[1], 10, VGS_FRAME_END, "e", 1);
	close(p[1]);
	f = vg_feed_open_pipe(p[0]);
	assert_non_null(f);
	assert_false(vg_feed_began(f));
	prog = vg_feed_first(f, NULL);
	assert_non_null(prog);
	assert_true(vg_feed_began(f));
	assert_string_equal(vg_chan_name(prog), "pipe:10.0");
	/* (the child's streams come whole, the program's with them) */
	child = vg_feed_find(f, 11, 0);
	image = vg_feed_find(f, 11, 1);
	assert_non_null(child);
	assert_non_null(image);
	assert_string_equal(vg_chan_name(image), "pipe:11.1");
	/* each handed out once; what never came is NULL */
	assert_null(vg_feed_find(f, 11, 0));
	assert_null(vg_feed_find(f, 12, 0));
	read_all(prog, h, buf, sizeof(buf));
	assert_string_equal(buf, "abcde");
	read_all(child, h, buf, sizeof(buf));
	assert_string_equal(buf, "XY");
	read_all(image, h, buf, sizeof(buf));
	assert_string_equal(buf, "new");
	assert_null(vg_feed_error(f));
	vg_feed_free(f);
}

/* Exactly @n bytes of the stream from @off. */
static void read_n(struct vg_chan *c, uint64_t off, unsigned char *buf, size_t n)
{
	for (size_t done = 0; done < n;) {
		ssize_t got = vg_chan_read(c, off + done, buf + done, n - done);

		assert_true(got > 0);
		done += (size_t)got;
	}
}

struct writer {
	int fd;
	unsigned int frames;
};

/* A program's stream of @frames frames of 4000 bytes each, then its end. */
static void *write_stream(void *arg)
{
	struct writer *w = arg;
	unsigned char b[4000];

	put_header(w->fd, 10, 0);
	for (unsigned int i = 0; i < w->frames; i++) {
		memset(b, 'a' + (int)(i % 26), sizeof(b));
		put_frame(w->fd, 10, 0, b, sizeof(b));
	}
	put_frame(w->fd, 10, VGS_FRAME_END, "", 0);
	close(w->fd);
	return NULL;
}

/*
 * write_stream()'s 10,000 frames of 4000 bytes through a pipe, read by two
 * readers of the stream as the replay's windows would, each in turn, the
 * second @lag frames behind; each gets every byte. The feed's figures:
 * the bytes read, the most held and the bytes moved.
 */
static void read_behind(unsigned int lag, uint64_t *bytes, uint64_t *held, uint64_t *moved)
{
	struct writer w = { .frames = 10000 };
	struct vg_stream a, b;
	struct vg_feed *f;
	struct vg_chan *c;
	pthread_t t;
	char err[256];
	int p[2];

	assert_int_equal(pipe(p), 0);
	w.fd = p[1];
	assert_int_equal(pthread_create(&t, NULL, write_stream, &w), 0);
	f = vg_feed_open_pipe(p[0]);
	c = vg_feed_first(f, NULL);
	assert_non_null(c);
	assert_int_equal(vg_stream_open_chan(&a, c, err, sizeof(err)), 0);
	assert_int_equal(vg_stream_clone(&b, &a), 0);
	/* each needs the frames from the first on (not what its window took at the open) */
	a.chan_pos = b.chan_pos = sizeof(struct vgs_file_header);
	for (unsigned int i = 0; i < w.frames + lag; i++) {
		for (struct vg_stream *s = &a; s; s = s == &a ? &b : NULL) {
			unsigned int frame = s == &a ? i : i - lag;
			uint64_t off = sizeof(struct vgs_file_header) + 4000ull * frame;
			unsigned char x[4000];

			if (frame >= w.frames)		/* (b not begun, or a at the end) */
				continue;
			read_n(c, off, x, sizeof(x));
			assert_int_equal(x[0], 'a' + (int)(frame % 26));
			assert_int_equal(x[3999], 'a' + (int)(frame % 26));
			/* as a window that moved on: the reader needs nothing before */
			s->chan_pos = off + sizeof(x);
		}
	}
	vg_stream_close(&a);
	vg_stream_close(&b);
	pthread_join(t, NULL);
	vg_feed_stats(f, bytes, held);
	*moved = vg_feed_moved(f);
	vg_feed_free(f);
	assert_true(*bytes > 40000000);
}

/* 40 MB while two readers walk together: what is held never grows past one read. */
static void test_bounded_while_read(void **state)
{
	uint64_t bytes, held, moved;

	(void)state;
	read_behind(0, &bytes, &held, &moved);
	/* one pull (256 KiB) and the buffer it grew into, not 40 MB */
	assert_true(held <= 1024 * 1024);
}

/*
 * 40 MB while one reader stays 10 MB behind the other: freeing what both
 * have read moves down what the lagging one still needs, which is not
 * done for a few megabytes freed at a time (the buffer grows instead), so
 * the bytes moved stay under half of those read: 10 MB here, where
 * moving at each fill of the buffer moved 40 MB (and for sort of 200,000
 * lines 2.1 GB, for a stream of 683 MB).
 */
static void test_lagging_reader_moves_little(void **state)
{
	uint64_t bytes, held, moved;

	(void)state;
	read_behind(2500, &bytes, &held, &moved);
	if (moved > bytes / 2)
		fail_msg("%llu bytes moved for %llu read", (unsigned long long)moved,
			 (unsigned long long)bytes);
	/* within the bound on memory: nothing went to a file */
	assert_true(held <= 32u << 20);
}

/* A child's 8 MB before its parent's first bytes: the child's go to a file, not memory. */
static void *write_child_first(void *arg)
{
	struct writer *w = arg;
	unsigned char b[4000];

	put_header(w->fd, 10, 0);
	put_header(w->fd, 11, 10);
	for (unsigned int i = 0; i < w->frames; i++) {
		memset(b, 'a' + (int)(i % 26), sizeof(b));
		put_frame(w->fd, 11, 0, b, sizeof(b));
	}
	put_frame(w->fd, 11, VGS_FRAME_END, "", 0);
	put_frame(w->fd, 10, VGS_FRAME_END, "parent", 6);
	close(w->fd);
	return NULL;
}

static void test_spilled_past_the_bound(void **state)
{
	const size_t h = sizeof(struct vgs_file_header);
	struct writer w = { .frames = 2000 };
	uint64_t bytes, held, spills, spilled;
	struct vg_chan *parent, *child;
	char tmp[] = "/tmp/pmusim-feed.XXXXXX", err[256], buf[16];
	struct vg_stream r;
	struct vg_feed *f;
	pthread_t t;
	int p[2];

	(void)state;
	assert_non_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);
	assert_int_equal(pipe(p), 0);
	w.fd = p[1];
	assert_int_equal(pthread_create(&t, NULL, write_child_first, &w), 0);
	f = vg_feed_open_pipe(p[0]);
	vg_feed_set_held_max(f, 64 * 1024);
	parent = vg_feed_first(f, NULL);
	assert_non_null(parent);
	/* the parent's bytes come after all of the child's */
	read_all(parent, h, buf, sizeof(buf));
	assert_string_equal(buf, "parent");
	vg_feed_spill_stats(f, &spills, &spilled);
	assert_true(spills >= 1);
	assert_true(spilled >= 7000000);
	child = vg_feed_find(f, 11, 0);
	assert_non_null(child);
	assert_int_equal(vg_stream_open_chan(&r, child, err, sizeof(err)), 0);
	for (unsigned int i = 0; i < w.frames; i++) {
		uint64_t off = h + 4000ull * i;
		unsigned char x[4000];

		read_n(child, off, x, sizeof(x));
		assert_int_equal(x[0], 'a' + (int)(i % 26));
		assert_int_equal(x[3999], 'a' + (int)(i % 26));
		r.chan_pos = off + sizeof(x);
	}
	vg_stream_close(&r);
	pthread_join(t, NULL);
	vg_feed_stats(f, &bytes, &held);
	assert_true(held <= 64 * 1024);
	/* unlinked as made: nothing in TMPDIR even before the feed goes */
	assert_int_equal(rmdir(tmp), 0);
	unsetenv("TMPDIR");
	vg_feed_free(f);
}

static void test_malformed(void **state)
{
	unsigned char junk[16] = "\x01\x00\x00\x00\xff\xff\x00\x00";
	struct vg_chan *c;
	struct vg_feed *f;
	char buf[16];
	int p[2];

	(void)state;
	/* a frame longer than a frame can be */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], junk, sizeof(junk)), (ssize_t)sizeof(junk));
	close(p[1]);
	f = vg_feed_open_pipe(p[0]);
	assert_null(vg_feed_first(f, NULL));
	assert_string_equal(vg_feed_error(f), "the stream pipe: a frame of 65535 bytes");
	vg_feed_free(f);
	/* a frame of a pid no START began */
	assert_int_equal(pipe(p), 0);
	put_frame(p[1], 5, 0, "x", 1);
	close(p[1]);
	f = vg_feed_open_pipe(p[0]);
	assert_null(vg_feed_first(f, NULL));
	assert_string_equal(vg_feed_error(f), "the stream pipe: a frame of pid 5 outside a stream");
	vg_feed_free(f);
	/* a frame cut by the pipe's end: the stream ends at what came whole */
	assert_int_equal(pipe(p), 0);
	put_header(p[1], 10, 0);
	assert_int_equal(write(p[1], junk, 4), 4);
	close(p[1]);
	f = vg_feed_open_pipe(p[0]);
	c = vg_feed_first(f, NULL);
	assert_non_null(c);
	assert_int_equal(vg_chan_read(c, sizeof(struct vgs_file_header), buf, 1), 0);
	assert_string_equal(vg_feed_error(f), "the stream pipe: a frame cut short");
	vg_feed_free(f);
}

/* vg_feed_close() reads a blocked writer's rest: its write returns, whole. */
static void test_close_drains(void **state)
{
	struct writer w = { .frames = 1000 };
	struct vg_feed *f;
	pthread_t t;
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	w.fd = p[1];
	assert_int_equal(pthread_create(&t, NULL, write_stream, &w), 0);
	f = vg_feed_open_pipe(p[0]);
	assert_non_null(vg_feed_first(f, NULL));
	vg_feed_close(f);
	pthread_join(t, NULL);		/* (it never got EPIPE: every put_frame asserts) */
	vg_feed_close(f);
	vg_feed_close(NULL);
	vg_feed_free(f);
}

/* ---- rings: written here as the tool writes them (vgtool/pmusim_vg.c) ---- */

struct ring_writer {
	int fd;				/* the pipe */
	uint32_t pid, ppid;
	const char *dir;		/* the ring directory */
	const char *name;		/* the ring's file there, NULL: none */
	size_t bytes;			/* of the pattern, after the header */
	bool end;			/* END last (else the pipe's end) */
	bool close_fd;			/* the pipe closed after */
	struct vgs_ring *r;
};

static unsigned char pattern_byte(uint32_t pid, size_t i)
{
	return (unsigned char)(i * 7 + i / 4093 + pid);
}

/* The ring's file made and announced, as ring_open() does. */
static struct vgs_ring *ring_make(int fd, uint32_t pid, const char *dir, const char *name)
{
	char path[512];
	struct vgs_ring *r;
	int rfd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rfd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(rfd >= 0);
	assert_int_equal(ftruncate(rfd, sizeof(*r)), 0);
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED, rfd, 0);
	assert_true(r != MAP_FAILED);
	close(rfd);
	put_frame(fd, pid, VGS_FRAME_RING, name, strlen(name));
	return r;
}

/* @n bytes into the ring, waiting for room, as ring_write() does. */
static void ring_put_all(struct vgs_ring *r, int fd, uint32_t pid, const unsigned char *p, size_t n)
{
	while (n) {
		uint32_t room = vgs_ring_room(r);

		if (!room) {
			struct timespec ts = { .tv_nsec = 200 * 1000 * 1000 };
			uint32_t seq = vgs_ring_writer_waits(r);

			if (!vgs_ring_room(r))
				syscall(SYS_futex, &r->tail_seq, FUTEX_WAIT, seq, &ts, NULL, 0);
			continue;
		}
		if (room > n)
			room = n;
		if (vgs_ring_put(r, p, room))
			put_frame(fd, pid, 0, "", 0);
		p += room;
		n -= room;
	}
}

/* A process's stream: header, then the pattern through its ring (or in frames), then its end. */
static void *write_ring_stream(void *arg)
{
	struct ring_writer *w = arg;
	unsigned char b[3000];

	put_header(w->fd, w->pid, w->ppid);
	if (w->name)
		w->r = ring_make(w->fd, w->pid, w->dir, w->name);
	for (size_t done = 0; done < w->bytes;) {
		size_t n = w->bytes - done < sizeof(b) ? w->bytes - done : sizeof(b);

		for (size_t i = 0; i < n; i++)
			b[i] = pattern_byte(w->pid, done + i);
		if (w->r)
			ring_put_all(w->r, w->fd, w->pid, b, n);
		else
			put_frame(w->fd, w->pid, 0, b, n);
		done += n;
	}
	if (w->end)
		put_frame(w->fd, w->pid, VGS_FRAME_END, "", 0);
	if (w->r)
		munmap(w->r, sizeof(*w->r));
	if (w->close_fd)
		close(w->fd);
	return NULL;
}

/* All of @c's pattern, read in pieces of odd sizes, checked byte for byte; then its end. */
static void check_pattern(struct vg_chan *c, uint32_t pid, size_t bytes)
{
	const size_t h = sizeof(struct vgs_file_header);
	unsigned char buf[5003];
	size_t done = 0, pos = h;
	ssize_t got;

	/* a reader: what it is past is freed */
	assert_int_equal(vg_chan_add_reader(c, &pos), 0);
	while ((got = vg_chan_read(c, h + done, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < got; i++)
			if (buf[i] != pattern_byte(pid, done + (size_t)i))
				fail_msg("pid %u byte %zu", pid, done + (size_t)i);
		done += (size_t)got;
		pos = h + done;
	}
	vg_chan_del_reader(c, &pos);
	assert_int_equal(got, 0);
	assert_int_equal(done, bytes);
}

static struct vg_feed *ring_feed(int *p, char *dir)
{
	struct vg_feed *f;

	assert_int_equal(pipe(p), 0);
	assert_non_null(mkdtemp(dir));
	f = vg_feed_open_pipe(p[0]);
	assert_non_null(f);
	vg_feed_set_ring_dir(f, dir);
	return f;
}

/*
 * 24 MB through a 1 MiB ring while a child writes frames into the same
 * pipe: both come whole and in order; the ring's file is gone as soon as
 * it is mapped; what is held stays bounded.
 */
static void test_ring_and_frames(void **state)
{
	char dir[] = "/tmp/pmusim-ring.XXXXXX";
	struct ring_writer parent = { .pid = 10, .name = "vg.10.0", .bytes = 24u << 20, .end = true };
	struct ring_writer child = { .pid = 11, .ppid = 10, .bytes = 3u << 20, .end = true };
	struct vg_chan *a, *b;
	uint64_t bytes, held;
	struct vg_feed *f;
	pthread_t t, u;
	int p[2];

	(void)state;
	f = ring_feed(p, dir);
	parent.fd = child.fd = p[1];
	parent.dir = dir;
	assert_int_equal(pthread_create(&t, NULL, write_ring_stream, &parent), 0);
	a = vg_feed_first(f, NULL);
	assert_non_null(a);
	assert_int_equal(pthread_create(&u, NULL, write_ring_stream, &child), 0);
	check_pattern(a, 10, parent.bytes);
	pthread_join(t, NULL);
	b = vg_feed_find(f, 11, 0);
	assert_non_null(b);
	check_pattern(b, 11, child.bytes);
	pthread_join(u, NULL);
	close(p[1]);
	assert_null(vg_feed_error(f));
	vg_feed_stats(f, &bytes, &held);
	assert_true(bytes >= parent.bytes + child.bytes);
	assert_true(held <= 8u << 20);
	assert_int_equal(rmdir(dir), 0);	/* (empty: the ring was unlinked) */
	vg_feed_free(f);
}

/* An execve's image (START, ppid 0) with a ring of its own; the last image ends with the pipe. */
static void test_ring_exec_and_pipe_end(void **state)
{
	char dir[] = "/tmp/pmusim-ring.XXXXXX";
	/* the first image's bytes all in its ring before the second begins; no END for either */
	struct ring_writer first = { .pid = 10, .name = "vg.10.0", .bytes = VGS_RING_SIZE - 100 };
	struct ring_writer second = { .pid = 10, .name = "vg.10.1", .bytes = 5u << 20,
				      .close_fd = true };
	struct vg_chan *a, *b;
	struct vg_feed *f;
	pthread_t t;
	int p[2];

	(void)state;
	f = ring_feed(p, dir);
	first.fd = second.fd = p[1];
	first.dir = second.dir = dir;
	write_ring_stream(&first);
	a = vg_feed_first(f, NULL);
	assert_non_null(a);
	assert_int_equal(pthread_create(&t, NULL, write_ring_stream, &second), 0);
	check_pattern(a, 10, first.bytes);
	b = vg_feed_find(f, 10, 1);
	assert_non_null(b);
	check_pattern(b, 10, second.bytes);
	pthread_join(t, NULL);
	assert_null(vg_feed_error(f));
	assert_int_equal(rmdir(dir), 0);
	vg_feed_free(f);
}

/* vg_feed_close() takes what a writer blocked on a full ring still puts in. */
static void test_ring_close_drains(void **state)
{
	char dir[] = "/tmp/pmusim-ring.XXXXXX";
	struct ring_writer w = { .pid = 10, .name = "vg.10.0", .bytes = 6u << 20, .end = true,
				 .close_fd = true };
	struct vg_feed *f;
	pthread_t t;
	int p[2];

	(void)state;
	f = ring_feed(p, dir);
	w.fd = p[1];
	w.dir = dir;
	assert_int_equal(pthread_create(&t, NULL, write_ring_stream, &w), 0);
	assert_non_null(vg_feed_first(f, NULL));
	vg_feed_close(f);	/* returns at the pipe's end: the writer put all 6 MB in */
	pthread_join(t, NULL);
	assert_null(vg_feed_error(f));
	vg_feed_free(f);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * A ring frame's file: @how 0 missing, 1 short (100 bytes), 2 whole; then
 * a frame of one byte; the one line it gives.
 */
static void ring_bad(const char *name, int how, bool with_dir, const char *want)
{
	char dir[] = "/tmp/pmusim-ring.XXXXXX", path[512], buf[4];
	struct vg_chan *c;
	struct vg_feed *f;
	int p[2];

	assert_int_equal(pipe(p), 0);
	assert_non_null(mkdtemp(dir));
	f = vg_feed_open_pipe(p[0]);
	if (with_dir)
		vg_feed_set_ring_dir(f, dir);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (how) {
		int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);

		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, how == 1 ? 100 : (off_t)sizeof(struct vgs_ring)), 0);
		close(fd);
	}
	put_header(p[1], 10, 0);
	put_frame(p[1], 10, VGS_FRAME_RING, name, strlen(name));
	put_frame(p[1], 10, 0, "x", 1);
	close(p[1]);
	c = vg_feed_first(f, NULL);
	if (c)
		assert_int_equal(vg_chan_read(c, sizeof(struct vgs_file_header), buf, 1), 0);
	assert_non_null(vg_feed_error(f));
	if (strcmp(vg_feed_error(f), want))
		fail_msg("%s: \"%s\", not \"%s\"", name, vg_feed_error(f), want);
	vg_feed_free(f);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static void test_ring_malformed(void **state)
{
	(void)state;
	ring_bad("vg.10.9", 0, true,
		 "the stream pipe: pipe:10.0: its ring vg.10.9: No such file or directory");
	ring_bad("vg.10.0", 1, true, "the stream pipe: pipe:10.0: its ring vg.10.0: Invalid argument");
	ring_bad("..", 0, true, "the stream pipe: pipe:10.0: a ring frame out of place");
	ring_bad("vg.10.0", 1, false, "the stream pipe: pipe:10.0: a ring frame out of place");
	/* its bytes would come before the ring's */
	ring_bad("vg.10.0", 2, true, "the stream pipe: pipe:10.0: bytes in a frame beside its ring");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_processes_and_an_exec),
		cmocka_unit_test(test_bounded_while_read),
		cmocka_unit_test(test_lagging_reader_moves_little),
		cmocka_unit_test(test_spilled_past_the_bound),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_close_drains),
		cmocka_unit_test(test_ring_and_frames),
		cmocka_unit_test(test_ring_exec_and_pipe_end),
		cmocka_unit_test(test_ring_close_drains),
		cmocka_unit_test(test_ring_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
