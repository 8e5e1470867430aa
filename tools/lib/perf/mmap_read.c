// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space ring-buffer readers; see tools/lib/perf/mmap_read.h for what each one
 * reads and promises. Positions are free-running byte counts, as
 * data_head and data_tail are; (pos & mask) is the offset in the data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/lib/perf/mmap_read.h"

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
	if (size > first)
		memcpy(reader->copy + first, reader->data, size - first);
}

const struct perf_event_header *
perf_mmap_reader__reassemble(struct perf_mmap_reader *reader, uint64_t pos, size_t size)
{
	if (copy_reserve(reader, size)) {
		reader->status = PERF_MMAP_READ_NOMEM;
		return NULL;
	}
	copy_out(reader, pos, size);
	reader->stats.copies++;
	return (const struct perf_event_header *)reader->copy;
}

const struct perf_event_header *perf_mmap_reader__bad_size(struct perf_mmap_reader *reader)
{
	reader->stats.bad_size++;
	reader->status = PERF_MMAP_READ_BAD_SIZE;
	return NULL;
}

void perf_mmap_reader__fell_behind(struct perf_mmap_reader *reader, uint64_t head, bool commit)
{
	reader->stats.fell_behind++;
	reader->stats.skipped_bytes += head - reader->prev;
	if (commit) {
		reader->prev = head;
		perf_mmap__write_tail(reader->pg, head);
	}
	reader->status = PERF_MMAP_READ_FELL_BEHIND;
}

enum perf_mmap_read_status
perf_mmap_reader__read_forward(struct perf_mmap_reader *reader, unsigned long max,
			       perf_mmap_record_fn fn, void *arg)
{
	const struct perf_event_header *rec;
	struct perf_mmap_iter it;
	unsigned long n = 0;
	size_t size;

	if (perf_mmap_reader__read_init(reader, &it) != PERF_MMAP_READ_END)
		return reader->status;
	/*
	 * libperf's read_event/consume loop: data_tail moves past each record
	 * once the callback is done with it, and data_head is read again.
	 */
	while ((!max || n < max) && (rec = perf_mmap_reader__read_event(reader, &it, &size))) {
		int stop = fn(rec, size, arg);

		n++;
		perf_mmap_reader__read_done(reader, &it);
		if (stop)
			return PERF_MMAP_READ_STOPPED;
		perf_mmap_iter__set_end(&it, perf_mmap__read_head(reader->pg));
	}
	perf_mmap_reader__account(reader, &it);
	return reader->status;
}

/*
 * The walk of [prev, data_head) for the readers that leave data_tail
 * alone. The callback sees prev at the record's start; @advance moves
 * prev past it afterwards (the overwrite-forward reader), or prev stays.
 */
static enum perf_mmap_read_status forward_walk(struct perf_mmap_reader *reader, bool advance,
					       perf_mmap_record_fn fn, void *arg)
{
	const struct perf_event_header *rec;
	struct perf_mmap_iter it;
	size_t size;
	int stop = 0;

	if (perf_mmap_reader__forward_init(reader, &it, false) != PERF_MMAP_READ_END) {
		if (advance)
			reader->prev = it.pos;
		return reader->status;
	}
	while (!stop && (rec = perf_mmap_reader__read_event(reader, &it, &size))) {
		stop = fn(rec, size, arg);
		if (advance)
			reader->prev = it.pos;
	}
	perf_mmap_reader__account(reader, &it);
	return stop ? PERF_MMAP_READ_STOPPED : reader->status;
}

enum perf_mmap_read_status
perf_mmap_reader__peek_forward(struct perf_mmap_reader *reader,
			       perf_mmap_record_fn fn, void *arg)
{
	return forward_walk(reader, false, fn, arg);
}

enum perf_mmap_read_status
perf_mmap_reader__read_overwrite_forward(struct perf_mmap_reader *reader,
					 perf_mmap_record_fn fn, void *arg)
{
	return forward_walk(reader, true, fn, arg);
}

