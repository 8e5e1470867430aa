// SPDX-License-Identifier: GPL-2.0-only
/* The shared library dlopen.c loads. */
int lib_func(int x)
{
	return x + 1;
}
