// SPDX-License-Identifier: GPL-2.0-only
/*
 * The parsers of untrusted files: the perf.data reader (header, attrs,
 * features, every record, every sample decoded and, where the attr asks
 * for an LBR call stack, stitched), scenario files and `pmusim ringbuf`
 * scripts.
 *
 * Input: byte 0 picks the parser ((b & 0x7f) % 3: 0 perf.data, 1 scenario,
 * 2 ringbuf script; bit 7 for scripts: a forward writable buffer, where
 * `read` is allowed); the rest is the file.
 *
 * Oracles: no crash, no sanitizer report, no leak; a refused file gives
 * exactly one line that names the file (a scenario's, with no control
 * byte at all: values are escaped); an accepted one is consistent
 * (every record inside the file, every sample inside its record, the
 * stitched stack no deeper than the frames given plus those kept).
 *
 * The scenario and script parsers read a path: the input goes through a
 * memfd (/proc/self/fd/N), never the disk. The script parser's message
 * goes to stderr, so stderr is caught in a second memfd while it runs
 * (PMUSIM_FUZZ_TRACE=1 leaves stderr alone and prints what happens).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "tools/perf/util/lbr_stitch.h"
#include "tools/perf/util/perf_data_read.h"
#include "replay/ringbuf_script.h"
#include "sim/scenario.h"

enum { P_PERF_DATA, P_SCENARIO, P_RINGBUF_SCRIPT, P__MAX };

static bool trace;
static u64 frames_sum, nr_frames;	/* what the stitcher gave (traced) */

#define fp_fail(...) fuzz_fail("fuzz_parsers", __VA_ARGS__)

/* A refusal is one line, "NAME...: problem", with no newline inside. */
static void check_one_line(const char *what, const char *name, const char *msg)
{
	size_t len = strlen(msg);

	if (trace)
		fprintf(stderr, "%s refused: %s\n", what, msg);
	if (!len)
		fp_fail("%s: refused with an empty message", what);
	if (strncmp(msg, name, strlen(name)))
		fp_fail("%s: the message does not name the file: \"%s\"", what, msg);
	if (memchr(msg, '\n', len - (msg[len - 1] == '\n')))
		fp_fail("%s: the message is more than one line: \"%s\"", what, msg);
}

