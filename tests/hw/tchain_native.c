// SPDX-License-Identifier: GPL-2.0-only
/*
 * make hwcheck: the model's LBR call-stack predictions against the host's
 * real PMU. A host program (not part of libpmusim): it runs the deep call
 * chain of the LBR stitching series' tchain_edit (main -> f01 -> ... ->
 * f43), samples itself with cycles and a user call-stack LBR with hw_idx
 * (what `perf record --call-graph lbr` asks for), reads its own ring
 * buffer and checks, one TAP line each:
 *
 *   1. samples land in the chain
 *   2. no LBR stack is deeper than caps/branches (N)
 *   3. hw_idx (the TOS) is below N and moves with the call depth mod N
 *   4. LBR frames are the chain's functions, innermost first
 *   5. tools/perf/util/lbr_stitch reconstructs the whole chain where it is deeper
 *      than N, and never stitches a frame out of order
 *
 * Without a hardware PMU or without LBR every check is one SKIP line with
 * the reason, and the exit status is 0.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <pmusim/perf_event.h>
#include "tools/perf/util/lbr_stitch.h"

#define NR_CHECKS	5
#define CHAIN_DEPTH	43		/* f01..f43 */
#define SPIN_STEP	200		/* per level, before and after the call */
#define SPIN_LEAF	20000		/* in f43 */
#define MAX_RUNS	4000
#define RING_PAGES	128		/* data pages, a power of two */
#define SAMPLE_PERIOD	50021		/* cycles */
#define CAPS_BRANCHES	"/sys/bus/event_source/devices/cpu/caps/branches"

/* ---- the call chain ------------------------------------------------- */

static volatile unsigned long sink;

/* Inlined so that the work itself makes no call the LBR would record. */
static inline __attribute__((always_inline)) void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

/*
 * noipa: no inlining, cloning or tail calls across these, so every level
 * is one real CALL and one RET; the spin after the call keeps it from
 * becoming a jump.
 */
static __attribute__((noipa)) void f43(void)
{
	spin(SPIN_LEAF);
}

#define CHAIN_FN(n, next)					\
static __attribute__((noipa)) void f##n(void)			\
{								\
	spin(SPIN_STEP);					\
	next();							\
	spin(SPIN_STEP);					\
}

CHAIN_FN(42, f43) CHAIN_FN(41, f42) CHAIN_FN(40, f41) CHAIN_FN(39, f40)
CHAIN_FN(38, f39) CHAIN_FN(37, f38) CHAIN_FN(36, f37) CHAIN_FN(35, f36)
CHAIN_FN(34, f35) CHAIN_FN(33, f34) CHAIN_FN(32, f33) CHAIN_FN(31, f32)
CHAIN_FN(30, f31) CHAIN_FN(29, f30) CHAIN_FN(28, f29) CHAIN_FN(27, f28)
CHAIN_FN(26, f27) CHAIN_FN(25, f26) CHAIN_FN(24, f25) CHAIN_FN(23, f24)
CHAIN_FN(22, f23) CHAIN_FN(21, f22) CHAIN_FN(20, f21) CHAIN_FN(19, f20)
CHAIN_FN(18, f19) CHAIN_FN(17, f18) CHAIN_FN(16, f17) CHAIN_FN(15, f16)
CHAIN_FN(14, f15) CHAIN_FN(13, f14) CHAIN_FN(12, f13) CHAIN_FN(11, f12)
CHAIN_FN(10, f11) CHAIN_FN(09, f10) CHAIN_FN(08, f09) CHAIN_FN(07, f08)
CHAIN_FN(06, f07) CHAIN_FN(05, f06) CHAIN_FN(04, f05) CHAIN_FN(03, f04)
CHAIN_FN(02, f03) CHAIN_FN(01, f02)

/* ---- where the chain's functions are: the binary's own symtab ---------- */

/* Level 0 is main, level K is fK. */
struct func_range {
	u64 start, end;
};
static struct func_range funcs[CHAIN_DEPTH + 1];

static int level_of_name(const char *name)
{
	if (!strcmp(name, "main"))
		return 0;
	if (name[0] == 'f' && name[1] >= '0' && name[1] <= '9' &&
	    name[2] >= '0' && name[2] <= '9' && !name[3]) {
		int k = (name[1] - '0') * 10 + (name[2] - '0');

		if (k >= 1 && k <= CHAIN_DEPTH)
			return k;
	}
	return -1;
}

