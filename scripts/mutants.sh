#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make mutants: do the tests and the fuzzers find bugs? Each patch in
# fuzz/mutants/ is a realistic mistake in the record path (core/
# ring_buffer.h, core/ring_buffer.c, the copy loop in core/internal.h),
# the overflow path (core/overflow.c), the ring-buffer readers (tools/
# lib/perf/mmap_read.[ch]) or the LBR read and per-task save and restore
# (core/x86/lbr.c); fuzz/mutants/regen.py writes them. Its header names
# the unit tests that should catch it ("Tests:") and the fuzz harness
# ("Fuzzer:"). One at a time, in a temporary copy of the tree (the real
# tree is never edited): apply it, build, run those tests, then fuzz
# with libFuzzer from the harness's seed corpus for at most MUTANT_TIME
# seconds. Then a table: mutant, caught by the tests, caught by the
# fuzzer, seconds until the fuzzer caught it (the seed corpus counts: 0-1
# s means a seed caught it), seconds the mutant took in all.
#
#   scripts/mutants.sh [NAME...]      (MUTANT_TIME=30 by default)
#   scripts/mutants.sh --build-only [NAME...]
#
# MUTANT_SEEDS=0 fuzzes from an empty corpus instead: how long the
# fuzzer takes to find each mistake on its own. MUTANTS_DIR takes the
# patches from another directory.
#
# Each harness first runs as long on the unmutated tree: one that fails
# there cannot tell a mutant from its own false alarm, so its verdicts
# are shown as "(unreliable)" and only the tests count for them.
#
# --build-only (make check, scripts/check.d/mutants.sh): apply every
# mutant and build the library, nothing run, as TAP; the tests and the
# harness the patch names must exist. A patch that no longer
# applies exactly (no fuzz; moved lines are fine) is stale: an error,
# here and in the full run (regenerate with fuzz/mutants/regen.py), as
# is a mutant that does not build. Exit status 1 on any error, and in the
# full run if any mutant survives both.
#
# The copy is of the files git tracks (and new ones it does not ignore);
# outside a git checkout (a tree from git archive or a tarball), of every
# file but build products, out/ and a configuration.
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
build_only=
if [ "${1:-}" = --build-only ]; then
	build_only=yes
	shift
fi
mutants_dir=${MUTANTS_DIR:-$srctree/fuzz/mutants}
time_limit=${MUTANT_TIME:-30}
seeds=yes
[ "${MUTANT_SEEDS:-1}" = 0 ] && seeds=
work=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-mutants.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/tree

patches=()
if [ $# -gt 0 ]; then
	for n in "$@"; do patches+=("$mutants_dir/$n.patch"); done
else
	patches=("$mutants_dir"/*.patch)
fi
if [ ! -e "${patches[0]}" ] && [ $# = 0 ]; then
	echo "mutants: no patches in $mutants_dir" >&2
	exit 1
fi

# the tree as it is, not its build products
copy_tree() {
	mkdir -p "$tree"
	# (a tree unpacked inside another checkout is not that checkout)
	if [ "$(git -C "$srctree" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$srctree" && pwd -P)" ]; then
		(cd "$srctree" && git ls-files -co --exclude-standard -z | grep -zv '^build/' |
			xargs -0 tar cf - 2>/dev/null) | tar xf - -C "$tree"
	else
		# what .gitignore lists, by hand: no git to read it
		(cd "$srctree" && find . \( -path ./.git -o -path ./build -o -path ./out \
			-o -path ./include/generated -o -path ./include/config \) -prune -o \
			-type f ! -name '*.o' ! -name '*.d' ! -name '*.gcda' ! -name '*.gcno' \
			! -path './.config*' ! -path ./pmusim ! -path ./libpmusim.a -print0 |
			xargs -0 tar cf - 2>/dev/null) | tar xf - -C "$tree"
	fi
	[ -f "$tree/Makefile" ] || { echo "mutants: could not copy $srctree" >&2; exit 1; }
}
copy_tree

header() { # PATCH FIELD: the value of "FIELD: ..." in the patch's header
	sed -n "/^--- /q; s/^$2: //p" "$1"
}

patched_files() { # PATCH: the files it changes
	sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1"
}

# The unmutated copy of every file a mutant changes, to put back between mutants.
mkdir -p "$work/orig"
for p in "${patches[@]}"; do
	[ -f "$p" ] || continue
	for f in $(patched_files "$p"); do
		[ -f "$tree/$f" ] && [ ! -e "$work/orig/$f" ] &&
			mkdir -p "$(dirname "$work/orig/$f")" && cp -p "$tree/$f" "$work/orig/$f"
	done
done
restore() {
	(cd "$work/orig" && find . -type f -print0 | xargs -0 -r -I{} cp {} "$tree/{}")
}
# The same, keeping the unmutated files' dates: --build-only puts the
# unmutated objects back too, which are newer than those dates and so up
# to date for them; each mutant then rebuilds only what its patch touches.
restore_dated() {
	(cd "$work/orig" && find . -type f -print0 | xargs -0 -r -I{} cp -p {} "$tree/{}")
}

build_tests() { # TESTS: quietly, the unit tests
	local t targets=()
	for t in $1; do targets+=("$tree/build/mut/$t"); done
	make -s --no-print-directory -C "$tree" O="$tree/build/mut" -j2 "${targets[@]}" \
		>"$work/build.log" 2>&1
}

build_lib() { # quietly, the library every mutated file is part of
	# --build-only: -O2 (its warnings are errors under -Werror) but no
	# debug info, about a quarter of the compiler's time: nothing runs
	# (a CFLAGS of the caller's own still goes)
	local flags=()
	[ -n "$build_only" ] && flags=(CFLAGS="${CFLAGS:--O2}")
	make -s --no-print-directory -C "$tree" O="$tree/build/mut" -j2 "${flags[@]}" lib >"$work/build.log" 2>&1
}

tests_exist() { # TESTS: every one a test program's source (tests/DIR/test_NAME.c)
	local t
	[ -n "$1" ] || return 1
	for t in $1; do
		case $t in tests/*/test_*) ;; *) return 1 ;; esac
		[ -f "$tree/$t.c" ] || return 1
	done
}

