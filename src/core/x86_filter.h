/* The packed loaders' branch filter (pack.h, docs/image-formats.md "Packed
 * loaders"): before compression, x86 calls and x86-64 RIP-relative LEA/MOV
 * name their targets by absolute RVA instead of relative to themselves, so
 * that every call of (or jump to) one function carries the same four bytes and the
 * compressor finds them repeated. Our own design, in place, reversible. */
#ifndef CORE_X86_FILTER_H
#define CORE_X86_FILTER_H

#include "platform.h"

/**
 * x86_filter_encode() - rewrite the operands of @buf (@len bytes, RVA 0 at
 * @buf) in place: each E8, E9 and 0F 80..8F rel32 (CALL, JMP, Jcc), and each REX.W 8B/8D (MOV/LEA) whose ModRM
 * says [RIP+disp32], whose displacement lies within +-16 MiB, becomes that
 * target's offset from @buf (modulo 32 MiB). x86_filter_decode() undoes it.
 */
void x86_filter_encode(uint8_t *buf, size_t len);

/**
 * x86_filter_decode() - the inverse of x86_filter_encode(), in place: any
 * bytes come back as x86_filter_encode() would have had to see them.
 */
void x86_filter_decode(uint8_t *buf, size_t len);

#endif
