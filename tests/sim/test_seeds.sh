#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The seeds' results (pmusim seed, scenarios/seed-*.yaml), each asserted
# from the figures of the run, on shortened runs:
#   write-backward  the paused backward reader gets every whole record and
#                   only them; the forward overwrite reader loses its place;
#                   read unpaused, the plain reader ends early without an
#                   error while copy-then-verify says what was overwritten
#   task-ctx-data   system-wide stacks as whole as per-process ones with the
#                   feature, shorter without; bytes per task and for 10k
#   hw-time         every post-processed raw TSC equals the model's clock
#   lbr-stitch      the chain deeper than the LBR: LBR depth + 1 frames
#                   without stitching, all with it, none wrong; recursion
#                   stitched deeper than it is; perf 6.1 agrees frame by frame
#   alt-period      half the alternating samples close a short window; the
#                   error table is there for both ways
# and the same seed writes the same bytes. Seeds of an RFC this build lacks
# are skipped with the reason.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
scn=$PMUSIM_SRCTREE/scenarios
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; echo "# skipped: $1"; }
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
has() { "$PMUSIM" version | grep -q "^$1 on"; }
# field N (1-based, after the label) of the row starting with LABEL in FILE
field() { awk -v l="$2" -v f="$3" 'index($0, "  " l) == 1 { s = substr($0, length(l) + 3); split(s, a, " "); print a[f]; exit }' "$1"; }
seed() { # NAME OUT [ARGS...]
	local name=$1 out=$2
	shift 2
	"$PMUSIM" seed "$name" "$scn/seed-$name.yaml" --map-dir "$dir" "$@" >"$dir/$out" 2>"$dir/$out.err"
}

# ---- write backward ----------------------------------------------------------
if seed write-backward wb.txt --duration 50000000 -o "$dir/wb.data"; then
	t=$dir/wb.txt
	whole=$(field "$t" "backward, paused, from data_head" 1)
	read -r taken recsize written <<<"$(awk '/samples of/ { print $1, $4, $7 }' "$t")"
	size=$(awk '/overwrite buffer/ { for (i = 1; i <= NF; i++) if ($i ~ /-byte$/) print $i + 0 }' "$t")
	check "write-backward: the writer lapped the buffer" '[ "$written" -gt "$size" ]'
	check "write-backward: whole records = buffer / record size" \
		'[ "$whole" = $((size / recsize)) ] && [ "$whole" -lt "$taken" ]'
	check "write-backward: the paused backward reader reads every whole record, each the sample taken" \
		'[ "$(field "$t" "backward, paused, from data_head" 2)" = "$whole" ] &&
		 [ "$(field "$t" "backward, paused, from data_head" 3)" = "$whole" ] &&
		 [ "$(field "$t" "backward, paused, from data_head" 4)" = end ]'
	check "write-backward: the forward overwrite reader cannot find where to start" \
		'[ "$(field "$t" "forward overwrite, from its place" 2)" = 0 ] &&
		 [ "$(field "$t" "forward overwrite, from its place" 4)" = fell-behind ] &&
		 grep -q "data_head - size does not start a record" "$t"'
	plain=$(field "$t" "backward, unpaused, plain" 2)
	check "write-backward: read unpaused, the plain reader ends early and does not say so" \
		'[ "$plain" -lt "$whole" ] && [ "$(field "$t" "backward, unpaused, plain" 4)" = end ]'
	check "write-backward: copy-then-verify detects the overwrite and hands out only true records" \
		'[ "$(field "$t" "backward, unpaused, copy-then-verify" 4)" = record-overwritten ] ||
		 [ "$(field "$t" "backward, unpaused, copy-then-verify" 4)" = header-overwritten ]' 
	check "write-backward: ... all of them consistent" \
		'v=$(field "$t" "backward, unpaused, copy-then-verify" 2); [ "$v" -gt 0 ] &&
		 [ "$(field "$t" "backward, unpaused, copy-then-verify" 3)" = "$v" ]'
	check "write-backward: the same seed prints the same table" \
		'seed write-backward wb2.txt --duration 50000000 -o "$dir/wb2.data" && cmp -s "$dir/wb.txt" "$dir/wb2.txt"'
