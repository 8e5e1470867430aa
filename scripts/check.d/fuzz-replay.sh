#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: every fuzz corpus file and saved crash input replayed under
# ASan+UBSan (make fuzz-replay), one TAP line each.
set -u
srctree=$(cd "$(dirname "$0")/../.." && pwd)
log=$srctree/build/fuzz/replay-build.log
mkdir -p "$srctree/build/fuzz"
if ! make -s --no-print-directory -C "$srctree" fuzz-replay-build >"$log" 2>&1; then
	tail -30 "$log"
	echo "not ok 1 - fuzz replay drivers build (see build/fuzz/replay-build.log)"
	exit 1
fi
exec "$srctree/scripts/fuzz-replay.sh" "$srctree/build/fuzz/replay"
