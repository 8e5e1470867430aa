#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/ksrc-tree-6.17.sh BASE FILES OUT: assemble the 6.17-rc3 tree the
# core unit is checked against (ksrc/README.md "A newer tree: 6.17-rc3"),
# with no network: a copy of the 6.12 tree BASE (Debian's
# linux-source-6.12) into OUT, with the newer files a developer has at hand
# in the directory FILES laid over it:
#   FILES/core.c             kernel/events/core.c (Kingxukai/linux 1c41bc0e)
#   FILES/ring_buffer.c      kernel/events/ring_buffer.c (9b44fff6)
#   FILES/callchain.c        kernel/events/callchain.c (9b44fff6)
#   FILES/perf_event.h       include/linux/perf_event.h (0291023e)
#   FILES/uapi_perf_event.h  include/uapi/linux/perf_event.h (0291023e)
# Each must have the sha256 listed below, as fetched. The fork's stray edits
# are undone here, not by hand: in the four 0291023e/9b44fff6 files every
# "the woke " is "the " again; in core.c remote_function() is mainline's
# again, taken from BASE's core.c (unchanged upstream since v4.6). The
# results must have the README's sha256, and OUT's Makefile says
# 6.17.0-rc3. kernel/events/internal.h, lbr.c, arch/x86/events/perf_event.h
# and tools/ stay BASE's. Exits 1 naming the first file that differs.
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 BASE FILES OUT" >&2; exit 2; }
base=$1 files=$2 out=$3

# name  sha256 as fetched  sha256 after the repair  path in the tree
list="core.c 41a779cd06b03828063ef7f7b561c3aa2a63a518cc9bae335b11232afd10e9fe f4c9905b23de9592fed8293383c14a4c27ea96181bf4e4a90369a59fcaa75aab kernel/events/core.c
ring_buffer.c 9e9c51f35de042cc2229c5a0de6b33c932c609fd94787ae8187a33dfd6ad43cd 8742727087ca6488e8361e3fad678e59154485c548089eed1a80c30ce42773ce kernel/events/ring_buffer.c
callchain.c 3bbcc05c7c9feb6b0635100ee036aec4beaea66821ecf127fbe21c04600a8a5c 1b8421edc958417bb7d05989ac072700b43dd3d041e90abbf850097620b31cba kernel/events/callchain.c
perf_event.h 4013a7af2db2c3ef00693541c3aeabb4afe35941752efe96cdab1c924f2f4b9d b983aa05fb3c2374696ba678de3cadb1840518f2e2bed2dfa6c1de9440c53da5 include/linux/perf_event.h
uapi_perf_event.h 79c4982eba738fec37211fe62094b5d6f01428ed8995a8be621ce922ff834811 dd153c00f0a0ff2189cac428fb4346a6b3a712bc8bcccdc650a61992ef20c103 include/uapi/linux/perf_event.h"

sha() { sha256sum "$1" | cut -d' ' -f1; }

[ -r "$base/kernel/events/core.c" ] || { echo "$0: $base: no kernel/events/core.c (not the 6.12 tree)" >&2; exit 1; }
[ ! -e "$out" ] || { echo "$0: $out exists; remove it first" >&2; exit 1; }
while read -r name raw _ _; do
	[ -r "$files/$name" ] || { echo "$0: $files/$name: missing" >&2; exit 1; }
	[ "$(sha "$files/$name")" = "$raw" ] ||
		{ echo "$0: $files/$name: sha256 $(sha "$files/$name"), not the fetched $raw" >&2; exit 1; }
done <<<"$list"

cp -a "$base" "$out"
while read -r name _ fixed path; do
	if [ "$name" = core.c ]; then
		# the fork's remote_function() never calls a CPU function (p NULL):
		# mainline's, from the base tree, up to the next comment block
		awk -v basefile="$base/kernel/events/core.c" '
			function block(   l, on) {
				while ((getline l < basefile) > 0) {
					if (l ~ /^static void remote_function\(/) on = 1
					else if (on && l ~ /^\/\*\*/) break
					if (on) print l
				}
			}
			/^static void remote_function\(/ { block(); skip = 1; next }
			skip && /^\/\*\*/ { skip = 0 }
			!skip' "$files/$name" >"$out/$path"
	else
		sed 's/the woke /the /g' "$files/$name" >"$out/$path"
	fi
	[ "$(sha "$out/$path")" = "$fixed" ] ||
		{ echo "$0: $out/$path: sha256 $(sha "$out/$path") after the repair, not $fixed" >&2; exit 1; }
done <<<"$list"
sed -i -e 's/^PATCHLEVEL = .*/PATCHLEVEL = 17/' -e 's/^SUBLEVEL = .*/SUBLEVEL = 0/' \
	-e 's/^EXTRAVERSION =.*/EXTRAVERSION = -rc3/' "$out/Makefile"
echo "$out: $("$(dirname "$0")/../ksrc/gen-header.sh" version "$out"), check it with: make ksrc-check KSRC=$out"
