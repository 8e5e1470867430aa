// SPDX-License-Identifier: GPL-2.0-only
/*
 * The C++ guest of tests/cmd/test_record.sh: an exception thrown 15 frames
 * down and caught in main, then work in after_catch(), whose true stack
 * holds none of the frames the exception unwound.
 */
#include <stdexcept>

static volatile long sink;

__attribute__((noinline)) void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void thrower(int n)
{
	spin(500);
	if (n == 0)
		throw std::runtime_error("down");
	thrower(n - 1);
	sink++;
}

__attribute__((noinline)) void after_catch()
{
	spin(200000);
	__asm__ volatile("" ::: "memory");
}

int main()
{
	try {
		thrower(15);
	} catch (const std::exception &) {
		after_catch();
	}
	return 0;
}
