// SPDX-License-Identifier: GPL-2.0-only
/*
 * Self-checking ring-buffer records; the layout is in ringbuf_oracle.h.
 */
#include <string.h>

#include "tests/lib/ringbuf_oracle.h"

/* A 64-bit mix (splitmix64's finaliser): any changed word changes the sum. */
static uint64_t rb_oracle_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Over whole 8-byte words, position-dependent, so swapped words show too. */
static uint64_t rb_oracle_sum(const unsigned char *p, size_t len)
{
	uint64_t h = 0x243f6a8885a308d3ull, w;
	size_t i;

	for (i = 0; i < len; i += 8) {
		memcpy(&w, p + i, sizeof(w));
		h = rb_oracle_mix(h ^ w ^ i);
	}
	return h;
}

static uint64_t rb_oracle_fill(uint32_t writer, uint64_t seq, uint32_t i)
{
	return rb_oracle_mix(seq * 0x9e3779b97f4a7c15ull + ((uint64_t)writer << 32) + i);
}

void rb_oracle_encode(void *buf, uint32_t writer, uint64_t seq, uint32_t size)
{
	struct perf_event_header hdr = {
		.type = PERF_RECORD_SAMPLE,
		.misc = 0,
		.size = (uint16_t)size,
	};
	unsigned char *p = buf;
	uint64_t sum;
	uint32_t i;

	memcpy(p, &hdr, sizeof(hdr));
	memcpy(p + 8, &writer, sizeof(writer));
	memcpy(p + 12, &size, sizeof(size));
	memcpy(p + 16, &seq, sizeof(seq));
	for (i = 24; i < size - 8; i += 8) {
		uint64_t w = rb_oracle_fill(writer, seq, i);

		memcpy(p + i, &w, sizeof(w));
	}
	sum = rb_oracle_sum(p, size - 8);
	memcpy(p + size - 8, &sum, sizeof(sum));
}

const char *rb_oracle_check(const void *rec, size_t size, struct rb_oracle_rec *out)
{
	const unsigned char *p = rec;
	struct perf_event_header hdr;
	struct rb_oracle_rec r;
	uint64_t sum;
	uint32_t i;

	if (size < RB_ORACLE_MIN_SIZE || size > RB_ORACLE_MAX_SIZE || (size & 7))
		return "size out of range or not 8-aligned";
	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.type != PERF_RECORD_SAMPLE || hdr.misc != 0)
		return "header type/misc is not the writer's";
	if (hdr.size != size)
		return "header size differs from the size returned";
	memcpy(&r.writer, p + 8, sizeof(r.writer));
	memcpy(&r.size, p + 12, sizeof(r.size));
	memcpy(&r.seq, p + 16, sizeof(r.seq));
	if (r.size != size)
		return "encoded size differs from the header's";
	memcpy(&sum, p + size - 8, sizeof(sum));
	if (sum != rb_oracle_sum(p, size - 8))
		return "checksum mismatch (torn or mixed record)";
	for (i = 24; i < size - 8; i += 8) {
		uint64_t w;

		memcpy(&w, p + i, sizeof(w));
		if (w != rb_oracle_fill(r.writer, r.seq, i))
			return "filler word wrong";
	}
	*out = r;
	return NULL;
}

const char *rb_oracle_check_lost(const void *rec, size_t size, uint64_t event_id,
				 size_t trailer, uint64_t *lost)
{
	const unsigned char *p = rec;
	struct perf_event_header hdr;
	uint64_t id;

	if (size != sizeof(hdr) + 16 + trailer)
		return "LOST record has the wrong size";
	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.type != PERF_RECORD_LOST || hdr.misc != 0 || hdr.size != size)
		return "LOST header wrong";
	memcpy(&id, p + 8, sizeof(id));
	memcpy(lost, p + 16, sizeof(*lost));
	if (id != event_id)
		return "LOST record carries another event's id";
	return NULL;
}
