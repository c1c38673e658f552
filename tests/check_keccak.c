/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for every generated scalar Keccak-p[1600] variant one compiler can build.
 *
 * The variant list and the vectors are generated (keccak_variants.h, keccak_vectors.h); this
 * file only walks them, so adding a variant to the generator adds it here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK_MAX_ASSERT_MEM_PRINT_SIZE 200
#include <check.h>

#include "cpu_features.h"
#include "keccak_vectors.h"

#ifdef RS_OUT_F
/* Checking the vendorable out/ folder itself, under the symbol names a user links. */
#include "keccak_p1600.h"
#define RS_KECCAK_VARIANTS(X) \
    X(RS_OUT_F, RS_OUT_P, RS_OUT_A, RS_OUT_S, "out/ " RS_OUT_NAME, RS_OUT_CPU)
#else
#include "keccak_variants.h"
/* The plain reference joins the table: the fuzz targets take it as the truth, so it must
 * pass what every kernel passes. */
#include "ref/keccak_ref.h"
static void rs_ref_f1600(uint64_t state[25])
{
    keccak_ref_p1600(state, 24);
}
static size_t rs_ref_absorb(uint64_t state[25], unsigned rounds, unsigned lanes,
                            const uint8_t *data, size_t len)
{
    size_t done = 0;
    unsigned k, b;
    if (lanes == 0 || lanes > 25)
        return 0;
    for (; len - done >= 8 * (size_t)lanes; done += 8 * (size_t)lanes) {
        for (k = 0; k < lanes; k++)
            for (b = 0; b < 8; b++)
                state[k] ^= (uint64_t)data[done + 8 * k + b] << (8 * b);
        keccak_ref_p1600(state, rounds);
    }
    return done;
}
static size_t rs_ref_squeeze(uint64_t state[25], unsigned rounds, unsigned lanes, uint8_t *out,
                             size_t len)
{
    size_t done = 0;
    unsigned k, b;
    if (lanes == 0 || lanes > 25)
        return 0;
    for (; len - done >= 8 * (size_t)lanes; done += 8 * (size_t)lanes) {
        keccak_ref_p1600(state, rounds);
        for (k = 0; k < lanes; k++)
            for (b = 0; b < 8; b++)
                out[done + 8 * k + b] = (uint8_t)(state[k] >> (8 * b));
    }
    return done;
}
#define RS_ALL_VARIANTS(X) \
    X(rs_ref_f1600, keccak_ref_p1600, rs_ref_absorb, rs_ref_squeeze, \
      "reference (tests/ref/keccak_ref.c)", "") \
    RS_KECCAK_VARIANTS(X)
#endif

#include "keccak_variant_table.h"

/* The variants this CPU can run; the others are reported as skipped. */
static const struct variant *runnable[NVARIANTS];
static unsigned nrunnable;

/* One loop index per (variant, vector) pair, so every failure names both. */
START_TEST(test_vectors)
{
    const struct variant *v = runnable[_i / RS_KECCAK_NCASES];
    const struct rs_keccak_case *c = &rs_keccak_cases[_i % RS_KECCAK_NCASES];
    uint64_t state[25];

    memcpy(state, c->in, sizeof state);
    v->p1600(state, c->rounds);
    ck_assert_msg(memcmp(state, c->out, sizeof state) == 0, "%s: keccak_p1600, %s", v->name,
                  c->name);
    ck_assert_mem_eq(state, c->out, sizeof state);
    if (c->rounds == 24) {
        memcpy(state, c->in, sizeof state);
        v->f1600(state);
        ck_assert_msg(memcmp(state, c->out, sizeof state) == 0, "%s: keccak_f1600, %s",
                      v->name, c->name);
    }
}
END_TEST

