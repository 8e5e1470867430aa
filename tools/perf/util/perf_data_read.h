/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading perf.data files (the counterpart of perf_session__read_header,
 * perf_session__process_events and evsel__parse_sample).
 *
 * Every length in the file is checked before it is used: a truncated or
 * corrupt file is refused with one line "FILE: problem", never read past.
 * The file stays mapped while it is open; records and samples point into
 * it, so read multi-byte values through the accessors below (a record
 * need not be 8-byte aligned in a corrupt file).
 */
#ifndef PMUSIM_SIM_PERF_DATA_READ_H
#define PMUSIM_SIM_PERF_DATA_READ_H

#include "tools/perf/util/perf_data.h"

struct perf_data_attr {
	struct perf_event_attr attr;	/* zero past the size in the file */
	u32 nr_ids;
	u64 *ids;
	const char *name;		/* from EVENT_DESC, or NULL */
};

/* One entry of the BUILD_ID feature: a DSO as MMAP records name it, and its build-id. */
struct perf_data_build_id {
	char *filename;
	u8 id[20];
	u8 size;			/* bytes of id */
};

struct perf_data_file {
	const char *path;
	const u8 *buf;			/* the whole file */
	size_t size;
	bool mapped;			/* buf is an mmap of the file */
	size_t dropped;			/* mapped: its pages before this given back */
	struct perf_file_header header;
	struct perf_data_attr *attrs;
	u32 nr_attrs;
	int id_pos;			/* u64 index of the id in a sample, -1: none */

	/* features of interest; 0/NULL when absent */
	char *hostname;
	char *os_release;
	char *arch;
	u32 nr_cpus_avail;
	u32 nr_cpus_online;
	u32 max_branches;		/* CPU_PMU_CAPS branches= */
	u64 first_sample_time;		/* SAMPLE_TIME */
	u64 last_sample_time;
	struct perf_data_build_id *build_ids;	/* BUILD_ID */
	u32 nr_build_ids;

	char err[4096 + 256];		/* "FILE: problem", FILE cut at 4096 bytes */
};

static inline bool perf_data_file__has_feat(const struct perf_data_file *f, int feat)
{
	return feat > 0 && feat < HEADER_FEAT_BITS &&
	       (f->header.adds_features[feat / 64] >> (feat % 64)) & 1;
}

/*
 * Open and check PATH: header, attrs, ids, feature sections. Returns 0, or
 * -1 with the one-line reason in f->err. perf_data_file__close() is safe
 * after either.
 */
int perf_data_file__open(struct perf_data_file *f, const char *path);

/* The same for a file already in memory (fuzzing); BUF must outlive F. */
int perf_data_file__open_mem(struct perf_data_file *f, const char *name,
			     const void *buf, size_t size);

void perf_data_file__close(struct perf_data_file *f);

/* The BUILD_ID entry for FILENAME, or NULL. */
const struct perf_data_build_id *perf_data_file__build_id(const struct perf_data_file *f,
							  const char *filename);

/* The perf tool's own record types (tools/perf/util/event.h), beyond the kernel's. */
#define PERF_RECORD_FINISHED_ROUND	68

/* A record type's name as perf prints it ("SAMPLE", "MMAP2"), or NULL if unknown. */
const char *perf_event__name(u32 type);

/* Walks the records of the data section. */
struct perf_data_iter {
	u64 pos;			/* file offset of the next record */
	u64 end;
};

void perf_data_file__iter_init(const struct perf_data_file *f, struct perf_data_iter *it);

/*
 * The next record: 1 with *EVENT and *SIZE set, 0 at the end, -1 for a record
 * that does not fit (reason in f->err).
 */
int perf_data_file__next(struct perf_data_file *f, struct perf_data_iter *it,
			 const u8 **event, u32 *size);

/* The attr a sample belongs to (by its id when there are several), or NULL. */
const struct perf_data_attr *perf_data_file__sample_attr(const struct perf_data_file *f,
							  const u8 *event, u32 size);

struct perf_sample;

/*
 * The sample EVENT (SIZE bytes, just returned by perf_data_file__next()
 * from IT): its attr and its fields. 0, or -1 with f->err naming the
 * sample's offset and what is wrong ("no attr has its id", "truncated at
 * callchain"). Every reader of samples checks them with this, alike.
 */
int perf_data_file__sample(struct perf_data_file *f, const struct perf_data_iter *it,
			   const u8 *event, u32 size, const struct perf_data_attr **attr,
			   struct perf_sample *s);

/*
 * Walk every record as a reader of the whole file does: each must fit,
 * each sample must decode (perf_data_file__sample()). 0, or -1 with the
 * first problem in file order in f->err.
 */
int perf_data_file__check(struct perf_data_file *f);

/* A decoded PERF_RECORD_SAMPLE, as perf's struct perf_sample names it. */
struct perf_sample {
	u64 id;
	u64 ip;
	u32 pid, tid;
	u64 time;
	u64 addr;
	u64 stream_id;
	u32 cpu;
	u64 period;
	/* READ */
	u64 read_nr;			/* values (1 without PERF_FORMAT_GROUP) */
	u64 read_time_enabled;
	u64 read_time_running;
	struct {
		u64 value, id, lost;
	} read_one;			/* without PERF_FORMAT_GROUP */
	const u8 *read_values;		/* GROUP: read_nr x { value, id?, lost? } */
	u32 read_value_size;		/* bytes of one of those */
	/* CALLCHAIN */
	u64 callchain_nr;
	const u8 *callchain;		/* callchain_nr u64 */
	/* RAW */
	u32 raw_size;
	const u8 *raw_data;
	/* BRANCH_STACK */
	u64 branch_nr;
	u64 hw_idx;
	bool no_hw_idx;			/* attr has no PERF_SAMPLE_BRANCH_HW_INDEX */
	const u8 *branch_entries;	/* branch_nr x { from, to, flags } */
	const u8 *branch_counters;	/* BRANCH_COUNTERS: branch_nr u64 */
};

/* One branch of a sample; flags is the raw 64-bit flags word. */
struct perf_sample_branch {
	u64 from;
	u64 to;
	u64 flags;
};

static inline u64 perf_data__get_u64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u16 perf_data__get_u16(const u8 *p)
{
	u16 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u32 perf_data__get_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline u64 perf_sample__callchain_ip(const struct perf_sample *s, u64 i)
{
	return perf_data__get_u64(s->callchain + i * 8);
}

static inline void perf_sample__branch(const struct perf_sample *s, u64 i,
				       struct perf_sample_branch *b)
{
	memcpy(b, s->branch_entries + i * sizeof(*b), sizeof(*b));
}

/* Entry I's from address in a branch stack's ENTRIES (struct perf_branch_entry: from first). */
static inline u64 perf_sample__branch_from(const u8 *entries, u64 i)
{
	return perf_data__get_u64(entries + i * sizeof(struct perf_sample_branch));
}

/*
 * Decode a PERF_RECORD_SAMPLE (EVENT, SIZE bytes including the header)
 * per ATTR's sample_type, up to and including BRANCH_STACK. Returns 0, or
 * -1 with *WHY naming the field that did not fit.
 */
int perf_sample__parse(const struct perf_event_attr *attr, const u8 *event, u32 size,
		       struct perf_sample *s, const char **why);

#endif
