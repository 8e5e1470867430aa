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
#include "tests/lib/capture.h"
#include "tests/lib/scratch.h"
#include "cmd/commands.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"

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
	if (scratch_dir_make(dir, sizeof(dir), "dump"))
		return -1;
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(outpath, sizeof(outpath), "%s/stdout", dir);
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static int dump(int argc, const char *a1)
{
	char *argv[] = { "dump", (char *)a1, NULL };

	return capture_call(cmd_dump, argc, argv, outpath, errpath);
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
	out = scratch_read(outpath);
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
	err = scratch_read(errpath);
	assert_string_equal(err, "usage: pmusim dump FILE\n");
	free(err);
	assert_int_equal(dump(2, "--help"), 0);
	err = scratch_read(outpath);
	assert_non_null(strstr(err, "usage: pmusim dump FILE\n\nPrint FILE (perf.data) as text"));
	free(err);
}

/*
 * Records cut short, field by field, as a damaged or foreign file has
 * them: each line shows the fields that fit and nothing past them. The
 * file has no host strings, its first attr a trailer of ID alone, and
 * samples with READ (one value without ID or LOST; a group of values
 * alone) and no variable-size field; its last record is 20 bytes, not a
 * multiple of 8, and ends in a partial word.
 */
static void emit_words(struct perf_data_writer *w, u32 type, unsigned int nr_words, bool trailer)
{
	u64 body[16];
	unsigned int n = 0;

	while (n < nr_words) {
		body[n] = n + 1;	/* 1, 2, 3...: a u32 pair reads (n + 1, 0) */
		n++;
	}
	if (trailer)
		body[n++] = 31;		/* sample_id.id */
	emit(w, type, 0, body, n);
}

static void make_short_file(const char *path)
{
	static const struct perf_data_env bare = { .version = "6.12" };
	struct perf_event_attr a = { 0 }, b;
	struct perf_data_writer *w;
	const u64 ida = 31, idb = 32;
	static const struct { u32 type; unsigned int words; } cut[] = {
		{ PERF_RECORD_MMAP, 0 }, { PERF_RECORD_MMAP, 1 }, { PERF_RECORD_MMAP, 2 },
		{ PERF_RECORD_MMAP, 3 }, { PERF_RECORD_MMAP, 4 },
		{ PERF_RECORD_MMAP2, 4 }, { PERF_RECORD_MMAP2, 5 }, { PERF_RECORD_MMAP2, 6 },
		{ PERF_RECORD_MMAP2, 7 },
		{ PERF_RECORD_LOST, 0 }, { PERF_RECORD_LOST, 1 },
		{ PERF_RECORD_COMM, 0 },
		{ PERF_RECORD_EXIT, 0 }, { PERF_RECORD_EXIT, 1 }, { PERF_RECORD_FORK, 2 },
		{ PERF_RECORD_THROTTLE, 0 }, { PERF_RECORD_UNTHROTTLE, 1 }, { PERF_RECORD_THROTTLE, 2 },
		{ PERF_RECORD_ITRACE_START, 0 }, { PERF_RECORD_LOST_SAMPLES, 0 },
		{ PERF_RECORD_SWITCH_CPU_WIDE, 0 },
	};

	a.size = sizeof(a);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID | PERF_SAMPLE_READ;
	a.sample_id_all = 1;
	b = a;
	b.read_format = PERF_FORMAT_GROUP;
	w = perf_data_writer__open(path, &bare);
	assert_non_null(w);
	assert_int_equal(perf_data_writer__add_attr(w, &a, "a", &ida, 1), 0);
	assert_int_equal(perf_data_writer__add_attr(w, &b, "b", &idb, 1), 0);
	{	/* bytes 0x80 and 0x7f in a name: \x escapes */
		u64 body[] = { pair(7, 8), 0, 31 };

		memcpy(&body[1], "x\x80\x7fy", 5);
		emit(w, PERF_RECORD_COMM, 0, body, 3);
	}
	for (unsigned int i = 0; i < sizeof(cut) / sizeof(cut[0]); i++)
		emit_words(w, cut[i].type, cut[i].words, true);
	emit_words(w, PERF_RECORD_LOST, 0, false);		/* no room for the trailer */
	emit_words(w, PERF_RECORD_FINISHED_ROUND, 1, false);	/* perf's own: no trailer */
	{
		u64 sa[] = { 0x1234, 31, 77 }, sb[] = { 0x5678, 32, 2, 5, 6, 0x99 };

		emit(w, PERF_RECORD_SAMPLE, 2, sa, 3);
		emit(w, PERF_RECORD_SAMPLE, 2, sb, 6);	/* and a word past the group */
	}
	emit_words(w, 70, 2, false);		/* cut to 20 bytes below */
	assert_int_equal(perf_data_writer__close(w), 0);

	/*
	 * The last record 4 bytes shorter: its last 4 bytes cut out, the data
	 * section 4 bytes shorter, and the feature sections after it (their
	 * table, then their bodies) 4 bytes earlier.
	 */
	{
		u64 data_off, data_size, off, nr_feat = 0;
		u16 size = 20;
		u8 *buf;
		long len;
		FILE *f = fopen(path, "r+");

		assert_non_null(f);
		assert_int_equal(fseek(f, 0, SEEK_END), 0);
		len = ftell(f);
		buf = malloc((size_t)len);
		assert_non_null(buf);
		rewind(f);
		assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
		memcpy(&data_off, buf + 40, 8);
		memcpy(&data_size, buf + 48, 8);
		for (int i = 0; i < 4; i++) {	/* adds_features: 256 bits at 72 */
			u64 bits;

			memcpy(&bits, buf + 72 + 8 * i, 8);
			nr_feat += (u64)__builtin_popcountll(bits);
		}
		off = data_off + data_size;
		memcpy(buf + off - 24 + 6, &size, 2);
		memmove(buf + off - 4, buf + off, (size_t)len - off);
		len -= 4;
		data_size -= 4;
		memcpy(buf + 48, &data_size, 8);
		for (u64 i = 0; i < nr_feat; i++) {
			u64 at;

			memcpy(&at, buf + off - 4 + 16 * i, 8);
			at -= 4;
			memcpy(buf + off - 4 + 16 * i, &at, 8);
		}
		rewind(f);
		assert_int_equal(fwrite(buf, 1, (size_t)len, f), (size_t)len);
		assert_int_equal(ftruncate(fileno(f), len), 0);
		assert_int_equal(fclose(f), 0);
		free(buf);
	}
}

