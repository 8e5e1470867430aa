#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The patches of ksrc/examples, each on a copy of this build's kernel tree
# (the Debian linux-source-6.12), so that none can rot: each applies, builds
# against the shim, and its oracle judges core/'s port of the seed against
# the patched file (the build's objects copied, only the units rebuilt).
#
# The worked example of the README ("The kernel's own files", make ab
# KSRC=DIR BASE=REV): lbr-system-wide-callstack.patch, the per-task LBR
# data seed as upstream v6.15 merged it (3cec9fd03543):
#   the tree's own lbr.c, against core/x86/lbr.c through the LBR oracle:
#     with CONFIG_PERF_TASK_CTX_DATA some system-wide call-stack runs show
#     the task-ctx-data departure (v6.12 resets the stack at sched-in)
#   the patched lbr.c (the build's objects copied, only the units rebuilt):
#     no run shows it: core/ with CONFIG_PERF_TASK_CTX_DATA already does
#     what the patched file does (without the option, the other way round)
# The seeds' core.c halves, core-alt-sample-period.patch,
# core-hw-time.patch and core-task-ctx-data.patch, through the event-core
# oracle (test_core_diff):
#   the tree's core.c shows the seed's departure (core/ takes the seed's
#     attr, the file refuses it), when core/ has the seed's CONFIG_
#   the patched core.c: no departure, the seed's own check ran and agrees
#     (without the CONFIG_: the patched file still agrees on every other
#     check, and the seed is not judged, saying so)
# Without a tree: one skip line.
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
obj=${PMUSIM_OBJTREE:-$src/build/dev}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; [ -n "${2:-}" ] && sed 's/^/# /' "$2" | tail -30; }

if [ -n "${TALLY:-}" ]; then
	echo "# skipped: the examples rebuild the kernel units in a copy of the build, too long for every make check config; make test runs them"
	echo "1..0 # SKIP too long for the check matrix"
	exit 0
fi
tree=$(sed -n 's/^#define KSRC_DIR "\(.*\)"$/\1/p' "$obj/include/generated/ksrc_tree.h" 2>/dev/null)
if [ -z "$tree" ] || [ ! -x "$obj/tests/ksrc/test_lbr_diff" ]; then
	echo "# skipped: no kernel tree (KSRC=DIR or linux-source-6.12)"
	echo "1..0 # SKIP no kernel tree"
	exit 0
fi
version=$(sed -n 's/^#define KSRC_VERSION "\(.*\)"$/\1/p' "$obj/include/generated/ksrc_tree.h")
case $version in
6.12.*) ;;
*)
	echo "# skipped: ksrc/examples are patches for 6.12's files, this build's tree $tree is $version"
	echo "1..0 # SKIP the tree is not 6.12"
	exit 0 ;;
esac
if ! grep -Eq '^#define KSRC_UNIT_(LBR|CORE) 1' "$obj/include/generated/ksrc.h"; then
	echo "# skipped: this build links neither the lbr nor the core unit of $tree"
	echo "1..0 # SKIP no lbr or core unit"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-ksrc-examples.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# every file of the tree the ksrc units read (KSRC_FILES of ksrc/Makefile.ksrc)
files=$(make -s --no-print-directory -C "$src" KSRC= ksrc-files)
patched() { # DIR PATCH...: a copy of the tree's files in $tmp/DIR with each PATCH applied
	local d=$tmp/$1 f p
	shift
	for f in $files; do
		mkdir -p "$d/$(dirname "$f")"
		cp "$tree/$f" "$d/$f"
	done
	for p; do
		# each applies to the tree itself, then on top of the ones before
		if patch --dry-run -s -p1 -d "$tree" <"$src/ksrc/examples/$p" >"$tmp/patch.log" 2>&1 &&
			patch -s -p1 -d "$d" <"$src/ksrc/examples/$p" >"$tmp/patch.log" 2>&1; then
			ok "$p applies to $tree"
		else
			not_ok "$p applies to $tree" "$tmp/patch.log"
			return 1
		fi
	done
}

ctx_data=0
grep -q '^#define CONFIG_PERF_TASK_CTX_DATA 1' "$obj/include/generated/autoconf.h" && ctx_data=1
departures() { # OBJTREE LOG: the runs showing the departure, or "fail"
	if (cd "$1" && PMUSIM_SRCTREE=$src KSRC_LBR_DIFF_RUNS=${KSRC_LBR_DIFF_RUNS:-50} \
		CMOCKA_MESSAGE_OUTPUT=STDOUT ./tests/ksrc/test_lbr_diff) >"$2" 2>&1; then
		sed -n 's/^# [0-9]* models x .*, \([0-9]*\) with the task-ctx-data departure.*/\1/p' "$2"
	else
		echo fail
	fi
}

