/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/slab.h>: the shim's, see ksrc/README.md */
#include <shim/mm.h>
