#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# pmusim stitch's output, beyond agreeing with perf on one chain
# (test_perf_compat.c): the same frames in another process print that
# process's symbols (a stack equal to the previous sample's is copied
# only within one process); samples out of time order in the file print
# in time order, byte for byte as from the ordered file; symbol names
# longer than a cache slot or the whole output buffer print whole; and an
# output that cannot be written is one line and exit 1, not a silent
# success. A build without CONFIG_LBR_STITCH has no pmusim stitch
# (test_stitch.c checks that it refuses).
set -u
. "$PMUSIM_SRCTREE/tests/lib/tap_lib.sh"
if ! grep -qx CONFIG_LBR_STITCH=y "$PMUSIM_OBJTREE/.config"; then
	echo "# skipped: this build has no CONFIG_LBR_STITCH (no pmusim stitch)"
	skip "no CONFIG_LBR_STITCH"
	echo "1..$n"
	exit 0
fi
have_perf=false
command -v perf >/dev/null 2>&1 && perf --version >/dev/null 2>&1 && have_perf=true
if ! command -v python3 >/dev/null 2>&1; then
	echo "1..0 # skipped: python3 is not installed (it rewrites the test files)"
	exit 0
fi

# one tchain task with LBR call stacks: most samples repeat the stack before
cat >"$dir/s.yaml" <<'EOF'
seed: 5
duration: 40000000
machine: { cpu: skylake, cpus: 1, hz: 1000, timeslice: 8400000, quantum: 210000 }
tasks:
  - name: tchain
    workload: { kind: tchain, depth: 43, leaf_loops: 10000, mid_loops: 100, outer_loops: 10000 }
events:
  - event: cycles:u
    period: 20011
    call_graph: lbr
    sample_type: [ip, tid, time, cpu, period]
    scope: task
EOF
"$PMUSIM" run "$dir/s.yaml" -o "$dir/a.data" --map-dir "$dir" --no-progress >/dev/null 2>"$dir/run.err" ||
	{ echo "Bail out! pmusim run failed: $(head -1 "$dir/run.err")"; exit 1; }

# rewrite.py MODE IN OUT: "pid" moves every third sample to process and
# thread 4242 (no mapping, so its frames are [unknown]); "order" reverses
# the samples of every run of five (their times then go backwards).
cat >"$dir/rewrite.py" <<'EOF'
import struct, sys
mode, src, dst = sys.argv[1:]
d = bytearray(open(src, "rb").read())
off, size = struct.unpack_from("<QQ", d, 40)
recs, p = [], off
while p < off + size:
    typ, _, sz = struct.unpack_from("<IHH", d, p)
    recs.append((p, typ, sz))
    p += sz
samples = [i for i, r in enumerate(recs) if r[1] == 9]
if mode == "pid":
    for k in samples[::3]:
        struct.pack_into("<II", d, recs[k][0] + 16, 4242, 4242)	# after header and ip
    open(dst, "wb").write(d)
else:
    order = list(range(len(recs)))
    for s in range(0, len(samples) - 5, 5):
        run = samples[s:s + 5]
        for a, b in zip(run, reversed(run)):
            order[a] = b
    body = b"".join(bytes(d[recs[i][0]:recs[i][0] + recs[i][2]]) for i in order)
    open(dst, "wb").write(bytes(d[:off]) + body + bytes(d[off + size:]))
EOF
python3 "$dir/rewrite.py" pid "$dir/a.data" "$dir/pid.data"
python3 "$dir/rewrite.py" order "$dir/a.data" "$dir/order.data"

"$PMUSIM" stitch --tid-time --map-dir "$dir" "$dir/pid.data" >"$dir/pid.out" 2>"$dir/pid.err"
check "a file with samples of two processes stitches" '[ $? = 0 ] && [ ! -s "$dir/pid.err" ]'
# per sample: its tid and whether its frames are named or [unknown]
awk '/^ *[0-9]+ +[0-9.]+: $/ { tid = $1; next }
     /^\t/ { k[tid "," ($NF == "[unknown]")]++ }
     END { for (x in k) print x, k[x] }' "$dir/pid.out" | sort >"$dir/pid.kinds"
