// SPDX-License-Identifier: GPL-2.0-only
/* A real program's recorded threads as simulator tasks; see vg_task.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/sideband.h"
#include "core/x86/pmu.h"
#include "sim/vg_stream.h"
#include "sim/vg_task.h"

struct vg_frame {
	uint64_t site;			/* the call instruction */
	uint64_t target;		/* where it went: the function entered */
	uint64_t sp;			/* where its return address is */
};

struct vg_thread {
	struct vg_trace *tr;
	uint32_t vtid;			/* Valgrind's number */
	struct sim_task *task;
	struct vg_stream cur;		/* its own walk over the file */
	struct vg_event ev;		/* the record being retired */
	bool have_ev;
	uint64_t left;			/* its instructions before the branch not yet retired */
	uint64_t ip;			/* where a PMI now would interrupt */
	uint64_t start_tsc;		/* not before its creator created it */
	bool started, ended;
	/* the shadow call stack; segs[] are where signal handlers' frames begin */
	struct vg_frame *frames;
	uint32_t depth, cap;
	uint32_t *segs;
	uint32_t nr_segs, segs_cap;
};

struct vg_trace {
	char *path;
	struct vg_thread *threads;	/* by first appearance; [0] the main thread */
	unsigned int nr_threads;
	struct vg_dso *dsos;
	unsigned int nr_dsos;
	struct machine *m;
	unsigned int live;		/* threads not ended */
	uint64_t insns, branches, records;
	uint32_t max_depth;
	bool exited, exec;
	bool truth_lost;		/* a shadow stack could not grow */
	int32_t status;
	unsigned int forks;
};

/* ---- loading ------------------------------------------------------------------ */

static struct vg_thread *thread_of(struct vg_trace *tr, uint32_t vtid)
{
	for (unsigned int i = 0; i < tr->nr_threads; i++)
		if (tr->threads[i].vtid == vtid)
			return &tr->threads[i];
	return NULL;
}

static int add_thread(struct vg_trace *tr, uint32_t vtid)
{
	struct vg_thread *v;

	if (thread_of(tr, vtid))
		return 0;
	v = realloc(tr->threads, (tr->nr_threads + 1) * sizeof(*v));
	if (!v)
		return -1;
	tr->threads = v;
	memset(&v[tr->nr_threads], 0, sizeof(*v));
	v[tr->nr_threads].vtid = vtid;
	v[tr->nr_threads].tr = tr;
	tr->nr_threads++;
	return 0;
}

/* The GNU build-id note of the ELF file @path, if it has one. */
static void read_build_id(struct vg_dso *d)
{
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd;

	d->build_id_size = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return;
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && (scn = elf_nextscn(e, scn)) && !d->build_id_size) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		while (data && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)data->d_buf + name_off, "GNU", 4) && nh.n_descsz &&
			    nh.n_descsz <= sizeof(d->build_id)) {
				memcpy(d->build_id, (char *)data->d_buf + desc_off, nh.n_descsz);
				d->build_id_size = (uint8_t)nh.n_descsz;
				break;
			}
		}
	}
	if (e)
		elf_end(e);
	close(fd);
}

static int add_dso(struct vg_trace *tr, const char *name, uint32_t len)
{
	struct vg_dso *v;

	if (!len || name[0] != '/')
		return 0;		/* anonymous code: no file to name */
	for (unsigned int i = 0; i < tr->nr_dsos; i++)
		if (strlen(tr->dsos[i].path) == len && !memcmp(tr->dsos[i].path, name, len))
			return 0;
	v = realloc(tr->dsos, (tr->nr_dsos + 1) * sizeof(*v));
	if (!v)
		return -1;
	tr->dsos = v;
	v = &tr->dsos[tr->nr_dsos];
	memset(v, 0, sizeof(*v));
	v->path = strndup(name, len);
	if (!v->path)
		return -1;
	tr->nr_dsos++;
	read_build_id(v);
	return 0;
}

