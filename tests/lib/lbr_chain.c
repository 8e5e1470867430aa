// SPDX-License-Identifier: GPL-2.0-only
/* The synthetic deep-chain LBR recording (see lbr_chain.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_map.h"
#include "tools/perf/util/synthesize.h"
#include "tests/lib/lbr_chain.h"

#define CALL_SITE	LBR_CHAIN_CALL_SITE	/* the call instruction inside each function */
#define MAX_LBR		64

struct chain_thread {
	uint32_t tid;
	uint32_t calls;			/* frames - 1 */
	uint32_t tos;
	struct { uint64_t from, to; } slot[MAX_LBR];
	uint32_t cycle;
};

struct chain_out {
	struct perf_data_writer *w;
	const struct lbr_chain *c;
	uint64_t time;
	uint32_t samples;
	uint8_t buf[8 + 8 * 8 + 8 * 2 + 16 + 24 * MAX_LBR];
};

/* A call from the function at the top of @t's stack, at its call site + @site_off. */
static void call_at(const struct lbr_chain *c, struct chain_thread *t, uint64_t site_off)
{
	t->tos = (t->tos + 1) % c->lbr_nr;
	t->slot[t->tos].from = lbr_chain_func(t->calls) + CALL_SITE + site_off;
	t->slot[t->tos].to = lbr_chain_func(t->calls + 1);
	t->calls++;
}

static void call(const struct lbr_chain *c, struct chain_thread *t)
{
	call_at(c, t, 0);
}

static void ret(const struct lbr_chain *c, struct chain_thread *t)
{
	t->tos = (t->tos + c->lbr_nr - 1) % c->lbr_nr;
	t->calls--;
}

static uint8_t *put(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
	return p + 8;
}

static int sample(struct chain_out *o, struct chain_thread *t, uint32_t salt)
{
	const struct lbr_chain *c = o->c;
	struct perf_event_header hdr = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER };
	uint32_t nr = t->calls < c->lbr_nr ? t->calls : c->lbr_nr, i;
	uint64_t ip = lbr_chain_func(t->calls) + 0x40 + (salt % 8) * 4;
	uint8_t *p = o->buf + 8;

	p = put(p, 1);					/* IDENTIFIER */
	p = put(p, ip);					/* IP */
	p = put(p, (uint64_t)t->tid << 32 | c->pid);	/* TID */
	p = put(p, o->time += 1000);			/* TIME */
	p = put(p, t->tid % 4);				/* CPU */
	p = put(p, 100003);				/* PERIOD */
	p = put(p, 2);					/* CALLCHAIN */
	p = put(p, PERF_CONTEXT_USER);
	p = put(p, ip);
	p = put(p, nr);					/* BRANCH_STACK */
	if (c->hw_index)
		p = put(p, t->tos);
	for (i = 0; i < nr; i++) {
		uint32_t s = (t->tos + c->lbr_nr - i) % c->lbr_nr;

		p = put(p, t->slot[s].from);
		p = put(p, t->slot[s].to);
		p = put(p, 0);		/* NO_CYCLES|NO_FLAGS: no LBR_INFO */
	}
	hdr.size = (uint16_t)(p - o->buf);
	memcpy(o->buf, &hdr, sizeof(hdr));
	o->samples++;
	return perf_data_writer__write(o->w, (struct perf_event_header *)o->buf);
}

/* One descent from main to the leaf and back; samples on the way down. */
static int cycle(struct chain_out *o, struct chain_thread *t)
{
	const struct lbr_chain *c = o->c;
	uint32_t k, shallow = 1 + t->cycle % 5;

	for (k = 0; k + 1 < c->depth; k++) {
		if (o->samples < c->nr_samples &&
		    k && (k == shallow || (k * 7 + t->cycle) % 4 == 0) && sample(o, t, k))
			return -1;
		call(c, t);
	}
	for (k = 0; k < 1 + t->cycle % 3; k++)
		if (o->samples < c->nr_samples && sample(o, t, k + t->cycle))
			return -1;
	while (t->calls)
		ret(c, t);
	t->cycle++;
	return 0;
}

/*
 * The look-alike: down to lbr_nr calls (a full LBR, sampled), two deeper
 * (sampled: stitched from the first), back up into f01, and down again
 * with f01 calling f02 from its second call site, to the same depth
 * (sampled). The last sample's LBR is the one before, entry for entry in
 * the same slots; its stack is not, in f01's frame.
 */
