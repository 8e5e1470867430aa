#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Regenerate fuzz/mutants/*.patch from today's sources. Each mutant is a
# small textual edit of one file: the record path (core/ring_buffer.h,
# core/ring_buffer.c, the copy loop in core/internal.h), the overflow
# path (core/overflow.c), the ring-buffer readers (tools/lib/perf/
# mmap_read.[ch]), the LBR read and its TOS, and the per-task LBR save
# and restore (core/x86/lbr.c). Every text to change must occur exactly
# once in its file; a mutant whose text is gone is reported, not written,
# and the exit status is 1. Each patch names the unit tests and the fuzz
# harness that should catch it ("Tests:", "Fuzzer:" lines, read by
# scripts/mutants.sh).
#
#   fuzz/mutants/regen.py [NAME...]     (all mutants by default)
#
# Run it after one of those files changes; `make check` applies and builds
# every patch (scripts/check.d/mutants.sh), so a stale one is noticed.
import difflib
import os
import sys

srctree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RB_H = "core/ring_buffer.h"
RB_C = "core/ring_buffer.c"
INTERNAL = "core/internal.h"
OV = "core/overflow.c"
READ_H = "tools/lib/perf/mmap_read.h"
READ_C = "tools/lib/perf/mmap_read.c"
LBR = "core/x86/lbr.c"

RB_TESTS = "tests/core/test_ring_buffer tests/core/test_ring_buffer_edges"
OV_TESTS = "tests/core/test_overflow tests/x86/test_pmi"
READ_TESTS = "tests/tools/lib/perf/test_mmap_read"
LBR_READ_TESTS = "tests/x86/test_lbr tests/x86/test_lbr_formats tests/x86/test_pmi"
LBR_TASK_TESTS = "tests/x86/test_task_ctx tests/x86/test_lbr"

