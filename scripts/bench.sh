#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the benchmarks of one build (OBJTREE) and write JSON (OUT): each
# bench/bench_* program (with its modes) and each scripts/bench.d/*.sh
# prints one JSON object per figure. The table goes to stdout.
set -u
objtree=$1
out=$2
srctree=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$(dirname "$out")"
lines=$(mktemp)
trap 'rm -f "$lines"' EXIT

run() { echo "  running $*" >&2; "$@" >>"$lines" || echo "bench: '$*' failed" >&2; }

for b in "$objtree"/bench/bench_*; do
	[ -x "$b" ] || continue
	case $b in *.d) continue ;; esac
	run "$b"
	[ "$(basename "$b")" = bench_ringbuf ] && run "$b" scale
done
for s in "$srctree"/scripts/bench.d/*.sh; do
	[ -e "$s" ] && PMUSIM="$objtree/pmusim" PMUSIM_OBJTREE="$objtree" run bash "$s"
done

python3 - "$lines" "$out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
json.dump(rows, open(sys.argv[2], "w"), indent=1)
w = max([len(r["figure"]) for r in rows] + [6])
print(f"{'figure':<{w}}  {'value':>10} {'baseline':>10} {'ratio':>7}  {'goal':>7}  met")
for r in rows:
    miss = ""
    if not r["met"] and r["goal"]:
        g = float(r["goal"].lstrip("<>="))
        miss = f"  (off by {r['ratio'] / g:.2f}x)" if r["goal"].startswith("<=") else f"  (off by {g / r['ratio'] if r['ratio'] else float('inf'):.2f}x)"
    print(f"{r['figure']:<{w}}  {r['value']:>10.2f} {r['baseline']:>10.2f} {r['ratio']:>7.3f}  {r['goal']:>7}  {'yes' if r['met'] else 'NO'}{miss}")
met = sum(r["met"] for r in rows)
print(f"{met} of {len(rows)} goals met; written to {sys.argv[2]}")
PY
