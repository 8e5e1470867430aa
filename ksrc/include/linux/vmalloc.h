/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/vmalloc.h>: the shim's, see ksrc/README.md */
#include <shim/mm.h>
