#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: every mutant in fuzz/mutants/ still applies exactly and
# builds (scripts/mutants.sh --build-only: nothing run, a few minutes of
# CPU), so that a change to the code a mutant mutates cannot leave it
# stale unnoticed; then tests/scripts/test_mutants.sh, which shows that a
# stale or broken patch fails this check (too long for every configuration
# of the matrix, where it skips itself). `make mutants` runs the mutants.
srctree=$(cd "$(dirname "$0")/../.." && pwd)
bash "$srctree/scripts/mutants.sh" --build-only </dev/null
rc=$?
PMUSIM_SRCTREE=$srctree bash "$srctree/tests/scripts/test_mutants.sh" </dev/null || rc=1
exit $rc
