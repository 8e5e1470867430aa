/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmusim's Valgrind tool: streams a real program's retired control flow
 * (every taken branch with its kind, instruction counts between them,
 * threads, signals, executable mappings, fork and exec) to pmusim, which
 * drives the model PMU with it.  The format is vgtool/vgstream.h.
 *
 *   VALGRIND_LIB=DIR valgrind --tool=pmusim --pmusim-out=OUTDIR PROG ARGS
 *
 * What is a branch.  Valgrind translates a superblock (SB) of guest code
 * into IR whose exits are either side exits (a guarded IRStmt_Exit, taken
 * or not) or the SB's final jump.  A transfer of control is a taken branch
 * when it does not go to the next sequential instruction; calls and
 * returns always are.  A side exit that goes to the next instruction is
 * the not-taken arm of a conditional whose taken arm is the SB's end (VEX
 * inverts some conditions); a side exit back to its own instruction is one
 * iteration of a REP string instruction, which retires once.  Chasing
 * across unconditional jumps is off (guest_chase), so every jump ends an
 * SB and is seen.
 *
 * Counting is inline IR: the running thread's instructions since its last
 * record are a counter in memory, bumped on every way out of the SB; only
 * taken branches call a helper.  Valgrind runs one thread at a time, so
 * the counter is swapped per thread when the scheduler switches.
 *
 * Where each instruction starts goes out once per translation (VGS_CODE,
 * from the SB's IMarks), not per run: pmusim finds the instruction a
 * counter overflowed at from the run's start and the count into it.
 */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "client_env.h"

/*
 * Valgrind's own memcpy moves a word at a time: the stream's every byte
 * goes through the ring, so it is copied as the CPU copies fastest.
 */
static inline void ring_copy(void *to, const void *from, SizeT n)
{
	__asm__ volatile("rep movsb" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
}
#define VGS_RING_COPY(to, from, n)	ring_copy(to, from, n)
#include "vgstream.h"

static const HChar *clo_out;		/* --pmusim-out=DIR */
static Long clo_fd = -1;		/* --pmusim-fd=N: frames into a pipe */
static const HChar *clo_ring;		/* --pmusim-ring=DIR: the bulk through a ring there */
/*
 * --pmusim-runs=no: no runs marked (vgstream.h), for a reader whose LBR
 * keeps conditional branches and jumps: it would read every record of
 * every run anyway. The highest kind a run takes: VGK_IND_JMP, or 0 (no
 * runs, or no more: thread_create()).
 */
static Bool clo_runs = True;
static UInt run_kinds;

#define PV_RLIMIT_FSIZE	1	/* Linux's RLIMIT_FSIZE (vki-linux.h names the others only) */

/*
 * Valgrind's core has these; its tool headers do not declare them (the
 * vgdb link and other tools map shared files the same way).
 */
extern SysRes VG_(am_shared_mmap_file_float_valgrind)(SizeT length, UInt prot, Int fd,
						       Off64T offset);
extern SysRes VG_(do_syscall)(UWord sysno, RegWord a1, RegWord a2, RegWord a3, RegWord a4,
			      RegWord a5, RegWord a6, RegWord a7, RegWord a8);

/* The most instructions of one VGS_CODE record the tool writes (an SB has far fewer). */
#define VGS_CODE_PIECE	256

/* ---- output ---------------------------------------------------------- */

static Int out_fd = -1;
#define OUT_BUF_SIZE	(1u << 20)
/*
 * The stream's bytes at out_buf, with room before them for a frame's
 * header: each frame's header is written over the bytes just before its
 * own, which are already out (out_flush_flags()), so nothing is copied.
 */
static UChar out_space[sizeof(struct vgs_frame) + OUT_BUF_SIZE] __attribute__((aligned(64)));
#define out_buf	(out_space + sizeof(struct vgs_frame))
static UInt out_len;
static UInt out_tid = 1;		/* thread the last records belong to */
static struct vgs_coder coder;		/* the branch records' deltas */
static ULong nr_branches;

/*
 * The run of branch records being written (vgstream.h), if run_open: its
 * start at out_buf + run_at, the deltas before it, its records, the sum
 * of their counts less one, the highest sp among them.
 */
static Bool run_open;
static UInt run_at, run_n;
static struct vgs_coder run_before;
static ULong run_left, run_max_sp;
/*
 * Whether marking pays, judged at each full buffer (runs_judge()): the
 * records of runs closed since, and those of them in runs long enough to
 * mark; the branch count at which marking, stopped, starts again; and
 * whether the image has a second thread (no more runs then).
 */
static ULong runs_seen, runs_marked, runs_resume_at;
static Bool runs_threaded;

#define RUNS_JUDGE_EVERY	(1u << 20)	/* records of runs closed */
#define RUNS_PAUSE		(16u << 20)	/* branches without marks, then a new look */

static UShort out_flags;		/* the next frame's VGS_FRAME_START */
static Int out_pid;			/* this process's, as open_stream() found it (fork) */
static struct vgs_ring *ring;		/* this image's ring (vgstream.h), or NULL: frames */

static void write_all(const UChar *p, UInt len)
{
	UInt done = 0;

	while (done < len) {
		/* Valgrind's write returns -errno on failure */
		Int n = VG_(write)(out_fd, p + done, len - done);

		if (n == -VKI_EINTR)
			continue;
		if (n <= 0) {
			/* pmusim names where; the errno is said here */
			if (clo_fd >= 0)
				VG_(umsg)("pmusim: writing the stream to pmusim (fd %lld) failed: "
					  "errno %d; stopping\n", clo_fd, -n);
			else
				VG_(umsg)("pmusim: writing the stream into %s failed: errno %d; "
					  "stopping\n", clo_out, -n);
			VG_(exit)(2);
		}
		done += (UInt)n;
	}
}

/* A frame of its own into the pipe: @len bytes (at most a frame's) with @flags. */
static void put_frame(UShort flags, const void *p, UInt len)
{
	UChar frame[VGS_FRAME_MAX];
	struct vgs_frame h = { .pid = (UInt)out_pid, .len = (UShort)len, .flags = flags };

	VG_(memcpy)(frame, &h, sizeof(h));
	VG_(memcpy)(frame + sizeof(h), p, len);
	write_all(frame, sizeof(h) + len);
}

/*
 * Out of room in the ring: wait until pmusim has taken some. It may be
 * slow to (replaying another process), so the wait times out now and
 * then to write an empty frame: if pmusim is gone, that is EPIPE.
 */
static void ring_wait(void)
{
	UInt seq = vgs_ring_writer_waits(ring);
	struct vki_timespec ts = { .tv_sec = 0, .tv_nsec = 200 * 1000 * 1000 };

	if (vgs_ring_room(ring))
		return;
	VG_(do_syscall)(__NR_futex, (UWord)&ring->tail_seq, VKI_FUTEX_WAIT, seq, (UWord)&ts,
			0, 0, 0, 0);
	if (!vgs_ring_room(ring))
		put_frame(0, NULL, 0);
}

/* @len bytes of the stream into the ring, waiting for room as a full pipe would. */
static void ring_write(const UChar *p, UInt len)
{
	while (len) {
		UInt n = vgs_ring_room(ring);

		if (!n) {
			ring_wait();
			continue;
		}
		if (n > len)
			n = len;
		if (vgs_ring_put(ring, p, n))
			put_frame(0, NULL, 0);	/* pmusim waits on the pipe */
		p += n;
		len -= n;
	}
}

/*
 * The rest of this image's stream through a ring in --pmusim-ring's DIR,
 * if one can be made there; else it stays in frames.
 */
static void ring_open(void)
{
	HChar path[4096], name[64];
	struct vki_statfs fs;
	struct vki_rlimit fsize;
	Bool roomy;
	SysRes r;
	UInt i = 0;
	Int fd;

	if (!clo_ring || clo_fd < 0)
		return;
	/* a file-size limit below the ring's (ulimit -f) would be SIGXFSZ: frames then */
	if (VG_(getrlimit)(PV_RLIMIT_FSIZE, &fsize) || fsize.rlim_cur < sizeof(struct vgs_ring))
		return;
	/* (a name pmusim has not taken yet: an image before this one's, after an execve) */
	do {
		VG_(snprintf)(name, sizeof(name), "vg.%d.%u", out_pid, i);
		VG_(snprintf)(path, sizeof(path), "%s/%s", clo_ring, name);
		r = VG_(open)(path, VKI_O_RDWR | VKI_O_CREAT | VKI_O_EXCL, 0600);
	} while (sr_isError(r) && sr_Err(r) == VKI_EEXIST && ++i < 64);
	if (sr_isError(r))
		return;
	fd = (Int)sr_Res(r);
	/*
	 * The file system is the program's too (/dev/shm: its POSIX shared
	 * memory): a ring only while half of it stays free after.
	 */
	r = VG_(do_syscall)(__NR_fstatfs, fd, (UWord)&fs, 0, 0, 0, 0, 0, 0);
	roomy = !sr_isError(r) && fs.f_bsize > 0 && fs.f_bavail >= 0 &&
		(ULong)fs.f_bavail * (ULong)fs.f_bsize >=
		(ULong)fs.f_blocks * (ULong)fs.f_bsize / 2 + sizeof(struct vgs_ring);
	/* its pages made now: a full tmpfs is no ring, not SIGBUS at a write into it */
	if (roomy)
		r = VG_(do_syscall)(__NR_fallocate, fd, 0, 0, sizeof(struct vgs_ring), 0, 0, 0, 0);
	if (roomy && !sr_isError(r))
		r = VG_(am_shared_mmap_file_float_valgrind)(sizeof(struct vgs_ring),
							     VKI_PROT_READ | VKI_PROT_WRITE, fd, 0);
	VG_(close)(fd);
	if (!roomy || sr_isError(r)) {
		VG_(unlink)(path);
		return;
	}
	ring = (struct vgs_ring *)sr_Res(r);
	put_frame(VGS_FRAME_RING, name, VG_(strlen)(name));
}

/*
 * The run being written has its first VGS_RUN_MIN records: its start goes
 * in front of them now. A loop's runs are long; code that calls a lot
 * makes them short (sort's averaged three records, and marking every run
 * made its stream 74% longer), and a shorter run is never marked. The
 * records move up by the start's size, eight bytes at a time from the
 * end, in line (VG_(memmove)() goes a byte at a time, and a call each
 * for VG_(memcpy)() of eight cost more than the move); on_branch() left
 * the room.
 */
static __attribute__((noinline)) void run_mark_start(void)
{
	UChar *start = out_buf + run_at;
	UInt n = out_len - run_at;

	for (UInt i = n; i >= 8; i -= 8) {
		ULong w;

		__builtin_memcpy(&w, start + i - 8, 8);
		__builtin_memcpy(start + VGS_RUN_START_SIZE + i - 8, &w, 8);
	}
	for (UInt i = n % 8; i > 0; i--)
		start[VGS_RUN_START_SIZE + i - 1] = start[i - 1];
	vgs_put_run_start(start);
	out_len += VGS_RUN_START_SIZE;
}

/*
 * The run being written ends here. Whatever writes a record but a run's
 * own calls this first (out_reserve() does), and so does a flush: a run
 * is whole in the buffer when it goes out. On_branch() leaves the room
 * for its end after each record of a run.
 */
static __attribute__((noinline)) void run_close(void)
{
	run_open = False;
	runs_seen += run_n;
	if (run_n < VGS_RUN_MIN)
		return;
	runs_marked += run_n;
	vgs_set_run_bytes(out_buf + run_at, out_len - run_at - VGS_RUN_START_SIZE);
	out_len = (UInt)(vgs_put_run_end(out_buf + out_len, &run_before, &coder, run_n, run_left,
					 run_max_sp) - out_buf);
}

/* What is buffered, into the file, the ring, or as frames into the pipe (@flags on the last). */
static void out_flush_flags(UShort flags)
{
	const UInt room = VGS_FRAME_MAX - sizeof(struct vgs_frame);
	UInt done = 0;

	if (run_open)
		run_close();

	if (clo_fd < 0) {
		write_all(out_buf, out_len);
		out_len = 0;
		return;
	}
	if (ring) {
		ring_write(out_buf, out_len);
		out_len = 0;
		if (flags)
			put_frame(flags, NULL, 0);	/* after the last byte is in */
		return;
	}
	do {
		UInt n = out_len - done < room ? out_len - done : room;
		struct vgs_frame h = {
			.pid = (UInt)out_pid,
			.len = (UShort)n,
			.flags = out_flags | (done + n == out_len ? flags : 0),
		};
		UChar *frame = out_buf + done - sizeof(h);

		out_flags = 0;
		VG_(memcpy)(frame, &h, sizeof(h));
		write_all(frame, sizeof(h) + n);
		done += n;
	} while (done < out_len);
	out_len = 0;
}

/*
 * Does marking runs pay in this program? Where fewer than one record in
 * eight of the runs' kinds lands in a run long enough to mark (python3's
 * loop: 0.6%; gzip's: 82%), the tool stops marking for RUNS_PAUSE
 * branches, then looks again: its bookkeeping cost python3's recording
 * 4% more CPU for nothing. (Marked or not, the recording is the same.)
 */
static void runs_judge(void)
{
	if (!clo_runs || runs_threaded)
		return;
	if (!run_kinds) {
		if (nr_branches >= runs_resume_at)
			run_kinds = VGK_IND_JMP;
		return;
	}
	if (runs_seen < RUNS_JUDGE_EVERY)
		return;
	if (runs_marked < runs_seen / 8) {
		run_kinds = 0;
		runs_resume_at = nr_branches + RUNS_PAUSE;
	}
	runs_seen = 0;
	runs_marked = 0;
}

static void out_flush(void)
{
	out_flush_flags(0);
	/* (no run is open now: the flush ended it) */
	runs_judge();
}

/* Room for one record of at most @size bytes; out_commit() says where it ended. */
static UChar *out_reserve(UInt size)
{
	if (run_open)
		run_close();
	if (out_len + size > OUT_BUF_SIZE)
		out_flush();
	return out_buf + out_len;
}

static void out_commit(const UChar *end)
{
	out_len = (UInt)(end - out_buf);
}

static void open_stream(UInt seq, UInt ppid)
{
	HChar path[4096];
	struct vgs_file_header *h;
	SysRes r;

	out_pid = VG_(getpid)();
	for (; clo_fd < 0; seq++) {
		VG_(snprintf)(path, sizeof(path), "%s/vg.%d.%u", clo_out, VG_(getpid)(), seq);
		r = VG_(open)(path, VKI_O_WRONLY | VKI_O_CREAT | VKI_O_EXCL, 0644);
		if (!sr_isError(r))
			break;
		if (sr_Err(r) != VKI_EEXIST) {
			VG_(umsg)("pmusim: cannot create %s\n", path);
			VG_(exit)(2);
		}
	}
	if (clo_fd < 0) {
		out_fd = sr_Res(r);	/* (the loop ran: r is set) */
	} else {
		/* the pipe's reader numbers the images (vgstream.h) */
		out_fd = (Int)clo_fd;
		out_flags = VGS_FRAME_START;
	}
	out_len = 0;
	run_open = False;
	VG_(memset)(&coder, 0, sizeof(coder));
	h = (struct vgs_file_header *)out_reserve(sizeof(*h));
	out_commit((UChar *)(h + 1));
	VG_(memset)(h, 0, sizeof(*h));
	VG_(memcpy)(h->magic, VGS_MAGIC, 8);
	h->version = VGS_VERSION;
	h->pid = VG_(getpid)();
	h->seq = seq;
	h->ppid = ppid;
}

/* ---- per-thread instruction counts ------------------------------------ */

/*
 * The running thread's instructions since its last record.  The IR adds
 * to it directly, so it is one global; carry[] keeps the others'.
 */
static ULong insn_count;
static ULong *carry;			/* [VG_N_THREADS], made at start */
/*
 * The stream's number of the thread in each Valgrind slot: a slot is
 * reused once its thread has ended, a stream number never is (vgstream.h).
 */
static UInt *thread_no;			/* [VG_N_THREADS] */
static UInt last_thread_no = 1;		/* the main thread's */
static ThreadId count_tid = 1;

/*
 * A record of the current thread, carrying the instructions it retired
 * since its last, with room for @name_len bytes of a name after its
 * numbers; where its fields go.
 */
static UChar *rec(UInt type, UInt name_len)
{
	/* a thread runs for at most a time slice between records: fits 32 bits */
	UInt insns = (UInt)insn_count;

	insn_count = 0;
	return vgs_put_rec(out_reserve(VGS_REC_MAX + name_len), type, insns);
}

/*
 * A branch record of the current thread (kind VGK_SIGNAL, VGK_SIGRETURN
 * too), at @p: room for VGS_REC_MAX bytes there.
 */
static inline __attribute__((always_inline))
void rec_branch_at(UChar *p, UInt kind, UInt insn_len, ULong from, ULong to, ULong sp)
{
	UInt insns = (UInt)insn_count;

	insn_count = 0;
	out_commit(vgs_put_branch(p, &coder, kind, insn_len, insns, from, to, sp));
}

static void rec_branch(UInt kind, UInt insn_len, ULong from, ULong to, ULong sp)
{
	rec_branch_at(out_reserve(VGS_REC_MAX), kind, insn_len, from, to, sp);
}

/*
 * Where the @n instructions from @addr start, as their lengths: a record
 * of no thread's (count 0), so that pmusim can name the address of any
 * instruction it counts (vgstream.h).  Once per translation: nothing is
 * added to the code that runs.
 */
static void rec_code(ULong addr, const UChar *lens, UInt n)
{
	UChar *p;

	if (!n)
		return;
	p = vgs_put_rec(out_reserve(VGS_REC_MAX + n), VGS_CODE, 0);
	p = vgs_put_num(p, addr);
	p = vgs_put_num(p, n);
	VG_(memcpy)(p, lens, n);
	out_commit(p + n);
}

static void switch_count(ThreadId tid)
{
	if (tid == count_tid)
		return;
	carry[count_tid] = insn_count;
	insn_count = carry[tid];
	count_tid = tid;
}

/* The records that follow belong to @tid. */
static void set_thread(ThreadId tid)
{
	switch_count(tid);
	if (thread_no[tid] == out_tid)
		return;
	/* not the thread's own record: its count stays for its next one */
	out_commit(vgs_put_num(vgs_put_rec(out_reserve(VGS_REC_MAX), VGS_THREAD, 0),
			       thread_no[tid]));
	out_tid = thread_no[tid];
}

/* ---- helpers called from the translated code ---------------------------- */

static VG_REGPARM(3) void on_branch(ULong from, ULong to, ULong sp, ULong info);

/* on_branch() with the buffer full: written out first (it is empty then). */
static __attribute__((noinline, cold)) void on_branch_flush(ULong from, ULong to, ULong sp,
							    ULong info)
{
	out_flush();
	on_branch(from, to, sp, info);
}

/* on_branch() for a branch that ends the run before it: the run's end, then the record. */
static __attribute__((noinline)) void on_branch_after_run(ULong from, ULong to, ULong sp,
							  ULong info)
{
	run_close();
	rec_branch_at(out_buf + out_len, info & 0xff, (info >> 8) & 0xff, from, to, sp);
}

/*
 * A taken branch.  @info packs the kind (bits 0-7), the instruction's
 * length (8-15) and the instructions of this SB up to and including the
 * branch that the counter has not seen yet (16-31).
 *
 * Every taken branch comes here: no call on the way (the flush is a tail
 * call), so the compiler keeps the record in scratch registers. With
 * rec_branch() called, or out_flush() called in line, it saved and
 * restored six registers around each record: the tool alone took 5-19%
 * more CPU time (python3 5%, gzip 8%, the SQLite workload 10%, sort 19%).
 */
static VG_REGPARM(3) void on_branch(ULong from, ULong to, ULong sp, ULong info)
{
	UInt kind = info & 0xff;

	/* (room for a run's start, the record and the run's end) */
	if (out_len + VGS_RUN_START_SIZE + VGS_REC_MAX + VGS_RUN_END_MAX > OUT_BUF_SIZE) {
		on_branch_flush(from, to, sp, info);
		return;
	}
	insn_count += info >> 16;
	nr_branches++;
	if (kind > run_kinds) {
		/* a call, a return or a syscall (or, without runs, any): outside any run */
		if (run_open)
			on_branch_after_run(from, to, sp, info);	/* (a tail call, as the flush) */
		else
			rec_branch_at(out_buf + out_len, kind, (info >> 8) & 0xff, from, to, sp);
		return;
	}
	_Static_assert(VGK_COND == 1 && VGK_JMP == 2 && VGK_IND_JMP == 3, "the run's kinds first");
	if (!run_open) {
		/* (its start is written when it ends, if it is long enough) */
		run_open = True;
		run_at = out_len;
		run_before = coder;
		run_n = 0;
		run_left = 0;
		run_max_sp = sp;
	}
	run_n++;
	/* the count as rec_branch_at() writes it */
	run_left += (UInt)insn_count - ((UInt)insn_count != 0);
	if (sp > run_max_sp)
		run_max_sp = sp;
	rec_branch_at(out_buf + out_len, kind, (info >> 8) & 0xff, from, to, sp);
	if (run_n == VGS_RUN_MIN)
		run_mark_start();
	else if (run_n == VGS_RUN_MAX)
		run_close();
}

/*
 * Signals: Valgrind builds the handler's frame and resumes the thread at
 * the handler, with no jump the IR sees.  pre_deliver notes where the
 * thread was; the first SB it runs next is the handler, and its entry
 * check (a guarded call on sig_pending) writes the record.
 */
static ULong sig_pending;
static Addr *sig_from;			/* [VG_N_THREADS] */
static Bool *sig_waiting;		/* [VG_N_THREADS] */

static VG_REGPARM(2) void on_sb_entry(ULong addr, ULong sp)
{
	ThreadId tid = VG_(get_running_tid)();

	if (tid >= VG_N_THREADS || !sig_waiting[tid])
		return;
	sig_waiting[tid] = False;
	sig_pending--;
	set_thread(tid);
	rec_branch(VGK_SIGNAL, 0, sig_from[tid], addr, sp);
}

static void pre_deliver_signal(ThreadId tid, Int sig, Bool alt_stack)
{
	(void)sig;
	(void)alt_stack;
	if (tid >= VG_N_THREADS)
		return;
	if (!sig_waiting[tid])
		sig_pending++;
	sig_waiting[tid] = True;
	sig_from[tid] = VG_(get_IP)(tid);
}

static void post_deliver_signal(ThreadId tid, Int sig)
{
	(void)sig;
	set_thread(tid);
	rec_branch(VGK_SIGRETURN, 0, 0, VG_(get_IP)(tid), VG_(get_SP)(tid));
}

/* ---- instrumentation ------------------------------------------------- */

static IRExpr *const64(ULong v)
{
	return IRExpr_Const(IRConst_U64(v));
}

static IRTemp load_temp(IRSB *sb, IRExpr *e)
{
	IRTemp t = newIRTemp(sb->tyenv, Ity_I64);

	addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
	return t;
}

/* insn_count += n, when @guard holds (NULL: always). */
static void add_count(IRSB *sb, ULong n, IRExpr *guard)
{
	IRExpr *addr = mkIRExpr_HWord((HWord)&insn_count);
	IRTemp old, sum;

	if (n == 0)
		return;
	old = load_temp(sb, IRExpr_Load(Iend_LE, Ity_I64, addr));
	sum = load_temp(sb, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(old), const64(n)));
	if (guard)
		addStmtToIRSB(sb, IRStmt_StoreG(Iend_LE, addr, IRExpr_RdTmp(sum), guard));
	else
		addStmtToIRSB(sb, IRStmt_Store(Iend_LE, addr, IRExpr_RdTmp(sum)));
}

static void call_branch(IRSB *sb, const VexGuestLayout *layout, ULong from, IRExpr *to,
			UInt kind, UInt len, ULong n, IRExpr *guard)
{
	IRTemp sp = load_temp(sb, IRExpr_Get(layout->offset_SP, Ity_I64));
	IRDirty *d;

	d = unsafeIRDirty_0_N(3, "on_branch", VG_(fnptr_to_fnentry)(on_branch),
			      mkIRExprVec_4(const64(from), to, IRExpr_RdTmp(sp),
					    const64(kind | len << 8 | n << 16)));
	if (guard)
		d->guard = guard;
	/* it reads and zeroes the counter the IR adds to: no load may cross it */
	d->mFx = Ifx_Modify;
	d->mAddr = mkIRExpr_HWord((HWord)&insn_count);
	d->mSize = sizeof(insn_count);
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

static void call_sb_entry(IRSB *sb, const VexGuestLayout *layout, ULong addr)
{
	IRTemp pending = load_temp(sb, IRExpr_Load(Iend_LE, Ity_I64,
						   mkIRExpr_HWord((HWord)&sig_pending)));
	IRTemp guard = newIRTemp(sb->tyenv, Ity_I1);
	IRTemp sp = load_temp(sb, IRExpr_Get(layout->offset_SP, Ity_I64));
	IRDirty *d;

	addStmtToIRSB(sb, IRStmt_WrTmp(guard, IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(pending),
							   const64(0))));
	d = unsafeIRDirty_0_N(2, "on_sb_entry", VG_(fnptr_to_fnentry)(on_sb_entry),
			      mkIRExprVec_2(const64(addr), IRExpr_RdTmp(sp)));
	d->guard = IRExpr_RdTmp(guard);
	addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/*
 * What the instruction at @addr is, read from its bytes: the branch kind,
 * or 0 for an instruction that is not a branch.  The IR cannot say: VEX
 * folds `lea f(%rip), %rdx; call *%rdx` into a call to a constant, and a
 * jump to the next instruction into a fall-through.  Legacy prefixes
 * (operand and address size, segments and branch hints, BND, REP) and REX
 * are skipped; *rep is set for a REP-prefixed instruction.
 */
static UInt decode_branch(Addr addr, Bool *rep)
{
	const UChar *p = (const UChar *)addr;
	UInt i = 0, op;

	*rep = False;
	for (; i < 14; i++) {
		op = p[i];
		if (op == 0xf2 || op == 0xf3)
			*rep = True;
		else if (op != 0x66 && op != 0x67 && op != 0x2e && op != 0x3e && op != 0x26 &&
			 op != 0x36 && op != 0x64 && op != 0x65 && op != 0xf0 && (op & 0xf0) != 0x40)
			break;
	}
	op = p[i];
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3))
		return VGK_COND;		/* jcc rel8, loop*, jrcxz */
	if (op == 0xeb || op == 0xe9)
		return VGK_JMP;
	if (op == 0xe8)
		return VGK_CALL;
	if (op == 0xc3 || op == 0xc2)
		return VGK_RET;
	if (op == 0x0f) {
		if (p[i + 1] >= 0x80 && p[i + 1] <= 0x8f)
			return VGK_COND;	/* jcc rel32 */
		if (p[i + 1] == 0x05)
			return VGK_SYSCALL;
		return 0;
	}
	if (op == 0xff) {
		switch ((p[i + 1] >> 3) & 7) {
		case 2: return VGK_IND_CALL;
		case 4: return VGK_IND_JMP;
		default: return 0;	/* inc, dec, push; far forms are not modelled */
		}
	}
	return 0;
}

