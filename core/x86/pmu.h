/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.h - what the simulator calls in the x86 PMU driver: plugging the
 * hardware in, the register state a PMI interrupts, the text the
 * software branch filter decodes, and the context-switch hooks.
 */
#ifndef PMUSIM_CORE_X86_PMU_H
#define PMUSIM_CORE_X86_PMU_H

#include "core/perf_event.h"
#include "model/model.h"

/*
 * x86_pmu_attach_cpu - plug model CPU @mc in as CPU @cpu (boot), or unplug
 * it (@mc NULL). The first CPU plugged in sizes the PMU from its CPUID and
 * PERF_CAPABILITIES (intel_pmu_init) and registers the "cpu" PMU for
 * PERF_TYPE_RAW (and so HARDWARE) with the event core; every CPU gets the
 * PMI callback and its PMU and LBR reset. When the last CPU is unplugged
 * the PMU is unregistered and the next attach sizes it again. Unplug a
 * CPU only when no event is on it: its per-CPU driver state is cleared.
 * Returns 0, -EINVAL (bad cpu, or a CPU unlike the first: no hybrid),
 * -EBUSY (something is plugged in there), -ENODEV (no architectural PMU v2+).
 */
int x86_pmu_attach_cpu(int cpu, struct model_cpu *mc);

/* The driver's PMU, for perf_event_open_attr(..., pmu) and direct tests. */
struct pmu *x86_get_pmu(void);

/*
 * The registers a PMI on @cpu interrupts: the simulator keeps *@regs
 * current (ip = the next instruction, user, callers) before it retires
 * work on that CPU, as the hardware saves its state on the NMI stack.
 * NULL: the PMI reports ip 0 in the kernel.
 */
void x86_pmu_set_irq_regs(int cpu, struct pt_regs *regs);
/* How long @cpu's PMI handler takes, for perf_sample_event_took() (0: no time). */
void x86_pmu_set_pmi_ns(int cpu, u64 ns);

/*
 * The text the software LBR filter decodes (the kernel reads the branch
 * instruction at "from"; pmusim has no instruction bytes). The simulator
 * registers every branch site of legacy-LBR workloads: an LBR record whose
 * from is not registered decodes as X86_BR_NONE and is dropped whenever a
 * filter applies, as the kernel drops a record whose text it cannot read.
 * Arch LBR records carry their type in LBR_INFO and need no text except
 * for far branches. 0, or -ENOMEM.
 */
int x86_branch_text_add(u64 from, enum model_branch_type type);
void x86_branch_text_reset(void);
unsigned long x86_branch_text_size(void);

/*
 * Context switch on this CPU (smp_processor_id()), around the event
 * core's own hooks, in the kernel's order:
 *   x86_pmu_sched_out(prev); perf_event_sched_out(cpu, prev);
 *   perf_event_sched_in(cpu, next); x86_pmu_sched_in(next);
 * They run pmu::sched_task (LBR call-stack save/restore, or the LBR wipe
 * a switch of address space needs) when LBR events are on this CPU.
 */
void x86_pmu_sched_out(struct task_struct *prev);
void x86_pmu_sched_in(struct task_struct *next);

#endif /* PMUSIM_CORE_X86_PMU_H */
