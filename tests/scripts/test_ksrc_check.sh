#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/ksrc-check.sh (make ksrc-check) cannot pass on the wrong binary,
# whatever the tree. On made-up trees, one build directory for all (its
# first build ~5 s of CPU), the vmalloc variant only:
#   not a kernel tree (no directory, no Makefile, no version in it)
#                                one line, exit 2
#   a tree with none of the units' files
#                                one skip line per unit naming its file,
#                                no check of theirs, exit 0
#   a ring_buffer.c that does not build, an lbr.c that calls a function
#   nothing declares (get_current_user), and the previous run's test
#   programs left in the build directory, made to pass
#                                each build line names its unit and shows
#                                the first compiler error of the kernel
#                                file; their checks are "not run"; no
#                                program of the earlier run runs
#   a ring_buffer.c (a copy of this build's tree's, when it has one) that
#   calls perf_event_update_userpage, which core/ defines and the shim does
#   not                          the link check fails, naming the call
#   that tree's files made to call what newer trees call (v6.16's
#   rdmsrq/wrmsrq/wrmsrq_safe, an ACR-wide x86 flag, perf_event_disable_
#   inatomic, get_current_user, free_uid), and a core.c function using
#   what 6.13..6.17's core.c takes from shim/core_newer.h (__free, the
#   fd/srcu/percpu classes, two-argument strscpy, the sysctl table,
#   remap_pfn_range, task_struct's perf_ctx_data, pfn_mkwrite)
#                                as 6.16.0 every check agrees; as 6.15.0
#                                the flag fails perf_event.h's assert
#   KSRC_CHECK_UNITS=core on the tree without files
#                                a skip line for each other unit
# config-independent: ksrc-check builds its own defconfig trees; nothing here reads this build's
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
obj=${PMUSIM_OBJTREE:-$src}
. "$src/tests/lib/tap_lib.sh"

out=$dir/out
ksrc_check() { # TREE: scripts/ksrc-check.sh on it, its output in $dir/log, exit in $rc
	KSRC=$1 KSRC_CHECK_OUT=$out KSRC_VARIANTS=vmalloc KSRC_FUZZ_RUNS=10 KSRC_SEEDS=1 \
		bash "$src/scripts/ksrc-check.sh" >"$dir/log" 2>&1
	rc=$?
}
show() { sed 's/^/# /' "$dir/log" | head -40; }
# check_log DESCRIPTION CONDITION: check, and on failure the run's output as comments
check_log() { if eval "$2"; then ok "$1"; else nok "$1"; show; fi; }
tree() { # DIR VERSION: a kernel tree's top Makefile
	mkdir -p "$1"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = %s\nEXTRAVERSION = -fake\n' \
		"${2%%.*}" "$(cut -d. -f2 <<<"$2")" "${2##*.}" >"$1/Makefile"
}

# ---- not a kernel tree ------------------------------------------------------
mkdir -p "$dir/notree" "$dir/noversion"
echo 'all:' >"$dir/noversion/Makefile"
for t in "$dir/nosuchdir" "$dir/notree" "$dir/noversion"; do
	ksrc_check "$t"
	check "KSRC=$(basename "$t"): one line saying it is not a kernel tree, exit 2" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/log")" = 1 ] && grep -q "not a kernel tree" "$dir/log"'
done
out1=$(make -s --no-print-directory -C "$src" ksrc-check KSRC="$dir/notree" 2>&1)
rc=$?
check "make ksrc-check KSRC=not-a-tree: one line, exit 2 ($out1)" \
	'[ $rc = 2 ] && [ "$(wc -l <<<"$out1")" = 1 ] && grep -q "not a kernel tree" <<<"$out1"'

# ---- a tree without the units' files ------------------------------------------
tree "$dir/empty" 6.13.0
ksrc_check "$dir/empty"
check_log "a tree without the files: exit 0" '[ $rc = 0 ]'
for f in kernel/events/ring_buffer.c arch/x86/events/intel/lbr.c tools/lib/perf/mmap.c kernel/events/core.c; do
	check "a tree without $f: one skip line names it" \
		'[ "$(grep -c "^ok [0-9]* - [a-z_]* # SKIP the tree has no $f:" "$dir/log")" = 1 ]'
done
check "... and none of its units' checks runs (only pmusim's build line besides)" \
	'[ "$(grep -c "^\(not \)\{0,1\}ok " "$dir/log")" = 5 ] && grep -q "^ok 5 - build \[vmalloc\]: pmusim with the units (none) of 6.13.0-fake" "$dir/log"'

