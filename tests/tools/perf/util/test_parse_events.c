// SPDX-License-Identifier: GPL-2.0-only
/*
 * -e names as perf record takes them for the model's events: the
 * hardware names, rHEX, the core PMU's cpu/.../ form, and the modifiers
 * u, k, p, pp, ppp in any order; everything else refused with the reason.
 */
#include <string.h>

#include "tests/test.h"
#include "include/pmusim/perf_event.h"
#include "tools/perf/util/parse_events.h"

static void expect(const char *str, uint32_t type, uint64_t config, bool excl_user,
		   bool excl_kernel, unsigned int precise)
{
	struct parse_events_attr a;
	char why[160] = "";

	if (parse_events_one(str, &a, why, sizeof(why)))
		fail_msg("'%s' refused: %s", str, why);
	if (a.type != type || a.config != config || a.exclude_user != excl_user ||
	    a.exclude_kernel != excl_kernel || a.precise_ip != precise)
		fail_msg("'%s': type %u config %#llx excl u%d k%d precise %u", str, a.type,
			 (unsigned long long)a.config, a.exclude_user, a.exclude_kernel,
			 a.precise_ip);
}

static void refused(const char *str, const char *want)
{
	struct parse_events_attr a;
	char why[160] = "";

	if (!parse_events_one(str, &a, why, sizeof(why)))
		fail_msg("'%s' was taken", str);
	if (strcmp(why, want))
		fail_msg("'%s': '%s', not '%s'", str, why, want);
}

static void test_names_and_modifiers(void **state)
{
	(void)state;
	expect("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, false, 0);
	expect("cycles:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, true, 0);
	expect("instructions:k", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true, false, 0);
	expect("branches:uk", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false, false,
	       0);
	expect("cycles:p", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, false, 1);
	expect("cycles:pp", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, false, 2);
	expect("cycles:ppp", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, false, 3);
	expect("cycles:up", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, true, 1);
	expect("instructions:pup", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false, true, 2);
	expect("branch-misses:kppp", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, true, false,
	       3);
	expect("r1c0:upp", PERF_TYPE_RAW, 0x1c0, false, true, 2);
	expect("rFFFFFFFFFFFFFFFF", PERF_TYPE_RAW, UINT64_MAX, false, false, 0);
}

static void test_the_pmu_form(void **state)
{
	(void)state;
	expect("cpu/cycles/", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, false, 0);
	expect("cpu/cycles/u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false, true, 0);
	expect("cpu/instructions/upp", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false, true,
	       2);
	expect("cpu/branches/k", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true,
	       false, 0);
	expect("cpu/event=0xc0,umask=0x00/u", PERF_TYPE_RAW, 0xc0, false, true, 0);
	expect("cpu/event=0x3c,umask=1/ppp", PERF_TYPE_RAW, 0x13c, false, false, 3);
	expect("cpu/umask=0x01,event=196/", PERF_TYPE_RAW, 0x1c4, false, false, 0);
}

static void test_what_is_refused_and_why(void **state)
{
	(void)state;
	refused("", "unknown event");
	refused(":u", "unknown event");
	refused("cache-misses", "unknown event");
	refused("r", "unknown event");
	refused("r12345678901234567", "unknown event");
	refused("cycles:", "no modifier after ':' (u, k, p, pp, ppp)");
	refused("cycles:h", "unknown modifier 'h' (u, k, p, pp, ppp)");
	refused("cycles:uP", "unknown modifier 'P' (u, k, p, pp, ppp)");
	refused("cycles:u\x01", "unknown modifier byte 0x01 (u, k, p, pp, ppp)");
	refused("cycles:pppp", "precise_ip goes to 3: at most ppp");
	refused("foo/cycles/", "unknown PMU 'foo' (the model has the core PMU, cpu/.../)");
	refused("cpu/cycles", "no '/' closes the PMU's terms");
	refused("cpu//u", "no event between the slashes");
	refused("cpu/cache-misses/", "unknown event 'cache-misses' (cpu/cycles/, "
		"cpu/instructions/, cpu/branches/, ..., cpu/event=N,umask=N/)");
	refused("cpu/cycles,instructions/", "a second event 'instructions' (cpu/cycles/, "
		"cpu/instructions/, cpu/branches/, ..., cpu/event=N,umask=N/)");
	refused("cpu/cycles,/", "an empty term");
	refused("cpu/,cycles/", "an empty term");
	refused("cpu/cycles,period=10/", "term 'period=10' is not simulated (a hardware event's "
		"name, or event= and umask=)");
	refused("cpu/event=0x100/", "event= takes a number up to 0xff");
	refused("cpu/event=-1/", "event= takes a number up to 0xff");
	refused("cpu/event=0x3c,umask=x/", "umask= takes a number up to 0xff");
	refused("cpu/umask=1/", "umask= without event=");
	refused("cpu/cycles/h", "unknown modifier 'h' (u, k, p, pp, ppp)");
	refused("cpu/cycles/:u", "unknown modifier ':' (u, k, p, pp, ppp)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_and_modifiers),
		cmocka_unit_test(test_the_pmu_form),
		cmocka_unit_test(test_what_is_refused_and_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
