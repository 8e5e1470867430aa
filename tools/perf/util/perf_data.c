// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf.data writer (the counterpart of perf_session__write_header and
 * the write_* feature functions of tools/perf/util/header.c).
 *
 * Records are streamed to a temporary file of this writer's own as they
 * come; the attrs are written when the first record arrives, the features
 * and the final header at close. Only a complete file reaches PATH: renamed
 * over it when PATH is a regular file (or none), copied into it when PATH
 * is a device or a FIFO, which are never replaced. A symlink is followed.
 * In pipe mode ("-") a pipe's stream goes to standard output as the
 * records come, and no file is built: each sample goes to the caller's
 * hook as it is sent (perf_data_writer__set_sample_hook()).
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/testcase.h"
#include "tools/perf/util/perf_data.h"
#include "tools/perf/util/perf_data_read.h"

/* perf pads feature strings to this, and so do we (readers don't care). */
#define NAME_ALIGN	64

/* A message names up to two paths (the file, its temporary or .old) and says why. */
#define ERR_MAX		(2 * 4096 + 256)

struct writer_attr {
	struct perf_event_attr attr;
	char *name;
	u64 *ids;
	u32 nr_ids;
	struct perf_file_section ids_section;
};

struct writer_build_id {
	u8 id[24];
	u8 size;
	char *filename;
};

struct perf_data_writer {
	char *path;			/* as the caller named it */
	char *target;			/* PATH with symlinks followed */
	char *tmp;			/* where the file is built */
	FILE *fp;
	bool in_place;			/* TARGET is no regular file: write into it */
	int target_fd;			/* in place: TARGET open for writing */
	bool finished;
	struct writer_build_id *build_ids;
	u32 nr_build_ids;
	const struct perf_data_env *env;
	struct writer_attr *attrs;
	u32 nr_attrs;
	bool data_started;
	u64 data_offset;
	u64 data_size;
	bool have_time;
	u64 first_time, last_time;
	bool failed;
	char err[ERR_MAX];
	/* pipe mode: target_fd is standard output, written through this buffer; no fp */
	bool pipe;
	perf_data_sample_hook_fn sample_hook;
	void *sample_hook_arg;
	u32 pipe_build_ids;		/* BUILD_ID entries sent down the pipe */
	size_t pipe_len;
	u8 pipe_buf[65536];
};

static _Thread_local char last_error[ERR_MAX];

static void pipe_start(struct perf_data_writer *w);
static void pipe_put(struct perf_data_writer *w, const void *buf, size_t len);
static void pipe_send_build_ids(struct perf_data_writer *w);
static void pipe_flush(struct perf_data_writer *w);

const char *perf_data_writer__last_error(void)
{
	return last_error;
}

static void __attribute__((format(printf, 2, 3)))
writer_fail(struct perf_data_writer *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->failed)
		return;
	w->failed = true;
	n = snprintf(w->err, sizeof(w->err), "%s: ", w->pipe ? "standard output (-o -)" : w->path);
	va_start(ap, fmt);
	vsnprintf(w->err + n, sizeof(w->err) - n, fmt, ap);
	va_end(ap);
	snprintf(last_error, sizeof(last_error), "%s", w->err);
}

static void do_write(struct perf_data_writer *w, const void *buf, size_t size)
{
	/* (a pipe has no file: fp is only ever a feature's body in memory) */
	if (w->failed || !size || !w->fp)
		return;
	if (fwrite(buf, 1, size, w->fp) != size)
		writer_fail(w, "write failed: %s", strerror(errno ? errno : EIO));
}

/*
 * Back to OFFSET, to fill in a table written as zeros. What stdio holds
 * is written first: a write that fails there (a full disk, a file-size
 * limit) is a write failure, not a seek's.
 */
static void writer_seek(struct perf_data_writer *w, u64 offset)
{
	int ret;

	if (w->failed)
		return;
	if (fflush(w->fp)) {
		writer_fail(w, "write failed: %s", strerror(errno));
		return;
	}
	ret = fseek(w->fp, (long)offset, SEEK_SET);
	/* our own regular file, flushed, an offset below its end: nothing left to fail */
	if (NEVER(ret))
		writer_fail(w, "seek failed: %s", strerror(errno));
}

static u64 writer_pos(struct perf_data_writer *w)
{
	long pos = ftell(w->fp);

	if (pos < 0) {
		writer_fail(w, "ftell failed: %s", strerror(errno));
		return 0;
	}
	return (u64)pos;
}

/*
 * Where PATH really leads: a symlink is followed to its target (as
 * open() would, also when the target does not exist yet); anything else
 * is PATH itself. Returns a malloc'ed path or NULL with errno set.
 */