static void test_short_records(void **state)
{
	char path[128], *out;
	static const char *const want[] = {
		"header\tattrs=2\t",
		"env\thostname=\"\"\tos_release=\"\"\tarch=\"\"\tnr_cpus_avail=0",
		"0\tCOMM\tmisc=0\tsize=32\tpid=7\ttid=8\tcomm=\"x\\x80\\x7fy\"\tsample_id.id=31\n",
		"1\tMMAP\tmisc=0\tsize=16\tsample_id.id=31\n",
		"2\tMMAP\tmisc=0\tsize=24\tpid=1\ttid=0\tsample_id.id=31\n",
		"3\tMMAP\tmisc=0\tsize=32\tpid=1\ttid=0\taddr=0x2\tsample_id.id=31\n",
		"4\tMMAP\tmisc=0\tsize=40\tpid=1\ttid=0\taddr=0x2\tlen=0x3\tsample_id.id=31\n",
		"5\tMMAP\tmisc=0\tsize=48\tpid=1\ttid=0\taddr=0x2\tlen=0x3\tpgoff=0x4"
		"\tfilename=\"\"\tsample_id.id=31\n",
		"6\tMMAP2\tmisc=0\tsize=48\tpid=1\ttid=0\taddr=0x2\tlen=0x3\tpgoff=0x4"
		"\tsample_id.id=31\n",
		"7\tMMAP2\tmisc=0\tsize=56\tpid=1\ttid=0\taddr=0x2\tlen=0x3\tpgoff=0x4\tmaj=5\tmin=0"
		"\tsample_id.id=31\n",
		"8\tMMAP2\tmisc=0\tsize=64\tpid=1\ttid=0\taddr=0x2\tlen=0x3\tpgoff=0x4\tmaj=5\tmin=0"
		"\tino=6\tsample_id.id=31\n",
		"9\tMMAP2\tmisc=0\tsize=72\tpid=1\ttid=0\taddr=0x2\tlen=0x3\tpgoff=0x4\tmaj=5\tmin=0"
		"\tino=6\tino_generation=7\tsample_id.id=31\n",
		"10\tLOST\tmisc=0\tsize=16\tsample_id.id=31\n",
		"11\tLOST\tmisc=0\tsize=24\tid=1\tsample_id.id=31\n",
		"12\tCOMM\tmisc=0\tsize=16\tsample_id.id=31\n",
		"13\tEXIT\tmisc=0\tsize=16\tsample_id.id=31\n",
		"14\tEXIT\tmisc=0\tsize=24\tpid=1\tppid=0\tsample_id.id=31\n",
		"15\tFORK\tmisc=0\tsize=32\tpid=1\tppid=0\ttid=2\tptid=0\tsample_id.id=31\n",
		"16\tTHROTTLE\tmisc=0\tsize=16\tsample_id.id=31\n",
		"17\tUNTHROTTLE\tmisc=0\tsize=24\ttime=1\tsample_id.id=31\n",
		"18\tTHROTTLE\tmisc=0\tsize=32\ttime=1\tid=2\tsample_id.id=31\n",
		"19\tITRACE_START\tmisc=0\tsize=16\tsample_id.id=31\n",
		"20\tLOST_SAMPLES\tmisc=0\tsize=16\tsample_id.id=31\n",
		"21\tSWITCH_CPU_WIDE\tmisc=0\tsize=16\tsample_id.id=31\n",
		"22\tLOST\tmisc=0\tsize=8\n",
		"23\tFINISHED_ROUND\tmisc=0\tsize=16\tbody[0]=0x1\n",
		"24\tSAMPLE\tmisc=0x2\tsize=32\tid=31\tip=0x1234\tread.nr=1\tread.value=77\n",
		"25\tSAMPLE\tmisc=0x2\tsize=56\tid=32\tip=0x5678\tread.nr=2\tread.values[0]=5"
		"\tread.values[1]=6\trest[0]=0x99\n",
		"26\tTYPE70\tmisc=0\tsize=20\tbody[0]=0x1\tbody[1]=02000000\n",
	};
	const char *p;

	(void)state;
	snprintf(path, sizeof(path), "%s/short.data", dir);
	make_short_file(path);
	if (dump(2, path))
		fail_msg("exit status not 0: %s", scratch_read(errpath));
	out = scratch_read(outpath);
	p = out;
	for (unsigned int i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		p = strstr(p, want[i]);
		if (!p)
			fail_msg("no line '%s' (in order) in:\n%s", want[i], out);
		assert_true(p == out || p[-1] == '\n');
	}
	assert_int_equal(strlen(p), strlen(want[sizeof(want) / sizeof(want[0]) - 1]));
	free(out);
	out = scratch_read(errpath);
	assert_string_equal(out, "");
	free(out);
}

