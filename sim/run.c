// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run: builds the machine of a scenario, plugs its CPUs into the x86
 * driver, opens the events as perf record would (per task or per CPU,
 * one buffer per task or CPU, further events redirected into it), lets
 * the consumer read the buffers into perf.data while the machine runs,
 * and reads the file back for the summary. See run.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/internal.h"
#include "core/sideband.h"
#include "core/task_ctx_data.h"
#include "core/testcase.h"
#include "core/x86/pmu.h"
#include "core/x86/tsc.h"
#include "tools/perf/util/lbr_stitch.h"
#include "sim/judge.h"
#include "sim/machine.h"
#include "tools/lib/perf/mmap_read.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/perf_map.h"
#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/genelf.h"
#include "sim/run.h"
#include "sim/vg_task.h"
#include "tools/perf/util/synthesize.h"
#include "tools/perf/util/tsc_convert.h"

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
	struct judge judge;		/* the samples against the truth (sim/judge.h) */
	/* user-page time conversion snapshots, oldest first */
	struct tsc_conv *convs;
	size_t nr_convs, convs_cap;
	bool hold_reads;		/* the end hook runs: the consumer waits */
	/* the perf.data header's env: the writer reads it until it closes */
	struct perf_data_env env;
	char cpuid[64], cpu_desc[64];
	int error;
	const char *map_dir;
	unsigned int nr_maps;		/* perf-PID.map files written, to take back on failure */
	struct run_dso *dsos;		/* per scenario task entry: its program's ELF */
	/* a recorded program instead of the scenario's tasks (run_trace()) */
	struct vg_trace *trace;
	const char *comm;
};

static struct run *the_run;

/* A program as perf sees it: an ELF file named by MMAP2 and BUILD_ID. */
struct run_dso {
	char filename[64];		/* "/pmusim/NAME", as MMAP2 names it */
	u8 *code;
	struct genelf_sym *syms;
	struct genelf_dso elf;
};

/* Where the ELF files go: see run_set_buildid_dirs(). */
static const char *buildid_cache_dir = "";
static bool buildid_beside = true;

void run_set_buildid_dirs(const char *user_cache, bool beside)
{
	buildid_cache_dir = user_cache;
	buildid_beside = beside;
}

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
	unsigned int next = ((struct sim_task *)task->sim)->index + 1;

	return next < m->nr_tasks ? &m->tasks[next]->task : NULL;
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

/* Keep the page's conversion fields when they changed: samples read later may need them. */
static void snapshot_conv(struct run *r, struct run_buf *b)
{
	struct tsc_conv c;

	if (tsc_conv_read(b->rb->user_page, &c) || !c.mono_raw)
		return;
	if (r->nr_convs && !memcmp(&r->convs[r->nr_convs - 1], &c, sizeof(c)))
		return;
	if (grow((void **)&r->convs, &r->convs_cap, r->nr_convs + 1, sizeof(c))) {
		r->error = ENOMEM;
		return;
	}
	r->convs[r->nr_convs++] = c;
}

static void read_buf(struct run *r, struct run_buf *b)
{
	bool pause = r->s->consumer->pause;

	r->batch_len = r->nr_offs = 0;
	r->seen = 0;
	r->want = UINT64_MAX;
	if (pause)
		rb_toggle_paused(b->rb, true);
	snapshot_conv(r, b);
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
	bool due;

	if (r->hold_reads)
		return;
	due = all || (interval && r->m->now >= r->next_read);

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
#ifdef CONFIG_PERF_HW_TIME
	attr->hw_time = e->hw_time;
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
	perf_event_init_userpage(event);
	perf_event_update_userpage(event);
	if (perf_mmap_reader__init(&b->reader, b->rb->user_page))
		return -EINVAL;
	snapshot_conv(r, b);
	r->nr_bufs++;
	return 0;
}

/*
 * The overflow handler of every event the run opens: the default output,
 * then the judge's note of what the task the sample was taken from was
 * doing, keyed as the sample is, so the summary can judge it.
 */
