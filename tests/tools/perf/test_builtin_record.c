// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record session (tools/perf/builtin_record.c) against a system that
 * is not pmusim's machine: a stand-in whose system calls only note what
 * was asked and whose buffers are filled here by hand. So the session
 * proves it needs nothing of sim/: events opened as perf record opens
 * them (per thread, per CPU of a CPU mask, an owner's further events
 * redirected into its first one's buffer), the buffers mapped writable
 * unless overwritten; the file's attrs with their events' ids, the
 * COMM and MMAP2 records of the threads running when recording began,
 * then what the buffers held, read when they woke the reader or each
 * interval, paused around each read when asked; the figures of what
 * was read; the programs' ELF files named apart and put into the
 * caches; and each failure as one line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "core/kernel.h"
#include "tools/perf/builtin_record.h"
#include "tools/perf/util/perf_data_read.h"

#define PAGES		2
#define MAX_FDS		32

static char dir[64];

static const struct perf_data_env env = { .version = "6.12", .arch = "x86_64" };

/* The stand-in system: what each call was asked, and the buffers it mapped. */
struct fake {
	unsigned int nr_fds;
	int pid[MAX_FDS], cpu[MAX_FDS];
	int output[MAX_FDS];		/* SET_OUTPUT's target, -1: none */
	struct perf_event_mmap_page *page[MAX_FDS];
	bool writable[MAX_FDS];
	bool woken[MAX_FDS];
	unsigned int pauses, resumes;
	bool paused;
	unsigned int fail_open_at;	/* this open (1-based) fails with EACCES; 0: none */
	bool fail_mmap;
};

static struct fake fake;

static int fake_open(void *priv, const struct perf_event_attr *attr, int pid, int cpu)
{
	struct fake *f = priv;

	assert_int_equal(attr->size, sizeof(*attr));
	if (f->nr_fds + 1 == f->fail_open_at)
		return -EACCES;
	assert_true(f->nr_fds < MAX_FDS);
	f->pid[f->nr_fds] = pid;
	f->cpu[f->nr_fds] = cpu;
	f->output[f->nr_fds] = -1;
	return (int)f->nr_fds++;
}

static int fake_set_output(void *priv, int fd, int output)
{
	struct fake *f = priv;

	f->output[fd] = output;
	return 0;
}

static u64 fake_id(void *priv, int fd)
{
	(void)priv;
	return 1000 + (u64)fd;
}

static struct perf_event_mmap_page *fake_mmap(void *priv, int fd, unsigned int pages,
					      bool writable)
{
	struct fake *f = priv;
	void *mem = NULL;

	if (f->fail_mmap)
		return NULL;
	assert_int_equal(posix_memalign(&mem, 4096, 4096 * (1 + (size_t)pages)), 0);
	memset(mem, 0, 4096 * (1 + (size_t)pages));
	f->page[fd] = mem;
	f->page[fd]->data_offset = 4096;
	f->page[fd]->data_size = 4096 * (u64)pages;
	f->writable[fd] = writable;
	return mem;
}

static bool fake_poll(void *priv, int fd)
{
	struct fake *f = priv;
	bool woken = f->woken[fd];

	f->woken[fd] = false;
	return woken;
}

static void fake_pause_output(void *priv, int fd, bool pause)
{
	struct fake *f = priv;

	(void)fd;
	assert_true(pause != f->paused);
	f->paused = pause;
	if (pause)
		f->pauses++;
	else
		f->resumes++;
}

static const struct record_sys sys = {
	fake_open, fake_set_output, fake_id, fake_mmap, fake_poll, fake_pause_output, &fake,
};

static void fake_reset(void)
{
	for (unsigned int i = 0; i < MAX_FDS; i++)
		free(fake.page[i]);
	memset(&fake, 0, sizeof(fake));
}

/* A record of TYPE with one u64 (VALUE) at the head of FD's buffer, data_head moved past it. */
static void put_record(int fd, u32 type, u64 value)
{
	struct perf_event_mmap_page *pg = fake.page[fd];
	u8 *data = (u8 *)pg + pg->data_offset;
	u64 head = pg->data_head;
	struct perf_event_header h = { .type = type, .size = 16 + (type == PERF_RECORD_LOST) * 8 };
	u64 body[2] = { value, value };

	memcpy(data + head, &h, sizeof(h));
	memcpy(data + head + 8, body, h.size - 8u);
	__atomic_store_n(&pg->data_head, head + h.size, __ATOMIC_RELEASE);
}

static const struct record_opts opts = { .mmap_pages = PAGES, .source = "test.yaml" };

/* events 0 and 2 per thread, event 1 on CPU 1 of 2 */
static struct record_evsel evsels[3];
static const struct record_thread threads[] = {
	{ .pid = 10, .tid = 10, .cpu = 0, .comm = "leader", .started = true, .program = 0 },
	{ .pid = 10, .tid = 11, .cpu = 1, .comm = "thread", .started = true, .program = 0 },
	{ .pid = 20, .tid = 20, .cpu = 1, .comm = "later", .started = false, .program = 1 },
};

static int setup(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < 3; i++) {
		evsels[i].attr.size = sizeof(evsels[i].attr);
		evsels[i].attr.sample_period = 1000 + i;
		evsels[i].attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID;
		evsels[i].attr.sample_id_all = 1;
	}
	evsels[0].name = "cycles";
	evsels[1].name = "instructions";
	evsels[1].system_wide = true;
	evsels[1].cpu_mask = 2;
	evsels[2].name = "branches";
	return scratch_dir_make(dir, sizeof(dir), "record");
}

