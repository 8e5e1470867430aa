#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# record_check.py PERF.DATA MODE: perf script's call chains of a pmusim
# record file against the true stacks beside it (PERF.DATA.truth), for
# tests/cmd/test_record.sh. Prints one line per check, "ok WHAT" or
# "not ok WHAT: why", and a line "# counts ..." of what it saw.
#
# perf prints a frame of a file mapping as its offset in the file
# (address - start + pgoff); the truth's addresses are converted alike.
# Symbols of true frames beyond what perf printed come from the files'
# own symbol tables (nm, with readelf's LOAD segments for the offsets).
import bisect
import re
import subprocess
import sys

data, mode = sys.argv[1], sys.argv[2]

out = subprocess.run(["perf", "script", "-i", data, "--ns", "-F", "tid,time,ip,sym,dso",
                      "--show-mmap-events"], capture_output=True, text=True)
if out.returncode:
    print("not ok perf script: " + out.stderr.strip().splitlines()[-1])
    sys.exit(0)

maps = []       # (start, end, pgoff, path)
samples = []    # (tid, time_ns, [(addr, sym, dso)])
mmap_re = re.compile(r"PERF_RECORD_MMAP2 \d+/\d+: \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*\]: \S+ (.*)$")
head_re = re.compile(r"^\s*(\d+)\s+(\d+)\.(\d{9}):\s*$")
frame_re = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*)\)$")
for line in out.stdout.splitlines():
    m = mmap_re.search(line)
    if m:
        start, length = int(m.group(1), 16), int(m.group(2), 16)
        maps.append((start, start + length, int(m.group(3), 16), m.group(4).strip()))
        continue
    m = head_re.match(line)
    if m:
        samples.append((int(m.group(1)), int(m.group(2)) * 10**9 + int(m.group(3)), []))
        continue
    m = frame_re.match(line)
    if m and samples:
        samples[-1][2].append((int(m.group(1), 16), m.group(2), m.group(3)))

truth = {}
with open(data + ".truth") as f:
    for line in f:
        if line.startswith("#"):
            continue
        w = line.split()
        truth[(int(w[0]), int(w[1]))] = (w[2], w[3], int(w[4], 16), [int(x, 16) for x in w[6:]])


def mapping(addr):
    for start, end, pgoff, path in reversed(maps):
        if start <= addr < end:
            return start, pgoff, path
    return None


def as_perf(addr):
    m = mapping(addr)
    if not m or not m[2].startswith("/"):
        return addr
    return addr - m[0] + m[1]


symtabs = {}


def symtab(path):
    if path in symtabs:
        return symtabs[path]
    loads, syms = [], []
    try:
        ph = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
        for l in ph.splitlines():
            w = l.split()
            if w and w[0] == "LOAD":
                loads.append((int(w[1], 16), int(w[2], 16), int(w[4], 16)))  # offset, vaddr, filesz
        for dyn in ([], ["-D"]):    # a stripped library has its dynamic symbols
            nm = subprocess.run(["nm", "-C", "-n", "--defined-only"] + dyn + [path],
                                capture_output=True, text=True).stdout
            for l in nm.splitlines():
                w = l.split(maxsplit=2)
                if len(w) == 3 and w[1] in "tTwWiI":
                    # main.cold is main's; f(int) is f
                    syms.append((int(w[0], 16), w[2].split("(")[0].split(".")[0]))
            if syms:
                break
        syms.sort()
    except OSError:
        pass
    symtabs[path] = (loads, syms)
    return symtabs[path]


def symbol(addr):
    """The function an address is in, by its file's symbol table."""
    m = mapping(addr)
    if not m:
        return "?"
    off = addr - m[0] + m[1]
    loads, syms = symtab(m[2])
    for o, v, sz in loads:
        if o <= off < o + sz:
            off = off - o + v
            break
    i = bisect.bisect_right([s[0] for s in syms], off) - 1
    return syms[i][1] if i >= 0 else "?"


def verdict(frames, true):
    if frames == true:
        return "whole"
    if len(frames) < len(true) and frames == true[:len(frames)]:
        return "short"
    return "wrong"


