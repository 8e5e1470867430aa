#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Output is written safely. pmusim run -o PATH replaces PATH only when it
# is a regular file (or none), keeping the previous one as PATH.old; a
# device or a FIFO is written in place and stays what it was; a symlink
# is followed to its target. Two runs with the same -o each build their
# own temporary file. SIGINT or SIGTERM stop a run as they stop perf
# record: a complete file of what was recorded, one line, exit 128 +
# signal. Every command whose stdout cannot be written says so on one line
# and fails. Devices are made with mknod in the scratch directory (root
# only), never the host's /dev; /dev/full is only written to.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
have_perf=false
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 && have_perf=true
pcheck() { if $have_perf; then check "$@"; else skip "perf is not installed"; fi; }

cat >"$dir/s.yaml" <<'EOF'
seed: 3
duration: 4200000
machine: { cpu: skylake, cpus: 2, hz: 1000, timeslice: 2100000, quantum: 210000 }
tasks:
  - name: tchain
    workload: { kind: tchain, depth: 12, leaf_loops: 200, mid_loops: 20, outer_loops: 50 }
events:
  - event: cycles:u
    period: 40009
buffer: { pages: 16 }
consumer: { interval: 2100000 }
EOF
# a seed needs a scenario that can show it: task-ctx-data (every build has
# it), LBR call stacks
sed 's/^    period: 40009$/    period: 40009\n    call_graph: lbr/' "$dir/s.yaml" >"$dir/s-lbr.yaml"
mkdir "$dir/maps" "$dir/tmpdir"
stitch=n	# CONFIG_LBR_STITCH: pmusim stitch is there
grep -qx 'CONFIG_LBR_STITCH=y' "$PMUSIM_OBJTREE/.config" && stitch=y
export TMPDIR="$dir/tmpdir"	# where a file for a device or FIFO is built
run() { # OUTPUT [ARGS...]: run s.yaml into OUTPUT; stdout to $dir/out, stderr to $dir/err
	local out=$1
	shift
	"$PMUSIM" run "$dir/s.yaml" -o "$out" --map-dir "$dir/maps" --no-progress "$@" \
		>"$dir/out" 2>"$dir/err"
}
one_line() { [ "$(wc -l <"$dir/err")" = 1 ]; }
no_temp() { ! ls "$dir" | grep -q '\.tmp'; }

# perf.data's cmdline is the command as typed (less -o and the like): the
# runs compared with ref.data give no --seed either (the scenario's is 3)
run "$dir/ref.data" && run "$dir/ref2.data" --seed 4
check "two reference runs" '[ -s "$dir/ref.data" ] && [ -s "$dir/ref2.data" ] && ! cmp -s "$dir/ref.data" "$dir/ref2.data"'

# ---- a regular file: replaced, the previous one kept as NAME.old ----------
cp "$dir/ref2.data" "$dir/r.data"
check "a regular file is replaced" 'run "$dir/r.data" && cmp -s "$dir/r.data" "$dir/ref.data"'
check "the previous file is kept as NAME.old" 'cmp -s "$dir/r.data.old" "$dir/ref2.data"'
: >"$dir/empty.data"
check "an empty previous file is not kept (as perf)" 'run "$dir/empty.data" && [ ! -e "$dir/empty.data.old" ]'
check "no temporary file is left" 'no_temp'

# ---- devices: written in place, never replaced -----------------------------
if [ "$(id -u)" = 0 ] && mknod "$dir/null" c 1 3 2>/dev/null && mknod "$dir/full" c 1 7; then
	check "-o a character device (null) succeeds" 'run "$dir/null"'
	check "and the device node is still a character device" '[ -c "$dir/null" ] && [ ! -e "$dir/null.old" ]'
	run "$dir/full"
	check "-o a full device: exit 1, one line naming it and why" \
		'[ $? = 1 ] && one_line && grep -q "$dir/full: write failed: No space left on device" "$dir/err"'
	check "and the node is still a character device" '[ -c "$dir/full" ]'
	ln -s null "$dir/null-link"
	check "a symlink to a device: the device is written, link and node stay" \
		'run "$dir/null-link" && [ -L "$dir/null-link" ] && [ -c "$dir/null" ]'
