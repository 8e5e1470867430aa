// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim stitch FILE: the call stacks of a perf.data's samples, LBR call
 * stacks stitched as `perf script -F ip,sym --stitch-lbr` prints them: one
 * block per sample, one "\t<ip> <symbol>" line per frame, a blank line
 * after. Symbols come from perf-PID.map for addresses inside an anonymous
 * executable mapping of the sample's process, as perf resolves them.
 *
 * Samples go in perf's order: perf script queues every event and hands
 * them out by time (ordered events; a file without FINISHED_ROUND is one
 * round), equal times in file order. Stitching depends on that order,
 * since it looks at the previous sample of the same thread.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/commands.h"
#include "sim/lbr_stitch.h"
#include "sim/perf_data_read.h"
#include "sim/perf_map.h"

#define LINUX_PROT_EXEC	0x4
#define OUT_SIZE	(1 << 16)
/* Lines up to this long are copied with one fixed-size memcpy. */
#define LINE_COPY	64

struct anon_map {
	u32 pid;
	u64 start, end;
};

struct pid_syms {
	u32 pid;
	bool loaded;
	struct perf_map map;
};

/* A frame's printed line, at OFF in stitch_ctx.lines; len 0: a free slot. */
struct frame_line {
	u64 ip;
	u32 pid;
	u32 len;
	size_t off;
};

/* A sample waiting for its turn: where it is in the file, and its time. */
struct queued_sample {
	const u8 *ev;
	u32 size;
	u64 time;
	u64 seq;			/* file order, for equal times */
	const struct perf_data_attr *attr;
};

struct stitch_ctx {
	const char *map_dir;
	bool tid_time;			/* a "TID SECS.USECS:" line per sample, as -F tid,time */
	bool no_sym;			/* addresses only, as -F ip without sym */
	struct queued_sample *q;
	size_t nr_q, cap_q;
	struct anon_map *maps;
	size_t nr_maps, cap_maps;
	struct pid_syms *syms;
	size_t nr_syms, cap_syms;
	char *out;			/* output buffer */
	size_t out_len, out_cap;
	struct frame_line *line_cache;	/* open addressing by (pid, ip) */
	u32 line_cache_size;		/* a power of two */
	u32 line_cache_nr;
	char *lines;			/* the cached lines, back to back */
	size_t lines_len, lines_cap;
};

static int grow(void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * elem);
	if (!p)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

/* Is NAME one perf treats as anonymous memory (its perf-PID.map applies)? */
static bool is_anon_name(const char *name, size_t len)
{
	return (len == 6 && !memcmp(name, "//anon", 6)) ||
	       (len >= 9 && !memcmp(name, "/dev/zero", 9)) ||
	       (len >= 15 && !memcmp(name, "/anon_hugepage", 14));
}

/* MMAP (type 1) and MMAP2 (type 10): remember anonymous executable ranges. */
static int note_mmap(struct stitch_ctx *c, const u8 *ev, u32 size, u32 type, u16 misc)
{
	u32 name_off = type == PERF_RECORD_MMAP ? 8 + 32 : 8 + 64;
	u64 start, len;
	u32 pid, prot;
	size_t nlen;
	bool exec;

	if (size <= name_off)
		return 0;
	pid = perf_data__get_u32(ev + 8);
	start = perf_data__get_u64(ev + 16);
	len = perf_data__get_u64(ev + 24);
	if (type == PERF_RECORD_MMAP2) {
		prot = perf_data__get_u32(ev + 8 + 56);
		exec = prot & LINUX_PROT_EXEC;
	} else {
		exec = !(misc & PERF_RECORD_MISC_MMAP_DATA);
	}
	nlen = strnlen((const char *)ev + name_off, size - name_off);
	if (!exec || !is_anon_name((const char *)ev + name_off, nlen))
		return 0;
	if (grow((void **)&c->maps, &c->cap_maps, c->nr_maps + 1, sizeof(*c->maps)))
		return -1;
	c->maps[c->nr_maps++] = (struct anon_map){ .pid = pid, .start = start, .end = start + len };
	return 0;
}

