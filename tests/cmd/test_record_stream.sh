#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record's stream: the Valgrind tool writes it into a pipe and the
# replay reads it while the program runs, so nothing of it goes to
# TMPDIR and what is held stays bounded however long the program runs
# (counted: a loop of 10x the iterations, 10x the stream's bytes, the
# same most bytes held and the same peak RSS, within bounds; 10x the
# samples, each judged, in the same peak RSS); the same
# program gives the same bytes; a reader of the output that goes away
# (| head -1), SIGINT while the program runs forever, and a perf.data
# that no longer fits its file system each end with a whole recording
# (what fitted, for the last) and no temp file.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
record_tmpdir

# Valgrind runs (~20 s in all): as tests/cmd/test_record.sh, the check
# matrix runs this in its two extremes only; make test runs it anywhere.
record_test_needs "${LABEL:-}" valgrind gcc perf python3
record_guest loop


# record OPTS of the loop, 1e6 and then 1e7 iterations, into $dir/NAME1000000.* and $dir/NAME10000000.*
record_loops() { # NAME OPTS...
	local name=$1 iters
	shift
	for iters in 1000000 10000000; do
		"$PMUSIM" record "$@" -o "$dir/$name$iters.data" --json="$dir/$name$iters.json" \
			-- "$dir/loop" $iters 2>"$dir/$name$iters.err"
		echo "# loop $iters${*:+ ($*)}: exit $?, stream $(key "$dir/$name$iters.json" stream_bytes)" \
			"bytes, at most $(key "$dir/$name$iters.json" stream_held_max) held," \
			"$(key "$dir/$name$iters.json" samples) samples, record's peak RSS" \
			"$(key "$dir/$name$iters.json" max_rss_kib) KiB"
	done
}

# bounded: 10x the iterations, 10x the stream; the same held, the same peak
record_loops l
s1=$(key "$dir/l1000000.json" stream_bytes)
s10=$(key "$dir/l10000000.json" stream_bytes)
h1=$(key "$dir/l1000000.json" stream_held_max)
h10=$(key "$dir/l10000000.json" stream_held_max)
r1=$(key "$dir/l1000000.json" max_rss_kib)
r10=$(key "$dir/l10000000.json" max_rss_kib)
check "10x the iterations: some 10x the stream's bytes ($s1, $s10)" \
	'[ $((s10 / s1)) -ge 9 ] && [ $((s10 / s1)) -le 10 ]'
# how much one read takes from the pipe depends on how far the reader fell
# behind (a loaded host): the two may differ by up to a frame, never grow
check "the most held at once the same within a frame (4096 B), and no more than the tool's 1 MiB buffer and a frame ($h1, $h10)" \
	'[ $((h10 - h1)) -le 4096 ] && [ $((h1 - h10)) -le 4096 ] && [ "$h1" -le $((1024 * 1024 + 4096)) ] && [ "$h10" -le $((1024 * 1024 + 4096)) ]'
check "record's peak RSS of the long run within 10% of the short one's ($r1, $r10 KiB)" \
	'[ $((r10 * 10)) -le $((r1 * 11)) ]'
check "nothing in TMPDIR after either" 'tmp_empty'

# bounded in samples too: each sample's truth is dropped once it is judged (30,000 LBR
# call-stack samples held it all: 12.1 MB peak RSS against 6.4 MB for 3,000)
record_loops c -c 2003 --call-graph lbr --max-sample-rate 1000000
c1=$(key "$dir/c1000000.json" max_rss_kib)
c10=$(key "$dir/c10000000.json" max_rss_kib)
n10=$(key "$dir/c10000000.json" samples)
check "10x the samples ($n10): record's peak RSS within 10% ($c1, $c10 KiB)" \
	'[ "$n10" -ge 20000 ] && [ $((c10 * 10)) -le $((c1 * 11)) ]'
check "every sample of the long run judged: a truth line each" \
	'[ "$(grep -c . "$dir/c10000000.data.truth")" -ge "$n10" ]'

# the same program, the same bytes
"$PMUSIM" record -o "$dir/again.data" -- "$dir/loop" 1000000 2>/dev/null
check "the same program twice: the same perf.data and truth, byte for byte" \
	'cmp -s "$dir/l1000000.data" "$dir/again.data" && cmp -s "$dir/l1000000.data.truth" "$dir/again.data.truth"'

# TMPDIR too small for any stream (64 KiB; the stream of 1e7 iterations is 50 MB)
mkdir "$dir/small"
if mount -t tmpfs -o size=64k tmpfs "$dir/small" 2>/dev/null; then
	TMPDIR=$dir/small "$PMUSIM" record -o "$dir/s.data" -- "$dir/loop" 10000000 2>"$dir/s.err"
	rc=$?
	check "TMPDIR a 64 KiB tmpfs: the recording of a 50 MB stream is whole ($rc)" \
		'[ $rc = 0 ] && perf_reads "$dir/s.data" && [ -z "$(ls -A "$dir/small")" ]'
	# a perf.data that does not fit: one line with the file and the reason, the program
	# stopped, the file kept over what reached it (tests/cmd/test_record_write_error.sh)
	"$PMUSIM" record -c 2000 -o "$dir/small/o.data" -- "$dir/loop" 100000000 >/dev/null 2>"$dir/o.err"
	rc=$?
	check "perf.data on a full file system: exit 1, one line naming it and ENOSPC, the file valid, nothing in TMPDIR" \
		'[ $rc = 1 ] && grep -q "^$dir/small/o.data: write failed: No space left on device; $dir/small/o.data holds the [1-9][0-9]* samples written before it (no truth file)$" "$dir/o.err" &&
		 [ "$(wc -l <"$dir/o.err")" = 1 ] && [ "$(ls -A "$dir/small")" = o.data ] && perf_reads "$dir/small/o.data" && tmp_empty'
	umount "$dir/small"
