/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/percpu-rwsem.h>: the core unit's shim, see ksrc/README.md */
#include <shim/core_shim.h>
