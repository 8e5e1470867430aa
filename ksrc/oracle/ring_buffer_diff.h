/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The differential oracle of the ring buffer: one schedule run on core/'s
 * ring buffer and on the kernel's own kernel/events/ring_buffer.c (ksrc/),
 * compared at every interleaving point and after every operation; the
 * first difference is named (buffer bytes, data_head/data_tail, rb->head,
 * the lost count, the wakeup stamp, wakeups, lost_samples, the point
 * reached). Both runs also check that data_head is never published over
 * bytes no store fence has passed (a missing smp_wmb).
 *
 * The input is fuzz_ringbuf's (fuzz/fuzz_ringbuf.c): byte 0 the buffer
 * (pages 1 << (b & 7) % 5, 0x08 backward, 0x10 overwrite, 0x20
 * sample_id_all, 0x40 attr.watermark), byte 1 the wakeup setting, then
 * 2-byte ops (op b0 & 7 bound to point (b0 >> 3) - 1, arg b1): write,
 * sample, write-big, read, pause, resume, tail, window. Here op 6 with
 * arg bit 7 set does not write garbage to data_tail: it moves data_tail
 * so that exactly 16 + 8 * (arg & 0x3f) bytes are free (one fewer with
 * bit 6) and writes a record of that size: the exact-fit boundary of
 * ring_buffer_has_space(), made on purpose. Window ops change nothing.
 */
#ifndef PMUSIM_KSRC_ORACLE_RING_BUFFER_DIFF_H
#define PMUSIM_KSRC_ORACLE_RING_BUFFER_DIFF_H

#include <stddef.h>
#include <stdint.h>

/*
 * Run @data on both. Returns 0 when they agree, 1 at the first difference
 * (or broken fence rule), with one line naming it in @why, and the ops
 * run up to it, one a line, in @trace (when not NULL).
 */
int ksrc_ringbuf_diff(const uint8_t *data, size_t size, char *why, size_t why_len,
		      char *trace, size_t trace_len);

/* The same; a difference prints the schedule and its name, then aborts (fuzzers). */
void ksrc_ringbuf_diff_or_abort(const uint8_t *data, size_t size);

/*
 * The boundary inputs: for every buffer mode and page count, records that
 * fit with 0, 1 and 8 bytes to spare and that miss by one, with and
 * without a LOST record pending, across the end of the buffer. Writes
 * input @i (of ksrc_ringbuf_boundary_count()) into @buf (at least
 * KSRC_DIFF_INPUT_MAX bytes) and returns its length.
 */
#define KSRC_DIFF_INPUT_MAX	1026
size_t ksrc_ringbuf_boundary_count(void);
size_t ksrc_ringbuf_boundary_input(size_t i, uint8_t *buf);

#endif /* PMUSIM_KSRC_ORACLE_RING_BUFFER_DIFF_H */
