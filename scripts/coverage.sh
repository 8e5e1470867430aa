#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make coverage: defconfig built with gcov (COVERAGE=1: --coverage -O0)
# under build/coverage, its tests run, the fuzz corpora replayed through
# the same instrumented library, then an lcov HTML report with branch
# coverage in out/coverage/ and the line and branch figures of each source
# directory (core/, model/, sim/, tools/, replay/, seeds/, cmd/) one by one.
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
obj=$srctree/build/coverage
out=$srctree/out/coverage
jobs=$(nproc 2>/dev/null || echo 2); [ "$jobs" -gt 2 ] && jobs=2	# a shared machine: -j2 at most
rc="--rc lcov_branch_coverage=1"
cd "$srctree" || exit 1

[ -f "$obj/.config" ] || make -s --no-print-directory O="$obj" defconfig >/dev/null || exit 2
make -s --no-print-directory O="$obj" COVERAGE=1 -j"$jobs" all || exit 2
find "$obj" -name '*.gcda' -delete
lcov -q $rc --zerocounters --directory "$obj" >/dev/null 2>&1

# Short stress runs: the threads add little coverage but must not be skipped.
STRESS_SECONDS=${STRESS_SECONDS:-1.5} "$srctree/scripts/run-tests.sh" "$obj"
test_status=$?

# The fuzz corpora, through the replay driver linked with this build's
# instrumented library (the fuzz build itself uses clang and its own objects).
coverage_replay_fuzz() {
	local src name bin wrap
	[ -f fuzz/replay_main.c ] && [ -x scripts/fuzz-replay.sh ] || {
		echo "coverage: no fuzz replay driver in this tree; corpora not replayed"
		return 0
	}
	mkdir -p "$obj/fuzz"
	for src in fuzz/fuzz_*.c; do
		[ -e "$src" ] || continue
		name=$(basename "$src" .c)
		bin=$obj/fuzz/$name
		# with a kernel tree, fuzz_lbr's oracle sees the MSR writes through
		# the linker, as fuzz/build.sh links it (ksrc/Makefile.ksrc)
		wrap=
		[ "$name" = fuzz_lbr ] && grep -q KSRC_UNIT_LBR "$obj/include/generated/ksrc.h" 2>/dev/null &&
			wrap=-Wl,--wrap=model_wrmsr
		gcc -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers \
			-I"$obj/include" -I"$srctree" -I"$srctree/include" -g --coverage -O0 \
			-o "$bin" "$src" fuzz/replay_main.c "$obj/libpmusim.a" $wrap \
			-lcyaml -lyaml -lelf -liberty -lnettle -lz -lm -lpthread || return 1
	done
	scripts/fuzz-replay.sh "$obj/fuzz" | tail -1
}
coverage_replay_fuzz
fuzz_status=$?

rm -rf "$out"
mkdir -p "$out"
lcov -q $rc --capture --directory "$obj" --base-directory "$srctree" \
	--output-file "$out/all.info" >/dev/null 2>"$out/lcov.log" || { cat "$out/lcov.log"; exit 1; }
lcov -q $rc --extract "$out/all.info" "$srctree/core/*" "$srctree/model/*" "$srctree/sim/*" \
	"$srctree/tools/*" "$srctree/replay/*" "$srctree/seeds/*" "$srctree/cmd/*" \
	--output-file "$out/pmusim.info" >/dev/null
genhtml -q $rc --branch-coverage --output-directory "$out" "$out/pmusim.info" >/dev/null 2>>"$out/lcov.log"

printf '%-8s %-28s %-28s\n' dir lines branches
for d in core model sim tools replay seeds cmd; do
	lcov -q $rc --extract "$out/pmusim.info" "$srctree/$d/*" --output-file "$out/$d.info" >/dev/null 2>&1
	sum=$(lcov $rc --summary "$out/$d.info" 2>&1)
	lines=$(sed -n 's/^ *lines\.*: *//p' <<<"$sum")
	branches=$(sed -n 's/^ *branches\.*: *//p' <<<"$sum")
	printf '%-8s %-28s %-28s\n' "$d/" "${lines:-none}" "${branches:-none}"
done
echo "report: out/coverage/index.html"
[ "$test_status" = 0 ] && [ "$fuzz_status" = 0 ]
