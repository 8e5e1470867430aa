#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make ab KSRC=DIR BASE=REV: the kernel's own files at REV (a revision of
# the git tree DIR; without git in DIR, BASE is a second tree) against
# DIR's working tree, in the terms of make ab (scripts/ab.sh):
#   behaviour  every ring-buffer replay script in each of its modes, and
#              seeded ones, on the ksrc backend of each side, output by
#              output; and each side against core/ through the differential
#              oracle (tests/ksrc/test_ring_buffer_diff: boundary inputs,
#              corpus, KSRC_AB_RUNS random schedules, default 300); and
#              each side's lbr.c against core/x86/lbr.c through the LBR
#              oracle (tests/ksrc/test_lbr_diff), with the runs in which
#              it shows the task-ctx-data departure; and each side's
#              core.c against core/ through the event-core oracle
#              (tests/ksrc/test_core_diff), with the departures it names
#              (a seed's, e.g. alt-sample-period, on a tree without it)
#   cost       callgrind instructions per 40-byte record through the
#              kernel file's perf_output_begin/copy/end, forward and
#              backward (bench/ab_ksrc_cost.c), N and 2N records
# Both sides are built with this build's .config (AB_CONFIG; defconfig
# without one), with the CONFIG_ of each seed whose ABI the working tree's
# uapi header has turned on (ksrc/examples' patches: core/'s port of the
# seed is judged against the patched file, not left out). Exit 0 when no output differs and no cost grew by more
# than AB_MAX_COST (default 1%).
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
ksrc=${KSRC:?KSRC=DIR is required}
base=${1:?BASE=REV is required}
max_cost=${AB_MAX_COST:-1%}
max_cost=${max_cost%\%}
out=${KSRC_AB_OUT:-$srctree/build/ksrc-ab}
# every file of the tree the ksrc units read (KSRC_FILES of ksrc/Makefile.ksrc)
files=$(make -s --no-print-directory -C "$srctree" KSRC= ksrc-files)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$srctree/tests/replay/ringbuf_lib.sh"
. "$srctree/scripts/ab_lib.sh"

# the base tree: REV's files from git, or a second tree
# (DIR itself a git checkout: a tree inside another repository, e.g. under
# this one's build/, has no revisions of its own)
if [ "$(git -C "$ksrc" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$ksrc" && pwd -P)" ]; then
	basetree=$tmp/base
	for f in $files; do
		mkdir -p "$basetree/$(dirname "$f")"
		git -C "$ksrc" show "$base:$f" >"$basetree/$f" 2>/dev/null ||
			{ echo "ksrc-ab: $f is not in $base of $ksrc" >&2; exit 2; }
	done
	short=$(git -C "$ksrc" rev-parse --short "$base")
else
	basetree=$(cd "$base" 2>/dev/null && pwd) ||
		{ echo "ksrc-ab: $ksrc has no git; BASE must then be a second tree, not '$base'" >&2; exit 2; }
	short=base
fi

# the seeds the working tree has (KSRC_HAS_X of ksrc/gen-header.sh), as
# the CONFIG_PERF_X of core/'s port of each
seed_configs=$("$srctree/ksrc/gen-header.sh" tree "$(cd "$ksrc" && pwd)" |
	sed -n 's/^#define KSRC_HAS_\([A-Z_]*\) 1$/CONFIG_PERF_\1/p')
build() { # SIDE TREE
	local o=$out/$1 c on
	mkdir -p "$o"
	if [ -n "${AB_CONFIG:-}" ]; then
		cp "$AB_CONFIG" "$o/.config"
	elif [ ! -f "$o/.config" ]; then
		make -s --no-print-directory -C "$srctree" O="$o" defconfig >/dev/null
	fi
	on=
	for c in $seed_configs; do
		grep -qx "$c=y" "$o/.config" && continue
		sed -i "/^# $c is not set\$/d; /^$c=/d" "$o/.config"
		echo "$c=y" >>"$o/.config"
		on="$on $c"
	done
	if [ -n "$on" ]; then
		echo "ksrc-ab: the working tree has the seeds of$on: the $1 side's core/ built with them"
		make -s --no-print-directory -C "$srctree" O="$o" olddefconfig >/dev/null
	fi
	rm -rf "$o/ksrc"
	make -s --no-print-directory -C "$srctree" O="$o" KSRC="$2" -j2 "$o/pmusim" \
		"$o/tests/ksrc/test_ring_buffer_diff" "$o/tests/ksrc/test_lbr_diff" "$o/tests/ksrc/test_core_diff" \
		"$o/bench/ab_ksrc_cost" \
		>"$o/build.log" 2>&1 ||
		{ tail -20 "$o/build.log"; echo "ksrc-ab: the $1 side does not build" >&2; exit 2; }
}
echo "ksrc-ab: building $short ($basetree) and the working tree ($ksrc)"
build base "$basetree"
build work "$ksrc"
echo "ksrc-ab: kernel $("$out/base/pmusim" version | sed -n 's/^ksrc \([^ ]*\).*/\1/p') at $short," \
	"$("$out/work/pmusim" version | sed -n 's/^ksrc \([^ ]*\).*/\1/p') in the working tree"

# ---- behaviour ------------------------------------------------------------------
differ=0 compared=0
for s in 1 2 3 4 5; do
	awk -v seed="$s" -f "$srctree/tests/replay/ringbuf_gen.awk" >"$tmp/gen-$s.rb"
