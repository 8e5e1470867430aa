// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF images of simulated programs, through libelf (see genelf.h).
 */
#define _GNU_SOURCE	/* memfd_create */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <nettle/sha1.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/testcase.h"
#include "tools/perf/util/genelf.h"

#define PAGE		0x1000ULL
#define EHDR_SIZE	64
#define PHDR_SIZE	56
#define NOTE_OFFSET	(EHDR_SIZE + PHDR_SIZE)
#define NOTE_SIZE	(12 + 4 + GENELF_BUILD_ID_SIZE)	/* nhdr, "GNU\0", the id */

/* Section indices, in file order after the null section. */
enum { SEC_NOTE = 1, SEC_TEXT, SEC_SYMTAB, SEC_STRTAB, SEC_SHSTRTAB, NR_SECS };

static const char shstrtab[] =
	"\0.note.gnu.build-id\0.text\0.symtab\0.strtab\0.shstrtab";
static const unsigned int shstr_off[NR_SECS] = {
	[SEC_NOTE] = 1, [SEC_TEXT] = 20, [SEC_SYMTAB] = 26, [SEC_STRTAB] = 34,
	[SEC_SHSTRTAB] = 42,
};

void genelf__build_id_hex(const u8 *build_id, char out[2 * GENELF_BUILD_ID_SIZE + 1])
{
	for (int i = 0; i < GENELF_BUILD_ID_SIZE; i++)
		sprintf(out + 2 * i, "%02x", build_id[i]);
}

static void sha1_u64(struct sha1_ctx *ctx, u64 v)
{
	u8 b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (u8)(v >> (8 * i));
	sha1_update(ctx, sizeof(b), b);
}

/* The build-id: SHA-1 of what the image says (as ld --build-id=sha1 hashes its output). */
static void compute_build_id(struct genelf_dso *dso)
{
	struct sha1_ctx ctx;

	sha1_init(&ctx);
	sha1_u64(&ctx, dso->text_start);
	sha1_u64(&ctx, dso->text_size);
	sha1_update(&ctx, dso->text_size, dso->code);
	for (size_t i = 0; i < dso->nr_syms; i++) {
		sha1_u64(&ctx, dso->syms[i].addr);
		sha1_u64(&ctx, dso->syms[i].size);
		sha1_update(&ctx, strlen(dso->syms[i].name) + 1, (const u8 *)dso->syms[i].name);
	}
	sha1_digest(&ctx, GENELF_BUILD_ID_SIZE, dso->build_id);
}

static int elf_fail(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "pmusim: cannot build an ELF image: %s: %s", what, elf_errmsg(-1));
	return -1;
}

/* NULL on failure, the reason in ERR. */
static Elf_Scn *add_section(Elf *e, unsigned int idx, u32 type, u64 flags, u64 off, u64 addr,
			    void *buf, size_t size, size_t align, u32 link, u32 info,
			    u64 entsize, Elf_Type dtype, char *err, size_t errlen)
{
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh, *shp;
	int eno, ok;

	/*
	 * elf_newscn() that cannot allocate the section header still
	 * returns the section (elfutils 0.188), half made: the null section
	 * or one elf_newdata() crashes on. Its error number tells.
	 */
	elf_errno();
	scn = elf_newscn(e);
	eno = elf_errno();
	if (eno) {
		snprintf(err, errlen, "pmusim: cannot build an ELF image: a section: %s",
			 elf_errmsg(eno));
		return NULL;
	}
	/*
	 * A section elf_newscn() made whole (no error: not NULL) has its
	 * header, and keeps its first data in itself (elfutils): none of the
	 * calls below allocates, so none fails; test_nomem refuses every
	 * allocation on this path. (NEVER() does not evaluate its argument
	 * in a coverage build: the calls stay outside it.)
	 */
	d = elf_newdata(scn);
	if (NEVER(!d))
		goto fail;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = align;
	d->d_off = 0;
	d->d_version = EV_CURRENT;
	shp = gelf_getshdr(scn, &sh);
	if (NEVER(!shp))
		goto fail;
	sh.sh_name = shstr_off[idx];
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_offset = off;
	sh.sh_addr = addr;
	sh.sh_size = size;
	sh.sh_addralign = align;
	sh.sh_link = link;
	sh.sh_info = info;
	sh.sh_entsize = entsize;
	ok = gelf_update_shdr(scn, &sh);
	if (ALWAYS(ok))
		return scn;
fail:
	elf_fail(err, errlen, "a section");
	return NULL;
}

static u64 align_up(u64 v, u64 a)
{
	return (v + a - 1) / a * a;
}

