/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for every generated vector Keccak-p[1600] variant one compiler can build.
 *
 * Single-state kernels run the scalar vector table. Every instance of every x-N kernel must
 * equal the Python reference on independent random states (keccak_simd_vectors.h) and the
 * scalar kernel on states drawn here, for every round count 0..24, and its block loops
 * (absorb and squeeze over N misaligned streams, every rate) must equal N single-state runs.
 * Variants whose ISA the CPU lacks are reported as skipped.
 *
 * Built with RS_OUT_MULTI (the instance counts present, as bits: 2, 4, 8), it checks the
 * vendorable out/ folder instead: its x-N kernels against its own scalar kernel, under the
 * names a user links (RS_OUT_PREFIX).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK_MAX_ASSERT_MEM_PRINT_SIZE 200
#include <check.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

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
    }                                                                                         \
    static size_t out_x##n##_ab(uint64_t *s, const uint8_t *const *in, size_t b, unsigned r,  \
                                unsigned rounds)                                              \
    {                                                                                         \
        return RS_OUT(keccak_p1600_x##n##_absorb)((uint64_t(*)[n])s, in, b, r, rounds);       \
    }                                                                                         \
    static size_t out_x##n##_sq(uint64_t *s, uint8_t *const *out, size_t b, unsigned r,       \
                                unsigned rounds)                                              \
    {                                                                                         \
        return RS_OUT(keccak_p1600_x##n##_squeeze)((uint64_t(*)[n])s, out, b, r, rounds);     \
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

/* The block loops: every rate 1..25 lanes (the sponges use 9, 13, 17, 18 and 21), 24, 12 and
 * an untuned round count, and 0 (xor or store only). Every instance reads its own stream at
 * its own misalignment from an exact-size heap buffer (a stray read is an ASan report), and
 * must equal its own single-state run on the scalar kernel. */
#define BLOCK_ROUNDS 4
static const unsigned block_rounds[BLOCK_ROUNDS] = {24, 12, 7, 0};
#define BLOCKS 3

static uint8_t *stream(size_t len, uint64_t *seed)
{
    uint8_t *p = malloc(len ? len : 1);
    size_t k;
    ck_assert_ptr_nonnull(p);
    for (k = 0; k < len; k++)
        p[k] = (uint8_t)rng_next(seed);
    return p;
}

static uint64_t lane_le(const uint8_t *p)
{
    uint64_t v = 0;
    unsigned b;
    for (b = 0; b < 8; b++)
        v |= (uint64_t)p[b] << (8 * b);
    return v;
}

START_TEST(test_multi_absorb)
{
    const struct multi *v = multis[_i / (25 * BLOCK_ROUNDS)];
    unsigned rate = 1 + (unsigned)(_i % (25 * BLOCK_ROUNDS)) / BLOCK_ROUNDS;
    unsigned rounds = block_rounds[_i % BLOCK_ROUNDS];
    uint64_t seed = 0x243F6A8885A308D3ULL ^ (uint64_t)_i, expect[MAXN][25];
    uint64_t states[25 * MAXN];
    uint8_t *buf[MAXN];
    const uint8_t *in[MAXN];
    size_t len = (size_t)BLOCKS * 8 * rate, b;
    unsigned i, j, k;

    for (j = 0; j < v->n; j++) {
        buf[j] = stream(len + j, &seed);
        in[j] = buf[j] + j; /* instance j misaligned by j bytes, its buffer ending at the block */
        for (i = 0; i < 25; i++)
            expect[j][i] = states[i * v->n + j] = rng_next(&seed);
        for (b = 0; b < BLOCKS; b++) {
            for (k = 0; k < rate; k++)
                expect[j][k] ^= lane_le(in[j] + 8 * (b * rate + k));
            RS_KECCAK_YARDSTICK_P(expect[j], rounds);
        }
    }
    ck_assert_uint_eq(v->absorb(states, in, BLOCKS, rate, rounds), BLOCKS);
    for (j = 0; j < v->n; j++) {
        for (i = 0; i < 25; i++)
            ck_assert_msg(states[i * v->n + j] == expect[j][i],
                          "%s: absorb of %u lanes, %u rounds: instance %u, lane %u differs from "
                          "%s",
                          v->name, rate, rounds, j, i, RS_KECCAK_YARDSTICK_NAME);
        free(buf[j]);
    }
}
END_TEST

START_TEST(test_multi_squeeze)
{
    const struct multi *v = multis[_i / (25 * BLOCK_ROUNDS)];
    unsigned rate = 1 + (unsigned)(_i % (25 * BLOCK_ROUNDS)) / BLOCK_ROUNDS;
    unsigned rounds = block_rounds[_i % BLOCK_ROUNDS];
    uint64_t seed = 0x13198A2E03707344ULL ^ (uint64_t)_i, expect[MAXN][25];
    uint64_t states[25 * MAXN];
    uint8_t *buf[MAXN], *out[MAXN], want[BLOCKS * 200];
    size_t len = (size_t)BLOCKS * 8 * rate, b;
    unsigned i, j, k;

    for (j = 0; j < v->n; j++) {
        buf[j] = malloc(len + j + 8);
        ck_assert_ptr_nonnull(buf[j]);
        memset(buf[j], 0xA5, len + j + 8);
        out[j] = buf[j] + j;
        for (i = 0; i < 25; i++)
            expect[j][i] = states[i * v->n + j] = rng_next(&seed);
    }
    ck_assert_uint_eq(v->squeeze(states, out, BLOCKS, rate, rounds), BLOCKS);
    for (j = 0; j < v->n; j++) {
        for (b = 0; b < BLOCKS; b++) {
            RS_KECCAK_YARDSTICK_P(expect[j], rounds);
            for (k = 0; k < 8 * rate; k++)
                want[b * 8 * rate + k] = (uint8_t)(expect[j][k / 8] >> (8 * (k % 8)));
        }
        ck_assert_msg(memcmp(out[j], want, len) == 0,
                      "%s: squeeze of %u lanes, %u rounds: instance %u's bytes differ from %s",
                      v->name, rate, rounds, j, RS_KECCAK_YARDSTICK_NAME);
        for (k = 0; k < j; k++)
            ck_assert_msg(buf[j][k] == 0xA5, "%s: squeeze wrote before instance %u's output",
                          v->name, j);
        for (k = 0; k < 8; k++)
            ck_assert_msg(out[j][len + k] == 0xA5,
                          "%s: squeeze of %u lanes wrote past instance %u's output", v->name,
                          rate, j);
        for (i = 0; i < 25; i++)
            ck_assert_msg(states[i * v->n + j] == expect[j][i],
                          "%s: squeeze of %u lanes, %u rounds: instance %u, lane %u of the "
                          "state",
                          v->name, rate, rounds, j, i);
        free(buf[j]);
    }
}
END_TEST

#if defined(__linux__)
/* Every stream ends where an inaccessible page begins, so a load or store of one lane too
 * many (a wrong mask in a partial group) faults, which ASan cannot see in an intrinsic. */
START_TEST(test_multi_page_end)
{
    const struct multi *v = multis[_i / 25];
    unsigned rate = 1 + (unsigned)(_i % 25), j;
    size_t page = (size_t)sysconf(_SC_PAGESIZE), len = 2 * 8 * (size_t)rate;
    uint64_t states[25 * MAXN];
    const uint8_t *in[MAXN];
    uint8_t *out[MAXN], *map[MAXN];

    memset(states, 0x3C, sizeof states);
    for (j = 0; j < v->n; j++) {
        map[j] = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
                      0);
        ck_assert_ptr_ne(map[j], MAP_FAILED);
        ck_assert_int_eq(mprotect(map[j] + page, page, PROT_NONE), 0);
        in[j] = out[j] = map[j] + page - len;
        memset(out[j], (int)j, len);
    }
    ck_assert_uint_eq(v->absorb(states, in, 2, rate, 24), 2);
    ck_assert_uint_eq(v->absorb(states, in, 2, rate, 12), 2);
    ck_assert_uint_eq(v->squeeze(states, out, 2, rate, 24), 2);
    ck_assert_uint_eq(v->squeeze(states, out, 2, rate, 12), 2);
    for (j = 0; j < v->n; j++)
        munmap(map[j], 2 * page);
}
END_TEST
#endif

/* Rates out of range do nothing and say so; zero blocks touch nothing (NULL streams, NULL
 * arrays). */
START_TEST(test_multi_block_edges)
{
    const struct multi *v = multis[_i];
    const uint8_t *in[MAXN];
    uint8_t *out[MAXN], byte = 0;
    uint64_t states[25 * MAXN], before[25 * MAXN];
    unsigned j, k;

    for (k = 0; k < 25 * MAXN; k++)
        before[k] = states[k] = 0x0123456789ABCDEFULL * (k + 1);
    for (j = 0; j < v->n; j++) {
        in[j] = &byte;
        out[j] = &byte;
    }
    ck_assert_uint_eq(v->absorb(states, in, 1, 0, 24), 0);
    ck_assert_uint_eq(v->absorb(states, in, 1, 26, 12), 0);
    ck_assert_uint_eq(v->squeeze(states, out, 1, 0, 24), 0);
    ck_assert_uint_eq(v->squeeze(states, out, 1, 26, 12), 0);
    for (j = 0; j < v->n; j++) {
        in[j] = NULL;
        out[j] = NULL;
    }
    for (k = 0; k < 4; k++) {
        ck_assert_uint_eq(v->absorb(states, in, 0, 21, block_rounds[k]), 0);
        ck_assert_uint_eq(v->squeeze(states, out, 0, 21, block_rounds[k]), 0);
        ck_assert_uint_eq(v->absorb(states, NULL, 0, 17, block_rounds[k]), 0);
        ck_assert_uint_eq(v->squeeze(states, NULL, 0, 17, block_rounds[k]), 0);
    }
    ck_assert_msg(memcmp(states, before, 25 * v->n * sizeof(uint64_t)) == 0,
                  "%s: an empty or refused block loop changed the states", v->name);
    ck_assert_uint_eq(byte, 0);
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

    tc = tcase_create("multi state: block loops");
    tcase_add_loop_test(tc, test_multi_absorb, 0, (int)(nmultis * 25 * BLOCK_ROUNDS));
    tcase_add_loop_test(tc, test_multi_squeeze, 0, (int)(nmultis * 25 * BLOCK_ROUNDS));
    tcase_add_loop_test(tc, test_multi_block_edges, 0, (int)nmultis);
#if defined(__linux__)
    tcase_add_loop_test(tc, test_multi_page_end, 0, (int)(nmultis * 25));
#endif
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
