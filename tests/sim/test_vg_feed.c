// SPDX-License-Identifier: GPL-2.0-only
/*
 * The streams' feed (sim/vg_feed.c) on a real pipe, written here as the
 * tool writes it (vgtool/vgstream.h's frames): streams of two processes
 * interleaved frame by frame come apart whole; an execve's image (a
 * START of the same pid, ppid 0) is the next SEQ and ends the one before,
 * a fork's child (ppid set) is a new process; a reader reads each byte
 * once, the bytes every reader is past are freed (held stays bounded
 * while gigabytes could pass), a stream's readers cloned with
 * vg_stream_clone() each keep theirs; a malformed frame is one line and
 * the end of every stream; vg_feed_close() drains a writer blocked on a
 * full pipe; past the bound on memory, a child far ahead of the stream
 * read is held in TMPDIR and read back whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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
 * 40 MB through a pipe while two readers of the stream walk it: what is
 * held never grows past what lies between them and one read; each gets
 * every byte.
 */
static void test_bounded_while_read(void **state)
{
	struct writer w = { .frames = 10000 };
	uint64_t bytes, held;
	struct vg_stream a, b;
	struct vg_feed *f;
	struct vg_chan *c;
	pthread_t t;
	char err[256];
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	w.fd = p[1];
	assert_int_equal(pthread_create(&t, NULL, write_stream, &w), 0);
	f = vg_feed_open_pipe(p[0]);
	c = vg_feed_first(f, NULL);
	assert_non_null(c);
	assert_int_equal(vg_stream_open_chan(&a, c, err, sizeof(err)), 0);
	assert_int_equal(vg_stream_clone(&b, &a), 0);
	/* the frames' bytes, read as the replay's windows would, each reader in turn */
	for (unsigned int i = 0; i < w.frames; i++) {
		uint64_t off = sizeof(struct vgs_file_header) + 4000ull * i;

		for (struct vg_stream *s = &a; s; s = s == &a ? &b : NULL) {
			unsigned char x[4000];

			read_n(c, off, x, sizeof(x));
			assert_int_equal(x[0], 'a' + (int)(i % 26));
			assert_int_equal(x[3999], 'a' + (int)(i % 26));
			/* as a window that moved on: the reader needs nothing before */
			s->chan_pos = off + sizeof(x);
		}
	}
	vg_stream_close(&a);
	vg_stream_close(&b);
	pthread_join(t, NULL);
	vg_feed_stats(f, &bytes, &held);
	assert_true(bytes > 40000000);
	/* one pull (256 KiB) and the buffer it grew into, not 40 MB */
	assert_true(held <= 1024 * 1024);
	vg_feed_free(f);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_processes_and_an_exec),
		cmocka_unit_test(test_bounded_while_read),
		cmocka_unit_test(test_spilled_past_the_bound),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_close_drains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
