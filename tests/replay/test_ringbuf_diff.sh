#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Differential test: every script under tests/replay/ringbuf, in each of its
# modes, and scripts generated from fixed seeds (ringbuf_gen.awk) replayed
# on pmusim's ring buffer and on the host kernel's must print the same:
# the same data_head and data_tail, the same records in the same order,
# the same LOST counts. Skipped as a whole, with the reason, where the host
# does not permit perf_event_open.
set -u
src=$PMUSIM_SRCTREE/tests/replay
. "$src/ringbuf_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SEEDS=${RINGBUF_SEEDS:-$(seq 1 40)}

printf 'write 16\ndump\n' >"$tmp/probe.rb"
"$PMUSIM" ringbuf --backend kernel "$tmp/probe.rb" >"$tmp/probe.out" 2>"$tmp/probe.err"
rc=$?
if [ "$rc" = 77 ]; then
	echo "1..1"
	echo "ok 1 # SKIP perf_event_open not permitted: $(head -1 "$tmp/probe.err")"
	exit 0
fi

n=0
compare() { # WHAT SCRIPT FLAGS...
	local what=$1 f=$2 krc
	shift 2
	n=$((n + 1))
	"$PMUSIM" ringbuf --backend model "$@" "$f" >"$tmp/model" 2>&1
	echo "exit $?" >>"$tmp/model"
	"$PMUSIM" ringbuf --backend kernel "$@" "$f" >"$tmp/kernel" 2>&1
	krc=$?
	echo "exit $krc" >>"$tmp/kernel"
	if [ "$krc" = 77 ]; then
		echo "ok $n # SKIP $what: $(head -1 "$tmp/kernel")"
	elif diff -u "$tmp/model" "$tmp/kernel" >"$tmp/diff"; then
		echo "ok $n - model and kernel agree on $what"
	else
		echo "not ok $n - model and kernel differ on $what ($*)"
		head -40 "$tmp/diff" | sed 's/^/# /'
	fi
}

for f in "$src"/ringbuf/*.rb; do
	while read -r mode flags; do
		# shellcheck disable=SC2086
		compare "$(basename "$f") [$mode]" "$f" $flags
	done < <(ringbuf_modes "$f")
done

for seed in $SEEDS; do
	g=$tmp/gen-$seed.rb
	awk -v seed="$seed" -f "$src/ringbuf_gen.awk" >"$g"
	while read -r mode flags; do
		# shellcheck disable=SC2086
		compare "generated seed $seed [$mode]" "$g" $flags
	done < <(ringbuf_modes "$g")
done
echo "1..$n"
