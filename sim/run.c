// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run: builds the machine of a scenario, plugs its CPUs into the x86
 * driver and runs it. The record session (tools/perf/builtin_record.c)
 * opens the events, reads the buffers and writes perf.data through the
 * system calls this file gives it, the machine's kernel being core/;
 * the judge (sim/judge.c) holds the file against the machine's truth
 * for the summary. See run.h.
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
#include "sim/judge.h"
#include "sim/machine.h"
#include "sim/run.h"
#include "sim/vg_task.h"
#include "tools/perf/builtin_record.h"
#include "tools/perf/util/genelf.h"
#include "tools/perf/util/perf_data_read.h"
#include "tools/perf/util/perf_map.h"

struct run {
	const struct scenario *s;
	struct machine *m;
	struct workload **wls;		/* per scenario task entry */
	/* the machine's kernel, as the session's system calls reach it */
	struct perf_event **events;	/* by fd */
	unsigned int nr_events;
	struct perf_buffer **rbs;	/* the mapped buffers, in the order mapped */
	unsigned int nr_rbs;
	/* what the session records: the events, the threads, their programs */
	struct record_evsel *evsels;	/* per scenario event */
	struct record_thread *threads;	/* per task */
	struct record_program *progs;	/* per scenario task entry */
	struct record rec;		/* the record session (tools/perf/builtin_record.h) */
	struct judge judge;		/* the samples against the truth (sim/judge.h) */
	struct run_stats *st;
	run_progress_fn progress;
	bool hold_reads;		/* the end hook runs: the consumer waits */
	/* the perf.data header's env: the writer reads it until it closes */
	struct perf_data_env env;
	char cpuid[64], cpu_desc[64];
	const char *map_dir;
	unsigned int nr_maps;		/* perf-PID.map files written, to take back on failure */
	/* a recorded program instead of the scenario's tasks (run_trace()) */
	struct vg_trace *trace;
	const char *comm;
};

static struct run *the_run;

/* Where the ELF files go: see run_set_buildid_dirs(). */
static const char *buildid_cache_dir = "";
static bool buildid_beside = true;

void run_set_buildid_dirs(const char *user_cache, bool beside)
{
	buildid_cache_dir = user_cache;
	buildid_beside = beside;
}

/* Where a recorded program's truth goes: see run_set_truth_file(). */
static const char *truth_file;

void run_set_truth_file(const char *path)
{
	truth_file = path;
}

