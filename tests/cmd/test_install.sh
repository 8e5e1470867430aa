#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make install PREFIX=DIR: the installed pmusim finds its installed
# Valgrind tool (DIR/libexec/pmusim), not the build tree's, and records a
# program that perf then reads; installed elsewhere by DESTDIR, the same.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
export TMPDIR=$dir/tmp
mkdir "$TMPDIR"
unset PMUSIM_VGTOOL_LIB

if [ ! -e /usr/lib/x86_64-linux-gnu/valgrind/libcoregrind-amd64-linux.a ] || ! command -v valgrind >/dev/null; then
	echo "# skipped: no valgrind (Debian's valgrind on x86-64) to build and run pmusim's Valgrind tool"
	echo "1..0 # SKIP no valgrind"
	exit 0
fi
inst() { # PREFIX [DESTDIR]
	make -s --no-print-directory -C "$PMUSIM_SRCTREE" O="$PMUSIM_OBJTREE" install PREFIX="$1" \
		${2:+DESTDIR="$2"} >"$dir/install.log" 2>&1
}
check "make install PREFIX=DIR installs the command and the Valgrind tool ($(tail -1 "$dir/install.log" 2>/dev/null))" \
	'inst "$dir/p" && [ -x "$dir/p/bin/pmusim" ] && [ -x "$dir/p/libexec/pmusim/pmusim-amd64-linux" ]'
check "the tool's directory holds the valgrind package's files it loads beside it" \
	'ls "$dir/p/libexec/pmusim" | grep -q "^vgpreload_core-amd64-linux.so$"'

printf 'int main(void) { volatile int s = 0; for (int i = 0; i < 20000; i++) s += i; return 0; }\n' >"$dir/prog.c"
gcc -O1 -o "$dir/prog" "$dir/prog.c" || { echo "Bail out! cannot build the program"; exit 1; }
(cd "$dir" && "$dir/p/bin/pmusim" record -o "$dir/installed.data" -- "$dir/prog" >"$dir/rec.out" 2>"$dir/rec.err")
rc=$?
check "the installed pmusim records a program with the installed tool (exit $rc: $(head -1 "$dir/rec.err" | cut -c1-160))" \
	'[ $rc = 0 ] && [ -s "$dir/installed.data" ]'
if command -v perf >/dev/null; then
	check "perf reads what it wrote" \
		'perf report -i "$dir/installed.data" --stdio 2>"$dir/report.err" | grep -q "prog"'
else
	skip "perf reads what it wrote: perf is not installed"
fi

# DESTDIR stages the tree: the staged pmusim, moved to PREFIX, finds its tool
check "make install DESTDIR=D PREFIX=/opt/pm stages bin and libexec under D/opt/pm" \
	'inst /opt/pm "$dir/stage" && [ -x "$dir/stage/opt/pm/bin/pmusim" ] &&
	 [ -x "$dir/stage/opt/pm/libexec/pmusim/pmusim-amd64-linux" ]'
mv "$dir/stage/opt/pm" "$dir/moved"
(cd "$dir" && "$dir/moved/bin/pmusim" record -o "$dir/moved.data" -- "$dir/prog" >/dev/null 2>"$dir/moved.err")
rc=$?
check "that tree, moved anywhere, still records (exit $rc)" '[ $rc = 0 ] && [ -s "$dir/moved.data" ]'
check "record leaves no stream directory behind" '[ -z "$(ls -A "$TMPDIR")" ]'
echo "1..$n"
