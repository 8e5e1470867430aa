# SPDX-License-Identifier: GPL-2.0-only
#
# Fuzzing: executions per second of each AFL++ harness (fuzz/fuzz_*.c) in
# persistent mode on one core, against the empty harness
# (fuzz/bench/fuzz_empty.c) built and run the same way in the same run:
# the afl flavour without CMPLOG, no dictionary, -V BENCH_FUZZ_SECONDS
# (default 5) a run, three rounds of harness then empty harness. Goal: the
# ringbuf race harness at least half the empty harness's rate.
#
# afl-fuzz and its target hand every execution to each other through a
# pipe, so on a loaded machine each exec waits for the scheduler and
# AFL's own execs/s (over wall time) says more about the neighbours than
# about the harness. The rate here is over the CPU time afl-fuzz and its
# target used (wait4() of afl-fuzz, which reaps the target): executions
# per second of one core they had to themselves.
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import benchlib as b

SECONDS = int(os.environ.get("BENCH_FUZZ_SECONDS", "5"))
ROUNDS = 3
OUT = os.path.join(b.SRCTREE, "build", "fuzz")
GOALS = {"ringbuf": 0.5}

harnesses = sorted(os.path.basename(p)[len("fuzz_"):-2]
                   for p in glob.glob(os.path.join(b.SRCTREE, "fuzz", "fuzz_*.c")))
if not shutil.which("afl-fuzz") or not shutil.which("afl-clang-fast"):
    b.not_measured([f"fuzz {n} execs/s per core" for n in harnesses],
                   "AFL++ is not installed (scripts/install-deps.sh fuzz)")
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
        proc = subprocess.Popen(["timeout", str(SECONDS + 60), "afl-fuzz", "-i", corpus,
                                 "-o", out, "-V", str(SECONDS), "--",
                                 os.path.join(OUT, "afl", f"fuzz_{name}")],
                                env=env, stdout=f, stderr=subprocess.STDOUT)
        _, _, ru = os.wait4(proc.pid, 0)
    cpu = ru.ru_utime + ru.ru_stime
    stats = {}
    try:
        for line in open(os.path.join(out, "default", "fuzzer_stats")):
            k, _, v = line.partition(":")
            stats[k.strip()] = v.strip()
    except OSError:
        sys.exit(f"bench: fuzz: afl-fuzz did not run fuzz_{name}; the end of its log:\n"
                 + open(log).read()[-600:])
    return float(stats["execs_done"]) / max(cpu, 0.01)


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