# the copy's kernel units are rebuilt with the flags its other objects
# had, which the object tree does not record: read them off the binary
build_flags() { # BINARY: SANITIZE=... and COVERAGE=1 as it was built with
	local syms san=
	syms=$(nm "$1" 2>/dev/null)
	if grep -q ' __tsan_init$' <<<"$syms"; then
		san=thread
	else
		grep -q ' __asan_init$' <<<"$syms" && san=address
		grep -q ' __ubsan_handle_' <<<"$syms" && san=${san:+$san,}undefined
	fi
	[ -n "$san" ] && echo "SANITIZE=$san"
	grep -q ' __gcov_init$' <<<"$syms" && echo COVERAGE=1
	return 0
}
# the build's objects, copied once; each patched tree rebuilds its units there
cp -a "$obj" "$tmp/obj"
flags=$(build_flags "$obj/tests/ksrc/test_lbr_diff")
build_patched() { # TREE WHAT PROGRAM: PROGRAM of the copy built from TREE
	rm -rf "$tmp/obj/ksrc" "$tmp/obj/$3"
	# shellcheck disable=SC2086
	if make -s --no-print-directory -C "$src" O="$tmp/obj" KSRC="$1" -j2 $flags \
		"$tmp/obj/$3" >"$tmp/build.log" 2>&1; then
		ok "the patched $2 builds against the shim"
	else
		not_ok "the patched $2 builds" "$tmp/build.log"
		return 1
	fi
}

lbr_example() { # the worked example: its lbr.c through the LBR oracle
	patched lbr lbr-system-wide-callstack.patch || return
	base=$(departures "$obj" "$tmp/base.log")
	build_patched "$tmp/lbr" lbr.c tests/ksrc/test_lbr_diff || return
	work=$(departures "$tmp/obj" "$tmp/work.log")

	if [ "$ctx_data" = 1 ]; then
		if [ "$base" != fail ] && [ "${base:-0}" -gt 0 ]; then
			ok "the tree's lbr.c resets a system-wide call stack at sched-in: $base runs show the task-ctx-data departure ($(grep -m1 '^# departure shown' "$tmp/base.log" | cut -c20-140)...)"
		else
			not_ok "the tree's lbr.c shows the task-ctx-data departure (got '$base')" "$tmp/base.log"
		fi
		if [ "$work" = 0 ]; then
			ok "the patched lbr.c keeps it with the task: no departure, every run agrees with core/ (CONFIG_PERF_TASK_CTX_DATA)"
		else
			not_ok "the patched lbr.c agrees with core/ (got '$work')" "$tmp/work.log"
		fi
	else
		if [ "$base" = 0 ] && [ "$work" != fail ] && [ "${work:-0}" -gt 0 ]; then
			ok "without CONFIG_PERF_TASK_CTX_DATA core/ is the tree's lbr.c (no departure) and the patched file departs ($work runs)"
		else
			not_ok "without CONFIG_PERF_TASK_CTX_DATA: base '$base', patched '$work' departures" "$tmp/work.log"
		fi
	fi
}

# The event core's seeds, both on one copy of the tree (each applies on its
# own too): test_core_diff on the tree's core.c (the build's own program)
# and on the patched one, each seed's departure and its own check.
core_seed() { # SEED CONFIG: core-SEED.patch against core/'s CONFIG port of it
	local seed=$1 config=$2
	if ! grep -q "^#define $config 1" "$obj/include/generated/autoconf.h"; then
		if ! grep -q "^# departure $seed:" "$tmp/core-work.log"; then
			ok "without $config core/ agrees with the patched core.c on every other check (the $seed seed itself not judged: core/ lacks it)"
		else
			not_ok "without $config, the patched core.c against core/" "$tmp/core-work.log"
		fi
		return
	fi
	if grep -q "^# departure $seed: " "$tmp/core-base.log"; then
		ok "the tree's core.c lacks the seed core/ has: $(grep -m1 "^# departure $seed: " "$tmp/core-base.log" | cut -c3-160)..."
	else
		not_ok "the tree's core.c shows the $seed departure" "$tmp/core-base.log"
	fi
	if ! grep -q "^# departure $seed:" "$tmp/core-work.log" &&
		grep -q "^# $seed: .*the tree's core\.c" "$tmp/core-work.log"; then
		ok "the patched core.c agrees with core/'s $config port: $(grep "^# $seed: " "$tmp/core-work.log" | cut -c3- | paste -sd';' | cut -c1-200)"
	else
		not_ok "the patched core.c agrees with core/'s $config port" "$tmp/core-work.log"
	fi
}
core_examples() {
	local run
	patched core core-alt-sample-period.patch core-hw-time.patch core-task-ctx-data.patch || return
	build_patched "$tmp/core" core.c tests/ksrc/test_core_diff || return
	for run in base work; do
		if (cd "$([ $run = base ] && echo "$obj" || echo "$tmp/obj")" && CMOCKA_MESSAGE_OUTPUT=STDOUT \
			./tests/ksrc/test_core_diff) >"$tmp/core-$run.log" 2>&1; then
			ok "the $([ $run = base ] && echo "tree's" || echo patched) core.c against core/: every check passes"
		else
			not_ok "the $([ $run = base ] && echo "tree's" || echo patched) core.c against core/" "$tmp/core-$run.log"
		fi
	done
	core_seed alt-sample-period CONFIG_PERF_ALT_SAMPLE_PERIOD
	core_seed hw-time CONFIG_PERF_HW_TIME
	core_seed task-ctx-data CONFIG_PERF_TASK_CTX_DATA
}

if grep -q '^#define KSRC_UNIT_LBR 1' "$obj/include/generated/ksrc.h"; then
	lbr_example
else
	echo "# lbr-system-wide-callstack.patch: this build links no lbr unit of $tree"
fi
if grep -q '^#define KSRC_UNIT_CORE 1' "$obj/include/generated/ksrc.h"; then
	core_examples
else
	echo "# the core-*.patch examples: this build links no core unit of $tree"
fi
echo "1..$n"
