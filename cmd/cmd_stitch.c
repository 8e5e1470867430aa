// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim stitch FILE: the call stacks of a perf.data's samples, LBR call
 * stacks stitched as `perf script -F ip,sym --stitch-lbr` prints them: one
 * block per sample, one "\t<ip> <symbol>" line per frame, a blank line
 * after. Symbols come from perf-PID.map for addresses inside an anonymous
 * executable mapping of the sample's process, as perf resolves them.
 *
 * Samples go in perf's order (tools/perf/util/ordered_events.h): by
 * time, equal times in file order. Stitching depends on that order,
 * since it looks at the previous sample of the same thread. The
 * mappings and symbols come from tools/perf/util/map.h and symbol.h;
 * this file holds the options and the printing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "core/kernel.h"
#include "tools/perf/util/lbr_stitch.h"
#include "tools/perf/util/ordered_events.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/perf_map.h"
#include "tools/perf/util/symbol.h"
#include "tools/perf/util/array_grow.h"

#define OUT_SIZE	((1 << 16) + OUT_ALIGN)	/* 64 KiB writes, and room for the rest */
#define OUT_ALIGN	4096		/* a page */
/* Lines up to this long live in their cache slot and are copied with one fixed-size memcpy. */
#define LINE_INLINE	48
/* How far ahead of the record being read the file is asked into the cache */
#define PREFETCH_AHEAD	4096

/*
 * A frame's printed line, one cache line per slot: the text itself when
 * it fits, else at OFF in stitch_ctx.lines. len 0: a free slot.
 */
struct frame_line {
	u64 ip;
	u32 pid;
	u32 len;
	union {
		char text[LINE_INLINE];
		size_t off;
	};
};

struct stitch_ctx {
	const char *map_dir;
	bool tid_time;			/* a "TID SECS.USECS:" line per sample, as -F tid,time */
	bool no_sym;			/* addresses only, as -F ip without sym */
	struct symbols syms;		/* the file's mappings and their symbols */
	struct lbr_stitcher *stitcher;
	char *out;			/* output buffer */
	size_t out_len, out_cap;
	int write_err;			/* errno of a failed write to stdout */
	u64 flushes;			/* out_flush calls so far */
	struct frame_line *line_cache;	/* open addressing by (pid, ip) */
	u32 line_cache_size;		/* a power of two */
	u32 line_cache_shift;		/* 64 - log2(line_cache_size) */
	u32 line_cache_nr;
	char *lines;			/* the lines too long for their slot */
	size_t lines_len, lines_cap;
	/* the last resolved stack and where its lines are in out (see out_stack) */
	bool last_valid;
	u32 last_pid;
	u32 last_nr;
	size_t last_cap;
	u64 *last_rev_ips;		/* its frames, outermost first */
	u32 *last_rev_end;		/* from each one's line to the end of the stack's lines */
	u32 *starts;			/* where out_frames put each line */
	size_t last_end;		/* where the stack's lines end in out */
};

/*
 * Everything goes out through one buffer and write(2), not stdio: the
 * output is megabytes and stdio would copy it once more. A failed write
 * is kept and reported at the end; nothing more is written after it.
 */
static void out_write(struct stitch_ctx *c, const char *p, size_t len)
{
	ssize_t n;

	while (len && !c->write_err) {
		n = write(STDOUT_FILENO, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			c->write_err = n < 0 ? errno : EIO;
			break;
		}
		p += n;
		len -= (size_t)n;
	}
}

/*
 * Make room: write the buffer out, all of it or (ALL false) its whole
 * pages, keeping the rest at the front. Whole pages from a page-aligned
 * buffer keep every write page-aligned in the file and in memory, which
 * the kernel copies into the page cache faster.
 */
static void out_flush(struct stitch_ctx *c, bool all)
{
	size_t n = all ? c->out_len : c->out_len & ~(size_t)(OUT_ALIGN - 1);

	out_write(c, c->out, n);
	memmove(c->out, c->out + n, c->out_len - n);
	c->out_len -= n;
	c->flushes++;
	c->last_valid = false;		/* its lines moved or are gone */
}

/* "\t%16llx %s\n" ("\t%16llx\n" with no_sym) into DST, which has room; its length. */
static u32 format_line(char *dst, u64 ip, const char *name, size_t nlen, bool no_sym)
{
	char *p = dst;

	*p++ = '\t';
	for (unsigned int pad = perf_map__hex_digits(ip); pad < 16; pad++)
		*p++ = ' ';
	p = perf_map__put_hex(p, ip);
	if (!no_sym) {
		*p++ = ' ';
		memcpy(p, name, nlen);
		p += nlen;
	}
	*p++ = '\n';
	return (u32)(p - dst);
}

