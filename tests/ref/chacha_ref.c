/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Plain scalar ChaCha, written the straightforward way from Bernstein's description: the
 * state copied into an array, a rolled loop of double rounds, the input added back, the words
 * stored byte by byte, the 64-bit counter bumped from word 12 into word 13. This is the
 * yardstick of the bench ("the plain reference", built with gcc -O3) and an independent
 * second opinion for the tests; it is deliberately not tuned.
 */
#include "chacha_ref.h"

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define QUARTERROUND(a, b, c, d) \
    x[a] += x[b]; x[d] = ROTL32(x[d] ^ x[a], 16); \
    x[c] += x[d]; x[b] = ROTL32(x[b] ^ x[c], 12); \
    x[a] += x[b]; x[d] = ROTL32(x[d] ^ x[a], 8); \
    x[c] += x[d]; x[b] = ROTL32(x[b] ^ x[c], 7)

static uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void rs_ref_chacha_keysetup(uint32_t input[16], const uint8_t *k, uint32_t kbits,
                            const uint8_t *iv)
{
    static const uint8_t sigma[] = "expand 32-byte k", tau[] = "expand 16-byte k";
    const uint8_t *constants = kbits == 256 ? sigma : tau;
    int i;

    for (i = 0; i < 4; i++) {
        input[i] = load32_le(constants + 4 * i);
        input[4 + i] = load32_le(k + 4 * i);
        input[8 + i] = load32_le(k + (kbits == 256 ? 16 : 0) + 4 * i);
    }
    input[12] = input[13] = 0;
    input[14] = iv ? load32_le(iv) : 0;
    input[15] = iv ? load32_le(iv + 4) : 0;
}

void rs_ref_chacha_keystream(const uint32_t input[16], unsigned rounds, uint64_t pos,
                             uint32_t n_blocks, uint8_t *c)
{
    uint32_t j[16], x[16];
    unsigned i, r;

    for (i = 0; i < 16; i++)
        j[i] = input[i];
    j[12] = (uint32_t)pos;
    j[13] = (uint32_t)(pos >> 32);
    while (n_blocks--) {
        for (i = 0; i < 16; i++)
            x[i] = j[i];
        for (r = 0; r < rounds; r += 2) {
            QUARTERROUND(0, 4, 8, 12);
            QUARTERROUND(1, 5, 9, 13);
            QUARTERROUND(2, 6, 10, 14);
            QUARTERROUND(3, 7, 11, 15);
            QUARTERROUND(0, 5, 10, 15);
            QUARTERROUND(1, 6, 11, 12);
            QUARTERROUND(2, 7, 8, 13);
            QUARTERROUND(3, 4, 9, 14);
        }
        for (i = 0; i < 16; i++) {
            uint32_t v = x[i] + j[i];
            c[4 * i] = (uint8_t)v;
            c[4 * i + 1] = (uint8_t)(v >> 8);
            c[4 * i + 2] = (uint8_t)(v >> 16);
            c[4 * i + 3] = (uint8_t)(v >> 24);
        }
        if (++j[12] == 0)
            j[13]++;
        c += 64;
    }
}
