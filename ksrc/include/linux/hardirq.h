/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/hardirq.h>: the shim's, see ksrc/README.md */
#include <shim/stubbed.h>
