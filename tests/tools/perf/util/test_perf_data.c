// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf.data writing and reading: a round trip keeps attrs, ids, records
 * and features; every class of corrupt or truncated file is refused with
 * its own message and never read past; samples decode field by field for
 * every sample_type bit; perf-PID.map and the synthesized COMM/MMAP2.
 */
#define _GNU_SOURCE	/* posix_openpt, ptsname */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/perf_map.h"
#include "tools/perf/util/synthesize.h"

static char dir[64];

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make(dir, sizeof(dir), "perfdata");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static const char *const test_argv[] = { "pmusim", "run", "x.yaml" };

static const struct perf_data_env test_env = {
	.hostname = "pmusim", .os_release = "6.12.0-pmusim", .version = "6.12",
	.arch = "x86_64", .cpu_desc = "model cpu", .cpuid = "GenuineIntel,6,85,4",
	.nr_cpus_avail = 8, .nr_cpus_online = 6, .total_mem = 4096,
	.argc = 3, .argv = test_argv, .max_branches = 32, .pmu_name = "skylake",
};

static const u64 sample_type_all = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
	PERF_SAMPLE_BRANCH_STACK;

static void test_attr(struct perf_event_attr *a, u64 config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_HARDWARE;
	a->config = config;
	a->sample_period = 1000;
	a->sample_type = sample_type_all;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
				PERF_SAMPLE_BRANCH_HW_INDEX;
	a->sample_id_all = 1;
	a->exclude_kernel = 1;
}

/* A sample of test_attr(): id, ip, pid/tid, time, cpu, period, 2 ips, 2 branches. */
static u32 build_sample(u8 *buf, u64 id, u64 time)
{
	u64 v[] = { id, 0x401000, 7ULL << 32 | 7, time, 1, 1000,
		    2, PERF_CONTEXT_USER, 0x401000,
		    2, 5, 0x400020, 0x401000, 0, 0x400010, 0x400000, 0 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				       8 + sizeof(v) };

	memcpy(buf, &h, 8);
	memcpy(buf + 8, v, sizeof(v));
	return h.size;
}

static void file_path(char *path, size_t len, const char *name)
{
	snprintf(path, len, "%s/%s", dir, name);
}

/* Write a file with two attrs, COMM, MMAP2 and 3 samples; return the records' bytes. */
static void write_test_file(const char *path, u8 *records, u32 *records_size)
{
	struct synth_sample_id sid = { .pid = 7, .tid = 7, .id = 11 };
	struct perf_event_attr a1, a2;
	u64 ids1[] = { 11, 12 }, ids2[] = { 21 };
	struct perf_data_writer *w;
	u8 rec[SYNTH_RECORD_MAX];
	u32 n, off = 0;

	test_attr(&a1, PERF_COUNT_HW_CPU_CYCLES);
	test_attr(&a2, PERF_COUNT_HW_INSTRUCTIONS);
	w = perf_data_writer__open(path, &test_env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a1, "cycles:u", ids1, 2), 0);
	assert_int_equal(perf_data_writer__add_attr(w, &a2, "instructions:u", ids2, 1), 0);
	n = (u32)perf_event__synthesize_comm(rec, &a1, 7, 7, "work", &sid);
	assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
	memcpy(records + off, rec, n);
	off += n;
	n = (u32)perf_event__synthesize_mmap2(rec, &a1, 7, 7, 0x400000, 0x1000, 0, 5, 0x22,
					      "//anon", &sid);
	assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
	memcpy(records + off, rec, n);
	off += n;
	for (u64 i = 0; i < 3; i++) {
		n = build_sample(rec, i == 1 ? 21 : 12, 5000 + i * 100);
		assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
		memcpy(records + off, rec, n);
		off += n;
	}
	assert_int_equal(perf_data_writer__close(w), 0);
	*records_size = off;
}

/* Files in the test directory whose name starts with NAME.tmp (or NAME for pmusim-perf.data). */
static int count_temp_files(const char *name)
{
	char prefix[300];
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	snprintf(prefix, sizeof(prefix), "%s%s", name,
		 strcmp(name, "pmusim-perf.data") ? ".tmp" : "");
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static void round_trip_keeps_attrs_ids_records_and_features(void **state)
{
	struct perf_data_file f;
	struct perf_data_iter it;
	char path[128];
	u8 records[4096];
	u32 size, records_size, off = 0;
	const u8 *ev;
	struct stat st;
	int n = 0;

	(void)state;
	file_path(path, sizeof(path), "rt.data");
	write_test_file(path, records, &records_size);
	assert_int_equal(count_temp_files("rt.data"), 0);	/* renamed away */
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);		/* as perf record makes it */

	assert_int_equal(perf_data_file__open(&f, path), 0);
	assert_int_equal(f.nr_attrs, 2);
	assert_int_equal(f.attrs[0].attr.size, PERF_ATTR_SIZE_VER7);
	assert_int_equal(f.header.attr_size, PERF_ATTR_SIZE_VER7 + 16);
	assert_int_equal(f.attrs[0].attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(f.attrs[1].attr.config, PERF_COUNT_HW_INSTRUCTIONS);
	assert_int_equal(f.attrs[0].attr.sample_type, sample_type_all);
	assert_int_equal(f.attrs[0].nr_ids, 2);
	assert_int_equal(f.attrs[0].ids[1], 12);
	assert_int_equal(f.attrs[1].nr_ids, 1);
	assert_int_equal(f.attrs[1].ids[0], 21);
	assert_string_equal(f.attrs[0].name, "cycles:u");
	assert_string_equal(f.attrs[1].name, "instructions:u");
	assert_string_equal(f.hostname, "pmusim");
	assert_string_equal(f.os_release, "6.12.0-pmusim");
	assert_string_equal(f.arch, "x86_64");
	assert_int_equal(f.nr_cpus_avail, 8);
	assert_int_equal(f.nr_cpus_online, 6);
	assert_int_equal(f.max_branches, 32);
	assert_int_equal(f.first_sample_time, 5000);
	assert_int_equal(f.last_sample_time, 5200);
	assert_true(perf_data_file__has_feat(&f, HEADER_BRANCH_STACK));
	assert_true(perf_data_file__has_feat(&f, HEADER_CMDLINE));
	assert_true(perf_data_file__has_feat(&f, HEADER_TOTAL_MEM));
	assert_false(perf_data_file__has_feat(&f, HEADER_BUILD_ID));

	perf_data_file__iter_init(&f, &it);
	while (perf_data_file__next(&f, &it, &ev, &size) == 1) {
		assert_true(off + size <= records_size);
		assert_memory_equal(ev, records + off, size);
		if (n >= 2) {	/* the samples: attr by id */
			const struct perf_data_attr *a = perf_data_file__sample_attr(&f, ev, size);

			assert_non_null(a);
			assert_ptr_equal(a, &f.attrs[n == 3 ? 1 : 0]);
		}
		off += size;
		n++;
	}
	assert_int_equal(n, 5);
	assert_int_equal(off, records_size);
	perf_data_file__close(&f);
}

static void writer_keeps_rfc_fields_and_config3_out(void **state)
{
	struct perf_event_attr a;
	struct perf_data_writer *w;
	struct perf_data_file f;
	char path[128];
	u64 id = 1;

	(void)state;
	file_path(path, sizeof(path), "rfc.data");
	test_attr(&a, 0);
	a.size = sizeof(a);
#ifdef CONFIG_PERF_HW_TIME
	a.hw_time = 1;
#endif
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	a.alternative_sample_period = 5000;
#endif
	w = perf_data_writer__open(path, &test_env);
	assert_non_null(w);
	a.config3 = 1;
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &id, 1), -1);
	assert_int_equal(errno, EINVAL);
	a.config3 = 0;
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &id, 1), 0);
	assert_int_equal(perf_data_writer__close(w), 0);
	assert_int_equal(perf_data_file__open(&f, path), 0);
	assert_int_equal(f.attrs[0].attr.size, 128);
#ifdef CONFIG_PERF_HW_TIME
	assert_int_equal(f.attrs[0].attr.hw_time, 0);
#endif
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	assert_int_equal(f.attrs[0].attr.alternative_sample_period, 0);
#endif
	/* no name: no EVENT_DESC; no samples: no SAMPLE_TIME */
	assert_false(perf_data_file__has_feat(&f, HEADER_EVENT_DESC));
	assert_false(perf_data_file__has_feat(&f, HEADER_SAMPLE_TIME));
	assert_int_equal(f.header.data.size, 0);
	perf_data_file__close(&f);
}

static void writer_refuses_bad_records_and_late_attrs(void **state)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 4 };
	struct perf_event_attr a;
	struct perf_data_writer *w;
	char path[128];
	u8 rec[SYNTH_RECORD_MAX];
	u64 id = 1;

	(void)state;
	file_path(path, sizeof(path), "bad.data");
	test_attr(&a, 0);
	w = perf_data_writer__open(path, &test_env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &id, 1), 0);
	assert_int_equal(perf_data_writer__write(w, &h), -1);		/* < 8 */
	h.size = 12;
	assert_int_equal(perf_data_writer__write(w, &h), -1);		/* not 8-aligned */
	build_sample(rec, 1, 1);
	assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &id, 1), -1);
	perf_data_writer__abort(w);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(count_temp_files("bad.data"), 0);
}

static void writer_open_failure_names_the_file(void **state)
{
	char path[128];

	(void)state;
	file_path(path, sizeof(path), "no/such/dir/x.data");
	assert_null(perf_data_writer__open(path, &test_env));
	assert_non_null(strstr(perf_data_writer__last_error(),
			       "no/such/dir/x.data: cannot create: No such file or directory"));
}

/* A file with one attr and no record; 0 or -1 from perf_data_writer__close(). */
static int write_small(const char *path, u64 period)
{
	struct perf_event_attr a;
	struct perf_data_writer *w;
	u64 id = 1;

	test_attr(&a, 0);
	a.sample_period = period;
	w = perf_data_writer__open(path, &test_env);
	if (!w)
		return -1;
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &id, 1), 0);
	return perf_data_writer__close(w);
}

static u64 period_in(const char *path)
{
	struct perf_data_file f;
	u64 period;

	assert_int_equal(perf_data_file__open(&f, path), 0);
	period = f.attrs[0].attr.sample_period;
	perf_data_file__close(&f);
	return period;
}

static void writer_keeps_the_previous_file_as_old(void **state)
{
	char path[128], old[140];

	(void)state;
	file_path(path, sizeof(path), "keep.data");
	snprintf(old, sizeof(old), "%s.old", path);
	assert_int_equal(write_small(path, 111), 0);
	assert_int_not_equal(access(old, F_OK), 0);	/* nothing before */
	assert_int_equal(write_small(path, 222), 0);
	assert_int_equal(period_in(path), 222);
	assert_int_equal(period_in(old), 111);
	assert_int_equal(write_small(path, 333), 0);
	assert_int_equal(period_in(old), 222);
	assert_int_equal(count_temp_files("keep.data"), 0);
}

