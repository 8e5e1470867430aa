// SPDX-License-Identifier: GPL-2.0-only
/* A real program's recorded threads as simulator tasks; see vg_task.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "core/sideband.h"
#include "core/testcase.h"
#include "core/x86/pmu.h"
#include "sim/vg_code.h"
#include "sim/vg_feed.h"
#include "sim/vg_stream.h"
#include "sim/vg_task.h"

struct vg_frame {
	uint64_t site;			/* the call instruction */
	uint64_t target;		/* where it went: the function entered */
	uint64_t sp;			/* where its return address is */
};

struct vg_image;

struct vg_thread {
	struct vg_image *img;
	uint32_t vtid;			/* Valgrind's number */
	struct sim_task *task;
	struct vg_stream cur;		/* its own walk over the stream (from its first record) */
	bool has_cur;
	bool lost;			/* no task was left for it: not replayed */
	bool parked;			/* its walk ran too far ahead of the others' (park()) */
	size_t park_check;		/* where its walk next looks at the parked ones */
	struct vg_event ev;		/* the record being retired */
	bool have_ev;
	uint64_t left;			/* its instructions before the branch not yet retired */
	uint64_t ip;			/* where a PMI now would interrupt, if nothing better is known */
	/*
	 * The straight run of instructions it is in: from run_start (the
	 * last branch's target; 0: not known), run_done of them retired
	 * before the current retire call, which is a block, or the branch
	 * ev holds (in_branch). walk_addr is where instruction walk_idx of
	 * the run from walk_start starts, the last one a PMI named.
	 */
	uint64_t run_start, run_done;
	uint64_t walk_start, walk_idx, walk_addr;
	bool in_branch;
	/*
	 * Held: it does nothing before its CPU's TSC reaches hold_tsc (the
	 * time it was created, woken or its image began), idling the CPU.
	 */
	uint64_t hold_tsc;
	bool held, ended;
	bool begun;			/* created, forked or its image begun */
	bool created;			/* a THREAD_NEW of its image starts it */
	bool comm_exec;			/* an image after execve: COMM (exec) when it starts */
	/* where it is in the file: records walked, and its next record not retired */
	uint64_t walked;
	uint64_t cp_next;		/* img->cps[]: the first past walked, as far as it knows */
	uint64_t pos;			/* record index; UINT64_MAX when it ended */
	uint32_t wi;			/* img->wakes[]: the first at or after pos */
	uint32_t waiting;		/* asleep at img->wakes[waiting - 1] until it holds; 0 */
	uint32_t sim_pid, sim_tid;	/* its task's numbers (the task goes with the machine) */
	/* the shadow call stack; segs[] are where signal handlers' frames begin */
	struct vg_frame *frames;
	uint32_t depth, cap;
	uint32_t *segs;
	uint32_t nr_segs, segs_cap;
	uint32_t seg_base;		/* segs[nr_segs - 1], or 0: pop_below() reads it per branch */
};

/* A VGS_WAKE record: a thread back from a syscall that may have waited. */
struct vg_wake {
	uint64_t pos;			/* its record index */
	uint64_t tsc;			/* the latest time another thread retired up to it */
	uint32_t child;			/* the real pid it reaped (wait4), or 0 */
	struct vg_thread *waiter;	/* its thread, while asleep at it */
};

struct vg_proc;

/* Branch sites the scout remembers as registered (a power of 2) */
#define VG_SITE_CACHE	16384
/* The scout's last records that the walks take decoded (a power of 2) */
#define VG_DECODED	256
/*
 * The scout's checkpoints: one at most every VG_CHECKPOINT_EVERY records,
 * the last VG_CHECKPOINTS of them kept (a power of 2): some 6 KiB of
 * stream apart, some 6 MiB in all, past VG_PARK_BYTES.
 */
#define VG_CHECKPOINT_EVERY	1024
#define VG_CHECKPOINTS		1024

/*
 * A place the scout passed: a walk at another thread's records jumps to
 * one instead of reading every record on the way (jump_others()), where
 * @tids says none of the records since the one before can be its own.
 */
struct vg_checkpoint {
	uint64_t idx;			/* the next record's index */
	size_t off;			/* and its first byte */
	struct vgs_coder coder;		/* the deltas there */
	uint32_t tid;			/* the thread of the records there */
	/*
	 * Bit tid % 64 of each thread that may have a record (one that
	 * next_own() would take) since the checkpoint before: the thread
	 * there, and each one a VGS_THREAD switched to.
	 */
	uint64_t tids;
};

/*
 * A branch record (VGS_BRANCH, VGS_SIGNAL, VGS_SIGRETURN) as the scout
 * decoded it, and where a reader of the stream is after it: a walk that
 * comes to record idx takes it from here instead of decoding it again
 * (the walks mostly follow the scout closely). The deltas after it are
 * its to and sp.
 */
struct vg_decoded {
	uint64_t idx;			/* its record index; UINT64_MAX: none */
	size_t off;			/* the next record's first byte */
	uint32_t tid;
	struct vg_branch b;
	/* to 64 bytes: an index into decoded[] is scaled by a shift, not a multiply */
	uint64_t pad;
};
_Static_assert(sizeof(struct vg_decoded) == 64, "struct vg_decoded is 64 bytes");

/* One stream file: a process from its start or an execve to its end or next execve. */
struct vg_image {
	struct vg_trace *tr;
	struct vg_proc *proc;
	char *path;
	char comm[16];			/* what the kernel's comm is while it runs */
	struct vg_thread **threads;	/* by first appearance; [0] the one it starts with */
	unsigned int nr_threads, live;
	uint32_t seq;			/* 0, then +1 per execve */
	/*
	 * The scout: the walk ahead of every thread's, which learns the
	 * image's threads, wake-ups, forks, mappings and end as the stream
	 * comes (sim/vg_feed.h), and checks every record.
	 */
	struct vg_chan *chan;
	struct vg_stream scout;
	bool scout_done;
	unsigned int nr_parked;
	uint64_t scout_idx, last_site;
	struct vg_thread *last_th;	/* the thread of the scout's last record (most are its) */
	/*
	 * The branch sites the scout registered last, direct-mapped by
	 * address, with their kinds: a site found here with its kind is in
	 * the driver's table as that already (most branches are of a few
	 * sites), so the scout need not register it again.
	 */
	uint64_t site_addr[VG_SITE_CACHE];
	uint8_t site_kind[VG_SITE_CACHE];
	/* the scout's last branch records, by index: VG_DECODED of them */
	struct vg_decoded decoded[VG_DECODED];
	/* its checkpoints, cps[n % VG_CHECKPOINTS] the nth; the threads since the last */
	struct vg_checkpoint *cps;
	uint64_t nr_cps, cp_idx, cp_tids;
	struct vg_wake *wakes;		/* in file order */
	uint32_t nr_wakes;
	unsigned int nr_forks;		/* its FORK records */
	bool exited, exec;		/* ends with EXIT; with an execve that worked */
	int32_t status;
	char *exec_path;
	struct vg_image *next;		/* the image the execve ran, if it was recorded */
	struct vg_code code;		/* where its instructions start (VGS_CODE) */
};

struct vg_proc {
	uint32_t pid;			/* real */
	struct vg_image *first;
	struct vg_image *forker;	/* the parent's image that forked it; NULL: the program */
	struct sim_task *leader;
	bool forked;			/* its parent's FORK record was retired */
	bool ended;
	uint64_t end_tsc;
};

struct vg_trace {
	char *dir;
	struct vg_feed *feed;
	bool own_feed;
	unsigned int want_spares;	/* vg_trace_set_spare_tasks() */
	struct sim_task **spares;
	unsigned int nr_spares, next_spare;
	unsigned int lost;		/* threads with no task left */
	char comm[16];			/* the program's */
	char err[256];			/* a stream went wrong: the run stops */
	struct vg_proc **procs;		/* [0] the program, then children depth first */
	unsigned int nr_procs;
	struct vg_dso *dsos;
	unsigned int nr_dsos;
	struct machine *m;
	unsigned int live;		/* threads not ended */
	uint64_t insns, branches, records;
	unsigned int threads;
	uint32_t max_depth;
	bool truth_lost;		/* a shadow stack could not grow */
	bool slow;			/* !vg_trace_set_fast() */
	uint64_t fast;			/* records retired or skipped in runs, or read ahead */
	uint64_t jumped;		/* of them, skipped by a jump to a checkpoint */
	uint64_t summed;		/* of them, retired by their run's sums (run_fast()) */
};

/* ---- loading, as the stream comes ---------------------------------------------- */

static struct vg_thread *thread_of(const struct vg_image *img, uint32_t vtid)
{
	for (unsigned int i = 0; i < img->nr_threads; i++)
		if (img->threads[i]->vtid == vtid)
			return img->threads[i];
	return NULL;
}

static uint64_t thread_run(struct sim_task *t, uint64_t budget, const struct wl_sink *sink);
static void vg_pmi_at(struct sim_task *t, uint64_t retired, struct pt_regs *regs);
static void start_at(struct vg_thread *th, uint64_t tsc);
static void unpark(struct vg_image *img, uint64_t tsc);

/*
 * A task for @th, which the stream shows once the run has begun: a spare
 * one (the record session opened its events before the run), or the
 * process's leader for the first thread of an image after execve. None
 * left: the thread is lost (not replayed; the summary says so).
 */
