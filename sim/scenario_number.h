/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one number parser of pmusim's inputs: every numeric field of a
 * scenario file and every numeric option of the command line. A value is
 * taken whole or refused, never truncated at its first odd character.
 *
 * Accepted: decimal digits ("400000000"), hexadecimal after 0x ("0x1c4"),
 * and either with single underscores between digits ("400_000_000"), as
 * YAML 1.1 integers allow. Refused, each with its own reason: a sign,
 * leading zeros ("010" is 8 in YAML 1.1 and 10 in YAML 1.2), exponents
 * ("4e8" is a YAML float: a count of cycles is written in full), unit
 * suffixes ("64k"), anything after the number, values above the field's
 * maximum.
 */
#ifndef PMUSIM_SIM_SCENARIO_NUMBER_H
#define PMUSIM_SIM_SCENARIO_NUMBER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse @s into *@v, at most @max. 0, or -1 with the reason in @why
 * ("'4e8' is not an integer: ...").
 */
int scn_parse_uint(const char *s, uint64_t max, uint64_t *v, char *why, size_t whylen);

#endif /* PMUSIM_SIM_SCENARIO_NUMBER_H */
