// SPDX-License-Identifier: GPL-2.0-only
/*
 * COMM and MMAP2 records for the simulated tasks (the counterpart of
 * tools/perf/util/synthetic-events.c), with the sample_id trailer the
 * kernel appends when attr.sample_id_all is set.
 */
#include <errno.h>
#include <string.h>

#include "tools/perf/util/synthesize.h"

#define SYNTH_NAME_MAX	4096
#define LINUX_PROT_EXEC	0x4	/* the ABI value, whatever the host says */

static u8 *put_u32(u8 *p, u32 v)
{
	memcpy(p, &v, sizeof(v));
	return p + sizeof(v);
}

static u8 *put_u64(u8 *p, u64 v)
{
	memcpy(p, &v, sizeof(v));
	return p + sizeof(v);
}

/* NAME with its NUL, padded with NULs to a multiple of 8. */
static u8 *put_name(u8 *p, const char *name, size_t len)
{
	size_t padded = (len + 1 + 7) & ~(size_t)7;

	memcpy(p, name, len);
	memset(p + len, 0, padded - len);
	return p + padded;
}

size_t perf_event__synthesize_id_sample(void *buf, const struct perf_event_attr *attr,
					const struct synth_sample_id *sid)
{
	static const struct synth_sample_id none;
	u64 type = attr->sample_type;
	u8 *p = buf;

	if (!attr->sample_id_all)
		return 0;
	if (!sid)
		sid = &none;
	if (type & PERF_SAMPLE_TID) {
		p = put_u32(p, sid->pid);
		p = put_u32(p, sid->tid);
	}
	if (type & PERF_SAMPLE_TIME)
		p = put_u64(p, sid->time);
	if (type & PERF_SAMPLE_ID)
		p = put_u64(p, sid->id);
	if (type & PERF_SAMPLE_STREAM_ID)
		p = put_u64(p, sid->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		p = put_u32(p, sid->cpu);
		p = put_u32(p, 0);
	}
	if (type & PERF_SAMPLE_IDENTIFIER)
		p = put_u64(p, sid->id);
	return (size_t)(p - (u8 *)buf);
}

static size_t finish(void *buf, u8 *p, u32 type, u16 misc,
		     const struct perf_event_attr *attr, const struct synth_sample_id *sid)
{
	struct perf_event_header hdr = { .type = type, .misc = misc };

	p += perf_event__synthesize_id_sample(p, attr, sid);
	hdr.size = (u16)(p - (u8 *)buf);
	memcpy(buf, &hdr, sizeof(hdr));
	return hdr.size;
}

size_t perf_event__synthesize_comm(void *buf, const struct perf_event_attr *attr,
				   u32 pid, u32 tid, const char *comm,
				   const struct synth_sample_id *sid)
{
	size_t len = comm ? strnlen(comm, SYNTH_NAME_MAX) : SYNTH_NAME_MAX;
	u8 *p = (u8 *)buf + sizeof(struct perf_event_header);

	if (len >= SYNTH_NAME_MAX) {
		errno = EINVAL;
		return 0;
	}
	p = put_u32(p, pid);
	p = put_u32(p, tid);
	p = put_name(p, comm, len);
	return finish(buf, p, PERF_RECORD_COMM, 0, attr, sid);
}

size_t perf_event__synthesize_mmap2(void *buf, const struct perf_event_attr *attr,
				    u32 pid, u32 tid, u64 start, u64 len, u64 pgoff,
				    u32 prot, u32 flags, const char *filename,
				    const struct synth_sample_id *sid)
{
	size_t nlen = filename ? strnlen(filename, SYNTH_NAME_MAX) : SYNTH_NAME_MAX;
	u8 *p = (u8 *)buf + sizeof(struct perf_event_header);
	u16 misc = PERF_RECORD_MISC_USER;

	if (nlen >= SYNTH_NAME_MAX) {
		errno = EINVAL;
		return 0;
	}
	if (!(prot & LINUX_PROT_EXEC))
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	p = put_u32(p, pid);
	p = put_u32(p, tid);
	p = put_u64(p, start);
	p = put_u64(p, len);
	p = put_u64(p, pgoff);
	p = put_u32(p, 0);	/* maj */
	p = put_u32(p, 0);	/* min */
	p = put_u64(p, 0);	/* ino */
	p = put_u64(p, 0);	/* ino_generation */
	p = put_u32(p, prot);
	p = put_u32(p, flags);
	p = put_name(p, filename, nlen);
	return finish(buf, p, PERF_RECORD_MMAP2, misc, attr, sid);
}
