#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The command line's mistakes, each a first line naming the problem and
# exit 2: pmusim without or with an unknown command, help with two, seed
# with a bad option value, a missing or unknown seed, an extra argument,
# a missing scenario; and -o where no file can go (a directory, a symlink
# loop, a missing directory): exit 1, one line naming the path, nothing
# left behind; -o - (pipe mode, record's only) to run and seed: exit 2;
# an empty FILE or DIR to any option (-o, --json=, --map-dir):
# exit 2, one line saying so; and -o a relative symlink, written at its
# target.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
cat >"$dir/s.yaml" <<EOS
seed: 3
duration: 300000
machine: { cpu: skylake, cpus: 1 }
tasks:
  - name: chain
    workload: { kind: tchain, depth: 6 }
events:
  - event: cycles:u
    period: 40009
    call_graph: lbr
EOS
try() { # ARGS...: stderr in $dir/err, its first line in $first, exit status in $rc
	"$PMUSIM" "$@" >"$dir/out" 2>"$dir/err" </dev/null
	rc=$?
	first=$(head -1 "$dir/err")
}

try
check "no command: exit 2, the usage on stderr" '[ $rc = 2 ] && [ "$first" = "usage: pmusim <command> [options]" ]'
try nosuch
check "an unknown command is named" \
	'[ $rc = 2 ] && [ "$first" = "pmusim: unknown command '"'nosuch'"' (pmusim --help lists them)" ]'
try help run seed
check "help with two commands" '[ $rc = 2 ] && [ "$first" = "pmusim: help: give one command" ]'
try help nosuch
check "help of an unknown command" '[ $rc = 2 ] && grep -q "^pmusim: help: unknown command '"'nosuch'"'" "$dir/err"'

try seed --duration 0 task-ctx-data "$dir/s.yaml"
check "seed --duration 0: names --duration and its minimum" \
	'[ $rc = 2 ] && [ "$first" = "pmusim: seed: --duration: must be at least 1" ]'
try seed --seed x task-ctx-data "$dir/s.yaml"
check "seed --seed x: names --seed" '[ $rc = 2 ] && grep -q "^pmusim: seed: --seed: " "$dir/err"'
try seed task-ctx-data
check "seed without a scenario: said, then the usage" \
	'[ $rc = 2 ] && [ "$first" = "pmusim: seed: give a seed name and a scenario" ] && grep -q "^usage: pmusim seed" "$dir/err"'
try seed nosuch "$dir/s.yaml"
check "an unknown seed is named" '[ $rc = 2 ] && [ "$first" = "pmusim: seed: no seed '"'nosuch'"'" ]'
try seed task-ctx-data "$dir/s.yaml" extra
check "an extra argument is named" '[ $rc = 2 ] && [ "$first" = "pmusim: seed: bad argument '"'extra'"'" ]'
try seed task-ctx-data "$dir/none.yaml"
check "a missing scenario: one line naming it" \
	'[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] && grep -q "^pmusim: $dir/none.yaml: No such file or directory" "$dir/err"'
try seed task-ctx-data "$dir/s.yaml" --seed 9 --duration 200000
check "seed --seed and --duration: the table, exit 0" '[ $rc = 0 ] && grep -q "^seed task-ctx-data: " "$dir/out"'

mkdir "$dir/out.d" "$dir/o"
ln -s loop1 "$dir/o/loop2"
ln -s loop2 "$dir/o/loop1"
runo() { try run "$dir/s.yaml" --no-progress -N -o "$1"; }
runo "$dir/out.d"
check "-o a directory: one line naming it" \
	'[ $rc = 1 ] && [ "$(wc -l <"$dir/err")" = 1 ] && [ "$first" = "$dir/out.d: is a directory" ] && [ -z "$(ls "$dir/out.d")" ]'
runo "$dir/o/loop1"
check "-o a symlink loop: one line naming it" \
	'[ $rc = 1 ] && [ "$first" = "$dir/o/loop1: cannot follow: Too many levels of symbolic links" ] && [ "$(ls "$dir/o" | wc -l)" = 2 ]'
runo "$dir/nodir/x.data"
check "-o in a missing directory: one line naming it" \
	'[ $rc = 1 ] && [ "$first" = "$dir/nodir/x.data: cannot create: No such file or directory" ]'
# an empty FILE or DIR: said as such, exit 2 as any bad flag (not "No such file")
empty() { # WHAT-SAID ARGS...: one line, exit 2, nothing on stdout
	local said=$1
	shift
	try "$@"
	local args="$*"
	check "${args//$dir/DIR} with an empty name: exit 2, '$said'" \
		'[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] && [ "$first" = "$said" ] && [ ! -s "$dir/out" ]'
}
empty "pmusim: run: -o: the file name is empty" run "$dir/s.yaml" --no-progress -o ""
empty "pmusim: run: -o: the file name is empty" run "$dir/s.yaml" --output=
empty "pmusim: run: --map-dir: the directory name is empty" run "$dir/s.yaml" --map-dir=
empty "pmusim: record: --json=: the file name is empty" record --json= -- /bin/true
empty "pmusim: record: -o: the file name is empty" record -o "" -- /bin/true
empty "pmusim: seed: -o: the file name is empty" seed task-ctx-data "$dir/s.yaml" -o ""
empty "pmusim: seed: --map-dir: the directory name is empty" seed task-ctx-data "$dir/s.yaml" --map-dir ""
# -o -, perf's pipe mode, is record's: run and seed print on stdout
try run "$dir/s.yaml" --no-progress -o -
check "run -o -: exit 2, one line, nothing on stdout" \
	'[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] && [ "$first" = "pmusim: run: -o -: perf'"'"'s pipe mode is pmusim record'"'"'s (run prints on stdout)" ] && [ ! -s "$dir/out" ]'
try seed task-ctx-data "$dir/s.yaml" -o -
check "seed -o -: exit 2, one line, nothing on stdout" \
	'[ $rc = 2 ] && [ "$first" = "pmusim: seed: -o -: perf'"'"'s pipe mode is pmusim record'"'"'s (seed prints on stdout)" ] && [ ! -s "$dir/out" ]'
if grep -qx CONFIG_LBR_STITCH=y "$PMUSIM_OBJTREE/.config"; then
	empty "pmusim: stitch: --map-dir: the directory name is empty" stitch --map-dir "" "$dir/s.yaml"
else	# (without CONFIG_LBR_STITCH, stitch refuses whatever it is given)
	skip "no CONFIG_LBR_STITCH: no pmusim stitch"
fi

# a relative symlink in another directory is followed from that directory, as perf does
ln -s real.data "$dir/o/rel"
runo "$dir/o/rel"
check "-o a relative symlink: the file is written at its target, the link kept" \
	'[ $rc = 0 ] && [ -L "$dir/o/rel" ] && [ -s "$dir/o/real.data" ]'
