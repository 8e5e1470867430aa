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
WRITE, SAMPLE, BIG, READ, PAUSE, RESUME, GARBAGE, WINDOW = range(8)

def cfg(order=0, backward=False, overwrite=False, id_all=False, watermark=False, arg=0):
    return bytes([order | backward << 3 | overwrite << 4 | id_all << 5 | watermark << 6, arg])

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

def write(name, seeds):
    d = os.path.join(srctree, "fuzz/corpus", name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
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
    for name, i in sorted(PI.items(), key=lambda x: x[1]):
        if name.startswith("PI_OVERFLOW"):
            continue
        for kind in (WRITE, SAMPLE, READ, PAUSE, RESUME):
            lines.append('%s_at_%s="\\x%02x\\x%02x"' % (names[kind], name[3:].lower(),
                                                      kind | (i + 1) << 3, 8))
    with open(os.path.join(srctree, "fuzz/dict/ringbuf.dict"), "w") as f:
        f.write("\n".join(lines) + "\n")

ringbuf_dict()
