// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF symbol tables read as perf 6.1 reads them. See symbol_elf.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libiberty/demangle.h>
#undef ARRAY_SIZE	/* (libiberty.h's, which core/kernel.h defines as the kernel does) */

#include "tools/perf/util/symbol_elf.h"
#include "tools/perf/util/array_grow.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC	10
#endif

#define BUILD_ID_SIZE	20
#define PAGE_4K		4096ull

/* A symbol while the table is built; END is exclusive, START == END: no size. */
struct elf_symbol {
	u64 start, end;
	u32 name;		/* offset in sym_list.names */
	u8 binding;
};

/*
 * The symbols so far, in the order perf inserts them, and their names in
 * one block (the table's strings, in the end): no allocation per symbol.
 */
struct sym_list {
	struct elf_symbol *s;
	size_t nr, cap;
	char *names;
	size_t names_len, names_cap;
};

static int sym_list__add(struct sym_list *l, u64 start, u64 size, u8 binding,
			 const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	if (array_grow((void **)&l->s, &l->cap, l->nr + 1, sizeof(*l->s), 256))
		return -1;
	if (l->names_len + n + m + 1 > l->names_cap || l->names_len + n + m + 1 > UINT32_MAX) {
		size_t cap = l->names_cap ? l->names_cap : 4096;
		char *p;

		while (cap < l->names_len + n + m + 1)
			cap *= 2;
		if (cap > UINT32_MAX || !(p = realloc(l->names, cap)))
			return -1;
		l->names = p;
		l->names_cap = cap;
	}
	memcpy(l->names + l->names_len, name, n);
	memcpy(l->names + l->names_len + n, suffix, m + 1);
	l->s[l->nr++] = (struct elf_symbol){ .start = start, .end = start + size,
					     .name = (u32)l->names_len, .binding = binding };
	l->names_len += n + m + 1;
	return 0;
}

/*
 * ELF_NAME as perf 6.1 names its symbol: Debian's perf demangles with
 * libiberty's cplus_demangle (linked in), C++ and Rust alike, without
 * parameters or qualifiers (DMGL_NO_OPTS, as perf does unless -v). A
 * malloc'ed name, or NULL: ELF_NAME is no mangled name (every mangling
 * cplus_demangle knows begins with '_'), or no memory.
 */
static char *demangle_sym(const char *elf_name)
{
	return elf_name[0] == '_' ? cplus_demangle(elf_name, DMGL_NO_OPTS) : NULL;
}

/* A symbol whose name is already in the block, at NAME: demangled, a copy of its own. */
static int sym_list__push(struct sym_list *l, u64 start, u64 size, u8 binding, u32 name)
{
	char *demangled = demangle_sym(l->names + name);

	if (demangled) {
		int ret = sym_list__add(l, start, size, binding, demangled, "");

		free(demangled);
		return ret;
	}
	if (array_grow((void **)&l->s, &l->cap, l->nr + 1, sizeof(*l->s), 256))
		return -1;
	l->s[l->nr++] = (struct elf_symbol){ .start = start, .end = start + size, .name = name,
					     .binding = binding };
	return 0;
}

static void sym_list__free(struct sym_list *l)
{
	free(l->s);
	free(l->names);
	memset(l, 0, sizeof(*l));
}

/*
 * Sort by start, equal starts in the order they were added (perf's
 * rbtree puts an equal start to the right): an LSD radix sort, stable,
 * 11 bits a pass and only as many passes as the largest start needs (two
 * for a library of 2 MiB). qsort's callback on libc's 10,000 symbols was a
 * third of reading them, and a merge sort half of what remained.
 */
#define RADIX_BITS	11
#define RADIX		(1u << RADIX_BITS)

