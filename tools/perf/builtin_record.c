// SPDX-License-Identifier: GPL-2.0-only
/*
 * The record session: events opened and mapped through the system's
 * calls, the buffers read into perf.data, the programs' ELF files into
 * the build-id caches. See builtin_record.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/testcase.h"
#include "tools/perf/builtin_record.h"
#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/synthesize.h"
#include "tools/perf/util/tsc_convert.h"
#include "tools/perf/util/array_grow.h"

void record__init(struct record *rec, const struct record_opts *opts,
		  const struct record_sys *sys)
{
	memset(rec, 0, sizeof(*rec));
	rec->opts = *opts;
	rec->sys = *sys;
	rec->next_read = opts->interval;
}

/* ---- reading the buffers ---------------------------------------------------- */

static int collect(const struct perf_event_header *h, size_t size, void *arg)
{
	struct record *rec = arg;

	if (rec->want != UINT64_MAX && rec->seen >= rec->want)
		return 1;		/* read last time */
	rec->seen += size;
	if (array_grow((void **)&rec->batch, &rec->batch_cap, rec->batch_len + size, 1, 4096) ||
	    array_grow((void **)&rec->offs, &rec->offs_cap, rec->nr_offs + 1, sizeof(*rec->offs), 4096)) {
		rec->error = ENOMEM;
		return 1;
	}
	memcpy(rec->batch + rec->batch_len, h, size);
	rec->offs[rec->nr_offs++] = (uint32_t)rec->batch_len;
	rec->batch_len += size;
	return 0;
}

static void record__write(struct record *rec, const struct perf_event_header *h)
{
	struct record_stats *st = &rec->stats;

	st->records++;
	st->bytes += h->size;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		st->samples++;
		break;
	case PERF_RECORD_LOST: {
		u64 lost;

		memcpy(&lost, (const char *)h + 16, sizeof(lost));
		st->lost_records++;
		st->lost += lost;
		break;
	}
	case PERF_RECORD_THROTTLE:
		st->throttles++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		st->unthrottles++;
		break;
	default:
		break;
	}
	if (rec->w && perf_data_writer__write(rec->w, h))
		rec->error = EIO;
}

/* Keep the page's conversion fields when they changed: samples read later may need them. */
static void snapshot_conv(struct record *rec, struct record_mmap *map)
{
	struct tsc_conv c;

	if (!rec->opts.time_snapshots || tsc_conv_read(map->base, &c) || !c.mono_raw)
		return;
	if (rec->nr_convs && !memcmp(&rec->convs[rec->nr_convs - 1], &c, sizeof(c)))
		return;
	if (array_grow((void **)&rec->convs, &rec->convs_cap, rec->nr_convs + 1, sizeof(c), 4096)) {
		rec->error = ENOMEM;
		return;
	}
	rec->convs[rec->nr_convs++] = c;
}

static void record__mmap_read(struct record *rec, struct record_mmap *map)
{
	bool pause = rec->opts.pause;

	rec->batch_len = rec->nr_offs = 0;
	rec->seen = 0;
	rec->want = UINT64_MAX;
	if (pause)
		rec->sys.pause_output(rec->sys.priv, map->fd, true);
	snapshot_conv(rec, map);
	if (map->backward) {
		uint64_t head = perf_mmap__read_head(map->base);

		rec->want = map->last_head - head;
		if (rec->want > map->reader.size)
			rec->stats.overwritten += rec->want - map->reader.size;
		perf_mmap_reader__read_backward(&map->reader, collect, rec);
		map->last_head = head;
	} else if (map->overwrite) {
		perf_mmap_reader__read_overwrite_forward(&map->reader, collect, rec);
	} else {
		perf_mmap_reader__read_forward(&map->reader, 0, collect, rec);
	}
	if (pause)
		rec->sys.pause_output(rec->sys.priv, map->fd, false);
	rec->stats.reads++;
	/* a backward read comes newest first: write oldest first */
	for (size_t i = 0; i < rec->nr_offs; i++) {
		size_t k = map->backward ? rec->nr_offs - 1 - i : i;

		record__write(rec, (const struct perf_event_header *)(rec->batch + rec->offs[k]));
	}
}