static int lookalike(struct chain_out *o, struct chain_thread *t)
{
	const struct lbr_chain *c = o->c;

	while (t->calls < c->lbr_nr)
		call(c, t);
	if (sample(o, t, 0))
		return -1;
	call(c, t);
	call(c, t);
	if (sample(o, t, 1))
		return -1;
	while (t->calls > 1)
		ret(c, t);
	call_at(c, t, LBR_CHAIN_SECOND_SITE - CALL_SITE);
	while (t->calls < c->lbr_nr + 2)
		call(c, t);
	return sample(o, t, 1);
}

static int write_file(const struct lbr_chain *c, bool look_alike, char *err, size_t errlen)
{
	static const char *const argv[] = { "pmusim", "tests", "lbr_chain" };
	struct perf_data_env env = {
		.hostname = "pmusim", .os_release = "6.12.0-pmusim", .version = "6.12",
		.arch = "x86_64", .cpu_desc = "pmusim model Intel Skylake",
		.cpuid = "GenuineIntel,6,85,4", .nr_cpus_avail = 4, .nr_cpus_online = 4,
		.total_mem = 1 << 20, .argc = 3, .argv = argv,
		.max_branches = c->pmu_caps ? c->lbr_nr : 0, .pmu_name = "skylake",
	};
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES,
		.sample_period = 100003,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			       PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK,
		.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
				      PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS,
		.exclude_kernel = 1, .exclude_hv = 1, .sample_id_all = 1,
		.mmap = 1, .comm = 1, .mmap2 = 1,
	};
	struct synth_sample_id sid = { .pid = c->pid, .tid = c->pid, .id = 1 };
	struct perf_map_sym syms[128];
	char names[128][12];
	struct chain_thread *threads;
	struct chain_out o = { .c = c };
	uint8_t rec[SYNTH_RECORD_MAX];
	uint64_t id = 1;
	uint32_t i, n;

	if (c->depth < 2 || c->depth > 128 || c->lbr_nr < 2 || c->lbr_nr > MAX_LBR ||
	    !c->nr_threads || (look_alike && (c->depth < c->lbr_nr + 3 || !c->hw_index))) {
		snprintf(err, errlen, "lbr_chain: bad parameters");
		return -1;
	}
	if (c->hw_index)
		attr.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	for (i = 0; i < c->depth; i++) {
		if (i)
			snprintf(names[i], sizeof(names[i]), "f%02u", i);
		else
			snprintf(names[i], sizeof(names[i]), "main");
		syms[i] = (struct perf_map_sym){ lbr_chain_func(i), LBR_CHAIN_FUNC_SIZE, names[i] };
	}
	if (perf_map__write(c->map_dir, (int)c->pid, syms, c->depth, err, errlen))
		return -1;
	o.w = perf_data_writer__open(c->path, &env);
	if (!o.w) {
		snprintf(err, errlen, "%s", perf_data_writer__last_error());
		return -1;
	}
	threads = calloc(c->nr_threads, sizeof(*threads));
	if (!threads || perf_data_writer__add_attr(o.w, &attr, "cycles:u", &id, 1))
		goto fail;
	for (i = 0; i < c->nr_threads; i++) {
		threads[i].tid = c->pid + i;
		threads[i].tos = (i * 13) % c->lbr_nr;
		sid.tid = threads[i].tid;
		n = (uint32_t)perf_event__synthesize_comm(rec, &attr, c->pid, threads[i].tid,
							  "tchain", &sid);
		if (!n || perf_data_writer__write(o.w, (struct perf_event_header *)rec))
			goto fail;
	}
	sid.tid = c->pid;
	n = (uint32_t)perf_event__synthesize_mmap2(rec, &attr, c->pid, c->pid, LBR_CHAIN_BASE,
						   c->depth * LBR_CHAIN_FUNC_SIZE, 0, 0x5 /* R|X */,
						   0x22 /* PRIVATE|ANONYMOUS */, "//anon", &sid);
	if (!n || perf_data_writer__write(o.w, (struct perf_event_header *)rec))
		goto fail;
	if (look_alike) {
		if (lookalike(&o, &threads[0]))
			goto fail;
	} else {
		while (o.samples < c->nr_samples)
			for (i = 0; i < c->nr_threads && o.samples < c->nr_samples; i++)
				if (cycle(&o, &threads[i]))
					goto fail;
	}
	free(threads);
	if (perf_data_writer__close(o.w)) {
		snprintf(err, errlen, "%s", perf_data_writer__last_error());
		return -1;
	}
	return 0;
fail:
	snprintf(err, errlen, "lbr_chain: cannot write %s", c->path);
	free(threads);
	perf_data_writer__abort(o.w);
	return -1;
}

int lbr_chain__write(const struct lbr_chain *c, char *err, size_t errlen)
{
	return write_file(c, false, err, errlen);
}

int lbr_chain__write_lookalike(const struct lbr_chain *c, char *err, size_t errlen)
{
	return write_file(c, true, err, errlen);
}
