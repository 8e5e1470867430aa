#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The first difference between two outputs of `make ab`, said in the
# output's own terms:
#
#   ab-diff.sh perf-data PMUSIM BASE WORK   two perf.data files, dumped with
#                                           `PMUSIM dump` (one line per record)
#   ab-diff.sh json BASE WORK               two `pmusim run --json` summaries,
#                                           flattened to one line per field
#   ab-diff.sh text BASE WORK               anything else, line by line
#
# Prints nothing and exits 0 when they are the same; otherwise prints
# where they first differ (record index, type, field and both values; the
# field and both values; the line and both lines), how many lines differ
# in place, and exits 1. Exit 2 when an input cannot be read.
set -u

usage() {
	echo "usage: ab-diff.sh perf-data PMUSIM BASE WORK | json BASE WORK | text BASE WORK" >&2
	exit 2
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# first_diff KIND A B: A and B are line files; KIND dump|json|text.
first_diff() {
	awk -v kind="$1" -v bfile="$3" '
	function show(s) { return length(s) > 200 ? substr(s, 1, 200) "..." : s }
	function field_name(f) { i = index(f, "="); return i ? substr(f, 1, i - 1) : f }
	function field_value(f) { i = index(f, "="); return i ? substr(f, i + 1) : "" }
	function first(na, nb, a, b) {
		if (kind == "json") {
			split(a, fa, "\t"); split(b, fb, "\t")
			if (fa[1] != fb[1]) {
				printf "  first difference, line %d: field %s in base, %s in work\n", nr, fa[1], fb[1]
				return
			}
			printf "  first difference: field %s: base %s, work %s\n", fa[1], show(fa[2]), show(fb[2])
			return
		}
		if (kind == "text") {
			printf "  first difference, line %d:\n    base: %s\n    work: %s\n", nr, show(a), show(b)
			return
		}
		n = split(a, fa, "\t"); m = split(b, fb, "\t")
		if (fa[1] !~ /^[0-9]+$/) {
			where = "header line " fa[1]
		} else if (fa[2] != fb[2]) {
			printf "  first difference: record %s: type %s in base, %s in work\n", fa[1], fa[2], fb[2]
			return
		} else {
			where = "record " fa[1] " (" fa[2] ")"
		}
		for (k = 2; k <= (n > m ? n : m); k++) {
			if (fa[k] == fb[k])
				continue
			if (k > n) {
				printf "  first difference: %s: field %s: not in base, work %s\n", where, field_name(fb[k]), show(field_value(fb[k]))
			} else if (k > m) {
				printf "  first difference: %s: field %s: base %s, not in work\n", where, field_name(fa[k]), show(field_value(fa[k]))
			} else if (field_name(fa[k]) != field_name(fb[k])) {
				printf "  first difference: %s: field %s in base, %s in work\n", where, field_name(fa[k]), field_name(fb[k])
			} else {
				printf "  first difference: %s: field %s: base %s, work %s\n", where, field_name(fa[k]), show(field_value(fa[k])), show(field_value(fb[k]))
			}
			return
		}
	}
	{
		nr = NR
		a = $0
		if ((getline b < bfile) <= 0) {
			extra_a++
			if (!found) { found = 1; printf "  first difference, line %d: only in base: %s\n", NR, show(a) }
			next
		}
		if (a != b) {
			ndiff++
			if (!found) { found = 1; first(NR, NR, a, b) }
		}
	}
	END {
		while ((getline b < bfile) > 0) {
			extra_b++
			if (!found) { found = 1; printf "  first difference, line %d: only in work: %s\n", NR + extra_b, show(b) }
		}
		unit = kind == "dump" ? "lines (header + records)" : kind == "json" ? "fields" : "lines"
		printf "  %d %s in base, %d in work; %d differ in place\n", NR, unit, NR - extra_a + extra_b, ndiff + 0
		exit found ? 1 : 0
	}' "$2"
}

case ${1:-} in
perf-data)
	[ $# = 4 ] || usage
	bad=
	for side in 3 4; do
		if ! "$2" dump "${!side}" >"$tmp/$side" 2>"$tmp/$side.err"; then
			bad="$bad $side"
			echo "  $([ $side = 3 ] && echo base || echo work) unreadable: $(head -1 "$tmp/$side.err")"
		fi
	done
	case $bad in
	" 3 4") exit 2 ;;
	?*) exit 1 ;;
	esac
	cmp -s "$tmp/3" "$tmp/4" && exit 0
	first_diff dump "$tmp/3" "$tmp/4"
	exit 1
	;;
json)
	[ $# = 3 ] || usage
	for side in 2 3; do
		# one "path<TAB>value" line per scalar, in document order
		if ! jq -r 'paths(scalars) as $p | "\($p | map(tostring) | join("."))\t\(getpath($p))"' \
			"${!side}" >"$tmp/$side" 2>"$tmp/$side.err"; then
			# not JSON (a failed run prints its error instead): compare as text
			cp "${!side}" "$tmp/$side"
		fi
	done
	cmp -s "$tmp/2" "$tmp/3" && exit 0
	first_diff json "$tmp/2" "$tmp/3"
	exit 1
	;;
text)
	[ $# = 3 ] || usage
	[ -r "$2" ] && [ -r "$3" ] || { echo "ab-diff.sh: cannot read $2 or $3" >&2; exit 2; }
	cmp -s "$2" "$3" && exit 0
	first_diff text "$2" "$3"
	exit 1
	;;
*)
	usage
	;;
esac