static void writer_follows_a_symlink(void **state)
{
	char path[128], link[128];
	struct stat st;

	(void)state;
	file_path(path, sizeof(path), "target.data");
	file_path(link, sizeof(link), "link.data");
	assert_int_equal(symlink("target.data", link), 0);	/* dangling: created */
	assert_int_equal(write_small(link, 444), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(period_in(path), 444);
	assert_int_equal(write_small(link, 555), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(period_in(path), 555);
	file_path(path, sizeof(path), "target.data.old");
	assert_int_equal(period_in(path), 444);
}

/* /dev/full: written in place (never replaced), and ENOSPC is an error naming it. */
static void writer_reports_a_full_device(void **state)
{
	struct stat st;

	(void)state;
	if (access("/dev/full", W_OK) || stat("/dev/full", &st) || !S_ISCHR(st.st_mode))
		skip();
	setenv("TMPDIR", dir, 1);
	assert_int_equal(write_small("/dev/full", 1), -1);
	unsetenv("TMPDIR");
	assert_string_equal(perf_data_writer__last_error(),
			    "/dev/full: write failed: No space left on device");
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(count_temp_files("pmusim-perf.data"), 0);	/* built aside, removed */
}

/*
 * A write past a file-size limit (EFBIG, SIGXFSZ ignored): keep_partial()
 * keeps the samples that reached the file whole, in order, and the file
 * finished over them stays within the limit and reads back, its
 * SAMPLE_TIME the kept samples' and its BUILD_ID list whole.
 */
static void writer_keeps_what_fitted(void **state)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_sa;
	struct rlimit old, lim;
	struct perf_event_attr a;
	struct perf_data_writer *w;
	struct perf_data_file f;
	struct perf_data_iter it;
	u8 rec[512], bid[20] = { 1, 2, 3 };
	char path[128], want[160];
	u64 id = 11, kept = 0, n = 0, seen = 0, last = 0;
	const u8 *ev;
	struct stat st;
	u32 size;
	int ret;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < 65536)
		skip();
	lim = old;
	lim.rlim_cur = 65536;
	file_path(path, sizeof(path), "limited.data");
	test_attr(&a, 0);
	w = perf_data_writer__open(path, &test_env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, "cycles:u", &id, 1), 0);
	assert_int_equal(perf_data_writer__add_build_id(w, bid, 20, "/bin/prog"), 0);
	sigaction(SIGXFSZ, &ign, &old_sa);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	while (n < 100000) {
		build_sample(rec, id, 1000 + n * 10);
		if (perf_data_writer__write(w, (struct perf_event_header *)rec))
			break;
		n++;
	}
	snprintf(want, sizeof(want), "%s: write failed: File too large", path);
	assert_string_equal(perf_data_writer__last_error(), want);
	assert_int_equal(perf_data_writer__keep_partial(w, &kept), 0);
	assert_true(kept > 0 && kept < n);
	assert_string_equal(perf_data_writer__last_error(), want);
	assert_int_equal(perf_data_writer__close(w), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	sigaction(SIGXFSZ, &old_sa, NULL);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= 65536);
	assert_int_equal(perf_data_file__open(&f, path), 0);
	perf_data_file__iter_init(&f, &it);
	while ((ret = perf_data_file__next(&f, &it, &ev, &size)) > 0) {
		assert_int_equal(((const struct perf_event_header *)ev)->type, PERF_RECORD_SAMPLE);
		last = perf_data__get_u64(ev + 8 + 3 * 8);	/* id, ip, pid/tid, time */
		assert_int_equal(last, 1000 + seen * 10);
		seen++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(seen, kept);
	assert_int_equal(f.first_sample_time, 1000);
	assert_int_equal(f.last_sample_time, last);
	assert_non_null(perf_data_file__build_id(&f, "/bin/prog"));
	perf_data_file__close(&f);
}

/* The finished file can be read before it is put in place. */
static void writer_result_is_readable_before_close(void **state)
{
	struct perf_event_attr a;
	struct perf_data_writer *w;
	struct perf_data_file f;
	char path[128];
	u64 id = 7;

	(void)state;
	file_path(path, sizeof(path), "result.data");
	test_attr(&a, 0);
	w = perf_data_writer__open(path, &test_env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, "cycles:u", &id, 1), 0);
	assert_int_equal(perf_data_writer__open_result(w, &f), -1);	/* not finished */
	perf_data_file__close(&f);
	assert_int_equal(perf_data_writer__finish(w), 0);
	assert_int_equal(perf_data_writer__open_result(w, &f), 0);
	assert_int_equal(f.nr_attrs, 1);
	assert_string_equal(f.attrs[0].name, "cycles:u");
	perf_data_file__close(&f);
	assert_int_not_equal(access(path, F_OK), 0);	/* not in place yet */
	assert_int_equal(perf_data_writer__close(w), 0);
	assert_int_equal(access(path, F_OK), 0);
}

/* The resident KiB of the mapping that holds @addr (/proc/self/smaps), or -1 if none does. */
static long mapping_rss_kib(const void *addr)
{
	FILE *fp = fopen("/proc/self/smaps", "r");
	unsigned long lo, hi, a = (unsigned long)addr;
	bool in = false;
	char line[512];
	long kib = -1;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = a >= lo && a < hi;
		else if (in && sscanf(line, "Rss: %ld kB", &kib) == 1)
			break;
	}
	fclose(fp);
	return in ? kib : -1;
}

/*
 * A file of 48 MB read through, as record's judge reads its result and
 * stitch its input: what stays resident of the mapping is the last part
 * read, not the file (the judge's peak RSS grew with its samples: 134 MB
 * for 152k samples of 800 bytes), and close unmaps it.
 */
static void reading_a_large_file_holds_a_window_of_it(void **state)
{
	struct perf_event_attr a;
	struct perf_data_writer *w;
	struct perf_data_file f;
	struct perf_data_iter it;
	const u8 *ev, *buf;
	u8 rec[SYNTH_RECORD_MAX];
	char path[128];
	u64 id = 12, n = 0;
	u32 size;

	(void)state;
	file_path(path, sizeof(path), "large.data");
	test_attr(&a, 0);
	w = perf_data_writer__open(path, &test_env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, "cycles:u", &id, 1), 0);
	for (u64 i = 0; i < 350000; i++) {
		build_sample(rec, id, 1000 + i);
		assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
	}
	assert_int_equal(perf_data_writer__finish(w), 0);
	for (int opened = 0; opened < 2; opened++) {
		/* the writer's result (the judge), then the file in place, as stitch opens it */
		if (opened)
			assert_int_equal(perf_data_file__open(&f, path), 0);
		else
			assert_int_equal(perf_data_writer__open_result(w, &f), 0);
		assert_true(f.size > 48u << 20);
		buf = f.buf;
		perf_data_file__iter_init(&f, &it);
		while (perf_data_file__next(&f, &it, &ev, &size) > 0) {
			n++;
			/* every byte still reads as written, the ones given back too */
			if (n % 50000 == 0)
				assert_int_equal(perf_data__get_u64(f.buf + f.header.data.offset + 8),
						 id);
		}
		if (mapping_rss_kib(buf) > 20 * 1024)
			fail_msg("%ld KiB of the %zu-byte file resident after reading it",
				 mapping_rss_kib(buf), f.size);
		perf_data_file__close(&f);
		assert_int_equal(mapping_rss_kib(buf), -1);	/* unmapped */
		if (!opened)
			assert_int_equal(perf_data_writer__close(w), 0);	/* in place */
	}
	assert_int_equal(n, 2 * 350000);
}

/* ---- corruption --------------------------------------------------------- */

static u8 *load(const char *path, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	u8 *buf;

	assert_non_null(fp);
	fseek(fp, 0, SEEK_END);
	*size = (size_t)ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc(*size);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, *size, fp), *size);
	fclose(fp);
	return buf;
}

/* Open (and walk) a copy of GOOD with MUTATE applied; return the error or NULL. */
static const char *open_copy(const u8 *good, size_t size, struct perf_data_file *f,
			     void (*mutate)(u8 *buf, size_t *size))
{
	static char err[sizeof(((struct perf_data_file *)0)->err)];
	u8 *buf = malloc(size);
	struct perf_data_iter it;
	const u8 *ev;
	u32 n;
	int r = 0;

	assert_non_null(buf);
	memcpy(buf, good, size);
	mutate(buf, &size);
	if (perf_data_file__open_mem(f, "x.data", buf, size) == 0) {
		perf_data_file__iter_init(f, &it);
		while ((r = perf_data_file__next(f, &it, &ev, &n)) > 0)
			;
	} else {
		r = -1;
	}
	snprintf(err, sizeof(err), "%s", r < 0 ? f->err : "");
	perf_data_file__close(f);
	free(buf);
	return r < 0 ? err : NULL;
}

static struct perf_file_header *hdr_of(u8 *buf)
{
	return (struct perf_file_header *)buf;
}

static void m_short(u8 *b, size_t *s) { (void)b; *s = 50; }
static void m_magic(u8 *b, size_t *s) { (void)s; memcpy(b, "NOTPERF!", 8); }
static void m_endian(u8 *b, size_t *s) { (void)s; hdr_of(b)->magic = __builtin_bswap64(PERF_MAGIC2); }
static void m_hsize(u8 *b, size_t *s) { (void)s; hdr_of(b)->size = 96; }
static void m_attr_size(u8 *b, size_t *s) { (void)s; hdr_of(b)->attr_size = 12; }
static void m_attrs_oob(u8 *b, size_t *s) { hdr_of(b)->attrs.offset = *s - 8; }
static void m_attrs_mult(u8 *b, size_t *s) { (void)s; hdr_of(b)->attrs.size -= 8; }
static void m_attr_field(u8 *b, size_t *s)
{
	u32 big = 4000;

	(void)s;
	memcpy(b + hdr_of(b)->attrs.offset + 4, &big, 4);
}
static void m_ids_oob(u8 *b, size_t *s)
{
	u64 off = hdr_of(b)->attrs.offset + hdr_of(b)->attr_size - 16;

	memcpy(b + off, s, 8);		/* ids.offset = file size */
	b[off + 8] = 8;
}
static void m_data_oob(u8 *b, size_t *s) { hdr_of(b)->data.size = *s; }
static void m_feat_oob(u8 *b, size_t *s)
{
	u64 table = hdr_of(b)->data.offset + hdr_of(b)->data.size;

	memcpy(b + table, s, 8);	/* first feature's offset = file size */
	b[table + 8] = 1;
}
static void m_feat_table(u8 *b, size_t *s) { (void)s; memset(hdr_of(b)->adds_features, 0xff, 32); }
static void m_feat_contents(u8 *b, size_t *s)
{
	u64 table = hdr_of(b)->data.offset + hdr_of(b)->data.size, off;

	(void)s;
	memcpy(&off, b + table, 8);	/* HOSTNAME is the first feature */
	memset(b + off, 0x7f, 4);	/* string length far past the section */
}
static void m_rec_small(u8 *b, size_t *s)
{
	(void)s;
	b[hdr_of(b)->data.offset + 6] = 4;
	b[hdr_of(b)->data.offset + 7] = 0;
}
static void m_rec_past(u8 *b, size_t *s)
{
	(void)s;
	b[hdr_of(b)->data.offset + 6] = 0xf8;
	b[hdr_of(b)->data.offset + 7] = 0x7f;
}

