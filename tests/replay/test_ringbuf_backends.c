// SPDX-License-Identifier: GPL-2.0-only
/*
 * The `pmusim ringbuf` backends (replay/ringbuf_backend.h) called
 * directly, on what the command never asks of them but their contract
 * covers: a record size no event was opened for, a buffer without data
 * pages to pause, a buffer too large to allocate, allocation failure,
 * running out of file descriptors. Each failure returns 1 (or, for the
 * host, RINGBUF_SKIP) with one line on stderr, and close() then frees
 * what open() had built. Also the kernel backend past its 1024 pages of
 * fresh-fault touches, where it must recycle them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "tests/test.h"
#include "core/kernel.h"
#include "replay/ringbuf_backend.h"

/* ---- stderr, captured --------------------------------------------------- */

static FILE *capture_file;
static int saved_stderr = -1;

static void capture_begin(void)
{
	fflush(stderr);
	capture_file = tmpfile();
	assert_non_null(capture_file);
	saved_stderr = dup(STDERR_FILENO);
	assert_true(saved_stderr >= 0);
	assert_true(dup2(fileno(capture_file), STDERR_FILENO) >= 0);
}

/* What was written to stderr since capture_begin(), in @buf. */
static const char *capture_end(char *buf, size_t size)
{
	size_t n;

	fflush(stderr);
	assert_true(dup2(saved_stderr, STDERR_FILENO) >= 0);
	close(saved_stderr);
	saved_stderr = -1;
	rewind(capture_file);
	n = fread(buf, 1, size - 1, capture_file);
	buf[n] = '\0';
	fclose(capture_file);
	capture_file = NULL;
	return buf;
}

static unsigned int lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* How many descriptors are open, and the highest of them. */
static unsigned int open_fds(int *highest)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;
	struct dirent *e;

	assert_non_null(d);
	if (highest)
		*highest = -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		if (highest && atoi(e->d_name) > *highest)
			*highest = atoi(e->d_name);
	}
	closedir(d);
	return n - 1;	/* less the directory being read */
}

/* ---- opening a backend, or skipping where the host cannot ------------- */

static const struct ringbuf_config one_page = { .nr_pages = 1 };

/* open() that must succeed; skips the test when the host cannot run @b. */
static void *open_or_skip(const struct ringbuf_backend *b, const struct ringbuf_config *cfg,
			  const unsigned int *sizes, size_t nr_sizes)
{
	char err[512];
	void *priv = NULL;
	int ret;

	capture_begin();
	ret = b->open(&priv, cfg, sizes, nr_sizes);
	capture_end(err, sizeof(err));
	if (ret == RINGBUF_SKIP) {
		b->close(priv);
		/* the backend's own line is the reason: print it as ours */
		err[strcspn(err, "\n")] = '\0';
		pmusim_skip("%s backend: %s", b->name, err);
	}
	if (ret)
		fail_msg("%s: open failed: %s", b->name, err);
	return priv;
}

/* ---- the tests ---------------------------------------------------------- */

static void write_of_a_size_never_opened_fails(void **state)
{
	const struct ringbuf_backend *b = *state;
	static const unsigned int sizes[] = { 16, 24 };
	char err[512];
	void *priv = open_or_skip(b, &one_page, sizes, 2);
	int ret;

	capture_begin();
	ret = b->write(priv, 40, 1);
	capture_end(err, sizeof(err));
	assert_int_equal(ret, 1);
	assert_string_equal(err, "pmusim ringbuf: no event for 40-byte records\n");
	/* nothing was written: the sizes that were opened still work */
	assert_int_equal(b->user_page(priv)->data_head, 0);
	assert_int_equal(b->write(priv, 24, 1), 0);
	assert_int_equal(b->user_page(priv)->data_head, 24);
	b->close(priv);
}

/* PERF_EVENT_IOC_PAUSE_OUTPUT refuses a buffer with no data pages (EINVAL). */
static void pause_without_data_pages_is_refused(void **state)
{
	const struct ringbuf_backend *b = *state;
	static const unsigned int sizes[] = { 16 };
	const struct ringbuf_config no_pages = { .nr_pages = 0 };
	char err[512];
	void *priv = open_or_skip(b, &no_pages, sizes, 1);
	int ret;

	capture_begin();
	ret = b->pause(priv, true);
	capture_end(err, sizeof(err));
	assert_int_equal(ret, 1);
	assert_string_equal(err, "pmusim ringbuf: PERF_EVENT_IOC_PAUSE_OUTPUT: Invalid argument\n");
	b->close(priv);

	/* with a data page the same call is accepted, both ways */
	priv = open_or_skip(b, &one_page, sizes, 1);
	assert_int_equal(b->pause(priv, true), 0);
	assert_int_equal(b->pause(priv, false), 0);
	b->close(priv);
}

/*
 * 2^20 data pages: the kernel's rb_alloc() refuses the page array (more
 * than its MAX_PAGE_ORDER allocation), and so does core/'s copy of it.
 */
static void a_buffer_too_large_fails_to_open(void **state)
{
	const struct ringbuf_backend *b = *state;
	static const unsigned int sizes[] = { 16 };
	const struct ringbuf_config huge = { .nr_pages = 1u << 20 };
	char err[512];
	void *priv = NULL;
	unsigned int fds = open_fds(NULL);
	int ret;

	capture_begin();
	ret = b->open(&priv, &huge, sizes, 1);
	capture_end(err, sizeof(err));
	/* the host kernel may refuse to lock that much first: a skip */
	if (ret == RINGBUF_SKIP)
		assert_non_null(strstr(err, "not permitted"));
	else
		assert_int_equal(ret, 1);
	assert_int_equal(lines(err), 1);
	assert_non_null(strstr(err, "pmusim ringbuf: "));
	b->close(priv);
	assert_int_equal(open_fds(NULL), fds);
}

