/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for the AArch64 x2 kernels, NEON and SHA3 extension (keccak_p1600_arm.c.j2),
 * run under `qemu-aarch64 -cpu max` by `ninja test-cross`.
 *
 * Instance 0 gets each vector's input and must give its output; instance 1 gets a different
 * state, checked against the scalar kernel, so a kernel that mixed the two halves of a
 * register, or computed only one, fails. The block loops (absorb and squeeze over two
 * misaligned streams, every rate 1..25 lanes, 24, 12, 7 and 0 rounds) must equal two
 * single-state runs of the scalar kernel.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK_MAX_ASSERT_MEM_PRINT_SIZE 200
#include <check.h>

#include "cpu_features.h"
#include "keccak_x2_arm_variants.h"
#include "keccak_vectors.h"

struct variant {
    const char *name;
    void (*f1600)(uint64_t states[25][2]);
    void (*p1600)(uint64_t states[25][2], unsigned rounds);
    size_t (*absorb)(uint64_t states[25][2], const uint8_t *const in[2], size_t blocks,
                     unsigned rate, unsigned rounds);
    size_t (*squeeze)(uint64_t states[25][2], uint8_t *const out[2], size_t blocks,
                      unsigned rate, unsigned rounds);
    int sha3;
};

#define RS_ENTRY(f1600, p1600, absorb, squeeze, name, sha3) \
    {name, f1600, p1600, absorb, squeeze, sha3},
static const struct variant all_variants[] = {RS_X2_ARM_VARIANTS(RS_ENTRY)};
#define NVARIANTS (sizeof all_variants / sizeof all_variants[0])

static const struct variant *runnable[NVARIANTS];
static unsigned nrunnable;

START_TEST(test_vectors)
{
    const struct variant *v = runnable[_i / RS_KECCAK_NCASES];
    const struct rs_keccak_case *c = &rs_keccak_cases[_i % RS_KECCAK_NCASES];
    uint64_t states[25][2], other[25], got0[25], got1[25];
    unsigned k;

    for (k = 0; k < 25; k++) {
        other[k] = c->in[(k + 7) % 25] ^ (0x9E3779B97F4A7C15u * (k + 1));
        states[k][0] = c->in[k];
        states[k][1] = other[k];
    }
    v->p1600(states, c->rounds);
    RS_ORACLE_P(other, c->rounds);
    for (k = 0; k < 25; k++) {
        got0[k] = states[k][0];
        got1[k] = states[k][1];
    }
    ck_assert_msg(memcmp(got0, c->out, sizeof got0) == 0, "%s: instance 0, %s", v->name,
                  c->name);
    ck_assert_msg(memcmp(got1, other, sizeof got1) == 0, "%s: instance 1, %s (against %s)",
                  v->name, c->name, RS_ORACLE_NAME);
    if (c->rounds == 24) {
        for (k = 0; k < 25; k++)
            states[k][0] = states[k][1] = c->in[k];
        v->f1600(states);
        for (k = 0; k < 25; k++)
            ck_assert_msg(states[k][0] == c->out[k] && states[k][1] == c->out[k],
                          "%s: keccak_f1600_x2, %s, lane %u", v->name, c->name, k);
    }
}
END_TEST

static const unsigned block_rounds[4] = {24, 12, 7, 0};

/* One loop index per (variant, rate 1..25, round count): 3 blocks absorbed from two streams
 * misaligned by 1 and 6 bytes, then 3 squeezed into two misaligned outputs. */
START_TEST(test_block_loops)
{
    const struct variant *v = runnable[_i / 100];
    unsigned rate = 1 + (unsigned)(_i % 100) / 4, rounds = block_rounds[_i % 4];
    size_t len = 3 * 8 * (size_t)rate, b, k;
    uint8_t bufs[2][3 * 200 + 16], outs[2][3 * 200 + 16], want[3 * 200];
    uint64_t states[25][2], expect[2][25];
    const uint8_t *in[2];
    uint8_t *out[2];
    unsigned j, i;

    for (j = 0; j < 2; j++) {
        for (k = 0; k < sizeof bufs[j]; k++)
            bufs[j][k] = (uint8_t)(k * 31u + j * 101u + rate);
        in[j] = bufs[j] + 1 + 5 * j;
        out[j] = outs[j] + 1 + 5 * j;
        memset(outs[j], 0xA5, sizeof outs[j]);
        for (i = 0; i < 25; i++)
            expect[j][i] = states[i][j] = 0x9E3779B97F4A7C15u * (i + 25 * j + rate + 1);
        for (b = 0; b < 3; b++) {
            for (i = 0; i < rate; i++) {
                uint64_t lane = 0;
                for (k = 0; k < 8; k++)
                    lane |= (uint64_t)in[j][8 * (b * rate + i) + k] << (8 * k);
                expect[j][i] ^= lane;
            }
            RS_ORACLE_P(expect[j], rounds);
        }
    }
    ck_assert_uint_eq(v->absorb(states, in, 3, rate, rounds), 3);
    for (j = 0; j < 2; j++)
        for (i = 0; i < 25; i++)
            ck_assert_msg(states[i][j] == expect[j][i],
                          "%s: absorb of %u lanes, %u rounds: instance %u, lane %u", v->name,
                          rate, rounds, j, i);
    ck_assert_uint_eq(v->squeeze(states, out, 3, rate, rounds), 3);
    for (j = 0; j < 2; j++) {
        for (b = 0; b < 3; b++) {
            RS_ORACLE_P(expect[j], rounds);
            for (k = 0; k < 8 * rate; k++)
                want[b * 8 * rate + k] = (uint8_t)(expect[j][k / 8] >> (8 * (k % 8)));
        }
        ck_assert_msg(memcmp(out[j], want, len) == 0,
                      "%s: squeeze of %u lanes, %u rounds: instance %u", v->name, rate, rounds,
                      j);
        ck_assert_msg(out[j][len] == 0xA5 && out[j][-1] == 0xA5,
                      "%s: squeeze of %u lanes wrote outside instance %u's blocks", v->name,
                      rate, j);
    }
    ck_assert_uint_eq(v->absorb(states, in, 1, 26, 24), 0);
    ck_assert_uint_eq(v->squeeze(states, out, 1, 0, 24), 0);
}
END_TEST

int main(void)
{
    int failed;
    unsigned k, skipped = 0;
    SRunner *sr;
    Suite *s;
    TCase *tc;

    for (k = 0; k < NVARIANTS; k++) {
        const char *missing = "";
        /* HWCAP_SHA3, as the kernel reports it (tests/cpu_features.h) */
        if (all_variants[k].sha3 && !rs_cpu_has_all("sha3", &missing)) {
            printf("SKIP %s: this CPU lacks the SHA3 extension (qemu: -cpu max)\n",
                   all_variants[k].name);
            skipped++;
        } else {
            runnable[nrunnable++] = &all_variants[k];
        }
    }
    printf("%s: %u variants, %u runnable, %u skipped, %u vectors each\n", RS_COMPILER,
           (unsigned)NVARIANTS, nrunnable, skipped, (unsigned)RS_KECCAK_NCASES);
    s = suite_create("keccak-p1600 x2 neon/sha3 (" RS_COMPILER ")");
    tc = tcase_create("vectors");
    tcase_add_loop_test(tc, test_vectors, 0, (int)(nrunnable * RS_KECCAK_NCASES));
    suite_add_tcase(s, tc);
    tc = tcase_create("block loops");
    tcase_add_loop_test(tc, test_block_loops, 0, (int)(nrunnable * 100));
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
