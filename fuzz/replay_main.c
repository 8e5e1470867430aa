// SPDX-License-Identifier: GPL-2.0-only
/*
 * The plain driver of every harness: runs files, and the files of
 * directories (sorted, not recursive), through LLVMFuzzerTestOneInput and
 * prints one TAP line per input. Each input runs in a child process, so
 * one that aborts (a broken invariant, a sanitizer report) fails its own
 * line and the others still run; the child's stderr carries the trace.
 *
 *   replay_fuzz_NAME [-n] [-t] PATH...
 *
 * -n runs the inputs in this process instead (for a debugger): the first
 * failure ends the run. -t sets PMUSIM_FUZZ_TRACE=1, with which every
 * harness prints what it runs (the ring-buffer harness: its schedule, as
 * a readable trace) on stderr. PMUSIM_TAP_FIRST numbers the first line (so that
 * scripts/fuzz-replay.sh can run several drivers as one TAP stream);
 * PMUSIM_REPLAY_TIMEOUT bounds each input in seconds (default 60).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

static unsigned long tap_next = 1, passed, failed;

static int read_file(const char *path, unsigned char **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t n;

		if (len == cap) {
			unsigned char *p;

			cap = cap ? 2 * cap : 4096;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*data = buf;
	*size = len;
	return 0;
}

static int run_child(const unsigned char *data, size_t size, char *why, size_t whylen)
{
	const char *t = getenv("PMUSIM_REPLAY_TIMEOUT");
	unsigned int timeout = t ? (unsigned int)strtoul(t, NULL, 10) : 60;
	int status;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		alarm(timeout);
		LLVMFuzzerTestOneInput(data, size);
		/*
		 * exit, not _exit: LeakSanitizer checks this one input, and a
		 * gcov build writes its counts (make coverage).
		 */
		exit(0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(why, whylen, "waitpid: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		snprintf(why, whylen, "%s", WTERMSIG(status) == SIGALRM ? "timed out" :
			 strsignal(WTERMSIG(status)));
	else
		snprintf(why, whylen, "exit %d", WEXITSTATUS(status));
	return -1;
}

static void replay_one(const char *path, bool in_process)
{
	char why[128] = "";
	unsigned char *data;
	size_t size;
	int err = read_file(path, &data, &size);

	if (err) {
		snprintf(why, sizeof(why), "%s", strerror(-err));
	} else if (in_process) {
		LLVMFuzzerTestOneInput(data, size);
		free(data);
	} else {
		if (run_child(data, size, why, sizeof(why)))
			err = -1;
		free(data);
	}
	if (err) {
		printf("not ok %lu - %s: %s\n", tap_next++, path, why);
		failed++;
	} else {
		printf("ok %lu - %s\n", tap_next++, path);
		passed++;
	}
	fflush(stdout);
}

static int skip_name(const struct dirent *d)
{
	/* dot files (.gitkeep) and READMEs are not inputs */
	return d->d_name[0] != '.' && strncmp(d->d_name, "README", 6) != 0;
}

static void replay_path(const char *path, bool in_process)
{
	struct dirent **names;
	struct stat st;
	int n;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		replay_one(path, in_process);
		return;
	}
	n = scandir(path, &names, skip_name, alphasort);
	if (n < 0) {
		printf("not ok %lu - %s: %s\n", tap_next++, path, strerror(errno));
		failed++;
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
		char *child = malloc(len);

		if (child) {
			snprintf(child, len, "%s/%s", path, names[i]->d_name);
			if (!stat(child, &st) && S_ISREG(st.st_mode))
				replay_one(child, in_process);
			free(child);
		}
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	const char *first = getenv("PMUSIM_TAP_FIRST");
	bool in_process = false;
	int i = 1;

	if (first)
		tap_next = strtoul(first, NULL, 10);
	for (; i < argc && argv[i][0] == '-' && argv[i][1] && !argv[i][2]; i++) {
		if (argv[i][1] == 'n')
			in_process = true;
		else if (argv[i][1] == 't')
			setenv("PMUSIM_FUZZ_TRACE", "1", 1);
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: %s [-n] [-t] FILE|DIR...\n", argv[0]);
		return 2;
	}
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (; i < argc; i++)
		replay_path(argv[i], in_process);
	printf("# %s: %lu passed, %lu failed\n", argv[0], passed, failed);
	return failed ? 1 : 0;
}
