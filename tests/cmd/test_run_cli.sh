#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim run's command line against perf record's: -c drops the scenario's
# alternative period, -c with -F is refused as perf refuses it, -F above
# the maximum sample rate is lowered with a warning naming the limit, -m
# rounds up to a power of two and says so, -e A -e B and -e A,B record
# both events; a mistake in an option names the option, not a line of
# the scenario; a run without samples says so and suggests no stitching;
# -o /dev/null suggests no command that reads it back; --max-sample-rate
# lets -F go higher and stops -c's throttling; -g records LBR call stacks;
# perf.data's header records the command line as typed and, for
# --call-graph lbr without -b/-j, no BRANCH_STACK feature.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
have_perf=false
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 && have_perf=true
$have_perf || echo "# skipped: perf is not installed: the header checks need perf"
pcheck() { if $have_perf; then check "$@"; else skip "perf is not installed"; fi; }
alt_on=false
"$PMUSIM" version | grep -q "^alternative_sample_period on" && alt_on=true

scenario() { # FILE [EXTRA EVENT LINES]
	cat >"$1" <<EOS
seed: 3
duration: 4200000
machine: { cpu: skylake, cpus: 1 }
tasks:
  - name: tchain
    workload: { kind: tchain, depth: 12, leaf_loops: 200, mid_loops: 20, outer_loops: 50 }
events:
  - event: cycles:u
    period: 40009
$2
EOS
}
scenario "$dir/s.yaml" ""
scenario "$dir/alt.yaml" "    alternative_period: 4001"
run() { # NAME SCENARIO [ARGS...]: NAME.data, NAME.txt, NAME.err, exit status in $rc
	local name=$1 scn=$2
	shift 2
	"$PMUSIM" run "$dir/$scn.yaml" -o "$dir/$name.data" --map-dir "$dir" "$@" \
		>"$dir/$name.txt" 2>"$dir/$name.err"
	rc=$?
}
samples() { grep -oE "samples [0-9]+" "$dir/$1.txt" | head -1 | grep -oE '[0-9]+'; }
one_line() { [ "$(wc -l <"$dir/$1.err")" = 1 ]; }
evlist() { perf evlist -v -i "$dir/$1.data" 2>/dev/null; }
header() { perf report --header-only -i "$dir/$1.data" 2>/dev/null; }

# -c: a fixed period, as perf evlist shows it
run plain s
if $alt_on; then
	run alt alt
	run altc alt -c 40009
	check "-c drops the scenario's alternative_period (the samples of one period alone)" \
		'[ "$(samples altc)" = "$(samples plain)" ] && [ "$(samples alt)" -gt "$(samples plain)" ]'
else
	skip "this build has no CONFIG_PERF_ALT_SAMPLE_PERIOD"
fi

# -c with -F: perf record refuses both
run cF s -c 1000 -F 100
check "-c with -F: exit 2, one line naming both, no file" \
	'[ $rc = 2 ] && one_line cF && grep -q "cannot set frequency and period at the same time (-c and -F)" "$dir/cF.err" && [ ! -e "$dir/cF.data" ]'

# -F above the limit: lowered to it, as perf record does
run F s -F 10000000
check "-F 10000000: a warning naming -F and the 100000 Hz limit, and it runs" \
	'[ $rc = 0 ] && grep -q -- "-F 10000000 is above the maximum sample rate (perf_event_max_sample_rate 100000 Hz): using 100000 Hz" "$dir/F.err"'
pcheck "-F 10000000: recorded at 100000 Hz" 'evlist F | grep -q "sample_freq }: 100000,"'

# --max-sample-rate: kernel.perf_event_max_sample_rate, which -F may then reach and which throttles -c
run Fm s -F 300000 --max-sample-rate 400000
check "-F 300000 --max-sample-rate 400000: no warning, recorded at 300000 Hz" \
	'[ $rc = 0 ] && [ ! -s "$dir/Fm.err" ]'
pcheck "... perf evlist shows sample_freq 300000" 'evlist Fm | grep -q "sample_freq }: 300000,"'
throttles() { grep -oE "^ +throttles [0-9]+" "$dir/$1.txt" | grep -oE '[0-9]+'; }
run thr s -c 200
run unthr s -c 200 --max-sample-rate 2000000000
check "-c 200: throttled ($(throttles thr)); --max-sample-rate 2000000000: not, and more samples" \
	'[ "$(throttles thr)" -gt 0 ] && [ "$(throttles unthr)" = 0 ] && [ "$(samples unthr)" -gt "$(samples thr)" ]'
# -g: LBR call stacks, said in one line
run g s -g
check "-g: one warning line, and it runs" \
	'[ $rc = 0 ] && [ "$(cat "$dir/g.err")" = "pmusim: run: warning: -g: frame-pointer call chains are not simulated: recording LBR call stacks (--call-graph lbr)" ]'
pcheck "-g: LBR call stacks in the attr" 'evlist g | grep -q "CALLCHAIN" && evlist g | grep -q "CALL_STACK"'

# -m: perf record rounds up to a power of two
run m s -m 3
check "-m 3: a warning naming -m and the power of two, and it runs" \
	'[ $rc = 0 ] && grep -q -- "-m 3: the buffer is a power of two pages: rounding up to 4" "$dir/m.err"'
run m0 s -m 8192
check "-m 8192: names -m and its limit" '[ $rc = 2 ] && one_line m0 && grep -q -- "^pmusim: run: -m: 8192 is too large (at most 4096)" "$dir/m0.err"'

