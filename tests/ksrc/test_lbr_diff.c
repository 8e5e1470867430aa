// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's own arch/x86/events/intel/lbr.c (the tree this build was
 * made with, ksrc/) against core/x86/lbr.c, through the differential
 * oracle (ksrc/oracle/lbr_diff.h), on:
 *   - every CPU model x every filter, CPU-wide and per task, one fixed
 *     program made to reach every path: a call chain deeper than the
 *     deepest LBR (the TOS wraps), returns, PMIs, context switches that
 *     save and restore, events going off and back, resets, kernel branches,
 *     a sysret (a kernel "from" the LBR records under a user-only filter,
 *     which lbr.c drops since 6.12.117's backport), a block whose cycles
 *     pass LBR_INFO's 16-bit count (the model saturates it);
 *   - context-switch cases on purpose: a per-task call stack that shrinks
 *     between saves, the same task back with nobody between, two per-task
 *     events on two tasks;
 *   - every fuzz_lbr corpus input and saved crash (translated);
 *   - KSRC_LBR_DIFF_RUNS (default 300) random programs (KSRC_LBR_DIFF_SEED).
 * A system-wide call-stack run is expected to show the task-ctx-data
 * departure exactly when core/ (CONFIG_PERF_TASK_CTX_DATA) and the tree's
 * lbr.c keep the call stack in different places; every other run agrees.
 * Without a tree every test is skipped with the reason.
 */
#include <dirent.h>
#include <stdlib.h>

#include "tests/test.h"
#include <generated/ksrc.h>
#ifdef KSRC_UNIT_LBR
#include "core/perf_event.h"
#include "ksrc/oracle/lbr_diff.h"
#include "model/model.h"
#include <string.h>
#endif

#define NO_TREE KSRC_NO_UNIT("lbr")

#ifdef KSRC_UNIT_LBR
static char why[1024];

/* The fixed program: ops as lbr_diff.h lists them. */
static size_t program(uint8_t *p)
{
	size_t n = 0;

	for (int i = 0; i < 36; i++) {		/* deeper than 32: the TOS wraps */
		p[n++] = (uint8_t)(i & 1 ? 0x41 : 0x08);
		if (i % 9 == 8)
			p[n++] = 5;		/* PMI */
	}
	p[n++] = 0x3b;				/* 8 jcc */
	p[n++] = 0x0c;				/* indirect jmp */
	p[n++] = 5;
	p[n++] = 6;				/* switch to task 1: save 0 */
	for (int i = 0; i < 5; i++)
		p[n++] = 0x00;
	p[n++] = 5;
	p[n++] = 6;				/* back to 0: restore */
	p[n++] = 5;
	for (int i = 0; i < 20; i++)		/* the stack shrinks */
		p[n++] = 2;
	p[n++] = 5;
	p[n++] = 6;
	p[n++] = 6;				/* 0 back with nobody between */
	p[n++] = 5;
	p[n++] = 0x1f;				/* a kernel jcc */
	p[n++] = 0x3f;				/* a sysret: a kernel "from" */
	p[n++] = 0x43;				/* a long block: the cycles saturate */
	p[n++] = 0x04;
	p[n++] = 5;
	p[n++] = 0x07;				/* events off and back */
	p[n++] = 5;
	p[n++] = 0x0f;				/* LBR reset */
	p[n++] = 5;
	p[n++] = 0x17;				/* enable_all again */
	for (int i = 0; i < 4; i++)
		p[n++] = 0x48;
	p[n++] = 5;
	return n;
}

static bool departure_expected(unsigned int f, bool per_task, const struct model_cpu_desc *d)
{
	bool call_stack = ksrc_lbr_filters[f].branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK;

	return call_stack && !per_task && (d->has_lbr_callstack || d->arch_lbr) &&
	       IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) != ksrc_lbr_task_data_in_task();
}

/*
 * A generator that stops reaching one of these leaves its check judged by
 * nothing: the user-only filter's drop of a kernel "from" record, the
 * saturated 16-bit cycle count.
 */
static void reached(unsigned long kernel_from, unsigned long saturated)
{
	if (!kernel_from)
		fail_msg("no PMI read met a kernel \"from\" record under a user-only filter");
	if (!saturated)
		fail_msg("no entry was read with its cycle count saturated (0xffff)");
}

