# SPDX-License-Identifier: GPL-2.0-only
#
# Stitching: `pmusim stitch` against `perf script -F ip,sym --stitch-lbr`
# on the same perf.data (the default scenario without its recursion task:
# tchain_edit recorded with LBR call stacks, about 3600 samples),
# after checking that both print the same stacks byte for byte. Goal:
# pmusim at least 10x faster (CPU time): ratio at most 0.1.
#
# perf looks for symbols only in /tmp/perf-PID.map, and pmusim's PIDs are
# fixed, so another job's map could answer for ours: everything runs in a
# private mount namespace with its own /tmp.
import os
import shutil
import subprocess
import sys

import benchlib as b

ROUNDS = 11    # short processes: the host's slow spells (scripts/bench.sh) need many rounds under the median

if os.environ.get("PMUSIM_BENCH_PRIVATE_TMP") != "1":
    if not shutil.which("perf"):
        b.not_measured(["stitch pmusim vs perf script --stitch-lbr"],
                       "perf is not installed (Debian's linux-perf)")
    env = dict(os.environ, PMUSIM_BENCH_PRIVATE_TMP="1",
               PMUSIM=os.path.abspath(b.PMUSIM), PMUSIM_OBJTREE=os.path.abspath(b.OBJTREE))
    st = subprocess.call(["unshare", "-m", "sh", "-c",
                          'mount -t tmpfs pmusim-bench /tmp && exec "$0" "$1"',
                          sys.executable, os.path.abspath(__file__)], env=env)
    # the child reports its own failures; unshare's are its usage or EPERM
    sys.exit(st)

work = "/tmp"
data = os.path.join(work, "perf.data")
scn = open(os.path.join(b.SRCTREE, "scenarios", "default.yaml")).read()
# The recursion task is left out: on its identical frames perf and
# pmusim stitch differently (an open simulator issue), so no comparison.
cut = scn.index("  - name: recurse")
scn = scn[:cut] + scn[scn.index("\nevents:", cut) + 1:]
with open(os.path.join(work, "scenario.yaml"), "w") as f:
    f.write(scn)
b.run([b.PMUSIM, "run", os.path.join(work, "scenario.yaml"), "-o", data, "--no-progress",
       "--map-dir", work])
perf = ["perf", "script", "-i", data, "-F", "ip,sym", "--stitch-lbr"]
mine = [b.PMUSIM, "stitch", "--map-dir", work, data]
a, m = b.run(perf), b.run(mine)
if a.out != m.out or len(a.out) < 10000:
    i = next((k for k in range(min(len(a.out), len(m.out))) if a.out[k] != m.out[k]),
             min(len(a.out), len(m.out)))
    sys.exit(f"bench: stitch: perf and pmusim print different stacks at byte {i} "
             f"(perf {len(a.out)} bytes, pmusim {len(m.out)})")
p_s, m_s = [], []
for _ in range(ROUNDS):
    m_s.append(b.run(mine).cpu)
    p_s.append(b.run(perf).cpu)
b.report("stitch pmusim vs perf script --stitch-lbr", "ms", b.median(m_s) * 1e3,
         b.median(p_s) * 1e3, "perf script --stitch-lbr", "<=", 0.1,
         b.spread([m / p for m, p in zip(m_s, p_s)]))
