#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim record before and around Valgrind, in well under a second: no
# real Valgrind runs. A stand-in `valgrind` script first in PATH and an
# empty stand-in tool (PMUSIM_VGTOOL_LIB) let each case reach its step.
# The command line's mistakes and every refusal before the program runs:
# exit 2, one line naming the problem, no perf.data, no truth, no --json
# FILE, no stream directory left in TMPDIR. The output is checked before
# the program runs (a missing or read-only directory, an unwritable file,
# a directory, -o - without a stdout to write, --truth alike): one line
# naming the path, exit 2, and the program (which would make a marker
# file) never runs. The new options' mistakes (--max-sample-rate, -g on a
# CPU without call stacks) and --cpu list. Then the contract with
# valgrind (its arguments, VALGRIND_LIB, the program's stdout untouched,
# Debian's valgrind.bin run rather than its wrapper script)
# and valgrind's failures: no stream (exit status or signal: exit 2), a
# stream that does not parse (exit 1), with nothing written either way.
# test_record.sh runs the real thing.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
export TMPDIR=$dir/tmp
mkdir "$TMPDIR" "$dir/bin" "$dir/tool" "$dir/work"

# the stand-in tool: record only checks that it is there and executable
: >"$dir/tool/pmusim-amd64-linux"
chmod +x "$dir/tool/pmusim-amd64-linux"
# the stand-in valgrind: says how it was called, then does as $VG_DO says
cat >"$dir/bin/valgrind" <<'EOS'
#!/bin/bash
{ echo "VALGRIND_LIB=$VALGRIND_LIB"; printf '%s\n' "$@"; } >"$VG_LOG"
fd=
for a in "$@"; do case $a in --pmusim-fd=*) fd=${a#--pmusim-fd=} ;; esac; done
case $VG_DO in
exit3) exit 3 ;;
kill) kill -KILL $$ ;;
# a frame (pid 1, 12 bytes, VGS_FRAME_START) whose stream is not one
garbage) printf '\001\000\000\000\014\000\001\000not a stream' >"/proc/self/fd/$fd"
	echo "the program's own output" ;;
run) while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done; "$@" ;;
esac
exit 0
EOS
chmod +x "$dir/bin/valgrind"
printf '#!/bin/sh\nexit 0\n' >"$dir/prog"
chmod +x "$dir/prog"
# a program that leaves a mark when it runs
printf '#!/bin/sh\n: >"%s"\n' "$dir/marker" >"$dir/marks"
chmod +x "$dir/marks"
export VG_LOG=$dir/vg.log VG_DO=exit3 PMUSIM_VGTOOL_LIB=$dir/tool
export PATH=$dir/bin:$PATH

# try ARGS...: record into $dir/work/out.data from $dir/work; $rc, $err (all of stderr)
try() {
	rm -f "$VG_LOG"
	(cd "$dir/work" && "$PMUSIM" record -o "$dir/work/out.data" "$@" >"$dir/out" 2>"$dir/err")
	rc=$?
	err=$(cat "$dir/err")
}
# nothing: no perf.data, no truth, no JSON file, no stream directory
nothing() {
	[ ! -e "$dir/work/out.data" ] && [ ! -e "$dir/work/out.data.truth" ] &&
		[ ! -e "$dir/work/s.json" ] && [ -z "$(ls -A "$dir/tmp")" ]
}
# refused DESCRIPTION LINE ARGS...: exit 2, stderr exactly LINE, nothing written, valgrind not run
refused() {
	local what=$1 line=$2
	shift 2
	try "$@"
	if [ "$rc" = 2 ] && [ "$err" = "$line" ] && nothing && [ ! -e "$VG_LOG" ]; then
		ok "$what: exit 2, one line"
	else
		nok "$what: exit $rc, stderr: $err"
	fi
}

try --help
check "--help: exit 0, the usage on stdout" \
	'[ $rc = 0 ] && [ "$(head -1 "$dir/out")" = "usage: pmusim record [options] -- PROG [ARGS]" ] && [ -z "$err" ]'
refused "-o without its file" "pmusim: record: option '-o' needs a value" -o
refused "an unknown option" \
	"pmusim: record: unknown option '--bogus' (pmusim record --help lists them)" --bogus -- "$dir/prog"
