#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: fuzz/build.sh, the ClusterFuzzLite/OSS-Fuzz build, run with
# libFuzzer's settings into a temporary $OUT; every harness it makes must
# come with its seed corpus zip and dictionary, and must run 500 inputs
# from its corpus without a failure.
set -u
srctree=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-fuzz-out.XXXXXX")
trap 'rm -rf "$out"' EXIT
n=0
t() { # RESULT TEXT
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

env -u CXX CC=clang CFLAGS="-O1 -g -fsanitize=address,fuzzer-no-link" \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$out" \
	"$srctree/fuzz/build.sh" >"$out/build.log" 2>&1
rc=$?
[ "$rc" = 0 ] || tail -20 "$out/build.log"
t "$rc" "fuzz/build.sh builds with CC=clang and LIB_FUZZING_ENGINE=-fsanitize=fuzzer"
for src in "$srctree"/fuzz/fuzz_*.c; do
	[ -e "$src" ] || continue
	name=$(basename "$src" .c)
	bin=$out/$name
	[ -x "$bin" ]; t $? "build.sh made \$OUT/$name"
	[ -x "$bin" ] || continue
	unzip -tq "$out/${name}_seed_corpus.zip" >/dev/null 2>&1
	t $? "\$OUT/${name}_seed_corpus.zip is a valid zip"
	[ -s "$out/$name.dict" ]; t $? "\$OUT/$name.dict is there"
	corpus=$out/$name.corpus
	mkdir -p "$corpus" && unzip -q -o "$out/${name}_seed_corpus.zip" -d "$corpus" >/dev/null 2>&1
	(cd "$out" && ASAN_OPTIONS=detect_leaks=1 timeout 300 "$bin" -runs=500 -seed=1 \
		-dict="$out/$name.dict" "$corpus" >"$out/$name.log" 2>&1)
	rc=$?
	[ "$rc" = 0 ] || tail -20 "$out/$name.log"
	t "$rc" "$name runs 500 inputs from its corpus cleanly"
done
