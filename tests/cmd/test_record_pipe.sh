#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record -o - (perf's pipe mode) builds no file: the records go
# down the pipe as they come and the summary and the truth are made from
# the samples as they go, so the space record takes stays bounded however
# much it streams. Shown with a file-size limit (ulimit -f 16: any file
# record wrote would fail past 16 KiB, a pipe has no size) under which a
# 1.5 MB pipe stream goes through whole; and the summary, the truth and
# what perf script reads are those of the same recording into a file.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
record_tmpdir
# Valgrind runs (~6 s in all)
record_test_needs "${LABEL:-}" valgrind gcc perf
record_guest loop

for opts in "--call-graph lbr -c 2003" "-e cycles,instructions -b -c 5003" "-a --call-graph lbr -c 4001"; do
	# shellcheck disable=SC2086 # the options are words
	"$PMUSIM" record $opts --max-sample-rate 1000000 -o "$dir/f.data" -- "$dir/loop" 2000000 \
		2>"$dir/f.err"
	# (the limit is record's alone: cat writes the file)
	# shellcheck disable=SC2086
	(ulimit -f 16; exec "$PMUSIM" record $opts --max-sample-rate 1000000 -o - \
		-- "$dir/loop" 2000000) 2>"$dir/l.err" | cat >"$dir/l.pipe"
	rc=${PIPESTATUS[0]}
	echo "# $opts: pipe stream $(stat -c %s "$dir/l.pipe") bytes"
	check "$opts: -o - under ulimit -f 16: exit 0, a stream past 16 KiB, nothing in TMPDIR" \
		'[ $rc = 0 ] && [ "$(stat -c %s "$dir/l.pipe")" -gt $((16 * 1024)) ] && tmp_empty'
	# shellcheck disable=SC2086
	"$PMUSIM" record $opts --max-sample-rate 1000000 -o - --truth "$dir/p.truth" \
		-- "$dir/loop" 2000000 2>"$dir/p.err" | cat >"$dir/p.pipe"
	check "$opts: the same stream without the limit" 'cmp -s "$dir/l.pipe" "$dir/p.pipe"'
	check "$opts: the summary is the file's, line for line (the output's name aside)" \
		'[ "$(sed "s|$dir/f.data, the true stacks in $dir/f.data.truth|OUT|" "$dir/f.err")" = \
		   "$(sed "s|perf.data on standard output (pipe mode), the true stacks in $dir/p.truth|OUT|" "$dir/p.err")" ]'
	check "$opts: the truth is the file's, byte for byte" 'cmp -s "$dir/f.data.truth" "$dir/p.truth"'
	perf_samples tid,time,event,ip,sym "$dir/f.data" >"$dir/f.txt"
	perf_samples tid,time,event,ip,sym - <"$dir/p.pipe" >"$dir/p.txt"
	check "$opts: perf script reads the pipe's samples as the file's ($(wc -l <"$dir/f.txt") lines)" \
		'[ -s "$dir/f.txt" ] && cmp -s "$dir/f.txt" "$dir/p.txt"'
done
echo "1..$n"
