#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: `make ab` itself, once (tests/scripts/test_ab.sh builds two
# trees and runs ab three times, too long for every configuration of the
# matrix, where it skips itself). It runs in a copy of the tree without
# .git, as a release tarball is (make test runs it in the clone).
set -u
srctree=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -e "$srctree/.git" ] || ! command -v git >/dev/null; then
	exec bash "$srctree/tests/scripts/test_ab.sh" </dev/null
fi
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
git -C "$srctree" ls-files -z --cached --others --exclude-standard |
	(cd "$srctree" && tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$copy"
PMUSIM_SRCTREE=$copy bash "$copy/tests/scripts/test_ab.sh" </dev/null
