#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make ksrc-check [KSRC=DIR]: the kernel's own files of the tree DIR
# (default: the Debian linux-source-6.12, extracted into build/ksrc)
# against pmusim's core/, in two builds: with CONFIG_PERF_USE_VMALLOC (one
# data area) and without (separate pages). Each unit (ksrc/Makefile.ksrc:
# kernel/events/ring_buffer.c, arch/x86/events/intel/lbr.c,
# tools/lib/perf/mmap.c) is built on its own first, then pmusim and the
# tests with the units that built. In each build:
#   build UNIT  the unit's kernel file builds against the shim, with the
#               kernel's warnings (counted) and its link checked (no name
#               left for core/ to define); a failure shows the first error
#   build       pmusim with those units: pmusim version names this tree
#               and those units
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
#   libperf    the tree's tools/lib/perf/mmap.c: pmusim ringbuf --reader
#              libperf against pmusim's readers on every script, mode and
#              seed, model and ksrc backends (tests/replay/test_ringbuf_libperf.sh),
#              and the real-thread stress test, libperf's readers included
#              (KSRC_STRESS_SECONDS, default 2.5, for its five runs)
#   core       tests/ksrc/test_core: the tree's kernel/events/core.c
#              with its ring_buffer.c (the core unit): perf_event_open()'s
#              body on valid and invalid attrs, perf_mmap(), and PMIs of the
#              model PMU through the model driver into the real
#              __perf_event_overflow and the ring buffer
#   core-diff  tests/ksrc/test_core_diff: the same against core/'s port, in
#              lockstep on two model CPUs: errnos of valid and invalid
#              attrs, ring-buffer bytes, count and periods after each
#              block of PMIs, throttling and the tick's unthrottle, freq
#              mode, the ioctls and event_limit, a group throttled (the
#              no-software-pmu departure named, group-throttle where the
#              tree's core.c has v6.16's group throttle), and the seeds
#              core/ has by its .config (ksrc/examples/core-*.patch; on a
#              tree without one, its departure named: alt-sample-period,
#              hw-time, task-ctx-data)
# and once (arch/x86/events/intel/lbr.c does not depend on the variant),
# tests/ksrc/test_lbr_diff: the kernel's lbr.c in lockstep with
# core/x86/lbr.c (MSR writes, branch stack, hw_idx, task contexts), the
# task-ctx-data departure named:
#   lbr models    every CPU model x filter, CPU-wide and per task
#   lbr switches  the context-switch cases made on purpose
#   lbr corpus    every fuzz_lbr corpus and crash input
#   lbr random    KSRC_LBR_DIFF_RUNS (default 300) random programs
# A check runs only a program this run built, from this tree: every
# program is removed before the build, and must be newer than the run's
# start and name the tree to be run at all. A unit that did not build
# fails its checks ("not run"); a unit whose file the tree lacks is one
# skip line, and has no checks.
# One TAP line per check, then one count line naming the kernel version.
# Exits 1 on any difference or failure. Without a tree every check is
# skipped with that reason and it exits 0. A KSRC that is no kernel tree:
# one line, exit 2.
#
# Environment: KSRC (the tree; empty: none), KSRC_CHECK_OUT (build
# directory, default build/ksrc-check), KSRC_FUZZ_RUNS, KSRC_SEEDS (the
# replay seeds, default 1..10), KSRC_VARIANTS (default "vmalloc pages"),
# KSRC_CHECK_UNITS (default every unit: the units built and checked, each
# other one a skip line; scripts/ksrc-mutants.sh runs a core.c mutant on
# the core unit alone).
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
out=${KSRC_CHECK_OUT:-$srctree/build/ksrc-check}
runs=${KSRC_FUZZ_RUNS:-2000}
seeds=${KSRC_SEEDS:-$(seq 1 10)}
ksrc=${KSRC-}
skip_msg="# skipped: no kernel tree (KSRC=DIR or linux-source-6.12)"
variants=${KSRC_VARIANTS:-vmalloc pages}
checks="build replay cases diff libperf core core-diff"
lbr_checks="models_x_filters:models context_switch_cases:switches corpus_agrees:corpus random_programs:random"
n=0 passed=0 failed=0 skipped=0

ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); skipped=$((skipped + 1)); echo "ok $n - $*"; }

if [ -z "$ksrc" ]; then
	for v in $variants; do
		for c in $checks; do
			skip "$c [$v] $skip_msg"
		done
	done
	for c in $lbr_checks; do
		skip "lbr ${c#*:} $skip_msg"
	done
	echo "1..$n"
	echo "ksrc-check: no kernel tree: $passed passed, $failed failed, $skipped skipped"
	exit 0
