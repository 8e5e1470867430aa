# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record: `pmusim record --call-graph lbr -- gzip -c -9 INPUT` (a
# real Debian program on a fixed input: Valgrind with pmusim's tool, the
# stream, then the model PMU and the perf.data) against `valgrind
# --tool=none` on the same program and input, in the same run. CPU time
# of the whole process tree (wait4 counts the children pmusim waited
# for). Goal: at most 2x, the stream and the model costing no more than
# Valgrind itself. A second figure gives the taken branches retired per
# CPU second, record against Valgrind alone.
import os
import re
import shutil
import subprocess
import sys
import tempfile

import benchlib as b

ROUNDS = 3      # each round runs Valgrind twice on some 50M instructions

FIGURES = ["record --call-graph lbr vs valgrind --tool=none (gzip)",
           "record taken branches per CPU second (gzip)"]
tool = os.path.join(b.OBJTREE, "vgtool", "lib", "pmusim-amd64-linux")
if not shutil.which("valgrind") or not shutil.which("gzip"):
    b.not_measured(FIGURES, "valgrind or gzip is not installed (scripts/install-deps.sh bench)")
if not os.access(tool, os.X_OK):
    # make bench builds the tool (bench-build); without it this is a failure
    sys.exit(f"bench: record: pmusim's Valgrind tool {tool} was not built")
with tempfile.TemporaryDirectory() as work:
    inp = os.path.join(work, "input.txt")
    with open(inp, "w") as f:
        f.write("".join(f"{i}\n" for i in range(1, 50001)))
    prog = ["gzip", "-c", "-9", inp]
    rec = [b.PMUSIM, "record", "-o", os.path.join(work, "perf.data"), "--call-graph", "lbr",
           "--", *prog]
    none = ["valgrind", "--tool=none", "-q", *prog]
    env = dict(os.environ, TMPDIR=work)
    os.environ.update(env)
    r_s, n_s, branches = [], [], 0
    for _ in range(ROUNDS):
        n_s.append(b.run(none).cpu)
        r = b.run(rec)
        r_s.append(r.cpu)
    # the summary is on stderr, which b.run() keeps only for failures: once more for it
    out = subprocess.run(rec, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=env)
    m = re.search(r"taken branches (\d+)", out.stderr)
    branches = int(m.group(1)) if m else 0
b.report(FIGURES[0], "s", b.median(r_s),
         b.median(n_s), "valgrind --tool=none", "<=", 2.0,
         b.spread([r / n for r, n in zip(r_s, n_s)]))
b.report(FIGURES[1], "branches/s",
         branches / b.median(r_s) if branches else 0.0,
         branches / b.median(n_s) if branches else 0.0, "valgrind --tool=none")
