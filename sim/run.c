// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run: builds the machine of a scenario, plugs its CPUs into the x86
 * driver, opens the events as perf record would (per task or per CPU,
 * one buffer per task or CPU, further events redirected into it), lets
 * the consumer read the buffers into perf.data while the machine runs,
 * and reads the file back for the summary. See run.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"
#include "core/sideband.h"
#include "core/task_ctx_data.h"
#include "core/x86/pmu.h"
#include "sim/lbr_stitch.h"
#include "sim/machine.h"
#include "sim/mmap_read.h"
#include "sim/perf_data.h"
#include "sim/perf_data_read.h"
#include "sim/perf_map.h"
#include "sim/run.h"
#include "sim/synthesize.h"

#define MAX_EVENTS	(16 * 1024)

struct run_buf {
	struct perf_buffer *rb;
	struct perf_mmap_reader reader;
	uint64_t last_head;		/* backward: data_head at the last read */
	bool backward, overwrite;
};

struct run {
	const struct scenario *s;
	struct machine *m;
	struct workload **wls;		/* per scenario task entry */
	struct perf_event **events;
	unsigned int *scn_of;		/* the scenario event each was opened for */
	unsigned int nr_events;
	struct run_buf *bufs;
	unsigned int nr_bufs;
	struct perf_data_writer *w;
	struct run_stats *st;
	uint64_t next_read;
	run_progress_fn progress;
	/* one read's records, written oldest first */
	unsigned char *batch;
	size_t batch_len, batch_cap;
	uint32_t *offs;
	size_t nr_offs, offs_cap;
	uint64_t want;			/* backward: bytes new since the last read */
	uint64_t seen;
	int error;
	unsigned int saved_hz;
	const char *map_dir;
	unsigned int nr_maps;		/* perf-PID.map files written, to take back on failure */
};

static struct run *the_run;

/* ---- what core/ asks of the world ----------------------------------------- */

static struct task_struct *find_task_by_vpid(int pid)
{
	struct sim_task *t;

	if (!pid)
		return current;
	t = machine_find_task(the_run->m, pid);
	return t ? &t->task : NULL;
}

static struct task_struct *task_first(void *priv)
{
	struct machine *m = priv;

	return m->nr_tasks ? &m->tasks[0]->task : NULL;
}

static struct task_struct *task_next(void *priv, struct task_struct *task)
{
	struct machine *m = priv;

	for (unsigned int i = 0; i + 1 < m->nr_tasks; i++)
		if (&m->tasks[i]->task == task)
			return &m->tasks[i + 1]->task;
	return NULL;
}

/* The events that may want a side-band record on this CPU: its own and current's. */
static void sb_for_each_event(perf_iterate_f fn, void *arg)
{
	struct perf_cpu_context *cpuctx = &perf_cpu_context[smp_processor_id()];

	for (struct perf_event *e = cpuctx->ctx.event_list; e; e = e->ctx_next)
		fn(e, arg);
	if (cpuctx->task_ctx)
		for (struct perf_event *e = cpuctx->task_ctx->event_list; e; e = e->ctx_next)
			fn(e, arg);
}

/* ---- the machine's hooks ---------------------------------------------------- */

static void hook_sched_out(void *ctx, struct sim_cpu *cpu, struct sim_task *prev,
			   struct sim_task *next)
{
	(void)ctx;
	if (!prev)
		return;
	perf_event_switch(&prev->task, next ? &next->task : NULL, false);
	x86_pmu_sched_out(&prev->task);
	perf_event_sched_out(cpu->id, &prev->task);
}

static void hook_sched_in(void *ctx, struct sim_cpu *cpu, struct sim_task *prev,
			  struct sim_task *next)
{
	(void)ctx;
	perf_event_sched_in(cpu->id, &next->task);
	x86_pmu_sched_in(&next->task);
	perf_event_switch(&next->task, prev ? &prev->task : NULL, true);
}

static void hook_tick(void *ctx, struct sim_cpu *cpu)
{
	(void)ctx;
	(void)cpu;
	perf_event_task_tick();
}