fi

# A kernel tree: a top Makefile with its version. (The Debian tree is
# extracted by the build, its tarball's Makefile first.)
ksrc=$(cd "$ksrc" 2>/dev/null && pwd) || {
	echo "ksrc-check: $KSRC: not a kernel tree (no such directory)" >&2
	exit 2
}
if [ "$ksrc" = "$srctree/build/ksrc/linux-source-6.12" ] && [ ! -f "$ksrc/Makefile" ]; then
	make -s --no-print-directory -C "$srctree" KSRC="$ksrc" "$ksrc/Makefile" >/dev/null 2>&1
fi
if ! version=$("$srctree/ksrc/gen-header.sh" version "$ksrc" 2>&1); then
	echo "ksrc-check: ${version#ksrc: }" >&2
	exit 2
fi

# The units and their files; a unit the tree lacks is one skip line.
units=() present=()
while read -r u file; do
	units+=("$u")
	eval "file_$u=\$file"
done < <(make -s --no-print-directory -C "$srctree" KSRC= ksrc-units)
if [ "${#units[@]}" = 0 ]; then
	echo "ksrc-check: make ksrc-units named no unit" >&2
	exit 2
fi
# the Debian tree's files come out of its tarball with the build
[ "$ksrc" = "$srctree/build/ksrc/linux-source-6.12" ] &&
	make -s --no-print-directory -C "$srctree" KSRC="$ksrc" \
		$(make -s --no-print-directory -C "$srctree" KSRC= ksrc-files | tr ' ' '\n' | sed "s|^|$ksrc/|") \
		>/dev/null 2>&1
for u in "${units[@]}"; do
	f=$(eval "echo \$file_$u")
	if [ -n "${KSRC_CHECK_UNITS:-}" ] && [[ " $KSRC_CHECK_UNITS " != *" $u "* ]]; then
		skip "$u # SKIP not asked for (KSRC_CHECK_UNITS=$KSRC_CHECK_UNITS): the unit is not built, none of its checks run"
	elif [ -f "$ksrc/$f" ]; then
		present+=("$u")
	else
		skip "$u # SKIP the tree has no $f: the unit is not built, none of its checks run"
	fi
done
has() { # UNIT LIST...: is UNIT in LIST
	local u=$1
	shift
	case " $* " in *" $u "*) return 0 ;; esac
	return 1
}

. "$srctree/tests/replay/ringbuf_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every program a check runs must be newer than this (and was removed before the build).
touch "$tmp/start"
sleep 0.01
fresh() { [ -x "$1" ] && [ "$1" -nt "$tmp/start" ]; }

