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

#include "tools/perf/util/symbol_elf.h"

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC	10
#endif

#define BUILD_ID_SIZE	20
#define PAGE_4K		4096ull

/* A symbol while the table is built; END is exclusive, START == END: no size. */
struct elf_symbol {
	u64 start, end;
	u32 order;		/* when it was added: of equal starts, the earlier comes first */
	u8 binding;
	char *name;
};

struct sym_list {
	struct elf_symbol *s;
	size_t nr, cap;
};

static int sym_list__add(struct sym_list *l, u64 start, u64 size, u8 binding, char *name)
{
	if (!name)
		return -1;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		struct elf_symbol *s = realloc(l->s, cap * sizeof(*s));

		if (!s) {
			free(name);
			return -1;
		}
		l->s = s;
		l->cap = cap;
	}
	l->s[l->nr] = (struct elf_symbol){ .start = start, .end = start + size,
					   .order = (u32)l->nr, .binding = binding, .name = name };
	l->nr++;
	return 0;
}

static void sym_list__free(struct sym_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		free(l->s[i].name);
	free(l->s);
	memset(l, 0, sizeof(*l));
}

static int elf_symbol_cmp(const void *a, const void *b)
{
	const struct elf_symbol *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static Elf_Scn *elf_section_by_name(Elf *elf, GElf_Shdr *shp, const char *name, size_t *idx)
{
	Elf_Scn *sec = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((sec = elf_nextscn(elf, sec)) != NULL) {
		const char *str;

		if (!gelf_getshdr(sec, shp))
			continue;
		str = elf_strptr(elf, shstrndx, shp->sh_name);
		if (str && !strcmp(name, str)) {
			if (idx)
				*idx = elf_ndxscn(sec);
			return sec;
		}
	}
	return NULL;
}

/* The GNU build-id note's descriptor into BF (SIZE bytes, zero-padded): its length, or -1. */
static int elf_read_build_id(Elf *elf, u8 *bf, size_t size)
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	Elf_Scn *sec = NULL;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Data *d;
	size_t off = 0, name_off, desc_off;

	for (size_t i = 0; i < ARRAY_SIZE(names) && !sec; i++)
		sec = elf_section_by_name(elf, &sh, names[i], NULL);
	if (!sec || !(d = elf_getdata(sec, NULL)))
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
		int n = elf_read_build_id(ss->elf, got, sizeof(got));

		if (n <= 0 || !build_id_equal(bid, bid_size, got,
					      (size_t)n < sizeof(got) ? (size_t)n : sizeof(got)))
			goto fail;
	}
	ss->symtab = elf_section_by_name(ss->elf, &ss->symshdr, ".symtab", NULL);
	if (ss->symtab && ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = elf_section_by_name(ss->elf, &ss->dynshdr, ".dynsym", &ss->dynsym_idx);
	if (ss->dynsym && ss->dynshdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	return 0;
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

/* The loadable segment holding VADDR, in *PHDR: 0, or -1 (none). */
static int elf_read_program_header(Elf *elf, u64 vaddr, GElf_Phdr *phdr)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		u64 sz;

		if (!gelf_getphdr(elf, (int)i, phdr) || phdr->p_type != PT_LOAD)
			continue;
		sz = phdr->p_memsz > phdr->p_filesz ? phdr->p_memsz : phdr->p_filesz;
		if (sz && vaddr >= phdr->p_vaddr && vaddr - phdr->p_vaddr < sz)
			return 0;
	}
	return -1;
}

static char *name_dup(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);
	char *p = malloc(n + m + 1);

	if (p) {
		memcpy(p, name, n);
		memcpy(p + n, suffix, m + 1);
	}
	return p;
}

/*
 * The symbols of SYMS_SS's table (.symtab, else .dynsym) into L, at file
 * offsets through RUNTIME_SS's program headers. 0 or -1 (errno).
 */
