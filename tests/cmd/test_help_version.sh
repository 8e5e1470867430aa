#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim --version prints what pmusim version prints; pmusim help lists
# the commands and pmusim help CMD prints what pmusim CMD --help prints,
# for every command; an unknown one is one line and exit 2.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
"$PMUSIM" --version >"$dir/v1" 2>&1
rc=$?
"$PMUSIM" version >"$dir/v2" 2>&1
check "pmusim --version: exit 0, as pmusim version" '[ $rc = 0 ] && cmp -s "$dir/v1" "$dir/v2" && grep -q "^pmusim " "$dir/v1"'
"$PMUSIM" help >"$dir/h" 2>&1
check "pmusim help lists the commands" '[ $? = 0 ] && grep -q "^  run " "$dir/h" && grep -q "^  stitch " "$dir/h"'
for c in $(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' "$dir/h"); do
	"$PMUSIM" help "$c" >"$dir/$c.1" 2>&1
	rc=$?
	"$PMUSIM" "$c" --help >"$dir/$c.2" 2>&1
	check "pmusim help $c: exit 0, as pmusim $c --help" '[ $rc = 0 ] && [ -s "$dir/$c.1" ] && cmp -s "$dir/$c.1" "$dir/$c.2"'
done
"$PMUSIM" help nope >"$dir/nope.out" 2>"$dir/nope.err"
check "pmusim help nope: exit 2, one line" '[ $? = 2 ] && [ "$(wc -l <"$dir/nope.err")" = 1 ] && [ ! -s "$dir/nope.out" ]'
echo "1..$n"
