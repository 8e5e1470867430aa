// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf's build-id cache as pmusim writes it: DIR/NAME/BID/elf and the
 * DIR/.build-id/BI/D link to it; an entry already there is kept; every
 * failure is one line naming the path that could not be made, and
 * leaves no half-written file.
 *
 * The failures that need a resource limit (file size, open files) run in
 * a child, which puts its limit back before it exits: a coverage build's
 * child writes its counts then, and they are larger than the limit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tests/test.h"
#include "tests/lib/scratch.h"
#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/genelf.h"

static char dir[64];
static u8 code[0x40];
static const struct genelf_sym syms[] = {
	{ 0x401230, 0x20, "main" },
	{ 0x401250, 0x20, "leaf_function" },
};
static struct genelf_dso dso;
static char sbid[2 * GENELF_BUILD_ID_SIZE + 1];

static int setup(void **state)
{
	char err[256];

	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "bidcache"))
		return -1;
	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = (u8)(0xc3 - i % 2);
	dso.text_start = 0x401230;
	dso.code = code;
	dso.text_size = sizeof(code);
	dso.syms = syms;
	dso.nr_syms = 2;
	if (genelf__build(&dso, err, sizeof(err)))
		return -1;
	genelf__build_id_hex(dso.build_id, sbid);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	genelf__exit(&dso);
	return scratch_dir_remove(dir);
}

static int add(const char *cache, const char *name, char *err, size_t errlen)
{
	return build_id_cache__add(cache, name, dso.build_id, dso.image, dso.image_size,
				   err, errlen);
}

