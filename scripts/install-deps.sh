#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages pmusim needs, saying what it installs, and
# doing nothing when they are all present. Called by `make check` and
# `make run`; PURPOSE (check, run, fuzz, coverage, bench, ab, ksrc) picks the set.
set -e
purpose=${1:-check}

# command-or-file:package
need="gcc:gcc make:make kconfig-conf:kconfig-frontends
/usr/include/cmocka.h:libcmocka-dev /usr/include/cyaml/cyaml.h:libcyaml-dev
/usr/include/yaml.h:libyaml-dev /usr/include/stdio.h:libc6-dev
/usr/include/gelf.h:libelf-dev /usr/include/nettle/sha1.h:nettle-dev
/usr/include/libiberty/demangle.h:libiberty-dev
/usr/include/zlib.h:zlib1g-dev objdump:binutils
perf:linux-perf valgrind:valgrind python3:python3 jq:jq"
case $purpose in
fuzz|check|bench) need="$need clang:clang afl-clang-fast:afl++ /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev" ;;
esac
case $purpose in
ab) need="$need clang:clang" ;;
esac
# make bench's BOLT figures (scripts/bench.d/bolt.py): bolt-16, and npm to
# fetch SQLite's amalgamation; the test of its workload builds it against
# the packaged SQLite
case $purpose in
bench) need="$need /usr/lib/llvm-16/bin/llvm-bolt:bolt-16 npm:npm" ;;
esac
case $purpose in
bench|check) need="$need /usr/include/sqlite3.h:libsqlite3-dev" ;;
esac
# the kernel tree whose own files make ksrc-check builds (ksrc/)
case $purpose in
ksrc|check) need="$need /usr/src/linux-source-6.12.tar.xz:linux-source-6.12" ;;
esac
case $purpose in
coverage|check) need="$need lcov:lcov man:man-db groff:groff-base" ;;
esac
# the profile consumers tests/cmd/test_record_consumers.sh feeds pmusim
# record's files: BOLT, AutoFDO, and the compilers that read AutoFDO's
# profiles (autofdo 0.19 writes gcc 11's format, not gcc 12's)
case $purpose in
check) need="$need /usr/lib/llvm-16/bin/perf2bolt:bolt-16 create_gcov:autofdo clang-16:clang-16 gcc-11:gcc-11" ;;
esac

missing=
for item in $need; do
	what=${item%%:*}
	pkg=${item#*:}
	case $what in
	/*) [ -e "$what" ] && continue ;;
	*) command -v "$what" >/dev/null 2>&1 && continue ;;
	esac
	case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing Debian packages:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: not root; install them with: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-deps: done"
