# SPDX-License-Identifier: GPL-2.0-only
#
# Helpers for the scripted figures of `make bench` (scripts/bench.d/*.py):
# run a command and take its CPU time and peak RSS from wait4(), take
# medians, write scenarios, print one JSON result line as bench/bench.h
# does. Times are the child's user + system CPU seconds, not the wall
# clock: on a machine shared with other jobs the wall clock also counts
# their slices.
import json
import os
import subprocess
import sys
import tempfile
import time

OBJTREE = os.environ.get("PMUSIM_OBJTREE", "build/bench")
PMUSIM = os.environ.get("PMUSIM", os.path.join(OBJTREE, "pmusim"))
SRCTREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Run:
    def __init__(self, cpu, user, maxrss_kb, out, wall=0.0):
        self.cpu = cpu              # user + system seconds
        self.user = user            # user seconds alone
        self.maxrss_kb = maxrss_kb  # peak resident set, KiB
        self.out = out              # stdout, text
        self.wall = wall            # seconds from start to exit (a figure of its own only)


def run(argv, stdin=None):
    """Run argv; its CPU time, peak RSS and stdout. Exits on failure."""
    with tempfile.TemporaryFile() as out:
        start = time.monotonic()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, stdin=stdin)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            sys.exit(f"bench: {' '.join(argv)} exited {proc.returncode}: {err.strip()[-300:]}")
        out.seek(0)
        return Run(ru.ru_utime + ru.ru_stime, ru.ru_utime, ru.ru_maxrss,
                   out.read().decode(errors="replace"), wall)


def median(values):
    v = sorted(values)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def spread(ratios):
    """Interquartile range of the per-round ratios over their median."""
    v = sorted(ratios)
    n = len(v)
    m = median(v)
    return (v[(3 * n) // 4] - v[n // 4]) / m if m and n > 1 else 0.0


def report(figure, unit, value, baseline, baseline_name, goal_kind=None, goal=0.0, noise=0.0):
    """goal_kind: "<=" (ratio at most goal), ">=" (at least), None (no goal);
    bench/bench.h's GOAL_WITHIN has no use here yet."""
    # judged as printed, 4 digits, as bench/bench.h's bench_report() does
    ratio = float(f"{value / baseline if baseline else 0.0:.4g}")
    met = goal_kind is None or (ratio <= goal if goal_kind == "<=" else ratio >= goal)
    print(json.dumps({
        "figure": figure, "unit": unit, "value": float(f"{value:.6g}"),
        "baseline": float(f"{baseline:.6g}"), "baseline_name": baseline_name,
        "ratio": ratio, "goal": f"{goal_kind}{goal:.2f}" if goal_kind else "",
        "met": met, "noise": round(noise, 3)}), flush=True)


def not_measured(figures, why):
    """The host lacks something the project cannot install: say so on one
    line and write each figure as not measured, which make bench counts as
    a failure, never as a goal met. What the project builds itself is never
    a reason: its absence is an error (sys.exit with the message)."""
    print(f"bench: {', '.join(figures)}: not measured: {why}", file=sys.stderr)
    for figure in figures:
        print(json.dumps({"figure": figure, "not_measured": why}), flush=True)
    sys.exit(0)


def pmusim_run(scenario_text, workdir, extra=()):
    """pmusim run on a scenario given as text; (Run, summary dict)."""
    scn = os.path.join(workdir, "scenario.yaml")
    with open(scn, "w") as f:
        f.write(scenario_text)
    r = run([PMUSIM, "run", scn, "-o", os.path.join(workdir, "perf.data"), "--json",
             "--no-progress", "--map-dir", workdir, *extra])
    return r, json.loads(r.out)


def tchain_scenario(cpus=1, tasks=1, duration=100_000_000, scope="task", call_graph="lbr",
                    timeslice=8_400_000, quantum=210_000, leaf_loops=10000, mid_loops=100,
                    outer_loops=10000, pages=64, period=200003):
    """A machine of @cpus running @tasks copies of the default scenario's tchain."""
    lines = [
        "# SPDX-License-Identifier: GPL-2.0-only",
        "# written by scripts/bench.d/benchlib.py",
        "seed: 1",
        f"duration: {duration}",
        "machine:",
        "  cpu: skylake",
        f"  cpus: {cpus}",
        "  hz: 1000",
        f"  timeslice: {timeslice}",
        f"  quantum: {quantum}",
        "tasks:",
    ]
    left, n = tasks, 0
    while left:
        count = min(left, 250)      # a task entry holds at most 256
        lines += [f"  - name: tchain{n}", f"    count: {count}", "    workload:",
                  "      kind: tchain", "      depth: 43", f"      leaf_loops: {leaf_loops}",
                  f"      mid_loops: {mid_loops}", f"      outer_loops: {outer_loops}",
                  "      mispredict_permille: 20"]
        left -= count
        n += 1
    lines += [
        "events:",
        "  - event: cycles:u",
        f"    period: {period}",
        f"    call_graph: {call_graph}",
        "    sample_type: [ip, tid, time, cpu, period]",
        f"    scope: {scope}",
        "buffer:",
        f"  pages: {pages}",
        "  overwrite: true",
        "consumer:",
        "  interval: 2100000",
        "  pause: true",
    ]
    return "\n".join(lines) + "\n"
