// SPDX-License-Identifier: GPL-2.0-only
/*
 * A DSO's symbols as perf 6.1 reads them (tools/perf/util/symbol_elf.c),
 * from ELF files written here: the .symtab before the .dynsym, addresses
 * turned into file offsets by the loadable segment, functions, objects
 * anywhere and labels in text or data sections kept, the rest not, a sizeless symbol reaching to
 * the next (the last to the page after its own), of symbols at one
 * address the one perf prefers, "NAME@plt" for each PLT slot when only
 * the .dynsym is there, files of another build refused, and the name a
 * .gnu_debuglink gives.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "core/kernel.h"
#include "tools/perf/util/symbol_elf.h"

/* the loadable segment maps the whole file at this address: offset = value - BASE */
#define BASE	0x400000ull

enum { S_TEXT = 1, S_MISC, S_BSS, S_SYMTAB, S_STRTAB, S_DYNSYM, S_DYNSTR, S_RELAPLT, S_PLT,
       S_NOTE, S_DEBUGLINK, S_SHSTRTAB, S_NR };

struct tsym {
	const char *name;
	u64 value, size;
	u8 type, bind, vis;
	u16 shndx;
};

struct spec {
	const struct tsym *syms;	/* .symtab, absent when NULL */
	size_t nr_syms;
	const struct tsym *dyn;		/* .dynsym */
	size_t nr_dyn;
	const u32 *plt_relocs;		/* .dynsym index of each .rela.plt entry */
	size_t nr_plt;
	const u8 *bid;			/* the build-id note's bytes */
	size_t bid_size;
	const char *debuglink;
};

static char dir[64];

struct strtab {
	char buf[4096];
	size_t len;
};

static u32 str_add(struct strtab *t, const char *s)
{
	u32 off = (u32)t->len;

	assert_true(t->len + strlen(s) + 1 <= sizeof(t->buf));
	strcpy(t->buf + t->len, s);
	t->len += strlen(s) + 1;
	return off;
}

static Elf_Scn *add_scn(Elf *e, struct strtab *sh, const char *name, u32 type, u64 flags,
			u64 addr, const void *buf, size_t size, u64 entsize, u32 link)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d;
	GElf_Shdr shdr;

	assert_non_null(scn);
	d = elf_newdata(scn);
	assert_non_null(d);
	d->d_buf = (void *)buf;
	d->d_size = size;
	d->d_type = ELF_T_BYTE;
	d->d_align = 8;
	assert_non_null(gelf_getshdr(scn, &shdr));
	shdr.sh_name = str_add(sh, name);
	shdr.sh_type = type;
	shdr.sh_flags = flags;
	shdr.sh_addr = addr;
	shdr.sh_entsize = entsize;
	shdr.sh_link = link;
	shdr.sh_addralign = 8;
	assert_true(gelf_update_shdr(scn, &shdr));
	return scn;
}

static void put_syms(Elf64_Sym *out, struct strtab *str, const struct tsym *syms, size_t nr)
{
	memset(out, 0, sizeof(*out));			/* symbol 0 */
	for (size_t i = 0; i < nr; i++) {
		Elf64_Sym *s = &out[i + 1];

		s->st_name = syms[i].name ? str_add(str, syms[i].name) : 0;
		s->st_value = syms[i].value;
		s->st_size = syms[i].size;
		s->st_info = (u8)ELF64_ST_INFO(syms[i].bind, syms[i].type);
		s->st_other = syms[i].vis;
		s->st_shndx = syms[i].shndx;
	}
}