/* Returns 0, or -1 with the reason in WHY. */
static int load_funcs(const char **why)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct stat st;
	const u8 *img;
	u64 f01_value = 0, bias;
	int fd, found = 0;

	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		*why = "cannot open /proc/self/exe";
		return -1;
	}
	img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED || (size_t)st.st_size < sizeof(*eh)) {
		*why = "cannot map /proc/self/exe";
		return -1;
	}
	eh = (const Elf64_Ehdr *)img;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shoff + (u64)eh->e_shnum * sizeof(*sh) > (u64)st.st_size) {
		*why = "/proc/self/exe is not a 64-bit ELF";
		return -1;
	}
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const char *strtab;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		sym = (const Elf64_Sym *)(img + sh[i].sh_offset);
		strtab = (const char *)img + sh[sh[i].sh_link].sh_offset;
		for (u64 j = 0; j < sh[i].sh_size / sizeof(*sym); j++) {
			int k;

			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_size)
				continue;
			k = level_of_name(strtab + sym[j].st_name);
			if (k < 0 || funcs[k].end)
				continue;
			funcs[k].start = sym[j].st_value;
			funcs[k].end = sym[j].st_value + sym[j].st_size;
			found++;
			if (k == 1)
				f01_value = sym[j].st_value;
		}
	}
	if (found != CHAIN_DEPTH + 1) {
		*why = "the chain's symbols are not all in the binary's symtab";
		return -1;
	}
	/* PIE: the symtab holds link-time addresses */
	bias = (u64)(uintptr_t)&f01 - f01_value;
	for (int k = 0; k <= CHAIN_DEPTH; k++) {
		funcs[k].start += bias;
		funcs[k].end += bias;
	}
	return 0;
}

static int level_of(u64 addr)
{
	for (int k = 0; k <= CHAIN_DEPTH; k++)
		if (addr >= funcs[k].start && addr < funcs[k].end)
			return k;
	return -1;
}

/* ---- TAP -------------------------------------------------------------- */

static int tap_n;
static int tap_failed;

static void tap(bool ok, const char *what)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++tap_n, what);
	if (!ok)
		tap_failed = 1;
}

static void tap_skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++tap_n, why);
}

static int skip_all(const char *why)
{
	while (tap_n < NR_CHECKS)
		tap_skip(why);
	printf("1..%d\n", NR_CHECKS);
	return 0;
}

/* ---- recording ------------------------------------------------------ */

static int sys_perf_event_open(struct perf_event_attr *attr)
{
	return syscall(__NR_perf_event_open, attr, 0, -1, -1, 0);
}

/* What the recording saw, for the checks. */
struct tally {
	u64 records, samples, lost, parse_errors;
	u64 chain_samples;		/* frames[0] is in f01..f43 */
	u64 max_branch_nr;
	u64 over_depth;			/* branch_nr > max_lbr */
	u64 over_frames;		/* plain LBR frames > max_lbr + 1 */
	u64 hw_idx_none;		/* hw_idx == -1ULL */
	u64 hw_idx_high;		/* hw_idx >= max_lbr */
	u64 hw_idx_moved;		/* (hw_idx - level) mod max_lbr not the first's */
	u64 hw_idx_checked;
	bool have_residue;
	u64 residue;
	u64 out_of_order;		/* a plain frame not the next level down */
	u64 deep;			/* chain samples deeper than max_lbr */
	u64 deep_full;			/* ... stitched down to main */
	u64 wrong_stitch;		/* a stitched frame out of order */
	u64 max_stitched;
};

struct recorder {
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	const u8 *data;
	u64 data_size;
	u32 max_lbr;
	struct lbr_stitcher plain, stitched;
	struct tally t;
	u8 rec[65536];			/* the largest header.size */
};