# -e: several events
run ee s -e cycles:u -e instructions:u
pcheck "-e A -e B records both" \
	'[ $rc = 0 ] && [ "$(evlist ee | grep -cE "^(cycles|instructions):u: ")" = 2 ]'
run ec s -e cycles:u,instructions:u
pcheck "-e A,B records both" \
	'[ $rc = 0 ] && [ "$(evlist ec | grep -cE "^(cycles|instructions):u: ")" = 2 ]'
check "-e A,B: both events sample" '[ "$(samples ec)" -gt "$(samples plain)" ]'
run e0 s -e ""
check "-e with nothing: one line naming -e" '[ $rc = 2 ] && one_line e0 && grep -q "^pmusim: run: -e : an empty event name" "$dir/e0.err"'
run e2 s -e cycles:u,
check "-e A, (an empty name): one line naming -e" '[ $rc = 2 ] && one_line e2 && grep -q "an empty event name" "$dir/e2.err"'
run eb s -e cycles:u,cache-misses
check "-e with an unknown event names -e and the event" \
	'[ $rc = 2 ] && one_line eb && grep -q "^pmusim: run: -e cache-misses: unknown event" "$dir/eb.err"'

# mistakes in options name the option, not a line of the scenario
run seed s --seed abc
check "--seed abc names --seed" \
	'[ $rc = 2 ] && one_line seed && grep -q "^pmusim: run: --seed: '"'abc'"' is not a number" "$dir/seed.err"'
run c4 s -c 4e8
check "-c 4e8 is refused whole, naming -c" '[ $rc = 2 ] && grep -q "^pmusim: run: -c: '"'4e8'"' is not an integer" "$dir/c4.err"'
run dur s --duration 0
check "--duration 0 names --duration" '[ $rc = 2 ] && grep -q "^pmusim: run: --duration: must be at least 1" "$dir/dur.err"'
check "no option error cites the scenario file" '! grep -q "s.yaml" "$dir"/seed.err "$dir"/c4.err "$dir"/m0.err "$dir"/cF.err'

# a run without samples says so, and suggests nothing to stitch
run k s -e cycles:k --call-graph lbr
check "0 samples: said plainly, exit 0" '[ $rc = 0 ] && grep -q "no samples:" "$dir/k.txt"'
check "0 samples: no --stitch-lbr, no call-stack table" \
	'! grep -q -- "--stitch-lbr\|call-stack depth\|per task" "$dir/k.txt"'

# the header, as perf record writes it
run cg s --call-graph lbr -c 20011
pcheck "the cmdline records the scenario and the options, in the order typed, not where output went" \
	'header cg | grep -qxF "# cmdline : pmusim run $dir/s.yaml --call-graph lbr -c 20011 "'
"$PMUSIM" run --map-dir="$dir" "$dir/s.yaml" --json --call-graph lbr -o"$dir/cg2.data" -c 20011 \
	--no-progress >/dev/null 2>&1
check "the same recording into another file, with other output options: the same bytes" \
	'cmp -s "$dir/cg.data" "$dir/cg2.data"'
pcheck "--call-graph lbr without -b/-j: no BRANCH_STACK feature (perf record clears it)" \
	'header cg | grep -q "^# missing features:.* BRANCH_STACK "'
pcheck "--call-graph lbr: perf report is not in branch mode (samples, not branches)" \
	'perf report -i "$dir/cg.data" --stitch-lbr --stdio 2>/dev/null >"$dir/cg.rep" &&
	 grep -q "^# Samples: $(samples cg) *of event" "$dir/cg.rep" && ! grep -q "Source Symbol" "$dir/cg.rep"'
run cgb s --call-graph lbr -b
pcheck "--call-graph lbr with -b: the BRANCH_STACK feature is there" \
	'! header cgb | grep -q "^# missing features:.* BRANCH_STACK "'
run b s -j any_call,u
pcheck "-j: the BRANCH_STACK feature is there" '! header b | grep -q "^# missing features:.* BRANCH_STACK "'

# the next steps work when pasted: the pmusim that ran, the file that exists
if grep -qx CONFIG_LBR_STITCH=y "$PMUSIM_OBJTREE/.config"; then
	check "the printed pmusim command is the program that ran" \
		'grep -qxF "$PMUSIM stitch $dir/cg.data" "$dir/cg.txt"'
else
	check "no CONFIG_LBR_STITCH: no pmusim stitch to suggest, perf report --stitch-lbr still" \
		'! grep -q "stitch $dir/cg.data" "$dir/cg.txt" && grep -qxF "perf report -i $dir/cg.data --stitch-lbr" "$dir/cg.txt"'
fi
# every suggested command, pasted in the directory pmusim ran in
paste_ok() {
	local cmd
	while read -r cmd; do
		case $cmd in
		perf\ *) $have_perf || continue;;&
		perf\ report*) cmd="$cmd --stdio";;
		esac
		(cd "$dir" && eval "$cmd") >/dev/null 2>&1 || return 1
	done < <(grep -E "^(perf |$PMUSIM )" "$dir/cg.txt")
}
check "the printed next steps run as printed" 'paste_ok'
# -o /dev/null: nothing to read back, so no next steps that would read it
"$PMUSIM" run "$dir/s.yaml" -o /dev/null --map-dir "$dir" >"$dir/null.txt" 2>"$dir/null.err"
rc=$?
check "-o /dev/null: the run succeeds (exit $rc) and suggests no command reading /dev/null" \
	'[ $rc = 0 ] && grep -q "samples" "$dir/null.txt" && ! grep -q "/dev/null" "$dir/null.txt"'
echo "1..$n"
