// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fixed workloads `make ab` counts instructions of under callgrind.
 * `ab_cost output N` writes N 40-byte records through
 * perf_output_begin/copy/end into an 8-page overwrite buffer, half
 * forward and half backward. scripts/ab.sh runs each mode with N and 2N
 * and divides the difference by N, so set-up cost cancels out and the
 * figure is instructions per operation, the same on every machine.
 */
#include "core/internal.h"

static void run_output(unsigned long n)
{
	static struct perf_event ev[2];
	static char payload[32];
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER, .size = 40,
	};

	for (int d = 0; d < 2; d++) {
		struct perf_output_handle handle;
		struct perf_buffer *rb = rb_alloc(8, 0, 0, 0);

		if (!rb)
			exit(1);
		ev[d].attr.size = sizeof(ev[d].attr);
		ev[d].attr.write_backward = d;
		ev[d].attr.watermark = 1;
		ev[d].attr.wakeup_watermark = 1u << 30;
		ring_buffer_attach(&ev[d], rb);
		for (unsigned long i = 0; i < n / 2; i++) {
			if (perf_output_begin(&handle, NULL, &ev[d], hdr.size))
				continue;
			perf_output_put(&handle, hdr);
			perf_output_copy(&handle, payload, sizeof(payload));
			perf_output_end(&handle);
		}
		ring_buffer_attach(&ev[d], NULL);
	}
}

int main(int argc, char **argv)
{
	unsigned long n;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 0)) == 0) {
		fprintf(stderr, "usage: ab_cost output N\n");
		return 2;
	}
	if (!strcmp(argv[1], "output")) {
		run_output(n);
		return 0;
	}
	fprintf(stderr, "ab_cost: unknown mode '%s'\n", argv[1]);
	return 2;
}