/* ---- the consumer ----------------------------------------------------------- */

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	void *n;
	size_t c = *cap ? *cap : 4096;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * elem);
	if (!n)
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

static int collect(const struct perf_event_header *rec, size_t size, void *arg)
{
	struct run *r = arg;

	if (r->want != UINT64_MAX && r->seen >= r->want)
		return 1;		/* read last time */
	r->seen += size;
	if (grow((void **)&r->batch, &r->batch_cap, r->batch_len + size, 1) ||
	    grow((void **)&r->offs, &r->offs_cap, r->nr_offs + 1, sizeof(*r->offs))) {
		r->error = ENOMEM;
		return 1;
	}
	memcpy(r->batch + r->batch_len, rec, size);
	r->offs[r->nr_offs++] = (uint32_t)r->batch_len;
	r->batch_len += size;
	return 0;
}

static void account(struct run *r, const struct perf_event_header *h)
{
	struct run_stats *st = r->st;

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
	if (r->w && perf_data_writer__write(r->w, h))
		r->error = EIO;
}

static void read_buf(struct run *r, struct run_buf *b)
{
	bool pause = r->s->consumer->pause;

	r->batch_len = r->nr_offs = 0;
	r->seen = 0;
	r->want = UINT64_MAX;
	if (pause)
		rb_toggle_paused(b->rb, true);
	if (b->backward) {
		uint64_t head = perf_mmap__read_head(b->rb->user_page);

		r->want = b->last_head - head;
		if (r->want > b->reader.size)
			r->st->overwritten += r->want - b->reader.size;
		perf_mmap_reader__read_backward(&b->reader, collect, r);
		b->last_head = head;
	} else if (b->overwrite) {
		perf_mmap_reader__read_overwrite_forward(&b->reader, collect, r);
	} else {
		perf_mmap_reader__read_forward(&b->reader, 0, collect, r);
	}
	if (pause)
		rb_toggle_paused(b->rb, false);
	r->st->reads++;
	/* a backward read comes newest first: write oldest first */
	for (size_t i = 0; i < r->nr_offs; i++) {
		size_t k = b->backward ? r->nr_offs - 1 - i : i;

		account(r, (const struct perf_event_header *)(r->batch + r->offs[k]));
	}
}

static void consume(struct run *r, bool all)
{
	uint64_t interval = r->s->consumer->interval;
	bool due = all || (interval && r->m->now >= r->next_read);

	if (interval && r->m->now >= r->next_read)
		r->next_read += interval;
	for (unsigned int i = 0; i < r->nr_bufs; i++) {
		struct run_buf *b = &r->bufs[i];
		bool woken = atomic_read(&b->rb->poll) != 0;

		if (woken) {
			atomic_set(&b->rb->poll, 0);
			r->st->wakeups++;
		}
		if (due || (woken && !interval))
			read_buf(r, b);
	}
}

static void hook_quantum_end(void *ctx, struct machine *m, uint64_t now)
{
	struct run *r = ctx;

	(void)m;
	consume(r, false);
	if (r->progress)
		r->progress(now, r->s->duration);
}

/* ---- events ----------------------------------------------------------------- */

static void build_attr(const struct run *r, const struct scn_event *e, bool tracking,
		       struct perf_event_attr *attr)
{
	const struct scenario *s = r->s;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = e->type;
	attr->config = e->config;
	if (e->freq) {
		attr->freq = 1;
		attr->sample_freq = e->freq;
	} else {
		attr->sample_period = e->period;
	}
	attr->sample_type = e->sample_type;
	if (s->events_count > 1)
		attr->sample_type |= PERF_SAMPLE_IDENTIFIER;
	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK)
		attr->branch_sample_type = e->branch_filter;
	attr->exclude_kernel = e->exclude_kernel;
	attr->exclude_user = e->exclude_user;
	attr->exclude_hv = 1;
	attr->write_backward = e->write_backward;
	attr->sample_id_all = 1;
	attr->context_switch = e->context_switch;
	if (tracking) {
		attr->comm = 1;
		attr->mmap = 1;
		attr->mmap2 = 1;
		attr->task = 1;
	}
	if (s->buffer->watermark) {
		attr->watermark = 1;
		attr->wakeup_watermark = s->buffer->watermark;
	} else {
		attr->wakeup_events = s->buffer->wakeup_events;
	}