static void run_overflow_handler(struct perf_event *event, struct perf_sample_data *data,
				 struct pt_regs *regs)
{
	if (event->attr.write_backward)
		perf_event_output_backward(event, data, regs);
	else
		perf_event_output_forward(event, data, regs);
	if (the_run)
		judge_note_sample(&the_run->judge, event, data, regs);
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
	WRITE_ONCE(event->overflow_handler, run_overflow_handler);
	if (output) {
		ret = perf_event_set_output(event, output);
		/* one owner's events: same task or CPU, and check() made them one direction */
		if (NEVER(ret)) {
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

/*
 * Each scenario task entry's program as an ELF file (its code, its
 * functions' symbols, a build-id), named /pmusim/NAME in MMAP2 and in the
 * header's BUILD_ID list, so that perf finds its symbols by build-id and
 * no two runs' programs can be taken for each other.
 */
static int build_dsos(struct run *r, char *err, size_t errlen)
{
	const struct scenario *s = r->s;

	r->dsos = calloc(s->tasks_count, sizeof(*r->dsos));
	if (!r->dsos)
		goto nomem;
	for (unsigned int g = 0; g < s->tasks_count; g++) {
		const struct workload *wl = r->wls[g];
		struct run_dso *d = &r->dsos[g];
		bool taken = false;
		char *c;

		snprintf(d->filename, sizeof(d->filename), "/pmusim/%s", s->tasks[g].name);
		for (c = d->filename + 8; *c; c++)
			if (*c == '/')
				*c = '_';
		for (unsigned int k = 0; k < g; k++)
			taken |= !strcmp(r->dsos[k].filename, d->filename);
		if (taken)	/* two entries of one name: the second is NAME-2, ... */
			snprintf(d->filename + strlen(d->filename),
				 sizeof(d->filename) - strlen(d->filename), "-%u", g + 1);
		d->syms = calloc(wl->nr_funcs, sizeof(*d->syms));
		if (!d->syms || workload_text(wl, &d->code, &d->elf.text_start, &d->elf.text_size))
			goto nomem;
		for (uint32_t f = 0; f < wl->nr_funcs; f++)
			d->syms[f] = (struct genelf_sym){ wl->funcs[f].addr, wl->funcs[f].size,
							  wl->funcs[f].name };
		d->elf.code = d->code;
		d->elf.syms = d->syms;
		d->elf.nr_syms = wl->nr_funcs;
		if (genelf__build(&d->elf, err, errlen))
			return -1;
		if (perf_data_writer__add_build_id(r->w, d->elf.build_id, GENELF_BUILD_ID_SIZE,
						   d->filename))
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "pmusim: out of memory");
	return -1;
}

/*
 * The ELF files go where perf looks for them (as perf record puts its
 * DSOs there): the user's build-id cache, and beside the perf.data in
 * NAME.debug/, a cache of the same layout that travels with the file
 * (perf --buildid-dir NAME.debug report -i NAME).
 */
static int store_dsos(struct run *r, const char *target, bool in_place, char *err, size_t errlen)
{
	char beside[4200], user[4096];
	const char *dirs[2] = { NULL, NULL };

	if (!in_place && buildid_beside) {
		snprintf(beside, sizeof(beside), "%s.debug", target);
		dirs[0] = beside;
	}
	if (buildid_cache_dir && !*buildid_cache_dir)
		dirs[1] = build_id_cache__default_dir(user, sizeof(user));
	else
		dirs[1] = buildid_cache_dir;
	for (unsigned int i = 0; i < 2; i++) {
		for (unsigned int g = 0; dirs[i] && r->dsos && g < r->s->tasks_count; g++) {
			if (!build_id_cache__add(dirs[i], r->dsos[g].filename,
						 r->dsos[g].elf.build_id, r->dsos[g].elf.image,
						 r->dsos[g].elf.image_size, err, errlen))
				continue;
			if (i == 0)
				return -1;	/* the output's own */
			/* the user's cache, as perf record's, is a convenience: say so and go on */
			snprintf(r->st->warning, sizeof(r->st->warning), "pmusim: warning: %s", err);
			err[0] = '\0';
			break;
		}
	}
	return 0;
}

static void free_dsos(struct run *r)
{
	for (unsigned int g = 0; r->dsos && g < r->s->tasks_count; g++) {
		genelf__exit(&r->dsos[g].elf);
		free(r->dsos[g].code);
		free(r->dsos[g].syms);
	}
	free(r->dsos);
	r->dsos = NULL;
}

static int start_file(struct run *r, const char *output, const char *map_dir, char *err,
		      size_t errlen)
{
	static const char *const argv[] = { "pmusim", "run" };
	const struct scenario *s = r->s;
	const struct model_cpu_desc *desc = r->m->cfg.desc;
	uint8_t rec[SYNTH_RECORD_MAX];
	struct perf_event_attr first_attr;

	/* the writer reads the env again when it closes: it lives in the run */
	snprintf(r->cpuid, sizeof(r->cpuid), "GenuineIntel,%u,%u,%u", desc->family, desc->model,
		 desc->stepping);
	snprintf(r->cpu_desc, sizeof(r->cpu_desc), "pmusim model Intel %s", desc->name);
	r->env = (struct perf_data_env){
		.hostname = "pmusim", .os_release = "6.12.0-pmusim", .version = "6.12",
		.arch = "x86_64", .cpu_desc = r->cpu_desc, .cpuid = r->cpuid,
		.nr_cpus_avail = s->machine->cpus, .nr_cpus_online = s->machine->cpus,
		.total_mem = 1 << 20, .argc = 2, .argv = argv,
		.max_branches = desc->lbr_nr, .pmu_name = desc->name,
		.callchain_branches_only = true,
	};
	if (s->argc) {		/* the command line that ran it, as perf record keeps it */
		r->env.argc = s->argc;
		r->env.argv = s->argv;
	}
	for (uint32_t i = 0; i < s->events_count; i++)
		if (s->events[i].branch_sampling)
			r->env.callchain_branches_only = false;
	if (output) {
		r->w = perf_data_writer__open(output, &r->env);
		if (!r->w) {
			snprintf(err, errlen, "%s", perf_data_writer__last_error());
			return -1;
		}
	}
	/*
	 * perf-PID.map files only when asked for (MAP_DIR): the perf.data
	 * names each program's ELF file, and perf reads these maps only for
	 * anonymous text. Same PIDs every run: a later run's maps would
	 * rename an earlier file's frames, were they read.
	 */
	r->map_dir = map_dir;
	for (unsigned int t = 0; map_dir && t < r->m->nr_tasks; t++) {
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
	if (r->trace) {
		unsigned int nr;
		const struct vg_dso *d = vg_trace_dsos(r->trace, &nr);

		/* the program's own files: perf finds them by path and checks the build-id */
		for (unsigned int i = 0; i < nr; i++)
			if (d[i].build_id_size &&
			    perf_data_writer__add_build_id(r->w, d[i].build_id, d[i].build_id_size,
							   d[i].path))
				goto nomem;
	} else if (build_dsos(r, err, errlen)) {
		return -1;
	}
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
		const struct run_dso *dso = r->dsos ? &r->dsos[st->group] : NULL;
		struct synth_sample_id sid = { .pid = (u32)st->task.pid, .tid = (u32)st->task.tid,
					       .id = r->events[0]->id, .cpu = (u32)st->cpu };
		size_t n;

		if (st->sleeping)
			continue;	/* a thread not started yet: its FORK comes when it starts */
		n = perf_event__synthesize_comm(rec, &first_attr, sid.pid, sid.tid, st->task.comm,
						&sid);
		if (!n || perf_data_writer__write(r->w, (struct perf_event_header *)rec))
			goto nomem;
		/* a recorded program's mappings come as it maps them (perf_event_mmap) */
		if (st->task.pid != st->task.tid || !dso)
			continue;
		n = perf_event__synthesize_mmap2(rec, &first_attr, sid.pid, sid.tid,
						 dso->elf.map_start, dso->elf.map_len,
						 dso->elf.map_pgoff, 0x5 /* R|X */,
						 0x2 /* PRIVATE */, dso->filename, &sid);
		if (!n || perf_data_writer__write(r->w, (struct perf_event_header *)rec))
			goto nomem;
	}
	return 0;
nomem:
	snprintf(err, errlen, "pmusim: cannot write %s", output);
	return -1;
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
		.quantum = s->machine->quantum, .pmi_cycles = s->machine->pmi_cycles,
		.seed = s->seed,
	};
	struct machine_hooks hooks = {
		hook_sched_out, hook_sched_in, hook_tick, hook_quantum_end, r,
	};
	struct perf_task_iter iter = { task_first, task_next, NULL };
	int ret;

	r->wls = calloc(s->tasks_count, sizeof(*r->wls));
	if (!r->wls)
		goto nomem;
	for (unsigned int g = 0; g < s->tasks_count && !r->trace; g++) {
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
	/* the event core's tick budget follows the machine's tick, not CONFIG_HZ */
	ret = perf_event_hz_set((int)cfg.hz);
	/* check() holds machine.hz to 100..10000, all of which the event core takes */
	if (NEVER(ret)) {
		snprintf(err, errlen, "pmusim: machine.hz %u: the event core refused it", cfg.hz);
		return -1;
	}
	for (unsigned int c = 0; c < cfg.nr_cpus; c++) {
		ret = x86_pmu_attach_cpu((int)c, r->m->cpus[c].model);
		if (ret) {
			snprintf(err, errlen, "pmusim: CPU %u: the x86 driver refused the %s model: %s",
				 c, cfg.desc->name, strerror(-ret));
			return -1;
		}
		x86_pmu_set_irq_regs((int)c, &r->m->cpus[c].regs);
		/* the handler's cycles, as perf_sample_event_took() gets them */
		x86_pmu_set_pmi_ns((int)c, cfg.pmi_cycles * 1000000ULL / CONFIG_MODEL_TSC_KHZ);
	}
	if (r->trace && vg_trace_add_tasks(r->trace, r->m, r->comm))
		goto nomem;
	for (unsigned int g = 0; g < s->tasks_count && !r->trace; g++) {
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
	iter.priv = r->m;
	perf_ctx_data_set_task_iter(&iter);
	perf_find_task_by_vpid = find_task_by_vpid;
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
	x86_branch_text_reset();
	perf_find_task_by_vpid = NULL;
	perf_event_hz_set(CONFIG_HZ);
	perf_cpu_limits_reset();
	for (unsigned int c = 0; r->m && c < r->m->cfg.nr_cpus; c++)
		x86_pmu_set_pmi_ns((int)c, 0);
	machine_destroy(r->m);
	for (unsigned int g = 0; r->wls && g < r->s->tasks_count; g++)
		workload_free(r->wls[g]);
	free(r->wls);
	free(r->events);
	free(r->scn_of);
	free(r->bufs);
	free(r->batch);
	free(r->offs);
	judge_exit(&r->judge);
	free(r->convs);
	free_dsos(r);
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

/* ---- what the end hook may do ------------------------------------------------ */

unsigned int run_nr_buffers(const struct run *r)
{
	return r->nr_bufs;
}

struct perf_event_mmap_page *run_buffer_page(const struct run *r, unsigned int i)
{
	return r->bufs[i].rb->user_page;
}

void run_buffer_pause(struct run *r, unsigned int i, bool pause)
{
	rb_toggle_paused(r->bufs[i].rb, pause);
}

void run_advance(struct run *r, uint64_t cycles)
{
	machine_run(r->m, r->m->now + cycles);
}

const struct run_truth *run_truths(const struct run *r, size_t *nr)
{
	*nr = r->judge.nr_truth;
	return r->judge.truth;
}

int run_parse_sample(const struct run *r, const void *rec, size_t size, struct perf_sample *s)
{
	const struct perf_event_header *h = rec;
	struct perf_event_attr attr;
	const char *why;

	/* one event: its attr is the scenario's first */
	if (h->type != PERF_RECORD_SAMPLE || r->s->events_count != 1)
		return -1;
	build_attr(r, &r->s->events[0], true, &attr);
	if (perf_sample__parse(&attr, rec, (u32)size, s, &why))
		return -1;
	return 0;
}

/* ---- stopping early: SIGINT, SIGTERM -------------------------------------------- */

static volatile sig_atomic_t stop_signal;

static void note_stop_signal(int sig)
{
	stop_signal = sig;
}

static const int stop_signals[] = { SIGINT, SIGTERM };

int run_stop_signal(void)
{
	return stop_signal;
}

struct saved_signals {
	struct sigaction old[2];
};

/*
 * As perf record: SIGINT or SIGTERM stops the recording, and the file is
 * finished with what was recorded so far. A signal only sets a flag;
 * the run looks at it between quanta. It stays set: a later run in the
 * same process (a seed's second run) stops at once.
 */
static void catch_stop_signals(struct saved_signals *saved)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note_stop_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < 2; i++)
		sigaction(stop_signals[i], &sa, &saved->old[i]);
}

static void restore_stop_signals(const struct saved_signals *saved)
{
	for (unsigned int i = 0; i < 2; i++)
		sigaction(stop_signals[i], &saved->old[i], NULL);
}

/*
 * The machine runs its duration one quantum at a time (the same quanta
 * as one machine_run() call) so that a stop signal is seen in time.
 */
static void run_machine(struct run *r)
{
	uint64_t quantum = r->m->cfg.quantum;

	while (r->m->now < r->s->duration && !stop_signal &&
	       !(r->trace && vg_trace_done(r->trace))) {
		uint64_t until = r->s->duration - r->m->now > quantum ?
				 r->m->now + quantum : r->s->duration;

		machine_run(r->m, until);
	}
	r->st->stop_signal = stop_signal;
	r->st->ran = r->m->now;
}

int run_scenario(const struct scenario *s, const char *output, const char *map_dir,
		 run_progress_fn progress, struct run_stats *st, char *err, size_t errlen)
{
	return run_scenario_hooked(s, output, map_dir, progress, NULL, st, err, errlen);
}

static int run_one(struct run *rp, const char *output, const char *map_dir,
		   const struct run_end_hook *hook, char *err, size_t errlen);

int run_scenario_hooked(const struct scenario *s, const char *output, const char *map_dir,
			run_progress_fn progress, const struct run_end_hook *hook,
			struct run_stats *st, char *err, size_t errlen)
{
	struct run r = { .s = s, .st = st, .progress = progress };

	return run_one(&r, output, map_dir, hook, err, errlen);
}

int run_trace(const struct scenario *s, struct vg_trace *trace, const char *comm,
	      const char *output, struct run_stats *st, char *err, size_t errlen)
{
	struct run r = { .s = s, .st = st, .trace = trace, .comm = comm };

	return run_one(&r, output, NULL, NULL, err, errlen);
}

static int run_one(struct run *rp, const char *output, const char *map_dir,
		   const struct run_end_hook *hook, char *err, size_t errlen)
{
	struct run r = *rp;
	const struct scenario *s = r.s;
	struct run_stats *st = r.st;
	struct saved_signals saved;
	char target[4096];
	bool in_place;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	the_run = &r;
	catch_stop_signals(&saved);
	if (setup(&r, err, errlen))
		goto out;
	r.judge = (struct judge){ .s = s, .m = r.m, .wls = r.wls, .trace = r.trace, .st = st };
	if (open_events(&r, err, errlen) || start_file(&r, output, map_dir, err, errlen))
		goto out;
	r.next_read = s->consumer->interval;
	run_machine(&r);
	if (hook && !st->stop_signal) {
		r.hold_reads = true;
		if (hook->fn(&r, hook->arg)) {
			snprintf(err, errlen, "pmusim: %s: the analysis at the end failed", s->file);
			goto out;
		}
		r.hold_reads = false;
	}
	consume(&r, true);
	if (r.error || r.judge.error) {
		snprintf(err, errlen, "pmusim: cannot write %s: %s", output,
			 strerror(r.error ? r.error : r.judge.error));
		goto out;
	}
	if (judge_ground_truth(&r.judge)) {
		snprintf(err, errlen, "pmusim: out of memory");
		goto out;
	}
	if (r.w) {
		struct perf_data_writer *w;

		if (perf_data_writer__finish(r.w)) {
			snprintf(err, errlen, "%s", perf_data_writer__last_error());
			goto out;
		}
		snprintf(target, sizeof(target), "%s", perf_data_writer__target(r.w));
		if (r.trace && judge_open_truth(&r.judge, target, err, errlen))
			goto out;
		r.judge.convs = r.convs;
		r.judge.nr_convs = r.nr_convs;
		if (judge_file(&r.judge, r.w, err, errlen))
			goto out;
		/* the ELF files before the perf.data: one that cannot be stored leaves no file */
		in_place = perf_data_writer__in_place(r.w);
		if (store_dsos(&r, target, in_place, err, errlen))
			goto out;
		w = r.w;
		r.w = NULL;
		if (perf_data_writer__close(w)) {
			snprintf(err, errlen, "%s", perf_data_writer__last_error());
			goto out;
		}
		if (r.judge.truth_fp && judge_close_truth(&r.judge, target, err, errlen))
			goto out;
	}
	ret = 0;
out:
	if (r.w)
		perf_data_writer__abort(r.w);
	if (ret)
		remove_maps(&r);
	teardown(&r);
	restore_stop_signals(&saved);
	return ret;
}

void run_stats_free(struct run_stats *st)
{
	free(st->tasks);
	st->tasks = NULL;
	st->nr_tasks = 0;
	free(st->funcs);
	st->funcs = NULL;
	st->nr_funcs = 0;
}
