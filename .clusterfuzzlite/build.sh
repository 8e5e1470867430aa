#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
#
# ClusterFuzzLite's build step: the project's own libFuzzer build
# (fuzz/build.sh), with the engine's $CC, $CFLAGS, $LIB_FUZZING_ENGINE and
# $OUT. scripts/check.d/fuzz-build-sh.sh runs this file in make check.
exec "$SRC/pmusim/fuzz/build.sh"
