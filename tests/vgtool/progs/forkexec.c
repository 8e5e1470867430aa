// SPDX-License-Identifier: GPL-2.0-only
/* fork; the child execs argv[1] (a program that exits 0); the parent exits 5. */
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		execl(argv[1], argv[1], (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	return 5;
}
