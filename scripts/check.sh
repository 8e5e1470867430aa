#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: build and test defconfig, the v6.12 baseline, allnoconfig and
# fixed randconfig seeds, each out of tree under build/check-*/ with
# ASan+UBSan, then the configurations' sum on one line. A configuration
# fails when it does not configure or build, when its pmusim's features
# are not its .config's (scripts/check-build-config.sh), when a test fails
# and when its test runner does not report a count. Every step prints
# "# time: STEP W s (cpu C s)", its wall time and its processes' user+sys.
set -u
check_start=$EPOCHREALTIME
srctree=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
# every configuration is an O= build; a configuration in the source tree
# (make run before make check) is left as it is and never read: the
# object tree's generated headers come first (the Makefile, PMUSIM_OWN_BUILD)
export PMUSIM_OWN_BUILD=1
# not in /tmp: the test phases each see a /tmp of their own
mkdir -p "$srctree/build"
tally=$(mktemp "$srctree/build/.check-tally.XXXXXX")
extras=$(mktemp "$srctree/build/.check-extras.XXXXXX")
trap 'rm -f "$tally" "$extras" "$tally.times"' EXIT
status=0

# Each step's wall and CPU time (its processes' user+sys), so that CI
# output shows where make check's time goes.
timed() { # FILE CMD...: run CMD in a subshell, write "WALL CPU" seconds to FILE
	local file=$1 start=$EPOCHREALTIME rc
	shift
	( "$@"; rc=$?; times >"$file.times"; exit $rc )
	rc=$?
	awk -v s="$start" -v e="$EPOCHREALTIME" '{
		split($1, u, /[ms]/); split($2, y, /[ms]/); c += u[1] * 60 + u[2] + y[1] * 60 + y[2] }
		END { printf "%.0f %.0f\n", e - s, c }' "$file.times" >"$file"
	rm -f "$file.times"
	return $rc
}
secs() { # FILE: "W s (cpu C s)" from timed's FILE
	local w c
	read -r w c <"$1" 2>/dev/null || { echo "? s"; return; }
	echo "$w s (cpu $c s)"
}

# A configuration's tests are mostly one process at a time, so while they
# run the next configurations build, and the tests of two configurations
# may run at once (the first one's, which run every test, take longest).
# Each test phase gets a private /tmp (perf reads symbols only from
# /tmp/perf-PID.map and pmusim's PIDs are fixed: two configurations' runs
# must not answer for each other). Without mount namespaces (no
# CAP_SYS_ADMIN) the tests run in the foreground, one configuration after
# the other, as before. scripts/private-tmp.sh keeps a tree under /tmp
# visible there.
overlap=false
unshare -m "$srctree/scripts/private-tmp.sh" "$srctree" true 2>/dev/null && overlap=true
pending=() pending_pids=()	# the configurations whose tests run in the background, oldest first
# The first configuration that builds runs every test; the others run
# only those they can change (scripts/run-tests.sh, REFERENCE).
reference=""

# A configuration whose runner died or never started (no tally line)
# counts as failed, not as no tests.
tally_tests() { # LABEL RC
	local dir=$srctree/build/check-$1
	if [ -s "$dir/tally" ]; then
		cat "$dir/tally" >>"$tally"
	else
		echo "FAIL [$1] the test runner reported no count (exit $2)"
		echo "0 1 0" >>"$tally"
	fi
	[ "$2" = 0 ] || status=1
}

