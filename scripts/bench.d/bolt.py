# SPDX-License-Identifier: GPL-2.0-only
#
# Profile quality: SQLite's amalgamation (from npm's better-sqlite3, pinned
# by version and sha256, cached under the build tree) driven by
# bench/sqlite_workload.c, built -O2 -Wl,--emit-relocs, then rewritten by
# Debian's bolt-16 with ext-tsp block order, hfsort function order and
# function splitting, from three profiles of the same program:
#   - `pmusim record -e branches:u -c 4001 -j any,u` (LBR), through
#     perf2bolt: LBR_RECIPE says why not cycles:u;
#   - `llvm-bolt -instrument` (exact edge counts, the slow fallback);
#   - `pmusim record -e cycles:u` without branch records, through
#     perf2bolt -nl (-ba in later BOLT: the fallback of a host without LBR).
# Each rewritten binary must print what the original prints. The four
# binaries then run interleaved, ROUNDS times, in the same run: each
# variant's CPU time over the original's (median; noise the spread of the
# per-round ratios). Goals: the LBR profile's binary at least as fast as
# the instrumentation profile's, and faster than the no-LBR profile's by
# more than 1%. The CPU times differ by less than their noise, so each
# rewritten binary's taken branches (exact, counted by pmusim record on
# a smaller run of the workload) are given over the original's too: what
# block order did with the profile, free of the host's noise.
# The LBR recording is timed too: `pmusim record -j any,u` against
# `valgrind --tool=none` on the same workload (goal 2x, as record.py's
# figures), and its taken branches per CPU second; without goals, the
# floor (the tool alone, its stream discarded, as record.py's) and
# record's wall time against Valgrind's.
# Takes some 2 minutes of CPU (two recordings of ~5.5G instructions, four
# BOLT runs, 4 x ROUNDS runs of 0.7 s), plus ~25 s the first time to
# compile sqlite3.c.
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

import benchlib as b

PACKAGE = "better-sqlite3@13.2.0"   # SQLite 3.54.1 in deps/sqlite3/
TARBALL = "better-sqlite3-13.2.0.tgz"
SHA256 = "40487589df3496f2ee0079d22b73c63fccebe7db0e8ee9a2c42421861e321e0b"
ROUNDS = 15     # the per-round ratios spread by 2-10% on a loaded host; the variants differ by 1-5%
# The LBR profile's recording. The model's branches event counts taken
# branches, so sampling every 4001st one puts every taken branch in the
# same share of samples' LBRs (32/4001). On cycles (here instructions), a
# branch's share is the instructions that its next 32 taken branches span:
# on SQLite the edges of one hot function came out up to 25% off the
# instrumentation's proportions (half the L1 distance 2.7-4.7% in the
# hottest functions, 0.5-1% on branches), however dense the sampling
# (-c 5003 as -c 100003). 4001: 152k samples, none throttled.
LBR_RECIPE = ["-e", "branches:u", "-c", "4001", "-j", "any,u"]
COUNT_ROWS = "40000"    # the taken-branch figures' run: 1G instructions, 3 s recorded
LLVM = "/usr/lib/llvm-16/bin"       # perf2bolt must be called by that name
BOLT_OPTS = ["-reorder-blocks=ext-tsp", "-reorder-functions=hfsort", "-split-functions"]
SQLITE_CFLAGS = ["-O2", "-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION",
                 "-DSQLITE_DEFAULT_MEMSTATUS=0"]

VARIANTS = {"lbr": "record's LBR profile", "instr": "instrumentation profile",
            "nolbr": "no-LBR sample profile"}
FIGURES = [f"BOLT with {VARIANTS[v]} vs original (sqlite)" for v in VARIANTS] + [
    "BOLT record's LBR profile vs instrumentation profile (sqlite)",
    "BOLT record's LBR profile vs no-LBR sample profile (sqlite)",
    "record -j any,u vs valgrind --tool=none (sqlite)",
    "record taken branches per CPU second (sqlite)"] + [
    f"BOLT with {VARIANTS[v]}: taken branches vs original (sqlite, {COUNT_ROWS} rows)"
    for v in VARIANTS] + [
    "floor: the tool alone, stream discarded, vs valgrind --tool=none (sqlite)",
    "record -j any,u wall time vs valgrind --tool=none (sqlite)"]


