// SPDX-License-Identifier: GPL-2.0-only
/*
 * userpage.c - the x86 part of the user page: counter width, rdpmc,
 * and the TSC conversion constants (arch_perf_update_userpage() in
 * arch/x86/events/core.c), plus the RFC's monotonic-raw fields.
 */
#include "core/perf_event.h"
#include "tsc.h"

/* Called between the two lock increments of perf_event_update_userpage(). */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	struct cyc2ns_data *data = &model_clock.cyc2ns;
	u64 offset = data->cyc2ns_offset;

	userpg->cap_user_rdpmc = event->pmu && event->pmu->cap_user_rdpmc;
	userpg->pmc_width = event->pmu ? event->pmu->pmc_width : 0;

	/* The model's sched_clock is the TSC through cyc2ns: always stable. */
	userpg->cap_user_time = 1;
	userpg->time_mult = data->cyc2ns_mul;
	userpg->time_shift = data->cyc2ns_shift;
	userpg->time_offset = offset - now;

	userpg->cap_user_time_zero = 0;
	if (!event->attr.use_clockid) {
		userpg->cap_user_time_zero = 1;
		userpg->time_zero = offset;
	}

	/*
	 * A TSC narrower than 64 bits wraps: give readers the count at this
	 * update (never wrapped) so they can widen a later register value.
	 * The page must then be refreshed at least once per wrap.
	 */
	userpg->cap_user_time_short = model_clock.tsc_bits < 64;
	userpg->time_cycles = 0;
	userpg->time_mask = 0;
	if (userpg->cap_user_time_short) {
		userpg->time_cycles = model_clock_ns_to_tsc(now);
		userpg->time_mask = model_clock_tsc_mask();
	}

#ifdef CONFIG_PERF_HW_TIME
	{
		struct mono_raw_snapshot snap;

		model_clock_mono_raw_snapshot(model_clock_ns_to_tsc(now), &snap);
		userpg->cap_user_time_mono_raw = 1;
		userpg->time_mono_last = snap.cycle_last;
		userpg->time_mono_mult = snap.mult;
		userpg->time_mono_shift = snap.shift;
		userpg->time_mono_nsec = snap.xtime_nsec;
		userpg->time_mono_base = snap.base;
	}
#endif
}
