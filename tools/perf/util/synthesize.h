/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Side-band records a perf.data needs for the simulated tasks, built the
 * way perf itself synthesizes them in user space for tasks that existed
 * before recording began (perf_event__synthesize_comm/_mmap_events).
 */
#ifndef PMUSIM_SIM_SYNTHESIZE_H
#define PMUSIM_SIM_SYNTHESIZE_H

#include "core/kernel.h"
#include <pmusim/perf_event.h>

/* The sample_id trailer values (used per attr.sample_type when sample_id_all). */
struct synth_sample_id {
	u32 pid, tid;
	u64 time;
	u64 id;
	u64 stream_id;
	u32 cpu;
};

/* The largest record these build; BUF must hold this many bytes. */
#define SYNTH_RECORD_MAX	(8 + 64 + 4096 + 48)

/*
 * PERF_RECORD_COMM for PID/TID named COMM. ATTR decides the sample_id
 * trailer (none unless attr->sample_id_all). Returns the record size, or 0
 * with errno EINVAL when COMM is too long (more than 4095 bytes).
 */
size_t perf_event__synthesize_comm(void *buf, const struct perf_event_attr *attr,
				   u32 pid, u32 tid, const char *comm,
				   const struct synth_sample_id *sid);

/*
 * PERF_RECORD_MMAP2 of [START, START + LEN) with the given prot and flags
 * (PROT_*, MAP_*) for FILENAME. An anonymous executable mapping is named
 * "//anon" with PROT_EXEC: perf then resolves its addresses through
 * /tmp/perf-PID.map. Returns the record size, or 0 with errno EINVAL.
 */
size_t perf_event__synthesize_mmap2(void *buf, const struct perf_event_attr *attr,
				    u32 pid, u32 tid, u64 start, u64 len, u64 pgoff,
				    u32 prot, u32 flags, const char *filename,
				    const struct synth_sample_id *sid);

/* The sample_id trailer alone (perf_event__synthesize_id_sample); returns its size. */
size_t perf_event__synthesize_id_sample(void *buf, const struct perf_event_attr *attr,
					const struct synth_sample_id *sid);

#endif
