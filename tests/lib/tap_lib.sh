# SPDX-License-Identifier: GPL-2.0-only
#
# TAP for the shell tests under tests/: a scratch directory $dir removed
# on exit, and ok/nok/skip/check, numbering the lines as they go.
# Sourced, not run: . "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# pmusim run adds its programs' ELF files to ~/.debug, as perf record
# does, and perf looks there: a home of the test's own keeps the user's
# build-id cache out of it
export HOME="$dir/home"
mkdir "$HOME"
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $1"; }
# check DESCRIPTION CONDITION: ok if the shell condition holds
check() { if eval "$2"; then ok "$1"; else nok "$1"; fi; }
