// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ring-buffer tests' reader (rb_view.h): through the mmap page only.
 */
#include <string.h>

#include "core/kernel.h"
#include "tests/lib/rb_view.h"

void rbt_view_init_page(struct rbt_view *v, struct perf_event_mmap_page *pg)
{
	v->pg = pg;
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

int rbt_parse_since(const struct rbt_view *v, bool backward, u64 from,
		    struct rbt_rec *recs, int max)
{
	struct rbt_rec tmp[1024];
	u64 head = rbt_read_head(v);
	int n, i, j, out = 0;

	if (!backward)
		return rbt_parse(v, from, head, recs, max);
	n = rbt_parse(v, head, from, tmp, min(max, (int)ARRAY_SIZE(tmp)));
	if (n < 0)
		return n;
	for (i = n; i > 0; i = j) {
		j = i - 1;
		if (j > 0 && tmp[j - 1].type == PERF_RECORD_LOST)
			j--;
		memcpy(&recs[out], &tmp[j], (i - j) * sizeof(tmp[0]));
		out += i - j;
	}
	return out;
}

u64 rbt_header_word(u32 type, u16 misc, u16 size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };
	u64 w;

	memcpy(&w, &h, sizeof(w));
	return w;
}

bool rbt_record_intact(const struct rbt_view *v, const struct rbt_rec *r)
{
	u8 buf[256];
	unsigned int i, k, n;

	if (r->type != RBT_TYPE || r->misc != 0 || r->size < 16)
		return false;
	for (i = 16; i < r->size; i += n) {
		n = min(r->size - i, (unsigned int)sizeof(buf));
		rbt_copy_out(v, r->pos + i, buf, n);
		for (k = 0; k < n; k++)
			if (buf[k] != rbt_pattern(r->word1, i + k))
				return false;
	}
	return true;
}
