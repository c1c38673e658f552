/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for a bundle's x-N permutations (keccak_p1600_xN.h): the dispatched
 * keccak_p1600_x2/x4/x8 and keccak_f1600_xN in the interleaved layout, their _states forms on
 * separate states, and the dispatched block loops (_absorb, _squeeze), each against N calls of
 * the single-state keccak_p1600 / keccak_p1600_absorb / _squeeze for every round count 0..25;
 * then each multi-state kernel of the bundle by its own ISA name where the path in use can
 * run it. A bundle runs it once per forced path (ROUNDSMITH_PATH).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "roundsmith.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void fill(uint64_t *w, size_t n)
{
    size_t k;
    for (k = 0; k < n; k++)
        w[k] = next64();
}

/* What N single-state permutations give: separate[j] after `rounds` rounds. */
static void expect(uint64_t *separate, unsigned n, unsigned rounds)
{
    unsigned j;
    for (j = 0; j < n; j++)
        keccak_p1600(separate + 25 * j, rounds);
}

typedef void (*perm_fn)(uint64_t *, unsigned);

/* One layout's entry point run on n random states, compared lane by lane. */
static void check_perm(const char *what, unsigned n, unsigned rounds, int separate_layout,
                       perm_fn fn)
{
    uint64_t sep[8 * 25], want[8 * 25], st[8 * 25];
    unsigned i, j;
    fill(sep, 25 * n);
    memcpy(want, sep, sizeof(uint64_t) * 25 * n);
    expect(want, n, rounds);
    if (separate_layout) {
        memcpy(st, sep, sizeof(uint64_t) * 25 * n);
        fn(st, rounds);
        for (j = 0; j < n; j++)
            for (i = 0; i < 25; i++)
                ck_assert_msg(st[25 * j + i] == want[25 * j + i],
                              "%s x%u rounds %u: instance %u lane %u", what, n, rounds, j, i);
    } else {
        for (i = 0; i < 25; i++)
            for (j = 0; j < n; j++)
                st[n * i + j] = sep[25 * j + i];
        fn(st, rounds);
        for (j = 0; j < n; j++)
            for (i = 0; i < 25; i++)
                ck_assert_msg(st[n * i + j] == want[25 * j + i],
                              "%s x%u rounds %u: instance %u lane %u", what, n, rounds, j, i);
    }
}

/* The entry points as perm_fn: the layouts' array types are the caller's business. */
#define WRAP(name, n, layout)                                                                  \
    static void w_##name(uint64_t *s, unsigned rounds)                                       \
    {                                                                                          \
        name((uint64_t(*) layout)s, rounds);                                                   \
    }
WRAP(keccak_p1600_x2, 2, [2])
WRAP(keccak_p1600_x4, 4, [4])
WRAP(keccak_p1600_x8, 8, [8])
WRAP(keccak_p1600_x2_states, 2, [25])
WRAP(keccak_p1600_x4_states, 4, [25])
WRAP(keccak_p1600_x8_states, 8, [25])

struct entry {
    const char *name;
    unsigned n;
    int separate;
    perm_fn fn;
    void (*f)(uint64_t *); /* the keccak_f1600 form, or NULL */
};

static void f_x2(uint64_t *s) { keccak_f1600_x2((uint64_t(*)[2])s); }
static void f_x4(uint64_t *s) { keccak_f1600_x4((uint64_t(*)[4])s); }
static void f_x8(uint64_t *s) { keccak_f1600_x8((uint64_t(*)[8])s); }
static void f_x2s(uint64_t *s) { keccak_f1600_x2_states((uint64_t(*)[25])s); }
static void f_x4s(uint64_t *s) { keccak_f1600_x4_states((uint64_t(*)[25])s); }
static void f_x8s(uint64_t *s) { keccak_f1600_x8_states((uint64_t(*)[25])s); }

/* The kernels by their ISA names, each with the path that runs it. */
#if defined(RS_BUILD_AVX512) && defined(RS_PATH_AVX512)
WRAP(keccak_p1600_x8_avx512, 8, [8])
WRAP(keccak_p1600_x8_avx512_states, 8, [25])
WRAP(keccak_p1600_x4_avx512vl, 4, [4])
WRAP(keccak_p1600_x4_avx512vl_states, 4, [25])
WRAP(keccak_p1600_x2_avx512vl, 2, [2])
WRAP(keccak_p1600_x2_avx512vl_states, 2, [25])
#endif
#if (defined(RS_BUILD_AVX2) || defined(RS_BUILD_AVX512)) && defined(RS_PATH_AVX2)
WRAP(keccak_p1600_x4_avx2, 4, [4])
WRAP(keccak_p1600_x4_avx2_states, 4, [25])
#endif
#if defined(RS_BUILD_NEON) && defined(RS_PATH_NEON)
WRAP(keccak_p1600_x2_neon, 2, [2])
WRAP(keccak_p1600_x2_neon_states, 2, [25])
#endif
#if defined(RS_BUILD_SHA3) && defined(RS_PATH_SHA3)
WRAP(keccak_p1600_x2_sha3, 2, [2])
WRAP(keccak_p1600_x2_sha3_states, 2, [25])
#endif

