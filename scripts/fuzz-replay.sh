#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make fuzz-replay: every harness's seed corpus (fuzz/corpus/NAME/) and
# saved crashes (fuzz/crashes/NAME/, regression inputs kept after a fix)
# through the ASan+UBSan replay driver in BINDIR, one TAP line per input,
# numbered as one stream, then one summary line.
set -u
bindir=$1
srctree=$(cd "$(dirname "$0")/.." && pwd)
cd "$srctree" || exit 1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
next=1 status=0 pass=0 fail=0
for src in fuzz/fuzz_*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c); name=${name#fuzz_}
	dirs=()
	for d in "fuzz/corpus/$name" "fuzz/crashes/$name"; do
		[ -d "$d" ] && dirs+=("$d")
	done
	if [ ! -d "fuzz/corpus/$name" ]; then
		echo "not ok $next - $name: no seed corpus fuzz/corpus/$name"
		next=$((next + 1)) fail=$((fail + 1)) status=1
		continue
	fi
	out=$(PMUSIM_TAP_FIRST=$next "$bindir/fuzz_$name" "${dirs[@]}" 2>&1) || status=1
	echo "$out" | grep -v '^# .*: [0-9]* passed, [0-9]* failed$'
	p=$(grep -cE '^ok [0-9]+' <<<"$out"); f=$(grep -cE '^not ok [0-9]+' <<<"$out")
	pass=$((pass + p)) fail=$((fail + f)) next=$((next + p + f))
done
echo "# fuzz-replay: $pass passed, $fail failed"
exit $status