static void check_sample(struct recorder *r, const struct perf_sample *s)
{
	struct tally *t = &r->t;
	const u64 *frames;
	u32 nr = 0, snr;
	int k;

	t->samples++;
	if (s->branch_nr > t->max_branch_nr)
		t->max_branch_nr = s->branch_nr;
	if (s->branch_nr > r->max_lbr)
		t->over_depth++;

	/* a stack emptied by returns past an overflow has no frames at all */
	if (!s->branch_nr || lbr_stitcher__resolve(&r->plain, s, &frames, &nr) != 1 || !nr)
		k = -1;
	else
		k = level_of(frames[0]);
	if (k >= 0 && nr > r->max_lbr + 1)
		t->over_frames++;
	if (k >= 1) {
		t->chain_samples++;
		for (u32 i = 1; i < nr && (int)i <= k; i++)
			if (level_of(frames[i]) != k - (int)i) {
				t->out_of_order++;
				break;
			}
		if (s->hw_idx == -1ULL) {
			t->hw_idx_none++;
		} else if (s->hw_idx >= r->max_lbr) {
			t->hw_idx_high++;
		} else {
			/* the call into level k always sits in slot (k + c) mod N */
			u64 res = (s->hw_idx + r->max_lbr - (u64)k % r->max_lbr) % r->max_lbr;

			t->hw_idx_checked++;
			if (!t->have_residue) {
				t->residue = res;
				t->have_residue = true;
			} else if (res != t->residue) {
				t->hw_idx_moved++;
			}
		}
	}

	/* the stitcher keeps per-thread state: it sees every sample */
	if (lbr_stitcher__resolve(&r->stitched, s, &frames, &snr) != 1 || !snr)
		return;
	if (snr > t->max_stitched)
		t->max_stitched = snr;
	if (k > (int)r->max_lbr) {
		bool full = snr >= (u32)k + 1;

		t->deep++;
		for (u32 i = 0; i < snr && (int)i <= k; i++)
			if (level_of(frames[i]) != k - (int)i) {
				full = false;
				if (i >= nr)
					t->wrong_stitch++;
				break;
			}
		if (full)
			t->deep_full++;
	}
}