static char *resolve_target(const char *path)
{
	char *cur = strdup(path);

	for (int hops = 0; cur && hops < 40; hops++) {
		char link[4096], *next, *slash;
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		slash = strrchr(cur, '/');
		if (link[0] == '/' || !slash) {
			next = strdup(link);
		} else {
			next = malloc((size_t)(slash - cur) + 2 + (size_t)n);
			if (next)
				sprintf(next, "%.*s/%s", (int)(slash - cur), cur, link);
		}
		free(cur);
		cur = next;
	}
	if (cur) {
		free(cur);
		errno = ELOOP;
	}
	return NULL;
}

/* A file of our own to build the perf.data in: TEMPLATE is overwritten by its name. */
static FILE *create_temp(char *template)
{
	int fd = mkstemp(template);
	FILE *fp = fd < 0 ? NULL : fdopen(fd, "w+b");

	if (!fp && fd >= 0) {
		int err = errno;

		close(fd);
		unlink(template);
		errno = err;
	}
	return fp;
}

static void open_fail(struct perf_data_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void open_fail(struct perf_data_writer *w, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	if (w) {
		if (w->target_fd >= 0)
			close(w->target_fd);
		free(w->path);
		free(w->target);
		free(w->tmp);
	}
	free(w);
	errno = err;
}

/*
 * Where W's file goes: w->target, and for a device, a FIFO or a pipe
 * (in place) target_fd open for writing. 0, or -1 after open_fail().
 */
static int open_target(struct perf_data_writer *w)
{
	struct stat st;

	if (!strcmp(w->path, "-")) {
		/* perf's pipe mode: standard output as it is now, kept out of children */
		w->pipe = w->in_place = true;
		w->target = strdup(w->path);
		if (!w->target) {
			open_fail(w, "-: out of memory");
			return -1;
		}
		w->target_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (w->target_fd < 0) {
			open_fail(w, "-: standard output: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	w->target = resolve_target(w->path);
	if (!w->target) {
		open_fail(w, "%s: cannot follow: %s", w->path, strerror(errno));
		return -1;
	}
	if (stat(w->target, &st)) {
		if (errno != ENOENT) {
			open_fail(w, "%s: cannot stat: %s", w->target, strerror(errno));
			return -1;
		}
		st.st_mode = S_IFREG;	/* created as a regular file */
	}
	w->in_place = !S_ISREG(st.st_mode);
	if (w->in_place && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		open_fail(w, "%s: is a directory", w->target);
		return -1;
	}
	if (w->in_place) {
		/*
		 * A device, a FIFO: written in place, never replaced. The
		 * file is built aside (the header comes last) and copied
		 * in when it is complete.
		 */
		w->target_fd = open(w->target, O_WRONLY | O_CLOEXEC);
		if (w->target_fd < 0) {
			open_fail(w, "%s: cannot open: %s", w->target, strerror(errno));
			return -1;
		}
	}
	return 0;
}

struct perf_data_writer *perf_data_writer__open(const char *path,
						const struct perf_data_env *env)
{
	static const u8 zero_header[PERF_FILE_HEADER_SIZE];
	struct perf_data_writer *w;
	const char *tmpdir = NULL;
	int ret;

	last_error[0] = '\0';
	if (!path || !*path || !env) {
		snprintf(last_error, sizeof(last_error), "pmusim: no output file");
		errno = EINVAL;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		open_fail(NULL, "%s: out of memory", path);
		return NULL;
	}
	w->env = env;
	w->target_fd = -1;
	w->path = strdup(path);
	if (!w->path) {
		open_fail(w, "%s: out of memory", path);
		return NULL;
	}
	if (open_target(w))
		return NULL;
	if (w->pipe)
		return w;	/* nothing is built: records go down the pipe as they come */
	if (w->in_place) {
		tmpdir = getenv("TMPDIR");
		if (!tmpdir || !*tmpdir)
			tmpdir = "/tmp";
		ret = asprintf(&w->tmp, "%s/pmusim-perf.data.XXXXXX", tmpdir);
	} else {
		ret = asprintf(&w->tmp, "%s.tmp.XXXXXX", w->target);
	}
	if (ret < 0) {
		w->tmp = NULL;
		open_fail(w, "%s: out of memory", path);
		return NULL;
	}
	/* unique: two runs with the same output never share a temporary file */
	w->fp = create_temp(w->tmp);
	if (!w->fp) {
		if (w->in_place)
			open_fail(w, "%s: cannot create a temporary file in %s: %s", w->target,
				  tmpdir, strerror(errno));
		else
			open_fail(w, "%s: cannot create: %s", w->target, strerror(errno));
		return NULL;
	}
	do_write(w, zero_header, sizeof(zero_header));
	return w;
}

/*
 * Whether an existing TARGET of mode MODE takes writes: a FIFO is not
 * opened (that would wait for its reader), anything else is, and closed.
 * 0, or -1 with errno.
 */
static int takes_writes(const char *target, mode_t mode)
{
	int fd;

	if (S_ISFIFO(mode))
		return access(target, W_OK);
	fd = open(target, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	return fd < 0 ? -1 : close(fd);
}

int perf_data_writer__check(const char *path, char *err, size_t errlen)
{
	char *target, *tmp = NULL, *copy = NULL;
	struct stat st;
	int fd, ret = -1;

	if (!strcmp(path, "-")) {
		if (fstat(STDOUT_FILENO, &st) ||
		    (fcntl(STDOUT_FILENO, F_GETFL) & O_ACCMODE) == O_RDONLY) {
			snprintf(err, errlen, "-: standard output is not open for writing");
			return -1;
		}
		if (isatty(STDOUT_FILENO)) {
			snprintf(err, errlen, "-: standard output is a terminal: pipe it into perf "
				 "(perf report -i -)");
			return -1;
		}
		return 0;
	}
	target = resolve_target(path);
	if (!target) {
		snprintf(err, errlen, "%s: cannot follow: %s", path, strerror(errno));
		return -1;
	}
	if (!stat(target, &st)) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: is a directory", target);
			goto out;
		}
		if (takes_writes(target, st.st_mode)) {
			snprintf(err, errlen, "%s: cannot write: %s", target, strerror(errno));
			goto out;
		}
		if (!S_ISREG(st.st_mode)) {
			ret = 0;	/* written in place: its directory does not matter */
			goto out;
		}
	} else if (errno != ENOENT) {
		snprintf(err, errlen, "%s: cannot stat: %s", target, strerror(errno));
		goto out;
	}
	/* a regular file is built beside it and renamed: its directory takes a file */
	if (asprintf(&tmp, "%s.tmp.XXXXXX", target) < 0) {
		tmp = NULL;
		snprintf(err, errlen, "%s: out of memory", target);
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		copy = strdup(target);
		snprintf(err, errlen, "%s: cannot create a file in %s: %s", target,
			 copy ? dirname(copy) : "its directory", strerror(errno));
		goto out;
	}
	close(fd);
	unlink(tmp);
	ret = 0;
out:
	free(copy);
	free(tmp);
	free(target);
	return ret;
}

int perf_data_writer__add_attr(struct perf_data_writer *w,
			       const struct perf_event_attr *attr,
			       const char *name, const u64 *ids, u32 nr_ids)
{
	struct writer_attr *a, *attrs;

	if (w->data_started || w->failed || !attr || (nr_ids && !ids) ||
	    attr->config3 || nr_ids > (1u << 20)) {
		errno = EINVAL;
		return -1;
	}
	attrs = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*attrs));
	if (!attrs) {
		errno = ENOMEM;
		return -1;
	}
	w->attrs = attrs;
	a = &attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	a->attr.size = PERF_DATA_ATTR_SIZE;
#ifdef CONFIG_PERF_HW_TIME
	a->attr.hw_time = 0;		/* RFC only: perf 6.1 would refuse the bit */
#endif
	a->nr_ids = nr_ids;
	a->ids = malloc(nr_ids ? nr_ids * sizeof(u64) : 1);
	a->name = name ? strdup(name) : NULL;
	if (!a->ids || (name && !a->name)) {
		free(a->ids);
		free(a->name);
		errno = ENOMEM;
		return -1;
	}
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(u64));
	w->nr_attrs++;
	return 0;
}

