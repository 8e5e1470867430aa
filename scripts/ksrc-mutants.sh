#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The mutants of the kernel's own files: each fuzz/mutants/ksrc/NAME.patch
# is a one-line change to the Debian tree's kernel/events/ring_buffer.c (or
# its internal.h, arch/x86/events/intel/lbr.c, or libperf's tools/lib/perf/mmap.c) that breaks an invariant; its header says which and what
# should catch it. One at a time: copy the tree's files (those make
# ksrc-check reads) into a temporary tree, apply the patch there (the
# extracted tree is never edited), run scripts/ksrc-check.sh on it
# (KSRC_FUZZ_RUNS=300 by default, KSRC_SEEDS 1..3), and say whether it
# failed, and which checks did. Then a table. Exit 1 if one survives.
# A mutant of kernel/events/core.c (core-*.patch) reaches only the core
# unit: its ksrc-check builds that unit alone (KSRC_CHECK_UNITS=core) and
# runs its checks, core (tests/ksrc/test_core) and core-diff
# (tests/ksrc/test_core_diff), in both variants. A mutant of a file other
# units read too (ring_buffer.c is also the core unit's) runs every unit:
# their checks lean on one another (libperf's replays on the ring unit).
# KSRC=DIR runs the mutants on another tree (Debian's 6.1: the same
# patches apply there, at other lines); a patch that does not apply to
# such a tree is one line and an "n/a" row, while on the Debian 6.12 tree
# it is STALE, a failure.
#
#   scripts/ksrc-mutants.sh [NAME...]     (make mutants runs it too)
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
# its O= builds are the project's own: run by hand in a tree built in
# place, they would otherwise refuse it (the Makefile, PMUSIM_OWN_BUILD)
export PMUSIM_OWN_BUILD=1
base=${KSRC:-$srctree/build/ksrc/linux-source-6.12}
# the files make ksrc-check reads: KSRC_FILES of ksrc/Makefile.ksrc
files=$(make -s --no-print-directory -C "$srctree" KSRC= ksrc-files)
work=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-ksrc-mutants.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ ! -d "$base" ] && [ -r /usr/src/linux-source-6.12.tar.xz ]; then
	# shellcheck disable=SC2086
	"$srctree/ksrc/extract.sh" /usr/src/linux-source-6.12.tar.xz "$base" $files || exit 1
fi
if [ ! -d "$base" ]; then
	echo "ok 1 # skipped: no kernel tree (KSRC=DIR or linux-source-6.12)"
	exit 0
fi

# the units that read each tree file, and those whose checks need no other unit
unit_files=$(make -s --no-print-directory -C "$srctree" KSRC= ksrc-unit-files)
alone="core"
units_of() { # PATCH: the units that read a file the patch changes
	local f
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$1"); do
		awk -v f="$f" '{ for (i = 2; i <= NF; i++) if ($i == f) print $1 }' <<<"$unit_files"
	done | sort -u | paste -sd' ' -
}

patches=()
if [ $# -gt 0 ]; then
	for n in "$@"; do patches+=("$srctree/fuzz/mutants/ksrc/$n.patch"); done
else
	patches=("$srctree"/fuzz/mutants/ksrc/*.patch)
fi

rows=() status=0
for p in "${patches[@]}"; do
	name=$(basename "$p" .patch)
	tree=$work/$name
	for f in $files; do
		[ -f "$base/$f" ] || continue	# a file the tree lacks (6.1: rc_check.h): its unit says so
		mkdir -p "$tree/$(dirname "$f")"
		cp "$base/$f" "$tree/$f"
	done
	if [ ! -f "$p" ]; then
		echo "ksrc-mutants: $name: no such mutant ($p)" >&2
		rows+=("$name|missing|-"); status=1; continue
	elif ! patch -s -p1 -d "$tree" <"$p" >/dev/null 2>&1; then
		if [ -z "${KSRC:-}" ]; then
			echo "ksrc-mutants: $name: STALE, the patch does not apply to $base" >&2
			rows+=("$name|STALE|-"); status=1
		else
			echo "ksrc-mutants: $name: not run, the patch does not apply to $base ($(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p" | paste -sd' ' -) there differs)" >&2
			rows+=("$name|n/a|does not apply to this tree")
		fi
		continue
	fi
	u=$(units_of "$p")
	case " $alone " in *" $u "*) ;; *) u= ;; esac
	printf '%s: ksrc-check%s ...\n' "$name" "${u:+ (unit $u)}"
	KSRC=$tree KSRC_CHECK_OUT=$work/build KSRC_FUZZ_RUNS=${KSRC_FUZZ_RUNS:-300} \
		KSRC_SEEDS=${KSRC_SEEDS:-1 2 3} KSRC_CHECK_UNITS=$u \
		timeout 1200 "$srctree/scripts/ksrc-check.sh" >"$work/$name.log" 2>&1
	rc=$?
	by=$(sed -n 's/^not ok [0-9]* - \([a-z-]*\( [a-z_][a-z_]*\)\{0,1\}\( \[[a-z]*\]\)\{0,1\}\).*/\1/p' "$work/$name.log" | paste -sd, -)
	if [ "$rc" != 0 ]; then
		grep -m1 -E '^# .*(differ|observation|fence|ERROR|runtime error|op [0-9]+ \()' "$work/$name.log" |
			cut -c1-160 | sed "s/^/  $name: /"
		rows+=("$name|yes|${by:-exit $rc}")
	else
		rows+=("$name|no|-"); status=1
	fi
done

printf '\n%-30s %-8s %s\n' "ksrc mutant" "caught" "by"
for r in "${rows[@]}"; do
	IFS='|' read -r n c b <<<"$r"
	printf '%-30s %-8s %s\n' "$n" "$c" "$b"
done
exit $status
