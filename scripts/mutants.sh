#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make mutants: does the ring-buffer harness find bugs? Each patch in
# fuzz/mutants/ is a realistic mistake in core/ring_buffer.c (or the copy
# loop in core/internal.h). One at a time, in a temporary copy of the
# tree (the real tree is never edited): apply it, build, run the
# ring-buffer unit tests, replay the seed corpus and fuzz with libFuzzer
# for MUTANT_TIME seconds. Then a table: mutant, caught by the tests,
# caught by the fuzzer, seconds until the fuzzer caught it.
#
#   scripts/mutants.sh [NAME...]      (MUTANT_TIME=30 by default)
#
# A patch that no longer applies is stale: an error (regenerate with
# fuzz/mutants/regen.py). A patch that says "Expect: stress-only" is not
# expected to be caught here. Exit status 1 if any other mutant survives.
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
time_limit=${MUTANT_TIME:-30}
work=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-mutants.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/tree

patches=()
if [ $# -gt 0 ]; then
	for n in "$@"; do patches+=("$srctree/fuzz/mutants/$n.patch"); done
else
	patches=("$srctree"/fuzz/mutants/*.patch)
fi

# the tree as it is (tracked and new files, not build/ or .git)
mkdir -p "$tree"
(cd "$srctree" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
	xargs -0 tar cf - 2>/dev/null) | tar xf - -C "$tree"
cp "$tree/core/ring_buffer.c" "$work/ring_buffer.c.orig"
cp "$tree/core/internal.h" "$work/internal.h.orig"

build() { # quietly: the unit tests and the libFuzzer harness
	make -s --no-print-directory -C "$tree" O="$tree/build/mut" -j2 \
		"$tree/build/mut/tests/core/test_ring_buffer" >"$work/build.log" 2>&1 &&
	make -s --no-print-directory -C "$tree" fuzz-build FUZZER=ringbuf ENGINE=libfuzzer >>"$work/build.log" 2>&1
}

printf 'building the unmutated tree ...\n'
if ! build; then
	tail -20 "$work/build.log"; echo "mutants: the unmutated tree does not build" >&2; exit 1
fi
if ! "$tree/build/mut/tests/core/test_ring_buffer" >/dev/null 2>&1; then
	echo "mutants: the ring-buffer tests fail on the unmutated tree" >&2; exit 1
fi

rows=() status=0
for p in "${patches[@]}"; do
	name=$(basename "$p" .patch)
	cp "$work/ring_buffer.c.orig" "$tree/core/ring_buffer.c"
	cp "$work/internal.h.orig" "$tree/core/internal.h"
	if [ ! -f "$p" ] || ! patch -s -p1 --dry-run -d "$tree" <"$p" >/dev/null 2>&1; then
		echo "mutants: $name: STALE, the patch no longer applies (fuzz/mutants/regen.py)" >&2
		rows+=("$name|STALE|STALE|-"); status=1; continue
	fi
	patch -s -p1 -d "$tree" <"$p"
	expect_stress=no
	grep -q 'Expect: stress-only' "$p" && expect_stress=yes
	printf '%s: building ...\n' "$name"
	if ! build; then
		tail -5 "$work/build.log"
		rows+=("$name|build fails|-|-"); continue
	fi
	tests=no
	timeout 300 "$tree/build/mut/tests/core/test_ring_buffer" >"$work/$name.tests.log" 2>&1 || tests=yes
	fuzz=no secs=-
	bin=$tree/build/fuzz/libfuzzer/fuzz_ringbuf
	mkdir -p "$work/$name.corpus" "$work/$name.art"
	start=$(date +%s)
	if ! (cd "$work/$name.art" && timeout $((time_limit + 60)) "$bin" -max_total_time="$time_limit" \
		-seed=1 -dict="$tree/fuzz/dict/ringbuf.dict" -artifact_prefix="$work/$name.art/" \
		"$work/$name.corpus" "$tree/fuzz/corpus/ringbuf") >"$work/$name.fuzz.log" 2>&1; then
		fuzz=yes secs=$(( $(date +%s) - start ))
		grep -m1 'INVARIANT BROKEN\|ERROR: AddressSanitizer\|runtime error' "$work/$name.fuzz.log" |
			cut -c1-150 | sed "s/^/  $name: /"
	fi
	rows+=("$name|$tests|$fuzz|$secs")
	if [ "$tests" = no ] && [ "$fuzz" = no ] && [ "$expect_stress" = no ]; then
		status=1
	fi
	if [ "$tests" = no ] && [ "$fuzz" = no ] && [ "$expect_stress" = yes ]; then
		rows[-1]="$name|no|no|- (needs the TSan stress test)"
	fi
done

printf '\n%-28s %-8s %-8s %s\n' "mutant" "tests" "fuzzer" "fuzzer s"
for r in "${rows[@]}"; do
	IFS='|' read -r n t f s <<<"$r"
	printf '%-28s %-8s %-8s %s\n' "$n" "$t" "$f" "$s"
done
exit $status
