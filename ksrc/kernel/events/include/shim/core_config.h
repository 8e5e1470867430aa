/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The core unit's kernel configuration: what a minimal x86-64 .config
 * with perf events sets. Everything core.c can leave out is out (cgroups,
 * BPF, tracepoints, kprobes/uprobes, hardware breakpoints, ftrace, the
 * namespaces, CPU hotplug, guest callbacks, NO_HZ_FULL, compat). What
 * pmusim's own configuration sets (generated/autoconf.h: the ring
 * buffer's CONFIG_PERF_USE_VMALLOC) is taken as it is.
 */
#ifndef KSRC_CORE_CONFIG_H
#define KSRC_CORE_CONFIG_H

#include <generated/autoconf.h>

#define CONFIG_X86			1
#define CONFIG_X86_64			1
#define CONFIG_64BIT			1
#define CONFIG_SMP			1
#define CONFIG_NR_CPUS			1
#define CONFIG_PERF_EVENTS		1
#define CONFIG_CPU_SUP_INTEL		1
#define CONFIG_MMU			1
#define CONFIG_HZ			1000
/* the user stack dump and the arch's sample regs, as x86 has them */
#define CONFIG_HAVE_PERF_REGS		1

#endif /* KSRC_CORE_CONFIG_H */
