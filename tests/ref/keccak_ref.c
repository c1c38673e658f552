/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The plain reference: Keccak-p[1600] as FIPS 202 writes it, one rolled loop per step.
 * It is the yardstick of every Keccak benchmark (built once, with gcc -O3), not a kernel.
 */
#include <stdint.h>

#include "keccak_ref.h"

static uint64_t rol(uint64_t x, unsigned n)
{
    return n ? (x << n) | (x >> (64 - n)) : x;
}

void keccak_ref_p1600(uint64_t a[25], unsigned rounds)
{
    static const uint64_t rc[24] = {
        0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL,
        0x8000000080008000ULL, 0x000000000000808BULL, 0x0000000080000001ULL,
        0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008AULL,
        0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
        0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL,
        0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
        0x000000000000800AULL, 0x800000008000000AULL, 0x8000000080008081ULL,
        0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
    static const unsigned rho[25] = {0,  1,  62, 28, 27, 36, 44, 6,  55, 20, 3,  10, 43,
                                     25, 39, 41, 45, 15, 21, 8,  18, 2,  61, 56, 14};
    unsigned ir, x, y;

    for (ir = 24 - rounds; ir < 24; ir++) {
        uint64_t c[5], b[25];
        for (x = 0; x < 5; x++)
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ rol(c[(x + 1) % 5], 1);
            for (y = 0; y < 25; y += 5)
                a[x + y] ^= d;
        }
        for (x = 0; x < 5; x++)
            for (y = 0; y < 5; y++)
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rol(a[x + 5 * y], rho[x + 5 * y]);
        for (y = 0; y < 25; y += 5)
            for (x = 0; x < 5; x++)
                a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
        a[0] ^= rc[ir];
    }
}
