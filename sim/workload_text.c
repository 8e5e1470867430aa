// SPDX-License-Identifier: GPL-2.0-only
/*
 * A workload's code as x86-64 instructions, byte for byte where the
 * layout (workload.h) puts its ops, for the ELF file perf annotates:
 *   INSNS n  n x "add $1,%rax"            (48 83 c0 01, 4 bytes each)
 *   CALL     "call rel32" to the callee   (e8, 5 bytes)
 *   RCALL    "jae .+7" over "call rel32"  (73 05 e8 ..., 7 bytes)
 *   END      "jne rel8" to the loop head  (75, 2 bytes)
 *   COND     "je rel8" over the next op   (74, 2 bytes)
 *   RET      "ret"                        (c3)
 * and int3 (cc) between functions. A jump whose target is beyond a rel8
 * cannot be written in the 2 bytes the layout gives it: it becomes ud2
 * (0f 0b), which annotate shows as what it is, not a wrong target.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/workload.h"

static void put_rel32(uint8_t *p, int64_t rel)
{
	uint32_t v = (uint32_t)(int32_t)rel;

	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put_jcc8(uint8_t *p, uint8_t opcode, uint64_t next, uint64_t to)
{
	int64_t rel = (int64_t)(to - next);

	if (rel < -128 || rel > 127) {
		p[0] = 0x0f;
		p[1] = 0x0b;
		return;
	}
	p[0] = opcode;
	p[1] = (uint8_t)(int8_t)rel;
}

int workload_text(const struct workload *wl, uint8_t **code, uint64_t *start, uint64_t *size)
{
	const struct wl_func *last = &wl->funcs[wl->nr_funcs - 1];
	uint8_t *text;

	*start = wl->funcs[0].addr;
	*size = last->addr + last->size - *start;
	text = malloc(*size ? *size : 1);
	if (!text)
		return -ENOMEM;
	memset(text, 0xcc, *size);
	for (uint32_t f = 0; f < wl->nr_funcs; f++) {
		const struct wl_func *fn = &wl->funcs[f];

		for (uint32_t i = 0; i < fn->nr_ops; i++) {
			const struct wl_op *op = &fn->ops[i];
			uint8_t *p = text + (fn->addr + op->pc - *start);

			switch (op->kind) {
			case WL_OP_INSNS:
				for (uint32_t k = 0; k < op->arg; k++)
					memcpy(p + 4 * k, "\x48\x83\xc0\x01", 4);
				break;
			case WL_OP_CALL:
				p[0] = 0xe8;
				put_rel32(p + 1, (int64_t)(op->to - (op->at + 5)));
				break;
			case WL_OP_RCALL:
				p[0] = 0x73;
				p[1] = 0x05;
				p[2] = 0xe8;
				put_rel32(p + 3, (int64_t)(op->to - (op->at + 7)));
				break;
			case WL_OP_END:
				put_jcc8(p, 0x75, op->at + 2, op->to);
				break;
			case WL_OP_COND:
				put_jcc8(p, 0x74, op->at + 2, op->to);
				break;
			case WL_OP_RET:
				p[0] = 0xc3;
				break;
			default:
				break;
			}
		}
	}
	*code = text;
	return 0;
}
