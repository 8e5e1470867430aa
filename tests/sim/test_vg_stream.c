// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reader of the Valgrind tool's stream (sim/vg_stream.c) against
 * streams encoded here with the tool's own encoder (vgtool/vgstream.h):
 * every record type read back as written, extreme numbers included, both
 * far from the end (the unchecked fast path) and near it; every prefix of
 * a stream either a clean end or "cut short" at the record it cuts; each
 * refusal in one line naming the file and the record's byte; and random
 * corruption of a stream in an exactly sized heap buffer (ASan builds
 * catch any read past it) never more than an error.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "sim/vg_stream.h"

/* A stream being built in memory. */
struct enc {
	uint8_t buf[1 << 20];
	size_t len;
	struct vgs_coder coder;
	size_t starts[1 << 17];		/* each record's first byte */
	unsigned int nr;
};

static void enc_init(struct enc *e)
{
	struct vgs_file_header h = { .version = VGS_VERSION, .pid = 42, .seq = 1, .ppid = 7 };

	memset(e, 0, sizeof(*e));
	memcpy(h.magic, VGS_MAGIC, 8);
	memcpy(e->buf, &h, sizeof(h));
	e->len = sizeof(h);
}

/* Room for a record: where it starts. */
static uint8_t *enc_rec(struct enc *e, size_t room)
{
	assert_true(e->len + room <= sizeof(e->buf) && e->nr < sizeof(e->starts) / sizeof(e->starts[0]));
	e->starts[e->nr++] = e->len;
	return e->buf + e->len;
}

static void enc_end(struct enc *e, const uint8_t *end)
{
	e->len = (size_t)(end - e->buf);
}

static void put_branch(struct enc *e, unsigned int kind, unsigned int len, uint32_t insns,
		       uint64_t from, uint64_t to, uint64_t sp)
{
	enc_end(e, vgs_put_branch(enc_rec(e, VGS_REC_MAX), &e->coder, kind, len, insns, from, to,
				  sp));
}

static void put_thread(struct enc *e, unsigned int type, uint32_t insns, uint64_t tid)
{
	enc_end(e, vgs_put_num(vgs_put_rec(enc_rec(e, VGS_REC_MAX), type, insns), tid));
}

static void put_mmap_file(struct enc *e, uint32_t insns, uint64_t addr, uint64_t len,
			  uint64_t pgoff, uint64_t prot, uint64_t flags, uint64_t dev,
			  uint64_t ino, const char *name, size_t name_len)
{
	uint8_t *p = vgs_put_rec(enc_rec(e, VGS_REC_MAX + name_len), VGS_MMAP, insns);

	p = vgs_put_num(p, addr);
	p = vgs_put_num(p, len);
	p = vgs_put_num(p, pgoff);
	p = vgs_put_num(p, prot);
	p = vgs_put_num(p, flags);
	p = vgs_put_num(p, dev);
	p = vgs_put_num(p, ino);
	p = vgs_put_num(p, name_len);
	memcpy(p, name, name_len);
	enc_end(e, p + name_len);
}

static void put_mmap(struct enc *e, uint32_t insns, uint64_t addr, uint64_t len, uint64_t pgoff,
		     uint64_t prot, const char *name, size_t name_len)
{
	put_mmap_file(e, insns, addr, len, pgoff, prot, 2, 0, 0, name, name_len);
}

static void put_proc(struct enc *e, unsigned int type, uint32_t insns, uint64_t pid,
		     int64_t status, const char *path)
{
	size_t n = path ? strlen(path) : 0;
	uint8_t *p = vgs_put_rec(enc_rec(e, VGS_REC_MAX + n), type, insns);

	p = vgs_put_num(p, pid);
	p = vgs_put_num(p, vgs_zigzag((uint64_t)status));
	p = vgs_put_num(p, n);
	memcpy(p, path ? path : "", n);
	enc_end(e, p + n);
}

/* VGS_CODE: @n instructions from @addr, their lengths @lens; @insns as given (0 is right) */
static void put_code(struct enc *e, uint32_t insns, uint64_t addr, const uint8_t *lens, size_t n)
{
	uint8_t *p = vgs_put_rec(enc_rec(e, VGS_REC_MAX + n), VGS_CODE, insns);

	p = vgs_put_num(p, addr);
	p = vgs_put_num(p, n);
	memcpy(p, lens, n);
	enc_end(e, p + n);
}

static void put_bytes(struct enc *e, const void *bytes, size_t n)
{
	memcpy(enc_rec(e, n), bytes, n);
	e->len += n;
}

/* A heap copy of exactly @len bytes: a read past it is ASan's. */
static uint8_t *exact_copy(const uint8_t *data, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	assert_non_null(p);
	memcpy(p, data, len);
	return p;
}

/* Read @len bytes of @data to the end: records read, and 0 or -1 with @err. */
static int read_all(const uint8_t *data, size_t len, struct vg_event *evs, unsigned int max,
		    unsigned int *nr, char *err, size_t errlen)
{
	struct vg_stream s;
	struct vg_event ev;
	uint8_t *copy = exact_copy(data, len);
	int r;

	*nr = 0;
	if (vg_stream_open_mem(&s, "STREAM", copy, len, err, errlen)) {
		free(copy);
		return -1;
	}
	while ((r = vg_stream_next(&s, &ev, err, errlen)) == 1) {
		if (*nr < max)
			evs[*nr] = ev;
		++*nr;
	}
	vg_stream_close(&s);
	free(copy);
	return r;
}