refused "-c with a bad number" "pmusim: record: -c: 'x' is not a number (digits, 0xHEX, _ between digits)" -c x -- "$dir/prog"
refused "--cpus 0" "pmusim: record: --cpus: must be at least 1" --cpus 0 -- "$dir/prog"
refused "--cpu with a bad CPU list" \
	"pmusim: record: -C 1x: not a CPU list (0,2-3; CPUs 0..$(($(sed -n 's/^CONFIG_MODEL_MAX_CPUS=//p' "$PMUSIM_OBJTREE/.config") - 1)))" \
	--cpu 1x -- "$dir/prog"
refused "an unknown CPU model" "pmusim: record: --cpu pentium: unknown CPU model (--cpu list lists them)" --cpu pentium -- "$dir/prog"
refused "-c with -F" \
	"pmusim: record: cannot set frequency and period at the same time (-c and -F)" -c 1000 -F 99 -- "$dir/prog"
refused "no program" "pmusim: record: give a program: pmusim record [options] -- PROG [ARGS]" -c 1000

# the program: as execvp finds it
refused "a path that is not there" "pmusim: record: $dir/none: No such file or directory" -- "$dir/none"
refused "a directory" "pmusim: record: $dir/work: Permission denied" -- "$dir/work"
refused "a name not in PATH" "pmusim: record: pmusim-no-such-program: No such file or directory" \
	-- pmusim-no-such-program
printf '#!/bin/sh\n' >"$dir/bin/noexec"
chmod -x "$dir/bin/noexec"
refused "a name in PATH only as a file that cannot run" "pmusim: record: noexec: Permission denied" \
	-- noexec
printf 'plain text\n' >"$dir/text"
chmod +x "$dir/text"
refused "neither ELF nor #!" \
	"pmusim: record: $dir/text: not a program (neither ELF nor a #! script)" -- "$dir/text"
# an empty PATH entry is the current directory, as for execvp
cp "$dir/prog" "$dir/work/here"
for p in "$dir/bin:" ":$dir/bin" "$dir/bin::/nonexistent"; do
	(cd "$dir/work" && PATH=$p "$PMUSIM" record -o "$dir/work/out.data" -- here >/dev/null 2>"$dir/err")
	rc=$?
	check "PATH=$p: the empty entry finds ./here, and valgrind runs it" \
		'[ $rc = 2 ] && [ "$(cat "$dir/err")" = "pmusim: record: ./here: valgrind could not run it (exit status 3)" ] && nothing'
done

# what record needs besides the program
(cd "$dir/work" && PATH=/nonexistent "$PMUSIM" record -o "$dir/work/out.data" -- "$dir/prog" >/dev/null 2>"$dir/err")
rc=$?
check "no valgrind in PATH: one line naming the package, exit 2" \
	'[ $rc = 2 ] && [ "$(wc -l <"$dir/err")" = 1 ] && grep -q "install Debian.s valgrind package" "$dir/err" && nothing'
PMUSIM_VGTOOL_LIB=$dir/none refused "no tool where PMUSIM_VGTOOL_LIB says" \
	"pmusim: record: pmusim's Valgrind tool is not built: $dir/none/pmusim-amd64-linux (make builds it, make install installs it; PMUSIM_VGTOOL_LIB names its directory)" \
	-- "$dir/prog"
TMPDIR=$dir/none refused "TMPDIR not a directory" \
	"pmusim: record: TMPDIR $dir/none: No such file or directory" -- "$dir/prog"
refused "--call-graph lbr on a CPU without the LBR call-stack mode" \
	"pmusim: record: CPU model 'nehalem' has no LBR call-stack mode" \
	--cpu nehalem --call-graph lbr -- "$dir/prog"
refused "--json=FILE in a directory that is not there" \
	"pmusim: record: --json=$dir/none/s.json: No such file or directory" --json="$dir/none/s.json" -- "$dir/prog"

# the output, checked before the program runs: it would leave $dir/marker
# unrun OUT DESCRIPTION LINE ARGS...: exit 2, stderr exactly LINE, no valgrind, no marker, nothing written
unrun() {
	local what=$1 line=$2
	shift 2
	rm -f "$VG_LOG" "$dir/marker"
	(cd "$dir/work" && VG_DO=run "$PMUSIM" record "$@" -- "$dir/marks" >"$dir/out" 2>"$dir/err")
	rc=$?
	err=$(cat "$dir/err")
	if [ "$rc" = 2 ] && [ "$err" = "$line" ] && [ ! -e "$dir/marker" ] && [ ! -e "$VG_LOG" ] &&
	   nothing && [ -z "$(ls -A "$dir/work")" ]; then
		ok "$what: exit 2, one line, the program never ran"
	else
		nok "$what: exit $rc, stderr: $err"
	fi
}
# the marker's absence means something: where the output can go, the program runs
(cd "$dir/work" && VG_DO=run "$PMUSIM" record -o "$dir/work/out.data" -- "$dir/marks" >/dev/null 2>&1)
check "the marking program runs when the output can be written" '[ -e "$dir/marker" ]'
rm -rf "$dir/work" && mkdir "$dir/work"
unrun "-o in a directory that is not there" \
	"pmusim: record: $dir/none/x.data: cannot create a file in $dir/none: No such file or directory" \
	-o "$dir/none/x.data"
