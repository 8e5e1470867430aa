#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# `make bench`'s machinery, without asserting on any time: the bench
# programs build as `make bench` builds them (bench_defconfig in
# build/bench), each prints the figures #7 names as well-formed records
# whose ratio and verdict follow from their own numbers, bench_ringbuf
# loses no record, and scripts/bench.sh turns passes of fake programs
# into the table and out/bench.json: the median pass, the noise widened
# to the spread between passes, and by how much a goal is missed.
# bench_ringbuf and bench_readers run in under a second each; building
# the bench tree takes ~40 s of CPU, so each configuration of the make
# check matrix skips this and make check runs it once
# (scripts/check.d/bench.sh); `make test` runs it.
set -u
src=${PMUSIM_SRCTREE:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$src/tests/lib/tap_lib.sh"

if [ -n "${TALLY:-}" ]; then
	echo "# skipped: builds the bench tree (~40 s of CPU), too long for every make check config; make check runs it once, make test runs it"
	echo "1..0 # SKIP too long for the check matrix"
	exit 0
fi
if ! command -v python3 >/dev/null; then
	echo "# skipped: python3 is not installed (scripts/install-deps.sh bench)"
	echo "1..0 # SKIP no python3"
	exit 0
fi

obj=${BENCH_OBJTREE:-$src/build/bench}
log=$dir/build.log
{ [ -f "$obj/.config" ] || make -s --no-print-directory -C "$src" O="$obj" bench_defconfig; } >"$log" 2>&1 &&
	make -s --no-print-directory -C "$src" O="$obj" -j2 bench-build >>"$log" 2>&1
check "the bench programs build (bench_defconfig, $obj)" '[ -x "$obj/bench/bench_ringbuf" ] && [ -x "$obj/bench/bench_readers" ]'

# records.py FILE FIGURE...: every line a record with the fields bench.sh
# reads; ratio = value / baseline; met follows from goal and ratio; each
# FIGURE present exactly once. Prints what is wrong, one line each.
cat >"$dir/records.py" <<'PY'
import json, sys
rows, bad = [], []
for n, line in enumerate(open(sys.argv[1]), 1):
    try:
        r = json.loads(line)
    except ValueError:
        bad.append(f"line {n} is not JSON: {line.strip()[:80]}")
        continue
    rows.append(r)
    missing = {"figure", "unit", "value", "baseline", "baseline_name", "ratio",
               "goal", "met", "noise"} - set(r)
    if missing:
        bad.append(f"{r.get('figure', n)}: no {sorted(missing)}")
        continue
    if not (r["value"] > 0 and r["baseline"] > 0 and r["noise"] >= 0):
        bad.append(f"{r['figure']}: value {r['value']} baseline {r['baseline']} noise {r['noise']}")
        continue
    # ratio is value / baseline to 4 digits, value and baseline to 3
    # decimals: the printed numbers may differ by no more than that
    v, b, q = r["value"], r["baseline"], r["ratio"]
    if abs(q - v / b) > 5.01e-4 * q + (5.01e-4 * q + 5.01e-4) / (b - 5e-4):
        bad.append(f"{r['figure']}: ratio {q} is not {v} / {b}")
    # the verdict is the goal's on the printed ratio, exactly as bench.h
    # judges it, whatever the timing put the ratio at
    g = r["goal"]
    if g.startswith("1+-"):
        met = 1 - float(g[3:]) <= q <= 1 + float(g[3:])
    elif g.startswith("<="):
        met = q <= float(g[2:])
    elif g.startswith(">="):
        met = q >= float(g[2:])
    elif g == "":
        met = True
    else:
        bad.append(f"{r['figure']}: goal {g!r}")
        continue
    if r["met"] != met:
        bad.append(f"{r['figure']}: met {r['met']} with ratio {q} and goal {g}")
names = [r.get("figure") for r in rows]
for f in sys.argv[2:]:
    if names.count(f) != 1:
        bad.append(f"{f}: {names.count(f)} records")
print("\n".join(bad))
PY
records() { # FILE FIGURE...: ok when records.py finds nothing wrong
	local out
	out=$(python3 "$dir/records.py" "$@" 2>&1)
	[ -z "$out" ] || { sed 's/^/# /' <<<"$out" | head -20; return 1; }
}

# bench_report() on ratios at every goal's edges, a millionth apart, at
# several magnitudes: wherever a run's timing puts a ratio, its record
# must agree with itself
cat >"$dir/edges.c" <<'C'
#include "bench/bench.h"
int main(void)
{
	static const struct { enum bench_goal_kind kind; double goal, edge; } g[] = {
		{ GOAL_AT_MOST, 1.5, 1.5 }, { GOAL_AT_MOST, 3.0, 3.0 }, { GOAL_AT_MOST, 1.25, 1.25 },
		{ GOAL_AT_LEAST, 0.5, 0.5 }, { GOAL_WITHIN, 0.05, 0.95 }, { GOAL_WITHIN, 0.05, 1.05 },
	};
	static const double base[] = { 1.0, 3.3, 812.7, 12345.6 };

	for (unsigned int i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		for (unsigned int j = 0; j < sizeof(base) / sizeof(base[0]); j++)
			for (int k = -300; k <= 300; k++) {
				double ratio = g[i].edge * (1 + k * 1e-6);

				bench_report("edge", "ns", ratio * base[j], base[j], "b", g[i].kind, g[i].goal, 0);
			}
	return 0;
}
C
${CC:-cc} -std=gnu11 -Wall -Wextra -Werror -I"$src" -o "$dir/edges" "$dir/edges.c" && "$dir/edges" >"$dir/edges.out"
check "bench_report's records agree with themselves at every goal's edge ($(grep -c . "$dir/edges.out" 2>/dev/null) records)" \
	'[ -s "$dir/edges.out" ] && records "$dir/edges.out"'

want=()
for size in 40 800; do
	for mode in "forward with tail" "backward with tail" "forward overwrite" "backward overwrite"; do
		want+=("ringbuf output $size B $mode")
	done
	want+=("ringbuf output $size B forward with tail, header then body")
	want+=("ringbuf output floor $size B overwrite" "ringbuf output floor $size B with tail")
	want+=("ringbuf backward vs forward $size B with tail" "ringbuf backward vs forward $size B overwrite")
done
"$obj/bench/bench_ringbuf" >"$dir/ringbuf.out" 2>"$dir/ringbuf.err"; rc=$?
check "bench_ringbuf exits 0: no record lost in any figure $(head -c 200 "$dir/ringbuf.err")" '[ $rc = 0 ]'
check "bench_ringbuf: the 14 output and direction figures and the 4 floors, each well formed" 'records "$dir/ringbuf.out" "${want[@]}"'
check "the 800-byte figures are judged against 1.25x, the 40-byte ones against 2x, the split record and the floors not at all" \
	'grep -q "\"ringbuf output 800 B forward overwrite\".*\"goal\":\"<=1.25\"" "$dir/ringbuf.out" &&
	 grep -q "\"ringbuf output 40 B backward with tail\".*\"goal\":\"<=2.00\"" "$dir/ringbuf.out" &&
	 grep -q "header then body\".*\"goal\":\"\"" "$dir/ringbuf.out" &&
	 grep -q "\"ringbuf output floor 40 B with tail\".*\"goal\":\"\"" "$dir/ringbuf.out"'

"$obj/bench/bench_ringbuf" scale >"$dir/scale.out" 2>&1; rc=$?
check "bench_ringbuf scale: 4 to 1024 pages, each well formed" \
	'[ $rc = 0 ] && records "$dir/scale.out" "ringbuf scale "{4,16,64,256,1024}" pages"'

"$obj/bench/bench_readers" >"$dir/readers.out" 2>&1; rc=$?
want=()
for size in 40 800; do
	for r in "forward with tail" "backward overwrite" "copy-then-verify" "copy-then-verify cost" floor; do
		want+=("readers $r $size B")
	done
done
check "bench_readers: the three readers, copy-then-verify's cost and the floor at 40 and 800 B, each well formed" \
	'[ $rc = 0 ] && records "$dir/readers.out" "${want[@]}"'
check "the readers are judged against 0.5 of memcpy, the floor not at all" \
	'grep -q "\"readers forward with tail 40 B\".*\"goal\":\">=0.50\"" "$dir/readers.out" &&
	 grep -q "\"readers floor 40 B\".*\"goal\":\"\"" "$dir/readers.out"'

# scripts/bench.sh on fakes: one program whose figures move from pass to
# pass (bench.sh runs the programs three times: before the scripts, after
# the first, at the end), one script.
mkdir -p "$dir/fake/bench" "$dir/fake.d"
cat >"$dir/fake/bench/bench_fake" <<EOF
#!/bin/bash
pass=\$(( \$(cat "$dir/pass" 2>/dev/null || echo 0) + 1 ))
echo \$pass >"$dir/pass"
set -- 1.9 1.6 1.7; at_most=\${!pass}
rec() { echo "{\"figure\":\"\$1\",\"unit\":\"ns\",\"value\":\$2,\"baseline\":1,\"baseline_name\":\"b\",\"ratio\":\$2,\"goal\":\"\$3\",\"met\":\$4,\"noise\":0.01}"; }
rec "fake at most" \$at_most "<=1.50" false
rec "fake at least" 0.25 ">=0.50" false
rec "fake within" 1.06 "1+-0.05" false
rec "fake reported" 3 "" true
echo "not a record: ignored"
EOF
cat >"$dir/fake.d/fake.sh" <<'EOF'
echo '{"figure":"fake script","unit":"s","value":1,"baseline":2,"baseline_name":"b","ratio":0.5,"goal":"<=1.00","met":true,"noise":0}'
EOF
chmod +x "$dir/fake/bench/bench_fake"
BENCH_D=$dir/fake.d "$src/scripts/bench.sh" "$dir/fake" "$dir/out/bench.json" >"$dir/table" 2>"$dir/bench.err"; rc=$?
check "bench.sh exits 0 and writes the JSON" '[ $rc = 0 ] && [ -s "$dir/out/bench.json" ]'
check "bench.sh ran the program three times" '[ "$(cat "$dir/pass")" = 3 ]'
check "the median pass's figure is the one kept, its noise the spread between passes (0.3 / 1.7)" \
	'python3 -c "
import json, sys
r = {x[\"figure\"]: x for x in json.load(open(sys.argv[1]))}
m = r[\"fake at most\"]
sys.exit(not (m[\"ratio\"] == 1.7 and m[\"noise\"] == 0.176 and m[\"processes\"] == 3 and len(r) == 5))
" "$dir/out/bench.json"'
check "a missed at-most goal says by how much (1.7 against 1.5: 1.13x)" \
	'grep -E "^fake at most .* NO  \(off by 1\.13x\)$" "$dir/table" >/dev/null'
check "a missed at-least goal says by how much (0.25 against 0.5: 2.00x)" \
	'grep -E "^fake at least .* NO  \(off by 2\.00x\)$" "$dir/table" >/dev/null'
check "a missed within goal gives the distance and the allowance" \
	'grep -E "^fake within .* NO  \(off by 6\.0%, allowed 5%\)$" "$dir/table" >/dev/null'
check "a figure with no goal is reported, not judged; a script's figure is judged" \
	'grep -E "^fake reported .* -$" "$dir/table" >/dev/null && grep -E "^fake script .* yes$" "$dir/table" >/dev/null'
check "the count of goals met" 'grep -qx "1 of 4 goals met; written to $dir/out/bench.json" "$dir/table"'

# a figure is measured or make bench fails: a script whose host lacks a
# tool (benchlib.not_measured), and one that fails outright
cat >"$dir/fake.d/lacking.py" <<'PY'
import benchlib as b
b.not_measured(["fake lacking"], "fakeprog is not installed")
PY
cp "$src/scripts/bench.d/benchlib.py" "$dir/fake.d/"
rm -f "$dir/pass"	# (bench_fake's three passes begin again)
BENCH_D=$dir/fake.d "$src/scripts/bench.sh" "$dir/fake" "$dir/out/bench.json" >"$dir/table" 2>"$dir/bench.err"; rc=$?
check "a figure not measured fails make bench (exit $rc), named on one line with its reason" \
	'[ $rc != 0 ] && grep -qE "^fake lacking +not measured: fakeprog is not installed$" "$dir/table" &&
	 grep -qx "bench: fake lacking: not measured: fakeprog is not installed" "$dir/bench.err" &&
	 grep -qx "bench: 1 figures not measured, 0 bench programs or scripts failed" "$dir/table"'
rm "$dir/fake.d/lacking.py"
printf 'import sys\nsys.exit("bench: broken: it broke")\n' >"$dir/fake.d/broken.py"
rm -f "$dir/pass"
BENCH_D=$dir/fake.d "$src/scripts/bench.sh" "$dir/fake" "$dir/out/bench.json" >"$dir/table" 2>"$dir/bench.err"; rc=$?
check "a script that fails fails make bench (exit $rc)" \
	'[ $rc != 0 ] && grep -qx "bench: 0 figures not measured, 1 bench programs or scripts failed" "$dir/table"'
rm "$dir/fake.d/broken.py"

# the record figure's Valgrind tool is the project's to build: bench-build makes it
if [ -e /usr/lib/x86_64-linux-gnu/valgrind/libcoregrind-amd64-linux.a ]; then
	check "the bench tree has pmusim's Valgrind tool, which the record figure needs" \
		'[ -x "$obj/vgtool/lib/pmusim-amd64-linux" ]'
else
	skip "the bench tree's Valgrind tool: no valgrind archives on this host"
fi

# bench/sqlite_workload.c, which bolt.py builds against the downloaded
# amalgamation, built here against the packaged SQLite: one line of
# checksums, the same from run to run, another for another row count
if [ -e /usr/include/sqlite3.h ]; then
	${CC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -o "$dir/sqlite_workload" \
		"$src/bench/sqlite_workload.c" -lsqlite3 2>"$dir/workload.err"
	check "bench/sqlite_workload.c builds without a warning $(head -c 200 "$dir/workload.err")" \
		'[ -x "$dir/sqlite_workload" ] && [ ! -s "$dir/workload.err" ]'
	"$dir/sqlite_workload" 3000 >"$dir/w1" 2>&1; rc1=$?
	"$dir/sqlite_workload" 3000 >"$dir/w2" 2>&1; rc2=$?
	"$dir/sqlite_workload" 3001 >"$dir/w3" 2>&1
	check "the workload prints one line of checksums, the same twice, another for 3001 rows: $(cat "$dir/w1")" \
		'[ $rc1 = 0 ] && [ $rc2 = 0 ] && grep -qxE "rows [0-9]+ digest [0-9a-f]{16}" "$dir/w1" &&
		 cmp -s "$dir/w1" "$dir/w2" && ! cmp -s "$dir/w1" "$dir/w3"'
	"$dir/sqlite_workload" 0 >"$dir/w4" 2>&1; rc1=$?
	"$dir/sqlite_workload" 12x >>"$dir/w4" 2>&1; rc2=$?
	check "a bad row count: one line each, exit 2" \
		'[ $rc1 = 2 ] && [ $rc2 = 2 ] && [ "$(grep -c "^usage: sqlite_workload \[ROWS\]" "$dir/w4")" = 2 ] &&
		 [ "$(wc -l <"$dir/w4")" = 2 ]'
else
	skip "bench/sqlite_workload.c: no packaged SQLite (libsqlite3-dev, scripts/install-deps.sh check)"
fi

# bolt.py checks the cached tarball against its pinned sha256: a tampered
# one is named in one line and removed, and nothing is built from it
if [ -x /usr/lib/llvm-16/bin/llvm-bolt ] && command -v valgrind >/dev/null && command -v perf >/dev/null; then
	tgz=$(sed -n 's/^TARBALL = "\(.*\)"$/\1/p' "$src/scripts/bench.d/bolt.py")
	cache=$dir/objtree/sqlite/${tgz%.tgz}
	mkdir -p "$cache"
	echo "not the package" >"$cache/$tgz"
	PMUSIM_OBJTREE=$dir/objtree PYTHONDONTWRITEBYTECODE=1 python3 "$src/scripts/bench.d/bolt.py" \
		>"$dir/bolt.out" 2>"$dir/bolt.err"; rc=$?
	check "a tarball whose sha256 is not the pinned one: exit $rc, one line naming it, removed" \
		'[ $rc = 1 ] && [ -n "$tgz" ] && [ ! -s "$dir/bolt.out" ] && [ "$(wc -l <"$dir/bolt.err")" = 1 ] &&
		 grep -q "^bench: bolt: $cache/$tgz: sha256 [0-9a-f]\{64\}, not " "$dir/bolt.err" &&
		 [ ! -e "$cache/$tgz" ] && [ ! -e "$cache/sqlite3.c" ]'
else
	skip "bolt.py's tarball check: bolt-16, valgrind or perf is not installed (scripts/install-deps.sh bench)"
fi

echo "1..$n"