# ---- files that do not build, and the last run's programs -------------------------
tree "$dir/broken" 6.13.0
mkdir -p "$dir/broken/kernel/events" "$dir/broken/arch/x86/events/intel"
printf '// a made-up file\nint ksrc_broken(void)\n{\n\treturn 0 +;\n}\n' \
	>"$dir/broken/kernel/events/ring_buffer.c"
printf '// a made-up file\nvoid ksrc_broken_lbr(void);\nvoid ksrc_broken_lbr(void)\n{\n\tget_current_user();\n}\n' \
	>"$dir/broken/arch/x86/events/intel/lbr.c"
# what an earlier run left, made to pass and to say it ran
stale() { # PROGRAM LINES...
	local p=$out/vmalloc/$1
	shift
	mkdir -p "$(dirname "$p")"
	{ echo '#!/bin/sh'; echo "touch '$dir/stale-ran'"; printf 'echo "%s"\n' "$@"; } >"$p"
	chmod +x "$p"
}
for t in models_x_filters context_switch_cases corpus_agrees random_programs; do
	lbr_lines+=("[ RUN      ] $t" "# (kernel 6.13.0-fake)" "[       OK ] $t")
done
stale tests/ksrc/test_lbr_diff "${lbr_lines[@]}"
stale tests/ksrc/test_ring_buffer_diff "# 512 boundary inputs agree (kernel 6.13.0-fake)"
stale tests/ksrc/test_ring_buffer_cases "ok 1 - x" "# kernel/events/ring_buffer.c of 6.13.0-fake"
rm -f "$dir/stale-ran"
ksrc_check "$dir/broken"
check_log "files that do not build: exit 1" '[ $rc = 1 ]'
check "the ring_buffer unit's build line shows ring_buffer.c's first compiler error" \
	'grep -q "^not ok [0-9]* - build ring_buffer \[vmalloc\]: kernel/events/ring_buffer.c:4:[0-9]*: error: " "$dir/log"'
check "the lbr unit's build line names get_current_user, an undeclared call, as lbr.c's error" \
	'grep -q "^not ok [0-9]* - build lbr \[vmalloc\]: arch/x86/events/intel/lbr.c:5:[0-9]*: error: implicit declaration of function .get_current_user." "$dir/log"'
check "no build failure is put down to another unit's file" \
	'! grep "^not ok [0-9]* - build lbr" "$dir/log" | grep -q ring_buffer.c &&
	 ! grep "^not ok [0-9]* - build ring_buffer" "$dir/log" | grep -q lbr.c'
check "the ring buffer's checks are not run" \
	'[ "$(grep -c "^not ok [0-9]* - \(replay\|cases\|diff\) \[vmalloc\]: not run, kernel/events/ring_buffer.c did not build" "$dir/log")" = 3 ]'
check "the lbr checks are not run" \
	'[ "$(grep -c "^not ok [0-9]* - lbr [a-z]*: not run, arch/x86/events/intel/lbr.c did not build" "$dir/log")" = 4 ]'
check "no program of the earlier run ran, and none is left" \
	'[ ! -e "$dir/stale-ran" ] && ! grep -q "^ok .*6.13.0-fake)$" "$dir/log" &&
	 ! grep -q "stale-ran" "$out/vmalloc/tests/ksrc/test_lbr_diff" 2>/dev/null'
check "pmusim is built with no unit of the tree, and says so" \
	'grep -q "^ok [0-9]* - build \[vmalloc\]: pmusim with the units (none) of 6.13.0-fake" "$dir/log" &&
	 "$out/vmalloc/pmusim" version | grep -qx "ksrc_units none"'

# ---- a call the shim does not supply, to a name core/ defines ----------------------------
real=$(sed -n 's/^#define KSRC_DIR "\(.*\)"$/\1/p' "$obj/include/generated/ksrc_tree.h" 2>/dev/null)
[ -f "${real:-/nonexistent}/kernel/events/internal.h" ] || real=$src/build/ksrc/linux-source-6.12
if [ ! -f "$real/kernel/events/ring_buffer.c" ] || [ ! -f "$real/kernel/events/internal.h" ]; then
	skip "a call to core/'s perf_event_update_userpage fails the link: no kernel tree to copy ring_buffer.c from"
