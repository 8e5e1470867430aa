/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Error messages are one line. A value quoted from a file may hold any
 * byte (a YAML scalar may span lines, a quoted one may say "\n" or
 * "\x1b"): msg_escape() rewrites a finished message so that it has no
 * control character left, the way `pmusim dump` prints strings.
 */
#ifndef PMUSIM_SIM_MSG_ESCAPE_H
#define PMUSIM_SIM_MSG_ESCAPE_H

#include <stddef.h>

/*
 * In place, within SIZE bytes (NUL included): \n, \r and \t as those two
 * characters, a backslash doubled (so an escape cannot be mistaken for
 * text), any other byte below 0x20 and 0x7f as \xNN. Bytes from 0x80 up
 * stay (UTF-8 text). A message the escapes make too long is cut before
 * the escape that does not fit.
 */
void msg_escape(char *msg, size_t size);

#endif