/* The one record of a stream of it alone must be refused with @want at byte 24. */
static void expect_refused(const struct enc *e, const char *want)
{
	struct vg_event ev[4];
	unsigned int nr;
	char err[256] = "", full[300];

	assert_int_equal(read_all(e->buf, e->len, ev, 4, &nr, err, sizeof(err)), -1);
	snprintf(full, sizeof(full), "STREAM: byte %zu: %s", e->starts[e->nr - 1], want);
	if (strcmp(err, full))
		fail_msg("'%s', not '%s'", err, full);
}

/* A stream of every kind of record, extreme numbers among them. */
static void build_every_record(struct enc *e)
{
	static const char so[] = "/usr/lib/x86_64-linux-gnu/libc.so.6";

	put_mmap_file(e, 0, 0x400000, 0x1000, 0, 5, 2, 0xfe00, 247476, "/bin/prog", 9);
	put_branch(e, VGK_CALL, 5, 12, 0x401000, 0x402000, 0x7ffc0000);
	put_branch(e, VGK_COND, 2, 3, 0x402010, 0x402000, 0x7ffc0000);
	put_branch(e, VGK_RET, 1, UINT32_MAX, 0x402020, 0x401005, 0x7ffc0008);
	/* from below the last to, to below from, sp far up: wrapping and signed deltas */
	put_branch(e, VGK_IND_JMP, 15, 0, UINT64_MAX, 0, UINT64_MAX);
	put_branch(e, VGK_IND_CALL, 0, 1, 0, UINT64_MAX, 0);
	put_thread(e, VGS_THREAD_NEW, 4, 2);
	put_thread(e, VGS_THREAD, 0, 2);
	put_branch(e, VGK_JMP, 2, 7, 0x500000, 0x500100, 0x7f0000);
	put_branch(e, VGK_SIGNAL, 0, 2, 0x500100, 0x600000, 0x7e0000);
	put_branch(e, VGK_SYSCALL, 2, 9, 0x600010, 0x600012, 0x7e0000);
	put_branch(e, VGK_SIGRETURN, 0, 3, 0, 0x500100, 0x7f0000);
	put_thread(e, VGS_THREAD_EXIT, 0, 2);
	put_thread(e, VGS_THREAD, 0, UINT32_MAX);
	put_mmap_file(e, 5, UINT64_MAX - 0xfff, 0x1000, UINT64_MAX, UINT32_MAX, UINT32_MAX,
		      UINT64_MAX, UINT64_MAX, so, sizeof(so) - 1);
	put_mmap(e, 0, 0x1000, 0x1000, 0, 7, "", 0);
	put_proc(e, VGS_FORK, 1, 4321, 0, NULL);
	put_proc(e, VGS_EXEC, 2, 1234, 0, "/bin/true");
	enc_end(e, vgs_put_rec(enc_rec(e, VGS_REC_MAX), VGS_EXEC_FAILED, 6));
	enc_end(e, vgs_put_rec(enc_rec(e, VGS_REC_MAX), VGS_INSNS, 77));
	enc_end(e, vgs_put_rec(enc_rec(e, VGS_REC_MAX), VGS_EXEC_FAILED, 0));
	put_proc(e, VGS_EXIT, 0, UINT32_MAX, INT32_MIN, NULL);
	put_proc(e, VGS_EXIT, 0, 1, -1, NULL);
	put_proc(e, VGS_EXIT, 0, 1, INT32_MAX, NULL);
	put_proc(e, VGS_WAKE, 8, 4322, 61, NULL);	/* wait4 reaped 4322 */
	put_proc(e, VGS_WAKE, 0, 0, 202, NULL);		/* futex */
	put_code(e, 0, 0x401000, (const uint8_t *)"\x01\x0f\x05", 3);
}