else
	tree "$dir/corecall" 6.13.0
	mkdir -p "$dir/corecall/kernel/events"
	cp "$real/kernel/events/internal.h" "$dir/corecall/kernel/events/"
	{
		cat "$real/kernel/events/ring_buffer.c"
		printf '\n/* made up: a core.c function the shim does not supply */\n'
		printf 'void perf_event_update_userpage(struct perf_event *event);\n'
		printf 'void ksrc_made_up(struct perf_event *event);\n'
		printf 'void ksrc_made_up(struct perf_event *event)\n{\n\tperf_event_update_userpage(event);\n}\n'
	} >"$dir/corecall/kernel/events/ring_buffer.c"
	ksrc_check "$dir/corecall"
	check_log "a call to a core/ name the shim lacks: the link check fails naming it, not a segfault later" \
		'[ $rc = 1 ] && grep -q "^not ok [0-9]* - build ring_buffer \[vmalloc\]: ksrc/ring_buffer.o: error: kernel/events/ring_buffer.c calls perf_event_update_userpage, which the unit does not define" "$dir/log"'
	check "... and nothing of the unit is linked or run" \
		'[ ! -e "$out/vmalloc/ksrc/ring_buffer.o" ] && grep -q "^not ok [0-9]* - diff \[vmalloc\]: not run" "$dir/log"'
fi

# ---- what newer trees call, which the shim supplies ------------------------------
# The build's tree made to look newer: lbr.c and perf_event.h with v6.16's
# MSR accessors (rdmsrq, wrmsrq, wrmsrq_safe), an x86 flag past bit 19 as
# ACR is, and a ring_buffer.c that calls perf_event_disable_inatomic,
# get_current_user and free_uid, a core.c with a function using each item
# of shim/core_newer.h. As 6.16.0 it builds and agrees with core/;
# as 6.15.0 the flag does not fit PERF_EVENT_FLAG_ARCH, as in that kernel.
newer() { # DIR VERSION
	local f
	tree "$1" "$2"
	for f in kernel/events/ring_buffer.c kernel/events/internal.h arch/x86/events/intel/lbr.c \
		arch/x86/events/perf_event.h arch/x86/events/perf_event_flags.h \
		${core_too:+kernel/events/core.c kernel/events/callchain.c include/linux/perf_event.h include/uapi/linux/perf_event.h \
		include/uapi/linux/bpf_perf_event.h}; do
		mkdir -p "$1/$(dirname "$f")"
		cp "$real/$f" "$1/$f"
	done
	sed -i 's/\b\(rd\|wr\)msrl\(_safe\)\{0,1\}\b/\1msrq\2/g' \
		"$1/arch/x86/events/intel/lbr.c" "$1/arch/x86/events/perf_event.h"
	printf 'PERF_ARCH(ACR,\t\t0x0100000) /* made up: a flag past bit 19 */\n' \
		>>"$1/arch/x86/events/perf_event_flags.h"
	printf '\n/* made up: what newer trees call */\nvoid ksrc_made_up(struct perf_event *event);\n%s\n' \
		'void ksrc_made_up(struct perf_event *event) { free_uid(get_current_user()); perf_event_disable_inatomic(event); }' \
		>>"$1/kernel/events/ring_buffer.c"
	# core.c: what 6.13..6.17's core.c takes from shim/core_newer.h, used once each
	[ -n "$core_too" ] || return 0
	cat >>"$1/kernel/events/core.c" <<'MADE_UP'
/* made up: what newer core.c files take from the shim (ksrc/kernel/events/include/shim/core_newer.h) */
DEFINE_FREE(ksrc_made_up_put, struct perf_event *, if (_T) free_event(_T))
DEFINE_STATIC_PERCPU_RWSEM(ksrc_made_up_rwsem);
static DEFINE_SPINLOCK(ksrc_made_up_lock);
static const struct ctl_table ksrc_made_up_table[] = {
	{ .procname = "ksrc_made_up", .data = &sysctl_perf_event_paranoid, .maxlen = sizeof(int),
	  .mode = 0644, .proc_handler = proc_dointvec_minmax, .extra1 = SYSCTL_ONE, .extra2 = SYSCTL_ONE_HUNDRED },
};
static int __init ksrc_made_up_init(void)
{
	register_sysctl_init("kernel", ksrc_made_up_table);
	return 0;
}
core_initcall(ksrc_made_up_init);
struct perf_event *ksrc_made_up_core(int fd, struct perf_event *event, struct vm_area_struct *vma);
struct perf_event *ksrc_made_up_core(int fd, struct perf_event *event, struct vm_area_struct *vma)
{
	struct perf_event *ev __free(ksrc_made_up_put) = event;
	struct task_struct *g, *t;
	char name[8];
	CLASS(fd, f)(fd);

	if (fd_empty(f) || !vma->vm_ops->pfn_mkwrite)
		return NULL;
	strscpy(name, "made");
	scoped_guard (spinlock, &ksrc_made_up_lock)
		name[0] = 'M';
	guard(srcu)(&pmus_srcu);
	guard(percpu_read)(&ksrc_made_up_rwsem);
	for_each_process_thread(g, t)
		if (t->perf_ctx_data)
			return NULL;
	if (ev->rb && !refcount_dec_not_one(&ev->rb->refcount))
		return NULL;
	if (remap_pfn_range(vma, vma->vm_start, page_to_pfn(virt_to_page(ev)), PAGE_SIZE,
			    vm_get_page_prot(vma->vm_flags)))
		return NULL;
	return_ptr(ev);
}
MADE_UP
}
# core.c is laid over only from a tree the core shim takes as the newer one
# it is labelled (6.11 on: the newest release the shim versions core.c on)
core_too=
case $("$src/ksrc/gen-header.sh" version "$real" 2>/dev/null) in
6.1[1-9].*|6.[2-9][0-9].*|[7-9].*) core_too=y ;;
esac
if [ ! -f "$real/arch/x86/events/intel/lbr.c" ]; then
	skip "what newer trees call: no kernel tree to copy the files from"
