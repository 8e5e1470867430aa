#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim run's command line, option by option: each perf record override
# (-e -c -F -a -C -m --overwrite -b -j --call-graph lbr) changes what it
# should in the attr perf reads back or in the summary; every bad flag or
# value is one line on stderr, exit 2, and no file; --json carries the
# same figures as the text summary; the progress bar appears on a
# terminal only; context switches emit SWITCH records; throttling follows
# the scenario's HZ; the subcommands' --help.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
have_perf=false
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 && have_perf=true
if ! $have_perf; then
	echo "# skipped: perf is not installed: attrs are checked through the summary only"
fi
pcheck() { if $have_perf; then check "$@"; else skip "perf is not installed"; fi; }

# three tasks on two CPUs, a short run, forward buffer, no call graph
cat >"$dir/s.yaml" <<'EOF'
seed: 3
duration: 21000000
machine: { cpu: skylake, cpus: 2, hz: 1000, timeslice: 2100000, quantum: 210000 }
tasks:
  - name: tchain
    workload: { kind: tchain, depth: 12, leaf_loops: 200, mid_loops: 20, outer_loops: 50 }
  - name: rec
    workload: { kind: recursion, depth: 9 }
  - name: rnd
    workload: { kind: random, depth: 20 }
events:
  - event: cycles:u
    period: 40009
    context_switch: true
buffer: { pages: 16 }
consumer: { interval: 2100000 }
EOF
run() { # NAME [ARGS...]: run s.yaml into NAME.data, summary NAME.txt, stderr NAME.err
	local name=$1
	shift
	"$PMUSIM" run "$dir/s.yaml" -o "$dir/$name.data" --map-dir "$dir" "$@" \
		>"$dir/$name.txt" 2>"$dir/$name.err"
}
evlist() { perf evlist -v -i "$dir/$1.data" 2>/dev/null; }
header() { perf report --header-only -i "$dir/$1.data" 2>/dev/null; }
field() { # NAME WORDS...: the number after "WORDS" in NAME.txt
	local name=$1
	shift
	grep -oE "$* [0-9]+" "$dir/$name.txt" | head -1 | grep -oE '[0-9]+$'
}

check "the plain scenario runs" 'run plain && [ "$(field plain samples)" -gt 0 ]'
check "stderr holds no progress bar when it is not a terminal" '[ ! -s "$dir/plain.err" ]'
pcheck "per task: one id per task" 'header plain | grep -q "id = { 1, 2, 3 }"'

check "-e instructions:u runs" 'run e -e instructions:u'
pcheck "-e sets the event" 'evlist e | grep -q "^instructions:u: .*config: 0x1,"'
check "-c 20011 runs, sampling more often" 'run c -c 20011 && [ "$(field c samples)" -gt "$(field plain samples)" ]'
pcheck "-c sets the period" 'evlist c | grep -q "sample_freq }: 20011," && ! evlist c | grep -q "freq: 1"'
check "-F 2000 runs" 'run F -F 2000 && [ "$(field F samples)" -gt 0 ]'
pcheck "-F sets freq and sample_freq" 'evlist F | grep -q "sample_freq }: 2000,.*freq: 1"'
check "-a samples every CPU's tasks (about as many samples as per task)" \
	'run a -a && [ "$(field a samples)" -ge $(($(field plain samples) * 9 / 10)) ]'
pcheck "-a: samples from CPU 0 and CPU 1" \
	'[ "$(perf script -i "$dir/a.data" -F cpu 2>/dev/null | sort -u | tr -d " \n")" = "[000][001]" ]'
pcheck "-a: one event per CPU" 'header a | grep -q "id = { 1, 2 }"'
check "-C 1 runs" 'run C -C 1'
pcheck "-a and -C sample the CPU, as perf record does" 'evlist C | grep -q "sample_type: IP|TID|TIME|CPU|PERIOD,"'
pcheck "-C 1: one event, samples from CPU 1 only" \
	'header C | grep -q "id = { 1 }," && perf script -i "$dir/C.data" -F cpu 2>/dev/null | sort -u | tr -d " []\n" | grep -qx 0*1'
check "-b runs" 'run b -b'
pcheck "-b: branch stacks of any branch" \
	'evlist b | grep -q "BRANCH_STACK.*branch_sample_type: ANY$" && perf script -i "$dir/b.data" -F brstack 2>/dev/null | grep -q "/P/-/-/"'
