#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What BOLT's recipe for pmusim record (`-e branches:u -c N -j any,u`,
# README) rests on: the model's branches event counts the taken branches
# that the LBR records, so sampling every 32nd (the LBR's depth) puts each
# taken branch of the program in exactly one sample's branch stack. The
# guest (tests/cmd/record_progs/fdo.c, a hash, libc's qsort with a
# callback, a chain of branches) is recorded with -c 32, on an LBR with
# LBR_INFO (skylake) and on Arch LBR (sapphirerapids):
#   - as many samples as whole 32s in the summary's taken branches, none
#     throttled or lost, each with 32 entries;
#   - the entries of all samples, oldest first, make one unbroken trace:
#     each branch's source lies in the straight code that starts at the
#     target of the one before, across samples too (a branch dropped or
#     recorded twice breaks it);
#   - each sample's ip lies in the straight code after its newest entry's
#     target;
# and the same trace check finds the breaks of `-j any_call,u`, which
# records calls only: the check can fail.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
record_tmpdir

# Valgrind runs (~1 s each), as test_record.sh's: the check matrix runs it in its two extremes
record_test_needs "${LABEL:-}" valgrind gcc perf python3
record_guest fdo
N=2000	# numbers the guest sorts: some 230k taken branches, 7k samples

# record NAME CPU FILTER: -e branches:u -c 32 into $dir/NAME.data, its
# summary in NAME.json, and what perf script reads of it in NAME.txt
record() {
	(cd "$dir" && "$PMUSIM" record -q -o "$dir/$1.data" --json="$dir/$1.json" --cpu "$2" \
		-e branches:u -c 32 -j "$3" -m 256 --max-sample-rate 100000000 -- "$dir/fdo" $N \
		>"$dir/$1.out" 2>"$dir/$1.err") &&
		perf script -i "$dir/$1.data" -F ip,brstack >"$dir/$1.txt" 2>"$dir/$1.perf.err"
}

# trace NAME: "samples entries short breaks ipbad" of NAME.txt (short:
# samples with fewer than 32 entries; a break: a source outside the 4 KiB
# of straight code after the previous target; ipbad likewise for the ip)
trace() {
	python3 - "$dir/$1.txt" <<'EOF'
import sys
samples = entries = short = breaks = ipbad = 0
prev = None
for line in open(sys.argv[1]):
    f = line.split()
    ip = int(f[0], 16)
    stack = [tuple(int(x, 16) for x in e.split("/")[:2]) for e in f[1:]]
    samples += 1
    entries += len(stack)
    short += len(stack) < 32
    if not stack or not 0 <= ip - stack[0][1] < 4096:
        ipbad += 1
    for src, dst in reversed(stack):
        if prev is not None and not 0 <= src - prev < 4096:
            breaks += 1
        prev = dst
print(samples, entries, short, breaks, ipbad)
EOF
}

for cpu in skylake sapphirerapids; do
	if ! record "$cpu" "$cpu" any,u; then
		nok "$cpu: record and perf script: $(head -1 "$dir/$cpu.err" "$dir/$cpu.perf.err" 2>/dev/null | tr '\n' ' ')"
		continue
	fi
	branches=$(key "$dir/$cpu.json" branches)
	got=$(key "$dir/$cpu.json" samples)
	throttles=$(key "$dir/$cpu.json" throttles)
	lost=$(key "$dir/$cpu.json" lost)
	read -r samples entries short breaks ipbad < <(trace "$cpu")
	echo "# $cpu: $branches taken branches, $samples samples, $entries entries, $breaks breaks"
	check "$cpu: one sample per 32 taken branches ($samples, $got in the summary, of $branches), none throttled ($throttles) or lost ($lost)" \
		"[ '$branches' -gt 100000 ] && [ '$samples' = '$((branches / 32))' ] && [ '$got' = '$samples' ] &&
		 [ '$throttles' = 0 ] && [ '$lost' = 0 ]"
	check "$cpu: every sample has 32 entries ($entries in all, $short short)" \
		"[ '$short' = 0 ] && [ '$entries' = '$((samples * 32))' ]"
	check "$cpu: the samples' entries are one unbroken trace of the taken branches ($breaks breaks)" \
		"[ '$breaks' = 0 ]"
	check "$cpu: each sample's ip follows its newest entry's target ($ipbad not)" "[ '$ipbad' = 0 ]"
done

# the control: calls alone leave the returns and jumps out of the trace
if record calls skylake any_call,u; then
	read -r samples entries short breaks ipbad < <(trace calls)
	check "-j any_call,u: the trace check finds the branches it leaves out ($breaks breaks in $entries entries)" \
		"[ '$entries' -gt 1000 ] && [ '$breaks' -gt '$((entries / 4))' ]"
else
	nok "-j any_call,u: record and perf script: $(head -1 "$dir/calls.err")"
fi
check "record left nothing in TMPDIR" tmp_empty

echo "1..$n"