int perf_data_writer__add_build_id(struct perf_data_writer *w, const u8 *build_id, u8 size,
				   const char *filename)
{
	struct writer_build_id *b;

	/* (an entry's size is 16 bits: a name as long as a path at most) */
	if (size > 20 || !filename || strlen(filename) >= 4096 || w->finished) {
		errno = EINVAL;
		return -1;
	}
	b = realloc(w->build_ids, (w->nr_build_ids + 1) * sizeof(*b));
	if (!b) {
		errno = ENOMEM;
		return -1;
	}
	w->build_ids = b;
	b = &b[w->nr_build_ids];
	memset(b, 0, sizeof(*b));
	memcpy(b->id, build_id, size);
	b->size = size;
	b->filename = strdup(filename);
	if (!b->filename) {
		errno = ENOMEM;
		return -1;
	}
	w->nr_build_ids++;
	/* down a pipe before the samples that need it, as soon as the stream has begun */
	if (w->pipe && w->data_started)
		pipe_send_build_ids(w);
	return 0;
}

const char *perf_data_writer__target(const struct perf_data_writer *w)
{
	return w->target;
}

bool perf_data_writer__in_place(const struct perf_data_writer *w)
{
	return w->in_place;
}

/* The ids of every attr, then the attrs; the records follow. */
static void write_attrs(struct perf_data_writer *w)
{
	struct perf_file_section ids;
	u32 i;

	w->data_started = true;
	if (w->pipe) {
		pipe_start(w);
		return;
	}
	for (i = 0; i < w->nr_attrs; i++) {
		w->attrs[i].ids_section.offset = writer_pos(w);
		w->attrs[i].ids_section.size = (u64)w->attrs[i].nr_ids * sizeof(u64);
		do_write(w, w->attrs[i].ids, w->attrs[i].ids_section.size);
	}
	for (i = 0; i < w->nr_attrs; i++) {
		ids = w->attrs[i].ids_section;
		do_write(w, &w->attrs[i].attr, PERF_DATA_ATTR_SIZE);
		do_write(w, &ids, sizeof(ids));
	}
	w->data_offset = writer_pos(w);
}

