// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim dump FILE: a perf.data file as text, one line per header item and
 * one per record, made for diffing two files (scripts/ab-diff.sh does):
 *
 *   header	attrs=N	data_offset=N	data_size=N	features=...
 *   attr0	type=0	config=...	...	ids=[...]	name=cycles
 *   env	hostname=...	...
 *   0	COMM	misc=0x2000	size=40	pid=1	tid=1	comm="tchain"	sample_id.tid=...
 *   1	SAMPLE	misc=0x2	size=...	id=...	ip=...	br[0].from=...	...
 *
 * Columns are separated by tabs: the record's index in the data section,
 * its type, then NAME=VALUE fields in file order. A record is decoded as
 * far as pmusim knows its layout; what is left is printed as words
 * (rest[0]=...), so two dumps differ exactly where the files do. Strings
 * are quoted, with \t, \n, \\, \" and \xNN escapes.
 *
 * A file the reader refuses, or a record that does not fit, gives one line
 * "FILE: problem" and exit 2, with nothing on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "core/testcase.h"
#include "tools/perf/util/perf_data_read.h"

/* A record being printed: its bytes, and the part not yet printed. */
struct dump_rec {
	const u8 *p;
	u32 pos, end;			/* end: where the sample_id trailer begins */
};

static void field_u64(const char *name, u64 v)
{
	printf("\t%s=%llu", name, (unsigned long long)v);
}

static void field_hex(const char *name, u64 v)
{
	printf("\t%s=%#llx", name, (unsigned long long)v);
}

static void print_string(const u8 *s, size_t max)
{
	size_t len = strnlen((const char *)s, max);

	putchar('"');
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];

		if (c == '\t')
			fputs("\\t", stdout);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\\' || c == '"')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static bool take(struct dump_rec *r, u32 n)
{
	return r->end - r->pos >= n;
}

static bool rec_u64(struct dump_rec *r, const char *name, bool hex)
{
	u64 v;

	if (!take(r, 8))
		return false;
	v = perf_data__get_u64(r->p + r->pos);
	r->pos += 8;
	if (hex)
		field_hex(name, v);
	else
		field_u64(name, v);
	return true;
}

static bool rec_u32(struct dump_rec *r, const char *name)
{
	if (!take(r, 4))
		return false;
	field_u64(name, perf_data__get_u32(r->p + r->pos));
	r->pos += 4;
	return true;
}

/* A NUL-padded string that runs to the end of the body. */
static void rec_string(struct dump_rec *r, const char *name)
{
	printf("\t%s=", name);
	print_string(r->p + r->pos, r->end - r->pos);
	r->pos = r->end;
}

/* Whatever the decoder did not cover, as words (and a last partial word in hex bytes). */
static void rec_rest(struct dump_rec *r, const char *name)
{
	char label[48];
	unsigned int i = 0;

	for (; take(r, 8); i++) {
		snprintf(label, sizeof(label), "%s[%u]", name, i);
		field_hex(label, perf_data__get_u64(r->p + r->pos));
		r->pos += 8;
	}
	if (r->pos < r->end) {
		printf("\t%s[%u]=", name, i);
		for (; r->pos < r->end; r->pos++)
			printf("%02x", r->p[r->pos]);
	}
}

/* Bytes of the sample_id trailer SAMPLE_TYPE gives a non-sample record. */
static u32 sample_id_size(u64 type)
{
	u64 bits = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;

	return 8 * (u32)__builtin_popcountll(type & bits);
}

static void dump_sample_id(const u8 *p, u64 type)
{
	u32 at = 0;

#define ID_FIELD(bit, name)						\
	do {								\
		if (type & (bit)) {					\
			field_u64("sample_id." name, perf_data__get_u64(p + at)); \
			at += 8;					\
		}							\
	} while (0)
	if (type & PERF_SAMPLE_TID) {
		field_u64("sample_id.pid", perf_data__get_u32(p));
		field_u64("sample_id.tid", perf_data__get_u32(p + 4));
		at += 8;
	}
	ID_FIELD(PERF_SAMPLE_TIME, "time");
	ID_FIELD(PERF_SAMPLE_ID, "id");
	ID_FIELD(PERF_SAMPLE_STREAM_ID, "stream_id");
	if (type & PERF_SAMPLE_CPU) {
		field_u64("sample_id.cpu", perf_data__get_u32(p + at));
		at += 8;
	}
	ID_FIELD(PERF_SAMPLE_IDENTIFIER, "identifier");
#undef ID_FIELD
}

