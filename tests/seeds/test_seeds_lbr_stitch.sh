#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The LBR stitching seed (pmusim seed lbr-stitch): the chain deeper than
# the LBR shows LBR entries + 1 frames without stitching and all with it,
# none wrong; a recursion stitches deeper than it is; real perf script,
# with and without --stitch-lbr, prints the same stacks as pmusim stitch,
# sample by sample, frame by frame; the same seed writes the same bytes.
# A build without CONFIG_LBR_STITCH refuses the seed with one line.
set -u
. "$PMUSIM_SRCTREE/tests/seeds/seeds_lib.sh"

# ---- LBR stitching -----------------------------------------------------------
data=$dir/st.data
if ! has lbr_stitch; then
	seed lbr-stitch refused.txt --duration 30000000 -o "$data"
	rc=$?
	check "lbr-stitch: this build refuses the seed, naming CONFIG_LBR_STITCH, and writes nothing" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/refused.txt.err")" = 1 ] && [ ! -s "$dir/refused.txt" ] &&
		 [ ! -e "$data" ] && grep -q "no CONFIG_LBR_STITCH, which the seed needs" "$dir/refused.txt.err"'
	skip "lbr-stitch: this build has no CONFIG_LBR_STITCH"
elif seed lbr-stitch st.txt --duration 30000000 -o "$data"; then
	t=$dir/st.txt
	lbr=$(awk '/LBR entries/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "LBR") print $i; exit }' "$t")
	row() { awk -v task="$1" -v f="$2" '$2 == task { print $f; exit }' "$t"; }
	check "lbr-stitch: the chain is deeper than the LBR" '[ "$(row tchain_edit 4)" -gt $((lbr + 1)) ]'
	check "lbr-stitch: without stitching, LBR entries + 1 frames" '[ "$(row tchain_edit 5)" = $((lbr + 1)) ]'
	check "lbr-stitch: with stitching, the whole chain, no frame that is not there" \
		'[ "$(row tchain_edit 7)" = "$(row tchain_edit 4)" ] && [ "$(row tchain_edit 9)" -gt 0 ] &&
		 [ "$(row tchain_edit 10)" = 0 ]'
	check "lbr-stitch: a recursion stitches frames that are not there (deeper than it is)" \
		'[ "$(row recurse 7)" -gt "$(row recurse 4)" ] && [ "$(row recurse 10)" -gt 0 ]'
	if ! command -v perf >/dev/null 2>&1 || ! perf version >/dev/null 2>&1; then
		skip "lbr-stitch: perf is not installed"
	else
		# addresses only: symbols would come from /tmp/perf-PID.map, which
		# other runs share
		for mode in stitch plain; do
			popt=--stitch-lbr; sopt=
			[ $mode = plain ] && popt= && sopt=--no-stitch
			perf script -i "$data" -F tid,time,ip $popt >"$dir/perf.$mode" 2>"$dir/perf.$mode.err"
			"$PMUSIM" stitch --tid-time --no-sym $sopt "$data" >"$dir/pmusim.$mode"
			# blocks that differ, save those of an empty LBR, where perf 6.1
			# reads entries[0] past the end of the sample and pmusim prints
			# the sample's ip: one frame each, at another address
			python3 - "$dir/pmusim.$mode" "$dir/perf.$mode" >"$dir/cmp.$mode" <<'PY'
import sys
def blocks(path):
    out = []
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('\t'):
            out[-1][1].append(line)
        elif line.strip():
            out.append([line, []])
    return out
a, b = blocks(sys.argv[1]), blocks(sys.argv[2])
same = empty = diff = 0
for x, y in zip(a, b):
    if x == y:
        same += 1
    elif x[0] == y[0] and len(x[1]) == 1 and len(y[1]) == 1:
        empty += 1
    else:
        diff += 1
print(len(a), len(b), same, empty, diff)
PY
			read -r na nb nsame nempty ndiff <"$dir/cmp.$mode"
			check "lbr-stitch: perf script ${popt:-(no --stitch-lbr)} and pmusim stitch agree frame by frame ($nsame same, $nempty empty LBR)" \
				'[ ! -s "$dir/perf.$mode.err" ] && [ "$na" = "$nb" ] && [ "$na" -gt 0 ] && [ "$ndiff" = 0 ] &&
				 [ $((nsame + nempty)) = "$na" ]'
		done
		maxof() { awk -v tid="$2" '/^ *[0-9]+ / { on = ($1 == tid); c = 0; next }
			on && /^\t/ { c++; if (c > m) m = c } END { print m + 0 }' "$1"; }
		# perf report's flat call graph of the chain's thread: the deepest chain
		report_max() {
			perf report -i "$data" --tid="$(row tchain_edit 1)" $1 --stdio --no-children \
				--no-branch-stack -g caller,0,flat -F overhead,sym 2>/dev/null |
			awk '/^ +[0-9.]+%$/ { c = 0; on = 1; next } /^$/ { on = 0; next }
				on && /^ +[^ ]/ { c++; if (c > m) m = c } END { print m + 0 }'
		}
		check "lbr-stitch: perf report shows LBR entries + 1 frames, and the whole chain with --stitch-lbr" \
			'[ "$(report_max "")" = $((lbr + 1)) ] && [ "$(report_max --stitch-lbr)" = "$(row tchain_edit 4)" ]'
		check "lbr-stitch: perf --stitch-lbr stitches the recursion deeper than it is, too" \
			'[ "$(maxof "$dir/perf.stitch" "$(row recurse 1)")" -gt "$(row recurse 4)" ]'
		check "lbr-stitch: perf's deepest stacks per task are pmusim's" \
			'[ "$(maxof "$dir/perf.plain" "$(row tchain_edit 1)")" = "$(row tchain_edit 5)" ] &&
			 [ "$(maxof "$dir/perf.stitch" "$(row tchain_edit 1)")" = "$(row tchain_edit 7)" ] &&
			 [ "$(maxof "$dir/perf.stitch" "$(row recurse 1)")" = "$(row recurse 7)" ]'
	fi
	check "lbr-stitch: the same seed writes the same perf.data" \
		'seed lbr-stitch st2.txt --duration 30000000 -o "$dir/st2.data" && cmp -s "$data" "$dir/st2.data"'
else
	nok "lbr-stitch runs: $(head -1 "$dir/st.txt.err")"
fi

echo "1..$n"
