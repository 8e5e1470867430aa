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
scenario mixed-sizes "$dir/mixed.yaml" || nok "seed_scenarios.txt has mixed-sizes"
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

# ---- a buffer of whole records ----------------------------------------------
# 32-byte samples (ip, tid, time): 8 KiB holds 256 of them, so once the
# writer has lapped the buffer data_head - size is where a record starts
sed 's/sample_type: \[ip, tid, time, cpu, period\]/sample_type: [ip, tid, time]/' \
	"$scn/seed-write-backward.yaml" >"$dir/whole.yaml"
if "$PMUSIM" seed write-backward "$dir/whole.yaml" --duration 60000000 --map-dir "$dir" \
	>"$dir/whole.txt" 2>"$dir/whole.err"; then
	t=$dir/whole.txt
	read -r taken recsize written <<<"$(awk '/samples of/ { print $1, $4, $7 }' "$t")"
	check "write-backward, whole records: 32-byte samples, the writer lapped the 8 KiB buffer" \
		'[ "$recsize" = 32 ] && [ "$written" -gt 8192 ] && [ "$taken" -gt 256 ]'
	check "write-backward, whole records: data_head - size starts a record, the paused reader reads all 256" \
		'grep -q "data_head - size starts a record" "$t" &&
		 [ "$(field "$t" "backward, paused, from data_head" 1)" = 256 ] &&
		 [ "$(field "$t" "backward, paused, from data_head" 3)" = 256 ]'
	check "write-backward, whole records: unpaused, the plain reader hands out a record out of order and ends as if all were well" \
		'v=$(field "$t" "backward, unpaused, plain" 2)
		 [ "$(field "$t" "backward, unpaused, plain" 3)" -lt "$v" ] &&
		 [ "$(field "$t" "backward, unpaused, plain" 4)" = end ]'
else
	nok "write-backward on whole records runs: $(head -1 "$dir/whole.err")"
fi

# ---- one CPU's buffer, two tasks, not lapped --------------------------------
# system-wide on one CPU: one ring buffer holds both tasks' samples; 16 KiB
# that the run does not fill, read by the verifying reader in two chunks
scenario two-tasks-one-cpu "$dir/sys.yaml" || nok "seed_scenarios.txt has two-tasks-one-cpu"
if "$PMUSIM" seed write-backward "$dir/sys.yaml" --duration 40000000 --map-dir "$dir" \
	-o "$dir/sys.data" >"$dir/sys.txt" 2>"$dir/sys.err"; then
	t=$dir/sys.txt
	read -r taken recsize written <<<"$(awk '/samples of/ { print $1, $4, $7 }' "$t")"
	"$PMUSIM" dump "$dir/sys.data" >"$dir/sys.dump" 2>&1
	check "write-backward, two tasks on one CPU: both tasks' samples in the one buffer" \
		'[ "$(grep SAMPLE "$dir/sys.dump" | grep -o "tid=[0-9]*" | sort -u | wc -l)" = 2 ]'
	check "write-backward, not lapped: every sample taken is whole, and read in order by the paused reader and the forward one" \
		'[ "$written" -lt 16384 ] && [ "$written" -gt 8192 ] && [ "$written" = $((taken * recsize)) ] &&
		 [ "$(field "$t" "backward, paused, from data_head" 1)" = "$taken" ] &&
		 [ "$(field "$t" "backward, paused, from data_head" 3)" = "$taken" ] &&
		 [ "$(field "$t" "forward overwrite, from its place" 3)" = "$taken" ] &&
		 [ "$(field "$t" "forward overwrite, from its place" 4)" = end ] &&
		 grep -q "lost its place 0 time(s)" "$t"'
	check "write-backward, two chunks: copy-then-verify hands out only true records, then says what was overwritten" \
		'v=$(field "$t" "backward, unpaused, copy-then-verify" 2); [ "$v" -gt 0 ] &&
		 [ "$(field "$t" "backward, unpaused, copy-then-verify" 3)" = "$v" ] &&
		 [ "$(field "$t" "backward, unpaused, copy-then-verify" 4)" = record-overwritten ]'
else
	nok "write-backward on two tasks' buffer runs: $(head -1 "$dir/sys.err")"
fi

# ---- context switches between the samples -----------------------------------
# SWITCH_CPU_WIDE records as large as the samples (40 bytes) in the same
# buffer: they are read, but only the samples are judged, each in its order
sed 's/sample_type: \[ip, tid, time, cpu, period\]/sample_type: [ip, tid, time, cpu]\n    context_switch: true/' \
	"$dir/sys.yaml" >"$dir/csw.yaml"
if "$PMUSIM" seed write-backward "$dir/csw.yaml" --duration 40000000 --map-dir "$dir" \
	>"$dir/csw.txt" 2>"$dir/csw.err"; then
	t=$dir/csw.txt
	taken=$(awk '/samples of/ { print $1 }' "$t")
	# ROW read more records than samples, judged every sample taken consistent, to the end
	all_samples() { [ "$(field "$t" "$1" 2)" -gt "$taken" ] && [ "$(field "$t" "$1" 3)" = "$taken" ] &&
		[ "$(field "$t" "$1" 4)" = end ]; }
	check "write-backward, switch records between the samples: the paused and the forward reader read them all, each sample consistent" \
		'all_samples "backward, paused, from data_head" && all_samples "forward overwrite, from its place"'
	check "write-backward, switch records between the samples: no more whole records counted than samples taken" \
		'[ "$(field "$t" "backward, paused, from data_head" 1)" = "$taken" ]'
else
	nok "write-backward with switch records runs: $(head -1 "$dir/csw.err")"
fi

echo "1..$n"
