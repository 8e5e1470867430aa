// SPDX-License-Identifier: GPL-2.0-only
/*
 * user_page.c - the first mmap()ed page: what perf_mmap() sets once
 * (perf_event_init_userpage()) and the self-monitoring fields kept up to
 * date (perf_event_update_userpage()), as in kernel/events/core.c.
 */
#include "perf_event.h"
#include "internal.h"

/*
 * Enabled and running time up to now. pmusim keeps no separate context
 * clock: an event's tstamp is in perf_clock() time.
 */
void calc_timer_values(struct perf_event *event, u64 *now,
		       u64 *enabled, u64 *running)
{
	enum perf_event_state state = __perf_effective_state(event);
	u64 delta;

	*now = perf_clock();
	delta = *now - event->tstamp;
	*enabled = event->total_time_enabled;
	if (state >= PERF_EVENT_STATE_INACTIVE)
		*enabled += delta;
	*running = event->total_time_running;
	if (state >= PERF_EVENT_STATE_ACTIVE)
		*running += delta;
}

static int perf_event_index(struct perf_event *event)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return 0;
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return 0;
	return event->pmu && event->pmu->event_idx ? event->pmu->event_idx(event) : 0;
}

void perf_event_init_userpage(struct perf_event *event)
{
	struct perf_event_mmap_page *userpg;
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = event->rb;
	if (!rb)
		goto unlock;

	userpg = rb->user_page;
	/* bit 0 once meant rdpmc and was unreliable: readers must look at cap_user_rdpmc */
	userpg->cap_bit0_is_deprecated = 1;
	/* how much of the page this ABI fills: a reader checks before using a field */
	userpg->size = offsetof(struct perf_event_mmap_page, __reserved);
	userpg->data_offset = PAGE_SIZE;
	userpg->data_size = perf_data_size(rb);
unlock:
	rcu_read_unlock();
}

/*
 * Readers sample lock, read, and retry if lock moved or was odd, so
 * lock is odd exactly while the fields are being rewritten. The compiler
 * barriers keep the field stores between the two increments; an NMI
 * updating the same page on this CPU is the only other writer, and it
 * does the same dance, so the count stays consistent.
 */
void perf_event_update_userpage(struct perf_event *event)
{
	struct perf_event_mmap_page *userpg;
	struct perf_buffer *rb;
	u64 enabled, running, now;
	s64 offset;
	u32 index;

	rcu_read_lock();
	rb = event->rb;
	if (!rb)
		goto unlock;

	calc_timer_values(event, &now, &enabled, &running);

	userpg = rb->user_page;
	preempt_disable();
	WRITE_ONCE(userpg->lock, userpg->lock + 1);
	barrier();
	index = perf_event_index(event);
	offset = local64_read(&event->count) + atomic64_read(&event->child_count);
	if (index)
		offset -= local64_read(&event->hw.prev_count);
	WRITE_ONCE(userpg->index, index);
	WRITE_ONCE(userpg->offset, offset);
	WRITE_ONCE(userpg->time_enabled, enabled);
	WRITE_ONCE(userpg->time_running, running);

	arch_perf_update_userpage(event, userpg, now);

	barrier();
	WRITE_ONCE(userpg->lock, userpg->lock + 1);
	preempt_enable();
unlock:
	rcu_read_unlock();
}
