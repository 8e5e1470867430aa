#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# extract.sh TARBALL DIR FILE...: put the FILEs (paths inside the kernel
# tree) that DIR lacks into DIR, from the Debian linux-source tarball whose
# members sit under DIR's basename. Only those members are extracted.
# Decompressing the tarball takes ~15 s of CPU, and every checkout (make ab
# and its test build throwaway copies) wants the same files: they are
# extracted once into a cache (PMUSIM_KSRC_CACHE, default
# ~/.cache/pmusim/ksrc, one directory per tarball date) and copied from
# there; without a writable cache, straight into DIR. Locks keep parallel
# builds from extracting at once.
set -e
tar=$1 dir=$2
shift 2
if [ ! -r "$tar" ]; then
	echo "ksrc: $tar: not installed (apt-get install linux-source-6.12, or KSRC=DIR)" >&2
	exit 1
fi
top=$(basename "$dir")
mkdir -p "$(dirname "$dir")"
exec 9>"$dir.lock"
flock 9

missing() { # ROOT FILE...: the members ROOT lacks, as tarball paths
	root=$1
	shift
	for f in "$@"; do
		[ -e "$root/$f" ] || printf ' %s/%s' "$top" "$f"
	done
}
untar() { # ROOT MEMBER...
	root=$1
	shift
	echo "  UNTAR   $(basename "$tar"):$*"
	tar -xJf "$tar" -C "$(dirname "$root")" "$@"
	# the tarball's dates are old: make the files newer than what was built before
	for m in "$@"; do touch "$(dirname "$root")/$m"; done
}

[ -z "$(missing "$dir" "$@")" ] && exit 0
cache=${PMUSIM_KSRC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pmusim/ksrc}/$(stat -c %Y "$tar")/$top
if mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ]; then
	exec 8>"$cache.lock"
	flock 8
	m=$(missing "$cache" "$@")
	# shellcheck disable=SC2086
	[ -z "$m" ] || untar "$cache" $m
	for f in "$@"; do
		if [ ! -e "$dir/$f" ]; then
			mkdir -p "$(dirname "$dir/$f")"
			cp "$cache/$f" "$dir/$f"
		fi
	done
else
	# shellcheck disable=SC2086
	untar "$dir" $(missing "$dir" "$@")
fi