static void drain(struct recorder *r)
{
	u64 head = __atomic_load_n(&r->pg->data_head, __ATOMIC_ACQUIRE);
	u64 tail = r->pg->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		u64 off = tail & (r->data_size - 1), first;

		/* a record may wrap around the end of the data area */
		first = r->data_size - off;
		if (first >= sizeof(h)) {
			memcpy(&h, r->data + off, sizeof(h));
		} else {
			memcpy(&h, r->data + off, first);
			memcpy((u8 *)&h + first, r->data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail) {
			r->t.parse_errors++;
			tail = head;
			break;
		}
		if (first >= h.size) {
			memcpy(r->rec, r->data + off, h.size);
		} else {
			memcpy(r->rec, r->data + off, first);
			memcpy(r->rec + first, r->data, h.size - first);
		}
		r->t.records++;
		if (h.type == PERF_RECORD_SAMPLE) {
			struct perf_sample s;
			const char *why;

			if (perf_sample__parse(&r->attr, r->rec, h.size, &s, &why))
				r->t.parse_errors++;
			else
				check_sample(r, &s);
		} else if (h.type == PERF_RECORD_LOST) {
			r->t.lost++;
		}
		tail += h.size;
	}
	__atomic_store_n(&r->pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Returns 0, or an errno. */
static int read_caps_branches(u32 *max_lbr)
{
	FILE *f = fopen(CAPS_BRANCHES, "r");
	unsigned v;
	int ok;

	if (!f)
		return errno;
	ok = fscanf(f, "%u", &v) == 1 && v > 0;
	fclose(f);
	if (!ok)
		return EINVAL;
	*max_lbr = v;
	return 0;
}

static char why_buf[256];

static const char *because(const char *what, int err)
{
	snprintf(why_buf, sizeof(why_buf), "%s: %s", what, strerror(err));
	return why_buf;
}

static void report(const struct recorder *r)
{
	const struct tally *t = &r->t;
	char what[256];

	snprintf(what, sizeof(what),
		 "call-stack LBR sampling lands in the chain (%llu samples, %llu in f01..f%d, %llu lost, %llu unparsable)",
		 (unsigned long long)t->samples, (unsigned long long)t->chain_samples,
		 CHAIN_DEPTH, (unsigned long long)t->lost, (unsigned long long)t->parse_errors);
	tap(t->chain_samples > 0 && !t->parse_errors, what);

	snprintf(what, sizeof(what),
		 "every LBR stack holds at most caps/branches=%u entries (deepest %llu)",
		 r->max_lbr, (unsigned long long)t->max_branch_nr);
	tap(t->samples && !t->over_depth && !t->over_frames, what);

	if (t->chain_samples && t->hw_idx_none == t->chain_samples) {
		tap_skip("no hw_idx: the kernel reports -1 (Arch LBR has no TOS)");
	} else {
		snprintf(what, sizeof(what),
			 "hw_idx stays below %u and moves with the call depth modulo %u (%llu samples, %llu off, %llu out of range)",
			 r->max_lbr, r->max_lbr, (unsigned long long)t->hw_idx_checked,
			 (unsigned long long)t->hw_idx_moved, (unsigned long long)t->hw_idx_high);
		tap(t->hw_idx_checked && !t->hw_idx_moved && !t->hw_idx_high, what);
	}

	snprintf(what, sizeof(what),
		 "LBR frames are the chain's functions in call order (%llu of %llu samples out of order)",
		 (unsigned long long)t->out_of_order, (unsigned long long)t->chain_samples);
	tap(t->chain_samples && !t->out_of_order, what);

	if (!IS_ENABLED(CONFIG_LBR_STITCH)) {
		tap_skip("this build has no CONFIG_LBR_STITCH: no stitching to check");
	} else if (r->max_lbr >= CHAIN_DEPTH) {
		snprintf(what, sizeof(what), "the chain (%d) is not deeper than the LBR (%u)",
			 CHAIN_DEPTH, r->max_lbr);
		tap_skip(what);
	} else if (t->chain_samples && t->hw_idx_none == t->chain_samples) {
		tap_skip("no hw_idx: stitching needs the TOS");
	} else {
		snprintf(what, sizeof(what),
			 "lbr_stitch reconstructs the chain beyond the LBR depth %u (%llu of %llu deeper samples reach main, deepest %llu frames, %llu misstitched)",
			 r->max_lbr, (unsigned long long)t->deep_full, (unsigned long long)t->deep,
			 (unsigned long long)t->max_stitched, (unsigned long long)t->wrong_stitch);
		tap(t->deep_full && !t->wrong_stitch && t->max_stitched > r->max_lbr + 1, what);
	}
	printf("1..%d\n", NR_CHECKS);
}

int main(void)
{
	static struct recorder r;
	struct perf_event_attr probe;
	long page = sysconf(_SC_PAGESIZE);
	const char *why;
	void *map;
	int fd, err;

	setvbuf(stdout, NULL, _IOLBF, 0);

	/* a hardware PMU at all? */
	memset(&probe, 0, sizeof(probe));
	probe.type = PERF_TYPE_HARDWARE;
	probe.size = PERF_ATTR_SIZE_VER8;
	probe.config = PERF_COUNT_HW_CPU_CYCLES;
	probe.exclude_kernel = 1;
	probe.exclude_hv = 1;
	fd = sys_perf_event_open(&probe);
	if (fd < 0) {
		err = errno;
		if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
			return skip_all(because("no hardware PMU", err));
		if (err == EACCES || err == EPERM)
			return skip_all(because("perf_event_open not permitted", err));
		tap(false, because("opening a cycles counter", err));
		skip_all("no cycles counter");
		return 1;
	}
	close(fd);

	/* an LBR? */
	err = read_caps_branches(&r.max_lbr);
	if (err)
		return skip_all(because("no LBR: " CAPS_BRANCHES, err));

	r.attr.type = PERF_TYPE_HARDWARE;
	r.attr.size = PERF_ATTR_SIZE_VER8;
	r.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	r.attr.sample_period = SAMPLE_PERIOD;
	r.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN |
			     PERF_SAMPLE_BRANCH_STACK;
	r.attr.branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
				    PERF_SAMPLE_BRANCH_HW_INDEX;
	r.attr.exclude_kernel = 1;
	r.attr.exclude_hv = 1;
	r.attr.disabled = 1;
	fd = sys_perf_event_open(&r.attr);
	if (fd < 0) {
		err = errno;
		if (err == EOPNOTSUPP)
			return skip_all(because("no LBR", err));
		if (err == EACCES || err == EPERM)
			return skip_all(because("perf_event_open not permitted", err));
		tap(false, because("opening cycles with a call-stack LBR", err));
		skip_all("no call-stack LBR event");
		return 1;
	}

	if (load_funcs(&why)) {
		tap(false, why);
		skip_all("the chain's addresses are unknown");
		return 1;
	}

	map = mmap(NULL, (RING_PAGES + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		tap(false, because("mapping the ring buffer", errno));
		skip_all("no ring buffer");
		return 1;
	}
	r.pg = map;
	r.data = (const u8 *)map + page;
	r.data_size = (u64)RING_PAGES * page;
	lbr_stitcher__init(&r.plain, r.max_lbr, false);
	lbr_stitcher__init(&r.stitched, r.max_lbr, true);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int run = 0; run < MAX_RUNS; run++) {
		f01();
		drain(&r);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	drain(&r);

	report(&r);
	lbr_stitcher__exit(&r.plain);
	lbr_stitcher__exit(&r.stitched);
	munmap(map, (RING_PAGES + 1) * page);
	close(fd);
	return tap_failed;
}
