#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record's memory across processes: every process writes into the
# one pipe, so while the replay runs some of a program's children, the
# others run ahead on the host and their streams are held. Past a bound
# (32 MiB; PMUSIM_STREAM_HELD_MAX here 1 MiB) the stream that holds the
# most goes to an unlinked file in TMPDIR and is read back from there: the
# memory held stays under the bound and record's peak RSS does not grow
# with 4x the children's work, the recording is byte for byte the one made
# without the bound, and nothing is left in TMPDIR. Tasks for the threads
# and processes a program starts are made before the run: past 64 (or
# --max-tasks) they are lost, and the summary says so and what raises it.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
record_tmpdir
# Valgrind runs (~8 s in all)
record_test_needs "${LABEL:-}" valgrind gcc python3
record_guest forks

# rec NAME BOUND ITERS: 4 children of ITERS iterations each, streams held up to BOUND bytes
rec() {
	PMUSIM_STREAM_HELD_MAX=$2 "$PMUSIM" record -o "$dir/$1.data" --json="$dir/$1.json" \
		-- "$dir/forks" 4 "$3" 2>"$dir/$1.err"
	echo "# $1: exit $?, stream $(key "$dir/$1.json" stream_bytes) bytes, at most" \
		"$(key "$dir/$1.json" stream_held_max) held in memory, $(key "$dir/$1.json" stream_spills)" \
		"spills, at most $(key "$dir/$1.json" stream_spilled_max) in TMPDIR, peak RSS" \
		"$(key "$dir/$1.json" max_rss_kib) KiB"
}
rec free $((1 << 30)) 500000
rec bound $((1 << 20)) 500000
rec bound4 $((1 << 20)) 2000000

check "without a bound, the children's streams are held in memory (more than 4 MiB)" \
	'[ "$(key "$dir/free.json" stream_held_max)" -gt $((4 << 20)) ] && [ "$(key "$dir/free.json" stream_spills)" = 0 ]'
check "with a 1 MiB bound: spilled to TMPDIR, at most 1 MiB held in memory" \
	'[ "$(key "$dir/bound.json" stream_spills)" -gt 0 ] && [ "$(key "$dir/bound.json" stream_held_max)" -le $((1 << 20)) ]'
check "the same recording either way: perf.data, truth and summary byte for byte" \
	'cmp -s "$dir/free.data" "$dir/bound.data" && cmp -s "$dir/free.data.truth" "$dir/bound.data.truth" &&
	 [ "$(sed "s/free.data/X/g" "$dir/free.err")" = "$(sed "s/bound.data/X/g" "$dir/bound.err")" ]'
r1=$(key "$dir/bound.json" max_rss_kib)
r4=$(key "$dir/bound4.json" max_rss_kib)
check "4x the children's work: the bound held, peak RSS within 10% ($r1, $r4 KiB)" \
	'[ "$(key "$dir/bound4.json" stream_held_max)" -le $((1 << 20)) ] && [ $((r4 * 10)) -le $((r1 * 11)) ]'
check "nothing left in TMPDIR (the spill files are unlinked as made)" 'tmp_empty'
# 80 children: 64 tasks by default, 16 lost; --max-tasks 80, none
"$PMUSIM" record -o "$dir/t64.data" --json="$dir/t64.json" -- "$dir/forks" 80 1000 2>/dev/null
"$PMUSIM" record -o "$dir/t64.data" -- "$dir/forks" 80 1000 2>"$dir/t64.err"
check "80 children, 64 tasks: 16 lost, in the JSON and in a line that names --max-tasks" \
	'[ "$(key "$dir/t64.json" threads_lost)" = 16 ] &&
	 grep -q "warning: 16 threads past the first 65 threads and processes not recorded (--max-tasks raises it)" "$dir/t64.err"'
"$PMUSIM" record --max-tasks 80 -o "$dir/t80.data" --json="$dir/t80.json" -- "$dir/forks" 80 1000 2>/dev/null
check "--max-tasks 80: none lost, 81 threads replayed" \
	'[ "$(key "$dir/t80.json" threads_lost)" = 0 ] && [ "$(key "$dir/t80.json" threads)" = 81 ]'
"$PMUSIM" record --max-tasks 4097 -o "$dir/x.data" -- /bin/true 2>"$dir/x.err"
rc=$?
check "--max-tasks past 4096: exit 2, one line" '[ $rc = 2 ] && [ "$(wc -l <"$dir/x.err")" = 1 ] && [ ! -e "$dir/x.data" ]'

PMUSIM_STREAM_HELD_MAX=1k "$PMUSIM" record -o "$dir/x.data" -- /bin/true 2>"$dir/x.err"
rc=$?
check "PMUSIM_STREAM_HELD_MAX not a number: exit 2, one line, nothing run" \
	'[ $rc = 2 ] && [ "$(wc -l <"$dir/x.err")" = 1 ] && grep -q "PMUSIM_STREAM_HELD_MAX" "$dir/x.err" && [ ! -e "$dir/x.data" ]'
echo "1..$n"