check "-j any_call,u runs" 'run j -j any_call,u'
pcheck "-j sets the branch filter" 'evlist j | grep -q "branch_sample_type: USER|ANY_CALL$"'
check "--call-graph lbr adds LBR call stacks" \
	'run cg --call-graph lbr && grep -q "call-stack depth: true max" "$dir/cg.txt" && ! grep -q "call-stack depth" "$dir/plain.txt"'
pcheck "--call-graph lbr sets perf record's bits" \
	'evlist cg | grep -q "sample_type: IP|TID|TIME|CALLCHAIN|PERIOD|BRANCH_STACK,.*branch_sample_type: USER|CALL_STACK|NO_FLAGS|NO_CYCLES|HW_INDEX"'
# a one-page forward buffer read every ms cannot keep up: LOST records;
# with --overwrite the kernel overwrites instead and counts nothing lost
check "-m 1 (forward, no overwrite) loses records" \
	'run m -m 1 --call-graph lbr && [ "$(field m lost)" -gt 0 ] && [ "$(field m samples)" -gt 0 ]'
check "--overwrite with -m 1 loses none" \
	'run ow -m 1 --call-graph lbr --overwrite && [ "$(field ow lost)" = 0 ] && [ "$(field ow samples)" -gt 0 ]'
pcheck "--overwrite keeps the attr (the mapping is read-only)" 'evlist ow | grep -q "^cycles:u:"'

# context switches: three tasks on two CPUs time-sliced every ms
check "context switches happen and are counted" '[ "$(field plain "context switches")" -gt 4 ]'
if $have_perf; then
	nsw=$(perf script -i "$dir/plain.data" --show-switch-events -F tid 2>/dev/null | grep -c "PERF_RECORD_SWITCH")
	check "each switch leaves SWITCH records (in and out)" \
		'[ "$nsw" -gt 0 ] && [ "$nsw" -le $((2 * $(field plain "context switches"))) ]'
else
	skip "perf is not installed"
fi

# --json against the text summary
check "--json runs and parses" 'run js --json && python3 -m json.tool "$dir/js.txt" >/dev/null'
cat >"$dir/cmp.py" <<'EOF'
import json, re, sys
j = json.load(open(sys.argv[1]))
t = open(sys.argv[2]).read()
def num(pat):
    m = re.search(pat, t)
    return int(m.group(1)) if m else None
want = {"samples": r"samples (\d+),", "lost": r"lost (\d+) ", "lost_records": r"in (\d+) LOST",
        "throttles": r"throttles (\d+),", "wakeups": r"wakeups (\d+),",
        "context_switches": r"context switches (\d+),", "migrations": r"migrations (\d+),",
        "ticks": r"ticks (\d+)", "instructions": r"instructions (\d+),",
        "branches": r"taken branches (\d+) ", "mispredicts": r"mispredicted (\d+)\)",
        "pmis": r"PMIs (\d+)"}
bad = [k for k, p in want.items() if num(p) != j[k]]
cs = j["call_stack_depth"]
# the build's CONFIG_LBR_STITCH: without it no stitched figure, in the text or the JSON
stitch = sys.argv[3] == "y"
if cs["lbr_stitch"] is not stitch:
    bad.append("lbr_stitch")
if stitch:
    m = re.search(r"true max (\d+); LBR avg ([\d.]+) max (\d+); stitched avg ([\d.]+) max (\d+)", t)
    if m and (int(m.group(5)) != cs["stitched_max"] or abs(float(m.group(4)) - cs["stitched_avg"]) > 0.05):
        bad.append("call_stack_depth")
else:
    m = re.search(r"true max (\d+); LBR avg ([\d.]+) max (\d+); stitching off \(this build has no CONFIG_LBR_STITCH\)$", t, re.M)
    if re.search(r"stitched avg| st-max | whole +short +wrong", t) or [k for o in [cs] + cs["tasks"] for k in o if "stitched" in k]:
        bad.append("stitched figures")
if (cs["samples"] > 0) != bool(m) or (m and (int(m.group(1)) != cs["true_max"] or
        int(m.group(3)) != cs["lbr_max"] or abs(float(m.group(2)) - cs["lbr_avg"]) > 0.05)):
    bad.append("call_stack_depth")
