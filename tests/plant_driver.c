/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The differential half of tests/e2e_plant.py: linked with a bundle built with
 * -DRS_TUNING_HOOKS, it prints the self-test's code first, then one digest of a workload
 * wider than the self-test's (every round count, many lengths, lane counts and block counts)
 * run once per option of every decision the path in force can take (rs_tuning_force), so
 * every kernel the path can reach runs. A planted bug changes an output on a path when the
 * digest differs from the unplanted build's there. Prints:
 *   selftest=<code>
 *   digest=<16 hex digits>
 */
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

static uint64_t rs_h = 0xCBF29CE484222325ULL;
static uint8_t rs_msg[3 * 8192 + 4096], rs_out[8192];

static void mix(const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    size_t i;
    for (i = 0; i < n; i++)
        rs_h = (rs_h ^ b[i]) * 0x100000001B3ULL;
}

static void mix_n(size_t n)
{
    mix(&n, sizeof n);
}

static void lanes(uint64_t *st, size_t n, unsigned seed)
{
    size_t i;
    for (i = 0; i < n; i++)
        st[i] = (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL ^ seed;
}

static const unsigned LANES[] = { 1, 9, 13, 16, 17, 18, 21, 25 };
static const unsigned ROUNDS[] = { 24, 12, 7, 1 };
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void single(void)
{
    uint64_t st[25];
    unsigned r, l, k;
    lanes(st, 25, 1);
    keccak_f1600(st);
    for (r = 0; r <= 24; r++)
        keccak_p1600(st, r);
    mix(st, sizeof st);
    for (l = 0; l < COUNT(LANES); l++)
        for (k = 0; k < COUNT(ROUNDS); k++) {
            size_t len = 3 * 8 * LANES[l] + 5;
            mix_n(keccak_p1600_absorb(st, ROUNDS[k], LANES[l], rs_msg + k, len));
            mix(st, sizeof st);
            mix_n(keccak_p1600_squeeze(st, ROUNDS[k], LANES[l], rs_out, len));
            mix(rs_out, 3 * 8 * LANES[l]);
        }
    {
        KeccakP1600_state s;
        KeccakP1600_Initialize(&s);
        KeccakP1600_AddBytes(&s, rs_msg, 3, 190);
        KeccakP1600_Permute_24rounds(&s);
        mix_n(KeccakF1600_FastLoop_Absorb(&s, 21, rs_msg, 1000));
        mix_n(KeccakP1600_12rounds_FastLoop_Absorb(&s, 17, rs_msg + 1, 900));
        KeccakP1600_Permute_Nrounds(&s, 6);
        KeccakP1600_AddByte(&s, 0x5A, 77);
        KeccakP1600_OverwriteBytes(&s, rs_msg + 9, 5, 101);
        KeccakP1600_Permute_12rounds(&s);
        KeccakP1600_OverwriteWithZeroes(&s, 13);
        KeccakP1600_Permute_24rounds(&s);
        KeccakP1600_ExtractBytes(&s, rs_out, 0, 200);
        KeccakP1600_ExtractAndAddBytes(&s, rs_msg, rs_out + 200, 3, 150);
        mix(rs_out, 350);
        for (k = 1; k < 25; k += 3) {
            uint64_t trail = 0x0B0200000000008FULL ^ k;
            mix_n(KeccakP1600_ODDuplexingFastInOut(&s, k, rs_msg + k, 700, rs_out, rs_msg, trail));
            mix(rs_out, 700);
            mix_n(KeccakP1600_ODDuplexingFastOut(&s, k, rs_out, 500, rs_msg + 3, trail));
            mix(rs_out, 500);
            mix_n(KeccakP1600_ODDuplexingFastIn(&s, k, rs_msg, 8 * k * 3, trail));
            mix_n(KeccakP1600_12rounds_ODDuplexingFastInOut(&s, k, rs_msg, 600, rs_out, rs_msg + 1, trail));
            mix(rs_out, 600);
            mix_n(KeccakP1600_12rounds_ODDuplexingFastOut(&s, k, rs_out, 400, rs_msg, trail));
            mix(rs_out, 400);
            mix_n(KeccakP1600_12rounds_ODDuplexingFastIn(&s, k, rs_msg, 8 * k * 2 + 1, trail));
            KeccakP1600_ExtractBytes(&s, rs_out, 0, 200);
            mix(rs_out, 200);
        }
    }
    sha3_256(rs_out, rs_msg, 1000);
    shake128(rs_out + 32, 500, rs_msg, 333);
    turboshake256(rs_out + 600, 300, rs_msg, 777, 0x1F);
    mix(rs_out, 900);
}

#define XN(N)                                                                             \
    static void multi##N(void)                                                            \
    {                                                                                     \
        uint64_t st[25][N], sep[N][25];                                                   \
        const uint8_t *in[N];                                                             \
        uint8_t *to[N];                                                                   \
        unsigned r, l, k, b, j;                                                           \
        lanes(&st[0][0], 25 * N, N);                                                      \
        for (r = 0; r <= 24; r++)                                                         \
            keccak_p1600_x##N(st, r);                                                     \
        keccak_f1600_x##N(st);                                                            \
        mix(st, sizeof st);                                                               \
        lanes(&sep[0][0], 25 * N, N + 1);                                                 \
        for (k = 0; k < COUNT(ROUNDS); k++)                                               \
            keccak_p1600_x##N##_states(sep, ROUNDS[k]);                                   \
        keccak_f1600_x##N##_states(sep);                                                  \
        mix(sep, sizeof sep);                                                             \
        keccak_x##N##_interleave(st, (const uint64_t(*)[25])sep);                         \
        keccak_p1600_x##N(st, 5);                                                         \
        keccak_x##N##_deinterleave(sep, (const uint64_t(*)[N])st);                        \
        mix(sep, sizeof sep);                                                             \
        for (l = 0; l < COUNT(LANES); l++)                                                \
            for (k = 0; k < COUNT(ROUNDS); k++)                                           \
                for (b = 0; b < 4; b += 3) {                                              \
                    for (j = 0; j < N; j++) {                                             \
                        in[j] = rs_msg + 8 * LANES[l] * 3 * j + k;                        \
                        to[j] = rs_out + 8 * LANES[l] * 3 * j;                            \
                    }                                                                     \
                    mix_n(keccak_p1600_x##N##_absorb(st, in, b, LANES[l], ROUNDS[k]));   \
                    mix(st, sizeof st);                                                   \
                    mix_n(keccak_p1600_x##N##_squeeze(st, to, b, LANES[l], ROUNDS[k]));  \
                    mix(rs_out, 8 * LANES[l] * 3 * N);                                    \
                }                                                                         \
        {                                                                                 \
            uint64_t s[25 * N];                                                           \
            KeccakP1600times##N##_InitializeAll(s);                                       \
            for (j = 0; j < N; j++)                                                       \
                KeccakP1600times##N##_AddBytes(s, j, rs_msg + j, j, 170);                 \
            KeccakP1600times##N##_AddLanesAll(s, rs_msg, 21, 25);                         \
            KeccakP1600times##N##_PermuteAll_24rounds(s);                                 \
            mix_n(KeccakF1600times##N##_FastLoop_Absorb(s, 21, 21, 21, rs_msg, 5000));    \
            mix_n(KeccakP1600times##N##_12rounds_FastLoop_Absorb(s, 17, 19, 23, rs_msg,   \
                                                                 5000));                  \
            KeccakP1600times##N##_PermuteAll_6rounds(s);                                  \
            KeccakP1600times##N##_PermuteAll_4rounds(s);                                  \
            KeccakP1600times##N##_PermuteAll_12rounds(s);                                 \
            KeccakP1600times##N##_ExtractLanesAll(s, rs_out, 25, 25);                     \
            mix(rs_out, 200 * N);                                                         \
            KeccakP1600times##N##_ExtractAndAddLanesAll(s, rs_msg, rs_out, 7, 9);         \
            mix(rs_out, 8 * 9 * N);                                                       \
        }                                                                                 \
    }
XN(2)
XN(4)
XN(8)

static void tree(void)
{
    kt128(rs_out, 64, rs_msg, sizeof rs_msg, rs_msg, 9);
    kt256(rs_out + 64, 64, rs_msg, 3 * 8192 + 1, NULL, 0);
    mix_n((size_t)parallelhash128(rs_out + 128, 64, rs_msg, 4000, 37, NULL, 0));
    mix_n((size_t)parallelhash256(rs_out + 192, 64, rs_msg, 9000, 168, NULL, 0));
    mix(rs_out, 256);
}

static void chacha(void)
{
    struct chacha8_ctx c8;
    struct chacha12_ctx c12;
    struct chacha20_ctx c20;
    uint32_t n;
    size_t len;
    chacha8_keysetup(&c8, rs_msg, 256, rs_msg + 32);
    chacha12_keysetup(&c12, rs_msg + 1, 128, rs_msg + 40);
    chacha20_keysetup(&c20, rs_msg + 2, 256, NULL);
    for (n = 0; n <= 70; n++) {
        chacha8_get_keystream(&c8, 0xFFFFFFFFULL - n, n, rs_out);
        mix(rs_out, 64 * (size_t)n);
        chacha12_get_keystream(&c12, n, n, rs_out);
        mix(rs_out, 64 * (size_t)n);
        chacha20_get_keystream(&c20, 0xFFFFFFFFFFFFFFF0ULL + n, n, rs_out);
        mix(rs_out, 64 * (size_t)n);
    }
    for (len = 0; len <= 64 * 70; len += len < 200 ? 1 : 61) {
        chacha20_xor(rs_out, rs_msg, len, rs_msg + 3, rs_msg + 50, 0xFFFFFFFDULL);
        mix(rs_out, len);
        chacha20_ietf_xor(rs_out, rs_msg, len, rs_msg + 4, rs_msg + 60, 0xFFFFFFF0U + (uint32_t)len % 32);
        mix(rs_out, len);
    }
}

static void part(const char *decision)
{
    if (!strcmp(decision, "single"))
        single();
    else if (!strcmp(decision, "mb2"))
        multi2();
    else if (!strcmp(decision, "mb4"))
        multi4();
    else if (!strcmp(decision, "mb8"))
        multi8();
    else if (!strcmp(decision, "kt128"))
        tree();
    else if (!strcmp(decision, "chacha"))
        chacha();
}

int main(void)
{
    int d, o;
    size_t i;
    for (i = 0; i < sizeof rs_msg; i++)
        rs_msg[i] = (uint8_t)(i * 131 + (i >> 8));
    printf("selftest=%d\n", rs_selftest());
    fflush(stdout);
    for (d = 0; rs_decision_name(d); d++) {
        int keep = rs_choice(d);
        for (o = 0; rs_option_name(d, o); o++) {
            if (rs_tuning_force(d, o))
                continue;
            part(rs_decision_name(d));
        }
        rs_tuning_force(d, keep);
    }
    printf("digest=%016llx\n", (unsigned long long)rs_h);
    return 0;
}
