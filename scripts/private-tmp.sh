#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# unshare -m scripts/private-tmp.sh TREE CMD [ARG...]: run CMD with a
# /tmp of its own, a tmpfs in the new mount namespace, in which TREE is
# still there: a tree under /tmp is bound back onto its own path (from
# the working directory, which keeps the /tmp underneath; mount must not
# canonicalise "." into the path the tmpfs now covers).
tree=$(cd "$1" && pwd -P) || exit 1
shift
cd "$tree" || exit 1
mount -t tmpfs pmusim-check /tmp || exit 1
case $tree in
/tmp)
	echo "private-tmp.sh: the tree is /tmp itself" >&2
	exit 1
	;;
/tmp/*)
	mkdir -p "$tree" && mount --no-canonicalize --bind . "$tree" || exit 1
	cd "$tree" || exit 1
	;;
esac
exec "$@"