rows = re.findall(r"^  (\S+) +(\S+) +(\d+) +[\d.]+% +[\d.]+%$", t, re.M)
byname = {(f["task"], f["name"]): f["samples"] for f in j["functions"]}
bad += ["%s/%s" % (tk, fn) for tk, fn, smp in rows if byname.get((tk, fn)) != int(smp)]
if not j["functions"] or not rows or bad:
    print("# mismatched:", bad)
    sys.exit(1)
EOF
stitch=n
grep -qx 'CONFIG_LBR_STITCH=y' "$PMUSIM_OBJTREE/.config" && stitch=y
check "--json carries the text summary's figures" \
	'run jt && run jj --json && python3 "$dir/cmp.py" "$dir/jj.txt" "$dir/jt.txt" $stitch'
if [ $stitch = y ]; then
	check "--json with LBR call stacks carries the depths, stitched too" \
		'run cgt --call-graph lbr && run cgj --call-graph lbr --json && python3 "$dir/cmp.py" "$dir/cgj.txt" "$dir/cgt.txt" $stitch &&
		 grep -q "\"lbr_stitch\": true" "$dir/cgj.txt" && grep -q "\"stitched_max\"" "$dir/cgj.txt" &&
		 grep -q " st-max " "$dir/cgt.txt" && grep -q "stitch $dir/cgt.data\$" "$dir/cgt.txt"'
else
	check "--json with LBR call stacks carries the raw depths and says stitching is off (no CONFIG_LBR_STITCH)" \
		'run cgt --call-graph lbr && run cgj --call-graph lbr --json && python3 "$dir/cmp.py" "$dir/cgj.txt" "$dir/cgt.txt" $stitch &&
		 grep -q "\"lbr_stitch\": false" "$dir/cgj.txt" && grep -q " lbr-whole$" "$dir/cgt.txt" &&
		 grep -q "no stitched figures: stitching is off" "$dir/cgt.txt" && ! grep -q " stitch " "$dir/cgt.txt"'
fi

# the progress bar, on a pseudo-terminal
if command -v script >/dev/null 2>&1; then
	script -qec "'$PMUSIM' run '$dir/s.yaml' -o '$dir/tty.data' --map-dir '$dir' >/dev/null" \
		"$dir/tty.log" >/dev/null 2>&1
	check "a terminal gets the progress bar" 'grep -q "\] 100%" "$dir/tty.log"'
	script -qec "'$PMUSIM' run '$dir/s.yaml' -o '$dir/tty2.data' --map-dir '$dir' --no-progress >/dev/null" \
		"$dir/tty2.log" >/dev/null 2>&1
	check "--no-progress silences it" '! grep -q "100%" "$dir/tty2.log"'
	# 200 scheduling quanta: two in each percent, each percent drawn once
	script -qec "'$PMUSIM' run '$dir/s.yaml' -o '$dir/tty3.data' --map-dir '$dir' --duration 42000000 >/dev/null" \
		"$dir/tty3.log" >/dev/null 2>&1
	check "a percent is drawn once however often the run reports it" \
		'[ "$(grep -o "[0-9]*%" "$dir/tty3.log" | uniq -d | wc -l)" = 0 ] && [ "$(grep -o "[0-9]*%" "$dir/tty3.log" | tail -1)" = 100% ] && [ "$(grep -o "[0-9]*%" "$dir/tty3.log" | wc -l)" -ge 100 ]'
else
	skip "no script(1) for a pseudo-terminal"
	skip "no script(1) for a pseudo-terminal"
	skip "no script(1) for a pseudo-terminal"
fi

# a context switch saves the task's LBR call stack and restores it at
# switch-in (the core's sched hooks): two tasks time-sliced every 0.1 ms on
# one CPU keep call stacks as deep as when each has a CPU of its own
for cpus in 1 2; do
	cat >"$dir/sw$cpus.yaml" <<EOF
seed: 4
duration: 42000000
machine: { cpu: skylake, cpus: $cpus, timeslice: 210000, quantum: 21000 }
tasks:
  - name: tchain
    workload: { kind: tchain, depth: 43, leaf_loops: 2000, mid_loops: 20, outer_loops: 100 }
    cpus: [0]
  - name: rec
    workload: { kind: recursion, depth: 20 }
events:
  - event: cycles:u
    period: 20011
    call_graph: lbr
EOF
	"$PMUSIM" run "$dir/sw$cpus.yaml" -o "$dir/sw$cpus.data" --map-dir "$dir" >"$dir/sw$cpus.txt" 2>&1
