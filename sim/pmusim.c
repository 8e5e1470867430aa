// SPDX-License-Identifier: GPL-2.0-only
/* pmusim: the command. Subcommands live in sim/cmd_*.c. */
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: pmusim <command> [options]\n"
	      "\n"
	      "commands:\n"
	      "  ringbuf   replay a ring-buffer script on the model or the host kernel\n"
	      "\n"
	      "pmusim <command> --help for a command's options.\n", f);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	fprintf(stderr, "pmusim: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