int genelf__build(struct genelf_dso *dso, char *err, size_t errlen)
{
	u64 text_off = PAGE + (dso->text_start & (PAGE - 1));
	u64 sym_off, str_off, shstr_pos, sh_off;
	Elf64_Sym *syms = NULL;
	u8 note[NOTE_SIZE];
	char *strtab = NULL;
	size_t strsz = 1;
	GElf_Ehdr eh, *ehp;
	GElf_Phdr ph;
	Elf *e = NULL;
	int fd = -1, ret = -1, ok_ehdr, ok_phdr;
	unsigned int version;
	off_t size;
	ssize_t got;

	dso->image = NULL;
	dso->image_size = 0;
	*err = '\0';
	/* libelf refuses only a version it does not know; it knows its own */
	version = elf_version(EV_CURRENT);
	if (NEVER(version == EV_NONE))
		return elf_fail(err, errlen, "elf_version");
	compute_build_id(dso);
	dso->map_start = dso->text_start & ~(PAGE - 1);
	dso->map_pgoff = PAGE;
	dso->map_len = align_up(dso->text_start + dso->text_size, PAGE) - dso->map_start;

	/* the note: namesz 4, descsz 20, NT_GNU_BUILD_ID, "GNU\0", the id */
	memcpy(note, &(u32){ 4 }, 4);
	memcpy(note + 4, &(u32){ GENELF_BUILD_ID_SIZE }, 4);
	memcpy(note + 8, &(u32){ NT_GNU_BUILD_ID }, 4);
	memcpy(note + 12, "GNU", 4);
	memcpy(note + 16, dso->build_id, GENELF_BUILD_ID_SIZE);

	syms = calloc(dso->nr_syms + 1, sizeof(*syms));
	for (size_t i = 0; i < dso->nr_syms; i++)
		strsz += strlen(dso->syms[i].name) + 1;
	strtab = calloc(1, strsz);
	if (!syms || !strtab) {
		snprintf(err, errlen, "pmusim: out of memory");
		goto out;
	}
	strsz = 1;
	for (size_t i = 0; i < dso->nr_syms; i++) {
		const struct genelf_sym *s = &dso->syms[i];

		syms[i + 1].st_name = (u32)strsz;
		syms[i + 1].st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		syms[i + 1].st_shndx = SEC_TEXT;
		syms[i + 1].st_value = text_off + (s->addr - dso->text_start);
		syms[i + 1].st_size = s->size;
		strcpy(strtab + strsz, s->name);
		strsz += strlen(s->name) + 1;
	}
	sym_off = align_up(text_off + dso->text_size, 8);
	str_off = sym_off + (dso->nr_syms + 1) * sizeof(*syms);
	shstr_pos = str_off + strsz;
	sh_off = align_up(shstr_pos + sizeof(shstrtab), 8);

	fd = memfd_create("pmusim-genelf", MFD_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "pmusim: cannot build an ELF image: memfd_create: %s",
			 strerror(errno));
		goto out;
	}
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || !gelf_newehdr(e, ELFCLASS64) || !gelf_newphdr(e, 1)) {
		elf_fail(err, errlen, "elf_begin");
		goto out;
	}
	/* the offsets are ours: .text where its address says */
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	if (!add_section(e, SEC_NOTE, SHT_NOTE, SHF_ALLOC, NOTE_OFFSET, NOTE_OFFSET, note,
			 sizeof(note), 4, 0, 0, 0, ELF_T_BYTE, err, errlen) ||
	    !add_section(e, SEC_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_off, text_off,
			 (void *)dso->code, dso->text_size, 16, 0, 0, 0, ELF_T_BYTE, err, errlen) ||
	    !add_section(e, SEC_SYMTAB, SHT_SYMTAB, 0, sym_off, 0, syms,
			 (dso->nr_syms + 1) * sizeof(*syms), 8, SEC_STRTAB, 1, sizeof(*syms),
			 ELF_T_SYM, err, errlen) ||
	    !add_section(e, SEC_STRTAB, SHT_STRTAB, 0, str_off, 0, strtab, strsz, 1, 0, 0, 0,
			 ELF_T_BYTE, err, errlen) ||
	    !add_section(e, SEC_SHSTRTAB, SHT_STRTAB, 0, shstr_pos, 0, (void *)shstrtab,
			 sizeof(shstrtab), 1, 0, 0, 0, ELF_T_BYTE, err, errlen))
		goto out;
	/* the header gelf_newehdr() made: copied out, no allocation */
	ehp = gelf_getehdr(e, &eh);
	if (NEVER(!ehp)) {
		elf_fail(err, errlen, "gelf_getehdr");
		goto out;
	}
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_DYN;		/* as genelf's: addresses are file offsets */
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_entry = text_off;
	eh.e_phoff = EHDR_SIZE;
	eh.e_shoff = sh_off;
	eh.e_shstrndx = SEC_SHSTRTAB;
	memset(&ph, 0, sizeof(ph));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_offset = PAGE;
	ph.p_vaddr = ph.p_paddr = PAGE;
	ph.p_filesz = ph.p_memsz = text_off + dso->text_size - PAGE;
	ph.p_align = PAGE;
	/* 64-bit values into a 64-bit ELF, program header 0 of 1: nothing to refuse */
	ok_ehdr = gelf_update_ehdr(e, &eh);
	ok_phdr = gelf_update_phdr(e, 0, &ph);
	if (NEVER(!ok_ehdr) || NEVER(!ok_phdr)) {
		elf_fail(err, errlen, "the headers");
		goto out;
	}
	if (elf_update(e, ELF_C_WRITE) < 0) {
		elf_fail(err, errlen, "elf_update");
		goto out;
	}
	elf_end(e);
	e = NULL;
	/* a memory file elf_update() has just written: its size is known and read whole */
	size = lseek(fd, 0, SEEK_END);
	dso->image = ALWAYS(size > 0) ? malloc((size_t)size) : NULL;
	if (!dso->image) {
		snprintf(err, errlen, "pmusim: cannot build an ELF image: out of memory");
		goto out;
	}
	got = pread(fd, dso->image, (size_t)size, 0);
	if (NEVER(got != size)) {
		snprintf(err, errlen, "pmusim: cannot build an ELF image: %s", strerror(errno));
		free(dso->image);
		dso->image = NULL;
		goto out;
	}
	dso->image_size = (size_t)size;
	ret = 0;
out:
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	free(syms);
	free(strtab);
	return ret;
}

void genelf__exit(struct genelf_dso *dso)
{
	free(dso->image);
	dso->image = NULL;
	dso->image_size = 0;
}
