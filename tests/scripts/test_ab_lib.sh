#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/ab_lib.sh, the cost rows make ab (scripts/ab.sh) and make ab
# KSRC=DIR (scripts/ksrc-ab.sh) both print: a change within the threshold
# passes unflagged, one over it is flagged and fails, one exactly at it
# passes; a side without a figure gets n/a and no change; and neither
# script prints a row of its own any more.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/scripts/ab_lib.sh"
row() { out=$(ab_cost_row "$@"); rc=$?; }

row "per record, forward (output path)" 100.0 100.5 1
check "+0.50% under +1%: exit 0, unflagged ($out)" \
	'[ $rc = 0 ] && grep -qE "^  per record, forward \(output path\) +100\.0 +100\.5 +\+0\.50%$" <<<"$out"'
row "per record, forward (output path)" 100.0 101.5 1
check "+1.50% over +1%: exit 1, flagged ($out)" \
	'[ $rc = 1 ] && grep -qE "^  per record, forward \(output path\) +100\.0 +101\.5 +\+1\.50%  > \+1%$" <<<"$out"'
row "per PMI" 200.0 202.0 1
check "exactly +1%: exit 0, unflagged ($out)" '[ $rc = 0 ] && grep -qE " \+1\.00%$" <<<"$out"'
row "per PMI" 200.0 190.0 0.5
check "a fall: exit 0, negative change ($out)" '[ $rc = 0 ] && grep -qE " -5\.00%$" <<<"$out"'
out=$(ab_cost_na "per branch" "" 5.0)
check "a side without a figure: n/a and no change ($out)" \
	'grep -qE "^  per branch +n/a +5\.0 +-$" <<<"$out"'
out=$(ab_cost_header 0123456789ab)
check "the header names the base and the working tree" \
	'grep -qE "^ +0123456789ab +working +change$" <<<"$out"'
for s in ab.sh ksrc-ab.sh; do
	check "scripts/$s sources ab_lib.sh and prints no cost row itself" \
		'grep -q "ab_lib.sh" "$PMUSIM_SRCTREE/scripts/$s" && ! grep -q "%8s%%" "$PMUSIM_SRCTREE/scripts/$s"'
done
echo "1..$n"
