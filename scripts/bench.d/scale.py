# SPDX-License-Identifier: GPL-2.0-only
#
# Scale: CPU time per simulated branch as the machine grows, each point
# against the smallest one (goal: flat, at most 1.25x).
#  - CPUs 1..64, one tchain task per CPU, each with its own LBR call-stack
#    event and buffer. (Per-task events: this session's simulator samples
#    on one CPU only for a system-wide event on a machine of several,
#    which would make the points incomparable.)
#  - tasks 10..10,000 on 1 CPU under a system-wide LBR call-stack event
#    (per-task LBR data for every task), 20 us time slices.
# The cost per branch is marginal: each point runs for T and for 3T
# simulated cycles and divides the difference in user CPU time by the
# difference in branches, so building the machine (10,000 tasks and their
# perf-PID.map files take seconds, much of it in the kernel) cancels out
# and what is left is the per-event cost. Each run's time is its fastest
# of three rounds (the minimum, not the median: other jobs only ever add
# time). Instructions per branch are flat: 201.9 at 10 tasks, 202.6 at
# 10,000 (callgrind, T = 10M cycles), so a 10,000-task point above 1 is
# the cache, or noise: with two rounds it gave 0.81..1.53 between runs.
# The ring buffer's own scale (ns per record, 1..1024 pages) is
# bench_ringbuf's "scale" mode.
import tempfile

import benchlib as b

ROUNDS = 3


def run_pair(scenario, work):
    """User seconds and branches of the runs for T and for 3T."""
    r1, j1 = b.pmusim_run(scenario(1), work)
    r3, j3 = b.pmusim_run(scenario(3), work)
    return (r1.user, j1["branches"]), (r3.user, j3["branches"])


def marginal(pairs):
    """ns per branch between T and 3T, each run's fastest round: other jobs
    on the machine only ever add time, so the minimum is the run's cost."""
    t1, t3 = min(p[0][0] for p in pairs), min(p[1][0] for p in pairs)
    return (t3 - t1) / (pairs[0][1][1] - pairs[0][0][1]) * 1e9


def series(name, unit_name, points, scenario, work):
    for p in points[1:]:
        base, mine, ratios = [], [], []
        for _ in range(ROUNDS):
            # the smallest point again in every round: drift hits both
            base.append(run_pair(lambda k: scenario(points[0], k), work))
            mine.append(run_pair(lambda k: scenario(p, k), work))
            ratios.append(marginal(mine[-1:]) / marginal(base[-1:]))
        value = marginal(mine)
        b.report(f"scale {name} {p} vs {points[0]}", "ns/branch", value,
                 marginal(base), f"{points[0]} {unit_name}", "<=", 1.25,
                 b.spread(ratios))


def cpus_scn(n, k):
    # about 19M branches per T whatever the number of CPUs: at ~6 ns a
    # branch, 3T - T is ~0.2 s of CPU, well above the noise of a run
    return b.tchain_scenario(cpus=n, tasks=n, duration=k * max(80_000_000 // n, 800_000),
                             scope="task", pages=8)


def tasks_scn(n, k):
    return b.tchain_scenario(cpus=1, tasks=n, duration=k * 160_000_000,
                             scope="system", timeslice=42_000, quantum=42_000)


with tempfile.TemporaryDirectory() as work:
    series("CPUs", "CPUs", [1, 4, 16, 64], cpus_scn, work)
    series("tasks", "tasks", [10, 100, 1000, 10000], tasks_scn, work)
