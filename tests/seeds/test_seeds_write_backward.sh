#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The write_backward seed (pmusim seed write-backward), asserted from the
# figures of a shortened run: the paused backward reader gets every whole
# record and only the samples taken; the forward overwrite reader loses
# its place; read unpaused while the writer goes on, the plain reader ends
# early without an error while copy-then-verify says what was overwritten.
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

echo "1..$n"
