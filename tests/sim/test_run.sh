#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim run end to end: the default scenario (shortened) writes a
# perf.data that real perf script reads with the workload's symbols and
# LBR call stacks; the same seed gives the same bytes, another seed other
# bytes; --json is JSON; a bad scenario is one FILE:LINE line and exit 2
# with nothing written.
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
scn=$PMUSIM_SRCTREE/scenarios/default.yaml

# make run runs it in every configuration: it needs no RFC option
check "the default scenario uses no RFC field (alternative_period, hw_time)" \
	'! grep -Eq "^ *(alternative_period|hw_time):" "$scn"'

run() { # OUT SEED [ARGS...]
	local out=$1 seed=$2
	shift 2
	"$PMUSIM" run "$scn" -o "$out" --seed "$seed" --duration 30000000 --no-progress "$@"
}

check "the default scenario runs" 'run "$dir/a.data" 1 >"$dir/a.txt" 2>"$dir/a.err"'
check "the summary counts samples" 'grep -Eq "samples [1-9][0-9]*," "$dir/a.txt"'
check "the summary compares functions with the ground truth" 'grep -q "tchain_f36" "$dir/a.txt"'
check "the same seed writes the same bytes" \
	'run "$dir/b.data" 1 >/dev/null 2>&1 && cmp -s "$dir/a.data" "$dir/b.data"'
check "another seed writes other bytes" \
	'run "$dir/c.data" 2 >/dev/null 2>&1 && ! cmp -s "$dir/a.data" "$dir/c.data"'
check "--json prints JSON" \
	'run "$dir/d.data" 1 --json >"$dir/d.json" 2>/dev/null && python3 -m json.tool "$dir/d.json" >/dev/null && grep -q "\"samples\"" "$dir/d.json"'
check "perf record options override the scenario" \
	'run "$dir/e.data" 1 -e instructions:u -c 50000 -a -m 16 >"$dir/e.txt" 2>&1 && grep -Eq "samples [1-9]" "$dir/e.txt"'

if ! command -v perf >/dev/null 2>&1 || ! perf --version >/dev/null 2>&1; then
	for i in 1 2 3 4 5 6 7 8; do skip "perf is not installed"; done
else
	check "perf script reads it" 'perf script -i "$dir/a.data" -F comm,tid,ip,sym >"$dir/a.script" 2>"$dir/a.script.err"'
	check "perf resolves the workload's symbols from its ELF file (by build-id)" \
		'grep -q "tchain_f36" "$dir/a.script" && grep -q "tchain_f12" "$dir/a.script"'
	check "perf script output is the same for the same seed" \
		'perf script -i "$dir/b.data" -F comm,tid,ip,sym 2>/dev/null | cmp -s - "$dir/a.script"'
	perf report --header-only -i "$dir/a.data" >"$dir/a.hdr" 2>"$dir/a.hdr.err"
	hdr_ok=true
	for want in "# hostname : pmusim" "# os release : 6.12.0-pmusim" "# nrcpus online : 2" \
		    "# nrcpus avail : 2" "# cpudesc : pmusim model Intel skylake" "# arch : x86_64" \
		    "branches=32" "size = 128," \
		    "name = cycles:u, , id = { 1, 2 }"; do
		grep -qF -- "$want" "$dir/a.hdr" || { hdr_ok=false; echo "# header lacks: $want"; }
	done
	check "perf report --header-only: attr size 128 with ids, branches=N, host features" \
		'$hdr_ok && [ ! -s "$dir/a.hdr.err" ]'
	check "--call-graph lbr alone: no BRANCH_STACK feature, as perf record writes it" \
		'! grep -qF "# contains samples with branch stack" "$dir/a.hdr"'
	check "the header holds no host value (hostname, kernel release)" \
		'! grep -qF -- "$(uname -n)" "$dir/a.hdr" && ! grep -qF -- "$(uname -r)" "$dir/a.hdr"'
	perf script -i "$dir/a.data" --show-task-events --show-mmap-events -F comm,tid >"$dir/a.sb" 2>/dev/null
	check "COMM and MMAP2 (r-x, the program's ELF file) for each task" \
		'grep -q "PERF_RECORD_COMM: tchain_edit:1000/1000" "$dir/a.sb" && grep -q "PERF_RECORD_COMM: recurse:1001/1001" "$dir/a.sb" && grep -q "PERF_RECORD_MMAP2 1000/1000: .*r-xp /pmusim/tchain_edit$" "$dir/a.sb" && grep -q "PERF_RECORD_MMAP2 1001/1001: .*r-xp /pmusim/recurse$" "$dir/a.sb"'
	check "perf script -F brstacksym shows the LBR call stack by symbol" \
		'perf script -i "$dir/a.data" -F brstacksym 2>/dev/null | grep -q "tchain_f35+0x1c/tchain_f36+0x0/-/-/-/0/"'
	check "perf report --stitch-lbr reads it without a warning" \
		'perf report -i "$dir/a.data" --stdio --stitch-lbr >"$dir/a.rep" 2>"$dir/a.rep.err" && [ ! -s "$dir/a.rep.err" ] && grep -Eq "\[\.\] tchain_f36( |$)" "$dir/a.rep"'
fi
check "the bytes do not depend on the host's locale, time zone or directory" \
	'(cd "$dir" && TZ=Asia/Tokyo LC_ALL=C.UTF-8 run "$dir/tz.data" 1 >/dev/null 2>&1) && cmp -s "$dir/a.data" "$dir/tz.data"'

printf 'duration: 1000\ntasks:\n  - name: t\n    workload: {kind: tchain, depht: 3}\n' >"$dir/bad.yaml"
"$PMUSIM" run "$dir/bad.yaml" -o "$dir/bad.data" >"$dir/bad.out" 2>"$dir/bad.err"
rc=$?
check "a bad scenario exits 2" '[ $rc = 2 ]'
check "with one line FILE:LINE: field: problem" \
	'[ "$(wc -l <"$dir/bad.err")" = 1 ] && grep -q "^$dir/bad.yaml:4: depht: unknown field" "$dir/bad.err"'
check "and writes nothing" '[ ! -e "$dir/bad.data" ] && [ ! -s "$dir/bad.out" ]'
"$PMUSIM" run "$scn" -c 0 >/dev/null 2>"$dir/badopt.err"
check "a bad option value exits 2 with one line" '[ $? = 2 ] && [ "$(wc -l <"$dir/badopt.err")" = 1 ]'
check "--help" '"$PMUSIM" run --help | grep -q "usage: pmusim run"'
echo "1..$n"
