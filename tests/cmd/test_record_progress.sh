#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record's progress line and ^C on a terminal: with stderr a
# terminal (a pty here), a progress line is redrawn while the replay
# runs, and erased before anything else is said; ^C stops the program
# and record, the recording whole. -q and --no-progress silence it, and
# off a terminal there is none: the bytes of stderr, perf.data and the
# truth are those of a run without it.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
record_tmpdir
# Valgrind runs (~10 s in all)
record_test_needs "${LABEL:-}" valgrind gcc perf python3
record_guest loop

# on_pty OUT STATUS WAIT -- ARGS: run ARGS with a pty as its terminal
# (stdin, stdout, stderr), what it writes into OUT, its exit status into
# STATUS. WAIT "progress": type ^C once the progress line has been drawn
# (the seconds from ^C to the end go to stdout as a comment); "end": let
# it end. A guard of 120 s kills it (and fails the test) if it hangs.
on_pty() {
	python3 - "$@" <<'EOF'
import os, pty, signal, sys, time
out, status, wait = sys.argv[1:4]
args = sys.argv[5:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(args[0], args)
buf = b''
sent = None
deadline = time.monotonic() + 120
while True:
    if time.monotonic() > deadline:
        os.kill(pid, signal.SIGKILL)
        break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    buf += chunk
    if wait == 'progress' and sent is None and b'[ pmusim record: ' in buf:
        os.write(fd, b'\x03')
        sent = time.monotonic()
_, st = os.waitpid(pid, 0)
if sent is not None:
    print('# ^C to the end: %.2f s' % (time.monotonic() - sent))
open(out, 'wb').write(buf)
# as a shell says it: 128 + N for signal N (record dies of the ^C it got, as perf record)
open(status, 'w').write(str(128 + os.WTERMSIG(st) if os.WIFSIGNALED(st) else os.WEXITSTATUS(st)))
EOF
}

# ^C once the progress line is up (the loop would run for minutes)
on_pty "$dir/int.tty" "$dir/int.rc" progress -- "$PMUSIM" record -o "$dir/int.data" -- "$dir/loop" 3000000000
rc=$(cat "$dir/int.rc")
esc=$(printf '\033')
check "a terminal: the progress line is drawn while the program runs" \
	'grep -aq "\[ pmusim record: [0-9]* s, [0-9]* M instructions and [0-9]* M branches replayed, [0-9]* MB of stream \]" "$dir/int.tty"'
check "^C: exit 130 and the line that says so, after the progress line was erased" \
	'[ "$rc" = 130 ] && grep -aq "$esc\\[Kpmusim: record: stopped by SIGINT; $dir/int.data holds what was recorded so far" "$dir/int.tty"'
check "^C: the recording whole (perf reads samples), nothing left in TMPDIR" \
	'perf_reads "$dir/int.data" && [ -s "$dir/int.data.truth" ] && tmp_empty'

# -q: no progress line, no summary; the same file as without it (the
# program's C library does not run the same code on a terminal: both on one)
on_pty "$dir/q.tty" "$dir/q.rc" end -- "$PMUSIM" record -q -o "$dir/q.data" -- "$dir/loop" 1000000
check "-q on a terminal: exit 0, nothing written at all" '[ "$(cat "$dir/q.rc")" = 0 ] && [ ! -s "$dir/q.tty" ]'
on_pty "$dir/tq.tty" "$dir/tq.rc" end -- "$PMUSIM" record -o "$dir/tq.data" -- "$dir/loop" 1000000
check "-q: perf.data and truth byte for byte those of a run without it" \
	'cmp -s "$dir/q.data" "$dir/tq.data" && cmp -s "$dir/q.data.truth" "$dir/tq.data.truth"'
"$PMUSIM" record -o "$dir/plain.data" -- "$dir/loop" 1000000 2>"$dir/plain.err"
"$PMUSIM" record --no-progress -o "$dir/np.data" -- "$dir/loop" 1000000 2>"$dir/np.err"
check "off a terminal: no progress line; stderr the same bytes as with --no-progress (paths aside)" \
	'! grep -q "pmusim record: [0-9]* s" "$dir/plain.err" &&
	 [ "$(sed "s/plain.data/X/g" "$dir/plain.err")" = "$(sed "s/np.data/X/g" "$dir/np.err")" ]'
check "--no-progress: the same perf.data" 'cmp -s "$dir/np.data" "$dir/plain.data"'
# a short program on a terminal: the summary as off it
on_pty "$dir/end.tty" "$dir/end.rc" end -- "$PMUSIM" record --no-progress -o "$dir/end.data" -- "$dir/loop" 1000000
check "--no-progress on a terminal: the summary alone, as off it (the program's end, its status 0)" \
	'[ "$(cat "$dir/end.rc")" = 0 ] && grep -aq "^pmusim record $dir/loop: exited with status 0" "$dir/end.tty" &&
	 ! grep -aq "\[ pmusim record: " "$dir/end.tty"'
echo "1..$n"
