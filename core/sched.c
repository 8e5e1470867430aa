// SPDX-License-Identifier: GPL-2.0-only
/* The scheduler state core/ reads and sim/ writes; see sched.h. */
#include "sched.h"

__thread int pmusim_this_cpu;
struct task_struct *pmusim_curr[CONFIG_MODEL_MAX_CPUS];
u64 (*pmusim_clock_ns)(void);
