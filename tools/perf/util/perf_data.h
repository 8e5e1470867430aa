/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf.data files (the counterpart of tools/perf/util/header.h and
 * data.c): the on-disk layout and a writer whose files perf 6.1 reads.
 *
 * Layout: struct perf_file_header, the ids of every attr, the attrs (each
 * followed by a perf_file_section that points at its ids), the records,
 * then one perf_file_section per feature bit set, then the feature bodies.
 *
 * Every value the writer puts in the file comes from the caller's
 * struct perf_data_env (the simulated machine), never from the host, so
 * the same input gives the same bytes.
 */
#ifndef PMUSIM_SIM_PERF_DATA_H
#define PMUSIM_SIM_PERF_DATA_H

#include "core/kernel.h"
#include <pmusim/perf_event.h>

/* perf's: a BUILD_ID entry carries its build-id's size (tools/lib/perf's event.h) */
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */
#define PERF_FILE_HEADER_SIZE	104
/* A pipe's header is the magic and this size; records follow */
#define PERF_PIPE_HEADER_SIZE	16

/*
 * The perf tool's records that carry a pipe's header (tools/lib/perf's
 * event.h): an attr and its ids, a BUILD_ID entry, a feature's section.
 */
#define PERF_RECORD_HEADER_ATTR		64
#define PERF_RECORD_HEADER_BUILD_ID	67
#define PERF_RECORD_HEADER_FEATURE	80

/*
 * The attr size pmusim writes: perf 6.1 refuses anything larger
 * ("file uses a more recent and unsupported ABI").
 */
#define PERF_DATA_ATTR_SIZE	PERF_ATTR_SIZE_VER7

struct perf_file_section {
	u64 offset;
	u64 size;
};

struct perf_file_header {
	u64 magic;
	u64 size;			/* PERF_FILE_HEADER_SIZE */
	u64 attr_size;			/* attr as written + its ids section */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;	/* unused, zero */
	u64 adds_features[4];		/* bit N set: feature N present */
};

/* Feature bits, as perf 6.1 numbers them. */
enum {
	HEADER_RESERVED		= 0,
	HEADER_FIRST_FEATURE	= 1,
	HEADER_TRACING_DATA	= 1,
	HEADER_BUILD_ID,
	HEADER_HOSTNAME,
	HEADER_OSRELEASE,
	HEADER_VERSION,
	HEADER_ARCH,
	HEADER_NRCPUS,
	HEADER_CPUDESC,
	HEADER_CPUID,
	HEADER_TOTAL_MEM,
	HEADER_CMDLINE,
	HEADER_EVENT_DESC,
	HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY,
	HEADER_BRANCH_STACK,
	HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC,
	HEADER_AUXTRACE,
	HEADER_STAT,
	HEADER_CACHE,
	HEADER_SAMPLE_TIME,
	HEADER_MEM_TOPOLOGY,
	HEADER_CLOCKID,
	HEADER_DIR_FORMAT,
	HEADER_BPF_PROG_INFO,
	HEADER_BPF_BTF,
	HEADER_COMPRESSED,
	HEADER_CPU_PMU_CAPS,
	HEADER_CLOCK_DATA,
	HEADER_HYBRID_TOPOLOGY,
	HEADER_PMU_CAPS,
	HEADER_LAST_FEATURE,
	HEADER_FEAT_BITS	= 256,
};

/*
 * The simulated machine as the feature sections describe it. NULL strings
 * and zero numbers leave their feature out.
 */
struct perf_data_env {
	const char *hostname;		/* e.g. "pmusim" */
	const char *os_release;		/* e.g. "6.12.0-pmusim" */
	const char *version;		/* perf version string, e.g. "6.12" */
	const char *arch;		/* e.g. "x86_64" */
	const char *cpu_desc;		/* model name */
	const char *cpuid;		/* "GenuineIntel,6,85,4" */
	u32 nr_cpus_avail;
	u32 nr_cpus_online;
	u64 total_mem;			/* kB */
	int argc;			/* CMDLINE */
	const char *const *argv;
	u32 max_branches;		/* LBR depth: CPU_PMU_CAPS branches=N */
	const char *pmu_name;		/* CPU_PMU_CAPS pmu_name=, e.g. "skylake" */
	/*
	 * Every branch stack is --call-graph lbr's, none from -b/-j: perf
	 * record then leaves the BRANCH_STACK feature out, and perf report
	 * stays out of branch mode.
	 */
	bool callchain_branches_only;
};

struct perf_data_writer;
struct perf_data_file;