static const struct perf_event_attr *writer_sample_attr(struct perf_data_writer *w,
							const u8 *event, u32 size)
{
	const struct perf_event_attr *first;
	u64 type, id;
	u32 pos, i, j;

	if (!w->nr_attrs)
		return NULL;
	if (w->nr_attrs == 1)
		return &w->attrs[0].attr;
	first = &w->attrs[0].attr;
	type = first->sample_type;
	if (type & PERF_SAMPLE_IDENTIFIER) {
		pos = 0;
	} else if (type & PERF_SAMPLE_ID) {
		pos = !!(type & PERF_SAMPLE_IP) + !!(type & PERF_SAMPLE_TID) +
		      !!(type & PERF_SAMPLE_TIME) + !!(type & PERF_SAMPLE_ADDR);
	} else {
		return NULL;
	}
	if (8 + (pos + 1) * 8 > size)
		return NULL;
	id = perf_data__get_u64(event + 8 + pos * 8);
	for (i = 0; i < w->nr_attrs; i++)
		for (j = 0; j < w->attrs[i].nr_ids; j++)
			if (w->attrs[i].ids[j] == id)
				return &w->attrs[i].attr;
	return NULL;
}

/* A sample to the hook with its attr and the attr's index (none: an id no attr has). */
static void call_sample_hook(struct perf_data_writer *w, const struct perf_event_header *event)
{
	const struct perf_event_attr *attr = writer_sample_attr(w, (const u8 *)event, event->size);

	for (u32 i = 0; attr && i < w->nr_attrs; i++)
		if (attr == &w->attrs[i].attr)
			w->sample_hook(w->sample_hook_arg, i, attr, (const u8 *)event, event->size);
}

static void note_sample_time(struct perf_data_writer *w, const struct perf_event_header *event)
{
	const struct perf_event_attr *attr;
	struct perf_sample s;
	const char *why;

	attr = writer_sample_attr(w, (const u8 *)event, event->size);
	if (!attr || !(attr->sample_type & PERF_SAMPLE_TIME))
		return;
	if (perf_sample__parse(attr, (const u8 *)event, event->size, &s, &why))
		return;
	if (!w->have_time || s.time < w->first_time)
		w->first_time = s.time;
	if (!w->have_time || s.time > w->last_time)
		w->last_time = s.time;
	w->have_time = true;
}

int perf_data_writer__write(struct perf_data_writer *w,
			    const struct perf_event_header *event)
{
	if (w->failed) {
		errno = EIO;
		return -1;
	}
	if (!event || event->size < sizeof(*event) || event->size % 8) {
		errno = EINVAL;
		return -1;
	}
	if (!w->data_started)
		write_attrs(w);
	if (event->type == PERF_RECORD_SAMPLE)
		note_sample_time(w, event);
	do_write(w, event, event->size);
	if (w->pipe)
		pipe_put(w, event, event->size);
	if (w->failed) {
		errno = EIO;
		return -1;
	}
	w->data_size += event->size;
	if (w->sample_hook && event->type == PERF_RECORD_SAMPLE)
		call_sample_hook(w, event);
	return 0;
}

void perf_data_writer__set_sample_hook(struct perf_data_writer *w, perf_data_sample_hook_fn fn,
				       void *arg)
{
	w->sample_hook = fn;
	w->sample_hook_arg = arg;
}

/* ---- features ------------------------------------------------------------ */

static void write_u32(struct perf_data_writer *w, u32 v)
{
	do_write(w, &v, sizeof(v));
}

static void write_u64(struct perf_data_writer *w, u64 v)
{
	do_write(w, &v, sizeof(v));
}

