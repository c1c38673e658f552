/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * libFuzzer differential target: every vector Keccak-p[1600] kernel linked in
 * (keccak_simd_variants.h: x8 AVX-512, x4 AVX2, x4 and x2 AVX-512VL, x2 SSE2, single-state
 * AVX-512) against the scalar kernel (the compiler's default variant, itself checked against
 * the vectors and the plain reference), on fuzzer-chosen states and round counts. Kernels
 * whose ISA the CPU lacks are left out (and named at start).
 *
 * Input: byte 0 picks the round count (0..31: 25..31 must leave the states unchanged), the
 * next 8 x 200 bytes are up to eight states (missing bytes are zero). Every runnable kernel
 * runs on every input: each instance j of an x-N kernel gets state j, through its own
 * interleave, permutation and deinterleave helpers.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_simd_variants.h"

#include "keccak_simd_table.h"

static void report_skip(const char *name, const char *missing)
{
    fprintf(stderr, "keccak_xN: %s left out, this CPU lacks %s\n", name, missing);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rs_simd_runnable(report_skip);
    fprintf(stderr, "keccak_xN: %u x-N and %u single-state kernels runnable, against %s\n",
            nmultis, nsingles, RS_KECCAK_YARDSTICK_NAME);
    return 0;
}

static void mismatch(const char *variant, unsigned rounds, unsigned instance)
{
    fprintf(stderr, "MISMATCH %s rounds=%u instance %u differs from %s\n", variant, rounds,
            instance, RS_KECCAK_YARDSTICK_NAME);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t bytes[MAXN * 200] = {0};
    uint64_t in[MAXN][25], want[MAXN][25], got[MAXN][25], states[25 * MAXN];
    unsigned rounds, j, k;
    size_t b;

    if (size == 0)
        return 0;
    rounds = data[0] % 32;
    memcpy(bytes, data + 1, size - 1 < sizeof bytes ? size - 1 : sizeof bytes);
    for (b = 0; b < sizeof bytes; b++) /* FIPS 202 byte order whatever the host's */
        in[b / 200][b % 200 / 8] = (b % 8 ? in[b / 200][b % 200 / 8] : 0) |
                                   (uint64_t)bytes[b] << (8 * (b % 8));
    memcpy(want, in, sizeof want);
    for (j = 0; j < MAXN; j++) {
        if (rounds == 24)
            RS_KECCAK_YARDSTICK_F(want[j]);
        else
            RS_KECCAK_YARDSTICK_P(want[j], rounds);
    }
    for (k = 0; k < nmultis; k++) {
        const struct multi *v = multis[k];
        v->interleave(states, &in[0][0]);
        if (rounds == 24)
            v->f(states);
        else
            v->p(states, rounds);
        v->deinterleave(&got[0][0], states);
        for (j = 0; j < v->n; j++)
            if (memcmp(got[j], want[j], sizeof got[j]) != 0)
                mismatch(v->name, rounds, j);
        if (rounds == 24) { /* the p entry at 24 rounds too */
            v->interleave(states, &in[0][0]);
            v->p(states, 24);
            v->deinterleave(&got[0][0], states);
            for (j = 0; j < v->n; j++)
                if (memcmp(got[j], want[j], sizeof got[j]) != 0)
                    mismatch(v->name, rounds, j);
        }
    }
    for (k = 0; k < nsingles; k++) {
        memcpy(got[0], in[0], sizeof got[0]);
        singles[k]->p1600(got[0], rounds);
        if (memcmp(got[0], want[0], sizeof got[0]) != 0)
            mismatch(singles[k]->name, rounds, 0);
    }
    return 0;
}
