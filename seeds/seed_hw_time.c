// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hardware-time seed: with
 * attr.hw_time a sample's TIME is the raw TSC, and user space turns it
 * into CLOCK_MONOTONIC_RAW afterwards with the user page's time_mono_*
 * fields (tools/perf/util/tsc_convert). For every sample: that post-processed value
 * against the model's own CLOCK_MONOTONIC_RAW at the same TSC, and
 * against the model clock exactly (TSC cycles at tsc_khz, no rounding).
 */
#include <stdio.h>

#include "core/kernel.h"
#include "sim/run.h"
#include "seeds/seeds.h"

int seed_hw_time(struct scenario *s, const struct seed_opts *o)
{
	const struct run_hw_time *hw;
	struct run_stats st;
	char err[512];

	if (!IS_ENABLED(CONFIG_PERF_HW_TIME)) {
		printf("seed hw-time: skipped: this build has no CONFIG_PERF_HW_TIME\n");
		return 0;
	}
	if (run_scenario(s, o->output, o->map_dir, NULL, &st, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		run_stats_free(&st);
		return 1;
	}
	hw = &st.hw_time;
	if (!hw->samples) {
		fprintf(stderr, "pmusim: seed hw-time: %s: no sample carried a raw TSC (no hw_time "
			"event sampled while the tasks ran): nothing to compare\n", s->file);
		run_stats_free(&st);
		return 1;
	}
	printf("seed hw-time: %s, TSC %llu kHz\n", s->file, (unsigned long long)hw->tsc_khz);
	printf("  %-44s %12llu\n", "samples with a raw TSC",
	       (unsigned long long)hw->samples);
	printf("  %-44s %12llu\n", "post-processed mono_raw == model mono_raw",
	       (unsigned long long)hw->mono_equal);
	printf("  %-44s %12llu\n", "samples with no page snapshot before them",
	       (unsigned long long)hw->no_snapshot);
	printf("  %-44s %12llu\n", "max |mono_raw - exact model clock| (ns)",
	       (unsigned long long)hw->max_ns_off_exact);
	run_stats_free(&st);
	return 0;
}