/* u32 len (including the NUL, rounded up to NAME_ALIGN), then the bytes. */
static void write_string(struct perf_data_writer *w, const char *s)
{
	static const char zeros[NAME_ALIGN];
	size_t len = strlen(s) + 1;
	size_t padded = (len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	write_u32(w, (u32)padded);
	do_write(w, s, len);
	do_write(w, zeros, padded - len);
}

static bool writer_has_branches(const struct perf_data_writer *w)
{
	for (u32 i = 0; i < w->nr_attrs; i++)
		if (w->attrs[i].attr.sample_type & PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

static bool writer_all_named(const struct perf_data_writer *w)
{
	for (u32 i = 0; i < w->nr_attrs; i++)
		if (!w->attrs[i].name)
			return false;
	return w->nr_attrs > 0;
}

/* Whether feature FEAT has anything to say; write_feature() writes it. */
static bool feature_present(const struct perf_data_writer *w, int feat)
{
	const struct perf_data_env *env = w->env;

	switch (feat) {
	case HEADER_BUILD_ID:	return w->nr_build_ids;
	case HEADER_HOSTNAME:	return env->hostname;
	case HEADER_OSRELEASE:	return env->os_release;
	case HEADER_VERSION:	return env->version;
	case HEADER_ARCH:	return env->arch;
	case HEADER_NRCPUS:	return env->nr_cpus_avail;
	case HEADER_CPUDESC:	return env->cpu_desc;
	case HEADER_CPUID:	return env->cpuid;
	case HEADER_TOTAL_MEM:	return env->total_mem;
	case HEADER_CMDLINE:	return env->argc > 0 && env->argv;
	case HEADER_EVENT_DESC:	return writer_all_named(w);
	case HEADER_BRANCH_STACK: return writer_has_branches(w) && !env->callchain_branches_only;
	case HEADER_SAMPLE_TIME: return w->have_time;
	case HEADER_CPU_PMU_CAPS: return env->max_branches || env->pmu_name;
	default:		return false;
	}
}

/*
 * One BUILD_ID entry (perf_record_header_build_id), by PUT: header (of
 * TYPE: 0 in the feature section, PERF_RECORD_HEADER_BUILD_ID down a
 * pipe), pid (-1: the host), the id in 24 bytes with its size, the name
 * padded to NAME_ALIGN. perf record writes user DSOs so.
 */
static void write_build_id_entry(struct perf_data_writer *w, const struct writer_build_id *b,
				 u32 type, void (*put)(struct perf_data_writer *, const void *,
						       size_t))
{
	static const char zeros[NAME_ALIGN];
	size_t len = strlen(b->filename) + 1;
	size_t padded = (len + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;
	struct {
		struct perf_event_header h;
		u32 pid;
		u8 id[24];
	} __attribute__((packed)) e = {
		.h = {
			.type = type,
			.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE,
			.size = (u16)(8 + 4 + 24 + padded),
		},
		.pid = (u32)-1,
	};

	memcpy(e.id, b->id, 20);
	e.id[20] = b->size;
	put(w, &e, sizeof(e));
	put(w, b->filename, len);
	put(w, zeros, padded - len);
}

static void write_feature(struct perf_data_writer *w, int feat)
{
	const struct perf_data_env *env = w->env;
	char num[24];
	u32 i;

	switch (feat) {
	case HEADER_BUILD_ID:
		for (i = 0; i < w->nr_build_ids; i++)
			write_build_id_entry(w, &w->build_ids[i], 0, do_write);
		break;
	case HEADER_HOSTNAME:	write_string(w, env->hostname); break;
	case HEADER_OSRELEASE:	write_string(w, env->os_release); break;
	case HEADER_VERSION:	write_string(w, env->version); break;
	case HEADER_ARCH:	write_string(w, env->arch); break;
	case HEADER_CPUDESC:	write_string(w, env->cpu_desc); break;
	case HEADER_CPUID:	write_string(w, env->cpuid); break;
	case HEADER_TOTAL_MEM:	write_u64(w, env->total_mem); break;
	case HEADER_NRCPUS:
		write_u32(w, env->nr_cpus_avail);
		write_u32(w, env->nr_cpus_online ? env->nr_cpus_online : env->nr_cpus_avail);
		break;
	case HEADER_CMDLINE:
		write_u32(w, (u32)env->argc);
		for (i = 0; i < (u32)env->argc; i++)
			write_string(w, env->argv[i] ? env->argv[i] : "");
		break;
	case HEADER_EVENT_DESC:
		write_u32(w, w->nr_attrs);
		write_u32(w, PERF_DATA_ATTR_SIZE);
		for (i = 0; i < w->nr_attrs; i++) {
			do_write(w, &w->attrs[i].attr, PERF_DATA_ATTR_SIZE);
			write_u32(w, w->attrs[i].nr_ids);
			write_string(w, w->attrs[i].name);
			do_write(w, w->attrs[i].ids, (size_t)w->attrs[i].nr_ids * sizeof(u64));
		}
		break;
	case HEADER_BRANCH_STACK:
		break;		/* presence is the message */
	case HEADER_SAMPLE_TIME:
		write_u64(w, w->first_time);
		write_u64(w, w->last_time);
		break;
	case HEADER_CPU_PMU_CAPS:
		write_u32(w, !!env->max_branches + !!env->pmu_name);
		if (env->max_branches) {
			snprintf(num, sizeof(num), "%u", env->max_branches);
			write_string(w, "branches");
			write_string(w, num);
		}
		if (env->pmu_name) {
			write_string(w, "pmu_name");
			write_string(w, env->pmu_name);
		}
		break;
	}
}

/*
 * Feature FEAT's section as write_feature() writes it into the file, in
 * memory (malloc'ed, its size in *SIZE; HEADER_LAST_FEATURE's is empty),
 * or NULL: out of memory.
 */
static char *feature_body(struct perf_data_writer *w, u64 feat, size_t *size)
{
	FILE *fp = w->fp;
	char *body = NULL;
	bool failed;

	*size = 0;
	w->fp = open_memstream(&body, size);
	if (!w->fp) {
		w->fp = fp;
		return NULL;
	}
	if (feat < HEADER_LAST_FEATURE)
		write_feature(w, (int)feat);
	failed = fclose(w->fp) != 0;
	w->fp = fp;
	if (failed) {
		free(body);
		return NULL;
	}
	return body;
}

static void write_features(struct perf_data_writer *w, struct perf_file_header *h)
{
	struct perf_file_section sec[HEADER_LAST_FEATURE];
	u64 table, start;
	int feat, nr = 0;

	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		if (feature_present(w, feat))
			h->adds_features[feat / 64] |= 1ULL << (feat % 64);
	table = writer_pos(w);
	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		if (feature_present(w, feat))
			nr++;
	memset(sec, 0, sizeof(sec));
	do_write(w, sec, nr * sizeof(sec[0]));
	nr = 0;
	for (feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++) {
		if (!feature_present(w, feat))
			continue;
		start = writer_pos(w);
		write_feature(w, feat);
		sec[nr].offset = start;
		sec[nr].size = writer_pos(w) - start;
		nr++;
	}
	writer_seek(w, table);
	do_write(w, sec, nr * sizeof(sec[0]));
}

static void writer_free(struct perf_data_writer *w)
{
	for (u32 i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	for (u32 i = 0; i < w->nr_build_ids; i++)
		free(w->build_ids[i].filename);
	free(w->build_ids);
	free(w->path);
	free(w->target);
	free(w->tmp);
	free(w);
}

int perf_data_writer__finish(struct perf_data_writer *w)
{
	struct perf_file_header h;

	if (w->finished)
		return w->failed ? -1 : 0;
	w->finished = true;
	if (!w->data_started)
		write_attrs(w);
	if (w->pipe) {
		/* (what a pipe's reader learns at its end: the last files' build-ids) */
		pipe_send_build_ids(w);
		pipe_flush(w);
		return w->failed ? -1 : 0;
	}
	memset(&h, 0, sizeof(h));
	h.magic = PERF_MAGIC2;
	h.size = PERF_FILE_HEADER_SIZE;
	h.attr_size = PERF_DATA_ATTR_SIZE + sizeof(struct perf_file_section);
	h.attrs.offset = w->data_offset - (u64)w->nr_attrs * h.attr_size;
	h.attrs.size = (u64)w->nr_attrs * h.attr_size;
	h.data.offset = w->data_offset;
	h.data.size = w->data_size;
	write_features(w, &h);
	writer_seek(w, 0);
	do_write(w, &h, sizeof(h));
	if (!w->failed && fflush(w->fp))
		writer_fail(w, "write failed: %s", strerror(errno));
	return w->failed ? -1 : 0;
}

/* The bytes the features and their table will take at finish. 0, or -1: out of memory. */
static int features_size(struct perf_data_writer *w, u64 *total)
{
	*total = 0;
	for (int feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++) {
		size_t size;
		char *body;

		if (!feature_present(w, feat))
			continue;
		body = feature_body(w, (u64)feat, &size);
		if (!body)
			return -1;
		free(body);
		*total += sizeof(struct perf_file_section) + size;
	}
	return 0;
}

/*
 * The records that reached the file whole, from data_offset, as far as
 * LIMIT: data_size, the samples' times and how many there are follow
 * them. The file's end, where the last kept record ends, is returned.
 */
static u64 keep_whole_records(struct perf_data_writer *w, int fd, u64 limit, u64 *samples)
{
	u8 *buf = malloc(65536);
	u64 pos = w->data_offset;

	*samples = 0;
	w->have_time = false;
	while (buf && pos + sizeof(struct perf_event_header) <= limit) {
		struct perf_event_header *h = (struct perf_event_header *)buf;

		if (pread(fd, buf, sizeof(*h), (off_t)pos) != (ssize_t)sizeof(*h) ||
		    h->size < sizeof(*h) || pos + h->size > limit ||
		    pread(fd, buf + sizeof(*h), h->size - sizeof(*h), (off_t)(pos + sizeof(*h))) !=
		    (ssize_t)(h->size - sizeof(*h)))
			break;
		if (h->type == PERF_RECORD_SAMPLE) {
			note_sample_time(w, h);
			(*samples)++;
		}
		pos += h->size;
	}
	free(buf);
	w->data_size = pos - w->data_offset;
	return pos;
}

int perf_data_writer__keep_partial(struct perf_data_writer *w, u64 *samples)
{
	char why[ERR_MAX];
	struct stat st;
	u64 feats, end;
	int fd;

	*samples = 0;
	if (!w->failed || w->pipe || !w->data_started)
		return -1;
	snprintf(why, sizeof(why), "%s", w->err);
	/* what stdio still holds never reached the file: dropped, the file as it is */
	__fpurge(w->fp);
	clearerr(w->fp);
	fd = fileno(w->fp);
	w->failed = false;
	w->finished = false;
	if (fstat(fd, &st) || features_size(w, &feats) ||
	    (u64)st.st_size < w->data_offset + feats)
		goto fail;
	/* the features go where records were: no byte past those the file already had */
	end = keep_whole_records(w, fd, (u64)st.st_size - feats, samples);
	if (ftruncate(fd, (off_t)end) || fseek(w->fp, (long)end, SEEK_SET))
		goto fail;
	snprintf(last_error, sizeof(last_error), "%s", why);
	return 0;
fail:
	w->failed = true;
	snprintf(w->err, sizeof(w->err), "%s", why);
	snprintf(last_error, sizeof(last_error), "%s", why);
	return -1;
}

int perf_data_writer__open_result(struct perf_data_writer *w, struct perf_data_file *f)
{
	struct stat st;
	void *buf;
	int ret;

	memset(f, 0, sizeof(*f));
	if (!w->finished || w->failed || w->pipe || fstat(fileno(w->fp), &st)) {
		snprintf(f->err, sizeof(f->err), "%s: not finished", w->path);
		return -1;
	}
	buf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(w->fp), 0);
	if (buf == MAP_FAILED) {
		snprintf(f->err, sizeof(f->err), "%s: cannot map: %s", w->tmp, strerror(errno));
		return -1;
	}
	/* (open_mem() starts @f afresh: mapped is said after, for close to unmap it) */
	ret = perf_data_file__open_mem(f, w->path, buf, (size_t)st.st_size);
	f->mapped = true;
	return ret;
}

/* Write all of BUF to FD, through short writes and interruptions. */
static int write_all(int fd, const u8 *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* In place: copy the finished file into the device or FIFO. */
static void copy_into_target(struct perf_data_writer *w)
{
	u8 buf[65536];
	size_t n;

	rewind(w->fp);
	while (!w->failed && (n = fread(buf, 1, sizeof(buf), w->fp)) > 0)
		if (write_all(w->target_fd, buf, n))
			writer_fail(w, "write failed: %s", strerror(errno));
	if (!w->failed && ferror(w->fp))
		writer_fail(w, "cannot read back %s: %s", w->tmp, strerror(errno ? errno : EIO));
	if (close(w->target_fd) && !w->failed)
		writer_fail(w, "close failed: %s", strerror(errno));
	w->target_fd = -1;
}

/* ---- pipe mode ------------------------------------------------------------- */

/*
 * What the buffer holds, down the pipe. A reader that went away is a
 * write error (EPIPE), not the end of pmusim: SIGPIPE is held while the
 * pipe is written, and the one the write raised is taken back.
 */
static void pipe_flush(struct perf_data_writer *w)
{
	static const struct timespec now;
	sigset_t set, old;
	int ret, err;

	if (!w->pipe_len || w->failed)
		return;
	sigemptyset(&set);
	sigaddset(&set, SIGPIPE);
	sigprocmask(SIG_BLOCK, &set, &old);
	ret = write_all(w->target_fd, w->pipe_buf, w->pipe_len);
	err = errno;
	if (ret && err == EPIPE && !sigismember(&old, SIGPIPE))
		sigtimedwait(&set, NULL, &now);
	sigprocmask(SIG_SETMASK, &old, NULL);
	w->pipe_len = 0;
	if (ret)
		writer_fail(w, "write failed: %s", strerror(err));
}

static void pipe_put(struct perf_data_writer *w, const void *buf, size_t len)
{
	const u8 *p = buf;

	while (len && !w->failed) {
		size_t n = sizeof(w->pipe_buf) - w->pipe_len;

		if (n > len)
			n = len;
		memcpy(w->pipe_buf + w->pipe_len, p, n);
		w->pipe_len += n;
		p += n;
		len -= n;
		if (w->pipe_len == sizeof(w->pipe_buf))
			pipe_flush(w);
	}
}

/* The BUILD_ID entries not yet sent, as PERF_RECORD_HEADER_BUILD_ID records. */
static void pipe_send_build_ids(struct perf_data_writer *w)
{
	for (; w->pipe_build_ids < w->nr_build_ids; w->pipe_build_ids++)
		write_build_id_entry(w, &w->build_ids[w->pipe_build_ids],
				     PERF_RECORD_HEADER_BUILD_ID, pipe_put);
}

/*
 * Whether perf record sends feature FEAT down a pipe: BUILD_ID goes as
 * records of its own, BRANCH_STACK never goes (perf has no record for
 * it), SAMPLE_TIME is not known until the end.
 */
static bool pipe_feature(int feat)
{
	return feat != HEADER_BUILD_ID && feat != HEADER_BRANCH_STACK &&
	       feat != HEADER_SAMPLE_TIME;
}

/* One PERF_RECORD_HEADER_FEATURE record: header, the feature's id, its section as in a file. */
static void pipe_send_feature(struct perf_data_writer *w, u64 feat)
{
	struct perf_event_header h = { .type = PERF_RECORD_HEADER_FEATURE };
	size_t size;
	char *body = feature_body(w, feat, &size);

	if (!body)
		writer_fail(w, "out of memory");
	else if (16 + size > 0xffff)
		writer_fail(w, "feature %llu too large for a pipe (%zu bytes)",
			    (unsigned long long)feat, size);
	if (!w->failed) {
		h.size = (u16)(16 + size);
		pipe_put(w, &h, sizeof(h));
		pipe_put(w, &feat, sizeof(feat));
		pipe_put(w, body, size);
	}
	free(body);
}

/*
 * The stream's start, as perf record writes a pipe's: the magic and the
 * header's size, each attr with its ids (PERF_RECORD_HEADER_ATTR), the
 * features, HEADER_LAST_FEATURE's id to end them, and the BUILD_ID
 * entries known so far.
 */
static void pipe_start(struct perf_data_writer *w)
{
	const u64 header[2] = { PERF_MAGIC2, PERF_PIPE_HEADER_SIZE };

	pipe_put(w, header, sizeof(header));
	for (u32 i = 0; i < w->nr_attrs && !w->failed; i++) {
		const struct writer_attr *a = &w->attrs[i];
		size_t size = 8 + PERF_DATA_ATTR_SIZE + (size_t)a->nr_ids * sizeof(u64);
		struct perf_event_header h = {
			.type = PERF_RECORD_HEADER_ATTR, .size = (u16)size,
		};

		if (size > 0xffff) {
			writer_fail(w, "%u event ids: too many for a pipe's attr record (at most %zu)",
				    a->nr_ids, (0xffff - 8 - (size_t)PERF_DATA_ATTR_SIZE) / 8);
			return;
		}
		pipe_put(w, &h, sizeof(h));
		pipe_put(w, &a->attr, PERF_DATA_ATTR_SIZE);
		pipe_put(w, a->ids, (size_t)a->nr_ids * sizeof(u64));
	}
	for (int feat = HEADER_FIRST_FEATURE; feat < HEADER_LAST_FEATURE; feat++)
		if (pipe_feature(feat) && feature_present(w, feat))
			pipe_send_feature(w, (u64)feat);
	pipe_send_feature(w, HEADER_LAST_FEATURE);
	pipe_send_build_ids(w);
}

/*
 * The previous TARGET, if it has bytes, becomes TARGET.old (as perf
 * record keeps it). Through a hard link, so that TARGET never goes
 * missing; by a rename where the filesystem has no hard links.
 */
static void keep_old(struct perf_data_writer *w)
{
	char *old = NULL, *link_tmp = NULL;
	struct stat st;

	if (stat(w->target, &st) || !S_ISREG(st.st_mode) || !st.st_size)
		return;
	if (asprintf(&old, "%s.old", w->target) < 0 ||
	    asprintf(&link_tmp, "%s.old", w->tmp) < 0) {
		if (old)
			free(old);
		writer_fail(w, "out of memory");
		return;
	}
	if (!link(w->target, link_tmp)) {
		if (rename(link_tmp, old)) {
			writer_fail(w, "cannot keep the previous file as %s: %s", old, strerror(errno));
			unlink(link_tmp);
		}
	} else if (rename(w->target, old) && errno != ENOENT) {
		writer_fail(w, "cannot keep the previous file as %s: %s", old, strerror(errno));
	}
	free(old);
	free(link_tmp);
}

/*
 * keep_old() and the rename that follows it are two steps. Two writers
 * of the same PATH that interleave them would both see no TARGET, and the
 * first one's file would vanish under the second's rename instead of
 * becoming TARGET.old. An exclusive flock on TARGET's directory makes the
 * pair one step for every pmusim writing there. Where the directory cannot
 * be locked, the writer goes on unlocked: losing the .old copy to a racing
 * run is better than failing a run that recorded everything.
 */
static int lock_target_dir(const struct perf_data_writer *w)
{
	char *copy = strdup(w->target);
	int fd;

	if (!copy)
		return -1;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int perf_data_writer__close(struct perf_data_writer *w)
{
	int ret = 0;

	perf_data_writer__finish(w);
	if (w->in_place && !w->pipe && !w->failed)
		copy_into_target(w);
	if (w->fp && fclose(w->fp) && !w->failed)
		writer_fail(w, "close failed: %s", strerror(errno));
	if (!w->in_place && !w->failed) {
		int dir_fd = lock_target_dir(w);

		keep_old(w);
		if (!w->failed && rename(w->tmp, w->target))
			writer_fail(w, "cannot rename %s: %s", w->tmp, strerror(errno));
		if (dir_fd >= 0)
			close(dir_fd);	/* drops the lock */
	}
	if (w->tmp && (w->failed || w->in_place))
		unlink(w->tmp);
	if (w->target_fd >= 0)
		close(w->target_fd);
	ret = w->failed ? -1 : 0;
	writer_free(w);
	return ret;
}

void perf_data_writer__abort(struct perf_data_writer *w)
{
	if (w->fp)
		fclose(w->fp);
	if (w->tmp)
		unlink(w->tmp);
	if (w->target_fd >= 0)
		close(w->target_fd);
	writer_free(w);
}
