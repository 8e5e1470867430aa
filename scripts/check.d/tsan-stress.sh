#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: the real-thread ring-buffer stress test built with
# ThreadSanitizer (defconfig, build/check-tsan), run for TSAN_STRESS_SECONDS
# (default 12) over its three reader modes and libperf's two; one TAP line
# per step. All must be clean; the verifying backward reader's speculative
# copies (a seqlock read, racy by design) are annotated as intended races
# (tools/lib/perf/mmap_read.c), everything else it touches is checked.
set -u
srctree=$(cd "$(dirname "$0")/../.." && pwd)
obj=$srctree/build/check-tsan
bin=$obj/tests/stress/test_ringbuf_threads
n=0
t() { # RESULT TEXT
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

mkdir -p "$obj"
{ [ -f "$obj/.config" ] || make -s --no-print-directory -C "$srctree" O="$obj" defconfig; } >"$obj/build.log" 2>&1 &&
	make -s --no-print-directory -C "$srctree" O="$obj" SANITIZE=thread -j2 "$bin" >>"$obj/build.log" 2>&1
rc=$?
[ "$rc" = 0 ] || tail -20 "$obj/build.log"
t "$rc" "stress test builds with SANITIZE=thread"
[ "$rc" = 0 ] || exit 1

export TSAN_OPTIONS="halt_on_error=1 exitcode=66 history_size=7 ${TSAN_OPTIONS:-}"
out=$(cd "$obj" && STRESS_SECONDS=${TSAN_STRESS_SECONDS:-12} CMOCKA_MESSAGE_OUTPUT=TAP timeout 300 "$bin" 2>&1)
rc=$?
grep -E '^# (forward|backward|libperf)' <<<"$out"
if grep -q 'WARNING: ThreadSanitizer' <<<"$out"; then
	grep -A30 -m1 'WARNING: ThreadSanitizer' <<<"$out" | sed 's/^/    /'
	rc=1
fi
[ "$rc" = 0 ] || grep -E '^(not ok|# )' <<<"$out" | head -20
t "$rc" "stress test under ThreadSanitizer: no data race, every oracle holds"
[ "$rc" = 0 ]
