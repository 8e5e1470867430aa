/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/uaccess.h>: the shim's, see ksrc/README.md */
#include <shim/stubbed.h>