/* A file of no attrs: records without a trailer, samples impossible. */
static void test_no_attrs(void **state)
{
	static const struct perf_data_env bare = { .version = "6.12" };
	struct perf_data_writer *w;
	char path[128], *out;
	u64 body[] = { pair(3, 4), 0 };

	(void)state;
	snprintf(path, sizeof(path), "%s/noattr.data", dir);
	memcpy(&body[1], "ab", 3);
	w = perf_data_writer__open(path, &bare);
	assert_non_null(w);
	emit(w, PERF_RECORD_COMM, 0, body, 2);
	assert_int_equal(perf_data_writer__close(w), 0);
	assert_int_equal(dump(2, path), 0);
	out = scratch_read(outpath);
	assert_non_null(strstr(out, "header\tattrs=0\t"));
	assert_non_null(strstr(out, "\n0\tCOMM\tmisc=0\tsize=24\tpid=3\ttid=4\tcomm=\"ab\"\n"));
	free(out);

	/* an attr without sample_id_all: the same record is all body */
	{
		struct perf_event_attr a = { .size = sizeof(a), .sample_type = PERF_SAMPLE_IP };
		const u64 id = 1;

		w = perf_data_writer__open(path, &bare);
		assert_non_null(w);
		assert_int_equal(perf_data_writer__add_attr(w, &a, "a", &id, 1), 0);
		emit(w, PERF_RECORD_COMM, 0, body, 2);
		assert_int_equal(perf_data_writer__close(w), 0);
	}
	assert_int_equal(dump(2, path), 0);
	out = scratch_read(outpath);
	assert_non_null(strstr(out, "header\tattrs=1\t"));
	assert_non_null(strstr(out, "\n0\tCOMM\tmisc=0\tsize=24\tpid=3\ttid=4\tcomm=\"ab\"\n"));
	free(out);
}

static void test_usage_h(void **state)
{
	char *out;

	(void)state;
	assert_int_equal(dump(2, "-h"), 0);
	out = scratch_read(outpath);
	assert_true(!strncmp(out, "usage: pmusim dump FILE\n\nPrint FILE", 35));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_short_records),
		cmocka_unit_test(test_no_attrs),
		cmocka_unit_test(test_usage_h),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
