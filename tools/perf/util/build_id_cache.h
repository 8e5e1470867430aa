/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf's build-id cache (the counterpart of build_id_cache__add_s in
 * tools/perf/util/build-id.c): a DSO with build-id BID, mapped as NAME,
 * is kept as DIR/NAME/BID/elf, and DIR/.build-id/BI/D... links to its
 * directory. perf report, script and annotate look there (DIR is
 * ~/.debug unless `perf --buildid-dir DIR` says otherwise) for the DSOs a
 * perf.data names with a build-id.
 */
#ifndef PMUSIM_TOOLS_PERF_UTIL_BUILD_ID_CACHE_H
#define PMUSIM_TOOLS_PERF_UTIL_BUILD_ID_CACHE_H

#include <stddef.h>

#include "core/kernel.h"

/*
 * Add IMAGE (SIZE bytes) under DIR (created as needed) for NAME (an
 * absolute path) and the 20-byte BID. An entry already there is kept: the
 * build-id names the content. Written through a temporary file of its own
 * and a rename, so concurrent runs never see half a file. Returns 0, or
 * -1 with errno set and the one-line reason in ERR.
 */
int build_id_cache__add(const char *dir, const char *name, const u8 *bid,
			const void *image, size_t size, char *err, size_t errlen);

/*
 * The user's cache as perf 6.1 finds it by default: $HOME/.debug, written
 * to BUF. Returns BUF, or NULL when HOME is not set.
 */
const char *build_id_cache__default_dir(char *buf, size_t len);

#endif