build() { # TESTS FUZZER: quietly, the unit tests and the libFuzzer harness
	build_tests "$1" &&
	make -s --no-print-directory -C "$tree" fuzz-build FUZZER="$2" ENGINE=libfuzzer \
		>>"$work/build.log" 2>&1
}

run_tests() { # TESTS: 0 if every one passes; else the first to fail in $work/failed
	local t
	for t in $1; do
		timeout 300 "$tree/build/mut/$t" || { basename "$t" >"$work/failed"; return 1; }
	done
}

fuzz_run() { # FUZZER LOGNAME: 0 if the harness ran MUTANT_TIME seconds without a failure
	local fz=$1 name=$2 bin=$tree/build/fuzz/libfuzzer/fuzz_$1
	rm -rf "$work/$name.corpus" "$work/$name.art"
	mkdir -p "$work/$name.corpus" "$work/$name.art"
	(cd "$work/$name.art" && timeout $((time_limit + 60)) "$bin" -max_total_time="$time_limit" \
		-seed=1 -dict="$tree/fuzz/dict/$fz.dict" -artifact_prefix="$work/$name.art/" \
		"$work/$name.corpus" ${seeds:+"$tree/fuzz/corpus/$fz"}) >"$work/$name.fuzz.log" 2>&1
}

fuzz_why() { # NAME: the failure's first line
	grep -m1 'INVARIANT BROKEN\|ERROR: AddressSanitizer\|runtime error\|ERROR: libFuzzer' \
		"$work/$1.fuzz.log" | cut -c1-150 | sed "s/^/  $1: /"
}

# A patch that applies exactly: its context unchanged, lines may have moved.
applies() { # PATCH
	[ -f "$1" ] && patch -s -p1 --fuzz=0 --dry-run -d "$tree" <"$1" >"$work/patch.log" 2>&1
}

all_tests=$(for p in "${patches[@]}"; do [ -f "$p" ] && header "$p" Tests; done |
	tr ' ' '\n' | sort -u | xargs)
all_fuzzers=$(for p in "${patches[@]}"; do [ -f "$p" ] && header "$p" Fuzzer; done | sort -u)