static const enum model_branch_type model_type[VGK__NR] = {
	[VGK_COND] = MODEL_BR_JCC,
	[VGK_JMP] = MODEL_BR_NEAR_REL_JMP,
	[VGK_IND_JMP] = MODEL_BR_NEAR_IND_JMP,
	[VGK_CALL] = MODEL_BR_NEAR_REL_CALL,
	[VGK_IND_CALL] = MODEL_BR_NEAR_IND_CALL,
	[VGK_RET] = MODEL_BR_NEAR_RET,
	[VGK_SYSCALL] = MODEL_BR_FAR,
	[VGK_SIGNAL] = MODEL_BR_FAR,
	[VGK_SIGRETURN] = MODEL_BR_FAR,
};

int vg_trace_load(struct vg_trace **out, const char *path, char *err, size_t errlen)
{
	struct vg_trace *tr = calloc(1, sizeof(*tr));
	struct vg_stream s;
	struct vg_event ev;
	uint64_t last_site = 0;
	int ret;

	*out = NULL;
	if (!tr || !(tr->path = strdup(path)))
		goto nomem;
	tr->status = -1;
	if (vg_stream_open(&s, path, err, errlen)) {
		vg_trace_free(tr);
		return -1;
	}
	if (add_thread(tr, 1))
		goto nomem_stream;
	while ((ret = vg_stream_next(&s, &ev, err, errlen)) > 0) {
		tr->records++;
		switch (ev.type) {
		case VGS_BRANCH:
			/* the driver's LBR filter decodes the branch at each site */
			if (ev.from != last_site &&
			    x86_branch_text_add(ev.from, model_type[ev.kind]))
				goto nomem_stream;
			last_site = ev.from;
			break;
		case VGS_THREAD:
		case VGS_THREAD_NEW:
			if (add_thread(tr, ev.type == VGS_THREAD ? ev.tid : ev.other_tid))
				goto nomem_stream;
			break;
		case VGS_MMAP:
			if (add_dso(tr, ev.name, ev.name_len))
				goto nomem_stream;
			break;
		case VGS_EXIT:
			tr->exited = true;
			tr->status = ev.status;
			break;
		case VGS_EXEC:
			tr->exec = true;
			break;
		case VGS_EXEC_FAILED:
			tr->exec = false;
			break;
		case VGS_FORK:
			tr->forks++;
			break;
		default:
			break;
		}
	}
	vg_stream_close(&s);
	if (ret < 0) {
		vg_trace_free(tr);
		return -1;
	}
	*out = tr;
	return 0;
nomem_stream:
	vg_stream_close(&s);
nomem:
	snprintf(err, errlen, "pmusim: out of memory reading %s", path);
	vg_trace_free(tr);
	return -1;
}

void vg_trace_free(struct vg_trace *tr)
{
	if (!tr)
		return;
	for (unsigned int i = 0; i < tr->nr_threads; i++) {
		vg_stream_close(&tr->threads[i].cur);
		free(tr->threads[i].frames);
		free(tr->threads[i].segs);
	}
	for (unsigned int i = 0; i < tr->nr_dsos; i++)
		free(tr->dsos[i].path);
	free(tr->dsos);
	free(tr->threads);
	free(tr->path);
	free(tr);
}

const struct vg_dso *vg_trace_dsos(const struct vg_trace *tr, unsigned int *nr)
{
	*nr = tr->nr_dsos;
	return tr->dsos;
}

bool vg_trace_done(const struct vg_trace *tr)
{
	return tr->live == 0;
}

void vg_trace_stats(const struct vg_trace *tr, struct vg_trace_stats *st)
{
	*st = (struct vg_trace_stats){
		.insns = tr->insns, .branches = tr->branches, .records = tr->records,
		.threads = tr->nr_threads, .max_depth = tr->max_depth, .exited = tr->exited,
		.status = tr->status, .exec = tr->exec, .forks = tr->forks,
		.truth_lost = tr->truth_lost,
	};
}

