#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make hwcheck: the model against the host's real PMU, one TAP stream.
#   - OBJTREE/tests/hw/tchain_native: the LBR call-stack checks of a deep
#     call chain sampled on the host (SKIP lines without a PMU or LBR)
#   - every differential script tests/*/test_*_diff.sh (model vs the host
#     kernel), one line each: ok when it reported no failure
# Exits 0 unless a check failed; skips are not failures.
set -u
objtree=$(cd "$1" && pwd)
srctree=$(cd "$(dirname "$0")/.." && pwd)
export PMUSIM="$objtree/pmusim" PMUSIM_OBJTREE="$objtree" PMUSIM_SRCTREE="$srctree"
n=0 failed=0

line() { # ok|not ok, TEXT (what follows the number)
	n=$((n + 1))
	echo "$1 $n$2"
	[ "$1" = ok ] || failed=1
}

# tchain_native's own lines, renumbered into this stream
out=$("$objtree/tests/hw/tchain_native" 2>&1)
rc=$?
reported_failure=0
while IFS= read -r l; do
	if [[ $l =~ ^(not ok|ok)\ [0-9]+(.*)$ ]]; then
		line "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
		[ "${BASH_REMATCH[1]}" = ok ] || reported_failure=1
	elif [[ ! $l =~ ^1\.\.[0-9]+$ ]]; then
		echo "# $l"
	fi
done <<<"$out"
if [ "$rc" != 0 ] && [ "$reported_failure" = 0 ]; then
	line "not ok" " - tchain_native exited $rc"
fi

# the ring-buffer replay, model against the kernel
if ! "$PMUSIM" --help 2>/dev/null | grep -qE '^  ringbuf '; then
	line ok " # SKIP the ringbuf command is absent: no model-vs-kernel replay"
else
	found=0
	for sh in "$srctree"/tests/*/test_*_diff.sh; do
		[ -f "$sh" ] || continue
		found=1
		name=${sh#"$srctree"/}
		out=$(cd "$objtree" && timeout 600 bash "$sh" 2>&1)
		rc=$?
		fails=$(grep -E '^not ok [0-9]+' <<<"$out" | grep -vc '# SKIP')
		oks=$(grep -E '^ok [0-9]+' <<<"$out" | grep -vc '# SKIP')
		skips=$(grep -cE '^(not )?ok [0-9]+ # SKIP' <<<"$out")
		if [ "$fails" != 0 ] || [ "$rc" != 0 ]; then
			line "not ok" " - $name: $fails failed (exit $rc)"
			grep -E '^not ok [0-9]+' <<<"$out" | head -10 | sed 's/^/# /'
		elif [ "$oks" = 0 ]; then
			line ok " # SKIP $name: $(grep -m1 -E '# SKIP' <<<"$out" | sed 's/.*# SKIP //')"
		else
			line ok " - $name: model and kernel agree ($oks passed, $skips skipped)"
		fi
	done
	[ "$found" = 1 ] || line ok " # SKIP no differential script (tests/*/test_*_diff.sh)"
fi

echo "1..$n"
exit $failed
