#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The model backend's output for every hand-written script under
# tests/replay/ringbuf is what tests/replay/ringbuf/NAME.expected says, so the
# model is pinned where the kernel cannot be asked. UPDATE=1 rewrites the
# expected files (then check the diff against the kernel by hand:
# tests/replay/test_ringbuf_diff.sh).
set -u
src=$PMUSIM_SRCTREE/tests/replay
. "$src/ringbuf_lib.sh"
n=0
for f in "$src"/ringbuf/*.rb; do
	name=$(basename "$f" .rb)
	n=$((n + 1))
	# relative to the tree, so the expected files hold no checkout's path
	out=$(cd "$PMUSIM_SRCTREE" && ringbuf_run_all model "tests/replay/ringbuf/$name.rb")
	if [ "${UPDATE:-}" = 1 ]; then
		printf '%s\n' "$out" >"$src/ringbuf/$name.expected"
	fi
	if d=$(diff -u "$src/ringbuf/$name.expected" - <<<"$out" 2>&1); then
		echo "ok $n - model output of $name.rb matches $name.expected"
	else
		echo "not ok $n - model output of $name.rb differs from $name.expected"
		head -30 <<<"$d" | sed 's/^/# /'
	fi
done
echo "1..$n"
