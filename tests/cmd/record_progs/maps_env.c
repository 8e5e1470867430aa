// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest of tests/cmd/test_record_maps.sh. "env": print the environment,
 * one variable a line, in its order. "maps": map a page of anonymous code
 * (as a JIT does) and the first page of its own file shared and
 * executable, then print /proc/self/maps. "jit": write a page of code,
 * mprotect it from rw- to r-x, call it, print its address.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "env")) {
		for (char **e = environ; *e; e++)
			puts(*e);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "maps")) {
		void *code = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
				  -1, 0);
		int fd = open("/proc/self/exe", O_RDONLY);
		void *shared = fd < 0 ? MAP_FAILED :
			mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
		FILE *f = fopen("/proc/self/maps", "r");
		char line[4096];

		if (code == MAP_FAILED || shared == MAP_FAILED || !f)
			return 1;
		close(fd);
		while (fgets(line, sizeof(line), f))
			fputs(line, stdout);
		fclose(f);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "jit")) {
		unsigned char *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (code == MAP_FAILED)
			return 1;
		code[0] = 0xc3;		/* ret */
		if (mprotect(code, 4096, PROT_READ | PROT_EXEC))
			return 1;
		((void (*)(void))code)();
		printf("%p\n", (void *)code);
		return 0;
	}
	fprintf(stderr, "usage: maps_env env|maps|jit\n");
	return 2;
}