if [ -n "$build_only" ]; then
	n=0 status=0
	t() { # RESULT TEXT
		n=$((n + 1))
		if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; status=1; fi
	}
	build_lib; rc=$?
	[ "$rc" = 0 ] || tail -20 "$work/build.log" | sed 's/^/# /'
	t "$rc" "the unmutated tree builds"
	[ "$rc" = 0 ] || { echo "1..$n"; exit 1; }
	# (the objects' paths are in their .d files: they come back to build/mut)
	cp -a "$tree/build/mut" "$work/unmutated-objs"
	for p in "${patches[@]}"; do
		name=$(basename "$p" .patch)
		if ! applies "$p"; then
			[ -f "$p" ] || echo "no such patch: $p" >"$work/patch.log"
			sed 's/^/# /' "$work/patch.log" | head -5
			t 1 "mutant $name: STALE, the patch no longer applies (fuzz/mutants/regen.py)"
			continue
		fi
		tests_of=$(header "$p" Tests) fz=$(header "$p" Fuzzer)
		if ! tests_exist "$tests_of" || [ ! -f "$tree/fuzz/fuzz_$fz.c" ]; then
			t 1 "mutant $name: the patch names no test program (Tests: $tests_of) or no harness (Fuzzer: $fz)"
			continue
		fi
		# make rebuilds what depends on the files the patch touched
		# (newer than the objects), and only that; then the unmutated
		# objects and sources come back with their dates.
		patch -s -p1 -d "$tree" <"$p"
		build_lib; rc=$?
		[ "$rc" = 0 ] || grep -m5 'error' "$work/build.log" | sed 's/^/# /'
		t "$rc" "mutant $name applies and builds"
		restore_dated
		rm -rf "$tree/build/mut" && cp -a "$work/unmutated-objs" "$tree/build/mut"
	done
	echo "1..$n"
	exit $status
fi

printf 'building the unmutated tree ...\n'
for fz in $all_fuzzers; do
	if ! build "$all_tests" "$fz"; then
		tail -20 "$work/build.log"; echo "mutants: the unmutated tree does not build" >&2; exit 1
	fi
done
if ! run_tests "$all_tests" >/dev/null 2>&1; then
	echo "mutants: the tests ($all_tests) fail on the unmutated tree" >&2; exit 1
fi

# Each harness on the unmutated tree, as long as on a mutant.
unreliable=" "
for fz in $all_fuzzers; do
	printf 'fuzz_%s on the unmutated tree, %s s ...\n' "$fz" "$time_limit"
	start=$(date +%s)
	if ! fuzz_run "$fz" "unmutated-$fz"; then
		echo "mutants: fuzz_$fz fails on the unmutated tree after $(( $(date +%s) - start )) s;" \
			"its verdicts below are unreliable:" >&2
		fuzz_why "unmutated-$fz" >&2
		unreliable="$unreliable$fz "
	fi
done

rows=() status=0
for p in "${patches[@]}"; do
	name=$(basename "$p" .patch)
	started=$(date +%s)
	restore
	if ! applies "$p"; then
		echo "mutants: $name: STALE, the patch no longer applies (fuzz/mutants/regen.py)" >&2
		head -3 "$work/patch.log" >&2
		rows+=("$name|STALE|STALE|-|-|-"); status=1; continue
	fi
	patch -s -p1 -d "$tree" <"$p"
	tests_of=$(header "$p" Tests) fz=$(header "$p" Fuzzer)
	printf '%s: building ...\n' "$name"
	if ! build "$tests_of" "$fz"; then
		tail -5 "$work/build.log"
		rows+=("$name|build fails|-|-|-|-"); status=1; continue
	fi
	tests=no
	run_tests "$tests_of" >"$work/$name.tests.log" 2>&1 || tests="yes ($(cat "$work/failed"))"
	fuzz=no secs=-
	start=$(date +%s)
	if ! fuzz_run "$fz" "$name"; then
		fuzz=yes secs=$(( $(date +%s) - start ))
		fuzz_why "$name"
	fi
	case $unreliable in *" $fz "*) fuzz="$fuzz (unreliable)" ;; esac
	rows+=("$name|$tests|$fuzz|$secs|$fz|$(( $(date +%s) - started ))")
	if [ "$tests" = no ] && [ "$fuzz" != yes ]; then
		status=1
	fi
done
restore

printf '\n%-34s %-28s %-28s %-9s %s\n' "mutant" "tests" "fuzzer" "fuzzer s" "total s"
for r in "${rows[@]}"; do
	IFS='|' read -r n t f s z all <<<"$r"
	[ -n "${z:-}" ] && [ "$z" != - ] && f="$f ($z)"
	printf '%-34s %-28s %-28s %-9s %s\n' "$n" "$t" "$f" "$s" "${all:--}"
done
# the kernel's own files: fuzz/mutants/ksrc/*.patch (scripts/ksrc-mutants.sh)
[ $# -eq 0 ] && { "$srctree/scripts/ksrc-mutants.sh" || status=1; }
exit $status
