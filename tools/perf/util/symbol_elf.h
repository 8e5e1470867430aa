/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A DSO's symbols read from its ELF files as perf 6.1 reads them (the
 * counterpart of symsrc__init, dso__load_sym and
 * dso__synthesize_plt_symbols in tools/perf/util/symbol-elf.c, and of
 * symbols__fixup_end and symbols__fixup_duplicate in symbol.c).
 *
 * perf reads a DSO through two symbol sources, which may be one file: the
 * first candidate with a .symtab (a separate debug file, often) gives the
 * symbols, the first with a .dynsym (the file that was mapped) is the
 * "runtime" one, whose program headers turn a symbol's address into a
 * file offset and whose .rela.plt gives "NAME@plt" entries. Without a
 * .symtab anywhere the runtime file's .dynsym gives the symbols.
 *
 * The table holds the symbols at file offsets: the DSO-relative address
 * perf looks a sample up by (map__map_ip: ip - start + pgoff), the same
 * for every mapping of the file. Zero-sized symbols reach to the next one,
 * and of several at one address the one perf prefers is kept.
 *
 * C++ and Rust names are kept mangled: perf demangles them. A lookup
 * (perf_map__find) takes the last symbol starting at or below the offset;
 * where symbols overlap, perf's rbtree walk may find the outer one.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_SYMBOL_ELF_H
#define PMUSIM_TOOLS_PERF_UTIL_SYMBOL_ELF_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/kernel.h"
#include "tools/perf/util/perf_map.h"

/* An open ELF file and the sections perf reads symbols from. */
struct symsrc {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab;		/* .symtab, or NULL */
	GElf_Shdr symshdr;
	Elf_Scn *dynsym;		/* .dynsym, or NULL */
	GElf_Shdr dynshdr;
	size_t dynsym_idx;
	bool nomem;			/* a read failed for want of memory */
};

/*
 * Open NAME as a symbol source. With BID_SIZE > 0 its GNU build-id must
 * be BID (perf rejects a file of another build; trailing zeros in BID
 * are allowed, as perf allows them). 0, or -1 with errno: the open's,
 * EINVAL (not ELF, or another build), ENOMEM.
 */
int symsrc__init(struct symsrc *ss, const char *name, const u8 *bid, size_t bid_size);
void symsrc__destroy(struct symsrc *ss);

static inline bool symsrc__has_symtab(const struct symsrc *ss)
{
	return ss->symtab != NULL;
}

static inline bool symsrc__possibly_runtime(const struct symsrc *ss)
{
	return ss->dynsym != NULL;
}

/*
 * The symbols of a DSO into TABLE (sorted by start, at file offsets; see
 * above) from SYMS_SS and RUNTIME_SS (the same source for both is fine).
 * 0, or -1 with errno ENOMEM or EINVAL (a damaged file); TABLE is empty
 * then.
 */
int dso__load_sym(struct perf_map *table, struct symsrc *syms_ss, struct symsrc *runtime_ss);

/* The name in the .gnu_debuglink section of the ELF file at PATH into BUF: 0, or -1 (errno ENOMEM: no memory). */
int filename__read_debuglink(const char *path, char *buf, size_t size);

#endif
