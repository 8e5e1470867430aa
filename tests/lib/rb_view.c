// SPDX-License-Identifier: GPL-2.0-only
/*
 * A minimal reader for the ring-buffer tests: it knows the buffer only
 * through the mmap page (data_offset, data_size, data_head, data_tail),
 * as user space does. The real readers live in tools/lib/perf/.
 */
#include "tests/core/ring_buffer_test.h"

void rbt_view_init(struct rbt_view *v, struct perf_buffer *rb)
{
	v->pg = rb->user_page;
	v->data = (unsigned char *)v->pg + v->pg->data_offset;
	v->size = v->pg->data_size;
}

u64 rbt_read_head(const struct rbt_view *v)
{
	return smp_load_acquire(&v->pg->data_head);	/* C */
}

void rbt_write_tail(const struct rbt_view *v, u64 tail)
{
	smp_store_release(&v->pg->data_tail, tail);	/* D */
}

void rbt_copy_out(const struct rbt_view *v, u64 pos, void *dst, size_t len)
{
	unsigned char *out = dst;

	while (len) {
		u64 off = pos & (v->size - 1);
		size_t chunk = v->size - off;

		if (chunk > len)
			chunk = len;
		memcpy(out, v->data + off, chunk);
		out += chunk;
		pos += chunk;
		len -= chunk;
	}
}

int rbt_parse(const struct rbt_view *v, u64 start, u64 end,
	      struct rbt_rec *recs, int max)
{
	int n = 0;

	while (start != end) {
		struct perf_event_header h;
		u64 words[2] = { 0, 0 };

		if (end - start < sizeof(h) || n == max)
			return -1;
		rbt_copy_out(v, start, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > end - start)
			return -1;
		rbt_copy_out(v, start + sizeof(h), words,
			     min((size_t)(h.size - sizeof(h)), sizeof(words)));
		recs[n] = (struct rbt_rec){
			.pos = start, .type = h.type, .misc = h.misc,
			.size = h.size, .word1 = words[0], .word2 = words[1],
		};
		n++;
		start += h.size;
	}
	return n;
}
