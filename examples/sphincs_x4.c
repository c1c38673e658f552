/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * sphincs_x4: a times-4 permutation over __m256i s[25], as SPHINCS+'s shake-avx2 code (and
 * other users of XKCP's times-4 SnP) hold four states: lane i of instance j is 64-bit word j
 * of s[i]. The bundle's KeccakP-1600-times4-SnP.h is XKCP's header, names and layout: the
 * glue is that #include, nothing more. The rest is the library's side, a four-way SHAKE256
 * as SPHINCS+'s thash x4 runs it, checked against the bundle's one-stream shake256. It uses
 * no AVX2 instruction itself (only the type), so it builds and runs with no -m flags.
 *
 *   (build: the gcc line below, from this folder; x86-64 only, for __m256i)
 *   ./sphincs_x4     prints "sphincs_x4: ok" and exits 0, or names the first difference
 */
// gcc -O2 -Wall -Wextra -pedantic -I../out/x86_64 sphincs_x4.c ../out/x86_64/*.c -o sphincs_x4
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

/* ---- the glue ---- */
#include "KeccakP-1600-times4-SnP.h"
/* ---- end of the glue ---- */

#define RATE 136 /* SHAKE256 */

/* The library's side: four SHAKE256 of equal-length inputs, the outputs of equal length. */
static void shake256x4(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                       size_t outlen, const uint8_t *in0, const uint8_t *in1,
                       const uint8_t *in2, const uint8_t *in3, size_t inlen)
{
    __m256i s[25];
    const uint8_t *in[4] = {in0, in1, in2, in3};
    uint8_t *out[4] = {out0, out1, out2, out3};
    size_t done, take;
    unsigned j;

    KeccakP1600times4_InitializeAll(s);
    for (done = 0; inlen - done >= RATE; done += RATE) {
        for (j = 0; j < 4; j++)
            KeccakP1600times4_AddBytes(s, j, in[j] + done, 0, RATE);
        KeccakP1600times4_PermuteAll_24rounds(s);
    }
    for (j = 0; j < 4; j++) {
        KeccakP1600times4_AddBytes(s, j, in[j] + done, 0, (unsigned)(inlen - done));
        KeccakP1600times4_AddByte(s, j, 0x1F, (unsigned)(inlen - done));
        KeccakP1600times4_AddByte(s, j, 0x80, RATE - 1);
    }
    for (done = 0; done < outlen; done += take) {
        KeccakP1600times4_PermuteAll_24rounds(s);
        take = outlen - done < RATE ? outlen - done : RATE;
        for (j = 0; j < 4; j++)
            KeccakP1600times4_ExtractBytes(s, j, out[j] + done, 0, (unsigned)take);
    }
}

int main(void)
{
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
            shake256(want, sizeof want, in[j], inlen);
            if (memcmp(out[j], want, sizeof want)) {
                printf("sphincs_x4: stream %u differs at input length %zu (path %s)\n", j,
                       inlen, rs_path_name());
                return 1;
            }
        }
    }
    printf("sphincs_x4: ok (path %s)\n", rs_path_name());
    return 0;
}
