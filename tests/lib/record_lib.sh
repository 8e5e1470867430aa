# SPDX-License-Identifier: GPL-2.0-only
#
# What the tests that run pmusim record need before their first run,
# sourced after tap_lib.sh:
#   record_test_needs "${LABEL:-}" TOOL...
# and their helpers: record_tmpdir, tmp_empty, record_guest NAME,
# perf_reads FILE, key FILE NAME (below).
# Each record is a Valgrind run, so make check's matrix runs these tests in
# its two extremes only, defconfig and allnoconfig (make test runs them in
# any build). A TOOL the host lacks, or Valgrind's archives to build the
# tool from, is a skip with one line; the tool itself missing where the
# host could build it is a failure: make builds it.

record_test_needs() { # LABEL TOOL...
	local label=$1 need
	shift
	case "${TALLY:+matrix}:$label" in
	matrix:defconfig|matrix:allnoconfig|:*) ;;
	*)	echo "# skipped: pmusim record runs Valgrind; make check runs it in defconfig and allnoconfig only"
		echo "1..0 # SKIP the check matrix runs it in defconfig and allnoconfig"
		exit 0 ;;
	esac
	for need in "$@"; do
		if ! command -v "$need" >/dev/null 2>&1; then
			echo "1..0 # skipped: $need is not installed"
			exit 0
		fi
	done
	if [ ! -e /usr/lib/x86_64-linux-gnu/valgrind/libcoregrind-amd64-linux.a ]; then
		echo "1..0 # skipped: no valgrind archives to build pmusim's Valgrind tool (Debian's valgrind on x86-64)"
		exit 0
	fi
	if [ ! -x "$PMUSIM_OBJTREE/vgtool/lib/pmusim-amd64-linux" ]; then
		echo "not ok 1 - pmusim's Valgrind tool was built ($PMUSIM_OBJTREE/vgtool/lib/pmusim-amd64-linux)"
		echo "1..1"
		exit 1
	fi
}

# A TMPDIR of the test's own, which record must leave empty (tmp_empty).
record_tmpdir() {
	export TMPDIR=$dir/tmp
	mkdir "$TMPDIR"
}
tmp_empty() { [ -z "$(ls -A "$TMPDIR")" ]; }

# record_guest NAME: tests/cmd/record_progs/NAME.c built -O1 into $dir/NAME, or bail out.
record_guest() {
	gcc -O1 -o "$dir/$1" "$PMUSIM_SRCTREE/tests/cmd/record_progs/$1.c" ||
		{ echo "Bail out! cannot build the guest $1"; exit 1; }
}

# perf_samples FIELDS DATA: what perf script reads of every sample of
# the perf.data DATA (- for a pipe-mode stream on stdin): FIELDS, and the LBR entries
# with their symbols (brstacksym), with no call chains (-G). perf 6.1 makes
# an LBR call chain from entries[0] even when the stack is empty (nr = 0,
# as at the program's _start, which ld.so jumps to: the call stack is
# then empty on real hardware too), reading past the sample: it prints
# what follows the record in memory, the next record's bytes in a file,
# anything in pipe mode.
perf_samples() { perf script -G -F "$1,brstacksym" -i "$2" 2>/dev/null; }

# perf_reads FILE: perf reads FILE whole and finds samples in it.
perf_reads() { perf report -i "$1" --stdio 2>/dev/null | grep -q '^# Samples: [1-9]'; }

# key FILE NAME: a top-level number or string of record's JSON summary FILE.
key() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