/* The truth file of the output W: run_set_truth_file()'s, else beside a regular file only. */
static bool truth_path(const struct perf_data_writer *w, char *buf, size_t len)
{
	if (truth_file)
		snprintf(buf, len, "%s", truth_file);
	else if (!perf_data_writer__in_place(w))
		snprintf(buf, len, "%s.truth", perf_data_writer__target(w));
	else
		return false;	/* a device, a FIFO, a pipe: no stray FILE.truth beside it */
	return true;
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

/* The consumer's turn: the session reads the buffers that are due. */
static void consume(struct run *r, bool all)
{
	if (!r->hold_reads)
		record__mmap_read_all(&r->rec, r->m->now, all);
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
	attr->precise_ip = e->precise_ip;
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

/*
 * The overflow handler of every event the run opens: the default output,
 * then the judge's note of what the task the sample was taken from was
 * doing, keyed as the sample is, so the summary can judge it.
 */
static void run_overflow_handler(struct perf_event *event, struct perf_sample_data *data,
				 struct pt_regs *regs)
{
	struct perf_buffer *rb;
	uint64_t written = 0;

	if (event->attr.write_backward)
		perf_event_output_backward(event, data, regs);
	else
		perf_event_output_forward(event, data, regs);
	if (!the_run)
		return;
	/* the buffer it went to, as perf_output_begin() finds it (an inherited event's: its parent's) */
	rb = READ_ONCE(event->rb);
	if (!rb && event->parent)
		rb = READ_ONCE(event->parent->rb);
	/* (a backward buffer's head counts down from 0) */
	if (rb)
		written = event->attr.write_backward ? 0 - (uint64_t)local_read(&rb->head) :
						       (uint64_t)local_read(&rb->head);
	judge_note_sample(&the_run->judge, event, data, regs, rb, written,
			  rb ? perf_data_size(rb) : 0);
}

/* ---- the machine's kernel, as the session's system calls reach it ----------- */

static int sys_perf_event_open(void *priv, const struct perf_event_attr *attr, int pid, int cpu)
{
	struct run *r = priv;
	struct perf_event *event;
	int ret;

	/* the session opens no more than RECORD_MAX_EVENTS */
	if (NEVER(r->nr_events == RECORD_MAX_EVENTS))
		return -EMFILE;
	ret = perf_event_open_attr(attr, sizeof(*attr), pid, cpu, NULL, 0, NULL, &event);
	if (ret)
		return ret;
	WRITE_ONCE(event->overflow_handler, run_overflow_handler);
	r->events[r->nr_events] = event;
	return (int)r->nr_events++;
}

static int sys_set_output(void *priv, int fd, int output)
{
	struct run *r = priv;

	return perf_event_set_output(r->events[fd], r->events[output]);
}

static u64 sys_id(void *priv, int fd)
{
	return ((struct run *)priv)->events[fd]->id;
}

/* As perf_mmap(): the buffer takes the event's watermark and CPU. */
static struct perf_event_mmap_page *sys_mmap(void *priv, int fd, unsigned int pages,
					     bool writable)
{
	struct run *r = priv;
	struct perf_event *event = r->events[fd];
	struct perf_buffer *rb;

	rb = rb_alloc((int)pages, event->attr.watermark ? (long)event->attr.wakeup_watermark : 0,
		      event->cpu, writable ? RING_BUFFER_WRITABLE : 0);
	if (!rb)
		return NULL;
	refcount_inc(&rb->refcount);	/* the mapping keeps one */
	ring_buffer_attach(event, rb);
	perf_event_init_userpage(event);
	perf_event_update_userpage(event);
	r->rbs[r->nr_rbs++] = rb;
	return rb->user_page;
}

static bool sys_poll(void *priv, int fd)
{
	struct perf_buffer *rb = ((struct run *)priv)->events[fd]->rb;
	bool woken = atomic_read(&rb->poll) != 0;

	if (woken)
		atomic_set(&rb->poll, 0);
	return woken;
}

static void sys_pause_output(void *priv, int fd, bool pause)
{
	rb_toggle_paused(((struct run *)priv)->events[fd]->rb, pause);
}

/*
 * The scenario's events and the machine's threads, as the session opens
 * them (perf record): per task or per CPU, one buffer each.
 */
static int open_events(struct run *r, char *err, size_t errlen)
{
	const struct scenario *s = r->s;
	unsigned int nr_tasks = r->m->nr_tasks;

	r->events = calloc(RECORD_MAX_EVENTS, sizeof(*r->events));
	r->rbs = calloc(s->machine->cpus + nr_tasks, sizeof(*r->rbs));
	r->evsels = calloc(s->events_count ? s->events_count : 1, sizeof(*r->evsels));
	r->threads = calloc(nr_tasks ? nr_tasks : 1, sizeof(*r->threads));
	if (!r->events || !r->rbs || !r->evsels || !r->threads) {
		snprintf(err, errlen, "pmusim: out of memory");
		return -1;
	}
	for (unsigned int i = 0; i < s->events_count; i++) {
		const struct scn_event *e = &s->events[i];
		struct record_evsel *ev = &r->evsels[i];

		build_attr(r, e, i == 0, &ev->attr);
		ev->name = e->event;
		ev->system_wide = e->scope == SCN_SCOPE_SYSTEM;
		ev->cpu_mask = e->cpu_mask;
	}
	for (unsigned int t = 0; t < nr_tasks; t++) {
		const struct sim_task *st = r->m->tasks[t];

		r->threads[t] = (struct record_thread){
			.pid = st->task.pid, .tid = st->task.tid, .cpu = st->cpu,
			.comm = st->task.comm, .started = !st->sleeping,
			.program = r->trace ? -1 : (int)st->group,
		};
	}
	return record__open(&r->rec, r->evsels, s->events_count, s->machine->cpus, r->threads,
			    nr_tasks, err, errlen);
}

/* ---- the machine, as the session records it --------------------------------- */

/*
 * Each scenario task entry's program: its code and its functions'
 * symbols, which the session makes an ELF file of.
 */
static int make_programs(struct run *r, char *err, size_t errlen)
{
	const struct scenario *s = r->s;

	r->progs = calloc(s->tasks_count, sizeof(*r->progs));
	if (!r->progs)
		goto nomem;
	for (unsigned int g = 0; g < s->tasks_count; g++) {
		const struct workload *wl = r->wls[g];
		struct record_program *p = &r->progs[g];
		struct genelf_sym *syms = calloc(wl->nr_funcs, sizeof(*syms));
		u8 *code;

		p->name = s->tasks[g].name;
		p->syms = syms;
		if (!syms || workload_text(wl, &code, &p->text_start, &p->text_size))
			goto nomem;
		p->code = code;
		for (uint32_t f = 0; f < wl->nr_funcs; f++)
			syms[f] = (struct genelf_sym){ wl->funcs[f].addr, wl->funcs[f].size,
						       wl->funcs[f].name };
		p->nr_syms = wl->nr_funcs;
	}
	return 0;
nomem:
	snprintf(err, errlen, "pmusim: out of memory");
	return -1;
}

static void free_programs(struct run *r)
{
	for (unsigned int g = 0; r->progs && g < r->s->tasks_count; g++) {
		free((void *)r->progs[g].code);
		free((void *)r->progs[g].syms);
	}
	free(r->progs);
	r->progs = NULL;
}

static int start_file(struct run *r, const char *output, const char *map_dir, char *err,
		      size_t errlen)
{
	static const char *const argv[] = { "pmusim", "run" };
	const struct scenario *s = r->s;
	const struct model_cpu_desc *desc = r->m->cfg.desc;

	/*
	 * The header's env: what perf record reads of its system (uname,
	 * /proc/cpuinfo), the machine's here. The writer reads it again when
	 * it closes: it lives in the run.
	 */
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
	if (record__open_output(&r->rec, output, &r->env, err, errlen))
		return -1;
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
		/* the program's files are known as it maps them: trace_build_ids() */
	} else if (make_programs(r, err, errlen) ||
		   record__add_programs(&r->rec, r->progs, s->tasks_count, err, errlen)) {
		return -1;
	}
	return record__synthesize(&r->rec, err, errlen);
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
	if (s->machine->max_sample_rate) {
		/*
		 * sysctl kernel.perf_event_max_sample_rate=N, then
		 * kernel.perf_cpu_time_max_percent=0 (in this order: the
		 * kernel takes no rate while that is 0): the rate holds,
		 * however long the PMIs take. check() keeps N in 1..INT_MAX.
		 */
		ret = perf_event_max_sample_rate_set((int)s->machine->max_sample_rate);
		if (NEVER(ret)) {
			snprintf(err, errlen, "pmusim: machine.max_sample_rate %u: the event core "
				 "refused it", s->machine->max_sample_rate);
			return -1;
		}
		perf_cpu_time_max_percent_set(0);
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
	for (unsigned int i = 0; i < r->nr_rbs; i++)
		ring_buffer_put(r->rbs[i]);
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
	free(r->rbs);
	free(r->evsels);
	free(r->threads);
	free_programs(r);
	judge_exit(&r->judge);
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
	return r->nr_rbs;
}

struct perf_event_mmap_page *run_buffer_page(const struct run *r, unsigned int i)
{
	return r->rbs[i]->user_page;
}

void run_buffer_pause(struct run *r, unsigned int i, bool pause)
{
	rb_toggle_paused(r->rbs[i], pause);
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

static void (*stop_hook)(int);

static void note_stop_signal(int sig)
{
	stop_signal = sig;
	if (stop_hook)
		stop_hook(sig);
}

void run_set_stop_hook(void (*fn)(int))
{
	stop_hook = fn;
}

static const int stop_signals[] = { SIGINT, SIGTERM };

int run_stop_signal(void)
{
	return stop_signal;
}

struct saved_signals {
	struct sigaction old[2], old_xfsz;
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
	/* past a file-size limit (ulimit -f) a write fails with EFBIG, said as any other */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, &saved->old_xfsz);
}

static void restore_stop_signals(const struct saved_signals *saved)
{
	for (unsigned int i = 0; i < 2; i++)
		sigaction(stop_signals[i], &saved->old[i], NULL);
	sigaction(SIGXFSZ, &saved->old_xfsz, NULL);
}

/*
 * The machine runs its duration one quantum at a time (the same quanta
 * as one machine_run() call) so that a stop signal is seen in time.
 */
static void run_machine(struct run *r)
{
	uint64_t quantum = r->m->cfg.quantum;

	/* a write that failed ends it too: a recorded program is stopped then */
	while (r->m->now < r->s->duration && !stop_signal && !r->rec.error &&
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
	      const char *output, run_progress_fn progress, struct run_stats *st, char *err,
	      size_t errlen)
{
	struct run r = { .s = s, .st = st, .trace = trace, .comm = comm, .progress = progress };

	return run_one(&r, output, NULL, NULL, err, errlen);
}

/* What each event counted, over its CPUs or threads (as perf record -s would read it). */
static void read_counts(struct run *r)
{
	for (unsigned int k = 0; k < r->rec.nr_fds; k++) {
		unsigned int i = r->rec.evsel_of[k];

		if (i < RUN_MAX_EVENTS)
			r->st->event_count[i] += perf_event_read_value(r->events[r->rec.fds[k]],
									NULL, NULL);
	}
}

/*
 * The recorded program's files, with their build-ids, into the header:
 * perf finds them by path and checks the build-id. The stream names them
 * as the run goes, so at its end.
 */
static int trace_build_ids(struct run *r, char *err, size_t errlen)
{
	unsigned int nr;
	const struct vg_dso *d = vg_trace_dsos(r->trace, &nr);

	for (unsigned int i = 0; i < nr; i++) {
		if (d[i].build_id_size &&
		    record__add_build_id(&r->rec, d[i].build_id, d[i].build_id_size, d[i].path)) {
			snprintf(err, errlen, "pmusim: cannot write %s", r->rec.output);
			return -1;
		}
	}
	return 0;
}

/* The session's counts, into the summary's figures. */
static void take_record_stats(struct run_stats *st, const struct record_stats *rs)
{
	st->records = rs->records;
	st->bytes = rs->bytes;
	st->samples = rs->samples;
	st->lost_records = rs->lost_records;
	st->lost = rs->lost;
	st->throttles = rs->throttles;
	st->unthrottles = rs->unthrottles;
	st->wakeups = rs->wakeups;
	st->reads = rs->reads;
	st->overwritten = rs->overwritten;
}

/*
 * After a write to the perf.data failed: the records that reached it
 * whole, finished into a valid file at the output (not down a pipe).
 * No truth file: the file system that took no more perf.data may take
 * none, and a previous one beside the output would not match it. ERR,
 * the writer's line, then says what the file holds.
 */
static void keep_partial(struct run *r, char *err, size_t errlen)
{
	char truth[4200], target[4200], warning[600];
	struct stat st;
	u64 samples;
	size_t len;

	if (!r->rec.w || (r->trace && trace_build_ids(r, truth, sizeof(truth))) ||
	    perf_data_writer__keep_partial(r->rec.w, &samples))
		return;
	snprintf(target, sizeof(target), "%s", perf_data_writer__target(r->rec.w));
	/* (a regular file only: --truth may name a device) */
	if (r->trace && truth_path(r->rec.w, truth, sizeof(truth)) && !lstat(truth, &st) &&
	    S_ISREG(st.st_mode))
		unlink(truth);
	/* a scenario's programs' ELF files, for their symbols, where they fit */
	record__write_buildid_cache(&r->rec, warning, sizeof(warning), truth, sizeof(truth));
	if (record__close_output(&r->rec, truth, sizeof(truth)))
		return;
	len = strlen(err);
	snprintf(err + len, errlen - len, "; %s holds the %llu sample%s written before it%s", target,
		 (unsigned long long)samples, samples == 1 ? "" : "s",
		 r->trace ? " (no truth file)" : "");
}

/* Has any of the scenario's events hw_time samples (the judge converts their TSCs)? */
static bool wants_time_snapshots(const struct scenario *s)
{
	for (unsigned int i = 0; i < s->events_count; i++)
		if (s->events[i].hw_time)
			return true;
	return false;
}

static int run_one(struct run *rp, const char *output, const char *map_dir,
		   const struct run_end_hook *hook, char *err, size_t errlen)
{
	struct run r = *rp;
	const struct scenario *s = r.s;
	struct run_stats *st = r.st;
	const struct record_opts opts = {
		.mmap_pages = s->buffer->pages, .overwrite = s->buffer->overwrite,
		.interval = s->consumer->interval, .pause = s->consumer->pause,
		.time_snapshots = wants_time_snapshots(s),
		.buildid_dir = buildid_cache_dir, .buildid_beside = buildid_beside,
		.source = s->file,
	};
	const struct record_sys sys = {
		sys_perf_event_open, sys_set_output, sys_id, sys_mmap, sys_poll, sys_pause_output,
		&r,
	};
	struct saved_signals saved;
	char truth[4200];
	bool live;
	int ret = -1;

	memset(st, 0, sizeof(*st));
	the_run = &r;
	catch_stop_signals(&saved);
	record__init(&r.rec, &opts, &sys);
	if (setup(&r, err, errlen))
		goto out;
	r.judge = (struct judge){ .s = s, .m = r.m, .wls = r.wls, .trace = r.trace, .st = st };
	if (open_events(&r, err, errlen) || start_file(&r, output, map_dir, err, errlen))
		goto out;
	/*
	 * A pipe's file is never built to be read back: its samples are
	 * judged as they go. So are a recorded program's, whose truths go
	 * as their samples are judged (struct judge's bounded): what record
	 * holds does not grow with the length of the program's run.
	 */
	live = r.rec.w && (r.trace || !strcmp(perf_data_writer__target(r.rec.w), "-"));
	r.judge.bounded = live && r.trace;
	if (live && r.trace && truth_path(r.rec.w, truth, sizeof(truth)) &&
	    judge_open_truth(&r.judge, truth, err, errlen))
		goto out;
	if (live && judge_live(&r.judge, r.rec.w, s->events_count, r.env.max_branches)) {
		snprintf(err, errlen, "pmusim: out of memory");
		goto out;
	}
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
	read_counts(&r);
	if (r.rec.error == EIO && perf_data_writer__last_error()[0]) {
		/*
		 * The writer's own line, as record__finish_output() gives it:
		 * the path and why (a full disk, a file-size limit, a pipe's
		 * reader gone); the file keeps what reached it, as after a stop.
		 */
		snprintf(err, errlen, "%s", perf_data_writer__last_error());
		keep_partial(&r, err, errlen);
		goto out;
	}
	if (r.rec.error || r.judge.error) {
		snprintf(err, errlen, "pmusim: cannot write %s: %s", output,
			 strerror(r.rec.error ? r.rec.error : r.judge.error));
		goto out;
	}
	if (judge_ground_truth(&r.judge)) {
		snprintf(err, errlen, "pmusim: out of memory");
		goto out;
	}
	if (r.rec.w) {
		if (r.trace && trace_build_ids(&r, err, errlen))
			goto out;
		if (record__finish_output(&r.rec, err, errlen))
			goto out;
		if (!live && r.trace && truth_path(r.rec.w, truth, sizeof(truth)) &&
		    judge_open_truth(&r.judge, truth, err, errlen))
			goto out;
		r.judge.convs = r.rec.convs;
		r.judge.nr_convs = r.rec.nr_convs;
		if (!live && judge_file(&r.judge, r.rec.w, err, errlen))
			goto out;
		if (record__write_buildid_cache(&r.rec, st->warning, sizeof(st->warning), err,
						errlen) ||
		    record__close_output(&r.rec, err, errlen))
			goto out;
		if (r.judge.truth_fp && judge_close_truth(&r.judge, truth, err, errlen))
			goto out;
	}
	ret = 0;
out:
	take_record_stats(st, &r.rec.stats);
	record__exit(&r.rec);
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
