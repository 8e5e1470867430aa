#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make ab` itself, on a throwaway copy of this tree committed to a
# throwaway git repository (trimmed: one short scenario, a few ring-buffer
# scripts and fuzz inputs, fewer operations under callgrind):
#   make ab, the tree against itself  exit 0, "no behavioural difference"
#   a patch that changes sample periods  scripts/ab.sh exits 1 and names the
#                                     perf.data record, type, field and both values
#   a patch that only adds instructions to perf_output_end
#                                     exit 1, no behavioural difference,
#                                     the record cost over +1%
#   the base figures of the three runs are the same (callgrind repeats)
#   make ab without BASE fails; scripts/ab.sh with no revision exits 2
#   nothing lands in $HOME/.debug (its own home keeps the user's out too)
# (make itself exits 2 whenever a recipe fails, so the exact 0/1 verdict is
# scripts/ab.sh's exit status; make ab passes it on as success or failure.)
# It builds two trees (pmusim and bench/ab_cost only) and runs ab three
# times, about 1 min of CPU, so each configuration of the make check matrix
# skips it; make check runs it once (scripts/check.d/make-ab.sh), and
# `make test` runs it.
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do sed 's/^/# /' <<<"$l" | head -40; done; }
check() { # DESCRIPTION CONDITION... (a command)
	local what=$1
	shift
	if "$@"; then ok "$what"; else not_ok "$what" "$log"; fi
}

if [ -n "${TALLY:-}" ]; then
	echo "# skipped: make ab builds two trees and runs three times (~1 min of CPU), too long for every make check config; make test runs it"
	echo "1..0 # SKIP too long for the check matrix"
	exit 0
fi
for tool in git valgrind jq; do
	if ! command -v $tool >/dev/null; then
		echo "# skipped: $tool is not installed (scripts/install-deps.sh ab)"
		echo "1..0 # SKIP no $tool"
		exit 0
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a home of the test's own: the user's build-id cache (~/.debug) stays
# out of it, and ab.sh must keep its runs out of this one as well
export HOME=$tmp/home
mkdir -p "$HOME"
tree=$tmp/tree
mkdir -p "$tree"
# The working tree as it is (tracked and new files), without build output.
# A tree without .git (a release tarball, made by git archive) is read
# through an empty repository of its own: all its files are new, and its
# .gitignore leaves out the same build output.
log="" srcgit=()
if [ ! -e "$src/.git" ]; then
	git init -q --bare "$tmp/src.git"
	srcgit=(--git-dir="$tmp/src.git" --work-tree="$src")
