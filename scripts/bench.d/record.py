# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record on real Debian programs with realistic inputs: `pmusim
# record --call-graph lbr -- PROG` (Valgrind with pmusim's tool, the
# stream, then the model PMU and the perf.data) against `valgrind
# --tool=none` on the same program and input, in the same run:
#   - gzip -c -9 of a 2 MiB text;
#   - sort of 200,000 lines (LC_ALL=C);
#   - python3 (Debian's, not a wrapper script) on a loop of 1M iterations.
# The inputs are generated from a fixed seed, so every run reads the same
# bytes. CPU time of the whole process tree (wait4 counts the children
# pmusim waited for). Goal: at most 2x, the stream and the model costing
# no more than Valgrind itself. A second figure per program gives the
# taken branches retired per CPU second, record against Valgrind alone.
# (bolt.py gives the same two figures for the SQLite workload, from the
# recording it makes for BOLT.) A third, without a goal, is the floor of
# this design: the tool alone, as record runs it, its stream written to
# /dev/null (no replay, no model), against valgrind --tool=none; the
# record figure cannot come below it however cheap the replay gets. A
# fourth, without a goal, is what a user waits: record's wall time against
# Valgrind's, the replay running beside the program on another core (so it
# depends on the host's cores and load; the CPU figure is the goal's).
# Takes some 90 s of CPU.
import json
import os
import shutil
import sys
import tempfile

import benchlib as b

ROUNDS = 3      # per round and program: Valgrind once, record once (0.7-1.7 s, 5-8 s)
WORDS = ("the of and to in is was that for on with as by at from his her an which or be "
         "are this had not but what all were when we there can one have more time about "
         "record branch sample buffer stack frame").split()
LOOP = "s = 0\nfor i in range(1000000):\n    s += i * i % 7\nprint(s)\n"


def lcg(seed):
    """A fixed sequence of 31-bit numbers: the same inputs on every host
    and Python."""
    x = seed
    while True:
        x = (x * 1103515245 + 12345) & 0x7fffffff
        yield x >> 8


def write_inputs(work):
    r = lcg(1)
    text, size = [], 0
    while size < 2 << 20:
        line = " ".join(WORDS[next(r) % len(WORDS)] for _ in range(4 + next(r) % 11)) + "\n"
        text.append(line)
        size += len(line)
    with open(os.path.join(work, "text.txt"), "w") as f:
        f.write("".join(text)[:2 << 20])
    with open(os.path.join(work, "lines.txt"), "w") as f:
        f.write("".join(f"{next(r) % 1000000000:09d} {WORDS[next(r) % len(WORDS)]} "
                        f"{WORDS[next(r) % len(WORDS)]}\n" for _ in range(200000)))


def python3():
    """Debian's python3 (an ELF file), else the first ELF python3 on PATH.
    Not a wrapper script (pyenv's shims): record would follow a shell's
    execs while Valgrind ran the script alone. Nor, where Debian's is
    there, another build (pyenv's 3.11.7 ran the loop in twice record's
    time of Debian's 3.11.2 on the bench host)."""
    for p in ("/usr/bin/python3", shutil.which("python3")):
        if p and os.path.exists(p):
            with open(os.path.realpath(p), "rb") as f:
                if f.read(4) == b"\x7fELF":
                    return os.path.realpath(p)
    return None


PROGRAMS = ["gzip", "sort", "python3"]
FIGURES = [f for p in PROGRAMS for f in (f"record --call-graph lbr vs valgrind --tool=none ({p})",
                                         f"record taken branches per CPU second ({p})",
                                         f"floor: the tool alone, stream discarded, vs valgrind --tool=none ({p})",
                                         f"record wall time vs valgrind --tool=none ({p})")]
tool = os.path.join(b.OBJTREE, "vgtool", "lib", "pmusim-amd64-linux")
py = python3()
if not shutil.which("valgrind") or not shutil.which("gzip") or not shutil.which("sort") or not py:
    b.not_measured(FIGURES, "valgrind, gzip, sort or an ELF python3 is not installed "
                   "(scripts/install-deps.sh bench)")
if not os.access(tool, os.X_OK):
    # make bench builds the tool (bench-build); without it this is a failure
    sys.exit(f"bench: record: pmusim's Valgrind tool {tool} was not built")
with tempfile.TemporaryDirectory() as work:
    write_inputs(work)
    argv = {"gzip": ["gzip", "-c", "-9", os.path.join(work, "text.txt")],
            "sort": ["sort", os.path.join(work, "lines.txt")],
            "python3": [py, "-c", LOOP]}
    os.environ.update(TMPDIR=work, LC_ALL="C")
    summary = os.path.join(work, "summary.json")
    for name in PROGRAMS:
        rec = [b.PMUSIM, "record", "-o", os.path.join(work, "perf.data"), "--call-graph", "lbr",
               f"--json={summary}", "--", *argv[name]]
        none = ["valgrind", "--tool=none", "--trace-children=yes", "-q", *argv[name]]
        # record's own valgrind command line (cmd/cmd_record.c), the stream to /dev/null
        alone = ["sh", "-c", 'VALGRIND_LIB="$0" exec "$@" 3>/dev/null', os.path.dirname(tool),
                 "valgrind", "--tool=pmusim", "--pmusim-fd=3", "-q", "--trace-children=yes",
                 "--pmusim-env=VALGRIND_LIB", *argv[name]]
        r_s, n_s, a_s, r_w, n_w = [], [], [], [], []
        for _ in range(ROUNDS):
            n = b.run(none)
            r = b.run(rec)
            n_s.append(n.cpu)
            n_w.append(n.wall)
            r_s.append(r.cpu)
            r_w.append(r.wall)
            a_s.append(b.run(alone).cpu)
        with open(summary) as f:
            branches = json.load(f).get("branches", 0)
        if not branches:
            sys.exit(f"bench: record: pmusim record --json gave no taken branch count ({name})")
        b.report(f"record --call-graph lbr vs valgrind --tool=none ({name})", "s", b.median(r_s),
                 b.median(n_s), "valgrind --tool=none", "<=", 2.0,
                 b.spread([r / n for r, n in zip(r_s, n_s)]))
        b.report(f"record taken branches per CPU second ({name})", "branches/s",
                 branches / b.median(r_s), branches / b.median(n_s), "valgrind --tool=none")
        b.report(f"floor: the tool alone, stream discarded, vs valgrind --tool=none ({name})", "s",
                 b.median(a_s), b.median(n_s), "valgrind --tool=none",
                 noise=b.spread([a / n for a, n in zip(a_s, n_s)]))
        b.report(f"record wall time vs valgrind --tool=none ({name})", "s", b.median(r_w),
                 b.median(n_w), "valgrind --tool=none",
                 noise=b.spread([r / n for r, n in zip(r_w, n_w)]))