#ifdef CONFIG_PERF_ALT_SAMPLE_PERIOD
	attr->alternative_sample_period = e->alternative_period;
#endif
}

static int add_buf(struct run *r, struct perf_event *event, bool backward, int cpu)
{
	const struct scn_buffer *sb = r->s->buffer;
	struct run_buf *b = &r->bufs[r->nr_bufs];
	int flags = sb->overwrite ? 0 : RING_BUFFER_WRITABLE;

	b->rb = rb_alloc((int)sb->pages, (long)sb->watermark, cpu, flags);
	if (!b->rb)
		return -ENOMEM;
	b->backward = backward;
	b->overwrite = sb->overwrite;
	refcount_inc(&b->rb->refcount);	/* the consumer keeps one */
	ring_buffer_attach(event, b->rb);
	perf_event_update_userpage(event);
	if (perf_mmap_reader__init(&b->reader, b->rb->user_page))
		return -EINVAL;
	r->nr_bufs++;
	return 0;
}

static int open_one(struct run *r, struct perf_event_attr *attr, int pid, int cpu,
		    struct perf_event *output, char *err, size_t errlen, unsigned int idx)
{
	struct perf_event *event;
	int ret;

	if (r->nr_events == MAX_EVENTS) {
		snprintf(err, errlen, "pmusim: too many events");
		return -1;
	}
	ret = perf_event_open_attr(attr, sizeof(*attr), pid, cpu, NULL, 0, NULL, &event);
	if (ret) {
		snprintf(err, errlen, "%s:%u: events.%u: perf_event_open: %s", r->s->file,
			 1u, idx, strerror(-ret));
		return -1;
	}
	r->scn_of[r->nr_events] = idx;
	r->events[r->nr_events++] = event;
	if (output) {
		ret = perf_event_set_output(event, output);
		if (ret) {
			snprintf(err, errlen, "pmusim: events.%u: SET_OUTPUT: %s", idx,
				 strerror(-ret));
			return -1;
		}
		return 0;
	}
	if (add_buf(r, event, attr->write_backward, cpu)) {
		snprintf(err, errlen, "pmusim: cannot allocate a %u-page buffer",
			 r->s->buffer->pages);
		return -1;
	}
	return 0;
}

/* perf record: per task (pid, any CPU) or per CPU (all tasks); one buffer each. */
static int open_events(struct run *r, char *err, size_t errlen)
{
	const struct scenario *s = r->s;
	unsigned int nr_owners = s->machine->cpus + r->m->nr_tasks;
	struct perf_event **first = calloc(nr_owners, sizeof(*first));
	int ret = 0;

	r->events = calloc(MAX_EVENTS, sizeof(*r->events));
	r->scn_of = calloc(MAX_EVENTS, sizeof(*r->scn_of));
	r->bufs = calloc(nr_owners, sizeof(*r->bufs));
	if (!first || !r->events || !r->scn_of || !r->bufs) {
		free(first);
		snprintf(err, errlen, "pmusim: out of memory");
		return -1;
	}
	for (unsigned int i = 0; i < s->events_count && !ret; i++) {
		const struct scn_event *e = &s->events[i];
		struct perf_event_attr attr;

		build_attr(r, e, i == 0, &attr);
		if (e->scope == SCN_SCOPE_SYSTEM) {
			for (unsigned int c = 0; c < s->machine->cpus && !ret; c++) {
				if (e->cpu_mask && !(e->cpu_mask >> c & 1))
					continue;
				ret = open_one(r, &attr, -1, (int)c, first[c], err, errlen, i);
				if (!ret && !first[c])
					first[c] = r->events[r->nr_events - 1];
			}
		} else {
			for (unsigned int t = 0; t < r->m->nr_tasks && !ret; t++) {
				unsigned int o = s->machine->cpus + t;

				ret = open_one(r, &attr, r->m->tasks[t]->task.tid, -1, first[o],
					       err, errlen, i);
				if (!ret && !first[o])
					first[o] = r->events[r->nr_events - 1];
			}
		}
	}
	free(first);
	return ret;
}

