#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim stitch on files pmusim record writes of real programs: a program
# built here with a shared library of its own (tests/cmd/stitch_progs/:
# a .symtab with a local function, an alias, a weak and a sizeless
# assembly function, calls through the PLT and into libc), and sort.
# Their frames are named from the ELF files the MMAP2 records point at,
# found as perf finds them, and the output is held against perf script
# -F ip,sym --stitch-lbr sample by sample (stitch_check.py): the same
# frames and names, and where a sample's branch stack is empty (some are
# emptied on purpose, and LBR call stacks that returns emptied occur
# naturally) one frame, the sample's own ip. A C++ program's names are
# demangled as Debian's perf demangles them (libiberty, no parameters).
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
progs=$PMUSIM_SRCTREE/tests/cmd/stitch_progs
check_py=$PMUSIM_SRCTREE/tests/cmd/stitch_check.py
export TMPDIR=$dir/tmp
mkdir "$TMPDIR"

if ! grep -qx CONFIG_LBR_STITCH=y "$PMUSIM_OBJTREE/.config"; then
	echo "1..0 # SKIP this build has no CONFIG_LBR_STITCH (no pmusim stitch)"
	exit 0
fi
# pmusim record runs Valgrind: as test_record.sh, in the check matrix's two extremes only
record_test_needs "${LABEL:-}" valgrind gcc g++ perf python3 sort
gcc -O1 -shared -fPIC -o "$dir/libstitch.so" "$progs/libstitch.c" &&
	gcc -O1 -o "$dir/prog" "$progs/main.c" -L"$dir" -lstitch -Wl,-rpath,"$dir" ||
	{ echo "Bail out! cannot build the test program"; exit 1; }

# record NAME ARGS...: NAME.data, LBR call stacks
record() {
	local name=$1
	shift
	"$PMUSIM" record -e cycles:u -c 10007 --call-graph lbr -o "$dir/$name.data" -- "$@" \
		>/dev/null 2>"$dir/$name.rec" ||
		{ echo "Bail out! pmusim record $*: $(tail -1 "$dir/$name.rec")"; exit 1; }
}

# against NAME: pmusim stitch and perf script on NAME.data, held together
against() {
	local name=$1
	perf script -i "$dir/$name.data" -F ip,sym --stitch-lbr >"$dir/$name.perf" 2>/dev/null
	"$PMUSIM" stitch "$dir/$name.data" >"$dir/$name.out" 2>"$dir/$name.err" &&
		[ ! -s "$dir/$name.err" ] &&
		python3 "$check_py" compare "$dir/$name.data" "$dir/$name.perf" "$dir/$name.out" \
			>"$dir/$name.check" 2>&1
}

record prog "$dir/prog" 400
check "the program: every stack as perf prints it, library frames named" \
	'against prog && grep -q "^samples [1-9]" "$dir/prog.check"'
[ -s "$dir/prog.check" ] && sed 's/^/# /' "$dir/prog.check"
check "its library's frames come from libstitch.so's .symtab (local, alias, weak, sizeless)" \
	'(for f in by_value stitch_leaf_alias stitch_f1 stitch_f40 stitch_top stitch_leaf@plt; do
		grep -q " $f\$" "$dir/prog.out" || { echo "# no $f"; exit 1; }; done)'
check "libc's frames are named (qsort's callees), not [unknown]" \
	'grep -q "qsort" "$dir/prog.out"'

# C++: an exception thrown down a recursion (libstdc++'s and libgcc's frames)
g++ -O1 -o "$dir/exc" "$PMUSIM_SRCTREE/tests/cmd/record_progs/exc.cc" ||
	{ echo "Bail out! cannot build the C++ program"; exit 1; }
record exc "$dir/exc"
check "a C++ program: every stack as perf prints it" \
	'against exc && grep -q "^samples [1-9]" "$dir/exc.check"'
check "its names demangled as perf's (thrower, after_catch: _Z7throweri, _Z11after_catchv), none mangled" \
	'grep -q " thrower$" "$dir/exc.out" && grep -q " after_catch$" "$dir/exc.out" && ! grep -q " _Z" "$dir/exc.out"'

python3 "$check_py" empty "$dir/prog.data" "$dir/empty.data" 10
check "samples with an empty branch stack print their ip, the others stay in step with perf" \
	'against empty && grep -q "empty [1-9][0-9]" "$dir/empty.check"'
[ -s "$dir/empty.check" ] && sed 's/^/# /' "$dir/empty.check"

seq 1 20000 | awk '{ print ($1 * 7919) % 20011 }' >"$dir/lines"
record sort sort "$dir/lines"
check "sort: every stack as perf prints it (ld.so and libc named where perf names them)" \
	'against sort && grep -q "^samples [1-9]" "$dir/sort.check"'
[ -s "$dir/sort.check" ] && sed 's/^/# /' "$dir/sort.check"
check "sort's ld.so frames are named" 'grep -q " _dl_start$" "$dir/sort.out"'
check "record left no stream directory behind" '[ -z "$(ls -A "$TMPDIR")" ]'
echo "1..$n"