static const char *symbol_name(struct stitch_ctx *c, u32 pid, u64 ip)
{
	const struct perf_map_sym *sym;
	struct pid_syms *ps = NULL;
	char path[4096];
	size_t i;

	if (c->no_sym)
		return "";
	for (i = c->nr_maps; i > 0; i--)
		if (c->maps[i - 1].pid == pid && ip >= c->maps[i - 1].start &&
		    ip < c->maps[i - 1].end)
			break;
	if (!i)
		return "[unknown]";
	for (i = 0; i < c->nr_syms; i++)
		if (c->syms[i].pid == pid)
			ps = &c->syms[i];
	if (!ps) {
		if (grow((void **)&c->syms, &c->cap_syms, c->nr_syms + 1, sizeof(*c->syms)))
			return "[unknown]";
		ps = &c->syms[c->nr_syms++];
		memset(ps, 0, sizeof(*ps));
		ps->pid = pid;
		snprintf(path, sizeof(path), "%s/perf-%u.map", c->map_dir, pid);
		ps->loaded = !perf_map__load(&ps->map, path);
	}
	if (!ps->loaded)
		return "[unknown]";
	sym = perf_map__find(&ps->map, ip);
	return sym ? sym->name : "[unknown]";
}

static void out_flush(struct stitch_ctx *c)
{
	fwrite(c->out, 1, c->out_len, stdout);
	c->out_len = 0;
}

/* "\t%16llx %s\n" ("\t%16llx\n" with no_sym) appended to the line arena. */
static int format_line(struct stitch_ctx *c, u64 ip, const char *name, u32 *len)
{
	static const char hex[] = "0123456789abcdef";
	size_t nlen = c->no_sym ? 0 : strlen(name);
	char digits[16];
	int n = 0, pad;
	char *p;

	if (nlen > UINT32_MAX - 20 - LINE_COPY ||
	    grow((void **)&c->lines, &c->lines_cap, c->lines_len + 20 + nlen + LINE_COPY, 1))
		return -1;
	do {
		digits[n++] = hex[ip & 15];
		ip >>= 4;
	} while (ip);
	p = c->lines + c->lines_len;
	*p++ = '\t';
	for (pad = 16 - n; pad > 0; pad--)
		*p++ = ' ';
	while (n)
		*p++ = digits[--n];
	if (!c->no_sym) {
		*p++ = ' ';
		memcpy(p, name, nlen);
		p += nlen;
	}
	*p++ = '\n';
	*len = (u32)(p - (c->lines + c->lines_len));
	return 0;
}

static u32 line_hash(u32 pid, u64 ip, u32 size)
{
	u64 h = (ip ^ ((u64)pid << 40)) * 0x9e3779b97f4a7c15ull;

	return (u32)(h >> 32) & (size - 1);
}

static int line_cache_grow(struct stitch_ctx *c)
{
	u32 size = c->line_cache_size ? c->line_cache_size * 2 : 1024, h;
	struct frame_line *t = calloc(size, sizeof(*t));

	if (!t)
		return -1;
	for (u32 i = 0; i < c->line_cache_size; i++) {
		if (!c->line_cache[i].len)
			continue;
		h = line_hash(c->line_cache[i].pid, c->line_cache[i].ip, size);
		while (t[h].len)
			h = (h + 1) & (size - 1);
		t[h] = c->line_cache[i];
	}
	free(c->line_cache);
	c->line_cache = t;
	c->line_cache_size = size;
	return 0;
}

/*
 * The printed line of frame IP in process PID, resolved, formatted and
 * cached the first time it is asked for. Every map and symbol file is
 * known before the first sample is printed, so a frame's line never
 * changes.
 */
static noinline const struct frame_line *
frame_line_add(struct stitch_ctx *c, u32 pid, u64 ip)
{
	struct frame_line *l;
	u32 h;

	if ((c->line_cache_nr + 1) * 2 > c->line_cache_size && line_cache_grow(c))
		return NULL;
	h = line_hash(pid, ip, c->line_cache_size);
	while (c->line_cache[h].len) {
		if (c->line_cache[h].ip == ip && c->line_cache[h].pid == pid)
			return &c->line_cache[h];
		h = (h + 1) & (c->line_cache_size - 1);
	}
	l = &c->line_cache[h];
	if (format_line(c, ip, symbol_name(c, pid, ip), &l->len))
		return NULL;
	l->ip = ip;
	l->pid = pid;
	l->off = c->lines_len;
	/* 8-aligned starts; the arena keeps LINE_COPY readable bytes past each */
	c->lines_len += (l->len + 7) & ~7u;
	c->line_cache_nr++;
	return l;
}

/* The rare ways out of out_frames: a new frame, a full buffer, a long line. */
static noinline int out_frame_slow(struct stitch_ctx *c, u32 pid, u64 ip)
{
	const struct frame_line *l = frame_line_add(c, pid, ip);

	if (!l)
		return -1;
	if (c->out_len + l->len > c->out_cap)
		out_flush(c);
	if (l->len > c->out_cap) {
		fwrite(c->lines + l->off, 1, l->len, stdout);
		return 0;
	}
	memcpy(c->out + c->out_len, c->lines + l->off, l->len);
	c->out_len += l->len;
	return 0;
}