static int run(const uint8_t *in, size_t len, struct ksrc_lbr_diff_stats *st)
{
	int ret = ksrc_lbr_diff(in, len, why, sizeof(why), st);

	if (ret == KSRC_LBR_DIFFER)
		fail_msg("%s", why);
	return ret;
}

static void models_x_filters(void **state)
{
	const struct model_cpu_desc *table;
	unsigned int nr_models, runs = 0, refused = 0, departures = 0;
	unsigned long writes = 0, entries = 0, stale = 0, kfrom = 0, saturated = 0;
	uint8_t in[512];
	size_t n = 3 + program(in + 3);

	(void)state;
	table = model_cpu_desc_table(&nr_models);
	for (unsigned int m = 0; m < nr_models; m++) {
		for (unsigned int f = 0; f < ksrc_lbr_nr_filters; f++) {
			for (int per_task = 0; per_task < 2; per_task++) {
				struct ksrc_lbr_diff_stats st;
				int ret;

				in[0] = (uint8_t)m;
				in[1] = (uint8_t)f;
				in[2] = (uint8_t)per_task;
				ret = run(in, n, &st);
				runs++;
				refused += st.refused;
				writes += st.writes;
				entries += st.entries;
				stale += st.stale_tail;
				kfrom += st.kernel_from;
				saturated += st.cycles_saturated;
				if (departure_expected(f, per_task, &table[m])) {
					if (ret != KSRC_LBR_DEPARTURE)
						fail_msg("%s, %s, cpu-wide: the task-ctx-data departure "
							 "expected, the two agree", table[m].name,
							 ksrc_lbr_filters[f].name);
					departures++;
					if (departures == 1)
						printf("# departure shown: %s\n", why);
				} else if (ret != KSRC_LBR_AGREE) {
					fail_msg("%s", why);
				}
			}
		}
	}
	reached(kfrom, saturated);
	printf("# %u models x %u filters x {cpu-wide, per task}: %u runs agree (%u refused by both), "
	       "%u with the task-ctx-data departure; %lu MSR writes, %lu branch entries compared, "
	       "arch-lbr-save-stale-tail applied %lu times, kernel-from under user-only met %lu "
	       "times, cycles saturated in %lu entries (kernel %s)\n",
	       nr_models, ksrc_lbr_nr_filters, runs - departures, refused, departures, writes,
	       entries, stale, kfrom, saturated, KSRC_VERSION);
}

/* The context-switch cases, on a model each. */
static void context_switch_cases(void **state)
{
	static const char *const models[] = { "haswell", "skylake", "sapphirerapids" };
	const struct model_cpu_desc *table;
	unsigned int nr_models;
	unsigned long stale = 0, switches = 0, full = 0;

	(void)state;
	table = model_cpu_desc_table(&nr_models);
	for (unsigned int i = 0; i < ARRAY_SIZE(models); i++) {
		unsigned int m;

		for (m = 0; m < nr_models && strcmp(table[m].name, models[i]); m++)
			;
		assert_true(m < nr_models);
		for (int second = 0; second < 2; second++) {
			struct ksrc_lbr_diff_stats st;
			uint8_t in[256];
			size_t n = 0;

			in[n++] = (uint8_t)m;
			in[n++] = 7;			/* call_stack */
			in[n++] = (uint8_t)(1 | second << 1);	/* per task (and one on task 1) */
			for (int k = 0; k < 12; k++)	/* 12 deep, saved */
				in[n++] = 0x00;
			in[n++] = 6;
			in[n++] = 0x00;
			in[n++] = 0x00;
			in[n++] = 6;			/* restored */
			in[n++] = 5;
			for (int k = 0; k < 9; k++)	/* 3 deep: shorter than the last save */
				in[n++] = 2;
			in[n++] = 6;			/* saved */
			in[n++] = 6;			/* restored */
			in[n++] = 0x0f;			/* an LBR reset: the stack is empty */
			for (int k = 0; k < 3; k++)	/* 3 calls: shorter than the last save */
				in[n++] = 0x00;
			in[n++] = 6;			/* saved shorter */
			in[n++] = 6;			/* restored: no stale entries may come back */
			in[n++] = 5;
			in[n++] = 6;
			in[n++] = 6;
			in[n++] = 5;
			assert_int_equal(run(in, n, &st), KSRC_LBR_AGREE);
			stale += st.stale_tail;
			switches += st.switches;
			full += st.full_then_shorter;

			/* a stack saved full, then shorter: the restore must reset first */
			n = 3;
			for (int k = 0; k < 36; k++)	/* deeper than any LBR */
				in[n++] = (uint8_t)(k & 1 ? 0x41 : 0x00);
			in[n++] = 6;
			in[n++] = 6;			/* saved full, restored */
			for (int k = 0; k < 10; k++)
				in[n++] = 2;
			in[n++] = 6;
			in[n++] = 6;			/* saved shorter, restored */
			in[n++] = 5;
			assert_int_equal(run(in, n, &st), KSRC_LBR_AGREE);
			switches += st.switches;
			full += st.full_then_shorter;
		}
	}
	/* Sapphire Rapids' shorter save leaves a stale tail in the kernel's context */
	if (!stale)
		fail_msg("the arch-lbr-save-stale-tail case was not reached");
	if (!full)
		fail_msg("no Arch LBR save shorter than the depth right after a full one");
	printf("# context switches: %lu compared (saves, restores, the unchanged-task path, two "
	       "tasks' contexts); arch-lbr-save-stale-tail applied %lu times, an Arch LBR save "
	       "shorter after a full one %lu times\n", switches, stale, full);
}