/*
 * An open() that could not allocate its own state leaves *priv NULL, and
 * the command closes whatever open() left: close(NULL) does nothing (no
 * descriptor closed, nothing freed: the sanitizers would see a bad free).
 */
static void close_after_an_open_that_allocated_nothing(void **state)
{
	const struct ringbuf_backend *b = *state;
	unsigned int fds = open_fds(NULL);

	b->close(NULL);
	assert_int_equal(open_fds(NULL), fds);
}

/*
 * The model backend allocates what the kernel would kzalloc() through
 * core/'s allocator: every allocation in turn fails, and each time open()
 * says so in one line and close() frees the rest (the sanitizer builds
 * find a leak).
 */
static void model_open_survives_each_allocation_failing(void **state)
{
	static const unsigned int sizes[] = { 16, 40, 64 };
	unsigned int failed = 0;
	char err[512];

	(void)state;
	for (long n = 0;; n++) {
		void *priv = NULL;
		int ret;

		pmusim_alloc_fail_after(n);
		capture_begin();
		ret = ringbuf_model_backend.open(&priv, &one_page, sizes, 3);
		capture_end(err, sizeof(err));
		pmusim_alloc_fail_after(-1);
		if (!ret) {
			assert_string_equal(err, "");
			/* the buffer that finally opened works */
			assert_int_equal(ringbuf_model_backend.write(priv, 64, 2), 0);
			assert_int_equal(ringbuf_model_backend.user_page(priv)->data_head, 128);
			ringbuf_model_backend.close(priv);
			break;
		}
		assert_int_equal(ret, 1);
		assert_string_equal(err, "pmusim ringbuf: out of memory for the model buffer\n");
		ringbuf_model_backend.close(priv);
		failed++;
		assert_true(n < 100);
	}
	/* the state, the events, the sizes, the buffer and its pages, the stack */
	assert_int_equal(failed, 6);
}

/*
 * One event (one descriptor) per record size: with the descriptors used
 * up, perf_event_open() fails with EMFILE, which is a failure, not the
 * host refusing perf. close() closes the ones already opened.
 */
static void kernel_open_out_of_descriptors_fails(void **state)
{
	static const unsigned int sizes[] = { 16, 24, 32, 40, 48, 56, 64, 72 };
	unsigned int fds;
	int highest, *fillers;
	size_t nr_fillers = 0;
	struct rlimit saved, low;
	char err[512];
	void *priv;
	int ret;

	(void)state;
	/* a host without perf skips here */
	priv = open_or_skip(&ringbuf_kernel_backend, &one_page, sizes, 1);
	ringbuf_kernel_backend.close(priv);

	fds = open_fds(NULL);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	priv = NULL;
	capture_begin();
	/*
	 * Room for four more descriptors: the holes below the highest one
	 * in use (inherited descriptors leave some) are filled first.
	 */
	open_fds(&highest);
	fillers = calloc((size_t)highest + 1, sizeof(*fillers));
	assert_non_null(fillers);
	for (;;) {
		int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

		assert_true(fd >= 0);
		if (fd > highest) {
			close(fd);
			break;
		}
		fillers[nr_fillers++] = fd;
	}
	low = saved;
	low.rlim_cur = (rlim_t)highest + 1 + 4;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	ret = ringbuf_kernel_backend.open(&priv, &one_page, sizes, 8);
	ringbuf_kernel_backend.close(priv);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	while (nr_fillers)
		close(fillers[--nr_fillers]);
	free(fillers);
	capture_end(err, sizeof(err));

	assert_int_equal(ret, 1);
	assert_string_equal(err, "pmusim ringbuf: perf_event_open failed: Too many open files\n");
	assert_int_equal(open_fds(NULL), fds);
}

/*
 * The kernel backend writes a record by touching a fresh page: after 1024
 * touches it makes its pages fresh again. 1500 records must be 1500
 * records, not 1024.
 */
static void kernel_records_past_the_touch_region(void **state)
{
	static const unsigned int sizes[] = { 16 };
	const struct ringbuf_config cfg = { .nr_pages = 8 };	/* 2048 records of 16 bytes */
	void *priv;

	(void)state;
	priv = open_or_skip(&ringbuf_kernel_backend, &cfg, sizes, 1);
	assert_int_equal(ringbuf_kernel_backend.write(priv, 16, 1000), 0);
	assert_int_equal(ringbuf_kernel_backend.write(priv, 16, 500), 0);
	assert_int_equal(ringbuf_kernel_backend.user_page(priv)->data_head, 1500 * 16);
	ringbuf_kernel_backend.close(priv);
}

#define EACH_BACKEND(test)							\
	{ #test "/model", test, NULL, NULL, (void *)&ringbuf_model_backend },	\
	{ #test "/kernel", test, NULL, NULL, (void *)&ringbuf_kernel_backend },	\
	{ #test "/ksrc", test, NULL, NULL, (void *)&ringbuf_ksrc_backend }

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_BACKEND(write_of_a_size_never_opened_fails),
		EACH_BACKEND(pause_without_data_pages_is_refused),
		EACH_BACKEND(a_buffer_too_large_fails_to_open),
		EACH_BACKEND(close_after_an_open_that_allocated_nothing),
		cmocka_unit_test(model_open_survives_each_allocation_failing),
		cmocka_unit_test(kernel_open_out_of_descriptors_fails),
		cmocka_unit_test(kernel_records_past_the_touch_region),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
