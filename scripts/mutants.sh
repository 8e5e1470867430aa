#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make mutants: do the tests and the fuzzers find bugs? Each patch in
# fuzz/mutants/ is a realistic mistake in the ring buffer (core/
# ring_buffer.c, the copy loop in core/internal.h) or the overflow path
# (core/overflow.c). Its header names the unit tests that should catch
# it ("Tests:") and the fuzz harness ("Fuzzer:"). One at a time, in a
# temporary copy of the tree (the real tree is never edited): apply it,
# build, run those tests, then fuzz with libFuzzer from the harness's
# seed corpus for at most MUTANT_TIME seconds. Then a table: mutant,
# caught by the tests, caught by the fuzzer, seconds until the fuzzer
# caught it (the seed corpus counts: 0-1 s means a seed caught it).
#
#   scripts/mutants.sh [NAME...]      (MUTANT_TIME=30 by default)
#
# MUTANT_SEEDS=0 fuzzes from an empty corpus instead: how long the
# fuzzer takes to find each mistake on its own.
#
# A patch that no longer applies is stale: an error (regenerate with
# fuzz/mutants/regen.py). Exit status 1 if any mutant survives both.
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
time_limit=${MUTANT_TIME:-30}
seeds=yes
[ "${MUTANT_SEEDS:-1}" = 0 ] && seeds=
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
mutable=(core/ring_buffer.c core/internal.h core/overflow.c)
for f in "${mutable[@]}"; do cp "$tree/$f" "$work/$(basename "$f").orig"; done

header() { # PATCH FIELD: the value of "FIELD: ..." in the patch's header
	sed -n "/^--- /q; s/^$2: //p" "$1"
}

build() { # TESTS FUZZER: quietly, the unit tests and the libFuzzer harness
	local t targets=()
	for t in $1; do targets+=("$tree/build/mut/$t"); done
	make -s --no-print-directory -C "$tree" O="$tree/build/mut" -j2 "${targets[@]}" \
		>"$work/build.log" 2>&1 &&
	make -s --no-print-directory -C "$tree" fuzz-build FUZZER="$2" ENGINE=libfuzzer \
		>>"$work/build.log" 2>&1
}

run_tests() { # TESTS: 0 if every one passes
	local t
	for t in $1; do
		timeout 300 "$tree/build/mut/$t" || return 1
	done
}

printf 'building the unmutated tree ...\n'
all_tests=$(for p in "${patches[@]}"; do header "$p" Tests; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
all_fuzzers=$(for p in "${patches[@]}"; do header "$p" Fuzzer; done | sort -u)
for fz in $all_fuzzers; do
	if ! build "$all_tests" "$fz"; then
		tail -20 "$work/build.log"; echo "mutants: the unmutated tree does not build" >&2; exit 1
	fi
done
if ! run_tests "$all_tests" >/dev/null 2>&1; then
	echo "mutants: the tests ($all_tests) fail on the unmutated tree" >&2; exit 1
fi

rows=() status=0
for p in "${patches[@]}"; do
	name=$(basename "$p" .patch)
	for f in "${mutable[@]}"; do cp "$work/$(basename "$f").orig" "$tree/$f"; done
	if [ ! -f "$p" ] || ! patch -s -p1 --dry-run -d "$tree" <"$p" >/dev/null 2>&1; then
		echo "mutants: $name: STALE, the patch no longer applies (fuzz/mutants/regen.py)" >&2
		rows+=("$name|STALE|STALE|-"); status=1; continue
	fi
	patch -s -p1 -d "$tree" <"$p"
	tests_of=$(header "$p" Tests) fz=$(header "$p" Fuzzer)
	printf '%s: building ...\n' "$name"
	if ! build "$tests_of" "$fz"; then
		tail -5 "$work/build.log"
		rows+=("$name|build fails|-|-"); status=1; continue
	fi
	tests=no
	run_tests "$tests_of" >"$work/$name.tests.log" 2>&1 || tests=yes
	fuzz=no secs=-
	bin=$tree/build/fuzz/libfuzzer/fuzz_$fz
	mkdir -p "$work/$name.corpus" "$work/$name.art"
	start=$(date +%s)
	if ! (cd "$work/$name.art" && timeout $((time_limit + 60)) "$bin" -max_total_time="$time_limit" \
		-seed=1 -dict="$tree/fuzz/dict/$fz.dict" -artifact_prefix="$work/$name.art/" \
		"$work/$name.corpus" ${seeds:+"$tree/fuzz/corpus/$fz"}) >"$work/$name.fuzz.log" 2>&1; then
		fuzz=yes secs=$(( $(date +%s) - start ))
		grep -m1 'INVARIANT BROKEN\|ERROR: AddressSanitizer\|runtime error' "$work/$name.fuzz.log" |
			cut -c1-150 | sed "s/^/  $name: /"
	fi
	rows+=("$name|$tests|$fuzz|$secs|$fz")
	if [ "$tests" = no ] && [ "$fuzz" = no ]; then
		status=1
	fi
done

printf '\n%-34s %-8s %-16s %s\n' "mutant" "tests" "fuzzer" "fuzzer s"
for r in "${rows[@]}"; do
	IFS='|' read -r n t f s z <<<"$r"
	[ -n "${z:-}" ] && f="$f ($z)"
	printf '%-34s %-8s %-16s %s\n' "$n" "$t" "$f" "$s"
done
# the kernel's own files: fuzz/mutants/ksrc/*.patch (scripts/ksrc-mutants.sh)
[ $# -eq 0 ] && { "$srctree/scripts/ksrc-mutants.sh" || status=1; }
exit $status
