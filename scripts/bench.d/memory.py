# SPDX-License-Identifier: GPL-2.0-only
#
# Memory: peak RSS of a 10,000-task system-wide LBR call-stack run against
# the bytes the per-task data needs (the task_ctx_data seed: "for 10K
# threads, keeping LBR data would consume additional ~8MB").
#
# Overhead is measured where the per-task data is the only difference:
# (peak RSS with the call-stack event - peak RSS of the same 10,000 tasks
# sampled without call stacks) against 10,000 * (struct perf_ctx_data +
# x86_perf_task_context), from bench/task_ctx_bytes. Goal: under 10%
# over. A second row, without a goal, compares the whole run against an
# empty one (10 tasks, no call stacks), which also counts the simulator's
# own per-task state (the workload executor's stack and ground truth).
import json
import os
import tempfile

import benchlib as b

TASKS = 10000
ROUNDS = 2

sizes = json.loads(b.run([os.path.join(b.OBJTREE, "bench", "task_ctx_bytes")]).out)
needed = TASKS * (sizes["perf_ctx_data"] + sizes["x86_perf_task_context"])


def peak_kb(tasks, call_graph, work):
    scn = b.tchain_scenario(cpus=2, tasks=tasks, duration=4_000_000, scope="system",
                            call_graph=call_graph)
    r, _ = b.pmusim_run(scn, work)
    return r.maxrss_kb


with tempfile.TemporaryDirectory() as work:
    cs, plain, empty = [], [], []
    for _ in range(ROUNDS):
        cs.append(peak_kb(TASKS, "lbr", work))
        plain.append(peak_kb(TASKS, "none", work))
        empty.append(peak_kb(10, "none", work))
    delta = (b.median(cs) - b.median(plain)) * 1024
    b.report(f"memory {TASKS} tasks LBR call-stack data", "bytes", delta, needed,
             "tasks * per-task data", "<=", 1.10,
             b.spread([(c - p) * 1024 / needed for c, p in zip(cs, plain)]))
    b.report(f"memory {TASKS} tasks whole run over empty run", "bytes",
             (b.median(cs) - b.median(empty)) * 1024, needed, "tasks * per-task data")
