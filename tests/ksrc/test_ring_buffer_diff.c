// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own kernel/events/ring_buffer.c (the tree this build was
 * made with, ksrc/) against core/'s ring buffer, through the differential
 * oracle (ksrc/oracle/ring_buffer_diff.h), on:
 *   - the boundary inputs: records that fit exactly and that miss by one
 *     byte, with and without a LOST record pending, head anywhere, both
 *     directions, one and two pages, with and without sample_id_all;
 *   - every fuzz_ringbuf corpus input and saved crash;
 *   - KSRC_DIFF_RUNS (default 300) random schedules of a fixed seed
 *     (KSRC_DIFF_SEED), nested writers at random points included.
 * Without a tree every test is skipped with the reason.
 */
#include <dirent.h>
#include <stdlib.h>

#include "tests/test.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_RING_BUFFER
#include "ksrc/oracle/ring_buffer_diff.h"
#endif

#define NO_TREE KSRC_NO_UNIT("ring_buffer")

#ifdef KSRC_UNIT_RING_BUFFER
static char why[512];
static char trace[1 << 15];

static void agree(const uint8_t *in, size_t len, const char *what)
{
	if (ksrc_ringbuf_diff(in, len, why, sizeof(why), trace, sizeof(trace))) {
		fprintf(stderr, "%s", trace);
		fail_msg("%s: %s", what, why);
	}
}

/*
 * First in the process, before anything has run core/: the exact fit of a
 * record behind a pending LOST with its sample_id trailer, backward. The
 * oracle once sized that LOST from core/'s event, which is set up only
 * after the kernel's run: 0 bytes of trailer on the kernel's side.
 */
static void exact_fit_behind_a_lost_first(void **state)
{
	static const uint8_t in[] = {
		0x29, 0x00,		/* 2 pages, backward, sample_id_all */
		0x04, 0x00,		/* pause */
		0x00, 0x00,		/* a 16-byte record, lost */
		0x05, 0x00,		/* resume */
		0x06, 0x85,		/* exactly room for LOST + 56 bytes: write them */
		0x03, 0x00, 0x00, 0x01, 0x03, 0x00,
	};

	(void)state;
	agree(in, sizeof(in), "exact fit behind a LOST, first in the process");
}

static void boundaries_agree(void **state)
{
	uint8_t in[KSRC_DIFF_INPUT_MAX];
	char what[64];

	(void)state;
	for (size_t i = 0; i < ksrc_ringbuf_boundary_count(); i++) {
		size_t len = ksrc_ringbuf_boundary_input(i, in);

		snprintf(what, sizeof(what), "boundary input %zu", i);
		agree(in, len, what);
	}
	printf("# %zu boundary inputs agree (kernel %s)\n", ksrc_ringbuf_boundary_count(),
	       KSRC_VERSION);
}

static size_t run_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	size_t n = 0;

	assert_non_null(dp);
	while ((de = readdir(dp))) {
		char path[4096], what[4200];
		static uint8_t in[1 << 16];
		size_t len;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		assert_non_null(f);
		len = fread(in, 1, sizeof(in), f);
		fclose(f);
		snprintf(what, sizeof(what), "%s", path);
		agree(in, len, what);
		n++;
	}
	closedir(dp);
	return n;
}

static void corpus_agrees(void **state)
{
	const char *src = getenv("PMUSIM_SRCTREE");
	char dir[4096];
	size_t n;

	(void)state;
	if (!src)
		skip();
	snprintf(dir, sizeof(dir), "%s/fuzz/corpus/ringbuf", src);
	n = run_dir(dir);
	snprintf(dir, sizeof(dir), "%s/fuzz/crashes/ringbuf", src);
	n += run_dir(dir);
	printf("# %zu corpus and crash inputs agree\n", n);
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Random schedules: ops mostly at the top level, some bound to points. */
static void random_schedules_agree(void **state)
{
	const char *e = getenv("KSRC_DIFF_RUNS"), *s = getenv("KSRC_DIFF_SEED");
	unsigned long runs = e ? strtoul(e, NULL, 0) : 300;
	uint64_t seed = s ? strtoull(s, NULL, 0) : 0x6b737263;
	uint8_t in[2 + 2 * 200];
	char what[64];

	(void)state;
	if (!seed)
		seed = 1;
	for (unsigned long r = 0; r < runs; r++) {
		size_t nr = 2 + next(&seed) % 200;

		in[0] = (uint8_t)next(&seed);
		in[1] = (uint8_t)next(&seed);
		for (size_t i = 0; i < nr; i++) {
			uint64_t v = next(&seed);
			uint8_t op = v & 7, point = 0;

			/* a third bound to a ring-buffer point */
			if ((v >> 8) % 3 == 0)
				point = (uint8_t)(1 + (v >> 16) % 18);
			in[2 + 2 * i] = (uint8_t)(op | point << 3);
			in[3 + 2 * i] = (uint8_t)(v >> 24);
		}
		snprintf(what, sizeof(what), "random schedule %lu", r);
		agree(in, 2 + 2 * nr, what);
	}
	printf("# %lu random schedules agree\n", runs);
}
#else
static void no_tree(void **state)
{
	(void)state;
	printf("%s\n", NO_TREE);
	skip();
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#ifdef KSRC_UNIT_RING_BUFFER
		cmocka_unit_test(exact_fit_behind_a_lost_first),
		cmocka_unit_test(boundaries_agree),
		cmocka_unit_test(corpus_agrees),
		cmocka_unit_test(random_schedules_agree),
#else
		cmocka_unit_test(no_tree),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
