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
checks="build replay cases diff"
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
	if [ ! -f "$o/.config" ]; then
		make -s --no-print-directory -C "$srctree" O="$o" defconfig >/dev/null
		if [ "$v" = pages ]; then
			echo "# CONFIG_PERF_USE_VMALLOC is not set" >>"$o/.config"
			make -s --no-print-directory -C "$srctree" O="$o" olddefconfig >/dev/null 2>&1
		fi
	fi
	# A kernel tree's files may be older than objects of another tree: build them anew.
	rm -rf "$o/ksrc"
	if ! make -s --no-print-directory -C "$srctree" O="$o" KSRC="$ksrc" -j2 \
		"$o/pmusim" "$o/tests/ksrc/test_ring_buffer_diff" "$o/tests/ksrc/test_ring_buffer_cases" \
		>"$o/build.log" 2>&1; then
		tail -20 "$o/build.log" | sed 's/^/# /'
		not_ok "build [$v]: kernel/events/ring_buffer.c of $ksrc (see $o/build.log)"
		not_ok "replay [$v]: not run, the build failed"
		not_ok "cases [$v]: not run, the build failed"
		not_ok "diff [$v]: not run, the build failed"
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
done
echo "1..$n"
echo "ksrc-check: kernel ${version:-?} ($ksrc): $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