static void claim_task(struct vg_thread *th)
{
	struct vg_image *img = th->img;
	struct vg_proc *proc = img->proc;
	struct vg_trace *tr = img->tr;
	struct sim_task *t, *leader;

	if (img != proc->first && th == img->threads[0]) {
		th->task = proc->leader;	/* execve keeps the process */
		th->sim_pid = th->sim_tid = (uint32_t)proc->leader->task.tid;
		tr->live++;
		img->live++;
		return;
	}
	leader = img == proc->first && th == img->threads[0] ? NULL : proc->leader;
	if (!tr->want_spares) {
		/* no record session: a task is made when it is needed */
		struct sim_task_source src = { thread_run, th, vg_pmi_at };

		t = machine_add_source_task(tr->m, img->comm, &src, leader, 0, 0, false);
	} else {
		t = tr->next_spare < tr->nr_spares ? tr->spares[tr->next_spare++] : NULL;
	}
	if (!t || (leader == NULL && th != img->threads[0])) {
		th->lost = th->ended = true;
		th->pos = UINT64_MAX;
		tr->lost++;
		return;
	}
	t->task.pid = leader ? leader->task.pid : t->task.tid;
	t->task.real_parent = leader ? leader->task.real_parent : NULL;
	snprintf(t->task.comm, sizeof(t->task.comm), "%s", img->comm);
	t->src = (struct sim_task_source){ thread_run, th, vg_pmi_at };
	th->task = t;
	th->sim_pid = (uint32_t)t->task.pid;
	th->sim_tid = (uint32_t)t->task.tid;
	if (!leader)
		proc->leader = t;
	tr->threads++;
	tr->live++;
	img->live++;
}

/* The thread @vtid, added at its first mention if it is new. */
static struct vg_thread *add_thread(struct vg_image *img, uint32_t vtid)
{
	struct vg_thread *v = thread_of(img, vtid), **a;

	if (v)
		return v;
	a = realloc(img->threads, (img->nr_threads + 1) * sizeof(*a));
	if (!a)
		return NULL;
	img->threads = a;
	v = calloc(1, sizeof(*v));
	if (!v)
		return NULL;
	a[img->nr_threads++] = v;
	v->vtid = vtid;
	v->img = img;
	v->pos = UINT64_MAX;
	if (img->tr->m)
		claim_task(v);
	return v;
}

/*
 * The inode's generation, which the kernel's MMAP2 carries
 * (inode->i_generation): ext4, XFS and btrfs say it through
 * FS_IOC_GETVERSION; where the file system does not, 0.
 */
static void read_inode_generation(struct vg_dso *d, int fd)
{
	struct stat st;
	long gen = 0;

	if (fstat(fd, &st))
		return;
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	if (!ioctl(fd, FS_IOC_GETVERSION, &gen))
		d->ino_generation = (uint32_t)gen;	/* (a u32 in the inode) */
}

/* The inode generation of the file @name mapped from inode @dev:@ino, as far as known. */
static uint64_t ino_generation_of(const struct vg_trace *tr, const char *name, uint64_t dev,
				  uint64_t ino)
{
	for (unsigned int i = 0; i < tr->nr_dsos; i++)
		if (!strcmp(tr->dsos[i].path, name))
			return tr->dsos[i].dev == dev && tr->dsos[i].ino == ino ?
			       tr->dsos[i].ino_generation : 0;
	return 0;
}

