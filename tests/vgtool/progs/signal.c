// SPDX-License-Identifier: GPL-2.0-only
/* A signal handler entered and left: prints the handler's address. */
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t hits;

static void handler(int sig)
{
	hits += sig == SIGUSR1;
}

int main(void)
{
	printf("handler %p\n", (void *)handler);
	fflush(stdout);
	signal(SIGUSR1, handler);
	raise(SIGUSR1);
	return hits == 1 ? 0 : 1;
}
