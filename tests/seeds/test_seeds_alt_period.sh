#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The alternating-periods seed (pmusim seed alt-period): every other
# sample closes a short window, the kept ones come at one per (long +
# short) instructions, one period of the same rate takes as many samples;
# the per-function CPI of the short windows is far closer to the
# workload's true CPI than that of one period's windows. Every figure is
# read from the run's own output; the test knows only the periods.
set -u
. "$PMUSIM_SRCTREE/tests/seeds/seeds_lib.sh"

# ---- alternating periods -----------------------------------------------------
if ! has alternative_sample_period; then
	skip "alt-period: this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD"
elif seed alt-period ap.txt --duration 60000000 -o "$dir/ap.data"; then
	t=$dir/ap.txt
	read -r long short one_period <<<"$(awk '/^seed alt-period:/ {
		split($0, a, "periods "); split(a[2], b, "[/ ]"); print b[1], b[2], $NF }' "$t")"
	read -r insns_alt insns_one <<<"$(awk '/instructions: alternating/ { gsub(/,/, ""); print $3, $6 }' "$t")"
	read -r alt used one <<<"$(awk '/samples: alternating/ { gsub(/[(),]/, " "); print $3, $5, $9 }' "$t")"
	check "alt-period: the header and counts parse" \
		'[ "${long:-0}" -gt 0 ] && [ "${short:-0}" -gt 0 ] && [ "${one_period:-0}" -gt 0 ] &&
		 [ "${insns_alt:-0}" -gt 0 ] && [ "${alt:-0}" -gt 0 ] && [ "${one:-0}" -gt 0 ]'
	check "alt-period: every other sample closes a short window" \
		'[ $((alt / 2)) -le "$used" ] && [ "$used" -le $(((alt + 1) / 2)) ]'
	check "alt-period: short windows kept at one per long + short instructions (+-1)" \
		'd=$((used - insns_alt / (long + short))); [ "$d" -ge -1 ] && [ "$d" -le 1 ]'
	check "alt-period: one period of (long + short) / 2 samples at that rate (+-1), as often as alternating (1%)" \
		'd=$((one - insns_one / one_period)); [ "$d" -ge -1 ] && [ "$d" -le 1 ] &&
		 [ $(( (one - alt) * 100 / alt )) -eq 0 ]'
	# the CPI rows: function, true, short, |err|%, windows, one, |err|%, windows
	awk '/^  function .*true CPI/ { on = 1; next } /mean \|err\|/ { on = 0 } on && !/^  \(/' \
		"$t" >"$dir/cpi"
	check "alt-period: a CPI row with windows both ways for each phase function" \
		'[ "$(grep -c "^  phase_" "$dir/cpi")" -ge 2 ] &&
		 awk "NF != 8 || \$5 < 1 || \$8 < 1 { bad = 1 } END { exit bad }" "$dir/cpi"'
	check "alt-period: the functions' true CPIs differ (largest over smallest >= 2)" \
		'awk "NR == 1 || \$2 < lo { lo = \$2 } \$2 > hi { hi = \$2 } END { exit !(hi >= 2 * lo) }" "$dir/cpi"'
	check "alt-period: no window has fewer cycles than instructions (CPI >= 1 everywhere)" \
		'awk "{ if (\$2 < 1 || \$3 < 1 || \$6 < 1) bad = 1 } END { exit bad }" "$dir/cpi"'
	mean_short=$(field "$t" "mean |err|%" 1)
	mean_one=$(field "$t" "mean |err|%" 2)
	check "alt-period: short-window CPI error at most half one period's (mean ${mean_short:-?}% vs ${mean_one:-?}%)" \
		'awk -v s="${mean_short:-x}" -v o="${mean_one:-0}" "BEGIN { exit !(s ~ /^[0-9.]+\$/ && 2 * s <= o) }"'
	check "alt-period: short windows closer to the truth than one period for every function" \
		'awk "\$4 >= \$7 { bad = 1 } END { exit bad }" "$dir/cpi"'
	check "alt-period: the share table has each function and the sums" \
		'grep -q "share of the samples" "$t" && grep -q "^  sum |err|" "$t"'
	"$PMUSIM" dump "$dir/ap.data" >"$dir/ap.dump" 2>&1
	check "alt-period: -o keeps the alternating run's perf.data (attr period $long, $used samples of $short)" \
		'grep -q "^attr0.*sample_period=$long\b" "$dir/ap.dump" &&
		 [ "$(grep -c "SAMPLE.*period=$short\$" "$dir/ap.dump")" -eq "$used" ]'
else
	nok "alt-period runs: $(head -1 "$dir/ap.txt.err")"
fi
# ---- too short to sample every function; an event that is not instructions ----
if has alternative_sample_period; then
	# 600k cycles: one short window and three one-period ones among four phases
	if seed alt-period short.txt --duration 600000; then
		t=$dir/short.txt
		awk '/^  function .*true CPI/ { on = 1; next } /mean \|err\|/ { on = 0 } on && !/^  \(/' \
			"$t" >"$dir/short.cpi"
		awk '/share of the samples/ { on = 1; next } /^  sum/ { on = 0 } on && /^  phase_/' \
			"$t" >"$dir/short.share"
		check "alt-period, short run: a function with no short window has no CPI, its windows still counted" \
			'awk "\$3 == \"-\" && \$4 == \"-\" && \$5 == 0 && \$6 == \"-\" { n++ } END { exit !(n >= 1) }" "$dir/short.cpi" &&
			 awk "\$3 != \"-\" { n++ } END { exit !(n >= 1) }" "$dir/short.cpi"'
		check "alt-period, short run: every phase function in the share table, sampled or not" \
			'[ "$(wc -l <"$dir/short.share")" = 4 ] &&
			 awk "\$3 == 0 && \$5 == 0 { z = 1 } \$3 == 0 && \$5 > 0 { o = 1 } END { exit !(z && o) }" "$dir/short.share"'
	else
		nok "alt-period short run: $(head -1 "$dir/short.txt.err")"
	fi
	# cycles: no window has instructions to divide by
	sed 's/event: instructions:u/event: cycles:u/' "$scn/seed-alt-period.yaml" >"$dir/cyc.yaml"
	if "$PMUSIM" seed alt-period "$dir/cyc.yaml" --duration 20000000 --map-dir "$dir" >"$dir/cyc.txt" \
		2>"$dir/cyc.err"; then
		t=$dir/cyc.txt
		check "alt-period on cycles: no CPI, says why, no error line; the share table still there" \
			'grep -q "^  (no CPI: the event does not count instructions" "$t" && ! grep -q "mean |err|" "$t" &&
			 [ "$(grep -c "^  phase_.* - .* - " "$t")" = 4 ] && grep -q "^  sum |err|" "$t" && [ ! -s "$dir/cyc.err" ]'
	else
		nok "alt-period on cycles runs: $(head -1 "$dir/cyc.err")"
	fi
else
	skip "alt-period: this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD"
fi
echo "1..$n"
