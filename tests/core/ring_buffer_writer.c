// SPDX-License-Identifier: GPL-2.0-only
/*
 * The writer side of the ring-buffer tests: tagged records whose every
 * byte can be checked, and a scripted NMI that runs an action (a nested
 * writer, a pause, a reader step) at a chosen interleaving point, once
 * or on each of its first hits, while watching data_head at every point.
 */
#include "tests/core/ring_buffer_test.h"

int rbt_write(struct perf_event *event, unsigned int size, u64 tag, bool sample)
{
	struct perf_event_header h = {
		.type = RBT_TYPE, .misc = 0, .size = (u16)size,
	};
	struct perf_output_handle handle;
	struct perf_sample_data data;
	u8 chunk[256];
	unsigned int i, k, n;
	int ret;

	perf_sample_data_init(&data, 0, 0);
	ret = perf_output_begin(&handle, &data, event, size);
	if (ret)
		return ret;
	perf_output_put(&handle, h);
	perf_output_put(&handle, tag);
	for (i = 16; i < size; i += n) {
		n = min(size - i, (unsigned int)sizeof(chunk));
		for (k = 0; k < n; k++)
			chunk[k] = rbt_pattern(tag, i + k);
		perf_output_copy(&handle, chunk, n);
	}
	if (sample)
		perf_output_sample_wakeup(&handle);
	perf_output_end(&handle);
	return 0;
}

struct rbt_nmi rbt_nmi;

static u64 rbt_nmi_observe(struct rbt_nmi *n)
{
	u64 head = READ_ONCE(n->rb->user_page->data_head);

	if (head != n->last_data_head) {
		s64 moved = n->backward ? (s64)(n->last_data_head - head)
					: (s64)(head - n->last_data_head);

		if (moved < 0)
			n->head_went_back++;
		n->publish_count++;
		n->last_data_head = head;
	}
	return head;
}

static void rbt_nmi_hook(enum perf_interleave_point point, void *obj)
{
	struct rbt_nmi *n = &rbt_nmi;
	u64 head;

	if (obj != n->rb)
		return;
	n->hits[point]++;
	head = rbt_nmi_observe(n);

	if (n->in_action || n->fires >= n->times || point != n->point)
		return;
	if (!n->fired) {
		n->nest_at_fire = READ_ONCE(n->rb->nest);
		n->data_head_before = head;
	}
	n->fired = true;
	n->fires++;
	n->in_action = true;
	n->action(n->arg);
	n->data_head_after = rbt_nmi_observe(n);
	n->head_after = local_read(&n->rb->head);
	n->in_action = false;
}

void rbt_nmi_arm(struct perf_buffer *rb, bool backward,
		 enum perf_interleave_point point,
		 void (*action)(void *arg), void *arg)
{
	rbt_nmi_arm_times(rb, backward, point, 1, action, arg);
}

void rbt_nmi_arm_times(struct perf_buffer *rb, bool backward,
		       enum perf_interleave_point point, unsigned int times,
		       void (*action)(void *arg), void *arg)
{
	memset(&rbt_nmi, 0, sizeof(rbt_nmi));
	rbt_nmi.rb = rb;
	rbt_nmi.backward = backward;
	rbt_nmi.point = point;
	rbt_nmi.times = times;
	rbt_nmi.action = action;
	rbt_nmi.arg = arg;
	rbt_nmi.last_data_head = READ_ONCE(rb->user_page->data_head);
	perf_interleave_hook = rbt_nmi_hook;
}

void rbt_nmi_disarm(void)
{
	perf_interleave_hook = NULL;
}
