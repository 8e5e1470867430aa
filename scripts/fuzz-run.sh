#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make fuzz: run one harness for TIME seconds on JOBS cores and print one
# summary line. Called by fuzz/Makefile.fuzz after the build. Exits 1 when
# the campaign found a crash (each input listed, the count on stderr).
#
#   fuzz-run.sh NAME TIME JOBS      (ENGINE=afl|libfuzzer, CMPLOG=0|1)
#
# AFL++: a main instance (-M) and JOBS-1 secondaries (-S), the first
# secondary (or the main one when JOBS=1) with the CMPLOG build (-c).
# libFuzzer: -jobs=JOBS -workers=JOBS with -max_total_time=TIME.
# Output (queue, crashes, logs) under build/fuzz/NAME/.
set -u
name=$1 time=$2 jobs=$3
engine=${ENGINE:-afl} cmplog=${CMPLOG:-1}
srctree=$(cd "$(dirname "$0")/.." && pwd -P)	# as /proc/PID/exe names it
bin=$srctree/build/fuzz
out=$bin/$name
corpus=$srctree/fuzz/corpus/$name
[ -d "$corpus" ] || corpus=$srctree/fuzz/bench/corpus/$name
dict=$srctree/fuzz/dict/$name.dict
case $time in ''|*[!0-9]*) echo "pmusim: TIME=$time is not a number of seconds" >&2; exit 2 ;; esac
case $jobs in ''|*[!0-9]*|0) echo "pmusim: JOBS=$jobs is not a positive number" >&2; exit 2 ;; esac
[ -d "$corpus" ] || { echo "pmusim: no seed corpus fuzz/corpus/$name" >&2; exit 2; }
mkdir -p "$out"

sum_stat() { # FIELD: sum over the instances' fuzzer_stats
	cat "$out"/*/fuzzer_stats 2>/dev/null | awk -v k="$1" '$1 == k { s += $3 } END { printf "%d", s }'
}
max_stat() {
	cat "$out"/*/fuzzer_stats 2>/dev/null | awk -v k="$1" '$1 == k && $3 > m { m = $3 } END { printf "%d", m }'
}

if [ "$engine" = libfuzzer ]; then
	mkdir -p "$out/queue" "$out/crashes"
	dictarg=()
	[ -f "$dict" ] && dictarg=(-dict="$dict")
	log=$out/libfuzzer.log
	start=$(date +%s)
	(cd "$out/crashes" && "$bin/libfuzzer/fuzz_$name" "${dictarg[@]}" -max_total_time="$time" \
		-jobs="$jobs" -workers="$jobs" -print_final_stats=1 "$out/queue" "$corpus") >"$log" 2>&1
	secs=$(( $(date +%s) - start )); [ "$secs" -gt 0 ] || secs=1
	# one worker log per job when jobs > 1, else the one log
	execs=$(cat "$log" "$out"/crashes/fuzz-*.log 2>/dev/null | awk '/stat::number_of_executed_units/ { s += $2 } END { printf "%d", s }')
	paths=$(find "$out/queue" -type f | wc -l)
	crashes=$(find "$out/crashes" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \) | wc -l)
	echo "fuzz $name (libfuzzer): $execs execs, $((execs / secs)) execs/s, $paths paths, $crashes crashes ($time s, $jobs jobs; build/fuzz/$name)"
	[ "$crashes" = 0 ] && exit 0
	find "$out/crashes" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \) | sed 's/^/  crash: /'
	echo "pmusim: fuzz $name found $crashes crashes; the inputs are in build/fuzz/$name/crashes/" >&2
	exit 1
fi

# afl-fuzz refuses sanitizer options of the caller's (make test's, say)
# that would not abort on a finding: the caller's stay, AFL's come last
[ -z "${ASAN_OPTIONS:-}" ] || export ASAN_OPTIONS="$ASAN_OPTIONS:abort_on_error=1:symbolize=0"
[ -z "${UBSAN_OPTIONS:-}" ] || export UBSAN_OPTIONS="$UBSAN_OPTIONS:halt_on_error=1:abort_on_error=1:symbolize=0"
[ -z "${MSAN_OPTIONS:-}" ] || export MSAN_OPTIONS="$MSAN_OPTIONS:exit_code=86:symbolize=0"
export AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_NO_UI=1 AFL_AUTORESUME=1 AFL_FAST_CAL=1 AFL_CMPLOG_ONLY_NEW=1 AFL_SUPPRESS_AFL_WARNINGS=1
common=(-i "$corpus" -o "$out" -V "$time")
[ -f "$dict" ] && common+=(-x "$dict")
cmplog_arg=()
[ "$cmplog" = 1 ] && cmplog_arg=(-c "$bin/cmplog/fuzz_$name")

pids=()
if [ "$jobs" = 1 ]; then
	timeout $((time + 120)) afl-fuzz "${common[@]}" -M main "${cmplog_arg[@]}" -- "$bin/afl/fuzz_$name" \
		>"$out/main.log" 2>&1 &
	pids+=($!)
else
	timeout $((time + 120)) afl-fuzz "${common[@]}" -M main -- "$bin/afl/fuzz_$name" >"$out/main.log" 2>&1 &
	pids+=($!)
	for i in $(seq 1 $((jobs - 1))); do
		extra=()
		[ "$i" = 1 ] && extra=("${cmplog_arg[@]}")
		timeout $((time + 120)) afl-fuzz "${common[@]}" -S "s$i" "${extra[@]}" -- "$bin/afl/fuzz_$name" \
			>"$out/s$i.log" 2>&1 &
		pids+=($!)
	done
fi
status=0
for p in "${pids[@]}"; do
	wait "$p" || status=1
done
# afl-fuzz can leave a CMPLOG child behind, stopped, in a session of its
# own and holding the output directory open: the next campaign in this
# tree would fail with "Directory ... is in use". Nothing else runs these
# binaries while their campaign holds the directory.
for p in /proc/[0-9]*; do
	case $(readlink "$p/exe" 2>/dev/null) in
	"$bin/afl/fuzz_$name" | "$bin/cmplog/fuzz_$name") kill -KILL "${p#/proc/}" 2>/dev/null ;;
	esac
done
if [ ! -f "$out/main/fuzzer_stats" ]; then
	echo "pmusim: afl-fuzz did not start; the end of build/fuzz/$name/main.log:" >&2
	tail -15 "$out/main.log" >&2
	exit 1
fi
execs=$(sum_stat execs_done)
secs=$(max_stat run_time); [ "$secs" -gt 0 ] || secs=1
paths=$(sum_stat corpus_count)
crashes=$(sum_stat saved_crashes)
echo "fuzz $name (afl): $execs execs, $((execs / secs)) execs/s, $paths paths, $crashes crashes ($time s, $jobs jobs; build/fuzz/$name)"
[ "$status" = 0 ] || echo "pmusim: an afl-fuzz instance exited with an error; see build/fuzz/$name/*.log" >&2
if [ "$crashes" != 0 ]; then
	# a campaign that found crashes fails, so that scripts and CI see it
	find "$out"/*/crashes -type f -name 'id:*' | sed 's/^/  crash: /'
	echo "  replay one with: build/fuzz/replay/fuzz_$name FILE; keep it as fuzz/crashes/$name/NAME once fixed"
	echo "pmusim: fuzz $name found $crashes crashes; the inputs are in build/fuzz/$name/*/crashes/" >&2
	exit 1
fi
exit $status