fi
(cd "$src" && git "${srcgit[@]}" ls-files -z --cached --others --exclude-standard |
	tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$tree"
check "the copy of $src holds its sources" test -f "$tree/Makefile" -a -f "$tree/scripts/ab.sh"

# Trim to what shows each kind of difference, so the runs are short.
sed -i 's/^duration: .*/duration: 20000000/' "$tree/scenarios/default.yaml"
find "$tree/scenarios" -name '*.yaml' ! -name default.yaml -delete
# Fuzz corpora are text diffs like the replay scripts, and need a clang
# ASan build of each side: left out (AB_FUZZ=0) to keep this test short.
ls "$tree"/tests/replay/ringbuf/*.rb | sort | tail -n +4 | xargs rm -f

git -C "$tree" init -q
git -C "$tree" add -A
git -C "$tree" -c user.name=ab -c user.email=ab@pmusim -c commit.gpgsign=false commit -qm base

# make ab in the copy (make exits 2 for any failed recipe, so the patched
# runs call scripts/ab.sh, whose exit status is the verdict); sets log, rc
run_ab() { # make|script
	if [ "$1" = make ]; then
		log=$(cd "$tree" && AB_COST_DIV=10 AB_FUZZ=0 RINGBUF_SEEDS="1 2" make --no-print-directory ab BASE=HEAD 2>&1)
	else
		log=$(cd "$tree" && AB_COST_DIV=10 AB_FUZZ=0 RINGBUF_SEEDS="1 2" scripts/ab.sh HEAD 2>&1)
	fi
	rc=$?
}
# the first figure of each cost line is the base's
base_figures() {
	grep -E '^  per ' <<<"$log" |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]$/) { printf "%s ", $i; break } }'
}

# 1. the tree against itself
run_ab make
figures1=$(base_figures)
check "make ab, the unchanged tree: exit 0 (got $rc)" test "$rc" = 0
check "the unchanged tree: 'no behavioural difference'" grep -q "no behavioural difference" <<<"$log"
check "the unchanged tree: four cost figures, +0.00% each" \
	test "$(grep -cE '^  per .* \+0\.00%$' <<<"$log")" = 4
check "the scenario runs added nothing to \$HOME/.debug (ab has a build-id cache of its own)" \
	test ! -e "$HOME/.debug"

# 2. a behaviour change: every sample's period is one more
sed -i 's/^\(\t*\)perf_output_put(handle, data->period);/\1{ u64 ab_p = data->period + 1; perf_output_put(handle, ab_p); }/' \
	"$tree/core/sample.c"
if git -C "$tree" diff --quiet; then
	not_ok "the behaviour patch applies to core/sample.c" "perf_output_put(handle, data->period) not found"
else
	run_ab script
	figures2=$(base_figures)
	check "period + 1: exit 1 (got $rc)" test "$rc" = 1
	check "period + 1: the perf.data differs" grep -q "^DIFFERS: scenario default: perf.data" <<<"$log"
	check "period + 1: first difference names record, type, field and both values" \
		grep -qE "^  first difference: record [0-9]+ \(SAMPLE\): field period: base ([0-9]+), work [0-9]+$" <<<"$log"
	first=$(sed -nE 's/^  first difference: record [0-9]+ \(SAMPLE\): field period: base ([0-9]+), work ([0-9]+)$/\1 \2/p' <<<"$log" | head -1)
	check "period + 1: the two values are one apart ($first)" \
		awk -v s="$first" 'BEGIN { split(s, v, " "); exit !(v[2] == v[1] + 1) }'
	check "period + 1: the output path's cost did not move" \
		test "$(grep -cE '^  per record, .* \+0\.00%$' <<<"$log")" = 2
fi
git -C "$tree" checkout -q -- core/sample.c

# 3. a cost change only: eight empty loop turns in perf_output_end
sed -i 's/^\(\t*\)perf_interleave(PI_OUTPUT_END_ENTER, handle->rb);/&\n\1for (volatile int ab_i = 0; ab_i < 8; ab_i++) { }/' \
	"$tree/core/ring_buffer.h"
if git -C "$tree" diff --quiet; then
	not_ok "the cost patch applies to core/ring_buffer.h" "PI_OUTPUT_END_ENTER not found"
else
	run_ab script
	figures3=$(base_figures)
	check "slower perf_output_end: exit 1 (got $rc)" test "$rc" = 1
	check "slower perf_output_end: 'no behavioural difference'" grep -q "no behavioural difference" <<<"$log"
	check "slower perf_output_end: both record costs are flagged over +1%" \
		test "$(grep -cE '^  per record, (forward|backward) \(output path\) +[0-9.]+ +[0-9.]+ +\+[0-9.]+%  > \+1%$' <<<"$log")" = 2
	check "slower perf_output_end: the FAIL line blames the cost" grep -q "^ab: FAIL: 0 outputs differ; cost" <<<"$log"
	check "callgrind repeats: the base figures of the three runs are equal ($figures1)" \
		test "$figures1" = "${figures2:-}" -a "$figures1" = "${figures3:-}" -a -n "$figures1"
fi

# 4. usage
log=$(make --no-print-directory -C "$tree" ab 2>&1); rc=$?
failed_saying() { [ "$rc" != 0 ] && grep -q "$1" <<<"$log"; }
check "make ab without BASE: fails (exit $rc) and says BASE=REV is required" failed_saying "BASE=REV is required"
log=$(cd "$tree" && scripts/ab.sh no-such-rev 2>&1); rc=$?
check "BASE=no-such-rev: exit 2 (got $rc)" test "$rc" = 2
check "BASE=no-such-rev: says it is not a revision" grep -q "'no-such-rev' is not a git revision" <<<"$log"
echo "1..$n"
