/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for every generated vector Keccak-p[1600] variant one compiler can build.
 *
 * Single-state kernels run the scalar vector table. Every instance of every x-N kernel must
 * equal the Python reference on independent random states (keccak_simd_vectors.h) and the
 * scalar kernel on states drawn here, for every round count 0..24. Variants whose ISA the CPU
 * lacks are reported as skipped.
 *
 * Built with RS_OUT_MULTI (the instance counts present, as bits: 2, 4, 8), it checks the
 * vendorable out/ folder instead: its x-N kernels against its own scalar kernel, under the
 * names a user links (RS_OUT_PREFIX).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK_MAX_ASSERT_MEM_PRINT_SIZE 200
#include <check.h>

#include "cpu_features.h"
#include "keccak_simd_vectors.h"
#include "keccak_vectors.h"

#ifdef RS_OUT_MULTI
#define RS_CAT_(a, b) a##b
#define RS_CAT(a, b) RS_CAT_(a, b)
#define RS_OUT(name) RS_CAT(RS_OUT_PREFIX, name)
#include "keccak_p1600.h"
#define RS_KECCAK_YARDSTICK_NAME "out/ keccak_p1600"
#define RS_KECCAK_YARDSTICK_P RS_OUT(keccak_p1600)
#define RS_KECCAK_SINGLE_VARIANTS(X)
#define RS_KECCAK_MAX_INSTANCES 8
#define RS_OUT_THUNKS(n)                                                                      \
    static void out_x##n##_f(uint64_t *s) { RS_OUT(keccak_f1600_x##n)((uint64_t(*)[n])s); } \
    static void out_x##n##_p(uint64_t *s, unsigned r)                                       \
    {                                                                                         \
        RS_OUT(keccak_p1600_x##n)((uint64_t(*)[n])s, r);                                      \
    }                                                                                         \
    static void out_x##n##_il(uint64_t *s, const uint64_t *sep)                              \
    {                                                                                         \
        RS_OUT(keccak_x##n##_interleave)((uint64_t(*)[n])s, (const uint64_t(*)[25])sep);      \
    }                                                                                         \
    static void out_x##n##_dil(uint64_t *sep, const uint64_t *s)                             \
    {                                                                                         \
        RS_OUT(keccak_x##n##_deinterleave)((uint64_t(*)[25])sep, (const uint64_t(*)[n])s);    \
    }
#if RS_OUT_MULTI & 2
#include "keccak_p1600_x2.h"
RS_OUT_THUNKS(2)
#define RS_OUT_X2(X) X(out_x2, "out/ keccak_p1600_x2", RS_OUT_X2_CPU, 2)
#else
#define RS_OUT_X2(X)
#endif
#if RS_OUT_MULTI & 4
#include "keccak_p1600_x4.h"
RS_OUT_THUNKS(4)
#define RS_OUT_X4(X) X(out_x4, "out/ keccak_p1600_x4", RS_OUT_X4_CPU, 4)
#else
#define RS_OUT_X4(X)
#endif
#if RS_OUT_MULTI & 8
#include "keccak_p1600_x8.h"
RS_OUT_THUNKS(8)
#define RS_OUT_X8(X) X(out_x8, "out/ keccak_p1600_x8", RS_OUT_X8_CPU, 8)
#else
#define RS_OUT_X8(X)
#endif
#define RS_KECCAK_MULTI_VARIANTS(X) RS_OUT_X2(X) RS_OUT_X4(X) RS_OUT_X8(X)
#else
#include "keccak_simd_variants.h"
#endif

#include "keccak_simd_table.h"

/* Random rounds: states per (variant, round count) compared with the scalar kernel. */
#define RANDOM_BATCHES 4

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: plenty for test data, and the same sequence on every platform. */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

START_TEST(test_single_vectors)
{
    const struct single *v = singles[_i / RS_KECCAK_NCASES];
    const struct rs_keccak_case *c = &rs_keccak_cases[_i % RS_KECCAK_NCASES];
    uint64_t state[25];

    memcpy(state, c->in, sizeof state);
    v->p1600(state, c->rounds);
    ck_assert_msg(memcmp(state, c->out, sizeof state) == 0, "%s: keccak_p1600, %s", v->name,
                  c->name);
    if (c->rounds == 24) {
        memcpy(state, c->in, sizeof state);
        v->f1600(state);
        ck_assert_msg(memcmp(state, c->out, sizeof state) == 0, "%s: keccak_f1600, %s",
                      v->name, c->name);
    }
}
END_TEST

/* One loop index per (variant, round count): N reference states side by side. */
START_TEST(test_multi_reference)
{
    const struct multi *v = multis[_i / RS_KECCAK_NMULTI];
    const struct rs_keccak_multi_case *c = &rs_keccak_multi_cases[_i % RS_KECCAK_NMULTI];
    uint64_t states[25 * MAXN], out[MAXN][25];
    unsigned j;

    v->interleave(states, &c->in[0][0]);
    v->p(states, c->rounds);
    v->deinterleave(&out[0][0], states);
    for (j = 0; j < v->n; j++)
        ck_assert_msg(memcmp(out[j], c->out[j], sizeof out[j]) == 0,
                      "%s: keccak_p1600_x%u, %u rounds, instance %u", v->name, v->n, c->rounds,
                      j);
    if (c->rounds == 24) {
        v->interleave(states, &c->in[0][0]);
        v->f(states);
        v->deinterleave(&out[0][0], states);
        for (j = 0; j < v->n; j++)
            ck_assert_msg(memcmp(out[j], c->out[j], sizeof out[j]) == 0,
                          "%s: keccak_f1600_x%u, instance %u", v->name, v->n, j);
    }
}
END_TEST

/* One loop index per (variant, round count 0..24): fresh random states against the scalar
 * kernel, checked lane by lane in the interleaved layout itself (not via the helpers). */
START_TEST(test_multi_scalar)
{
    const struct multi *v = multis[_i / 25];
    unsigned rounds = (unsigned)(_i % 25), batch, i, j;
    uint64_t seed = 0x9E3779B97F4A7C15ULL ^ (uint64_t)_i;
    uint64_t states[25 * MAXN], expect[MAXN][25];

    for (batch = 0; batch < RANDOM_BATCHES; batch++) {
        for (j = 0; j < v->n; j++) {
            for (i = 0; i < 25; i++)
                expect[j][i] = states[i * v->n + j] = rng_next(&seed);
            RS_KECCAK_YARDSTICK_P(expect[j], rounds);
        }
        v->p(states, rounds);
        for (j = 0; j < v->n; j++)
            for (i = 0; i < 25; i++)
                ck_assert_msg(states[i * v->n + j] == expect[j][i],
                              "%s: %u rounds, instance %u, lane %u differs from %s", v->name,
                              rounds, j, i, RS_KECCAK_YARDSTICK_NAME);
    }
}
END_TEST

/* Out-of-range round counts are documented to leave the states alone. */
START_TEST(test_multi_out_of_range)
{
    const struct multi *v = multis[_i];
    const unsigned bad[] = {25, 100, 0xFFFFFFFFu};
    uint64_t states[25 * MAXN], before[25 * MAXN];
    size_t k;

    for (k = 0; k < 25 * MAXN; k++)
        before[k] = 0x0123456789ABCDEFULL * (k + 1);
    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        memcpy(states, before, sizeof states);
        v->p(states, bad[k]);
        ck_assert_msg(memcmp(states, before, 25 * v->n * sizeof(uint64_t)) == 0,
                      "%s: %u rounds changed the states", v->name, bad[k]);
    }
}
END_TEST

START_TEST(test_single_out_of_range)
{
    const struct single *v = singles[_i];
    const unsigned bad[] = {25, 100, 0xFFFFFFFFu};
    size_t k;

    for (k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        uint64_t state[25];
        memcpy(state, rs_keccak_cases[3].in, sizeof state);
        v->p1600(state, bad[k]);
        ck_assert_msg(memcmp(state, rs_keccak_cases[3].in, sizeof state) == 0,
                      "%s: keccak_p1600 with %u rounds changed the state", v->name, bad[k]);
    }
}
END_TEST

static Suite *simd_suite(void)
{
    Suite *s = suite_create("keccak-p1600 vector (" RS_COMPILER ")");
    TCase *tc;

    tc = tcase_create("single state: vectors");
    tcase_add_loop_test(tc, test_single_vectors, 0, (int)(nsingles * RS_KECCAK_NCASES));
    tcase_add_loop_test(tc, test_single_out_of_range, 0, (int)nsingles);
    suite_add_tcase(s, tc);

    tc = tcase_create("multi state: reference vectors");
    tcase_add_loop_test(tc, test_multi_reference, 0, (int)(nmultis * RS_KECCAK_NMULTI));
    suite_add_tcase(s, tc);

    tc = tcase_create("multi state: scalar kernel on random states");
    tcase_add_loop_test(tc, test_multi_scalar, 0, (int)(nmultis * 25));
    suite_add_tcase(s, tc);

    tc = tcase_create("multi state: rounds out of range");
    tcase_add_loop_test(tc, test_multi_out_of_range, 0, (int)nmultis);
    suite_add_tcase(s, tc);
    return s;
}

static void report_skip(const char *name, const char *missing)
{
    printf("SKIP %s: this CPU lacks %s\n", name, missing);
}

int main(void)
{
    unsigned skipped = rs_simd_runnable(report_skip);
    int failed;
    SRunner *sr;

    printf("%s: %u variants, %u runnable, %u skipped (vector kernels)\n", RS_COMPILER,
           (unsigned)(NSINGLES + NMULTIS), nsingles + nmultis, skipped);

    sr = srunner_create(simd_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
