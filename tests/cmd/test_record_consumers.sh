#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Profile consumers no one here wrote read what pmusim record writes
# (#25 part 8), each from a guest (record_progs/fdo.c) recorded with its
# own recipe:
# - BOLT (Debian's bolt-16): `-e cycles:u -j any,u` of a program linked
#   with --emit-relocs; perf2bolt reads the LBR with 0 traces that
#   mismatch the disassembly, and the program llvm-bolt writes from that
#   profile prints what the original prints;
# - AutoFDO (Debian's autofdo 0.19): `-b` with a branch event;
#   create_gcov's profile holds the guest's hot function, gcc reads it
#   with no warning and its program prints the same; create_llvm_prof's
#   likewise with clang;
# - every LBR entry pmusim writes says mispredicted or predicted (AutoFDO
#   wants one of the two), on an LBR with LBR_INFO and on Arch LBR.
# A consumer whose package is missing is skipped, saying which.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
progs=$PMUSIM_SRCTREE/tests/cmd/record_progs
export TMPDIR=$dir/tmp
mkdir "$TMPDIR"

# Valgrind runs (~10 s in all): the check matrix runs this in its two extremes
record_test_needs "${LABEL:-}" valgrind gcc perf
llvm=/usr/lib/llvm-16/bin

# record NAME ARGS...: pmusim record into $dir/NAME.data; ok or not ok
record() {
	local name=$1
	shift
	if (cd "$dir" && "$PMUSIM" record -o "$dir/$name.data" "$@" >"$dir/$name.out" \
		2>"$dir/$name.err"); then
		ok "$name: recorded ($(sed -n 3p "$dir/$name.err" | sed 's/^ *//'))"
	else
		nok "$name: pmusim record failed: $(head -1 "$dir/$name.err")"
		return 1
	fi
}

# same_output WHAT ORIG NEW: both print the same for two inputs
same_output() {
	local arg a b fails=
	for arg in 20000 777; do
		a=$("$2" $arg 2>&1) b=$("$3" $arg 2>&1) || fails="$fails $arg"
		[ "$a" = "$b" ] && [ -n "$a" ] || fails="$fails $arg"
	done
	check "$1 prints what the original prints (N 20000, 777)" "[ -z '$fails' ]"
}

# quiet_compile WHAT COMMAND...: the compiler succeeds and says nothing
quiet_compile() {
	local what=$1 out
	shift
	if out=$("$@" 2>&1) && [ -z "$out" ]; then
		ok "$what"
	else
		nok "$what"
		sed 's/^/# /' <<<"$out" | head -10
	fi
}

