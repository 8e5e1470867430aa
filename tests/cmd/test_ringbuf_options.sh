#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim ringbuf's flags at their limits, each refusal one line naming the
# flag and the value, exit 2, nothing on stdout: --pages past 1024 or past
# a 32-bit number, with trailing junk or empty; --wakeup-events and
# --reader with a bad value. --reader pmusim is the default reader; a
# script of 64 record sizes runs, one of 65 is refused.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
printf 'write 16 3\ndump\nread\ndump\n' >"$dir/good.rb"
refused() { # WANT ARGS...: exit 2, stderr exactly WANT, stdout empty
	local want=$1
	shift
	"$PMUSIM" ringbuf "$@" >"$dir/out" 2>"$dir/err"
	local rc=$?
	[ $rc = 2 ] && [ "$(cat "$dir/err")" = "$want" ] && [ ! -s "$dir/out" ]
}
for p in 2048 4294967296 999999999999999999999 4x "" -1; do
	check "--pages '$p' is refused, naming it" \
		'refused "pmusim ringbuf: --pages must be a power of two from 1 to 1024, not '"'$p'"'" --pages "$p" "$dir/good.rb"'
done
check "--pages 1024 is taken" '"$PMUSIM" ringbuf --pages 1024 "$dir/good.rb" >"$dir/p.out" && head -1 "$dir/p.out" | grep -qx "data_head=48 data_tail=0"'
check "--wakeup-events x is refused, naming it" \
	'refused "pmusim ringbuf: --wakeup-events must be a number, not '"'x'"'" --wakeup-events x "$dir/good.rb"'
check "--watermark 4096x is refused, naming it" \
	'refused "pmusim ringbuf: --watermark must be a byte count above 0, not '"'4096x'"'" --watermark 4096x "$dir/good.rb"'
check "--reader bogus is refused, naming it" \
	'refused "pmusim ringbuf: --reader must be pmusim or libperf, not '"'bogus'"'" --reader bogus "$dir/good.rb"'
check "--reader pmusim reads as the default reader does" \
	'"$PMUSIM" ringbuf --reader pmusim "$dir/good.rb" >"$dir/r1" && "$PMUSIM" ringbuf "$dir/good.rb" >"$dir/r2" && cmp -s "$dir/r1" "$dir/r2" && grep -qx "READ 3" "$dir/r1"'

# record sizes: 64 kinds are provisioned, a 65th is refused before anything runs
: >"$dir/64.rb"
for i in $(seq 0 63); do echo "write $((16 + 8 * i))" >>"$dir/64.rb"; done
echo dump >>"$dir/64.rb"
cp "$dir/64.rb" "$dir/65.rb"
echo "write $((16 + 8 * 64))" >>"$dir/65.rb"
check "64 record sizes run" '"$PMUSIM" ringbuf --pages 16 "$dir/64.rb" >"$dir/64.out" && [ "$(grep -c "^SAMPLE " "$dir/64.out")" = 64 ]'
check "65 record sizes: exit 2, one line" \
	'refused "pmusim ringbuf: more than 64 record sizes in one script" --pages 16 "$dir/65.rb"'
echo "1..$n"
