/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The record session: what tools/perf/builtin-record.c does between its
 * options and its summary. It opens the events as perf record does (per
 * thread or per CPU, one buffer per thread or CPU, the owner's further
 * events redirected into it), maps the buffers, reads them into
 * perf.data, writes the header's attrs and BUILD_ID list and the COMM and
 * MMAP2 records of what ran before recording began, makes ELF files of
 * the programs and puts them into the build-id caches.
 *
 * The session knows the system it records only through system calls
 * (struct record_sys) and what the caller tells it of the threads and
 * their programs, as perf record knows a machine through its syscalls
 * and /proc. For pmusim run and record the system is the simulated
 * machine's kernel (sim/run.c), which opens the events on core/, drives
 * time and calls record__mmap_read_all() when the consumer's turn comes:
 * calls go from sim/ into the session, never back, and nothing here
 * includes sim/, model/ or core/'s internals.
 */
#ifndef PMUSIM_TOOLS_PERF_BUILTIN_RECORD_H
#define PMUSIM_TOOLS_PERF_BUILTIN_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <pmusim/perf_event.h>

#include "core/kernel.h"
#include "tools/lib/perf/mmap_read.h"
#include "tools/perf/util/genelf.h"
#include "tools/perf/util/perf_data.h"

#define RECORD_MAX_EVENTS	(16 * 1024)

struct tsc_conv;

/*
 * The system calls the session makes, of a system without file
 * descriptors of its own: an fd is what perf_event_open returned. The
 * system closes the events and unmaps the buffers itself when the
 * recording is over (as exit(2) would).
 */
struct record_sys {
	/* perf_event_open(2): an fd (>= 0), or a negative errno */
	int (*perf_event_open)(void *priv, const struct perf_event_attr *attr, int pid, int cpu);
	/* ioctl(FD, PERF_EVENT_IOC_SET_OUTPUT, OUTPUT): 0 or a negative errno */
	int (*set_output)(void *priv, int fd, int output);
	/* ioctl(FD, PERF_EVENT_IOC_ID) */
	u64 (*id)(void *priv, int fd);
	/*
	 * mmap(2) of FD's buffer, PAGES data pages, WRITABLE (the reader
	 * moves data_tail) or not (the writer overwrites what was not read):
	 * the control page, the data pages after it; NULL if there is no room.
	 */
	struct perf_event_mmap_page *(*mmap)(void *priv, int fd, unsigned int pages,
					     bool writable);
	/* poll(2) on FD: whether its buffer woke the reader since the last poll */
	bool (*poll)(void *priv, int fd);
	/* ioctl(FD, PERF_EVENT_IOC_PAUSE_OUTPUT, PAUSE) */
	void (*pause_output)(void *priv, int fd, bool pause);
	void *priv;
};

struct record_opts {
	unsigned int mmap_pages;	/* -m: data pages of each buffer */
	bool overwrite;			/* --overwrite: the writer overwrites what was not read */
	/*
	 * Read every buffer each INTERVAL of the caller's clock (the now of
	 * record__mmap_read_all()); 0: a buffer when it wakes the reader.
	 */
	uint64_t interval;
	bool pause;			/* pause a buffer's output while it is read */
	/*
	 * Keep the user page's time conversion as each read finds it, where
	 * it changed (record__init()'s convs, for a judge of hw_time
	 * samples): one a read, so only when asked.
	 */
	bool time_snapshots;
	/*
	 * Where the programs' ELF files go: the user's build-id cache
	 * BUILDID_DIR ("": $HOME/.debug, as perf record; NULL: none, as -N),
	 * and with BUILDID_BESIDE OUTPUT.debug/, a cache beside the perf.data.
	 */
	const char *buildid_dir;
	bool buildid_beside;
	const char *source;		/* where the events were given: "SOURCE:1: events.N: ..." */
};

/* An event to open: on each CPU (system-wide, -a and -C) or on each thread. */
struct record_evsel {
	struct perf_event_attr attr;
	const char *name;		/* the header's (EVENT_DESC) */
	bool system_wide;
	u64 cpu_mask;			/* system-wide: bit n for CPU n; 0: every CPU */
};

/* A thread as perf record finds it when recording begins (/proc). */
struct record_thread {
	int pid, tid;
	int cpu;			/* where it runs or waits */
	const char *comm;
	bool started;			/* false: its FORK comes when it starts, no COMM now */
	int program;			/* its process's program (record__add_programs()), -1: none */
};

/* A program's code and functions, of which the session makes an ELF file. */
struct record_program {
	const char *name;		/* the file is /pmusim/NAME */
	const u8 *code;			/* TEXT_SIZE bytes at run-time address TEXT_START */
	u64 text_start, text_size;
	const struct genelf_sym *syms;
	size_t nr_syms;
};

