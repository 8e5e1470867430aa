# SPDX-License-Identifier: GPL-2.0-only
#
# Stitching: `pmusim stitch` against `perf script -F ip,sym --stitch-lbr`
# on the same perf.data, CPU time, after checking that both print the
# same stacks. Goal (#27): pmusim at least 20x faster, ratio at most 0.05.
#
# - the default scenario without its recursion task (tchain_edit recorded
#   by pmusim run with LBR call stacks, ~1900 samples; its symbols in
#   perf-PID.map and pmusim's ELF image);
# - a recording of a real program, `pmusim record --call-graph lbr --
#   sort` of 50,000 lines: ld.so's and libc's symbols read from their ELF
#   files (and /usr/lib/debug's when installed), as perf reads them;
# - the floor: pmusim stitch on the first file with its samples taken out,
#   which is start-up (exec, the C library's CPUID probing, ~0.7 ms here
#   where a static no-op binary takes ~0.65 ms) and the file's header and
#   mappings, against the same perf script run. No goal: it shows how
#   close to 0.05 any stitcher started as a process can come.
# - the output floor: cat writing the first file's stacks (1.7 MB, the
#   bytes both tools print) where the stitchers write them: start-up and
#   the write alone, no file read, nothing stitched. No goal either: a
#   stitcher costs at least this much.
#
# perf looks for symbols only in /tmp/perf-PID.map, and pmusim's PIDs are
# fixed, so another job's map could answer for ours: everything runs in a
# private mount namespace with its own /tmp.
import os
import shutil
import struct
import subprocess
import sys

import benchlib as b

ROUNDS = 11    # short processes: the host's slow spells (scripts/bench.sh) need many rounds under the median
FIGURES = ["stitch pmusim vs perf script --stitch-lbr",
           "stitch of a recorded sort vs perf script --stitch-lbr",
           "stitch floor (the file without samples) vs perf script --stitch-lbr",
           "stitch output floor (cat of the same stacks) vs perf script --stitch-lbr"]

if os.environ.get("PMUSIM_BENCH_PRIVATE_TMP") != "1":
    if not shutil.which("perf"):
        b.not_measured(FIGURES,
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


def strip_samples(src, dst):
    """DST: SRC without its PERF_RECORD_SAMPLEs (feature offsets moved)."""
    d = open(src, "rb").read()
    off, size = struct.unpack_from("<QQ", d, 40)
    body, p = [], off
    while p < off + size:
        typ, _, sz = struct.unpack_from("<IHH", d, p)
        if typ != 9:
            body.append(d[p:p + sz])
        p += sz
    body = b"".join(body)
    hdr = bytearray(d[:off])
    struct.pack_into("<Q", hdr, 48, len(body))
    tail = bytearray(d[off + size:])
    for i in range(bin(int.from_bytes(d[72:104], "little")).count("1")):
        o, = struct.unpack_from("<Q", tail, 16 * i)
        struct.pack_into("<Q", tail, 16 * i, o + len(body) - size)
    open(dst, "wb").write(bytes(hdr) + body + bytes(tail))


def same_stacks(data, perf_cmd, mine_cmd, what):
    """Both print the same stacks; a sample whose branch stack is empty
    may differ (perf prints the word after it), as stitch_check.py allows."""
    a, m = b.run(perf_cmd), b.run(mine_cmd)
    if len(a.out) < 10000:
        sys.exit(f"bench: stitch: {what}: perf printed only {len(a.out)} bytes")
    if a.out == m.out:
        return
    for path, text in ((data + ".perf", a.out), (data + ".mine", m.out)):
        with open(path, "w") as f:
            f.write(text)
    chk = subprocess.run([sys.executable, os.path.join(b.SRCTREE, "tests", "cmd", "stitch_check.py"),
                          "compare", data, data + ".perf", data + ".mine"],
                         capture_output=True, text=True)
    if chk.returncode:
        sys.exit(f"bench: stitch: {what}: perf and pmusim print different stacks: "
                 f"{(chk.stdout + chk.stderr).strip()}")


def measure(perf_cmd, mine_cmd):
    p_s, m_s = [], []
    for _ in range(ROUNDS):
        m_s.append(b.run(mine_cmd).cpu)
        p_s.append(b.run(perf_cmd).cpu)
    return b.median(m_s), b.median(p_s), b.spread([m / p for m, p in zip(m_s, p_s)])


perf = ["perf", "script", "-i", data, "-F", "ip,sym", "--stitch-lbr"]
mine = [b.PMUSIM, "stitch", "--map-dir", work, data]
same_stacks(data, perf, mine, "the default scenario")
m, p, noise = measure(perf, mine)
b.report(FIGURES[0], "ms", m * 1e3, p * 1e3, "perf script --stitch-lbr", "<=", 0.05, noise)

stacks = os.path.join(work, "stacks.txt")
with open(stacks, "w") as f:
    f.write(b.run(mine).out)
m, _, noise = measure(perf, ["cat", stacks])
b.report(FIGURES[3], "ms", m * 1e3, p * 1e3, "perf script --stitch-lbr", None, 0.0, noise)

bare = os.path.join(work, "bare.data")
strip_samples(data, bare)
m, _, noise = measure(perf, [b.PMUSIM, "stitch", "--map-dir", work, bare])
b.report(FIGURES[2], "ms", m * 1e3, p * 1e3, "perf script --stitch-lbr", None, 0.0, noise)

tool = os.path.join(b.OBJTREE, "vgtool", "lib", "pmusim-amd64-linux")
if not shutil.which("valgrind") or not shutil.which("sort"):
    b.not_measured(FIGURES[1:2], "valgrind or sort is not installed (scripts/install-deps.sh bench)")
if not os.path.exists(tool):
    sys.exit(f"bench: stitch: pmusim's Valgrind tool {tool} was not built")
lines = os.path.join(work, "lines")
with open(lines, "w") as f:
    f.write("".join(f"{i * 7919 % 50021}\n" for i in range(50000)))
rec = os.path.join(work, "sort.data")
b.run([b.PMUSIM, "record", "-e", "cycles:u", "--call-graph", "lbr", "-o", rec, "--", "sort", lines])
perf = ["perf", "script", "-i", rec, "-F", "ip,sym", "--stitch-lbr"]
mine = [b.PMUSIM, "stitch", rec]
same_stacks(rec, perf, mine, "the recorded sort")
m, p, noise = measure(perf, mine)
b.report(FIGURES[1], "ms", m * 1e3, p * 1e3, "perf script --stitch-lbr", "<=", 0.05, noise)
