# SPDX-License-Identifier: GPL-2.0-only
#
# Simulation speed and end to end:
#  - simulated taken branches per second of one tchain task with LBR call
#    stacks and sampling on, against bench/tchain_native (the same calls
#    and branches run on the host), as ns per branch: goal at most 1.5x;
#  - the default scenario end to end: samples per CPU second against the
#    rate the modelled machine makes them in its own (simulated) time,
#    and perf.data MB per CPU second against write() of the same bytes.
import json
import os
import tempfile
import time

import benchlib as b

ROUNDS = 5


def simulation(work):
    scn = b.tchain_scenario(cpus=1, duration=60_000_000)
    native = os.path.join(b.OBJTREE, "bench", "tchain_native")
    sim_ns, nat_ns = [], []
    for _ in range(ROUNDS):    # alternated, so a noisy neighbour hits both
        r, j = b.pmusim_run(scn, work)
        sim_ns.append(r.cpu / j["branches"] * 1e9)
        n = b.run([native, "10000", "100", "500", "2000"])
        nj = json.loads(n.out)
        nat_ns.append(nj["cpu_seconds"] / nj["branches"] * 1e9)
    b.report("simulation tchain LBR+sampling", "ns/branch", b.median(sim_ns), b.median(nat_ns),
             "native tchain", "<=", 1.5, b.spread([s / n for s, n in zip(sim_ns, nat_ns)]))


def write_same_bytes(path, size):
    """CPU seconds to write() @size bytes to a new file in 64 KiB chunks."""
    chunk = b"\0" * 65536
    t0 = time.thread_time()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    left = size
    while left:
        left -= os.write(fd, chunk[:min(left, len(chunk))])
    os.close(fd)
    return time.thread_time() - t0


def end_to_end(work):
    scn = open(os.path.join(b.SRCTREE, "scenarios", "default.yaml")).read()
    cpu, wr, samples, size, sim_s = [], [], 0, 0, 0.0
    for _ in range(3):
        r, j = b.pmusim_run(scn, work)
        size = os.path.getsize(os.path.join(work, "perf.data"))
        samples = j["samples"]
        # the model's cycles at its nominal clock (skylake: 2.1 GHz)
        sim_s = j["duration"] / 2.1e9
        cpu.append(r.cpu)
        wr.append(min(write_same_bytes(os.path.join(work, "same.bytes"), size)
                      for _ in range(5)))
    c = b.median(cpu)
    b.report("end to end default scenario samples/s", "samples/s", samples / c,
             samples / sim_s, "modelled machine, real time", None, 0, b.spread(cpu))
    b.report("end to end default scenario perf.data MB/s", "MB/s", size / c / 1e6,
             size / b.median(wr) / 1e6, "write() same bytes", None, 0,
             b.spread([x / y for x, y in zip(cpu, wr)]))


with tempfile.TemporaryDirectory() as work:
    simulation(work)
    end_to_end(work)