static void corrupt_files_refused_with_their_reason(void **state)
{
	static const struct {
		void (*mutate)(u8 *buf, size_t *size);
		const char *msg;
	} cases[] = {
		{ m_short, "x.data: too short for a perf.data header" },
		{ m_magic, "x.data: bad magic" },
		{ m_endian, "x.data: other-endian" },
		{ m_hsize, "x.data: bad header size 96" },
		{ m_attr_size, "x.data: bad attr_size 12" },
		{ m_attrs_oob, "x.data: attrs section out of bounds" },
		{ m_attrs_mult, "is not a multiple of attr_size" },
		{ m_attr_field, "x.data: attr 0: size 4000 does not fit" },
		{ m_ids_oob, "x.data: attr 0: ids section out of bounds" },
		{ m_data_oob, "x.data: data section out of bounds" },
		{ m_feat_oob, "x.data: feature HOSTNAME: section out of bounds" },
		{ m_feat_table, "x.data: feature table truncated" },
		{ m_feat_contents, "x.data: feature HOSTNAME: corrupt contents" },
		{ m_rec_small, "x.data: record at offset 416: size 4 < 8" },
		{ m_rec_past, "x.data: record at offset 416: size 32760 past the end of the data section" },
	};
	struct perf_data_file f;
	char path[128];
	u8 records[4096];
	u32 records_size;
	size_t size;
	u8 *good;

	(void)state;
	file_path(path, sizeof(path), "good.data");
	write_test_file(path, records, &records_size);
	good = load(path, &size);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *err = open_copy(good, size, &f, cases[i].mutate);

		if (!err || !strstr(err, cases[i].msg))
			fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].msg, err ? err : "(accepted)");
		assert_null(strchr(err, '\n'));
	}
	free(good);
}

static size_t trunc_len;
static void m_truncate(u8 *b, size_t *s) { (void)b; *s = trunc_len; }

static void every_truncation_is_refused(void **state)
{
	struct perf_data_file f;
	char path[128];
	u8 records[4096];
	u32 records_size;
	size_t size;
	u8 *good;

	(void)state;
	file_path(path, sizeof(path), "trunc.data");
	write_test_file(path, records, &records_size);
	good = load(path, &size);
	for (trunc_len = 0; trunc_len < size; trunc_len++) {
		const char *err = open_copy(good, size, &f, m_truncate);

		if (!err)
			fail_msg("truncated to %zu of %zu bytes: accepted", trunc_len, size);
		assert_non_null(strstr(err, "x.data: "));
	}
	free(good);
}

/* Flipped bytes anywhere: no crash, no read past the buffer (ASan), samples too. */
static u64 lcg = 12345;
static size_t flip_at;
static void m_flip(u8 *b, size_t *s)
{
	(void)s;
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	b[flip_at] ^= (u8)(lcg >> 56) | 1;
}

static void flipped_bytes_never_crash_the_reader(void **state)
{
	struct perf_data_file f;
	struct perf_data_iter it;
	struct perf_sample s;
	const char *why;
	char path[128];
	u8 records[4096], *buf;
	u32 records_size, n;
	const u8 *ev;
	size_t size, copy;
	int accepted = 0;

	(void)state;
	file_path(path, sizeof(path), "flip.data");
	write_test_file(path, records, &records_size);
	buf = load(path, &size);
	for (flip_at = 0; flip_at < size; flip_at++) {
		u8 *b = malloc(size);

		memcpy(b, buf, size);
		copy = size;
		m_flip(b, &copy);
		if (!perf_data_file__open_mem(&f, "x.data", b, copy)) {
			accepted++;
			perf_data_file__iter_init(&f, &it);
			while (perf_data_file__next(&f, &it, &ev, &n) > 0) {
				const struct perf_data_attr *a = perf_data_file__sample_attr(&f, ev, n);

				if (a && ev[0] == PERF_RECORD_SAMPLE)
					perf_sample__parse(&a->attr, ev, n, &s, &why);
			}
		}
		perf_data_file__close(&f);
		free(b);
	}
	assert_true(accepted > 0);	/* flips inside values are still valid files */
	free(buf);
}

/* ---- samples -------------------------------------------------------------- */

static u8 *put64(u8 *p, u64 v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

/* A sample with every field up to BRANCH_STACK that TYPE selects. */
static u32 build_full(u8 *buf, const struct perf_event_attr *a)
{
	u64 type = a->sample_type;
	u8 *p = buf + 8;
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 0 };
	u32 raw = 12;

	if (type & PERF_SAMPLE_IDENTIFIER)
		p = put64(p, 0x1d);
	if (type & PERF_SAMPLE_IP)
		p = put64(p, 0x1234);
	if (type & PERF_SAMPLE_TID)
		p = put64(p, 43ULL << 32 | 42);
	if (type & PERF_SAMPLE_TIME)
		p = put64(p, 999);
	if (type & PERF_SAMPLE_ADDR)
		p = put64(p, 0xadd);
	if (type & PERF_SAMPLE_ID)
		p = put64(p, 0x1d);
	if (type & PERF_SAMPLE_STREAM_ID)
		p = put64(p, 0x5d);
	if (type & PERF_SAMPLE_CPU)
		p = put64(p, 3);
	if (type & PERF_SAMPLE_PERIOD)
		p = put64(p, 4242);
	if (type & PERF_SAMPLE_READ) {
		if (a->read_format & PERF_FORMAT_GROUP) {
			p = put64(p, 2);
			p = put64(p, 100);	/* enabled */
			p = put64(p, 90);	/* running */
			p = put64(p, 7);
			p = put64(p, 0x1d);
			p = put64(p, 8);
			p = put64(p, 0x1e);
		} else {
			p = put64(p, 7);
			p = put64(p, 100);
			p = put64(p, 90);
			p = put64(p, 0x1d);
		}
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		p = put64(p, 2);
		p = put64(p, PERF_CONTEXT_USER);
		p = put64(p, 0x1234);
	}
	if (type & PERF_SAMPLE_RAW) {
		memcpy(p, &raw, 4);
		memset(p + 4, 0xab, raw);
		p += 4 + raw;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		p = put64(p, 1);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			p = put64(p, 17);
		p = put64(p, 0xf0);
		p = put64(p, 0x70);
		p = put64(p, 0x3);
	}
	h.size = (u16)(p - buf);
	memcpy(buf, &h, 8);
	return h.size;
}

static void check_full(const struct perf_event_attr *a, const struct perf_sample *s)
{
	u64 type = a->sample_type;
	struct perf_sample_branch b;

	if (type & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
		assert_int_equal(s->id, 0x1d);
	if (type & PERF_SAMPLE_IP)
		assert_int_equal(s->ip, 0x1234);
	if (type & PERF_SAMPLE_TID) {
		assert_int_equal(s->pid, 42);
		assert_int_equal(s->tid, 43);
	}
	if (type & PERF_SAMPLE_TIME)
		assert_int_equal(s->time, 999);
	if (type & PERF_SAMPLE_ADDR)
		assert_int_equal(s->addr, 0xadd);
	if (type & PERF_SAMPLE_STREAM_ID)
		assert_int_equal(s->stream_id, 0x5d);
	if (type & PERF_SAMPLE_CPU)
		assert_int_equal(s->cpu, 3);
	if (type & PERF_SAMPLE_PERIOD)
		assert_int_equal(s->period, 4242);
	if (type & PERF_SAMPLE_READ) {
		assert_int_equal(s->read_time_enabled, 100);
		assert_int_equal(s->read_time_running, 90);
		if (a->read_format & PERF_FORMAT_GROUP) {
			assert_int_equal(s->read_nr, 2);
			assert_int_equal(s->read_value_size, 16);
			assert_int_equal(perf_data__get_u64(s->read_values + 16), 8);
			assert_int_equal(perf_data__get_u64(s->read_values + 24), 0x1e);
		} else {
			assert_int_equal(s->read_one.value, 7);
			assert_int_equal(s->read_one.id, 0x1d);
		}
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		assert_int_equal(s->callchain_nr, 2);
		assert_int_equal(perf_sample__callchain_ip(s, 0), PERF_CONTEXT_USER);
		assert_int_equal(perf_sample__callchain_ip(s, 1), 0x1234);
	}
	if (type & PERF_SAMPLE_RAW) {
		assert_int_equal(s->raw_size, 12);
		assert_int_equal(s->raw_data[11], 0xab);
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		assert_int_equal(s->branch_nr, 1);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			assert_false(s->no_hw_idx);
			assert_int_equal(s->hw_idx, 17);
		} else {
			assert_true(s->no_hw_idx);
		}
		perf_sample__branch(s, 0, &b);
		assert_int_equal(b.from, 0xf0);
		assert_int_equal(b.to, 0x70);
		assert_int_equal(b.flags, 0x3);
	}
}

static void sample_decodes_every_sample_type_bit(void **state)
{
	static const u64 bits[] = {
		PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
		PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
		PERF_SAMPLE_PERIOD, PERF_SAMPLE_READ, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW,
		PERF_SAMPLE_BRANCH_STACK,
	};
	struct perf_event_attr a;
	struct perf_sample s;
	const char *why;
	u8 buf[512];
	u32 size, cut;
	u64 all = 0;

	(void)state;
	for (size_t i = 0; i <= sizeof(bits) / sizeof(bits[0]); i++) {
		for (int variant = 0; variant < 2; variant++) {
			memset(&a, 0, sizeof(a));
			/* each bit alone, then all of them */
			a.sample_type = i < sizeof(bits) / sizeof(bits[0]) ? bits[i] : all;
			a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
					PERF_FORMAT_ID | (variant ? PERF_FORMAT_GROUP : 0);
			a.branch_sample_type = variant ? PERF_SAMPLE_BRANCH_HW_INDEX : 0;
			size = build_full(buf, &a);
			assert_int_equal(perf_sample__parse(&a, buf, size, &s, &why), 0);
			check_full(&a, &s);
			/* every shorter record is refused, naming a field */
			for (cut = 8; cut < size; cut++) {
				if (perf_sample__parse(&a, buf, cut, &s, &why) == 0)
					fail_msg("sample_type %#llx cut at %u accepted",
						 (unsigned long long)a.sample_type, cut);
				assert_non_null(why);
			}
		}
		if (i < sizeof(bits) / sizeof(bits[0]))
			all |= bits[i];
	}
}

static void sample_with_huge_counts_is_refused(void **state)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_CALLCHAIN };
	struct perf_sample s;
	const char *why = NULL;
	u8 buf[32] = { 0 };
	u64 nr = ~0ULL / 4;

	(void)state;
	memcpy(buf + 8, &nr, 8);
	assert_int_equal(perf_sample__parse(&a, buf, sizeof(buf), &s, &why), -1);
	assert_string_equal(why, "callchain");
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	assert_int_equal(perf_sample__parse(&a, buf, sizeof(buf), &s, &why), -1);
	assert_string_equal(why, "branch entries");
}

