// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data reader (the counterpart of perf_session__read_header,
 * perf_header__process_sections and evsel__parse_sample).
 *
 * The input is untrusted (it is fuzzed): every offset and length is
 * checked against what is left before it is used, loops are bounded by
 * the bytes they consume, and nothing is read through an unaligned pointer.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/perf/util/perf_data_read.h"

/* Read the file in at map time: the records are walked once, front to back. */
#ifdef MAP_POPULATE
#define MAP_READ_AHEAD	MAP_POPULATE
#else
#define MAP_READ_AHEAD	0
#endif

static int __attribute__((format(printf, 2, 3)))
file_error(struct perf_data_file *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* the name cut where no path can go on: the problem always fits after it */
	n = snprintf(f->err, sizeof(f->err), "%.4096s: ", f->path ? f->path : "perf.data");
	va_start(ap, fmt);
	vsnprintf(f->err + n, sizeof(f->err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Whether [offset, offset + size) lies inside the file. */
static bool in_file(const struct perf_data_file *f, u64 offset, u64 size)
{
	return offset <= f->size && size <= f->size - offset;
}

static const char *const feat_names[HEADER_LAST_FEATURE] = {
	[HEADER_TRACING_DATA] = "TRACING_DATA", [HEADER_BUILD_ID] = "BUILD_ID",
	[HEADER_HOSTNAME] = "HOSTNAME", [HEADER_OSRELEASE] = "OSRELEASE",
	[HEADER_VERSION] = "VERSION", [HEADER_ARCH] = "ARCH",
	[HEADER_NRCPUS] = "NRCPUS", [HEADER_CPUDESC] = "CPUDESC",
	[HEADER_CPUID] = "CPUID", [HEADER_TOTAL_MEM] = "TOTAL_MEM",
	[HEADER_CMDLINE] = "CMDLINE", [HEADER_EVENT_DESC] = "EVENT_DESC",
	[HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY", [HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[HEADER_BRANCH_STACK] = "BRANCH_STACK", [HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[HEADER_GROUP_DESC] = "GROUP_DESC", [HEADER_AUXTRACE] = "AUXTRACE",
	[HEADER_STAT] = "STAT", [HEADER_CACHE] = "CACHE",
	[HEADER_SAMPLE_TIME] = "SAMPLE_TIME", [HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[HEADER_CLOCKID] = "CLOCKID", [HEADER_DIR_FORMAT] = "DIR_FORMAT",
	[HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO", [HEADER_BPF_BTF] = "BPF_BTF",
	[HEADER_COMPRESSED] = "COMPRESSED", [HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[HEADER_CLOCK_DATA] = "CLOCK_DATA", [HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[HEADER_PMU_CAPS] = "PMU_CAPS",
};

static const char *feat_name(int feat)
{
	static _Thread_local char buf[16];

	if (feat < HEADER_LAST_FEATURE && feat_names[feat])
		return feat_names[feat];
	snprintf(buf, sizeof(buf), "%d", feat);
	return buf;
}

static const char *const record_names[] = {
	[PERF_RECORD_MMAP] = "MMAP",		[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",		[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",		[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX",		[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
};

const char *perf_event__name(u32 type)
{
	if (type < sizeof(record_names) / sizeof(record_names[0]))
		return record_names[type];
	return NULL;
}

/* A cursor over one feature section. */
struct feat_cursor {
	const u8 *p;
	u64 left;
	bool nomem;			/* the parse failed for memory, not for the bytes */
};

static bool feat_u32(struct feat_cursor *c, u32 *v)
{
	if (c->left < 4)
		return false;
	*v = perf_data__get_u32(c->p);
	c->p += 4;
	c->left -= 4;
	return true;
}

static bool feat_skip(struct feat_cursor *c, u64 n)
{
	if (c->left < n)
		return false;
	c->p += n;
	c->left -= n;
	return true;
}

/* A perf_header_string: u32 len, then len bytes holding a NUL-terminated string. */
static bool feat_string(struct feat_cursor *c, const char **s, u32 *len)
{
	if (!feat_u32(c, len) || *len == 0 || *len > c->left ||
	    !memchr(c->p, '\0', *len))
		return false;
	*s = (const char *)c->p;
	return feat_skip(c, *len);
}

static bool feat_strdup(struct feat_cursor *c, char **out)
{
	const char *s;
	u32 len;

	if (!feat_string(c, &s, &len))
		return false;
	free(*out);
	*out = strdup(s);
	c->nomem = !*out;
	return *out != NULL;
}

static bool parse_pmu_caps(struct perf_data_file *f, struct feat_cursor *c)
{
	const char *name, *value;
	u32 nr, i, len;

	if (!feat_u32(c, &nr))
		return false;
	for (i = 0; i < nr; i++) {
		if (!feat_string(c, &name, &len) || !feat_string(c, &value, &len))
			return false;
		if (!strcmp(name, "branches"))
			f->max_branches = (u32)strtoul(value, NULL, 10);
	}
	return true;
}

static bool parse_event_desc(struct perf_data_file *f, struct feat_cursor *c)
{
	const char *name;
	u32 nr, attr_size, nr_ids, i, len;

	if (!feat_u32(c, &nr) || !feat_u32(c, &attr_size))
		return false;
	for (i = 0; i < nr; i++) {
		if (!feat_skip(c, attr_size) || !feat_u32(c, &nr_ids) ||
		    !feat_string(c, &name, &len) || !feat_skip(c, (u64)nr_ids * 8))
			return false;
		if (i < f->nr_attrs && !f->attrs[i].name &&
		    !(f->attrs[i].name = strdup(name))) {
			c->nomem = true;
			return false;
		}
	}
	return true;
}

/*
 * perf_record_header_build_id entries: header (size covers the entry),
 * pid, 24 bytes of id (its size in byte 20 when misc says so), the name.
 */
static bool parse_build_ids(struct perf_data_file *f, struct feat_cursor *c)
{
	while (c->left) {
		struct perf_data_build_id *b;
		const char *name;
		u16 misc, size;

		if (c->left < 36)
			return false;
		misc = perf_data__get_u16(c->p + 4);
		size = perf_data__get_u16(c->p + 6);
		if (size <= 36 || size > c->left)
			return false;
		name = (const char *)c->p + 36;
		if (!memchr(name, '\0', size - 36u))
			return false;
		b = realloc(f->build_ids, (f->nr_build_ids + 1) * sizeof(*b));
		if (!b) {
			c->nomem = true;
			return false;
		}
		f->build_ids = b;
		b = &b[f->nr_build_ids];
		memcpy(b->id, c->p + 12, 20);
		b->size = misc & PERF_RECORD_MISC_BUILD_ID_SIZE ? c->p[32] : 20;
		if (b->size > 20)
			return false;
		b->filename = strdup(name);
		if (!b->filename) {
			c->nomem = true;
			return false;
		}
		f->nr_build_ids++;
		feat_skip(c, size);
	}
	return true;
}

const struct perf_data_build_id *perf_data_file__build_id(const struct perf_data_file *f,
							  const char *filename)
{
	for (u32 i = 0; i < f->nr_build_ids; i++)
		if (!strcmp(f->build_ids[i].filename, filename))
			return &f->build_ids[i];
	return NULL;
}

static bool parse_feature(struct perf_data_file *f, int feat, struct feat_cursor *c)
{
	switch (feat) {
	case HEADER_HOSTNAME:	return feat_strdup(c, &f->hostname);
	case HEADER_OSRELEASE:	return feat_strdup(c, &f->os_release);
	case HEADER_ARCH:	return feat_strdup(c, &f->arch);
	case HEADER_NRCPUS:
		return feat_u32(c, &f->nr_cpus_avail) && feat_u32(c, &f->nr_cpus_online);
	case HEADER_CPU_PMU_CAPS:
		return parse_pmu_caps(f, c);
	case HEADER_BUILD_ID:
		return parse_build_ids(f, c);
	case HEADER_EVENT_DESC:
		return parse_event_desc(f, c);
	case HEADER_SAMPLE_TIME:
		if (c->left < 16)
			return false;
		f->first_sample_time = perf_data__get_u64(c->p);
		f->last_sample_time = perf_data__get_u64(c->p + 8);
		return true;
	default:
		return true;	/* present, not needed here */
	}
}

static int read_features(struct perf_data_file *f)
{
	struct perf_file_section sec;
	struct feat_cursor c;
	u64 table = f->header.data.offset + f->header.data.size;
	int feat, nr = 0;

	for (feat = 1; feat < HEADER_FEAT_BITS; feat++)
		nr += perf_data_file__has_feat(f, feat);
	if (!in_file(f, table, (u64)nr * sizeof(sec)))
		return file_error(f, "feature table truncated (%d sections at offset %llu, file %zu bytes)",
				  nr, (unsigned long long)table, f->size);
	nr = 0;
	for (feat = 1; feat < HEADER_FEAT_BITS; feat++) {
		if (!perf_data_file__has_feat(f, feat))
			continue;
		memcpy(&sec, f->buf + table + (u64)nr * sizeof(sec), sizeof(sec));
		nr++;
		if (!in_file(f, sec.offset, sec.size))
			return file_error(f, "feature %s: section out of bounds (offset %llu size %llu, file %zu bytes)",
					  feat_name(feat), (unsigned long long)sec.offset,
					  (unsigned long long)sec.size, f->size);
		c.p = f->buf + sec.offset;
		c.left = sec.size;
		c.nomem = false;
		if (!parse_feature(f, feat, &c))
			return file_error(f, "feature %s: %s", feat_name(feat),
					  c.nomem ? "out of memory" : "corrupt contents");
	}
	return 0;
}

static int read_attrs(struct perf_data_file *f)
{
	const struct perf_file_header *h = &f->header;
	struct perf_file_section ids;
	u64 slot = h->attr_size - sizeof(ids), nr, i, off;
	u32 attr_sz;

	if (h->attrs.size % h->attr_size)
		return file_error(f, "attrs section size %llu is not a multiple of attr_size %llu",
				  (unsigned long long)h->attrs.size, (unsigned long long)h->attr_size);
	nr = h->attrs.size / h->attr_size;
	f->attrs = calloc(nr ? nr : 1, sizeof(*f->attrs));
	if (!f->attrs)
		return file_error(f, "out of memory");
	for (i = 0; i < nr; i++) {
		struct perf_data_attr *a = &f->attrs[i];

		off = h->attrs.offset + i * h->attr_size;
		attr_sz = perf_data__get_u32(f->buf + off + 4);
		if (attr_sz == 0)
			attr_sz = PERF_ATTR_SIZE_VER0;
		if (attr_sz < PERF_ATTR_SIZE_VER0 || attr_sz > slot)
			return file_error(f, "attr %llu: size %u does not fit attr_size %llu",
					  (unsigned long long)i, attr_sz, (unsigned long long)h->attr_size);
		memcpy(&a->attr, f->buf + off,
		       attr_sz < sizeof(a->attr) ? attr_sz : sizeof(a->attr));
		memcpy(&ids, f->buf + off + slot, sizeof(ids));
		if (!in_file(f, ids.offset, ids.size) || ids.size % 8)
			return file_error(f, "attr %llu: ids section out of bounds (offset %llu size %llu)",
					  (unsigned long long)i, (unsigned long long)ids.offset,
					  (unsigned long long)ids.size);
		a->nr_ids = (u32)(ids.size / 8);
		if ((u64)a->nr_ids != ids.size / 8)
			return file_error(f, "attr %llu: too many ids", (unsigned long long)i);
		a->ids = malloc(ids.size ? ids.size : 1);
		if (!a->ids)
			return file_error(f, "out of memory");
		memcpy(a->ids, f->buf + ids.offset, ids.size);
		f->nr_attrs = (u32)(i + 1);
	}
	return 0;
}

/* Where a sample keeps its id, in u64 words after the header (perf's id_pos). */
static int sample_id_pos(u64 type)
{
	if (type & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(type & PERF_SAMPLE_ID))
		return -1;
	return !!(type & PERF_SAMPLE_IP) + !!(type & PERF_SAMPLE_TID) +
	       !!(type & PERF_SAMPLE_TIME) + !!(type & PERF_SAMPLE_ADDR);
}

/* Open BUF; MAPPED: it is perf_data_file__open()'s mapping, for close to unmap. */
static int open_buf(struct perf_data_file *f, const char *name, const void *buf, size_t size,
		    bool mapped)
{
	struct perf_file_header *h = &f->header;

	memset(f, 0, sizeof(*f));
	f->path = name;
	f->buf = buf;
	f->size = size;
	f->mapped = mapped;
	f->id_pos = -1;
	if (size < sizeof(*h))
		return file_error(f, "too short for a perf.data header (%zu bytes)", size);
	memcpy(h, buf, sizeof(*h));
	if (h->magic != PERF_MAGIC2) {
		if (h->magic == __builtin_bswap64(PERF_MAGIC2))
			return file_error(f, "other-endian perf.data is not supported");
		if (!memcmp(&h->magic, "PERFFILE", 8))
			return file_error(f, "version 1 perf.data (PERFFILE) is not supported");
		return file_error(f, "bad magic (not a perf.data file)");
	}
	if (h->size != PERF_FILE_HEADER_SIZE)
		return file_error(f, "bad header size %llu (expected %d)",
				  (unsigned long long)h->size, PERF_FILE_HEADER_SIZE);
	if (h->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section) ||
	    h->attr_size > 4096 || h->attr_size % 8)
		return file_error(f, "bad attr_size %llu", (unsigned long long)h->attr_size);
	if (!in_file(f, h->attrs.offset, h->attrs.size))
		return file_error(f, "attrs section out of bounds (offset %llu size %llu, file %zu bytes)",
				  (unsigned long long)h->attrs.offset,
				  (unsigned long long)h->attrs.size, size);
	if (!in_file(f, h->data.offset, h->data.size))
		return file_error(f, "data section out of bounds (offset %llu size %llu, file %zu bytes)",
				  (unsigned long long)h->data.offset,
				  (unsigned long long)h->data.size, size);
	if (read_attrs(f) || read_features(f))
		return -1;
	if (f->nr_attrs)
		f->id_pos = sample_id_pos(f->attrs[0].attr.sample_type);
	return 0;
}

int perf_data_file__open(struct perf_data_file *f, const char *path)
{
	struct stat st;
	void *buf;
	int fd, ret;

	memset(f, 0, sizeof(*f));
	f->path = path;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return file_error(f, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st)) {
		close(fd);
		return file_error(f, "cannot stat: %s", strerror(errno));
	}
	if (!S_ISREG(st.st_mode) || st.st_size < (off_t)PERF_FILE_HEADER_SIZE) {
		close(fd);
		if (!S_ISREG(st.st_mode))
			return file_error(f, "not a regular file");
		return file_error(f, "too short for a perf.data header (%lld bytes)",
				  (long long)st.st_size);
	}
	buf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_READ_AHEAD, fd, 0);
	close(fd);
	if (buf == MAP_FAILED)
		return file_error(f, "cannot map: %s", strerror(errno));
	ret = open_buf(f, path, buf, (size_t)st.st_size, true);
	return ret;
}

int perf_data_file__open_mem(struct perf_data_file *f, const char *name,
			     const void *buf, size_t size)
{
	return open_buf(f, name, buf, size, false);
}

void perf_data_file__close(struct perf_data_file *f)
{
	for (u32 i = 0; i < f->nr_attrs; i++) {
		free(f->attrs[i].ids);
		free((char *)f->attrs[i].name);
	}
	free(f->attrs);
	for (u32 i = 0; i < f->nr_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	f->build_ids = NULL;
	f->nr_build_ids = 0;
	free(f->hostname);
	free(f->os_release);
	free(f->arch);
	if (f->mapped && f->buf)
		munmap((void *)f->buf, f->size);
	f->attrs = NULL;
	f->nr_attrs = 0;
	f->hostname = f->os_release = f->arch = NULL;
	f->buf = NULL;
	f->mapped = false;
}

void perf_data_file__iter_init(const struct perf_data_file *f, struct perf_data_iter *it)
{
	it->pos = f->header.data.offset;
	it->end = f->header.data.offset + f->header.data.size;
}

/*
 * A mapped file's pages a walk has gone PERF_DATA_KEEP past are given
 * back, that much at a time (MADV_DONTNEED: what looks at them again reads
 * the file again, as the mapping is private and never written): reading
 * a perf.data of any size then holds some megabytes of it, not the whole
 * file (pmusim record's judge read its 130 MB of samples back, and its
 * peak RSS grew with them).
 */
#define PERF_DATA_KEEP	(8u << 20)

static void drop_behind(struct perf_data_file *f, u64 pos)
{
	size_t to;

	if (pos - f->dropped < 2 * (u64)PERF_DATA_KEEP)
		return;
	to = (size_t)(pos - PERF_DATA_KEEP) & ~((size_t)sysconf(_SC_PAGESIZE) - 1);
	if (to > f->dropped && !madvise((void *)(f->buf + f->dropped), to - f->dropped,
					MADV_DONTNEED))
		f->dropped = to;
}

int perf_data_file__next(struct perf_data_file *f, struct perf_data_iter *it,
			 const u8 **event, u32 *size)
{
	struct perf_event_header hdr;

	if (f->mapped && it->pos >= f->dropped)
		drop_behind(f, it->pos);
	if (it->pos >= it->end)
		return 0;
	if (it->end - it->pos < sizeof(hdr)) {
		file_error(f, "record at offset %llu: truncated header",
			   (unsigned long long)it->pos);
		return -1;
	}
	memcpy(&hdr, f->buf + it->pos, sizeof(hdr));
	if (hdr.size < sizeof(hdr)) {
		file_error(f, "record at offset %llu: size %u < 8",
			   (unsigned long long)it->pos, hdr.size);
		return -1;
	}
	if (hdr.size > it->end - it->pos) {
		file_error(f, "record at offset %llu: size %u past the end of the data section",
			   (unsigned long long)it->pos, hdr.size);
		return -1;
	}
	*event = f->buf + it->pos;
	*size = hdr.size;
	it->pos += hdr.size;
	return 1;
}

const struct perf_data_attr *perf_data_file__sample_attr(const struct perf_data_file *f,
							  const u8 *event, u32 size)
{
	u64 id;

	if (f->nr_attrs == 1)
		return &f->attrs[0];
	if (f->id_pos < 0 || 8 + (u64)(f->id_pos + 1) * 8 > size)
		return NULL;
	id = perf_data__get_u64(event + 8 + f->id_pos * 8);
	for (u32 i = 0; i < f->nr_attrs; i++)
		for (u32 j = 0; j < f->attrs[i].nr_ids; j++)
			if (f->attrs[i].ids[j] == id)
				return &f->attrs[i];
	return NULL;
}

int perf_data_file__sample(struct perf_data_file *f, const struct perf_data_iter *it,
			   const u8 *event, u32 size, const struct perf_data_attr **attr,
			   struct perf_sample *s)
{
	const char *why = NULL;

	*attr = perf_data_file__sample_attr(f, event, size);
	if (!*attr)
		return file_error(f, "sample at offset %llu: no attr has its id",
				  (unsigned long long)(it->pos - size));
	if (perf_sample__parse(&(*attr)->attr, event, size, s, &why))
		return file_error(f, "sample at offset %llu: truncated at %s",
				  (unsigned long long)(it->pos - size), why);
	return 0;
}

int perf_data_file__check(struct perf_data_file *f)
{
	const struct perf_data_attr *a;
	struct perf_data_iter it;
	struct perf_sample s;
	const u8 *ev;
	u32 size;
	int ret;

	perf_data_file__iter_init(f, &it);
	while ((ret = perf_data_file__next(f, &it, &ev, &size)) > 0)
		if (perf_data__get_u32(ev) == PERF_RECORD_SAMPLE &&
		    perf_data_file__sample(f, &it, ev, size, &a, &s))
			return -1;
	return ret;
}

/* ---- PERF_RECORD_SAMPLE ---------------------------------------------------- */

struct sample_cursor {
	const u8 *p;
	u64 left;
};

static bool take_u64(struct sample_cursor *c, u64 *v)
{
	if (c->left < 8)
		return false;
	*v = perf_data__get_u64(c->p);
	c->p += 8;
	c->left -= 8;
	return true;
}

/* N items of SIZE bytes; *AT points at the first. */
static bool take_array(struct sample_cursor *c, u64 n, u64 size, const u8 **at)
{
	if (size && n > c->left / size)
		return false;
	*at = c->p;
	c->p += n * size;
	c->left -= n * size;
	return true;
}

static int parse_read(const struct perf_event_attr *attr, struct sample_cursor *c,
		      struct perf_sample *s)
{
	u64 fmt = attr->read_format, one = 8, v;

	if (fmt & PERF_FORMAT_ID)
		one += 8;
	if (fmt & PERF_FORMAT_LOST)
		one += 8;
	s->read_value_size = (u32)one;
	if (fmt & PERF_FORMAT_GROUP) {
		if (!take_u64(c, &s->read_nr))
			return -1;
	} else {
		s->read_nr = 1;
		if (!take_u64(c, &s->read_one.value))
			return -1;
	}
	if ((fmt & PERF_FORMAT_TOTAL_TIME_ENABLED) && !take_u64(c, &s->read_time_enabled))
		return -1;
	if ((fmt & PERF_FORMAT_TOTAL_TIME_RUNNING) && !take_u64(c, &s->read_time_running))
		return -1;
	if (fmt & PERF_FORMAT_GROUP)
		return take_array(c, s->read_nr, one, &s->read_values) ? 0 : -1;
	if ((fmt & PERF_FORMAT_ID) && !take_u64(c, &s->read_one.id))
		return -1;
	if ((fmt & PERF_FORMAT_LOST) && !take_u64(c, &v))
		return -1;
	s->read_one.lost = (fmt & PERF_FORMAT_LOST) ? v : 0;
	return 0;
}

int perf_sample__parse(const struct perf_event_attr *attr, const u8 *event, u32 size,
		       struct perf_sample *s, const char **why)
{
	struct sample_cursor c;
	u64 type = attr->sample_type, v;
	u32 raw;

	memset(s, 0, sizeof(*s));
	s->no_hw_idx = true;
	if (size < sizeof(struct perf_event_header)) {
		*why = "record header";
		return -1;
	}
	c.p = event + sizeof(struct perf_event_header);
	c.left = size - sizeof(struct perf_event_header);

/* the next u64, NAME when the record ends before it; TAKE: if TYPE has BIT */
#define TAKE_NEXT(name, dst) do {					\
		if (!take_u64(&c, (dst))) {				\
			*why = name;					\
			return -1;					\
		}							\
	} while (0)
#define TAKE(bit, name, dst) do {					\
		if (type & (bit))					\
			TAKE_NEXT(name, dst);				\
	} while (0)

	TAKE(PERF_SAMPLE_IDENTIFIER, "id", &s->id);
	TAKE(PERF_SAMPLE_IP, "ip", &s->ip);
	if (type & PERF_SAMPLE_TID) {
		TAKE_NEXT("pid/tid", &v);
		memcpy(&s->pid, &v, 4);
		memcpy(&s->tid, (u8 *)&v + 4, 4);
	}
	TAKE(PERF_SAMPLE_TIME, "time", &s->time);
	TAKE(PERF_SAMPLE_ADDR, "addr", &s->addr);
	TAKE(PERF_SAMPLE_ID, "id", &s->id);
	TAKE(PERF_SAMPLE_STREAM_ID, "stream_id", &s->stream_id);
	if (type & PERF_SAMPLE_CPU) {
		TAKE_NEXT("cpu", &v);
		memcpy(&s->cpu, &v, 4);
	}
	TAKE(PERF_SAMPLE_PERIOD, "period", &s->period);
	if ((type & PERF_SAMPLE_READ) && parse_read(attr, &c, s)) {
		*why = "read values";
		return -1;
	}
	if (type & PERF_SAMPLE_CALLCHAIN) {
		TAKE_NEXT("callchain nr", &s->callchain_nr);
		if (!take_array(&c, s->callchain_nr, 8, &s->callchain)) {
			*why = "callchain";
			return -1;
		}
	}
	if (type & PERF_SAMPLE_RAW) {
		if (c.left < 4) {
			*why = "raw size";
			return -1;
		}
		raw = perf_data__get_u32(c.p);
		c.p += 4;
		c.left -= 4;
		if (!take_array(&c, raw, 1, &s->raw_data)) {
			*why = "raw data";
			return -1;
		}
		s->raw_size = raw;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		TAKE_NEXT("branch nr", &s->branch_nr);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->no_hw_idx = false;
			TAKE_NEXT("branch hw_idx", &s->hw_idx);
		}
		if (!take_array(&c, s->branch_nr, 24, &s->branch_entries)) {
			*why = "branch entries";
			return -1;
		}
		if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS) &&
		    !take_array(&c, s->branch_nr, 8, &s->branch_counters)) {
			*why = "branch counters";
			return -1;
		}
	}
#undef TAKE
#undef TAKE_NEXT
	return 0;
}