/* The GNU build-id note of the ELF file @path, if it has one, and its inode generation. */
static void read_build_id(struct vg_dso *d)
{
	unsigned int version = elf_version(EV_CURRENT);	/* (libelf wants it first) */
	Elf_Scn *scn = NULL;
	Elf *e;
	int fd;

	d->build_id_size = 0;
	/* EV_NONE only from a libelf older than the ELF version it was built for */
	if (NEVER(version == EV_NONE))
		return;
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	read_inode_generation(d, fd);
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

	/* anonymous code ("//anon", as perf names it, or nothing), [vdso]: no file */
	if (!len || name[0] != '/' || (len > 1 && name[1] == '/'))
		return 0;
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

/* The model's types of the kinds a run holds (vgstream.h). */
#define RUN_TYPES	(1u << MODEL_BR_JCC | 1u << MODEL_BR_NEAR_REL_JMP | 1u << MODEL_BR_NEAR_IND_JMP)

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

/* The kernel's comm of a program: its file name, 15 bytes of it. */
static void comm_of(char comm[16], const char *path)
{
	const char *base = strrchr(path, '/');

	snprintf(comm, 16, "%.15s", base ? base + 1 : path);
}

static void free_image(struct vg_image *img)
{
	if (!img)
		return;
	for (unsigned int i = 0; i < img->nr_threads; i++) {
		struct vg_thread *th = img->threads[i];

		vg_stream_close(&th->cur);
		free(th->frames);
		free(th->segs);
		free(th);
	}
	vg_stream_close(&img->scout);
	free(img->threads);
	vg_code_free(&img->code);
	free(img->wakes);
	free(img->cps);
	free(img->exec_path);
	free(img->path);
	free(img);
}

static uint32_t wake_at(const struct vg_image *img, uint64_t pos);

/* Where @from goes in the image's cache of registered branch sites. */
static inline unsigned int site_slot(uint64_t from)
{
	return (unsigned int)((from ^ from >> 10) & (VG_SITE_CACHE - 1));
}

static int scout_nomem(struct vg_image *img)
{
	if (!img->tr->err[0])
		snprintf(img->tr->err, sizeof(img->tr->err), "pmusim: out of memory reading %s",
			 img->path);
	img->scout_done = true;
	vg_stream_close(&img->scout);
	return -1;
}

/*
 * The branch site @from of @kind (a VGS_BRANCH record's) registered with
 * the driver's LBR filter, which decodes the branch at each site; address
 * 0 is none (the filter's "no text known"): only a corrupt record names
 * it, and it is still read as it says. 1, or -1 (scout_nomem()).
 */
/*
 * Is the branch site @from of @kind still to register, as far as the
 * cache knows, the scout's last site being @last? (0 is none to register;
 * the last one is as it was registered.)
 */
static inline __attribute__((always_inline))
bool site_new(const struct vg_image *img, uint64_t from, unsigned int kind, uint64_t last)
{
	unsigned int slot = site_slot(from);

	return from && from != last && (img->site_addr[slot] != from || img->site_kind[slot] != kind);
}

static inline int scout_site(struct vg_image *img, uint64_t from, unsigned int kind)
{
	if (site_new(img, from, kind, img->last_site)) {
		unsigned int slot = site_slot(from);

		if (x86_branch_text_add(from, model_type[kind]))
			return scout_nomem(img);
		img->site_addr[slot] = from;
		img->site_kind[slot] = (uint8_t)kind;
	}
	img->last_site = from;
	return 1;
}

/*
 * A checkpoint where the scout is (struct vg_checkpoint). Only an image
 * of more than one thread has walks that jump; out of memory, its walks
 * read every record, as with none.
 */
static noinline void scout_checkpoint_add(struct vg_image *img)
{
	const struct vg_stream *s = &img->scout;

	img->cp_idx = img->scout_idx;
	if (!img->cps && !(img->cps = malloc(VG_CHECKPOINTS * sizeof(*img->cps))))
		return;
	img->cps[img->nr_cps++ % VG_CHECKPOINTS] = (struct vg_checkpoint){
		.idx = img->scout_idx, .off = s->off, .coder = s->coder, .tid = s->tid,
		.tids = img->cp_tids };
	img->cp_tids = 1ull << (s->tid & 63);
}

/* After the scout read on: a checkpoint, if one is due. */
static inline void scout_checkpoint(struct vg_image *img)
{
	if (img->scout_idx - img->cp_idx >= VG_CHECKPOINT_EVERY && img->nr_threads > 1 &&
	    !img->scout_done)
		scout_checkpoint_add(img);
}

/*
 * The scout's next record: its thread (a new one's walk starts at its
 * first record), wake-ups, forks, mappings, end; its branch site
 * registered with the driver's LBR filter. 1; 0 at the stream's end; -1
 * with tr->err (the run then stops).
 */
/*
 * scout_one() but for its common case (scout_next()): the record at @at,
 * the deltas @before it; read already, a branch, into its decoded[] slot
 * if @branch_read.
 */
static noinline int scout_rest(struct vg_image *img, size_t at, struct vgs_coder before,
			       bool branch_read)
{
	struct vg_trace *tr = img->tr;
	struct vg_stream *s = &img->scout;
	const uint64_t idx = img->scout_idx;
	struct vg_decoded *d = &img->decoded[idx & (VG_DECODED - 1)];
	struct vg_thread *th;
	struct vg_event ev;
	char err[256];
	int ret;

	if (branch_read) {
		ev = (struct vg_event){ .type = vg_branch_type(d->b.kind), .kind = d->b.kind,
					.tid = d->tid, .insns = d->b.insns,
					.insn_len = d->b.insn_len, .from = d->b.from,
					.to = d->b.to, .sp = d->b.sp };
		img->scout_idx++;
		tr->records++;
	} else {
		d->idx = UINT64_MAX;
		ret = vg_stream_next_checked(s, &ev, err, sizeof(err));
		if (ret <= 0) {
			if (ret < 0 && !tr->err[0])
				snprintf(tr->err, sizeof(tr->err), "%s", err);
			img->scout_done = true;
			vg_stream_close(s);
			return ret;
		}
		if (ev.type == VGS_BRANCH || ev.type == VGS_SIGNAL || ev.type == VGS_SIGRETURN)
			*d = (struct vg_decoded){
				.idx = idx, .off = s->off, .tid = ev.tid,
				.b = { .from = ev.from, .to = ev.to, .sp = ev.sp, .insns = ev.insns,
				       .kind = (uint8_t)ev.kind, .insn_len = (uint8_t)ev.insn_len } };
		img->scout_idx++;
		tr->records++;
	}
	th = NULL;
	if (ev.type == VGS_THREAD)
		img->cp_tids |= 1ull << (ev.tid & 63);
	if (ev.type == VGS_CODE) {
		/* the image's, no thread's: where its instructions start */
		if (vg_code_add(&img->code, ev.addr, (const uint8_t *)ev.name, ev.name_len))
			return scout_nomem(img);
		return 1;
	}
	if (ev.type != VGS_THREAD) {
		th = img->last_th && img->last_th->vtid == ev.tid ? img->last_th :
								     add_thread(img, ev.tid);
		if (!th)
			return scout_nomem(img);
		img->last_th = th;
		if (!th->has_cur && !th->lost) {
			/* its own walk: the scout's, back at this record */
			if (vg_stream_clone(&th->cur, s))
				return scout_nomem(img);
			th->cur.off = at;
			th->cur.coder = before;
			th->cur.tid = ev.tid;
			th->has_cur = true;
			th->walked = idx;
			if (th->pos == UINT64_MAX)
				th->pos = idx;
			th->wi = wake_at(img, th->pos);
			/* one no THREAD_NEW made runs from its image's start */
			if (tr->m && th != img->threads[0] && !th->created && !th->begun &&
			    img->threads[0]->begun)
				start_at(th, tr->m->now);
		}
	}
	switch (ev.type) {
	case VGS_BRANCH:
		return scout_site(img, ev.from, ev.kind);
	case VGS_THREAD_NEW: {
		struct vg_thread *child = add_thread(img, ev.other_tid);

		if (!child)
			return scout_nomem(img);
		child->created = true;
		break;
	}
	case VGS_MMAP:
		if (add_dso(tr, ev.name, ev.name_len))
			return scout_nomem(img);
		break;
	case VGS_EXIT:
		img->exited = true;
		img->status = ev.status;
		break;
	case VGS_EXEC:
		free(img->exec_path);
		img->exec = true;
		if (!(img->exec_path = strndup(ev.name, ev.name_len)))
			return scout_nomem(img);
		break;
	case VGS_EXEC_FAILED:
		img->exec = false;
		break;
	case VGS_FORK:
		img->nr_forks++;
		break;
	case VGS_WAKE: {
		struct vg_wake *v = realloc(img->wakes, (img->nr_wakes + 1) * sizeof(*v));

		if (!v)
			return scout_nomem(img);
		img->wakes = v;
		v[img->nr_wakes++] = (struct vg_wake){ .pos = idx, .child = ev.pid };
		break;
	}
	default:
		break;
	}
	return 1;
}

static int scout_rest_checkpoint(struct vg_image *img, size_t at, struct vgs_coder before,
				 bool branch_read)
{
	int ret = scout_rest(img, at, before, branch_read);

	if (ret > 0)
		scout_checkpoint(img);
	return ret;
}

/* At most this many records scout_ahead() decodes at once (below VG_DECODED) */
#define VG_SCOUT_AHEAD	128
_Static_assert(VG_SCOUT_AHEAD < VG_DECODED, "the walk's record keeps its decoded[] slot");

/*
 * May the scout of @img read ahead of the walks? Where the scout is
 * matters only to a thread whose walk has not begun (it looks for its
 * first record as far as the scout may go, and parked there, it waits
 * where the scout is: next_own(), unpark()), so: when every thread's walk
 * has begun (or it is lost). An image of one thread has its walk read
 * with the scout instead (run_fast()).
 */
static bool scout_may_run_ahead(const struct vg_image *img)
{
	if (img->nr_threads < 2 || img->tr->slow)
		return false;
	for (unsigned int i = 0; i < img->nr_threads; i++)
		if (!img->threads[i]->has_cur && !img->threads[i]->lost)
			return false;
	return true;
}

/*
 * The scout reads on in a tight loop (scout_next() costs more per record)
 * while the records are of the kind scout_next() does inline and their
 * sites are registered already: such a record has no effect but on the
 * scout's own place, so reading it early changes nothing the run shows
 * (scout_may_run_ahead()). The walks behind it then read runs of records
 * at once (run_fast(), skip_others()). It stops before any other record,
 * which the scout then reads when a walk comes to it, as before.
 */
static noinline void scout_ahead(struct vg_image *img)
{
	struct vg_stream *s = &img->scout;
	const uint64_t first = img->scout_idx;
	/* the reader's place in locals: the stores to decoded[] cannot touch them */
	const unsigned char *const start = s->data + (s->off - s->base);
	const unsigned char *const end = s->data + s->size;
	const unsigned char *p = start;
	const uint32_t tid = s->tid;
	struct vgs_coder c = s->coder;
	uint64_t idx, last = img->last_site;

	for (idx = first; idx < first + VG_SCOUT_AHEAD; idx++) {
		struct vg_decoded *d = &img->decoded[idx & (VG_DECODED - 1)];
		struct vgs_coder next = c;
		struct vg_branch b;
		size_t n;

		n = vg_branch_decode(p, (size_t)(end - p), &next, &b, VGK_SIGNAL);
		/* anything else is left for scout_next() */
		if (!n || site_new(img, b.from, b.kind, last))
			break;
		p += n;
		c = next;
		last = b.from;
		/* by field: the literal would store the pad too */
		d->idx = idx;
		d->off = s->off + (size_t)(p - start);
		d->tid = tid;
		d->b = b;
	}
	s->off += (size_t)(p - start);
	s->coder = c;
	img->tr->records += idx - first;
	img->tr->fast += idx - first;
	img->scout_idx = idx;
	img->last_site = last;
	scout_checkpoint(img);
}

/*
 * The scout's next record; inline for what most are: a VGS_BRANCH of the
 * thread of its last record, whose walk has begun (decoded into its
 * decoded[] slot, its site registered). 1; 0 at the stream's end; -1
 * with tr->err (the run then stops).
 */
static inline __attribute__((always_inline)) int scout_next(struct vg_image *img)
{
	struct vg_stream *s = &img->scout;
	const size_t at = s->off;
	const struct vgs_coder before = s->coder;
	const uint64_t idx = img->scout_idx;
	struct vg_decoded *d = &img->decoded[idx & (VG_DECODED - 1)];
	const struct vg_thread *th = img->last_th;

	if (img->scout_done)
		return 0;
	if (!vg_stream_next_branch(s, &d->b))
		return scout_rest_checkpoint(img, at, before, false);
	d->idx = idx;
	d->off = s->off;
	d->tid = s->tid;
	if (__builtin_expect(!(d->b.kind < VGK_SIGNAL && th && th->vtid == s->tid &&
			       (th->has_cur || th->lost)), 0))
		return scout_rest_checkpoint(img, at, before, true);
	img->scout_idx = idx + 1;
	img->tr->records++;
	if (scout_site(img, d->b.from, d->b.kind) < 0)
		return -1;
	scout_checkpoint(img);
	if (scout_may_run_ahead(img))
		scout_ahead(img);
	return 1;
}

static int scout_one(struct vg_image *img)
{
	return scout_next(img);
}

/* The scout goes on until the image has a thread, or its stream ends. */
static void scout_first(struct vg_image *img)
{
	while (!img->nr_threads && scout_one(img) > 0)
		;
}

/* An image read from @c, its scout at the start; NULL (tr->err) if it cannot be. */
static struct vg_image *open_image(struct vg_trace *tr, struct vg_proc *proc, struct vg_chan *c,
				   uint32_t seq, const char *comm)
{
	struct vg_image *img = calloc(1, sizeof(*img));

	if (!img || !(img->path = strdup(vg_chan_name(c)))) {
		free(img);
		snprintf(tr->err, sizeof(tr->err), "pmusim: out of memory reading %s",
			 vg_chan_name(c));
		return NULL;
	}
	img->tr = tr;
	img->proc = proc;
	img->status = -1;
	img->seq = seq;
	img->chan = c;
	for (unsigned int i = 0; i < VG_DECODED; i++)
		img->decoded[i].idx = UINT64_MAX;
	img->cp_tids = 1;		/* thread 1's records come first (vgstream.h) */
	snprintf(img->comm, sizeof(img->comm), "%s", comm);
	if (vg_stream_open_chan(&img->scout, c, tr->err, sizeof(tr->err))) {
		img->scout_done = true;
		free_image(img);
		return NULL;
	}
	return img;
}

static struct vg_proc *new_proc(struct vg_trace *tr, struct vg_image *forker, uint32_t pid)
{
	struct vg_proc *proc = calloc(1, sizeof(*proc)), **v;

	if (!proc)
		return NULL;
	v = realloc(tr->procs, (tr->nr_procs + 1) * sizeof(*v));
	if (!v) {
		free(proc);
		return NULL;
	}
	tr->procs = v;
	v[tr->nr_procs++] = proc;
	proc->pid = pid;
	proc->forker = forker;
	return proc;
}

/*
 * Is the process @pid followed already? A FORK naming the process itself
 * or an ancestor (a corrupt record) would follow it for ever.
 */
static bool pid_followed(const struct vg_trace *tr, uint32_t pid)
{
	for (unsigned int p = 0; p < tr->nr_procs; p++)
		if (tr->procs[p]->pid == pid)
			return true;
	return false;
}

/* A stream that did not come because the feed failed (memory, the pipe) stops the run. */
static void feed_failed(struct vg_trace *tr)
{
	if (vg_feed_error(tr->feed) && !tr->err[0])
		snprintf(tr->err, sizeof(tr->err), "%s", vg_feed_error(tr->feed));
}

/* The image execve ran after @img, if it was traced and ran: it begins, with its first thread. */
static struct vg_image *image_next(struct vg_image *img)
{
	struct vg_trace *tr = img->tr;
	struct vg_chan *c;
	char comm[16];

	if (img->next || !img->exec || !img->scout_done || img->proc->ended)
		return img->next;
	c = vg_feed_find(tr->feed, img->proc->pid, img->seq + 1);
	if (!c) {
		feed_failed(tr);
		return NULL;
	}
	/* the new image's comm is the file it ran */
	comm_of(comm, img->exec_path);
	img->next = open_image(tr, img->proc, c, img->seq + 1, comm);
	if (!img->next)
		return NULL;
	scout_first(img->next);
	if (!img->next->nr_threads) {
		/* nothing ran in it (killed at once): nothing to replay */
		free_image(img->next);
		img->next = NULL;
	}
	return img->next;
}

int vg_trace_open_feed(struct vg_trace **out, struct vg_feed *feed, const char *first,
		       char *err, size_t errlen)
{
	struct vg_trace *tr = calloc(1, sizeof(*tr));
	struct vg_proc *proc;
	struct vg_chan *c;

	*out = NULL;
	if (!tr || !(tr->dir = strdup(first ? first : "pipe"))) {
		free(tr);
		snprintf(err, errlen, "pmusim: out of memory reading %s",
			 first ? first : "the stream pipe");
		return -1;
	}
	tr->feed = feed;
	c = vg_feed_first(feed, first);
	if (!c) {
		if (first)
			snprintf(err, errlen, "%s: %s", first, strerror(errno));
		else
			snprintf(err, errlen, "pmusim: the program's stream never began%s%s",
				 vg_feed_error(feed) ? ": " : "",
				 vg_feed_error(feed) ? vg_feed_error(feed) : "");
		goto fail;
	}
	if (!(proc = new_proc(tr, NULL, 0))) {
		snprintf(err, errlen, "pmusim: out of memory reading %s", vg_chan_name(c));
		goto fail;
	}
	proc->first = open_image(tr, proc, c, 0, "");
	if (!proc->first)
		goto fail_err;
	/* the program's pid is its first stream's */
	proc->pid = proc->first->scout.header.pid;
	scout_first(proc->first);
	if (tr->err[0])
		goto fail_err;
	*out = tr;
	return 0;
fail_err:
	snprintf(err, errlen, "%s", tr->err);
fail:
	tr->feed = NULL;
	vg_trace_free(tr);
	return -1;
}

int vg_trace_load(struct vg_trace **out, const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
	struct vg_feed *feed = dir ? vg_feed_open_dir(dir) : NULL;

	free(dir);
	if (!feed) {
		snprintf(err, errlen, "pmusim: out of memory reading %s", path);
		return -1;
	}
	if (vg_trace_open_feed(out, feed, path, err, errlen)) {
		vg_feed_free(feed);
		return -1;
	}
	(*out)->own_feed = true;
	/*
	 * a file is whole: its first image is read (and checked) now, so
	 * that its threads have their tasks from the start and a bad record
	 * is an error here
	 */
	while (scout_one((*out)->procs[0]->first) > 0)
		;
	if ((*out)->err[0]) {
		snprintf(err, errlen, "%s", (*out)->err);
		vg_trace_free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

void vg_trace_set_spare_tasks(struct vg_trace *tr, unsigned int n)
{
	tr->want_spares = n;
}

void vg_trace_set_fast(struct vg_trace *tr, bool fast)
{
	tr->slow = !fast;
}

const char *vg_trace_error(const struct vg_trace *tr)
{
	return tr->err[0] ? tr->err : NULL;
}

void vg_trace_free(struct vg_trace *tr)
{
	if (!tr)
		return;
	for (unsigned int p = 0; p < tr->nr_procs; p++) {
		struct vg_image *img = tr->procs[p]->first, *next;

		for (; img; img = next) {
			next = img->next;
			free_image(img);
		}
		free(tr->procs[p]);
	}
	for (unsigned int i = 0; i < tr->nr_dsos; i++)
		free(tr->dsos[i].path);
	free(tr->dsos);
	free(tr->procs);
	free(tr->spares);
	free(tr->dir);
	if (tr->own_feed)
		vg_feed_free(tr->feed);
	free(tr);
}

const struct vg_dso *vg_trace_dsos(const struct vg_trace *tr, unsigned int *nr)
{
	*nr = tr->nr_dsos;
	return tr->dsos;
}

/* Every thread ended, or none of those left can run (nothing will wake them). */
bool vg_trace_done(const struct vg_trace *tr)
{
	if (tr->live == 0 || tr->err[0])
		return true;
	for (unsigned int p = 0; p < tr->nr_procs; p++)
		for (struct vg_image *img = tr->procs[p]->first; img; img = img->next)
			for (unsigned int i = 0; i < img->nr_threads; i++) {
				const struct vg_thread *th = img->threads[i];

				if (!th->ended && th->task && th->task->src.priv == th &&
				    !th->task->sleeping)
					return false;
			}
	return true;
}

bool vg_trace_thread(const struct vg_trace *tr, uint32_t tid, uint32_t *pid, const char **comm)
{
	bool found = false;

	for (unsigned int p = 0; p < tr->nr_procs; p++)
		for (const struct vg_image *img = tr->procs[p]->first; img; img = img->next)
			for (unsigned int i = 0; i < img->nr_threads; i++) {
				if (img->threads[i]->sim_tid != tid || !img->threads[i]->task)
					continue;
				/* the last image it ran in names it */
				*pid = img->threads[i]->sim_pid;
				*comm = img->comm;
				found = true;
			}
	return found;
}

void vg_trace_stats(const struct vg_trace *tr, struct vg_trace_stats *st)
{
	const struct vg_image *last = tr->procs[0]->first;

	while (last->next)
		last = last->next;
	*st = (struct vg_trace_stats){
		.insns = tr->insns, .branches = tr->branches, .records = tr->records,
		.threads = tr->threads, .processes = tr->nr_procs, .max_depth = tr->max_depth,
		.exited = last->exited, .status = last->status, .exec = last->exec,
		.forks = tr->nr_procs - 1, .truth_lost = tr->truth_lost, .lost = tr->lost,
		.stalled = tr->live != 0, .fast = tr->fast,
		.jumped = tr->jumped, .summed = tr->summed,
	};
	for (unsigned int p = 0; p < tr->nr_procs; p++) {
		for (const struct vg_image *img = tr->procs[p]->first; img; img = img->next) {
			st->execs += img->next != NULL;
			st->unfollowed += img->nr_forks;
		}
	}
	st->unfollowed -= st->forks;
}

#define VG_PAGE_SIZE	4096ULL

void vg_mmap_info(const struct vg_event *ev, uint32_t pid, uint32_t tid,
		  struct perf_mmap_info *info, char *name)
{
	uint64_t start = ev->addr & ~(VG_PAGE_SIZE - 1);
	uint64_t end = ev->addr + ev->len;
	uint64_t head = ev->addr - start;

	/* (an end past the top of the address space stays at its last page) */
	end = end < ev->addr || end > UINT64_MAX - (VG_PAGE_SIZE - 1) ?
	      UINT64_MAX & ~(VG_PAGE_SIZE - 1) : (end + VG_PAGE_SIZE - 1) & ~(VG_PAGE_SIZE - 1);
	snprintf(name, 4096, "%.*s", (int)ev->name_len, ev->name);
	*info = (struct perf_mmap_info){
		.pid = pid, .tid = tid,
		.addr = start, .len = end - start,
		.pgoff = ev->pgoff >= head ? ev->pgoff - head : 0,
		.prot = ev->prot, .flags = ev->flags,
		.filename = strcmp(name, "//anon") && name[0] ? name : NULL,
	};
	if (info->filename) {
		info->maj = major(ev->dev);
		info->min = minor(ev->dev);
		info->ino = ev->ino;
	}
}

/* ---- the shadow call stack ----------------------------------------------------- */

static uint32_t seg_base(const struct vg_thread *th)
{
	return th->seg_base;
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
	if (th->depth > th->img->tr->max_depth)
		th->img->tr->max_depth = th->depth;
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
	th->seg_base = th->depth;
	return 0;
}

/*
 * The shadow stack after a branch of @kind from @from to @to, with @sp
 * after it. 0, or -1 out of memory.
 */
static inline __attribute__((always_inline))
int shadow_branch(struct vg_thread *th, unsigned int kind, uint64_t from, uint64_t to,
		  uint64_t sp)
{
	/* most branches are neither calls nor signals: one test for them */
	if (__builtin_expect(kind - VGK_CALL > VGK_IND_CALL - VGK_CALL && kind < VGK_SIGNAL, 1)) {
		pop_below(th, sp, false);
		return 0;
	}
	switch (kind) {
	case VGK_CALL:
	case VGK_IND_CALL:
		/* a frame left at this return-address slot (by longjmp) is gone too */
		pop_below(th, sp, true);
		return push_frame(th, from, to, sp);
	case VGK_SIGNAL:
		return push_segment(th);
	case VGK_SIGRETURN:
		if (th->nr_segs) {
			th->depth = th->segs[--th->nr_segs];
			th->seg_base = th->nr_segs ? th->segs[th->nr_segs - 1] : 0;
		}
		pop_below(th, sp, false);
		return 0;
	default:
		/* ret, longjmp's jump, an unwinder's jump to a landing pad, ... */
		pop_below(th, sp, false);
		return 0;
	}
}

unsigned int vg_trace_callstack(const struct sim_task *t, uint64_t *ips, unsigned int max)
{
	const struct vg_thread *th = t->src.priv;
	unsigned int n = 0;

	/* every task of a replay is a thread's (vg_trace_add_tasks()) */
	if (NEVER(!th) || !max || !th->depth)
		return 0;
	ips[n++] = th->frames[th->depth - 1].target;
	for (uint32_t i = th->depth; i > 0 && n < max; i--)
		ips[n++] = th->frames[i - 1].site;
	return n;
}

/* ---- where a PMI interrupts ------------------------------------------------------- */

/* @th's instructions run straight from @addr (0: from somewhere not known). */
static inline void start_run(struct vg_thread *th, uint64_t addr)
{
	/* per branch: the walk's state is left for run_addr() to notice */
	th->run_start = addr;
	th->run_done = 0;
}

/* The length of the instruction at @addr: its image's, or the forker's that it copied. */
static unsigned int insn_len(const struct vg_image *img, uint64_t addr)
{
	for (;;) {
		unsigned int len = vg_code_len(&img->code, addr);

		/* a forked child runs its parent's translations until it makes its own */
		if (len || img != img->proc->first || !img->proc->forker)
			return len;
		img = img->proc->forker;
	}
}

/*
 * Where instruction @idx of @th's run starts: false if the run's start or
 * a length on the way is not known. Samples come in order within a run,
 * so the walk goes on from the last one's.
 */
static bool run_addr(struct vg_thread *th, uint64_t idx, uint64_t *addr)
{
	if (!th->run_start)
		return false;
	if (th->walk_start != th->run_start || idx < th->walk_idx) {
		th->walk_start = th->walk_addr = th->run_start;
		th->walk_idx = 0;
	}
	while (th->walk_idx < idx) {
		unsigned int len = insn_len(th->img, th->walk_addr);

		if (!len)
			return false;
		th->walk_addr += len;
		th->walk_idx++;
	}
	*addr = th->walk_addr;
	return true;
}

/*
 * The model's PMI comes after @retired instructions of the retire call
 * thread_run() is making: the interrupted ip is the next instruction (the
 * skid of one instruction that a PMI has at least: it is taken when the
 * overflowing instruction has retired), the eventing ip the one that
 * overflowed. For a branch, its target and itself.
 */
static void vg_pmi_at(struct sim_task *t, uint64_t retired, struct pt_regs *regs)
{
	struct vg_thread *th = t->src.priv;
	uint64_t next, at;

	if (th->in_branch) {
		regs->eventing_ip = th->ev.from;
		regs->ip = th->ev.to;
		return;
	}
	/* retired >= 1: the model's PMI comes after an instruction */
	if (NEVER(!retired) || !run_addr(th, th->run_done + retired - 1, &at))
		return;		/* regs->ip stays where thread_run() put it */
	regs->eventing_ip = at;
	if (run_addr(th, th->run_done + retired, &next))
		regs->ip = next;
}

/* ---- processes, threads and what they wait for ------------------------------------ */

/* @th does nothing before @tsc; its task, if asleep, goes back on a runqueue. */
static void start_at(struct vg_thread *th, uint64_t tsc)
{
	th->held = true;
	th->hold_tsc = tsc;
	th->begun = true;
	machine_wake_task(th->img->tr->m, th->task);
}

/*
 * May @th go on past its wake-up @w: has every other thread of its image
 * retired all its records before it, and has the child it reaped ended?
 * If so, *@at is when the last of them did.
 */
static bool wake_ready(const struct vg_thread *th, const struct vg_wake *w, uint64_t *at)
{
	const struct vg_image *img = th->img;

	for (unsigned int i = 0; i < img->nr_threads; i++)
		if (img->threads[i] != th && img->threads[i]->pos < w->pos)
			return false;
	*at = w->tsc;
	if (!w->child)
		return true;
	for (unsigned int p = 0; p < img->tr->nr_procs; p++) {
		const struct vg_proc *c = img->tr->procs[p];

		if (c->pid != w->child || !c->forker || c->forker->proc != img->proc || !c->forked)
			continue;
		if (!c->ended)
			return false;
		if (c->end_tsc > *at)
			*at = c->end_tsc;
	}
	return true;
}

/* The thread asleep at @w, if any, goes on when it may. */
static void wake_recheck(struct vg_wake *w)
{
	struct vg_thread *th = w->waiter;
	uint64_t at;

	if (!th || !wake_ready(th, w, &at))
		return;
	w->waiter = NULL;
	th->waiting = 0;
	start_at(th, at);
}

/* advance()'s wake-ups passed, the first of them at th->wi */
static noinline void advance_wakes(struct vg_thread *th, uint64_t pos, uint64_t tsc)
{
	struct vg_image *img = th->img;

	while (th->wi < img->nr_wakes && img->wakes[th->wi].pos < pos) {
		struct vg_wake *w = &img->wakes[th->wi++];

		if (w->tsc < tsc)
			w->tsc = tsc;
		wake_recheck(w);
	}
}

/*
 * @th's next record not retired is now @pos (at @tsc): the wake-ups it
 * passed learn it.  Inline: it runs for every record, and most pass none.
 */
static inline void advance(struct vg_thread *th, uint64_t pos, uint64_t tsc)
{
	const struct vg_image *img = th->img;

	th->pos = pos;
	if (th->wi < img->nr_wakes && img->wakes[th->wi].pos < pos)
		advance_wakes(th, pos, tsc);
}

static void proc_end(struct vg_proc *proc, uint64_t tsc)
{
	proc->ended = true;
	proc->end_tsc = tsc;
	if (!proc->forker)
		return;
	/* a parent asleep in wait4 for it */
	for (struct vg_image *img = proc->forker->proc->first; img; img = img->next)
		for (uint32_t i = 0; i < img->nr_wakes; i++)
			if (img->wakes[i].child == proc->pid)
				wake_recheck(&img->wakes[i]);
}

/*
 * Every thread of @img ended at @tsc: the process ends, or the image its
 * execve ran begins, on the process's leader task (its tid is the pid
 * after an execve, whichever thread made it).
 */
static void image_end(struct vg_image *img, uint64_t tsc)
{
	struct vg_image *next = image_next(img);

	if (!next) {
		proc_end(img->proc, tsc);
		return;
	}
	next->threads[0]->comm_exec = true;
	img->proc->leader->src.priv = next->threads[0];
	for (unsigned int i = 0; i < next->nr_threads; i++)
		if (!next->threads[i]->lost && (i == 0 || !next->threads[i]->created))
			start_at(next->threads[i], tsc);
}

static void thread_end(struct vg_thread *th, uint64_t tsc)
{
	struct vg_image *img = th->img;

	/* its last record, or THREAD_EXIT: either stops its thread_run() for good */
	if (NEVER(th->ended))
		return;
	th->ended = true;
	advance(th, UINT64_MAX, tsc);
	/* its walk is over: what it would still have held of a pipe goes */
	vg_stream_close(&th->cur);
	if (img->nr_parked)
		unpark(img, tsc);
	img->live--;
	img->tr->live--;
	/* the last one known: a thread the scout has not met yet may still come */
	while (!img->live && !img->scout_done && scout_one(img) > 0)
		;
	/* the leader goes on in the image execve ran: no EXIT for it */
	if (th->task != img->proc->leader || (img->live ? !img->next : !image_next(img)))
		perf_event_task(&th->task->task, 0);	/* EXIT, as current */
	if (!img->live)
		image_end(img, tsc);
	if (th->task->src.priv == th)
		machine_sleep_task(th->task);
}

/* @to's shadow stack becomes a copy of @from's. 0, or -1 out of memory. */
static int inherit_stack(struct vg_thread *to, const struct vg_thread *from)
{
	to->depth = to->nr_segs = to->seg_base = 0;
	for (uint32_t i = 0; i < from->depth; i++)
		if (push_frame(to, from->frames[i].site, from->frames[i].target, from->frames[i].sp))
			return -1;
	for (uint32_t i = 0; i < from->nr_segs; i++) {
		to->depth = from->segs[i];
		if (push_segment(to))
			return -1;
	}
	to->depth = from->depth;
	return 0;
}

/* The child process @pid that @th's FORK record made starts now. */
static void proc_fork(struct vg_thread *th, uint32_t pid, uint64_t tsc)
{
	struct vg_trace *tr = th->img->tr;
	struct vg_thread *first;
	struct vg_proc *c;
	struct vg_chan *ch;

	/* a pid followed already is not this child's (see pid_followed()) */
	if (pid_followed(tr, pid))
		return;
	ch = vg_feed_find(tr->feed, pid, 0);
	if (!ch) {
		feed_failed(tr);
		return;		/* not traced, or the feed failed */
	}
	c = new_proc(tr, th->img, pid);
	if (!c || !(c->first = open_image(tr, c, ch, 0, th->img->comm))) {
		if (c)
			tr->nr_procs--;
		free(c);
		if (!tr->err[0])
			snprintf(tr->err, sizeof(tr->err), "pmusim: out of memory reading %s",
				 vg_chan_name(ch));
		return;
	}
	scout_first(c->first);
	if (!c->first->nr_threads || c->first->threads[0]->lost) {
		/* nothing ran in it (killed at once), or no task left: not replayed */
		free_image(c->first);
		tr->nr_procs--;
		free(c);
		return;
	}
	c->forked = true;
	first = c->first->threads[0];
	/* the child goes on where the fork returns, as the parent does */
	start_run(first, th->run_start);
	first->run_done = th->run_done;
	first->task->task.real_parent = &th->task->task;
	perf_event_task(&c->leader->task, 1);	/* FORK, current the parent */
	/* the child is where the parent was: in the same calls */
	if (inherit_stack(first, th))
		tr->truth_lost = true;
	start_at(first, tsc);
}

/*
 * Side effects of a record without instructions to retire: threads,
 * processes, mappings, wake-ups. True if the thread may not go on now
 * (it ended, sleeps, or is held until later).
 */
static bool thread_note(struct vg_thread *th, const struct vg_event *ev, struct model_cpu *model)
{
	struct vg_image *img = th->img;
	uint64_t now = model_cpu_tsc(model), at;

	switch (ev->type) {
	case VGS_THREAD_NEW: {
		struct vg_thread *child = thread_of(img, ev->other_tid);

		/* the scout added each thread a THREAD_NEW names; a lost one has no task */
		if (child && child->task && !child->begun) {
			/* it starts where the clone returns, as its creator goes on */
			start_run(child, th->run_start);
			child->run_done = th->run_done;
			perf_event_task(&child->task->task, 1);	/* FORK, current the parent */
			start_at(child, now);
		}
		break;
	}
	case VGS_THREAD_EXIT:
		if (ev->other_tid == th->vtid) {
			thread_end(th, now);
			return true;
		}
		break;
	case VGS_FORK:
		proc_fork(th, ev->pid, now);
		break;
	case VGS_WAKE: {
		struct vg_wake *w;

		/* advance() left wi at the first wake-up at or after pos: this record's */
		if (NEVER(th->wi >= img->nr_wakes || img->wakes[th->wi].pos != th->pos))
			break;
		w = &img->wakes[th->wi];
		if (!wake_ready(th, w, &at)) {
			th->waiting = th->wi + 1;
			w->waiter = th;
			machine_sleep_task(th->task);
			return true;
		}
		if (at > now) {
			th->held = true;
			th->hold_tsc = at;
			return true;
		}
		break;
	}
	case VGS_MMAP: {
		char name[4096];
		struct perf_mmap_info info;

		vg_mmap_info(ev, (u32)th->task->task.pid, (u32)th->task->task.tid, &info, name);
		if (info.filename)
			info.ino_generation = ino_generation_of(th->img->tr, name, ev->dev, ev->ino);
		perf_event_mmap(&info);
		break;
	}
	default:
		break;
	}
	return false;
}

/* The next record of this thread: 1, or 0 at the end (or a bad record: checked at load). */
/*
 * How far a thread's walk may run ahead of the slowest other walk of its
 * image while it looks for its next record: a thread that waits in the
 * host (a join) while another runs on would otherwise have the pipe's
 * bytes between them held. It parks there, asleep, until the others
 * come within half of it, or end.
 */
#define VG_PARK_BYTES	(4u << 20)
#define VG_PARK_CHECK	(64u << 10)	/* checked each time a walk passes this many bytes */

/* The slowest walk of @img but @th's (and the parked ones'): its offset, or SIZE_MAX. */
static size_t slowest_other(const struct vg_image *img, const struct vg_thread *th)
{
	size_t min = SIZE_MAX;

	for (unsigned int i = 0; i < img->nr_threads; i++) {
		const struct vg_thread *o = img->threads[i];

		if (o != th && o->has_cur && o->cur.buf && !o->parked && o->cur.off < min)
			min = o->cur.off;
	}
	return min;
}

/* Parked threads the others have come near enough to (or left alone) go on at @tsc. */
static void unpark(struct vg_image *img, uint64_t tsc)
{
	for (unsigned int i = 0; img->nr_parked && i < img->nr_threads; i++) {
		struct vg_thread *p = img->threads[i];
		size_t min, at;

		if (!p->parked)
			continue;
		/* (one with no walk yet waits where the scout is) */
		at = p->has_cur ? p->cur.off : img->scout_done ? 0 : img->scout.off;
		min = slowest_other(img, p);
		if (min != SIZE_MAX && min < at && at - min > VG_PARK_BYTES / 2)
			continue;
		p->parked = false;
		img->nr_parked--;
		start_at(p, tsc);
	}
}

/*
 * @th stops looking for its next record, asleep, ahead of the others: it
 * has no record before where its walk is, so a wake-up before it waits for
 * nothing of it (its pos moves there).
 */
static void park(struct vg_thread *th, uint64_t tsc)
{
	advance(th, th->walked, tsc);
	th->parked = true;
	th->img->nr_parked++;
	machine_sleep_task(th->task);
}

/*
 * @th's walk takes its next record as the scout decoded it (@d), and goes
 * on after it. Of the record, ev has what thread_run() and vg_pmi_at()
 * read: its tid and counts are @d's still (per branch, fewer copies).
 */
static inline void take_decoded(struct vg_thread *th, const struct vg_decoded *d)
{
	th->ev.type = vg_branch_type(d->b.kind);
	th->ev.kind = d->b.kind;
	th->ev.from = d->b.from;
	th->ev.to = d->b.to;
	th->ev.sp = d->b.sp;
	vg_stream_seek(&th->cur, d->off, &(struct vgs_coder){ d->b.to, d->b.sp }, d->tid);
}

/*
 * Where in the window of @s, a walk's reader of @img at @start, the
 * records the scout has read end: the scout reads each record first. (The
 * window's end bounds the decoding, this the records taken.)
 */
static inline const unsigned char *scout_read_end(const struct vg_stream *s,
						  const struct vg_image *img,
						  const unsigned char *start)
{
	return img->scout_done ? s->data + s->size : start + (img->scout.off - s->off);
}

/*
 * The window of @s, a walk's reader of @img, has fewer than VGS_REC_MAX
 * bytes left (a record may be longer), while the scout has read at least
 * that many beyond its place, or the whole stream: refill it. The channel
 * holds what the scout read, so this never waits on the pipe. True if the
 * window has them now.
 */
static bool refill_behind_scout(struct vg_stream *s, const struct vg_image *img)
{
	if (s->size - (s->off - s->base) >= VGS_REC_MAX || img->tr->err[0])
		return false;
	if (!img->scout_done && img->scout.off - s->off < VGS_REC_MAX)
		return false;
	return !vg_stream_refill(s) && s->size - (s->off - s->base) >= VGS_REC_MAX;
}

/*
 * @th's walk, at another thread's records, jumps to the furthest of the
 * scout's checkpoints that no record of its own can come before (their
 * tids say so) and that is short of @check: next_own()'s park check
 * comes after the first record that reaches it, so up to there nothing
 * looks at what the walk passes. So it goes on from the same record as it
 * would reading each one on the way, with the same check ahead; how many
 * records it passed (0: no such checkpoint).
 */
static uint64_t jump_others(struct vg_thread *th, size_t check)
{
	const struct vg_image *img = th->img;
	const uint64_t bit = 1ull << (th->vtid & 63);
	const struct vg_checkpoint *to = NULL;
	uint64_t j = th->cp_next, n;

	/* (the ones the ring no longer has are behind the walk) */
	if (img->nr_cps > VG_CHECKPOINTS && j < img->nr_cps - VG_CHECKPOINTS)
		j = img->nr_cps - VG_CHECKPOINTS;
	while (j < img->nr_cps && img->cps[j % VG_CHECKPOINTS].idx <= th->walked)
		j++;
	th->cp_next = j;
	/* the first one's records since the one before may have the walk's own behind it */
	for (; j < img->nr_cps; j++) {
		const struct vg_checkpoint *cp = &img->cps[j % VG_CHECKPOINTS];

		if ((cp->tids & bit) || cp->off >= check)
			break;
		to = cp;
	}
	if (!to)
		return 0;
	n = to->idx - th->walked;
	vg_stream_seek(&th->cur, to->off, &to->coder, to->tid);
	th->cp_next = j;
	img->tr->jumped += n;
	return n;
}

/*
 * The records ahead of @th's walk while its reader is at another thread's
 * (its tid is another's): branch records, none of them @th's, so their
 * ends and deltas are all it needs of them: from decoded[] where the scout
 * left them there (a walk close behind it), else read from its window.
 * Read no further than the scout has read, and up to the first that
 * reaches @check: next_own()'s park check comes after that one, as after
 * any other thread's record. How many it passed.
 */
static uint64_t skip_others(struct vg_thread *th, size_t check)
{
	struct vg_image *img = th->img;
	struct vg_stream *s = &th->cur;
	uint64_t n = 0, before;

	/* (a scout that stopped at a bad record: the records before it are the slow path's) */
	if (img->scout_done && img->tr->err[0])
		return 0;
	if (img->nr_cps) {
		n = jump_others(th, check);
		/* (a checkpoint at its own thread's records: its tids have it, so none is) */
		if (n && s->tid == th->vtid)
			goto out;
	}
	do {
		const struct vg_decoded *d, *last = NULL;
		const unsigned char *start, *end, *p, *limit;
		struct vgs_coder c;
		size_t off = s->off;

		before = n;
		for (d = &img->decoded[(th->walked + n) & (VG_DECODED - 1)];
		     off < check && d->idx == th->walked + n;
		     d = &img->decoded[(th->walked + n) & (VG_DECODED - 1)]) {
			last = d;
			off = d->off;
			n++;
		}
		if (last)
			vg_stream_seek(s, off, &(struct vgs_coder){ last->b.to, last->b.sp }, s->tid);

		start = p = s->data + (s->off - s->base);
		end = s->data + s->size;
		limit = scout_read_end(s, img, start);
		c = s->coder;
		while (s->off + (size_t)(p - start) < check) {
			struct vgs_coder next = c;
			struct vg_branch b;
			size_t len = vg_branch_decode(p, (size_t)(end - p), &next, &b, VGK__NR);

			if (!len || len > (size_t)(limit - p))
				break;
			c = next;
			p += len;
			n++;
		}
		s->off += (size_t)(p - start);
		s->coder = c;
	} while (s->off < check && (n != before || refill_behind_scout(s, img)));
out:
	th->walked += n;
	img->tr->fast += n;
	return n;
}

static int next_own(struct vg_thread *th, uint64_t tsc)
{
	struct vg_image *img = th->img;
	size_t check = th->cur.off + VG_PARK_CHECK;
	char err[256];

	/*
	 * created, and started, before the scout met its first record: the
	 * scout looks for it, as far as a walk may run ahead (Valgrind runs
	 * the creator on for a while before it switches to the new thread)
	 */
	while (!th->has_cur && !img->scout_done) {
		size_t min = slowest_other(img, th);

		if (min != SIZE_MAX && min < img->scout.off && img->scout.off - min > VG_PARK_BYTES) {
			th->parked = true;
			img->nr_parked++;
			machine_sleep_task(th->task);
			return 2;
		}
		scout_one(img);
	}
	if (!th->has_cur || !th->cur.buf)
		return 0;
	for (;;) {
		uint64_t idx = th->walked;
		const struct vg_decoded *d = &img->decoded[idx & (VG_DECODED - 1)];

		/* the scout reads each record first (it checks them all) */
		while (!img->scout_done && img->scout.off <= th->cur.off)
			scout_one(img);
		if (th->cur.tid == th->vtid || img->tr->slow || !skip_others(th, check)) {
			if (d->idx == idx) {
				take_decoded(th, d);
				th->ev.tid = d->tid;
				th->ev.insns = d->b.insns;
				th->ev.insn_len = d->b.insn_len;
			} else if (vg_stream_next(&th->cur, &th->ev, err, sizeof(err)) <= 0) {
				return 0;
			}
			th->walked++;
			if (th->ev.type != VGS_THREAD && th->ev.type != VGS_CODE &&
			    th->ev.tid == th->vtid) {
				advance(th, idx, tsc);
				/* (a walk that found its record moved on: a parked one may go on) */
				if (img->nr_parked && th->cur.off >= th->park_check) {
					th->park_check = th->cur.off + VG_PARK_CHECK;
					unpark(img, tsc);
				}
				return 1;
			}
		}
		if (th->cur.off >= check && img->nr_threads > 1) {
			size_t min = slowest_other(img, th);

			check = th->cur.off + VG_PARK_CHECK;
			if (img->nr_parked)
				unpark(img, tsc);
			if (min != SIZE_MAX && min < th->cur.off && th->cur.off - min > VG_PARK_BYTES) {
				park(th, tsc);
				return 2;
			}
		}
	}
}

/*
 * take_next() when its next record is a branch of its own that the scout
 * has decoded (mostly the scout's last), it passes no wake-up and no walk
 * of its image is parked: inline, what most records come to. False, and
 * nothing taken, otherwise.
 */
static inline __attribute__((always_inline)) bool take_next_fast(struct vg_thread *th)
{
	struct vg_image *img = th->img;
	const uint64_t idx = th->walked;
	const struct vg_decoded *d = &img->decoded[idx & (VG_DECODED - 1)];

	if (!th->cur.buf || img->nr_parked)
		return false;
	/* the scout reads each record first, as next_own() has it */
	if (d->idx != idx && !img->scout_done && img->scout.off <= th->cur.off)
		scout_next(img);
	if (d->idx != idx || d->tid != th->vtid ||
	    (th->wi < img->nr_wakes && img->wakes[th->wi].pos < idx))
		return false;
	take_decoded(th, d);
	th->walked = idx + 1;
	th->pos = idx;
	th->have_ev = true;
	th->left = d->b.insns - (th->ev.type == VGS_BRANCH && d->b.insns ? 1 : 0);
	return true;
}

/*
 * Take this thread's next record, with the instructions before it to
 * retire; at the end of its records the thread ends.  False then.
 */
static bool take_next(struct vg_thread *th, struct model_cpu *model)
{
	struct vg_event *ev = &th->ev;

	switch (next_own(th, model_cpu_tsc(model))) {
	case 0:
		thread_end(th, model_cpu_tsc(model));
		return false;
	case 2:
		return false;		/* parked */
	}
	th->have_ev = true;
	/* a branch record's count holds the branch; signals are no instruction */
	th->left = ev->insns - (ev->type == VGS_BRANCH && ev->insns ? 1 : 0);
	return true;
}

/*
 * How @th's walk may read on in run_fast(): RUN_SCOUT, with the scout's
 * own decode, when its walk is where the scout is (it has taken every
 * record the scout read), the records being its own; RUN_WALK, with its
 * own reader, behind the scout, when its reader is at its own records;
 * else RUN_NONE. Either way no wake-up is behind it.
 */
enum run_mode { RUN_NONE, RUN_SCOUT, RUN_WALK };

static inline __attribute__((always_inline)) enum run_mode run_fast_mode(const struct vg_thread *th)
{
	const struct vg_image *img = th->img;

	if (!th->cur.buf || (th->wi < img->nr_wakes && img->wakes[th->wi].pos < th->walked) ||
	    img->tr->slow)
		return RUN_NONE;
	if (th->walked == img->scout_idx)
		return !img->scout_done && img->last_th == th && img->scout.tid == th->vtid &&
		       img->scout.off == th->cur.off ? RUN_SCOUT : RUN_NONE;
	/* (a scout that stopped at a bad record: the records before it are the slow path's) */
	return th->cur.tid == th->vtid && (!img->scout_done || !img->tr->err[0]) ?
	       RUN_WALK : RUN_NONE;
}

/*
 * @th's next records retired at once, each decoded once (run_fast_mode()
 * says from where): a run of branch records (no signal) of its own whose
 * blocks and branches fit in the @room of the quantum and in the model's
 * fast half. Nothing but counts, the LBR and the shadow stack change, and
 * no PMI comes, so the thread's state for vg_pmi_at() is needed only
 * after the last one. With the scout's reader, the scout and the walk
 * move on together, and a site the scout has not registered stops it;
 * with the walk's own, it stops where the scout is (the scout reads each
 * record first; it registered their sites). It stops before anything
 * else, which thread_run()'s loop then takes as before; before a record
 * next_own() must see while a walk is parked; and where the reader's
 * window ends (the caller refills a walk's; the scout's is the slow
 * path's). Instructions retired (@branches counts the branches among
 * them).
 */
static inline __attribute__((always_inline))
uint64_t run_fast(struct vg_thread *th, struct model_cpu *model, uint64_t room,
		  uint64_t *branches, const bool scout)
{
	struct vg_image *img = th->img;
	struct vg_stream *s = scout ? &img->scout : &th->cur;
	/* the window from the reader's place; the deltas go on from its last branch */
	const unsigned char *const start = s->data + (s->off - s->base);
	const unsigned char *const end = s->data + s->size;
	const unsigned char *p = start, *limit = scout ? end : scout_read_end(s, img, start);
	/* after the last record taken: where the reader stops, as it would reading each */
	const unsigned char *taken = start;
	uint64_t to = s->coder.to, sp = s->coder.sp;
	uint64_t last = img->last_site, rest = room, n = 0, summed = 0;
	bool truth_lost = false;

	/*
	 * While a walk is parked, next_own() looks at it again when this walk
	 * takes a record of its own that ends at park_check or beyond: that
	 * one is left to it, at the same time as before.
	 */
	if (img->nr_parked) {
		if (th->park_check <= s->off)
			return 0;
		if ((size_t)(limit - start) > th->park_check - 1 - s->off)
			limit = start + (th->park_check - 1 - s->off);
	}
	for (;;) {
		struct vgs_coder next = { to, sp };
		struct vg_branch b;
		uint64_t left;
		size_t len;

		len = vg_branch_decode(p, (size_t)(end - p), &next, &b, VGK_SIGNAL);
		if (!len || len > (size_t)(limit - p)) {
			struct vg_run r;
			size_t skip;

			/*
			 * A run's start or end (vgstream.h), where the scout reads:
			 * passed as nothing, or the run retired by its sums. (Not
			 * by a walk behind the scout: passing them there, the
			 * three-thread replay of test_vg_task came out of step
			 * with the slow way now and then, as the pipe's bytes
			 * came, for a reason not found; it stops there as at any
			 * record that is no branch.)
			 */
			if (!scout || p == limit || *p != VGS_RUN << 4)
				break;
			/*
			 * Retired by its sums where its records would each be
			 * retired here and the LBR keeps none of them, in an image
			 * of one thread (no other walk looks at this one's place or
			 * time). Its sites then stay unregistered until a record
			 * of theirs is read (last: no site is the scout's last).
			 */
			skip = img->nr_threads == 1 ?
			       vg_run_skip(p, (size_t)(limit - p), &(struct vgs_coder){ to, sp }, &r) : 0;
			/* (rest, under a tick's cycles, keeps the sums far from overflow) */
			if (skip && r.left < rest && r.left + r.n <= rest &&
			    model_retire_user_branches(model, 2 * (r.left + r.n), r.left + r.n, r.n, 0,
						       RUN_TYPES)) {
				pop_below(th, r.max_sp, false);
				rest -= r.left + r.n;
				n += r.n;
				summed += r.n;
				to = r.after.to;
				sp = r.after.sp;
				last = 0;
				/* its end is passed with the next record (as vg_stream_next() does) */
				taken = p + r.end;
				p += skip;
				continue;
			}
			/* else its start or end is nothing: passed with the next record */
			if (!(skip = vg_run_marker(p, (size_t)(limit - p))))
				break;
			p += skip;
			continue;
		}
		/* a site the scout has not registered is scout_site()'s to do */
		if (scout && site_new(img, b.from, b.kind, last))
			break;
		/* take_next()'s: the count holds the branch */
		left = b.insns - (b.insns != 0);
		/* thread_run() retires it whole only when done + left < its budget */
		if (left >= rest ||
		    !model_retire_user_block_branch(model, left, b.from, b.to,
						    model_type[b.kind]))
			break;
		/*
		 * After a branch no frame above the segment's base returns below
		 * its sp (shadow_branch()): a branch at the same sp as this
		 * thread's last that is not a call pops nothing. Most are so (a
		 * loop's). The deltas' sp is the stream's last branch's, maybe
		 * another thread's, until the run has a record of its own.
		 */
		if (!n || b.sp != sp || b.kind == VGK_CALL || b.kind == VGK_IND_CALL)
			truth_lost |= shadow_branch(th, b.kind, b.from, b.to, b.sp) != 0;
		rest -= left + 1;
		n++;
		p += len;
		taken = p;
		to = b.to;
		sp = b.sp;
		last = b.from;
	}
	if (!n)
		return 0;
	/* the reader's place (the scout's and the walk's), after the last record */
	s->off += (size_t)(taken - start);
	s->coder = (struct vgs_coder){ to, sp };
	if (scout) {
		img->scout_idx += n;
		img->tr->records += n;
		img->last_site = last;
		vg_stream_seek(&th->cur, s->off, &s->coder, s->tid);
		scout_checkpoint(img);
	}
	th->walked += n;
	th->pos = th->walked - 1;
	img->tr->fast += n;
	img->tr->summed += summed;
	if (truth_lost)
		img->tr->truth_lost = true;	/* out of memory */
	/* where the last branch went */
	th->ip = to;
	start_run(th, to);
	*branches += n;
	return room - rest;
}

static uint64_t thread_run(struct sim_task *t, uint64_t budget, const struct wl_sink *sink)
{
	struct vg_thread *th = t->src.priv;
	struct vg_trace *tr = th->img->tr;
	struct model_cpu *model = sink->model;
	/* (in a local: the stores through it would have it loaded again per branch) */
	uint64_t *ip = sink->ip;
	uint64_t done = 0, branches = 0, fast;

	if (th->held) {
		/*
		 * Another CPU may be behind in its quantum the one that created
		 * or woke the thread: it waits (the CPU idles) until then, so
		 * that nothing of it comes before what it waited for.
		 */
		uint64_t now = model_cpu_tsc(model);

		if (now < th->hold_tsc) {
			model_cpu_idle(model, th->hold_tsc - now < budget ? th->hold_tsc - now : budget);
			return 0;
		}
		th->held = false;
		if (th->comm_exec) {
			/* execve: the new image's name, then its mappings as it maps them */
			th->comm_exec = false;
			snprintf(t->task.comm, sizeof(t->task.comm), "%s", th->img->comm);
			perf_event_comm(&t->task, true);
		}
	}
	/* each record: its instructions before the branch, then the branch or the note */
	/* a thread that ends leaves the loop there (take_next(), thread_note()) */
	/* (the loop's end takes each next record: only the first may be to take) */
	if (budget && !th->have_ev && !take_next(th, model))
		goto out;
	while (done < budget) {
		struct vg_event *ev = &th->ev;

		if (th->left) {
			uint64_t n = th->left < budget - done ? th->left : budget - done;

			/*
			 * A PMI in the block: vg_pmi_at() names the instruction; where
			 * it cannot, the PMI interrupts at the block's end: the branch,
			 * if one follows.
			 */
			if (ev->type == VGS_BRANCH)
				th->ip = ev->from;
			*ip = th->ip;
			model_retire_insns(model, n, n, true);
			th->run_done += n;
			th->left -= n;
			done += n;
			if (done >= budget)
				break;		/* the rest of the block, or the record, next time */
		}
		th->have_ev = false;
		if (ev->type == VGS_BRANCH || ev->type == VGS_SIGNAL || ev->type == VGS_SIGRETURN) {
			if (shadow_branch(th, ev->kind, ev->from, ev->to, ev->sp))
				tr->truth_lost = true;	/* out of memory */
			th->ip = ev->to;
			*ip = th->ip;
		}
		if (ev->type == VGS_BRANCH) {
			/* CPI 1: the branch is one cycle; the model never mispredicts */
			th->in_branch = true;
			model_retire_branch(model, ev->from, ev->to, model_type[ev->kind], true, false,
					    1);
			th->in_branch = false;
			start_run(th, ev->to);
			branches++;
			done++;
		} else if (ev->type == VGS_SIGNAL || ev->type == VGS_SIGRETURN) {
			start_run(th, ev->to);
		} else if (thread_note(th, ev, model)) {
			break;
		}
		/* runs of records at once, where they are (run_fast_mode()) */
		switch (run_fast_mode(th)) {
		case RUN_SCOUT:
			fast = run_fast(th, model, budget - done, &branches, true);
			break;
		case RUN_WALK:
			fast = 0;
			do
				fast += run_fast(th, model, budget - done - fast, &branches, false);
			while (done + fast < budget && refill_behind_scout(&th->cur, th->img));
			break;
		default:
			fast = 0;
			break;
		}
		if (fast) {
			done += fast;
			*ip = th->ip;
		}
		/* on to the next record at once: the wake-ups it passes learn when */
		if (!take_next_fast(th) && !take_next(th, model))
			break;
	}
out:
	/* what it retired: done counts every instruction, the branches too */
	tr->insns += done;
	tr->branches += branches;
	return done;
}

/* The wake-up of @img at or after record @pos. */
static uint32_t wake_at(const struct vg_image *img, uint64_t pos)
{
	uint32_t i = 0;

	while (i < img->nr_wakes && img->wakes[i].pos < pos)
		i++;
	return i;
}

int vg_trace_add_tasks(struct vg_trace *tr, struct machine *m, const char *comm)
{
	struct vg_proc *proc = tr->procs[0];
	struct vg_image *img = proc->first;

	snprintf(img->comm, sizeof(img->comm), "%s", comm);
	/* the threads the scout has met: the program's first, at least */
	for (unsigned int i = 0; i < img->nr_threads; i++) {
		struct vg_thread *th = img->threads[i];
		struct sim_task_source src = { thread_run, th, vg_pmi_at };
		/* the program's threads that no THREAD_NEW creates run from the start */
		bool runnable = i == 0 || !th->created;

		th->wi = wake_at(img, th->pos);
		tr->live++;
		img->live++;
		th->task = machine_add_source_task(m, img->comm, &src, i ? proc->leader : NULL, 0,
						   0, runnable);
		if (!th->task)
			return -1;
		th->begun = runnable;
		th->sim_pid = (uint32_t)th->task->task.pid;
		th->sim_tid = (uint32_t)th->task->task.tid;
		tr->threads++;
		if (!i)
			proc->leader = th->task;
	}
	/*
	 * and asleep, for those the stream shows later: the record session
	 * opens its events on every task before the run (a FORK record
	 * says when one begins; one never used is in no record)
	 */
	tr->spares = calloc(tr->want_spares + 1, sizeof(*tr->spares));
	if (!tr->spares)
		return -1;
	for (unsigned int i = 0; i < tr->want_spares; i++) {
		struct sim_task_source src = { thread_run, NULL, vg_pmi_at };

		tr->spares[i] = machine_add_source_task(m, comm, &src, NULL, 0, 0, false);
		if (!tr->spares[i])
			return -1;
		tr->nr_spares++;
	}
	tr->m = m;
	return 0;
}