/*
 * The lines of frames IPS[0..NR) of process PID. Most frames were seen
 * before and their line fits in LINE_COPY bytes: one probe of the cache
 * and a copy of fixed size (the buffers have the slack for it), no call.
 * The state lives in locals: stores through char pointers would make
 * the compiler reload it from *c after every copy.
 */
static int out_frames(struct stitch_ctx *c, u32 pid, const u64 *ips, u32 nr)
{
	const struct frame_line *cache = c->line_cache, *l;
	u32 size = c->line_cache_size;
	const char *lines = c->lines;
	char *out = c->out;
	size_t len = c->out_len, limit = c->out_cap - LINE_COPY;

	for (u32 i = 0; i < nr; i++) {
		u64 ip = ips[i];

		l = &cache[line_hash(pid, ip, size)];
		/* a free slot has len 0, which fails the length test */
		if (likely(l->ip == ip && l->pid == pid && l->len - 1u < LINE_COPY &&
			   len <= limit)) {
			memcpy(out + len, lines + l->off, LINE_COPY);
			len += l->len;
			continue;
		}
		c->out_len = len;
		if (out_frame_slow(c, pid, ip))
			return -1;
		cache = c->line_cache;
		size = c->line_cache_size;
		lines = c->lines;
		len = c->out_len;
	}
	c->out_len = len;
	return 0;
}

static int out_frame(struct stitch_ctx *c, u32 pid, u64 ip)
{
	return out_frames(c, pid, &ip, 1);
}

static void out_char(struct stitch_ctx *c, char ch)
{
	if (c->out_len + 1 > c->out_cap)
		out_flush(c);
	c->out[c->out_len++] = ch;
}

