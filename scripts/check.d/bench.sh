#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: `make bench`'s programs and table, once
# (tests/scripts/test_bench.sh builds the bench tree, too long for every
# configuration of the matrix, where it skips itself). No time is
# asserted: bench/bench.h measures, make bench judges.
srctree=$(cd "$(dirname "$0")/../.." && pwd)
PMUSIM_SRCTREE=$srctree exec bash "$srctree/tests/scripts/test_bench.sh" </dev/null