enum perf_mmap_read_status
perf_mmap_reader__read_backward(struct perf_mmap_reader *reader,
				perf_mmap_record_fn fn, void *arg)
{
	const struct perf_event_header *rec;
	struct perf_mmap_iter it;
	size_t size;

	if (perf_mmap_reader__read_init_backward(reader, &it) != PERF_MMAP_READ_END)
		return reader->status;
	while ((rec = perf_mmap_reader__read_event_backward(reader, &it, &size))) {
		if (fn(rec, size, arg)) {
			reader->status = PERF_MMAP_READ_STOPPED;
			break;
		}
	}
	perf_mmap_reader__read_done_backward(reader, &it);
	return reader->status;
}

int perf_mmap_reader__verify_reserve(struct perf_mmap_reader *reader)
{
	if (!copy_reserve(reader, PERF_MMAP_COPY_MAX))
		return 0;
	reader->status = PERF_MMAP_READ_NOMEM;
	return -ENOMEM;
}

/*
 * The verifying reader copies bytes a writer may be overwriting and only
 * then judges them by data_head (a seqlock read). Under ThreadSanitizer
 * that speculative copy is marked as the intended race it is; every
 * other access, data_head and data_tail included, is still checked.
 */
#ifdef __SANITIZE_THREAD__
void AnnotateIgnoreReadsBegin(const char *file, int line);
void AnnotateIgnoreReadsEnd(const char *file, int line);
#define racy_copy_begin()	AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define racy_copy_end()		AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#define racy_copy_begin()	do { } while (0)
#define racy_copy_end()		do { } while (0)
#endif

/*
 * Copy [pos, pos + len) of the window and return how many bytes from
 * @pos data_head, read again after the copy, proves intact (more than
 * any chunk or record spans, when that is all of them).
 */
uint64_t perf_mmap_reader__verify_copy(struct perf_mmap_reader *reader, uint64_t pos,
				       uint64_t len)
{
	uint64_t head, behind, room = reader->size - reader->guard;

	racy_copy_begin();
	copy_out(reader, pos, len);
	racy_copy_end();
	if (reader->step)
		reader->step(reader, PERF_MMAP_VERIFY_CHUNK_COPIED, reader->step_arg);
	/* The copy's loads before the load of data_head (a seqlock's smp_rmb). */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	head = perf_mmap__read_head(reader->pg);
	/*
	 * The writer has overwritten, or may be filling (@guard), every byte
	 * from head + room up: the bytes from @pos below it are intact.
	 */
	behind = pos - head;
	if (behind >= room)
		return 0;
	return room - behind < 2 * PERF_MMAP_COPY_MAX ? room - behind : 2 * PERF_MMAP_COPY_MAX;
}

const struct perf_event_header *
perf_mmap_reader__verify_fail(struct perf_mmap_reader *reader, enum perf_mmap_read_status status)
{
	if (status == PERF_MMAP_READ_BAD_SIZE)
		reader->stats.bad_size++;
	else
		reader->stats.overwritten++;
	reader->status = status;
	return NULL;
}

enum perf_mmap_read_status
perf_mmap_reader__read_backward_verify(struct perf_mmap_reader *reader,
				       perf_mmap_record_fn fn, void *arg)
{
	const struct perf_event_header *rec;
	struct perf_mmap_iter it;
	size_t size;

	if (perf_mmap_reader__read_init_verify(reader, &it) != PERF_MMAP_READ_END)
		return reader->status;
	while ((rec = perf_mmap_reader__read_event_verify(reader, &it, &size))) {
		reader->stop = it.pos;		/* the callback may ask where the record was */
		if (fn(rec, size, arg)) {
			perf_mmap_reader__read_done_verify(reader, &it);
			return PERF_MMAP_READ_STOPPED;
		}
	}
	return reader->status;
}
