/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An ELF file for a simulated program (the counterpart of perf's
 * tools/perf/util/genelf.c, which writes one for JIT code): .text holding
 * the program's code as x86 instructions at their run-time addresses,
 * .symtab naming its functions, and a GNU build-id note, so that perf
 * report, script, annotate and buildid-list resolve its samples without
 * /tmp/perf-PID.map.
 *
 * Layout (as genelf's, an ET_DYN whose addresses are its file offsets):
 * .text sits at file offset == its address in the file, chosen congruent
 * to the run-time address modulo the page size. The program is mapped with
 * PERF_RECORD_MMAP2 at start = genelf_dso.map_start, pgoff =
 * genelf_dso.map_pgoff, so perf's ip - start + pgoff lands on the
 * function's symbol.
 *
 * Deterministic: the same program gives the same bytes and build-id.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_GENELF_H
#define PMUSIM_TOOLS_PERF_UTIL_GENELF_H

#include <stddef.h>

#include "core/kernel.h"

#define GENELF_BUILD_ID_SIZE	20

struct genelf_sym {
	u64 addr;		/* run-time address */
	u64 size;
	const char *name;
};

struct genelf_dso {
	u64 text_start;		/* run-time address of the first byte of code */
	const u8 *code;		/* the code, text_size bytes */
	u64 text_size;
	const struct genelf_sym *syms;	/* within the text, any order */
	size_t nr_syms;
	/* set by genelf__build() */
	u8 build_id[GENELF_BUILD_ID_SIZE];
	u64 map_start;		/* PERF_RECORD_MMAP2's start, len and pgoff */
	u64 map_len;
	u64 map_pgoff;
	void *image;		/* the ELF file's bytes (malloc'ed) */
	size_t image_size;
};

/*
 * Lay out DSO's ELF image in memory and fill in its build-id and mapping.
 * Returns 0, or -1 with the one-line reason in ERR (libelf's words).
 */
int genelf__build(struct genelf_dso *dso, char *err, size_t errlen);

void genelf__exit(struct genelf_dso *dso);

/* The build-id as perf prints it: 40 lower-case hex digits and a NUL. */
void genelf__build_id_hex(const u8 *build_id, char out[2 * GENELF_BUILD_ID_SIZE + 1]);

#endif