/*
 * Start a perf.data for PATH (as perf record does, a symlink is followed
 * and what is said here is of its target). PATH "-" is perf's pipe mode:
 * standard output (as it is at this call) gets a pipe's stream, which
 * perf report -i - reads: the header's magic, then the attrs, the
 * features perf record sends down a pipe and the BUILD_ID entries as
 * records, then the records as they come; no file is built (nothing to
 * read back: a sample hook sees each sample as it goes). Otherwise:
 * - a regular file or none: the file is built in PATH.tmp.XXXXXX (a name
 *   of this writer's own, in PATH's directory) and renamed over PATH only
 *   when perf_data_writer__close() succeeds; a previous PATH with bytes
 *   in it is kept as PATH.old;
 * - anything else (a character device such as /dev/null, a FIFO): PATH
 *   is opened now, written in place by perf_data_writer__close() and
 *   never replaced; the file is built in $TMPDIR (or /tmp) meanwhile.
 * @env is not copied: it must stay valid until perf_data_writer__close()
 * or __abort(). Returns NULL with errno set and the reason in
 * perf_data_writer__last_error() (one line, naming PATH).
 */
struct perf_data_writer *perf_data_writer__open(const char *path,
						const struct perf_data_env *env);

/*
 * Describe one event: its attr (at most PERF_DATA_ATTR_SIZE bytes of it
 * are written, RFC-only fields cleared), its name for EVENT_DESC (NULL:
 * none) and the ids its records carry. All attrs come before the first
 * record. Returns 0, or -1 with errno EINVAL (too late, bad attr, a
 * config3 that perf 6.1 cannot represent) or ENOMEM.
 */
int perf_data_writer__add_attr(struct perf_data_writer *w,
			       const struct perf_event_attr *attr,
			       const char *name, const u64 *ids, u32 nr_ids);

/*
 * Append one record as the core produced it: EVENT points at the header
 * and event->size bytes in all (a multiple of 8, at least 8). Returns 0,
 * or -1 with errno EINVAL (bad size) or EIO.
 */
int perf_data_writer__write(struct perf_data_writer *w,
			    const struct perf_event_header *event);

/*
 * Called with each sample written, after it went out: its attr's index
 * (in the order added), the attr and the record. Pipe mode's way to see
 * the samples, since its file cannot be read back.
 */
typedef void (*perf_data_sample_hook_fn)(void *arg, u32 attr_idx,
					 const struct perf_event_attr *attr, const u8 *event,
					 u32 size);
void perf_data_writer__set_sample_hook(struct perf_data_writer *w, perf_data_sample_hook_fn fn,
				       void *arg);

/*
 * Name a DSO's build-id in the BUILD_ID feature, as perf record lists the
 * DSOs it recorded: FILENAME as its MMAP2 records name it, BUILD_ID of
 * SIZE bytes (at most 20). Returns 0, or -1 with errno EINVAL or ENOMEM.
 */
int perf_data_writer__add_build_id(struct perf_data_writer *w, const u8 *build_id, u8 size,
				   const char *filename);

/*
 * Where the file goes, symlinks followed ("-": standard output); whether
 * it is written in place (see __open: a device, a FIFO, a pipe).
 */
const char *perf_data_writer__target(const struct perf_data_writer *w);
bool perf_data_writer__in_place(const struct perf_data_writer *w);

/*
 * Whether perf_data_writer__open(PATH) can write PATH, without writing
 * anything (perf record opens its output before the workload starts): a
 * missing or read-only directory, an existing file that cannot be
 * written, a directory. "-" needs a standard output that is open for
 * writing and no terminal. 0, or -1 with one line naming PATH in ERR.
 */
int perf_data_writer__check(const char *path, char *err, size_t errlen);

/*
 * Write the features and the final header: the file is complete, not yet
 * at PATH. Returns 0 or -1 (the reason in perf_data_writer__last_error()).
 */
int perf_data_writer__finish(struct perf_data_writer *w);

/*
 * Open the finished file for reading (whatever PATH is but a pipe), named
 * PATH in F's messages. 0, or -1 with the reason in f->err; perf_data_file__close()
 * releases F either way.
 */
int perf_data_writer__open_result(struct perf_data_writer *w, struct perf_data_file *f);

/*
 * Finish if not yet done, then put the file at PATH (see __open). Frees
 * W in every case. Returns 0 or -1 (nothing changed at PATH unless it is
 * written in place, the temporary file removed, the reason in
 * perf_data_writer__last_error()).
 */
int perf_data_writer__close(struct perf_data_writer *w);

/*
 * After a write that failed (a full file system, a file-size limit):
 * keep the records that reached the file whole, cut back so that the
 * features and their table fit in bytes the file already had (so they
 * need no more room), and make W writable again: __close() then finishes
 * a valid file over them and puts it at PATH, as after a stop. The
 * samples kept in *SAMPLES. The failure's line stays in
 * perf_data_writer__last_error(). 0, or -1: nothing can be kept (a pipe,
 * no record yet, not even the features fit); W still failed.
 */
int perf_data_writer__keep_partial(struct perf_data_writer *w, u64 *samples);

/* Drop everything written so far (the temporary file removed) and free W. */
void perf_data_writer__abort(struct perf_data_writer *w);

/* The last failure of open/close in this thread, one line. */
const char *perf_data_writer__last_error(void);

#endif
