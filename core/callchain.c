// SPDX-License-Identifier: GPL-2.0-only
/*
 * callchain.c - sample callchains (kernel/events/callchain.c, with the
 * x86 walkers of arch/x86/events/core.c). The "unwinder" reads the
 * return addresses the simulator put in pt_regs.
 */
#include "perf_event.h"

int sysctl_perf_event_max_stack = PERF_MAX_STACK_DEPTH;
int sysctl_perf_event_max_contexts_per_stack = PERF_MAX_CONTEXTS_PER_STACK;

struct perf_callchain_entry_ctx {
	struct perf_callchain_entry *entry;
	u32 max_stack;		/* ips, markers not counted */
	u32 nr;			/* ips stored */
	u16 contexts;		/* markers stored */
	bool contexts_maxed;
};

static int perf_callchain_store_context(struct perf_callchain_entry_ctx *ctx, u64 ip)
{
	if (ctx->contexts < sysctl_perf_event_max_contexts_per_stack) {
		ctx->entry->ip[ctx->entry->nr++] = ip;
		++ctx->contexts;
		return 0;
	}
	ctx->contexts_maxed = true;
	return -1;
}

static int perf_callchain_store(struct perf_callchain_entry_ctx *ctx, u64 ip)
{
	if (ctx->contexts_maxed || ctx->nr >= ctx->max_stack)
		return -1;
	ctx->entry->ip[ctx->entry->nr++] = ip;
	++ctx->nr;
	return 0;
}

static void perf_callchain_kernel(struct perf_callchain_entry_ctx *ctx,
				  struct pt_regs *regs)
{
	if (perf_callchain_store(ctx, regs->ip))
		return;
	for (unsigned int i = 0; i < regs->nr_callers; i++) {
		u64 addr = regs->callers[i];

		if (!addr || perf_callchain_store(ctx, addr))
			return;
	}
}

static void perf_callchain_user(struct perf_callchain_entry_ctx *ctx,
				struct pt_regs *regs)
{
	perf_callchain_store(ctx, regs->ip);
	for (unsigned int i = 0; i < regs->nr_callers && ctx->nr < ctx->max_stack; i++)
		perf_callchain_store(ctx, regs->callers[i]);
}

static struct perf_callchain_entry *
get_perf_callchain(struct perf_callchain_entry *entry, struct pt_regs *regs,
		   bool kernel, bool user, u32 max_stack)
{
	struct perf_callchain_entry_ctx ctx = {
		.entry = entry,
		.max_stack = max_stack,
	};

	entry->nr = 0;
	if (kernel && !user_mode(regs)) {
		perf_callchain_store_context(&ctx, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&ctx, regs);
	}
	if (user) {
		if (!user_mode(regs))
			regs = regs->user_regs;	/* task_pt_regs(current) */
		if (regs) {
			perf_callchain_store_context(&ctx, PERF_CONTEXT_USER);
			perf_callchain_user(&ctx, regs);
		}
	}
	return entry;
}

struct perf_callchain_entry *
perf_callchain(struct perf_event *event, struct pt_regs *regs,
	       struct perf_callchain_entry *entry)
{
	bool kernel = !event->attr.exclude_callchain_kernel;
	/* The idle task has no user half. */
	bool user = !event->attr.exclude_callchain_user && current;

	entry->nr = 0;
	if (!kernel && !user)
		return entry;
	return get_perf_callchain(entry, regs, kernel, user,
				  event->attr.sample_max_stack);
}
