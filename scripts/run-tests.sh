#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every test of one build (OBJTREE): the cmocka programs under
# OBJTREE/tests and the shell tests tests/*/test_*.sh, all speaking TAP.
# Prints failures and skip reasons, then one line:
#   N passed, N failed, N skipped
# and, with TALLY=FILE, appends "pass fail skip" to FILE for check.sh.
set -u
objtree=$(cd "${1:?usage: run-tests.sh OBJTREE}" && pwd) || exit 2
srctree=$(cd "$(dirname "$0")/.." && pwd)
label=${LABEL:-$(basename "$objtree")}
pass=0 fail=0 skip=0
export CMOCKA_MESSAGE_OUTPUT=TAP
export PMUSIM="$objtree/pmusim" PMUSIM_OBJTREE="$objtree" PMUSIM_SRCTREE="$srctree"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
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
	grep -E '^# skipped:' <<<"$out" | sed "s|^# skipped:|skip [$label] $name:|"
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
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
	out=$(cd "$objtree" && timeout 600 "$bin" 2>&1 </dev/null)
	tally "$name" "$out" $?
done <<<"$bins"

while IFS= read -r sh; do
	name=${sh#"$srctree"/}
	# stdin is the list being read: a test that reads stdin would eat the rest
	out=$(cd "$objtree" && timeout 600 bash "$sh" 2>&1 </dev/null)
	tally "$name" "$out" $?
done < <(find "$srctree/tests" -type f -name 'test_*.sh' 2>/dev/null | sort)

echo "[$label] $pass passed, $fail failed, $skip skipped"
[ -n "${TALLY:-}" ] && echo "$pass $fail $skip" >>"$TALLY"
[ "$fail" = 0 ]
