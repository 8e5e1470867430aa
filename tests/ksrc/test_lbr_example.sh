#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The worked example of the README ("The kernel's own files", make ab
# KSRC=DIR BASE=REV): ksrc/examples/lbr-system-wide-callstack.patch, the
# per-task LBR data seed as upstream v6.15 merged it (3cec9fd03543), on a
# copy of this build's kernel tree (the Debian linux-source-6.12):
#   the patch applies
#   the tree's own lbr.c, against core/x86/lbr.c through the LBR oracle:
#     with CONFIG_PERF_TASK_CTX_DATA some system-wide call-stack runs show
#     the task-ctx-data departure (v6.12 resets the stack at sched-in)
#   the patched lbr.c (the build's objects copied, only the units rebuilt):
#     no run shows it: core/ with CONFIG_PERF_TASK_CTX_DATA already does
#     what the patched file does (without the option, the other way round)
# Without a tree: one skip line.
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
obj=${PMUSIM_OBJTREE:-$src/build/dev}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; [ -n "${2:-}" ] && sed 's/^/# /' "$2" | tail -30; }

if [ -n "${TALLY:-}" ]; then
	echo "# skipped: the example rebuilds the kernel units in a copy of the build, too long for every make check config; make test runs it"
	echo "1..0 # SKIP too long for the check matrix"
	exit 0
fi
tree=$(sed -n 's/^#define KSRC_DIR "\(.*\)"$/\1/p' "$obj/include/generated/ksrc_tree.h" 2>/dev/null)
if [ -z "$tree" ] || [ ! -x "$obj/tests/ksrc/test_lbr_diff" ]; then
	echo "# skipped: no kernel tree (KSRC=DIR or linux-source-6.12)"
	echo "1..0 # SKIP no kernel tree"
	exit 0
fi
if ! grep -q '^#define KSRC_UNIT_LBR 1' "$obj/include/generated/ksrc.h"; then
	echo "# skipped: this build links no lbr unit of $tree"
	echo "1..0 # SKIP no lbr unit"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-lbr-example.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# every file of the tree the ksrc units read (KSRC_FILES of ksrc/Makefile.ksrc)
files=$(make -s --no-print-directory -C "$src" KSRC= ksrc-files)
for f in $files; do
	mkdir -p "$tmp/tree/$(dirname "$f")"
	cp "$tree/$f" "$tmp/tree/$f"
done
if patch -s -p1 -d "$tmp/tree" <"$src/ksrc/examples/lbr-system-wide-callstack.patch" >"$tmp/patch.log" 2>&1; then
	ok "lbr-system-wide-callstack.patch applies to $tree"
else
	not_ok "lbr-system-wide-callstack.patch applies to $tree" "$tmp/patch.log"
	echo "1..$n"
	exit 1
fi

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
base=$(departures "$obj" "$tmp/base.log")
cp -a "$obj" "$tmp/obj"
rm -rf "$tmp/obj/ksrc"
# shellcheck disable=SC2046
if ! make -s --no-print-directory -C "$src" O="$tmp/obj" KSRC="$tmp/tree" -j2 \
	$(build_flags "$obj/tests/ksrc/test_lbr_diff") \
	"$tmp/obj/tests/ksrc/test_lbr_diff" >"$tmp/build.log" 2>&1; then
	not_ok "the patched lbr.c builds" "$tmp/build.log"
	echo "1..$n"
	exit 1
fi
ok "the patched lbr.c builds against the shim"
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
echo "1..$n"