/* Write SPEC as DIR/NAME; its path in PATH. */
static void write_elf(const struct spec *spec, const char *name, char *path, size_t len)
{
	static u8 text[0x400], misc[0x40], plt[16 * 8];
	struct strtab sh = { .len = 1 }, str = { .len = 1 }, dynstr = { .len = 1 };
	Elf64_Sym syms[32], dyn[16];
	Elf64_Rela rela[8];
	u8 note[64];
	char link[64];
	GElf_Ehdr eh;
	GElf_Phdr ph;
	Elf *e;
	int fd;

	snprintf(path, len, "%s/%s", dir, name);
	assert_true(spec->nr_syms < ARRAY_SIZE(syms) && spec->nr_dyn < ARRAY_SIZE(dyn) &&
		    spec->nr_plt <= ARRAY_SIZE(rela));
	put_syms(syms, &str, spec->syms, spec->nr_syms);
	put_syms(dyn, &dynstr, spec->dyn, spec->nr_dyn);
	for (size_t i = 0; i < spec->nr_plt; i++)
		rela[i] = (Elf64_Rela){ .r_offset = 0x3000 + 8 * i,
					.r_info = ELF64_R_INFO(spec->plt_relocs[i], 7) };
	/* the GNU build-id note: namesz 4, descsz, type 3, "GNU\0", the id */
	memset(note, 0, sizeof(note));
	note[0] = 4;
	note[4] = (u8)spec->bid_size;
	note[8] = NT_GNU_BUILD_ID;
	memcpy(note + 12, "GNU", 4);
	if (spec->bid_size)
		memcpy(note + 16, spec->bid, spec->bid_size);
	memset(link, 0, sizeof(link));
	if (spec->debuglink)
		strcpy(link, spec->debuglink);

	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	assert_non_null(e);
	assert_non_null(gelf_newehdr(e, ELFCLASS64));
	assert_non_null(gelf_newphdr(e, 1));
	add_scn(e, &sh, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, BASE + 0x100, text,
		sizeof(text), 0, 0);
	add_scn(e, &sh, ".misc", SHT_PROGBITS, SHF_ALLOC, BASE + 0x600, misc, sizeof(misc), 0, 0);
	add_scn(e, &sh, ".bss", SHT_NOBITS, SHF_ALLOC | SHF_WRITE, BASE + 0x700, NULL, 0x40, 0, 0);
	add_scn(e, &sh, spec->syms ? ".symtab" : ".comment", spec->syms ? SHT_SYMTAB : SHT_PROGBITS,
		0, 0, syms, (spec->nr_syms + 1) * sizeof(syms[0]), sizeof(syms[0]), S_STRTAB);
	add_scn(e, &sh, ".strtab", SHT_STRTAB, 0, 0, str.buf, str.len, 0, 0);
	add_scn(e, &sh, ".dynsym", SHT_DYNSYM, SHF_ALLOC, 0, dyn,
		(spec->nr_dyn + 1) * sizeof(dyn[0]), sizeof(dyn[0]), S_DYNSTR);
	add_scn(e, &sh, ".dynstr", SHT_STRTAB, SHF_ALLOC, 0, dynstr.buf, dynstr.len, 0, 0);
	add_scn(e, &sh, ".rela.plt", SHT_RELA, SHF_ALLOC, 0, rela, spec->nr_plt * sizeof(rela[0]),
		sizeof(rela[0]), S_DYNSYM);
	add_scn(e, &sh, ".plt", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, plt, sizeof(plt), 16, 0);
	add_scn(e, &sh, ".note.gnu.build-id", SHT_NOTE, SHF_ALLOC, 0, note,
		spec->bid_size ? 16 + ((spec->bid_size + 3) & ~3ul) : 0, 0, 0);
	add_scn(e, &sh, ".gnu_debuglink", SHT_PROGBITS, 0, 0, link,
		spec->debuglink ? 64 : 0, 0, 0);
	str_add(&sh, ".shstrtab");
	add_scn(e, &sh, ".shstrtab", SHT_STRTAB, 0, 0, sh.buf, sizeof(sh.buf), 0, 0);
	assert_non_null(gelf_getehdr(e, &eh));
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_shstrndx = S_SHSTRTAB;
	assert_true(gelf_update_ehdr(e, &eh));
	/* .shstrtab's name is its last string: its size is fixed above, big enough */
	assert_true(elf_update(e, ELF_C_NULL) > 0);
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_vaddr = ph.p_paddr = BASE;
	ph.p_filesz = ph.p_memsz = 0x10000;
	ph.p_align = 0x1000;
	assert_true(gelf_update_phdr(e, 0, &ph));
	assert_true(elf_update(e, ELF_C_WRITE) > 0);
	elf_end(e);
	close(fd);
}

static void load(const char *path, struct perf_map *table)
{
	struct symsrc ss;

	assert_int_equal(symsrc__init(&ss, path, NULL, 0), 0);
	assert_int_equal(dso__load_sym(table, &ss, &ss), 0);
	symsrc__destroy(&ss);
}

/* The symbol named NAME in TABLE, or NULL. */
static const struct perf_map_sym *by_name(const struct perf_map *table, const char *name)
{
	for (size_t i = 0; i < table->nr; i++)
		if (!strcmp(table->syms[i].name, name))
			return &table->syms[i];
	return NULL;
}

#define FUNC(n, v, s)	{ n, BASE + (v), s, STT_FUNC, STB_GLOBAL, STV_DEFAULT, S_TEXT }