/*
 * Instrument one side exit of the instruction at @addr (@n of the SB's
 * instructions not yet counted, this one included), taken when its guard
 * holds.
 */
static void instrument_exit(IRSB *out, const VexGuestLayout *layout, IRStmt *st, ULong addr,
			    UInt len, ULong n)
{
	ULong dst = st->Ist.Exit.dst->Ico.U64;
	IRExpr *guard = st->Ist.Exit.guard;
	Bool rep = False;
	UInt kind = 0;

	/*
	 * (not decoded for the exits of the self-check Valgrind puts before
	 * the first instruction of code in writable memory: @addr is 0 there)
	 */
	if (st->Ist.Exit.jk == Ijk_Boring || st->Ist.Exit.jk == Ijk_Call)
		kind = decode_branch(addr, &rep);
	if (st->Ist.Exit.jk != Ijk_Boring && st->Ist.Exit.jk != Ijk_Call)
		add_count(out, n ? n - 1 : 0, guard);	/* a fault: it did not retire */
	else if (dst == addr && rep)
		add_count(out, n - 1, guard);	/* another REP iteration: retires once */
	else if (kind == VGK_COND && dst == addr + len)
		add_count(out, n, guard);	/* the not-taken arm (VEX inverted the test) */
	else if (kind)
		call_branch(out, layout, addr, const64(dst), kind, len, n, guard);
	else
		add_count(out, n, guard);	/* a REP that ran out, and the like */
}

