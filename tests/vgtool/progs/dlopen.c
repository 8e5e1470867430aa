// SPDX-License-Identifier: GPL-2.0-only
/* Calls a function of a shared library (argv[1]) loaded with dlopen. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	void *h;
	int (*fn)(int);

	if (argc < 2 || !(h = dlopen(argv[1], RTLD_NOW)))
		return 1;
	fn = (int (*)(int))dlsym(h, "lib_func");
	if (!fn)
		return 1;
	printf("lib_func %p\n", (void *)fn);
	fflush(stdout);
	return fn(41) == 42 ? 0 : 1;
}
