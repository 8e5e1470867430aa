#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: `make ab` itself, once (tests/scripts/test_ab.sh builds two
# trees and runs ab three times, too long for every configuration of the
# matrix, where it skips itself).
srctree=$(cd "$(dirname "$0")/../.." && pwd)
exec bash "$srctree/tests/scripts/test_ab.sh" </dev/null