/* The slot to start probing at for IP (any process: the probe compares pid too). */
static inline u32 line_slot(u64 ip, u32 shift)
{
	return (u32)((ip * 0x9e3779b97f4a7c15ull) >> shift);
}

static u32 line_hash(const struct stitch_ctx *c, u64 ip)
{
	return line_slot(ip, c->line_cache_shift);
}

static int line_cache_grow(struct stitch_ctx *c)
{
	u32 size = c->line_cache_size ? c->line_cache_size * 2 : 256, h;
	struct frame_line *old = c->line_cache, *t;

	t = aligned_alloc(sizeof(*t), (size_t)size * sizeof(*t));
	if (!t)
		return -1;
	memset(t, 0, (size_t)size * sizeof(*t));
	c->line_cache = t;
	c->line_cache_shift = 64 - __builtin_ctz(size);
	for (u32 i = 0; i < c->line_cache_size; i++) {
		if (!old[i].len)
			continue;
		h = line_hash(c, old[i].ip);
		while (t[h].len)
			h = (h + 1) & (size - 1);
		t[h] = old[i];
	}
	free(old);
	c->line_cache_size = size;
	return 0;
}

/*
 * IP's symbol as printed, and in *SHOWN the address perf prints for it
 * (map__map_ip): "" without symbols, "[unknown]" where there is none.
 */
static const char *symbol_name(struct stitch_ctx *c, u32 pid, u64 ip, u64 *shown)
{
	const struct map *map = maps__find(&c->syms.maps, pid, ip);
	const struct perf_map_sym *sym;

	*shown = map__map_ip(map, ip);
	if (c->no_sym)
		return "";
	sym = map__find_symbol(&c->syms, map, ip);
	return sym ? sym->name : "[unknown]";
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
	const char *name;
	struct frame_line *l;
	size_t nlen;
	u64 shown;
	u32 h;

	if ((c->line_cache_nr + 1) * 4 > c->line_cache_size && line_cache_grow(c))
		return NULL;
	h = line_hash(c, ip);
	while (c->line_cache[h].len) {
		if (c->line_cache[h].ip == ip && c->line_cache[h].pid == pid)
			return &c->line_cache[h];
		h = (h + 1) & (c->line_cache_size - 1);
	}
	l = &c->line_cache[h];
	name = symbol_name(c, pid, ip, &shown);
	nlen = c->no_sym ? 0 : strlen(name);
	/* tab, 16 digits, space, newline */
	if (nlen + 19 <= LINE_INLINE) {
		l->len = format_line(l->text, shown, name, nlen, c->no_sym);
	} else {
		if (nlen > UINT32_MAX - 19 ||
		    array_grow((void **)&c->lines, &c->lines_cap, c->lines_len + 19 + nlen, 1, 16))
			return NULL;
		l->off = c->lines_len;
		l->len = format_line(c->lines + l->off, shown, name, nlen, c->no_sym);
		c->lines_len += l->len;
	}
	l->ip = ip;
	l->pid = pid;
	c->line_cache_nr++;
	return l;
}

static const char *frame_line_text(const struct stitch_ctx *c, const struct frame_line *l)
{
	return l->len <= LINE_INLINE ? l->text : c->lines + l->off;
}

/* The rare ways out of out_frames: a new frame, a full buffer, a long line. */
static noinline int out_frame_slow(struct stitch_ctx *c, u32 pid, u64 ip)
{
	const struct frame_line *l = frame_line_add(c, pid, ip);

	if (!l)
		return -1;
	if (c->out_len + l->len > c->out_cap)
		out_flush(c, false);
	if (c->out_len + l->len > c->out_cap) {
		out_flush(c, true);
		out_write(c, frame_line_text(c, l), l->len);
		return 0;
	}
	memcpy(c->out + c->out_len, frame_line_text(c, l), l->len);
	c->out_len += l->len;
	return 0;
}

/*
 * The lines of frames IPS[0..NR) of process PID. Most frames were seen
 * before and their line fits in its slot: one probe of the cache and a
 * copy of fixed size (the output buffer has the slack for it), no call.
 * The state lives in locals: stores through char pointers would make
 * the compiler reload it from *c after every copy.
 */
