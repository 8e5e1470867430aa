#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
#
# Regenerate fuzz/mutants/*.patch from the current core/ring_buffer.c
# (and core/internal.h, where the copy loop lives): each mutant is a
# small textual edit; a mutant whose text is gone is reported and not
# written. Run after ring_buffer.c changes: fuzz/mutants/regen.py
import difflib
import os
import sys

srctree = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RB = "core/ring_buffer.c"

# name, file, what the mistake is, old text, new text
MUTANTS = [
    ("no-wmb", RB, "the barrier before publishing data_head removed "
     "(Expect: stress-only, a single-threaded schedule cannot see a missing fence)",
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
]
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
                f.write("Mutant %s: %s\n\n" % (name, why))
                f.writelines(diff)
    return bad

sys.exit(main())