/* ---- perf-PID.map and synthesized records --------------------------------- */

static void perf_map_round_trip_and_short_names_refused(void **state)
{
	struct perf_map_sym syms[] = {
		{ 0x401000, 0x100, "func_b" }, { 0x400000, 0x80, "main" },
	};
	struct perf_map_sym bad = { 0x1000, 0x10, "f1" };
	struct perf_map map;
	char err[256], path[128], line[128];
	FILE *fp;

	(void)state;
	assert_int_equal(perf_map__write(dir, 99, syms, 2, err, sizeof(err)), 0);
	file_path(path, sizeof(path), "perf-99.map");
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	assert_string_equal(line, "401000 100 func_b\n");
	fclose(fp);
	assert_int_equal(perf_map__load(&map, path), 0);
	assert_int_equal(map.nr, 2);
	assert_string_equal(perf_map__find(&map, 0x400000)->name, "main");
	assert_string_equal(perf_map__find(&map, 0x40007f)->name, "main");
	assert_null(perf_map__find(&map, 0x400080));
	assert_string_equal(perf_map__find(&map, 0x4010ff)->name, "func_b");
	assert_null(perf_map__find(&map, 0x3fffff));
	perf_map__exit(&map);

	assert_int_equal(perf_map__write(dir, 98, &bad, 1, err, sizeof(err)), -1);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(err, "'f1'"));
	file_path(path, sizeof(path), "perf-98.map");
	assert_int_not_equal(access(path, F_OK), 0);
}

static void synthesized_comm_and_mmap2_have_the_abi_layout(void **state)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
					      PERF_SAMPLE_IDENTIFIER, .sample_id_all = 1 };
	struct synth_sample_id sid = { .pid = 5, .tid = 6, .time = 77, .id = 9 };
	struct perf_event_header h;
	u8 rec[SYNTH_RECORD_MAX];
	size_t n;

	(void)state;
	n = perf_event__synthesize_comm(rec, &a, 5, 6, "abcdefgh", &sid);
	/* header, pid, tid, "abcdefgh\0" padded to 16, trailer 8 + 8 + 8 */
	assert_int_equal(n, 8 + 8 + 16 + 24);
	memcpy(&h, rec, 8);
	assert_int_equal(h.type, PERF_RECORD_COMM);
	assert_int_equal(h.size, n);
	assert_int_equal(perf_data__get_u32(rec + 8), 5);
	assert_int_equal(perf_data__get_u32(rec + 12), 6);
	assert_string_equal((char *)rec + 16, "abcdefgh");
	assert_int_equal(perf_data__get_u32(rec + 32), 5);	/* trailer pid */
	assert_int_equal(perf_data__get_u64(rec + 40), 77);
	assert_int_equal(perf_data__get_u64(rec + 48), 9);

	n = perf_event__synthesize_mmap2(rec, &a, 5, 6, 0x400000, 0x2000, 0, 5, 0x22, "//anon", &sid);
	assert_int_equal(n, 8 + 64 + 8 + 24);
	memcpy(&h, rec, 8);
	assert_int_equal(h.type, PERF_RECORD_MMAP2);
	assert_int_equal(h.misc, PERF_RECORD_MISC_USER);
	assert_int_equal(perf_data__get_u64(rec + 16), 0x400000);
	assert_int_equal(perf_data__get_u64(rec + 24), 0x2000);
	assert_int_equal(perf_data__get_u32(rec + 64), 5);	/* prot */
	assert_int_equal(perf_data__get_u32(rec + 68), 0x22);	/* flags */
	assert_string_equal((char *)rec + 72, "//anon");
	n = perf_event__synthesize_mmap2(rec, &a, 5, 6, 0, 0x1000, 0, 1, 0x22, "//anon", &sid);
	memcpy(&h, rec, 8);
	assert_true(h.misc & PERF_RECORD_MISC_MMAP_DATA);	/* not executable */
	/* an id and nothing else: the trailer is the id alone */
	a.sample_type = PERF_SAMPLE_IDENTIFIER;
	assert_int_equal(perf_event__synthesize_comm(rec, &a, 5, 6, "x", &sid), 8 + 8 + 8 + 8);
	assert_int_equal(perf_data__get_u64(rec + 24), 9);
	a.sample_id_all = 0;
	assert_int_equal(perf_event__synthesize_comm(rec, &a, 5, 6, "x", &sid), 8 + 8 + 8);
}

/* ---- the writer's failure paths ------------------------------------------ */

static void writer_refuses_bad_arguments(void **state)
{
	static const struct perf_data_env env0;
	struct perf_event_attr a;
	struct perf_data_writer *w;
	char path[128];
	u8 id[20] = { 1 };
	u64 ids[1] = { 1 };

	(void)state;
	errno = 0;
	assert_null(perf_data_writer__open(NULL, &env0));
	assert_int_equal(errno, EINVAL);
	assert_string_equal(perf_data_writer__last_error(), "pmusim: no output file");
	assert_null(perf_data_writer__open("", &env0));
	file_path(path, sizeof(path), "args.data");
	assert_null(perf_data_writer__open(path, NULL));
	assert_string_equal(perf_data_writer__last_error(), "pmusim: no output file");

	w = perf_data_writer__open(path, &env0);
	assert_non_null(w);
	test_attr(&a, 0);
	errno = 0;
	assert_int_equal(perf_data_writer__add_attr(w, NULL, "x", ids, 1), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(perf_data_writer__add_attr(w, &a, "x", NULL, 1), -1);	/* ids missing */
	assert_int_equal(perf_data_writer__add_attr(w, &a, "x", ids, (1u << 20) + 1), -1);
	assert_int_equal(perf_data_writer__add_build_id(w, id, 21, "/bin/x"), -1);
	assert_int_equal(perf_data_writer__add_build_id(w, id, 20, NULL), -1);
	assert_int_equal(perf_data_writer__write(w, NULL), -1);
	assert_int_equal(errno, EINVAL);
	/* no ids at all is an attr perf accepts */
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, NULL, 0), 0);
	assert_int_equal(perf_data_writer__finish(w), 0);
	assert_int_equal(perf_data_writer__finish(w), 0);		/* once is enough */
	assert_int_equal(perf_data_writer__add_build_id(w, id, 20, "/bin/x"), -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(perf_data_writer__close(w), 0);
	/* an env with nothing in it: a file with no feature at all */
	{
		struct perf_data_file f;

		assert_int_equal(perf_data_file__open(&f, path), 0);
		assert_int_equal(f.nr_attrs, 1);
		assert_int_equal(f.attrs[0].nr_ids, 0);
		for (int feat = 1; feat < HEADER_FEAT_BITS; feat++)	/* the attr's, only */
			assert_int_equal(perf_data_file__has_feat(&f, feat), feat == HEADER_BRANCH_STACK);
		perf_data_file__close(&f);
	}
}

/* A unix socket at PATH: a file open() refuses (ENXIO). */
static bool make_socket(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	bool ok;

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return false;
	strcpy(sa.sun_path, path);
	ok = !bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
	return ok;
}

static void writer_open_names_what_is_wrong_with_the_target(void **state)
{
	static const struct perf_data_env env0;
	char path[200], other[160], msg[320];
	struct perf_data_writer *w;

	(void)state;
	/* under a regular file: stat fails with ENOTDIR, not ENOENT */
	file_path(other, sizeof(other), "plain");
	assert_int_equal(write_small(other, 1), 0);
	snprintf(path, sizeof(path), "%s/x.data", other);
	assert_null(perf_data_writer__open(path, &env0));
	snprintf(msg, sizeof(msg), "%s: cannot stat: Not a directory", path);
	assert_string_equal(perf_data_writer__last_error(), msg);

	/* a directory */
	assert_null(perf_data_writer__open(dir, &env0));
	assert_int_equal(errno, EISDIR);
	snprintf(msg, sizeof(msg), "%s: is a directory", dir);
	assert_string_equal(perf_data_writer__last_error(), msg);

	/* a socket: in place, but open() refuses it */
	file_path(path, sizeof(path), "sock");
	if (make_socket(path)) {
		assert_null(perf_data_writer__open(path, &env0));
		snprintf(msg, sizeof(msg), "%s: cannot open: No such device or address", path);
		assert_string_equal(perf_data_writer__last_error(), msg);
	}

	/* a loop of symlinks */
	file_path(path, sizeof(path), "loop1");
	file_path(other, sizeof(other), "loop2");
	assert_int_equal(symlink("loop2", path), 0);
	assert_int_equal(symlink("loop1", other), 0);
	assert_null(perf_data_writer__open(path, &env0));
	assert_int_equal(errno, ELOOP);
	snprintf(msg, sizeof(msg), "%s: cannot follow: Too many levels of symbolic links", path);
	assert_string_equal(perf_data_writer__last_error(), msg);

	/* in place, with nowhere to build the file */
	if (!access("/dev/null", W_OK)) {
		setenv("TMPDIR", "/nonexistent-pmusim-dir", 1);
		assert_null(perf_data_writer__open("/dev/null", &env0));
		assert_string_equal(perf_data_writer__last_error(),
				    "/dev/null: cannot create a temporary file in "
				    "/nonexistent-pmusim-dir: No such file or directory");
		/* an empty TMPDIR is /tmp, as unset; aborted, nothing is left */
		setenv("TMPDIR", "", 1);
		w = perf_data_writer__open("/dev/null", &env0);
		assert_non_null(w);
		assert_true(perf_data_writer__in_place(w));
		perf_data_writer__abort(w);
		/* in place and written through */
		setenv("TMPDIR", dir, 1);
		assert_int_equal(write_small("/dev/null", 5), 0);
		assert_int_equal(count_temp_files("pmusim-perf.data"), 0);
		w = perf_data_writer__open("/dev/null", &env0);
		assert_non_null(w);
		assert_int_equal(count_temp_files("pmusim-perf.data"), 1);
		perf_data_writer__abort(w);
		assert_int_equal(count_temp_files("pmusim-perf.data"), 0);
		unsetenv("TMPDIR");
	}
}

/* Symlinks by absolute path and by a name without a directory are followed too. */
static void writer_follows_absolute_and_bare_symlinks(void **state)
{
	char path[128], link[128], cwd[4096];

	(void)state;
	file_path(path, sizeof(path), "abs-target.data");
	file_path(link, sizeof(link), "abs-link.data");
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(write_small(link, 61), 0);
	assert_int_equal(period_in(path), 61);

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(symlink("bare-target.data", "bare-link.data"), 0);
	assert_int_equal(write_small("bare-link.data", 62), 0);
	assert_int_equal(period_in("bare-target.data"), 62);
	assert_int_equal(chdir(cwd), 0);
}

