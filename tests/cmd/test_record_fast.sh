#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The replay's fast ways (sim/vg_task.c: a thread's runs of records decoded
# once and retired at once, other threads' records skipped by their
# lengths, the scout reading ahead) against the slow way, one record at a
# time (PMUSIM_RECORD_FAST=0), on real programs, threaded ones among them.
# A threaded program's recording varies from run to run (Valgrind's
# scheduling), so each program's stream is kept as the tool wrote it
# (tests/lib/vg_capture/valgrind stands for valgrind) and given again to
# record (tests/lib/vg_replay/valgrind), both ways: the perf.data, the
# true stacks and the summary are the first recording's, byte for byte.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"

# some 6 s in all, a Valgrind run a program
record_test_needs "${LABEL:-}" valgrind gcc sort awk cmp
record_tmpdir
gcc -O2 -g -fno-inline -pthread -o "$dir/guest" "$PMUSIM_SRCTREE/tests/cmd/record_progs/guest.c" \
	-ldl || { echo "Bail out! cannot build the guest"; exit 1; }
# sort runs two threads from 131,072 lines (coreutils' heuristic): 140,000,
# whose stream (some 200 MB) is kept in $dir while it is replayed
awk 'BEGIN { x = 1; for (i = 0; i < 140000; i++) { x = (x * 1103515245 + 12345) % 2147483648;
	printf "%06d\n", x % 1000000 } }' > "$dir/lines"
export LC_ALL=C
real=$(command -v valgrind)
lib=$PMUSIM_SRCTREE/tests/lib

# same NAME WAY [REF]: NAME's recording WAY the same bytes as REF's (live: the first), paths aside
same() {
	local ref=${3:-live}

	cmp -s "$dir/$1.$ref.data" "$dir/$1.$2.data" &&
		cmp -s "$dir/$1.$ref.data.truth" "$dir/$1.$2.data.truth" &&
		cmp -s <(sed "s#$dir/$1.$ref.data#FILE#g" "$dir/$1.$ref.err") \
			<(sed "s#$dir/$1.$2.data#FILE#g" "$dir/$1.$2.err")
}

# replay NAME WAY STREAM [ENV...] -- RECORD-ARGS...: record from the kept STREAM
replay() {
	local name=$1 way=$2 stream=$3
	shift 3
	(cd "$dir" && env VG_CAPTURE="$dir/$stream.vgs" PATH="$lib/vg_replay:$PATH" "$@" >/dev/null \
		2>"$dir/$name.$way.err")
}

# replay_both NAME THREADS RECORD-ARGS... -- PROG ARGS...: recorded, its stream
# kept, and replayed both ways
replay_both() {
	local name=$1 threads=$2
	shift 2
	if ! (cd "$dir" && VG_REAL=$real VG_CAPTURE=$dir/$name.vgs PATH=$lib/vg_capture:$PATH \
		"$PMUSIM" record -o "$dir/$name.live.data" "$@" >/dev/null 2>"$dir/$name.live.err"); then
		nok "$name: recorded ($(tail -1 "$dir/$name.live.err"))"
		return
	fi
	replay "$name" fast "$name" "$PMUSIM" record -o "$dir/$name.fast.data" "$@"
	replay "$name" slow "$name" PMUSIM_RECORD_FAST=0 "$PMUSIM" record -o "$dir/$name.slow.data" "$@"
	if grep -q "; $threads threads\? on" "$dir/$name.live.err"; then
		ok "$name: $threads thread(s)"
	else
		nok "$name: $threads thread(s): $(head -1 "$dir/$name.live.err")"
	fi
	if same "$name" fast; then ok "$name: the fast replay is the recording"; else
		nok "$name: the fast replay is the recording"; fi
	if same "$name" slow; then ok "$name: the replay one record at a time is the recording"; else
		nok "$name: the replay one record at a time is the recording"; fi
}

replay_both sort 2 --call-graph lbr -- sort "$dir/lines"
# the same stream with other events: the two ways give the same bytes
replay sort-j fast sort VG_ARGS="$dir/sort-j.args" "$PMUSIM" record -o "$dir/sort-j.fast.data" \
	-e cycles:u -j any,u -c 20011 -- sort "$dir/lines"
replay sort-j slow sort PMUSIM_RECORD_FAST=0 "$PMUSIM" record -o "$dir/sort-j.slow.data" -e cycles:u \
	-j any,u -c 20011 -- sort "$dir/lines"
if same sort-j fast slow; then ok "sort -j any,u: the fast replay is the one at a time"; else
	nok "sort -j any,u: the fast replay is the one at a time"; fi
# runs (vgtool/vgstream.h) are marked for --call-graph lbr, not where a branch stack is sampled
replay sort-lbr fast sort VG_ARGS="$dir/sort-lbr.args" "$PMUSIM" record -o "$dir/sort-lbr.data" \
	--call-graph lbr -- sort "$dir/lines"
if grep -qx -- --pmusim-runs=no "$dir/sort-j.args" &&
	! grep -q -- --pmusim-runs "$dir/sort-lbr.args"; then
	ok "the tool marks runs for --call-graph lbr, not for -j any,u"
else
	nok "the tool marks runs for --call-graph lbr, not for -j any,u"
fi
rm -f "$dir/sort.vgs"
replay_both threads 3 --call-graph lbr -c 20011 -- "$dir/guest" threads
replay_both serial 3 --call-graph lbr -c 20011 -- "$dir/guest" serial
replay_both handoff 2 --call-graph lbr -c 20011 -- "$dir/guest" handoff
for mode in deep signal longjmp; do
	replay_both "$mode" 1 --call-graph lbr -c 20011 -- "$dir/guest" "$mode"
done
check "record left nothing in TMPDIR" tmp_empty

echo "1..$n"