else
	skip "TMPDIR and perf.data on a small tmpfs: this host cannot mount one (not root, or no tmpfs)"
	skip "perf.data on a full file system: as above"
fi

# The streams through shared-memory rings (vgtool/vgstream.h; the default), or
# all in frames through the pipe (PMUSIM_RECORD_RING=0, the reference): the
# same recording, byte for byte, for one process and for five. A stand-in
# valgrind notes the rings' directory record gave it: gone after the run.
record_guest forks
mkdir "$dir/vgwrap"
printf '%s\n' '#!/bin/sh' \
	'for a; do case $a in --pmusim-ring=*) echo "${a#--pmusim-ring=}" >>"$VG_RINGS" ;; esac; done' \
	'exec "$VG_REAL" "$@"' >"$dir/vgwrap/valgrind"
chmod +x "$dir/vgwrap/valgrind"
in_memory() { case $(stat -f -c %T "$1" 2>/dev/null) in tmpfs|ramfs) return 0 ;; esac; return 1; }
if ! in_memory /dev/shm && ! in_memory "$TMPDIR"; then
	skip "streams through rings: this host has no /dev/shm in memory, nor TMPDIR"
	skip "streams through rings of five processes: as above"
fi
for prog in "loop 1000000:1" "forks 4 200000:5"; do
	{ in_memory /dev/shm || in_memory "$TMPDIR"; } || break
	for ring in 1 0; do
		PMUSIM_RECORD_RING=$ring VG_REAL=$(command -v valgrind) VG_RINGS=$dir/rings \
			PATH=$dir/vgwrap:$PATH "$PMUSIM" record -o "$dir/ring$ring.data" \
			--json="$dir/ring$ring.json" -- $dir/${prog%:*} >/dev/null 2>&1
	done
	check "${prog%:*}: through rings (${prog#*:} of them) as through the pipe alone, byte for byte; the rings' directory gone" \
		'cmp -s "$dir/ring1.data" "$dir/ring0.data" && cmp -s "$dir/ring1.data.truth" "$dir/ring0.data.truth" &&
		 [ "$(key "$dir/ring1.json" stream_rings)" = "${prog#*:}" ] && [ "$(key "$dir/ring0.json" stream_rings)" = 0 ] &&
		 [ "$(wc -l <"$dir/rings")" = 1 ] && [ ! -e "$(cat "$dir/rings")" ] && tmp_empty'
	rm -f "$dir/rings"
done
# a /dev/shm with no room to spare (the program's shared memory is there too): frames, the same recording
if unshare -m true 2>/dev/null; then
	unshare -m sh -c 'mount -t tmpfs -o size=1536k tmpfs /dev/shm && exec "$@"' sh \
		env PMUSIM_RECORD_RING=1 "$PMUSIM" record -o "$dir/full.data" --json="$dir/full.json" \
		-- "$dir/loop" 1000000 >/dev/null 2>&1
	PMUSIM_RECORD_RING=0 "$PMUSIM" record -o "$dir/ring0.data" -- "$dir/loop" 1000000 >/dev/null 2>&1
	check "a /dev/shm of 1.5 MiB (no ring leaves half of it free): no ring, the same recording" \
		'[ "$(key "$dir/full.json" stream_rings)" = 0 ] && cmp -s "$dir/full.data" "$dir/ring0.data" && tmp_empty'
else
	skip "a /dev/shm with no room for a ring: this host cannot make a mount namespace (not root)"
fi

# the summary's reader goes away: the program dies of SIGPIPE, record does not
"$PMUSIM" record -o "$dir/pipe.data" -- yes 2>&1 | head -1 >"$dir/pipe.head"
rc=${PIPESTATUS[0]}
check "| head -1: exit 141 (yes killed by SIGPIPE, as perf record says it), nothing in TMPDIR, the recording whole" \
	'[ $rc = 141 ] && [ "$(cat "$dir/pipe.head")" = y ] && tmp_empty && perf_reads "$dir/pipe.data" &&
	 [ -s "$dir/pipe.data.truth" ]'

# SIGINT while the program runs forever: it is stopped, the recording whole
"$PMUSIM" record -o "$dir/int.data" --json="$dir/int.json" -- yes >/dev/null 2>"$dir/int.err" &
pid=$!
# (not a measure of anything: time for the program to start)
sleep 2
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 130, stopped_by 2, a line saying so, the recording whole, nothing in TMPDIR" \
	'[ $rc = 130 ] && grep -q "^pmusim: record: stopped by SIGINT; $dir/int.data holds what was recorded so far$" "$dir/int.err" &&
	 python3 -c "import json,sys; sys.exit(json.load(open(sys.argv[1]))[\"end\"][\"stopped_by\"] != 2)" "$dir/int.json" &&
	 perf_reads "$dir/int.data" && tmp_empty'
echo "1..$n"
