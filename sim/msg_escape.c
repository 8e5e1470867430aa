// SPDX-License-Identifier: GPL-2.0-only
/* One-line error messages (see msg_escape.h). */
#include <stdio.h>
#include <string.h>

#include "sim/msg_escape.h"

/* The escape for byte C into OUT (5 bytes); its length, 1 for a byte that stays. */
static size_t escape_byte(unsigned char c, char out[5])
{
	static const char named[][2] = { { '\n', 'n' }, { '\r', 'r' }, { '\t', 't' }, { '\\', '\\' } };

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		if (c == (unsigned char)named[i][0]) {
			out[0] = '\\';
			out[1] = named[i][1];
			return 2;
		}
	}
	if (c < 0x20 || c == 0x7f) {
		snprintf(out, 5, "\\x%02x", c);
		return 4;
	}
	out[0] = (char)c;
	return 1;
}

void msg_escape(char *msg, size_t size)
{
	size_t len, keep, out = 0;
	char esc[5];

	if (!size)
		return;
	len = strnlen(msg, size - 1);
	/* how many bytes of the message fit once escaped */
	for (keep = 0; keep < len; keep++) {
		size_t k = escape_byte((unsigned char)msg[keep], esc);

		if (out + k > size - 1)
			break;
		out += k;
	}
	msg[out] = 0;
	/* back to front: every escape is at least as long as its byte */
	while (keep--) {
		size_t k = escape_byte((unsigned char)msg[keep], esc);

		out -= k;
		memcpy(msg + out, esc, k);
	}
}