static IRSB *pv_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
			   const VexGuestExtents *vge, const VexArchInfo *archinfo,
			   IRType gWordTy, IRType hWordTy)
{
	IRSB *out;
	Int i;
	ULong n = 0;			/* instructions of this SB not yet counted */
	ULong addr = 0, next_addr = 0;	/* the current instruction and the one after it */
	UInt len = 0, kind;
	Bool entered = False, rep;
	IRJumpKind jk = in->jumpkind;
	Bool to_const = in->next->tag == Iex_Const;
	ULong dst = to_const ? in->next->Iex.Const.con->Ico.U64 : 0;
	/* the SB's instructions as contiguous pieces, for rec_code() */
	UChar lens[VGS_CODE_PIECE];
	ULong piece = 0;
	UInt nr_lens = 0;

	(void)closure;
	(void)vge;
	(void)archinfo;
	if (gWordTy != Ity_I64 || hWordTy != Ity_I64)
		VG_(tool_panic)("pmusim: amd64 guests only");

	out = deepCopyIRSBExceptStmts(in);
	for (i = 0; i < in->stmts_used; i++) {
		IRStmt *st = in->stmts[i];

		switch (st->tag) {
		case Ist_IMark: {
			ULong at = st->Ist.IMark.addr + st->Ist.IMark.delta;

			if (!entered) {
				call_sb_entry(out, layout, at);
				entered = True;
			} else if (at != next_addr) {
				/*
				 * The SB goes on somewhere else: VEX followed a
				 * jump (chasing and loop unrolling are off, but a
				 * translation may still do it).
				 */
				kind = decode_branch(addr, &rep);
				call_branch(out, layout, addr, const64(at), kind ? kind : VGK_JMP,
					    len, n, NULL);
				n = 0;
			}
			if (at != next_addr || nr_lens == VGS_CODE_PIECE) {
				rec_code(piece, lens, nr_lens);
				piece = at;
				nr_lens = 0;
			}
			if (st->Ist.IMark.len >= 1 && st->Ist.IMark.len <= 15) {
				lens[nr_lens++] = (UChar)st->Ist.IMark.len;
			} else {
				/* not decoded (it faults): no length to give */
				rec_code(piece, lens, nr_lens);
				piece = at + st->Ist.IMark.len;
				nr_lens = 0;
			}
			addr = at;
			len = st->Ist.IMark.len;
			next_addr = addr + len;
			n++;
			addStmtToIRSB(out, st);
			break;
		}
		case Ist_Exit:
			instrument_exit(out, layout, st, addr, len, n);
			addStmtToIRSB(out, st);
			break;
		default:
			addStmtToIRSB(out, st);
			break;
		}
	}

	/* the SB's own end: the last instruction decides what it was */
	kind = decode_branch(addr, &rep);
	if (jk == Ijk_Sys_syscall)
		call_branch(out, layout, addr, const64(next_addr), VGK_SYSCALL, len, n, NULL);
	else if (jk != Ijk_Boring && jk != Ijk_Call && jk != Ijk_Ret)
		add_count(out, n, NULL);	/* client requests, yields, faults */
	else if (to_const && dst == addr && rep)
		add_count(out, n - 1, NULL);	/* a REP iteration ending the SB */
	else if (kind == VGK_COND && to_const && dst == next_addr)
		add_count(out, n, NULL);	/* not taken */
	else if (kind && kind != VGK_SYSCALL)
		call_branch(out, layout, addr, in->next, kind, len, n, NULL);
	else
		add_count(out, n, NULL);	/* the SB was only cut */
	rec_code(piece, lens, nr_lens);
	return out;
}