void record__mmap_read_all(struct record *rec, uint64_t now, bool all)
{
	uint64_t interval = rec->opts.interval;
	bool due = all || (interval && now >= rec->next_read);

	if (interval && now >= rec->next_read)
		rec->next_read += interval;
	for (unsigned int i = 0; i < rec->nr_mmaps; i++) {
		struct record_mmap *map = &rec->mmaps[i];
		bool woken = rec->sys.poll(rec->sys.priv, map->fd);

		if (woken)
			rec->stats.wakeups++;
		if (due || (woken && !interval))
			record__mmap_read(rec, map);
	}
}

/* ---- events ----------------------------------------------------------------- */

static int record__mmap(struct record *rec, int fd, bool backward)
{
	struct record_mmap *map = &rec->mmaps[rec->nr_mmaps];

	map->base = rec->sys.mmap(rec->sys.priv, fd, rec->opts.mmap_pages, !rec->opts.overwrite);
	if (!map->base)
		return -ENOMEM;
	map->fd = fd;
	map->backward = backward;
	map->overwrite = rec->opts.overwrite;
	if (perf_mmap_reader__init(&map->reader, map->base))
		return -EINVAL;
	snapshot_conv(rec, map);
	rec->nr_mmaps++;
	return 0;
}

/* Evsel IDX on PID and CPU, into OUTPUT's buffer (an fd) or, -1, a buffer of its own. */
static int record__open_one(struct record *rec, unsigned int idx, int pid, int cpu, int output,
			    char *err, size_t errlen)
{
	const struct perf_event_attr *attr = &rec->evsels[idx].attr;
	int fd, ret;

	if (rec->nr_fds == RECORD_MAX_EVENTS) {
		snprintf(err, errlen, "pmusim: too many events");
		return -1;
	}
	fd = rec->sys.perf_event_open(rec->sys.priv, attr, pid, cpu);
	if (fd < 0) {
		snprintf(err, errlen, "%s:%u: events.%u: perf_event_open: %s", rec->opts.source,
			 1u, idx, strerror(-fd));
		return -1;
	}
	rec->evsel_of[rec->nr_fds] = idx;
	rec->fds[rec->nr_fds++] = fd;
	if (output >= 0) {
		ret = rec->sys.set_output(rec->sys.priv, fd, output);
		/* one owner's events: same task or CPU, and the caller made them one direction */
		if (NEVER(ret)) {
			snprintf(err, errlen, "pmusim: events.%u: SET_OUTPUT: %s", idx,
				 strerror(-ret));
			return -1;
		}
		return 0;
	}
	if (record__mmap(rec, fd, attr->write_backward)) {
		snprintf(err, errlen, "pmusim: cannot allocate a %u-page buffer",
			 rec->opts.mmap_pages);
		return -1;
	}
	return 0;
}

/* perf record: per thread (pid, any CPU) or per CPU (all threads); one buffer each. */
int record__open(struct record *rec, const struct record_evsel *evsels, unsigned int nr_evsels,
		 unsigned int nr_cpus, const struct record_thread *threads,
		 unsigned int nr_threads, char *err, size_t errlen)
{
	unsigned int nr_owners = nr_cpus + nr_threads;
	int *first = malloc((nr_owners ? nr_owners : 1) * sizeof(*first));
	int ret = 0;

	rec->evsels = evsels;
	rec->nr_evsels = nr_evsels;
	rec->threads = threads;
	rec->nr_threads = nr_threads;
	rec->fds = calloc(RECORD_MAX_EVENTS, sizeof(*rec->fds));
	rec->evsel_of = calloc(RECORD_MAX_EVENTS, sizeof(*rec->evsel_of));
	rec->mmaps = calloc(nr_owners, sizeof(*rec->mmaps));
	if (!first || !rec->fds || !rec->evsel_of || !rec->mmaps) {
		free(first);
		snprintf(err, errlen, "pmusim: out of memory");
		return -1;
	}
	for (unsigned int o = 0; o < nr_owners; o++)
		first[o] = -1;
	for (unsigned int i = 0; i < nr_evsels && !ret; i++) {
		const struct record_evsel *e = &evsels[i];

		if (e->system_wide) {
			for (unsigned int c = 0; c < nr_cpus && !ret; c++) {
				if (e->cpu_mask && !(e->cpu_mask >> c & 1))
					continue;
				ret = record__open_one(rec, i, -1, (int)c, first[c], err, errlen);
				if (!ret && first[c] < 0)
					first[c] = rec->fds[rec->nr_fds - 1];
			}
		} else {
			for (unsigned int t = 0; t < nr_threads && !ret; t++) {
				unsigned int o = nr_cpus + t;

				ret = record__open_one(rec, i, threads[t].tid, -1, first[o], err,
						       errlen);
				if (!ret && first[o] < 0)
					first[o] = rec->fds[rec->nr_fds - 1];
			}
		}
	}
	free(first);
	return ret;
}

