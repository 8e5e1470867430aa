#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make ab BASE=REV: the working tree against git revision REV.
#
# Builds both out of tree with the same .config (AB_CONFIG, else the
# tree's .config, else defconfig), then compares
#   behaviour  every scenario in scenarios/ (exit status, perf.data record
#              by record, the --json summary field by field, stderr, the
#              perf-PID.map symbol files), every ring-buffer replay script
#              of the tests in each of its modes (tests/replay/ringbuf/*.rb
#              and the generated seeds of test_ringbuf_diff.sh), every fuzz
#              corpus file replayed with its trace (fuzz/corpus/NAME/*):
#              each output that differs is named with its first
#              difference (scripts/ab-diff.sh);
#   cost       instructions per record on the output path, per PMI through
#              the overflow path, per simulated branch, counted by callgrind
#              in one function each (bench/ab_cost.c says which), so the
#              figures are the same on every run and every machine.
# The scenarios, scripts, corpora and bench/ab_cost.c are the working
# tree's, run on both sides: what changes is the code under test.
#
# Exit 0 when no behaviour differs and no cost grew by more than
# AB_MAX_COST (default 1%), 1 otherwise (or when a tree does not build),
# 2 on bad usage. (`make ab` turns any non-zero status into make's own 2.)
#
# AB_OUT (default build/ab) keeps the extracted REV, both builds and every
# output; REV's build is kept per commit and reused. AB_JOBS: make -j.
# AB_COST_DIV divides the operation counts (tests/scripts/test_ab.sh runs
# with fewer); RINGBUF_SEEDS picks the generated scripts (default 1..40);
# AB_FUZZ=0 leaves the fuzz corpora (and their clang builds) out.
set -u

srctree=$(cd "$(dirname "$0")/.." && pwd)
. "$srctree/scripts/ab_lib.sh"
base_rev=${1:-}
max_cost=${AB_MAX_COST:-1%}
max_cost=${max_cost%\%}
jobs=${AB_JOBS:-2}
work=${AB_OUT:-$srctree/build/ab}
SEEDS=${RINGBUF_SEEDS:-$(seq 1 40)}

