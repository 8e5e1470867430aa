/* SPDX-License-Identifier: GPL-2.0-only */
/* <linux/poll.h>: the shim's, see ksrc/README.md */
#include <shim/stubbed.h>