def fetch(cache):
    """The pinned tarball's sqlite3.c and sqlite3.h in @cache, downloaded
    with npm once and checked against SHA256 each time."""
    tgz = os.path.join(cache, TARBALL)
    src = os.path.join(cache, "sqlite3.c")
    if not os.path.exists(tgz):
        if not shutil.which("npm"):
            b.not_measured(FIGURES, "npm is not installed (scripts/install-deps.sh bench)")
        with tempfile.TemporaryDirectory(dir=cache) as tmp:
            p = subprocess.run(["npm", "pack", PACKAGE, "--pack-destination", tmp],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if p.returncode != 0 or not os.path.exists(os.path.join(tmp, TARBALL)):
                why = (p.stderr.strip().splitlines() or ["no tarball"])[-1]
                b.not_measured(FIGURES, f"npm pack {PACKAGE} failed: {why}")
            os.replace(os.path.join(tmp, TARBALL), tgz)
    with open(tgz, "rb") as f:
        got = hashlib.sha256(f.read()).hexdigest()
    if got != SHA256:
        os.unlink(tgz)      # the next run downloads it again
        sys.exit(f"bench: bolt: {tgz}: sha256 {got}, not {SHA256} ({PACKAGE}); removed")
    if not os.path.exists(src):
        with tarfile.open(tgz) as t, tempfile.TemporaryDirectory(dir=cache) as tmp:
            for name in ("sqlite3.h", "sqlite3.c"):     # sqlite3.c last: it says both are there
                data = t.extractfile(f"package/deps/sqlite3/{name}").read()
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(data)
                os.replace(os.path.join(tmp, name), os.path.join(cache, name))
    return src


def build(cache, work):
    """The workload linked with relocations kept, as BOLT needs them."""
    obj = os.path.join(cache, "sqlite3.o")
    stamp = obj + ".flags"      # compiled again when SQLITE_CFLAGS change
    if not os.path.exists(obj) or not os.path.exists(stamp) or open(stamp).read() != " ".join(SQLITE_CFLAGS):
        b.run(["gcc", *SQLITE_CFLAGS, "-c", os.path.join(cache, "sqlite3.c"), "-o", obj + ".tmp"])
        os.replace(obj + ".tmp", obj)
        with open(stamp, "w") as f:
            f.write(" ".join(SQLITE_CFLAGS))
    wobj = os.path.join(work, "sqlite_workload.o")
    b.run(["gcc", "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-I", cache, "-c",
           os.path.join(b.SRCTREE, "bench", "sqlite_workload.c"), "-o", wobj])
    prog = os.path.join(work, "sqlite_workload")
    b.run(["gcc", "-O2", "-Wl,--emit-relocs", "-o", prog, wobj, obj, "-lm"])
    return prog


def record(prog, work, name, opts, args=()):
    """pmusim record @opts of @prog @args; (Run, the perf.data, its --json
    summary). @name.data is /dev/null when @name is None."""
    data = os.path.join(work, f"{name}.data") if name else os.devnull
    summary = os.path.join(work, f"{name or 'count'}.json")
    r = b.run([b.PMUSIM, "record", *opts, "-o", data, f"--json={summary}", "--", prog, *args])
    with open(summary) as f:
        return r, data, json.load(f)


def taken_branches(summary):
    """The taken branch count of record's --json @summary."""
    if not summary.get("branches"):
        sys.exit("bench: bolt: pmusim record --json gave no taken branch count (\"branches\")")
    return summary["branches"]


def main():
    tool = os.path.join(b.OBJTREE, "vgtool", "lib", "pmusim-amd64-linux")
    bolt = os.path.join(LLVM, "llvm-bolt")
    perf2bolt = os.path.join(LLVM, "perf2bolt")
    rt = os.path.join(os.path.dirname(LLVM), "lib", "libbolt_rt_instr.a")
    for path in (bolt, perf2bolt, rt):
        if not os.path.exists(path):
            b.not_measured(FIGURES, f"{path} is not installed (bolt-16: scripts/install-deps.sh bench)")
    for cmd in ("valgrind", "gcc", "perf"):
        if not shutil.which(cmd):
            b.not_measured(FIGURES, f"{cmd} is not installed (scripts/install-deps.sh bench)")
    # one directory per pinned version: a new pin never builds an old sqlite3.c
    cache = os.path.join(b.OBJTREE, "sqlite", TARBALL[:-len(".tgz")])
    os.makedirs(cache, exist_ok=True)
    fetch(cache)
    if not os.access(tool, os.X_OK):
        # make bench builds the tool (bench-build); without it this is a failure
        sys.exit(f"bench: bolt: pmusim's Valgrind tool {tool} was not built")
    with tempfile.TemporaryDirectory() as work:
        os.environ["TMPDIR"] = work     # record's stream, removed with the rest
        orig = build(cache, work)
        want = b.run([orig]).out

        # the LBR profile, its recording timed against Valgrind alone
        nones = [b.run(["valgrind", "--tool=none", "-q", orig])]
        rec, lbr_data, summary = record(orig, work, "lbr", LBR_RECIPE)
        nones.append(b.run(["valgrind", "--tool=none", "-q", orig]))
        none = [n.cpu for n in nones]
        # record's own valgrind command line (cmd/cmd_record.c), the stream to /dev/null
        alone = [b.run(["sh", "-c", 'VALGRIND_LIB="$0" exec "$@" 3>/dev/null',
                        os.path.dirname(tool), "valgrind", "--tool=pmusim", "--pmusim-fd=3",
                        "-q", "--trace-children=yes", "--pmusim-env=VALGRIND_LIB",
                        orig]).cpu for _ in range(2)]
        fdata = os.path.join(work, "lbr.fdata")
        b.run([perf2bolt, "-p", lbr_data, "-o", fdata, orig])
        bins = {"orig": orig}
        bins["lbr"] = orig + ".lbr"
        b.run([bolt, orig, "-data", fdata, "-o", bins["lbr"], *BOLT_OPTS])
        # the instrumentation profile: the instrumented binary writes it at exit
        instr, ifdata = orig + ".instr", os.path.join(work, "instr.fdata")
        b.run([bolt, orig, "-instrument", f"-runtime-instrumentation-lib={os.path.basename(rt)}",
               f"-instrumentation-file={ifdata}", "-o", instr])
        b.run([instr])
        bins["instr"] = orig + ".bolt-instr"
        b.run([bolt, orig, "-data", ifdata, "-o", bins["instr"], *BOLT_OPTS])
        # plain sampling, aggregated without branch records
        _, plain_data, _ = record(orig, work, "plain", ["-e", "cycles:u"])
        nfdata = os.path.join(work, "nolbr.fdata")
        b.run([perf2bolt, "-nl", "-p", plain_data, "-o", nfdata, orig])
        bins["nolbr"] = orig + ".nolbr"
        b.run([bolt, orig, "-data", nfdata, "-o", bins["nolbr"], *BOLT_OPTS])
        for v in VARIANTS:
            got = b.run([bins[v]]).out
            if got != want:
                sys.exit(f"bench: bolt: {bins[v]} printed {got.strip()!r}, the original {want.strip()!r}")
        # taken branches, exact: one sample at most (the period is past the run)
        taken = {v: taken_branches(record(bins[v], work, None,
                                          ["-q", "-e", "cycles:u", "-c", "4000000007"],
                                          [COUNT_ROWS])[2]) for v in bins}

        # interleaved, each round in another order
        names = list(bins)
        t = {v: [] for v in names}
        for i in range(ROUNDS):
            order = names[i % len(names):] + names[:i % len(names)]
            for v in (order if i % 2 == 0 else order[::-1]):
                t[v].append(b.run([bins[v]]).cpu)

    def noise(a, base):
        """the spread of @a's per-round ratios to @base"""
        return b.spread([x / y for x, y in zip(t[a], t[base])])
    for v in VARIANTS:
        b.report(FIGURES[list(VARIANTS).index(v)], "s", b.median(t[v]), b.median(t["orig"]),
                 "the original", noise=noise(v, "orig"))
    b.report(FIGURES[3], "s", b.median(t["lbr"]), b.median(t["instr"]),
             "BOLT with instrumentation profile", "<=", 1.0, noise("lbr", "instr"))
    b.report(FIGURES[4], "s", b.median(t["lbr"]), b.median(t["nolbr"]),
             "BOLT with no-LBR sample profile", "<=", 0.99, noise("lbr", "nolbr"))
    b.report(FIGURES[5], "s", rec.cpu, b.median(none), "valgrind --tool=none", "<=", 2.0,
             b.spread([rec.cpu / n for n in none]))
    branches = taken_branches(summary)
    b.report(FIGURES[6], "branches/s", branches / rec.cpu, branches / b.median(none),
             "valgrind --tool=none")
    for i, v in enumerate(VARIANTS):
        b.report(FIGURES[7 + i], "branches", taken[v], taken["orig"], "the original")
    b.report(FIGURES[10], "s", b.median(alone), b.median(none), "valgrind --tool=none",
             noise=b.spread([a / n for a, n in zip(alone, none)]))
    b.report(FIGURES[11], "s", rec.wall, b.median([n.wall for n in nones]),
             "valgrind --tool=none", noise=b.spread([rec.wall / n.wall for n in nones]))


main()