struct pinned {
    struct entry e;
    int path; /* the slowest path that runs it */
};

static const struct entry entries[] = {
    {"keccak_p1600_x2", 2, 0, w_keccak_p1600_x2, f_x2},
    {"keccak_p1600_x4", 4, 0, w_keccak_p1600_x4, f_x4},
    {"keccak_p1600_x8", 8, 0, w_keccak_p1600_x8, f_x8},
    {"keccak_p1600_x2_states", 2, 1, w_keccak_p1600_x2_states, f_x2s},
    {"keccak_p1600_x4_states", 4, 1, w_keccak_p1600_x4_states, f_x4s},
    {"keccak_p1600_x8_states", 8, 1, w_keccak_p1600_x8_states, f_x8s},
};
#define ENTRIES (sizeof entries / sizeof entries[0])

static const struct pinned pins[] = {
#if defined(RS_BUILD_AVX512) && defined(RS_PATH_AVX512)
    {{"keccak_p1600_x8_avx512", 8, 0, w_keccak_p1600_x8_avx512, NULL}, RS_PATH_AVX512},
    {{"keccak_p1600_x8_avx512_states", 8, 1, w_keccak_p1600_x8_avx512_states, NULL}, RS_PATH_AVX512},
    {{"keccak_p1600_x4_avx512vl", 4, 0, w_keccak_p1600_x4_avx512vl, NULL}, RS_PATH_AVX512},
    {{"keccak_p1600_x4_avx512vl_states", 4, 1, w_keccak_p1600_x4_avx512vl_states, NULL}, RS_PATH_AVX512},
    {{"keccak_p1600_x2_avx512vl", 2, 0, w_keccak_p1600_x2_avx512vl, NULL}, RS_PATH_AVX512},
    {{"keccak_p1600_x2_avx512vl_states", 2, 1, w_keccak_p1600_x2_avx512vl_states, NULL}, RS_PATH_AVX512},
#endif
#if (defined(RS_BUILD_AVX2) || defined(RS_BUILD_AVX512)) && defined(RS_PATH_AVX2)
    {{"keccak_p1600_x4_avx2", 4, 0, w_keccak_p1600_x4_avx2, NULL}, RS_PATH_AVX2},
    {{"keccak_p1600_x4_avx2_states", 4, 1, w_keccak_p1600_x4_avx2_states, NULL}, RS_PATH_AVX2},
#endif
#if defined(RS_BUILD_NEON) && defined(RS_PATH_NEON)
    {{"keccak_p1600_x2_neon", 2, 0, w_keccak_p1600_x2_neon, NULL}, RS_PATH_NEON},
    {{"keccak_p1600_x2_neon_states", 2, 1, w_keccak_p1600_x2_neon_states, NULL}, RS_PATH_NEON},
#endif
#if defined(RS_BUILD_SHA3) && defined(RS_PATH_SHA3)
    {{"keccak_p1600_x2_sha3", 2, 0, w_keccak_p1600_x2_sha3, NULL}, RS_PATH_SHA3},
    {{"keccak_p1600_x2_sha3_states", 2, 1, w_keccak_p1600_x2_sha3_states, NULL}, RS_PATH_SHA3},
#endif
    {{NULL, 0, 0, NULL, NULL}, 0},
};
#define PINS (sizeof pins / sizeof pins[0] - 1)

/* Every dispatched entry point, every round count 0..25 (0 and 25: unchanged). */
START_TEST(dispatched_permutations)
{
    const struct entry *e = &entries[_i % ENTRIES];
    unsigned rounds = (unsigned)(_i / ENTRIES);
    check_perm(e->name, e->n, rounds, e->separate, e->fn);
}
END_TEST

static void f_as_p(uint64_t *s, unsigned rounds);
static const struct entry *f_entry;
static void f_as_p(uint64_t *s, unsigned rounds)
{
    (void)rounds;
    f_entry->f(s);
}

START_TEST(dispatched_f1600)
{
    f_entry = &entries[_i];
    check_perm(f_entry->name, f_entry->n, 24, f_entry->separate, f_as_p);
}
END_TEST

/* Each kernel by its ISA name, on a path that runs it. */
START_TEST(pinned_kernels)
{
    const struct pinned *p = &pins[_i % PINS];
    unsigned rounds = (unsigned)(_i / PINS);
    if (rs_path() < p->path)
        return;
    check_perm(p->e.name, p->e.n, rounds, p->e.separate, p->e.fn);
}
END_TEST

