#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim dump and pmusim stitch check a perf.data alike: on a file with
# bytes flipped, both exit 2 with the same one line (the first problem in
# file order), or both read it. Before they shared the check, dump walked
# only the record sizes and printed samples that stitch refused. A build
# without CONFIG_LBR_STITCH has no stitch to compare with: it refuses.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
cat >"$dir/s.yaml" <<'EOS'
seed: 5
duration: 4200000
machine: { cpu: skylake }
tasks:
  - name: t
    workload: { kind: tchain, depth: 40, mid_loops: 20, leaf_loops: 50, outer_loops: 1 }
events:
  - event: cycles:u
    period: 20011
    call_graph: lbr
EOS
"$PMUSIM" run "$dir/s.yaml" -o "$dir/good.data" --map-dir "$dir" >/dev/null 2>&1
if ! grep -qx 'CONFIG_LBR_STITCH=y' "$PMUSIM_OBJTREE/.config"; then
	"$PMUSIM" stitch "$dir/good.data" >"$dir/stitch.out" 2>"$dir/stitch.err"
	rc=$?
	check "no CONFIG_LBR_STITCH: stitch refuses the intact file, one line naming the option, exit 2" \
		'[ $rc = 2 ] && [ ! -s "$dir/stitch.out" ] && [ "$(wc -l <"$dir/stitch.err")" = 1 ] &&
		 grep -q "turn on CONFIG_LBR_STITCH" "$dir/stitch.err"'
	echo "# skipped: this build has no CONFIG_LBR_STITCH: no stitch to check dump against"
	skip "no CONFIG_LBR_STITCH"
	echo "1..$n"
	exit 0
fi
check "the intact file: dump and stitch read it" \
	'"$PMUSIM" dump "$dir/good.data" >/dev/null && "$PMUSIM" stitch "$dir/good.data" >/dev/null'
# 200 bytes flipped past the header, at places drawn from SEED
flip() { # SEED OUT
	python3 - "$dir/good.data" "$2" "$1" <<'EOP'
import random, sys
d = bytearray(open(sys.argv[1], 'rb').read())
r = random.Random(int(sys.argv[3]))
for _ in range(200):
    d[r.randrange(300, len(d) - 2000)] ^= 0xff
open(sys.argv[2], 'wb').write(d)
EOP
}
refused=0
for seed in 1 2 3 4 5 6 7 8; do
	flip $seed "$dir/bad.data"
	"$PMUSIM" dump "$dir/bad.data" >"$dir/dump.out" 2>"$dir/dump.err"
	drc=$?
	"$PMUSIM" stitch "$dir/bad.data" >/dev/null 2>"$dir/stitch.err"
	src=$?
	[ $drc = 2 ] && refused=$((refused + 1))
	check "flipped bytes (seed $seed): dump exits as stitch does ($drc, $src), with the same line" \
		'[ $drc = $src ] && cmp -s "$dir/dump.err" "$dir/stitch.err" &&
		 { [ $drc = 0 ] || { [ "$(wc -l <"$dir/dump.err")" = 1 ] && [ ! -s "$dir/dump.out" ]; }; }'
done
check "some flipped files are refused ($refused of 8)" '[ $refused -gt 0 ]'
echo "1..$n"