static int teardown(void **state)
{
	(void)state;
	fake_reset();
	return scratch_dir_remove(dir);
}

static void opens_as_perf_record(void **state)
{
	struct record rec;
	char err[256];

	(void)state;
	record__init(&rec, &opts, &sys);
	assert_int_equal(record__open(&rec, evsels, 3, 2, threads, 3, err, sizeof(err)), 0);
	/* threads 10, 11, 20; CPU 1 only; the threads again, into their first buffers */
	assert_int_equal(fake.nr_fds, 7);
	assert_int_equal(rec.nr_fds, 7);
	for (int t = 0; t < 3; t++) {
		assert_int_equal(fake.pid[t], threads[t].tid);
		assert_int_equal(fake.cpu[t], -1);
		assert_int_equal(fake.output[t], -1);
		assert_non_null(fake.page[t]);
		assert_true(fake.writable[t]);
		assert_int_equal(fake.pid[4 + t], threads[t].tid);
		assert_int_equal(fake.output[4 + t], t);
		assert_null(fake.page[4 + t]);
	}
	assert_int_equal(fake.pid[3], -1);
	assert_int_equal(fake.cpu[3], 1);
	assert_non_null(fake.page[3]);
	assert_int_equal(rec.nr_mmaps, 4);
	assert_int_equal(rec.mmaps[3].fd, 3);
	assert_int_equal(fake.page[3]->data_size, PAGES * 4096);
	record__exit(&rec);
	fake_reset();

	/* overwrite: mapped read-only, as perf record --overwrite */
	{
		struct record_opts o = opts;

		o.overwrite = true;
		record__init(&rec, &o, &sys);
		assert_int_equal(record__open(&rec, evsels, 1, 2, threads, 1, err, sizeof(err)), 0);
		assert_false(fake.writable[0]);
		assert_true(rec.mmaps[0].overwrite);
		record__exit(&rec);
		fake_reset();
	}
}

static void failures_are_one_line(void **state)
{
	struct record rec;
	char err[256], path[128];

	(void)state;
	fake.fail_open_at = 4;		/* evsel 1's */
	record__init(&rec, &opts, &sys);
	assert_int_equal(record__open(&rec, evsels, 3, 2, threads, 3, err, sizeof(err)), -1);
	assert_string_equal(err, "test.yaml:1: events.1: perf_event_open: Permission denied");
	record__exit(&rec);
	fake_reset();

	fake.fail_mmap = true;
	record__init(&rec, &opts, &sys);
	assert_int_equal(record__open(&rec, evsels, 1, 2, threads, 3, err, sizeof(err)), -1);
	assert_string_equal(err, "pmusim: cannot allocate a 2-page buffer");
	record__exit(&rec);
	fake_reset();

	snprintf(path, sizeof(path), "%s/no/such/dir/perf.data", dir);
	record__init(&rec, &opts, &sys);
	assert_int_equal(record__open_output(&rec, path, &env, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "perf.data"));
	assert_null(strchr(err, '\n'));
	record__exit(&rec);
	fake_reset();
}

