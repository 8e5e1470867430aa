// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmusim: the command. Each subcommand is cmd_NAME() in cmd/cmd_NAME.c,
 * declared in cmd/commands.h and listed once in the table below.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "sim/run.h"

static const struct pmusim_command commands[] = {
	PMUSIM_COMMANDS
};

const char *pmusim_program = "pmusim";

#ifdef PMUSIM_COVERAGE
void __gcov_dump(void);		/* libgcov's, in a --coverage build */
#endif

static void usage(FILE *f)
{
	fputs("usage: pmusim <command> [options]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\npmusim help <command> (or pmusim <command> --help) gives a command's options;\n"
	      "pmusim --version the version and the build's RFC options.\n", f);
}

/*
 * Every command's stdout ends here: what could not be written (a full
 * disk, EIO, a short write) turns a success into one line and exit 1.
 * A command that failed already said why; its status stands.
 */
static int finish_stdout(int status)
{
	bool failed = ferror(stdout);
	int err = 0;

	if (fflush(stdout))
		failed = true, err = errno;
	if (fclose(stdout) && !err)
		failed = true, err = errno;
	if (!failed || status)
		return status;
	if (err)
		fprintf(stderr, "pmusim: cannot write the output: %s\n", strerror(err));
	else
		fputs("pmusim: cannot write the output\n", stderr);
	return 1;
}

/*
 * A run stopped by SIGINT or SIGTERM ends as perf record does: killed by
 * the same signal once its file is complete, so that a shell loop or
 * make sees the interruption (the exit status reads 128 + signal).
 */
static int finish(int status)
{
	int sig = run_stop_signal();

	status = finish_stdout(status);
	if (sig && status == 128 + sig) {
#ifdef PMUSIM_COVERAGE
		/* a process killed by a signal writes no gcov counts: write them now */
		__gcov_dump();
#endif
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return status;
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
		return finish(0);
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
			return finish(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "pmusim: unknown command '%s' (pmusim --help lists them)\n", argv[1]);
	return 2;
}
