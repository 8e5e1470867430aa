#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test of one build (OBJTREE): the cmocka programs under
# OBJTREE/tests and the shell tests tests/*/test_*.sh, all speaking TAP.
# Prints failures and skip reasons, the slowest tests ("# slowest: W s
# (cpu C s) NAME"; every test's times are in OBJTREE/test-times), then
# one line:
#   N passed, N failed, N skipped
# and, with TALLY=FILE, appends "pass fail skip" to FILE for check.sh.
#
# With REFERENCE=DIR, another configuration's build whose tests all ran
# (make check's first one), only the tests this configuration can change
# run, by a rule that needs no list:
#   - a test program runs when its code or data differs from DIR's build
#     of it (debug info and build ID aside): the same program gives the
#     same result, since a test depends on neither timing nor host;
#   - a shell test runs when it names a CONFIG_ symbol whose value here
#     is not DIR's (it tests what an option changes: its skips and
#     expectations follow the .config, so with the same values they are
#     the same) or reads $LABEL (it chooses its configurations itself);
#     without both .configs, when it names any CONFIG_ symbol;
#   - but not a shell test with a line "# config-independent: WHY": it
#     names symbols or $LABEL for trees of its own (WHY says so).
# The others are listed on one "# once:" line and not counted again.
set -u
objtree=$(cd "${1:?usage: run-tests.sh OBJTREE}" && pwd) || exit 2
srctree=$(cd "$(dirname "$0")/.." && pwd)
label=${LABEL:-$(basename "$objtree")}
pass=0 fail=0 skip=0
times=$objtree/test-times	# "WALL CPU NAME" in seconds, one line per test
: >"$times"
export CMOCKA_MESSAGE_OUTPUT=TAP
export PMUSIM="$objtree/pmusim" PMUSIM_OBJTREE="$objtree" PMUSIM_SRCTREE="$srctree"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
reference=${REFERENCE:+$(cd "$REFERENCE" && pwd)}
unset REFERENCE	# (the tests' own runs of this script are not this one's)
once=()
# The CONFIG_ symbols whose values here are not the reference's, one a
# line (a symbol missing from one .config counts as differing); "*" when a
# .config is missing: then every symbol counts.
config_values() { # .CONFIG: "CONFIG_X=VALUE" lines, "is not set" as =n
	sed -nE 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1=n/p; /^CONFIG_[A-Za-z0-9_]+=/p' "$1" | sort
}
if [ -z "$reference" ]; then
	changed_symbols=
elif [ -f "$objtree/.config" ] && [ -f "$reference/.config" ]; then
	changed_symbols=$(cat <(config_values "$objtree/.config") <(config_values "$reference/.config") |
		sort | uniq -u | sed 's/=.*//' | sort -u)
else
	changed_symbols='*'
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

tally() { # NAME OUTPUT RC
	local name=$1 out=$2 rc=$3 p f s
	p=$(grep -cE '^ok [0-9]+' <<<"$out")
	s=$(grep -cE '^(not )?ok [0-9]+ # SKIP' <<<"$out")
	f=$(grep -E '^not ok [0-9]+' <<<"$out" | grep -vc '# SKIP')
	p=$((p - $(grep -cE '^ok [0-9]+ # SKIP' <<<"$out")))
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1	# crashed or exited non-zero without reporting a failure
	fi
	if [ "$f" != 0 ]; then
		echo "FAIL [$label] $name (exit $rc):"
		grep -vE '^(ok [0-9]+|1\.\.[0-9]+)' <<<"$out" | head -40 | sed 's/^/    /'
	fi
	if grep -qE '^# skipped:' <<<"$out"; then
		grep -E '^# skipped:' <<<"$out" | sed "s|^# skipped:|skip [$label] $name:|"
	else
		# TAP's own form (tap_lib's skip): "ok N # SKIP why"
		grep -E '^(not )?ok [0-9]+ # SKIP' <<<"$out" |
			sed -E "s|^(not )?ok [0-9]+ # SKIP ?|skip [$label] $name: |"
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
}

