// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space ring-buffer readers; see sim/mmap_read.h for what each one
 * reads and promises. Positions are free-running byte counts, as
 * data_head and data_tail are; (pos & mask) is the offset in the data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/mmap_read.h"

static const char *const status_names[] = {
	[PERF_MMAP_READ_END]			= "end",
	[PERF_MMAP_READ_STOPPED]		= "stopped",
	[PERF_MMAP_READ_FELL_BEHIND]		= "fell-behind",
	[PERF_MMAP_READ_BAD_SIZE]		= "bad-size",
	[PERF_MMAP_READ_NOMEM]			= "no-memory",
	[PERF_MMAP_READ_HEADER_OVERWRITTEN]	= "header-overwritten",
	[PERF_MMAP_READ_RECORD_OVERWRITTEN]	= "record-overwritten",
};

const char *perf_mmap_read_status_name(enum perf_mmap_read_status status)
{
	if ((unsigned int)status < sizeof(status_names) / sizeof(status_names[0]))
		return status_names[status];
	return "unknown";
}

int perf_mmap_reader__init(struct perf_mmap_reader *reader, void *base)
{
	struct perf_event_mmap_page *pg = base;
	uint64_t size = pg->data_size;

	memset(reader, 0, sizeof(*reader));
	if (size < 8 || (size & (size - 1)))
		return -EINVAL;
	reader->pg = pg;
	reader->data = (unsigned char *)base + pg->data_offset;
	reader->size = size;
	reader->mask = size - 1;
	reader->prev = __atomic_load_n(&pg->data_tail, __ATOMIC_RELAXED);
	return 0;
}

void perf_mmap_reader__exit(struct perf_mmap_reader *reader)
{
	free(reader->copy);
	reader->copy = NULL;
	reader->copy_size = 0;
}

static int copy_reserve(struct perf_mmap_reader *reader, size_t size)
{
	size_t want = reader->copy_size ? reader->copy_size : 256;
	unsigned char *p;

	if (size <= reader->copy_size)
		return 0;
	if (size > PERF_MMAP_COPY_MAX)
		return -ENOMEM;
	while (want < size)
		want *= 2;
	p = realloc(reader->copy, want);
	if (!p)
		return -ENOMEM;
	reader->copy = p;
	reader->copy_size = want;
	return 0;
}

/* Copy @size bytes at @pos out of the ring into the copy buffer. */
static void copy_out(struct perf_mmap_reader *reader, uint64_t pos, size_t size)
{
	uint64_t off = pos & reader->mask;
	size_t first = size;

	if (off + size > reader->size)
		first = reader->size - off;
	memcpy(reader->copy, reader->data + off, first);
	memcpy(reader->copy + first, reader->data, size - first);
}

/*
 * The record of @size bytes at @pos: in place, or reassembled when it
 * wraps the end of the data. NULL when the copy buffer cannot grow.
 */
static const struct perf_event_header *
record_at(struct perf_mmap_reader *reader, uint64_t pos, size_t size)
{
	uint64_t off = pos & reader->mask;

	if (off + size <= reader->size)
		return (const struct perf_event_header *)(reader->data + off);
	if (copy_reserve(reader, size))
		return NULL;
	copy_out(reader, pos, size);
	reader->stats.copies++;
	return (const struct perf_event_header *)reader->copy;
}

/*
 * header.size as found at @pos. Records are 8-aligned and the data area
 * is a multiple of 8, so an aligned header never straddles the end.
 */
static unsigned int header_size_at(struct perf_mmap_reader *reader, uint64_t pos)
{
	const struct perf_event_header *hdr =
		(const void *)(reader->data + (pos & reader->mask));

	return __atomic_load_n(&hdr->size, __ATOMIC_RELAXED);
}

static bool size_valid(unsigned int size, uint64_t avail)
{
	return size >= sizeof(struct perf_event_header) && !(size & 7) && size <= avail;
}