static bool has_lbr_callstack(const struct perf_event_attr *attr)
{
	return (attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	       (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	       (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);
}

static int print_sample(struct stitch_ctx *c, struct lbr_stitcher *st,
			const struct perf_event_attr *attr, const struct perf_sample *s)
{
	const u64 *frames;
	u32 nr, i;
	int ret = 0;
	u64 ip;

	if (has_lbr_callstack(attr))
		ret = lbr_stitcher__resolve(st, s, &frames, &nr);
	if (ret < 0)
		return -1;
	if (c->tid_time) {
		char line[64];
		int n = snprintf(line, sizeof(line), "%5u %5llu.%06llu: ", s->tid,
				 (unsigned long long)(s->time / 1000000000ull),
				 (unsigned long long)(s->time % 1000000000ull / 1000));

		for (int k = 0; k < n; k++)
			out_char(c, line[k]);
	}
	out_char(c, '\n');
	if (ret) {
		if (out_frames(c, s->pid, frames, nr))
			return -1;
	} else if (attr->sample_type & PERF_SAMPLE_CALLCHAIN) {
		for (i = 0; i < s->callchain_nr && i < LBR_STITCH_MAX_STACK; i++) {
			ip = perf_sample__callchain_ip(s, i);
			if (ip < PERF_CONTEXT_MAX && out_frame(c, s->pid, ip))
				return -1;
		}
	} else if (out_frame(c, s->pid, s->ip)) {
		return -1;
	}
	out_char(c, '\n');
	return 0;
}

static int queued_cmp(const void *a, const void *b)
{
	const struct queued_sample *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A file written in time order needs no sort (pmusim's own usually is). */
static bool queue_sorted(const struct stitch_ctx *c)
{
	for (size_t k = 1; k < c->nr_q; k++)
		if (c->q[k].time < c->q[k - 1].time)
			return false;
	return true;
}

static void usage(FILE *f)
{
	fputs("usage: pmusim stitch [--no-stitch] [--tid-time] [--no-sym] [--map-dir DIR] FILE\n"
	      "  print the call stack of every sample of FILE as\n"
	      "  `perf script -F ip,sym --stitch-lbr` does, in perf's (time) order\n"
	      "  --no-stitch     plain LBR call stacks (as without --stitch-lbr)\n"
	      "  --tid-time      start each sample with its tid and time (-F tid,time,ip,sym)\n"
	      "  --no-sym        addresses only (-F ip: no perf-PID.map needed)\n"
	      "  --map-dir DIR   read perf-PID.map files from DIR (default /tmp)\n", f);
}

int cmd_stitch(int argc, char **argv)
{
	struct stitch_ctx c = { .map_dir = "/tmp" };
	const struct perf_data_attr *a;
	struct perf_data_iter it;
	struct perf_data_file f;
	struct lbr_stitcher st;
	struct perf_sample s;
	const char *path = NULL, *why;
	bool stitch = true, all_timed = true;
	struct perf_event_header hdr;
	const u8 *ev;
	u32 size;
	int i, ret, status = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-stitch")) {
			stitch = false;
		} else if (!strcmp(argv[i], "--tid-time")) {
			c.tid_time = true;
		} else if (!strcmp(argv[i], "--no-sym")) {
			c.no_sym = true;
		} else if (!strcmp(argv[i], "--map-dir") && i + 1 < argc) {
			c.map_dir = argv[++i];
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--map-dir")) {
			fprintf(stderr, "pmusim: stitch: --map-dir needs a directory\n");
			return 2;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "pmusim: stitch: unknown option '%s' (pmusim stitch --help lists them)\n",
				argv[i]);
			return 2;
		} else if (path) {
			fprintf(stderr, "pmusim: stitch: give one perf.data file ('%s' is a second)\n",
				argv[i]);
			return 2;
		} else {
			path = argv[i];
		}
	}
	if (!path) {
		fprintf(stderr, "pmusim: stitch: give one perf.data file (pmusim stitch --help)\n");
		return 2;
	}
	if (perf_data_file__open(&f, path)) {
		fprintf(stderr, "%s\n", f.err);
		perf_data_file__close(&f);
		return 2;
	}
	lbr_stitcher__init(&st, f.max_branches, stitch);
	c.out_cap = OUT_SIZE;
	c.out = malloc(c.out_cap);
	if (!c.out || line_cache_grow(&c)) {
		fprintf(stderr, "pmusim: out of memory\n");
		status = 1;
		goto out;
	}
	perf_data_file__iter_init(&f, &it);
	while ((ret = perf_data_file__next(&f, &it, &ev, &size)) > 0) {
		memcpy(&hdr, ev, sizeof(hdr));
		if (hdr.type == PERF_RECORD_MMAP || hdr.type == PERF_RECORD_MMAP2) {
			if (note_mmap(&c, ev, size, hdr.type, hdr.misc))
				goto nomem;
			continue;
		}
		if (hdr.type != PERF_RECORD_SAMPLE)
			continue;
		a = perf_data_file__sample_attr(&f, ev, size);
		if (!a) {
			fprintf(stderr, "%s: sample at offset %llu: no attr has its id\n", path,
				(unsigned long long)(it.pos - size));
			status = 2;
			goto out;
		}
		if (perf_sample__parse(&a->attr, ev, size, &s, &why)) {
			fprintf(stderr, "%s: sample at offset %llu: truncated at %s\n", path,
				(unsigned long long)(it.pos - size), why);
			status = 2;
			goto out;
		}
		if (grow((void **)&c.q, &c.cap_q, c.nr_q + 1, sizeof(*c.q)))
			goto nomem;
		c.q[c.nr_q] = (struct queued_sample){ .ev = ev, .size = size, .time = s.time,
						      .seq = c.nr_q, .attr = a };
		c.nr_q++;
		all_timed &= !!(a->attr.sample_type & PERF_SAMPLE_TIME);
	}
	if (ret < 0) {
		fprintf(stderr, "%s\n", f.err);
		status = 2;
		goto out;
	}
	if (all_timed && !queue_sorted(&c))
		qsort(c.q, c.nr_q, sizeof(*c.q), queued_cmp);
	for (size_t k = 0; k < c.nr_q; k++) {
		/* parsed once already: cannot fail now */
		perf_sample__parse(&c.q[k].attr->attr, c.q[k].ev, c.q[k].size, &s, &why);
		if (print_sample(&c, &st, &c.q[k].attr->attr, &s))
			goto nomem;
	}
	goto out;
nomem:
	fprintf(stderr, "pmusim: out of memory\n");
	status = 1;
out:
	if (c.out)
		out_flush(&c);
	fflush(stdout);
	for (size_t k = 0; k < c.nr_syms; k++)
		if (c.syms[k].loaded)
			perf_map__exit(&c.syms[k].map);
	free(c.syms);
	free(c.maps);
	free(c.q);
	free(c.out);
	free(c.line_cache);
	free(c.lines);
	lbr_stitcher__exit(&st);
	perf_data_file__close(&f);
	return status;
}