cpu() { # CPU := the user+sys seconds of this shell's finished children so far
	times >"$times.now"	# (not in a subshell: a fork's children start at 0)
	CPU=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, y, /[ms]/)
		printf "%.2f", u[1] * 60 + u[2] + y[1] * 60 + y[2] }' "$times.now")
}
took() { # START NAME: the test's wall and CPU time since START and $CPU into $times
	local c0=$CPU
	cpu
	awk -v s="$1" -v e="$EPOCHREALTIME" -v c0="$c0" -v c1="$CPU" -v n="$2" \
		'BEGIN { printf "%.1f %.1f %s\n", e - s, c1 - c0, n }' >>"$times"
}

code() { # PROGRAM OUT: PROGRAM without its debug info and build ID
	objcopy --strip-debug --remove-section=.note.gnu.build-id "$1" "$2" 2>/dev/null
}
# 0 when this configuration can change the test's result (see above)
config_dependent() { # NAME (tests/... under the object or the source tree)
	[ -n "$reference" ] || return 0
	case $1 in
	*.sh) grep -q '^# config-independent: ' "$srctree/$1" && return 1
		grep -qE '\$\{?LABEL\>' "$srctree/$1" && return 0
		[ "$changed_symbols" = '*' ] && { grep -qE '\<CONFIG_[A-Z0-9_]+' "$srctree/$1"; return; }
		[ -n "$changed_symbols" ] &&
			grep -oE '\<CONFIG_[A-Z0-9_]+' "$srctree/$1" | grep -qxF "$changed_symbols" ;;
	*) [ -f "$reference/$1" ] && code "$objtree/$1" "$times.a" && code "$reference/$1" "$times.b" &&
		cmp -s "$times.a" "$times.b" && return 1
		return 0 ;;
	esac
}

bins=$(find "$objtree/tests" -type f -name 'test_*' ! -name '*.*' -perm -u+x 2>/dev/null | sort)
if [ -z "$bins" ]; then	# not a build, or one that was not made: that is no pass
	echo "FAIL [$label] no test programs in $objtree/tests"
	echo "[$label] 0 passed, 1 failed, 0 skipped"
	[ -n "${TALLY:-}" ] && echo "0 1 0" >>"$TALLY"
	exit 1
fi
while IFS= read -r bin; do
	name=${bin#"$objtree"/}
	config_dependent "$name" || { once+=("$name"); continue; }
	start=$EPOCHREALTIME; cpu
	out=$(cd "$objtree" && timeout 600 "$bin" 2>&1 </dev/null)
	tally "$name" "$out" $?
	took "$start" "$name"
done <<<"$bins"

while IFS= read -r sh; do
	name=${sh#"$srctree"/}
	config_dependent "$name" || { once+=("$name"); continue; }
	# stdin is the list being read: a test that reads stdin would eat the rest
	start=$EPOCHREALTIME; cpu
	out=$(cd "$objtree" && timeout 600 bash "$sh" 2>&1 </dev/null)
	tally "$name" "$out" $?
	took "$start" "$name"
done < <(find "$srctree/tests" -type f -name 'test_*.sh' 2>/dev/null | sort)

rm -f "$times.now" "$times.a" "$times.b"
[ ${#once[@]} = 0 ] ||
	echo "# once: ${#once[@]} tests this configuration cannot change ran in $reference only: ${once[*]}"
sort -rn "$times" | head -"${SLOWEST:-8}" | awk '{ printf "# slowest: %s s (cpu %s s) %s\n", $1, $2, $3 }'
echo "[$label] $pass passed, $fail failed, $skip skipped"
[ -n "${TALLY:-}" ] && echo "$pass $fail $skip" >>"$TALLY"
[ "$fail" = 0 ]
