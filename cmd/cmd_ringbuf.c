// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim ringbuf: replay a script of writes, reads, pauses and dumps
 * against a ring buffer, pmusim's model or the host kernel's, and print
 * what user space sees of it in one form whatever the backend, so that
 * the two can be diffed. The script format is in replay/ringbuf_script.h.
 *
 * Which reader a dump (and read) uses follows from the mapping:
 *   forward, writable    the consuming forward reader: dump peeks at
 *                        [data_tail, data_head), read consumes
 *   forward, --overwrite the overwrite-forward reader from position 0
 *   --backward           the backward reader: the whole records of
 *                        [data_head, data_head + size), printed oldest
 *                        first like the others
 * A reader that stops anywhere but at the end of the data says why on a
 * line "STOP reason". --reader libperf reads with libperf's own
 * tools/lib/perf/mmap.c instead (tools/lib/perf/mmap_libperf.h), as perf
 * does: consuming forward, or a backward buffer through a read-only
 * mapping; it has no forward overwrite reader.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "tools/lib/perf/mmap_read.h"
#include "tools/lib/perf/mmap_libperf.h"
#include "tools/perf/util/perf_data_read.h"
#include "replay/ringbuf_backend.h"
#include "replay/ringbuf_script.h"

struct dump_entry {
	uint32_t type;
	uint16_t size;
	uint64_t lost;
};

struct dump_list {
	struct dump_entry *v;
	size_t nr, alloc;
	bool nomem;
};

static int collect(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct dump_list *list = arg;
	struct dump_entry e = { .type = rec->type, .size = (uint16_t)size };

	if (rec->type == PERF_RECORD_LOST && size >= 24)
		memcpy(&e.lost, (const char *)rec + 16, sizeof(e.lost));
	if (list->nr == list->alloc) {
		size_t want = list->alloc ? list->alloc * 2 : 64;
		struct dump_entry *v = realloc(list->v, want * sizeof(*v));

		if (!v) {
			list->nomem = true;
			return 1;
		}
		list->v = v;
		list->alloc = want;
	}
	list->v[list->nr++] = e;
	return 0;
}

static void print_entry(const struct dump_entry *e)
{
	if (e->type == PERF_RECORD_LOST)
		printf("LOST %u lost=%llu\n", e->size, (unsigned long long)e->lost);
	else if (perf_event__name(e->type))
		printf("%s %u\n", perf_event__name(e->type), e->size);
	else
		printf("TYPE%u %u\n", e->type, e->size);
}

/* Which reader: pmusim's (tools/lib/perf/mmap_read.h) or libperf's. */
struct ringbuf_reader {
	bool libperf;
	const struct ringbuf_backend *backend;
	void *priv;
	struct perf_mmap_libperf forward;	/* libperf's consumer (forward, writable) */
	bool have_forward;
};

/*
 * libperf's read of a backward buffer, as a perf tool that has just
 * mapped it PROT_READ would read it: through a read-only mapping (the
 * backend's, or core/'s user page write-protected meanwhile).
 */
static enum perf_mmap_read_status dump_libperf_backward(struct ringbuf_reader *rd,
							struct perf_event_mmap_page *pg,
							struct dump_list *list)
{
	struct perf_event_mmap_page *ro = rd->backend->user_page_ro ?
					  rd->backend->user_page_ro(rd->priv) : NULL;
	bool protect = !ro && rd->backend == &ringbuf_model_backend;
	struct perf_mmap_libperf lp;
	enum perf_mmap_read_status status;

	if (perf_mmap_libperf__init(&lp, ro ? ro : pg, true, protect))
		return PERF_MMAP_READ_NOMEM;
	status = perf_mmap_libperf__read_backward(&lp, true, collect, list);
	perf_mmap_libperf__exit(&lp);
	return status;
}

static int dump(struct perf_event_mmap_page *pg, const struct ringbuf_config *cfg,
		struct ringbuf_reader *rd)
{
	struct perf_mmap_reader reader;
	struct dump_list list = { 0 };
	enum perf_mmap_read_status status;

	printf("data_head=%lld data_tail=%lld\n",
	       (long long)perf_mmap__read_head(pg), (long long)__atomic_load_n(&pg->data_tail, __ATOMIC_RELAXED));
	if (perf_mmap_reader__init(&reader, pg)) {
		printf("STOP bad-data-size\n");
		return 0;
	}
	if (rd->libperf && cfg->backward) {
		status = dump_libperf_backward(rd, pg, &list);
	} else if (rd->libperf) {
		/* no forward reader: its mapping's data_size was refused (run()) */
		status = rd->have_forward ?
			 perf_mmap_libperf__peek_forward(&rd->forward, collect, &list) :
			 PERF_MMAP_READ_BAD_SIZE;
	} else if (cfg->backward) {
		status = perf_mmap_reader__read_backward(&reader, collect, &list);
	} else if (cfg->overwrite) {
		reader.prev = 0;
		status = perf_mmap_reader__read_overwrite_forward(&reader, collect, &list);
	} else {
		status = perf_mmap_reader__peek_forward(&reader, collect, &list);
	}
	perf_mmap_reader__exit(&reader);
	if (list.nomem || status == PERF_MMAP_READ_NOMEM) {
		free(list.v);
		fprintf(stderr, "pmusim ringbuf: out of memory\n");
		return 1;
	}
	/* The backward reader finds the newest first. */
	for (size_t i = 0; i < list.nr; i++)
		print_entry(&list.v[cfg->backward ? list.nr - 1 - i : i]);
	if (status != PERF_MMAP_READ_END)
		printf("STOP %s\n", perf_mmap_read_status_name(status));
	free(list.v);
	return 0;
}