else
	nok "write-backward runs: $(head -1 "$dir/wb.txt.err")"
fi

# ---- per-task LBR data -------------------------------------------------------
if seed task-ctx-data tc.txt --duration 60000000 -o "$dir/tc.data"; then
	t=$dir/tc.txt
	pp_whole=$(field "$t" per-process 5) sw_whole=$(field "$t" system-wide 5)
	pp_avg=$(field "$t" per-process 3) sw_avg=$(field "$t" system-wide 3)
	bytes=$(field "$t" system-wide 7)
	check "task-ctx-data: tasks were switched" '[ "$(field "$t" system-wide 6)" -gt 2 ]'
	check "task-ctx-data: per process, every LBR stack is whole" '[ "$pp_whole" = 100.0 ]'
	if has task_ctx_data; then
		check "task-ctx-data on: system-wide stacks are as deep and whole as per-process ones" \
			'[ "$sw_avg" = "$pp_avg" ] && [ "$sw_whole" = "$pp_whole" ]'
		check "task-ctx-data on: each task holds data; 10k tasks hold 10000 times that" \
			'[ "$bytes" -gt 0 ] && [ "$(field "$t" system-wide 8)" = $((bytes * 10000)) ]'
	else
		check "task-ctx-data off: system-wide stacks are shorter than per-process ones" \
			'awk -v a="$sw_avg" -v b="$pp_avg" -v c="$sw_whole" -v d="$pp_whole" \
			 "BEGIN { exit !(a < b && c < d) }"'
		check "task-ctx-data off: no per-task data" '[ "$bytes" = 0 ]'
	fi
else
	nok "task-ctx-data runs: $(head -1 "$dir/tc.txt.err")"
fi

# ---- hardware time -----------------------------------------------------------
if ! has hw_time; then
	skip "hw-time: this build has no CONFIG_PERF_HW_TIME"
elif seed hw-time hw.txt --duration 40000000 -o "$dir/hw.data"; then
	t=$dir/hw.txt
	samples=$(field "$t" "samples with a raw TSC" 1)
	check "hw-time: samples carry the raw TSC" '[ "$samples" -gt 0 ]'
	check "hw-time: every post-processed monotonic raw time equals the model clock" \
		'[ "$(field "$t" "post-processed mono_raw == model mono_raw" 1)" = "$samples" ] &&
		 [ "$(field "$t" "samples with no page snapshot before them" 1)" = 0 ]'
else
	nok "hw-time runs: $(head -1 "$dir/hw.txt.err")"
fi

# ---- LBR stitching -----------------------------------------------------------
data=$dir/st.data
if seed lbr-stitch st.txt --duration 30000000 -o "$data"; then
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
			# reads entries[0] past the end of the sample
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
    elif x[0] == y[0] and not x[1] and len(y[1]) == 1:
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

# ---- alternating periods -----------------------------------------------------
if ! has alternative_sample_period; then
	skip "alt-period: this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD"
elif seed alt-period ap.txt --duration 60000000 -o "$dir/ap.data"; then
	t=$dir/ap.txt
	read -r alt short one <<<"$(awk '/samples: alternating/ { gsub(/[(),]/, " "); print $3, $5, $8 }' "$t")"
	check "alt-period: every other sample closes a short window" \
		'[ "$alt" -gt 0 ] && [ $((alt / 2)) -le "$short" ] && [ "$short" -le $(((alt + 1) / 2)) ]'
	check "alt-period: one period of the same rate takes as many samples (within 1%)" \
		'[ $(( (one - alt) * 100 / alt )) -eq 0 ]'
	check "alt-period: the error table has each function and the sums" \
		'[ "$(grep -c "^  [a-z_0-9]* *[0-9.]* *[0-9.]* *[0-9.]* *[0-9.]* *[0-9.]*$" "$t")" -ge 2 ] &&
		 grep -q "sum |err|" "$t"'
else
	nok "alt-period runs: $(head -1 "$dir/ap.txt.err")"
fi
echo "1..$n"
