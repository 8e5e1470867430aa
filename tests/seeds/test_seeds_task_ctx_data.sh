#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The per-task LBR data seed (pmusim seed task-ctx-data): with
# CONFIG_PERF_TASK_CTX_DATA system-wide LBR stacks are as whole as
# per-process ones and every task holds its data (bytes, and 10k times
# that); without it system-wide stacks are shorter and no task holds any.
set -u
. "$PMUSIM_SRCTREE/tests/seeds/seeds_lib.sh"

# ---- per-task LBR data -------------------------------------------------------
if seed task-ctx-data tc.txt --duration 60000000 -o "$dir/tc.data"; then
	t=$dir/tc.txt
	pp_whole=$(field "$t" per-process 5) sw_whole=$(field "$t" system-wide 5)
	pp_avg=$(field "$t" per-process 3) sw_avg=$(field "$t" system-wide 3)
	bytes=$(field "$t" system-wide 7)
	check "task-ctx-data: tasks were switched" '[ "$(field "$t" system-wide 6)" -gt 2 ]'
	check "task-ctx-data: per process, every LBR stack is whole" '[ "$pp_whole" = 100.0 ]'
	if has task_ctx_data; then
		check "task-ctx-data on: system-wide stacks are as deep and whole as per-process ones" \
			'[ "$sw_avg" = "$pp_avg" ] && [ "$sw_whole" = "$pp_whole" ]'
		check "task-ctx-data on: each task holds data; 10k tasks hold 10000 times that" \
			'[ "$bytes" -gt 0 ] && [ "$(field "$t" system-wide 8)" = $((bytes * 10000)) ]'
	else
		check "task-ctx-data off: system-wide stacks are shorter than per-process ones" \
			'awk -v a="$sw_avg" -v b="$pp_avg" -v c="$sw_whole" -v d="$pp_whole" \
			 "BEGIN { exit !(a < b && c < d) }"'
		check "task-ctx-data off: no per-task data" '[ "$bytes" = 0 ]'
	fi
else
	nok "task-ctx-data runs: $(head -1 "$dir/tc.txt.err")"
fi

echo "1..$n"