static void delivered(struct perf_mmap_reader *reader, size_t size)
{
	reader->stats.records++;
	reader->stats.bytes += size;
}

/*
 * The forward walk of [*pos, data_head): shared by the consuming reader
 * (which re-reads data_head after each record and moves data_tail), the
 * peek, and the overwrite-forward reader.
 */
static enum perf_mmap_read_status
forward_walk(struct perf_mmap_reader *reader, uint64_t *pos, unsigned long max,
	     bool consume, perf_mmap_record_fn fn, void *arg)
{
	uint64_t head = perf_mmap__read_head(reader->pg);
	unsigned long n = 0;

	if (head - *pos > reader->size) {
		reader->stats.fell_behind++;
		reader->stats.skipped_bytes += head - *pos;
		*pos = head;
		if (consume)
			perf_mmap__write_tail(reader->pg, head);
		return PERF_MMAP_READ_FELL_BEHIND;
	}
	while (*pos != head && (!max || n < max)) {
		const struct perf_event_header *rec;
		unsigned int size;
		int stop;

		if (*pos & 7) {
			reader->stats.bad_size++;
			return PERF_MMAP_READ_BAD_SIZE;
		}
		size = header_size_at(reader, *pos);
		if (!size_valid(size, head - *pos)) {
			reader->stats.bad_size++;
			return PERF_MMAP_READ_BAD_SIZE;
		}
		rec = record_at(reader, *pos, size);
		if (!rec)
			return PERF_MMAP_READ_NOMEM;
		stop = fn(rec, size, arg);
		delivered(reader, size);
		*pos += size;
		n++;
		if (consume) {
			/* (D): our loads of the record happen before the tail moves. */
			perf_mmap__write_tail(reader->pg, *pos);
		}
		if (stop)
			return PERF_MMAP_READ_STOPPED;
		if (consume)
			head = perf_mmap__read_head(reader->pg);
	}
	return PERF_MMAP_READ_END;
}

enum perf_mmap_read_status
perf_mmap_reader__read_forward(struct perf_mmap_reader *reader, unsigned long max,
			       perf_mmap_record_fn fn, void *arg)
{
	return forward_walk(reader, &reader->prev, max, true, fn, arg);
}

enum perf_mmap_read_status
perf_mmap_reader__peek_forward(struct perf_mmap_reader *reader,
			       perf_mmap_record_fn fn, void *arg)
{
	uint64_t pos = reader->prev;
	enum perf_mmap_read_status status;

	status = forward_walk(reader, &pos, 0, false, fn, arg);
	return status;
}

enum perf_mmap_read_status
perf_mmap_reader__read_overwrite_forward(struct perf_mmap_reader *reader,
					 perf_mmap_record_fn fn, void *arg)
{
	return forward_walk(reader, &reader->prev, 0, false, fn, arg);
}

/*
 * The window a backward buffer can hold: from data_head, the bytes
 * written so far (-head) until the writer has wrapped, then one buffer.
 */
static uint64_t backward_window(struct perf_mmap_reader *reader, uint64_t head)
{
	uint64_t written = -head;

	return written < reader->size ? written : reader->size;
}