static void symtab_kinds_offsets_and_ends(void **state)
{
	static const struct tsym syms[] = {
		FUNC("f_sized", 0x100, 0x20),
		FUNC("f_unsized", 0x140, 0),		/* reaches f_after */
		FUNC("f_after", 0x180, 0x10),
		{ "an_object", BASE + 0x1a0, 8, STT_OBJECT, STB_GLOBAL, STV_DEFAULT, S_TEXT },
		{ "an_ifunc", BASE + 0x1c0, 0x10, STT_GNU_IFUNC, STB_GLOBAL, STV_DEFAULT, S_TEXT },
		{ "a_label", BASE + 0x1e0, 0x10, STT_NOTYPE, STB_GLOBAL, STV_DEFAULT, S_TEXT },
		{ "hidden_label", BASE + 0x200, 0x10, STT_NOTYPE, STB_GLOBAL, STV_HIDDEN, S_TEXT },
		{ "misc_label", BASE + 0x600, 0x10, STT_NOTYPE, STB_GLOBAL, STV_DEFAULT, S_MISC },
		{ "bss_label", BASE + 0x700, 0x10, STT_NOTYPE, STB_GLOBAL, STV_DEFAULT, S_BSS },
		{ "bss_object", BASE + 0x720, 0x10, STT_OBJECT, STB_GLOBAL, STV_DEFAULT, S_BSS },
		{ "undefined", 0, 0, STT_FUNC, STB_GLOBAL, STV_DEFAULT, SHN_UNDEF },
		{ "GLIBC_2.2.5", 0, 0, STT_OBJECT, STB_GLOBAL, STV_DEFAULT, SHN_ABS },
		{ "a_section", BASE + 0x100, 0, STT_SECTION, STB_LOCAL, STV_DEFAULT, S_TEXT },
		{ "outside", 0x10000000, 0x10, STT_FUNC, STB_GLOBAL, STV_DEFAULT, S_TEXT },
		FUNC("f_last", 0x800, 0),		/* to the page after its own */
	};
	static const struct tsym dyn[] = { FUNC("only_in_dynsym", 0x240, 0x10) };
	struct spec spec = { syms, ARRAY_SIZE(syms), dyn, ARRAY_SIZE(dyn) };
	struct perf_map t;
	char path[128];
	static const struct {
		const char *name;
		u64 start, size;
	} want[] = {
		{ "f_sized", 0x100, 0x20 }, { "f_unsized", 0x140, 0x40 }, { "f_after", 0x180, 0x10 },
		{ "an_object", 0x1a0, 8 }, { "an_ifunc", 0x1c0, 0x10 }, { "a_label", 0x1e0, 0x10 },
		{ "bss_object", 0x720, 0x10 }, { "f_last", 0x800, 0x1800 },
	};

	(void)state;
	write_elf(&spec, "kinds", path, sizeof(path));
	load(path, &t);
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct perf_map_sym *s = by_name(&t, want[i].name);

		if (!s)
			fail_msg("no %s", want[i].name);
		assert_int_equal(s->start, want[i].start);
		assert_int_equal(s->size, want[i].size);
	}
	assert_int_equal(t.nr, ARRAY_SIZE(want));
	for (size_t i = 1; i < t.nr; i++)
		assert_true(t.syms[i - 1].start <= t.syms[i].start);
	/* looked up at file offsets, as map__map_ip gives them */
	assert_string_equal(perf_map__find(&t, 0x17f)->name, "f_unsized");
	assert_null(perf_map__find(&t, 0x120));
	perf_map__exit(&t);
}

static void one_symbol_per_address_as_perf_chooses(void **state)
{
	static const struct tsym syms[] = {
		{ "weak_one", BASE + 0x100, 0x10, STT_FUNC, STB_WEAK, STV_DEFAULT, S_TEXT },
		FUNC("global_one", 0x100, 0x10),
		FUNC("__under", 0x120, 0x10),
		FUNC("under", 0x120, 0x10),
		FUNC("abc", 0x140, 0x10),
		FUNC("ab", 0x140, 0x10),
		FUNC("unsized", 0x160, 0),
		{ "sized_local", BASE + 0x160, 0x10, STT_FUNC, STB_LOCAL, STV_DEFAULT, S_TEXT },
		{ "loc", BASE + 0x180, 0x10, STT_FUNC, STB_LOCAL, STV_DEFAULT, S_TEXT },
		FUNC("glob", 0x180, 0x10),
		FUNC("aa", 0x1a0, 0x10),
		FUNC("bb", 0x1a0, 0x10),
	};
	static const char *const keep[] = { "global_one", "under", "abc", "sized_local", "glob",
					    "aa" };
	struct spec spec = { syms, ARRAY_SIZE(syms), NULL, 0 };
	struct perf_map t;
	char path[128];

	(void)state;
	write_elf(&spec, "dups", path, sizeof(path));
	load(path, &t);
	assert_int_equal(t.nr, ARRAY_SIZE(keep));
	for (size_t i = 0; i < ARRAY_SIZE(keep); i++)
		assert_string_equal(t.syms[i].name, keep[i]);
	perf_map__exit(&t);
}

