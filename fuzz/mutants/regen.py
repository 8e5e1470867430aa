#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Regenerate fuzz/mutants/*.patch from the current core/ring_buffer.c
# (and core/internal.h, where the copy loop lives) and core/overflow.c:
# each mutant is a small textual edit; a mutant whose text is gone is
# reported and not written. Each patch names the unit tests and the fuzz
# harness that should catch it ("Tests:", "Fuzzer:" lines, read by
# scripts/mutants.sh). Run after those files change: fuzz/mutants/regen.py
import difflib
import os
import sys

srctree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RB = "core/ring_buffer.c"
OV = "core/overflow.c"
RB_TESTS = "tests/core/test_ring_buffer"
OV_TESTS = "tests/core/test_overflow tests/x86/test_pmi"

# name, file, what the mistake is, old text, new text
MUTANTS = [
    ("no-wmb", RB, "the barrier before publishing data_head removed (fuzz_ringbuf "
     "models a store buffer: a record must be fenced before data_head covers it)",
     "\tsmp_wmb(); /* B, pairs with C */\n", ""),
    ("no-head-recheck", RB, "put_handle does not re-check head after clearing nest",
     "\tif (unlikely(head != (unsigned long)local_read(&rb->head))) {\n"
     "\t\tWRITE_ONCE(rb->nest, 1);\n\t\tgoto again;\n\t}\n", ""),
    ("nest-before-publish", RB, "nest dropped before data_head is published",
     "\thead = local_read(&rb->head);\n",
     "\thead = local_read(&rb->head);\n\tWRITE_ONCE(rb->nest, 0);\n"),
    ("space-off-by-one", RB, "the space check forgets the byte kept free",
     "\t\treturn CIRC_SPACE(head, tail, data_size) >= size;\n",
     "\t\treturn CIRC_SPACE(head, tail, data_size) + 1 >= size;\n"),
    ("lost-reset-early", RB, "the lost count is taken (reset) when sampled, "
     "before the reservation can fail",
     "\thave_lost = local_read(&rb->lost);\n",
     "\thave_lost = local_xchg(&rb->lost, 0);\n"),
    ("wrap-second-half", "core/internal.h", "a copy split at a page end or the "
     "buffer's end writes its first bytes again in the second half",
     "\t\t\tbuf = (const char *)buf + size;\n", ""),
    ("have-lost-after-reserve", RB, "have_lost sampled after the reservation "
     "instead of before it",
     "\thave_lost = local_read(&rb->lost);\n", "\thave_lost = 0;\n"),
    ("lost-size-not-reserved", RB, "the LOST record's size is not added to the reservation",
     "\t\tsize += sizeof(lost_event);\n", ""),
    ("backward-head-not-negated", RB, "the backward head is not negated for the watermark",
     "\t\thead = -head;\n", ""),
    # the overflow path
    ("throttle-off-by-one", OV, "throttles one PMI late (> for >=)",
     "\tif (unlikely(throttle && hwc->interrupts >= (u64)READ_ONCE(max_samples_per_tick))) {\n",
     "\tif (unlikely(throttle && hwc->interrupts > (u64)READ_ONCE(max_samples_per_tick))) {\n"),
    ("throttle-count-from-zero", OV, "the first PMI of a tick is not counted",
     "\t\thwc->interrupts = 1;\n", "\t\thwc->interrupts = 0;\n"),
    ("alt-period-not-reprogrammed", OV, "the other period is set but the counter keeps "
     "running out the old one",
     "\tif (local64_read(&hwc->period_left) > 0) {\n\t\tevent->pmu->stop(event, PERF_EF_UPDATE);\n"
     "\t\tlocal64_set(&hwc->period_left, 0);\n\t\tevent->pmu->start(event, PERF_EF_RELOAD);\n\t}\n",
     ""),
    ("alt-period-swapped", OV, "the alternation picks the period it is leaving",
     "\thwc->sample_period = using_alt ? event->attr.sample_period\n"
     "\t\t\t\t       : event->attr.alternative_sample_period;\n",
     "\thwc->sample_period = using_alt ? event->attr.alternative_sample_period\n"
     "\t\t\t\t       : event->attr.sample_period;\n"),
    ("alt-period-skipped-when-throttled", OV, "a throttled overflow does not switch periods",
     "\tperf_event_alternate_period(event);\n",
     "\tif (!ret)\n\t\tperf_event_alternate_period(event);\n"),
    ("event-limit-off-by-one", OV, "the REFRESH budget's last overflow does not stop the event",
     "\tif (events && atomic_dec_and_test(&event->event_limit)) {\n",
     "\tif (events > 1 && atomic_dec_and_test(&event->event_limit)) {\n"),
    ("event-limit-no-disable", OV, "the REFRESH budget stops the counter but does not "
     "disable the event",
     "\t\tperf_event_disable_inatomic(event);\n", ""),
]
TESTS = {path: tests for path, tests in ((RB, RB_TESTS), ("core/internal.h", RB_TESTS), (OV, OV_TESTS))}
FUZZER = {RB: "ringbuf", "core/internal.h": "ringbuf", OV: "lbr"}
# have-lost-after-reserve also samples it after the cmpxchg loop:
EXTRA = {
    "no-head-recheck": ("again:\n", ""),
    "have-lost-after-reserve": ("\tperf_interleave(PI_OUTPUT_BEGIN_RESERVED, rb);\n",
                                "\thave_lost = local_read(&rb->lost);\n"
                                "\tperf_interleave(PI_OUTPUT_BEGIN_RESERVED, rb);\n"),
}

def main():
    bad = 0
    outdir = os.path.join(srctree, "fuzz/mutants")
    for name, path, why, old, new in MUTANTS:
        text = open(os.path.join(srctree, path)).read()
        edits = [(old, new)] + ([EXTRA[name]] if name in EXTRA else [])
        mutated = text
        for o, n in edits:
            if mutated.count(o) != 1:
                print("regen: %s: the text to change is not in %s exactly once" % (name, path),
                      file=sys.stderr)
                bad = 1
                break
            mutated = mutated.replace(o, n)
        else:
            diff = difflib.unified_diff(text.splitlines(True), mutated.splitlines(True),
                                        "a/" + path, "b/" + path, n=2)
            with open(os.path.join(outdir, name + ".patch"), "w") as f:
                f.write("Mutant %s: %s\nTests: %s\nFuzzer: %s\n\n" %
                        (name, why, TESTS[path], FUZZER[path]))
                f.writelines(diff)
    return bad

sys.exit(main())
