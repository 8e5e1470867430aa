#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record -- PROG: real programs (built here from
# tests/cmd/record_progs/, and gzip) run under pmusim's Valgrind tool and
# retired on the model PMU. For each guest, perf script's LBR call chains
# are held against the true stacks pmusim writes beside the perf.data
# (record_check.py): every sample judged by perf's frames as pmusim
# judged it, and the frames the guest is about (recursion deeper than
# the LBR, longjmp, a signal handler, two threads, a tail call, a
# dlopen'd library, a C++ exception) true to the program; a child
# process and the image its execve ran, a thread's wait for another. Then the same
# bytes twice, every CPU model with each LBR mode, perf report, annotate
# and brstackinsn against the real files, where the output goes (perf's
# pipe mode read by perf report and perf script, a FIFO, /dev/null,
# --truth), perf's habits (-g, cycles without :u, events without
# samples, LBR call stacks with -j, throttling and --max-sample-rate, the
# summary's depths and comm column), and bad input.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
. "$PMUSIM_SRCTREE/tests/lib/record_lib.sh"
progs=$PMUSIM_SRCTREE/tests/cmd/record_progs
# record's stream directories go here: none may be left behind
export TMPDIR=$dir/tmp
mkdir "$TMPDIR"
check_py=$PMUSIM_SRCTREE/tests/cmd/record_check.py

# Each run is a Valgrind run (~45 s in all): the check matrix runs this in
# its two extremes, defconfig and allnoconfig; make test runs it anywhere.
record_test_needs "${LABEL:-}" valgrind gcc g++ perf python3 nm readelf
gcc -O2 -g -fno-inline -pthread -o "$dir/guest" "$progs/guest.c" -ldl &&
	gcc -O2 -g -shared -fPIC -o "$dir/libguest.so" "$progs/lib.c" &&
	g++ -O2 -g -o "$dir/exc" "$progs/exc.cc" ||
	{ echo "Bail out! cannot build the guests"; exit 1; }

# record NAME ARGS...: pmusim record into $dir/NAME.data, summary in $dir/NAME.err
record() {
	local name=$1
	shift
	(cd "$dir" && "$PMUSIM" record -o "$dir/$name.data" "$@" >"$dir/$name.out" 2>"$dir/$name.err")
}

# checks NAME MODE: record_check.py's lines as TAP lines
checks() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok "*) ok "$1: ${line#ok }" ;;
		"not ok "*) nok "$1: ${line#not ok }" ;;
		"# "*) echo "$line" ;;
		esac
	done < <(python3 "$check_py" "$dir/$1.data" "$2" 2>&1)
}

for mode in deep longjmp signal threads serial tail; do
	if record $mode --call-graph lbr -c 20011 -- "$dir/guest" $mode; then
		ok "$mode: recorded ($(sed -n 1p "$dir/$mode.err"))"
		checks $mode $mode
	else
		nok "$mode: pmusim record failed: $(head -1 "$dir/$mode.err")"
	fi
done
if record dlopen --call-graph lbr -c 20011 -- "$dir/guest" dlopen "$dir/libguest.so"; then
	checks dlopen dlopen
else
	nok "dlopen: pmusim record failed: $(head -1 "$dir/dlopen.err")"
fi
# processes: the child under its own pid, execve's image as the new comm and files
cp "$dir/guest" "$dir/execd"
if record fork --call-graph lbr -c 20011 -- "$dir/guest" fork "$dir/execd"; then
	check "fork: the summary counts the child and its execve" \
		"grep -q '1 child process, 1 execve followed' '$dir/fork.err'"
	checks fork fork
else
	nok "fork: pmusim record failed: $(head -1 "$dir/fork.err")"
fi
record fork2 --call-graph lbr -c 20011 -- "$dir/guest" fork "$dir/execd"
check "fork twice: the same perf.data bytes" "cmp -s '$dir/fork.data' '$dir/fork2.data'"
# a thread waits for another: its code after the wait comes after what it waited for
if record handoff --call-graph lbr -c 20011 -- "$dir/guest" handoff; then
	checks handoff handoff
else
	nok "handoff: pmusim record failed: $(head -1 "$dir/handoff.err")"
fi
if record exc --call-graph lbr -c 20011 -- "$dir/exc"; then
	checks exc exc
else
	nok "exception: pmusim record failed: $(head -1 "$dir/exc.err")"