/* The body of a non-sample record, by type; the rest as words. */
static void dump_body(struct dump_rec *r, u32 type)
{
	switch (type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!rec_u32(r, "pid") || !rec_u32(r, "tid") || !rec_u64(r, "addr", true) ||
		    !rec_u64(r, "len", true) || !rec_u64(r, "pgoff", true))
			break;
		if (type == PERF_RECORD_MMAP2 &&
		    (!rec_u32(r, "maj") || !rec_u32(r, "min") || !rec_u64(r, "ino", false) ||
		     !rec_u64(r, "ino_generation", false) || !rec_u32(r, "prot") ||
		     !rec_u32(r, "flags")))
			break;
		rec_string(r, "filename");
		break;
	case PERF_RECORD_LOST:
		if (rec_u64(r, "id", false))
			rec_u64(r, "lost", false);
		break;
	case PERF_RECORD_COMM:
		if (rec_u32(r, "pid") && rec_u32(r, "tid"))
			rec_string(r, "comm");
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		if (rec_u32(r, "pid") && rec_u32(r, "ppid") && rec_u32(r, "tid") &&
		    rec_u32(r, "ptid"))
			rec_u64(r, "time", false);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (rec_u64(r, "time", false) && rec_u64(r, "id", false))
			rec_u64(r, "stream_id", false);
		break;
	case PERF_RECORD_ITRACE_START:
		if (rec_u32(r, "pid"))
			rec_u32(r, "tid");
		break;
	case PERF_RECORD_LOST_SAMPLES:
		rec_u64(r, "lost", false);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (rec_u32(r, "next_prev_pid"))
			rec_u32(r, "next_prev_tid");
		break;
	default:
		break;
	}
	rec_rest(r, "body");
}

