// SPDX-License-Identifier: GPL-2.0-only
/*
 * A command's output captured in files (capture.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "tests/test.h"
#include "tests/lib/capture.h"

int capture_call(int (*cmd)(int, char **), int argc, char **argv,
		 const char *out, const char *err)
{
	int save1, save2, fd1, fd2, rc;

	/* what the test printed so far must not land in the command's files */
	fflush(stdout);
	fflush(stderr);
	save1 = dup(1);
	save2 = dup(2);
	fd1 = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fd2 = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(save1 >= 0 && save2 >= 0 && fd1 >= 0 && fd2 >= 0);
	assert_true(dup2(fd1, 1) == 1 && dup2(fd2, 2) == 2);
	close(fd1);
	close(fd2);
	rc = cmd(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(save1, 1);
	dup2(save2, 2);
	close(save1);
	close(save2);
	return rc;
}