# The first error of a build log, on one line, starting with the file that
# failed: the compiler's or the link check's, the tree's path taken off;
# the kernel file's first when it is one of them (make -j2 builds the
# unit's files side by side).
first_error() { # LOG [KERNEL_FILE]
	local e=
	[ -n "${2:-}" ] && e=$(grep -m1 -E "^($ksrc/)?$2:[0-9:]* (fatal )?error: |: error: $2 " "$1")
	[ -n "$e" ] || e=$(grep -m1 -E '(^|: )(fatal )?error: ' "$1") || e=$(grep -m1 -E '\*\*\*' "$1")
	e=${e//$ksrc\//}
	e=${e//$srctree\//}
	echo "${e:-the build failed}" | cut -c1-400
}

lbr_built=""
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
	# Nothing of an earlier run is run: its units (another tree's files may
	# be older than them) and every program a check runs are built anew.
	rm -rf "$o/ksrc" "$o/tests/ksrc" "$o/libpmusim.a" "$o/pmusim" "$o/tests/stress/test_ringbuf_threads"

	# each unit on its own: what failed is named, and the others go on
	built=()
	for u in "${present[@]}"; do
		f=$(eval "echo \$file_$u")
		log=$o/build-$u.log
		if make -s --no-print-directory -C "$srctree" O="$o" KSRC="$ksrc" -j2 "$o/ksrc/$u.o" >"$log" 2>&1 &&
			[ -f "$o/ksrc/$u.o" ]; then
			w=$(grep -c ': warning: ' "$log")
			ok "build $u [$v]: $f of $version builds against the shim and links to nothing of core/ ($w kernel warnings)"
			[ "$w" = 0 ] || grep -m3 ': warning: ' "$log" | sed "s|$ksrc/||; s/^/# /"
			built+=("$u")
		else
			grep -E 'error|\*\*\*' "$log" | head -10 | sed "s|$ksrc/||; s|$srctree/||; s/^/# /"
			not_ok "build $u [$v]: $(first_error "$log" "$f") (all of it in $log)"
		fi
	done

	# pmusim and the tests with those units, and nothing else of the tree
	if ! make -s --no-print-directory -C "$srctree" O="$o" KSRC="$ksrc" KSRC_UNITS="${built[*]}" -j2 \
		"$o/pmusim" "$o/tests/ksrc/test_ring_buffer_diff" "$o/tests/ksrc/test_ring_buffer_cases" \
		"$o/tests/ksrc/test_lbr_diff" "$o/tests/stress/test_ringbuf_threads" \
		"$o/tests/ksrc/test_core" "$o/tests/ksrc/test_core_diff" \
		>>"$o/build.log" 2>&1; then
		grep -E 'error|\*\*\*' "$o/build.log" | head -10 | sed 's/^/# /'
		not_ok "build [$v]: pmusim with the units ${built[*]:-(none)}: $(first_error "$o/build.log") (all of it in $o/build.log)"
		built=()
	elif ! fresh "$o/pmusim"; then
		not_ok "build [$v]: $o/pmusim was not built by this run"
		built=()
	else
		line=$("$o/pmusim" version | sed -n 's/^ksrc //p')
		linked=$("$o/pmusim" version | sed -n 's/^ksrc_units //p')
		if [ "$line" != "$version $ksrc" ] || [ "$linked" != "${built[*]:-none}" ]; then
			not_ok "build [$v]: pmusim version names 'ksrc $line', units '$linked', not $version $ksrc with ${built[*]:-no unit}"
			built=()
		else
			ok "build [$v]: pmusim with the units ${built[*]:-(none)} of $version ($ksrc)"
		fi
	fi
	has lbr "${built[@]}" && [ -z "$lbr_built" ] && lbr_built=$o

	# not_run CHECK UNIT: a check whose unit did not build (or pmusim did not)
	not_run() {
		local c=$1 u=$2 f
		f=$(eval "echo \$file_$u")
		not_ok "$c [$v]: not run, $f did not build in this run"
	}
	export PMUSIM=$o/pmusim

	# replay: model and ksrc print the same for every script in every mode
	if has ring_buffer "${present[@]}"; then
		if ! has ring_buffer "${built[@]}"; then
			not_run replay ring_buffer
			not_run cases ring_buffer
			not_run diff ring_buffer
		else
			bad=0 total=0
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
			t=$o/tests/ksrc/test_ring_buffer_cases
			if ! fresh "$t"; then
				not_ok "cases [$v]: not run, $t was not built by this run"
			elif (cd "$o" && CMOCKA_MESSAGE_OUTPUT=TAP "$t") >"$tmp/t" 2>&1 &&
				grep -q "^# kernel/events/ring_buffer.c of $version\$" "$tmp/t"; then
				ok "cases [$v]: $(grep -c '^ok ' "$tmp/t") ring-buffer cases of tests/lib/rb_cases.c pass on the kernel's file"
			else
				grep -v '^ok ' "$tmp/t" | tail -30 | sed 's/^/# /'
				not_ok "cases [$v]: the kernel's file fails ring-buffer cases core/ passes"
			fi

			# diff: the oracle in lockstep
			t=$o/tests/ksrc/test_ring_buffer_diff
			if ! fresh "$t"; then
				not_ok "diff [$v]: not run, $t was not built by this run"
			elif (cd "$o" && PMUSIM_SRCTREE=$srctree KSRC_DIFF_RUNS=$runs CMOCKA_MESSAGE_OUTPUT=STDOUT \
				"$t") >"$tmp/t" 2>&1 && grep -q "(kernel $version)" "$tmp/t"; then
				ok "diff [$v]: $(grep '^# ' "$tmp/t" | sed 's/^# //' | paste -sd ';' | sed 's/;/; /g')"
			else
				grep -v '^\[ *\(RUN\|OK\) *\]' "$tmp/t" | tail -40 | sed 's/^/# /'
				not_ok "diff [$v]: core/ and the kernel's file differ"
			fi
		fi
	fi

	# libperf: the tree's reader against pmusim's, then on real threads
	if has libperf_mmap "${present[@]}"; then
		t=$o/tests/stress/test_ringbuf_threads
		if ! has libperf_mmap "${built[@]}"; then
			not_run libperf libperf_mmap
		elif ! fresh "$t"; then
			not_ok "libperf [$v]: not run, $t was not built by this run"
		else
			PMUSIM_SRCTREE=$srctree PMUSIM_OBJTREE=$o RINGBUF_SEEDS="$seeds" \
				bash "$srctree/tests/replay/test_ringbuf_libperf.sh" >"$tmp/l" 2>&1
			lbad=$(grep -c '^not ok' "$tmp/l") ltotal=$(grep -c '^ok .* agree' "$tmp/l")
			(cd "$o" && STRESS_SECONDS=${KSRC_STRESS_SECONDS:-2.5} CMOCKA_MESSAGE_OUTPUT=STDOUT \
				timeout 300 "$t") >"$tmp/s" 2>&1
			src=$?
			lstress=$(grep -c '^# libperf-[a-z-]*: [0-9]* records/s' "$tmp/s")
			if [ "$lbad" = 0 ] && [ "$ltotal" -gt 0 ] && [ "$src" = 0 ] && [ "$lstress" -gt 0 ]; then
				ok "libperf [$v]: tools/lib/perf/mmap.c and pmusim's readers agree on $ltotal script runs; $lstress libperf stress runs hold"
			else
				grep -A12 '^not ok' "$tmp/l" | head -30 | sed 's/^/# /'
				[ "$src" = 0 ] || grep -v '^\[ *\(RUN\|OK\) *\]' "$tmp/s" | tail -15 | sed 's/^/# /'
				not_ok "libperf [$v]: $lbad of $((lbad + ltotal)) script runs differ, $lstress libperf stress runs, stress test exit $src"
			fi
		fi
	fi

	# core: the kernel's core.c, end to end on the model PMU, then against core/
	if has core "${present[@]}"; then
		for t in test_core test_core_diff; do
			c=core
			[ "$t" = test_core_diff ] && c=core-diff
			t=$o/tests/ksrc/$t
			if ! has core "${built[@]}"; then
				not_run "$c" core
			elif ! fresh "$t"; then
				not_ok "$c [$v]: not run, $t was not built by this run"
			elif (cd "$o" && CMOCKA_MESSAGE_OUTPUT=STDOUT "$t") >"$tmp/c" 2>&1 &&
				grep -q "^# kernel/events/core.c of $version\( against core/\)\{0,1\}\$" "$tmp/c"; then
				ok "$c [$v]: $(grep -c '^\[ *OK *\]' "$tmp/c") tests pass; $(grep '^# [0-9a-z]' "$tmp/c" | grep -v '^# kernel/' | sed 's/^# //' | paste -sd ';' | sed 's/;/; /g')"
			else
				grep -v '^\[ *\(RUN\|OK\) *\]' "$tmp/c" | tail -20 | sed 's/^/# /'
				not_ok "$c [$v]: the kernel's core.c fails $(basename "$t")"
			fi
		done
	fi
done

# lbr: the kernel's lbr.c against core/x86/lbr.c, once (in the first build
# that has it): one line per test of tests/ksrc/test_lbr_diff
if has lbr "${present[@]}"; then
	o=$lbr_built t=$lbr_built/tests/ksrc/test_lbr_diff
	if [ -z "$o" ]; then
		for c in $lbr_checks; do not_ok "lbr ${c#*:}: not run, $file_lbr did not build in this run"; done
	elif ! fresh "$t"; then
		for c in $lbr_checks; do not_ok "lbr ${c#*:}: not run, $t was not built by this run"; done
	else
		(cd "$o" && PMUSIM_SRCTREE=$srctree KSRC_LBR_DIFF_RUNS=${KSRC_LBR_DIFF_RUNS:-300} \
			CMOCKA_MESSAGE_OUTPUT=STDOUT "$t") >"$tmp/t" 2>&1
		for c in $lbr_checks; do
			test=${c%%:*} label=${c#*:}
			# the test's own lines: from its RUN line to its verdict
			awk -v t="$test" '$0 ~ "^\\[ RUN +\\] " t "$" { on = 1; next }
				on && /^\[ +(OK|FAILED|ERROR|SKIPPED) +\]/ { print; exit } on' "$tmp/t" >"$tmp/one"
			if grep -q '^\[ *OK *\]' "$tmp/one" && { [ "$test" != models_x_filters ] ||
				grep -q "(kernel $version)" "$tmp/one"; }; then
				ok "lbr $label: $(grep '^# ' "$tmp/one" | grep -v '^# departure shown' | sed 's/^# //' | paste -sd ';' | sed 's/;/; /g')"
			else
				grep -v '^\[ *\(RUN\|OK\) *\]' "$tmp/one" | tail -20 | sed 's/^/# /'
				not_ok "lbr $label: core/x86/lbr.c and the kernel's lbr.c differ"
			fi
		done
	fi
fi
echo "1..$n"
echo "ksrc-check: kernel $version ($ksrc): $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