check "the moved samples print [unknown], the others tchain names, none mixed" \
	'[ "$(cut -d" " -f1 "$dir/pid.kinds" | tr "\n" " ")" = "1000,0 4242,1 " ]'
if $have_perf; then
	perf script -i "$dir/pid.data" -F tid,time,ip,sym --stitch-lbr >"$dir/pid.perf" 2>/dev/null
	# perf looks only in /tmp for maps: compare the addresses, not the names
	check "perf prints the same stacks, sample by sample" \
		'[ "$(awk "{ print \$1 }" "$dir/pid.perf" | md5sum)" = "$(awk "{ print \$1 }" "$dir/pid.out" | md5sum)" ]'
else
	skip "perf is not installed"
fi

"$PMUSIM" stitch --tid-time --map-dir "$dir" "$dir/a.data" >"$dir/a.out" 2>&1
"$PMUSIM" stitch --tid-time --map-dir "$dir" "$dir/order.data" >"$dir/order.out" 2>"$dir/order.err"
check "samples out of time order print in time order, as from the ordered file" \
	'[ $? = 0 ] && [ ! -s "$dir/order.err" ] && ! cmp -s "$dir/a.data" "$dir/order.data" && cmp -s "$dir/a.out" "$dir/order.out"'

# long symbol names: past a cache slot (48 bytes) and past the output
# buffer (64 KiB); every line is still "\t<address> <its symbol>"
mkdir "$dir/long"
python3 - "$dir" <<'EOF'
import sys
d = sys.argv[1]
out = []
lines = open(d + "/perf-1000.map").read().splitlines()
for i, line in enumerate(lines):
    start, size, name = line.split(" ", 2)
    if i == len(lines) - 1:
        name += "_" + "x" * 70000	# the leaf, in most stacks
    elif i % 3 == 0:
        name += "_" + "x" * (40 + i)
    out.append(" ".join((start, size, name)))
open(d + "/long/perf-1000.map", "w").write("\n".join(out) + "\n")
EOF
# a copy whose program is anonymous text, named by perf-PID.map (a JIT's
# way) rather than by its ELF file: MMAP2's file name becomes //anon
python3 - "$dir" <<'EOF'
import struct, sys
d = sys.argv[1]
b = bytearray(open(d + "/a.data", "rb").read())
off, size = struct.unpack_from("<QQ", b, 40)
p = off
while p < off + size:
    typ, _, sz = struct.unpack_from("<IHH", b, p)
    if typ == 10:	# MMAP2: the name is NUL-padded up to the sample_id trailer
        name = p + 8 + 64
        end = b.index(0, name)
        b[name:end] = b"//anon".ljust(end - name, b"\0")
    p += sz
open(d + "/anon.data", "wb").write(b)
EOF
"$PMUSIM" stitch --map-dir "$dir/long" "$dir/anon.data" >"$dir/long.out" 2>"$dir/long.err"
"$PMUSIM" stitch --no-sym "$dir/anon.data" >"$dir/nosym.out" 2>&1
check "long symbol names print whole, each after its address" '[ ! -s "$dir/long.err" ] && python3 - "$dir" <<'"'"'EOF'"'"'
import sys
d = sys.argv[1]
syms = [l.split(" ", 2) for l in open(d + "/long/perf-1000.map").read().splitlines()]
syms = [(int(a, 16), int(s, 16), n) for a, s, n in syms]
def name(ip):
    return next((n for a, s, n in syms if a <= ip < a + s), "[unknown]")
got = open(d + "/long.out").read().split("\n")
want = [l + " " + name(int(l, 16)) if l.startswith("\t") else l
        for l in open(d + "/nosym.out").read().split("\n")]
sys.exit(got != want or max(map(len, got)) < 70000)
EOF'

if [ -w /dev/full ]; then
	"$PMUSIM" stitch --map-dir "$dir" "$dir/a.data" >/dev/full 2>"$dir/full.err"
	check "an output that cannot be written: exit 1, one line naming why" \
		'[ $? = 1 ] && [ "$(wc -l <"$dir/full.err")" = 1 ] && grep -q "cannot write the output: No space left on device" "$dir/full.err"'
else
	skip "no /dev/full"
fi
echo "1..$n"