static int load_table(struct sym_list *l, struct symsrc *syms_ss, struct symsrc *runtime_ss)
{
	Elf_Scn *sec = syms_ss->symtab;
	GElf_Shdr shdr = syms_ss->symshdr;
	size_t shstrndx_sym, shstrndx_run, nr;
	Elf_Data *syms;

	if (!sec) {
		sec = syms_ss->dynsym;
		shdr = syms_ss->dynshdr;
	}
	if (!sec || !shdr.sh_entsize)
		return 0;
	if (elf_getshdrstrndx(syms_ss->elf, &shstrndx_sym) ||
	    elf_getshdrstrndx(runtime_ss->elf, &shstrndx_run))
		goto einval;
	errno = 0;
	syms = elf_getdata(sec, NULL);
	if (!syms)
		goto fail;
	nr = shdr.sh_size / shdr.sh_entsize;
	for (size_t i = 0; i < nr; i++) {
		Elf *sec_elf = syms_ss->elf;
		size_t sec_strndx = shstrndx_sym;
		const char *name, *sec_name;
		GElf_Shdr sh;
		GElf_Phdr ph;
		GElf_Sym sym;
		Elf_Scn *s;
		bool label;

		if (!gelf_getsym(syms, (int)i, &sym))
			continue;
		label = elf_sym__is_label(&sym);
		if (!label && !elf_sym__is_function(&sym) && !elf_sym__is_object(&sym))
			continue;
		/* SHN_ABS and the other special indexes name no section: such a symbol is no code */
		s = elf_getscn(sec_elf, sym.st_shndx);
		if (!s || !gelf_getshdr(s, &sh))
			continue;
		/* a debug file's sections hold no bytes: the runtime file's header tells */
		if (sh.sh_type == SHT_NOBITS) {
			sec_elf = runtime_ss->elf;
			sec_strndx = shstrndx_run;
			s = elf_getscn(sec_elf, sym.st_shndx);
			if (!s || !gelf_getshdr(s, &sh))
				continue;
		}
		if (label) {
			sec_name = elf_strptr(sec_elf, sec_strndx, sh.sh_name);
			if (!sec_name || (!strstr(sec_name, "text") && !strstr(sec_name, "data")))
				continue;
		}
		if (elf_read_program_header(runtime_ss->elf, sym.st_value, &ph))
			continue;
		name = elf_strptr(syms_ss->elf, shdr.sh_link, sym.st_name);
		if (!name)
			continue;
		if (sym_list__add(l, sym.st_value - (ph.p_vaddr - ph.p_offset), sym.st_size,
				  GELF_ST_BIND(sym.st_info), name_dup(name, "")))
			goto nomem;
	}
	return 0;
nomem:
	errno = ENOMEM;
	return -1;
fail:
	if (errno == ENOMEM)
		return -1;
einval:
	errno = EINVAL;
	return -1;
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
static bool choose_first(const struct elf_symbol *a, const struct elf_symbol *b)
{
	u64 la = a->end - a->start, lb = b->end - b->start;
	size_t ua, ub, na, nb;

	if (!la != !lb)			/* one with a size */
		return la != 0;
	if ((a->binding == STB_WEAK) != (b->binding == STB_WEAK))	/* not weak */
		return b->binding == STB_WEAK;
	if ((a->binding == STB_GLOBAL) != (b->binding == STB_GLOBAL))	/* global */
		return a->binding == STB_GLOBAL;
	ua = prefix_underscores(a->name);
	ub = prefix_underscores(b->name);
	if (ua != ub)			/* fewer leading underscores */
		return ua < ub;
	na = strlen(a->name);
	nb = strlen(b->name);
	return na >= nb;		/* the longer name; on a tie the first */
}

static void symbols__fixup_duplicate(struct sym_list *l)
{
	size_t out = 0;

	for (size_t i = 0; i < l->nr; i++) {
		if (out && l->s[out - 1].start == l->s[i].start) {
			if (choose_first(&l->s[out - 1], &l->s[i])) {
				free(l->s[i].name);
			} else {
				free(l->s[out - 1].name);
				l->s[out - 1] = l->s[i];
			}
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
	Elf_Scn *rel;
	u64 off, entsize;
	size_t nr;
	bool rela = true;

	if (!ss->dynsym)
		return 0;
	rel = elf_section_by_name(ss->elf, &shdr_rel, ".rela.plt", NULL);
	if (!rel) {
		rel = elf_section_by_name(ss->elf, &shdr_rel, ".rel.plt", NULL);
		rela = false;
	}
	if (!rel || shdr_rel.sh_link != ss->dynsym_idx || !shdr_rel.sh_entsize ||
	    !elf_section_by_name(ss->elf, &shdr_plt, ".plt", NULL))
		return 0;
	reldata = elf_getdata(rel, NULL);
	syms = elf_getdata(ss->dynsym, NULL);
	if (!reldata || !syms)
		return 0;
	nr = shdr_rel.sh_size / shdr_rel.sh_entsize;
	entsize = shdr_plt.sh_entsize;
	off = shdr_plt.sh_offset + entsize;
	for (size_t i = 0; i < nr; i++, off += entsize) {
		const char *name;
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym sym;
		u64 info;

		if (rela ? !gelf_getrela(reldata, (int)i, &ra) : !gelf_getrel(reldata, (int)i, &r))
			continue;
		info = rela ? ra.r_info : r.r_info;
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
			continue;
		name = elf_strptr(ss->elf, ss->dynshdr.sh_link, sym.st_name);
		if (sym_list__add(l, off, entsize, STB_GLOBAL, name_dup(name ? name : "", "@plt"))) {
			errno = ENOMEM;
			return -1;
		}
	}
	return 0;
}

int dso__load_sym(struct perf_map *table, struct symsrc *syms_ss, struct symsrc *runtime_ss)
{
	struct sym_list l = { 0 };
	size_t nr;

	table->syms = NULL;
	table->nr = 0;
	if (load_table(&l, syms_ss, runtime_ss))
		goto fail;
	if (!l.nr)
		return 0;
	qsort(l.s, l.nr, sizeof(*l.s), elf_symbol_cmp);
	symbols__fixup_end(&l);
	symbols__fixup_duplicate(&l);
	/* perf adds the PLT's entries afterwards, beside the others, untouched by the fix-ups */
	nr = l.nr;
	if (dso__synthesize_plt_symbols(&l, runtime_ss))
		goto fail;
	if (l.nr != nr) {
		for (size_t i = 0; i < l.nr; i++)
			l.s[i].order = (u32)i;
		qsort(l.s, l.nr, sizeof(*l.s), elf_symbol_cmp);
	}
	table->syms = malloc(l.nr * sizeof(*table->syms));
	if (!table->syms) {
		errno = ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < l.nr; i++)
		table->syms[i] = (struct perf_map_sym){ .start = l.s[i].start,
							.size = l.s[i].end - l.s[i].start,
							.name = l.s[i].name };
	table->nr = l.nr;
	free(l.s);
	return 0;
fail:
	sym_list__free(&l);
	return -1;
}

int filename__read_debuglink(const char *path, char *buf, size_t size)
{
	struct symsrc ss;
	GElf_Shdr sh;
	Elf_Data *d;
	Elf_Scn *sec;
	int ret = -1;

	if (symsrc__init(&ss, path, NULL, 0))
		return -1;
	sec = elf_section_by_name(ss.elf, &sh, ".gnu_debuglink", NULL);
	d = sec ? elf_getdata(sec, NULL) : NULL;
	if (d && d->d_size && size) {
		size_t n = strnlen(d->d_buf, d->d_size);

		if (n < size && n) {
			memcpy(buf, d->d_buf, n);
			buf[n] = '\0';
			ret = 0;
		}
	}
	symsrc__destroy(&ss);
	return ret;
}