static int sym_list__sort(struct sym_list *l)
{
	struct elf_symbol *a = l->s, *b, *t;
	size_t n = l->nr, *count;
	u64 max = 0;

	if (n < 2)
		return 0;
	if (n <= 64) {
		/* a handful (an executable's .dynsym): insertion, stable as well */
		for (size_t i = 1; i < n; i++) {
			struct elf_symbol x = a[i];
			size_t j = i;

			for (; j > 0 && a[j - 1].start > x.start; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		max |= a[i].start;
	b = malloc(n * sizeof(*b));
	count = malloc(RADIX * sizeof(*count));
	if (!b || !count) {
		free(b);
		free(count);
		return -1;
	}
	for (unsigned int shift = 0; shift < 64 && (max >> shift); shift += RADIX_BITS) {
		size_t sum = 0;

		memset(count, 0, RADIX * sizeof(*count));
		for (size_t i = 0; i < n; i++)
			count[(a[i].start >> shift) & (RADIX - 1)]++;
		for (size_t d = 0; d < RADIX; d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			b[count[(a[i].start >> shift) & (RADIX - 1)]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	if (a != l->s) {
		memcpy(l->s, a, n * sizeof(*a));
		b = a;
	}
	free(b);
	free(count);
	return 0;
}

/*
 * libelf says nothing of why a call failed; malloc's ENOMEM tells. Each
 * call that may allocate runs with errno cleared, and a failure for want
 * of memory marks *NOMEM: the caller then fails with ENOMEM rather than
 * read the file as if it lacked what could not be read.
 */
static bool failed(bool failure, bool *nomem)
{
	if (failure && errno == ENOMEM)
		*nomem = true;
	return failure;
}

static Elf_Scn *elf_section_by_name(Elf *elf, GElf_Shdr *shp, const char *name, size_t *idx,
				    bool *nomem)
{
	Elf_Scn *sec = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((sec = elf_nextscn(elf, sec)) != NULL) {
		const char *str;

		errno = 0;
		if (failed(!gelf_getshdr(sec, shp), nomem))
			continue;
		errno = 0;
		str = elf_strptr(elf, shstrndx, shp->sh_name);
		if (!failed(!str, nomem) && !strcmp(name, str)) {
			if (idx)
				*idx = elf_ndxscn(sec);
			return sec;
		}
	}
	return NULL;
}

/* The GNU build-id note's descriptor into BF (SIZE bytes, zero-padded): its length, or -1. */
static int elf_read_build_id(Elf *elf, u8 *bf, size_t size, bool *nomem)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	Elf_Scn *sec = NULL;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Data *d;
	size_t off = 0, name_off, desc_off;

	for (size_t i = 0; i < ARRAY_SIZE(names) && !sec; i++)
		sec = elf_section_by_name(elf, &sh, names[i], NULL, nomem);
	if (!sec)
		return -1;
	errno = 0;
	d = elf_getdata(sec, NULL);
	if (failed(!d, nomem))
		return -1;
	while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + name_off, "GNU", 4)) {
			size_t sz = nh.n_descsz < size ? nh.n_descsz : size;

			memcpy(bf, (const u8 *)d->d_buf + desc_off, sz);
			memset(bf + sz, 0, size - sz);
			return (int)nh.n_descsz;
		}
	}
	return -1;
}

/* perf's dso__build_id_equal: a 20-byte WANT may have trailing zeros beyond GOT. */
static bool build_id_equal(const u8 *want, size_t want_size, const u8 *got, size_t got_size)
{
	if (want_size > got_size && want_size == BUILD_ID_SIZE) {
		for (size_t i = got_size; i < want_size; i++)
			if (want[i])
				return false;
		return !memcmp(want, got, got_size);
	}
	return want_size == got_size && !memcmp(want, got, want_size);
}

int symsrc__init(struct symsrc *ss, const char *name, const u8 *bid, size_t bid_size)
{
	int err = EINVAL;

	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	/* libelf refuses only a version it does not know; it knows its own */
	if (elf_version(EV_CURRENT) == EV_NONE) {
		errno = EINVAL;
		return -1;
	}
	ss->fd = open(name, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return -1;
	errno = 0;	/* libelf says nothing of why it failed; malloc's ENOMEM tells */
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->elf) {
		if (errno == ENOMEM)
			err = ENOMEM;
		goto fail;
	}
	if (elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		goto fail;
	if (bid_size) {
		u8 got[BUILD_ID_SIZE];
		int n = elf_read_build_id(ss->elf, got, sizeof(got), &ss->nomem);

		if (ss->nomem)
			goto nomem;
		if (n <= 0 || !build_id_equal(bid, bid_size, got,
					      (size_t)n < sizeof(got) ? (size_t)n : sizeof(got)))
			goto fail;
	}
	ss->symtab = elf_section_by_name(ss->elf, &ss->symshdr, ".symtab", NULL, &ss->nomem);
	if (ss->symtab && ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = elf_section_by_name(ss->elf, &ss->dynshdr, ".dynsym", &ss->dynsym_idx,
					 &ss->nomem);
	if (ss->dynsym && ss->dynshdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	if (ss->nomem)
		goto nomem;
	return 0;
nomem:
	err = ENOMEM;
fail:
	symsrc__destroy(ss);
	errno = err;
	return -1;
}

void symsrc__destroy(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* The kinds of symbol perf keeps: functions (IFUNCs too), data objects, and labels (below). */
static bool elf_sym__is_function(const GElf_Sym *sym)
{
	return (GELF_ST_TYPE(sym->st_info) == STT_FUNC ||
		GELF_ST_TYPE(sym->st_info) == STT_GNU_IFUNC) &&
	       sym->st_name && sym->st_shndx != SHN_UNDEF;
}

static bool elf_sym__is_object(const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_OBJECT && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF;
}

static bool elf_sym__is_label(const GElf_Sym *sym)
{
	u8 vis = GELF_ST_VISIBILITY(sym->st_other);

	return GELF_ST_TYPE(sym->st_info) == STT_NOTYPE && sym->st_name &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

/* The loadable segments of a file, read once: a symbol's segment is looked up in them. */
struct load_segs {
	GElf_Phdr *ph;
	size_t nr;
};

static int load_segs__read(struct load_segs *segs, Elf *elf, bool *nomem)
{
	size_t n;

	segs->ph = NULL;
	segs->nr = 0;
	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	segs->ph = malloc(n * sizeof(*segs->ph));
	if (!segs->ph)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr *ph = &segs->ph[segs->nr];

		errno = 0;
		if (failed(!gelf_getphdr(elf, (int)i, ph), nomem) || ph->p_type != PT_LOAD ||
		    !(ph->p_memsz > ph->p_filesz ? ph->p_memsz : ph->p_filesz))
			continue;
		segs->nr++;
	}
	return 0;
}

/* perf's elf_read_program_header: the first loadable segment holding VADDR, or NULL. */
static const GElf_Phdr *load_segs__find(const struct load_segs *segs, u64 vaddr)
{
	for (size_t i = 0; i < segs->nr; i++) {
		const GElf_Phdr *ph = &segs->ph[i];
		u64 sz = ph->p_memsz > ph->p_filesz ? ph->p_memsz : ph->p_filesz;

		if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < sz)
			return ph;
	}
	return NULL;
}

/* A file's section headers, read once (perf reads one per symbol). */
struct sec_headers {
	GElf_Shdr *sh;			/* NULL where unreadable: sh_type SHT_NULL */
	size_t nr, strndx;
};

static int sec_headers__read(struct sec_headers *h, Elf *elf, bool *nomem)
{
	Elf_Scn *sec = NULL;

	h->sh = NULL;
	h->nr = 0;
	if (elf_getshdrnum(elf, &h->nr) || elf_getshdrstrndx(elf, &h->strndx) || !h->nr)
		return h->nr = 0, 0;
	h->sh = calloc(h->nr, sizeof(*h->sh));
	if (!h->sh)
		return -1;
	while ((sec = elf_nextscn(elf, sec)) != NULL) {
		size_t i = elf_ndxscn(sec);

		errno = 0;
		if (i < h->nr && failed(!gelf_getshdr(sec, &h->sh[i]), nomem))
			memset(&h->sh[i], 0, sizeof(h->sh[i]));
	}
	return 0;
}

/*
 * The symbols of SYMS_SS's table (.symtab, else .dynsym) into L, at file
 * offsets through RUNTIME_SS's program headers. 0 or -1 (errno).
 */
static int load_table(struct sym_list *l, struct symsrc *syms_ss, struct symsrc *runtime_ss)
{
	Elf_Scn *sec = syms_ss->symtab;
	GElf_Shdr shdr = syms_ss->symshdr;
	struct sec_headers hs = { 0 }, hr = { 0 };
	struct load_segs segs = { 0 };
	Elf_Data *syms, *strs;
	Elf_Scn *str_sec;
	const Elf64_Sym *sym64 = NULL;
	bool nomem = false;
	int ret = -1;
	size_t nr;

	if (!sec) {
		sec = syms_ss->dynsym;
		shdr = syms_ss->dynshdr;
	}
	if (!sec || !shdr.sh_entsize)
		return 0;
	errno = 0;
	syms = elf_getdata(sec, NULL);
	str_sec = elf_getscn(syms_ss->elf, shdr.sh_link);
	strs = str_sec ? elf_getdata(str_sec, NULL) : NULL;
	if (!syms || !strs || !strs->d_size) {
		if (errno != ENOMEM)
			errno = EINVAL;
		return -1;
	}
	if (sec_headers__read(&hs, syms_ss->elf, &nomem) ||
	    sec_headers__read(&hr, runtime_ss->elf, &nomem) ||
	    load_segs__read(&segs, runtime_ss->elf, &nomem) || nomem)
		goto nomem;
	nr = shdr.sh_size / shdr.sh_entsize;
	if (nr > syms->d_size / shdr.sh_entsize)
		nr = syms->d_size / shdr.sh_entsize;
	/* libelf gives a 64-bit file's symbols in memory order: read them in place */
	if (gelf_getclass(syms_ss->elf) == ELFCLASS64 && syms->d_type == ELF_T_SYM &&
	    shdr.sh_entsize == sizeof(Elf64_Sym))
		sym64 = syms->d_buf;
	/*
	 * The names are the string table's: one copy of it, NUL-terminated at
	 * its end, holds them all (a symbol names its offset there); the PLT's
	 * names are added after it.
	 */
	if (strs->d_size >= UINT32_MAX)
		goto einval;
	l->names = malloc(strs->d_size + 1);
	if (!l->names)
		goto nomem;
	memcpy(l->names, strs->d_buf, strs->d_size);
	l->names[strs->d_size] = '\0';
	l->names_len = l->names_cap = strs->d_size + 1;
	/* room for every symbol at once: no copying as the list grows */
	l->s = malloc((nr ? nr : 1) * sizeof(*l->s));
	if (!l->s)
		goto nomem;
	l->cap = nr ? nr : 1;
	for (size_t i = 0; i < nr; i++) {
		const struct sec_headers *h = &hs;
		const GElf_Phdr *ph;
		const GElf_Shdr *sh;
		GElf_Sym sym;
		bool label;

		if (sym64)
			sym = sym64[i];
		else if (!gelf_getsym(syms, (int)i, &sym))
			continue;
		label = elf_sym__is_label(&sym);
		if (!label && !elf_sym__is_function(&sym) && !elf_sym__is_object(&sym))
			continue;
		/* SHN_ABS and the other special indexes name no section: such a symbol is no code */
		if (sym.st_shndx >= hs.nr || hs.sh[sym.st_shndx].sh_type == SHT_NULL)
			continue;
		sh = &hs.sh[sym.st_shndx];
		/* a debug file's sections hold no bytes: the runtime file's header tells */
		if (sh->sh_type == SHT_NOBITS) {
			if (sym.st_shndx >= hr.nr || hr.sh[sym.st_shndx].sh_type == SHT_NULL)
				continue;
			h = &hr;
			sh = &hr.sh[sym.st_shndx];
		}
		if (label) {
			const char *sec_name;

			errno = 0;
			sec_name = elf_strptr(h == &hs ? syms_ss->elf : runtime_ss->elf, h->strndx,
					      sh->sh_name);
			if (failed(!sec_name, &nomem) && nomem)
				goto nomem;
			if (!sec_name || (!strstr(sec_name, "text") && !strstr(sec_name, "data")))
				continue;
		}
		ph = load_segs__find(&segs, sym.st_value);
		if (!ph || sym.st_name >= strs->d_size)
			continue;
		if (sym_list__push(l, sym.st_value - (ph->p_vaddr - ph->p_offset), sym.st_size,
				   GELF_ST_BIND(sym.st_info), sym.st_name))
			goto nomem;
	}
	ret = 0;
	goto out;
einval:
	errno = EINVAL;
	goto out;
nomem:
	errno = ENOMEM;
out:
	free(hs.sh);
	free(hr.sh);
	free(segs.ph);
	return ret;
}

/* A zero-sized symbol reaches to the next one; the last, to the page after its own. */
static void symbols__fixup_end(struct sym_list *l)
{
	for (size_t i = 1; i < l->nr; i++)
		if (l->s[i - 1].end == l->s[i - 1].start)
			l->s[i - 1].end = l->s[i].start;
	if (l->nr && l->s[l->nr - 1].end == l->s[l->nr - 1].start) {
		struct elf_symbol *last = &l->s[l->nr - 1];

		last->end = (last->start + PAGE_4K - 1) / PAGE_4K * PAGE_4K + PAGE_4K;
	}
}

static size_t prefix_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Of two symbols at one address, whether perf keeps A (else B). */
static bool choose_first(const struct sym_list *l, const struct elf_symbol *a,
			 const struct elf_symbol *b)
{
	u64 la = a->end - a->start, lb = b->end - b->start;
	size_t ua, ub, na, nb;

	if (!la != !lb)			/* one with a size */
		return la != 0;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))	/* not weak */
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))	/* global */
		return a->binding == STB_GLOBAL;
	ua = prefix_underscores(l->names + a->name);
	ub = prefix_underscores(l->names + b->name);
	if (ua != ub)			/* fewer leading underscores */
		return ua < ub;
	na = strlen(l->names + a->name);
	nb = strlen(l->names + b->name);
	return na >= nb;		/* the longer name; on a tie the first */
}

static void symbols__fixup_duplicate(struct sym_list *l)
{
	size_t out = 0;

	for (size_t i = 0; i < l->nr; i++) {
		if (out && l->s[out - 1].start == l->s[i].start) {
			/* the loser's name stays in the block, unused */
			if (!choose_first(l, &l->s[out - 1], &l->s[i]))
				l->s[out - 1] = l->s[i];
			continue;
		}
		l->s[out++] = l->s[i];
	}
	l->nr = out;
}

/*
 * "NAME@plt" for each entry of SS's .rela.plt (or .rel.plt), one .plt
 * entry each after the header, in relocation order, as perf 6.1 lays them
 * out for x86 (an entry and the header are .plt's sh_entsize). 0 or -1
 * (ENOMEM); a file without them adds none.
 */
static int dso__synthesize_plt_symbols(struct sym_list *l, struct symsrc *ss)
{
	GElf_Shdr shdr_rel, shdr_plt;
	Elf_Data *reldata, *syms;
	bool nomem = false;
	Elf_Scn *rel;
	u64 off, entsize;
	size_t nr;
	bool rela = true;

	if (!ss->dynsym)
		return 0;
	rel = elf_section_by_name(ss->elf, &shdr_rel, ".rela.plt", NULL, &nomem);
	if (!rel) {
		rel = elf_section_by_name(ss->elf, &shdr_rel, ".rel.plt", NULL, &nomem);
		rela = false;
	}
	if (!rel || shdr_rel.sh_link != ss->dynsym_idx || !shdr_rel.sh_entsize ||
	    !elf_section_by_name(ss->elf, &shdr_plt, ".plt", NULL, &nomem))
		goto out;
	errno = 0;
	reldata = elf_getdata(rel, NULL);
	failed(!reldata, &nomem);
	errno = 0;
	syms = elf_getdata(ss->dynsym, NULL);
	if (failed(!syms, &nomem) || !reldata)
		goto out;
	nr = shdr_rel.sh_size / shdr_rel.sh_entsize;
	/* a damaged header may claim more than the section holds */
	if (nr > reldata->d_size / shdr_rel.sh_entsize)
		nr = reldata->d_size / shdr_rel.sh_entsize;
	entsize = shdr_plt.sh_entsize;
	off = shdr_plt.sh_offset + entsize;
	for (size_t i = 0; i < nr; i++, off += entsize) {
		const char *name;
		char *demangled;
		GElf_Rela ra;
		int ret;
		GElf_Rel r;
		GElf_Sym sym;
		u64 info;

		if (rela ? !gelf_getrela(reldata, (int)i, &ra) : !gelf_getrel(reldata, (int)i, &r))
			continue;
		info = rela ? ra.r_info : r.r_info;
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
			continue;
		errno = 0;
		name = elf_strptr(ss->elf, ss->dynshdr.sh_link, sym.st_name);
		if (failed(!name, &nomem) && nomem)
			goto out;
		demangled = name ? demangle_sym(name) : NULL;
		ret = sym_list__add(l, off, entsize, STB_GLOBAL, demangled ? demangled : name ? name : "",
				    "@plt");
		free(demangled);
		if (ret) {
			nomem = true;
			goto out;
		}
	}
out:
	if (nomem) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int dso__load_sym(struct perf_map *table, struct symsrc *syms_ss, struct symsrc *runtime_ss)
{
	struct sym_list l = { 0 };
	size_t nr;

	table->syms = NULL;
	table->nr = 0;
	table->strings = NULL;
	if (load_table(&l, syms_ss, runtime_ss))
		goto fail;
	if (!l.nr) {
		sym_list__free(&l);
		return 0;
	}
	if (sym_list__sort(&l))
		goto nomem;
	symbols__fixup_end(&l);
	symbols__fixup_duplicate(&l);
	/* perf adds the PLT's entries afterwards, beside the others, untouched by the fix-ups */
	nr = l.nr;
	if (dso__synthesize_plt_symbols(&l, runtime_ss))
		goto fail;
	if (l.nr != nr && sym_list__sort(&l))
		goto nomem;
	table->syms = malloc(l.nr * sizeof(*table->syms));
	if (!table->syms)
		goto nomem;
	for (size_t i = 0; i < l.nr; i++)
		table->syms[i] = (struct perf_map_sym){ .start = l.s[i].start,
							.size = l.s[i].end - l.s[i].start,
							.name = l.names + l.s[i].name };
	table->nr = l.nr;
	table->strings = l.names;
	free(l.s);
	return 0;
nomem:
	errno = ENOMEM;
fail:
	sym_list__free(&l);
	return -1;
}

int filename__read_debuglink(const char *path, char *buf, size_t size)
{
	struct symsrc ss;
	GElf_Shdr sh;
	Elf_Data *d = NULL;
	Elf_Scn *sec;
	int ret = -1;

	if (symsrc__init(&ss, path, NULL, 0))
		return -1;
	sec = elf_section_by_name(ss.elf, &sh, ".gnu_debuglink", NULL, &ss.nomem);
	errno = 0;
	if (sec)
		d = elf_getdata(sec, NULL);
	failed(sec && !d, &ss.nomem);
	if (d && d->d_size && size) {
		size_t n = strnlen(d->d_buf, d->d_size);

		if (n < size && n) {
			memcpy(buf, d->d_buf, n);
			buf[n] = '\0';
			ret = 0;
		}
	}
	bool nomem = ss.nomem;

	symsrc__destroy(&ss);
	if (nomem) {
		errno = ENOMEM;
		return -1;
	}
	errno = EINVAL;
	return ret;
}