/* ---- the shadow call stack ----------------------------------------------------- */

static uint32_t seg_base(const struct vg_thread *th)
{
	return th->nr_segs ? th->segs[th->nr_segs - 1] : 0;
}

/* Frames whose return address is below @sp (strictly, or also at it) are gone. */
static inline void pop_below(struct vg_thread *th, uint64_t sp, bool inclusive)
{
	uint32_t base = seg_base(th);

	while (th->depth > base && (th->frames[th->depth - 1].sp < sp ||
				    (inclusive && th->frames[th->depth - 1].sp == sp)))
		th->depth--;
}

static int push_frame(struct vg_thread *th, uint64_t site, uint64_t target, uint64_t sp)
{
	if (th->depth == th->cap) {
		uint32_t n = th->cap ? 2 * th->cap : 64;
		struct vg_frame *v = realloc(th->frames, n * sizeof(*v));

		if (!v)
			return -1;
		th->frames = v;
		th->cap = n;
	}
	th->frames[th->depth++] = (struct vg_frame){ site, target, sp };
	if (th->depth > th->tr->max_depth)
		th->tr->max_depth = th->depth;
	return 0;
}

static int push_segment(struct vg_thread *th)
{
	if (th->nr_segs == th->segs_cap) {
		uint32_t n = th->segs_cap ? 2 * th->segs_cap : 8;
		uint32_t *v = realloc(th->segs, n * sizeof(*v));

		if (!v)
			return -1;
		th->segs = v;
		th->segs_cap = n;
	}
	th->segs[th->nr_segs++] = th->depth;
	return 0;
}

/* The shadow stack after a branch of @kind to @sp. 0, or -1 out of memory. */
static int shadow_branch(struct vg_thread *th, const struct vg_event *ev)
{
	switch (ev->kind) {
	case VGK_CALL:
	case VGK_IND_CALL:
		/* a frame left at this return-address slot (by longjmp) is gone too */
		pop_below(th, ev->sp, true);
		return push_frame(th, ev->from, ev->to, ev->sp);
	case VGK_SIGNAL:
		return push_segment(th);
	case VGK_SIGRETURN:
		if (th->nr_segs)
			th->depth = th->segs[--th->nr_segs];
		pop_below(th, ev->sp, false);
		return 0;
	default:
		/* ret, longjmp's jump, an unwinder's jump to a landing pad, ... */
		pop_below(th, ev->sp, false);
		return 0;
	}
}

unsigned int vg_trace_callstack(const struct sim_task *t, uint64_t *ips, unsigned int max)
{
	const struct vg_thread *th = t->src.priv;
	unsigned int n = 0;

	if (!th || !max || !th->depth)
		return 0;
	ips[n++] = th->frames[th->depth - 1].target;
	for (uint32_t i = th->depth; i > 0 && n < max; i--)
		ips[n++] = th->frames[i - 1].site;
	return n;
}

/* ---- retiring a thread's records ------------------------------------------------ */

static void thread_end(struct vg_thread *th)
{
	if (th->ended)
		return;
	th->ended = true;
	th->tr->live--;
	perf_event_task(&th->task->task, 0);	/* EXIT, as current */
	machine_sleep_task(th->task);
}

/* Side effects of a record without instructions to retire: threads, mappings. */
static void thread_note(struct vg_thread *th, const struct vg_event *ev, struct model_cpu *model)
{
	struct vg_trace *tr = th->tr;

	switch (ev->type) {
	case VGS_THREAD_NEW: {
		struct vg_thread *child = thread_of(tr, ev->other_tid);

		if (child && child->task && child->task->sleeping && !child->ended) {
			perf_event_task(&child->task->task, 1);	/* FORK, current the parent */
			child->start_tsc = model_cpu_tsc(model);
			machine_wake_task(tr->m, child->task);
		}
		break;
	}
	case VGS_THREAD_EXIT:
		if (ev->other_tid == th->vtid)
			thread_end(th);
		break;
	case VGS_MMAP: {
		char name[4096];
		struct perf_mmap_info info = {
			.pid = (u32)th->task->task.pid, .tid = (u32)th->task->task.tid,
			.addr = ev->addr, .len = ev->len, .pgoff = ev->pgoff,
			.prot = ev->prot, .flags = 0x2 /* MAP_PRIVATE */,
		};

		snprintf(name, sizeof(name), "%.*s", (int)ev->name_len, ev->name);
		info.filename = strcmp(name, "//anon") ? name : NULL;
		perf_event_mmap(&info);
		break;
	}
	default:
		break;
	}
}