enum perf_mmap_read_status
perf_mmap_reader__read_backward(struct perf_mmap_reader *reader,
				perf_mmap_record_fn fn, void *arg)
{
	uint64_t start = perf_mmap__read_head(reader->pg);
	uint64_t window = backward_window(reader, start);
	bool wrapped = -start >= reader->size;
	uint64_t pos = start;
	enum perf_mmap_read_status status = PERF_MMAP_READ_END;

	if (start & 7) {
		reader->stats.bad_size++;
		reader->stop = start;
		return PERF_MMAP_READ_BAD_SIZE;
	}
	while (pos - start < window) {
		const struct perf_event_header *rec;
		unsigned int size = header_size_at(reader, pos);

		if (!size)		/* never written: zero-filled pages */
			break;
		if (!size_valid(size, UINT64_MAX) ||
		    (!wrapped && size > window - (pos - start))) {
			reader->stats.bad_size++;
			status = PERF_MMAP_READ_BAD_SIZE;
			break;
		}
		if (size > window - (pos - start)) {
			/* It starts inside the window; its tail was overwritten. */
			reader->stats.dropped++;
			break;
		}
		rec = record_at(reader, pos, size);
		if (!rec) {
			status = PERF_MMAP_READ_NOMEM;
			break;
		}
		delivered(reader, size);
		pos += size;
		if (fn(rec, size, arg)) {
			status = PERF_MMAP_READ_STOPPED;
			break;
		}
	}
	reader->stop = pos;
	return status;
}

/*
 * Can [pos, pos + len) still hold what was there when the writer's
 * published head was @head? A backward writer has overwritten everything
 * at or above head + size (free-running).
 */
static bool backward_intact(struct perf_mmap_reader *reader, uint64_t pos,
			    uint64_t len, uint64_t head)
{
	return (pos + len) - head <= reader->size - reader->guard;
}

/* Re-read data_head after copying: the copy's loads must come first. */
static uint64_t reread_head(struct perf_mmap_reader *reader)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return perf_mmap__read_head(reader->pg);
}

enum perf_mmap_read_status
perf_mmap_reader__read_backward_verify(struct perf_mmap_reader *reader,
				       perf_mmap_record_fn fn, void *arg)
{
	uint64_t start = perf_mmap__read_head(reader->pg);
	uint64_t window = backward_window(reader, start);
	uint64_t pos = start;

	reader->stop = start;
	if (start & 7) {
		reader->stats.bad_size++;
		return PERF_MMAP_READ_BAD_SIZE;
	}
	if (copy_reserve(reader, PERF_MMAP_COPY_MAX))
		return PERF_MMAP_READ_NOMEM;
	while (pos - start < window) {
		struct perf_event_header hdr;
		uint64_t head;

		memcpy(&hdr, reader->data + (pos & reader->mask), sizeof(hdr));
		if (reader->step)
			reader->step(reader, PERF_MMAP_VERIFY_HEADER_COPIED, reader->step_arg);
		head = reread_head(reader);
		if (!backward_intact(reader, pos, sizeof(hdr), head)) {
			reader->stats.overwritten++;
			return PERF_MMAP_READ_HEADER_OVERWRITTEN;
		}
		if (!hdr.size)
			break;
		if (!size_valid(hdr.size, UINT64_MAX)) {
			reader->stats.bad_size++;
			return PERF_MMAP_READ_BAD_SIZE;
		}
		if (!backward_intact(reader, pos, hdr.size, head)) {
			reader->stats.overwritten++;
			return PERF_MMAP_READ_RECORD_OVERWRITTEN;
		}
		if (hdr.size > window - (pos - start)) {
			/* Before the first wrap: nothing valid lies past 0. */
			reader->stats.bad_size++;
			return PERF_MMAP_READ_BAD_SIZE;
		}
		copy_out(reader, pos, hdr.size);
		if (reader->step)
			reader->step(reader, PERF_MMAP_VERIFY_RECORD_COPIED, reader->step_arg);
		head = reread_head(reader);
		if (!backward_intact(reader, pos, hdr.size, head)) {
			reader->stats.overwritten++;
			return PERF_MMAP_READ_RECORD_OVERWRITTEN;
		}
		/* The header we checked is the one in the copy. */
		memcpy(reader->copy, &hdr, sizeof(hdr));
		reader->stats.copies++;
		delivered(reader, hdr.size);
		pos += hdr.size;
		reader->stop = pos;
		if (fn((const struct perf_event_header *)reader->copy, hdr.size, arg))
			return PERF_MMAP_READ_STOPPED;
	}
	return PERF_MMAP_READ_END;
}
