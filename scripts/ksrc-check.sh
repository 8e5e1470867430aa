#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make ksrc-check [KSRC=DIR]: the kernel's own kernel/events/ring_buffer.c
# of the tree DIR (default: the Debian linux-source-6.12, extracted into
# build/ksrc) against pmusim's core/, in two builds: with
# CONFIG_PERF_USE_VMALLOC (one data area) and without (separate pages).
# In each:
#   build      the kernel file builds against the shim; pmusim version names it
#   replay     every script of tests/replay/ringbuf in each of its modes, and
#              scripts from fixed seeds, on the model and on the kernel's file
#              (pmusim ringbuf --backend ksrc): the same output
#   cases      tests/ksrc/test_ring_buffer_cases: the ring-buffer cases of
#              tests/core/test_ring_buffer that need only the buffer's
#              interface (tests/lib/rb_cases.c), on the kernel's file
#   diff       tests/ksrc/test_ring_buffer_diff: the boundary inputs, every
#              fuzz_ringbuf corpus and crash input, and a short differential
#              fuzz run (KSRC_FUZZ_RUNS random schedules, default 2000) in
#              lockstep with core/, stopped at the first difference
# and once (arch/x86/events/intel/lbr.c does not depend on the variant),
# tests/ksrc/test_lbr_diff: the kernel's lbr.c in lockstep with
# core/x86/lbr.c (MSR writes, branch stack, hw_idx, task contexts), the
# task-ctx-data departure named:
#   lbr models    every CPU model x filter, CPU-wide and per task
#   lbr switches  the context-switch cases made on purpose
#   lbr corpus    every fuzz_lbr corpus and crash input
#   lbr random    KSRC_LBR_DIFF_RUNS (default 300) random programs
#   libperf    the tree's tools/lib/perf/mmap.c: pmusim ringbuf --reader
#              libperf against pmusim's readers on every script, mode and
#              seed, model and ksrc backends (tests/replay/test_ringbuf_libperf.sh),
#              and the real-thread stress test, libperf's readers included
#              (KSRC_STRESS_SECONDS, default 2.5, for its five runs)
# One TAP line per check, then one count line naming the kernel version.
# Exits 1 on any difference or failure. Without a tree every check is
# skipped with that reason and it exits 0.
#
# Environment: KSRC (the tree; empty: none), KSRC_CHECK_OUT (build
# directory, default build/ksrc-check), KSRC_FUZZ_RUNS, KSRC_SEEDS (the
# replay seeds, default 1..10).
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
out=${KSRC_CHECK_OUT:-$srctree/build/ksrc-check}
runs=${KSRC_FUZZ_RUNS:-2000}
seeds=${KSRC_SEEDS:-$(seq 1 10)}
ksrc=${KSRC-}
skip_msg="# skipped: no kernel tree (KSRC=DIR or linux-source-6.12)"
variants="vmalloc pages"
checks="build replay cases diff libperf"
lbr_checks="models_x_filters:models context_switch_cases:switches corpus_agrees:corpus random_programs:random"
n=0 passed=0 failed=0 skipped=0

ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }

if [ -z "$ksrc" ]; then
	for v in $variants; do
		for c in $checks; do
			n=$((n + 1)); skipped=$((skipped + 1))
			echo "ok $n - $c [$v] $skip_msg"
		done
	done
	for c in $lbr_checks; do
		n=$((n + 1)); skipped=$((skipped + 1))
		echo "ok $n - lbr ${c#*:} $skip_msg"
	done
	echo "1..$n"
	echo "ksrc-check: no kernel tree: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