else
	skip "not root: cannot mknod a device node"
	skip "not root: cannot mknod a device node"
	skip "not root: cannot mknod a device node"
	skip "not root: cannot mknod a device node"
	skip "not root: cannot mknod a device node"
fi
check "no temporary file is left in \$TMPDIR" '[ -z "$(ls "$dir/tmpdir" 2>/dev/null)" ]'

# ---- a FIFO: written in place, the reader gets the same bytes --------------
mkfifo "$dir/fifo"
timeout 60 cat "$dir/fifo" >"$dir/from-fifo" &	# a FIFO replaced would block it
reader=$!
run "$dir/fifo"
rc=$?
wait $reader
check "-o a FIFO succeeds and it is still a FIFO" '[ $rc = 0 ] && [ -p "$dir/fifo" ]'
check "the FIFO's reader gets the file a regular run writes" 'cmp -s "$dir/from-fifo" "$dir/ref.data"'
check "the file built aside in \$TMPDIR is gone" '[ -z "$(ls "$dir/tmpdir")" ]'
check "pmusim dump reads what came through the FIFO" '"$PMUSIM" dump "$dir/from-fifo" >/dev/null'

# ---- symlinks: followed to their target ----------------------------------
cp "$dir/ref2.data" "$dir/target.data"
ln -s target.data "$dir/link.data"
check "a symlink to a file: the target is replaced, the link stays a link" \
	'run "$dir/link.data" && [ -L "$dir/link.data" ] && cmp -s "$dir/target.data" "$dir/ref.data"'
check "the target's previous bytes are kept as TARGET.old" 'cmp -s "$dir/target.data.old" "$dir/ref2.data"'
mkdir "$dir/sub"
ln -s sub/new.data "$dir/dangling.data"
check "a dangling symlink: its target is created, the link stays" \
	'run "$dir/dangling.data" && [ -L "$dir/dangling.data" ] && cmp -s "$dir/sub/new.data" "$dir/ref.data"'
check "no temporary file is left" 'no_temp && [ -z "$(ls "$dir/sub" | grep -v "^new.data\(.debug\)\?$")" ]'

# ---- two runs with the same -o ------------------------------------------------
# The race is between one run's keep-old step and the other's rename, a
# window of microseconds: many rounds, so that a missing lock shows.
rounds=${PMUSIM_CONC_ROUNDS:-40}
for i in $(seq $rounds); do
	"$PMUSIM" run "$dir/s.yaml" -o "$dir/conc.data" --map-dir "$dir/maps" --no-progress \
		>/dev/null 2>"$dir/conc1.err" &
	p1=$!
	"$PMUSIM" run "$dir/s.yaml" -o "$dir/conc.data" --map-dir "$dir/maps" --no-progress --seed 4 \
		>/dev/null 2>"$dir/conc2.err" &
	p2=$!
	wait $p1; r1=$?
	wait $p2; r2=$?
	[ $r1 = 0 ] && [ $r2 = 0 ] || break
	# the two files are the two runs', whole, one as NAME, the other as NAME.old
	{ cmp -s "$dir/conc.data" "$dir/ref.data" && cmp -s "$dir/conc.data.old" "$dir/ref2.data"; } ||
	{ cmp -s "$dir/conc.data" "$dir/ref2.data" && cmp -s "$dir/conc.data.old" "$dir/ref.data"; } || break
	rm -f "$dir/conc.data" "$dir/conc.data.old"
done
check "two concurrent runs with the same -o: both succeed, each file whole ($rounds rounds)" '[ $i = $rounds ] && [ $r1 = 0 ] && [ $r2 = 0 ] && [ ! -e "$dir/conc.data" ]'
check "no temporary file is left" 'no_temp'

