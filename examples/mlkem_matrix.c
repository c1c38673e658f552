/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * mlkem_matrix: ML-KEM-768's matrix expansion (FIPS 203, SampleNTT) on the multi-buffer
 * SHAKE128 of a vendored roundsmith bundle, four streams at a time.
 *
 *   (build: the gcc line below, from this folder)
 *   ./mlkem_matrix RHO_HEX [--single]
 *
 * Prints the k x k = 9 polynomials of A-hat, row i then column j, each as one line of 256
 * decimal coefficients. --single expands stream by stream through the single-buffer SHAKE128
 * (the same numbers, the yardstick of bench/bench_sponge_xN.c). Define MLKEM_MATRIX_NO_MAIN
 * to include the two expansions in another program.
 */
// gcc -O2 -Wall -Wextra -pedantic -I../out/x86_64 mlkem_matrix.c ../out/x86_64/*.c -o mlkem_matrix
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "keccak_sponge.h"

#define MLKEM_K 3
#define MLKEM_N 256
#define MLKEM_Q 3329
#define SHAKE128_RATE 168
/* Three blocks give 168 candidates, enough for 256 coefficients with probability about
 * 1 - 2^-20 (as the Kyber reference code reckons), so most streams never squeeze again. */
#define FIRST_BLOCKS 3

/* Rejection sampling: 12-bit candidates, two per 3 bytes, kept below q. Returns the new
 * count of coefficients. While two more fit, both are stored and the count moves by what was
 * kept: no branch to mispredict on random bytes, which matters once the hashing is fast. */
static unsigned sample_ntt(uint16_t *coeffs, unsigned have, const uint8_t *buf, size_t len)
{
    size_t pos;
    for (pos = 0; pos + 3 <= len && have < MLKEM_N; pos += 3) {
        unsigned d1 = buf[pos] | (unsigned)(buf[pos + 1] & 0x0F) << 8;
        unsigned d2 = buf[pos + 1] >> 4 | (unsigned)buf[pos + 2] << 4;
        if (have + 2 <= MLKEM_N) {
            coeffs[have] = (uint16_t)d1;
            have += d1 < MLKEM_Q;
            coeffs[have] = (uint16_t)d2;
            have += d2 < MLKEM_Q;
            continue;
        }
        if (d1 < MLKEM_Q)
            coeffs[have++] = (uint16_t)d1;
        if (d2 < MLKEM_Q && have < MLKEM_N)
            coeffs[have++] = (uint16_t)d2;
    }
    return have;
}

/* A-hat[i][j] from SHAKE128(rho || j || i), FIPS 203 Algorithm 6 with the XOF read a
 * whole block at a time. */
static void expand_single(uint16_t a[MLKEM_K][MLKEM_K][MLKEM_N], const uint8_t rho[32])
{
    uint8_t seed[34], buf[FIRST_BLOCKS * SHAKE128_RATE];
    keccak_sponge ctx;
    unsigned i, j, have;

    memcpy(seed, rho, 32);
    for (i = 0; i < MLKEM_K; i++)
        for (j = 0; j < MLKEM_K; j++) {
            seed[32] = (uint8_t)j;
            seed[33] = (uint8_t)i;
            shake128_init(&ctx);
            shake128_absorb(&ctx, seed, sizeof seed);
            shake128_squeeze(&ctx, buf, sizeof buf);
            have = sample_ntt(a[i][j], 0, buf, sizeof buf);
            while (have < MLKEM_N) {
                shake128_squeeze(&ctx, buf, SHAKE128_RATE);
                have = sample_ntt(a[i][j], have, buf, SHAKE128_RATE);
            }
        }
}

/* The same, four streams per call: nine streams are batches of 4, 4 and 1, the last batch
 * repeating its stream in the spare lanes (which costs what one x4 permutation costs, less
 * than three single ones). */
static void expand_x4(uint16_t a[MLKEM_K][MLKEM_K][MLKEM_N], const uint8_t rho[32])
{
    uint8_t seeds[4][34], bufs[4][FIRST_BLOCKS * SHAKE128_RATE];
    const uint8_t *in[4];
    uint8_t *out[4];
    uint16_t *poly[4];
    unsigned have[4], s, l, lanes, more;
    keccak_sponge_x4 ctx;

    for (s = 0; s < MLKEM_K * MLKEM_K; s += lanes) {
        lanes = MLKEM_K * MLKEM_K - s < 4 ? MLKEM_K * MLKEM_K - s : 4;
        for (l = 0; l < 4; l++) {
            unsigned t = s + (l < lanes ? l : lanes - 1), i = t / MLKEM_K, j = t % MLKEM_K;
            memcpy(seeds[l], rho, 32);
            seeds[l][32] = (uint8_t)j;
            seeds[l][33] = (uint8_t)i;
            in[l] = seeds[l];
            out[l] = bufs[l];
            poly[l] = a[i][j];
        }
        shake128_x4_init(&ctx);
        shake128_x4_absorb(&ctx, in, 34);
        shake128_x4_squeeze(&ctx, out, sizeof bufs[0]);
        for (more = 0, l = 0; l < lanes; l++) {
            have[l] = sample_ntt(poly[l], 0, bufs[l], sizeof bufs[0]);
            more |= have[l] < MLKEM_N;
        }
        while (more) {
            shake128_x4_squeeze(&ctx, out, SHAKE128_RATE);
            for (more = 0, l = 0; l < lanes; l++) {
                have[l] = sample_ntt(poly[l], have[l], bufs[l], SHAKE128_RATE);
                more |= have[l] < MLKEM_N;
            }
        }
    }
}

#ifndef MLKEM_MATRIX_NO_MAIN
int main(int argc, char **argv)
{
    static uint16_t a[MLKEM_K][MLKEM_K][MLKEM_N];
    uint8_t rho[32];
    unsigned i, j, k, v;

    if (argc < 2 || strlen(argv[1]) != 64 || (argc > 2 && strcmp(argv[2], "--single"))) {
        fprintf(stderr, "usage: mlkem_matrix RHO_HEX [--single]   (RHO_HEX: 64 hex digits)\n");
        return 2;
    }
    for (k = 0; k < 32; k++) {
        if (sscanf(argv[1] + 2 * k, "%2x", &v) != 1) {
            fprintf(stderr, "mlkem_matrix: RHO_HEX is not hex\n");
            return 2;
        }
        rho[k] = (uint8_t)v;
    }
    if (argc > 2)
        expand_single(a, rho);
    else
        expand_x4(a, rho);
    for (i = 0; i < MLKEM_K; i++)
        for (j = 0; j < MLKEM_K; j++)
            for (k = 0; k < MLKEM_N; k++)
                printf("%u%c", a[i][j][k], k + 1 < MLKEM_N ? ' ' : '\n');
    return 0;
}
#endif
