#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Differential test: every script under tests/replay/ringbuf, in each of its
# modes, and scripts generated from fixed seeds (ringbuf_gen.awk) replayed
# on all three backends: pmusim's ring buffer (model), the host kernel's
# (kernel) and the kernel's own ring_buffer.c of the tree pmusim was built
# with (ksrc). Each must print what the model prints: the same data_head
# and data_tail, the same records in the same order, the same LOST counts.
# The kernel comparisons are skipped, with the reason, where the host does
# not permit perf_event_open; the ksrc ones where pmusim has no kernel tree.
set -u
src=$PMUSIM_SRCTREE/tests/replay
. "$src/ringbuf_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SEEDS=${RINGBUF_SEEDS:-$(seq 1 40)}

printf 'write 16\ndump\n' >"$tmp/probe.rb"
kernel_skip=
"$PMUSIM" ringbuf --backend kernel "$tmp/probe.rb" >"$tmp/probe.out" 2>"$tmp/probe.err"
[ $? = 77 ] && kernel_skip="perf_event_open not permitted: $(head -1 "$tmp/probe.err")"
ksrc_skip=
"$PMUSIM" ringbuf --backend ksrc "$tmp/probe.rb" >"$tmp/probe.out" 2>"$tmp/probe.err"
[ $? = 77 ] && ksrc_skip=$(head -1 "$tmp/probe.err" | sed 's/^# skipped: //')
[ -n "$ksrc_skip" ] && echo "# skipped: $ksrc_skip"

n=0
compare() { # WHAT SCRIPT FLAGS...
	local what=$1 f=$2 backend rc skip
	shift 2
	"$PMUSIM" ringbuf --backend model "$@" "$f" >"$tmp/model" 2>&1
	echo "exit $?" >>"$tmp/model"
	for backend in kernel ksrc; do
		n=$((n + 1))
		skip=kernel_skip
		[ "$backend" = ksrc ] && skip=ksrc_skip
		if [ -n "${!skip}" ]; then
			echo "ok $n # SKIP $backend, $what: ${!skip}"
			continue
		fi
		"$PMUSIM" ringbuf --backend "$backend" "$@" "$f" >"$tmp/$backend" 2>&1
		rc=$?
		echo "exit $rc" >>"$tmp/$backend"
		if [ "$rc" = 77 ]; then
			echo "ok $n # SKIP $backend, $what: $(head -1 "$tmp/$backend")"
		elif diff -u "$tmp/model" "$tmp/$backend" >"$tmp/diff"; then
			echo "ok $n - model and $backend agree on $what"
		else
			echo "not ok $n - model and $backend differ on $what ($*)"
			head -40 "$tmp/diff" | sed 's/^/# /'
		fi
	done
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