fi

# the summary's judgement is the truth file's, thread by thread
check "threads: the summary has a line per thread that was sampled" \
	"[ \$(grep -cE '^ +100[0-9] ' '$dir/threads.err') -eq 3 ]"
# The second thread gets the first one's Valgrind slot: still a thread of
# its own, its instructions counted (the same work as the threads guest's,
# give or take the waits: within 5%)
insns() { awk '/^  instructions /{sub(/,$/, "", $2); print $2}' "$1"; }
within5() { [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ $(($1 * 100)) -gt $(($2 * 95)) ] && [ $(($1 * 100)) -lt $(($2 * 105)) ]; }
check "serial: three threads, and every instruction of the second one counted ($(insns "$dir/serial.err") against $(insns "$dir/threads.err"))" \
	"grep -q '3 threads on' '$dir/serial.err' && within5 \$(insns '$dir/serial.err') \$(insns '$dir/threads.err')"
if grep -qx CONFIG_LBR_STITCH=y "$PMUSIM_OBJTREE/.config"; then
	check "deep: the summary counts the stitched stacks the truth file judged whole" \
		"[ \$(awk '/^ +1000 /{print \$8}' '$dir/deep.err') -eq \$(awk '\$4==\"whole\"' '$dir/deep.data.truth' | wc -l) ]"
else	# the raw LBR stacks' column (lbr-whole), and a line saying stitching is off
	check "deep: the summary counts the raw stacks the truth file judged whole, and says stitching is off" \
		"[ \$(awk '/^ +1000 /{print \$6}' '$dir/deep.err') -eq \$(awk '\$3==\"whole\"' '$dir/deep.data.truth' | wc -l) ] &&
		 grep -q 'stitching off (this build has no CONFIG_LBR_STITCH)' '$dir/deep.err'"
fi

# the same program, input and options: the same bytes
record again --json="$dir/again.json" --call-graph lbr -c 20011 -- "$dir/guest" deep
check "deep twice (once with --json): the same perf.data bytes" "cmp -s '$dir/deep.data' '$dir/again.data'"
check "deep twice: the same truth" "cmp -s '$dir/deep.data.truth' '$dir/again.data.truth'"
# (not threads: the host decides where Valgrind switches between them and
# which thread a lock goes to first, so their streams differ run to run)