/* Whatever made the previous file impossible to keep, the run fails and leaves it. */
static void writer_fails_when_the_old_file_cannot_be_kept(void **state)
{
	char path[128], old[140], inside[160];

	(void)state;
	file_path(path, sizeof(path), "kept.data");
	snprintf(old, sizeof(old), "%s.old", path);
	snprintf(inside, sizeof(inside), "%s/x", old);
	assert_int_equal(write_small(path, 71), 0);
	assert_int_equal(mkdir(old, 0700), 0);		/* .old is a directory, not empty */
	assert_int_equal(write_small(inside, 1), 0);
	assert_int_equal(write_small(path, 72), -1);
	assert_non_null(strstr(perf_data_writer__last_error(), "kept.data: cannot keep the "
			       "previous file as "));
	assert_non_null(strstr(perf_data_writer__last_error(), "kept.data.old: Is a directory"));
	assert_int_equal(period_in(path), 71);		/* the previous file, untouched */
	assert_int_equal(count_temp_files("kept.data"), 0);
}

/*
 * A name of 242 bytes: its temporary file's name (+ ".tmp.XXXXXX") fits
 * in NAME_MAX, the hard link's (+ ".old" more) does not, so the previous
 * file is kept by a rename instead; and where TARGET.old is a directory,
 * that rename fails and says so.
 */
static void writer_keeps_the_old_file_by_rename_when_it_cannot_link(void **state)
{
	char name[243], path[400], old[410], inside[420];
	struct stat st;

	(void)state;
	memset(name, 'n', 242);
	name[242] = '\0';
	file_path(path, sizeof(path), name);
	snprintf(old, sizeof(old), "%s.old", path);
	assert_int_equal(write_small(path, 91), 0);
	assert_int_equal(write_small(path, 92), 0);
	assert_int_equal(period_in(path), 92);
	assert_int_equal(period_in(old), 91);
	assert_int_equal(count_temp_files(name), 0);

	assert_int_equal(unlink(old), 0);
	assert_int_equal(mkdir(old, 0700), 0);		/* .old is a directory, not empty */
	snprintf(inside, sizeof(inside), "%s/x", old);
	assert_int_equal(write_small(inside, 1), 0);
	assert_int_equal(write_small(path, 93), -1);
	assert_non_null(strstr(perf_data_writer__last_error(), ": cannot keep the previous file as "));
	assert_non_null(strstr(perf_data_writer__last_error(), ".old: Is a directory"));
	assert_int_equal(period_in(path), 92);		/* the previous file, untouched */
	assert_int_equal(stat(old, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(count_temp_files(name), 0);
}

/* The target turned into a directory while the file was written: no rename over it. */
static void writer_fails_when_the_target_became_a_directory(void **state)
{
	struct perf_event_attr a;
	struct perf_data_writer *w;
	char path[128], msg[300];
	struct stat st;
	u64 id = 1;

	(void)state;
	file_path(path, sizeof(path), "became-dir.data");
	test_attr(&a, 0);
	w = perf_data_writer__open(path, &test_env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &id, 1), 0);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(perf_data_writer__close(w), -1);
	snprintf(msg, sizeof(msg), "%s: cannot rename %s.tmp.", path, path);
	assert_memory_equal(perf_data_writer__last_error(), msg, strlen(msg));
	assert_non_null(strstr(perf_data_writer__last_error(), ": Is a directory"));
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(count_temp_files("became-dir.data"), 0);
}

/*
 * A file-size limit (RLIMIT_FSIZE) stops the writing at every point in
 * turn, in a child each: the records, the features, the header. Each
 * failure is "write failed: File too large" naming the file, a previous
 * file stays as it was, and no temporary file is left.
 */
static int write_big(const char *path, size_t *size)
{
	struct synth_sample_id sid = { .pid = 7, .tid = 7, .id = 11 };
	struct perf_event_attr a1, a2;
	u64 ids1[] = { 11, 12 }, ids2[] = { 21 };
	struct perf_data_writer *w;
	u8 rec[SYNTH_RECORD_MAX];
	struct stat st;
	int ret = 0;

	test_attr(&a1, PERF_COUNT_HW_CPU_CYCLES);
	test_attr(&a2, PERF_COUNT_HW_INSTRUCTIONS);
	w = perf_data_writer__open(path, &test_env);
	if (!w)
		return -1;
	if (perf_data_writer__add_attr(w, &a1, "cycles:u", ids1, 2) ||
	    perf_data_writer__add_attr(w, &a2, "instructions:u", ids2, 1) ||
	    perf_data_writer__add_build_id(w, (const u8 *)"0123456789abcdefghij", 20, "/bin/x"))
		ret = -1;
	perf_event__synthesize_comm(rec, &a1, 7, 7, "work", &sid);
	for (u64 i = 0; i < 200 && !ret; i++) {
		if (i)
			build_sample(rec, i % 3 ? 12 : 21, 5000 + i);
		if (perf_data_writer__write(w, (struct perf_event_header *)rec)) {
			assert_int_equal(errno, EIO);
			/* and every write after the first failure */
			assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), -1);
			ret = -1;
		}
	}
	if (perf_data_writer__close(w))
		ret = -1;
	if (!ret && size && !stat(path, &st))
		*size = (size_t)st.st_size;
	return ret;
}

static void writer_fails_whole_at_every_file_size_limit(void **state)
{
	char path[128], want[200];
	size_t full = 0;
	int failures = 0;

	(void)state;
	file_path(path, sizeof(path), "limit.data");
	assert_int_equal(write_big(path, &full), 0);
	assert_true(full > 20000);
	assert_int_equal(write_small(path, 81), 0);	/* the file a failed run must leave */
	snprintf(want, sizeof(want), "%s: write failed: File too large", path);
	for (size_t limit = 0; limit < full + 1024; limit += limit < 512 ? 64 : 1021) {
		int status, ret;
		pid_t pid;

		fflush(stdout);
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			struct rlimit old, rl;

			signal(SIGXFSZ, SIG_IGN);
			if (getrlimit(RLIMIT_FSIZE, &old))
				exit(3);
			rl = old;
			rl.rlim_cur = limit;
			if (setrlimit(RLIMIT_FSIZE, &rl))
				exit(3);
			ret = write_big(path, NULL);
			/* back before exit(): a coverage build writes its counts then */
			if (setrlimit(RLIMIT_FSIZE, &old))
				exit(3);
			if (ret && strcmp(perf_data_writer__last_error(), want)) {
				fprintf(stderr, "%s\n", perf_data_writer__last_error());
				exit(4);
			}
			exit(ret ? 1 : 0);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFEXITED(status));
		ret = WEXITSTATUS(status);
		if (limit < full) {
			if (ret != 1)
				fail_msg("limit %zu: exit %d, not a write failure", limit, ret);
			assert_int_equal(period_in(path), 81);
			failures++;
		} else {
			assert_int_equal(ret, 0);
		}
		assert_int_equal(count_temp_files("limit.data"), 0);
	}
	assert_true(failures > 10);
}

/*
 * SAMPLE_TIME comes from the samples the writer can place: by the id
 * (PERF_SAMPLE_ID after ip, tid, time and addr, or IDENTIFIER first) when
 * there are several attrs; a sample it cannot place or parse is left out.
 */
static void writer_times_only_the_samples_it_can_place(void **state)
{
	static const struct { u64 type; u64 times[3]; u64 first, last; bool have; } cases[] = {
		/* ID after ip, tid, time: placed by its id (the third has none known) */
		{ PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID,
		  { 300, 100, 50 }, 100, 300, true },
		/* neither ID nor IDENTIFIER: with two attrs no sample is placed */
		{ PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME, { 300, 100, 50 }, 0, 0, false },
	};
	struct perf_data_file f;
	char path[128];

	(void)state;
	file_path(path, sizeof(path), "times.data");
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct perf_event_attr a;
		struct perf_data_writer *w;
		u64 ids1[] = { 11 }, ids2[] = { 21 };
		u64 rec_ids[3] = { 11, 21, 99 };

		memset(&a, 0, sizeof(a));
		a.sample_type = cases[c].type;
		w = perf_data_writer__open(path, &test_env);
		assert_non_null(w);
		assert_int_equal(perf_data_writer__add_attr(w, &a, "a", ids1, 1), 0);
		assert_int_equal(perf_data_writer__add_attr(w, &a, "b", ids2, 1), 0);
		for (int i = 0; i < 3; i++) {
			u64 v[5] = { PERF_RECORD_SAMPLE | (u64)40 << 48, 0x401000, 7ULL << 32 | 7,
				     cases[c].times[i], rec_ids[i] };

			assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)v), 0);
		}
		/* a sample too short to hold its id */
		{
			u64 v[2] = { PERF_RECORD_SAMPLE | (u64)16 << 48, 0x401000 };

			assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)v), 0);
		}
		assert_int_equal(perf_data_writer__close(w), 0);
		assert_int_equal(perf_data_file__open(&f, path), 0);
		assert_int_equal(perf_data_file__has_feat(&f, HEADER_SAMPLE_TIME), cases[c].have);
		assert_int_equal(f.first_sample_time, cases[c].first);
		assert_int_equal(f.last_sample_time, cases[c].last);
		perf_data_file__close(&f);
	}
	/* one attr: every sample is its; one cut short is not timed */
	{
		struct perf_event_attr a;
		struct perf_data_writer *w;
		u64 id = 1;
		u64 v[4] = { PERF_RECORD_SAMPLE | (u64)32 << 48, 0x401000, 7ULL << 32 | 7, 700 };
		u64 cut[3] = { PERF_RECORD_SAMPLE | (u64)24 << 48, 0x401000, 7ULL << 32 | 7 };

		memset(&a, 0, sizeof(a));
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		w = perf_data_writer__open(path, &test_env);
		assert_non_null(w);
		assert_int_equal(perf_data_writer__add_attr(w, &a, "a", &id, 1), 0);
		assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)cut), 0);
		assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)v), 0);
		assert_int_equal(perf_data_writer__close(w), 0);
		assert_int_equal(perf_data_file__open(&f, path), 0);
		assert_int_equal(f.first_sample_time, 700);
		assert_int_equal(f.last_sample_time, 700);
		perf_data_file__close(&f);
	}
	/* no attr: a sample is written, not timed */
	{
		struct perf_data_writer *w;
		u64 v[4] = { PERF_RECORD_SAMPLE | (u64)32 << 48, 0x401000, 7ULL << 32 | 7, 700 };

		w = perf_data_writer__open(path, &test_env);
		assert_non_null(w);
		assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)v), 0);
		assert_int_equal(perf_data_writer__close(w), 0);
		assert_int_equal(perf_data_file__open(&f, path), 0);
		assert_false(perf_data_file__has_feat(&f, HEADER_SAMPLE_TIME));
		assert_int_equal(f.header.data.size, 32);
		perf_data_file__close(&f);
	}
}