/* ---- perf.data -------------------------------------------------------------- */

static int start_file(struct run *r, const char *output, const char *map_dir, char *err,
		      size_t errlen)
{
	static const char *const argv[] = { "pmusim", "run" };
	const struct scenario *s = r->s;
	const struct model_cpu_desc *desc = r->m->cfg.desc;
	char cpuid[64], cpu_desc[64];
	uint8_t rec[SYNTH_RECORD_MAX];
	struct perf_data_env env = {
		.hostname = "pmusim", .os_release = "6.12.0-pmusim", .version = "6.12",
		.arch = "x86_64", .cpu_desc = cpu_desc, .cpuid = cpuid,
		.nr_cpus_avail = s->machine->cpus, .nr_cpus_online = s->machine->cpus,
		.total_mem = 1 << 20, .argc = 2, .argv = argv,
		.max_branches = desc->lbr_nr, .pmu_name = desc->name,
	};
	struct perf_event_attr first_attr;

	snprintf(cpuid, sizeof(cpuid), "GenuineIntel,%u,%u,%u", desc->family, desc->model,
		 desc->stepping);
	snprintf(cpu_desc, sizeof(cpu_desc), "pmusim model Intel %s", desc->name);
	if (output) {
		r->w = perf_data_writer__open(output, &env);
		if (!r->w) {
			snprintf(err, errlen, "%s", perf_data_writer__last_error());
			return -1;
		}
	}
	/* the symbols: perf reads /tmp/perf-PID.map for the anonymous text */
	r->map_dir = map_dir;
	for (unsigned int t = 0; t < r->m->nr_tasks; t++) {
		struct sim_task *st = r->m->tasks[t];
		const struct workload *wl = r->wls[st->group];
		struct perf_map_sym syms[WL_MAX_DEPTH];

		if (st->task.pid != st->task.tid)
			continue;
		for (uint32_t f = 0; f < wl->nr_funcs; f++)
			syms[f] = (struct perf_map_sym){ wl->funcs[f].addr, wl->funcs[f].size,
							 wl->funcs[f].name };
		if (perf_map__write(map_dir, st->task.pid, syms, wl->nr_funcs, err, errlen))
			return -1;
		r->nr_maps = t + 1;
	}
	if (!output)
		return 0;
	for (unsigned int i = 0; i < s->events_count; i++) {
		struct perf_event_attr attr;
		u64 *ids = calloc(r->nr_events, sizeof(*ids));
		unsigned int n = 0;

		if (!ids)
			goto nomem;
		build_attr(r, &s->events[i], i == 0, &attr);
		if (i == 0)
			first_attr = attr;
		for (unsigned int k = 0; k < r->nr_events; k++)
			if (r->scn_of[k] == i)
				ids[n++] = r->events[k]->id;
		if (perf_data_writer__add_attr(r->w, &attr, s->events[i].event, ids, n)) {
			free(ids);
			goto nomem;
		}
		free(ids);
	}
	if (!s->events_count)
		return 0;
	/* the tasks that were there before recording began, as perf record synthesizes them */
	for (unsigned int t = 0; t < r->m->nr_tasks; t++) {
		struct sim_task *st = r->m->tasks[t];
		const struct workload *wl = r->wls[st->group];
		const struct wl_func *last = &wl->funcs[wl->nr_funcs - 1];
		struct synth_sample_id sid = { .pid = (u32)st->task.pid, .tid = (u32)st->task.tid,
					       .id = r->events[0]->id, .cpu = (u32)st->cpu };
		size_t n;

		n = perf_event__synthesize_comm(rec, &first_attr, sid.pid, sid.tid, st->task.comm,
						&sid);
		if (!n || perf_data_writer__write(r->w, (struct perf_event_header *)rec))
			goto nomem;
		if (st->task.pid != st->task.tid)
			continue;
		n = perf_event__synthesize_mmap2(rec, &first_attr, sid.pid, sid.tid,
						 wl->funcs[0].addr,
						 last->addr + last->size - wl->funcs[0].addr, 0,
						 0x5 /* R|X */, 0x22 /* PRIVATE|ANONYMOUS */,
						 "//anon", &sid);
		if (!n || perf_data_writer__write(r->w, (struct perf_event_header *)rec))
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "pmusim: cannot write %s", output);
	return -1;
}

