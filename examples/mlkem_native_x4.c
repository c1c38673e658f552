/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * mlkem_native_x4: examples/mlkem_native_roundsmith_x4.h, roundsmith as mlkem-native's
 * FIPS-202 backend, driven the way mlkem-native's front end drives a backend: the file is
 * named by MLK_CONFIG_FIPS202_BACKEND_FILE and included by common.h; the x4 and x1
 * permutations call mlk_keccak_f1600_x4_native / _x1_native and take the result only on
 * MLK_NATIVE_FUNC_SUCCESS; the
 * byte xor and extract are mlkem-native's C loops on state + 25 * j. common.h and api.h are
 * stand-ins of mlkem-native's (examples/stand-ins/). Checked: SHAKE128 and SHAKE256 x4,
 * absorb-once and squeeze-blocks as ML-KEM's matrix and noise use them, against the bundle's
 * one-stream functions, the single-state SHAKE128 on the x1 hook likewise, and SHAKE128("")
 * against FIPS 202's value.
 *
 *   (build: the gcc line below, from this folder)
 *   ./mlkem_native_x4   prints "mlkem_native_x4: ok" and exits 0, or names the first difference
 */
// gcc -O2 -Wall -Wextra -pedantic -I../out/x86_64 -Istand-ins/mlkem-native -Istand-ins/mlkem-native/fips202/native -I. mlkem_native_x4.c ../out/x86_64/*.c -o mlkem_native_x4
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* mlkem-native's configuration, as mlkem_native_config.h or CFLAGS set it. */
#define MLK_CONFIG_USE_NATIVE_BACKEND_FIPS202
#define MLK_CONFIG_FIPS202_BACKEND_FILE "mlkem_native_roundsmith_x4.h"
#include "common.h"

/* ---- the front end's side (mlkem-native's keccakf1600.c does the same) ---- */
static int fell_back;

static void keccakf1600x4_permute(uint64_t *state)
{
#if defined(MLK_USE_NATIVE_FIPS202_X4)
    if (mlk_keccak_f1600_x4_native(state) == MLK_NATIVE_FUNC_SUCCESS)
        return;
#endif
    fell_back = 1; /* this check has no C permutation to fall back on */
}

static void keccakf1600x4_xor_bytes(uint64_t *state, const unsigned char *d0,
                                    const unsigned char *d1, const unsigned char *d2,
                                    const unsigned char *d3, unsigned offset, unsigned length)
{
    const unsigned char *d[4] = {d0, d1, d2, d3};
    unsigned i, j;
    for (j = 0; j < 4; j++)
        for (i = 0; i < length; i++)
            state[25 * j + (offset + i) / 8] ^= (uint64_t)d[j][i] << 8 * ((offset + i) % 8);
}

static void keccakf1600x4_extract_bytes(const uint64_t *state, unsigned char *d0,
                                        unsigned char *d1, unsigned char *d2,
                                        unsigned char *d3, unsigned offset, unsigned length)
{
    unsigned char *d[4] = {d0, d1, d2, d3};
    unsigned i, j;
    for (j = 0; j < 4; j++)
        for (i = 0; i < length; i++)
            d[j][i] = (unsigned char)(state[25 * j + (offset + i) / 8] >> 8 * ((offset + i) % 8));
}

/* SHAKE x4 absorb-once of four equal-length inputs: absorb, pad. */
static void shake_x4_absorb_once(uint64_t state[4 * 25], unsigned rate, const uint8_t *in0,
                                 const uint8_t *in1, const uint8_t *in2, const uint8_t *in3,
                                 size_t inlen)
{
    uint8_t last[4][168];
    const uint8_t *in[4] = {in0, in1, in2, in3};
    size_t done = 0, tail;
    unsigned j;
    memset(state, 0, sizeof(uint64_t) * 4 * 25);
    for (; inlen - done >= rate; done += rate) {
        keccakf1600x4_xor_bytes(state, in0 + done, in1 + done, in2 + done, in3 + done, 0, rate);
        keccakf1600x4_permute(state);
    }
    tail = inlen - done;
    for (j = 0; j < 4; j++) {
        memset(last[j], 0, rate);
        if (tail)
            memcpy(last[j], in[j] + done, tail);
        last[j][tail] = 0x1F; /* SHAKE's domain bits and the first padding bit */
        last[j][rate - 1] |= 0x80;
    }
    keccakf1600x4_xor_bytes(state, last[0], last[1], last[2], last[3], 0, rate);
}

