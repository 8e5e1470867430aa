#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/ksrc-lbr-coverage.sh [KSRC=DIR]: line coverage of the kernel's
# own arch/x86/events/intel/lbr.c under the LBR oracle. Builds the lbr
# unit and tests/ksrc/test_lbr_diff with gcov (COVERAGE=1) in
# build/lbr-coverage, runs the test, and prints the file's covered/total
# lines and the functions of the file no case reaches.
set -u
# the project's own O= build (Makefile): the include order keeps it apart from an in-tree one
export PMUSIM_OWN_BUILD=1
srctree=$(cd "$(dirname "$0")/.." && pwd)
obj=$srctree/build/lbr-coverage
ksrc=
for a in "$@"; do
	case $a in
	KSRC=*) ksrc=${a#KSRC=} ;;
	*) echo "ksrc-lbr-coverage.sh: unknown argument '$a' (KSRC=DIR only)" >&2; exit 2 ;;
	esac
done
# the tree make ksrc-check uses by default (extracted by an earlier build)
[ -n "$ksrc" ] || [ ! -d "$srctree/build/ksrc/linux-source-6.12" ] || ksrc=$srctree/build/ksrc/linux-source-6.12
mkdir -p "$obj"
[ -f "$obj/.config" ] || make -s --no-print-directory -C "$srctree" O="$obj" defconfig >/dev/null || exit 2
if ! make -s --no-print-directory -C "$srctree" O="$obj" COVERAGE=1 KSRC_UNITS=lbr ${ksrc:+KSRC="$ksrc"} \
	CFLAGS="-g" \
	-j2 "$obj/tests/ksrc/test_lbr_diff" >"$obj/build.log" 2>&1; then
	echo "ksrc-lbr-coverage.sh: the gcov build failed, see $obj/build.log" >&2
	exit 1
fi
kobj=$(find "$obj/ksrc/kernel" -name lbr.o -path '*/intel/*' | head -1)
if [ -z "$kobj" ]; then
	echo "ksrc-lbr-coverage.sh: no lbr unit in $obj (the tree has no arch/x86/events/intel/lbr.c?)" >&2
	exit 1
fi
find "$obj" -name '*.gcda' -delete
(cd "$obj" && PMUSIM_SRCTREE=$srctree tests/ksrc/test_lbr_diff >"$obj/test.log" 2>&1) || {
	echo "ksrc-lbr-coverage.sh: test_lbr_diff failed, see $obj/test.log" >&2
	exit 1
}
cd "$(dirname "$kobj")" || exit 1
# gcov's per-function and per-file summaries, lbr.c's only (not the headers it inlines)
gcov -n -f -o . "$kobj" 2>/dev/null | awk '
	/^Function / { fn = $2; gsub(/\x27/, "", fn); next }
	/^File / { file = $2; gsub(/\x27/, "", file); fn = ""; next }
	/^Lines executed:/ {
		split($2, p, "%"); sub(/^executed:/, "", p[1]); n = $NF
		if (fn != "" && p[1] + 0 == 0) uncovered = uncovered " " fn
		else if (fn == "" && file ~ /intel\/lbr\.c$/) {
			printf "lbr.c under the oracle: %d of %d lines covered (%s%%)\n", \
				int(p[1] * n / 100 + 0.5), n, p[1]
		}
	}
	END { print "functions never reached:" (uncovered == "" ? " none" : uncovered) }'
