// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C guests of tests/cmd/test_record.sh, one per argv[1]: each spends
 * its time (so its samples) where the true stack is the interesting one.
 *   deep     recursion 48 deep, working at every level (deeper than any LBR)
 *   longjmp  longjmp out of 20 frames, then work in after_jump()
 *   signal   a handler calling handler_work(), raised from 3 frames down
 *   threads  two threads working in thread_work() 12 frames down
 *   serial   the same two threads, the second created after the first was
 *            joined (Valgrind gives it the first one's thread slot)
 *   tail     f_tail() jumps to g_tail() (a tail call), which works
 *   dlopen   argv[2]'s lib_work(), loaded with dlopen
 *   killed   works, then dies of SIGSEGV
 *   status   works, then exits with status 7
 *   fork     works in parent_work(); its child works in child_work(), then
 *            runs argv[2] execd (execd_work()); the parent waits for it,
 *            then works in after_wait()
 *   handoff  a thread works in before_handoff(), then writes a byte to a
 *            pipe; main, which reads it, works in after_handoff(), then
 *            joins it.  Not a condition variable: when the host happens to
 *            run the thread to its end before main checks the flag, main
 *            makes no syscall, and a wait through memory alone is not
 *            replayed (the man page says so).  read() is a syscall either
 *            way, so the wait is replayed on every host.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long sink;

/* after a call: the call is not the function's last act, so it stays a call */
#define NO_TAIL_CALL()	__asm__ volatile("" ::: "memory")

__attribute__((noinline)) void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) int deep(int n)
{
	int r;

	spin(3000);
	r = n ? deep(n - 1) : 0;
	NO_TAIL_CALL();
	return r + 1;
}

static jmp_buf env;

__attribute__((noinline)) void down(int n)
{
	spin(500);
	if (n == 0)
		longjmp(env, 1);
	down(n - 1);
	NO_TAIL_CALL();
}

__attribute__((noinline)) void after_jump(void)
{
	spin(200000);
	NO_TAIL_CALL();
}

__attribute__((noinline)) void handler_work(void)
{
	spin(100000);
	NO_TAIL_CALL();
}

static void handler(int sig)
{
	(void)sig;
	handler_work();
	NO_TAIL_CALL();
}

__attribute__((noinline)) void raise_from(int n)
{
	if (n)
		raise_from(n - 1);
	else
		raise(SIGUSR1);
	NO_TAIL_CALL();
}

__attribute__((noinline)) int thread_work(int n)
{
	int r = 0;

	if (n)
		r = thread_work(n - 1);
	else
		spin(300000);
	NO_TAIL_CALL();
	return r + 1;
}

static void *thread_main(void *arg)
{
	(void)arg;
	thread_work(10);
	return NULL;
}

__attribute__((noinline)) int g_tail(int x)
{
	spin(200000);
	NO_TAIL_CALL();
	return x + (int)sink;
}

/* -O2: the call of g_tail() is the function's last act, so it is a jmp */
__attribute__((noinline)) int f_tail(int x)
{
	spin(1000);
	return g_tail(x * 2);
}

__attribute__((noinline)) void parent_work(void)
{
	spin(100000);
	NO_TAIL_CALL();
}

__attribute__((noinline)) void child_work(void)
{
	spin(150000);
	NO_TAIL_CALL();
}

__attribute__((noinline)) void execd_work(void)
{
	spin(150000);
	NO_TAIL_CALL();
}

__attribute__((noinline)) void after_wait(void)
{
	spin(100000);
	NO_TAIL_CALL();
}

__attribute__((noinline)) void before_handoff(void)
{
	spin(300000);
	NO_TAIL_CALL();
}

__attribute__((noinline)) void after_handoff(void)
{
	spin(300000);
	NO_TAIL_CALL();
}

static int handoff_pipe[2];

static void *handoff_main(void *arg)
{
	(void)arg;
	before_handoff();
	if (write(handoff_pipe[1], "h", 1) != 1)
		_exit(3);
	return NULL;
}

static int fork_exec(const char *prog)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		child_work();
		execl(prog, prog, "execd", (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		return 1;
	parent_work();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	after_wait();
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (!strcmp(mode, "deep")) {
		for (int i = 0; i < 4; i++)
			deep(48);
	} else if (!strcmp(mode, "longjmp")) {
		if (setjmp(env) == 0)
			down(20);
		after_jump();
	} else if (!strcmp(mode, "signal")) {
		signal(SIGUSR1, handler);
		for (int i = 0; i < 3; i++)
			raise_from(3);
	} else if (!strcmp(mode, "threads")) {
		pthread_t t[2];

		for (int i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, thread_main, NULL))
				return 1;
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	} else if (!strcmp(mode, "serial")) {
		for (int i = 0; i < 2; i++) {
			pthread_t t;

			if (pthread_create(&t, NULL, thread_main, NULL))
				return 1;
			pthread_join(t, NULL);
		}
	} else if (!strcmp(mode, "tail")) {
		return f_tail(argc) == 1;
	} else if (!strcmp(mode, "dlopen")) {
		void *h = argc > 2 ? dlopen(argv[2], RTLD_NOW) : NULL;
		int (*fn)(int) = h ? (int (*)(int))dlsym(h, "lib_work") : NULL;

		if (!fn)
			return 1;
		return fn(3) < 0;
	} else if (!strcmp(mode, "fork")) {
		return argc > 2 ? fork_exec(argv[2]) : 2;
	} else if (!strcmp(mode, "execd")) {
		execd_work();
	} else if (!strcmp(mode, "handoff")) {
		pthread_t t;
		char byte;

		if (pipe(handoff_pipe) || pthread_create(&t, NULL, handoff_main, NULL))
			return 1;
		if (read(handoff_pipe[0], &byte, 1) != 1)
			return 1;
		after_handoff();
		pthread_join(t, NULL);
	} else if (!strcmp(mode, "status")) {
		spin(100000);
		return 7;
	} else if (!strcmp(mode, "killed")) {
		spin(100000);
		raise(SIGSEGV);
	} else {
		return 2;
	}
	return 0;
}
