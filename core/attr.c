// SPDX-License-Identifier: GPL-2.0-only
/*
 * attr.c - taking a perf_event_attr from user space: perf_copy_attr() of
 * kernel/events/core.c, with the size rules of copy_struct_from_user()
 * and x86-64's perf_reg_validate().
 */
#include "core/perf_event.h"

/* x86-64 register numbers of sample_regs_{user,intr} (asm/perf_regs.h). */
#define PERF_REG_X86_DS		10
#define PERF_REG_X86_ES		11
#define PERF_REG_X86_FS		12
#define PERF_REG_X86_GS		13
#define PERF_REG_X86_64_MAX	24
#define PERF_REG_X86_XMM0	32

/* Segment registers a 64-bit sample cannot give. */
#define REG_NOSUPPORT	(BIT_ULL(PERF_REG_X86_DS) | BIT_ULL(PERF_REG_X86_ES) | \
			 BIT_ULL(PERF_REG_X86_FS) | BIT_ULL(PERF_REG_X86_GS))
/* Between the general registers and the XMM ones: no register at all. */
#define PERF_REG_X86_RESERVED	((BIT_ULL(PERF_REG_X86_XMM0) - 1) & \
				 ~(BIT_ULL(PERF_REG_X86_64_MAX) - 1))

int perf_reg_validate(u64 mask)
{
	if (!mask || (mask & (REG_NOSUPPORT | PERF_REG_X86_RESERVED)))
		return -EINVAL;
	return 0;
}

/*
 * copy_struct_from_user(): a shorter caller's struct is zero-extended; a
 * longer one is fine as long as everything we do not know is zero.
 */
static int copy_struct_from_user(void *dst, size_t ksize, const void *src,
				 size_t usize)
{
	const u8 *tail = (const u8 *)src + ksize;
	size_t i;

	if (usize > ksize) {
		for (i = 0; i < usize - ksize; i++)
			if (tail[i])
				return -E2BIG;
	}
	memcpy(dst, src, min(ksize, usize));
	return 0;
}

int perf_copy_attr(const void *uattr, u32 size, struct perf_event_attr *attr,
		   u32 *size_ret)
{
	int ret = 0;

	memset(attr, 0, sizeof(*attr));
	if (!uattr)
		return -EFAULT;

	/* Callers from before attr.size existed pass 0. */
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > PAGE_SIZE)
		goto err_size;

	if (copy_struct_from_user(attr, sizeof(*attr), uattr, size))
		goto err_size;

	attr->size = size;

	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;

	if (attr->sample_type & ~(PERF_SAMPLE_MAX - 1))
		return -EINVAL;

	if (attr->read_format & ~(PERF_FORMAT_MAX - 1))
		return -EINVAL;

	if (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		u64 mask = attr->branch_sample_type;

		if (mask & ~(PERF_SAMPLE_BRANCH_MAX - 1))
			return -EINVAL;
		/* privilege bits alone select no branch */
		if (!(mask & ~PERF_SAMPLE_BRANCH_PLM_ALL))
			return -EINVAL;
		/* no level asked for: take the event's own */
		if (!(mask & PERF_SAMPLE_BRANCH_PLM_ALL)) {
			if (!attr->exclude_kernel)
				mask |= PERF_SAMPLE_BRANCH_KERNEL;
			if (!attr->exclude_user)
				mask |= PERF_SAMPLE_BRANCH_USER;
			if (!attr->exclude_hv)
				mask |= PERF_SAMPLE_BRANCH_HV;
			attr->branch_sample_type = mask;
		}
		/* kernel/hv branches need perf_allow_kernel(): pmusim is root */
	}

	if (attr->sample_type & PERF_SAMPLE_REGS_USER) {
		ret = perf_reg_validate(attr->sample_regs_user);
		if (ret)
			return ret;
	}

	if (attr->sample_type & PERF_SAMPLE_STACK_USER) {
		/* the size is a u32 but a sample's is a u16 */
		if (attr->sample_stack_user >= USHRT_MAX)
			return -EINVAL;
		if (attr->sample_stack_user % sizeof(u64))
			return -EINVAL;
	}

	if (!attr->sample_max_stack)
		attr->sample_max_stack = sysctl_perf_event_max_stack;

	/* as in the kernel, a bad intr mask only shows if nothing below fails */
	if (attr->sample_type & PERF_SAMPLE_REGS_INTR)
		ret = perf_reg_validate(attr->sample_regs_intr);

	/* no CONFIG_CGROUP_PERF: pmusim has no cgroups */
	if (attr->sample_type & PERF_SAMPLE_CGROUP)
		return -EINVAL;

	if ((attr->sample_type & PERF_SAMPLE_WEIGHT) &&
	    (attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
		return -EINVAL;

	if (!attr->inherit && attr->inherit_thread)
		return -EINVAL;

	if (attr->remove_on_exec && attr->enable_on_exec)
		return -EINVAL;

	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;

#ifdef CONFIG_PERF_HW_TIME
	/* raw hardware time converts to CLOCK_MONOTONIC_RAW only */
	if (attr->use_clockid && attr->hw_time &&
	    attr->clockid != PERF_CLOCK_MONOTONIC_RAW)
		return -EINVAL;
#endif
	return ret;

err_size:
	if (size_ret)
		*size_ret = sizeof(*attr);
	return -E2BIG;
}