/* ---- threads, mappings, processes ------------------------------------ */

static void start_client_code(ThreadId tid, ULong blocks)
{
	static Bool env_done;

	(void)blocks;
	if (!env_done) {
		env_done = True;
		client_env_restore(tid);	/* before the program's first instruction */
	}
	set_thread(tid);
}

static void thread_create(ThreadId parent, ThreadId child)
{
	if (parent == VG_INVALID_THREADID)
		return;		/* the main thread, before anything runs */
	set_thread(parent);
	if (child >= VG_N_THREADS)
		return;
	thread_no[child] = ++last_thread_no;
	out_commit(vgs_put_num(rec(VGS_THREAD_NEW, 0), thread_no[child]));
	carry[child] = 0;
	/*
	 * pmusim retires runs by their sums in images of one thread only
	 * (sim/vg_task.c): from here on this image's marks would cost the
	 * tool and gain the replay nothing (sort's recording took 4% more
	 * CPU with them).
	 */
	run_kinds = 0;
	runs_threaded = True;
}

static void thread_exit(ThreadId tid)
{
	set_thread(tid);
	out_commit(vgs_put_num(rec(VGS_THREAD_EXIT, 0), thread_no[tid]));
}

/*
 * Is @seg Valgrind's, not the program's? The core lends the program a
 * page of the tool's own text (its trampolines: signal return, ...) and
 * tells of it twice, as the page and as the trampolines' bytes; natively
 * there is no such map. And its preload objects, if ld.so maps one.
 */
