#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: build and test defconfig, the v6.12 baseline, allnoconfig and
# fixed randconfig seeds, each out of tree under build/check-*/ with
# ASan+UBSan, then the configurations' sum on one line.
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
tally=$(mktemp)
trap 'rm -f "$tally"' EXIT
status=0

run_config() { # LABEL TARGET [SEED]
	local label=$1 target=$2 seed=${3:-} dir=$srctree/build/check-$1
	mkdir -p "$dir"
	echo "== $label"
	if ! KCONFIG_SEED=$seed make -s --no-print-directory -C "$srctree" O="$dir" "$target" >"$dir/config.log" 2>&1; then
		cat "$dir/config.log"; echo "FAIL [$label] configuration"; echo "0 1 0" >>"$tally"; status=1; return
	fi
	if ! make -s --no-print-directory -C "$srctree" O="$dir" SANITIZE=address,undefined -j"$jobs" all >"$dir/build.log" 2>&1; then
		tail -30 "$dir/build.log"; echo "FAIL [$label] build"; echo "0 1 0" >>"$tally"; status=1; return
	fi
	LABEL=$label TALLY=$tally "$srctree/scripts/run-tests.sh" "$dir" || status=1
}

run_config defconfig defconfig
run_config v6.12 v6.12_defconfig
run_config allnoconfig allnoconfig
for seed in "$@"; do
	run_config "randconfig-$seed" randconfig "$seed"
done
for extra in "$srctree"/scripts/check.d/*.sh; do
	[ -e "$extra" ] || continue
	echo "== $(basename "$extra" .sh)"
	out=$(bash "$extra" 2>&1); rc=$?
	echo "$out" | grep -vE '^ok [0-9]+' 
	p=$(grep -cE '^ok [0-9]+' <<<"$out"); f=$(grep -cE '^not ok [0-9]+' <<<"$out")
	[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
	echo "$p $f 0" >>"$tally"; [ "$f" = 0 ] || status=1
done

awk '{p+=$1; f+=$2; s+=$3} END {printf "%d passed, %d failed, %d skipped\n", p, f, s}' "$tally"
exit $status
