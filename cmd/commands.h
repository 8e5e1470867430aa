/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pmusim subcommands. Each gets argv with argv[0] = its own name and
 * returns the exit status: 0 success, 1 failure, 2 bad usage or input,
 * 77 skipped (the host cannot do it).
 */
#ifndef PMUSIM_SIM_COMMANDS_H
#define PMUSIM_SIM_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct pmusim_command {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv);
};

/*
 * How pmusim was started (main's argv[0]), for the commands a summary
 * suggests: "pmusim" when it was found in PATH, else the path typed.
 */
extern const char *pmusim_program;

/*
 * Whether NAME, the value of option OPT of command CMD that names a file
 * or directory (WHAT), is empty; if so, one line saying that it is, and
 * the caller exits 2 as for any bad flag. "" names nothing: opening it
 * says "No such file or directory", as if a file were missing.
 */
static inline bool cmd_empty_name(const char *cmd, const char *opt, const char *name,
				  const char *what)
{
	if (*name)
		return false;
	fprintf(stderr, "pmusim: %s: %s: the %s name is empty\n", cmd, opt, what);
	return true;
}

/*
 * Whether NAME, command CMD's -o, is "-": perf's pipe mode, which the
 * writer takes (tools/perf/util/perf_data.h) but only pmusim record,
 * whose summary goes to stderr, gives it; if so, one line, and the caller
 * exits 2.
 */
static inline bool cmd_pipe_refused(const char *cmd, const char *name)
{
	if (strcmp(name, "-"))
		return false;
	fprintf(stderr, "pmusim: %s: -o -: perf's pipe mode is pmusim record's (%s prints on "
		"stdout)\n", cmd, cmd);
	return true;
}

int cmd_dump(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_ringbuf(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_seed(int argc, char **argv);
int cmd_stitch(int argc, char **argv);
int cmd_version(int argc, char **argv);

/* One line per command; keep the list sorted by name. */
#define PMUSIM_COMMANDS							\
	{ "dump", "print a perf.data file one record per line, for diffing", cmd_dump }, \
	{ "record", "run a real program under Valgrind on the model PMU: perf.data", cmd_record }, \
	{ "ringbuf", "replay a ring-buffer script on the model or the kernel", cmd_ringbuf }, \
	{ "run", "run a scenario: samples into perf.data, a summary", cmd_run }, \
	{ "seed", "reproduce a seed's result on its scenario, as a table", cmd_seed }, \
	{ "stitch", "print a perf.data's call stacks, LBR stitched", cmd_stitch }, \
	{ "version", "print the version and the configuration", cmd_version },

#endif
