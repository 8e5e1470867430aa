/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/circ_buf.h>: the shim's, see ksrc/README.md */
#include <shim/stubbed.h>
