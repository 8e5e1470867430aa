#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/fuzz-run.sh (make fuzz) on a fake tree whose one harness aborts
# on any input that starts with 'X', so that every engine finds a crash
# in a second or two:
#   a campaign that found crashes exits non-zero, prints its crash count
#     on the summary line and says where the inputs are (AFL++, libFuzzer)
#   a campaign on a harness that never crashes exits 0 with 0 crashes
# config-independent: fuzz-run.sh reads no configuration; its harnesses here are the test's own
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/lib/tap_lib.sh"

tree=$dir/tree
mkdir -p "$tree/scripts" "$tree/fuzz/corpus/crashy" "$tree/fuzz/corpus/calm" \
	"$tree/build/fuzz/afl" "$tree/build/fuzz/libfuzzer"
cp "$src/scripts/fuzz-run.sh" "$tree/scripts/"
printf 'A' >"$tree/fuzz/corpus/crashy/seed"
printf 'A' >"$tree/fuzz/corpus/calm/seed"

# the harnesses: standalone for AFL++ (stdin), LLVMFuzzerTestOneInput for libFuzzer
cat >"$dir/crashy_afl.c" <<'C'
#include <stdlib.h>
#include <unistd.h>
int main(void)
{
	char c = 0;
	if (read(0, &c, 1) == 1 && c == 'X')
		abort();
	return 0;
}
C
cat >"$dir/crashy_lf.c" <<'C'
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size && data[0] == 'X')
		abort();
	return 0;
}
C
sed 's/abort();/return 0;/' "$dir/crashy_lf.c" >"$dir/calm_lf.c"

runs() { # ENGINE NAME: sets out, rc
	out=$(cd "$tree" && ENGINE=$1 CMPLOG=0 bash scripts/fuzz-run.sh "$2" 4 1 2>&1); rc=$?
}

if command -v afl-fuzz >/dev/null && command -v afl-clang-fast >/dev/null &&
	AFL_QUIET=1 afl-clang-fast -O1 -o "$tree/build/fuzz/afl/fuzz_crashy" "$dir/crashy_afl.c" >"$dir/afl-cc.log" 2>&1; then
	runs afl crashy
	check "AFL++: a campaign that found crashes exits non-zero (exit $rc)" '[ $rc != 0 ]'
	check "AFL++: its summary counts the crashes and it says where they are ($(grep -m1 '^fuzz crashy' <<<"$out"))" \
		'grep -qE "^fuzz crashy \(afl\): .*, [1-9][0-9]* crashes " <<<"$out" &&
		 grep -qE "found [1-9][0-9]* crashes; the inputs are in build/fuzz/crashy/" <<<"$out" &&
		 grep -q "^  crash: .*/build/fuzz/crashy/main/crashes/id:" <<<"$out"'
else
	echo "# skipped: AFL++ (afl-fuzz, afl-clang-fast) is not installed (scripts/install-deps.sh fuzz)"
	skip "AFL++: a campaign that found crashes exits non-zero: no AFL++"
	skip "AFL++: its summary counts the crashes: no AFL++"
fi

if command -v clang >/dev/null &&
	clang -fsanitize=fuzzer -o "$tree/build/fuzz/libfuzzer/fuzz_crashy" "$dir/crashy_lf.c" >"$dir/lf-cc.log" 2>&1 &&
	clang -fsanitize=fuzzer -o "$tree/build/fuzz/libfuzzer/fuzz_calm" "$dir/calm_lf.c" >>"$dir/lf-cc.log" 2>&1; then
	runs libfuzzer crashy
	check "libFuzzer: a campaign that found crashes exits non-zero (exit $rc)" '[ $rc != 0 ]'
	check "libFuzzer: its summary counts the crashes and it says where they are ($(grep -m1 '^fuzz crashy' <<<"$out"))" \
		'grep -qE "^fuzz crashy \(libfuzzer\): .*, [1-9][0-9]* crashes " <<<"$out" &&
		 grep -qE "found [1-9][0-9]* crashes; the inputs are in build/fuzz/crashy/crashes/" <<<"$out"'
	runs libfuzzer calm
	check "libFuzzer: a campaign that found nothing exits 0 with 0 crashes (exit $rc)" \
		'[ $rc = 0 ] && grep -qE "^fuzz calm \(libfuzzer\): .*, 0 crashes " <<<"$out"'
else
	echo "# skipped: clang's libFuzzer is not installed (scripts/install-deps.sh fuzz: clang, libclang-rt-14-dev)"
	skip "libFuzzer: a campaign that found crashes exits non-zero: no libFuzzer"
	skip "libFuzzer: its summary counts the crashes: no libFuzzer"
	skip "libFuzzer: a campaign that found nothing exits 0: no libFuzzer"
fi
echo "1..$n"
