// SPDX-License-Identifier: GPL-2.0-only
/*
 * branch_type.c - what kind of branch an LBR record is (branch_type() and
 * common_branch_type() of arch/x86/events/utils.c).
 *
 * The kernel decodes the instruction at "from". pmusim has no instruction
 * bytes, so the simulator registers the kind of every branch site
 * (x86_branch_text_add()), and decoding is a lookup in an open-addressing
 * hash table: one multiply and, at the table's load of at most one half,
 * about 1.5 probes per record, so a PMI's 32 lookups stay cheap.
 */
#include "core/x86/perf_event.h"

struct branch_text_slot {
	u64 addr;		/* 0: empty (no branch lives at address 0) */
	u8 type;		/* enum model_branch_type */
};

static struct branch_text_slot *branch_text;
static unsigned long branch_text_mask;	/* size - 1; size is a power of 2 */
static unsigned long branch_text_used;

static unsigned long branch_text_hash(u64 addr)
{
	return (unsigned long)((addr * 0x9e3779b97f4a7c15ULL) >> 32);
}

static void branch_text_insert(struct branch_text_slot *table, unsigned long mask,
			       u64 addr, u8 type)
{
	unsigned long i = branch_text_hash(addr) & mask;

	while (table[i].addr && table[i].addr != addr)
		i = (i + 1) & mask;
	table[i].addr = addr;
	table[i].type = type;
}

static int branch_text_grow(void)
{
	unsigned long size = branch_text ? (branch_text_mask + 1) * 2 : 1024;
	struct branch_text_slot *table = kcalloc(size, sizeof(*table));

	if (!table)
		return -ENOMEM;
	for (unsigned long i = 0; branch_text && i <= branch_text_mask; i++)
		if (branch_text[i].addr)
			branch_text_insert(table, size - 1, branch_text[i].addr,
					   branch_text[i].type);
	kfree(branch_text);
	branch_text = table;
	branch_text_mask = size - 1;
	return 0;
}

int x86_branch_text_add(u64 from, enum model_branch_type type)
{
	if (!from || (unsigned int)type >= MODEL_BR__NR)
		return -EINVAL;
	if ((!branch_text || 2 * (branch_text_used + 1) > branch_text_mask + 1) &&
	    branch_text_grow())
		return -ENOMEM;
	{
		unsigned long i = branch_text_hash(from) & branch_text_mask;

		while (branch_text[i].addr && branch_text[i].addr != from)
			i = (i + 1) & branch_text_mask;
		if (!branch_text[i].addr)
			branch_text_used++;
		branch_text[i].addr = from;
		branch_text[i].type = (u8)type;
	}
	return 0;
}

void x86_branch_text_reset(void)
{
	kfree(branch_text);
	branch_text = NULL;
	branch_text_mask = 0;
	branch_text_used = 0;
}

unsigned long x86_branch_text_size(void)
{
	return branch_text_used;
}

/* The registered kind at @from, or -1 where no text is known. */
static int branch_text_lookup(u64 from)
{
	unsigned long i;

	if (!branch_text)
		return -1;
	for (i = branch_text_hash(from) & branch_text_mask; branch_text[i].addr;
	     i = (i + 1) & branch_text_mask)
		if (branch_text[i].addr == from)
			return branch_text[i].type;
	return -1;
}

/*
 * The X86_BR_* class of the record from -> to, with the privilege level
 * of the target, or X86_BR_NONE if it cannot be told.
 */
int branch_type(u64 from, u64 to, int abort)
{
	int to_plm = kernel_ip(to) ? X86_BR_KERNEL : X86_BR_USER;
	int from_plm = kernel_ip(from) ? X86_BR_KERNEL : X86_BR_USER;
	int ret;

	/* an LBR that did not fill up since its reset */
	if (!from || !to)
		return X86_BR_NONE;
	if (abort)
		return X86_BR_ABORT | to_plm;

	switch (branch_text_lookup(from)) {
	case MODEL_BR_JCC:
		ret = X86_BR_JCC;
		break;
	case MODEL_BR_NEAR_REL_JMP:
		ret = X86_BR_JMP;
		break;
	case MODEL_BR_NEAR_IND_JMP:
		ret = X86_BR_IND_JMP;
		break;
	case MODEL_BR_NEAR_REL_CALL:
		ret = X86_BR_CALL;
		break;
	case MODEL_BR_NEAR_IND_CALL:
		ret = X86_BR_IND_CALL;
		break;
	case MODEL_BR_NEAR_RET:
		ret = X86_BR_RET;
		break;
	case MODEL_BR_FAR:
		/* far: a syscall going in, a sysret coming out, else a far jmp */
		if (from_plm == X86_BR_USER && to_plm == X86_BR_KERNEL)
			ret = X86_BR_SYSCALL;
		else if (from_plm == X86_BR_KERNEL && to_plm == X86_BR_USER)
			ret = X86_BR_SYSRET;
		else
			ret = X86_BR_JMP;
		break;
	default:
		return X86_BR_NONE;	/* the text cannot be read */
	}

	/* user -> kernel not through a syscall: an interrupt, trap or fault */
	if (from_plm == X86_BR_USER && to_plm == X86_BR_KERNEL &&
	    ret != X86_BR_SYSCALL && ret != X86_BR_INT)
		ret = X86_BR_IRQ;
	return ret | to_plm;
}

static const int branch_map[16] = {
	PERF_BR_CALL,		/* X86_BR_CALL */
	PERF_BR_RET,		/* X86_BR_RET */
	PERF_BR_SYSCALL,	/* X86_BR_SYSCALL */
	PERF_BR_SYSRET,		/* X86_BR_SYSRET */
	PERF_BR_UNKNOWN,	/* X86_BR_INT */
	PERF_BR_ERET,		/* X86_BR_IRET */
	PERF_BR_COND,		/* X86_BR_JCC */
	PERF_BR_UNCOND,		/* X86_BR_JMP */
	PERF_BR_IRQ,		/* X86_BR_IRQ */
	PERF_BR_IND_CALL,	/* X86_BR_IND_CALL */
	PERF_BR_UNKNOWN,	/* X86_BR_ABORT */
	PERF_BR_UNKNOWN,	/* X86_BR_IN_TX */
	PERF_BR_NO_TX,		/* X86_BR_NO_TX */
	PERF_BR_CALL,		/* X86_BR_ZERO_CALL */
	PERF_BR_UNKNOWN,	/* X86_BR_CALL_STACK */
	PERF_BR_IND,		/* X86_BR_IND_JMP */
};

/* The PERF_BR_* of an X86_BR_* class (its lowest type bit). */
int common_branch_type(int type)
{
	type >>= 2;	/* skip X86_BR_USER and X86_BR_KERNEL */
	if (type) {
		int i = __builtin_ctz(type);

		if (i < 16)
			return branch_map[i];
	}
	return PERF_BR_UNKNOWN;
}
