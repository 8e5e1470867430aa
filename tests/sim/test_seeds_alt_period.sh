#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The alternating-periods seed (pmusim seed alt-period): every other
# sample closes a short window, one period of the same rate takes as many
# samples, and the per-function error tables (share, CPI of the windows)
# are printed for both; no window can have a CPI below 1.
set -u
. "$PMUSIM_SRCTREE/tests/sim/seeds_lib.sh"

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
	check "alt-period: the share error table has each function and the sums" \
		'[ "$(grep -c "^  [a-z_0-9]* *[0-9.]* *[0-9.]* *[0-9.]* *[0-9.]* *[0-9.]*$" "$t")" -ge 4 ] &&
		 grep -q "sum |err|" "$t"'
	# the CPI rows: function, truth, short, |err|%, one, |err|%
	awk '/ CPI /{ on = 1; next } /mean/ { on = 0 } on' "$t" >"$dir/cpi"
	check "alt-period: the CPI error table has a row per function a window ends in" \
		'[ "$(wc -l <"$dir/cpi")" -ge 2 ] && grep -q "^  mean |err|%" "$t"'
	check "alt-period: no window has fewer cycles than instructions (CPI >= 1 everywhere)" \
		'awk "{ if (\$2 < 1 || \$3 < 1 || \$5 < 1) bad = 1 } END { exit bad }" "$dir/cpi"'
else
	nok "alt-period runs: $(head -1 "$dir/ap.txt.err")"
fi
echo "1..$n"