static void corpus_agrees(void **state)
{
	static const char *const dirs[] = { "fuzz/corpus/lbr", "fuzz/crashes/lbr" };
	const char *src = getenv("PMUSIM_SRCTREE");
	unsigned int files = 0;

	(void)state;
	if (!src)
		src = ".";
	for (unsigned int d = 0; d < ARRAY_SIZE(dirs); d++) {
		char path[4096];
		struct dirent *de;
		DIR *dir;

		snprintf(path, sizeof(path), "%s/%s", src, dirs[d]);
		dir = opendir(path);
		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			uint8_t raw[4096], in[8192];
			size_t len, n;
			FILE *f;

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", src, dirs[d], de->d_name);
			f = fopen(path, "rb");
			if (!f)
				continue;
			len = fread(raw, 1, sizeof(raw), f);
			fclose(f);
			n = ksrc_lbr_diff_from_fuzz_lbr(raw, len, in, sizeof(in));
			if (n && run(in, n, NULL) == KSRC_LBR_DIFFER)
				fail_msg("%s: %s", path, why);
			files++;
		}
		closedir(dir);
	}
	if (!files)
		fail_msg("no fuzz_lbr corpus under %s (PMUSIM_SRCTREE)", src);
	printf("# %u fuzz_lbr corpus and crash inputs agree (or show the named departure)\n", files);
}

static void random_programs(void **state)
{
	const char *e = getenv("KSRC_LBR_DIFF_RUNS"), *s = getenv("KSRC_LBR_DIFF_SEED");
	unsigned long runs = e ? strtoul(e, NULL, 0) : 300, ops = 0, departures = 0;
	unsigned long stale = 0, full = 0, kfrom = 0, saturated = 0;
	unsigned long long seed = s ? strtoull(s, NULL, 0) : 17;

	(void)state;
	for (unsigned long r = 0; r < runs; r++) {
		struct ksrc_lbr_diff_stats st;
		uint8_t in[200];
		size_t n = 40 + (size_t)(seed >> 33) % 160;

		for (size_t i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			in[i] = (uint8_t)(seed >> 56);
		}
		if (run(in, n, &st) == KSRC_LBR_DEPARTURE)
			departures++;
		ops += st.ops;
		stale += st.stale_tail;
		full += st.full_then_shorter;
		kfrom += st.kernel_from;
		saturated += st.cycles_saturated;
	}
	if (runs >= 100)
		reached(kfrom, saturated);
	printf("# %lu random programs (%lu ops), %lu with the task-ctx-data departure, none "
	       "differ otherwise; arch-lbr-save-stale-tail applied %lu times, an Arch LBR save "
	       "shorter after a full one %lu times, kernel-from under user-only met %lu times, "
	       "cycles saturated in %lu entries\n", runs, ops, departures, stale, full, kfrom,
	       saturated);
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
#ifdef KSRC_UNIT_LBR
		cmocka_unit_test(models_x_filters),
		cmocka_unit_test(context_switch_cases),
		cmocka_unit_test(corpus_agrees),
		cmocka_unit_test(random_programs),
#else
		cmocka_unit_test(no_tree),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
