// SPDX-License-Identifier: GPL-2.0-only
/*
 * Adding ELF images to a perf build-id cache (see build_id_cache.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/testcase.h"
#include "tools/perf/util/build_id_cache.h"
#include "tools/perf/util/genelf.h"

/* mkdir -p PATH (modified in place and restored). */
static int mkdir_p(char *path)
{
	for (char *p = path + 1; ; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = c;
			return -1;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

static int write_file_atomic(const char *path, const void *buf, size_t size)
{
	char tmp[4200];
	const u8 *p = buf;
	int fd, err;

	snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	fchmod(fd, 0644);
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0) {
			if (errno == EINTR)	/* NFS, FUSE: a local file is not interrupted */
				continue;
			err = errno;
			close(fd);
			goto fail;
		}
		/* a regular file takes at least one byte of a write or says why not */
		if (NEVER(n == 0)) {
			close(fd);
			err = EIO;
			goto fail;
		}
		p += n;
		size -= (size_t)n;
	}
	/*
	 * close() reports a deferred write error (NFS), rename() a race with
	 * another writer: neither happens on a local file system, both are
	 * handled as the failed write above.
	 */
	if (!close(fd) && !rename(tmp, path))
		return 0;
	err = errno;
fail:
	unlink(tmp);
	errno = err;
	return -1;
}

int build_id_cache__add(const char *dir, const char *name, const u8 *bid,
			const void *image, size_t size, char *err, size_t errlen)
{
	char sbid[2 * GENELF_BUILD_ID_SIZE + 1], path[4096], link[4096], target[4096];
	const char *at;
	struct stat st;
	int e;

	genelf__build_id_hex(bid, sbid);
	while (*name == '/')
		name++;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", dir, name, sbid) >= sizeof(path) - 8 ||
	    (size_t)snprintf(link, sizeof(link), "%s/.build-id/%.2s", dir, sbid) >= sizeof(link) - 64) {
		snprintf(err, errlen, "%s: build-id cache path too long", dir);
		errno = ENAMETOOLONG;
		return -1;
	}
	/* each failure names what could not be made */
	at = path;
	if (mkdir_p(path))
		goto fail;
	at = link;
	if (mkdir_p(link))
		goto fail;
	strcat(path, "/elf");
	at = path;
	if (stat(path, &st) && write_file_atomic(path, image, size))
		goto fail;
	snprintf(target, sizeof(target), "../../%s/%s", name, sbid);
	strcat(link, "/");
	strcat(link, sbid + 2);
	at = link;
	if (symlink(target, link) && errno != EEXIST)
		goto fail;
	return 0;
fail:
	e = errno;
	snprintf(err, errlen, "%s: cannot add to the build-id cache: %s", at, strerror(e));
	errno = e;
	return -1;
}

const char *build_id_cache__default_dir(char *buf, size_t len)
{
	const char *home = getenv("HOME");

	if (!home || !*home)
		return NULL;
	snprintf(buf, len, "%s/.debug", home);
	return buf;
}
