/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/perf_event.h>: the shim's, see ksrc/README.md */
#include <shim/perf_event.h>
