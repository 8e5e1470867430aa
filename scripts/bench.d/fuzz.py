# SPDX-License-Identifier: GPL-2.0-only
#
# Fuzzing: executions per second of each AFL++ harness (fuzz/fuzz_*.c) in
# persistent mode on one core, against the empty harness
# (fuzz/bench/fuzz_empty.c) built and run the same way in the same run:
# the afl flavour without CMPLOG, no dictionary, -V BENCH_FUZZ_SECONDS
# (default 8) a run, two rounds of harness then empty harness. Goal: the
# ringbuf race harness at least half the empty harness's rate.
#
# afl-fuzz and its target hand every execution to each other through a
# pipe, so on a loaded machine each exec waits for the scheduler: both
# rates fall; their ratio is the figure, its spread the noise.
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import benchlib as b

SECONDS = int(os.environ.get("BENCH_FUZZ_SECONDS", "8"))
ROUNDS = 2
OUT = os.path.join(b.SRCTREE, "build", "fuzz")
GOALS = {"ringbuf": 0.5}

if not shutil.which("afl-fuzz") or not shutil.which("afl-clang-fast"):
    print("bench: fuzz: AFL++ is not installed (scripts/install-deps.sh fuzz); "
          "figures skipped", file=sys.stderr)
    sys.exit(0)

harnesses = sorted(os.path.basename(p)[len("fuzz_"):-2]
                   for p in glob.glob(os.path.join(b.SRCTREE, "fuzz", "fuzz_*.c")))
bins = [os.path.join(OUT, "afl", f"fuzz_{n}") for n in harnesses + ["empty"]]
build = subprocess.run(["make", "-s", "--no-print-directory", "-C", b.SRCTREE, *bins],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
if build.returncode:
    sys.exit(f"bench: fuzz: building the AFL++ harnesses failed: {build.stderr.strip()[-300:]}")


def execs_per_sec(name, work):
    corpus = os.path.join(b.SRCTREE, "fuzz", "corpus", name)
    if not os.path.isdir(corpus):
        corpus = os.path.join(b.SRCTREE, "fuzz", "bench", "corpus", name)
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ, AFL_SKIP_CPUFREQ="1", AFL_NO_AFFINITY="1", AFL_NO_UI="1",
               AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1", AFL_SUPPRESS_AFL_WARNINGS="1",
               AFL_FAST_CAL="1", AFL_QUIET="1")
    log = os.path.join(work, f"{name}.log")
    with open(log, "w") as f:
        subprocess.run(["timeout", str(SECONDS + 60), "afl-fuzz", "-i", corpus, "-o", out,
                        "-V", str(SECONDS), "--", os.path.join(OUT, "afl", f"fuzz_{name}")],
                       env=env, stdout=f, stderr=subprocess.STDOUT)
    stats = {}
    try:
        for line in open(os.path.join(out, "default", "fuzzer_stats")):
            k, _, v = line.partition(":")
            stats[k.strip()] = v.strip()
    except OSError:
        sys.exit(f"bench: fuzz: afl-fuzz did not run fuzz_{name}; the end of its log:\n"
                 + open(log).read()[-600:])
    # execs over the fuzzer's CPU time would hide the fork server's share;
    # AFL's own figure is execs over wall time on one core, as asked
    return float(stats["execs_done"]) / max(1.0, float(stats["run_time"]))


with tempfile.TemporaryDirectory() as work:
    for name in harnesses:
        mine, empty = [], []
        for _ in range(ROUNDS):
            mine.append(execs_per_sec(name, work))
            empty.append(execs_per_sec("empty", work))
        goal = GOALS.get(name)
        b.report(f"fuzz {name} execs/s per core", "execs/s", b.median(mine), b.median(empty),
                 "empty harness", ">=" if goal else None, goal or 0.0,
                 b.spread([m / e for m, e in zip(mine, empty)]))
