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
#
#   scripts/ksrc-mutants.sh [NAME...]     (make mutants runs it too)
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
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
		mkdir -p "$tree/$(dirname "$f")"
		cp "$base/$f" "$tree/$f"
	done
	if [ ! -f "$p" ] || ! patch -s -p1 -d "$tree" <"$p" >/dev/null 2>&1; then
		echo "ksrc-mutants: $name: STALE, the patch does not apply to $base" >&2
		rows+=("$name|STALE|-"); status=1; continue
	fi
	printf '%s: ksrc-check ...\n' "$name"
	KSRC=$tree KSRC_CHECK_OUT=$work/build KSRC_FUZZ_RUNS=${KSRC_FUZZ_RUNS:-300} \
		KSRC_SEEDS=${KSRC_SEEDS:-1 2 3} \
		timeout 1200 "$srctree/scripts/ksrc-check.sh" >"$work/$name.log" 2>&1
	rc=$?
	by=$(sed -n 's/^not ok [0-9]* - \([a-z]*\( [a-z_][a-z_]*\)\{0,1\}\( \[[a-z]*\]\)\{0,1\}\).*/\1/p' "$work/$name.log" | paste -sd, -)
	if [ "$rc" != 0 ]; then
		grep -m1 -E '^# .*(differ|observation|fence|ERROR|runtime error|op [0-9]+ \()' "$work/$name.log" |
			cut -c1-160 | sed "s/^/  $name: /"
		rows+=("$name|yes|${by:-exit $rc}")
	else
		rows+=("$name|no|-"); status=1
	fi
done

printf '\n%-24s %-8s %s\n' "ksrc mutant" "caught" "by"
for r in "${rows[@]}"; do
	IFS='|' read -r n c b <<<"$r"
	printf '%-24s %-8s %s\n' "$n" "$c" "$b"
done
exit $status
