// SPDX-License-Identifier: GPL-2.0-only
/* pmusim version: the version and which RFC features this build has. */
#include <stdio.h>

#include "core/kernel.h"
#include "sim/commands.h"

int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("pmusim 0.1\n");
	printf("alternative_sample_period %s\n", IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD) ? "on" : "off");
	printf("hw_time %s\n", IS_ENABLED(CONFIG_PERF_HW_TIME) ? "on" : "off");
	printf("task_ctx_data %s\n", IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) ? "on" : "off");
	printf("lbr_stitch %s\n", IS_ENABLED(CONFIG_LBR_STITCH) ? "on" : "off");
	return 0;
}
