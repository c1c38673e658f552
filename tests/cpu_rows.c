/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * What a bundle chose on this run (the path, the per-CPU table's row, every decision's
 * option) and what it computed with it: the self-test's code and digests of the multi-buffer
 * API, KT128 and the ChaCha8 keystream over fixed inputs, which must not depend on any of
 * those choices. Run by tests/e2e_vendor.py (CpuRows) under ROUNDSMITH_CPU and
 * ROUNDSMITH_PATH; one key=value a line.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

#define LANE 3000

static uint8_t in[8][LANE], out[8][LANE], kt_in[9 * 8192 + 77];

static uint32_t fnv(const uint8_t *p, size_t n, uint32_t h)
{
    while (n--)
        h = (h ^ *p++) * 16777619u;
    return h;
}

int main(void)
{
    const uint8_t *ins[8];
    uint8_t *outs[8], kt[64], ks[64 * 40];
    struct chacha8_ctx ctx;
    uint32_t h = 2166136261u;
    int d, k;
    size_t i;

    for (k = 0; k < 8; k++) {
        for (i = 0; i < LANE; i++)
            in[k][i] = (uint8_t)(i * 7 + k * 31);
        ins[k] = in[k];
        outs[k] = out[k];
    }
    for (i = 0; i < sizeof kt_in; i++)
        kt_in[i] = (uint8_t)(i % 251);
    printf("path=%s\nrow=%s\n", rs_path_name(), rs_cpu_row_name());
    for (d = 0; d < RS_DECISIONS; d++)
        printf("%s=%s\n", rs_decision_name(d), rs_choice_name(d));
    printf("selftest=%d\n", rs_selftest());
    shake128_x2(outs, LANE, ins, LANE - 1);
    h = fnv(out[0], 2 * LANE, h);
    shake256_x4(outs, LANE, ins, LANE - 5);
    h = fnv(out[0], 4 * LANE, h);
    sha3_256_x8(outs, ins, LANE);
    for (k = 0; k < 8; k++)
        h = fnv(out[k], 32, h);
    printf("digest_mb=%08x\n", (unsigned)h);
    kt128(kt, sizeof kt, kt_in, sizeof kt_in, (const uint8_t *)"rs", 2);
    printf("digest_kt128=%08x\n", (unsigned)fnv(kt, sizeof kt, 2166136261u));
    chacha8_keysetup(&ctx, kt, 256, kt + 32);
    chacha8_get_keystream(&ctx, 0xfffffffeULL, 40, ks);
    printf("digest_chacha8=%08x\n", (unsigned)fnv(ks, sizeof ks, 2166136261u));
    return 0;
}