/* The records of build_every_record() as read (@first: the index of its first record). */
static void check_every_record(const struct vg_event *ev)
{
	assert_int_equal(ev[0].type, VGS_MMAP);
	assert_true(ev[0].addr == 0x400000 && ev[0].len == 0x1000 && ev[0].prot == 5);
	assert_true(ev[0].dev == 0xfe00 && ev[0].ino == 247476 && ev[0].flags == 2);
	assert_int_equal(ev[0].name_len, 9);
	assert_memory_equal(ev[0].name, "/bin/prog", 9);
	assert_true(ev[1].type == VGS_BRANCH && ev[1].kind == VGK_CALL && ev[1].insn_len == 5);
	assert_true(ev[1].insns == 12 && ev[1].tid == 1);
	assert_true(ev[1].from == 0x401000 && ev[1].to == 0x402000 && ev[1].sp == 0x7ffc0000);
	assert_true(ev[2].kind == VGK_COND && ev[2].from == 0x402010 && ev[2].to == 0x402000);
	assert_true(ev[3].kind == VGK_RET && ev[3].insns == UINT32_MAX && ev[3].sp == 0x7ffc0008);
	assert_true(ev[4].kind == VGK_IND_JMP && ev[4].insn_len == 15 && ev[4].from == UINT64_MAX);
	assert_true(ev[4].to == 0 && ev[4].sp == UINT64_MAX && ev[4].insns == 0);
	assert_true(ev[5].from == 0 && ev[5].to == UINT64_MAX && ev[5].sp == 0);
	assert_true(ev[6].type == VGS_THREAD_NEW && ev[6].other_tid == 2 && ev[6].tid == 1);
	assert_true(ev[6].insns == 4);
	assert_true(ev[7].type == VGS_THREAD && ev[7].tid == 2);
	assert_true(ev[8].type == VGS_BRANCH && ev[8].tid == 2 && ev[8].from == 0x500000);
	assert_true(ev[9].type == VGS_SIGNAL && ev[9].kind == VGK_SIGNAL && ev[9].to == 0x600000);
	assert_true(ev[10].kind == VGK_SYSCALL && ev[10].to == 0x600012);
	assert_true(ev[11].type == VGS_SIGRETURN && ev[11].from == 0 && ev[11].to == 0x500100);
	assert_true(ev[11].sp == 0x7f0000 && ev[11].insns == 3);
	assert_true(ev[12].type == VGS_THREAD_EXIT && ev[12].other_tid == 2);
	assert_true(ev[13].type == VGS_THREAD && ev[13].tid == UINT32_MAX);
	assert_true(ev[14].type == VGS_MMAP && ev[14].addr == UINT64_MAX - 0xfff);
	assert_true(ev[14].pgoff == UINT64_MAX && ev[14].prot == UINT32_MAX && ev[14].insns == 5);
	assert_true(ev[14].tid == UINT32_MAX);
	assert_true(ev[14].dev == UINT64_MAX && ev[14].ino == UINT64_MAX);
	assert_true(ev[14].flags == UINT32_MAX);
	assert_true(ev[15].type == VGS_MMAP && ev[15].name_len == 0 && ev[15].prot == 7);
	assert_true(ev[15].dev == 0 && ev[15].ino == 0);
	assert_true(ev[16].type == VGS_FORK && ev[16].pid == 4321 && ev[16].name_len == 0);
	assert_true(ev[17].type == VGS_EXEC && ev[17].pid == 1234 && ev[17].name_len == 9);
	assert_memory_equal(ev[17].name, "/bin/true", 9);
	assert_true(ev[18].type == VGS_EXEC_FAILED && ev[18].insns == 6);
	assert_true(ev[19].type == VGS_INSNS && ev[19].insns == 77);
	assert_true(ev[20].type == VGS_EXEC_FAILED);
	assert_true(ev[21].type == VGS_EXIT && ev[21].pid == UINT32_MAX &&
		    ev[21].status == INT32_MIN);
	assert_int_equal(ev[22].status, -1);
	assert_int_equal(ev[23].status, INT32_MAX);
	assert_true(ev[24].type == VGS_WAKE && ev[24].pid == 4322 && ev[24].status == 61);
	assert_true(ev[24].insns == 8 && ev[24].name_len == 0);
	assert_true(ev[25].type == VGS_WAKE && ev[25].pid == 0 && ev[25].status == 202);
	assert_true(ev[26].type == VGS_CODE && ev[26].addr == 0x401000 && ev[26].name_len == 3);
	assert_memory_equal(ev[26].name, "\x01\x0f\x05", 3);
	/* what a record does not carry is zero, whichever path read it */
	assert_true(ev[1].pid == 0 && ev[1].name == NULL && ev[1].addr == 0 && ev[1].other_tid == 0);
	assert_true(ev[16].from == 0 && ev[16].kind == 0);
}

#define NR_EVERY 27