/* What the env leaves out: online CPUs default to the available ones, a NULL argument is "". */
static void writer_fills_in_what_the_env_leaves_out(void **state)
{
	static const char *const argv[] = { "pmusim", NULL };
	struct perf_data_env env = {
		.nr_cpus_avail = 4, .argc = 2, .argv = argv, .pmu_name = "skylake",
	};
	struct perf_data_file f;
	char path[128];

	(void)state;
	file_path(path, sizeof(path), "env.data");
	/* and an argument count without the arguments: no command line */
	for (int no_argv = 0; no_argv < 2; no_argv++) {
		struct perf_event_attr a;
		struct perf_data_writer *w;
		u64 id = 1;

		env.argv = no_argv ? NULL : argv;
		w = perf_data_writer__open(path, &env);
		assert_non_null(w);
		test_attr(&a, 0);
		assert_int_equal(perf_data_writer__add_attr(w, &a, NULL, &id, 1), 0);
		assert_int_equal(perf_data_writer__close(w), 0);
		assert_int_equal(perf_data_file__open(&f, path), 0);
		assert_int_equal(f.nr_cpus_avail, 4);
		assert_int_equal(f.nr_cpus_online, 4);
		assert_int_equal(f.max_branches, 0);		/* pmu_name only */
		assert_int_equal(perf_data_file__has_feat(&f, HEADER_CMDLINE), !no_argv);
		assert_true(perf_data_file__has_feat(&f, HEADER_CPU_PMU_CAPS));
		assert_false(perf_data_file__has_feat(&f, HEADER_HOSTNAME));
		perf_data_file__close(&f);
	}
}

/* ---- the reader, feature by feature ---------------------------------------- */

/*
 * A file of a header, no attr, no data and one feature FEAT holding LEN
 * bytes of BODY, opened from memory; the error, or "" when it opened.
 */
static const char *open_feature(int feat, const void *body, size_t len, struct perf_data_file *f)
{
	static u8 buf[4096];
	static char err[sizeof(((struct perf_data_file *)0)->err)];
	struct perf_file_header *h = (struct perf_file_header *)buf;
	struct perf_file_section sec = { PERF_FILE_HEADER_SIZE + 16, len };
	int r;

	assert_true(PERF_FILE_HEADER_SIZE + 16 + len <= sizeof(buf));
	memset(buf, 0, sizeof(buf));
	h->magic = PERF_MAGIC2;
	h->size = PERF_FILE_HEADER_SIZE;
	h->attr_size = PERF_DATA_ATTR_SIZE + sizeof(struct perf_file_section);
	h->attrs.offset = PERF_FILE_HEADER_SIZE;
	h->data.offset = PERF_FILE_HEADER_SIZE;
	h->adds_features[feat / 64] |= 1ULL << (feat % 64);
	memcpy(buf + PERF_FILE_HEADER_SIZE, &sec, sizeof(sec));
	memcpy(buf + PERF_FILE_HEADER_SIZE + 16, body, len);
	r = perf_data_file__open_mem(f, "f.data", buf, PERF_FILE_HEADER_SIZE + 16 + len);
	snprintf(err, sizeof(err), "%s", r ? f->err : "");
	return err;
}

/* A build-id entry as the writer puts it: SIZE bytes long, its id size in ID_SIZE. */
static size_t build_id_entry(u8 *p, u16 size, u8 id_size, const char *name)
{
	struct perf_event_header h = { 0, PERF_RECORD_MISC_BUILD_ID_SIZE, size };

	memset(p, 0, size);
	memcpy(p, &h, 8);
	p[32] = id_size;
	memcpy(p + 36, name, strlen(name));
	return size;
}

static void reader_refuses_each_corrupt_feature(void **state)
{
	struct perf_data_file f;
	u8 b[512];
	u32 v[8];

	(void)state;
	/* CPU_PMU_CAPS: no count; a pair cut short */
	assert_string_equal(open_feature(HEADER_CPU_PMU_CAPS, b, 2, &f),
			    "f.data: feature CPU_PMU_CAPS: corrupt contents");
	perf_data_file__close(&f);
	v[0] = 1;
	v[1] = 4;
	memcpy(b, v, 8);
	memcpy(b + 8, "abc", 4);
	assert_string_equal(open_feature(HEADER_CPU_PMU_CAPS, b, 12, &f),
			    "f.data: feature CPU_PMU_CAPS: corrupt contents");
	perf_data_file__close(&f);
	/* a string without its NUL */
	v[0] = 4;
	memcpy(b, v, 4);
	memcpy(b + 4, "abcd", 4);
	assert_string_equal(open_feature(HEADER_HOSTNAME, b, 8, &f),
			    "f.data: feature HOSTNAME: corrupt contents");
	perf_data_file__close(&f);
	/* EVENT_DESC: no attr size; NRCPUS: one of two numbers; SAMPLE_TIME: one of two */
	assert_string_equal(open_feature(HEADER_EVENT_DESC, b, 4, &f),
			    "f.data: feature EVENT_DESC: corrupt contents");
	perf_data_file__close(&f);
	assert_string_equal(open_feature(HEADER_NRCPUS, b, 4, &f),
			    "f.data: feature NRCPUS: corrupt contents");
	perf_data_file__close(&f);
	assert_string_equal(open_feature(HEADER_SAMPLE_TIME, b, 8, &f),
			    "f.data: feature SAMPLE_TIME: corrupt contents");
	perf_data_file__close(&f);
	/* BUILD_ID: shorter than an entry; an entry of 36 bytes (no name); a name without NUL; an id of 21 bytes */
	assert_string_equal(open_feature(HEADER_BUILD_ID, b, 30, &f),
			    "f.data: feature BUILD_ID: corrupt contents");
	perf_data_file__close(&f);
	build_id_entry(b, 36, 20, "");
	assert_string_equal(open_feature(HEADER_BUILD_ID, b, 40, &f),
			    "f.data: feature BUILD_ID: corrupt contents");
	perf_data_file__close(&f);
	build_id_entry(b, 40, 20, "abcd");
	assert_string_equal(open_feature(HEADER_BUILD_ID, b, 40, &f),
			    "f.data: feature BUILD_ID: corrupt contents");
	perf_data_file__close(&f);
	build_id_entry(b, 48, 21, "/bin/x");
	assert_string_equal(open_feature(HEADER_BUILD_ID, b, 48, &f),
			    "f.data: feature BUILD_ID: corrupt contents");
	perf_data_file__close(&f);
	/* ... and two good ones, the second with a 20-byte id not said (no MISC bit) */
	{
		size_t n = build_id_entry(b, 48, 16, "/bin/x");

		build_id_entry(b + n, 48, 0, "/bin/y");
		b[n + 4] = b[n + 5] = 0;	/* misc: no BUILD_ID_SIZE */
		b[n + 12] = 0xab;
		assert_string_equal(open_feature(HEADER_BUILD_ID, b, 96, &f), "");
		assert_int_equal(f.nr_build_ids, 2);
		assert_int_equal(perf_data_file__build_id(&f, "/bin/x")->size, 16);
		assert_int_equal(perf_data_file__build_id(&f, "/bin/y")->size, 20);
		assert_int_equal(perf_data_file__build_id(&f, "/bin/y")->id[0], 0xab);
		assert_null(perf_data_file__build_id(&f, "/bin/z"));
		perf_data_file__close(&f);
	}
	/* a feature the reader does not need is skipped whatever it holds */
	assert_string_equal(open_feature(HEADER_CPU_TOPOLOGY, b, 3, &f), "");
	assert_true(perf_data_file__has_feat(&f, HEADER_CPU_TOPOLOGY));
	assert_false(perf_data_file__has_feat(&f, 0));
	assert_false(perf_data_file__has_feat(&f, HEADER_FEAT_BITS));
	perf_data_file__close(&f);
	/* a feature past the ones named: by its number */
	assert_string_equal(open_feature(HEADER_LAST_FEATURE + 3, b, 0, &f), "");
	perf_data_file__close(&f);
}