static int count_record(const struct perf_event_header *rec, size_t size, void *arg)
{
	(void)rec;
	(void)size;
	++*(unsigned long *)arg;
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: pmusim ringbuf [--backend model|kernel|ksrc] [--pages N] [--backward]\n"
	      "                      [--overwrite] [--watermark BYTES] [--wakeup-events N]\n"
	      "                      [--sample-id-all] [--reader pmusim|libperf] SCRIPT\n"
	      "\n"
	      "Replays SCRIPT against a perf ring buffer of N data pages (a power of two,\n"
	      "default 1): pmusim's model (default), the host kernel's, through\n"
	      "perf_event_open (exit 77 where that is not permitted), or the kernel's own\n"
	      "ring_buffer.c of the tree pmusim was built with (ksrc; exit 77 without one).\n"
	      "--reader libperf reads with libperf's tools/lib/perf/mmap.c of that tree\n"
	      "(exit 77 without one; not for a forward --overwrite buffer).\n"
	      "SCRIPT has one operation a line, '#' starts a comment:\n"
	      "  write SIZE [COUNT]  COUNT samples of SIZE bytes (16..65528, multiple of 8)\n"
	      "  read [N]            consume up to N records (forward writable buffer only)\n"
	      "  pause, resume       PERF_EVENT_IOC_PAUSE_OUTPUT\n"
	      "  dump                data_head, data_tail and the records a reader finds,\n"
	      "                      oldest first\n", f);
}

