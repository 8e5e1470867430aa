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
import os
import re
import subprocess
import sys

data, mode = sys.argv[1], sys.argv[2]
# a build without CONFIG_LBR_STITCH judges the raw LBR stacks only
with open(os.path.join(os.environ["PMUSIM_OBJTREE"], ".config")) as f:
    stitch = "CONFIG_LBR_STITCH=y" in f.read().split("\n")

out = subprocess.run(["perf", "script", "-i", data, "--ns", "-F", "comm,pid,tid,time,ip,sym,dso",
                      "--show-mmap-events", "--show-task-events"], capture_output=True, text=True)
if out.returncode:
    print("not ok perf script: " + out.stderr.strip().splitlines()[-1])
    sys.exit(0)

maps = {}       # pid: [(start, end, pgoff, path)]; a child starts with its parent's
samples = []    # (tid, time_ns, [(addr, sym, dso)], pid, comm)
forks = []      # (time_ns, child pid, parent pid)
execs = []      # (time_ns, pid, comm)
exits = {}      # tid: time_ns
mmap_re = re.compile(r"PERF_RECORD_MMAP2 (\d+)/\d+: \[(0x[0-9a-f]+)\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|0) .*\]: \S+ (.*)$")
time_re = r"^\s*(\S+)\s+(\d+)/(\d+)\s+(\d+)\.(\d{9}):"
head_re = re.compile(time_re + r"\s*$")
fork_re = re.compile(time_re + r".*PERF_RECORD_FORK\((\d+):\d+\):\((\d+):\d+\)")
exec_re = re.compile(time_re + r".*PERF_RECORD_COMM exec: (\S+):(\d+)/")
exit_re = re.compile(time_re + r".*PERF_RECORD_EXIT")
frame_re = re.compile(r"^\s+([0-9a-f]+) (.*) \((.*)\)$")


def ns(m):
    return int(m.group(4)) * 10**9 + int(m.group(5))


for line in out.stdout.splitlines():
    m = mmap_re.search(line)
    if m:
        start, length = int(m.group(2), 16), int(m.group(3), 16)
        maps.setdefault(int(m.group(1)), []).append(
            (start, start + length, int(m.group(4), 16), m.group(5).strip()))
        continue
    m = fork_re.match(line)
    if m:
        child, parent = int(m.group(6)), int(m.group(7))
        forks.append((ns(m), child, parent))
        if child != parent:
            maps[child] = list(maps.get(parent, []))
        continue
    m = exec_re.match(line)
    if m:
        execs.append((ns(m), int(m.group(7)), m.group(6)))
        maps[int(m.group(7))] = []      # the new image maps its own
        continue
    m = exit_re.match(line)
    if m:
        exits[int(m.group(3))] = ns(m)
        continue
    m = head_re.match(line)
    if m:
        # a sample's mappings are its process's as they were then
        samples.append((int(m.group(3)), ns(m), [], int(m.group(2)), m.group(1),
                        list(maps.get(int(m.group(2)), []))))
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


cur_maps = []   # the mappings of the sample being looked at


def mapping(addr):
    for start, end, pgoff, path in reversed(cur_maps):
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
for tid, t, frames, pid, comm, cur_maps in samples:
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
                   [d for _, _, d in frames], lbr, len(true), pid, comm, t))

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
    if stitch:
        check("deep: stitching shows more stacks whole than the raw LBR",
              st_counts["whole"] > counts["whole"], "%s against %s" % (st_counts, counts))
    else:
        unjudged = sum(1 for tr in truth.values() if tr[1] == "-")
        check("deep: no CONFIG_LBR_STITCH: no stitched stack judged (%d of %d '-')" %
              (unjudged, len(truth)), truth and unjudged == len(truth), str(st_counts))
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
elif mode in ("threads", "serial"):
    tids = {j[0] for j in judged if in_order(j[2], ["thread_work", "thread_work"]) and "thread_main" in j[2]}
    check("%s: two threads sampled in thread_work() under thread_main()" % mode, len(tids) == 2,
          str(tids))
    check("%s: their stacks are whole" % mode, all(j[5] == "whole" for j in judged if j[0] in tids))
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
elif mode == "fork":
    parent = samples[0][3] if samples else 0
    child_forks = [f for f in forks if f[2] == parent and f[1] != parent]
    check("fork: a FORK of a new process by the program", len(child_forks) == 1, str(forks))
    child = child_forks[0][1] if child_forks else -1
    before = [j for j in judged if j[7] == child and j[8] == "guest" and "child_work" in j[2][:2]]
    after = [j for j in judged if j[7] == child and j[8] == "execd" and "execd_work" in j[2][:2]]
    check("fork: the child's samples (%d) under its own pid, comm guest, in child_work()" % len(before),
          before and all(j[3][0].split(".")[0] in ("spin", "child_work") for j in before), str(ex(before)))
    check("exec: the child's COMM (exec) names execd", [e[2] for e in execs if e[1] == child] == ["execd"],
          str(execs))
    check("exec: its samples (%d) in execd_work(), from the file execd" % len(after),
          after and all(j[4][0].endswith("/execd") for j in after), str([j[4][:1] for j in after[:2]]))
    # a new task's LBR starts empty: the calls the parent made before the fork are not in it
    check("fork: the child's raw LBR stacks are short of the parent's frames",
          before and all(j[5] == "short" and "main" in j[2] for j in before), str(ex(before)))
    # execve leaves the LBR as it was: the old image's calls are under the new ones
    check("exec: the new image's raw LBR stacks hold the old image's calls: wrong",
          after and all(j[5] == "wrong" for j in after), str([j[5] for j in after[:5]]))
    fork_t = child_forks[0][0] if child_forks else 0
    check("fork: nothing of the child before its FORK",
          all(j[9] >= fork_t for j in judged if j[7] == child))
    ex_t = [e[0] for e in execs if e[1] == child]
    check("exec: nothing of the old image after the COMM, nothing of the new one before",
          ex_t and all((j[8] == "execd") == (j[9] >= ex_t[0]) for j in judged if j[7] == child))
    waited = [j for j in judged if j[7] == parent and "after_wait" in j[2][:2]]
    check("wait: the parent's samples after waitpid (%d) come after the child's EXIT" % len(waited),
          waited and child in exits and all(j[9] > exits[child] for j in waited),
          "exit %s, first %s" % (exits.get(child), min([j[9] for j in waited] or [0])))
    check("every process's samples judged, thread by thread", len({j[0] for j in judged}) == 2 and
          all(j[5] in ("whole", "short", "wrong") for j in judged))
elif mode == "handoff":
    main = [j for j in judged if j[0] == j[7]]
    other = [j for j in judged if j[0] != j[7]]
    pre = [j[9] for j in other if "before_handoff" in j[2][:2]]
    post = [j[9] for j in main if "after_handoff" in j[2][:2]]
    check("handoff: samples in before_handoff() (%d) and after_handoff() (%d)" % (len(pre), len(post)),
          len(pre) > 3 and len(post) > 3)
    check("handoff: the main thread's code after the wait retires after all the other's before it",
          pre and post and min(post) > max(pre),
          "first after %s, last before %s" % (min(post or [0]), max(pre or [0])))
elif mode == "any":
    check("samples have call stacks", any(j[3] for j in judged))