if [ -z "$base_rev" ] || [ $# != 1 ]; then
	echo "usage: make ab BASE=REV (or scripts/ab.sh REV)" >&2
	exit 2
fi
if ! awk -v m="$max_cost" 'BEGIN { exit !(m ~ /^[0-9]+(\.[0-9]+)?$/) }'; then
	echo "make ab: AB_MAX_COST='${AB_MAX_COST:-}' is not a percentage" >&2
	exit 2
fi
if ! base=$(git -C "$srctree" rev-parse --verify -q "$base_rev^{commit}"); then
	echo "make ab: '$base_rev' is not a git revision of $srctree" >&2
	exit 2
fi
short=${base:0:12}
for tool in valgrind jq; do
	command -v $tool >/dev/null || { echo "make ab: $tool is missing (scripts/install-deps.sh ab)" >&2; exit 2; }
done

config=${AB_CONFIG:-}
[ -z "$config" ] && [ -f "$srctree/.config" ] && config=$srctree/.config
if [ -n "$config" ] && [ ! -r "$config" ]; then
	echo "make ab: AB_CONFIG=$config cannot be read" >&2
	exit 2
fi

mkdir -p "$work" && work=$(cd "$work" && pwd -P) || exit 2	# make names its targets by absolute path
base_src=$work/src-$short
base_obj=$work/obj-$short
work_obj=$work/obj-work
out=$work/out
rm -rf "$out"
mkdir -p "$out/base" "$out/work" "$out/home"

# REV's sources, extracted once per commit (the stamp says it finished).
if [ ! -f "$base_src/.ab-extracted" ]; then
	rm -rf "$base_src" "$base_obj"
	mkdir -p "$base_src"
	git -C "$srctree" archive "$base" | tar -x -C "$base_src" || exit 2
	touch "$base_src/.ab-extracted"
fi
# The same workload program on both sides (copied only when it changed, so make keeps its objects).
cmp -s "$srctree/bench/ab_cost.c" "$base_src/bench/ab_cost.c" ||
	{ mkdir -p "$base_src/bench" && cp "$srctree/bench/ab_cost.c" "$base_src/bench/ab_cost.c"; }

build() { # SIDE SRCTREE OBJTREE
	local side=$1 src=$2 obj=$3
	mkdir -p "$obj"
	if [ -n "$config" ]; then
		cmp -s "$config" "$obj/.ab-config" || { cp "$config" "$obj/.config"; cp "$config" "$obj/.ab-config"; }
		make -s -C "$src" O="$obj" olddefconfig >/dev/null 2>&1
	elif [ ! -f "$obj/.config" ]; then
		make -s -C "$src" O="$obj" defconfig >/dev/null 2>&1
	fi
	if ! make -s -C "$src" O="$obj" -j"$jobs" "$obj/pmusim" "$obj/bench/ab_cost" >"$obj/build.log" 2>&1; then
		tail -20 "$obj/build.log" | sed 's/^/  /'
		echo "make ab: the $side tree ($src) does not build (log: $obj/build.log)"
		return 1
	fi
	[ "${AB_FUZZ:-1}" = 0 ] && return 0
	# The fuzz replay drivers come from each tree's own fuzz/Makefile.fuzz;
	# a library configured before Kconfig changed would stop at a question.
	[ -f "$src/build/fuzz/obj-replay/.config" ] &&
		make -s -C "$src" O="$src/build/fuzz/obj-replay" olddefconfig >/dev/null 2>&1
	for c in "$srctree"/fuzz/corpus/*/; do
		[ -d "$c" ] || continue
		make -s -C "$src" "$src/build/fuzz/replay/fuzz_$(basename "$c")" >>"$obj/build.log" 2>&1 ||
			echo "  ($side: no replay driver for fuzz corpus $(basename "$c"))"
	done
	return 0
}

echo "ab: base $base_rev = $short, working tree $srctree"
echo "ab: configuration: ${config:-defconfig}"
build base "$base_src" "$base_obj" || exit 1
build work "$srctree" "$work_obj" || exit 1
cp "$base_obj/.config" "$out/base.config"; cp "$work_obj/.config" "$out/work.config"
cmp -s "$out/base.config" "$out/work.config" ||
	echo "ab: note: olddefconfig gave the two trees different .configs (their Kconfig differs): $out/{base,work}.config"

pmusim_of() { [ "$1" = base ] && echo "$base_obj/pmusim" || echo "$work_obj/pmusim"; }
src_of() { [ "$1" = base ] && echo "$base_src" || echo "$srctree"; }

differ=0 compared=0
# report WHAT KIND BASE WORK: KIND is perf-data, json or text.
report() {
	local what=$1 kind=$2 detail rc
	compared=$((compared + 1))
	if [ "$kind" = perf-data ]; then
		detail=$("$srctree/scripts/ab-diff.sh" perf-data "$work_obj/pmusim" "$3" "$4")
	else
		detail=$("$srctree/scripts/ab-diff.sh" "$kind" "$3" "$4")
	fi
	rc=$?
	[ $rc = 0 ] && return
	differ=$((differ + 1))
	echo "DIFFERS: $what"
	[ -n "$detail" ] && echo "$detail"
}

# ---- behaviour: scenarios (each side in its own directory, so paths match)
echo "ab: behaviour"
for sc in "$srctree"/scenarios/*.yaml; do
	[ -e "$sc" ] || continue
	n=$(basename "$sc" .yaml)
	for side in base work; do
		mkdir -p "$out/$side/$n.maps"
		# a build-id cache of ab's own: pmusim run adds its programs' ELF
		# files to ~/.debug, and these throwaway runs are not the user's
		(cd "$out/$side" && HOME=$out/home "$(pmusim_of $side)" run "$sc" -o "$n.data" --json \
			--map-dir "$n.maps" >"$n.json" 2>"$n.err"; echo "exit $?" >"$n.rc") &
	done
	wait
	report "scenario $n: exit status" text "$out/base/$n.rc" "$out/work/$n.rc"
	if [ -f "$out/base/$n.data" ] || [ -f "$out/work/$n.data" ]; then
		report "scenario $n: perf.data" perf-data "$out/base/$n.data" "$out/work/$n.data"
	fi
	report "scenario $n: summary" json "$out/base/$n.json" "$out/work/$n.json"
	report "scenario $n: stderr" text "$out/base/$n.err" "$out/work/$n.err"
	# the symbol maps (perf-PID.map) of either side, by name
	for m in $( (cd "$out/base/$n.maps" && ls; cd "$out/work/$n.maps" && ls) 2>/dev/null | sort -u); do
		touch "$out/base/$n.maps/$m" "$out/work/$n.maps/$m"
		report "scenario $n: $m" text "$out/base/$n.maps/$m" "$out/work/$n.maps/$m"
	done
done

# ---- behaviour: ring-buffer replay scripts, every mode (tests/replay/ringbuf_lib.sh)
. "$srctree/tests/replay/ringbuf_lib.sh"
mkdir -p "$out/rb"
for seed in $SEEDS; do
	awk -v seed="$seed" -f "$srctree/tests/replay/ringbuf_gen.awk" >"$out/rb/gen-$seed.rb"
done
for rb in "$srctree"/tests/replay/ringbuf/*.rb "$out"/rb/gen-*.rb; do
	[ -e "$rb" ] || continue
	n=$(basename "$rb" .rb)
	for side in base work; do
		(cd "$srctree" && PMUSIM=$(pmusim_of $side) ringbuf_run_all model "$rb") >"$out/$side/rb-$n" 2>&1 &
	done
	wait
	report "ring-buffer script $n" text "$out/base/rb-$n" "$out/work/rb-$n"
done

# ---- behaviour: fuzz corpora, each input replayed with its trace
# 12-digit values at the host's PIE, ASan heap and stack addresses
host_addr='s/0x(5[56]|6[0-3]|7f)[0-9a-f]{10}\b/0xHOSTADDR/g'
[ "${AB_FUZZ:-1}" = 0 ] && echo "ab: fuzz corpora not replayed (AB_FUZZ=0)"
for dir in "$srctree"/fuzz/corpus/*/; do
	[ -d "$dir" ] && [ "${AB_FUZZ:-1}" != 0 ] || continue
	c=$(basename "$dir")
	nfiles=0
	for f in "$dir"*; do
		[ -f "$f" ] || continue
		case $(basename "$f") in .*|README*) continue ;; esac
		nfiles=$((nfiles + 1))
		i=$(basename "$f")
		for side in base work; do
			drv=$(src_of $side)/build/fuzz/replay/fuzz_$c
			if [ -x "$drv" ]; then
				# by the same name on both sides: the driver prints it
				# Host addresses a harness prints (fuzz_attr's event and
				# argument pointers) differ from run to run: masked.
				(cd "${drv%/*}" && PMUSIM_FUZZ_TRACE=1 "./${drv##*/}" "$f" 2>&1; echo "exit $?") |
					sed -E "$host_addr" >"$out/$side/fz-$c-$i"
			else
				echo "no replay driver fuzz_$c" >"$out/$side/fz-$c-$i"
			fi
		done
		report "fuzz corpus $c/$i" text "$out/base/fz-$c-$i" "$out/work/fz-$c-$i"
	done
done

if [ "$differ" = 0 ]; then
	echo "behaviour: no behavioural difference ($compared outputs compared)"
else
	echo "behaviour: $differ of $compared outputs differ"
fi

# ---- cost ------------------------------------------------------------------
# insns BIN MODE N FUNCTION: instructions callgrind collected inside FUNCTION.
insns() {
	local log
	log=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
		"--toggle-collect=$4" "$1" "$2" "$3" 2>&1) || { echo "ab_cost $2 $3 failed: $(grep -v '^==' <<<"$log" | head -1)" >&2; return 1; }
	sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' <<<"$log"
}
# per_op SIDE MODE N FUNCTION: (I(2N) - I(N)) / N, set-up cancelled.
per_op() {
	local bin=$1/bench/ab_cost a b
	[ -x "$bin" ] || { echo "no bench/ab_cost" >&2; return 1; }
	a=$(insns "$bin" "$2" "$3" "$4") && b=$(insns "$bin" "$2" $(($3 * 2)) "$4") || return 1
	[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ] || { echo "nothing collected in $4" >&2; return 1; }
	awk -v a="$a" -v b="$b" -v n="$3" 'BEGIN { printf "%.1f\n", (b - a) / n }'
}