failures = []
agree = n = whole_equal = 0
counts = {"whole": 0, "short": 0, "wrong": 0}
st_counts = {"whole": 0, "short": 0, "wrong": 0}
judged = []     # (tid, ip symbol, truth symbols, perf frames' symbols, lbr verdict)
for tid, t, frames in samples:
    tr = truth.get((tid, t))
    if tr is None:
        failures.append("sample %d/%d has no truth" % (tid, t))
        continue
    lbr, stitched, ip, true = tr
    n += 1
    perf = [a for a, _, _ in frames]
    v = verdict(perf, [as_perf(a) for a in true])
    if v == lbr:
        agree += 1
    elif len(failures) < 3:
        failures.append("sample %d/%d: perf's frames are %s, pmusim said %s" % (tid, t, v, lbr))
    counts[v] = counts.get(v, 0) + 1
    if stitched in st_counts:
        st_counts[stitched] += 1
    judged.append((tid, symbol(ip), [symbol(a) for a in true], [s for _, s, _ in frames],
                   [d for _, _, d in frames], lbr, len(true)))

print("# counts samples=%d whole=%d short=%d wrong=%d stitched_whole=%d" %
      (n, counts["whole"], counts["short"], counts["wrong"], st_counts["whole"]))
if n and agree == n and not failures:
    print("ok every sample's perf script frames judged as pmusim judged them (%d)" % n)
else:
    print("not ok perf and pmusim judge alike: " + "; ".join(failures or ["no samples"]))


def check(what, cond, why=""):
    print(("ok " if cond else "not ok ") + what + ("" if cond else ": " + why))


def in_order(syms, names):
    """names appear in syms in this order, each right after the one before."""
    for i in range(len(syms) - len(names) + 1):
        if syms[i:i + len(names)] == names:
            return True
    return False


def ex(rows):
    return rows[0][2][:12] if rows else "none"


if mode == "deep":
    deep = [j for j in judged if j[6] > 33]
    check("deep: samples deeper than the LBR (%d) are short, never wrong" % len(deep),
          deep and all(j[5] == "short" for j in deep), str(ex(deep)))
    check("deep: no raw LBR stack is wrong", counts["wrong"] == 0, str(counts))
    check("deep: stitching shows more stacks whole than the raw LBR",
          st_counts["whole"] > counts["whole"], "%s against %s" % (st_counts, counts))
elif mode == "longjmp":
    after = [j for j in judged if "after_jump" in j[2][:2]]
    check("longjmp: samples in after_jump() (%d) have no frame of down()" % len(after),
          after and all("down" not in j[2] and in_order(j[2], ["after_jump", "main"]) for j in after),
          str(ex(after)))
elif mode == "signal":
    inh = [j for j in judged if "handler_work" in j[2][:2]]
    check("signal: samples in the handler (%d) have its frames on the interrupted ones" % len(inh),
          inh and all(in_order(j[2], ["handler_work", "handler"]) and "raise_from" in j[2] for j in inh),
          str(ex(inh)))
    # The handler is entered without a call and left with a return: in
    # call-stack mode that return pops a call of the interrupted code, so
    # the first handler's samples are whole and every later one is wrong.
    seq = "".join(j[5][0:2] for j in inh)
    check("signal: the first handler's stacks whole, later ones wrong (its return popped a record)",
          re.fullmatch(r"(wh)+(wr)+", seq) is not None, seq)
elif mode == "threads":
    tids = {j[0] for j in judged if in_order(j[2], ["thread_work", "thread_work"]) and "thread_main" in j[2]}
    check("threads: two threads sampled in thread_work() under thread_main()", len(tids) == 2,
          str(tids))
    check("threads: their stacks are whole", all(j[5] == "whole" for j in judged if j[0] in tids))
elif mode == "tail":
    tail = [j for j in judged if in_order(j[2], ["g_tail", "main"])]
    check("tail: samples under g_tail() (%d), which f_tail() jumped to, have no f_tail() frame" % len(tail),
          tail and all("f_tail" not in j[2][1:] for j in tail), str(ex(tail)))
    check("tail: perf shows them whole", tail and all(j[5] == "whole" for j in tail))
elif mode == "dlopen":
    lib = [j for j in judged if in_order(j[2], ["lib_inner", "lib_work", "main"])]
    check("dlopen: samples in the library (%d), named by perf from its file" % len(lib),
          lib and all([x.split(".")[0] for x in j[3][:2]] == ["lib_inner", "lib_work"] and
                      j[4][0].endswith(".so") for j in lib),
          str([(j[3][:3], j[4][:1]) for j in lib[:2]]))
elif mode == "exc":
    after = [j for j in judged if "after_catch" in j[2][:2]]
    check("exception: samples in after_catch() (%d) have no frame the exception unwound" % len(after),
          after and all("thrower" not in j[2] and in_order(j[2], ["after_catch", "main"]) for j in after),
          str(ex(after)))
elif mode == "any":
    check("samples have call stacks", any(j[3] for j in judged))