static void test_every_record_reads_back(void **state)
{
	static struct enc e;
	struct vg_event ev[2 * NR_EVERY + 65];
	unsigned int nr, i;
	char err[256];

	(void)state;
	enc_init(&e);
	build_every_record(&e);
	assert_int_equal(e.nr, NR_EVERY);
	/* a loop's branches, then the same again: the first copy is read far from the end */
	put_thread(&e, VGS_THREAD, 0, 1);
	for (i = 0; i < 64; i++)
		put_branch(&e, VGK_COND, 2, 3, 0x401000 + i, 0x400ff0 + i, 0x7ffc0000);
	/* the deltas go on from the loop's last branch: build the second copy afresh */
	{
		static struct enc tail;
		size_t at = e.len;

		enc_init(&tail);
		tail.coder = e.coder;
		build_every_record(&tail);
		memcpy(e.buf + at, tail.buf + sizeof(struct vgs_file_header),
		       tail.len - sizeof(struct vgs_file_header));
		e.len = at + tail.len - sizeof(struct vgs_file_header);
	}
	if (read_all(e.buf, e.len, ev, sizeof(ev) / sizeof(ev[0]), &nr, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(nr, 2 * NR_EVERY + 65);
	check_every_record(ev);
	for (i = 0; i < 64; i++)
		assert_true(ev[NR_EVERY + 1 + i].from == 0x401000 + i &&
			    ev[NR_EVERY + 1 + i].to == 0x400ff0 + i);
	/* the second copy is within VGS_REC_MAX of the end: read byte by byte */
	check_every_record(ev + NR_EVERY + 65);
}

static void test_loop_branch_takes_5_bytes(void **state)
{
	static struct enc e;

	(void)state;
	enc_init(&e);
	put_branch(&e, VGK_COND, 2, 3, 0x401000, 0x400ff0, 0x7ffc0000);
	e.len = sizeof(struct vgs_file_header);
	put_branch(&e, VGK_COND, 2, 3, 0x401000, 0x400ff0, 0x7ffc0000);
	assert_int_equal(e.len - sizeof(struct vgs_file_header), 5);
}

/* Every prefix: a clean end at a record's end, else "cut short" at the cut record. */
static void test_every_prefix(void **state)
{
	static struct enc e;
	struct vg_event ev[NR_EVERY];
	unsigned int nr, rec = 0;
	char err[256], want[64];

	(void)state;
	enc_init(&e);
	build_every_record(&e);
	for (size_t len = sizeof(struct vgs_file_header); len <= e.len; len++) {
		int r = read_all(e.buf, len, ev, NR_EVERY, &nr, err, sizeof(err));

		while (rec < e.nr && e.starts[rec] < len)
			rec++;
		/* rec: the records that start before len */
		if (len == e.len || (rec < e.nr && e.starts[rec] == len)) {
			if (r != 0)
				fail_msg("%zu bytes: %s", len, err);
			assert_int_equal(nr, rec);
			continue;
		}
		assert_int_equal(r, -1);
		assert_int_equal(nr, rec - 1);
		snprintf(want, sizeof(want), "STREAM: byte %zu: ", e.starts[rec - 1]);
		if (strncmp(err, want, strlen(want)) || !strstr(err, "cut short"))
			fail_msg("%zu bytes: '%s'", len, err);
	}
}

static void test_refusals(void **state)
{
	static struct enc e;
	static const uint8_t eleven[] = { 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
					  0x80, 0x80, 0x00, 0, 0, 0 };
	static const uint8_t bit65[] = { 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0x02, 0, 0, 0 };
	static const uint8_t max64[] = { 0x01, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0x01, 0, 0 };
	static const uint8_t leads[] = { 0x00, 0x10, 0x70, 0x80 };
	static const uint8_t lens_ok[] = { 1, 15 }, len_zero[] = { 3, 0 }, len_16[] = { 16 };
	struct vg_event ev[2];
	unsigned int nr;
	char err[256], want[80];

	(void)state;
	for (unsigned int k = VGK__NR; k < 16; k++) {
		uint8_t lead = (uint8_t)(k | 0x20);

		enc_init(&e);
		put_bytes(&e, &lead, 1);
		expect_refused(&e, "unknown branch kind");
	}
	for (unsigned int i = 0; i < sizeof(leads); i++) {
		enc_init(&e);
		put_bytes(&e, &leads[i], 1);
		expect_refused(&e, "unknown record type");
	}
	enc_init(&e);
	put_bytes(&e, eleven, sizeof(eleven));
	expect_refused(&e, "number over 64 bits");
	enc_init(&e);
	put_bytes(&e, bit65, sizeof(bit65));
	expect_refused(&e, "number over 64 bits");
	enc_init(&e);		/* 2^64 - 1 in ten bytes is a number */
	put_bytes(&e, max64, sizeof(max64));
	assert_int_equal(read_all(e.buf, e.len, ev, 2, &nr, err, sizeof(err)), 0);
	assert_true(nr == 1 && ev[0].from == UINT64_MAX);
	enc_init(&e);		/* a count of 2^32 */
	{
		uint8_t *p = enc_rec(&e, VGS_REC_MAX);

		*p++ = VGK_CALL | 5 << 4;
		p = vgs_put_num(p, (uint64_t)UINT32_MAX + 1);
		for (int k = 0; k < 3; k++)
			p = vgs_put_num(p, 1);
		enc_end(&e, p);
	}
	expect_refused(&e, "instruction count over 32 bits");
	enc_init(&e);
	{
		static const uint8_t insns_cut[] = { VGS_INSNS << 4, 0xff };	/* a count that never ends */

		put_bytes(&e, insns_cut, sizeof(insns_cut));
	}
	expect_refused(&e, "record header cut short");
	enc_init(&e);
	put_code(&e, 1, 0x1000, lens_ok, 2);
	expect_refused(&e, "instructions counted on a code record");
	enc_init(&e);
	put_code(&e, 0, 0x1000, lens_ok, 0);
	expect_refused(&e, "code record of no or too many instructions");
	enc_init(&e);
	put_code(&e, 0, 0x1000, len_zero, 2);
	expect_refused(&e, "instruction length not 1..15");
	enc_init(&e);
	put_code(&e, 0, 0x1000, len_16, 1);
	expect_refused(&e, "instruction length not 1..15");
	enc_init(&e);
	put_code(&e, 0, UINT64_MAX - 3, lens_ok, 2);
	expect_refused(&e, "code past the end of the address space");
	enc_init(&e);
	{
		/* VGS_CODE_MAX + 1 lengths: refused by the count, before the bytes */
		uint8_t *p = vgs_put_rec(enc_rec(&e, VGS_REC_MAX), VGS_CODE, 0);

		p = vgs_put_num(p, 0x1000);
		p = vgs_put_num(p, VGS_CODE_MAX + 1);
		enc_end(&e, p);
	}
	expect_refused(&e, "code record of no or too many instructions");
	enc_init(&e);
	put_thread(&e, VGS_THREAD, 0, 0);
	expect_refused(&e, "thread 0");
	enc_init(&e);
	put_thread(&e, VGS_THREAD_NEW, 0, (uint64_t)UINT32_MAX + 1);
	expect_refused(&e, "thread number over 32 bits");
	enc_init(&e);
	put_thread(&e, VGS_THREAD, 3, 2);
	expect_refused(&e, "instructions counted before a thread switch");
	enc_init(&e);
	put_mmap(&e, 0, 0x1000, 0x1000, 0, 5, "/bin\0x", 6);
	expect_refused(&e, "NUL inside a mapping's name");
	enc_init(&e);
	put_mmap(&e, 0, 0x1000, 0x1000, 0, (uint64_t)UINT32_MAX + 1, "/bin/x", 6);
	expect_refused(&e, "mmap protection over 32 bits");
	enc_init(&e);
	put_mmap_file(&e, 0, 0x1000, 0x1000, 0, 5, (uint64_t)UINT32_MAX + 1, 0, 0, "/bin/x", 6);
	expect_refused(&e, "mmap flags over 32 bits");
	enc_init(&e);
	put_proc(&e, VGS_FORK, 0, 5, 0, "/bin/x");
	expect_refused(&e, "a path on a record that has none");
	enc_init(&e);
	put_proc(&e, VGS_WAKE, 0, 0, 202, "/bin/x");
	expect_refused(&e, "a path on a record that has none");
	enc_init(&e);
	put_proc(&e, VGS_WAKE, 0, 0, (int64_t)INT32_MIN - 1, NULL);
	expect_refused(&e, "process id or status over 32 bits");
	enc_init(&e);
	put_proc(&e, VGS_WAKE, 0, 0, 202, NULL);
	e.len--;
	expect_refused(&e, "process record cut short");
	enc_init(&e);
	put_proc(&e, VGS_EXIT, 0, 5, (int64_t)INT32_MAX + 1, NULL);
	expect_refused(&e, "process id or status over 32 bits");
	enc_init(&e);
	put_proc(&e, VGS_EXIT, 0, (uint64_t)UINT32_MAX + 1, 0, NULL);
	expect_refused(&e, "process id or status over 32 bits");
	enc_init(&e);
	put_mmap(&e, 0, 0x1000, 0x1000, 0, 5, "/bin/x", 6);
	e.len--;
	expect_refused(&e, "mmap name cut short");
	enc_init(&e);
	put_proc(&e, VGS_EXEC, 0, 5, 0, "/bin/x");
	e.len--;
	expect_refused(&e, "exec path cut short");
	{
		static char name[VGS_NAME_MAX + 1];

		memset(name, 'x', sizeof(name));
		name[0] = '/';
		enc_init(&e);
		put_mmap(&e, 0, 0x1000, 0x1000, 0, 5, name, VGS_NAME_MAX);
		assert_int_equal(read_all(e.buf, e.len, ev, 2, &nr, err, sizeof(err)), 0);
		assert_int_equal(ev[0].name_len, VGS_NAME_MAX);
		enc_init(&e);
		put_mmap(&e, 0, 0x1000, 0x1000, 0, 5, name, VGS_NAME_MAX + 1);
		expect_refused(&e, "mmap name over 16384 bytes");
	}

	/* the header */
	enc_init(&e);
	((struct vgs_file_header *)e.buf)->version = 1;
	assert_int_equal(read_all(e.buf, e.len, ev, 2, &nr, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "STREAM: stream version 1, this pmusim reads %u", VGS_VERSION);
	assert_string_equal(err, want);
	e.buf[0] = 'X';
	assert_int_equal(read_all(e.buf, e.len, ev, 2, &nr, err, sizeof(err)), -1);
	assert_string_equal(err, "STREAM: not a pmusim stream (bad magic)");
	assert_int_equal(read_all(e.buf, 3, ev, 2, &nr, err, sizeof(err)), -1);
	assert_string_equal(err, "STREAM: not a pmusim stream (3 bytes)");
}

/* The file reader: the same checks, its path in the message. */
static void test_file(void **state)
{
	static struct enc e;
	char path[] = "/tmp/test_vg_stream.XXXXXX", err[300], want[300];
	struct vg_stream s;
	struct vg_event ev;
	FILE *f;
	int fd;

	(void)state;
	enc_init(&e);
	put_branch(&e, VGK_CALL, 5, 1, 0x1000, 0x2000, 0x7000);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(e.buf, 1, e.len - 1, f), e.len - 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(vg_stream_open(&s, path, err, sizeof(err)), 0);
	assert_int_equal(s.header.pid, 42);
	assert_int_equal(vg_stream_next(&s, &ev, err, sizeof(err)), -1);
	vg_stream_close(&s);
	snprintf(want, sizeof(want), "%s: byte 24: branch record cut short", path);
	assert_string_equal(err, want);
	assert_int_equal(truncate(path, 0), 0);
	assert_int_equal(vg_stream_open(&s, path, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: not a pmusim stream (0 bytes)", path);
	assert_string_equal(err, want);
	unlink(path);
	assert_int_equal(vg_stream_open(&s, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* @bytes of random records, branches mostly; names up to @name_max bytes. */
static void build_random(struct enc *e, size_t bytes, size_t name_max)
{
	static char name[VGS_NAME_MAX];

	enc_init(e);
	memset(name, 'n', sizeof(name));
	name[0] = '/';
	while (e->len < bytes) {
		uint64_t from = e->coder.to + rnd() % 80, r = rnd();

		switch (r % 16) {
		case 0:
			put_thread(e, VGS_THREAD, 0, 1 + rnd() % 4);
			break;
		case 1:
			put_mmap(e, (uint32_t)(rnd() % 9), rnd(), rnd() % 0x100000, rnd() % 4096, 5,
				 name, 1 + rnd() % name_max);
			break;
		case 2:
			put_proc(e, VGS_EXEC, 0, rnd() % 100000, 0, "/bin/sh");
			break;
		default:
			put_branch(e, 1 + (unsigned int)(r >> 8) % (VGK__NR - 1),
				   (unsigned int)(r >> 16) % 16, (uint32_t)(r >> 24) % 300, from,
				   r & 1 ? from + (rnd() % 4096) - 2048 : rnd(),
				   e->coder.sp + (rnd() % 64) - 32);
		}
	}
}

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/*
 * A file several times the reader's window, names up to the longest
 * among the branches: read through the window as from memory, record for
 * record, byte offsets and names alike.
 */
static void test_file_through_window(void **state)
{
	static struct enc e;
	char path[] = "/tmp/test_vg_stream.XXXXXX", err[300];
	struct vg_stream f, m;
	struct vg_event a, b;
	unsigned int nr = 0;
	int fd, ra, rb;

	(void)state;
	build_random(&e, 5 * VG_STREAM_BUF, VGS_NAME_MAX);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, e.buf, e.len);
	assert_int_equal(vg_stream_open(&f, path, err, sizeof(err)), 0);
	assert_int_equal(vg_stream_open_mem(&m, "MEM", e.buf, e.len, err, sizeof(err)), 0);
	do {
		ra = vg_stream_next(&f, &a, err, sizeof(err));
		rb = vg_stream_next(&m, &b, err, sizeof(err));
		assert_int_equal(ra, rb);
		assert_int_equal(f.off, m.off);
		if (ra != 1)
			break;
		assert_int_equal(f.off, nr + 1 < e.nr ? e.starts[nr + 1] : e.len);
		assert_true(a.type == b.type && a.kind == b.kind && a.tid == b.tid &&
			    a.insns == b.insns && a.from == b.from && a.to == b.to && a.sp == b.sp &&
			    a.addr == b.addr && a.name_len == b.name_len && a.pid == b.pid);
		assert_memory_equal(a.name ? a.name : "", b.name ? b.name : "",
				    a.name ? a.name_len : 0);
		nr++;
	} while (1);
	assert_int_equal(ra, 0);
	assert_int_equal(nr, e.nr);
	vg_stream_close(&f);
	vg_stream_close(&m);

	/* cut inside a long name past the first window: the error names its record */
	ra = 0;
	for (unsigned int i = 0; i < e.nr && !ra; i++) {
		char want[300];

		if (e.starts[i] < 2 * VG_STREAM_BUF || e.buf[e.starts[i]] != VGS_MMAP << 4 ||
		    (i + 1 < e.nr ? e.starts[i + 1] : e.len) - e.starts[i] < 1000)
			continue;
		write_file(path, e.buf, e.starts[i] + 500);
		assert_int_equal(vg_stream_open(&f, path, err, sizeof(err)), 0);
		while ((ra = vg_stream_next(&f, &a, err, sizeof(err))) == 1)
			;
		vg_stream_close(&f);
		assert_int_equal(ra, -1);
		snprintf(want, sizeof(want), "%s: byte %zu: mmap name cut short", path, e.starts[i]);
		assert_string_equal(err, want);
	}
	assert_int_equal(ra, -1);	/* there was such a name */
	unlink(path);
}

/*
 * A file cut after it was opened: a name past the new end is cut short,
 * not read from what the buffer held before.  The record's numbers are in
 * the first window, its name runs past it.
 */
static void test_file_shrinks_while_read(void **state)
{
	static struct enc e;
	static char name[1000];
	char path[] = "/tmp/test_vg_stream.XXXXXX", err[300], want[300];
	struct vg_stream f;
	struct vg_event ev;
	size_t at;
	int fd, r;

	(void)state;
	enc_init(&e);
	while (e.len < VG_STREAM_BUF - 100)
		put_branch(&e, VGK_COND, 2, 3, e.coder.to + 16, e.coder.to, 0x7000);
	memset(name, 'n', sizeof(name));
	name[0] = '/';
	at = e.len;
	put_mmap(&e, 0, 0x1000, 0x1000, 0, 5, name, sizeof(name));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	write_file(path, e.buf, e.len);
	assert_int_equal(vg_stream_open(&f, path, err, sizeof(err)), 0);
	assert_int_equal(truncate(path, (off_t)(e.len - 10)), 0);
	while ((r = vg_stream_next(&f, &ev, err, sizeof(err))) == 1)
		;
	vg_stream_close(&f);
	unlink(path);
	assert_int_equal(r, -1);
	snprintf(want, sizeof(want), "%s: byte %zu: mmap name cut short", path, at);
	assert_string_equal(err, want);
}

/*
 * Random corruption: a stream of random records, then thousands of
 * copies with a few bytes changed, or cut, read to the end. Each read
 * ends cleanly or in one line naming a byte inside the stream.
 */
static void test_random_corruption(void **state)
{
	static struct enc e;
	static uint8_t bad[sizeof(e.buf)];
	unsigned int i, errors = 0;

	(void)state;
	build_random(&e, 8192, 16);
	for (i = 0; i < 20000; i++) {
		struct vg_event ev[1];
		unsigned int nr, n = 1 + (unsigned int)(rnd() % 4);
		size_t len = e.len, at;
		char err[256];

		memcpy(bad, e.buf, e.len);
		while (n--) {
			at = sizeof(struct vgs_file_header) + rnd() % (e.len - sizeof(struct vgs_file_header));
			bad[at] = (uint8_t)rnd();
		}
		if (i % 4 == 0)
			len = sizeof(struct vgs_file_header) + rnd() % (e.len - sizeof(struct vgs_file_header));
		if (read_all(bad, len, ev, 1, &nr, err, sizeof(err)) == 0)
			continue;
		errors++;
		if (strncmp(err, "STREAM: byte ", 13) || strchr(err, '\n') ||
		    strtoull(err + 13, NULL, 10) >= len)
			fail_msg("'%s' (%zu bytes)", err, len);
	}
	/* most corruptions are caught somewhere (some 14,700 of them): broken streams were read */
	assert_true(errors > 10000);
}

/* LEB128 a byte at a time, as the format defines it: what vgs_put_num() must write. */
static size_t leb128_bytes(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/*
 * vgs_put_num(), which writes numbers of up to eight bytes at once, gives
 * the bytes of the format's definition, as short as they can be;
 * vg_stream_num_here(), which reads numbers of up to eight bytes at once:
 * every length from one byte to ten, each bit in each place, and
 * encodings longer than they need be (a 0x80 byte before the last), read
 * as the byte-by-byte reader reads them; more than 64 bits refused.
 */
static void test_numbers_of_every_length(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (unsigned int bits = 0; bits <= 64; bits++) {
		for (unsigned int round = 0; round < 64; round++) {
			uint8_t buf[VGS_NUM_MAX + 8], want[VGS_NUM_MAX];
			uint64_t v, got;
			const unsigned char *end;
			size_t n;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			v = bits == 64 ? x : x & ((1ULL << bits) - 1);
			if (round == 0 && bits)
				v = 1ULL << (bits - 1);	/* the top bit alone */
			memset(buf, 0xa5, sizeof(buf));
			n = (size_t)(vgs_put_num(buf, v) - buf);
			assert_int_equal(n, leb128_bytes(want, v));
			assert_memory_equal(buf, want, n);
			end = vg_stream_num_here(buf, &got);
			assert_non_null(end);
			assert_int_equal(end - buf, n);
			assert_int_equal(got, v);
			/* the same with one 0x80 (nothing) more: what the byte reader reads */
			if (n < VGS_NUM_MAX) {
				buf[n - 1] |= 0x80;
				buf[n] = 0;
				end = vg_stream_num_here(buf, &got);
				assert_non_null(end);
				assert_int_equal(end - buf, n + 1);
				assert_int_equal(got, v);
			}
		}
	}
	{
		/* eleven bytes, or bits past 64 in the tenth: refused */
		uint8_t over[VGS_NUM_MAX + 8];
		uint64_t got;

		memset(over, 0xff, sizeof(over));
		assert_null(vg_stream_num_here(over, &got));
		memset(over, 0x80, sizeof(over));
		over[VGS_NUM_MAX - 1] = 2;
		assert_null(vg_stream_num_here(over, &got));
		over[VGS_NUM_MAX - 1] = 1;
		assert_non_null(vg_stream_num_here(over, &got));
		assert_int_equal(got, 1ULL << 63);
	}
}

/*
 * A run (vgstream.h) of @n branch records of @kinds[i % 3], marked as the
 * tool marks one if @r (its sums there), else the same records alone.
 */
struct run_sums {
	uint64_t left, max_sp;
	struct vgs_coder before;
	size_t start, end;		/* where its start and its end are */
};

static void put_run(struct enc *e, unsigned int n, struct run_sums *r)
{
	static const unsigned int kinds[] = { VGK_COND, VGK_JMP, VGK_IND_JMP };
	struct run_sums none;

	if (r) {
		r->before = e->coder;
		r->start = e->len;
		enc_end(e, vgs_put_run_start(enc_rec(e, VGS_RUN_START_SIZE)));
	} else {
		r = &none;
	}
	r->left = 0;
	r->max_sp = 0;
	for (unsigned int i = 0; i < n; i++) {
		/* counts of 1 and more (a branch counts itself), sp up and down */
		uint32_t insns = 1 + i % 5;
		uint64_t from = e->coder.to + 3 * i + 2, sp = 0x7ffc0000 + 8 * (i % 7);

		put_branch(e, kinds[i % 3], 2, insns, from, from - 40 + 7 * i, sp);
		r->left += insns - 1;
		r->max_sp = sp > r->max_sp ? sp : r->max_sp;
	}
	if (r == &none)
		return;
	vgs_set_run_bytes(e->buf + r->start, (uint32_t)(e->len - r->start - VGS_RUN_START_SIZE));
	r->end = e->len;
	enc_end(e, vgs_put_run_end(enc_rec(e, VGS_RUN_END_MAX), &r->before, &e->coder, n, r->left,
				   r->max_sp));
}

/*
 * Runs: a reader passes their starts and ends as nothing (the records
 * read back as without them), gives them as events when asked, and
 * vg_run_skip() finds a whole run's sums where it is whole in hand.
 */
static void test_runs(void **state)
{
	static struct enc e, plain;
	struct vg_event ev[16], bare[16];
	unsigned int nr, nr_bare;
	struct run_sums r[2];
	struct vg_stream s;
	struct vg_run got;
	char err[256];
	size_t len;

	(void)state;
	enc_init(&e);
	put_branch(&e, VGK_CALL, 5, 3, 0x401000, 0x402000, 0x7ffc0010);
	put_run(&e, 7, &r[0]);
	put_run(&e, VGS_RUN_MAX, &r[1]);	/* the most a run holds, right after another */
	put_branch(&e, VGK_RET, 1, 2, 0x402100, 0x401005, 0x7ffc0018);

	/* the same records without the marks */
	enc_init(&plain);
	put_branch(&plain, VGK_CALL, 5, 3, 0x401000, 0x402000, 0x7ffc0010);
	put_run(&plain, 7, NULL);
	put_run(&plain, VGS_RUN_MAX, NULL);
	put_branch(&plain, VGK_RET, 1, 2, 0x402100, 0x401005, 0x7ffc0018);

	assert_int_equal(read_all(e.buf, e.len, ev, 16, &nr, err, sizeof(err)), 0);
	assert_int_equal(read_all(plain.buf, plain.len, bare, 16, &nr_bare, err, sizeof(err)), 0);
	assert_int_equal(nr, 2 + 7 + VGS_RUN_MAX);
	assert_int_equal(nr, nr_bare);
	for (unsigned int i = 0; i < 16; i++) {
		assert_int_equal(ev[i].type, bare[i].type);
		assert_int_equal(ev[i].from, bare[i].from);
		assert_int_equal(ev[i].to, bare[i].to);
		assert_int_equal(ev[i].sp, bare[i].sp);
		assert_int_equal(ev[i].insns, bare[i].insns);
	}

	/* asked for: the marks are events, their numbers absolute */
	assert_int_equal(vg_stream_open_mem(&s, "STREAM", e.buf, e.len, err, sizeof(err)), 0);
	s.runs = true;
	nr = 0;
	for (int ret; (ret = vg_stream_next(&s, &ev[0], err, sizeof(err))) == 1; nr++) {
		if (ev[0].type != VGS_RUN)
			continue;
		if (ev[0].run.what == VGS_RUN_START) {
			assert_int_equal(ev[0].run.bytes, (nr < 9 ? r[0].end - r[0].start :
							   r[1].end - r[1].start) - VGS_RUN_START_SIZE);
		} else {
			const struct run_sums *w = nr < 10 ? &r[0] : &r[1];

			assert_int_equal(ev[0].run.n, nr < 10 ? 7 : VGS_RUN_MAX);
			assert_int_equal(ev[0].run.left, w->left);
			assert_int_equal(ev[0].run.max_sp, w->max_sp);
			assert_int_equal(ev[0].run.after.to, s.coder.to);
			assert_int_equal(ev[0].run.after.sp, s.coder.sp);
		}
	}
	assert_int_equal(nr, 2 + 7 + VGS_RUN_MAX + 4);
	vg_stream_close(&s);

	/* whole in hand: to after its end; else (a byte short, or not a start) nothing */
	len = vg_run_skip(e.buf + r[0].start, e.len - r[0].start, &r[0].before, &got);
	assert_int_equal(len, r[1].start - r[0].start);
	assert_int_equal(got.end, r[0].end - r[0].start);
	assert_int_equal(got.n, 7);
	assert_int_equal(got.left, r[0].left);
	assert_int_equal(got.max_sp, r[0].max_sp);
	assert_int_equal(got.after.to, r[1].before.to);
	assert_int_equal(got.after.sp, r[1].before.sp);
	assert_int_equal(vg_run_skip(e.buf + r[0].start, len - 1, &r[0].before, &got), 0);
	assert_int_equal(vg_run_skip(e.buf + r[0].end, e.len - r[0].end, &r[0].before, &got), 0);
	assert_int_equal(vg_run_skip(e.buf + r[0].start + VGS_RUN_START_SIZE, 64, &r[0].before,
				     &got), 0);
	/* a start or an end alone: its length, if whole */
	assert_int_equal(vg_run_marker(e.buf + r[0].start, VGS_RUN_START_SIZE), VGS_RUN_START_SIZE);
	assert_int_equal(vg_run_marker(e.buf + r[0].start, VGS_RUN_START_SIZE - 1), 0);
	assert_int_equal(vg_run_marker(e.buf + r[0].end, r[1].start - r[0].end),
			 r[1].start - r[0].end);
	assert_int_equal(vg_run_marker(e.buf + r[0].end + 1, 8), 0);
}

/* Broken runs' starts and ends are refused, each with its reason. */
static void test_run_refusals(void **state)
{
	static const struct { uint8_t bytes[9]; size_t n; const char *why; } bad[] = {
		{ { VGS_RUN << 4, 1, VGS_RUN_START, 0x80, 0x80, 0 }, 6,
		  "instructions counted on a run record" },
		{ { VGS_RUN << 4, 0, 2, 0 }, 4, "run record neither a start nor an end" },
		{ { VGS_RUN << 4, 0, VGS_RUN_END, 0, 0, 0, 0, 0 }, 8, "run of no or too many records" },
		{ { VGS_RUN << 4, 0, VGS_RUN_END, 0x81, 0x01, 0, 0, 0, 0 }, 9,
		  "run of no or too many records" },	/* 129 */
		{ { VGS_RUN << 4, 0, VGS_RUN_START, 0x80, 0x80 }, 5, "run record cut short" },
		{ { VGS_RUN << 4, 0, VGS_RUN_END, 1, 0, 0, 0 }, 7, "run record cut short" },
	};
	static struct enc e;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		enc_init(&e);
		put_bytes(&e, bad[i].bytes, bad[i].n);
		expect_refused(&e, bad[i].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_run_refusals),
		cmocka_unit_test(test_every_record_reads_back),
		cmocka_unit_test(test_loop_branch_takes_5_bytes),
		cmocka_unit_test(test_every_prefix),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_file_through_window),
		cmocka_unit_test(test_file_shrinks_while_read),
		cmocka_unit_test(test_random_corruption),
		cmocka_unit_test(test_numbers_of_every_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
