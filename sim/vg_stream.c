// SPDX-License-Identifier: GPL-2.0-only
/* The reader of the Valgrind tool's stream; see vg_stream.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/vg_stream.h"

static const char *const type_names[VGS__NR] = {
	[VGS_BRANCH] = "branch",
	[VGS_INSNS] = "insns",
	[VGS_THREAD] = "thread",
	[VGS_THREAD_NEW] = "thread-new",
	[VGS_THREAD_EXIT] = "thread-exit",
	[VGS_MMAP] = "mmap",
	[VGS_SIGNAL] = "signal",
	[VGS_SIGRETURN] = "sigreturn",
	[VGS_FORK] = "fork",
	[VGS_EXEC] = "exec",
	[VGS_EXEC_FAILED] = "exec-failed",
	[VGS_EXIT] = "exit",
	[VGS_WAKE] = "wake",
};

const char *vg_rec_type_name(unsigned int type)
{
	return type < VGS__NR ? type_names[type] : NULL;
}

int vg_stream_open(struct vg_stream *s, const char *path, char *err, size_t errlen)
{
	struct stat st;
	void *p;
	int fd;

	memset(s, 0, sizeof(*s));
	s->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if ((size_t)st.st_size < sizeof(s->header)) {
		close(fd);
		snprintf(err, errlen, "%s: not a pmusim stream (%lld bytes)", path,
			 (long long)st.st_size);
		return -1;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	s->data = p;
	s->size = st.st_size;
	memcpy(&s->header, s->data, sizeof(s->header));
	if (memcmp(s->header.magic, VGS_MAGIC, sizeof(s->header.magic)) != 0) {
		snprintf(err, errlen, "%s: not a pmusim stream (bad magic)", path);
		vg_stream_close(s);
		return -1;
	}
	if (s->header.version != VGS_VERSION) {
		snprintf(err, errlen, "%s: stream version %u, this pmusim reads %u", path,
			 s->header.version, VGS_VERSION);
		vg_stream_close(s);
		return -1;
	}
	s->off = sizeof(s->header);
	s->tid = 1;
	return 0;
}

void vg_stream_close(struct vg_stream *s)
{
	if (s->data)
		munmap(s->data, s->size);
	s->data = NULL;
}

static int bad(const struct vg_stream *s, size_t at, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: byte %zu: %s", s->path, at, what);
	return -1;
}

/* The payload of the record at s->off: @size bytes, else NULL. */
static const void *payload(const struct vg_stream *s, size_t size)
{
	size_t at = s->off + sizeof(struct vgs_rec_header);

	if (size > s->size || at > s->size - size)
		return NULL;
	return s->data + at;
}

static size_t padded(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int vg_stream_next(struct vg_stream *s, struct vg_event *ev, char *err, size_t errlen)
{
	struct vgs_rec_header h;
	size_t at = s->off, size = sizeof(h);
	const unsigned char *p;

	if (s->off == s->size)
		return 0;
	if (s->size - s->off < sizeof(h))
		return bad(s, at, err, errlen, "record header cut short");
	memcpy(&h, s->data + s->off, sizeof(h));
	memset(ev, 0, sizeof(*ev));
	ev->type = h.type;
	ev->insns = h.insns;
	ev->tid = s->tid;

	switch (h.type) {
	case VGS_BRANCH:
	case VGS_SIGNAL:
	case VGS_SIGRETURN: {
		struct vgs_branch b;

		if (!(p = payload(s, sizeof(b))))
			return bad(s, at, err, errlen, "branch record cut short");
		if (h.kind == 0 || h.kind >= VGK__NR)
			return bad(s, at, err, errlen, "unknown branch kind");
		if ((h.type == VGS_SIGNAL) != (h.kind == VGK_SIGNAL) ||
		    (h.type == VGS_SIGRETURN) != (h.kind == VGK_SIGRETURN))
			return bad(s, at, err, errlen, "branch kind does not match the record type");
		memcpy(&b, p, sizeof(b));
		ev->kind = h.kind;
		ev->insn_len = h.insn_len;
		ev->from = b.from;
		ev->to = b.to;
		ev->sp = b.sp;
		size += sizeof(b);
		break;
	}
	case VGS_INSNS:
	case VGS_EXEC_FAILED:
		break;
	case VGS_THREAD:
	case VGS_THREAD_NEW:
	case VGS_THREAD_EXIT: {
		struct vgs_thread t;

		if (!(p = payload(s, sizeof(t))))
			return bad(s, at, err, errlen, "thread record cut short");
		memcpy(&t, p, sizeof(t));
		if (t.tid == 0)
			return bad(s, at, err, errlen, "thread 0");
		if (h.type == VGS_THREAD) {
			if (h.insns)
				return bad(s, at, err, errlen, "instructions counted before a thread switch");
			s->tid = ev->tid = t.tid;
		} else {
			ev->other_tid = t.tid;
		}
		size += sizeof(t);
		break;
	}
	case VGS_MMAP: {
		struct vgs_mmap m;

		if (!(p = payload(s, sizeof(m))))
			return bad(s, at, err, errlen, "mmap record cut short");
		memcpy(&m, p, sizeof(m));
		if (!payload(s, sizeof(m) + padded(m.name_len)))
			return bad(s, at, err, errlen, "mmap name cut short");
		ev->addr = m.addr;
		ev->len = m.len;
		ev->pgoff = m.pgoff;
		ev->prot = m.prot;
		ev->name = (const char *)p + sizeof(m);
		ev->name_len = m.name_len;
		if (memchr(ev->name, 0, ev->name_len))
			return bad(s, at, err, errlen, "NUL inside a mapping's name");
		size += sizeof(m) + padded(m.name_len);
		break;
	}
	case VGS_FORK:
	case VGS_EXEC:
	case VGS_EXIT:
	case VGS_WAKE: {
		struct vgs_proc pr;

		if (!(p = payload(s, sizeof(pr))))
			return bad(s, at, err, errlen, "process record cut short");
		memcpy(&pr, p, sizeof(pr));
		if (h.type != VGS_EXEC && pr.path_len)
			return bad(s, at, err, errlen, "a path on a record that has none");
		if (!payload(s, sizeof(pr) + padded(pr.path_len)))
			return bad(s, at, err, errlen, "exec path cut short");
		ev->pid = pr.pid;
		ev->status = pr.status;
		ev->name = (const char *)p + sizeof(pr);
		ev->name_len = pr.path_len;
		size += sizeof(pr) + padded(pr.path_len);
		break;
	}
	default:
		return bad(s, at, err, errlen, "unknown record type");
	}
	s->off += size;
	return 1;
}
