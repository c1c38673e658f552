/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * sphincs_x4: a roundsmith bundle under SPHINCS+'s shake-avx2 code. SPHINCS+ takes one
 * symbol from XKCP's times-4 code (keccak4x/KeccakP-1600-times4-SIMD256.c), declaring it in
 * four of its files itself, with its own type:
 *
 *     extern void KeccakP1600times4_PermuteAll_24rounds(__m256i *s);
 *
 * four states interleaved, lane i of instance j being 64-bit word j of s[i] (XKCP's layout,
 * and keccak_f1600_x4's). It also defines shake128, shake256, sha3_256 and the like itself
 * (fips202.c), names a plain bundle exports too: so the bundle is made with a prefix
 *
 *     python3 -m generator bundle --target x86_64 --kernels keccak --prefix rs_pq_ --out DIR
 *
 * and the glue gives SPHINCS+ its unprefixed symbol. Link the bundle's objects and the glue
 * in place of keccak4x/KeccakP-1600-times4-SIMD256.o; SPHINCS+'s sources stay as they are.
 * (A bundle made with --prefix rs_pq_ --keep-drop-in-names keeps XKCP's names unprefixed:
 * its KeccakP1600times4_PermuteAll_24rounds is then SPHINCS+'s symbol, with void * for
 * __m256i *, and the glue is no line at all.)
 *
 * The rest of the file is SPHINCS+'s side: four-way SHAKE256 on __m256i s[25] as its thash
 * x4 code runs it (the lanes set and read here by memcpy, where SPHINCS+ uses AVX2
 * intrinsics, so the file builds with no -m flags), and a one-stream shake256 of its own
 * name. Checked against the bundle's rs_pq_shake256 and FIPS 202's SHAKE256("").
 *
 *   (build: from this folder, DIR the prefixed bundle above)
 *   gcc -O2 -Wall -Wextra -pedantic -IDIR sphincs_x4.c <each .c file of DIR> -o sphincs_x4
 *   ./sphincs_x4     prints "sphincs_x4: ok" and exits 0, or names the first difference
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

/* ---- the glue ---- */
void KeccakP1600times4_PermuteAll_24rounds(__m256i *s);
void KeccakP1600times4_PermuteAll_24rounds(__m256i *s) { rs_pq_keccak_f1600_x4((uint64_t(*)[4])s); }
/* ---- end of the glue ---- */

/* ---- SPHINCS+'s side ---- */
extern void KeccakP1600times4_PermuteAll_24rounds(__m256i *s);
void shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

#define RATE 136 /* SHAKE256 */

/* Xors `len` bytes of `in` into instance j of s at byte `at` (lane i of instance j: word j of
 * s[i]). */
static void xor_into(__m256i s[25], unsigned j, const uint8_t *in, size_t at, size_t len)
{
    uint64_t lane;
    size_t k;
    for (k = 0; k < len; k++) {
        memcpy(&lane, (uint8_t *)&s[(at + k) / 8] + 8 * j, 8);
        lane ^= (uint64_t)in[k] << 8 * ((at + k) % 8);
        memcpy((uint8_t *)&s[(at + k) / 8] + 8 * j, &lane, 8);
    }
}

static void shake256x4(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                       size_t outlen, const uint8_t *in0, const uint8_t *in1,
                       const uint8_t *in2, const uint8_t *in3, size_t inlen)
{
    static const uint8_t pad[2] = {0x1F, 0x80};
    __m256i s[25];
    const uint8_t *in[4] = {in0, in1, in2, in3};
    uint8_t *out[4] = {out0, out1, out2, out3};
    size_t done, take, k;
    unsigned j;

    memset(s, 0, sizeof s);
    for (done = 0; inlen - done >= RATE; done += RATE) {
        for (j = 0; j < 4; j++)
            xor_into(s, j, in[j] + done, 0, RATE);
        KeccakP1600times4_PermuteAll_24rounds(s);
    }
    for (j = 0; j < 4; j++) {
        xor_into(s, j, in[j] + done, 0, inlen - done);
        xor_into(s, j, pad, inlen - done, 1);
        xor_into(s, j, pad + 1, RATE - 1, 1);
    }
    for (done = 0; done < outlen; done += take) {
        KeccakP1600times4_PermuteAll_24rounds(s);
        take = outlen - done < RATE ? outlen - done : RATE;
        for (j = 0; j < 4; j++)
            for (k = 0; k < take; k++)
                out[j][done + k] = ((uint8_t *)&s[k / 8])[8 * j + k % 8];
    }
}

/* SPHINCS+'s fips202.c defines shake256: a plain bundle's shake256 would clash with it. */
void shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    static uint8_t spare[3][200];
    shake256x4(out, spare[0], spare[1], spare[2], outlen < 200 ? outlen : 200, in, in, in, in,
               inlen);
}
/* ---- end of SPHINCS+'s side ---- */

int main(void)
{
    static const uint8_t empty256[8] = {0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13};
    static uint8_t in[4][300], out[4][200], want[200];
    size_t inlen, k;
    unsigned j;

    for (j = 0; j < 4; j++)
        for (k = 0; k < sizeof in[j]; k++)
            in[j][k] = (uint8_t)(k * 29 + j * 11 + 3);
    /* SPHINCS+'s thash inputs are tens of bytes; these also cross and end on a block. */
    for (inlen = 0; inlen <= 300; inlen += 34) {
        shake256x4(out[0], out[1], out[2], out[3], sizeof out[0], in[0], in[1], in[2], in[3],
                   inlen);
        for (j = 0; j < 4; j++) {
            rs_pq_shake256(want, sizeof want, in[j], inlen);
            if (memcmp(out[j], want, sizeof want)) {
                printf("sphincs_x4: stream %u differs at input length %zu (path %s)\n", j,
                       inlen, rs_pq_path_name());
                return 1;
            }
        }
    }
    shake256(out[0], 8, (const uint8_t *)"", 0);
    if (memcmp(out[0], empty256, sizeof empty256)) {
        printf("sphincs_x4: SHAKE256(\"\") differs from FIPS 202's (path %s)\n",
               rs_pq_path_name());
        return 1;
    }
    printf("sphincs_x4: ok (path %s)\n", rs_pq_path_name());
    return 0;
}