done
check "two tasks on one CPU switch often" '[ "$(field sw1 "context switches")" -ge 100 ] && [ "$(field sw2 "context switches")" = 2 ]'
if $have_perf; then
	entries() { perf script -i "$dir/$1.data" -F comm,brstack 2>/dev/null | awk '$1 == "tchain" { n++; e += NF - 1 } END { if (n) printf "%d\n", 100 * e / n; else print 0 }'; }
	e1=$(entries sw1) e2=$(entries sw2)
	echo "# tchain's LBR entries per sample (x100): switching $e1, alone $e2"
	check "the LBR call stack survives context switches (saved and restored)" \
		'[ "$e2" -gt 2500 ] && [ "$e1" -ge $((e2 * 95 / 100)) ]'
else
	skip "perf is not installed"
fi

# processes and threads: 2 processes of 2 threads each, pid = the leader's tid
cat >"$dir/thr2.yaml" <<'EOF'
duration: 21000000
machine: { cpus: 2 }
tasks:
  - name: mt
    count: 2
    threads: 2
    workload: { kind: random, depth: 10 }
events:
  - event: cycles:u
    period: 20011
EOF
mkdir -p "$dir/thr2maps"
"$PMUSIM" run "$dir/thr2.yaml" -o "$dir/thr2.data" --map-dir "$dir/thr2maps" >"$dir/thr2.txt" 2>&1
check "one perf-PID.map per process, none per thread" \
	'[ "$(ls "$dir/thr2maps" | tr "\n" " ")" = "perf-1000.map perf-1002.map " ]'
if $have_perf; then
	check "samples carry pid/tid: 2 processes of 2 threads" \
		'[ "$(perf script -i "$dir/thr2.data" -F pid,tid 2>/dev/null | tr -s " " | sort -u | tr "\n" ",")" = " 1000/1000 , 1000/1001 , 1002/1002 , 1002/1003 ," ]'
	check "a COMM record for every thread" \
		'[ "$(perf script -i "$dir/thr2.data" --show-task-events -F tid 2>/dev/null | grep -c "PERF_RECORD_COMM: mt:")" = 4 ]'
else
	skip "perf is not installed"
	skip "perf is not installed"
fi

# the throttle budget follows the scenario's HZ: at 100 Hz a tick is 10 ms,
# 525 samples of a 40000 period, well under 100000 samples a second
sed -e 's/hz: 1000/hz: 100/' -e 's/period: 40009/period: 40000/' "$dir/s.yaml" >"$dir/hz.yaml"
check "at hz 100 a rate under the limit is not throttled" \
	'"$PMUSIM" run "$dir/hz.yaml" -o "$dir/hz.data" --map-dir "$dir" >"$dir/hz.txt" 2>&1 && [ "$(field hz throttles)" = 0 ] && [ "$(field hz samples)" -gt 500 ]'
sed -e 's/period: 40000/period: 2000/' "$dir/hz.yaml" >"$dir/hz2.yaml"
check "at hz 100 a rate over the limit is throttled" \
	'"$PMUSIM" run "$dir/hz2.yaml" -o "$dir/hz2.data" --map-dir "$dir" >"$dir/hz2.txt" 2>&1 && [ "$(field hz2 throttles)" -gt 0 ]'

# a throttled event comes back at the next tick and throttles again:
# one task per CPU (no context switch to restart it), 100 samples a tick
cat >"$dir/thr.yaml" <<'EOF'
seed: 4
duration: 42000000
machine: { cpu: skylake, cpus: 2, hz: 1000 }
tasks:
  - name: tchain
    workload: { kind: tchain, depth: 12 }
    cpus: [0]
  - name: rec
    workload: { kind: recursion, depth: 20 }
    cpus: [1]
events:
  - event: cycles:u
    period: 2000
EOF
check "throttled events resume at each tick: throttles and samples in every tick" \
	'"$PMUSIM" run "$dir/thr.yaml" -o "$dir/thr.data" --map-dir "$dir" >"$dir/thr.txt" 2>&1 && [ "$(field thr "context switches")" = 2 ] && [ "$(field thr throttles)" -ge 30 ] && [ "$(field thr samples)" -ge 3000 ]'

# mispredicts come from the seed and the workload's rate
sed -e 's/outer_loops: 50 }/outer_loops: 50, mispredict_permille: 0 }/' \
    -e 's/depth: 9 }/depth: 9, mispredict_permille: 0 }/' \
    -e 's/depth: 20 }/depth: 20, mispredict_permille: 0 }/' "$dir/s.yaml" >"$dir/nomis.yaml"