# every CPU model, each LBR mode it has: samples with branch stacks, judged alike
for cpu in core2 atom nehalem haswell skylake icelake sapphirerapids; do
	for opt in "-b" "-j any_call,u" "--call-graph lbr"; do
		name=m-$cpu-${opt// /}
		name=${name//,/}
		if ! record "$name" --cpu $cpu $opt -c 20011 -- "$dir/guest" tail; then
			if [ "$opt" = "--call-graph lbr" ] &&
			   grep -q "has no LBR call-stack mode" "$dir/$name.err" &&
			   [ "$(wc -l <"$dir/$name.err")" -eq 1 ] && [ ! -e "$dir/$name.data" ]; then
				ok "$cpu $opt: refused in one line, as the CPU has no call-stack mode"
			else
				nok "$cpu $opt: $(head -1 "$dir/$name.err")"
			fi
			continue
		fi
		nb=$(perf script -i "$dir/$name.data" -F ip,brstack 2>/dev/null | awk 'NF > 1' | wc -l)
		if [ "$opt" = "-j any_call,u" ]; then
			# calls only: every entry goes to a function's first byte. Core 2 has
			# 4 LBRs and no LBR_SELECT: the driver filters the last 4 branches in
			# software, and the spin loop's are seldom calls, so few samples keep one
			bad=$(perf script -i "$dir/$name.data" -F brstacksym 2>/dev/null | tr ' ' '\n' |
			      grep / | awk -F/ '$2 !~ /\+0x0$/' | wc -l)
			check "$cpu $opt: $nb samples with call entries, every one into a function's entry" \
				"[ $bad -eq 0 ] && { [ $cpu = core2 ] || [ $nb -gt 50 ]; }"
		elif [ "$opt" = "--call-graph lbr" ]; then
			checks "$name" tail
		else
			check "$cpu $opt: perf script shows branch stacks ($nb samples)" "[ $nb -gt 50 ]"
		fi
	done
done

# perf's tools against the real files
perf report -i "$dir/deep.data" --stdio --no-children 2>/dev/null >"$dir/report.txt"
check "perf report: the guest's own symbols, from its ELF file" \
	"grep -qE '[0-9.]+%.* guest +\\[\\.\\] spin' '$dir/report.txt'"
perf annotate -i "$dir/deep.data" --stdio spin 2>/dev/null >"$dir/annotate.txt"
check "perf annotate: spin's source and instructions" \
	"grep -q 'sink += i' '$dir/annotate.txt' && grep -qE '^ +[0-9.]+ +: +[0-9a-f]+: +(add|mov)' '$dir/annotate.txt'"
record brstack -b -c 20011 -- "$dir/guest" tail
perf script -i "$dir/brstack.data" -F +brstackinsn 2>/dev/null >"$dir/insn.txt"
check "perf script -F +brstackinsn: the instructions between branches, read from the files" \
	"grep -qE '^\\s+[0-9a-f]+\\s+insn: ' '$dir/insn.txt' && grep -q 'spin+' '$dir/insn.txt'"
check "perf buildid-list: the guest's build-id, as its file has it" \
	"perf buildid-list -i '$dir/deep.data' 2>/dev/null | grep -q \"\$(readelf -n '$dir/guest' | awk '/Build ID/{print \$3}') .*guest\$\""

# a real Debian program on a fixed input
seq 1 30000 >"$dir/input.txt"
if record gzip --call-graph lbr -c 20011 -- gzip -c -9 "$dir/input.txt"; then
	check "gzip: exited with status 0, one thread" \
		"grep -q 'exited with status 0; 1 thread' '$dir/gzip.err'"
	check "gzip: the program's own output is untouched" \
		"gzip -dc <'$dir/gzip.out' | cmp -s - '$dir/input.txt'"
	checks gzip any
	perf report -i "$dir/gzip.data" --stdio --sort dso 2>/dev/null >"$dir/gzip.report"
	check "gzip: perf report charges its samples to /usr/bin/gzip" "grep -q 'gzip' '$dir/gzip.report'"
else
	nok "gzip: pmusim record failed: $(head -1 "$dir/gzip.err")"
fi

# --json: run's keys where they apply, how the program ended, each task's process
# json_check FILE PYTHON-EXPR: the expression holds for the summary j, the
# last thing in FILE (after what the program wrote, on stderr)
json_check() {
	python3 -c "import json,sys; t=open(sys.argv[1]).read(); j=json.loads(t[t.rfind('\n{') + 1:]); sys.exit(0 if ($2) else 1)" "$1" 2>/dev/null
}
check "--json=FILE: the object's closing brace is the file's last line" \
	"[ \"\$(tail -n 1 '$dir/again.json')\" = '}' ]"
check "--json=FILE: deep's summary, in run's keys, and how it ended" \
	"json_check '$dir/again.json' 'j[\"end\"][\"how\"] == \"exited\" and j[\"end\"][\"status\"] == 0 and j[\"processes\"] == 1 and j[\"samples\"] > 0 and j[\"call_stack_depth\"][\"tasks\"][0][\"task\"] == \"guest\"'"
stitch=False
grep -qx CONFIG_LBR_STITCH=y "$PMUSIM_OBJTREE/.config" && stitch=True
check "--json=FILE: lbr_stitch is $stitch (CONFIG_LBR_STITCH), and stitched figures with it only" \
	"json_check '$dir/again.json' 'j[\"call_stack_depth\"][\"lbr_stitch\"] is $stitch and (\"stitched_max\" in j[\"call_stack_depth\"]) is $stitch and (\"stitched_whole\" in j[\"call_stack_depth\"][\"tasks\"][0]) is $stitch'"
record forkjson --json="$dir/fork.json" --call-graph lbr -c 20011 -- "$dir/guest" fork "$dir/execd"
check "--json: a child and its execve, each task with its pid and last comm" \
	"json_check '$dir/fork.json' 'j[\"processes\"] == 2 and j[\"execs\"] == 1 and j[\"threads\"] == 2 and sorted(t[\"task\"] for t in j[\"call_stack_depth\"][\"tasks\"]) == [\"execd\", \"guest\"] and len({t[\"pid\"] for t in j[\"call_stack_depth\"][\"tasks\"]}) == 2'"
check "--json=FILE: nothing on stderr but what the program wrote" "[ ! -s '$dir/forkjson.err' ]"

# exit status: the program's, as perf record's, with the recording complete
record status --call-graph lbr -c 20011 -- "$dir/guest" status
rc=$?
check "status: record exits with the program's status 7 (got $rc)" "[ $rc -eq 7 ]"
check "status: the summary says so, the perf.data is whole" \
	"grep -q 'exited with status 7' '$dir/status.err' && $PMUSIM dump '$dir/status.data' >/dev/null"

# a guest killed by a signal: the file up to there, and the summary says so
record killed --call-graph lbr -c 20011 -- "$dir/guest" killed
rc=$?
check "killed: record exits 128 + 11, as a shell shows a SIGSEGV (got $rc)" "[ $rc -eq 139 ]"
check "killed: the summary says signal 11 ended it" \
	"grep -q 'killed by signal 11' '$dir/killed.err'"
check "killed: perf.data is whole (perf script reads every sample)" \
	"[ \$(perf script -i '$dir/killed.data' -F ip 2>/dev/null | grep -c .) -gt 0 ] && $PMUSIM dump '$dir/killed.data' >/dev/null"
checks killed any
record killedjson --json --call-graph lbr -c 20011 -- "$dir/guest" killed
check "killed --json: the JSON on stderr says signal 11 and exit status 139" \
	"json_check '$dir/killedjson.err' 'j[\"end\"] == dict(how=\"killed\", signal=11, text=j[\"end\"][\"text\"], exit_status=139)'"


# -o -: perf's pipe mode, what perf report -i - and perf script -i - read
(cd "$dir" && "$PMUSIM" record -o - --call-graph lbr -c 20011 -- "$dir/guest" deep \
	>"$dir/pipe.stream" 2>"$dir/pipe.err")
rc=$?
check "-o -: exit 0, the stream starts with perf's pipe header (PERFILE2, size 16)" \
	"[ $rc -eq 0 ] && [ \"\$(head -c 16 '$dir/pipe.stream' | od -An -tx1 | tr -d ' \n')\" = 50455246494c45321000000000000000 ]"
perf_samples tid,ip,sym,period - <"$dir/pipe.stream" >"$dir/pipe.script"
perf_samples tid,ip,sym,period "$dir/deep.data" >"$dir/deep.script"
check "-o -: perf script -i - reads the same $(wc -l <"$dir/deep.script") samples as from the file" \
	"[ -s '$dir/deep.script' ] && cmp -s '$dir/pipe.script' '$dir/deep.script'"
"$PMUSIM" record -o - --call-graph lbr -c 20011 -- "$dir/guest" deep 2>/dev/null |
	perf report -i - --stdio --no-children 2>/dev/null >"$dir/pipe.report"
check "-o - | perf report -i -: the guest's symbols and call chains" \
	"grep -qE '[0-9.]+%.* guest +\\[\\.\\] spin' '$dir/pipe.report' && grep -q -- '---' '$dir/pipe.report'"
check "-o -: no truth file and no file named - (the summary says where the data went)" \
	"[ ! -e '$dir/-' ] && [ ! -e '$dir/-.truth' ] && grep -q 'perf.data on standard output (pipe mode)' '$dir/pipe.err' && ! grep -q truth '$dir/pipe.err'"
# a reader that goes away: the recording fails in one line, nothing left in TMPDIR
(cd "$dir" && "$PMUSIM" record -o - --call-graph lbr -c 20011 -- "$dir/guest" deep \
	2>"$dir/epipe.err" | head -c 100 >/dev/null; exit "${PIPESTATUS[0]}")
rc=$?
check "-o - | head -c 100: exit 1 (not SIGPIPE's 141), one line saying the pipe broke" \
	"[ $rc -eq 1 ] && [ \"\$(cat '$dir/epipe.err')\" = 'standard output (-o -): write failed: Broken pipe' ] &&
	 [ -z \"\$(ls -A '$TMPDIR')\" ]"
# (the marker is not in the command line, which the stream's CMDLINE carries)
(cd "$dir" && "$PMUSIM" record -o - -- sh -c 'echo pipe$((40 + 2))' >"$dir/echo.stream" 2>"$dir/echo.err")
check "-o -: the program's stdout goes to stderr, as under perf record -o -" \
	"grep -qx pipe42 '$dir/echo.err' && ! grep -q pipe42 '$dir/echo.stream' && perf script -i - <'$dir/echo.stream' >/dev/null 2>&1"
# a FIFO and a device: written in place, no FILE.truth or FILE.truth.XXXXXX beside them
mkfifo "$dir/fifo"
cat "$dir/fifo" >"$dir/fifo.out" &
reader=$!
(cd "$dir" && "$PMUSIM" record -o "$dir/fifo" -c 20011 -- "$dir/guest" tail 2>"$dir/fifo.err")
wait $reader
check "-o FIFO: perf script reads what came through it, and no $dir/fifo.truth*" \
	"[ \$(perf script -i '$dir/fifo.out' 2>/dev/null | wc -l) -gt 0 ] && [ -z \"\$(ls '$dir' | grep '^fifo\\.truth')\" ]"
touch "$dir/stamp"
(cd "$dir" && "$PMUSIM" record -o /dev/null -c 20011 -- "$dir/guest" tail 2>"$dir/null.err")
check "-o /dev/null: no /dev/null.truth* made, and the summary names no truth" \
	"[ -z \"\$(find /dev -maxdepth 1 -name 'null.truth*' -newer '$dir/stamp')\" ] && ! grep -q truth '$dir/null.err'"
# --truth FILE: there and not beside; where it goes is not what was recorded
record truthed --truth "$dir/t.truth" --call-graph lbr -c 20011 -- "$dir/guest" deep
check "--truth FILE: the true stacks there, none beside the perf.data, the same perf.data bytes" \
	"head -1 '$dir/t.truth' | grep -q '^# pmusim truth' && cmp -s '$dir/t.truth' '$dir/deep.data.truth' &&
	 [ ! -e '$dir/truthed.data.truth' ] && cmp -s '$dir/truthed.data' '$dir/deep.data'"

# perf's habits
record g -g -c 20011 -- "$dir/guest" deep
check "-g: one line saying it records LBR call stacks, and it does" \
	"[ \"\$(grep -c 'warning: -g: frame-pointer call chains are not simulated: recording LBR call stacks (--call-graph lbr)' '$dir/g.err')\" = 1 ] &&
	 perf evlist -v -i '$dir/g.data' 2>/dev/null | grep -q 'CALLCHAIN'"
record cyc -e cycles -c 20011 -- "$dir/guest" tail
perf report -i "$dir/cyc.data" --stdio >"$dir/cyc.report" 2>&1
check "-e cycles: opened as cycles:u (exclude_kernel), perf report without its kernel-maps warning" \
	"grep -q \"of event 'cycles:u'\" '$dir/cyc.report' && ! grep -qi 'restricted' '$dir/cyc.report' &&
	 perf evlist -v -i '$dir/cyc.data' 2>/dev/null | grep -q 'exclude_kernel: 1'"
record kern -e cycles:k --call-graph lbr -c 20011 -- "$dir/guest" tail
check "-e cycles:k: no samples, and one line saying it counts the kernel only" \
	"grep -q '^  samples 0,' '$dir/kern.err' && [ \"\$(grep -c 'warning: cycles:k counts the kernel only' '$dir/kern.err')\" = 1 ]"
check "-e cycles:k --call-graph lbr: perf's line that LBR call stacks are the user's, and none asked for" \
	"grep -q 'warning: cycles:k: LBR callstack option is only available to get user callchain information' '$dir/kern.err' &&
	 ! perf evlist -v -i '$dir/kern.data' 2>/dev/null | grep -q 'CALLCHAIN'"
record raw -e r1234,instructions -c 20011 -- "$dir/guest" tail
check "-e r1234 (not counted by the model): one line saying it counted nothing; instructions sampled" \
	"grep -q 'warning: r1234:u counted nothing' '$dir/raw.err' && [ \$(perf script -i '$dir/raw.data' 2>/dev/null | grep -c instructions) -gt 0 ]"
record big -c 1000000000 -- "$dir/guest" tail
check "-c beyond what the program runs: one line saying what it counted against the period" \
	"grep -qE 'warning: cycles:u counted [0-9]+, less than its period 1000000000: no samples' '$dir/big.err'"
record lbrj -j any,u --call-graph lbr -c 20011 -- "$dir/guest" tail
check "-j any,u with --call-graph lbr: perf's one line, the branch stack kept, no call chains" \
	"[ \"\$(grep -c 'warning: Cannot use LBR callstack with branch stack' '$dir/lbrj.err')\" = 1 ] &&
	 perf evlist -v -i '$dir/lbrj.data' 2>/dev/null | grep -q 'BRANCH_STACK' &&
	 ! perf evlist -v -i '$dir/lbrj.data' 2>/dev/null | grep -q 'CALLCHAIN'"
# throttling: every taken branch a PMI at -c 1, more than a tick allows
record thr -c 1 -- "$dir/guest" tail
record unthr -c 1 --max-sample-rate 2000000000 -- "$dir/guest" tail
samples() { awk '/^  samples /{sub(/,$/, "", $2); print $2}' "$1"; }
check "-c 1: the summary counts throttles and names the limit and --max-sample-rate" \
	"grep -qE '^  throttles [1-9][0-9]*, unthrottles [0-9]+: at most 100 samples a tick on a CPU \\(perf_event_max_sample_rate 100000 Hz, HZ 1000\\); --max-sample-rate raises it' '$dir/thr.err'"
check "-c 1 --max-sample-rate 2000000000: no throttles, more PMIs ($(samples "$dir/thr.err") samples before)" \
	"grep -q '^  throttles 0, unthrottles 0\$' '$dir/unthr.err' &&
	 [ \$(awk '/PMIs/{print \$NF}' '$dir/unthr.err') -gt \$(awk '/PMIs/{print \$NF}' '$dir/thr.err') ]"
# the summary's depths: "true max" is at the samples in the header as in the table
hdr=$(sed -n 's/.*at the samples true max \([0-9]*\),.*/\1/p' "$dir/threads.err")
tbl=$(awk '/^ +100[0-9] /{if ($3 > m) m = $3} END {print m + 0}' "$dir/threads.err")
deepest=$(sed -n 's/.*call-stack depth (frames): deepest \([0-9]*\);.*/\1/p' "$dir/threads.err")
check "summary: the header's true max ($hdr) is the table's deepest true-max ($tbl)" \
	"[ -n '$hdr' ] && [ '$hdr' = '$tbl' ] && grep -q 'true-max' '$dir/threads.err'"
check "summary: the program's deepest stack ($deepest frames) is no shallower than any at a sample" \
	"[ -n '$deepest' ] && [ '$deepest' -ge '$hdr' ]"
check "summary: each thread's comm, last in its row" \
	"[ \$(awk '/^ +100[0-9] /' '$dir/threads.err' | wc -l) -gt 0 ] && ! awk '/^ +100[0-9] / && \$NF != \"guest\"' '$dir/threads.err' | grep -q ."

# bad input: one line, exit 2, no output file
bad() {
	local what=$1
	shift
	(cd "$dir" && "$PMUSIM" record -o "$dir/bad.data" "$@" >"$dir/bad.out" 2>"$dir/bad.err")
	local rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$dir/bad.err")" -eq 1 ] && [ ! -e "$dir/bad.data" ] &&
	   [ ! -e "$dir/bad.data.truth" ]; then
		ok "$what: one line, exit 2, no file"
	else
		nok "$what: exit $rc: $(cat "$dir/bad.err")"
	fi
	rm -f "$dir/bad.data" "$dir/bad.data.truth"
}
bad "a program that does not exist" -- "$dir/no-such-program"
grep -q "no-such-program: No such file" "$dir/bad.err" && ok "... named, with the reason" || nok "... $(cat "$dir/bad.err")"
printf 'not a program\n' >"$dir/text"
chmod +x "$dir/text"
bad "a file that cannot run" -- "$dir/text"
bad "no program" --call-graph lbr
bad "--call-graph fp" --call-graph fp -- "$dir/guest" tail
bad "an unknown CPU model" --cpu pentium -- "$dir/guest" tail
bad "--json=FILE in a directory that is not there" --json="$dir/no/such/dir.json" -- "$dir/guest" tail
mkdir "$dir/bin"
(cd "$dir" && PATH=$dir/bin "$PMUSIM" record -o "$dir/bad.data" -- "$dir/guest" tail >/dev/null 2>"$dir/bad.err")
rc=$?
check "valgrind missing: one line naming the package, exit 2, no file" \
	"[ $rc -eq 2 ] && [ \$(wc -l <'$dir/bad.err') -eq 1 ] && grep -q \"valgrind package\" '$dir/bad.err' && [ ! -e '$dir/bad.data' ]"
check "no stream directory is left behind" "[ -z \"\$(ls -A '$TMPDIR')\" ]"

echo "1..$n"
