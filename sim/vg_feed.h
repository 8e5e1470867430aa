/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the Valgrind tool's streams come from (format: vgtool/vgstream.h):
 * either the files DIR/vg.PID.SEQ of a finished run, or, while the program
 * runs, the one pipe every process of it writes frames into. The pipe is
 * read only when a reader needs bytes that are not in hand (pull): the
 * program blocks on a full pipe until the replay gets that far, so nothing
 * grows a file, and a stream's bytes stay in memory only from the first
 * one a reader of it still needs (vg_chan_add_reader()) to the last one read.
 * Held bytes are bounded: past 32 MiB in memory (vg_feed_set_held_max()),
 * the stream that holds
 * the most (a process far ahead of the one the replay needs, whose bytes
 * come through the one pipe meanwhile) is held in a file of its own in
 * TMPDIR (unlinked: nothing is left), its bytes freed there as the replay
 * reads them, until it has caught up.
 *
 * Multiplexing: frames carry the writer's pid; a frame with
 * VGS_FRAME_START begins a stream: a new process's (the header's ppid is
 * set after a fork; the first stream is the program's) or, ppid 0 while
 * a stream of that pid is open, the image its execve ran (SEQ + 1; the
 * open one ends there). VGS_FRAME_END ends a stream; the pipe's end (every
 * process gone) ends them all.
 *
 * Rings (vg_feed_set_ring_dir()): a stream whose image sent a
 * VGS_FRAME_RING has its bytes in a file of the ring directory, mapped
 * shared (vgtool/vgstream.h's struct vgs_ring) and unlinked at once. A
 * pull then takes what every ring has, and what the pipe has without
 * waiting, and sleeps on the pipe only when neither had anything.
 */
#ifndef PMUSIM_SIM_VG_FEED_H
#define PMUSIM_SIM_VG_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct vg_feed;
struct vg_chan;

/* The streams of a finished run: DIR/vg.PID.SEQ. NULL (errno) if out of memory. */
struct vg_feed *vg_feed_open_dir(const char *dir);
/* The streams as they come through the pipe @fd (its reading end, taken over). */
struct vg_feed *vg_feed_open_pipe(int fd);
/*
 * The streams' images may send their bytes through rings in @dir (the
 * tool's --pmusim-ring=DIR; the string outlives the feed): the feed maps
 * and unlinks them there.
 */
void vg_feed_set_ring_dir(struct vg_feed *f, const char *dir);
/* The most bytes of the streams held in memory (at least a frame's, 4096). */
void vg_feed_set_held_max(struct vg_feed *f, uint64_t bytes);
void vg_feed_free(struct vg_feed *f);

/*
 * The stream of image @seq of process @pid not handed out yet, waiting
 * for it on a pipe until it begins or the pipe ends; NULL if it never
 * came (an image or child that was not traced). A file's stream is
 * DIR/vg.PID.SEQ. vg_feed_first() is the program's first stream, whatever
 * its pid (for files: @path).
 */
struct vg_chan *vg_feed_find(struct vg_feed *f, uint32_t pid, uint32_t seq);
struct vg_chan *vg_feed_first(struct vg_feed *f, const char *path);
/* The stream's name in messages: the file, or "pipe:PID.SEQ". */
const char *vg_chan_name(const struct vg_chan *c);

/*
 * Up to @n bytes of the stream from byte @off on into @buf, waiting for
 * at least one: the number read, 0 at its end, -1 with errno.
 */
ssize_t vg_chan_read(struct vg_chan *c, uint64_t off, void *buf, size_t n);
/*
 * A reader of the stream: *@pos is the first byte it may still read; a
 * pipe's bytes before every reader's are freed. Readers are removed at
 * the stream's close (vg_chan_del_reader()). 0, or -1 out of memory.
 */
int vg_chan_add_reader(struct vg_chan *c, const size_t *pos);
void vg_chan_del_reader(struct vg_chan *c, const size_t *pos);

/*
 * No more is used: what the pipe still brings is read to its end (every
 * writer gone) and dropped, and every stream ends where what was read
 * ends. NULL is let be.
 */
void vg_feed_close(struct vg_feed *f);
/* Has any stream begun? */
bool vg_feed_began(const struct vg_feed *f);
/* A pipe's figures: bytes read, and the most held in memory at once. */
void vg_feed_stats(const struct vg_feed *f, uint64_t *bytes, uint64_t *held_max);
/*
 * Bytes moved within memory to free those read before them: at most the
 * bytes read (each moved once, on average, however far readers lag).
 */
uint64_t vg_feed_moved(const struct vg_feed *f);
/* How many of the streams came through rings. */
uint64_t vg_feed_rings(const struct vg_feed *f);
/* How many times a stream went to a file, and the most held in files at once. */
void vg_feed_spill_stats(const struct vg_feed *f, uint64_t *spills, uint64_t *spilled_max);
/* A pipe read failed, or a frame was malformed: what, or NULL. */
const char *vg_feed_error(const struct vg_feed *f);

#endif /* PMUSIM_SIM_VG_FEED_H */