# name, file, what the mistake is, [(old text, new text), ...], tests, fuzzer
MUTANTS = [
    # the record path
    ("no-wmb", RB_H, "the barrier before publishing data_head removed (fuzz_ringbuf "
     "models a store buffer: a record must be fenced before data_head covers it)",
     [("\tsmp_wmb(); /* B, pairs with C */\n", "")], RB_TESTS, "ringbuf"),
    ("no-head-recheck", RB_H, "put_handle does not re-check head after clearing nest",
     [("\tif (unlikely(head != (unsigned long)local_read(&rb->head))) {\n"
       "\t\tWRITE_ONCE(rb->nest, 1);\n\t\tgoto again;\n\t}\n", ""),
      ("again:\n", "")], RB_TESTS, "ringbuf"),
    ("nest-before-publish", RB_H, "nest dropped before data_head is published",
     [("\tbarrier();\n\tWRITE_ONCE(rb->nest, 0);\n"
       "\tperf_interleave(PI_PUT_HANDLE_NEST_CLEARED, rb);\n", ""),
      ("\tsmp_wmb(); /* B, pairs with C */\n",
       "\tWRITE_ONCE(rb->nest, 0);\n\tperf_interleave(PI_PUT_HANDLE_NEST_CLEARED, rb);\n"
       "\tsmp_wmb(); /* B, pairs with C */\n")], RB_TESTS, "ringbuf"),
    ("space-off-by-one", RB_H, "the space check forgets the byte kept free",
     [("\t\treturn CIRC_SPACE(head, tail, data_size) >= size;\n",
       "\t\treturn CIRC_SPACE(head, tail, data_size) + 1 >= size;\n")], RB_TESTS, "ringbuf"),
    ("lost-reset-early", RB_H, "the lost count is taken (reset) when sampled, "
     "before the reservation can fail",
     [("\thave_lost = local_read(&rb->lost);\n", "\thave_lost = local_xchg(&rb->lost, 0);\n")],
     RB_TESTS, "ringbuf"),
    ("have-lost-after-reserve", RB_H, "have_lost sampled after the reservation "
     "instead of before it",
     [("\thave_lost = local_read(&rb->lost);\n", "\thave_lost = 0;\n"),
      ("\tperf_interleave(PI_OUTPUT_BEGIN_RESERVED, rb);\n",
       "\thave_lost = local_read(&rb->lost);\n\tperf_interleave(PI_OUTPUT_BEGIN_RESERVED, rb);\n")],
     RB_TESTS, "ringbuf"),
    ("lost-size-not-reserved", RB_H, "the LOST record's size is not added to the reservation",
     [("\t\tsize += PERF_OUTPUT_LOST_SIZE;\n", "")], RB_TESTS, "ringbuf"),
    ("backward-head-not-negated", RB_H, "the backward head is not negated for the watermark",
     [("\t\thead = -head;\n", "")], RB_TESTS, "ringbuf"),
    ("wrap-second-half", INTERNAL, "a copy split at a page end or the buffer's end writes "
     "its first bytes again in the second half",
     [("\t\t\tbuf = (const char *)buf + size;\n", "")], RB_TESTS, "ringbuf"),
    # the overflow path
    ("throttle-off-by-one", OV, "throttles one PMI late (> for >=)",
     [("\tif (unlikely(throttle && hwc->interrupts >= (u64)READ_ONCE(max_samples_per_tick))) {\n",
       "\tif (unlikely(throttle && hwc->interrupts > (u64)READ_ONCE(max_samples_per_tick))) {\n")],
     OV_TESTS, "lbr"),
    ("throttle-count-from-zero", OV, "the first PMI of a tick is not counted",
     [("\t\thwc->interrupts = 1;\n", "\t\thwc->interrupts = 0;\n")], OV_TESTS, "lbr"),
    ("alt-period-not-reprogrammed", OV, "the other period is set but the counter keeps "
     "running out the old one",
     [("\tif (local64_read(&hwc->period_left) > 0) {\n\t\tevent->pmu->stop(event, PERF_EF_UPDATE);\n"
       "\t\tlocal64_set(&hwc->period_left, 0);\n\t\tevent->pmu->start(event, PERF_EF_RELOAD);\n\t}\n",
       "")], OV_TESTS, "lbr"),
    ("alt-period-swapped", OV, "the alternation picks the period it is leaving",
     [("\thwc->sample_period = using_alt ? event->attr.sample_period\n"
       "\t\t\t\t       : event->attr.alternative_sample_period;\n",
       "\thwc->sample_period = using_alt ? event->attr.alternative_sample_period\n"
       "\t\t\t\t       : event->attr.sample_period;\n")], OV_TESTS, "lbr"),
    ("alt-period-skipped-when-throttled", OV, "a throttled overflow does not switch periods",
     [("\tperf_event_alternate_period(event);\n",
       "\tif (!ret)\n\t\tperf_event_alternate_period(event);\n")], OV_TESTS, "lbr"),
    ("event-limit-off-by-one", OV, "the REFRESH budget's last overflow does not stop the event",
     [("\tif (events && atomic_dec_and_test(&event->event_limit)) {\n",
       "\tif (events > 1 && atomic_dec_and_test(&event->event_limit)) {\n")], OV_TESTS, "lbr"),
    ("event-limit-no-disable", OV, "the REFRESH budget stops the counter but does not "
     "disable the event",
     [("\t\tperf_event_disable_inatomic(event);\n", "")], OV_TESTS, "lbr"),
    # the readers
    ("reader-overrun-off-by-one", READ_H, "the forward readers call a reader exactly one "
     "buffer behind lapped (>= for >): a full buffer of good records is given up",
     [("\tif (__builtin_expect(head - reader->prev > reader->size, 0)) {\n",
       "\tif (__builtin_expect(head - reader->prev >= reader->size, 0)) {\n")],
     READ_TESTS, "ringbuf"),
    ("reader-limit-ignores-wrap", READ_H, "the fast path's bound is the farther of data_head "
     "and the end of the data, not the nearer (> for <): a record of the last one's size "
     "that wraps is handed out in place, not reassembled",
     [("\tit->limit = it->pos + (to_wrap < to_end ? to_wrap : to_end);\n",
       "\tit->limit = it->pos + (to_wrap > to_end ? to_wrap : to_end);\n")],
     READ_TESTS, "ringbuf"),
    ("backward-drop-inverted", READ_H, "the backward reader's test for a record whose tail "
     "the writer overwrote is inverted: it drops before the first wrap, fails after it",
     [("\t\tif (!it->wrapped)\n\t\t\treturn perf_mmap_reader__bad_size(reader);\n",
       "\t\tif (it->wrapped)\n\t\t\treturn perf_mmap_reader__bad_size(reader);\n")],
     READ_TESTS, "ringbuf"),
    ("verify-ignores-guard", READ_C, "the verifying reader trusts the published data_head "
     "alone: bytes a writer has reserved but not published count as intact",
     [("\tuint64_t head, behind, room = reader->size - reader->guard;\n",
       "\tuint64_t head, behind, room = reader->size;\n")], READ_TESTS, "ringbuf"),
    # the LBR read and its TOS
    ("lbr-tos-off-by-one", LBR, "the 64-bit LBR read takes the TOS for the next free slot: "
     "it starts one entry below the newest",
     [("\t\tunsigned int idx = (tos - i) & mask;\n",
       "\t\tunsigned int idx = (tos - 1 - i) & mask;\n")], LBR_READ_TESTS, "lbr"),
    ("lbr-read-oldest-first", LBR, "the 32-bit LBR read walks up from the TOS: "
     "the newest entry first, then the oldest ones",
     [("\t\trdmsrl(x86_pmu.lbr_from + ((tos - i) & mask), lbr);\n",
       "\t\trdmsrl(x86_pmu.lbr_from + ((tos + i) & mask), lbr);\n")], LBR_READ_TESTS, "lbr"),
    ("lbr-hw-idx-not-set", LBR, "the 64-bit LBR read does not store the TOS in hw_idx "
     "(the sample reports a stale index; perf's stitching keys on it)",
     [("\tcpuc->lbr_stack.nr = br - cpuc->lbr_stack.entries;\n\tcpuc->lbr_stack.hw_idx = tos;\n",
       "\tcpuc->lbr_stack.nr = br - cpuc->lbr_stack.entries;\n")], LBR_READ_TESTS, "lbr"),
    # the per-task LBR save and restore
    ("lbr-restore-tos-not-written", LBR, "the legacy restore writes the saved entries "
     "around the saved TOS but leaves MSR_LBR_TOS where the other task left it",
     [("\twrmsrl(x86_pmu.lbr_tos, tos);\n", "")], LBR_TASK_TESTS, "lbr"),
    ("lbr-restore-reversed", LBR, "the legacy restore walks up from the TOS where the save "
     "walked down: the saved stack comes back in reverse",
     [("\t\twrlbr_all(&task_ctx->lbr[i], (tos - i) & mask, need_info);\n",
       "\t\twrlbr_all(&task_ctx->lbr[i], (tos + i) & mask, need_info);\n")],
     LBR_TASK_TESTS, "lbr"),
    ("arch-lbr-save-stale-tail", LBR, "the Arch LBR save does not end the saved list where "
     "the stack ends (v6.12's behaviour): a stack that shrank gets the previous save's "
     "entries back on restore",
     [("\t\tentries[i].from = 0;\n", "")], LBR_TASK_TESTS, "lbr"),
]