/* Out-of-range round counts are documented to leave the state alone. */
START_TEST(test_rounds_out_of_range)
{
    const struct variant *v = runnable[_i];
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

/* Running rounds in two calls (first r, then 24 - r on a p1600 split) is not a Keccak
 * identity, but f1600 twice must equal the official second permutation: state carried
 * between calls stays canonical (lane complementing is undone at exit). */
START_TEST(test_canonical_between_calls)
{
    const struct variant *v = runnable[_i];
    uint64_t state[25];

    memcpy(state, rs_keccak_cases[0].in, sizeof state);
    v->f1600(state);
    v->f1600(state);
    ck_assert_msg(memcmp(state, rs_keccak_cases[1].out, sizeof state) == 0,
                  "%s: two permutations differ from the official values", v->name);
}
END_TEST

/* The API works in place on the caller's 25 lanes, wherever they sit (any uint64_t-aligned
 * address, inside a larger array) and touches nothing around them; rounds = 0 is a no-op. */
START_TEST(test_in_place_and_bounded)
{
    const struct variant *v = runnable[_i];
    const struct rs_keccak_case *c = &rs_keccak_cases[0];
    const uint64_t guard = 0xA5A5A5A5A5A5A5A5ULL;
    uint64_t buf[25 + 8];
    unsigned offset, k;

    /* 13 rounds: an entry into the middle of every unrolled body */
    for (k = 0; k < RS_KECCAK_NCASES; k++)
        if (rs_keccak_cases[k].rounds == 13) {
            c = &rs_keccak_cases[k];
            break;
        }
    ck_assert_uint_eq(c->rounds, 13);
    for (offset = 1; offset <= 4; offset++) {
        for (k = 0; k < sizeof buf / sizeof buf[0]; k++)
            buf[k] = guard;
        memcpy(buf + offset, c->in, sizeof c->in);
        v->p1600(buf + offset, 0);
        ck_assert_msg(memcmp(buf + offset, c->in, sizeof c->in) == 0,
                      "%s: keccak_p1600 with 0 rounds changed the state", v->name);
        v->p1600(buf + offset, c->rounds);
        ck_assert_msg(memcmp(buf + offset, c->out, sizeof c->out) == 0,
                      "%s: wrong result at lane offset %u", v->name, offset);
        for (k = 0; k < sizeof buf / sizeof buf[0]; k++)
            if ((k < offset || k >= offset + 25) && buf[k] != guard)
                break;
        ck_assert_msg(k == sizeof buf / sizeof buf[0], "%s: wrote lane %d outside the state",
                      v->name, (int)k - (int)offset);
    }
}
END_TEST

/* The block loop equals xoring each block in and permuting, for every rate a sponge uses,
 * 24, 12 and an untuned round count, unaligned data, and lengths with a partial tail. */
static const unsigned absorb_lanes[] = {1, 9, 13, 16, 17, 18, 21, 25};
static const unsigned absorb_rounds[] = {24, 12, 7};
#define ABSORB_CASES (sizeof absorb_lanes / sizeof absorb_lanes[0] * 3)

START_TEST(test_absorb_loop)
{
    const struct variant *v = runnable[_i / ABSORB_CASES];
    unsigned lanes = absorb_lanes[(_i % ABSORB_CASES) / 3];
    unsigned rounds = absorb_rounds[_i % 3];
    uint8_t buffer[1 + 5 * 200 + 7];
    const uint8_t *data = buffer + 1; /* deliberately misaligned */
    size_t len = 5 * 8 * lanes + 7, done, k, j;
    uint64_t got[25], want[25];

    for (k = 0; k < sizeof buffer; k++)
        buffer[k] = (uint8_t)(k * 131u + lanes * 7u + rounds);
    memcpy(got, rs_keccak_cases[3].in, sizeof got);
    memcpy(want, rs_keccak_cases[3].in, sizeof want);
    done = v->absorb(got, rounds, lanes, data, len);
    ck_assert_uint_eq(done, 5 * 8 * lanes);
    for (k = 0; k < 5; k++) {
        for (j = 0; j < lanes; j++) {
            uint64_t lane = 0;
            unsigned b;
            for (b = 0; b < 8; b++)
                lane |= (uint64_t)data[8 * (k * lanes + j) + b] << (8 * b);
            want[j] ^= lane;
        }
        v->p1600(want, rounds);
    }
    ck_assert_msg(memcmp(got, want, sizeof got) == 0, "%s: absorb of %u lanes, %u rounds",
                  v->name, lanes, rounds);
    ck_assert_uint_eq(v->absorb(got, rounds, lanes, data, 8 * lanes - 1), 0);
    ck_assert_uint_eq(v->absorb(got, rounds, 0, data, len), 0);
    ck_assert_uint_eq(v->absorb(got, rounds, 26, data, len), 0);
}
END_TEST

/* The squeezing loop equals permuting and storing each block, for the same rates and round
 * counts, into misaligned output with a partial tail left untouched. */
START_TEST(test_squeeze_loop)
{
    const struct variant *v = runnable[_i / ABSORB_CASES];
    unsigned lanes = absorb_lanes[(_i % ABSORB_CASES) / 3];
    unsigned rounds = absorb_rounds[_i % 3];
    uint8_t buffer[1 + 5 * 200 + 7], want[5 * 200];
    uint8_t *out = buffer + 1; /* deliberately misaligned */
    size_t len = 5 * 8 * lanes + 7, done, k, j;
    uint64_t got[25], state[25];

    memset(buffer, 0xA5, sizeof buffer);
    memcpy(got, rs_keccak_cases[3].in, sizeof got);
    memcpy(state, rs_keccak_cases[3].in, sizeof state);
    done = v->squeeze(got, rounds, lanes, out, len);
    ck_assert_uint_eq(done, 5 * 8 * lanes);
    for (k = 0; k < 5; k++) {
        v->p1600(state, rounds);
        for (j = 0; j < 8 * lanes; j++)
            want[k * 8 * lanes + j] = (uint8_t)(state[j / 8] >> (8 * (j % 8)));
    }
    ck_assert_msg(memcmp(out, want, done) == 0, "%s: squeeze of %u lanes, %u rounds", v->name,
                  lanes, rounds);
    ck_assert_msg(memcmp(got, state, sizeof got) == 0,
                  "%s: squeeze of %u lanes, %u rounds: the state after", v->name, lanes, rounds);
    ck_assert_msg(buffer[0] == 0xA5, "%s: squeeze wrote before its output", v->name);
    for (k = done; k < len && out[k] == 0xA5; k++)
        ;
    ck_assert_msg(k == len, "%s: squeeze wrote past its whole blocks", v->name);
    ck_assert_uint_eq(v->squeeze(got, rounds, lanes, out, 8 * lanes - 1), 0);
    ck_assert_uint_eq(v->squeeze(got, rounds, 0, out, len), 0);
    ck_assert_uint_eq(v->squeeze(got, rounds, 26, out, len), 0);
    ck_assert_msg(memcmp(got, state, sizeof got) == 0, "%s: a refused squeeze changed the state",
                  v->name);
}
END_TEST

static Suite *keccak_suite(void)
{
    Suite *s = suite_create("keccak-p1600 scalar (" RS_COMPILER ")");
    TCase *tc;

    tc = tcase_create("vectors");
    tcase_add_loop_test(tc, test_vectors, 0, (int)(nrunnable * RS_KECCAK_NCASES));
    suite_add_tcase(s, tc);

    tc = tcase_create("absorb loop");
    tcase_add_loop_test(tc, test_absorb_loop, 0, (int)(nrunnable * ABSORB_CASES));
    suite_add_tcase(s, tc);

    tc = tcase_create("squeeze loop");
    tcase_add_loop_test(tc, test_squeeze_loop, 0, (int)(nrunnable * ABSORB_CASES));
    suite_add_tcase(s, tc);

    tc = tcase_create("rounds out of range");
    tcase_add_loop_test(tc, test_rounds_out_of_range, 0, (int)nrunnable);
    suite_add_tcase(s, tc);

    tc = tcase_create("in place, bounded");
    tcase_add_loop_test(tc, test_in_place_and_bounded, 0, (int)nrunnable);
    suite_add_tcase(s, tc);

    tc = tcase_create("canonical state between calls");
    tcase_add_loop_test(tc, test_canonical_between_calls, 0, (int)nrunnable);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    unsigned k, skipped = 0;
    int failed;
    SRunner *sr;

    for (k = 0; k < NVARIANTS; k++) {
        const char *missing = "";
        if (rs_cpu_has_all(all_variants[k].cpu, &missing)) {
            runnable[nrunnable++] = &all_variants[k];
        } else {
            printf("SKIP %s: this CPU lacks %s\n", all_variants[k].name, missing);
            skipped++;
        }
    }
    printf("%s: %u variants, %u runnable, %u skipped, %u vectors each\n", RS_COMPILER,
           (unsigned)NVARIANTS, nrunnable, skipped, (unsigned)RS_KECCAK_NCASES);

    sr = srunner_create(keccak_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
