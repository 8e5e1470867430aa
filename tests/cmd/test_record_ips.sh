#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record's sample ips are exact (issue #25 part 4). The guest
# (tests/cmd/record_progs/straight.c, built here) loops over one
# straight-line block of 1000 adds, dec and jne: 1002 instructions of one
# cycle each, so a sample's place in the loop follows from its address.
#   - cycles:u: perf script and perf annotate show the samples spread over
#     the block, one sample on most instructions, none holding more than 1%
#     (before, every sample of the loop fell on its jne);
#   - instructions:u -c N: each sample is exactly N instructions after the
#     one before it (the skid model: the ip is the instruction after the
#     one whose event overflowed);
#   - instructions:upp: the same instants, each sample one instruction
#     earlier (the overflowing instruction itself, no skid), marked exact;
#     :p, :ppp, :up and cpu/instructions/upp are taken, the same samples;
#   - what perf's -e syntax has and the model does not: one line, exit 2,
#     the program never runs.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
export TMPDIR=$dir/tmp
mkdir "$TMPDIR"

# Valgrind runs, as test_record.sh's: the check matrix runs it in its two extremes
record_test_needs "${LABEL:-}" valgrind gcc perf python3
gcc -O1 -g -o "$dir/straight" "$PMUSIM_SRCTREE/tests/cmd/record_progs/straight.c" ||
	{ echo "Bail out! cannot build the guest"; exit 1; }

# 10000 iterations: 10M instructions, some 500 samples at -c 20011 (below the throttle)
ITER=10000
PERIOD=20011

record() {
	local name=$1
	shift
	(cd "$dir" && "$PMUSIM" record -o "$dir/$name.data" "$@" -- "$dir/straight" $ITER \
		>"$dir/$name.out" 2>"$dir/$name.err")
}