static void dump_sample(const struct perf_data_file *f, const u8 *ev, u32 size)
{
	const struct perf_data_attr *pa = perf_data_file__sample_attr(f, ev, size);
	const char *why = NULL;
	struct perf_sample s;
	struct dump_rec r = { .p = ev, .pos = 8, .end = size };
	const struct perf_event_attr *a;
	u64 type;
	char label[48];
	int unparsed;

	/* cmd_dump() ran perf_data_file__check(), which refuses a sample of no attr */
	if (NEVER(!pa)) {
		fputs("\tattr=unknown", stdout);
		rec_rest(&r, "rest");
		return;
	}
	a = &pa->attr;
	type = a->sample_type;
	/*
	 * ... and one that does not parse (perf_data_file__sample() parses
	 * each). The call stays outside NEVER(), which a coverage build
	 * does not evaluate.
	 */
	unparsed = perf_sample__parse(a, ev, size, &s, &why);
	if (NEVER(unparsed)) {
		printf("\tundecodable=");
		print_string((const u8 *)why, strlen(why));
		rec_rest(&r, "rest");
		return;
	}
	if (type & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID))
		field_u64("id", s.id);
	if (type & PERF_SAMPLE_IP)
		field_hex("ip", s.ip);
	if (type & PERF_SAMPLE_TID) {
		field_u64("pid", s.pid);
		field_u64("tid", s.tid);
	}
	if (type & PERF_SAMPLE_TIME)
		field_u64("time", s.time);
	if (type & PERF_SAMPLE_ADDR)
		field_hex("addr", s.addr);
	if (type & PERF_SAMPLE_STREAM_ID)
		field_u64("stream_id", s.stream_id);
	if (type & PERF_SAMPLE_CPU)
		field_u64("cpu", s.cpu);
	if (type & PERF_SAMPLE_PERIOD)
		field_u64("period", s.period);
	if (type & PERF_SAMPLE_READ) {
		field_u64("read.nr", s.read_nr);
		if (a->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			field_u64("read.time_enabled", s.read_time_enabled);
		if (a->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			field_u64("read.time_running", s.read_time_running);
		if (a->read_format & PERF_FORMAT_GROUP) {
			for (u64 i = 0; i < s.read_nr * s.read_value_size / 8; i++) {
				snprintf(label, sizeof(label), "read.values[%llu]",
					 (unsigned long long)i);
				field_u64(label, perf_data__get_u64(s.read_values + 8 * i));
			}
		} else {
			field_u64("read.value", s.read_one.value);
			if (a->read_format & PERF_FORMAT_ID)
				field_u64("read.id", s.read_one.id);
			if (a->read_format & PERF_FORMAT_LOST)
				field_u64("read.lost", s.read_one.lost);
		}
	}
	r.pos = size;	/* the end of what perf_sample__parse covered, found below */
	if (type & PERF_SAMPLE_CALLCHAIN) {
		field_u64("callchain.nr", s.callchain_nr);
		for (u64 i = 0; i < s.callchain_nr; i++) {
			snprintf(label, sizeof(label), "callchain[%llu]", (unsigned long long)i);
			field_hex(label, perf_sample__callchain_ip(&s, i));
		}
		r.pos = (u32)(s.callchain + 8 * s.callchain_nr - ev);
	}
	if (type & PERF_SAMPLE_RAW) {
		field_u64("raw.size", s.raw_size);
		printf("\traw.data=");
		for (u32 i = 0; i < s.raw_size; i++)
			printf("%02x", s.raw_data[i]);
		r.pos = (u32)(s.raw_data + s.raw_size - ev);
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		field_u64("br.nr", s.branch_nr);
		if (!s.no_hw_idx)
			field_hex("br.hw_idx", s.hw_idx);
		for (u64 i = 0; i < s.branch_nr; i++) {
			struct perf_sample_branch b;

			perf_sample__branch(&s, i, &b);
			snprintf(label, sizeof(label), "br[%llu].from", (unsigned long long)i);
			field_hex(label, b.from);
			snprintf(label, sizeof(label), "br[%llu].to", (unsigned long long)i);
			field_hex(label, b.to);
			snprintf(label, sizeof(label), "br[%llu].flags", (unsigned long long)i);
			field_hex(label, b.flags);
			if (s.branch_counters) {
				snprintf(label, sizeof(label), "br[%llu].counters",
					 (unsigned long long)i);
				field_hex(label, perf_data__get_u64(s.branch_counters + 8 * i));
			}
		}
		r.pos = (u32)(s.branch_entries + 24 * s.branch_nr - ev);
		if (s.branch_counters)
			r.pos += (u32)(8 * s.branch_nr);
	}
	if (!(type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK))) {
		/* Only fixed-size fields: count them. */
		u64 fixed = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;

		r.pos = 8 + 8 * (u32)__builtin_popcountll(type & fixed);
		if (type & PERF_SAMPLE_READ) {
			u32 words = 1 + !!(a->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
				    !!(a->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);

			if (a->read_format & PERF_FORMAT_GROUP)
				r.pos += 8 * words + (u32)(s.read_nr * s.read_value_size);
			else
				r.pos += 8 * (words + !!(a->read_format & PERF_FORMAT_ID) +
					      !!(a->read_format & PERF_FORMAT_LOST));
		}
	}
	/* Fields past BRANCH_STACK (regs, stack, weight, ...): words. */
	rec_rest(&r, "rest");
}

static void dump_header(const struct perf_data_file *f)
{
	printf("header\tattrs=%u\tdata_offset=%llu\tdata_size=%llu\tfeatures=", f->nr_attrs,
	       (unsigned long long)f->header.data.offset,
	       (unsigned long long)f->header.data.size);
	for (int w = 3; w >= 0; w--)
		printf("%016llx", (unsigned long long)f->header.adds_features[w]);
	putchar('\n');

	for (u32 i = 0; i < f->nr_attrs; i++) {
		const struct perf_data_attr *pa = &f->attrs[i];
		const struct perf_event_attr *a = &pa->attr;
		const u8 *words = (const u8 *)a;
		char label[32];
		u32 size = a->size < sizeof(*a) ? a->size : (u32)sizeof(*a);

		printf("attr%u", i);
		field_u64("type", a->type);
		field_u64("size", a->size);
		field_hex("config", a->config);
		field_u64("sample_period", a->sample_period);
		field_hex("sample_type", a->sample_type);
		field_hex("read_format", a->read_format);
		field_hex("flags", perf_data__get_u64(words + 40));
		/* Past the flags: as words, named by their byte offset. */
		for (u32 off = 48; off + 8 <= size; off += 8) {
			snprintf(label, sizeof(label), "attr+%u", off);
			field_hex(label, perf_data__get_u64(words + off));
		}
		printf("\tids=[");
		for (u32 j = 0; j < pa->nr_ids; j++)
			printf("%s%llu", j ? "," : "", (unsigned long long)pa->ids[j]);
		printf("]\tname=");
		print_string((const u8 *)(pa->name ? pa->name : ""), 256);
		putchar('\n');
	}

	printf("env\thostname=");
	print_string((const u8 *)(f->hostname ? f->hostname : ""), 256);
	printf("\tos_release=");
	print_string((const u8 *)(f->os_release ? f->os_release : ""), 256);
	printf("\tarch=");
	print_string((const u8 *)(f->arch ? f->arch : ""), 256);
	field_u64("nr_cpus_avail", f->nr_cpus_avail);
	field_u64("nr_cpus_online", f->nr_cpus_online);
	field_u64("max_branches", f->max_branches);
	field_u64("first_sample_time", f->first_sample_time);
	field_u64("last_sample_time", f->last_sample_time);
	putchar('\n');
}

static void dump_record(const struct perf_data_file *f, u64 idx, const u8 *ev, u32 size)
{
	struct perf_event_header hdr;
	u64 id_type = f->nr_attrs ? f->attrs[0].attr.sample_type : 0;
	bool id_all = f->nr_attrs && f->attrs[0].attr.sample_id_all;
	struct dump_rec r = { .p = ev, .pos = 8, .end = size };
	u32 id_size = 0;

	memcpy(&hdr, ev, sizeof(hdr));
	printf("%llu\t", (unsigned long long)idx);
	if (perf_event__name(hdr.type))
		fputs(perf_event__name(hdr.type), stdout);
	else
		printf("TYPE%u", hdr.type);
	field_hex("misc", hdr.misc);
	field_u64("size", hdr.size);

	if (hdr.type == PERF_RECORD_SAMPLE) {
		dump_sample(f, ev, size);
	} else {
		/* Kernel records carry the trailer; the perf tool's own (>= 64) do not. */
		if (id_all && hdr.type < 64 && sample_id_size(id_type) <= size - 8u)
			id_size = sample_id_size(id_type);
		r.end = size - id_size;
		dump_body(&r, hdr.type);
		if (id_size)
			dump_sample_id(ev + size - id_size, id_type);
	}
	putchar('\n');
}

int cmd_dump(int argc, char **argv)
{
	struct perf_data_file f;
	struct perf_data_iter it;
	const u8 *ev;
	u32 size;
	u64 idx = 0;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		puts("usage: pmusim dump FILE\n\n"
		     "Print FILE (perf.data) as text: the header, then one line per record:\n"
		     "index, type, and NAME=VALUE fields, tab-separated. For diffing two files.");
		return 0;
	}
	if (argc != 2) {
		fputs("usage: pmusim dump FILE\n", stderr);
		return 2;
	}
	if (perf_data_file__open(&f, argv[1])) {
		fprintf(stderr, "%s\n", f.err);
		perf_data_file__close(&f);
		return 2;
	}
	/*
	 * Check every record first, as pmusim stitch does (the same walk), so
	 * a bad file prints nothing but its error.
	 */
	if (perf_data_file__check(&f) < 0) {
		fprintf(stderr, "%s\n", f.err);
		perf_data_file__close(&f);
		return 2;
	}
	dump_header(&f);
	perf_data_file__iter_init(&f, &it);
	while (perf_data_file__next(&f, &it, &ev, &size) > 0)
		dump_record(&f, idx++, ev, size);
	perf_data_file__close(&f);
	return 0;	/* stdout's errors: main() */
}