unrun "-o a directory" "pmusim: record: $dir/work: is a directory" -o "$dir/work"
unrun "--truth in a directory that is not there" \
	"pmusim: record: --truth: $dir/none/t: cannot create a file in $dir/none: No such file or directory" \
	-o "$dir/work/out.data" --truth "$dir/none/t"
unrun "--truth -" "pmusim: record: --truth -: name a file of its own (/dev/stderr: the terminal)" \
	-o "$dir/work/out.data" --truth -
unrun "--truth the perf.data itself" \
	"pmusim: record: --truth $dir/work/out.data: name a file of its own (/dev/stderr: the terminal)" \
	-o "$dir/work/out.data" --truth "$dir/work/out.data"
rm -f "$VG_LOG" "$dir/marker"
(cd "$dir/work" && VG_DO=run "$PMUSIM" record -o - -- "$dir/marks" >&- 2>"$dir/err")
check "-o - with stdout closed: exit 2, one line, the program never ran" \
	'[ $? = 2 ] && [ "$(cat "$dir/err")" = "pmusim: record: -: standard output is not open for writing" ] && [ ! -e "$dir/marker" ]'
# read-only: root writes anyway, so as root these run as nobody
mkdir "$dir/ro"
: >"$dir/ro.data"
chmod 555 "$dir/ro"
chmod 444 "$dir/ro.data"
as_user=
if [ "$(id -u)" = 0 ]; then
	chmod 755 "$dir" "$dir/bin" "$dir/work" "$dir/tool"
	chmod 1777 "$dir/tmp"
	as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	$as_user true 2>/dev/null && $as_user test -x "$PMUSIM" || as_user=none
fi
if [ "$as_user" = none ]; then
	skip "read-only directory and file: root here, and nobody (setpriv) cannot run $PMUSIM"
	skip "... the unwritable file likewise"
else
	rm -f "$dir/marker"
	(cd "$dir/work" && VG_DO=run $as_user "$PMUSIM" record -o "$dir/ro/x.data" -- "$dir/marks" >/dev/null 2>"$dir/err")
	check "-o in a read-only directory: exit 2, one line naming it, the program never ran" \
		'[ $? = 2 ] && [ "$(cat "$dir/err")" = "pmusim: record: $dir/ro/x.data: cannot create a file in $dir/ro: Permission denied" ] && [ ! -e "$dir/marker" ] && [ -z "$(ls -A "$dir/ro")" ]'
	(cd "$dir/work" && VG_DO=run $as_user "$PMUSIM" record -o "$dir/ro.data" -- "$dir/marks" >/dev/null 2>"$dir/err")
	check "-o a file that cannot be written: exit 2, one line naming it, the program never ran" \
		'[ $? = 2 ] && [ "$(cat "$dir/err")" = "pmusim: record: $dir/ro.data: cannot write: Permission denied" ] && [ ! -e "$dir/marker" ] && [ ! -s "$dir/ro.data" ]'
fi
chmod 755 "$dir/ro"
[ -z "$(ls -A "$dir/tmp")" ] || nok "a stream directory was left in TMPDIR: $(ls "$dir/tmp")"

# the options part 6 added
refused "--max-sample-rate 0" "pmusim: record: --max-sample-rate: must be at least 1" \
	--max-sample-rate 0 -- "$dir/prog"
refused "--max-sample-rate beyond an int" \
	"pmusim: record: --max-sample-rate: 2147483648 is too large (at most 2147483647)" \
	--max-sample-rate 2147483648 -- "$dir/prog"
refused "-g on a CPU without the LBR call-stack mode" \
	"pmusim: record: CPU model 'nehalem' has no LBR call-stack mode" --cpu nehalem -g -- "$dir/prog"