finish_oldest() { # the oldest background test run's report
	local label=${pending[0]} rc
	wait "${pending_pids[0]}"
	rc=$?
	pending=("${pending[@]:1}") pending_pids=("${pending_pids[@]:1}")
	cat "$srctree/build/check-$label/tests.log"
	echo "# time: $label tests $(secs "$srctree/build/check-$label/tests.time")"
	tally_tests "$label" "$rc"
}
finish_tests() { # [N]: until at most N (default 0) test runs are pending
	while [ ${#pending[@]} -gt "${1:-0}" ]; do finish_oldest; done
}

# pmusim, which some shell tests start hundreds of times (405 in
# tests/replay/test_ringbuf_libperf.sh), links GCC's ASan and UBSan
# runtimes in (-static-libasan -static-libubsan; the test programs, each
# started once, keep the shared ones, whose link is quicker). With the
# shared runtimes every start also loads libubsan and the libstdc++ it
# needs, and LeakSanitizer's exit scan reads libubsan's 6 MB of globals (a
# runtime of its own besides libasan's): 18% of the CPU of
# test_ringbuf_libperf.sh (60.5 s against 49.4 s for 151 cases). The
# reports are the same, and leaks are found as before: the runtimes'
# malloc is exported, so the shared libraries' allocations are seen too.
san_ld=()
if "${CC:-gcc}" -v 2>&1 | grep -q '^gcc version'; then
	san_ld=(PMUSIM_LDFLAGS="-static-libasan -static-libubsan")
fi

run_config() { # LABEL TARGET [SEED]
	local label=$1 target=$2 seed=${3:-} dir=$srctree/build/check-$1 ref=$reference
	mkdir -p "$dir"
	echo "== $label" >"$dir/head.log"
	if ! KCONFIG_SEED=$seed make -s --no-print-directory -C "$srctree" O="$dir" "$target" >"$dir/config.log" 2>&1; then
		finish_tests; cat "$dir/head.log" "$dir/config.log"
		echo "FAIL [$label] configuration"; echo "0 1 0" >>"$tally"; status=1; return
	fi
	if ! timed "$dir/build.time" make -s --no-print-directory -C "$srctree" O="$dir" \
		SANITIZE=address,undefined "${san_ld[@]}" -j"$jobs" all >"$dir/build.log" 2>&1; then
		finish_tests; cat "$dir/head.log"; tail -30 "$dir/build.log"
		echo "FAIL [$label] build"; echo "0 1 0" >>"$tally"; status=1; return
	fi
	# the build proves it is this configuration: its features are the .config's
	if ! "$srctree/scripts/check-build-config.sh" "$dir" >"$dir/identity.log" 2>&1; then
		finish_tests; cat "$dir/head.log" "$dir/identity.log"
		echo "FAIL [$label] pmusim version does not match .config"; echo "0 1 0" >>"$tally"; status=1; return
	fi
	echo "# time: $label build $(secs "$dir/build.time")" >>"$dir/head.log"
	[ -n "$reference" ] || reference=$dir
	finish_tests 1
	rm -f "$dir/tally"
	if $overlap; then
		cp "$dir/head.log" "$dir/tests.log"
		timed "$dir/tests.time" env LABEL="$label" TALLY="$dir/tally" REFERENCE="$ref" \
			unshare -m "$srctree/scripts/private-tmp.sh" "$srctree" \
			"$srctree/scripts/run-tests.sh" "$dir" >>"$dir/tests.log" 2>&1 &
		pending+=("$label") pending_pids+=($!)
	else
		cat "$dir/head.log"
		timed "$dir/tests.time" env LABEL="$label" TALLY="$dir/tally" REFERENCE="$ref" \
			"$srctree/scripts/run-tests.sh" "$dir"
		rc=$?
		echo "# time: $label tests $(secs "$dir/tests.time")"
		tally_tests "$label" $rc
	fi
}

# The extra checks, two at a time: most of them spend long stretches in
# one process (a fuzzer, callgrind, a replay loop), which leaves a core
# idle. Each has build directories of its own; their reports come in
# order, after the configurations'. With private /tmps they start once the
# first configuration is built, beside its tests and the other builds;
# without, after the last configuration's tests.
xdir=$srctree/build/check-extras
run_extras() {
	local started=0 xpids=() extra x pid
	for extra in "$srctree"/scripts/check.d/*.sh; do
		[ -e "$extra" ] || continue
		# (each writes its .rc when done)
		while [ $((started - $(find "$xdir" -name '*.rc' | wc -l))) -ge 2 ]; do sleep 1; done
		x=$xdir/$(basename "$extra" .sh)
		{ timed "$x.time" bash "$extra" >"$x.out" 2>&1; echo $? >"$x.rc"; } </dev/null &
		xpids+=($!) started=$((started + 1))
	done
	for pid in "${xpids[@]}"; do wait "$pid"; done
}
rm -rf "$xdir" && mkdir -p "$xdir"

run_config defconfig defconfig
extras_pid=""
if $overlap; then
	run_extras &
	extras_pid=$!
fi
run_config v6.12 v6.12_defconfig
run_config allnoconfig allnoconfig
for seed in "$@"; do
	run_config "randconfig-$seed" randconfig "$seed"
done
finish_tests
if [ -n "$extras_pid" ]; then wait "$extras_pid"; else run_extras; fi
for extra in "$srctree"/scripts/check.d/*.sh; do
	[ -e "$extra" ] || continue
	name=$(basename "$extra" .sh) x=$xdir/$(basename "$extra" .sh)
	rc=$(cat "$x.rc" 2>/dev/null || echo 1)
	echo "== $name" >>"$extras"
	grep -vE '^ok [0-9]+' "$x.out" >>"$extras"
	echo "# time: $name $(secs "$x.time")" >>"$extras"
	p=$(grep -cE '^ok [0-9]+' "$x.out"); f=$(grep -cE '^not ok [0-9]+' "$x.out")
	[ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
	echo "$p $f 0" >>"$tally"; [ "$f" = 0 ] || status=1
done
cat "$extras"

times >"$tally.times"
awk -v s="$check_start" -v e="$EPOCHREALTIME" '{
	split($1, u, /[ms]/); split($2, y, /[ms]/); c += u[1] * 60 + u[2] + y[1] * 60 + y[2] }
	END { printf "# time: make check %.0f s (cpu %.0f s)\n", e - s, c }' "$tally.times"
awk '{p+=$1; f+=$2; s+=$3} END {printf "%d passed, %d failed, %d skipped\n", p, f, s}' "$tally"
exit $status
