#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# A seed on a scenario that cannot show its effect (the default scenario
# has no hw_time event, no alternative_period, ...) says so on one line
# naming what the seed needs, and fails, rather than print a table of
# zeros and exit 0. A scenario with the feature but no sample of it fails
# too. --seed and --duration are read whole, naming the option.
set -u
. "$PMUSIM_SRCTREE/tests/seeds/seeds_lib.sh"

unfit() { # SEED WANT [SCENARIO]: run SEED on the default scenario
	sd=$1 want=$2 def=${3:-$PMUSIM_SRCTREE/scenarios/default.yaml}
	"$PMUSIM" seed "$sd" "$def" --duration 2100000 --map-dir "$dir" >"$dir/$sd.out" 2>"$dir/$sd.err"
	rc=$?
	check "$sd on $(basename "$def"): exit 2, one line naming what it needs, no table" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/$sd.err")" = 1 ] && [ ! -s "$dir/$sd.out" ] &&
		 grep -qF "$sd: $def has nothing to show it: the seed needs $want" "$dir/$sd.err"'
}
unfit hw-time "an event with hw_time: true"
unfit alt-period "one event with period and alternative_period"
unfit write-backward "one event with a period and time in sample_type, and buffer.overwrite: true" \
	"$scn/seed-lbr-stitch.yaml"
# seed-lbr-stitch.yaml without its call graph: a scenario every configuration loads
grep -v 'call_graph: lbr' "$scn/seed-lbr-stitch.yaml" >"$dir/no-lbr.yaml"
if has lbr_stitch; then
	unfit lbr-stitch "an event with call_graph: lbr" "$dir/no-lbr.yaml"
else
	# without CONFIG_LBR_STITCH the seed is unfit on any scenario, its own too
	for def in "$scn/seed-lbr-stitch.yaml" "$dir/no-lbr.yaml"; do
		"$PMUSIM" seed lbr-stitch "$def" --duration 2100000 --map-dir "$dir" -o "$dir/ns.data" \
			>"$dir/ns.out" 2>"$dir/ns.err"
		rc=$?
		check "lbr-stitch on $(basename "$def") without CONFIG_LBR_STITCH: exit 2, one line naming the option, no table, no file" \
			'[ $rc = 2 ] && [ "$(wc -l <"$dir/ns.err")" = 1 ] && [ ! -s "$dir/ns.out" ] && [ ! -e "$dir/ns.data" ] &&
			 grep -qxF "pmusim: seed lbr-stitch: this build has no CONFIG_LBR_STITCH, which the seed needs: turn it on (make menuconfig) and rebuild" "$dir/ns.err"'
	done
fi

# the feature, but no sample of it: an event the user-only tasks never count
if has hw_time; then
	sed 's/event: cycles:u/event: cycles:k/' "$scn/seed-hw-time.yaml" >"$dir/k.yaml"
	"$PMUSIM" seed hw-time "$dir/k.yaml" --duration 4200000 --map-dir "$dir" >"$dir/k.out" 2>"$dir/k.err"
	rc=$?
	check "hw-time with no sample: exit 1, says there was nothing to compare" \
		'[ $rc = 1 ] && [ ! -s "$dir/k.out" ] && grep -q "no sample carried a raw TSC" "$dir/k.err"'
else
	skip "this build has no CONFIG_PERF_HW_TIME"
fi
if has lbr_stitch; then
	sed 's/event: cycles:u/event: cycles:k/' "$scn/seed-lbr-stitch.yaml" >"$dir/ks.yaml"
	"$PMUSIM" seed lbr-stitch "$dir/ks.yaml" --duration 4200000 --map-dir "$dir" >"$dir/ks.out" 2>"$dir/ks.err"
	rc=$?
	check "lbr-stitch with no sample: exit 1, says there was nothing to stitch" \
		'[ $rc = 1 ] && [ ! -s "$dir/ks.out" ] && grep -q "no LBR call-stack sample" "$dir/ks.err"'
else
	skip "this build has no CONFIG_LBR_STITCH"
fi
sed 's/event: cycles:u/event: cycles:k/' "$scn/seed-task-ctx-data.yaml" >"$dir/kt.yaml"
"$PMUSIM" seed task-ctx-data "$dir/kt.yaml" --duration 4200000 --map-dir "$dir" >"$dir/kt.out" 2>"$dir/kt.err"
rc=$?
check "task-ctx-data with no sample: exit 1, one line saying there was nothing to compare" \
	'[ $rc = 1 ] && [ ! -s "$dir/kt.out" ] && [ "$(wc -l <"$dir/kt.err")" = 1 ] &&
	 grep -qF "seed task-ctx-data: $dir/kt.yaml: no LBR call-stack sample" "$dir/kt.err"'
if has alternative_sample_period; then
	sed 's/event: instructions:u/event: instructions:k/' "$scn/seed-alt-period.yaml" >"$dir/ka.yaml"
	"$PMUSIM" seed alt-period "$dir/ka.yaml" --duration 4200000 --map-dir "$dir" >"$dir/ka.out" 2>"$dir/ka.err"
	rc=$?
	check "alt-period with no sample: exit 1, one line saying there was nothing to compare" \
		'[ $rc = 1 ] && [ ! -s "$dir/ka.out" ] && [ "$(wc -l <"$dir/ka.err")" = 1 ] &&
		 grep -qF "seed alt-period: $dir/ka.yaml: no sample closed a short period" "$dir/ka.err"'
else
	skip "this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD"
fi
sed 's/event: cycles:u/event: cycles:k/' "$scn/seed-write-backward.yaml" >"$dir/kw.yaml"
"$PMUSIM" seed write-backward "$dir/kw.yaml" --duration 4200000 --map-dir "$dir" >"$dir/kw.out" 2>"$dir/kw.err"
rc=$?
check "write-backward with no sample: exit 1, one line saying there was nothing to read" \
	'[ $rc = 1 ] && [ ! -s "$dir/kw.out" ] && [ "$(wc -l <"$dir/kw.err")" = 1 ] &&
	 grep -qF "seed write-backward: $dir/kw.yaml: no sample was taken" "$dir/kw.err"'
# two tasks: a ring buffer each, and the seed reads one
awk '{ print } /^tasks:/ { print "  - name: second\n    workload:\n      kind: recursion\n      depth: 12" }' \
	"$scn/seed-write-backward.yaml" >"$dir/two.yaml"
"$PMUSIM" seed write-backward "$dir/two.yaml" --duration 4200000 --map-dir "$dir" >"$dir/two.out" 2>"$dir/two.err"
rc=$?
check "write-backward with two tasks: exit 1, one line saying the seed reads one buffer" \
	'[ $rc = 1 ] && [ ! -s "$dir/two.out" ] && [ "$(wc -l <"$dir/two.err")" = 1 ] &&
	 grep -qF "seed write-backward: $dir/two.yaml: the run has 2 ring buffers (one per task and CPU); the seed reads one" "$dir/two.err"'

"$PMUSIM" seed lbr-stitch "$scn/seed-lbr-stitch.yaml" --seed abc >/dev/null 2>"$dir/seed.err"
check "--seed abc names --seed" '[ $? = 2 ] && grep -q "^pmusim: seed: --seed: '"'abc'"' is not a number" "$dir/seed.err"'
"$PMUSIM" seed lbr-stitch "$scn/seed-lbr-stitch.yaml" --duration 4e8 >/dev/null 2>"$dir/dur.err"
check "--duration 4e8 is refused whole" '[ $? = 2 ] && grep -q "^pmusim: seed: --duration: '"'4e8'"' is not an integer" "$dir/dur.err"'
echo "1..$n"
