#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/mutants.sh --build-only, what make check runs on every mutant
# (scripts/check.d/mutants.sh), on a copy of this tree without .git (as
# git archive makes it) and a directory of made-up mutants:
#   a patch that applies and builds          ok
#   the same patch with one context line changed, as when the code it
#   mutates moved on                          not ok, STALE, exit 1
#   a patch that applies but does not build   not ok, exit 1
#   a patch to a header that breaks the files including it  not ok
#   a patch whose header names no Tests:      not ok
#   a patch that names a test that is not there  not ok
#   a patch that does not exist               not ok, STALE
#   the good patch alone                      exit 0, and the copy's
#                                             source is left unmutated
# It builds the library twice, at -O0 (~20 s of CPU; what it checks is
# the script, not the code the optimiser sees), so
# each configuration of the make check matrix skips it; make check runs it
# once (scripts/check.d/mutants.sh), and `make test` runs it.
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/lib/tap_lib.sh"

if [ -n "${TALLY:-}" ]; then
	echo "# skipped: builds the library twice (~20 s of CPU), too long for every make check config; make check runs it once, make test runs it"
	echo "1..0 # SKIP too long for the check matrix"
	exit 0
fi
if ! command -v patch >/dev/null; then
	echo "# skipped: patch is not installed"
	echo "1..0 # SKIP no patch"
	exit 0
fi

# The tree without .git, build/ or out/: what a release tarball holds.
tree=$dir/tree
mkdir -p "$tree"
(cd "$src" && tar cf - --exclude=./.git --exclude=./build --exclude=./out \
	--exclude=./.config --exclude=./include/generated --exclude=./include/config .) |
	tar xf - -C "$tree"
check "the copy has no .git" "[ ! -e '$tree/.git' ] && [ -x '$tree/scripts/mutants.sh' ]"

# Made-up mutants of one line of core/overflow.c, naming one test program.
m=$dir/mutants
mkdir -p "$m"
target=core/overflow.c
line=$(grep -m1 -n '^[[:space:]]*hwc->interrupts = 1;$' "$tree/$target" | cut -d: -f1)
check "core/overflow.c still sets hwc->interrupts = 1 (the made-up mutants' line)" "[ -n '$line' ]"
[ -n "$line" ] || { echo "1..$n"; exit 1; }
make_patch() { # NAME VALUE [SED]: a patch setting interrupts to VALUE, then edited by SED
	local name=$1 new=$2 edit=${3:-} cp=$dir/a/$target
	mkdir -p "$(dirname "$cp")" "$dir/b/$(dirname "$target")"
	cp "$tree/$target" "$cp"
	awk -v l="$line" -v new="= $new;" 'NR == l { sub(/= 1;/, new) } { print }' "$cp" >"$dir/b/$target"
	{
		printf 'Mutant %s: made up by tests/scripts/test_mutants.sh\n' "$name"
		printf 'Tests: tests/core/test_overflow\nFuzzer: lbr\n\n'
		(cd "$dir" && diff -u "a/$target" "b/$target")
	} | sed "${edit:-}" >"$m/$name.patch"
}
make_patch good 0
# A header nothing compiles alone: its mutant builds only if what includes
# it is rebuilt (--build-only rebuilds just the patch's dependents).
hdr=core/ring_buffer.h
mkdir -p "$dir/a/core" "$dir/b/core"
cp "$tree/$hdr" "$dir/a/$hdr"
awk 'NR == 1 { print; print "#error made-up header mutant"; next } { print }' "$dir/a/$hdr" >"$dir/b/$hdr"
{
	printf 'Mutant broken-header: made up by tests/scripts/test_mutants.sh\n'
	printf 'Tests: tests/core/test_ring_buffer\nFuzzer: ringbuf\n\n'
	(cd "$dir" && diff -u "a/$hdr" "b/$hdr")
} >"$m/broken-header.patch"
# one context line of the hunk changed, as when its code moved on
make_patch stale 0 '/^+\t/{n;s/^ .*/ \/* moved on *\//}'
make_patch broken not_a_variable
make_patch untested 0 '/^Tests: /d'
make_patch no-such-test 0 's|^Tests: .*|Tests: tests/core/test_no_such_thing|'

out=$(CFLAGS=-O0 MUTANTS_DIR=$m bash "$tree/scripts/mutants.sh" --build-only good stale broken broken-header untested no-such-test missing 2>&1)
rc=$?
# expect DESCRIPTION CONDITION: check, and show the script's output when it fails
expect() { if eval "$2"; then ok "$1"; else nok "$1"; sed 's/^/#   /' <<<"$out"; fi; }
expect "stale, broken, untested and missing mutants: exit 1 (got $rc)" "[ '$rc' = 1 ]"
expect "the unmutated tree builds" "grep -q '^ok 1 - the unmutated tree builds' <<<\"\$out\""
expect "the good mutant applies and builds" \
	"grep -qE '^ok [0-9]+ - mutant good applies and builds' <<<\"\$out\""
expect "the stale mutant is not ok, STALE" \
	"grep -qE '^not ok [0-9]+ - mutant stale: STALE' <<<\"\$out\""
expect "the broken mutant is not ok: it does not build" \
	"grep -qE '^not ok [0-9]+ - mutant broken applies and builds' <<<\"\$out\""
expect "the broken mutant's compiler error is shown" \
	"grep -q '^# .*not_a_variable' <<<\"\$out\""
expect "the broken header's mutant is not ok: its includers are rebuilt" \
	"grep -qE '^not ok [0-9]+ - mutant broken-header applies and builds' <<<\"\$out\""
expect "the mutant without Tests: is not ok" \
	"grep -qE '^not ok [0-9]+ - mutant untested: the patch names no test program' <<<\"\$out\""
expect "the mutant naming a test that is not there is not ok" \
	"grep -qE '^not ok [0-9]+ - mutant no-such-test: the patch names no test program' <<<\"\$out\""
expect "a missing patch is not ok, STALE" \
	"grep -qE '^not ok [0-9]+ - mutant missing: STALE' <<<\"\$out\""
expect "a TAP plan of 8 lines" "grep -qx '1..8' <<<\"\$out\""

out=$(CFLAGS=-O0 MUTANTS_DIR=$m bash "$tree/scripts/mutants.sh" --build-only good 2>&1)
rc=$?
expect "the good mutant alone: exit 0 (got $rc)" "[ '$rc' = 0 ]"
expect "the copy's own source is not mutated" "cmp -s '$tree/$target' '$src/$target'"
echo "1..$n"
