# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record in bounded space: the tool's stream goes through a pipe
# and is replayed while the program runs, so a program that runs ten
# times as long needs no more. A loop (tests/cmd/record_progs/loop.c)
# of N iterations, N calibrated so that the loop adds about 1 s to its
# record on this host (record's start-up aside), then 10 N: record's own peak RSS (getrusage in record, the
# JSON's max_rss_kib: not Valgrind's) and the peak bytes in TMPDIR
# (sampled every 5 ms while it runs: record keeps only its scenario file
# there), each the 10 s run's against the 1 s run's. Goal: within 10%.
# Recorded with --call-graph lbr, as record.py's programs: ten times the
# samples too, each with its true stack, which the judge must not hold
# past its judging (with every truth kept and the finished file mapped
# whole, the 10 s run's peak RSS was 52 MB against the 1 s run's 14.7).
# Printed too: the stream's bytes, the most held at once and the samples.
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import benchlib as b

FIGURES = ["record peak RSS, 10 s run vs 1 s run (loop)",
           "record peak TMPDIR bytes, 10 s run vs 1 s run (loop)"]
tool = os.path.join(b.OBJTREE, "vgtool", "lib", "pmusim-amd64-linux")
if not shutil.which("valgrind") or not shutil.which("gcc"):
    b.not_measured(FIGURES, "valgrind or gcc is not installed (scripts/install-deps.sh bench)")
if not os.access(tool, os.X_OK):
    sys.exit(f"bench: record_stream: pmusim's Valgrind tool {tool} was not built")


def dir_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.lstat(os.path.join(root, f)).st_size
            except OSError:
                pass
    return total


def record(work, iters):
    """One record of the loop: (wall s, record's peak RSS KiB, peak TMPDIR bytes, JSON)."""
    tmp = os.path.join(work, f"tmp{iters}")
    os.mkdir(tmp)
    js = os.path.join(work, f"l{iters}.json")
    argv = [b.PMUSIM, "record", "--call-graph", "lbr", "-o", os.path.join(work, f"l{iters}.data"),
            f"--json={js}", "--", os.path.join(work, "loop"), str(iters)]
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], dir_bytes(tmp))
            time.sleep(0.005)
    t = threading.Thread(target=sample)
    t.start()
    start = time.monotonic()
    subprocess.run(argv, env=dict(os.environ, TMPDIR=tmp), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    done.set()
    t.join()
    with open(js) as f:
        summary = json.load(f)
    return wall, summary["max_rss_kib"], peak[0], summary


with tempfile.TemporaryDirectory() as work:
    subprocess.run(["gcc", "-O1", "-o", os.path.join(work, "loop"),
                    os.path.join(b.SRCTREE, "tests", "cmd", "record_progs", "loop.c")],
                   check=True)
    # the loop's own share of record's wall time: iterations per second at the margin
    t1 = record(work, 10_000_000)[0]
    t4 = record(work, 40_000_000)[0]
    n1 = max(1_000_000, int(30_000_000 / max(t4 - t1, 0.05)))
    n1 -= n1 % 1_000_000
    short = record(work, n1)
    long = record(work, 10 * n1)
for name, r, n in (("1 s", short, n1), ("10 s", long, 10 * n1)):
    print(f"bench: record_stream: {name} run ({n} iterations, {r[0]:.1f} s): peak RSS {r[1]} KiB, "
          f"peak TMPDIR {r[2]} bytes, stream {r[3]['stream_bytes']} bytes, at most "
          f"{r[3]['stream_held_max']} held, {r[3]['samples']} samples", file=sys.stderr)
b.report(FIGURES[0], "KiB", long[1], short[1], "the 1 s run", "<=", 1.10)
b.report(FIGURES[1], "bytes", long[2], short[2], "the 1 s run", "<=", 1.10)
