/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space readers of a perf ring buffer (the counterpart of libperf's
 * tools/lib/perf/mmap.c). They see only what a process sees after
 * mmap(): the control page and, at pg->data_offset, pg->data_size bytes
 * of data. data_head is loaded with acquire semantics and data_tail
 * stored with release semantics, the pairing of the kernel's barriers C
 * and D (kernel/events/ring_buffer.c).
 *
 * Four readers, one per way a buffer can be mapped and read:
 *
 *   perf_mmap_reader__read_forward    writable mapping (non-overwrite):
 *       consumes records from data_tail to data_head and moves data_tail
 *       after each record, once the callback has returned.
 *   perf_mmap_reader__read_backward   read-only mapping, write_backward:
 *       the records that are whole in [data_head, data_head + size),
 *       newest first (libperf's overwrite_rb_find_range). The buffer must
 *       be paused (or its events stopped) while it is read.
 *   perf_mmap_reader__read_overwrite_forward   read-only, forward: the
 *       writer ignores the reader, and nothing in the buffer says where
 *       the oldest whole record starts once data_head has passed the
 *       buffer size. The reader keeps its own position (0 at first, as
 *       the writer starts there) and reads [prev, data_head) while that
 *       is at most one buffer; beyond that it has lost its place, says
 *       so (PERF_MMAP_READ_FELL_BEHIND) and resynchronises at data_head,
 *       which is what perf's old check_messup did. It cannot do better.
 *   perf_mmap_reader__read_backward_verify   read-only, write_backward,
 *       NOT paused: copy, re-read data_head, hand out only what it
 *       proves the writer had not begun to overwrite (Wang Nan's scheme
 *       from the write_backward review, a chunk of records per check
 *       instead of a header and a record). Each record goes to the
 *       callback from a private copy.
 *
 * Records are handed to a callback with a pointer and a size. A record
 * that wraps the end of the buffer (or every record, for the verifying
 * reader) is reassembled in the reader's copy buffer, grown as needed up
 * to PERF_MMAP_COPY_MAX; any other pointer points into the ring and is
 * valid only until the callback returns.
 */
#ifndef PMUSIM_SIM_MMAP_READ_H
#define PMUSIM_SIM_MMAP_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <pmusim/perf_event.h>

/* The largest record: header.size is a u16 and records are 8-aligned. */
#define PERF_MMAP_COPY_MAX	65536

/* The user-space side of the kernel's barrier pairing (C and D). */
static inline uint64_t perf_mmap__read_head(struct perf_event_mmap_page *pg)
{
	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static inline void perf_mmap__write_tail(struct perf_event_mmap_page *pg, uint64_t tail)
{
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

/* Why a reader returned. */
enum perf_mmap_read_status {
	PERF_MMAP_READ_END,			/* no more data (or max records read) */
	PERF_MMAP_READ_STOPPED,			/* the callback asked to stop */
	PERF_MMAP_READ_FELL_BEHIND,		/* the writer lapped the reader */
	PERF_MMAP_READ_BAD_SIZE,		/* header.size < 8, unaligned, or past the data */
	PERF_MMAP_READ_NOMEM,			/* the copy buffer could not grow */
	PERF_MMAP_READ_HEADER_OVERWRITTEN,	/* verify: header may be overwritten */
	PERF_MMAP_READ_RECORD_OVERWRITTEN,	/* verify: body may be overwritten */
};

const char *perf_mmap_read_status_name(enum perf_mmap_read_status status);

struct perf_mmap_read_stats {
	uint64_t records;	/* handed to the callback */
	uint64_t bytes;
	uint64_t copies;	/* records reassembled in the copy buffer */
	uint64_t fell_behind;	/* times the reader lost its place */
	uint64_t skipped_bytes;	/* bytes given up when it did */
	uint64_t bad_size;
	uint64_t overwritten;	/* verify: records given up as overwritten */
	uint64_t dropped;	/* backward: the record crossing the window's end */
};

/*
 * The verifying reader's step, for tests and fuzzers: where a writer
 * racing with it is shown at its worst, between its copy of a chunk and
 * its re-read of data_head.
 */
enum perf_mmap_verify_step {
	PERF_MMAP_VERIFY_CHUNK_COPIED,		/* a chunk copied, head not re-read */
};

struct perf_mmap_reader;
typedef void (*perf_mmap_step_fn)(struct perf_mmap_reader *reader,
				  enum perf_mmap_verify_step step, void *arg);

/*
 * Return 0 to go on, anything else to stop after this record (which then
 * counts as read: the forward reader moves data_tail past it).
 */
typedef int (*perf_mmap_record_fn)(const struct perf_event_header *rec,
				   size_t size, void *arg);

struct perf_mmap_reader {
	struct perf_event_mmap_page *pg;
	unsigned char *data;
	uint64_t size;			/* data_size: a power of two */
	uint64_t mask;
	uint64_t prev;			/* forward readers: next byte to read */
	/*
	 * Verifying reader: a writer may have reserved and be filling up
	 * to @guard bytes beyond the data_head it published; treat them as
	 * overwritten too. 0 trusts the published head alone, as in the
	 * original scheme.
	 */
	uint64_t guard;
	uint64_t stop;			/* backward readers: where the last walk stopped */
	perf_mmap_step_fn step;		/* verifying reader: called at its step */
	void *step_arg;
	unsigned char *copy;		/* reassembly buffer */
	size_t copy_size;
	enum perf_mmap_read_status status;	/* why a batch's read_event returned NULL */
	struct perf_mmap_read_stats stats;
};

/*
 * A batch being iterated (read_init .. read_done). It is the caller's
 * local: with the inline read_event its fields stay in registers, where
 * the reader's would be reloaded after every store the caller makes.
 */
struct perf_mmap_iter {
	const unsigned char *data;
	uint64_t mask;
	uint64_t size;
	uint64_t start;			/* where the batch began */
	uint64_t pos;			/* the next record */
	uint64_t end;			/* forward: data_head; backward: where the window ends */
	uint64_t limit;			/* pos can move here without a check: see take */
	uint64_t records;
	uint64_t last_size;		/* the previous record's size: see read_event */
	bool wrapped;			/* backward: the writer has gone round once */
	/*
	 * verify: the record at pos is at copy_base + pos in the reader's
	 * copy (its address less the ring position of its first byte: an
	 * integer, as that pointer would point nowhere).
	 */
	uintptr_t copy_base;
	uint64_t copied;		/* verify: the end of the bytes copied */
	uint64_t intact;		/* verify: the end of those data_head proves */
};

/*
 * Set up a reader on a mapping whose control page is @base. prev starts
 * at data_tail, which is 0 on a fresh buffer. Returns 0, or -EINVAL when
 * data_size is not a power of two of at least 8 bytes.
 */
int perf_mmap_reader__init(struct perf_mmap_reader *reader, void *base);
void perf_mmap_reader__exit(struct perf_mmap_reader *reader);

/* Up to @max records (0: all there are). */
enum perf_mmap_read_status
perf_mmap_reader__read_forward(struct perf_mmap_reader *reader, unsigned long max,
			       perf_mmap_record_fn fn, void *arg);
/* The same walk over [prev, data_head), but data_tail is left alone. */
enum perf_mmap_read_status
perf_mmap_reader__peek_forward(struct perf_mmap_reader *reader,
			       perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_reader__read_overwrite_forward(struct perf_mmap_reader *reader,
					 perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_reader__read_backward(struct perf_mmap_reader *reader,
				perf_mmap_record_fn fn, void *arg);
enum perf_mmap_read_status
perf_mmap_reader__read_backward_verify(struct perf_mmap_reader *reader,
				       perf_mmap_record_fn fn, void *arg);

/*
 * Iterating a batch, without a callback (libperf's read_init, read_event,
 * read_done, and perf record's perf_mmap__push: data_head is read once,
 * every record up to it is walked, data_tail moves once at the end):
 *
 *	struct perf_mmap_iter it;
 *
 *	if (perf_mmap_reader__read_init(r, &it) == PERF_MMAP_READ_END) {
 *		while ((rec = perf_mmap_reader__read_event(r, &it, &size)))
 *			use(rec, size);
 *		perf_mmap_reader__read_done(r, &it);
 *	}
 *	why = r->status;
 *
 * A pointer into the ring stays valid until read_done publishes
 * data_tail, a reassembled one until the next read_event. The backward
 * batch (read_init_backward, read_event_backward, read_done_backward)
 * and the verifying one (read_init_verify, read_event_verify,
 * read_done_verify) read what their callback readers read;
 * read_event_verify's records are all copies. read_init* return
 * PERF_MMAP_READ_END when the batch may be iterated, another status
 * (also in r->status) when it may not.
 */

/* The rare ends of the inline functions, out of line. */
const struct perf_event_header *perf_mmap_reader__bad_size(struct perf_mmap_reader *reader);
const struct perf_event_header *
perf_mmap_reader__reassemble(struct perf_mmap_reader *reader, uint64_t pos, size_t size);
void perf_mmap_reader__fell_behind(struct perf_mmap_reader *reader, uint64_t head, bool commit);

/*
 * Where the next record may end without leaving the batch or wrapping the
 * data (free-running, like pos: compare distances from pos).
 */
static inline void perf_mmap_iter__set_limit(struct perf_mmap_iter *it)
{
	uint64_t to_wrap = it->size - (it->pos & it->mask), to_end = it->end - it->pos;

	it->limit = it->pos + (to_wrap < to_end ? to_wrap : to_end);
}

/* The forward consumer reads data_head again between records. */
static inline void perf_mmap_iter__set_end(struct perf_mmap_iter *it, uint64_t end)
{
	it->end = end;
	perf_mmap_iter__set_limit(it);
}

static inline void perf_mmap_iter__init(struct perf_mmap_iter *it,
					const struct perf_mmap_reader *reader,
					uint64_t start, uint64_t end)
{
	it->data = reader->data;
	it->mask = reader->mask;
	it->size = reader->size;
	it->start = it->pos = start;
	it->end = end;
	it->records = 0;
	it->last_size = ~0ull;		/* no u16 size equals it: the first record is checked */
	it->wrapped = false;
	it->copy_base = 0;
	it->copied = it->intact = start;
	perf_mmap_iter__set_limit(it);
}

/*
 * A forward batch from prev to data_head, read once. A reader more than
 * a buffer behind has lost its place: it gives the bytes up and goes on
 * from data_head (moving data_tail there when @commit: the consumer).
 */
static inline enum perf_mmap_read_status
perf_mmap_reader__forward_init(struct perf_mmap_reader *reader, struct perf_mmap_iter *it,
			       bool commit)
{
	uint64_t head = perf_mmap__read_head(reader->pg);

	reader->status = PERF_MMAP_READ_END;
	if (__builtin_expect(head - reader->prev > reader->size, 0)) {
		perf_mmap_iter__init(it, reader, head, head);
		perf_mmap_reader__fell_behind(reader, head, commit);
		return PERF_MMAP_READ_FELL_BEHIND;
	}
	perf_mmap_iter__init(it, reader, reader->prev, head);
	/* Records keep an aligned start aligned: only the first needs the check. */
	if (__builtin_expect((reader->prev & 7) && head != reader->prev, 0)) {
		perf_mmap_iter__set_end(it, reader->prev);
		perf_mmap_reader__bad_size(reader);
	}
	return reader->status;
}

static inline enum perf_mmap_read_status
perf_mmap_reader__read_init(struct perf_mmap_reader *reader, struct perf_mmap_iter *it)
{
	return perf_mmap_reader__forward_init(reader, it, true);
}

/*
 * header.size at @off. Records are 8-aligned and the data area a multiple
 * of 8, so an aligned header never straddles the end.
 */
static inline unsigned int perf_mmap_iter__size_at(const struct perf_mmap_iter *it,
						   uint64_t off)
{
	const struct perf_event_header *hdr = (const void *)(it->data + off);

	return __atomic_load_n(&hdr->size, __ATOMIC_RELAXED);
}

/*
 * The record at @off, returned by a fast path. The data area is never
 * NULL (its header was just loaded): saying so lets the caller's
 * while ((rec = read_event(...))) drop its test of each record, a
 * compare and branch of the hot loop's ~20 instructions.
 */
static inline const struct perf_event_header *
perf_mmap_iter__record(const struct perf_mmap_iter *it, uint64_t off)
{
	if (!it->data)
		__builtin_unreachable();
	return (const struct perf_event_header *)(it->data + off);
}

/* At least a header, 8-aligned, and no more than @avail bytes. */
static inline bool perf_mmap_reader__size_valid(unsigned int size, uint64_t avail)
{
	return size >= sizeof(struct perf_event_header) && !(size & 7) && size <= avail;
}

/*
 * Step past the @size-byte record at it->pos and return it, in place or
 * reassembled if it wraps (NULL, status NOMEM, if the copy cannot grow).
 * @size is valid and fits the batch.
 */
static inline const struct perf_event_header *
perf_mmap_iter__take(struct perf_mmap_reader *reader, struct perf_mmap_iter *it,
		     unsigned int size, size_t *sizep)
{
	uint64_t pos = it->pos, off = pos & it->mask;
	const struct perf_event_header *rec = (const void *)(it->data + off);

	if (off + size > it->size) {
		rec = perf_mmap_reader__reassemble(reader, pos, size);
		if (!rec)
			return NULL;
	}
	it->pos = pos + size;
	it->last_size = size;
	it->records++;
	perf_mmap_iter__set_limit(it);
	*sizep = size;
	return rec;
}

/*
 * The common record: the same size as the one before (so already known
 * valid and, the batch having started 8-aligned, at an aligned pos),
 * whole before the batch's end and the data's end. False when it is not,
 * for the full checks.
 *
 * Where the next record starts depends on a load of this one's size: a
 * chain that would cost a load's latency per record. When the size is
 * the last one's, pos moves by that register instead, so the CPU,
 * predicting the branch, starts on the next record before the load has
 * returned. The empty asm hides from the compiler that the two are
 * equal, or it would add the loaded one.
 */
static inline bool perf_mmap_iter__fast(struct perf_mmap_iter *it, uint64_t size,
					size_t *sizep)
{
	uint64_t pos = it->pos, last = it->last_size;

	if (__builtin_expect(size != last || size > it->limit - pos, 0))
		return false;
	__asm__("" : "+r"(last));
	it->pos = pos + last;
	it->records++;
	*sizep = last;
	return true;
}

/* The next record of a forward batch, or NULL (reader->status says why). */
static inline const struct perf_event_header *
perf_mmap_reader__read_event(struct perf_mmap_reader *reader, struct perf_mmap_iter *it,
			     size_t *sizep)
{
	uint64_t pos = it->pos, off = pos & it->mask;
	unsigned int size;

	if (pos == it->end)
		return NULL;			/* status is END since read_init */
	size = perf_mmap_iter__size_at(it, off);
	if (__builtin_expect(perf_mmap_iter__fast(it, size, sizep), 1))
		return perf_mmap_iter__record(it, off);
	if (perf_mmap_reader__size_valid(size, it->end - pos))
		return perf_mmap_iter__take(reader, it, size, sizep);
	return perf_mmap_reader__bad_size(reader);
}

/* Count the batch's records; the reader is at the iterator's position. */
static inline void perf_mmap_reader__account(struct perf_mmap_reader *reader,
					     struct perf_mmap_iter *it)
{
	reader->stats.records += it->records;
	reader->stats.bytes += it->pos - it->start;
	it->records = 0;
	it->start = it->pos;
}

/* Publish data_tail once for the whole batch. */
static inline void perf_mmap_reader__read_done(struct perf_mmap_reader *reader,
					       struct perf_mmap_iter *it)
{
	perf_mmap_reader__account(reader, it);
	reader->prev = it->pos;
	/* (D): our loads of the records happen before the tail moves. */
	perf_mmap__write_tail(reader->pg, reader->prev);
}

/*
 * The window a backward buffer holds: from data_head, the bytes written
 * so far (-head) until the writer has wrapped, then one buffer.
 */
static inline enum perf_mmap_read_status
perf_mmap_reader__read_init_backward(struct perf_mmap_reader *reader, struct perf_mmap_iter *it)
{
	uint64_t start = perf_mmap__read_head(reader->pg), written = -start;

	perf_mmap_iter__init(it, reader, start,
			     start + (written < reader->size ? written : reader->size));
	it->wrapped = written >= reader->size;
	reader->stop = start;
	reader->status = PERF_MMAP_READ_END;
	if (__builtin_expect(start & 7, 0)) {
		perf_mmap_iter__set_end(it, start);
		perf_mmap_reader__bad_size(reader);
	}
	return reader->status;
}

/*
 * The next record of a backward batch, newest first: NULL at the end of
 * the window, at never-written (zero) space, at the record whose tail
 * the writer has overwritten (counted as dropped), or at a bad size.
 */
static inline const struct perf_event_header *
perf_mmap_reader__read_event_backward(struct perf_mmap_reader *reader,
				      struct perf_mmap_iter *it, size_t *sizep)
{
	uint64_t pos = it->pos, left = it->end - pos;
	unsigned int size;

	if (!left)
		return NULL;
	size = perf_mmap_iter__size_at(it, pos & it->mask);
	if (__builtin_expect(perf_mmap_iter__fast(it, size, sizep), 1))
		return perf_mmap_iter__record(it, pos & it->mask);
	if (!size)				/* never written: zero-filled pages */
		return NULL;
	if (!perf_mmap_reader__size_valid(size, UINT64_MAX))
		return perf_mmap_reader__bad_size(reader);
	if (size > left) {
		if (!it->wrapped)
			return perf_mmap_reader__bad_size(reader);
		/* It starts inside the window; its tail was overwritten. */
		reader->stats.dropped++;
		return NULL;
	}
	return perf_mmap_iter__take(reader, it, size, sizep);
}

static inline void perf_mmap_reader__read_done_backward(struct perf_mmap_reader *reader,
							struct perf_mmap_iter *it)
{
	perf_mmap_reader__account(reader, it);
	reader->stop = it->pos;
}

/*
 * The verifying batch walks the window a chunk at a time: up to
 * PERF_MMAP_VERIFY_CHUNK bytes copied into reader->copy with one memcpy,
 * then data_head read once more. Every byte of the copy that lies below
 * that head + size (less the guard) is proven to be what the writer had
 * published when it was copied: a backward writer overwrites the byte
 * at p only once its head has gone down to p - size, head never goes
 * back up, and the guard stands for heads reserved but not published
 * yet. The records are then parsed out of the copy, which no writer
 * touches. The first record not wholly proven stops the reader
 * (header- or record-overwritten), unless it only runs past the end of
 * the copy: the next chunk starts at it.
 */
#define PERF_MMAP_VERIFY_CHUNK	8192

int perf_mmap_reader__verify_reserve(struct perf_mmap_reader *reader);
uint64_t perf_mmap_reader__verify_copy(struct perf_mmap_reader *reader, uint64_t pos,
				       uint64_t len);
const struct perf_event_header *
perf_mmap_reader__verify_fail(struct perf_mmap_reader *reader, enum perf_mmap_read_status status);

/*
 * The window, as the backward reader sees it, and an empty chunk at its
 * start. The copy buffer is reserved whole: a chunk never outgrows it.
 */
static inline enum perf_mmap_read_status
perf_mmap_reader__read_init_verify(struct perf_mmap_reader *reader, struct perf_mmap_iter *it)
{
	if (perf_mmap_reader__read_init_backward(reader, it) != PERF_MMAP_READ_END)
		return reader->status;
	if (perf_mmap_reader__verify_reserve(reader))
		return reader->status;
	it->limit = it->pos;		/* nothing copied yet */
	return reader->status;
}

/*
 * Copy the chunk that starts at it->pos: PERF_MMAP_VERIFY_CHUNK bytes,
 * or @need if more (a long record), or what is left of the window.
 */
static inline void perf_mmap_iter__verify_chunk(struct perf_mmap_reader *reader,
						struct perf_mmap_iter *it, uint64_t need)
{
	uint64_t pos = it->pos, left = it->end - pos, len, intact;

	len = need > PERF_MMAP_VERIFY_CHUNK ? need : PERF_MMAP_VERIFY_CHUNK;
	if (len > left)
		len = left;
	intact = perf_mmap_reader__verify_copy(reader, pos, len);
	it->copy_base = (uintptr_t)reader->copy - (uintptr_t)pos;
	it->copied = pos + len;
	it->intact = pos + intact;
	it->limit = pos + (intact < len ? intact : len);
}

/*
 * The records handed over so far are counted, and reader->stop is where
 * the last one ends. read_event_verify does this when it returns NULL;
 * a caller that stops iterating earlier calls it itself.
 */
static inline void perf_mmap_reader__read_done_verify(struct perf_mmap_reader *reader,
						      struct perf_mmap_iter *it)
{
	reader->stats.copies += it->records;
	perf_mmap_reader__account(reader, it);
	reader->stop = it->pos;
}

static inline const struct perf_event_header *
perf_mmap_iter__verify_fail(struct perf_mmap_reader *reader, struct perf_mmap_iter *it,
			    enum perf_mmap_read_status status)
{
	perf_mmap_reader__read_done_verify(reader, it);
	return perf_mmap_reader__verify_fail(reader, status);
}

/*
 * Everything but the common record: a new chunk, a size not seen last,
 * the end of the window or of what the chunk proved. The checks are
 * those the per-record scheme made, in its order, against the chunk's
 * data_head.
 */
static inline const struct perf_event_header *
perf_mmap_iter__verify_next(struct perf_mmap_reader *reader, struct perf_mmap_iter *it,
			    size_t *sizep)
{
	const struct perf_event_header *rec;
	uint64_t pos;
	unsigned int size;

	for (;;) {
		pos = it->pos;
		if (it->limit - pos < sizeof(*rec)) {
			if (pos == it->end) {
				perf_mmap_reader__read_done_verify(reader, it);
				return NULL;
			}
			/* Copied, but the writer may have been there. */
			if (it->copied - pos >= sizeof(*rec))
				return perf_mmap_iter__verify_fail(reader, it,
								   PERF_MMAP_READ_HEADER_OVERWRITTEN);
			perf_mmap_iter__verify_chunk(reader, it, sizeof(*rec));
			continue;
		}
		rec = (const void *)(it->copy_base + pos);
		size = rec->size;
		if (!size) {			/* never written: zero-filled pages */
			perf_mmap_reader__read_done_verify(reader, it);
			return NULL;
		}
		if (!perf_mmap_reader__size_valid(size, UINT64_MAX))
			return perf_mmap_iter__verify_fail(reader, it, PERF_MMAP_READ_BAD_SIZE);
		if (size > it->limit - pos) {
			if (size > it->intact - pos)
				return perf_mmap_iter__verify_fail(reader, it,
								   PERF_MMAP_READ_RECORD_OVERWRITTEN);
			/* Before the first wrap: nothing valid lies past 0. */
			if (size > it->end - pos)
				return perf_mmap_iter__verify_fail(reader, it, PERF_MMAP_READ_BAD_SIZE);
			/* Intact but only partly copied: copy again from its start. */
			perf_mmap_iter__verify_chunk(reader, it, size);
			continue;
		}
		it->pos = pos + size;
		it->last_size = size;
		it->records++;
		*sizep = size;
		return rec;
	}
}

/*
 * The next record of a verifying batch, always out of the reader's copy
 * (valid until the next call). The common record, the size of the one
 * before and proven whole, costs what a plain reader's does: the bounds
 * check comes before the load, so no byte past the proven ones is read.
 * Inline, like read_event, so that the iterator stays in registers;
 * nothing it calls is given the iterator.
 */
static inline const struct perf_event_header *
perf_mmap_reader__read_event_verify(struct perf_mmap_reader *reader, struct perf_mmap_iter *it,
				    size_t *sizep)
{
	uint64_t pos = it->pos, last = it->last_size;

	if (__builtin_expect(last <= it->limit - pos, 1)) {
		const struct perf_event_header *rec = (const void *)(it->copy_base + pos);

		if (__builtin_expect(rec->size == last, 1)) {
			__asm__("" : "+r"(last));	/* see perf_mmap_iter__fast */
			it->pos = pos + last;
			it->records++;
			*sizep = last;
			return rec;
		}
	}
	return perf_mmap_iter__verify_next(reader, it, sizep);
}

#endif /* PMUSIM_SIM_MMAP_READ_H */
