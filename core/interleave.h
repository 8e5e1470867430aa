/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Interleaving points (customised for testing; no kernel counterpart).
 *
 * The kernel's comments say "an NMI can happen here"; pmusim names each
 * such place, and each access to shared ring-buffer state, as a point.
 * In ordinary builds perf_interleave() is an empty inline. With
 * CONFIG_PERF_INTERLEAVE a test or fuzzer installs a hook that runs, at
 * exactly that point, a nested writer (an NMI on this CPU), a step of a
 * reader on another CPU, or a pause/resume. The schedule is the test's
 * input, so every failure replays.
 */
#ifndef PMUSIM_CORE_INTERLEAVE_H
#define PMUSIM_CORE_INTERLEAVE_H

/*
 * The ring-buffer points follow the writer through perf_output_begin(),
 * perf_output_copy() and perf_output_end() (core/ring_buffer.c); each
 * says what the writer has done and what it has not done yet.
 */
#define PERF_INTERLEAVE_POINTS(P)					\
	P(PI_OUTPUT_BEGIN_ENTER)	/* before anything is read */	\
	P(PI_OUTPUT_BEGIN_NOT_PAUSED)	/* paused read as 0, lost not sampled */ \
	P(PI_OUTPUT_BEGIN_READ_LOST)	/* lost sampled, nest not taken */ \
	P(PI_OUTPUT_BEGIN_GOT_HANDLE)	/* nest taken, head not read */	\
	P(PI_OUTPUT_BEGIN_READ_TAIL)	/* head, data_tail read; before the space check */ \
	P(PI_OUTPUT_BEGIN_CMPXCHG)	/* space checked, before the head cmpxchg */ \
	P(PI_OUTPUT_BEGIN_RESERVED)	/* head moved, wakeup stamp not checked */ \
	P(PI_OUTPUT_BEGIN_WAKEUP_CHECKED) /* stamp checked, lost not taken */ \
	P(PI_OUTPUT_BEGIN_LOST_TAKEN)	/* lost taken, LOST record not written */ \
	P(PI_OUTPUT_BEGIN_FAILED)	/* no room: lost not counted, nest held */ \
	P(PI_OUTPUT_COPY)		/* after each chunk of a copy or skip */ \
	P(PI_OUTPUT_SAMPLE_EVENTS)	/* sample counted, wakeup stamp not bumped */ \
	P(PI_OUTPUT_END_ENTER)		/* record written, not published */ \
	P(PI_PUT_HANDLE_READ_NEST)	/* nest read, not changed; head not read */ \
	P(PI_PUT_HANDLE_READ_HEAD)	/* outermost: head read, data_head not written */ \
	P(PI_PUT_HANDLE_PUBLISHED)	/* data_head written, nest not yet 0 */ \
	P(PI_PUT_HANDLE_NEST_CLEARED)	/* nest 0, head not re-checked */ \
	P(PI_PUT_HANDLE_DONE)		/* head re-checked, wakeup not compared */ \
	P(PI_OVERFLOW_ENTER)		/* perf_event_overflow entry */	\
	P(PI_OVERFLOW_OUTPUT)		/* before the overflow handler */

#define __PI_ENUM(x) x,
enum perf_interleave_point {
	PERF_INTERLEAVE_POINTS(__PI_ENUM)
	PI__MAX
};
#undef __PI_ENUM

extern const char *const perf_interleave_point_names[PI__MAX];

/*
 * The hook gets the point and the object the code is working on (the
 * struct perf_buffer for ring-buffer points, the struct perf_event for
 * overflow points).
 */
typedef void (*perf_interleave_fn)(enum perf_interleave_point point, void *obj);
extern perf_interleave_fn perf_interleave_hook;

static inline void perf_interleave(enum perf_interleave_point point, void *obj)
{
	if (IS_ENABLED(CONFIG_PERF_INTERLEAVE)) {
		perf_interleave_fn fn = perf_interleave_hook;

		if (fn)
			fn(point, obj);
	}
}

#endif /* PMUSIM_CORE_INTERLEAVE_H */