# ---- SIGINT, SIGTERM: a complete file of what was recorded ----------------
recording() { # NAME: wait (at most a minute) until NAME's temporary file holds samples
	local t
	for t in $(seq 1200); do
		[ "$(cat "$dir/$1".tmp.* 2>/dev/null | wc -c)" -gt 100000 ] && return
		sleep 0.05
	done
}
interrupt() { # NAME SIGNAL: a long run, stopped by SIGNAL once it has recorded samples
	local name=$1 sig=$2
	# timeout passes SIGNAL on; a run that would not stop is killed after 2 minutes
	timeout -k 5 120 "$PMUSIM" run "$dir/s.yaml" -o "$dir/$name.data" --map-dir "$dir/maps" \
		--no-progress --duration 100000000000 >"$dir/$name.out" 2>"$dir/$name.err" &
	pid=$!
	recording "$name.data"
	kill -s "$sig" $pid
	wait $pid
}
interrupt int INT
rc=$?
check "SIGINT: exit 130" '[ $rc = 130 ]'
check "SIGINT: one line saying so" \
	'[ "$(wc -l <"$dir/int.err")" = 1 ] && grep -q "^pmusim: run: stopped by SIGINT after [0-9]* of 100000000000 cycles; $dir/int.data holds what was recorded so far$" "$dir/int.err"'
check "SIGINT: the summary is printed" 'grep -q "samples [1-9]" "$dir/int.out"'
check "SIGINT: pmusim dump reads the file" '"$PMUSIM" dump "$dir/int.data" >"$dir/int.dump" && grep -q SAMPLE "$dir/int.dump"'
pcheck "SIGINT: perf report reads the file without a warning" \
	'perf report -i "$dir/int.data" --stdio >"$dir/int.report" 2>"$dir/int.rerr" && [ ! -s "$dir/int.rerr" ] && grep -q "tchain" "$dir/int.report"'
interrupt term TERM
rc=$?
check "SIGTERM: exit 143, one line" '[ $rc = 143 ] && [ "$(wc -l <"$dir/term.err")" = 1 ] && grep -q "stopped by SIGTERM" "$dir/term.err"'
check "SIGTERM: pmusim dump reads the file" '"$PMUSIM" dump "$dir/term.data" >/dev/null'
timeout -k 5 120 "$PMUSIM" seed task-ctx-data "$dir/s-lbr.yaml" --duration 100000000000 \
	-o "$dir/seed.data" >"$dir/seed.out" 2>"$dir/seed.err" &
pid=$!
recording seed.data
kill -s INT $pid
wait $pid
rc=$?
check "a seed stopped by SIGINT: exit 130, one line" \
	'[ $rc = 130 ] && [ "$(wc -l <"$dir/seed.err")" = 1 ] && grep -q "^pmusim: seed: task-ctx-data: stopped by SIGINT" "$dir/seed.err"'
check "no temporary file is left" 'no_temp'

# ---- symbols: each perf.data names its programs' ELF files by build-id ------
# Two scenarios with the same PIDs: a second run must not change how the
# first one's file resolves (perf-PID.map files in /tmp did, silently).
sed 's/kind: tchain, depth: 12, leaf_loops: 200, mid_loops: 20, outer_loops: 50/kind: recursion, depth: 9/' \
	"$dir/s.yaml" >"$dir/rec.yaml"