# places NAME: each sample's place in the loop (0..999 the adds, 1000 dec,
# 1001 jne; -1 the xor before it), straight's samples only, in time order
places() {
	perf script -i "$dir/$1.data" -F ip,sym,symoff 2>/dev/null | python3 -c '
import sys
for line in sys.stdin:
    f = line.split()
    if len(f) < 2 or not f[1].startswith("straight+"):
        continue
    off = int(f[1].split("+")[1], 16)
    if off == 0:
        print(-1)
    elif 2 <= off < 4002 and (off - 2) % 4 == 0:
        print((off - 2) // 4)
    elif off == 4002:
        print(1000)
    elif off == 4005:
        print(1001)
    else:
        print("bad", hex(off))
'
}

# --- cycles: samples spread over the block --------------------------------------------------
if record cycles -e cycles:u -c $PERIOD; then
	ok "cycles:u: recorded ($(sed -n 1p "$dir/cycles.err"))"
else
	nok "cycles:u: pmusim record failed: $(head -1 "$dir/cycles.err")"
fi
places cycles >"$dir/cycles.places"
check "cycles:u: every sample in straight is at an instruction of it" \
	"! grep -q bad '$dir/cycles.places' && [ \$(wc -l <'$dir/cycles.places') -ge 450 ]"
python3 - "$dir/cycles.places" >"$dir/spread.txt" <<'EOF'
import collections, sys
p = [int(x) for x in open(sys.argv[1]) if not x.startswith("bad")]
c = collections.Counter(p)
adds = sum(v for k, v in c.items() if 0 <= k < 1000)
print(len(p), len(c), max(c.values(), default=0), c.get(1001, 0), adds)
EOF
read -r nr distinct most on_jne on_adds <"$dir/spread.txt"
check "cycles:u: $distinct distinct ips of $nr samples, at most $most on one, $on_jne on the jne" \
	"[ $distinct -ge \$(($nr * 95 / 100)) ] && [ $((most * 100)) -le $nr ] && [ $((on_jne * 100)) -le $nr ]"
# 1000 of the loop's 1002 cycles are adds: their share, within what 500 samples allow
check "cycles:u: the adds have $on_adds of $nr samples (their 1000 of 1002 cycles)" \
	"[ $((on_adds * 100)) -ge $((nr * 98)) ]"
perf annotate -i "$dir/cycles.data" --stdio -s straight 2>/dev/null >"$dir/annotate.txt"
lines=$(grep -cE '^ +[0-9]+\.[0-9]+ +: +[0-9a-f]+: +add' "$dir/annotate.txt")
hot=$(grep -E '^ +[0-9]+\.[0-9]+ +: +[0-9a-f]+:' "$dir/annotate.txt" | awk '$1 > 0' | wc -l)
top=$(grep -E '^ +[0-9]+\.[0-9]+ +: +[0-9a-f]+:' "$dir/annotate.txt" | awk '$1 > m {m = $1} END {print m + 0}')
check "perf annotate: $hot of straight's $((lines + 4)) lines have samples, the most $top%" \
	"[ $lines -eq 1000 ] && [ $hot -ge \$(($nr * 95 / 100)) ] && awk -v t=$top 'BEGIN {exit !(t <= 1)}'"

# A 7-instruction loop: a seventh of the samples each (before: 85.7% on the
# jne, the rest on the loop's first instruction, the branch's target)
(cd "$dir" && "$PMUSIM" record -o "$dir/seven.data" -e cycles:u -c $PERIOD -- \
	"$dir/straight" 3000000 seven >/dev/null 2>"$dir/seven.err")
perf annotate -i "$dir/seven.data" --stdio -s seven 2>/dev/null |
	grep -E '^ +[0-9]+\.[0-9]+ +: +[0-9a-f]+:' | awk '$1 > 0 {print $1}' >"$dir/seven.pct"
check "a 7-instruction loop: each instruction has a seventh of the samples ($(tr '\n' ' ' <"$dir/seven.pct")%)" \
	"[ \$(wc -l <'$dir/seven.pct') -eq 7 ] && awk '\$1 < 13.3 || \$1 > 15.3 {bad = 1} END {exit bad}' '$dir/seven.pct'"

# --- instructions: exactly N apart ------------------------------------------------------------
# stride PLACES PERIOD: the steps between neighbours that are not PERIOD mod 1002
stride() {
	python3 - "$1" "$2" <<'EOF'
import sys
p = [int(x) for x in open(sys.argv[1]) if not x.startswith("bad")]
step = int(sys.argv[2]) % 1002
print(sum(1 for a, b in zip(p, p[1:]) if (b - a) % 1002 != step), len(p))
EOF
}
record insns -e instructions:u -c $PERIOD
places insns >"$dir/insns.places"
read -r off nr < <(stride "$dir/insns.places" $PERIOD)
check "instructions:u -c $PERIOD: each of $nr samples $PERIOD instructions after the one before ($off not)" \
	"[ $nr -ge 450 ] && [ $off -eq 0 ]"
record precise -e instructions:upp -c $PERIOD
places precise >"$dir/precise.places"
read -r off nr < <(stride "$dir/precise.places" $PERIOD)
check "instructions:upp: $nr samples, $PERIOD instructions apart ($off not)" \
	"[ $nr -ge 450 ] && [ $off -eq 0 ]"
check "instructions:upp: each sample one instruction before :u's, the overflowing one" \
	"python3 -c 'import sys; a = open(\"$dir/insns.places\").read().split(); b = open(\"$dir/precise.places\").read().split(); sys.exit(not (len(a) == len(b) and all((int(x) - int(y)) % 1002 == 1 for x, y in zip(a, b))))'"
samples=$(perf report -D -i "$dir/precise.data" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(')
exact=$(perf report -D -i "$dir/precise.data" 2>/dev/null | grep -c 'PERF_RECORD_SAMPLE(IP, 0x4002)')
check "instructions:upp: all $samples samples say PERF_RECORD_MISC_EXACT_IP ($exact)" \
	"[ $samples -gt 0 ] && [ $exact -eq $samples ]"
check "instructions:u: no sample says exact" \
	"! perf report -D -i '$dir/insns.data' 2>/dev/null | grep -q 'PERF_RECORD_SAMPLE(IP, 0x4002)'"
check "perf evlist: precise_ip 2" "perf evlist -v -i '$dir/precise.data' 2>/dev/null | grep -q 'precise_ip: 2'"
perf script -i "$dir/precise.data" -F ip 2>/dev/null >"$dir/precise.ips"
for ev in instructions:up instructions:ppp cpu/instructions/upp cpu/instructions/pu \
	  "cpu/event=0xc0,umask=0/upp"; do
	rm -f "$dir/alt.data"
	record alt -e "$ev" -c $PERIOD
	perf script -i "$dir/alt.data" -F ip 2>/dev/null >"$dir/alt.ips"
	check "-e $ev: taken, the same samples as instructions:upp" \
		"[ -s '$dir/alt.ips' ] && cmp -s '$dir/precise.ips' '$dir/alt.ips'"
done
record pmu -e cpu/cycles/u -c $PERIOD
perf script -i "$dir/pmu.data" -F ip 2>/dev/null >"$dir/pmu.ips"
perf script -i "$dir/cycles.data" -F ip 2>/dev/null >"$dir/cycles.ips"
check "-e cpu/cycles/u: the same samples as cycles:u" \
	"[ -s '$dir/pmu.ips' ] && cmp -s '$dir/pmu.ips' '$dir/cycles.ips'"

# --- what is refused ---------------------------------------------------------------------------
bad() {
	local what=$1
	shift
	(cd "$dir" && "$PMUSIM" record -o "$dir/bad.data" "$@" -- "$dir/straight" 1 \
		>"$dir/bad.out" 2>"$dir/bad.err")
	local rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$dir/bad.err")" -eq 1 ] && [ ! -s "$dir/bad.out" ] &&
	   [ ! -e "$dir/bad.data" ]; then
		ok "$what: one line, exit 2, the program not run ($(cat "$dir/bad.err"))"
	else
		nok "$what: exit $rc: $(cat "$dir/bad.err")"
	fi
	rm -f "$dir/bad.data" "$dir/bad.data.truth"
}
bad "-e cycles:pppp" -e cycles:pppp
bad "-e cycles:uh" -e cycles:uh
bad "-e cpu/cache-misses/u" -e cpu/cache-misses/u
bad "-e uncore/cycles/" -e uncore/cycles/
bad "-e cpu/cycles,period=10/" -e cpu/cycles,period=10/
bad "-e cycles:ppp on nehalem (2 levels)" --cpu nehalem -e cycles:ppp
check "... the message names the levels the model has" "grep -q \"CPU model 'nehalem' takes :pp at most\" '$dir/bad.err'"
check "no stream directory is left behind" "[ -z \"\$(ls -A '$TMPDIR')\" ]"

echo "1..$n"
