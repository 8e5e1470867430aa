#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: .clusterfuzzlite/ (project.yaml, Dockerfile, build.sh) and
# the PR workflow; .clusterfuzzlite/build.sh, which runs fuzz/build.sh,
# with OSS-Fuzz's variables for libFuzzer and ASan into a temporary $OUT
# (Docker itself is not here); every harness it makes must link the
# packages' libraries statically, come with its seed corpus zip and
# dictionary, and run 500 inputs from its corpus without a failure.
set -u
srctree=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-fuzz-out.XXXXXX")
trap 'rm -rf "$out"' EXIT
n=0
t() { # RESULT TEXT
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# ClusterFuzzLite's files: its build step is .clusterfuzzlite/build.sh, run
# from $SRC (the Dockerfile copies the tree to $SRC/pmusim)
for f in project.yaml Dockerfile build.sh; do
	[ -s "$srctree/.clusterfuzzlite/$f" ]; t $? ".clusterfuzzlite/$f is there"
done
grep -qx 'language: c' "$srctree/.clusterfuzzlite/project.yaml"; t $? "project.yaml says language: c"
grep -q '^FROM gcr.io/oss-fuzz-base/base-builder' "$srctree/.clusterfuzzlite/Dockerfile"
t $? "the Dockerfile starts from OSS-Fuzz's base-builder"
wf=$srctree/.github/workflows/cflite_pr.yml
grep -q 'clusterfuzzlite/actions/build_fuzzers' "$wf" && grep -q 'clusterfuzzlite/actions/run_fuzzers' "$wf" &&
	grep -q 'mode: code-change' "$wf" && grep -q 'fuzz-seconds: 600' "$wf" &&
	grep -q 'sanitizer: \[address, undefined\]' "$wf"
t $? "the PR workflow builds and runs the fuzzers, code-change mode, 600 s, address and undefined"
mkdir -p "$out/src"
ln -s "$srctree" "$out/src/pmusim"
cp "$srctree/.clusterfuzzlite/build.sh" "$out/src/"

# OSS-Fuzz's settings for libFuzzer with each sanitizer the workflow uses
# (base-builder's CFLAGS, less what only its newer clang knows)
common="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=fuzzer-no-link"
ubsan_checks=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unreachable,vla-bound
declare -A sanflags=(
	[address]="-fsanitize=address -fsanitize-address-use-after-scope"
	[undefined]="-fsanitize=$ubsan_checks -fno-sanitize-recover=$ubsan_checks"
)
for san in address undefined; do
	o=$out/$san
	mkdir -p "$o"
	(cd "$out/src/pmusim" && env -u CXX SRC="$out/src" CC=clang CFLAGS="$common ${sanflags[$san]}" \
		LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$o" "$out/src/build.sh") >"$o/build.log" 2>&1
	rc=$?
	[ "$rc" = 0 ] || tail -20 "$o/build.log"
	t "$rc" "[$san] .clusterfuzzlite/build.sh (fuzz/build.sh) builds with CC=clang and LIB_FUZZING_ENGINE=-fsanitize=fuzzer"
	for src in "$srctree"/fuzz/fuzz_*.c; do
		[ -e "$src" ] || continue
		name=$(basename "$src" .c)
		bin=$o/$name
		[ -x "$bin" ]; t $? "[$san] build.sh made \$OUT/$name"
		[ -x "$bin" ] || continue
		# the runner image has none of the build image's apt packages
		shared=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' |
			grep -vE '^(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+|ld-linux-x86-64)\.so' | xargs)
		[ -z "$shared" ]; t $? "[$san] $name needs no shared library of the build image's packages (${shared:-none})"
		unzip -tq "$o/${name}_seed_corpus.zip" >/dev/null 2>&1
		t $? "[$san] \$OUT/${name}_seed_corpus.zip is a valid zip"
		[ -s "$o/$name.dict" ]; t $? "[$san] \$OUT/$name.dict is there"
		corpus=$o/$name.corpus
		mkdir -p "$corpus" && unzip -q -o "$o/${name}_seed_corpus.zip" -d "$corpus" >/dev/null 2>&1
		(cd "$o" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 timeout 300 "$bin" \
			-runs=500 -seed=1 -dict="$o/$name.dict" "$corpus" >"$o/$name.log" 2>&1)
		rc=$?
		[ "$rc" = 0 ] || tail -20 "$o/$name.log"
		t "$rc" "[$san] $name runs 500 inputs from its corpus cleanly"
	done
done