/* The names in DIR other than . and .. (0 when DIR does not exist). */
static int nr_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void has_perfs_layout(void **state)
{
	char cache[128], path[512], link[512], err[256];
	struct stat st;
	ssize_t n;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	assert_int_equal(add(cache, "/pmusim/prog", err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/pmusim/prog/%s/elf", cache, sbid);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal((size_t)st.st_size, dso.image_size);
	assert_int_equal(st.st_mode & 0777, 0644);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", cache, sbid, sbid + 2);
	n = readlink(path, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	snprintf(path, sizeof(path), "../../pmusim/prog/%s", sbid);
	assert_string_equal(link, path);
	/* again, the name with more slashes: kept, no error, nothing else made */
	assert_int_equal(add(cache, "///pmusim/prog", err, sizeof(err)), 0);
	assert_int_equal(nr_entries(cache), 2);		/* pmusim, .build-id */
	snprintf(path, sizeof(path), "%s/pmusim/prog/%s", cache, sbid);
	assert_int_equal(nr_entries(path), 1);		/* elf, no temporary */
	/* a cache that cannot be made: one line naming it */
	assert_int_equal(add("/proc/pmusim-none", "/pmusim/prog", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/proc/pmusim-none"));
}

static void too_long_names_are_refused_before_anything_is_made(void **state)
{
	char longdir[4200], longerr[4400];
	int before = nr_entries(dir);

	(void)state;
	/* a directory name that leaves no room for the entry */
	memset(longdir, 'a', 4090);
	longdir[0] = '/';
	longdir[4090] = '\0';
	errno = 0;
	assert_int_equal(add(longdir, "/p", longerr, sizeof(longerr)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_int_equal(strncmp(longerr, longdir, 4090), 0);
	assert_string_equal(longerr + 4090, ": build-id cache path too long");

	/*
	 * The entry's name fits (DIR, an empty NAME, the id: DIR + 42), the
	 * link's does not (DIR/.build-id/BI and room for the other 38).
	 */
	snprintf(longdir, sizeof(longdir), "%s/", dir);
	memset(longdir + strlen(longdir), 'b', 4020 - strlen(longdir));
	longdir[4020] = '\0';
	errno = 0;
	assert_int_equal(add(longdir, "/", longerr, sizeof(longerr)), -1);
	assert_int_equal(errno, ENAMETOOLONG);
	assert_string_equal(longerr + 4020, ": build-id cache path too long");
	assert_int_equal(nr_entries(dir), before);
}

static void failures_name_the_path_that_could_not_be_made(void **state)
{
	char cache[128], path[512], want[600], err[256];

	(void)state;
	/* .build-id/BI is a file: the link in it cannot be made (the elf can) */
	snprintf(cache, sizeof(cache), "%s/cache-file", dir);
	snprintf(path, sizeof(path), "%s/.build-id", cache);
	assert_int_equal(mkdir(cache, 0755), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s", cache, sbid);
	assert_int_equal(close(creat(path, 0644)), 0);
	assert_int_equal(add(cache, "/p", err, sizeof(err)), -1);
	assert_int_equal(errno, ENOTDIR);
	snprintf(want, sizeof(want), "%s/%s: cannot add to the build-id cache: %s",
		 path, sbid + 2, strerror(ENOTDIR));
	assert_string_equal(err, want);

	/* .build-id leads nowhere: the link's directory cannot be made */
	snprintf(cache, sizeof(cache), "%s/cache-dangling", dir);
	snprintf(path, sizeof(path), "%s/.build-id", cache);
	assert_int_equal(mkdir(cache, 0755), 0);
	assert_int_equal(symlink("/proc/pmusim-none", path), 0);
	assert_int_equal(add(cache, "/p", err, sizeof(err)), -1);
	assert_int_equal(errno, ENOENT);
	snprintf(want, sizeof(want), "%s/%.2s: cannot add to the build-id cache: %s",
		 path, sbid, strerror(ENOENT));
	assert_string_equal(err, want);

	/* .build-id/BI is a link to itself: the link in it cannot be made */
	snprintf(cache, sizeof(cache), "%s/cache-loop", dir);
	snprintf(path, sizeof(path), "%s/.build-id", cache);
	assert_int_equal(mkdir(cache, 0755), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/.build-id/%.2s", cache, sbid);
	assert_int_equal(symlink(path, path), 0);
	assert_int_equal(add(cache, "/p", err, sizeof(err)), -1);
	assert_int_equal(errno, ELOOP);
	snprintf(want, sizeof(want), "%s/%s: cannot add to the build-id cache: %s",
		 path, sbid + 2, strerror(ELOOP));
	assert_string_equal(err, want);
}

enum limit { FILE_SIZE, OPEN_FILES };

/*
 * build_id_cache__add() into CACHE in a child under LIMIT: 100 bytes of
 * file, or no file descriptor left. The child checks the error and its
 * message ends with WANT; the exit status says how it went.
 */
static int add_limited(const char *cache, enum limit limit, int want_errno, const char *want)
{
	int resource = limit == FILE_SIZE ? RLIMIT_FSIZE : RLIMIT_NOFILE;
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct rlimit old, rl;
		char err[512];
		int ret, e, fd;

		signal(SIGXFSZ, SIG_IGN);
		if (getrlimit(resource, &old))
			_exit(3);
		rl = old;
		if (limit == FILE_SIZE) {
			rl.rlim_cur = 100;
		} else {
			fd = dup(0);	/* the lowest free descriptor: every one below is open */
			if (fd < 0)
				_exit(3);
			close(fd);
			rl.rlim_cur = (rlim_t)fd;
		}
		if (setrlimit(resource, &rl))
			_exit(3);
		ret = add(cache, "/p", err, sizeof(err));
		e = errno;
		if (setrlimit(resource, &old))
			_exit(3);
		if (ret != -1 || e != want_errno)
			exit(4);
		if (strlen(err) < strlen(want) || strcmp(err + strlen(err) - strlen(want), want))
			exit(5);
		exit(0);	/* exit(): a coverage build writes its counts */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* The image cannot be written whole, or not at all: no elf, no temporary file. */
static void a_failed_write_leaves_no_file(void **state)
{
	char cache[128], path[512], want[600];

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache-limit", dir);
	snprintf(want, sizeof(want), "/elf: cannot add to the build-id cache: %s", strerror(EFBIG));
	assert_int_equal(add_limited(cache, FILE_SIZE, EFBIG, want), 0);
	snprintf(path, sizeof(path), "%s/p/%s", cache, sbid);
	assert_int_equal(nr_entries(path), 0);		/* neither elf nor elf.tmp.* */

	snprintf(cache, sizeof(cache), "%s/cache-nofile", dir);
	snprintf(want, sizeof(want), "/elf: cannot add to the build-id cache: %s", strerror(EMFILE));
	assert_int_equal(add_limited(cache, OPEN_FILES, EMFILE, want), 0);
	snprintf(path, sizeof(path), "%s/p/%s", cache, sbid);
	assert_int_equal(nr_entries(path), 0);
	/* and with the limits gone, the same call succeeds */
	assert_int_equal(add(cache, "/p", want, sizeof(want)), 0);
	assert_int_equal(nr_entries(path), 1);
}

static void default_dir_is_home_debug(void **state)
{
	char buf[256], *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;

	(void)state;
	setenv("HOME", "/home/someone", 1);
	assert_string_equal(build_id_cache__default_dir(buf, sizeof(buf)), "/home/someone/.debug");
	setenv("HOME", "", 1);
	assert_null(build_id_cache__default_dir(buf, sizeof(buf)));
	unsetenv("HOME");
	assert_null(build_id_cache__default_dir(buf, sizeof(buf)));
	if (home)
		setenv("HOME", home, 1);
	free(home);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(has_perfs_layout),
		cmocka_unit_test(too_long_names_are_refused_before_anything_is_made),
		cmocka_unit_test(failures_name_the_path_that_could_not_be_made),
		cmocka_unit_test(a_failed_write_leaves_no_file),
		cmocka_unit_test(default_dir_is_home_debug),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
