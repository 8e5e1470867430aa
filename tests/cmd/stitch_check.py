# SPDX-License-Identifier: GPL-2.0-only
#
# test_stitch_record.sh's helper.
#
#   stitch_check.py empty IN OUT EVERY
#       OUT: IN with the branch stack of every EVERY-th sample emptied
#       (nr 0, no entries), the record sizes and feature offsets fixed up.
#   stitch_check.py compare DATA PERF_OUT PMUSIM_OUT
#       Hold `pmusim stitch DATA` against `perf script -F ip,sym
#       --stitch-lbr -i DATA`: one block of frames per sample in both, the
#       same block where the sample's branch stack has entries; where it
#       is empty, pmusim prints the sample's own ip (as a DSO offset) as
#       its one frame, perf one frame too (the word it reads after the
#       sample). Prints "samples N empty E", exits 1 with the first
#       difference.
import struct
import sys

SAMPLE, MMAP2 = 9, 10
# the fixed-size fields before the callchain, in the kernel's order:
# IDENTIFIER, IP, TID, TIME, ADDR, ID, STREAM_ID, CPU, PERIOD
FIXED = [1 << 16, 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 6, 1 << 9, 1 << 7, 1 << 8]
CALLCHAIN, RAW, READ, BRANCH_STACK = 1 << 5, 1 << 10, 1 << 4, 1 << 11
HW_INDEX = 1 << 17


def attr_of(d):
    attr_size, = struct.unpack_from("<Q", d, 16)
    off, size = struct.unpack_from("<QQ", d, 24)
    if size != attr_size:
        sys.exit("stitch_check: one event expected")
    sample_type, = struct.unpack_from("<Q", d, off + 24)
    branch_type, = struct.unpack_from("<Q", d, off + 72)
    if sample_type & (RAW | READ) or not sample_type & BRANCH_STACK:
        sys.exit("stitch_check: a sample type this helper does not parse")
    return sample_type, branch_type


def records(d):
    off, size = struct.unpack_from("<QQ", d, 40)
    p = off
    while p < off + size:
        typ, misc, sz = struct.unpack_from("<IHH", d, p)
        yield p, typ, sz
        p += sz


def branch_at(d, p, sample_type, branch_type):
    """Offset of the sample at P's branch nr, and its ip and time."""
    q, ip, time = p + 8, None, 0
    for bit in FIXED:
        if sample_type & bit:
            if bit == 1:
                ip, = struct.unpack_from("<Q", d, q)
            if bit == 4:
                time, = struct.unpack_from("<Q", d, q)
            q += 8
    if sample_type & CALLCHAIN:
        nr, = struct.unpack_from("<Q", d, q)
        q += 8 + 8 * nr
    return q, ip, time


def empty(src, dst, every):
    d = open(src, "rb").read()
    st, bt = attr_of(d)
    off, size = struct.unpack_from("<QQ", d, 40)
    body, k = [], 0
    for p, typ, sz in records(d):
        r = bytearray(d[p:p + sz])
        if typ == SAMPLE:
            k += 1
            if k % every == 0:
                q, _, _ = branch_at(d, p, st, bt)
                q -= p
                nr, = struct.unpack_from("<Q", r, q)
                head = 16 if bt & HW_INDEX else 8
                r = r[:q] + struct.pack("<Q", 0) + r[q + 8:q + head] + r[q + head + 24 * nr:]
                struct.pack_into("<H", r, 6, len(r))
        body.append(bytes(r))
    body = b"".join(body)
    hdr = bytearray(d[:off])
    struct.pack_into("<Q", hdr, 48, len(body))
    tail = bytearray(d[off + size:])
    flags = int.from_bytes(d[72:104], "little")
    for i in range(bin(flags).count("1")):
        o, = struct.unpack_from("<Q", tail, 16 * i)
        struct.pack_into("<Q", tail, 16 * i, o + len(body) - size)
    open(dst, "wb").write(bytes(hdr) + body + bytes(tail))


def blocks(text):
    lines, i, out = text.split("\n"), 0, []
    while i < len(lines) - 1:
        if lines[i] != "":
            sys.exit(f"stitch_check: line {i + 1} is not a sample's start: {lines[i]!r}")
        i += 1
        frames = []
        while lines[i] != "":
            frames.append(lines[i])
            i += 1
        i += 1
        out.append(frames)
    return out


def compare(data, perf_out, mine_out):
    d = open(data, "rb").read()
    st, bt = attr_of(d)
    maps, samples = [], []
    for p, typ, sz in records(d):
        if typ == MMAP2:
            pid, = struct.unpack_from("<I", d, p + 8)
            start, length, pgoff = struct.unpack_from("<QQQ", d, p + 16)
            maps.append((pid, start, length, pgoff))
        elif typ == SAMPLE:
            q, ip, time = branch_at(d, p, st, bt)
            nr, = struct.unpack_from("<Q", d, q)
            pid, = struct.unpack_from("<I", d, p + 16)
            shown = ip
            for mpid, start, length, pgoff in reversed(maps):
                if mpid == pid and start <= ip < start + length:
                    shown = ip - start + pgoff
                    break
            samples.append((time, len(samples), nr, shown))
    samples.sort()
    theirs = blocks(open(perf_out).read())
    mine = blocks(open(mine_out).read())
    if not (len(theirs) == len(mine) == len(samples)):
        sys.exit(f"stitch_check: {len(samples)} samples, perf printed {len(theirs)} stacks, "
                 f"pmusim {len(mine)}")
    nr_empty = 0
    for k, (s, a, b) in enumerate(zip(samples, theirs, mine)):
        if s[2]:
            if a != b:
                sys.exit(f"stitch_check: sample {k}: perf {a[:4]}..., pmusim {b[:4]}...")
            continue
        nr_empty += 1
        if len(a) != 1 or len(b) != 1 or int(b[0].split()[0], 16) != s[3]:
            sys.exit(f"stitch_check: sample {k} (empty branch stack, ip {s[3]:x}): "
                     f"perf {a}, pmusim {b}")
    print(f"samples {len(samples)} empty {nr_empty}")


if sys.argv[1] == "empty":
    empty(sys.argv[2], sys.argv[3], int(sys.argv[4]))
else:
    compare(*sys.argv[2:5])
