# SPDX-License-Identifier: GPL-2.0-only
#
# Shared by tests/seeds/test_seeds_*.sh: TAP (tap_lib.sh) and a way to run one
# seed (pmusim seed NAME scenarios/seed-NAME.yaml) into $dir and read the
# figures of its table back. Sourced, not run.
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
scn=$PMUSIM_SRCTREE/scenarios
# a seed's skip also says why on a line of its own, which run-tests.sh prints
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; echo "# skipped: $1"; }
has() { "$PMUSIM" version | grep -q "^$1 on"; }
# field N (1-based, after the label) of the row starting with LABEL in FILE
field() { awk -v l="$2" -v f="$3" 'index($0, "  " l) == 1 { s = substr($0, length(l) + 3); split(s, a, " "); print a[f]; exit }' "$1"; }
seed() { # NAME OUT [ARGS...]
	local name=$1 out=$2
	shift 2
	"$PMUSIM" seed "$name" "$scn/seed-$name.yaml" --map-dir "$dir" "$@" >"$dir/$out" 2>"$dir/$out.err"
}
# the scenario NAME of tests/seeds/seed_scenarios.txt into FILE; 1 when there is none
scenario() { # NAME FILE
	awk -v name="$1" '/^--- / { on = $2 == name; found += on; next } on { print }
		END { exit !found }' "$PMUSIM_SRCTREE/tests/seeds/seed_scenarios.txt" >"$2"
}
