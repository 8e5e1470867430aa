#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A perf.data write that fails part way (here a file-size limit, ulimit
# -f: EFBIG, with SIGXFSZ ignored; a full file system goes the same way)
# stops pmusim record's program as ^C does and keeps the perf.data valid
# over the records that reached it: one line naming the file and the
# system's reason, exit status 1, perf reads the file, and its samples
# are the first ones of the same recording made without the limit. No
# temp file is left, no truth file (a stale one is removed), and the same
# limit gives the same bytes. pmusim run keeps its file the same way.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
record_tmpdir
# Valgrind runs (~6 s in all)
record_test_needs "${LABEL:-}" valgrind gcc perf
record_guest loop
only() { [ "$(cd "$dir/$1" && ls -A)" = "$2" ]; }

# 15,000 samples, some 600 KB; the limit keeps a third of them
rec=(--max-sample-rate 1000000 -c 2000)
mkdir "$dir/whole" "$dir/cut" "$dir/cut2"
"$PMUSIM" record "${rec[@]}" -o "$dir/whole/perf.data" -- "$dir/loop" 5000000 2>/dev/null
echo stale >"$dir/cut/perf.data.truth"
(ulimit -f 200; exec "$PMUSIM" record "${rec[@]}" -o "$dir/cut/perf.data" -- "$dir/loop" 5000000) \
	>/dev/null 2>"$dir/cut.err"
rc=$?
echo "# $(cat "$dir/cut.err")"
check "over the limit: exit 1" '[ $rc = 1 ]'
check "one line: the file, the reason (EFBIG), what it holds" \
	'[ "$(wc -l <"$dir/cut.err")" = 1 ] &&
	 grep -q "^$dir/cut/perf.data: write failed: File too large; $dir/cut/perf.data holds the [1-9][0-9]* samples written before it (no truth file)$" "$dir/cut.err"'
check "the file within the limit, nothing else left beside it (the stale truth gone), nothing in TMPDIR" \
	'[ "$(stat -c %s "$dir/cut/perf.data")" -le $((200 * 1024)) ] && only cut perf.data && tmp_empty'
perf script -i "$dir/whole/perf.data" >"$dir/whole.txt" 2>/dev/null
perf script -i "$dir/cut/perf.data" >"$dir/cut.txt" 2>"$dir/cut.perr"
kept=$(sed -n 's/.* holds the \([0-9]*\) samples.*/\1/p' "$dir/cut.err")
echo "# samples: $(wc -l <"$dir/whole.txt") whole, $(wc -l <"$dir/cut.txt") kept"
check "perf script reads it without a word, as many samples as the line says" \
	'[ ! -s "$dir/cut.perr" ] && [ "$(wc -l <"$dir/cut.txt")" = "$kept" ]'
check "its samples are the first of the whole recording's, fewer of them" \
	'[ "$kept" -lt "$(wc -l <"$dir/whole.txt")" ] && head -n "$kept" "$dir/whole.txt" | cmp -s - "$dir/cut.txt"'
check "the header's features finished over them (build-ids, the samples' times)" \
	'perf buildid-list -i "$dir/cut/perf.data" 2>/dev/null | grep -q " $dir/loop$" &&
	 perf script -i "$dir/cut/perf.data" --header-only 2>/dev/null | grep -q "^# time of last sample : "'
(ulimit -f 200; exec "$PMUSIM" record "${rec[@]}" -o "$dir/cut2/perf.data" -- "$dir/loop" 5000000) \
	>/dev/null 2>/dev/null
check "the same limit: the same bytes" 'cmp -s "$dir/cut/perf.data" "$dir/cut2/perf.data"'

# not even the header's features fit: no file, one line
mkdir "$dir/tiny"
(ulimit -f 1; exec "$PMUSIM" record "${rec[@]}" -o "$dir/tiny/perf.data" -- "$dir/loop" 5000000) \
	>/dev/null 2>"$dir/tiny.err"
rc=$?
check "a limit of 1 KiB: exit 1, one line naming the file and EFBIG, no file at all" \
	'[ $rc = 1 ] && [ "$(cat "$dir/tiny.err")" = "$dir/tiny/perf.data: write failed: File too large" ] &&
	 only tiny "" && tmp_empty'

# pmusim run: the same
mkdir "$dir/run"
(ulimit -f 300; exec "$PMUSIM" run "$PMUSIM_SRCTREE/scenarios/default.yaml" --no-progress \
	-o "$dir/run/perf.data") >/dev/null 2>"$dir/run.err"
rc=$?
check "pmusim run over the limit: exit 1, one line, a file perf reads" \
	'[ $rc = 1 ] && grep -q "^$dir/run/perf.data: write failed: File too large; $dir/run/perf.data holds the [1-9][0-9]* samples written before it$" "$dir/run.err" &&
	 perf report -i "$dir/run/perf.data" --stdio 2>/dev/null | grep -q "^# Samples: [1-9]"'
echo "1..$n"
