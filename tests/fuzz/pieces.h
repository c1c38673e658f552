/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * What the splitting fuzz targets share: a generator seeded by the whole input (so a crash
 * reproduces), the piece lengths they cut messages and outputs into, and exact-size heap
 * buffers (a stray byte is an AddressSanitizer report, not a silent pass).
 */
#ifndef RS_FUZZ_PIECES_H
#define RS_FUZZ_PIECES_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t next(uint64_t *x)
{
    /* xorshift64: any fixed generator will do, it only has to be the same on a rerun */
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A piece length: often 0 or a short piece, sometimes across a block boundary (one to three
 * blocks of `block` bytes), sometimes several blocks or a whole 8 KiB chunk. */
static size_t rs_piece(uint64_t *rng, size_t left, size_t block)
{
    size_t n;
    switch (next(rng) % 5) {
    case 0: n = 0; break;
    case 1: n = (size_t)(next(rng) % 8); break;
    case 2: n = (size_t)(next(rng) % 340); break;
    case 3: n = block * (size_t)(1 + next(rng) % 3); break;
    default: n = (size_t)(next(rng) % 9000); break;
    }
    return n < left ? n : left;
}

static uint8_t *exact(size_t n)
{
    uint8_t *p = n ? (uint8_t *)malloc(n) : NULL;
    if (n && !p)
        abort();
    return p;
}

#endif
