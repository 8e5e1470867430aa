#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Frequency mode (pmusim run -F, attr.freq) against the PMI's cost
# (machine.pmi_cycles). v6.12 computes the next period of a freq event
# in the PMI from the time since the previous PMI; if a PMI takes no time,
# the first samples (period 1, then a small period) come a nanosecond
# apart, the rate looks absurd and the period jumps to ~10^9, after which
# the tick's slow correction needs tens of ticks to bring it down. With
# the default cost each task on its own CPU converges to the asked rate
# within the first ticks, no period is beyond a tick's worth of cycles,
# and the same seed writes the same bytes. machine.pmi_cycles: 0 shows
# the collapse; out-of-range values are one FILE:LINE line, exit 2.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"

freq=4000
tsc_hz=$(awk -F= '$1 == "CONFIG_MODEL_TSC_KHZ" { print $2 * 1000 }' "$PMUSIM_OBJTREE/.config")
[ -n "$tsc_hz" ] || tsc_hz=2100000000
duration=$((tsc_hz / 10))	# 0.1 s simulated: 4 windows of 22.5 ms after the first 10 ticks

# one task alone on each CPU: each runs the whole time, so its rate is per second of run
scenario() { # FILE [MACHINE-EXTRA]
	cat >"$1" <<EOF
seed: 5
duration: $duration
machine: { cpu: skylake, cpus: 2, hz: 1000$2 }
tasks:
  - name: tchain
    workload: { kind: tchain, depth: 12, leaf_loops: 200, mid_loops: 20, outer_loops: 50 }
    cpus: [0]
  - name: rec
    workload: { kind: recursion, depth: 9 }
    cpus: [1]
events:
  - event: cycles:u
    period: 100003
    sample_type: [ip, tid, time, cpu, period]
buffer: { pages: 64 }
consumer: { interval: 2100000 }
EOF
}
scenario "$dir/s.yaml" ""
scenario "$dir/zero.yaml" ", pmi_cycles: 0"

run() { # SCENARIO OUT [ARGS...]
	local scn=$1 out=$2
	shift 2
	"$PMUSIM" run "$scn" -F $freq -o "$dir/$out.data" --map-dir "$dir" --no-progress "$@" \
		>"$dir/$out.txt" 2>"$dir/$out.err"
}
# "tid time period" per sample
samples() { "$PMUSIM" dump "$dir/$1.data" | awk -F'\t' '$2 == "SAMPLE" {
	for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	print v["tid"], v["time"], v["period"] }'; }
# TID FROM_NS TO_NS: samples per second of that task between the two times
rate() { samples "$2" | awk -v tid="$1" -v from="$3" -v to="$4" \
	'$1 == tid && $2 >= from && $2 < to { k++ } END { printf "%d\n", k * 1e9 / (to - from) }'; }
maxperiod() { samples "$1" | awk '$3 > m { m = $3 } END { print m + 0 }'; }
within() { [ "$1" -ge $(($2 * 9 / 10)) ] && [ "$1" -le $(($2 * 11 / 10)) ]; }

end_ns=$((duration * 1000 / (tsc_hz / 1000000)))
tick_cycles=$((tsc_hz / 1000))

if run "$dir/s.yaml" a; then
	ok "-F $freq runs with the default PMI cost"
	# after the first 10 ticks (10 ms), in 4 windows of the rest: each within 10%
	for tid in 1000 1001; do
		bad=""
		for w in 0 1 2 3; do
			from=$((10000000 + w * (end_ns - 10000000) / 4))
			to=$((10000000 + (w + 1) * (end_ns - 10000000) / 4))
			r=$(rate $tid a $from $to)
			within "$r" $freq || bad="$bad ${from}..${to}ns:$r/s"
		done
		check "task $tid samples at $freq/s within 10% after the first ticks${bad:+ (off:$bad)}" \
			'[ -z "$bad" ]'
	done
	r0=$(rate 1000 a 0 10000000)
	r1=$(rate 1001 a 0 10000000)
	check "the rate is there from the start: the first 10 ticks at 3/4 of it ($r0/s, $r1/s)" \
		'[ "$r0" -ge $((freq * 3 / 4)) ] && [ "$r1" -ge $((freq * 3 / 4)) ]'
	mp=$(maxperiod a)
	check "no sample period exceeds a tick of cycles ($mp <= $tick_cycles)" \
		'[ "$mp" -gt 0 ] && [ "$mp" -le $tick_cycles ]'
	check "the summary's PMIs are the samples (nothing throttled)" \
		'grep -q "PMIs $(samples a | wc -l)$" "$dir/a.txt" && grep -q "throttles 0," "$dir/a.txt"'
else
	nok "-F $freq runs with the default PMI cost: $(head -1 "$dir/a.err")"
fi

check "the same seed writes the same bytes" \
	'run "$dir/s.yaml" b && cmp -s "$dir/a.data" "$dir/b.data"'

# the zero-cost PMI of pmusim before machine.pmi_cycles: frequency mode collapses
if run "$dir/zero.yaml" zero; then
	# the tick brings the period back 1/8 of the way at a time: ~50 ticks from 10^9
	rz=$(rate 1000 zero 0 40000000)
	mpz=$(maxperiod zero)
	check "pmi_cycles 0: the rate collapses for the first 40 ticks ($rz/s, under a tenth of $freq/s)" \
		'[ "$rz" -lt $((freq / 10)) ]'
	check "pmi_cycles 0: a period far beyond a tick of cycles ($mpz > 100 * $tick_cycles)" \
		'[ "$mpz" -gt $((100 * tick_cycles)) ]'
	check "pmi_cycles 0: the first two samples of a task are under 10 ns apart" \
		'[ "$(samples zero | awk '\''$1 == 1000 { t[k++] = $2 } END { print t[1] - t[0] }'\'')" -lt 10 ]'
else
	nok "pmi_cycles 0 runs: $(head -1 "$dir/zero.err")"
fi

bad() { # NAME PMI_CYCLES PATTERN
	local rc pattern=$3
	scenario "$dir/bad.yaml" ", pmi_cycles: $2"
	"$PMUSIM" run "$dir/bad.yaml" -o "$dir/bad.data" --no-progress >/dev/null 2>"$dir/bad.err"
	rc=$?
	check "$1 is refused in one line naming file, line and field" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/bad.err")" = 1 ] && grep -q "$pattern" "$dir/bad.err" &&
		 [ ! -e "$dir/bad.data" ]'
}
bad "pmi_cycles of a whole tick" "$tick_cycles" \
	"bad.yaml:3: machine.pmi_cycles: must be 0..$((tick_cycles - 1)) "
bad "a negative pmi_cycles" -1 "bad.yaml:3: .*pmi_cycles"
bad "a word for pmi_cycles" many "bad.yaml:3: .*pmi_cycles"

echo "1..$n"
