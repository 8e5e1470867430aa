#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Write the seed corpora of the fuzz harnesses, deterministically:
#   fuzz/gen-corpus.py [SRCTREE]
# fuzz/corpus/ringbuf/: one input per behaviour worth starting from (see
# the input format at the top of fuzz/fuzz_ringbuf.c), including a nested
# writer and a reader step at every ring-buffer interleaving point.
import os
import re
import sys

srctree = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def points():
    text = open(os.path.join(srctree, "core/interleave.h")).read()
    body = text[text.index("#define PERF_INTERLEAVE_POINTS"):text.index("#define __PI_ENUM")]
    return re.findall(r"P\((PI_\w+)\)", body)

PI = {name: i for i, name in enumerate(points())}
# the verifying reader's steps, pseudo-points after the real ones (fuzz_ringbuf.c)
PI["VERIFY_HEADER"] = len(PI)
PI["VERIFY_RECORD"] = len(PI)
# a writer's two loops on a retry pass (fuzz_ringbuf.c)
PI["RETRY_READ_TAIL"] = len(PI)
PI["RETRY_READ_HEAD"] = len(PI)
WRITE, SAMPLE, BIG, READ, PAUSE, RESUME, GARBAGE, WINDOW = range(8)

def cfg(order=0, backward=False, overwrite=False, id_all=False, watermark=False, reach=False, arg=0):
    return bytes([order | backward << 3 | overwrite << 4 | id_all << 5 | watermark << 6 | reach << 7, arg])

def op(kind, arg=0, at=None):
    return bytes([kind | ((PI[at] + 1) << 3 if at else 0), arg])