static int bad_flag(const char *fmt, const char *arg)
{
	fputs("pmusim ringbuf: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 2;
}

static bool parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

enum { OPT_BACKEND = 256, OPT_PAGES, OPT_BACKWARD, OPT_OVERWRITE, OPT_WATERMARK,
       OPT_WAKEUP_EVENTS, OPT_SAMPLE_ID_ALL, OPT_READER, OPT_HELP };

static const struct option options[] = {
	{ "backend",		required_argument,	NULL, OPT_BACKEND },
	{ "pages",		required_argument,	NULL, OPT_PAGES },
	{ "backward",		no_argument,		NULL, OPT_BACKWARD },
	{ "overwrite",		no_argument,		NULL, OPT_OVERWRITE },
	{ "watermark",		required_argument,	NULL, OPT_WATERMARK },
	{ "wakeup-events",	required_argument,	NULL, OPT_WAKEUP_EVENTS },
	{ "sample-id-all",	no_argument,		NULL, OPT_SAMPLE_ID_ALL },
	{ "reader",		required_argument,	NULL, OPT_READER },
	{ "help",		no_argument,		NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int run(const struct ringbuf_backend *backend, const struct ringbuf_config *cfg,
	       const struct ringbuf_script *script, bool libperf)
{
	struct ringbuf_reader rd = { .libperf = libperf, .backend = backend };
	unsigned int sizes[64];
	size_t nr_sizes = 0;
	struct perf_mmap_reader reader;
	bool have_reader = false;
	void *priv = NULL;
	int ret;

	for (size_t i = 0; i < script->nr_ops; i++) {
		const struct ringbuf_op *op = &script->ops[i];
		size_t j;

		if (op->kind != RINGBUF_OP_WRITE)
			continue;
		for (j = 0; j < nr_sizes && sizes[j] != op->size; j++)
			;
		if (j < nr_sizes)
			continue;
		if (nr_sizes == sizeof(sizes) / sizeof(sizes[0])) {
			fprintf(stderr, "pmusim ringbuf: more than %zu record sizes in one script\n",
				nr_sizes);
			return 2;
		}
		sizes[nr_sizes++] = op->size;
	}

	ret = backend->open(&priv, cfg, sizes, nr_sizes);
	if (ret)
		goto out;
	if (!perf_mmap_reader__init(&reader, backend->user_page(priv)))
		have_reader = true;
	rd.priv = priv;
	if (libperf && !cfg->backward && !cfg->overwrite) {
		int err = perf_mmap_libperf__init(&rd.forward, backend->user_page(priv), false, false);

		if (err == -ENOMEM) {
			fprintf(stderr, "pmusim ringbuf: out of memory\n");
			ret = 1;
		}
		rd.have_forward = !err;
	}

	for (size_t i = 0; i < script->nr_ops && !ret; i++) {
		const struct ringbuf_op *op = &script->ops[i];
		enum perf_mmap_read_status status;
		unsigned long n = 0;

		switch (op->kind) {
		case RINGBUF_OP_WRITE:
			ret = backend->write(priv, op->size, op->count);
			break;
		case RINGBUF_OP_PAUSE:
		case RINGBUF_OP_RESUME:
			ret = backend->pause(priv, op->kind == RINGBUF_OP_PAUSE);
			break;
		case RINGBUF_OP_READ:
			if (!have_reader) {
				printf("READ 0\nSTOP bad-data-size\n");
				break;
			}
			if (libperf)
				status = rd.have_forward ?
					 perf_mmap_libperf__read_forward(&rd.forward, op->count,
									 count_record, &n) :
					 PERF_MMAP_READ_BAD_SIZE;
			else
				status = perf_mmap_reader__read_forward(&reader, op->count,
									count_record, &n);
			if (status == PERF_MMAP_READ_NOMEM) {
				fprintf(stderr, "pmusim ringbuf: out of memory\n");
				ret = 1;
				break;
			}
			printf("READ %lu\n", n);
			if (status != PERF_MMAP_READ_END)
				printf("STOP %s\n", perf_mmap_read_status_name(status));
			break;
		case RINGBUF_OP_DUMP:
			ret = dump(backend->user_page(priv), cfg, &rd);
			break;
		}
	}
	if (have_reader)
		perf_mmap_reader__exit(&reader);
	if (rd.have_forward)
		perf_mmap_libperf__exit(&rd.forward);
out:
	backend->close(priv);
	return ret;		/* stdout is flushed, and checked, by main() */
}

int cmd_ringbuf(int argc, char **argv)
{
	const struct ringbuf_backend *backend = &ringbuf_model_backend;
	struct ringbuf_config cfg = { .nr_pages = 1 };
	struct ringbuf_script script;
	bool have_watermark = false, have_wakeup = false, libperf = false;
	int c, ret;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+:", options, NULL)) != -1) {
		switch (c) {
		case OPT_BACKEND:
			if (!strcmp(optarg, "model"))
				backend = &ringbuf_model_backend;
			else if (!strcmp(optarg, "kernel"))
				backend = &ringbuf_kernel_backend;
			else if (!strcmp(optarg, "ksrc"))
				backend = &ringbuf_ksrc_backend;
			else
				return bad_flag("--backend must be model, kernel or ksrc, not '%s'", optarg);
			break;
		case OPT_PAGES:
			if (!parse_u32(optarg, &cfg.nr_pages) || !cfg.nr_pages ||
			    (cfg.nr_pages & (cfg.nr_pages - 1)) || cfg.nr_pages > 1024)
				return bad_flag("--pages must be a power of two from 1 to 1024, not '%s'", optarg);
			break;
		case OPT_BACKWARD:
			cfg.backward = true;
			break;
		case OPT_OVERWRITE:
			cfg.overwrite = true;
			break;
		case OPT_WATERMARK:
			if (!parse_u32(optarg, &cfg.watermark) || !cfg.watermark)
				return bad_flag("--watermark must be a byte count above 0, not '%s'", optarg);
			have_watermark = true;
			break;
		case OPT_WAKEUP_EVENTS:
			if (!parse_u32(optarg, &cfg.wakeup_events))
				return bad_flag("--wakeup-events must be a number, not '%s'", optarg);
			have_wakeup = true;
			break;
		case OPT_SAMPLE_ID_ALL:
			cfg.sample_id_all = true;
			break;
		case OPT_READER:
			if (!strcmp(optarg, "libperf"))
				libperf = true;
			else if (strcmp(optarg, "pmusim"))
				return bad_flag("--reader must be pmusim or libperf, not '%s'", optarg);
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		case ':':
			return bad_flag("%s needs an argument", argv[optind - 1]);
		default:
			return bad_flag("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (have_watermark && have_wakeup)
		return bad_flag("%s", "--watermark and --wakeup-events share one attr field: give one");
	if (optind + 1 != argc)
		return bad_flag("%s", optind == argc ? "a SCRIPT is needed" : "one SCRIPT only");
	if (libperf && cfg.overwrite && !cfg.backward)
		return bad_flag("%s", "--reader libperf: libperf reads an overwrite buffer backward only "
				"(perf record --overwrite sets write_backward)");
	if (libperf && !perf_mmap_libperf__available()) {
		fprintf(stderr, "%s\n", KSRC_NO_UNIT("libperf_mmap"));
		return RINGBUF_SKIP;
	}
	if (ringbuf_script__parse(&script, argv[optind], !cfg.backward && !cfg.overwrite))
		return 2;
	ret = run(backend, &cfg, &script, libperf);
	ringbuf_script__exit(&script);
	return ret;
}
