#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# libperf's own reader (tools/lib/perf/mmap.c of the kernel tree pmusim was
# built with, pmusim ringbuf --reader libperf) against pmusim's readers:
# every script under tests/replay/ringbuf in each of its modes, and scripts
# generated from fixed seeds (ringbuf_gen.awk), on the model and the ksrc
# backends (and the host kernel's where perf_event_open is permitted). Both
# readers must print the same: data_head, data_tail, the same records in
# the same order, the same LOST counts and STOP lines. libperf has no
# forward overwrite reader (perf sets write_backward for --overwrite): the
# fwd-ro mode is skipped, and refusing it is checked once.
set -u
src=$PMUSIM_SRCTREE/tests/replay
. "$src/ringbuf_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SEEDS=${RINGBUF_SEEDS:-$(seq 1 40)}

printf 'write 16\ndump\n' >"$tmp/probe.rb"
"$PMUSIM" ringbuf --reader libperf "$tmp/probe.rb" >"$tmp/probe.out" 2>"$tmp/probe.err"
if [ $? = 77 ]; then
	head -1 "$tmp/probe.err"
	echo "1..0 # SKIP $(head -1 "$tmp/probe.err" | sed 's/^# skipped: //')"
	exit 0
fi
backends=model
# (a build may link libperf's reader without the tree's ring_buffer.c)
"$PMUSIM" ringbuf --backend ksrc "$tmp/probe.rb" >/dev/null 2>&1
[ $? = 77 ] || backends="$backends ksrc"
"$PMUSIM" ringbuf --backend kernel "$tmp/probe.rb" >/dev/null 2>&1
[ $? = 77 ] || backends="$backends kernel"

n=0
"$PMUSIM" ringbuf --reader libperf --overwrite "$tmp/probe.rb" >/dev/null 2>"$tmp/err"
rc=$?
n=$((n + 1))
if [ "$rc" = 2 ] && grep -q 'backward only' "$tmp/err"; then
	echo "ok $n - --reader libperf refuses a forward overwrite buffer, saying why"
else
	echo "not ok $n - --reader libperf --overwrite: exit $rc, $(head -1 "$tmp/err")"
fi

compare() { # WHAT SCRIPT FLAGS...
	local what=$1 f=$2 backend rc
	shift 2
	for backend in $backends; do
		n=$((n + 1))
		"$PMUSIM" ringbuf --backend "$backend" "$@" "$f" >"$tmp/pmusim" 2>&1
		echo "exit $?" >>"$tmp/pmusim"
		# a reader that loops forever is a failure, not a hang
		timeout 60 "$PMUSIM" ringbuf --backend "$backend" --reader libperf "$@" "$f" \
			>"$tmp/libperf" 2>&1
		rc=$?
		echo "exit $rc" >>"$tmp/libperf"
		if diff -u "$tmp/pmusim" "$tmp/libperf" >"$tmp/diff"; then
			echo "ok $n - $backend: libperf's reader and pmusim's agree on $what"
		else
			echo "not ok $n - $backend: libperf's reader and pmusim's differ on $what ($*)"
			head -40 "$tmp/diff" | sed 's/^/# /'
		fi
	done
}

run_modes() { # WHAT SCRIPT
	local mode flags
	while read -r mode flags; do
		if [ "$mode" = fwd-ro ]; then
			n=$((n + 1))
			echo "ok $n # SKIP $1 [$mode]: libperf has no forward overwrite reader"
			continue
		fi
		# shellcheck disable=SC2086
		compare "$1 [$mode]" "$2" $flags
	done < <(ringbuf_modes "$2")
}

for f in "$src"/ringbuf/*.rb; do
	run_modes "$(basename "$f")" "$f"
done
for seed in $SEEDS; do
	g=$tmp/gen-$seed.rb
	awk -v seed="$seed" -f "$src/ringbuf_gen.awk" >"$g"
	run_modes "generated seed $seed" "$g"
done
echo "1..$n"