/* The dispatched block loops against keccak_p1600_absorb / _squeeze on each instance. */
static void check_blocks(unsigned n, unsigned rounds, unsigned lanes, size_t blocks)
{
    uint64_t sep[8 * 25], want[8 * 25], st[8 * 25];
    uint8_t data[8][3 * 200], out[8][3 * 200], want_out[8][3 * 200];
    const uint8_t *in[8];
    uint8_t *outp[8];
    size_t got, k;
    unsigned i, j;

    fill(sep, 25 * n);
    for (j = 0; j < n; j++) {
        for (k = 0; k < sizeof data[j]; k++)
            data[j][k] = (uint8_t)next64();
        in[j] = data[j];
        outp[j] = out[j];
    }
    /* absorb */
    memcpy(want, sep, sizeof(uint64_t) * 25 * n);
    for (j = 0; j < n; j++)
        keccak_p1600_absorb(want + 25 * j, rounds, lanes, data[j], blocks * 8 * lanes);
    for (i = 0; i < 25; i++)
        for (j = 0; j < n; j++)
            st[n * i + j] = sep[25 * j + i];
    got = n == 2 ? keccak_p1600_x2_absorb((uint64_t(*)[2])st, in, blocks, lanes, rounds)
        : n == 4 ? keccak_p1600_x4_absorb((uint64_t(*)[4])st, in, blocks, lanes, rounds)
                 : keccak_p1600_x8_absorb((uint64_t(*)[8])st, in, blocks, lanes, rounds);
    ck_assert_uint_eq(got, blocks);
    for (j = 0; j < n; j++)
        for (i = 0; i < 25; i++)
            ck_assert_msg(st[n * i + j] == want[25 * j + i],
                          "absorb x%u rounds %u lanes %u blocks %zu: instance %u lane %u", n,
                          rounds, lanes, blocks, j, i);
    /* squeeze, from the absorbed states */
    memset(out, 0xA5, sizeof out);
    memset(want_out, 0xA5, sizeof want_out);
    for (j = 0; j < n; j++)
        keccak_p1600_squeeze(want + 25 * j, rounds, lanes, want_out[j], blocks * 8 * lanes);
    got = n == 2 ? keccak_p1600_x2_squeeze((uint64_t(*)[2])st, outp, blocks, lanes, rounds)
        : n == 4 ? keccak_p1600_x4_squeeze((uint64_t(*)[4])st, outp, blocks, lanes, rounds)
                 : keccak_p1600_x8_squeeze((uint64_t(*)[8])st, outp, blocks, lanes, rounds);
    ck_assert_uint_eq(got, blocks);
    for (j = 0; j < n; j++) {
        ck_assert_mem_eq(out[j], want_out[j], sizeof out[j]);
        for (i = 0; i < 25; i++)
            ck_assert_msg(st[n * i + j] == want[25 * j + i],
                          "squeeze x%u rounds %u lanes %u: instance %u lane %u", n, rounds,
                          lanes, j, i);
    }
}

static const unsigned block_lanes[] = {1, 9, 13, 17, 18, 21, 24, 25};

START_TEST(dispatched_blocks)
{
    static const unsigned widths[3] = {2, 4, 8}, rounds[4] = {24, 12, 1, 7};
    unsigned w = widths[_i % 3], r = rounds[(_i / 3) % 4];
    unsigned lanes = block_lanes[(_i / 12) % 8];
    check_blocks(w, r, lanes, 1 + (size_t)(_i / 96));
}
END_TEST

START_TEST(block_edges)
{
    uint64_t st[25][4] = {{0}};
    const uint8_t *in[4] = {NULL, NULL, NULL, NULL};
    ck_assert_uint_eq(keccak_p1600_x4_absorb(st, in, 0, 21, 24), 0);
    ck_assert_uint_eq(keccak_p1600_x4_absorb(st, in, 1, 0, 24), 0);
    ck_assert_uint_eq(keccak_p1600_x4_absorb(st, in, 1, 26, 24), 0);
    ck_assert_uint_eq(st[0][0], 0);
}
END_TEST

/* The interleave helpers are exact inverses and put lane i of instance j at [i][j]. */
START_TEST(layout_helpers)
{
    uint64_t sep[8][25], back[8][25], st[25][8];
    unsigned i, j;
    fill(&sep[0][0], 200);
    keccak_x8_interleave(st, (const uint64_t(*)[25])sep);
    for (i = 0; i < 25; i++)
        for (j = 0; j < 8; j++)
            ck_assert(st[i][j] == sep[j][i]);
    keccak_x8_deinterleave(back, (const uint64_t(*)[8])st);
    ck_assert_mem_eq(back, sep, sizeof sep);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("keccak_p1600_xN");
    TCase *t = tcase_create("dispatched");
    SRunner *r;
    int failed;

    tcase_add_loop_test(t, dispatched_permutations, 0, (int)(ENTRIES * 26));
    tcase_add_loop_test(t, dispatched_f1600, 0, (int)ENTRIES);
    tcase_add_loop_test(t, dispatched_blocks, 0, 3 * 96);
    tcase_add_test(t, block_edges);
    tcase_add_test(t, layout_helpers);
    suite_add_tcase(s, t);
    t = tcase_create("pinned");
    if (PINS)
        tcase_add_loop_test(t, pinned_kernels, 0, (int)(PINS * 26));
    suite_add_tcase(s, t);
    r = srunner_create(s);
    printf("path %s\n", rs_path_name());
    srunner_run_all(r, CK_NORMAL);
    failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
