/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/sched/task_stack.h>: the core unit's shim, see ksrc/README.md */
#include <shim/core_shim.h>