# lbr_flags NAME: every branch entry of NAME.data is /M/ or /P/
lbr_flags() {
	local all bad
	read -r all bad < <(perf script -i "$dir/$1.data" -F brstack 2>/dev/null | tr ' \t' '\n\n' |
		awk -F/ 'NF >= 3 { all++; if ($3 != "M" && $3 != "P") bad++ }
			 END { print all + 0, bad + 0 }')
	check "$1: every LBR entry is mispredicted (M) or predicted (P) ($all entries, $bad neither)" \
		"[ '$all' -gt 0 ] && [ '$bad' = 0 ]"
}

# ---- BOLT ---------------------------------------------------------------------
if [ ! -x "$llvm/perf2bolt" ] || [ ! -x "$llvm/llvm-bolt" ]; then
	skip "BOLT: bolt-16 is not installed ($llvm/perf2bolt, llvm-bolt)"
else
	gcc -O2 -g -Wl,--emit-relocs -o "$dir/fdo" "$progs/fdo.c" ||
		{ echo "Bail out! cannot build the guest"; exit 1; }
	if record bolt -e cycles:u -j any,u -c 20011 -- "$dir/fdo"; then
		lbr_flags bolt
		# (perf2bolt is that program only by that name: not /usr/bin/perf2bolt-16)
		(cd "$dir" && "$llvm/perf2bolt" -p "$dir/bolt.data" -o "$dir/fdo.fdata" "$dir/fdo" \
			>"$dir/perf2bolt.out" 2>&1)
		rc=$?
		read -r samples entries < <(sed -n 's/^PERF2BOLT: read \([0-9]*\) samples and \([0-9]*\) LBR entries.*/\1 \2/p' \
			"$dir/perf2bolt.out")
		mismatch=$(sed -n 's/^PERF2BOLT: traces mismatching disassembled function contents: \([0-9]*\) .*/\1/p' \
			"$dir/perf2bolt.out")
		echo "# perf2bolt: ${samples:-?} samples, ${entries:-?} LBR entries, ${mismatch:-?} mismatching traces"
		check "perf2bolt read the file (exit 0, samples and LBR entries)" \
			"[ $rc = 0 ] && [ '${samples:-0}' -gt 0 ] && [ '${entries:-0}' -gt 0 ]"
		check "perf2bolt: 0 traces mismatching the disassembly" "[ '$mismatch' = 0 ]"
		check "perf2bolt matched the build-id" "grep -q 'matched build-id' '$dir/perf2bolt.out'"
		check "perf2bolt's profile has the hot function's branches" \
			"grep -q 'classify' '$dir/fdo.fdata'"
		(cd "$dir" && "$llvm/llvm-bolt" "$dir/fdo" -o "$dir/fdo.bolt" -data="$dir/fdo.fdata" \
			-reorder-blocks=ext-tsp -reorder-functions=hfsort -split-functions \
			>"$dir/llvm-bolt.out" 2>&1)
		rc=$?
		profiled=$(sed -n 's/^BOLT-INFO: \([0-9]*\) out of .* functions in the binary .* have non-empty execution profile/\1/p' \
			"$dir/llvm-bolt.out")
		check "llvm-bolt rewrote the program with the profile (exit 0, ${profiled:-0} functions profiled)" \
			"[ $rc = 0 ] && [ -x '$dir/fdo.bolt' ] && [ '${profiled:-0}' -gt 0 ]"
		grep -E 'ERROR|WARNING' "$dir/llvm-bolt.out" | sed 's/^/# /' | head -5
		same_output "llvm-bolt's program" "$dir/fdo" "$dir/fdo.bolt"
	fi
fi

# ---- AutoFDO: create_gcov and gcc ---------------------------------------------
# Debian's autofdo 0.19 writes GCC 11's AutoFDO format (version 1, string
# lengths in words); gcc 12 reads version 2 (lengths in bytes) and fails
# on it. And it reads DWARF 4, not gcc's default 5.
if ! command -v create_gcov >/dev/null 2>&1; then
	skip "AutoFDO: autofdo is not installed (create_gcov)"
elif ! command -v gcc-11 >/dev/null 2>&1; then
	skip "AutoFDO: gcc-11 is not installed (the gcc whose format autofdo 0.19 writes)"
else
	gcc-11 -O2 -g -gdwarf-4 -o "$dir/fdo_gcc" "$progs/fdo.c" ||
		{ echo "Bail out! cannot build the guest"; exit 1; }
	if record gcov -b -e branches:u -c 10007 -- "$dir/fdo_gcc"; then
		lbr_flags gcov
		(cd "$dir" && create_gcov --binary="$dir/fdo_gcc" --profile="$dir/gcov.data" \
			--gcov="$dir/fdo.afdo" -gcov_version=1 --logtostderr >"$dir/create_gcov.out" 2>&1)
		rc=$?
		check "create_gcov read the file (exit 0)" "[ $rc = 0 ] && [ -s '$dir/fdo.afdo' ]"
		grep -E '^[EF][0-9]' "$dir/create_gcov.out" | sed 's/^/# /' | head -5
		dump_gcov -gcov_version=1 "$dir/fdo.afdo" >"$dir/fdo.afdo.txt" 2>&1
		total=$(sed -n 's/^classify total:\([0-9]*\).*/\1/p' "$dir/fdo.afdo.txt")
		check "create_gcov's profile holds the hot function (classify total ${total:-none})" \
			"[ '${total:-0}' -gt 0 ]"
		quiet_compile "gcc-11 -fauto-profile reads create_gcov's profile with no warning" \
			gcc-11 -O2 -Wall -fauto-profile="$dir/fdo.afdo" -o "$dir/fdo_gcc.fdo" "$progs/fdo.c"
		same_output "gcc's AutoFDO program" "$dir/fdo_gcc" "$dir/fdo_gcc.fdo"
	fi
fi

# ---- AutoFDO: create_llvm_prof and clang --------------------------------------
# (its binary format is one LLVM 16 calls truncated: the text format, which
# both read)
if ! command -v create_llvm_prof >/dev/null 2>&1; then
	skip "AutoFDO for LLVM: autofdo is not installed (create_llvm_prof)"
elif ! command -v clang-16 >/dev/null 2>&1; then
	skip "AutoFDO for LLVM: clang-16 is not installed"
else
	clang-16 -O2 -g -gdwarf-4 -fdebug-info-for-profiling -o "$dir/fdo_clang" "$progs/fdo.c" ||
		{ echo "Bail out! cannot build the guest"; exit 1; }
	if record llvm -b -e branches:u -c 10007 -- "$dir/fdo_clang"; then
		(cd "$dir" && create_llvm_prof --binary="$dir/fdo_clang" --profile="$dir/llvm.data" \
			--out="$dir/fdo.prof" --format=text --logtostderr >"$dir/create_llvm_prof.out" 2>&1)
		rc=$?
		check "create_llvm_prof read the file (exit 0)" "[ $rc = 0 ] && [ -s '$dir/fdo.prof' ]"
		grep -E '^[EF][0-9]' "$dir/create_llvm_prof.out" | sed 's/^/# /' | head -5
		total=$(sed -n 's/^classify:\([0-9]*\):.*/\1/p' "$dir/fdo.prof")
		check "create_llvm_prof's profile holds the hot function (classify total ${total:-none})" \
			"[ '${total:-0}' -gt 0 ]"
		quiet_compile "clang-16 -fprofile-sample-use reads create_llvm_prof's profile with no warning" \
			clang-16 -O2 -Wall -fprofile-sample-use="$dir/fdo.prof" -o "$dir/fdo_clang.fdo" \
			"$progs/fdo.c"
		same_output "clang's AutoFDO program" "$dir/fdo_clang" "$dir/fdo_clang.fdo"
	fi
fi

# ---- the LBR's mispredicted and predicted flags on Arch LBR -------------------
gcc -O2 -o "$dir/fdo_arch" "$progs/fdo.c" || { echo "Bail out! cannot build the guest"; exit 1; }
if record arch --cpu sapphirerapids -b -e branches:u -c 10007 -- "$dir/fdo_arch" 777; then
	lbr_flags arch
fi
check "no stream directory left" "! ls -d '$TMPDIR'/pmusim-record.* >/dev/null 2>&1"
echo "1..$n"
