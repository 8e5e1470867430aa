#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim ringbuf on bad input: every class of bad script line and bad flag
# gives exit status 2 and exactly one line on stderr naming FILE:LINE (or
# "pmusim ringbuf:" for flags), and nothing on stdout; --help and a script
# of comments and blank lines succeed.
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }

# bad_script WHAT LINE-NUMBER SCRIPT-TEXT [FLAGS...]
bad_script() {
	local what=$1 line=$2 text=$3 rc err out
	shift 3
	printf '%b' "$text" >"$tmp/s.rb"
	"$PMUSIM" ringbuf "$@" "$tmp/s.rb" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	err=$(cat "$tmp/err")
	out=$(cat "$tmp/out")
	if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ -z "$out" ] &&
	   grep -q "^$tmp/s.rb:$line: " "$tmp/err"; then
		ok "$what: exit 2, one line at s.rb:$line"
	else
		not_ok "$what" "exit $rc" "stderr: $err" "stdout: $out"
	fi
}

# bad_flag WHAT ARGS...
bad_flag() {
	local what=$1 rc
	shift
	"$PMUSIM" ringbuf "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -s "$tmp/out" ] &&
	   grep -q '^pmusim ringbuf: ' "$tmp/err"; then
		ok "$what: exit 2, one line"
	else
		not_ok "$what" "exit $rc" "stderr: $(cat "$tmp/err")"
	fi
}

bad_script "unknown operation" 3 'write 16\n# fine\nfrobnicate 3\n'
bad_script "size below 16" 1 'write 8\n'
bad_script "size above 65528" 2 'dump\nwrite 65536\n'
bad_script "size not a multiple of 8" 1 'write 44 2\n'
bad_script "size not a number" 1 'write 4k\n'
bad_script "negative size" 1 'write -16\n'
bad_script "huge size" 1 'write 184467440737095516160\n'
bad_script "write without a size" 2 '\nwrite\n'
bad_script "zero count" 1 'write 16 0\n'
bad_script "count not a number" 1 'write 16 x\n'
bad_script "write with too many arguments" 1 'write 16 1 1\n'
bad_script "write with more words than any operation takes" 1 'write 16 1 1 1 1\n'
bad_script "read with a bad count" 1 'read many\n'
bad_script "read with a zero count" 1 'read 0\n'
bad_script "read with two counts" 2 'write 16\nread 1 2\n'
bad_script "read in overwrite mode" 2 'write 16\nread\n' --overwrite
bad_script "read in a backward buffer" 1 'read 1\n' --backward
bad_script "dump with an argument" 1 'dump now\n'
bad_script "pause with an argument" 1 'pause 1\n'
bad_script "NUL byte in a line" 2 'write 16\nwr\0ite 16\n'

printf 'write 16\n' >"$tmp/good.rb"
bad_flag "pages not a power of two" --pages 3 "$tmp/good.rb"
bad_flag "pages zero" --pages 0 "$tmp/good.rb"
bad_flag "pages not a number" --pages two "$tmp/good.rb"
bad_flag "unknown flag" --frobnicate "$tmp/good.rb"
bad_flag "unknown backend" --backend qemu "$tmp/good.rb"
bad_flag "flag without its argument" --pages
bad_flag "watermark zero" --watermark 0 "$tmp/good.rb"
bad_flag "watermark and wakeup-events together" --watermark 64 --wakeup-events 2 "$tmp/good.rb"
bad_flag "no script" --pages 2
bad_flag "two scripts" "$tmp/good.rb" "$tmp/good.rb"
bad_flag "missing script file" "$tmp/does-not-exist.rb"

# A directory opens, but reading it fails: FILE:1 and the error, exit 2.
mkdir "$tmp/dir.rb"
"$PMUSIM" ringbuf "$tmp/dir.rb" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" = 2 ] && [ "$(cat "$tmp/err")" = "$tmp/dir.rb:1: Is a directory" ] && [ ! -s "$tmp/out" ]; then
	ok "a directory as the script: exit 2, one line at dir.rb:1"
else
	not_ok "a directory as the script" "exit $rc" "stderr: $(cat "$tmp/err")"
fi

if "$PMUSIM" ringbuf --help >"$tmp/out" 2>&1 && grep -q '^usage: pmusim ringbuf' "$tmp/out"; then
	ok "--help prints usage and exits 0"
else
	not_ok "--help" "$(cat "$tmp/out")"
fi

printf '# only comments\n\n   \t\n# write 7\ndump # trailing comment\n' >"$tmp/c.rb"
if out=$("$PMUSIM" ringbuf "$tmp/c.rb" 2>&1) && [ "$out" = "data_head=0 data_tail=0" ]; then
	ok "comments and blank lines are ignored"
else
	not_ok "comments and blank lines" "$out"
fi
echo "1..$n"