/* A scenario's message escapes every control byte a value brought (sim/msg_escape.h). */
static void check_no_control(const char *what, const char *msg)
{
	for (const char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fp_fail("%s: control byte %#x in the message: \"%s\"", what, (unsigned char)*p,
				msg);
}

/* ---- perf.data ----------------------------------------------------------- */

static void stitch_sample(struct lbr_stitcher *st, const struct perf_sample *s)
{
	const u64 *frames;
	u32 nr;
	int ret = lbr_stitcher__resolve(st, s, &frames, &nr);

	if (ret < 0)
		fp_fail("perf.data: lbr_stitcher__resolve failed (errno %d)", errno);
	if (ret == 1) {
		/* read every frame: ASan checks the stitcher handed out nr of them */
		for (u32 i = 0; i < nr; i++)
			frames_sum += frames[i];
		nr_frames += nr;
	}
}

static void fuzz_perf_data(const u8 *data, size_t size)
{
	static const char name[] = "fuzz.data";
	struct perf_data_file f = { .mapped = false };
	struct perf_data_iter it;
	struct lbr_stitcher st;
	unsigned long records = 0, samples = 0;
	const u8 *ev;
	u32 evsize;
	int ret;

	if (perf_data_file__open_mem(&f, name, data, size)) {
		check_one_line("perf.data", name, f.err);
		perf_data_file__close(&f);
		return;
	}
	lbr_stitcher__init(&st, f.max_branches, true);
	perf_data_file__iter_init(&f, &it);
	while ((ret = perf_data_file__next(&f, &it, &ev, &evsize)) == 1) {
		const struct perf_data_attr *a;
		struct perf_sample s;
		const char *why;
		u16 type;

		records++;
		if (ev < f.buf || evsize < sizeof(struct perf_event_header) || (size_t)(ev - f.buf) + evsize > f.size)
			fp_fail("perf.data: record at %td, %u bytes, is not inside the %zu-byte file",
				ev - f.buf, evsize, f.size);
		memcpy(&type, ev + offsetof(struct perf_event_header, type), sizeof(type));
		if (type != PERF_RECORD_SAMPLE)
			continue;
		a = perf_data_file__sample_attr(&f, ev, evsize);
		if (!a)
			continue;
		if (perf_sample__parse(&a->attr, ev, evsize, &s, &why)) {
			if (!why || !*why)
				fp_fail("perf.data: a sample refused without naming the field");
			continue;
		}
		samples++;
		if (s.callchain && (s.callchain < ev || s.callchain + 8 * s.callchain_nr > ev + evsize))
			fp_fail("perf.data: sample callchain (%llu ips) outside its record",
				(unsigned long long)s.callchain_nr);
		if (s.branch_entries &&
		    (s.branch_entries < ev || s.branch_entries + 24 * s.branch_nr > ev + evsize))
			fp_fail("perf.data: sample branch stack (%llu entries) outside its record",
				(unsigned long long)s.branch_nr);
		if ((a->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) &&
		    (a->attr.sample_type & PERF_SAMPLE_CALLCHAIN) &&
		    (a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
			stitch_sample(&st, &s);
	}
	if (ret < 0)
		check_one_line("perf.data record", name, f.err);
	if (trace)
		fprintf(stderr, "perf.data: %u attrs, %lu records, %lu samples, %llu frames (sum %#llx)\n",
			f.nr_attrs, records, samples, (unsigned long long)nr_frames,
			(unsigned long long)frames_sum);
	lbr_stitcher__exit(&st);
	perf_data_file__close(&f);
}

/* ---- files through a memfd ---------------------------------------------- */

static int memfd_with(const char *what, const u8 *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create(what, MFD_CLOEXEC);

	if (fd < 0)
		fp_fail("memfd_create: %s", strerror(errno));
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, data + done, size - done);

		if (n <= 0)
			fp_fail("write to memfd: %s", strerror(errno));
		done += (size_t)n;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

static void fuzz_scenario(const u8 *data, size_t size)
{
	char path[64], err[512] = "";
	struct scenario *s = NULL;
	int fd = memfd_with("scenario", data, size, path, sizeof(path));

	if (scenario_load(path, &s, err, sizeof(err))) {
		if (s)
			fp_fail("scenario: refused, but *out was set");
		check_one_line("scenario", path, err);
		check_no_control("scenario", err);
	} else {
		if (!s)
			fp_fail("scenario: accepted, but no scenario");
		if (trace)
			fprintf(stderr, "scenario: accepted, %u tasks, %u events\n", s->tasks_count,
				s->events_count);
		scenario_free(s);
	}
	close(fd);
}

static void fuzz_ringbuf_script(const u8 *data, size_t size, bool can_read)
{
	char path[64], msg[1024];
	struct ringbuf_script script;
	int fd = memfd_with("script", data, size, path, sizeof(path));
	int errfd = -1, saved = -1, ret;
	ssize_t n = 0;

	if (!trace) {
		fflush(stderr);
		errfd = memfd_create("stderr", MFD_CLOEXEC);
		saved = dup(2);
		if (errfd < 0 || saved < 0 || dup2(errfd, 2) < 0)
			fp_fail("catching stderr: %s", strerror(errno));
	}
	ret = ringbuf_script__parse(&script, path, can_read);
	if (!trace) {
		fflush(stderr);
		dup2(saved, 2);
		close(saved);
		n = pread(errfd, msg, sizeof(msg) - 1, 0);
		close(errfd);
		msg[n > 0 ? n : 0] = '\0';
	}
	if (ret) {
		if (script.ops || script.nr_ops)
			fp_fail("ringbuf script: refused, but %zu ops kept", script.nr_ops);
		if (!trace)
			check_one_line("ringbuf script", path, msg);
	} else {
		if (!trace && n > 0)
			fp_fail("ringbuf script: accepted, but said \"%s\"", msg);
		for (size_t i = 0; i < script.nr_ops; i++) {
			const struct ringbuf_op *op = &script.ops[i];

			if (op->kind == RINGBUF_OP_WRITE &&
			    (op->size < RINGBUF_SIZE_MIN || op->size > RINGBUF_SIZE_MAX ||
			     op->size % 8 || !op->count || op->count > RINGBUF_COUNT_MAX))
				fp_fail("ringbuf script: line %u: accepted write %u x %lu", op->line,
					op->size, op->count);
			if (op->kind == RINGBUF_OP_READ && !can_read)
				fp_fail("ringbuf script: line %u: read accepted on a buffer without a tail",
					op->line);
		}
		if (trace)
			fprintf(stderr, "ringbuf script: accepted, %zu ops\n", script.nr_ops);
		ringbuf_script__exit(&script);
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	trace = fuzz_trace_on();
	switch ((data[0] & 0x7f) % P__MAX) {
	case P_PERF_DATA:
		fuzz_perf_data(data + 1, size - 1);
		break;
	case P_SCENARIO:
		fuzz_scenario(data + 1, size - 1);
		break;
	case P_RINGBUF_SCRIPT:
		fuzz_ringbuf_script(data + 1, size - 1, data[0] & 0x80);
		break;
	}
	return 0;
}
