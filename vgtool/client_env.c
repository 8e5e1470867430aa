/* SPDX-License-Identifier: GPL-2.0-only */
/* The program's environment without Valgrind's additions; see client_env.h. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "libvex_guest_amd64.h"

#include "client_env.h"

#define ENV_OPTS_MAX	8

/* "NAME" (the program has no NAME) or "NAME=VALUE", as --pmusim-env gave them */
static const HChar *env_opts[ENV_OPTS_MAX];
static UInt nr_env_opts;

Bool client_env_option(const HChar *arg)
{
	const HChar *v;

	if (!VG_STR_CLO(arg, "--pmusim-env", v))
		return False;
	if (!*v || *v == '=')
		VG_(fmsg_bad_option)(arg, "a variable's name is needed\n");
	if (nr_env_opts == ENV_OPTS_MAX)
		VG_(fmsg_bad_option)(arg, "at most %d of them\n", ENV_OPTS_MAX);
	env_opts[nr_env_opts++] = v;
	return True;
}

/* The length of NAME in "NAME" or "NAME=...". */
static SizeT name_len(const HChar *s)
{
	const HChar *eq = VG_(strchr)(s, '=');

	return eq ? (SizeT)(eq - s) : VG_(strlen)(s);
}

/* The --pmusim-env option naming the variable of entry @e, or NULL. */
static const HChar *opt_for(const HChar *e)
{
	for (UInt i = 0; i < nr_env_opts; i++) {
		SizeT n = name_len(env_opts[i]);

		if (!VG_(strncmp)(e, env_opts[i], n) && e[n] == '=')
			return env_opts[i];
	}
	return NULL;
}

static Bool is_vgpreload(const HChar *item, SizeT len)
{
	const HChar *base = item;

	for (SizeT i = 0; i < len; i++)
		if (item[i] == '/')
			base = item + i + 1;
	return (SizeT)(item + len - base) >= 10 && !VG_(strncmp)(base, "vgpreload_", 10);
}

/*
 * LD_PRELOAD=@e without Valgrind's objects at its head: into @out (as
 * long as @e at most) and True, or False if nothing is left of it. The
 * core writes "CORE[:TOOL]" when the program had no LD_PRELOAD and
 * "CORE[:TOOL]:OLD" when it had one, OLD perhaps empty.
 */
static Bool strip_preload(const HChar *e, HChar *out)
{
	const HChar *p = e + 11;	/* after "LD_PRELOAD=" */
	Bool colon = False;

	for (;;) {
		const HChar *end = VG_(strchr)(p, ':');
		SizeT len = end ? (SizeT)(end - p) : VG_(strlen)(p);

		if (!len || !is_vgpreload(p, len))
			break;
		colon = end != NULL;
		p += len + (end != NULL);
	}
	if (!*p && !colon && p != e + 11)
		return False;
	VG_(strcpy)(out, "LD_PRELOAD=");
	VG_(strcpy)(out + 11, p);
	return True;
}

void client_env_restore(ThreadId tid)
{
	Addr sp = VG_(get_SP)(tid), new_sp;
	const ULong *st = (const ULong *)sp;
	ULong argc = st[0];
	HChar **envp = (HChar **)(st + 1 + argc + 1);
	const ULong *auxv;
	UInt n = 0, naux = 0, kept = 0, changed = 0;
	SizeT strs = 0, at, words;
	HChar **env, *buf;
	SizeT *off;			/* env[i] NULL: its string is at buf + off[i] */
	NSegment const *seg;
	ULong *nst;

	while (envp[n])
		n++;
	auxv = (const ULong *)(envp + n + 1);
	while (auxv[2 * naux])
		naux++;
	naux++;				/* AT_NULL */
	/* the new entries' strings go into buf (each as long as its old one at most) */
	for (UInt i = 0; i < n; i++)
		strs += VG_(strlen)(envp[i]) + 1;
	for (UInt i = 0; i < nr_env_opts; i++)
		strs += VG_(strlen)(env_opts[i]) + 1;
	env = VG_(malloc)("pmusim.env", (n + nr_env_opts + 1) * sizeof(*env));
	off = VG_(malloc)("pmusim.env.off", (n + nr_env_opts + 1) * sizeof(*off));
	buf = VG_(malloc)("pmusim.env.strs", strs + 1);
	at = 0;
	for (UInt i = 0; i < n; i++) {
		const HChar *opt = opt_for(envp[i]);

		if (opt) {
			changed++;
			if (!VG_(strchr)(opt, '='))
				continue;		/* the program had none */
			VG_(strcpy)(buf + at, opt);
		} else if (!VG_(strncmp)(envp[i], "LD_PRELOAD=", 11)) {
			if (!strip_preload(envp[i], buf + at)) {
				changed++;
				continue;
			}
			if (!VG_(strcmp)(buf + at, envp[i])) {
				env[kept++] = envp[i];
				continue;
			}
			changed++;
		} else {
			env[kept++] = envp[i];
			continue;
		}
		off[kept] = at;
		env[kept++] = NULL;
		at += VG_(strlen)(buf + at) + 1;
	}
	/* a variable the program had that Valgrind's caller did not pass on */
	for (UInt i = 0; i < nr_env_opts; i++) {
		Bool seen = False;

		for (UInt j = 0; j < n && !seen; j++)
			seen = opt_for(envp[j]) == env_opts[i];
		if (seen || !VG_(strchr)(env_opts[i], '='))
			continue;
		VG_(strcpy)(buf + at, env_opts[i]);
		off[kept] = at;
		env[kept++] = NULL;
		at += VG_(strlen)(buf + at) + 1;
		changed++;
	}
	if (!changed)
		goto out;
	/*
	 * The new argc, argv, envp and auxv, then the new strings, go below
	 * the old ones, which stay as they were (Valgrind's core keeps a
	 * pointer to the auxv); the stack pointer is 16-byte aligned, as the
	 * kernel leaves it.
	 */
	words = 1 + argc + 1 + kept + 1 + 2 * naux;
	new_sp = (sp - at - words * sizeof(ULong)) & ~(Addr)15;
	seg = VG_(am_find_nsegment)(new_sp);
	if (!seg || seg->kind != SkAnonC || !seg->hasW || seg->end < sp - 1) {
		VG_(umsg)("pmusim: no room below the program's stack: its environment keeps "
			  "Valgrind's LD_PRELOAD and VALGRIND_LIB\n");
		goto out;
	}
	nst = (ULong *)new_sp;
	VG_(memcpy)((HChar *)(nst + words), buf, at);
	VG_(memcpy)(nst, st, (1 + argc + 1) * sizeof(ULong));
	for (UInt i = 0; i < kept; i++)
		nst[1 + argc + 1 + i] = env[i] ? (ULong)(Addr)env[i] :
			(ULong)(new_sp + words * sizeof(ULong) + off[i]);
	nst[1 + argc + 1 + kept] = 0;
	VG_(memcpy)(nst + 1 + argc + 1 + kept + 1, auxv, 2 * naux * sizeof(ULong));
	VG_(set_shadow_regs_area)(tid, 0, __builtin_offsetof(VexGuestAMD64State, guest_RSP),
				  sizeof(new_sp), (const UChar *)&new_sp);
out:
	VG_(free)(buf);
	VG_(free)(off);
	VG_(free)(env);
}
