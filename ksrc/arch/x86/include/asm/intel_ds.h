/* SPDX-License-Identifier: GPL-2.0-only */
/* <asm/intel_ds.h>: the x86 shim's, see ksrc/README.md */
#include <shim/x86_stubbed.h>