. "$srctree/tests/replay/ringbuf_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=
for v in $variants; do
	o=$out/$v
	mkdir -p "$o"
	: >"$o/build.log"
	if [ ! -f "$o/.config" ]; then
		make -s --no-print-directory -C "$srctree" O="$o" defconfig >>"$o/build.log" 2>&1
		if [ "$v" = pages ]; then
			echo "# CONFIG_PERF_USE_VMALLOC is not set" >>"$o/.config"
			make -s --no-print-directory -C "$srctree" O="$o" olddefconfig >>"$o/build.log" 2>&1
		fi
	fi
	# A kernel tree's files may be older than objects of another tree: build them anew.
	rm -rf "$o/ksrc"
	if ! make -s --no-print-directory -C "$srctree" O="$o" KSRC="$ksrc" -j2 \
		"$o/pmusim" "$o/tests/ksrc/test_ring_buffer_diff" "$o/tests/ksrc/test_ring_buffer_cases" \
		"$o/tests/ksrc/test_lbr_diff" "$o/tests/stress/test_ringbuf_threads" \
		>>"$o/build.log" 2>&1; then
		tail -20 "$o/build.log" | sed 's/^/# /'
		# the reason on the failing line itself: the first error the build met
		why=$(grep -m1 -E 'error|\*\*\*' "$o/build.log" | cut -c1-300)
		not_ok "build [$v]: ${why:-the build failed} (all of it in $o/build.log)"
		not_ok "replay [$v]: not run, the build failed"
		not_ok "cases [$v]: not run, the build failed"
		not_ok "diff [$v]: not run, the build failed"
		not_ok "libperf [$v]: not run, the build failed"
		continue
	fi
	line=$("$o/pmusim" version | sed -n 's/^ksrc //p')
	version=${line%% *}
	if [ -n "$version" ] && [ "$version" != none ]; then
		ok "build [$v]: kernel/events/ring_buffer.c of $version ($ksrc)"
	else
		not_ok "build [$v]: pmusim version names no kernel tree ('$line')"
		continue
	fi

	# replay: model and ksrc print the same for every script in every mode
	bad=0 total=0
	export PMUSIM=$o/pmusim
	for s in $seeds; do
		awk -v seed="$s" -f "$srctree/tests/replay/ringbuf_gen.awk" >"$tmp/gen-$s.rb"
	done
	for g in "$srctree"/tests/replay/ringbuf/*.rb "$tmp"/gen-*.rb; do
		while read -r mode flags; do
			total=$((total + 1))
			# shellcheck disable=SC2086
			"$PMUSIM" ringbuf --backend model $flags "$g" >"$tmp/m" 2>&1; echo "exit $?" >>"$tmp/m"
			# shellcheck disable=SC2086
			"$PMUSIM" ringbuf --backend ksrc $flags "$g" >"$tmp/k" 2>&1; echo "exit $?" >>"$tmp/k"
			if ! diff -u "$tmp/m" "$tmp/k" >"$tmp/d"; then
				bad=$((bad + 1))
				echo "# $(basename "$g") [$mode]: model and ksrc differ"
				head -20 "$tmp/d" | sed 's/^/#   /'
			fi
		done < <(ringbuf_modes "$g")
	done
	if [ "$bad" = 0 ]; then
		ok "replay [$v]: $total script runs, model and the kernel's file print the same"
	else
		not_ok "replay [$v]: $bad of $total script runs differ"
	fi

	# cases: the unit cases core/ passes, on the kernel's file
	if (cd "$o" && CMOCKA_MESSAGE_OUTPUT=TAP ./tests/ksrc/test_ring_buffer_cases) >"$tmp/t" 2>&1; then
		ok "cases [$v]: $(grep -c '^ok ' "$tmp/t") ring-buffer cases of tests/lib/rb_cases.c pass on the kernel's file"
	else
		grep -v '^ok ' "$tmp/t" | tail -30 | sed 's/^/# /'
		not_ok "cases [$v]: the kernel's file fails ring-buffer cases core/ passes"
	fi

	# diff: the oracle in lockstep
	if (cd "$o" && PMUSIM_SRCTREE=$srctree KSRC_DIFF_RUNS=$runs CMOCKA_MESSAGE_OUTPUT=STDOUT \
		./tests/ksrc/test_ring_buffer_diff) >"$tmp/t" 2>&1; then
		ok "diff [$v]: $(grep '^# ' "$tmp/t" | sed 's/^# //' | paste -sd ';' | sed 's/;/; /g')"
	else
		grep -v '^\[ *\(RUN\|OK\) *\]' "$tmp/t" | tail -40 | sed 's/^/# /'
		not_ok "diff [$v]: core/ and the kernel's file differ"
	fi

	# libperf: the tree's reader against pmusim's, then on real threads
	PMUSIM_SRCTREE=$srctree PMUSIM_OBJTREE=$o RINGBUF_SEEDS="$seeds" \
		bash "$srctree/tests/replay/test_ringbuf_libperf.sh" >"$tmp/l" 2>&1
	lbad=$(grep -c '^not ok' "$tmp/l") ltotal=$(grep -c '^ok .* agree' "$tmp/l")
	(cd "$o" && STRESS_SECONDS=${KSRC_STRESS_SECONDS:-2.5} CMOCKA_MESSAGE_OUTPUT=STDOUT \
		timeout 300 ./tests/stress/test_ringbuf_threads) >"$tmp/s" 2>&1
	src=$?
	if [ "$lbad" = 0 ] && [ "$ltotal" -gt 0 ] && [ "$src" = 0 ]; then
		ok "libperf [$v]: tools/lib/perf/mmap.c and pmusim's readers agree on $ltotal script runs; $(grep -c '^# libperf-[a-z-]*: [0-9]* records/s' "$tmp/s") libperf stress runs hold"
	else
		grep -A12 '^not ok' "$tmp/l" | head -30 | sed 's/^/# /'
		[ "$src" = 0 ] || grep -v '^\[ *\(RUN\|OK\) *\]' "$tmp/s" | tail -15 | sed 's/^/# /'
		not_ok "libperf [$v]: $lbad of $((lbad + ltotal)) script runs differ, stress test exit $src"
	fi
done

# lbr: the kernel's lbr.c against core/x86/lbr.c, once (in the first build):
# one line per test of tests/ksrc/test_lbr_diff
o=$out/${variants%% *}
if [ ! -x "$o/tests/ksrc/test_lbr_diff" ]; then
	for c in $lbr_checks; do not_ok "lbr ${c#*:}: not run, the build failed"; done
else
	(cd "$o" && PMUSIM_SRCTREE=$srctree KSRC_LBR_DIFF_RUNS=${KSRC_LBR_DIFF_RUNS:-300} \
		CMOCKA_MESSAGE_OUTPUT=STDOUT ./tests/ksrc/test_lbr_diff) >"$tmp/t" 2>&1
	for c in $lbr_checks; do
		test=${c%%:*} label=${c#*:}
		# the test's own lines: from its RUN line to its verdict
		awk -v t="$test" '$0 ~ "^\\[ RUN +\\] " t "$" { on = 1; next }
			on && /^\[ +(OK|FAILED|ERROR|SKIPPED) +\]/ { print; exit } on' "$tmp/t" >"$tmp/one"
		if grep -q '^\[ *OK *\]' "$tmp/one"; then
			ok "lbr $label: $(grep '^# ' "$tmp/one" | grep -v '^# departure shown' | sed 's/^# //' | paste -sd ';' | sed 's/;/; /g')"
		else
			grep -v '^\[ *\(RUN\|OK\) *\]' "$tmp/one" | tail -20 | sed 's/^/# /'
			not_ok "lbr $label: core/x86/lbr.c and the kernel's lbr.c differ"
		fi
	done
fi
echo "1..$n"
echo "ksrc-check: kernel ${version:-?} ($ksrc): $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