static int out_frames(struct stitch_ctx *c, u32 pid, const u64 *ips, u32 nr, u32 *starts)
{
	const struct frame_line *cache = c->line_cache, *l;
	u32 shift = c->line_cache_shift, mask = c->line_cache_size - 1, h, n;
	char *out = c->out;
	size_t len = c->out_len, limit = c->out_cap - LINE_INLINE;

	for (u32 i = 0; i < nr; i++) {
		u64 ip = ips[i];

		if (starts)
			starts[i] = (u32)len;
		h = line_slot(ip, shift);
		while (unlikely(cache[h].ip != ip || cache[h].pid != pid) && cache[h].len)
			h = (h + 1) & mask;
		l = &cache[h];
		n = l->len;
		/* a free slot has len 0, which fails the length test */
		if (likely(n - 1u < LINE_INLINE && len <= limit)) {
			memcpy(out + len, l->text, LINE_INLINE);
			len += n;
			continue;
		}
		c->out_len = len;
		if (out_frame_slow(c, pid, ip))
			return -1;
		cache = c->line_cache;
		shift = c->line_cache_shift;
		mask = c->line_cache_size - 1;
		len = c->out_len;
	}
	c->out_len = len;
	return 0;
}

static int last_grow(struct stitch_ctx *c, u32 nr)
{
	size_t cap = c->last_cap;

	if (nr <= cap)
		return 0;
	if (array_grow((void **)&c->last_rev_ips, &cap, nr, sizeof(u64), 16))
		return -1;
	cap = c->last_cap;
	if (array_grow((void **)&c->last_rev_end, &cap, nr, sizeof(u32), 16))
		return -1;
	cap = c->last_cap;
	if (array_grow((void **)&c->starts, &cap, nr, sizeof(u32), 16))
		return -1;
	c->last_cap = cap;
	return 0;
}

/*
 * A resolved call stack. A thread's samples share their outer frames
 * (the stitched ones, most of the LBR's) with the sample before: the
 * lines of the frames this stack ends with in common with the stack
 * printed last, still in the buffer, are copied in one piece, and only
 * the frames before them are looked up. The last stack is kept outermost
 * first, so that a shared end keeps its entries where they are: for
 * frame nr - 1 - r, last_rev_ips[r] and last_rev_end[r], the bytes from
 * its line to the end of the stack's lines.
 */
static int out_stack(struct stitch_ctx *c, u32 pid, const u64 *ips, u32 nr, bool repeated)
{
	size_t from = 0, len = 0, end;
	u64 flushes = c->flushes;
	u32 k = 0, head;

	if (c->last_valid && c->last_pid == pid) {
		/* REPEATED: the stitcher says IPS are the frames it gave last time */
		if (repeated && nr == c->last_nr) {
			k = nr;
		} else {
			u32 max = nr < c->last_nr ? nr : c->last_nr;
			const u64 *r = c->last_rev_ips, *e = ips + nr - 1;

			/* four frames a step, no branch among them: stacks share dozens */
			while (k + 4 <= max &&
			       !((r[k] ^ e[-(long)k]) | (r[k + 1] ^ e[-(long)k - 1]) |
				 (r[k + 2] ^ e[-(long)k - 2]) | (r[k + 3] ^ e[-(long)k - 3])))
				k += 4;
			while (k < max && r[k] == e[-(long)k])
				k++;
		}
		if (k) {
			len = c->last_rev_end[k - 1];
			from = c->last_end - len;
		}
	}
	c->last_valid = false;
	head = nr - k;
	if (last_grow(c, nr))
		return out_frames(c, pid, ips, nr, NULL);
	if (out_frames(c, pid, ips, head, c->starts))
		return -1;
	if (k) {
		/* a flush on the way moved the lines, or no room: look them up */
		if (c->flushes != flushes || c->out_len + len > c->out_cap)
			return out_frames(c, pid, ips + head, k, NULL);
		memcpy(c->out + c->out_len, c->out + from, len);
		c->out_len += len;
	}
	if (c->flushes != flushes)
		return 0;		/* the lines moved: nothing to remember */
	end = c->out_len;
	for (u32 i = 0; i < head; i++) {
		c->last_rev_ips[nr - 1 - i] = ips[i];
		c->last_rev_end[nr - 1 - i] = (u32)(end - c->starts[i]);
	}
	c->last_nr = nr;
	c->last_pid = pid;
	c->last_end = end;
	c->last_valid = true;
	return 0;
}

static int out_frame(struct stitch_ctx *c, u32 pid, u64 ip)
{
	return out_frames(c, pid, &ip, 1, NULL);
}