echo "ab: cost (callgrind instructions; threshold +${max_cost}%)"
ab_cost_header "$short"
cost_failed=0
for spec in "output-forward 20000 ab_output_record* per record, forward (output path)" \
	    "output-backward 20000 ab_output_record* per record, backward (output path)" \
	    "pmi 1000 model_pmu_deliver_pmi per PMI (overflow path)" \
	    "branch 100000 model_retire_branch per simulated branch"; do
	read -r mode n fn label <<<"$spec"
	n=$((n / ${AB_COST_DIV:-1}))
	per_op "$base_obj" "$mode" "$n" "$fn" >"$out/cost-$mode.base" 2>"$out/cost-$mode.base.err" &
	per_op "$work_obj" "$mode" "$n" "$fn" >"$out/cost-$mode.work" 2>"$out/cost-$mode.work.err" &
	wait
	b=$(cat "$out/cost-$mode.base") w=$(cat "$out/cost-$mode.work")
	if [ -z "$w" ] && [ -z "$b" ]; then
		ab_cost_na "$label"
		echo "  not measurable on either side (not compared): $(head -1 "$out/cost-$mode.work.err")"
		continue
	fi
	if [ -z "$w" ]; then
		ab_cost_na "$label" "$b"
		echo "  the working tree could not be measured: $(head -1 "$out/cost-$mode.work.err")"
		cost_failed=1
		continue
	fi
	if [ -z "$b" ]; then
		ab_cost_na "$label" "" "$w"
		echo "  $short could not be measured (not compared): $(head -1 "$out/cost-$mode.base.err")"
		continue
	fi
	ab_cost_row "$label" "$b" "$w" "$max_cost" || cost_failed=1
done

if [ "$differ" != 0 ] || [ "$cost_failed" != 0 ]; then
	echo "ab: FAIL: $differ outputs differ$([ "$cost_failed" != 0 ] && echo "; cost grew by more than ${max_cost}% or could not be measured")"
	exit 1
fi
echo "ab: PASS: no behavioural difference, cost within +${max_cost}%"
exit 0