/* ---- perf.data -------------------------------------------------------------- */

int record__open_output(struct record *rec, const char *output, const struct perf_data_env *env,
			char *err, size_t errlen)
{
	rec->output = output;
	if (!output)
		return 0;
	rec->w = perf_data_writer__open(output, env);
	if (!rec->w) {
		snprintf(err, errlen, "%s", perf_data_writer__last_error());
		return -1;
	}
	return 0;
}

int record__add_build_id(struct record *rec, const u8 *build_id, u8 size, const char *filename)
{
	return perf_data_writer__add_build_id(rec->w, build_id, size, filename);
}

/*
 * Each program as an ELF file (its code, its functions' symbols, a
 * build-id), named /pmusim/NAME in MMAP2 and in the header's BUILD_ID
 * list, so that perf finds its symbols by build-id and no two runs'
 * programs can be taken for each other.
 */
int record__add_programs(struct record *rec, const struct record_program *progs,
			 unsigned int nr, char *err, size_t errlen)
{
	rec->dsos = calloc(nr, sizeof(*rec->dsos));
	if (!rec->dsos)
		goto nomem;
	rec->nr_dsos = nr;
	for (unsigned int g = 0; g < nr; g++) {
		struct record_dso *d = &rec->dsos[g];
		bool taken = false;
		char *c;

		snprintf(d->filename, sizeof(d->filename), "/pmusim/%s", progs[g].name);
		for (c = d->filename + 8; *c; c++)
			if (*c == '/')
				*c = '_';
		for (unsigned int k = 0; k < g; k++)
			taken |= !strcmp(rec->dsos[k].filename, d->filename);
		if (taken)	/* two programs of one name: the second is NAME-2, ... */
			snprintf(d->filename + strlen(d->filename),
				 sizeof(d->filename) - strlen(d->filename), "-%u", g + 1);
		d->elf.text_start = progs[g].text_start;
		d->elf.code = progs[g].code;
		d->elf.text_size = progs[g].text_size;
		d->elf.syms = progs[g].syms;
		d->elf.nr_syms = progs[g].nr_syms;
		if (genelf__build(&d->elf, err, errlen))
			return -1;
		if (perf_data_writer__add_build_id(rec->w, d->elf.build_id, GENELF_BUILD_ID_SIZE,
						   d->filename))
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "pmusim: out of memory");
	return -1;
}

