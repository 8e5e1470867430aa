# SPDX-License-Identifier: GPL-2.0-only
#
# Scale: CPU time per simulated branch as the machine grows, each point
# against the smallest one (goal: flat, at most 1.25x).
#  - CPUs 1..64, one tchain task per CPU, each with its own LBR call-stack
#    event and buffer; the duration shrinks as CPUs grow, so every point
#    simulates about the same number of branches. (Per-task events: this
#    session's simulator samples on one CPU only for a system-wide event
#    on a machine of several, which would make the points incomparable.)
#  - tasks 10..10,000 on 1 CPU under a system-wide LBR call-stack event
#    (per-task LBR data allocated for every task), 20 us time slices, the
#    same simulated time at every point: the CPU time per branch includes
#    creating the tasks and their LBR data, and a run queue of N.
# The ring buffer's own scale (ns per record, 1..1024 pages) is
# bench_ringbuf's "scale" mode.
import tempfile

import benchlib as b

ROUNDS = 3


def per_branch(scn, work):
    r, j = b.pmusim_run(scn, work)
    return r.cpu / j["branches"] * 1e9


def series(name, unit_name, points, scenario, work):
    for p in points[1:]:
        ns, ratios = [], []
        for _ in range(ROUNDS):
            # the smallest point again in every round: drift hits both
            base = per_branch(scenario(points[0]), work)
            ns.append(per_branch(scenario(p), work))
            ratios.append(ns[-1] / base)
        value = b.median(ns)
        b.report(f"scale {name} {p} vs {points[0]}", "ns/branch", value,
                 value / b.median(ratios), f"{points[0]} {unit_name}", "<=", 1.25,
                 b.spread(ratios))


def cpus_scn(n):
    return b.tchain_scenario(cpus=n, tasks=n, duration=max(32_000_000 // n, 500_000),
                             scope="task", pages=8)


def tasks_scn(n):
    return b.tchain_scenario(cpus=1, tasks=n, duration=32_000_000,
                             scope="system", timeslice=42_000, quantum=42_000)


with tempfile.TemporaryDirectory() as work:
    series("CPUs", "CPUs", [1, 4, 16, 64], cpus_scn, work)
    series("tasks", "tasks", [10, 100, 1000, 10000], tasks_scn, work)