static void reader_names_what_is_wrong_with_the_file(void **state)
{
	struct perf_data_file f;
	char path[128], msg[256];
	u8 buf[PERF_FILE_HEADER_SIZE];
	FILE *fp;

	(void)state;
	file_path(path, sizeof(path), "no-such.data");
	assert_int_equal(perf_data_file__open(&f, path), -1);
	snprintf(msg, sizeof(msg), "%s: cannot open: No such file or directory", path);
	assert_string_equal(f.err, msg);
	perf_data_file__close(&f);
	assert_int_equal(perf_data_file__open(&f, dir), -1);
	snprintf(msg, sizeof(msg), "%s: not a regular file", dir);
	assert_string_equal(f.err, msg);
	perf_data_file__close(&f);
	file_path(path, sizeof(path), "short.data");
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("PERFILE2", fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(perf_data_file__open(&f, path), -1);
	snprintf(msg, sizeof(msg), "%s: too short for a perf.data header (8 bytes)", path);
	assert_string_equal(f.err, msg);
	perf_data_file__close(&f);

	/* version 1, and an attr_size too large or not a multiple of 8 */
	memset(buf, 0, sizeof(buf));
	memcpy(buf, "PERFFILE", 8);
	assert_int_equal(perf_data_file__open_mem(&f, NULL, buf, sizeof(buf)), -1);
	assert_string_equal(f.err, "perf.data: version 1 perf.data (PERFFILE) is not supported");
	{
		struct perf_file_header *h = (struct perf_file_header *)buf;

		h->magic = PERF_MAGIC2;
		h->size = PERF_FILE_HEADER_SIZE;
		h->attr_size = 8192;
		assert_int_equal(perf_data_file__open_mem(&f, "h.data", buf, sizeof(buf)), -1);
		assert_string_equal(f.err, "h.data: bad attr_size 8192");
		h->attr_size = PERF_DATA_ATTR_SIZE + 16 + 4;
		assert_int_equal(perf_data_file__open_mem(&f, "h.data", buf, sizeof(buf)), -1);
		assert_string_equal(f.err, "h.data: bad attr_size 148");
		/* no attr: opens; a sample then has no attr to be read by */
		h->attr_size = PERF_DATA_ATTR_SIZE + 16;
		assert_int_equal(perf_data_file__open_mem(&f, "h.data", buf, sizeof(buf)), 0);
		assert_int_equal(f.nr_attrs, 0);
		assert_int_equal(f.id_pos, -1);
		/* feature numbers outside the bitmap: never there, even with every bit set */
		memset(f.header.adds_features, 0xff, sizeof(f.header.adds_features));
		assert_false(perf_data_file__has_feat(&f, 0));
		assert_false(perf_data_file__has_feat(&f, -1));
		assert_false(perf_data_file__has_feat(&f, HEADER_FEAT_BITS));
		assert_true(perf_data_file__has_feat(&f, HEADER_FEAT_BITS - 1));
		memset(f.header.adds_features, 0, sizeof(f.header.adds_features));
		perf_data_file__close(&f);
		/* a feature perf has no name for, out of bounds: named by its number */
		{
			u8 b2[PERF_FILE_HEADER_SIZE + 16];
			struct perf_file_section sec = { 4096, 8 };

			memcpy(b2, buf, PERF_FILE_HEADER_SIZE);
			((struct perf_file_header *)b2)->adds_features[200 / 64] |= 1ULL << (200 % 64);
			((struct perf_file_header *)b2)->data.offset = PERF_FILE_HEADER_SIZE;
			memcpy(b2 + PERF_FILE_HEADER_SIZE, &sec, sizeof(sec));
			assert_int_equal(perf_data_file__open_mem(&f, "n.data", b2, sizeof(b2)), -1);
			assert_string_equal(f.err, "n.data: feature 200: section out of bounds "
					    "(offset 4096 size 8, file 120 bytes)");
			perf_data_file__close(&f);
		}
		assert_int_equal(perf_data_file__open_mem(&f, "h.data", buf, sizeof(buf)), 0);
		{
			u64 rec[2] = { PERF_RECORD_SAMPLE | (u64)16 << 48, 1 };
			struct perf_data_iter it = { PERF_FILE_HEADER_SIZE, PERF_FILE_HEADER_SIZE };
			const struct perf_data_attr *a;
			struct perf_sample s;

			it.pos += 16;
			assert_int_equal(perf_data_file__sample(&f, &it, (const u8 *)rec, 16, &a, &s), -1);
			assert_string_equal(f.err, "h.data: sample at offset 104: no attr has its id");
		}
		perf_data_file__close(&f);
	}
	/* record names: known, a gap, past the table */
	assert_string_equal(perf_event__name(PERF_RECORD_SAMPLE), "SAMPLE");
	assert_string_equal(perf_event__name(PERF_RECORD_FINISHED_ROUND), "FINISHED_ROUND");
	assert_null(perf_event__name(PERF_RECORD_FINISHED_ROUND + 1000));

	/* a long name is given whole with the problem; one past any path is cut before it */
	{
		static char longpath[5000], want[5100];

		snprintf(longpath, sizeof(longpath), "%s/", dir);
		memset(longpath + strlen(longpath), 'l', 300);
		assert_int_equal(perf_data_file__open(&f, longpath), -1);
		snprintf(want, sizeof(want), "%s: cannot open: %s", longpath, strerror(ENAMETOOLONG));
		assert_string_equal(f.err, want);
		perf_data_file__close(&f);
		memset(longpath, 'm', sizeof(longpath) - 1);
		assert_int_equal(perf_data_file__open(&f, longpath), -1);
		snprintf(want, sizeof(want), "%.4096s: cannot open: %s", longpath,
			 strerror(ENAMETOOLONG));
		assert_string_equal(f.err, want);
		perf_data_file__close(&f);
	}
}

/* Data that ends inside a record header: truncated, not read past. */
static void reader_refuses_a_record_header_cut_short(void **state)
{
	struct perf_data_file f;
	struct perf_data_iter it;
	char path[128];
	u8 records[4096];
	u32 records_size, n;
	const u8 *ev;
	size_t size;
	u8 *good;
	int r;

	(void)state;
	file_path(path, sizeof(path), "cut.data");
	write_test_file(path, records, &records_size);
	good = load(path, &size);
	assert_int_equal(perf_data_file__open_mem(&f, "cut.data", good, size), 0);
	f.header.data.size -= records_size - 4;		/* 4 bytes of the first record */
	perf_data_file__iter_init(&f, &it);
	r = perf_data_file__next(&f, &it, &ev, &n);
	assert_int_equal(r, -1);
	assert_non_null(strstr(f.err, "cut.data: record at offset "));
	assert_non_null(strstr(f.err, ": truncated header"));
	perf_data_file__close(&f);
	free(good);
}

/*
 * The sample_id trailer in perf's order for every field (ID and
 * STREAM_ID too), zeros when no sample id is given; names too long for a
 * record are refused with EINVAL and nothing synthesized.
 */
static void synthesized_trailer_and_long_names(void **state)
{
	struct synth_sample_id sid = { .pid = 1, .tid = 2, .time = 3, .id = 4, .stream_id = 5,
				       .cpu = 6 };
	struct perf_event_attr a;
	u8 buf[SYNTH_RECORD_MAX];
	u64 v[6];
	char name[4096 + 8];		/* past the 4096 bytes a name may take */

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	assert_int_equal(perf_event__synthesize_id_sample(buf, &a, &sid), 48);
	memcpy(v, buf, sizeof(v));
	assert_int_equal(v[0], 2ULL << 32 | 1);
	assert_int_equal(v[1], 3);
	assert_int_equal(v[2], 4);
	assert_int_equal(v[3], 5);
	assert_int_equal(v[4], 6);
	assert_int_equal(v[5], 4);
	memset(buf, 0xff, sizeof(buf));
	assert_int_equal(perf_event__synthesize_id_sample(buf, &a, NULL), 48);
	memcpy(v, buf, sizeof(v));
	for (int i = 0; i < 6; i++)
		assert_int_equal(v[i], 0);
	a.sample_id_all = 0;
	assert_int_equal(perf_event__synthesize_id_sample(buf, &a, &sid), 0);

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	errno = 0;
	assert_int_equal(perf_event__synthesize_comm(buf, &a, 1, 1, name, &sid), 0);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(perf_event__synthesize_comm(buf, &a, 1, 1, NULL, &sid), 0);
	errno = 0;
	assert_int_equal(perf_event__synthesize_mmap2(buf, &a, 1, 1, 0x1000, 0x1000, 0, 5, 2,
						      name, &sid), 0);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(perf_event__synthesize_mmap2(buf, &a, 1, 1, 0x1000, 0x1000, 0, 5, 2,
						      NULL, &sid), 0);
}

/* A READ value with its lost count; each cut short, and a record shorter than a header. */
static void sample_read_lost_and_a_short_header_are_refused(void **state)
{
	struct perf_event_attr a = { .sample_type = PERF_SAMPLE_READ,
				     .read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST };
	u64 rec[4] = { PERF_RECORD_SAMPLE | (u64)32 << 48, 7, 0x1d, 3 };
	struct perf_sample s;
	const char *why = NULL;

	(void)state;
	assert_int_equal(perf_sample__parse(&a, (const u8 *)rec, 32, &s, &why), 0);
	assert_int_equal(s.read_one.value, 7);
	assert_int_equal(s.read_one.id, 0x1d);
	assert_int_equal(s.read_one.lost, 3);
	assert_int_equal(s.read_value_size, 24);
	for (u32 cut = 8; cut < 32; cut += 8) {
		why = NULL;
		assert_int_equal(perf_sample__parse(&a, (const u8 *)rec, cut, &s, &why), -1);
		assert_string_equal(why, "read values");
	}
	assert_int_equal(perf_sample__parse(&a, (const u8 *)rec, 4, &s, &why), -1);
	assert_string_equal(why, "record header");
}

/* ---- pipe mode and the output check ------------------------------------------ */

/* A writer of "-" whose standard output is FD (stdout itself is left as it was). */
static struct perf_data_writer *open_on(int fd)
{
	struct perf_data_writer *w;
	int saved;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	w = perf_data_writer__open("-", &test_env);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	return w;
}

/* perf_data_writer__check("-") with FD as standard output. */
static int check_on(int fd, char *err, size_t errlen)
{
	int saved, ret;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, STDOUT_FILENO), STDOUT_FILENO);
	ret = perf_data_writer__check("-", err, errlen);
	assert_int_equal(dup2(saved, STDOUT_FILENO), STDOUT_FILENO);
	close(saved);
	return ret;
}

/* Read what the pipe holds once its writers are gone. */
static size_t read_all(int fd, u8 *buf, size_t cap)
{
	size_t len = 0;
	ssize_t n;

	while ((n = read(fd, buf + len, cap - len)) > 0)
		len += (size_t)n;
	assert_true(n == 0);
	return len;
}

/* What a sample hook saw: each sample's attr index and time. */
struct hooked {
	unsigned int nr;
	u32 idx[4];
	u64 time[4];
};

static void note_hooked(void *arg, u32 idx, const struct perf_event_attr *attr, const u8 *ev,
			u32 size)
{
	struct hooked *h = arg;
	struct perf_sample s;
	const char *why;

	assert_int_equal(perf_sample__parse(attr, ev, size, &s, &why), 0);
	assert_true(h->nr < 4);
	h->idx[h->nr] = idx;
	h->time[h->nr++] = s.time;
}

