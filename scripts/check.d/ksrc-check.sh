#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: make ksrc-check on the Debian tree (linux-source-6.12, which
# make check installs): the kernel's own ring_buffer.c against core/, one
# TAP line per check.
srctree=$(cd "$(dirname "$0")/../.." && pwd)
exec make -s --no-print-directory -C "$srctree" ksrc-check </dev/null