/* ---- the summary, from the file --------------------------------------------- */

static int summarize_file(struct run *r, const char *path, char *err, size_t errlen)
{
	struct run_stats *st = r->st;
	struct lbr_stitcher plain, stitched;
	struct perf_data_iter it;
	struct perf_data_file f;
	const u8 *ev;
	u32 size;
	int ret;

	if (perf_data_file__open(&f, path)) {
		snprintf(err, errlen, "%s", f.err);
		perf_data_file__close(&f);
		return -1;
	}
	lbr_stitcher__init(&plain, f.max_branches, false);
	lbr_stitcher__init(&stitched, f.max_branches, true);
	perf_data_file__iter_init(&f, &it);
	while ((ret = perf_data_file__next(&f, &it, &ev, &size)) > 0) {
		const struct perf_data_attr *a;
		struct perf_sample s;
		struct sim_task *t;
		const u64 *frames;
		const char *why;
		u32 nr;

		if (((const struct perf_event_header *)ev)->type != PERF_RECORD_SAMPLE)
			continue;
		a = perf_data_file__sample_attr(&f, ev, size);
		if (!a || perf_sample__parse(&a->attr, ev, size, &s, &why))
			continue;
		t = machine_find_task(r->m, (int)s.tid);
		if (t) {
			const struct workload *wl = r->wls[t->group];
			const struct wl_func *fn = workload_func_at(wl, s.ip);

			for (unsigned int i = 0; fn && i < st->nr_funcs; i++)
				if (st->funcs[i].group == t->group &&
				    !strcmp(st->funcs[i].name, fn->name))
					st->funcs[i].samples++;
		}
		if (!(a->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) ||
		    !(a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) ||
		    !(a->attr.sample_type & PERF_SAMPLE_CALLCHAIN))
			continue;
		if (lbr_stitcher__resolve(&plain, &s, &frames, &nr) > 0) {
			st->cs_samples++;
			st->depth_sum += nr;
			if (nr > st->depth_max)
				st->depth_max = nr;
		}
		if (lbr_stitcher__resolve(&stitched, &s, &frames, &nr) > 0) {
			st->stitched_sum += nr;
			if (nr > st->stitched_max)
				st->stitched_max = nr;
		}
	}
	lbr_stitcher__exit(&plain);
	lbr_stitcher__exit(&stitched);
	perf_data_file__close(&f);
	return 0;
}

static int ground_truth(struct run *r)
{
	struct run_stats *st = r->st;
	const struct scenario *s = r->s;
	unsigned int n = 0;

	for (unsigned int g = 0; g < s->tasks_count; g++)
		n += r->wls[g]->nr_funcs;
	st->funcs = calloc(n, sizeof(*st->funcs));
	if (!st->funcs)
		return -1;
	for (unsigned int g = 0; g < s->tasks_count; g++) {
		for (uint32_t f = 0; f < r->wls[g]->nr_funcs; f++) {
			struct run_func *rf = &st->funcs[st->nr_funcs + f];

			snprintf(rf->name, sizeof(rf->name), "%s", r->wls[g]->funcs[f].name);
			rf->group = g;
		}
		for (unsigned int t = 0; t < r->m->nr_tasks; t++) {
			struct sim_task *tk = r->m->tasks[t];

			if (tk->group != g)
				continue;
			for (uint32_t f = 0; f < r->wls[g]->nr_funcs; f++)
				st->funcs[st->nr_funcs + f].insns += tk->exec.self_insns[f];
		}
		st->nr_funcs += r->wls[g]->nr_funcs;
	}
	for (unsigned int t = 0; t < r->m->nr_tasks; t++) {
		struct wl_exec *x = &r->m->tasks[t]->exec;

		st->insns += x->insns;
		st->branches += x->branches;
		st->cycles += x->cycles;
		st->mispredicts += x->mispredicts;
		if (x->max_depth > st->true_depth_max)
			st->true_depth_max = x->max_depth;
	}
	st->switches = r->m->nr_switches;
	st->migrations = r->m->nr_migrations;
	st->ticks = r->m->nr_ticks;
	for (unsigned int c = 0; c < r->m->cfg.nr_cpus; c++)
		st->pmis += model_cpu_nr_pmis(r->m->cpus[c].model);
	return 0;
}