else
	newer "$dir/v6.16" 6.16.0
	check "the made-up tree calls rdmsrq, wrmsrq and wrmsrq_safe and no rdmsrl" \
		'grep -q "rdmsrq(" "$dir/v6.16/arch/x86/events/intel/lbr.c" && grep -q "wrmsrq_safe(" "$dir/v6.16/arch/x86/events/intel/lbr.c" &&
		 ! grep -q "msrl" "$dir/v6.16/arch/x86/events/intel/lbr.c" "$dir/v6.16/arch/x86/events/perf_event.h"'
	KSRC_LBR_DIFF_RUNS=20 ksrc_check "$dir/v6.16"
	check_log "a 6.16-style tree: ring_buffer, lbr${core_too:+ and core} build, every check agrees (exit $rc)" \
		'[ $rc = 0 ] && grep -q "^ok [0-9]* - build ring_buffer \[vmalloc\]" "$dir/log" &&
		 grep -q "^ok [0-9]* - build lbr \[vmalloc\]: .* (0 kernel warnings)" "$dir/log" &&
		 [ "$(grep -c "^ok [0-9]* - lbr [a-z]*: " "$dir/log")" = 4 ] &&
		 grep -q "^ok [0-9]* - diff \[vmalloc\]" "$dir/log" &&
		 { [ -z "$core_too" ] || { grep -q "^ok [0-9]* - build core \[vmalloc\]: .* (0 kernel warnings)" "$dir/log" &&
		   grep -q "^ok [0-9]* - core-diff \[vmalloc\]" "$dir/log"; }; }'
	core_too= newer "$dir/v6.15" 6.15.0	# (its check is lbr's assert: no core.c)
	ksrc_check "$dir/v6.15"
	check_log "the same as 6.15.0: the flag past bit 19 fails perf_event.h's static_assert, as in 6.15" \
		'[ $rc = 1 ] && grep -q "^not ok [0-9]* - build lbr \[vmalloc\]: .* error: static assertion failed: \"(PERF_X86_EVENT_ACR & PERF_EVENT_FLAG_ARCH) == PERF_X86_EVENT_ACR\"" "$dir/log"'
fi

# ---- KSRC_CHECK_UNITS: the units a run is asked for (scripts/ksrc-mutants.sh) -----
KSRC_CHECK_UNITS=core ksrc_check "$dir/empty"
check_log "KSRC_CHECK_UNITS=core: each other unit one skip line saying it was not asked for, exit 0" \
	'[ $rc = 0 ] && [ "$(grep -c "^ok [0-9]* - [a-z_]* # SKIP not asked for (KSRC_CHECK_UNITS=core)" "$dir/log")" = 3 ] &&
	 ! grep -q "^ok [0-9]* - core # SKIP not asked" "$dir/log"'
check "... and core is still looked for in the tree (which has no core.c)" \
	'[ "$(grep -c "^ok [0-9]* - core # SKIP the tree has no kernel/events/core.c" "$dir/log")" = 1 ]'
echo "1..$n"
