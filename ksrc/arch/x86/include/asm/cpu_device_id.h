/* SPDX-License-Identifier: GPL-2.0-only */
/* <asm/cpu_device_id.h>: the x86 shim's, see ksrc/README.md */
#include <shim/x86_stubbed.h>