try --cpu list
check "--cpu list: exit 0, every model on stdout (skylake the default here or not), nothing on stderr" \
	'[ $rc = 0 ] && [ -z "$err" ] && [ "$(awk "NR > 1 {print \$1}" "$dir/out" | tr "\n" " ")" = "core2 atom nehalem haswell skylake icelake sapphirerapids " ] && grep -q "^haswell .*--call-graph lbr" "$dir/out" && ! grep -q "^nehalem .*--call-graph lbr" "$dir/out"'

# valgrind as record calls it: the tool's directory, the stream pipe, the program's words
try -c 1000 --json="$dir/work/s.json" -- "$dir/prog" a 'b c'
# (--pmusim-env: the program gets the VALGRIND_LIB record was given back, or none)
check "valgrind's arguments: the tool, the stream pipe's descriptor (the last below the limit), -q, children traced, the program's VALGRIND_LIB, the rings' directory where the host has one in memory (gone after), then its words" \
	'[ "$(sed "3d;7{/^--pmusim-ring=/d}" "$VG_LOG")" = "$(printf "%s\n" "VALGRIND_LIB=$dir/tool" --tool=pmusim -q --trace-children=yes \
		"--pmusim-env=VALGRIND_LIB${VALGRIND_LIB+=$VALGRIND_LIB}" "$dir/prog" a "b c")" ] &&
	 grep -qx -- "--pmusim-fd=$(($(ulimit -n) - 1))" "$VG_LOG" &&
	 ring=$(sed -n "7s/^--pmusim-ring=//p" "$VG_LOG") && { [ -z "$ring" ] || [ ! -e "$ring" ]; }'
check "valgrind exits 3 without a stream: exit 2, one line with its status, nothing written" \
	'[ $rc = 2 ] && [ "$err" = "pmusim: record: $dir/prog: valgrind could not run it (exit status 3)" ] && nothing'
# Debian's valgrind is a wrapper script that gives the program LD_LIBRARY_PATH=/usr/lib/debug
# and GLIBCXX_FORCE_NEW, then runs valgrind.bin beside it: record runs valgrind.bin itself
mkdir "$dir/deb"
printf '#!/bin/sh\necho wrapper >"$VG_LOG"\nexit 3\n' >"$dir/deb/valgrind"
cp "$(type -P false)" "$dir/deb/valgrind.bin"
chmod +x "$dir/deb/valgrind" "$dir/deb/valgrind.bin"
PATH=$dir/deb:$PATH try -- "$dir/prog"
check "valgrind a script with an ELF valgrind.bin beside it: record runs valgrind.bin (exit status 1), not the script" \
	'[ $rc = 2 ] && [ "$err" = "pmusim: record: $dir/prog: valgrind could not run it (exit status 1)" ] &&
	 [ ! -e "$VG_LOG" ] && nothing'
printf '#!/bin/sh\nexit 1\n' >"$dir/deb/valgrind.bin"
PATH=$dir/deb:$PATH try -- "$dir/prog"
check "valgrind.bin not an ELF file: record runs valgrind, the script" \
	'[ $rc = 2 ] && [ "$err" = "pmusim: record: $dir/prog: valgrind could not run it (exit status 3)" ] &&
	 [ "$(cat "$VG_LOG")" = wrapper ] && nothing'
VG_DO=kill try --json="$dir/work/s.json" -- "$dir/prog"
check "valgrind killed by signal 9 without a stream: exit 2, one line naming the signal, nothing written" \
	'[ $rc = 2 ] && [ "$err" = "pmusim: record: $dir/prog: valgrind could not run it (signal 9)" ] && nothing'
VG_DO=garbage try --json="$dir/work/s.json" -- "$dir/prog"
check "a stream that does not parse: exit 1, one line naming it, nothing written" \
	'[ $rc = 1 ] && [ "$(wc -l <"$dir/err")" = 1 ] && grep -q "^pipe:1\.0: not a pmusim stream (12 bytes)$" "$dir/err" && nothing'
check "the program's stdout is its own" '[ "$(cat "$dir/out")" = "the program'"'"'s own output" ]'

# --json=FILE that is not a regular file: written to, never removed
ln -s /dev/null "$dir/null"
try --json="$dir/null" -- "$dir/prog"
check "--json=a symlink to /dev/null, then valgrind fails: the link stays" \
	'[ $rc = 2 ] && [ -L "$dir/null" ] && [ -c /dev/null ]'

echo "1..$n"
