#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# extract.sh TARBALL DIR FILE...: extract the FILEs (paths inside the
# kernel tree) that DIR lacks from the Debian linux-source tarball, whose
# members sit under DIR's basename. Only those members are written; a lock
# keeps parallel builds from extracting at once.
set -e
tar=$1 dir=$2
shift 2
if [ ! -r "$tar" ]; then
	echo "ksrc: $tar: not installed (apt-get install linux-source-6.12, or KSRC=DIR)" >&2
	exit 1
fi
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9
top=$(basename "$dir")
missing=
for f in "$@"; do
	[ -e "$dir/$f" ] || missing="$missing $top/$f"
done
[ -z "$missing" ] && exit 0
echo "  UNTAR   $(basename "$tar"):$missing"
# shellcheck disable=SC2086
tar -xJf "$tar" -C "$(dirname "$dir")" $missing
# Extracted files keep the tarball's dates: make them newer than the rule's inputs.
for f in $missing; do touch "$(dirname "$dir")/$f"; done
