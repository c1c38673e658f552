/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A program written against XKCP's KeccakP-1600-times4-SnP.h, as XKCP's AVX2 callers write
 * it: its own __m256i s[25] as the states, filled with intrinsics, permuted by
 * KeccakP1600times4_PermuteAll_24rounds and read back with intrinsics; it must equal four
 * single-state permutations. Built with -mavx2 (skips on a CPU without AVX2).
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "KeccakP-1600-times4-SnP.h"
#include "keccak_p1600.h"

int main(void)
{
    __m256i s[25];
    uint64_t single[4][25], got[4];
    unsigned char lanes[4 * 8];
    unsigned i, j;

    if (!__builtin_cpu_supports("avx2")) {
        puts("SKIP xkcp_times4_avx2: this CPU has no AVX2");
        return 0;
    }
    KeccakP1600times4_StaticInitialize();
    for (i = 0; i < 25; i++) {
        for (j = 0; j < 4; j++)
            single[j][i] = UINT64_C(0x9E3779B97F4A7C15) * (25 * j + i + 1);
        s[i] = _mm256_set_epi64x((long long)single[3][i], (long long)single[2][i],
                                 (long long)single[1][i], (long long)single[0][i]);
    }
    KeccakP1600times4_AddByte(s, 2, 0x5A, 17);
    single[2][2] ^= (uint64_t)0x5A << 8;
    KeccakP1600times4_PermuteAll_24rounds(s);
    KeccakP1600times4_PermuteAll_12rounds(s);
    for (j = 0; j < 4; j++) {
        keccak_f1600(single[j]);
        keccak_p1600(single[j], 12);
    }
    for (i = 0; i < 25; i++) {
        _mm256_storeu_si256((__m256i *)(void *)got, s[i]);
        for (j = 0; j < 4; j++)
            if (got[j] != single[j][i]) {
                printf("FAIL: lane %u of instance %u\n", i, j);
                return 1;
            }
    }
    /* ExtractLanesAll from the same __m256i states. */
    KeccakP1600times4_ExtractLanesAll(s, lanes, 1, 1);
    for (j = 0; j < 4; j++) {
        uint64_t v;
        memcpy(&v, lanes + 8 * j, 8);
        if (v != single[j][0]) {
            printf("FAIL: ExtractLanesAll, instance %u\n", j);
            return 1;
        }
    }
    printf("ok: %s\n", KeccakP1600times4_implementation);
    return 0;
}
