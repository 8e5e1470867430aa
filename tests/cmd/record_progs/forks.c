// SPDX-License-Identifier: GPL-2.0-only
/*
 * N children (the first argument), each a loop of ITERS iterations (the
 * second), reaped in the order forked: while the replay runs some, the
 * others run ahead on the host, their streams held (tests/cmd/test_record_spill.sh).
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile long sink;
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	long iters = argc > 2 ? atol(argv[2]) : 1000000;
	pid_t pids[256];
	for (int i = 0; i < n && i < 256; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			for (long k = 0; k < iters; k++)
				sink += k;
			_exit(i);
		}
	}
	for (int i = 0; i < n && i < 256; i++)
		waitpid(pids[i], NULL, 0);
	return 0;
}
