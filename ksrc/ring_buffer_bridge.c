// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bridge between pmusim and the kernel's kernel/events/ring_buffer.c
 * (ksrc/ring_buffer_ksrc.h): built with the shim, beside the kernel file,
 * and linked with it into one object whose only global names are the
 * ksrc_* ones of that header.
 *
 * It also turns the shim's accesses (ksrc_access_hook) into
 * core/interleave.h's points. Each writer in flight (nested writers are
 * called from inside a point, so they form a stack) walks the kernel's
 * code in a known order; which access it has reached says which point it
 * passed, e.g. the local_read() of rb->lost that follows the paused check
 * is PI_OUTPUT_BEGIN_NOT_PAUSED before it and PI_OUTPUT_BEGIN_READ_LOST
 * after it. A point core/ has where the kernel makes no access of its own
 * (the watermark check done, put_handle's last head check done) is
 * passed just before the writer's next access.
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "ksrc/ring_buffer_shim.h"
#include "core/interleave.h"
#include <generated/ksrc_tree.h>

_Static_assert(sizeof(struct perf_output_handle) <= sizeof(struct ksrc_output_handle),
	       "struct ksrc_output_handle too small for the kernel's handle");

ksrc_access_fn ksrc_access_hook;

struct ksrc_buffer {
	struct perf_buffer *rb;
	void *user;			/* the user mapping: user page, data pages */
	size_t user_len;
	void *user_ro;			/* the same, PROT_READ (ksrc_rb_user_page_ro) */
};

struct ksrc_event {
	struct perf_event event;
};

static ksrc_running_fn running_fn;
static void *running_arg;

void ksrc_set_running(ksrc_running_fn fn, void *arg)
{
	running_fn = fn;
	running_arg = arg;
}

struct ksrc_running ksrc_running(struct perf_event *event)
{
	(void)event;
	return running_fn ? running_fn(running_arg) : (struct ksrc_running){ 0 };
}

const char *ksrc_version(void)
{
	return KSRC_VERSION;
}

/* ---- interleaving points ------------------------------------------------- */

enum writer_state {
	W_BEGIN,		/* nothing read yet */
	W_ENTERED,		/* rb loaded */
	W_LOST_READ,		/* lost sampled */
	W_HANDLE,		/* nest taken */
	W_FAILED,		/* no room */
	W_RESERVED,		/* head moved */
	W_WM_READ,		/* watermark compared: WAKEUP_CHECKED due */
	W_BODY,			/* copying */
	W_PUT,			/* put_handle: nest read */
	W_PUT_HEAD,		/* outermost: head read */
	W_PUT_PUBLISHED,	/* data_head written */
	W_PUT_CLEARED,		/* nest 0 */
	W_PUT_RECHECKED,	/* head read again: DONE due unless it moved */
	W_PUT_DONE,
};

#define MAX_WRITERS	32

static struct writer {
	enum writer_state state;
	struct perf_buffer *rb;
	struct perf_event *event;
	bool tail_read;		/* READ_TAIL due: data_tail read this round */
} writers[MAX_WRITERS];
static int nr_writers;

static void fire(struct writer *w, enum perf_interleave_point point)
{
	perf_interleave(point, w->rb);
}

static bool at(const volatile void *addr, const void *field)
{
	return (const void *)addr == field;
}

static void on_access(enum ksrc_prim prim, const volatile void *addr,
		      enum ksrc_phase phase, long val)
{
	struct writer *w;
	struct perf_buffer *rb;

	if (!nr_writers)
		return;
	w = &writers[nr_writers - 1];
	rb = w->rb;

	if (phase == KSRC_BEFORE) {
		/* Points the kernel passes without an access: due at the next one. */
		if (w->state == W_WM_READ &&
		    !(prim == KSRC_LOCAL_ADD && at(addr, &rb->wakeup))) {
			w->state = W_BODY;
			fire(w, PI_OUTPUT_BEGIN_WAKEUP_CHECKED);
		}
		if (w->state == W_PUT_RECHECKED) {
			if (prim == KSRC_WRITE_ONCE && at(addr, &rb->nest)) {
				w->state = W_PUT;	/* head moved: round again */
			} else {
				w->state = W_PUT_DONE;
				fire(w, PI_PUT_HANDLE_DONE);
			}
		}
		if (!rb)
			return;
		/*
		 * PI_OUTPUT_BEGIN_READ_TAIL: head and data_tail both read. v6.12
		 * reads head before the loop (and takes it from a failed
		 * cmpxchg), trees before v6.5 read it after data_tail in each
		 * round: the point is passed after the later of the two reads.
		 */
		if (w->tail_read && !(prim == KSRC_LOCAL_READ && at(addr, &rb->head))) {
			w->tail_read = false;
			fire(w, PI_OUTPUT_BEGIN_READ_TAIL);
		}
		if (prim == KSRC_LOCAL_READ && at(addr, &rb->lost) && w->state == W_ENTERED)
			fire(w, PI_OUTPUT_BEGIN_NOT_PAUSED);
		else if (prim == KSRC_LOCAL_CMPXCHG && at(addr, &rb->head))
			fire(w, PI_OUTPUT_BEGIN_CMPXCHG);
		else if (prim == KSRC_LOCAL_ADD && at(addr, &rb->lost) && w->state == W_HANDLE) {
			w->state = W_FAILED;
			fire(w, PI_OUTPUT_BEGIN_FAILED);
		}
		return;
	}

	if (w->state == W_BEGIN) {
		if (prim == KSRC_READ_ONCE && at(addr, &w->event->rb) && w->event->rb) {
			w->rb = w->event->rb;
			w->state = W_ENTERED;
			fire(w, PI_OUTPUT_BEGIN_ENTER);
		}
		return;
	}
	switch (prim) {
	case KSRC_LOCAL_READ:
		if (at(addr, &rb->lost) && w->state == W_ENTERED) {
			w->state = W_LOST_READ;
			fire(w, PI_OUTPUT_BEGIN_READ_LOST);
		} else if (at(addr, &rb->wakeup) && w->state == W_LOST_READ) {
			w->state = W_HANDLE;
			fire(w, PI_OUTPUT_BEGIN_GOT_HANDLE);
		} else if (at(addr, &rb->wakeup) && w->state == W_RESERVED) {
			w->state = W_WM_READ;
		} else if (at(addr, &rb->head) && w->tail_read) {
			w->tail_read = false;
			fire(w, PI_OUTPUT_BEGIN_READ_TAIL);
		} else if (at(addr, &rb->head) && w->state == W_PUT) {
			w->state = W_PUT_HEAD;
			fire(w, PI_PUT_HANDLE_READ_HEAD);
		} else if (at(addr, &rb->head) && w->state == W_PUT_CLEARED) {
			w->state = W_PUT_RECHECKED;
		}
		break;
	case KSRC_READ_ONCE:
		if (at(addr, &rb->user_page->data_tail) && w->state == W_HANDLE)
			w->tail_read = true;
		else if (at(addr, &rb->nest)) {
			w->state = W_PUT;
			fire(w, PI_PUT_HANDLE_READ_NEST);
		}
		break;
	case KSRC_LOCAL_CMPXCHG:
		if (at(addr, &rb->head) && val) {
			w->state = W_RESERVED;
			fire(w, PI_OUTPUT_BEGIN_RESERVED);
		}
		break;
	case KSRC_LOCAL_ADD:
		if (at(addr, &rb->wakeup) && w->state == W_WM_READ) {
			w->state = W_BODY;
			fire(w, PI_OUTPUT_BEGIN_WAKEUP_CHECKED);
		}
		break;
	case KSRC_LOCAL_XCHG:
		if (at(addr, &rb->lost))
			fire(w, PI_OUTPUT_BEGIN_LOST_TAKEN);
		break;
	case KSRC_LOCAL_INC_RETURN:
		if (at(addr, &rb->events))
			fire(w, PI_OUTPUT_SAMPLE_EVENTS);
		break;
	case KSRC_COPY:
		fire(w, PI_OUTPUT_COPY);
		break;
	case KSRC_WRITE_ONCE:
		if (at(addr, &rb->user_page->data_head) && w->state == W_PUT_HEAD) {
			w->state = W_PUT_PUBLISHED;
			fire(w, PI_PUT_HANDLE_PUBLISHED);
		} else if (at(addr, &rb->nest) && w->state == W_PUT_PUBLISHED) {
			w->state = W_PUT_CLEARED;
			fire(w, PI_PUT_HANDLE_NEST_CLEARED);
		}
		break;
	default:
		break;
	}
}

/*
 * Follow a writer only while someone listens at the points: without a
 * hook the kernel's file runs with no bookkeeping beyond this test.
 * Returns whether it is followed (kept in the handle: see tracked()).
 */
static bool writer_push(struct perf_event *event)
{
	struct writer *w;

	if (!IS_ENABLED(CONFIG_PERF_INTERLEAVE) || !perf_interleave_hook)
		return false;
	if (WARN_ON_ONCE(nr_writers == MAX_WRITERS))
		return false;
	ksrc_access_hook = on_access;
	w = &writers[nr_writers++];
	*w = (struct writer){ .state = W_BEGIN, .event = event };
	return true;
}

static void writer_pop(void)
{
	if (!--nr_writers)
		ksrc_access_hook = NULL;
}

/* The writer of @handle is the innermost one: nested writers have finished. */
static void writer_settle(void)
{
	struct writer *w;

	if (!nr_writers)
		return;
	w = &writers[nr_writers - 1];
	if (w->state == W_WM_READ) {
		w->state = W_BODY;
		fire(w, PI_OUTPUT_BEGIN_WAKEUP_CHECKED);
	}
}

/* ---- the buffer ------------------------------------------------------------ */

static void unmap_user(struct ksrc_buffer *buf)
{
	if (buf->user)
		munmap(buf->user, buf->user_len);
	if (buf->user_ro)
		munmap(buf->user_ro, buf->user_len);
	buf->user = buf->user_ro = NULL;
}

/* The frames of perf_mmap_to_page(), pgoff 0 up, mapped at @user with @prot. */
static bool map_frames(struct perf_buffer *rb, char *user, unsigned long nr, int prot)
{
	int fd = ksrc_page_memfd();

	if (fd < 0)
		return false;
	for (unsigned long pgoff = 0; pgoff < nr; pgoff++) {
		struct page *page = perf_mmap_to_page(rb, pgoff);

		if (!page || mmap(user + pgoff * PAGE_SIZE, PAGE_SIZE, prot, MAP_SHARED | MAP_FIXED,
				  fd, (off_t)(page->frame * PAGE_SIZE)) == MAP_FAILED)
			return false;
	}
	return true;
}

/* perf_mmap(): the user page and data pages, in perf_mmap_to_page()'s order. */
static bool map_user(struct ksrc_buffer *buf)
{
	struct perf_buffer *rb = buf->rb;
	unsigned long nr = 1 + (unsigned long)data_page_nr(rb);
	int fd = ksrc_page_memfd();
	char *user;

	if (fd < 0)
		return false;
	buf->user_len = nr * PAGE_SIZE;
	user = mmap(NULL, buf->user_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (user == MAP_FAILED)
		return false;
	buf->user = user;
	for (unsigned long pgoff = 0; pgoff < nr; pgoff++) {
		struct page *page = perf_mmap_to_page(rb, pgoff);

		if (!page || mmap(user + pgoff * PAGE_SIZE, PAGE_SIZE, PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_FIXED, fd,
				  (off_t)(page->frame * PAGE_SIZE)) == MAP_FAILED) {
			unmap_user(buf);
			return false;
		}
	}
	/* perf_event_init_userpage() */
	rb->user_page->data_offset = PAGE_SIZE;
	rb->user_page->data_size = perf_data_size(rb);
	return true;
}

struct ksrc_buffer *ksrc_rb_alloc(int nr_pages, long watermark, bool writable)
{
	struct ksrc_buffer *buf = calloc(1, sizeof(*buf));

	if (!buf)
		return NULL;
	buf->rb = rb_alloc(nr_pages, watermark, -1, writable ? RING_BUFFER_WRITABLE : 0);
	if (!buf->rb || !map_user(buf)) {
		if (buf->rb)
			rb_free(buf->rb);
		free(buf);
		return NULL;
	}
	return buf;
}

void ksrc_rb_free(struct ksrc_buffer *buf)
{
	if (!buf)
		return;
	unmap_user(buf);
	ring_buffer_put(buf->rb);
	free(buf);
}

struct perf_event_mmap_page *ksrc_rb_user_page(struct ksrc_buffer *buf)
{
	return buf->user;
}

struct perf_event_mmap_page *ksrc_rb_user_page_ro(struct ksrc_buffer *buf)
{
	char *user;

	if (buf->user_ro)
		return buf->user_ro;
	user = mmap(NULL, buf->user_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (user == MAP_FAILED)
		return NULL;
	if (!map_frames(buf->rb, user, buf->user_len / PAGE_SIZE, PROT_READ)) {
		munmap(user, buf->user_len);
		return NULL;
	}
	buf->user_ro = user;
	return buf->user_ro;
}

void *ksrc_rb_kernel(struct ksrc_buffer *buf)
{
	return buf->rb;
}

void ksrc_rb_pause(struct ksrc_buffer *buf, bool pause)
{
	rb_toggle_paused(buf->rb, pause);
}

struct ksrc_rb_state ksrc_rb_state(struct ksrc_buffer *buf)
{
	struct perf_buffer *rb = buf->rb;

	return (struct ksrc_rb_state){
		.head = (unsigned long)rb->head.a,
		.lost = rb->lost.a,
		.wakeup = rb->wakeup.a,
		.events = rb->events.a,
		.nest = rb->nest,
		.paused = rb->paused,
		.overwrite = rb->overwrite,
		.nr_pages = rb->nr_pages,
		.watermark = rb->watermark,
		.data_size = perf_data_size(rb),
	};
}

/* ---- events -------------------------------------------------------------- */

/* core.c's perf_event__id_header_size() */
static u16 id_header_size(u64 sample_type)
{
	u16 size = 0;

	if (sample_type & PERF_SAMPLE_TID)
		size += 8;
	if (sample_type & PERF_SAMPLE_TIME)
		size += 8;
	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		size += 8;
	if (sample_type & PERF_SAMPLE_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		size += 8;
	if (sample_type & PERF_SAMPLE_CPU)
		size += 8;
	return size;
}

struct ksrc_event *ksrc_event_new(struct ksrc_buffer *buf, const struct perf_event_attr *attr,
				  uint64_t id)
{
	struct ksrc_event *ev = calloc(1, sizeof(*ev));

	if (!ev)
		return NULL;
	ev->event.attr = *attr;
	ev->event.id = id;
	ev->event.cpu = -1;
	ev->event.id_header_size = id_header_size(attr->sample_type);
	/* ring_buffer_attach(): the event holds a reference */
	if (buf) {
		refcount_inc(&buf->rb->refcount);
		ev->event.rb = buf->rb;
	}
	return ev;
}

void ksrc_event_free(struct ksrc_event *ev)
{
	if (!ev)
		return;
	if (ev->event.rb)
		ring_buffer_put(ev->event.rb);
	free(ev);
}

uint64_t ksrc_event_lost_samples(struct ksrc_event *ev)
{
	return (uint64_t)atomic64_read(&ev->event.lost_samples);
}

bool ksrc_event_take_wakeup(struct ksrc_event *ev)
{
	bool woke = ev->event.pending_wakeup;

	ev->event.pending_wakeup = 0;
	return woke;
}

/* ---- output ------------------------------------------------------------------ */

static struct perf_output_handle *kh(struct ksrc_output_handle *handle)
{
	return (struct perf_output_handle *)handle->opaque;
}

/* The last byte of the handle's room, past the kernel's handle: is its writer followed? */
_Static_assert(sizeof(struct perf_output_handle) < sizeof(struct ksrc_output_handle),
	       "no room for the tracked flag");
static unsigned char *tracked(struct ksrc_output_handle *handle)
{
	return &handle->opaque[sizeof(handle->opaque) - 1];
}

int ksrc_output_begin(struct ksrc_output_handle *handle, struct ksrc_event *ev, unsigned int size)
{
	struct perf_sample_data data = { 0 };
	bool followed = writer_push(&ev->event);
	int ret;

	ret = perf_output_begin(kh(handle), &data, &ev->event, size);
	*tracked(handle) = followed;
	if (followed) {
		if (ret)
			writer_pop();
		else
			writer_settle();
	}
	return ret;
}

unsigned int ksrc_output_copy(struct ksrc_output_handle *handle, const void *buf, unsigned int len)
{
	return perf_output_copy(kh(handle), buf, len);
}

void ksrc_output_sample_wakeup(struct ksrc_output_handle *handle)
{
	ksrc_perf_output_sample_wakeup(kh(handle));
}

void ksrc_output_end(struct ksrc_output_handle *handle)
{
	bool followed = *tracked(handle);

	if (followed)
		fire(&writers[nr_writers - 1], PI_OUTPUT_END_ENTER);
	perf_output_end(kh(handle));
	if (followed)
		writer_pop();
}
