// SPDX-License-Identifier: GPL-2.0-only
/* pmusim version: the version and which RFC features this build has. */
#include <stdio.h>
#include <string.h>

#include "core/kernel.h"
#include <generated/ksrc.h>
#include "cmd/commands.h"

int cmd_version(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: pmusim version\n"
		       "  print the version, which RFC features this build has and the kernel\n"
		       "  tree whose own files it runs (ksrc VERSION DIR, or ksrc none)\n");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "pmusim: version: unexpected argument '%s' (it takes none)\n",
			argv[1]);
		return 2;
	}
	printf("pmusim 0.1\n");
	printf("alternative_sample_period %s\n", IS_ENABLED(CONFIG_PERF_ALT_SAMPLE_PERIOD) ? "on" : "off");
	printf("hw_time %s\n", IS_ENABLED(CONFIG_PERF_HW_TIME) ? "on" : "off");
	printf("task_ctx_data %s\n", IS_ENABLED(CONFIG_PERF_TASK_CTX_DATA) ? "on" : "off");
	printf("lbr_stitch %s\n", IS_ENABLED(CONFIG_LBR_STITCH) ? "on" : "off");
#ifdef KSRC_VERSION
	/* the kernel tree whose own files this build runs (make KSRC=DIR) */
	printf("ksrc %s %s\n", KSRC_VERSION, KSRC_DIR);
	/* its units this build links (a unit the tree lacks, or left out by KSRC_UNITS, is not) */
	printf("ksrc_units %s\n", KSRC_UNITS);
#else
	printf("ksrc none\n");
#endif
	return 0;
}