static void dynsym_and_plt_without_symtab(void **state)
{
	static const struct tsym dyn[] = {
		{ "puts", 0, 0, STT_FUNC, STB_GLOBAL, STV_DEFAULT, SHN_UNDEF },
		FUNC("exported", 0x100, 0x20),
		{ "malloc", 0, 0, STT_FUNC, STB_GLOBAL, STV_DEFAULT, SHN_UNDEF },
	};
	static const u32 relocs[] = { 1, 3, 0 };	/* puts, malloc, none (an IRELATIVE's) */
	struct spec spec = { NULL, 0, dyn, ARRAY_SIZE(dyn), relocs, ARRAY_SIZE(relocs) };
	const struct perf_map_sym *p, *m, *none;
	struct perf_map t;
	struct symsrc ss;
	GElf_Shdr plt;
	char path[128];

	(void)state;
	write_elf(&spec, "plt", path, sizeof(path));
	assert_int_equal(symsrc__init(&ss, path, NULL, 0), 0);
	assert_false(symsrc__has_symtab(&ss));
	assert_true(symsrc__possibly_runtime(&ss));
	assert_non_null(gelf_getshdr(elf_getscn(ss.elf, S_PLT), &plt));
	assert_int_equal(dso__load_sym(&t, &ss, &ss), 0);
	symsrc__destroy(&ss);
	assert_int_equal(t.nr, 4);
	assert_non_null(by_name(&t, "exported"));
	p = by_name(&t, "puts@plt");
	m = by_name(&t, "malloc@plt");
	none = by_name(&t, "@plt");
	assert_non_null(p);
	assert_non_null(m);
	assert_non_null(none);
	/* after the PLT's header, one 16-byte slot each, in relocation order */
	assert_int_equal(p->start, plt.sh_offset + 16);
	assert_int_equal(m->start, plt.sh_offset + 32);
	assert_int_equal(none->start, plt.sh_offset + 48);
	assert_int_equal(p->size, 16);
	perf_map__exit(&t);
}

static void another_build_is_refused(void **state)
{
	static const u8 id[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	u8 want[20] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct spec spec = { .bid = id, .bid_size = sizeof(id), .debuglink = "kept.debug" };
	struct symsrc ss;
	char path[128], link[64];

	(void)state;
	write_elf(&spec, "bid", path, sizeof(path));
	assert_int_equal(symsrc__init(&ss, path, id, sizeof(id)), 0);
	symsrc__destroy(&ss);
	/* perf's old 20-byte build-ids: trailing zeros match a shorter note */
	assert_int_equal(symsrc__init(&ss, path, want, sizeof(want)), 0);
	symsrc__destroy(&ss);
	want[19] = 1;
	assert_int_equal(symsrc__init(&ss, path, want, sizeof(want)), -1);
	assert_int_equal(errno, EINVAL);
	want[19] = 0;
	want[0] = 9;
	assert_int_equal(symsrc__init(&ss, path, want, 8), -1);
	assert_int_equal(filename__read_debuglink(path, link, sizeof(link)), 0);
	assert_string_equal(link, "kept.debug");
	assert_int_equal(filename__read_debuglink(path, link, 4), -1);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(symsrc__init(&ss, path, NULL, 0), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(symsrc__init(&ss, "/proc/self/status", NULL, 0), -1);
	assert_int_equal(errno, EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(symtab_kinds_offsets_and_ends),
		cmocka_unit_test(one_symbol_per_address_as_perf_chooses),
		cmocka_unit_test(dynsym_and_plt_without_symtab),
		cmocka_unit_test(another_build_is_refused),
	};
	int ret;

	if (scratch_dir_make(dir, sizeof(dir), "symbol_elf"))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	scratch_dir_remove(dir);
	return ret;
}