static Bool valgrinds_own(NSegment const *seg, const HChar *fn)
{
	static ULong tool_dev, tool_ino;	/* (a segment moves in the core's table) */
	const HChar *base = fn;

	if (!tool_ino) {
		NSegment const *tool = VG_(am_find_nsegment)((Addr)&valgrinds_own);

		if (tool) {
			tool_dev = tool->dev;
			tool_ino = tool->ino;
		}
	}
	if (tool_ino && tool_dev == seg->dev && tool_ino == seg->ino)
		return True;
	for (const HChar *c = fn; *c; c++)
		if (*c == '/')
			base = c + 1;
	return VG_(strncmp)(base, "vgpreload_", 10) == 0;
}

/*
 * The kernel's MMAP2 flags for the mapping the running syscall makes:
 * MAP_SHARED or MAP_PRIVATE, MAP_LOCKED, MAP_HUGETLB (pre_syscall sets it).
 */
static UInt map_flags = VKI_MAP_PRIVATE;
#define PV_MAP_LOCKED	0x2000		/* x86's, which vki does not name */
#define PV_MAP_HUGETLB	0x40000

/* @startup: laid out by Valgrind's loader, before the program ran */
static void new_mapping(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, Bool startup)
{
	NSegment const *seg;
	const HChar *name = "//anon";
	ULong pgoff = 0, dev = 0, ino = 0;
	UChar *p;
	UInt name_len;

	if (!xx)
		return;		/* only code can be sampled */
	seg = VG_(am_find_nsegment)(a);
	if (seg && (seg->kind == SkFileC || seg->kind == SkFileV)) {
		const HChar *fn = VG_(am_get_filename)(seg);

		if (seg->kind == SkFileV || (fn && valgrinds_own(seg, fn)))
			return;
		if (fn) {
			name = fn;
			pgoff = seg->offset + (a - seg->start);
			dev = seg->dev;
			ino = seg->ino;
		}
	} else if (startup) {
		/*
		 * anonymous code before the program ran: the loader's rwx page
		 * for ld.so's bss (the kernel maps it rw-), nothing of the program
		 */
		return;
	}
	name_len = VG_(strlen)(name);
	if (name_len > VGS_NAME_MAX)
		name_len = VGS_NAME_MAX;
	p = rec(VGS_MMAP, name_len);
	p = vgs_put_num(p, a);
	p = vgs_put_num(p, len);
	p = vgs_put_num(p, pgoff);
	p = vgs_put_num(p, (rr ? VKI_PROT_READ : 0) | (ww ? VKI_PROT_WRITE : 0) |
			(xx ? VKI_PROT_EXEC : 0));
	p = vgs_put_num(p, startup ? VKI_MAP_PRIVATE : map_flags);
	p = vgs_put_num(p, dev);
	p = vgs_put_num(p, ino);
	p = vgs_put_num(p, name_len);
	VG_(memcpy)(p, name, name_len);
	out_commit(p + name_len);
}

