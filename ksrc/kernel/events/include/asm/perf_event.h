/* SPDX-License-Identifier: GPL-2.0-only */
/* <asm/perf_event.h>: the core unit's shim, see ksrc/README.md */
#include <shim/core_shim.h>
