// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim dump on a perf.data holding what pmusim run never writes: every
 * kernel record type dump decodes (LOST, EXIT, THROTTLE, ITRACE_START,
 * LOST_SAMPLES, SWITCH_CPU_WIDE), a type it has no name for, samples
 * with ADDR, STREAM_ID, ID, READ (one value and a group) and RAW, branch
 * entries with counters and no hw_idx, a COMM whose name needs escapes,
 * and the sample_id trailer. Each line is checked field by field; the
 * usage errors give exit 2 with the usage on stderr.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "cmd/commands.h"
#include "tools/perf/util/perf_data.h"

const char *pmusim_program = "pmusim";	/* cmd/pmusim.c's, outside the library */

static char dir[64], data[96], outpath[96], errpath[96];

static const struct perf_data_env env = {
	.hostname = "h\"ost", .os_release = "6.12", .version = "6.12", .arch = "x86_64",
	.nr_cpus_avail = 2, .nr_cpus_online = 2,
};

/* sample_id trailer of attr A: TID, TIME, STREAM_ID, CPU, IDENTIFIER */
#define TRAILER(id) pair(7, 8), 500, 600, 1, (id)

static u64 *put(u64 *p, const u64 *words, unsigned int n)
{
	memcpy(p, words, 8 * n);
	return p + n;
}

static void emit(struct perf_data_writer *w, u32 type, u16 misc, const u64 *body, unsigned int n)
{
	u64 rec[64];
	struct perf_event_header *h = (struct perf_event_header *)rec;

	assert_true(n < 63);
	put(rec + 1, body, n);
	h->type = type;
	h->misc = misc;
	h->size = (u16)(8 * (n + 1));
	assert_int_equal(perf_data_writer__write(w, h), 0);
}

static u64 pair(u32 lo, u32 hi)
{
	return (u64)hi << 32 | lo;
}

static void make_file(void)
{
	struct perf_event_attr a = { 0 }, b = { 0 };
	struct perf_data_writer *w;
	const u64 ida = 11, idb = 22;

	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_STREAM_ID |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.sample_id_all = 1;
	b = a;
	b.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID | PERF_SAMPLE_READ |
			PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK;
	b.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	b.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_COUNTERS;

	w = perf_data_writer__open(data, &env);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, "a", &ida, 1), 0);
	assert_int_equal(perf_data_writer__add_attr(w, &b, NULL, &idb, 1), 0);
	{	/* COMM "a<TAB>b<LF>\"<0x01>" */
		u64 body[] = { pair(7, 8), 0, TRAILER(11) };

		memcpy(&body[1], "a\tb\n\\\"\x01", 8);
		emit(w, PERF_RECORD_COMM, 0, body, sizeof(body) / 8);
	}
	{
		u64 body[] = { 11, 3, TRAILER(11) };

		emit(w, PERF_RECORD_LOST, 0, body, sizeof(body) / 8);
	}
	{
		u64 body[] = { pair(7, 1), pair(8, 1), 900, TRAILER(11) };

		emit(w, PERF_RECORD_EXIT, 0, body, sizeof(body) / 8);
	}
	{
		u64 body[] = { 901, 11, 500, TRAILER(11) };

		emit(w, PERF_RECORD_THROTTLE, 0, body, sizeof(body) / 8);
	}
	{
		u64 body[] = { pair(7, 8), TRAILER(11) };

		emit(w, PERF_RECORD_ITRACE_START, 0, body, sizeof(body) / 8);
	}
	{
		u64 body[] = { 42, TRAILER(11) };

		emit(w, PERF_RECORD_LOST_SAMPLES, 0, body, sizeof(body) / 8);
	}
	{
		u64 body[] = { pair(9, 10), TRAILER(11) };

		emit(w, PERF_RECORD_SWITCH_CPU_WIDE, 0, body, sizeof(body) / 8);
	}
	{	/* a kernel record type dump has no name for: its body as words */
		u64 body[] = { 0xabc, TRAILER(11) };

		emit(w, 60, 0, body, sizeof(body) / 8);
	}
	{	/* attr A: read {value 77, enabled 80, running 70, id 11, lost 2} */
		u64 body[] = { 11, 0x1234, pair(7, 8), 950, 0x5000, 500, 1,
			       1000, 77, 80, 70, 11, 2 };

		emit(w, PERF_RECORD_SAMPLE, 2, body, sizeof(body) / 8);
	}
	{	/* attr B: a group of two read values, raw data, two branches with counters */
		u64 body[] = { 22, 22,
			       2, 5, 11, 6, 22,			/* read: nr, {value, id} x 2 */
			       pair(4, 0x04030201),		/* raw: size 4, 4 bytes */
			       2, 0x10, 0x20, 0x3, 0x30, 0x40, 0x5,	/* br nr, entries */
			       0x9, 0xa };			/* counters */

		emit(w, PERF_RECORD_SAMPLE, 2, body, sizeof(body) / 8);
	}
	assert_int_equal(perf_data_writer__close(w), 0);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/pmusim-dump-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(outpath, sizeof(outpath), "%s/stdout", dir);
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = calloc(1, 1 << 16);

	assert_non_null(f);
	assert_non_null(s);
	assert_true(fread(s, 1, (1 << 16) - 1, f) < (1 << 16) - 1);
	fclose(f);
	return s;
}

