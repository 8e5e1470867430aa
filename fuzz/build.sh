#!/bin/bash -eu
# SPDX-License-Identifier: GPL-2.0-only
#
# The ClusterFuzzLite / OSS-Fuzz build: every harness fuzz/fuzz_NAME.c to
# $OUT/fuzz_NAME, with its seed corpus $OUT/fuzz_NAME_seed_corpus.zip and
# dictionary $OUT/fuzz_NAME.dict. Takes the engine's settings from the
# environment: $CC, $CFLAGS, $LIB_FUZZING_ENGINE, $OUT (and $CXX, which
# links when set, as the engine library may be C++).
#
# libpmusim.a is built by the top Makefile into a temporary objtree with
# the defconfig (which has CONFIG_PERF_INTERLEAVE=y), so its source list,
# flags and generated autoconf.h are the project's own. The libraries from
# apt are linked statically. .clusterfuzzlite/build.sh runs this.
srctree=$(cd "$(dirname "$0")/.." && pwd)
: "${CC:?}" "${CFLAGS:=}" "${LIB_FUZZING_ENGINE:?}" "${OUT:?}"
link=${CXX:-$CC}
# one of the project's own O= builds, beside whatever the tree holds (Makefile)
export PMUSIM_OWN_BUILD=1
mkdir -p "$OUT"
obj=$(mktemp -d "${TMPDIR:-/tmp}/pmusim-fuzz-build.XXXXXX")
trap 'rm -rf "$obj"' EXIT

make -s --no-print-directory -C "$srctree" O="$obj" defconfig >/dev/null
grep -q '^CONFIG_PERF_INTERLEAVE=y' "$obj/.config" ||
	{ echo "fuzz/build.sh: the defconfig lacks CONFIG_PERF_INTERLEAVE=y" >&2; exit 1; }
make -s --no-print-directory -C "$srctree" O="$obj" CC="$CC" CFLAGS="$CFLAGS" SANITIZE= COVERAGE= lib >/dev/null

zip_dir() { # ZIP DIR: the files of DIR, flat
	rm -f "$1"
	if command -v zip >/dev/null 2>&1; then
		(cd "$2" && zip -q -j "$1" -- *)
	else
		python3 - "$1" "$2" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for n in sorted(os.listdir(sys.argv[2])):
        p = os.path.join(sys.argv[2], n)
        if os.path.isfile(p):
            z.write(p, n)
PY
	fi
}

# The libraries apt installed in the build image are not where the fuzzers
# run (ClusterFuzzLite's runner image): they are linked in from their .a
# files. libc, libm and libpthread, which every image has, stay shared.
static_libs="-lcyaml -lyaml -lelf -liberty -lnettle -lz"

# fuzz_lbr's ksrc oracle sees the MSR writes through the linker (ksrc/Makefile.ksrc)
ksrc_wrap() { # SHORT
	if [ "$1" = lbr ] && grep -q KSRC_UNIT_LBR "$obj/include/generated/ksrc.h" 2>/dev/null; then
		echo -Wl,--wrap=model_wrmsr
	fi
}

for src in "$srctree"/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	short=${name#fuzz_}
	# shellcheck disable=SC2086
	$CC $CFLAGS -std=gnu11 -I"$obj/include" -I"$srctree" -I"$srctree/include" -c -o "$obj/$name.o" "$src"
	# shellcheck disable=SC2086
	$link $CFLAGS -o "$OUT/$name" "$obj/$name.o" "$obj/libpmusim.a" $LIB_FUZZING_ENGINE $(ksrc_wrap "$short") \
		-Wl,-Bstatic $static_libs -Wl,-Bdynamic -lm -lpthread
	if [ -d "$srctree/fuzz/corpus/$short" ]; then
		zip_dir "$OUT/${name}_seed_corpus.zip" "$srctree/fuzz/corpus/$short"
	fi
	if [ -f "$srctree/fuzz/dict/$short.dict" ]; then
		cp "$srctree/fuzz/dict/$short.dict" "$OUT/$name.dict"
	fi
	echo "fuzz/build.sh: $OUT/$name"
done