check "mispredict_permille 0 everywhere: no mispredicts; the default rate: some" \
	'"$PMUSIM" run "$dir/nomis.yaml" -o "$dir/nomis.data" --map-dir "$dir" >"$dir/nomis.txt" 2>&1 && [ "$(field nomis mispredicted)" = 0 ] && [ "$(field plain mispredicted)" -gt 0 ]'

# bad flags and values: one line, exit 2, no file
bad() { # DESCRIPTION ARGS...
	local what=$1
	shift
	rm -f "$dir/bad.data"
	"$PMUSIM" run "$dir/s.yaml" -o "$dir/bad.data" --map-dir "$dir" "$@" >"$dir/bad.out" 2>"$dir/bad.err"
	local rc=$?
	check "$what: exit 2, one line, nothing written" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/bad.err")" = 1 ] && [ ! -s "$dir/bad.out" ] && [ ! -e "$dir/bad.data" ] && ! ls "$dir" | grep -q "^bad.data.tmp"'
}
bad "an unknown option" --bogus
bad "a missing value" -c
bad "-c abc" -c abc
bad "-c 0" -c 0
bad "-F 0" -F 0
bad "-F -5" -F -5
bad "-e nonsense" -e nonsense
bad "-C 7 on two CPUs" -C 7
bad "-C 1-x" -C 1-x
bad "-m 5000 (above 4096)" -m 5000
bad "-m 0" -m 0
bad "-j nonsense" -j any,nonsense
bad "--call-graph fp" --call-graph fp
bad "--seed x" --seed x
bad "--duration 0" --duration 0
# the same, each with the line it must say
bad_says() { # DESCRIPTION LINE ARGS...
	local what=$1 want=$2
	shift 2
	bad "$what" "$@"
	check "$what: says so" '[ "$(cat "$dir/bad.err")" = "$want" ]'
}
sixteen=()
for i in $(seq 16); do sixteen+=(-e cycles:u); done
bad_says "-e an event group" "pmusim: run: -e {cycles:u,instructions:u}: event groups are not simulated" \
	-e '{cycles:u,instructions:u}'
bad_says "-e a 17th event" "pmusim: run: -e: at most 16 events" "${sixteen[@]}" -e instructions:u
bad_says "-e A,B past the 16th" "pmusim: run: -e: at most 16 events" \
	"${sixteen[@]:2}" -e instructions:u,branches:u
bad_says "-e ,A: an empty name first" "pmusim: run: -e ,cycles:u: an empty event name" -e ,cycles:u
bad_says "-e A,unknown: the unknown one named" \
	"pmusim: run: -e nosuch: unknown event (cycles, instructions, branches, branch-misses, ref-cycles, rHEX, cpu/NAME/; :u :k :p :pp :ppp)" \
	-e cycles:u,nosuch
bad_says "-e A,cpu/event=N,umask=N/X: the comma inside the slashes is the PMU's" \
	"pmusim: run: -e cpu/event=0xc0,umask=0/x: unknown modifier 'x' (u, k, p, pp, ppp)" \
	-e cycles:u,cpu/event=0xc0,umask=0/x
for c in "" x 1-0 0- 0:1 64 0,,1; do
	bad "-C '$c'" -C "$c"
	check "-C '$c': names -C and the list" \
		'grep -q "^pmusim: run: -C $c: not a CPU list (0,2-3; CPUs 0\.\.[0-9]*)$" "$dir/bad.err"'
done
bad "-j ''" -j ""
bad "-j ," -j ,
check "-j ,: names -j" 'grep -q "^pmusim: run: -j ,: unknown branch filter word" "$dir/bad.err"'
check "-e: 16 events are allowed" 'run e16 "${sixteen[@]}" && [ "$(field e16 samples)" -gt 0 ]'
check "-C 0,1 -j u,save_type: both CPUs, and runs" 'run c01 -C 0,1 -j u,save_type && [ "$(field c01 samples)" -gt 0 ]'
pcheck "-j u,save_type sets USER and TYPE_SAVE" 'evlist c01 | grep -q "branch_sample_type: USER|TYPE_SAVE$"'
check "-j k alone (no branch type) is refused as the kernel refuses it: EINVAL, one line" \
	'! run jk -j k && [ "$(cat "$dir/jk.err")" = "$dir/s.yaml:1: events.0: perf_event_open: Invalid argument" ]'