static void pipe_mode_streams_perfs_pipe_format(void **state)
{
	struct hooked hooked = { 0 };
	static const u8 bid1[20] = { 1, 2, 3 }, bid2[20] = { 9, 8, 7 };
	/* the features perf record sends down a pipe, of what test_env has */
	static const u64 feats[] = {
		HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION, HEADER_ARCH, HEADER_NRCPUS,
		HEADER_CPUDESC, HEADER_CPUID, HEADER_TOTAL_MEM, HEADER_CMDLINE,
		HEADER_EVENT_DESC, HEADER_CPU_PMU_CAPS, HEADER_LAST_FEATURE,
	};
	struct perf_event_attr a1, a2;
	u64 ids1[] = { 11, 12 }, ids2[] = { 21 }, v;
	u8 rec[256], out[65536];
	struct perf_data_writer *w;
	struct perf_event_header h;
	size_t len, pos, nf = 0;
	u32 n1, n2, size;
	int fds[2];

	(void)state;
	setenv("TMPDIR", dir, 1);
	assert_int_equal(pipe(fds), 0);
	w = open_on(fds[1]);
	close(fds[1]);
	assert_non_null(w);
	/* its own copy of stdout, kept out of the programs it may start */
	assert_true(perf_data_writer__in_place(w));
	assert_string_equal(perf_data_writer__target(w), "-");
	/* no file is built: the samples go to the hook as they go down the pipe */
	assert_int_equal(count_temp_files("pmusim-perf.data"), 0);
	perf_data_writer__set_sample_hook(w, note_hooked, &hooked);
	test_attr(&a1, PERF_COUNT_HW_CPU_CYCLES);
	test_attr(&a2, PERF_COUNT_HW_INSTRUCTIONS);
	a1.branch_sample_type = 0;
	a1.sample_type &= ~PERF_SAMPLE_BRANCH_STACK;
	assert_int_equal(perf_data_writer__add_attr(w, &a1, "cycles:u", ids1, 2), 0);
	assert_int_equal(perf_data_writer__add_attr(w, &a2, "instructions:u", ids2, 1), 0);
	assert_int_equal(perf_data_writer__add_build_id(w, bid1, 20, "/bin/one"), 0);
	n1 = build_sample(rec, 12, 5000);
	assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
	/* a file met after the start: its entry goes down before the next record */
	assert_int_equal(perf_data_writer__add_build_id(w, bid2, 20, "/lib/two.so"), 0);
	n2 = build_sample(rec, 21, 6000);
	assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
	assert_int_equal(perf_data_writer__close(w), 0);
	assert_int_equal(count_temp_files("pmusim-perf.data"), 0);
	/* each sample, with its attr by its id */
	assert_int_equal(hooked.nr, 2);
	assert_int_equal(hooked.idx[0], 0);
	assert_int_equal(hooked.time[0], 5000);
	assert_int_equal(hooked.idx[1], 1);
	assert_int_equal(hooked.time[1], 6000);
	len = read_all(fds[0], out, sizeof(out));
	close(fds[0]);

	/* the pipe's header: the magic and its own size, 16 */
	assert_true(len > 16);
	memcpy(&v, out, 8);
	assert_true(v == PERF_MAGIC2);
	memcpy(&v, out + 8, 8);
	assert_int_equal(v, PERF_PIPE_HEADER_SIZE);
	pos = 16;
	/* the attrs, each with its ids */
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr a;
		u64 id;

		memcpy(&h, out + pos, sizeof(h));
		assert_int_equal(h.type, PERF_RECORD_HEADER_ATTR);
		assert_int_equal(h.size, 8 + PERF_DATA_ATTR_SIZE + 8 * (i ? 1 : 2));
		memset(&a, 0, sizeof(a));
		memcpy(&a, out + pos + 8, PERF_DATA_ATTR_SIZE);
		assert_int_equal(a.size, PERF_DATA_ATTR_SIZE);
		assert_int_equal(a.config, i ? PERF_COUNT_HW_INSTRUCTIONS : PERF_COUNT_HW_CPU_CYCLES);
		memcpy(&id, out + pos + 8 + PERF_DATA_ATTR_SIZE, 8);
		assert_int_equal(id, i ? 21 : 11);
		pos += h.size;
	}
	/* the features in order, HEADER_LAST_FEATURE's id ending them */
	while (pos + 16 <= len) {
		u64 feat;

		memcpy(&h, out + pos, sizeof(h));
		if (h.type != PERF_RECORD_HEADER_FEATURE)
			break;
		memcpy(&feat, out + pos + 8, 8);
		assert_true(nf < ARRAY_SIZE(feats));
		assert_int_equal(feat, feats[nf]);
		if (feat == HEADER_HOSTNAME) {
			/* the section as in a file: its length padded to 64, the name */
			memcpy(&size, out + pos + 16, 4);
			assert_int_equal(size, 64);
			assert_string_equal((const char *)out + pos + 20, "pmusim");
			assert_int_equal(h.size, 16 + 4 + 64);
		}
		if (feat == HEADER_LAST_FEATURE)
			assert_int_equal(h.size, 16);
		nf++;
		pos += h.size;
	}
	assert_int_equal(nf, ARRAY_SIZE(feats));
	/* the build-id known at the start, the first sample, the new build-id, the second */
	memcpy(&h, out + pos, sizeof(h));
	assert_int_equal(h.type, PERF_RECORD_HEADER_BUILD_ID);
	assert_int_equal(h.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE);
	assert_int_equal(h.size, 36 + 64);
	assert_memory_equal(out + pos + 12, bid1, 20);
	assert_int_equal(out[pos + 32], 20);
	assert_string_equal((const char *)out + pos + 36, "/bin/one");
	pos += h.size;
	memcpy(&h, out + pos, sizeof(h));
	assert_int_equal(h.type, PERF_RECORD_SAMPLE);
	assert_int_equal(h.size, n1);
	pos += h.size;
	memcpy(&h, out + pos, sizeof(h));
	assert_int_equal(h.type, PERF_RECORD_HEADER_BUILD_ID);
	assert_string_equal((const char *)out + pos + 36, "/lib/two.so");
	pos += h.size;
	memcpy(&h, out + pos, sizeof(h));
	assert_int_equal(h.type, PERF_RECORD_SAMPLE);
	assert_int_equal(h.size, n2);
	assert_memory_equal(out + pos, rec, n2);
	pos += h.size;
	assert_int_equal(pos, len);
	unsetenv("TMPDIR");
}

static void pipe_mode_without_a_reader_is_a_write_error(void **state)
{
	struct perf_event_attr a;
	u64 id = 11;
	struct perf_data_writer *w;
	sigset_t pending;
	u8 rec[256];
	int fds[2];

	(void)state;
	setenv("TMPDIR", dir, 1);
	assert_int_equal(pipe(fds), 0);
	w = open_on(fds[1]);
	close(fds[1]);
	close(fds[0]);		/* the reader went away */
	assert_non_null(w);
	test_attr(&a, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(perf_data_writer__add_attr(w, &a, "cycles:u", &id, 1), 0);
	build_sample(rec, 11, 100);
	/* buffered, then written at the end: EPIPE there, and this process lives on */
	assert_int_equal(perf_data_writer__write(w, (struct perf_event_header *)rec), 0);
	assert_int_equal(perf_data_writer__close(w), -1);
	assert_string_equal(perf_data_writer__last_error(),
			    "standard output (-o -): write failed: Broken pipe");
	assert_int_equal(sigpending(&pending), 0);
	assert_false(sigismember(&pending, SIGPIPE));
	assert_int_equal(count_temp_files("pmusim-perf.data"), 0);
	unsetenv("TMPDIR");
}

/* Entries of the test directory: the check makes no file it leaves behind. */
static int count_entries(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void check_says_what_the_writer_would_meet(void **state)
{
	char path[200], sub[160], msg[600], err[600];
	int fds[2], tty, fd, status, entries;
	pid_t pid;

	(void)state;
	snprintf(sub, sizeof(sub), "%s/check", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	/* a new file in a directory that takes files: nothing made */
	snprintf(path, sizeof(path), "%s/new.data", sub);
	assert_int_equal(perf_data_writer__check(path, err, sizeof(err)), 0);
	assert_int_equal(count_entries(sub), 0);
	/* an existing file that can be written: left as it was */
	assert_int_equal(write_small(path, 1), 0);
	entries = count_entries(sub);
	assert_int_equal(perf_data_writer__check(path, err, sizeof(err)), 0);
	assert_int_equal(count_entries(sub), entries);
	/* a missing directory, named with the reason */
	snprintf(path, sizeof(path), "%s/none/x.data", sub);
	assert_int_equal(perf_data_writer__check(path, err, sizeof(err)), -1);
	snprintf(msg, sizeof(msg), "%s: cannot create a file in %s/none: No such file or directory",
		 path, sub);
	assert_string_equal(err, msg);
	/* a directory */
	assert_int_equal(perf_data_writer__check(sub, err, sizeof(err)), -1);
	snprintf(msg, sizeof(msg), "%s: is a directory", sub);
	assert_string_equal(err, msg);
	/* a device and a FIFO: in place (the FIFO is not opened: that would wait) */
	if (!access("/dev/null", W_OK))
		assert_int_equal(perf_data_writer__check("/dev/null", err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/fifo", sub);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(perf_data_writer__check(path, err, sizeof(err)), 0);
	unlink(path);

	/* read-only: root writes anyway, so the child checks as nobody */
	snprintf(path, sizeof(path), "%s/ro", sub);
	assert_int_equal(mkdir(path, 0555), 0);
	snprintf(path, sizeof(path), "%s/ro.data", sub);
	assert_int_equal(write_small(path, 1), 0);
	assert_int_equal(chmod(path, 0444), 0);
	assert_int_equal(chmod(dir, 0755), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(3);
		snprintf(path, sizeof(path), "%s/ro/x.data", sub);
		if (perf_data_writer__check(path, err, sizeof(err)) != -1 ||
		    !strstr(err, "/ro: Permission denied"))
			_exit(1);
		snprintf(path, sizeof(path), "%s/ro.data", sub);
		snprintf(msg, sizeof(msg), "%s: cannot write: Permission denied", path);
		if (perf_data_writer__check(path, err, sizeof(err)) != -1 || strcmp(err, msg))
			_exit(2);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	chmod(dir, 0700);

	/* "-": a pipe is what it wants, a read-only stdout or a terminal it refuses */
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(check_on(fds[1], err, sizeof(err)), 0);
	close(fds[0]);
	close(fds[1]);
	fd = open("/dev/null", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(check_on(fd, err, sizeof(err)), -1);
	assert_string_equal(err, "-: standard output is not open for writing");
	close(fd);
	tty = posix_openpt(O_RDWR | O_NOCTTY);
	if (tty >= 0 && !grantpt(tty) && !unlockpt(tty) &&
	    (fd = open(ptsname(tty), O_RDWR | O_NOCTTY)) >= 0) {
		assert_int_equal(check_on(fd, err, sizeof(err)), -1);
		assert_string_equal(err, "-: standard output is a terminal: pipe it into perf "
					 "(perf report -i -)");
		close(fd);
	} else {
		print_message("# no pseudo-terminal here: the terminal case is not checked\n");
	}
	if (tty >= 0)
		close(tty);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_keeps_attrs_ids_records_and_features),
		cmocka_unit_test(writer_keeps_rfc_fields_and_config3_out),
		cmocka_unit_test(writer_refuses_bad_records_and_late_attrs),
		cmocka_unit_test(writer_open_failure_names_the_file),
		cmocka_unit_test(writer_keeps_the_previous_file_as_old),
		cmocka_unit_test(reading_a_large_file_holds_a_window_of_it),
		cmocka_unit_test(writer_follows_a_symlink),
		cmocka_unit_test(writer_reports_a_full_device),
		cmocka_unit_test(writer_result_is_readable_before_close),
		cmocka_unit_test(corrupt_files_refused_with_their_reason),
		cmocka_unit_test(every_truncation_is_refused),
		cmocka_unit_test(flipped_bytes_never_crash_the_reader),
		cmocka_unit_test(sample_decodes_every_sample_type_bit),
		cmocka_unit_test(sample_with_huge_counts_is_refused),
		cmocka_unit_test(perf_map_round_trip_and_short_names_refused),
		cmocka_unit_test(synthesized_comm_and_mmap2_have_the_abi_layout),
		cmocka_unit_test(writer_refuses_bad_arguments),
		cmocka_unit_test(writer_open_names_what_is_wrong_with_the_target),
		cmocka_unit_test(writer_follows_absolute_and_bare_symlinks),
		cmocka_unit_test(writer_fails_when_the_old_file_cannot_be_kept),
		cmocka_unit_test(writer_keeps_the_old_file_by_rename_when_it_cannot_link),
		cmocka_unit_test(writer_fails_when_the_target_became_a_directory),
		cmocka_unit_test(writer_fails_whole_at_every_file_size_limit),
		cmocka_unit_test(writer_times_only_the_samples_it_can_place),
		cmocka_unit_test(writer_fills_in_what_the_env_leaves_out),
		cmocka_unit_test(reader_refuses_each_corrupt_feature),
		cmocka_unit_test(reader_names_what_is_wrong_with_the_file),
		cmocka_unit_test(reader_refuses_a_record_header_cut_short),
		cmocka_unit_test(synthesized_trailer_and_long_names),
		cmocka_unit_test(sample_read_lost_and_a_short_header_are_refused),
		cmocka_unit_test(pipe_mode_streams_perfs_pipe_format),
		cmocka_unit_test(pipe_mode_without_a_reader_is_a_write_error),
		cmocka_unit_test(check_says_what_the_writer_would_meet),
		cmocka_unit_test(writer_keeps_what_fitted),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
