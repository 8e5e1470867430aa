#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# O= builds and the source tree's configuration, on a copy of the
# Makefile, Kconfig and headers (configuring only, nothing is compiled):
#   while the source tree holds a configuration (.config or
#   include/generated), an O= build refuses, in one line saying make
#   mrproper, and writes nothing; after make mrproper it configures
#   the compile line takes the object tree's generated headers first,
#   for the build and for the fuzz flavours
# (check.sh's scripts/check-build-config.sh then holds each built pmusim
# to its .config.)
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/lib/tap_lib.sh"
# run by make test: the outer make's command line (O=..., exported to
# us as well) must not reach ours: mrproper would clean that build
unset MAKEFLAGS MFLAGS MAKELEVEL O SANITIZE COVERAGE
# the project's own builds carry this mark (the Makefile exports it to its
# recipes, make test's among them); a user's make does not
unset PMUSIM_OWN_BUILD

tree=$dir/src
mkdir -p "$tree/include"
cp -r "$src/Makefile" "$src/Kconfig" "$src/kconfig" "$tree/"
# the fragments the Makefile includes (fuzz/Makefile.fuzz, ...)
for frag in "$src"/*/Makefile.*; do
	mkdir -p "$tree/$(basename "$(dirname "$frag")")"
	cp "$frag" "$tree/$(basename "$(dirname "$frag")")/"
done
cp -r "$src/include/pmusim" "$tree/include/"
mk() { out=$(make --no-print-directory -C "$tree" "$@" 2>&1); rc=$?; }
refused() { # WHAT: make failed with one line naming make mrproper, no obj/.config
	[ "$rc" != 0 ] && [ "$(wc -l <<<"$out")" = 1 ] && grep -q "run 'make mrproper'" <<<"$out" &&
		[ ! -e "$dir/obj/.config" ] && [ ! -e "$dir/obj/include" ]
}

mk defconfig >/dev/null
check "the copy configures in the tree (exit $rc)" '[ $rc = 0 ] && [ -f "$tree/.config" ]'
mk O="$dir/obj" v6.12_defconfig
check "a source tree with a .config: make O=DIR v6.12_defconfig refuses ($out)" refused
mk O="$dir/obj"
check "a source tree with a .config: make O=DIR refuses" refused
# the project's own O= builds (make test's, check, bench, fuzz, ...) take
# such a tree: each configures and builds from its own generated headers
PMUSIM_OWN_BUILD=1 mk O="$dir/obj" v6.12_defconfig
check "a source tree with a .config: the project's own make O=DIR v6.12_defconfig configures its own (exit $rc)" \
	'[ $rc = 0 ] && grep -qx "# CONFIG_PERF_TASK_CTX_DATA is not set" "$dir/obj/.config" &&
	 grep -qx "CONFIG_PERF_TASK_CTX_DATA=y" "$tree/.config"'
f=$(PMUSIM_OWN_BUILD=1 make --no-print-directory -C "$tree" O="$dir/obj" --eval "print-flags: ; @echo \$(PMUSIM_CFLAGS)" print-flags)
check "and its compile line takes the object tree's include/ first (${f%% -I$tree*})" \
	'[ "$(tr " " "\n" <<<"$f" | grep -m1 -E "^-I.*/include$")" = "-I$dir/obj/include" ]'
mk --eval 'show-mark: ; @echo "mark=$$PMUSIM_OWN_BUILD"' show-mark
check "the Makefile's recipes (and the scripts and makes they start) carry the mark ($out)" \
	'[ $rc = 0 ] && [ "$out" = mark=1 ]'
rm -rf "$dir/obj"
rm "$tree/.config"
mk O="$dir/obj" v6.12_defconfig
check "a source tree with only include/generated: make O=DIR v6.12_defconfig refuses" refused
mk O="$dir/obj" help
check "make O=DIR help still answers" '[ $rc = 0 ]'
mk mrproper
mk O="$dir/obj" v6.12_defconfig
check "after make mrproper: make O=DIR v6.12_defconfig configures (exit $rc)" \
	'[ $rc = 0 ] && grep -qx "# CONFIG_PERF_TASK_CTX_DATA is not set" "$dir/obj/.config"'

# the include path order, as make would hand it to the compiler
flags() { # WHAT
	make --no-print-directory -C "$tree" O="$dir/obj" --eval "print-flags: ; @echo \$($1)" print-flags
}
first_include() { # FLAGS: the first -I that names an include directory
	tr ' ' '\n' <<<"$1" | grep -m1 -E '^-I.*/include$'
}
f=$(flags PMUSIM_CFLAGS)
check "the object tree's include/ comes before the source tree's ($(first_include "$f"))" \
	'[ "$(first_include "$f")" = "-I$dir/obj/include" ]'
f=$(flags 'call fuzz_cflags,replay')
check "so does each fuzz flavour's ($(first_include "$f"))" \
	'[ "$(first_include "$f")" = "-I$tree/build/fuzz/obj-replay/include" ]'
# the kernel units' flags: a source tree's include/generated (an in-tree
# make run) must not stand in for the object tree's (check-v6.12 built the
# bridge with defconfig's attr, 144 bytes, against the test's 136)
obj_before_src() { # FLAGS: -I<obj>/include comes before -I<src>/include
	local i=0 o= s=
	for w in $1; do
		i=$((i + 1))
		[ "$w" = "-I$dir/obj/include" ] && [ -z "$o" ] && o=$i
		[ "$w" = "-I$tree/include" ] && [ -z "$s" ] && s=$i
	done
	[ -n "$o" ] && { [ -z "$s" ] || [ "$o" -lt "$s" ]; }
}
for v in KSRC_INCLUDES lbr_INCLUDES libperf_mmap_INCLUDES; do
	f=$(flags $v)
	check "$v takes the object tree's include/ before the source tree's" 'obj_before_src "$f"'
done
for s in fuzz/build.sh scripts/coverage.sh; do
	check "$s compiles with the object tree's include/ before the source tree's" \
		'grep -q -- "-I\"\$obj/include\" -I\"\$srctree\" -I\"\$srctree/include\"" "$src/$s"'
done
echo "1..$n"
