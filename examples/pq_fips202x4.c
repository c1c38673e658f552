/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * pq_fips202x4: a times-4 Keccak with byte access, in the shape the FIPS 202 x4 backends of
 * ML-KEM and ML-DSA libraries (mlkem-native, mldsa-native, PQClean's) take it: four separate
 * 25-lane states one after another (uint64_t state[4 * 25]), a permutation of all four, and
 * xor / extract of bytes at an offset of each. The glue below is all a library needs; the
 * rest of this file is the library's side (SHAKE128 x4 absorb-once and squeeze-blocks, as
 * their matrix expansion uses it), checked against the bundle's one-stream shake128.
 *
 *   (build: the gcc line below, from this folder)
 *   ./pq_fips202x4   prints "pq_fips202x4: ok" and exits 0, or names the first difference
 */
// gcc -O2 -Wall -Wextra -pedantic -I../out/x86_64 pq_fips202x4.c ../out/x86_64/*.c -o pq_fips202x4
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

/* ---- the glue ---- */
static void keccakx4_xor_bytes(uint64_t *state, const uint8_t *d0, const uint8_t *d1,
                               const uint8_t *d2, const uint8_t *d3, unsigned offset,
                               unsigned length)
{
    const uint8_t *d[4] = {d0, d1, d2, d3};
    unsigned j;
    for (j = 0; j < 4; j++)
        KeccakP1600_AddBytes(state + 25 * j, d[j], offset, length);
}
static void keccakx4_extract_bytes(const uint64_t *state, uint8_t *d0, uint8_t *d1, uint8_t *d2,
                                   uint8_t *d3, unsigned offset, unsigned length)
{
    uint8_t *d[4] = {d0, d1, d2, d3};
    unsigned j;
    for (j = 0; j < 4; j++)
        KeccakP1600_ExtractBytes(state + 25 * j, d[j], offset, length);
}
static void keccakx4_permute(uint64_t *state) { keccak_f1600_x4_states((uint64_t(*)[25])state); }
/* ---- end of the glue ---- */

#define RATE 168 /* SHAKE128 */

/* The library's side: absorb four equal-length inputs at once, pad, permute. */
static void shake128x4_absorb_once(uint64_t state[4 * 25], const uint8_t *in0,
                                   const uint8_t *in1, const uint8_t *in2, const uint8_t *in3,
                                   size_t inlen)
{
    uint8_t last[4][RATE];
    const uint8_t *in[4] = {in0, in1, in2, in3};
    size_t done = 0, tail;
    unsigned j;
    memset(state, 0, sizeof(uint64_t) * 4 * 25);
    for (; inlen - done >= RATE; done += RATE) {
        keccakx4_xor_bytes(state, in0 + done, in1 + done, in2 + done, in3 + done, 0, RATE);
        keccakx4_permute(state);
    }
    tail = inlen - done;
    for (j = 0; j < 4; j++) {
        memset(last[j], 0, RATE);
        memcpy(last[j], in[j] + done, tail);
        last[j][tail] = 0x1F; /* SHAKE's domain bits and the first padding bit */
        last[j][RATE - 1] |= 0x80;
    }
    keccakx4_xor_bytes(state, last[0], last[1], last[2], last[3], 0, RATE);
}

static void shake128x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2,
                                     uint8_t *out3, size_t nblocks, uint64_t state[4 * 25])
{
    for (; nblocks; nblocks--) {
        keccakx4_permute(state);
        keccakx4_extract_bytes(state, out0, out1, out2, out3, 0, RATE);
        out0 += RATE, out1 += RATE, out2 += RATE, out3 += RATE;
    }
}

int main(void)
{
    static uint8_t in[4][400], out[4][3 * RATE], want[3 * RATE];
    uint64_t state[4 * 25];
    size_t inlen, k;
    unsigned j;

    for (j = 0; j < 4; j++)
        for (k = 0; k < sizeof in[j]; k++)
            in[j][k] = (uint8_t)(k * 31 + j * 7 + 1);
    /* ML-KEM's matrix seeds are 34 bytes; the others cross a block and end on one. */
    for (inlen = 0; inlen <= 400; inlen += inlen == 34 ? 134 : inlen < 34 ? 34 : 64) {
        shake128x4_absorb_once(state, in[0], in[1], in[2], in[3], inlen);
        shake128x4_squeezeblocks(out[0], out[1], out[2], out[3], 3, state);
        for (j = 0; j < 4; j++) {
            shake128(want, sizeof want, in[j], inlen);
            if (memcmp(out[j], want, sizeof want)) {
                printf("pq_fips202x4: stream %u differs at input length %zu (path %s)\n", j,
                       inlen, rs_path_name());
                return 1;
            }
        }
    }
    printf("pq_fips202x4: ok (path %s)\n", rs_path_name());
    return 0;
}
