#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The hardware-time seed (pmusim seed hw-time): samples carry the raw TSC,
# and every one post-processed with the user page's time_mono_* fields
# equals the model's CLOCK_MONOTONIC_RAW. A build without the RFC refuses
# the scenario's hw_time field with one FILE:LINE line.
set -u
. "$PMUSIM_SRCTREE/tests/seeds/seeds_lib.sh"

# ---- hardware time -----------------------------------------------------------
if ! has hw_time; then
	line=$(grep -n "hw_time:" "$scn/seed-hw-time.yaml" | cut -d: -f1)
	seed hw-time refused.txt
	rc=$?
	check "hw-time: this build refuses the scenario's hw_time, naming its line" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/refused.txt.err")" = 1 ] &&
		 grep -q "seed-hw-time.yaml:$line: events.0.hw_time: " "$dir/refused.txt.err"'
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

echo "1..$n"