static void new_mem_startup(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	(void)di;
	new_mapping(a, len, rr, ww, xx, True);
}

static void new_mem_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	(void)di;
	new_mapping(a, len, rr, ww, xx, False);
}

/* The kernel writes an executable vma anew when mprotect changes it (a JIT's W^X flip). */
static void change_mem_mprotect(Addr a, SizeT len, Bool rr, Bool ww, Bool xx)
{
	new_mapping(a, len, rr, ww, xx, False);
}

/* As wait() reports it; -1 until an exit syscall (a killing signal leaves it so). */
static Int exit_status = -1;

/* A VGS_FORK, VGS_EXEC, VGS_EXIT or VGS_WAKE record (a path only on VGS_EXEC). */
static void rec_proc(UInt type, UInt pid, Int status, const HChar *path, UInt path_len)
{
	UChar *p = rec(type, path_len);

	p = vgs_put_num(p, pid);
	p = vgs_put_num(p, vgs_zigzag((ULong)(Long)status));
	p = vgs_put_num(p, path_len);
	if (path_len)
		VG_(memcpy)(p, path, path_len);
	out_commit(p + path_len);
}

static void pre_syscall(ThreadId tid, UInt nr, UWord *args, UInt nargs)
{
	const HChar *path;
	UInt path_len;

	(void)nargs;
	/* (MAP_SHARED_VALIDATE is MAP_SHARED too; mprotect keeps a mapping's own: rarely shared) */
	map_flags = nr == __NR_shmat ? VKI_MAP_SHARED : VKI_MAP_PRIVATE;
	if (nr == __NR_mmap) {
		if (args[3] & VKI_MAP_SHARED)
			map_flags = VKI_MAP_SHARED;
		map_flags |= args[3] & (PV_MAP_LOCKED | PV_MAP_HUGETLB);
	}
	if (nr == __NR_exit_group || nr == __NR_exit) {
		/* exit of the last thread, or exit_group: the process's status */
		exit_status = (args[0] & 0xff) << 8;
		return;
	}
	if (nr != __NR_execve)
		return;
	/* If it succeeds, this image's tool never runs again: say it now. */
	set_thread(tid);
	path = (const HChar *)args[0];
	path_len = path ? VG_(strlen)(path) : 0;
	if (path_len > 4000)
		path_len = 4000;
	rec_proc(VGS_EXEC, VG_(getpid)(), 0, path, path_len);
	out_flush();
}

