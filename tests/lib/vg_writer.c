// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hand-made Valgrind-tool streams (vg_writer.h).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "tests/lib/vg_writer.h"

static void put(struct vg_writer *w, const void *bytes, size_t len)
{
	assert_int_equal(fwrite(bytes, 1, len, w->f), len);
}

/* The run held, if any, written out: its start, its records, its end. */
static void run_out(struct vg_writer *w)
{
	uint8_t start[VGS_RUN_START_SIZE], end[VGS_RUN_END_MAX];

	if (!w->run_n)
		return;
	vgs_put_run_start(start);
	vgs_set_run_bytes(start, (uint32_t)w->run_len);
	put(w, start, sizeof(start));
	put(w, w->run, w->run_len);
	put(w, end, (size_t)(vgs_put_run_end(end, &w->run_before, &w->coder, w->run_n,
					     w->run_left, w->run_max_sp) - end));
	w->run_n = 0;
	w->run_len = 0;
}

static void header(struct vg_writer *w, uint32_t pid, uint32_t seq, uint32_t ppid)
{
	struct vgs_file_header h = { .version = VGS_VERSION, .pid = pid, .seq = seq,
				     .ppid = ppid };

	memset(&w->coder, 0, sizeof(w->coder));
	w->runs = false;	/* (a test asks for runs once the stream is open) */
	w->run_n = 0;
	w->run_len = 0;
	memcpy(h.magic, VGS_MAGIC, sizeof(h.magic));
	vgw_raw(w, &h, sizeof(h));
}

void vgw_open(struct vg_writer *w, const char *path, uint32_t pid, uint32_t seq, uint32_t ppid)
{
	assert_true(strlen(path) < sizeof(w->path));
	memmove(w->path, path, strlen(path) + 1);	/* (@path may be w->path: opened anew) */
	w->f = fopen(path, "wb");
	if (!w->f)
		fail_msg("%s: cannot create", path);
	header(w, pid, seq, ppid);
}

void vgw_open_at(struct vg_writer *w, const char *dir, uint32_t pid, uint32_t seq,
		 uint32_t ppid)
{
	char path[sizeof(w->path)];
	int n = snprintf(path, sizeof(path), "%s/vg.%u.%u", dir, pid, seq);

	assert_true(n > 0 && (size_t)n < sizeof(path));
	vgw_open(w, path, pid, seq, ppid);
}

void vgw_open_temp(struct vg_writer *w, const char *name, uint32_t pid)
{
	int fd, n = snprintf(w->path, sizeof(w->path), "/tmp/%s.XXXXXX", name);

	assert_true(n > 0 && (size_t)n < sizeof(w->path));
	fd = mkstemp(w->path);
	assert_true(fd >= 0);
	w->f = fdopen(fd, "wb");
	assert_non_null(w->f);
	header(w, pid, 0, 0);
}

void vgw_close(struct vg_writer *w)
{
	run_out(w);
	assert_int_equal(fclose(w->f), 0);
	w->f = NULL;
}

void vgw_raw(struct vg_writer *w, const void *bytes, size_t len)
{
	run_out(w);
	put(w, bytes, len);
}

void vgw_branch(struct vg_writer *w, unsigned int kind, uint64_t from, uint64_t to, uint64_t sp,
		uint32_t insns)
{
	uint8_t buf[VGS_REC_MAX], *end;

	if (!w->runs || kind < VGK_COND || kind > VGK_IND_JMP) {
		run_out(w);	/* (its end has the deltas before this record) */
		end = vgs_put_branch(buf, &w->coder, kind, 5, insns, from, to, sp);
		vgw_raw(w, buf, (size_t)(end - buf));
		return;
	}
	if (!w->run_n) {
		w->run_before = w->coder;
		w->run_left = 0;
		w->run_max_sp = sp;
	}
	end = vgs_put_branch(w->run + w->run_len, &w->coder, kind, 5, insns, from, to, sp);
	w->run_len = (size_t)(end - w->run);
	w->run_left += insns - (insns != 0);
	if (sp > w->run_max_sp)
		w->run_max_sp = sp;
	if (++w->run_n == VGS_RUN_MAX)
		run_out(w);
}

void vgw_thread(struct vg_writer *w, unsigned int type, uint32_t tid)
{
	uint8_t buf[VGS_REC_MAX], *end;

	end = vgs_put_num(vgs_put_rec(buf, type, 0), tid);
	vgw_raw(w, buf, (size_t)(end - buf));
}

void vgw_proc(struct vg_writer *w, unsigned int type, uint32_t pid, int32_t status,
	      const char *path)
{
	uint8_t buf[VGS_REC_MAX], *end;
	uint32_t len = path ? (uint32_t)strlen(path) : 0;

	end = vgs_put_rec(buf, type, 0);
	end = vgs_put_num(end, pid);
	end = vgs_put_num(end, vgs_zigzag((uint64_t)(int64_t)status));
	end = vgs_put_num(end, len);
	vgw_raw(w, buf, (size_t)(end - buf));
	vgw_raw(w, path ? path : "", len);
}

void vgw_wake(struct vg_writer *w)
{
	vgw_proc(w, VGS_WAKE, 0, 202 /* futex */, NULL);
}

void vgw_mmap(struct vg_writer *w, uint64_t addr, const char *name)
{
	uint8_t buf[VGS_REC_MAX], *end;
	uint32_t len = (uint32_t)strlen(name);

	end = vgs_put_rec(buf, VGS_MMAP, 0);
	end = vgs_put_num(end, addr);
	end = vgs_put_num(end, 0x1000);
	end = vgs_put_num(end, 0);
	end = vgs_put_num(end, 5 /* r-x */);
	end = vgs_put_num(end, 2 /* MAP_PRIVATE */);
	end = vgs_put_num(end, 0);	/* dev */
	end = vgs_put_num(end, 0);	/* ino */
	end = vgs_put_num(end, len);
	vgw_raw(w, buf, (size_t)(end - buf));
	vgw_raw(w, name, len);
}

void vgw_code(struct vg_writer *w, uint64_t addr, const uint8_t *lens, uint32_t n)
{
	uint8_t buf[VGS_REC_MAX], *end;

	end = vgs_put_rec(buf, VGS_CODE, 0);
	end = vgs_put_num(end, addr);
	end = vgs_put_num(end, n);
	vgw_raw(w, buf, (size_t)(end - buf));
	vgw_raw(w, lens, n);
}

void vgw_rec(struct vg_writer *w, unsigned int type, uint32_t insns)
{
	uint8_t buf[VGS_REC_MAX], *end;

	end = vgs_put_rec(buf, type, insns);
	vgw_raw(w, buf, (size_t)(end - buf));
}
