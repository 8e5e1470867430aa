#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The Makefile's run and pmusim targets, as make would run them (make -n,
# nothing built): make O=DIR run writes DIR/out/perf.data, never into the
# source tree; make pmusim exists and, once the .config is newer than the
# build (-W: as if it had just changed), recompiles and relinks pmusim.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
if ! command -v make >/dev/null 2>&1; then
	echo "# skipped: make is not installed"
	skip "make is not installed"
	echo "1..$n"
	exit 0
fi
mk() { make --no-print-directory -C "$PMUSIM_SRCTREE" O="$PMUSIM_OBJTREE" "$@" 2>&1; }

mk -n run >"$dir/run.n"
check "make O=DIR run writes DIR/out/perf.data" \
	'grep -q -- "-o $PMUSIM_OBJTREE/out/perf.data" "$dir/run.n" && grep -q "mkdir -p $PMUSIM_OBJTREE/out" "$dir/run.n"'
if [ "$PMUSIM_OBJTREE" != "$PMUSIM_SRCTREE" ]; then
	check "make O=DIR run touches nothing under the source tree's out/" \
		'! grep -q "$PMUSIM_SRCTREE/out" "$dir/run.n"'
else
	skip "an in-tree build: out/ is the build's"
fi
mk -n pmusim >"$dir/pmusim.n"
check "make pmusim is a target" '! grep -q "No rule to make target" "$dir/pmusim.n"'
mk -n -W "$PMUSIM_OBJTREE/.config" pmusim >"$dir/changed.n"
check "make pmusim after a .config change recompiles and relinks pmusim" \
	'grep -q "cmd/cmd_run.c" "$dir/changed.n" && grep -q -- "-o $PMUSIM_OBJTREE/pmusim " "$dir/changed.n"'
echo "1..$n"