static void out_char(struct stitch_ctx *c, char ch)
{
	if (c->out_len + 1 > c->out_cap)
		out_flush(c, false);
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
		if (out_stack(c, s->pid, frames, nr, st->repeated))
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

/* Ask for the cache lines from *P up to END into the cache; *P moves on. */
static void prefetch_range(const u8 **p, const u8 *end)
{
	const u8 *q = *p;

	for (; q + 4 * 64 <= end; q += 4 * 64) {
		__builtin_prefetch(q);
		__builtin_prefetch(q + 64);
		__builtin_prefetch(q + 2 * 64);
		__builtin_prefetch(q + 3 * 64);
	}
	for (; q < end; q += 64)
		__builtin_prefetch(q);
	*p = q;
}

/* The ordered events' deliver callback: print the sample. */
static int deliver_sample(const struct ordered_event *event, void *arg)
{
	struct stitch_ctx *c = arg;
	struct perf_sample s;

	ordered_event__sample(event, &s);
	/* not a stack with frames shown as [unknown] for want of memory */
	return print_sample(c, c->stitcher, &event->attr->attr, &s) || c->syms.nomem ? -1 : 0;
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
	if (!IS_ENABLED(CONFIG_LBR_STITCH))
		fputs("this build has no CONFIG_LBR_STITCH: the command refuses to run\n", f);
}

int cmd_stitch(int argc, char **argv)
{
	struct stitch_ctx c = { .map_dir = "/tmp" };
	const struct perf_data_attr *a;
	struct perf_data_iter it;
	struct perf_data_file f;
	struct ordered_events oe;
	struct lbr_stitcher st;
	struct perf_sample s;
	const char *path = NULL;
	bool stitch = true;
	struct perf_event_header hdr;
	const u8 *ev, *pf, *pf_to, *data_end;
	u32 size;
	int i, ret, status = 0;

	/* without CONFIG_LBR_STITCH the command is not there: say so before anything is read */
	if (!IS_ENABLED(CONFIG_LBR_STITCH) &&
	    !(argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))) {
		fprintf(stderr, "pmusim: stitch: this build has no LBR stitching: turn on "
			"CONFIG_LBR_STITCH (make menuconfig, \"Simulator and user-space tools\") "
			"and rebuild\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--no-stitch")) {
			stitch = false;
		} else if (!strcmp(argv[i], "--tid-time")) {
			c.tid_time = true;
		} else if (!strcmp(argv[i], "--no-sym")) {
			c.no_sym = true;
		} else if (!strcmp(argv[i], "--map-dir") && i + 1 < argc) {
			c.map_dir = argv[++i];
			if (cmd_empty_name("stitch", "--map-dir", c.map_dir, "directory"))
				return 2;
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
	symbols__init(&c.syms, &f, path, c.map_dir);
	ordered_events__init(&oe, deliver_sample, &c);
	lbr_stitcher__init(&st, f.max_branches, stitch);
	st.entries_stay = true;		/* the file stays mapped until the end */
	c.stitcher = &st;
	c.out_cap = OUT_SIZE;
	c.out = aligned_alloc(OUT_ALIGN, c.out_cap);
	if (!c.out || line_cache_grow(&c)) {
		fprintf(stderr, "pmusim: out of memory\n");
		status = 1;
		goto out;
	}
	perf_data_file__iter_init(&f, &it);
	/* a sample with a call stack is hundreds of bytes */
	if (ordered_events__reserve(&oe, (it.end - it.pos) / 128 + 64))
		goto nomem;
	pf = f.buf + it.pos;
	data_end = f.buf + it.end;
	while ((ret = perf_data_file__next(&f, &it, &ev, &size)) > 0) {
		/*
		 * Records differ in size, so the hardware cannot guess where
		 * the next header is: stream the file in ahead of the walk.
		 */
		pf_to = data_end - ev > PREFETCH_AHEAD ? ev + PREFETCH_AHEAD : data_end;
		prefetch_range(&pf, pf_to);
		memcpy(&hdr, ev, sizeof(hdr));
		if (hdr.type == PERF_RECORD_MMAP || hdr.type == PERF_RECORD_MMAP2) {
			if (maps__process_mmap_event(&c.syms.maps, ev, size))
				goto nomem;
			continue;
		}
		if (hdr.type != PERF_RECORD_SAMPLE)
			continue;
		if (perf_data_file__sample(&f, &it, ev, size, &a, &s)) {
			fprintf(stderr, "%s\n", f.err);
			status = 2;
			goto out;
		}
		if (ordered_events__queue(&oe, &s, a))
			goto nomem;
	}
	if (ret < 0) {
		fprintf(stderr, "%s\n", f.err);
		status = 2;
		goto out;
	}
	if (ordered_events__flush(&oe))
		goto nomem;
	goto out;
nomem:
	fprintf(stderr, "pmusim: out of memory\n");
	status = 1;
out:
	if (c.out)
		out_flush(&c, true);
	if (c.write_err) {
		fprintf(stderr, "pmusim: stitch: cannot write the output: %s\n", strerror(c.write_err));
		if (!status)
			status = 1;
	}
	symbols__exit(&c.syms);
	ordered_events__exit(&oe);
	free(c.out);
	free(c.line_cache);
	free(c.lines);
	free(c.last_rev_ips);
	free(c.last_rev_end);
	free(c.starts);
	lbr_stitcher__exit(&st);
	perf_data_file__close(&f);
	return status;
}