/* ---- the run ---------------------------------------------------------------- */

/* The driver's software LBR filter decodes branches from their text: give it every site. */
static int add_branch_text(const struct workload *wl)
{
	for (uint32_t f = 0; f < wl->nr_funcs; f++) {
		const struct wl_func *fn = &wl->funcs[f];

		for (uint32_t i = 0; i < fn->nr_ops; i++) {
			const struct wl_op *op = &fn->ops[i];
			u64 at = fn->addr + op->pc;
			int ret = 0;

			switch (op->kind) {
			case WL_OP_CALL:
				ret = x86_branch_text_add(at, MODEL_BR_NEAR_REL_CALL);
				break;
			case WL_OP_RCALL:
				ret = x86_branch_text_add(at, MODEL_BR_JCC) ?:
				      x86_branch_text_add(at + 2, MODEL_BR_NEAR_REL_CALL);
				break;
			case WL_OP_END:
			case WL_OP_COND:
				ret = x86_branch_text_add(at, MODEL_BR_JCC);
				break;
			case WL_OP_RET:
				ret = x86_branch_text_add(at, MODEL_BR_NEAR_RET);
				break;
			default:
				break;
			}
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int setup(struct run *r, char *err, size_t errlen)
{
	const struct scenario *s = r->s;
	struct machine_config cfg = {
		.desc = model_cpu_desc_lookup(s->machine->cpu), .nr_cpus = s->machine->cpus,
		.hz = s->machine->hz, .timeslice = s->machine->timeslice,
		.quantum = s->machine->quantum, .seed = s->seed,
	};
	struct machine_hooks hooks = {
		hook_sched_out, hook_sched_in, hook_tick, hook_quantum_end, r,
	};
	struct perf_task_iter iter = { task_first, task_next, NULL };

	r->wls = calloc(s->tasks_count, sizeof(*r->wls));
	if (!r->wls)
		goto nomem;
	for (unsigned int g = 0; g < s->tasks_count; g++) {
		struct wl_params p;

		scenario_wl_params(s, &s->tasks[g], &p);
		r->wls[g] = workload_build(&p);
		if (!r->wls[g] || add_branch_text(r->wls[g]))
			goto nomem;
	}
	r->m = machine_create(&cfg);
	if (!r->m)
		goto nomem;
	machine_set_hooks(r->m, &hooks);
	for (unsigned int c = 0; c < cfg.nr_cpus; c++) {
		int ret = x86_pmu_attach_cpu((int)c, r->m->cpus[c].model);

		if (ret) {
			snprintf(err, errlen, "pmusim: CPU %u: the x86 driver refused the %s model: %s",
				 c, cfg.desc->name, strerror(-ret));
			return -1;
		}
		x86_pmu_set_irq_regs((int)c, &r->m->cpus[c].regs);
	}
	for (unsigned int g = 0; g < s->tasks_count; g++) {
		const struct scn_task *t = &s->tasks[g];
		uint64_t mask = 0;

		for (uint32_t k = 0; k < t->cpus_count; k++)
			mask |= 1ULL << t->cpus[k];
		for (uint32_t p = 0; p < t->count; p++) {
			struct sim_task *leader = NULL;

			for (uint32_t th = 0; th < t->threads; th++) {
				struct sim_task *nt = machine_add_task(r->m, t->name, r->wls[g],
								       leader, mask, g);

				if (!nt)
					goto nomem;
				if (!leader)
					leader = nt;
			}
		}
	}
	/* the core's HZ is the machine's: the throttle budget per tick and TICK_NSEC */
	r->saved_hz = perf_hz;
	perf_event_set_hz(cfg.hz);
	iter.priv = r->m;
	perf_ctx_data_set_task_iter(&iter);
	perf_find_task_by_vpid = find_task_by_vpid;
	perf_sb_for_each_event = sb_for_each_event;
	return 0;
nomem:
	snprintf(err, errlen, "pmusim: out of memory");
	return -1;
}

static void teardown(struct run *r)
{
	static const struct perf_task_iter none;

	for (unsigned int i = r->nr_events; i-- > 0;)
		perf_event_release_kernel(r->events[i]);
	for (unsigned int i = 0; i < r->nr_bufs; i++) {
		perf_mmap_reader__exit(&r->bufs[i].reader);
		ring_buffer_put(r->bufs[i].rb);
	}
	if (r->m)
		for (unsigned int c = 0; c < r->m->cfg.nr_cpus; c++)
			x86_pmu_attach_cpu((int)c, NULL);
	/* the tasks end with the run: what the driver kept for them goes */
	for (unsigned int t = 0; r->m && t < r->m->nr_tasks; t++)
		perf_ctx_data_exit(&r->m->tasks[t]->task);
	perf_ctx_data_set_task_iter(&none);
	if (r->saved_hz)
		perf_event_set_hz(r->saved_hz);
	x86_branch_text_reset();
	perf_find_task_by_vpid = NULL;
	perf_sb_for_each_event = NULL;
	machine_destroy(r->m);
	for (unsigned int g = 0; r->wls && g < r->s->tasks_count; g++)
		workload_free(r->wls[g]);
	free(r->wls);
	free(r->events);
	free(r->scn_of);
	free(r->bufs);
	free(r->batch);
	free(r->offs);
	the_run = NULL;
}

/* A failed run leaves nothing behind: its perf-PID.map files go too. */
static void remove_maps(struct run *r)
{
	char path[4096];

	for (unsigned int t = 0; r->m && t < r->nr_maps; t++) {
		const struct task_struct *task = &r->m->tasks[t]->task;

		if (task->pid != task->tid)
			continue;
		snprintf(path, sizeof(path), "%s/perf-%d.map", r->map_dir, task->pid);
		unlink(path);
	}
}

int run_scenario(const struct scenario *s, const char *output, const char *map_dir,
		 run_progress_fn progress, struct run_stats *st, char *err, size_t errlen)
{
	struct run r = { .s = s, .st = st, .progress = progress };
	int ret = -1;

	memset(st, 0, sizeof(*st));
	the_run = &r;
	if (setup(&r, err, errlen) || open_events(&r, err, errlen) ||
	    start_file(&r, output, map_dir, err, errlen))
		goto out;
	r.next_read = s->consumer->interval;
	machine_run(r.m, s->duration);
	consume(&r, true);
	if (r.error) {
		snprintf(err, errlen, "pmusim: cannot write %s: %s", output, strerror(r.error));
		goto out;
	}
	if (ground_truth(&r)) {
		snprintf(err, errlen, "pmusim: out of memory");
		goto out;
	}
	if (r.w) {
		struct perf_data_writer *w = r.w;

		r.w = NULL;
		if (perf_data_writer__close(w)) {
			snprintf(err, errlen, "%s", perf_data_writer__last_error());
			goto out;
		}
		if (summarize_file(&r, output, err, errlen))
			goto out;
	}
	ret = 0;
out:
	if (r.w)
		perf_data_writer__abort(r.w);
	if (ret)
		remove_maps(&r);
	teardown(&r);
	return ret;
}

void run_stats_free(struct run_stats *st)
{
	free(st->funcs);
	st->funcs = NULL;
	st->nr_funcs = 0;
}
