# SPDX-License-Identifier: GPL-2.0-only
#
# A random `pmusim ringbuf` script from a seed: awk -v seed=N -f ringbuf_gen.awk
# Deterministic (its own 32-bit LCG, exact in awk's doubles) and independent
# of pmusim. The first lines name the options and the mode
# (tests/replay/ringbuf_lib.sh) to run it with. Records are
# never larger than the data area, so that an overwrite buffer never holds
# the torn remains of a record longer than itself (whose bytes the two
# backends fill differently).

function rnd(n) {
	state = (state * 69069 + 12345) % 4294967296
	return int(state / 65536) % n
}

function record_size(limit,    c, s) {
	c = rnd(10)
	if (c < 2)
		s = 16 + 8 * rnd(4)
	else if (c < 7)
		s = 48 + 8 * rnd(60)
	else if (c < 9)
		s = 8 * (2 + rnd(511))
	else
		s = 8 * (2 + rnd(8190))
	return s > limit ? limit : s
}

BEGIN {
	state = seed + 0
	rnd(2)
	pages = 2 ^ rnd(5)
	data_size = pages * 4096
	limit = data_size > 65528 ? 65528 : data_size
	mode = rnd(4)
	opts = "--pages " pages
	if (rnd(2))
		opts = opts " --sample-id-all"
	split("fwd fwd-ro bwd-ro bwd", mode_names, " ")
	print "# options: " opts
	print "# modes: " mode_names[mode + 1]
	print "# generated from seed " seed
	nops = 8 + rnd(25)
	paused = 0
	for (i = 0; i < nops; i++) {
		r = rnd(100)
		if (r < 55) {
			n = 1 + rnd(rnd(4) ? 8 : 60)
			print "write " record_size(limit) " " n
		} else if (r < 70 && mode == 0) {
			print rnd(2) ? "read" : "read " (1 + rnd(10))
		} else if (r < 80) {
			print paused ? "resume" : "pause"
			paused = !paused
		} else {
			print "dump"
		}
	}
	if (paused && rnd(2))
		print "resume"
	print "write " record_size(limit)
	print "dump"
}