def mutate(name, path, edits):
    """The mutated text of @path, or None (reported) if an edit's text is not there once."""
    with open(os.path.join(srctree, path)) as f:
        text = f.read()
    mutated = text
    for old, new in edits:
        if mutated.count(old) != 1:
            print("regen: %s: the text to change is not in %s exactly once: %r" %
                  (name, path, old.strip().split("\n")[0]), file=sys.stderr)
            return text, None
        mutated = mutated.replace(old, new)
    return text, mutated


def main(names):
    bad = 0
    known = {m[0] for m in MUTANTS}
    for n in names:
        if n not in known:
            print("regen: no mutant %s" % n, file=sys.stderr)
            bad = 1
    outdir = os.path.join(srctree, "fuzz/mutants")
    for name, path, why, edits, tests, fuzzer in MUTANTS:
        if names and name not in names:
            continue
        text, mutated = mutate(name, path, edits)
        if mutated is None:
            bad = 1
            continue
        diff = difflib.unified_diff(text.splitlines(True), mutated.splitlines(True),
                                    "a/" + path, "b/" + path, n=3)
        with open(os.path.join(outdir, name + ".patch"), "w") as f:
            f.write("Mutant %s: %s\nTests: %s\nFuzzer: %s\n\n" % (name, why, tests, fuzzer))
            f.writelines(diff)
    return bad


sys.exit(main(sys.argv[1:]))
