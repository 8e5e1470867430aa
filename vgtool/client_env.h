/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The program's environment as it would be without Valgrind (client_env.c).
 *
 * Valgrind's core puts its preload objects at the head of the program's
 * LD_PRELOAD (adding the variable when the program had none), and
 * whoever starts the tool sets VALGRIND_LIB for the core, which the
 * program inherits.  Before the program's first instruction, its initial
 * stack gets an environment without them: the preload objects go (and
 * LD_PRELOAD with them if it was Valgrind's alone), and each variable
 * named by --pmusim-env=NAME goes, or gets VALUE back with
 * --pmusim-env=NAME=VALUE.  Every other variable keeps its place and
 * bytes.
 */
#ifndef PMUSIM_VGTOOL_CLIENT_ENV_H
#define PMUSIM_VGTOOL_CLIENT_ENV_H

#include "pub_tool_basics.h"

/* Is @arg a --pmusim-env=... option? Taken if so. */
Bool client_env_option(const HChar *arg);

/*
 * Rewrite thread @tid's initial stack (argc, argv, envp, auxv at its
 * stack pointer) and move its stack pointer to the new one. Called once,
 * before the program's first instruction.
 */
void client_env_restore(ThreadId tid);

#endif
