# SPDX-License-Identifier: GPL-2.0-only
#
# The cost table of make ab (scripts/ab.sh) and make ab KSRC=DIR
# (scripts/ksrc-ab.sh), sourced by both so the two print the same rows.
#   ab_cost_header BASE_NAME             the table's header
#   ab_cost_row LABEL BASE WORK MAX      one row: both figures and the
#                                        change in percent, flagged when it
#                                        is over +MAX%; returns 1 then
#   ab_cost_na LABEL BASE WORK           a row without a change (a side
#                                        could not be measured: n/a)

ab_cost_header() {
	printf '  %-36s %12s %12s %9s\n' "" "$1" "working" "change"
}

ab_cost_row() {
	local change flag=
	change=$(awk -v a="$2" -v b="$3" 'BEGIN { printf "%+.2f", (b - a) * 100 / a }')
	awk -v c="$change" -v m="$4" 'BEGIN { exit !(c > m) }' && flag="  > +$4%"
	printf '  %-36s %12s %12s %8s%%%s\n' "$1" "$2" "$3" "$change" "$flag"
	[ -z "$flag" ]
}

ab_cost_na() {
	printf '  %-36s %12s %12s %9s\n' "$1" "${2:-n/a}" "${3:-n/a}" "-"
}