def ringbuf():
    seeds = {}
    w = lambda n=4: op(WRITE, n)
    seeds["forward-write-read"] = cfg() + w() + w(10) + op(READ, 1) + w() + op(READ)
    seeds["forward-fill-lost"] = cfg() + w(120) * 5 + op(READ) + w() + op(READ)
    seeds["forward-wrap-2pages"] = cfg(1) + (w(100) + op(READ)) * 12
    seeds["pause-resume-lost"] = cfg(id_all=True) + w() + op(PAUSE) + w() * 3 + op(RESUME) + w() + op(READ)
    seeds["overwrite-pause"] = cfg(overwrite=True) + w() + op(PAUSE) + w() + op(RESUME) + w()
    seeds["backward-overwrite-wrap"] = cfg(backward=True, overwrite=True) + w(60) * 12 + op(WINDOW)
    seeds["backward-writable"] = cfg(backward=True) + w(100) * 6 + op(READ) + w(100) * 3 + op(READ)
    seeds["forward-overwrite-16pages"] = cfg(4, overwrite=True) + op(BIG, 250) * 10
    seeds["big-record"] = cfg() + op(BIG, 200) + w() + op(READ)
    seeds["wakeup-events"] = cfg(arg=2) + op(SAMPLE, 2) * 5 + op(READ)
    seeds["watermark"] = cfg(1, watermark=True, arg=3) + w(30) * 8 + op(READ)
    seeds["garbage-tail"] = cfg() + w() + op(GARBAGE, 0x7f) + w(100) * 6
    # the window readers: forward overwrite, the paused backward one, and
    # the copy-then-verify reader with writers between its copy and check
    seeds["overwrite-forward-reader"] = cfg(overwrite=True) + (w(60) + op(WINDOW)) * 10 + w(200) * 3 + op(WINDOW)
    seeds["backward-writable-window"] = cfg(backward=True) + w(100) * 6 + op(WINDOW) + op(READ) + w(100) * 3 + op(WINDOW)
    for guard in (0, 128, 1016):		# bytes: arg = guard / 8 * 2 + 1
        g = guard // 8 * 2 + 1
        seeds["verify-guard%d" % guard] = (cfg(backward=True, overwrite=True) + w(60) * 12 +
                                           op(WINDOW, g) + op(WRITE, 60, at="VERIFY_HEADER") +
                                           op(WRITE, 100, at="VERIFY_RECORD") + op(WRITE, 60, at="VERIFY_RECORD"))
        seeds["verify-in-writer-guard%d" % guard] = (cfg(backward=True, overwrite=True) + w(60) * 12 +
                                                     op(SAMPLE, 40) + op(WINDOW, g, at="PI_OUTPUT_COPY") +
                                                     op(WRITE, 30, at="VERIFY_RECORD") + op(WINDOW, g))
    # long reach: op 2 at a limit, reservations ending a word either side
    # of the watermark step (arg & 15 = 7, 8, 9), two steps ahead
    # (arg >> 4 = 1), and the largest records, in a buffer they fill, one
    # they exceed, backward; bursts of records and samples (arg bit 7)
    edge = lambda a: op(BIG, a)
    burst = lambda kind, count, shift: op(kind, 0x80 | shift << 4 | (count // 8 - 1))
    seeds["burst-watermark-samples"] = cfg(watermark=True, reach=True, arg=1) + burst(SAMPLE, 128, 0) + op(READ)
    seeds["burst-wakeup-events"] = (cfg(reach=True, arg=7) + burst(SAMPLE, 16, 1) + op(READ) +
                                    burst(WRITE, 8, 3) + op(READ) + burst(SAMPLE, 24, 0) + op(READ))
    seeds["burst-fill-lost"] = cfg(1, reach=True, id_all=True) + burst(WRITE, 64, 3) + op(READ) + burst(SAMPLE, 8, 2) + op(READ)
    seeds["burst-backward-overwrite"] = (cfg(backward=True, overwrite=True, reach=True) + burst(WRITE, 40, 2) +
                                         op(WINDOW, 9) + op(WINDOW))
    seeds["edge-watermark"] = (cfg(1, watermark=True, reach=True, arg=5) +
                               (edge(8) + op(READ) + edge(7) + edge(9) + op(READ) + edge(0x18) + op(READ)) * 3)
    seeds["edge-watermark-half"] = cfg(reach=True, arg=1) + (op(SAMPLE, 20) + edge(8) + op(READ)) * 4
    seeds["edge-max-record"] = cfg(4, reach=True) + edge(0x80) + op(READ) + edge(0x81) + w() + op(READ)
    seeds["edge-max-record-lost"] = (cfg(4, reach=True, id_all=True) + op(PAUSE) + w() + op(RESUME) +
                                     edge(0x80) + op(READ) + edge(0x83) + op(READ))
    seeds["edge-max-record-overwrite"] = cfg(2, backward=True, overwrite=True, reach=True) + w(60) + edge(0x80) + w(60) * 3 + op(WINDOW, 9)
    # a second nested writer on the outer writer's retry pass of each loop
    for loop, first in (("read-tail", "PI_OUTPUT_BEGIN_CMPXCHG"), ("read-head", "PI_PUT_HANDLE_READ_HEAD")):
        retry = "RETRY_" + loop.upper().replace("-", "_")
        seeds["nmi-retry-" + loop] = (cfg(arg=1) + op(SAMPLE, 20) + op(WRITE, 3, at=first) +
                                      op(WRITE, 5, at=retry) + op(READ))
        seeds["nmi-backward-retry-" + loop] = (cfg(backward=True, overwrite=True, id_all=True) + op(SAMPLE, 20) +
                                               op(WRITE, 3, at=first) + op(WRITE, 5, at=retry) +
                                               op(WRITE, 7, at=retry) + op(WINDOW))
    for name in PI:
        if not name.startswith("PI_OUTPUT") and not name.startswith("PI_PUT_HANDLE"):
            continue
        tag = name[3:].lower().replace("_", "-")
        # the outer writer is a sample so that SAMPLE_EVENTS is reached; a
        # full buffer and a pending LOST so that FAILED and LOST_TAKEN are
        fill = w(120) * 5 if name == "PI_OUTPUT_BEGIN_FAILED" else b""
        lost = op(PAUSE) + w() + op(RESUME) if name == "PI_OUTPUT_BEGIN_LOST_TAKEN" else b""
        seeds["nmi-" + tag] = cfg(arg=1) + fill + lost + op(SAMPLE, 20) + op(WRITE, 3, at=name) + op(READ)
        seeds["nmi-backward-" + tag] = (cfg(backward=True, overwrite=True, id_all=True) + lost +
                                        op(SAMPLE, 20) + op(WRITE, 3, at=name) + op(WINDOW))
        seeds["reader-" + tag] = cfg() + fill + w(8) + op(SAMPLE, 20) + op(READ, 0, at=name)
    return seeds

def write(name, seeds, keep=None):
    # replaces fuzz/corpus/NAME/, but for the files whose names start with KEEP
    d = os.path.join(srctree, "fuzz/corpus", name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if not (keep and f.startswith(keep)):
            os.unlink(os.path.join(d, f))
    for k, v in sorted(seeds.items()):
        with open(os.path.join(d, k), "wb") as f:
            f.write(v)

write("ringbuf", ringbuf())

def ringbuf_dict():
    # one token per op kind bound to each ring-buffer point, and the top-level ops
    lines = ["# SPDX-License-Identifier: GPL-2.0-only",
             "# fuzz_ringbuf: 2-byte schedule ops (written by fuzz/gen-corpus.py)"]
    names = ["write", "sample", "big", "read", "pause", "resume", "garbage", "window"]
    for kind, n in enumerate(names):
        lines.append('%s_top="\\x%02x\\x%02x"' % (n, kind, 8))
    # with long reach (byte 0 bit 7): the largest record, a watermark
    # step, a burst of 128 16-byte samples
    lines.append('big_edge_max="\\x%02x\\x80"' % BIG)
    lines.append('big_edge_watermark="\\x%02x\\x08"' % BIG)
    lines.append('sample_burst="\\x%02x\\x8f"' % SAMPLE)
    for name, i in sorted(PI.items(), key=lambda x: x[1]):
        if name.startswith("PI_OVERFLOW"):
            continue
        for kind in (WRITE, SAMPLE, READ, PAUSE, RESUME, WINDOW):
            lines.append('%s_at_%s="\\x%02x\\x%02x"' % (names[kind], name.replace("PI_", "").lower(),
                                                      kind | (i + 1) << 3, 9 if kind == WINDOW else 8))
    with open(os.path.join(srctree, "fuzz/dict/ringbuf.dict"), "w") as f:
        f.write("\n".join(lines) + "\n")

ringbuf_dict()

def parsers():
    # byte 0 picks the parser (fuzz_parsers.c); the perf.data seeds
    # (perf-data-*, written by pmusim run) are kept as they are
    seeds = {}
    for d, sel in (("scenarios", 1), ("tests/replay/ringbuf", 2 | 0x80)):
        for n in sorted(os.listdir(os.path.join(srctree, d))):
            if n.endswith((".yaml", ".rb")):
                seeds["%s-%s" % ("scenario" if sel == 1 else "script", n)] = \
                    bytes([sel]) + open(os.path.join(srctree, d, n), "rb").read()
    seeds["script-read-on-backward"] = bytes([2]) + b"write 16 3\nread\n"
    seeds["script-bad-size"] = bytes([2 | 0x80]) + b"write 17\n"
    seeds["scenario-minimal"] = bytes([1]) + (b"seed: 1\nduration: 1000\ntasks:\n  - name: a\n"
                                              b"    workload: {kind: tchain, depth: 3}\n"
                                              b"events:\n  - event: cycles:u\n    period: 100\n")
    write("parsers", seeds, keep="perf-data-")

parsers()

def attr_corpus():
    # see the input format at the top of fuzz/fuzz_attr.c
    import struct
    OPEN_RAW, OPEN_PATCH, IOCTL, RUN, CLOSE, MMAP, READ, TICK = range(8)
    def raw_attr(type_, config, period, sample_type, flags, branch=0, read_format=0, size=128):
        a = struct.pack("<IIQQQQQIIQQQ", type_, size, config, period, sample_type, read_format,
                        flags, 0, 0, 0, 0, branch)
        return a + bytes(size - len(a)) if size > len(a) else a[:size]
    def open_raw(a, target=0x04, flags=0):
        return bytes([OPEN_RAW, len(a)]) + a + bytes([target, flags])
    def open_patch(patches=(), target=0x04, flags=0, batch=None):
        # batch=K: 1 + 4 K opens of the one attr
        b = bytes([OPEN_PATCH, len(patches)]) if batch is None else bytes([OPEN_PATCH | 0x80, batch, len(patches)])
        for off, val in patches:
            b += bytes([off, val])
        return b + bytes([target, flags])
    def ioctl(ev, cmd, arg=0):
        return bytes([IOCTL, ev, cmd]) + struct.pack("<Q", arg)
    run = lambda cpu=0, n=40: bytes([RUN, cpu, n])
    seeds = {}
    for m in range(5):
        seeds["sampler-model%d" % m] = (bytes([m]) + open_patch() + bytes([MMAP, 0, 4 | 1]) +
                                        run() + bytes([READ, 0]) + ioctl(0, 1) + run() + ioctl(0, 0) +
                                        run() + bytes([CLOSE, 0]))
    disabled, freq, inherit = 1 << 0, 1 << 10, 1 << 1
    st = 0x1 | 0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x10000   # ip tid time addr id cpu period identifier
    seeds["raw-counting"] = bytes([2]) + open_raw(raw_attr(0, 0, 0, 0, 0)) + run() + bytes([READ, 0])
    seeds["raw-freq"] = bytes([2]) + open_raw(raw_attr(0, 4, 4000, st, freq)) + bytes([MMAP, 0, 4]) + run(0, 200) + bytes([TICK])
    seeds["raw-read-group"] = (bytes([2]) + open_raw(raw_attr(0, 0, 100, st | 0x10, 0, read_format=0xf)) +
                               open_raw(raw_attr(0, 1, 0, 0, 0), target=0x14) + bytes([MMAP, 0, 5]) + run(0, 100))
    seeds["raw-backward"] = bytes([2]) + open_raw(raw_attr(0, 4, 10, st, 1 << 27)) + bytes([MMAP, 0, 0]) + run(0, 120)
    seeds["raw-task"] = bytes([2]) + open_raw(raw_attr(0, 4, 10, st, inherit), target=0x01 | 0x00) + bytes([MMAP, 0, 4]) + run() + bytes([TICK | 8]) + run(1) + bytes([TICK | 8]) + run()
    seeds["raw-short-size"] = bytes([2]) + open_raw(raw_attr(0, 0, 0, 0, 0, size=64))
    seeds["raw-big-size"] = bytes([2]) + open_raw(raw_attr(0, 0, 0, 0, 0, size=200))
    seeds["ioctls"] = (bytes([2]) + open_patch() + open_patch() + bytes([MMAP, 0, 5]) +
                       b"".join(ioctl(0, c, 1) for c in range(12)) + ioctl(1, 5, 0) + run() +
                       ioctl(0, 4, 3) + ioctl(0, 7) + ioctl(0, 9, 1) + run() + ioctl(0, 9, 0) + run() +
                       ioctl(0, 2, 2) + run() + ioctl(0, 11, 0x0000000480000000))
    # a group up to the 16 KiB read-size limit and one past it: every read_format field (ID,
    # LOST, both times, GROUP) makes 24 bytes a member; the leader samples READ
    every_field = (32, 0x1f)
    seeds["group-read-size-limit"] = (bytes([2]) + open_patch((every_field, (24, 0x57))) +
                                      open_patch((every_field, (40, 0x61)), target=0x14, batch=170) +
                                      bytes([MMAP, 0, 4 | 3]) + run(0, 20) + bytes([READ, 0]))
    seeds["call-stack"] = bytes([2]) + open_patch(((0x48, 0x00), (0x49, 0x08), (0x4a, 0x02))) + bytes([MMAP, 0, 5]) + run(0, 100)
    write("attr", seeds)
    lines = ["# SPDX-License-Identifier: GPL-2.0-only",
             "# fuzz_attr: commands (written by fuzz/gen-corpus.py)",
             'open_patched="\\x01\\x00\\x04\\x00"', 'open_batch="\\x81\\xaa"', 'read_format_all="\\x20\\x1f"', 'mmap="\\x05\\x00\\x05"',
             'run="\\x03\\x00\\x28"', 'close="\\x04\\x00"', 'read="\\x06\\x00"',
             'tick="\\x07"', 'swap="\\x0f"', 'attr_size_128="\\x80\\x00\\x00\\x00"']
    for c in range(12):
        lines.append('ioctl_%d="\\x02\\x00\\x%02x"' % (c, c))
    with open(os.path.join(srctree, "fuzz/dict/attr.dict"), "w") as f:
        f.write("\n".join(lines) + "\n")

attr_corpus()

def lbr_corpus():
    # see the input format at the top of fuzz/fuzz_lbr.c
    CALL, CALL2, RET, JCC, JMP, TICK, SWITCH, BURST = range(8)
    deep = bytes([CALL] * 40 + [JCC] * 5 + [RET] * 12 + [CALL | 8] * 6 + [JCC] * 3)
    mixed = bytes([CALL, JCC, CALL | 8, JMP, JMP | 8, CALL | 0x40, RET, JCC, RET, CALL, RET, TICK] * 6)
    seeds = {}
    names = ["core2", "nehalem", "skylake", "icelake", "sapphirerapids"]
    for m, name in enumerate(names):
        for f, fname in enumerate(["any", "any_call", "any_return", "cond", "ind_call", "call", "ind_jump", "call_stack"]):
            seeds["%s-%s" % (name, fname)] = bytes([m, f | 8, 4, 0, 0]) + mixed + deep
    seeds["skylake-callstack-task-switch"] = bytes([2, 7 | 8, 6, 0, 1]) + deep + bytes([SWITCH]) + deep[:20] + bytes([SWITCH]) + deep
    seeds["skylake-callstack-cpu-switch"] = bytes([2, 7 | 8, 6, 0, 0]) + deep + bytes([SWITCH]) + deep[:20] + bytes([SWITCH]) + deep
    seeds["skylake-alt-period"] = bytes([2, 7 | 8, 9, 3, 0]) + deep * 2
    seeds["skylake-period1-throttle"] = bytes([2, 0, 0, 0, 0]) + bytes([BURST | 0xf8]) * 10 + bytes([TICK]) + bytes([BURST | 0xf8]) * 2
    seeds["skylake-task-throttle-switch"] = bytes([2, 0, 0, 0, 1]) + bytes([BURST | 0xf8]) * 10 + bytes([SWITCH, JCC, SWITCH]) + bytes([BURST | 0xf8]) * 2
    seeds["skylake-alt-throttle"] = bytes([2, 0, 1, 3, 0]) + bytes([BURST | 0xf8]) * 12 + bytes([TICK]) + bytes([BURST | 0xf8]) * 4
    seeds["skylake-refresh1-task-switch"] = bytes([2, 0, 9, 0, 1 << 1 | 1]) + bytes([BURST | 0xf8]) + bytes([SWITCH, JCC, SWITCH]) + bytes([BURST | 0xf8]) * 2
    seeds["icelake-refresh3"] = bytes([3, 3, 5, 0, 3 << 1]) + mixed * 2
    seeds["sapphirerapids-refresh-alt"] = bytes([4, 7 | 8, 2, 7, 2 << 1 | 1]) + deep + mixed
    write("lbr", seeds)
    lines = ["# SPDX-License-Identifier: GPL-2.0-only",
             "# fuzz_lbr: ops (written by fuzz/gen-corpus.py)",
             'call_call_call="\\x00\\x00\\x00"', 'ret_ret="\\x02\\x02"',
             'burst="\\xff"', 'tick="\\x05"', 'switch="\\x06"', 'ind_call="\\x40"',
             'ind_jmp="\\x0c"']
    with open(os.path.join(srctree, "fuzz/dict/lbr.dict"), "w") as f:
        f.write("\n".join(lines) + "\n")

lbr_corpus()

def overflow_corpus():
    # see the input format at the top of fuzz/fuzz_overflow.c
    OPEN, MMAP, RETIRE, TICK, IOCTL, READ, CLOSE, CLOCK = range(8)
    JOIN, DISABLED, MAPPED, WATERMARK, BACKWARD = 0x08, 0x10, 0x20, 0x40, 0x80
    ENABLE, DISABLE, REFRESH, RESET, PERIOD, PAUSE, SET_OUTPUT, ID, UNKNOWN, GROUP = range(10)
    def open_(menu, p=10, patches=()):
        b = bytes([OPEN | len(patches) << 3, menu, p])
        for off, val in patches:
            b += bytes([off, val])
        return b
    def retire(n=200, scale=7):
        return bytes([RETIRE | scale << 3, n])
    def ioctl(slot, cmd, arg=0, edge=False):
        return bytes([IOCTL | (cmd + (10 if edge else 0)) << 3, slot, arg])
    tick = bytes([TICK])
    seeds = {}
    for m in range(8):
        seeds["menu%d-pmis-tick" % m] = bytes([1]) + open_(m | MAPPED) + retire() * 2 + tick + retire() + bytes([READ])
    seeds["throttle-unthrottle"] = bytes([0]) + open_(0 | MAPPED, 0) + retire() * 4 + tick + retire() * 2 + tick + bytes([READ])
    seeds["throttle-period-unthrottles"] = (bytes([0]) + open_(0 | MAPPED, 0) + retire() * 4 +
                                            ioctl(0, PERIOD, 20) + retire() * 4 + tick)
    seeds["freq-ticks"] = bytes([1]) + open_(2 | MAPPED, 40) + (retire(100, 3) + bytes([CLOCK | 31 << 3]) + tick) * 12
    seeds["cycles-freq-ticks"] = bytes([1]) + open_(7 | MAPPED, 80) + (retire(255, 1) + bytes([CLOCK | 9 << 3]) + tick) * 12
    seeds["refresh-event-limit"] = (bytes([0]) + open_(0 | MAPPED | DISABLED, 30) + ioctl(0, REFRESH, 3) +
                                    retire(100, 1) + ioctl(0, REFRESH, 1) + retire(100, 1) + ioctl(0, ENABLE) + retire())
    seeds["ioctls"] = (bytes([0]) + open_(0 | MAPPED, 30) + b"".join(ioctl(0, c, 5) + retire(50, 1) for c in range(10)) +
                       ioctl(0, PERIOD, 0, edge=True) + ioctl(0, PERIOD, 1, edge=True) + ioctl(0, REFRESH, 0) +
                       ioctl(0, REFRESH, 0xff) + tick)
    seeds["pause-output"] = (bytes([0]) + open_(1 | MAPPED, 2) + retire() + ioctl(0, PAUSE, 1) + retire() * 2 +
                             ioctl(0, PAUSE, 0) + retire() + tick + bytes([READ]))
    seeds["group-read"] = (bytes([2]) + open_(4 | MAPPED, 20) + open_(3 | JOIN) + open_(3 | JOIN) +
                           retire() * 2 + ioctl(0, GROUP, 1) + retire() + ioctl(0, GROUP, 0) + ioctl(0, GROUP, 2) + retire() + tick)
    seeds["set-output"] = (bytes([1]) + open_(0 | MAPPED, 30) + open_(0, 40) + ioctl(1, SET_OUTPUT, 0) +
                           retire() * 2 + ioctl(1, SET_OUTPUT, 0xff) + retire() + bytes([READ]))
    seeds["full-ring-lost"] = bytes([0]) + open_(6 | MAPPED, 0) + retire(255, 31) * 3 + bytes([READ]) + tick + retire()
    seeds["watermark"] = bytes([1]) + open_(0 | MAPPED | WATERMARK, 8) + retire() * 3 + bytes([READ]) + retire()
    seeds["backward"] = bytes([1]) + open_(1 | MAPPED | BACKWARD, 20) + retire() * 3 + tick
    seeds["four-events-close"] = (bytes([1]) + open_(0 | MAPPED) + open_(1 | MAPPED) + open_(5 | MAPPED) +
                                  open_(6 | MAPPED) + retire() * 2 + bytes([CLOSE | 1 << 3]) + retire() + tick +
                                  open_(2 | MAPPED) + retire() + bytes([READ]))
    seeds["patched-attrs"] = (bytes([0]) + open_(0 | MAPPED, 10, ((40, 0x01), (41, 0x01))) +
                              open_(1 | MAPPED, 10, ((24, 0x00), (25, 0x00), (32, 0x3f))) + retire() * 2 + tick)
    write("overflow", seeds)
    lines = ["# SPDX-License-Identifier: GPL-2.0-only",
             "# fuzz_overflow: ops (written by fuzz/gen-corpus.py)",
             'open_mapped="\\x00\\x20\\x0a"', 'open_freq="\\x00\\x22\\x28"', 'open_group="\\x00\\x0b\\x00"',
             'retire="\\x3a\\xc8"', 'tick="\\x03"', 'read="\\x05"', 'clock="\\xff"',
             'refresh="\\x14\\x00\\x03"', 'period="\\x24\\x00\\x14"', 'period_edge="\\x74\\x00\\x01"',
             'pause="\\x2c\\x00\\x01"', 'set_output="\\x34\\x01\\x00"', 'group_enable="\\x4c\\x00\\x00"']
    with open(os.path.join(srctree, "fuzz/dict/overflow.dict"), "w") as f:
        f.write("\n".join(lines) + "\n")

overflow_corpus()