static int dump(int argc, const char *a1)
{
	char *argv[] = { "dump", (char *)a1, NULL };
	int save1 = dup(1), save2 = dup(2), fd1, fd2, rc;

	fflush(stdout);
	fd1 = open(outpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fd2 = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(save1 >= 0 && save2 >= 0 && fd1 >= 0 && fd2 >= 0);
	dup2(fd1, 1);
	dup2(fd2, 2);
	close(fd1);
	close(fd2);
	rc = cmd_dump(argc, argv);
	fflush(stdout);
	dup2(save1, 1);
	dup2(save2, 2);
	close(save1);
	close(save2);
	return rc;
}

/* The line of OUT that starts with PREFIX, up to its newline, must be WANT. */
static void expect_line(const char *out, const char *prefix, const char *want)
{
	const char *p = out;
	size_t n = strlen(prefix);

	while (p && strncmp(p, prefix, n)) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	if (!p)
		fail_msg("no line starting '%s'", prefix);
	if (strncmp(p, want, strlen(want)) || p[strlen(want)] != '\n')
		fail_msg("got '%.*s', want '%s'", (int)(strchr(p, '\n') - p), p, want);
}

#define ID_A "\tsample_id.pid=7\tsample_id.tid=8\tsample_id.time=500\tsample_id.stream_id=600" \
	     "\tsample_id.cpu=1\tsample_id.identifier=11"

static void test_records(void **state)
{
	char *out;

	(void)state;
	make_file();
	assert_int_equal(dump(2, data), 0);
	out = slurp(outpath);
	/*
	 * attr B as written (PERF_ATTR_SIZE_VER7): IDENTIFIER|ID|READ|RAW|BRANCH_STACK,
	 * GROUP|ID, sample_id_all (flags bit 18), branch ANY|COUNTERS at +72
	 */
	expect_line(out, "attr1", "attr1\ttype=0\tsize=128\tconfig=0\tsample_period=1000"
		    "\tsample_type=0x10c50\tread_format=0xc\tflags=0x40000"
		    "\tattr+48=0\tattr+56=0\tattr+64=0\tattr+72=0x80008\tattr+80=0\tattr+88=0"
		    "\tattr+96=0\tattr+104=0\tattr+112=0\tattr+120=0\tids=[22]\tname=\"\"");
	expect_line(out, "env", "env\thostname=\"h\\\"ost\"\tos_release=\"6.12\"\tarch=\"x86_64\""
		    "\tnr_cpus_avail=2\tnr_cpus_online=2\tmax_branches=0"
		    "\tfirst_sample_time=950\tlast_sample_time=950");
	expect_line(out, "0\t", "0\tCOMM\tmisc=0\tsize=64\tpid=7\ttid=8"
		    "\tcomm=\"a\\tb\\n\\\\\\\"\\x01\"" ID_A);
	expect_line(out, "1\t", "1\tLOST\tmisc=0\tsize=64\tid=11\tlost=3" ID_A);
	expect_line(out, "2\t", "2\tEXIT\tmisc=0\tsize=72\tpid=7\tppid=1\ttid=8\tptid=1"
		    "\ttime=900" ID_A);
	expect_line(out, "3\t", "3\tTHROTTLE\tmisc=0\tsize=72\ttime=901\tid=11\tstream_id=500" ID_A);
	expect_line(out, "4\t", "4\tITRACE_START\tmisc=0\tsize=56\tpid=7\ttid=8" ID_A);
	expect_line(out, "5\t", "5\tLOST_SAMPLES\tmisc=0\tsize=56\tlost=42" ID_A);
	expect_line(out, "6\t", "6\tSWITCH_CPU_WIDE\tmisc=0\tsize=56\tnext_prev_pid=9"
		    "\tnext_prev_tid=10" ID_A);
	expect_line(out, "7\t", "7\tTYPE60\tmisc=0\tsize=56\tbody[0]=0xabc" ID_A);
	expect_line(out, "8\t", "8\tSAMPLE\tmisc=0x2\tsize=112\tid=11\tip=0x1234\tpid=7\ttid=8"
		    "\ttime=950\taddr=0x5000\tstream_id=500\tcpu=1\tperiod=1000\tread.nr=1"
		    "\tread.time_enabled=80\tread.time_running=70\tread.value=77\tread.id=11"
		    "\tread.lost=2");
	expect_line(out, "9\t", "9\tSAMPLE\tmisc=0x2\tsize=144\tid=22\tread.nr=2"
		    "\tread.values[0]=5\tread.values[1]=11\tread.values[2]=6\tread.values[3]=22"
		    "\traw.size=4\traw.data=01020304\tbr.nr=2\tbr[0].from=0x10\tbr[0].to=0x20"
		    "\tbr[0].flags=0x3\tbr[0].counters=0x9\tbr[1].from=0x30\tbr[1].to=0x40"
		    "\tbr[1].flags=0x5\tbr[1].counters=0xa");
	free(out);
}

static void test_usage(void **state)
{
	char *err;

	(void)state;
	assert_int_equal(dump(1, NULL), 2);
	err = slurp(errpath);
	assert_string_equal(err, "usage: pmusim dump FILE\n");
	free(err);
	assert_int_equal(dump(2, "--help"), 0);
	err = slurp(outpath);
	assert_non_null(strstr(err, "usage: pmusim dump FILE\n\nPrint FILE (perf.data) as text"));
	free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_usage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