check "-j k,any_call runs" 'run jka -e cycles -j k,any_call'
pcheck "-j k,any_call sets KERNEL and ANY_CALL" 'evlist jka | grep -q "branch_sample_type: KERNEL|ANY_CALL$"'
check "-- before the scenario is taken as perf record takes it" \
	'"$PMUSIM" run -o "$dir/dd.data" --map-dir "$dir" -- "$dir/s.yaml" >"$dir/dd.txt" 2>&1 && [ "$(field dd samples)" -gt 0 ]'
check "-C beyond the machine names the scenario's event" 'run bad2 -C 7; grep -q "s.yaml:.*events.0.*-C" "$dir/bad2.err"'
check "-m 3 is rounded up to 4 pages, as perf record does, naming -m" \
	'run m3 -m 3 && grep -q -- "^pmusim: run: warning: -m 3: .*power of two.*4$" "$dir/m3.err"'
"$PMUSIM" run "$dir/s.yaml" -o "$dir/no/such/dir/x.data" --map-dir "$dir" >"$dir/nodir.out" 2>"$dir/nodir.err"
check "an output that cannot be created: exit 1, one line naming it" \
	'[ $? = 1 ] && [ "$(wc -l <"$dir/nodir.err")" = 1 ] && grep -q "no/such/dir/x.data" "$dir/nodir.err"'
mkdir "$dir/maps"
"$PMUSIM" run "$dir/s.yaml" -o "$dir/no/such/dir/x.data" --map-dir "$dir/maps" >/dev/null 2>&1
check "and leaves no perf-PID.map behind" '[ -z "$(ls "$dir/maps")" ]'
"$PMUSIM" run "$dir/s.yaml" -o "$dir/x.data" --map-dir "$dir/no/such/dir" >/dev/null 2>"$dir/nomap.err"
check "a map directory that cannot be written: exit 1, one line, no perf.data" \
	'[ $? = 1 ] && [ "$(wc -l <"$dir/nomap.err")" = 1 ] && [ ! -e "$dir/x.data" ] && ! ls "$dir" | grep -q "^x.data.tmp"'
"$PMUSIM" run >/dev/null 2>"$dir/noarg.err"
check "no scenario: exit 2, one line" '[ $? = 2 ] && [ "$(wc -l <"$dir/noarg.err")" = 1 ]'
# pmusim stitch: the same rules; --help goes to stdout
stitch_bad() { # DESCRIPTION ARGS...
	local what=$1
	shift
	"$PMUSIM" stitch "$@" >"$dir/sb.out" 2>"$dir/sb.err"
	local rc=$?
	check "stitch, $what: exit 2, one line" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/sb.err")" = 1 ] && [ ! -s "$dir/sb.out" ]'
}
stitch_bad "an unknown option" --bogus "$dir/x.data"
stitch_bad "no file"
stitch_bad "two files" "$dir/a" "$dir/b"
stitch_bad "--map-dir without its directory" --map-dir
"$PMUSIM" stitch --help >"$dir/sh.out" 2>"$dir/sh.err"
check "stitch --help: usage on stdout, exit 0" '[ $? = 0 ] && grep -q "^usage: pmusim stitch" "$dir/sh.out" && [ ! -s "$dir/sh.err" ]'
"$PMUSIM" bogus >/dev/null 2>"$dir/nocmd.err"
check "an unknown command: exit 2, one line" '[ $? = 2 ] && [ "$(wc -l <"$dir/nocmd.err")" = 1 ]'
"$PMUSIM" version --bogus >/dev/null 2>"$dir/ver.err"
check "version refuses arguments with one line" '[ $? = 2 ] && [ "$(wc -l <"$dir/ver.err")" = 1 ]'

# --help everywhere, on stdout, exit 0
check "pmusim --help lists the commands" \
	'"$PMUSIM" --help >"$dir/h.txt" && grep -q "^  run " "$dir/h.txt" && grep -q "^  stitch " "$dir/h.txt"'
for c in run ringbuf version; do
	check "pmusim $c --help" '"$PMUSIM" $c --help 2>/dev/null | grep -q "^usage: pmusim $c"'
done
check "pmusim stitch --help" '"$PMUSIM" stitch --help 2>&1 | grep -q "^usage: pmusim stitch"'
echo "1..$n"
