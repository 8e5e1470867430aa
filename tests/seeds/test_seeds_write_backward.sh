#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The write_backward seed (pmusim seed write-backward), asserted from the
# figures of a shortened run: the paused backward reader gets every whole
# record and only the samples taken; the forward overwrite reader loses
# its place; read unpaused while the writer goes on, the plain reader ends
# early without an error while copy-then-verify says what was overwritten.
# Records of mixed sizes (LBR call stacks of a varying depth) have no one
# record size to count the whole records by: the seed says so, and still
# lets the writer go on inside each unpaused walk.
set -u
. "$PMUSIM_SRCTREE/tests/seeds/seeds_lib.sh"

# ---- write backward ----------------------------------------------------------
if seed write-backward wb.txt --duration 40000000 -o "$dir/wb.data"; then
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
else
	nok "write-backward runs: $(head -1 "$dir/wb.txt.err")"
fi

# ---- records of mixed sizes --------------------------------------------------
# LBR call stacks of a random workload: as many branch entries as the stack
# is deep at the sample, so the records differ in size
cat >"$dir/mixed.yaml" <<EOF
seed: 1
duration: 100000000
machine: { cpu: skylake, cpus: 1 }
tasks:
  - name: rnd
    workload: { kind: random }
events:
  - event: cycles:u
    period: 200003
    sample_type: [ip, tid, time, cpu, period]
    call_graph: lbr
    write_backward: true
buffer: { pages: 2, overwrite: true }
consumer: { interval: 1000000000000, pause: true }
EOF
if "$PMUSIM" seed write-backward "$dir/mixed.yaml" --duration 40000000 --map-dir "$dir" \
	-o "$dir/mixed.data" >"$dir/mixed.txt" 2>"$dir/mixed.err"; then
	t=$dir/mixed.txt
	read -r small large <<<"$(sed -n 's/.* samples of mixed sizes (\([0-9]*\) to \([0-9]*\) bytes) taken.*/\1 \2/p' "$t")"
	check "write-backward, mixed sizes: says so with the smallest and largest record" \
		'[ -n "$small" ] && [ "$small" -lt "$large" ] && [ "$large" -le 65535 ] &&
		 ! grep -q 4294967295 "$t"'
	check "write-backward, mixed sizes: the whole records are not counted from a size" \
		'grep -q "no one record size to count the whole records by" "$t" &&
		 [ "$(field "$t" "backward, paused, from data_head" 1)" = - ] &&
		 [ "$(field "$t" "backward, unpaused, copy-then-verify" 1)" = - ]'
	check "write-backward, mixed sizes: the paused backward reader reads only samples taken, to the end" \
		'v=$(field "$t" "backward, paused, from data_head" 2); [ "$v" -gt 0 ] &&
		 [ "$(field "$t" "backward, paused, from data_head" 3)" = "$v" ] &&
		 [ "$(field "$t" "backward, paused, from data_head" 4)" = end ]'
	check "write-backward, mixed sizes: the writer goes on inside the copy-then-verify walk too" \
		'grep -q "copy-then-verify found [1-9][0-9]* record(s) overwritten" "$t" &&
		 [ "$(field "$t" "backward, unpaused, copy-then-verify" 4)" != end ] &&
		 [ "$(field "$t" "backward, unpaused, copy-then-verify" 2)" -lt \
		   "$(field "$t" "backward, paused, from data_head" 2)" ]'
else
	nok "write-backward on records of mixed sizes runs: $(head -1 "$dir/mixed.err")"
fi

echo "1..$n"
