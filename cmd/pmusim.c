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

static void usage(FILE *f)
{
	fputs("usage: pmusim <command> [options]\n\ncommands:\n", f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\npmusim <command> --help gives a command's options.\n", f);
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
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish(0);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].fn(argc - 1, argv + 1));
	fprintf(stderr, "pmusim: unknown command '%s' (pmusim --help lists them)\n", argv[1]);
	return 2;
}