if $have_perf; then
	touch "$dir/marker"
	"$PMUSIM" run "$dir/s.yaml" -o "$dir/sa.data" --no-progress >/dev/null 2>&1
	perf script -i "$dir/sa.data" -F tid,ip,sym >"$dir/sa.before" 2>/dev/null
	"$PMUSIM" run "$dir/rec.yaml" -o "$dir/sb.data" --no-progress >/dev/null 2>&1
	perf script -i "$dir/sa.data" -F tid,ip,sym >"$dir/sa.after" 2>"$dir/sa.err"
	check "perf names the first run's frames tchain_f.., none [unknown]" \
		'grep -q tchain_f12 "$dir/sa.before" && ! grep -q "unknown" "$dir/sa.before"'
	check "a second scenario with the same PIDs leaves them as they were" 'cmp -s "$dir/sa.before" "$dir/sa.after"'
	check "perf buildid-list lists the program with its build-id" \
		'[ "$(perf buildid-list -i "$dir/sa.data" 2>/dev/null | grep -c "^[0-9a-f]\{40\} /pmusim/tchain$")" = 1 ]'
	bid=$(perf buildid-list -i "$dir/sa.data" 2>/dev/null | cut -c1-40)
	elf="$dir/sa.data.debug/.build-id/${bid:0:2}/${bid:2}/elf"
	check "its ELF file is beside the perf.data, with that build-id" \
		'[ -n "$bid" ] && [ "$(perf buildid-list -i "$elf" 2>/dev/null)" = "$bid" ]'
	check "and in the user's build-id cache, as perf record puts it" \
		'cmp -s "$elf" "$HOME/.debug/.build-id/${bid:0:2}/${bid:2}/elf"'
	mkdir "$dir/nohome"
	check "perf --buildid-dir FILE.debug resolves without the user's cache" \
		'HOME="$dir/nohome" perf --buildid-dir "$dir/sa.data.debug" script -i "$dir/sa.data" -F tid,ip,sym 2>/dev/null | cmp -s - "$dir/sa.before"'
	if [ "$stitch" = y ]; then
		check "pmusim stitch names the frames as perf does, from FILE.debug" \
			'HOME="$dir/nohome" "$PMUSIM" stitch "$dir/sa.data" | grep -q "tchain_f12" && ! HOME="$dir/nohome" "$PMUSIM" stitch "$dir/sa.data" | grep -q unknown'
	else
		skip "no CONFIG_LBR_STITCH: no pmusim stitch"
	fi
	if command -v objdump >/dev/null 2>&1; then
		check "perf annotate disassembles the simulated code" \
			'perf annotate -i "$dir/sa.data" --stdio tchain_f12 2>/dev/null | grep -q "add    \$0x1,%rax"'
	else
		skip "objdump is not installed"
	fi
	check "-N: nothing in the user's cache, the file still resolves beside" \
		'HOME="$dir/nohome" run "$dir/sn.data" -N && [ ! -e "$dir/nohome/.debug" ] && [ -d "$dir/sn.data.debug/.build-id" ]'
	check "no /tmp/perf-PID.map is written unless --map-dir asks for one" \
		'[ -e "$dir/marker" ] && ! [ /tmp/perf-1000.map -nt "$dir/marker" ]'
else
	for i in 1 2 3 4 5 6 7 8 9 10; do skip "perf is not installed"; done
fi

HOME=/proc/pmusim-no-home run "$dir/nh.data"
check "a user's cache that cannot be written: a warning line, exit 0, the files beside" \
	'[ $? = 0 ] && one_line && grep -q "^pmusim: warning: /proc/pmusim-no-home/.debug/.*cannot add to the build-id cache" "$dir/err" && [ -d "$dir/nh.data.debug/.build-id" ]'

# ---- stdout that cannot be written -----------------------------------------
printf 'write 64 4\ndump\n' >"$dir/rb.script"
full() { # NAME COMMAND...: COMMAND with stdout on /dev/full fails with one line
	local name=$1
	shift
	"$@" >/dev/full 2>"$dir/full.err"
	local rc=$?
	check "stdout on /dev/full: $name fails with one line" \
		'[ $rc != 0 ] && [ "$(wc -l <"$dir/full.err")" = 1 ] && grep -q "No space left on device" "$dir/full.err"'
}
if [ -w /dev/full ]; then
	full "run" "$PMUSIM" run "$dir/s.yaml" -o "$dir/f.data" --map-dir "$dir/maps" --no-progress
	full "seed" "$PMUSIM" seed task-ctx-data "$dir/s-lbr.yaml" --map-dir "$dir/maps"
	full "ringbuf" "$PMUSIM" ringbuf "$dir/rb.script"
	if [ "$stitch" = y ]; then
		full "stitch" "$PMUSIM" stitch --map-dir "$dir/maps" "$dir/ref.data"
	else
		skip "no CONFIG_LBR_STITCH: no pmusim stitch"
	fi
	full "dump" "$PMUSIM" dump "$dir/ref.data"
	full "--help" "$PMUSIM" --help
	full "run --help" "$PMUSIM" run --help
	full "version" "$PMUSIM" version
else
	for i in 1 2 3 4 5 6 7 8; do skip "no /dev/full"; done
fi
echo "1..$n"