/* The buffers' records in the file, after the header's attrs and the synthesized threads. */
static void reads_the_buffers_into_the_file(void **state)
{
	static const u8 code[64];
	static const struct genelf_sym syms[] = { { 0x401000, 0x20, "main_fn" } };
	const struct record_program progs[] = {
		{ "prog", code, 0x401000, sizeof(code), syms, 1 },
		{ "other", code, 0x401000, sizeof(code), syms, 1 },
	};
	struct record rec;
	struct perf_data_file f;
	struct perf_data_iter it;
	char path[128], err[256], warn[256] = "";
	u32 types[16], size;
	unsigned int nr = 0;
	const u8 *ev;

	(void)state;
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	record__init(&rec, &opts, &sys);
	assert_int_equal(record__open(&rec, evsels, 3, 2, threads, 3, err, sizeof(err)), 0);
	assert_int_equal(record__open_output(&rec, path, &env, err, sizeof(err)), 0);
	assert_int_equal(record__add_programs(&rec, progs, 2, err, sizeof(err)), 0);
	assert_string_equal(rec.dsos[0].filename, "/pmusim/prog");
	assert_int_equal(record__synthesize(&rec, err, sizeof(err)), 0);

	put_record(0, PERF_RECORD_SAMPLE, 0x401000);
	put_record(0, PERF_RECORD_THROTTLE, 1);
	put_record(3, PERF_RECORD_SAMPLE, 0x401010);
	put_record(3, PERF_RECORD_LOST, 5);
	/* no interval: a buffer is read when it woke the reader, and only then */
	fake.woken[3] = true;
	record__mmap_read_all(&rec, 0, false);
	assert_int_equal(rec.stats.wakeups, 1);
	assert_int_equal(rec.stats.reads, 1);
	assert_int_equal(rec.stats.records, 2);
	assert_int_equal(rec.stats.lost_records, 1);
	assert_int_equal(rec.stats.lost, 5);
	assert_int_equal(__atomic_load_n(&fake.page[3]->data_tail, __ATOMIC_ACQUIRE), 40);
	/* at the end: every one */
	record__mmap_read_all(&rec, 0, true);
	assert_int_equal(rec.stats.reads, 5);
	assert_int_equal(rec.stats.records, 4);
	assert_int_equal(rec.stats.samples, 2);
	assert_int_equal(rec.stats.throttles, 1);
	assert_int_equal(rec.stats.bytes, 16 + 16 + 16 + 24);
	assert_int_equal(rec.error, 0);

	assert_int_equal(record__finish_output(&rec, err, sizeof(err)), 0);
	assert_int_equal(record__write_buildid_cache(&rec, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_string_equal(warn, "");
	assert_int_equal(record__close_output(&rec, err, sizeof(err)), 0);
	record__exit(&rec);

	if (perf_data_file__open(&f, path))
		fail_msg("%s", f.err);
	assert_int_equal(f.nr_attrs, 3);
	assert_int_equal(f.attrs[1].nr_ids, 1);
	assert_int_equal(f.attrs[1].ids[0], 1003);
	assert_int_equal(f.attrs[2].nr_ids, 3);
	assert_int_equal(f.attrs[2].ids[2], 1006);
	assert_string_equal(f.attrs[0].name, "cycles");
	assert_int_equal(f.nr_build_ids, 2);
	perf_data_file__iter_init(&f, &it);
	while (perf_data_file__next(&f, &it, &ev, &size) > 0 && nr < 16)
		types[nr++] = ((const struct perf_event_header *)ev)->type;
	/* the leader: COMM, MMAP2; its thread: COMM; the one not started: nothing */
	assert_int_equal(nr, 7);
	assert_int_equal(types[0], PERF_RECORD_COMM);
	assert_int_equal(types[1], PERF_RECORD_MMAP2);
	assert_int_equal(types[2], PERF_RECORD_COMM);
	assert_int_equal(types[3], PERF_RECORD_SAMPLE);
	assert_int_equal(types[4], PERF_RECORD_LOST);
	assert_int_equal(types[5], PERF_RECORD_SAMPLE);
	assert_int_equal(types[6], PERF_RECORD_THROTTLE);
	perf_data_file__close(&f);
	fake_reset();
}

/* With an interval: every buffer each interval, paused while it is read when asked. */
static void reads_each_interval(void **state)
{
	struct record_opts o = opts;
	struct record rec;
	char err[256];

	(void)state;
	o.interval = 100;
	o.pause = true;
	record__init(&rec, &o, &sys);
	assert_int_equal(record__open(&rec, evsels, 1, 2, threads, 2, err, sizeof(err)), 0);
	put_record(1, PERF_RECORD_SAMPLE, 0x401000);
	fake.woken[1] = true;
	record__mmap_read_all(&rec, 99, false);		/* woken, but not due */
	assert_int_equal(rec.stats.reads, 0);
	assert_int_equal(rec.stats.wakeups, 1);
	record__mmap_read_all(&rec, 100, false);
	assert_int_equal(rec.stats.reads, 2);
	assert_int_equal(rec.stats.records, 1);
	assert_int_equal(fake.pauses, 2);
	assert_int_equal(fake.resumes, 2);
	assert_false(fake.paused);
	record__mmap_read_all(&rec, 150, false);
	assert_int_equal(rec.stats.reads, 2);
	record__mmap_read_all(&rec, 200, false);
	assert_int_equal(rec.stats.reads, 4);
	record__exit(&rec);
	fake_reset();
}

/* Programs named apart; their ELF files beside the output and in the user's cache. */
static void programs_go_to_the_build_id_caches(void **state)
{
	static const u8 code[64];
	static const struct genelf_sym syms[] = { { 0x401000, 0x20, "main_fn" } };
	const struct record_program progs[] = {
		{ "a/b", code, 0x401000, sizeof(code), syms, 1 },
		{ "a_b", code, 0x401000, sizeof(code), syms, 1 },
		{ "c", code, 0x401000, sizeof(code), syms, 1 },
	};
	struct record_opts o = opts;
	struct record rec;
	char path[128], user[128], err[256], warn[256] = "", elf[512], sbid[41];
	struct stat sb;

	(void)state;
	snprintf(path, sizeof(path), "%s/cached.data", dir);
	snprintf(user, sizeof(user), "%s/user-cache", dir);
	o.buildid_dir = user;
	o.buildid_beside = true;
	record__init(&rec, &o, &sys);
	assert_int_equal(record__open(&rec, evsels, 1, 2, threads, 1, err, sizeof(err)), 0);
	assert_int_equal(record__open_output(&rec, path, &env, err, sizeof(err)), 0);
	assert_int_equal(record__add_programs(&rec, progs, 3, err, sizeof(err)), 0);
	assert_string_equal(rec.dsos[0].filename, "/pmusim/a_b");
	assert_string_equal(rec.dsos[1].filename, "/pmusim/a_b-2");
	assert_string_equal(rec.dsos[2].filename, "/pmusim/c");
	assert_int_equal(record__synthesize(&rec, err, sizeof(err)), 0);
	record__mmap_read_all(&rec, 0, true);
	assert_int_equal(record__finish_output(&rec, err, sizeof(err)), 0);
	assert_int_equal(record__write_buildid_cache(&rec, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_string_equal(warn, "");
	assert_int_equal(record__close_output(&rec, err, sizeof(err)), 0);
	genelf__build_id_hex(rec.dsos[2].elf.build_id, sbid);
	snprintf(elf, sizeof(elf), "%s.debug/.build-id/%.2s/%s/elf", path, sbid, sbid + 2);
	assert_int_equal(stat(elf, &sb), 0);
	snprintf(elf, sizeof(elf), "%s/.build-id/%.2s/%s/elf", user, sbid, sbid + 2);
	assert_int_equal(stat(elf, &sb), 0);
	record__exit(&rec);
	fake_reset();

	/* a user's cache that cannot be written: a warning, and the file is written */
	snprintf(user, sizeof(user), "%s/cached.data", dir);	/* a file, not a directory */
	snprintf(path, sizeof(path), "%s/warned.data", dir);
	o.buildid_beside = false;
	record__init(&rec, &o, &sys);
	assert_int_equal(record__open(&rec, evsels, 1, 2, threads, 1, err, sizeof(err)), 0);
	assert_int_equal(record__open_output(&rec, path, &env, err, sizeof(err)), 0);
	assert_int_equal(record__add_programs(&rec, progs, 1, err, sizeof(err)), 0);
	assert_int_equal(record__synthesize(&rec, err, sizeof(err)), 0);
	assert_int_equal(record__finish_output(&rec, err, sizeof(err)), 0);
	assert_int_equal(record__write_buildid_cache(&rec, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_non_null(strstr(warn, "pmusim: warning: "));
	assert_string_equal(err, "");
	assert_int_equal(record__close_output(&rec, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &sb), 0);
	snprintf(elf, sizeof(elf), "%s.debug", path);
	assert_int_equal(stat(elf, &sb), -1);
	record__exit(&rec);
	fake_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(opens_as_perf_record),
		cmocka_unit_test(failures_are_one_line),
		cmocka_unit_test(reads_the_buffers_into_the_file),
		cmocka_unit_test(reads_each_interval),
		cmocka_unit_test(programs_go_to_the_build_id_caches),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
