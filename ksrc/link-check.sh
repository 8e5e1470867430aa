#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# link-check.sh UNIT.o IMPORTS OBJ=NAME...
#
# A unit (ksrc/Makefile.ksrc) is linked into libpmusim.a beside core/,
# whose functions bear the kernel's names. A name the unit's partial link
# (UNIT.o, ld -r of the OBJs) leaves undefined is resolved by the final
# link, against whatever defines it: a kernel function the shim does not
# supply would bind to core/'s function of that name, which takes core/'s
# struct perf_event, not the shim's. So every undefined name must be
#   - one of IMPORTS (ksrc/NAME.imports: the names the unit takes from
#     pmusim on purpose, one a line, # comments),
#   - defined by the C library the compiler links (libc.so.6), or
#   - a compiler runtime's (sanitizers, coverage, fuzzer instrumentation,
#     libgcc's __builtin_popcount without -mpopcnt).
# Otherwise it prints, for each such name and each OBJ that calls it,
#   UNIT.o: error: NAME calls SYMBOL, which the unit does not define ...
# and exits 1. CC names the compiler (default cc).
set -u
unit=$1 imports=$2
shift 2
cc=${CC:-cc}

undefined=$(nm -u "$unit" | awk '{ print $NF }' | sort -u)
[ -n "$undefined" ] || exit 0

libc=$($cc -print-file-name=libc.so.6 2>/dev/null)
if [ ! -r "$libc" ]; then
	echo "$unit: error: no libc.so.6 found by '$cc -print-file-name=libc.so.6' to check the unit's undefined names against" >&2
	exit 1
fi
allowed=$(mktemp)
trap 'rm -f "$allowed"' EXIT
{
	nm -D --defined-only "$libc" | awk '{ sub(/@.*/, "", $NF); print $NF }'
	sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$imports"
} | sort -u >"$allowed"

bad=0
for sym in $undefined; do
	case $sym in
	__asan_*|__ubsan_*|__tsan_*|__msan_*|__sanitizer_*|__sancov_*|__gcov_*|__llvm_*|__afl_*|__cmplog_*|\
	__start___sancov_*|__stop___sancov_*|_GLOBAL_OFFSET_TABLE_|__dso_handle|\
	__popcount[sdt]i2)
		continue ;;
	esac
	grep -qx -- "$sym" "$allowed" && continue
	bad=1
	for pair in "$@"; do
		obj=${pair%%=*} name=${pair#*=}
		if nm -u "$obj" | awk '{ print $NF }' | grep -qx -- "$sym"; then
			echo "ksrc/$(basename "${unit%.tmp}"): error: $name calls $sym, which the unit does not define and $(basename "$imports") does not allow from pmusim: the shim must supply it (the final link would bind it to core/'s $sym, if core/ has one)" >&2
		fi
	done
done
exit $bad