/*
 * The syscalls a thread may block in until another thread or process
 * does something: a futex (locks, condition variables, joins), a pipe or
 * socket read, a poll, a child's end, a signal.  Valgrind runs one
 * thread at a time and lets others run while one blocks, so what the
 * stream holds before such a syscall's return happened before it.
 */
static Bool may_wait(UInt nr)
{
	switch (nr) {
	case __NR_futex: case __NR_read: case __NR_readv: case __NR_pread64:
	case __NR_preadv: case __NR_preadv2: case __NR_recvfrom: case __NR_recvmsg:
	case __NR_recvmmsg: case __NR_accept: case __NR_accept4: case __NR_poll:
	case __NR_ppoll: case __NR_select: case __NR_pselect6: case __NR_epoll_wait:
	case __NR_epoll_pwait: case __NR_wait4: case __NR_waitid: case __NR_rt_sigtimedwait:
	case __NR_rt_sigsuspend: case __NR_pause: case __NR_semop: case __NR_semtimedop:
	case __NR_msgrcv: case __NR_flock: case __NR_fcntl: case __NR_io_getevents:
	case __NR_io_pgetevents: case __NR_mq_timedreceive:
		return True;
	default:
		return False;
	}
}

static void post_syscall(ThreadId tid, UInt nr, UWord *args, UInt nargs, SysRes res)
{
	(void)nargs;
	if (nr == __NR_execve) {
		set_thread(tid);
		out_commit(rec(VGS_EXEC_FAILED, 0));
		return;
	}
	if (may_wait(nr)) {
		set_thread(tid);
		/* wait4 returns the child it reaped (waitid says it in memory: not followed) */
		rec_proc(VGS_WAKE, nr == __NR_wait4 && !sr_isError(res) ? (UInt)sr_Res(res) : 0,
			 (Int)nr, NULL, 0);
		return;
	}
	/* a new process, not a thread (threads come through thread_create) */
	if ((nr == __NR_fork || nr == __NR_vfork ||
	     (nr == __NR_clone && !(args[0] & VKI_CLONE_THREAD))) &&
	    !sr_isError(res) && sr_Res(res) > 0) {
		set_thread(tid);
		rec_proc(VGS_FORK, sr_Res(res), 0, NULL, 0);
	}
}