int record__synthesize(struct record *rec, char *err, size_t errlen)
{
	uint8_t buf[SYNTH_RECORD_MAX];
	struct perf_event_header *h = (struct perf_event_header *)buf;
	const struct perf_event_attr *first_attr;

	for (unsigned int i = 0; i < rec->nr_evsels; i++) {
		u64 *ids = calloc(rec->nr_fds, sizeof(*ids));
		unsigned int n = 0;

		if (!ids)
			goto nomem;
		for (unsigned int k = 0; k < rec->nr_fds; k++)
			if (rec->evsel_of[k] == i)
				ids[n++] = rec->sys.id(rec->sys.priv, rec->fds[k]);
		if (perf_data_writer__add_attr(rec->w, &rec->evsels[i].attr, rec->evsels[i].name,
					       ids, n)) {
			free(ids);
			goto nomem;
		}
		free(ids);
	}
	if (!rec->nr_evsels)
		return 0;
	/* the threads that were there before recording began, as perf record synthesizes them */
	first_attr = &rec->evsels[0].attr;
	for (unsigned int t = 0; t < rec->nr_threads; t++) {
		const struct record_thread *th = &rec->threads[t];
		const struct record_dso *dso = th->program >= 0 && rec->dsos ?
					       &rec->dsos[th->program] : NULL;
		struct synth_sample_id sid = { .pid = (u32)th->pid, .tid = (u32)th->tid,
					       .id = rec->sys.id(rec->sys.priv, rec->fds[0]),
					       .cpu = (u32)th->cpu };
		size_t n;

		if (!th->started)
			continue;	/* its FORK comes when it starts */
		n = perf_event__synthesize_comm(buf, first_attr, sid.pid, sid.tid, th->comm, &sid);
		if (!n || perf_data_writer__write(rec->w, h))
			goto nomem;
		/* a recorded program's mappings come as it maps them (perf_event_mmap) */
		if (th->pid != th->tid || !dso)
			continue;
		n = perf_event__synthesize_mmap2(buf, first_attr, sid.pid, sid.tid,
						 dso->elf.map_start, dso->elf.map_len,
						 dso->elf.map_pgoff, 0x5 /* R|X */,
						 0x2 /* PRIVATE */, dso->filename, &sid);
		if (!n || perf_data_writer__write(rec->w, h))
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "pmusim: cannot write %s", rec->output);
	return -1;
}

int record__finish_output(struct record *rec, char *err, size_t errlen)
{
	if (perf_data_writer__finish(rec->w)) {
		snprintf(err, errlen, "%s", perf_data_writer__last_error());
		return -1;
	}
	return 0;
}

/*
 * The ELF files go where perf looks for them (as perf record puts its
 * DSOs there): the user's build-id cache, and beside the perf.data in
 * NAME.debug/, a cache of the same layout that travels with the file
 * (perf --buildid-dir NAME.debug report -i NAME). The ELF files before
 * the perf.data: one that cannot be stored leaves no file.
 */
int record__write_buildid_cache(struct record *rec, char *warning, size_t warnlen, char *err,
				size_t errlen)
{
	const char *target = perf_data_writer__target(rec->w);
	char beside[4200], user[4096];
	const char *dirs[2] = { NULL, NULL };

	if (!perf_data_writer__in_place(rec->w) && rec->opts.buildid_beside) {
		snprintf(beside, sizeof(beside), "%s.debug", target);
		dirs[0] = beside;
	}
	if (rec->opts.buildid_dir && !*rec->opts.buildid_dir)
		dirs[1] = build_id_cache__default_dir(user, sizeof(user));
	else
		dirs[1] = rec->opts.buildid_dir;
	for (unsigned int i = 0; i < 2; i++) {
		for (unsigned int g = 0; dirs[i] && g < rec->nr_dsos; g++) {
			if (!build_id_cache__add(dirs[i], rec->dsos[g].filename,
						 rec->dsos[g].elf.build_id, rec->dsos[g].elf.image,
						 rec->dsos[g].elf.image_size, err, errlen))
				continue;
			if (i == 0)
				return -1;	/* the output's own */
			/* the user's cache, as perf record's, is a convenience: say so and go on */
			snprintf(warning, warnlen, "pmusim: warning: %s", err);
			err[0] = '\0';
			break;
		}
	}
	return 0;
}

int record__close_output(struct record *rec, char *err, size_t errlen)
{
	struct perf_data_writer *w = rec->w;

	rec->w = NULL;
	if (perf_data_writer__close(w)) {
		snprintf(err, errlen, "%s", perf_data_writer__last_error());
		return -1;
	}
	return 0;
}

void record__exit(struct record *rec)
{
	if (rec->w)
		perf_data_writer__abort(rec->w);
	rec->w = NULL;
	for (unsigned int i = 0; i < rec->nr_mmaps; i++)
		perf_mmap_reader__exit(&rec->mmaps[i].reader);
	for (unsigned int g = 0; rec->dsos && g < rec->nr_dsos; g++)
		genelf__exit(&rec->dsos[g].elf);
	free(rec->dsos);
	free(rec->fds);
	free(rec->evsel_of);
	free(rec->mmaps);
	free(rec->batch);
	free(rec->offs);
	free(rec->convs);
	memset(rec, 0, sizeof(*rec));
}
