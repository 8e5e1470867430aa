// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory figure's "needed" side (scripts/bench.d/memory.py): the
 * bytes one task's LBR call-stack data takes, as the task_ctx_data seed
 * counts them (its 788 bytes, here for the model's non-arch LBR): the
 * struct perf_ctx_data and the x86_perf_task_context it points to.
 */
#include <stdio.h>

#include "core/task_ctx_data.h"
#include "core/x86/perf_event.h"

int main(void)
{
	printf("{\"perf_ctx_data\":%zu,\"x86_perf_task_context\":%zu}\n",
	       sizeof(struct perf_ctx_data), sizeof(struct x86_perf_task_context));
	return 0;
}
