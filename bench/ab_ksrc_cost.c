// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload whose instructions `make ab KSRC=DIR BASE=REV` counts
 * under callgrind for the kernel's own ring_buffer.c (scripts/ksrc-ab.sh),
 * as bench/ab_cost.c does for core/:
 *
 *   output-forward N, output-backward N
 *              N 40-byte records into an 8-page overwrite buffer, each
 *              through the kernel file's perf_output_begin, perf_output_copy
 *              and perf_output_end (ksrc/ring_buffer_ksrc.h). Collect in:
 *              ab_ksrc_record*.
 *
 * It checks every record was written and prints "MODE N OPS"; exit 1
 * otherwise, and 77 without a kernel tree in this build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <generated/ksrc.h>
#ifdef KSRC_UNIT_RING_BUFFER
#include "ksrc/ring_buffer_ksrc.h"

static char record[40] __attribute__((aligned(8)));

/* One record, begin to end. */
static __attribute__((noinline)) int ab_ksrc_record(struct ksrc_event *ev)
{
	struct ksrc_output_handle handle;

	if (ksrc_output_begin(&handle, ev, sizeof(record)))
		return 0;
	ksrc_output_copy(&handle, record, sizeof(record));
	ksrc_output_end(&handle);
	return 1;
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = { .size = sizeof(attr), .sample_type = PERF_SAMPLE_IP };
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(record) };
	struct ksrc_buffer *buf;
	struct ksrc_event *ev;
	unsigned long n, done = 0;

	if (argc != 3 || (strcmp(argv[1], "output-forward") && strcmp(argv[1], "output-backward"))) {
		fprintf(stderr, "usage: ab_ksrc_cost output-forward|output-backward N\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	attr.write_backward = !strcmp(argv[1], "output-backward");
	memcpy(record, &h, sizeof(h));
	buf = ksrc_rb_alloc(8, 0, false);
	ev = buf ? ksrc_event_new(buf, &attr, 1) : NULL;
	if (!ev) {
		fprintf(stderr, "ab_ksrc_cost: no buffer\n");
		return 1;
	}
	for (unsigned long i = 0; i < n; i++)
		done += ab_ksrc_record(ev);
	ksrc_event_free(ev);
	ksrc_rb_free(buf);
	if (done != n) {
		fprintf(stderr, "ab_ksrc_cost: %lu of %lu records written\n", done, n);
		return 1;
	}
	printf("%s %lu %lu\n", argv[1], n, done);
	return 0;
}
#else
int main(void)
{
	fprintf(stderr, KSRC_NO_UNIT("ring_buffer") "\n");
	return 77;
}
#endif