/* In the child of a fork: the buffer holds the parent's records; drop them. */
static void atfork_child(ThreadId tid)
{
	UInt ppid = VG_(getppid)();

	if (clo_fd < 0)
		VG_(close)(out_fd);
	if (ring) {
		/* the parent's: the child makes its own */
		VG_(am_munmap_valgrind)((Addr)ring, sizeof(*ring));
		ring = NULL;
	}
	open_stream(0, ppid);
	run_kinds = clo_runs ? VGK_IND_JMP : 0;	/* a thread of its own */
	runs_threaded = False;
	runs_seen = runs_marked = 0;
	/* the parent's other threads are not in the child: nothing of theirs is left to say */
	for (ThreadId t = 0; t < VG_N_THREADS; t++) {
		carry[t] = 0;
		sig_waiting[t] = False;
	}
	sig_pending = 0;
	count_tid = tid;
	/* the child starts with what the fork instruction left counted; thread 1 unless said */
	out_tid = 1;
	set_thread(tid);
	/* the stream begins now: a reader waiting for the child's need not wait for more */
	if (clo_fd >= 0)
		out_flush();
	ring_open();
}

/* ---- options and life cycle -------------------------------------------- */

static Bool process_cmd_line_option(const HChar *arg)
{
	if (VG_STR_CLO(arg, "--pmusim-out", clo_out)) {
	} else if (VG_INT_CLO(arg, "--pmusim-fd", clo_fd)) {
	} else if (VG_STR_CLO(arg, "--pmusim-ring", clo_ring)) {
	} else if (VG_BOOL_CLO(arg, "--pmusim-runs", clo_runs)) {
	} else if (client_env_option(arg)) {
	} else {
		return False;
	}
	return True;
}

static void print_usage(void)
{
	VG_(printf)("    --pmusim-out=DIR          write the stream files DIR/vg.PID.SEQ\n"
		    "    --pmusim-fd=N             or write them as frames into the pipe N\n"
		    "    --pmusim-ring=DIR         with --pmusim-fd: their bytes through shared\n"
		    "                              rings, files in DIR (vgstream.h)\n"
		    "    --pmusim-runs=yes|no      mark runs of conditional branches and jumps\n"
		    "                              for a reader that needs only their sums [yes]\n");
	VG_(printf)("    --pmusim-env=NAME[=VALUE] the program has no NAME, or NAME=VALUE [repeatable]\n");
}

static void print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

static void pv_post_clo_init(void)
{
	if (!clo_out && clo_fd < 0) {
		VG_(umsg)("pmusim: --pmusim-out=DIR or --pmusim-fd=N is required\n");
		VG_(exit)(2);
	}
	run_kinds = clo_runs ? VGK_IND_JMP : 0;
	/* every jump ends a superblock, so every one is seen */
	VG_(clo_vex_control).guest_chase = False;
	VG_(clo_vex_control).iropt_unroll_thresh = 0;
	carry = VG_(calloc)("pmusim.carry", VG_N_THREADS, sizeof(*carry));
	thread_no = VG_(calloc)("pmusim.thread_no", VG_N_THREADS, sizeof(*thread_no));
	thread_no[1] = 1;
	sig_from = VG_(calloc)("pmusim.sig_from", VG_N_THREADS, sizeof(*sig_from));
	sig_waiting = VG_(calloc)("pmusim.sig_waiting", VG_N_THREADS, sizeof(*sig_waiting));
	open_stream(0, 0);
	if (clo_fd >= 0)
		out_flush();
	ring_open();
}

static void pv_fini(Int exitcode)
{
	/* Valgrind's exitcode is 0 for exit_group(5): the syscall's argument is kept instead */
	(void)exitcode;
	ThreadId tid;

	/* the instructions no branch followed, per thread */
	for (tid = 1; tid < VG_N_THREADS; tid++) {
		if (tid != count_tid && carry[tid] == 0)
			continue;
		set_thread(tid);
		if (insn_count)
			out_commit(rec(VGS_INSNS, 0));
	}
	rec_proc(VGS_EXIT, VG_(getpid)(), exit_status, NULL, 0);
	out_flush_flags(VGS_FRAME_END);
	if (clo_fd < 0)
		VG_(close)(out_fd);
	if (VG_(clo_verbosity) > 1)
		VG_(umsg)("pmusim: %llu branches\n", nr_branches);
}

static void pv_pre_clo_init(void)
{
	VG_(details_name)("pmusim");
	VG_(details_version)(NULL);
	VG_(details_description)("streams retired branches to the pmusim model PMU");
	VG_(details_copyright_author)("pmusim authors; GPL-2.0-only");
	VG_(details_bug_reports_to)("the pmusim project");
	VG_(details_avg_translation_sizeB)(300);

	VG_(basic_tool_funcs)(pv_post_clo_init, pv_instrument, pv_fini);
	VG_(needs_command_line_options)(process_cmd_line_option, print_usage, print_debug_usage);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
	VG_(track_start_client_code)(start_client_code);
	VG_(track_pre_thread_ll_create)(thread_create);
	VG_(track_pre_thread_ll_exit)(thread_exit);
	VG_(track_new_mem_startup)(new_mem_startup);
	VG_(track_new_mem_mmap)(new_mem_mmap);
	VG_(track_change_mem_mprotect)(change_mem_mprotect);
	VG_(track_pre_deliver_signal)(pre_deliver_signal);
	VG_(track_post_deliver_signal)(post_deliver_signal);
	VG_(atfork)(NULL, NULL, atfork_child);
}

VG_DETERMINE_INTERFACE_VERSION(pv_pre_clo_init)
