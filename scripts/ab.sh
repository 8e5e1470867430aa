#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make ab BASE=REV: build REV and the working tree out of tree with the
# same .config, then compare
#   behaviour: every scenario in scenarios/ (perf.data and summary), every
#              ring-buffer replay script of the tests, every fuzz corpus;
#   cost:      instructions per operation under callgrind, which counts
#              instructions exactly, so the figure repeats on any machine.
# Exit 0 when behaviour is the same and no cost grew by more than
# AB_MAX_COST percent (default 1), 1 otherwise, 2 on bad usage.
set -u
base_rev=$1
max_cost=${AB_MAX_COST:-1%}
max_cost=${max_cost%\%}
srctree=$(cd "$(dirname "$0")/.." && pwd)
work=$srctree/build/ab
rm -rf "$work/base-src"
mkdir -p "$work/base-src" "$work/out"

if ! git -C "$srctree" rev-parse --verify -q "$base_rev^{commit}" >/dev/null; then
	echo "make ab: '$base_rev' is not a git revision" >&2
	exit 2
fi
git -C "$srctree" archive "$base_rev" | tar -x -C "$work/base-src"

config=$srctree/.config
[ -f "$config" ] || config=
build() { # SRCTREE OBJTREE
	mkdir -p "$2"
	if [ -n "$config" ]; then
		cp "$config" "$2/.config"
		make -s -C "$1" O="$2" olddefconfig >/dev/null
	else
		make -s -C "$1" O="$2" defconfig >/dev/null
	fi
	make -s -C "$1" O="$2" -j"$(nproc)" all bench-build >"$2/build.log" 2>&1 ||
		{ tail -20 "$2/build.log"; echo "make ab: build of $1 failed" >&2; exit 1; }
}
echo "ab: building $base_rev and the working tree"
build "$work/base-src" "$work/base"
build "$srctree" "$work/work"

differ=0
compare() { # WHAT BASE-FILE WORK-FILE
	if cmp -s "$2" "$3"; then
		return
	fi
	differ=$((differ + 1))
	echo "DIFFERS: $1"
	case $2 in
	*.data) cmp "$2" "$3" | head -1 ;;
	*) diff -u "$2" "$3" | sed -n '3,12p' ;;
	esac
}

# Behaviour: scenarios.
for sc in "$srctree"/scenarios/*.yaml; do
	[ -e "$sc" ] || continue
	n=$(basename "$sc" .yaml)
	for side in base work; do
		"$work/$side/pmusim" run "$sc" -o "$work/out/$n.$side.data" --json \
			>"$work/out/$n.$side.json" 2>"$work/out/$n.$side.err"
		echo "exit $?" >>"$work/out/$n.$side.json"
	done
	compare "scenario $n: perf.data" "$work/out/$n.base.data" "$work/out/$n.work.data"
	compare "scenario $n: summary" "$work/out/$n.base.json" "$work/out/$n.work.json"
done

# Behaviour: ring-buffer replay scripts (flags from each script's "# options:" line).
for rb in "$srctree"/tests/sim/ringbuf/*.rb; do
	[ -e "$rb" ] || continue
	n=$(basename "$rb" .rb)
	flags=$(sed -n "s/^# options: *//p" "$rb" | head -1)
	for side in base work; do
		# shellcheck disable=SC2086
		"$work/$side/pmusim" ringbuf --backend model $flags "$rb" >"$work/out/rb-$n.$side" 2>&1
		echo "exit $?" >>"$work/out/rb-$n.$side"
	done
	compare "ringbuf script $n" "$work/out/rb-$n.base" "$work/out/rb-$n.work"
done

# Behaviour: fuzz corpora through each side's replay driver.
for dir in "$srctree"/fuzz/corpus/*/; do
	[ -d "$dir" ] || continue
	n=$(basename "$dir")
	for side in base work; do
		drv=$work/$side/fuzz/replay_$n
		[ -x "$drv" ] || make -s -C "$( [ $side = base ] && echo "$work/base-src" || echo "$srctree")" \
			O="$work/$side" "$drv" >/dev/null 2>&1
		if [ -x "$drv" ]; then
			"$drv" "$dir" >"$work/out/fz-$n.$side" 2>&1
			echo "exit $?" >>"$work/out/fz-$n.$side"
		else
			echo "no replay driver" >"$work/out/fz-$n.$side"
		fi
	done
	compare "fuzz corpus $n" "$work/out/fz-$n.base" "$work/out/fz-$n.work"
done

[ "$differ" = 0 ] && echo "behaviour: nothing differs"

# Cost: instructions per operation, (I(2N) - I(N)) / N.
insns() { # BIN MODE N
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" "$2" "$3" 2>&1 |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
cost_failed=0
printf '%-28s %12s %12s %9s\n' "cost (instructions)" "$base_rev" "working" "change"
for mode in output pmi branch; do
	n=20000
	declare -A per=()
	for side in base work; do
		bin=$work/$side/bench/ab_cost
		a=$(insns "$bin" "$mode" $n); b=$(insns "$bin" "$mode" $((2 * n)))
		if [ -z "$a" ] || [ -z "$b" ]; then per[$side]=; continue; fi
		per[$side]=$(awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.1f", (b - a) / n }')
	done
	if [ -z "${per[base]}" ] || [ -z "${per[work]}" ]; then
		printf '%-28s %12s %12s %9s\n' "per $mode" "${per[base]:-n/a}" "${per[work]:-n/a}" "-"
		continue
	fi
	change=$(awk -v a="${per[base]}" -v b="${per[work]}" 'BEGIN { printf "%+.2f", (b - a) * 100 / a }')
	printf '%-28s %12s %12s %8s%%\n' "per $mode" "${per[base]}" "${per[work]}" "$change"
	awk -v c="$change" -v m="$max_cost" 'BEGIN { exit !(c > m) }' && cost_failed=1
done

if [ "$differ" != 0 ] || [ "$cost_failed" != 0 ]; then
	echo "ab: FAIL ($differ outputs differ; cost threshold ${max_cost}%)"
	exit 1
fi
echo "ab: same behaviour, cost within ${max_cost}%"