done
for g in "$srctree"/tests/replay/ringbuf/*.rb "$tmp"/gen-*.rb; do
	while read -r mode flags; do
		compared=$((compared + 1))
		for side in base work; do
			# shellcheck disable=SC2086
			"$out/$side/pmusim" ringbuf --backend ksrc $flags "$g" >"$tmp/$side" 2>&1
			echo "exit $?" >>"$tmp/$side"
		done
		if ! diff "$tmp/base" "$tmp/work" >"$tmp/d"; then
			differ=$((differ + 1))
			echo "  $(basename "$g") [$mode]: first difference: $(grep -m1 '^[<>]' "$tmp/d" | cut -c1-100)"
		fi
	done < <(ringbuf_modes "$g")
done
declare -A verdict
for side in base work; do
	(cd "$out/$side" && PMUSIM_SRCTREE=$srctree KSRC_DIFF_RUNS=${KSRC_AB_RUNS:-300} \
		CMOCKA_MESSAGE_OUTPUT=STDOUT ./tests/ksrc/test_ring_buffer_diff) >"$tmp/oracle-$side" 2>&1
	verdict[$side]=$(grep -m1 '^ERROR: ' "$tmp/oracle-$side" | sed 's/^ERROR: //' | cut -c1-160)
	verdict[$side]=${verdict[$side]:-agrees with core/}
	echo "  against core/, $([ $side = base ] && echo "$short" || echo "the working tree"): ${verdict[$side]}"
done
compared=$((compared + 1))
[ "${verdict[base]}" = "${verdict[work]}" ] || differ=$((differ + 1))
declare -A lbr
for side in base work; do
	if (cd "$out/$side" && PMUSIM_SRCTREE=$srctree KSRC_LBR_DIFF_RUNS=${KSRC_AB_RUNS:-300} \
		CMOCKA_MESSAGE_OUTPUT=STDOUT ./tests/ksrc/test_lbr_diff) >"$tmp/lbr-$side" 2>&1; then
		lbr[$side]=$(grep -m1 '^# [0-9]* models' "$tmp/lbr-$side" | sed 's/^# //; s/; [0-9]* MSR writes.*//')
	else
		lbr[$side]="differs: $(grep -m1 -E '^ERROR: |op [0-9]+ \(' "$tmp/lbr-$side" | sed 's/^ERROR: //' | cut -c1-200)"
	fi
	echo "  lbr.c against core/x86/lbr.c, $([ $side = base ] && echo "$short" || echo "the working tree"): ${lbr[$side]}"
	grep -m1 '^# departure shown: ' "$tmp/lbr-$side" | sed 's/^# departure shown: /    first departure: /' | cut -c1-400
done
compared=$((compared + 1))
[ "${lbr[base]}" = "${lbr[work]}" ] || differ=$((differ + 1))
declare -A corev
for side in base work; do
	if ! (cd "$out/$side" && CMOCKA_MESSAGE_OUTPUT=STDOUT ./tests/ksrc/test_core_diff) >"$tmp/core-$side" 2>&1; then
		corev[$side]="differs: $(grep -m1 '^ERROR: ' "$tmp/core-$side" | sed 's/^ERROR: //' | cut -c1-200)"
	elif grep -q '^# skipped: ' "$tmp/core-$side"; then
		corev[$side]="not run: $(grep -m1 '^# skipped: ' "$tmp/core-$side" | cut -c12-200)"
	else
		corev[$side]="agrees with core/"
	fi
	deps=$(sed -n 's/^# departure \([^:]*\):.*/\1/p' "$tmp/core-$side" | sort -u | paste -sd' ')
	corev[$side]+=${deps:+; departures: $deps}
	echo "  core.c against core/, $([ $side = base ] && echo "$short" || echo "the working tree"): ${corev[$side]}"
done
compared=$((compared + 1))
[ "${corev[base]}" = "${corev[work]}" ] || differ=$((differ + 1))
if [ "$differ" = 0 ]; then
	echo "behaviour: no behavioural difference ($compared outputs compared)"
else
	echo "behaviour: $differ of $compared outputs differ"
fi

# ---- cost ------------------------------------------------------------------------
insns() { # BIN MODE N
	local log
	log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
		"--toggle-collect=ab_ksrc_record*" "$1" "$2" "$3" 2>&1) || return 1
	sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' <<<"$log"
}
per_record() { # SIDE MODE N
	local a b
	a=$(insns "$out/$1/bench/ab_ksrc_cost" "$2" "$3") &&
		b=$(insns "$out/$1/bench/ab_ksrc_cost" "$2" $(($3 * 2))) || return 1
	awk -v a="$a" -v b="$b" -v n="$3" 'BEGIN { printf "%.1f\n", (b - a) / n }'
}
echo "ksrc-ab: cost (callgrind instructions; threshold +${max_cost}%)"
ab_cost_header "$short"
cost_failed=0
for mode in output-forward output-backward; do
	b=$(per_record base "$mode" 20000) w=$(per_record work "$mode" 20000)
	if [ -z "$b" ] || [ -z "$w" ]; then
		ab_cost_na "per record, ${mode#output-}" "$b" "$w"
		cost_failed=1
		continue
	fi
	ab_cost_row "per record, ${mode#output-}" "$b" "$w" "$max_cost" || cost_failed=1
done
if [ "$differ" != 0 ] || [ "$cost_failed" != 0 ]; then
	echo "ksrc-ab: FAIL: $differ outputs differ$([ "$cost_failed" != 0 ] && echo "; cost grew by more than ${max_cost}% or could not be measured")"
	exit 1
fi
echo "ksrc-ab: PASS: no behavioural difference, cost within +${max_cost}%"
