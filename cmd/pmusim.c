// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim: the command. Each subcommand is cmd_NAME() in cmd/cmd_NAME.c,
 * declared in cmd/commands.h and listed once in the table below.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

static const struct pmusim_command commands[] = {
	PMUSIM_COMMANDS
};

const char *pmusim_program = "pmusim";

static void usage(FILE *f)
{
	fputs("usage: pmusim <command> [options]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\npmusim help <command> (or pmusim <command> --help) gives a command's options;\n"
	      "pmusim --version the version and the build's RFC options.\n", f);
}

int main(int argc, char **argv)
{
	if (argc > 0 && strchr(argv[0], '/'))
		pmusim_program = argv[0];
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		char *version_argv[] = { "version", NULL };

		return cmd_version(1, version_argv);
	}
	if (!strcmp(argv[1], "help")) {
		char *help_argv[] = { NULL, "--help", NULL };

		if (argc == 2) {
			usage(stdout);
			return 0;
		}
		if (argc > 3) {
			fprintf(stderr, "pmusim: help: give one command\n");
			return 2;
		}
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (!strcmp(argv[2], commands[i].name)) {
				help_argv[0] = argv[2];
				return commands[i].fn(2, help_argv);
			}
		fprintf(stderr, "pmusim: help: unknown command '%s' (pmusim help lists them)\n",
			argv[2]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "pmusim: unknown command '%s' (pmusim --help lists them)\n", argv[1]);
	return 2;
}
