// SPDX-License-Identifier: GPL-2.0-only
/*
 * A second thread calling a function 1000 times, then looping with no call;
 * prints the function's address.  It
 * sleeps before it ends, so that main is in the join's futex by then
 * (else whether main waits there is up to the host's scheduling).
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

__attribute__((noinline)) int work(int i)
{
	__asm__ volatile("" ::: "memory");
	return i * 3;
}

static void *thread_main(void *arg)
{
	long sum = 0;

	for (int i = 0; i < 1000; i++)
		sum += work(i);
	/* a loop of no calls: a run the tool would mark in a thread of its own */
	for (volatile int k = 0; k < 200; k++)
		;
	nanosleep(&(struct timespec){ .tv_nsec = 200 * 1000 * 1000 }, NULL);
	return (void *)sum;
}

int main(void)
{
	pthread_t t;
	void *ret;

	printf("work %p\n", (void *)work);
	fflush(stdout);
	if (pthread_create(&t, NULL, thread_main, NULL) || pthread_join(t, &ret))
		return 1;
	return ret == (void *)(long)(3 * 999 * 1000 / 2) ? 0 : 1;
}