/* A program as perf sees it: an ELF file named by MMAP2 and BUILD_ID. */
struct record_dso {
	char filename[64];		/* "/pmusim/NAME", as MMAP2 names it */
	struct genelf_dso elf;
};

/* A mapped buffer and its reader. */
struct record_mmap {
	int fd;				/* the event it was mapped for */
	struct perf_event_mmap_page *base;
	struct perf_mmap_reader reader;
	uint64_t last_head;		/* backward: data_head at the last read */
	bool backward, overwrite;
};

/* What the session read and wrote. */
struct record_stats {
	uint64_t records, bytes;
	uint64_t samples, lost_records, lost, throttles, unthrottles;
	uint64_t wakeups, reads;
	uint64_t overwritten;		/* bytes a backward buffer lost before a read */
};

struct record {
	struct record_opts opts;
	struct record_sys sys;
	const struct record_evsel *evsels;
	unsigned int nr_evsels;
	const struct record_thread *threads;
	unsigned int nr_threads;
	int *fds;
	unsigned int *evsel_of;		/* the evsel each fd was opened for */
	unsigned int nr_fds;
	struct record_mmap *mmaps;
	unsigned int nr_mmaps;
	struct record_dso *dsos;	/* per program */
	unsigned int nr_dsos;
	const char *output;
	struct perf_data_writer *w;	/* NULL: no file */
	uint64_t next_read;
	/* one read's records, written oldest first */
	unsigned char *batch;
	size_t batch_len, batch_cap;
	uint32_t *offs;
	size_t nr_offs, offs_cap;
	uint64_t want;			/* backward: bytes new since the last read */
	uint64_t seen;
	/* user-page time conversion snapshots, oldest first */
	struct tsc_conv *convs;
	size_t nr_convs, convs_cap;
	struct record_stats stats;
	int error;			/* ENOMEM or EIO while reading: the file lacks records */
};

void record__init(struct record *rec, const struct record_opts *opts,
		  const struct record_sys *sys);

/*
 * Open EVSELS on NR_CPUS CPUs or on THREADS (both arrays must outlive
 * REC) and map a buffer per CPU or thread. 0, or -1 with a one-line
 * error in ERR.
 */
int record__open(struct record *rec, const struct record_evsel *evsels, unsigned int nr_evsels,
		 unsigned int nr_cpus, const struct record_thread *threads,
		 unsigned int nr_threads, char *err, size_t errlen);

/*
 * Start OUTPUT (NULL: no file) with the header's ENV, which must outlive
 * REC. 0, or -1 with a one-line error in ERR.
 */
int record__open_output(struct record *rec, const char *output, const struct perf_data_env *env,
			char *err, size_t errlen);

/*
 * A file a recorded program mapped itself, in the BUILD_ID list (perf
 * finds it by path and checks the build-id). 0, or -1 with errno ENOMEM.
 */
int record__add_build_id(struct record *rec, const u8 *build_id, u8 size, const char *filename);

/*
 * The programs, made ELF files (the threads' record_thread.program is an
 * index in PROGS), in the BUILD_ID list. 0, or -1 with a one-line error.
 */
int record__add_programs(struct record *rec, const struct record_program *progs,
			 unsigned int nr, char *err, size_t errlen);

/*
 * The header's attrs with their events' ids, then the COMM and MMAP2
 * records of the threads that run when recording begins. 0, or -1 with
 * a one-line error in ERR.
 */
int record__synthesize(struct record *rec, char *err, size_t errlen);

/*
 * The consumer's turn, at NOW of the caller's clock: read every buffer
 * that is due (ALL: every one) into the file. A failure is kept in
 * rec->error.
 */
void record__mmap_read_all(struct record *rec, uint64_t now, bool all);

/*
 * The end of the file: record__finish_output() completes it (then it can
 * be read back, perf_data_writer__open_result()),
 * record__write_buildid_cache() stores the programs' ELF files, and
 * record__close_output() puts the file in place. 0, or -1 with a
 * one-line error in ERR. A user's cache that cannot be written is a
 * one-line WARNING, not an error (WARNING is left alone otherwise).
 */
int record__finish_output(struct record *rec, char *err, size_t errlen);
int record__write_buildid_cache(struct record *rec, char *warning, size_t warnlen, char *err,
				size_t errlen);
int record__close_output(struct record *rec, char *err, size_t errlen);

/* Frees the session; a file not closed is abandoned. */
void record__exit(struct record *rec);

#endif /* PMUSIM_TOOLS_PERF_BUILTIN_RECORD_H */