static void shake_x4_squeezeblocks(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,
                                   size_t nblocks, unsigned rate, uint64_t state[4 * 25])
{
    for (; nblocks; nblocks--) {
        keccakf1600x4_permute(state);
        keccakf1600x4_extract_bytes(state, out0, out1, out2, out3, 0, rate);
        out0 += rate, out1 += rate, out2 += rate, out3 += rate;
    }
}

/* The single-state SHAKE128 of ML-KEM's x1 paths, absorb-once then whole blocks, each
 * permutation through mlk_keccak_f1600_x1_native. */
static void keccakf1600_permute(uint64_t *state)
{
#if defined(MLK_USE_NATIVE_FIPS202_X1)
    if (mlk_keccak_f1600_x1_native(state) == MLK_NATIVE_FUNC_SUCCESS)
        return;
#endif
    fell_back = 1;
}

static void shake128_x1(uint8_t *out, size_t nblocks, const uint8_t *in, size_t inlen)
{
    uint64_t state[25];
    size_t i;
    memset(state, 0, sizeof state);
    for (; inlen >= 168; inlen -= 168, in += 168) {
        for (i = 0; i < 168; i++)
            state[i / 8] ^= (uint64_t)in[i] << 8 * (i % 8);
        keccakf1600_permute(state);
    }
    for (i = 0; i < inlen; i++)
        state[i / 8] ^= (uint64_t)in[i] << 8 * (i % 8);
    state[inlen / 8] ^= (uint64_t)0x1F << 8 * (inlen % 8);
    state[167 / 8] ^= (uint64_t)0x80 << 8 * (167 % 8);
    for (; nblocks; nblocks--, out += 168) {
        keccakf1600_permute(state);
        for (i = 0; i < 168; i++)
            out[i] = (uint8_t)(state[i / 8] >> 8 * (i % 8));
    }
}
/* ---- end of the front end's side ---- */

int main(void)
{
    static const uint8_t shake128_empty[8] = {0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d};
    static uint8_t in[4][400], out[4][3 * 168], want[3 * 168];
    uint64_t state[4 * 25];
    /* ML-KEM's matrix seeds are 34 bytes, its noise inputs 33; the others end around a
     * block of either rate. */
    static const size_t lengths[] = {0, 1, 33, 34, 135, 136, 137, 167, 168, 169, 300, 336, 400};
    unsigned rate, j, n;
    size_t inlen, k;

    for (j = 0; j < 4; j++)
        for (k = 0; k < sizeof in[j]; k++)
            in[j][k] = (uint8_t)(k * 31 + j * 7 + 1);
    for (rate = 168; rate >= 136; rate -= 32) {
        for (n = 0; n < sizeof lengths / sizeof lengths[0]; n++) {
            inlen = lengths[n];
            shake_x4_absorb_once(state, rate, in[0], in[1], in[2], in[3], inlen);
            shake_x4_squeezeblocks(out[0], out[1], out[2], out[3], 3, rate, state);
            for (j = 0; j < 4; j++) {
                (rate == 168 ? shake128 : shake256)(want, 3 * rate, in[j], inlen);
                if (fell_back || memcmp(out[j], want, 3 * rate)) {
                    printf("mlkem_native_x4: SHAKE%u stream %u differs at input length %zu"
                           "%s (path %s)\n", rate == 168 ? 128 : 256, j, inlen,
                           fell_back ? ", the backend fell back" : "", rs_path_name());
                    return 1;
                }
            }
        }
    }
    for (n = 0; n < sizeof lengths / sizeof lengths[0]; n++) {
        inlen = lengths[n];
        shake128_x1(out[0], 3, in[0], inlen);
        shake128(want, 3 * 168, in[0], inlen);
        if (fell_back || memcmp(out[0], want, 3 * 168)) {
            printf("mlkem_native_x4: single-state SHAKE128 differs at input length %zu%s "
                   "(path %s)\n", inlen, fell_back ? ", the backend fell back" : "",
                   rs_path_name());
            return 1;
        }
    }
    shake_x4_absorb_once(state, 168, NULL, NULL, NULL, NULL, 0);
    shake_x4_squeezeblocks(out[0], out[1], out[2], out[3], 1, 168, state);
    if (memcmp(out[3], shake128_empty, sizeof shake128_empty)) {
        printf("mlkem_native_x4: SHAKE128(\"\") differs from FIPS 202's (path %s)\n",
               rs_path_name());
        return 1;
    }
    printf("mlkem_native_x4: ok (path %s)\n", rs_path_name());
    return 0;
}