/* The next record of this thread: 1, or 0 at the end (or a bad record: checked at load). */
static int next_own(struct vg_thread *th)
{
	char err[256];
	int ret;

	while ((ret = vg_stream_next(&th->cur, &th->ev, err, sizeof(err))) > 0)
		if (th->ev.type != VGS_THREAD && th->ev.tid == th->vtid)
			return 1;
	return 0;
}

static uint64_t thread_run(struct sim_task *t, uint64_t budget, const struct wl_sink *sink)
{
	struct vg_thread *th = t->src.priv;
	struct model_cpu *model = sink->model;
	uint64_t done = 0;

	if (!th->started) {
		/*
		 * Another CPU may be behind the creator's in its quantum: the
		 * thread waits (the CPU idles) until it was created, so that
		 * nothing of it comes before its FORK.
		 */
		uint64_t now = model_cpu_tsc(model);

		if (now < th->start_tsc) {
			model_cpu_idle(model, th->start_tsc - now < budget ? th->start_tsc - now : budget);
			return 0;
		}
		th->started = true;
	}
	/* each record: its instructions before the branch, then the branch or the note */
	while (done < budget && !th->ended) {
		struct vg_event *ev = &th->ev;

		if (!th->have_ev) {
			if (!next_own(th)) {
				thread_end(th);
				break;
			}
			th->have_ev = true;
			/* a branch record's count holds the branch; signals are no instruction */
			th->left = ev->insns - (ev->type == VGS_BRANCH && ev->insns ? 1 : 0);
		}
		if (th->left) {
			uint64_t n = th->left < budget - done ? th->left : budget - done;

			/* a PMI in the block interrupts at its end: the branch, if one follows */
			if (ev->type == VGS_BRANCH)
				th->ip = ev->from;
			*sink->ip = th->ip;
			model_retire_insns(model, n, n, true);
			th->left -= n;
			th->tr->insns += n;
			done += n;
			if (done >= budget || th->ended)
				break;		/* the rest of the block, or the record, next time */
		}
		th->have_ev = false;
		if (ev->type == VGS_BRANCH || ev->type == VGS_SIGNAL || ev->type == VGS_SIGRETURN) {
			if (shadow_branch(th, ev))
				th->tr->truth_lost = true;	/* out of memory */
			th->ip = ev->to;
			*sink->ip = th->ip;
		}
		if (ev->type == VGS_BRANCH) {
			/* CPI 1: the branch is one cycle; the model never mispredicts */
			model_retire_branch(model, ev->from, ev->to, model_type[ev->kind], true, false,
					    1);
			th->tr->insns++;
			th->tr->branches++;
			done++;
		} else {
			thread_note(th, ev, model);
		}
	}
	return done;
}

int vg_trace_add_tasks(struct vg_trace *tr, struct machine *m, const char *comm)
{
	struct sim_task *leader = NULL;
	char err[256];

	tr->m = m;
	for (unsigned int i = 0; i < tr->nr_threads; i++) {
		struct vg_thread *th = &tr->threads[i];
		struct sim_task_source src = { thread_run, th };

		if (vg_stream_open(&th->cur, tr->path, err, sizeof(err)))
			return -1;
		th->task = machine_add_source_task(m, comm, &src, leader, 0, 0, i == 0);
		if (!th->task)
			return -1;
		if (!leader)
			leader = th->task;
		tr->live++;
	}
	return 0;
}
