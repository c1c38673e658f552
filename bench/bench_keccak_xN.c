/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * bench_keccak_xN: the x-N permutations of a bundle as a library calls them (keccak_p1600_xN.h),
 * 24 rounds, per instance per permutation, TSC cycles, round-robin in one process (timing.h):
 *   - dispatched, interleaved (keccak_f1600_x4) and separate states (keccak_f1600_x4_states);
 *   - the kernel the dispatch runs, by its ISA name, in both layouts (what the dispatch costs
 *     is the difference);
 *   - separate states through a copy around the interleaved kernel (what a library keeping
 *     N separate states paid before the _states forms);
 *   - N single-state permutations (keccak_f1600), the yardstick.
 * Each contender's output is checked against N single-state permutations before the race.
 * The race runs on the path the dispatch picks; ROUNDSMITH_PATH=avx2 gives the AVX2 figures.
 * Every contender of one width has the same ISA class, so none runs at another's clock.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"
#include "timing.h"

#define CALLS 16 /* back-to-back calls per timed sample */

static uint64_t st[8 * 25];

typedef void (*perm_fn)(uint64_t *);

struct contender {
    const char *name;
    unsigned n;
    int separate; /* layout: separate states, or interleaved */
    perm_fn fn;
};

#define F(fn, n, layout) static void c_##fn(uint64_t *s) { fn((uint64_t(*) layout)s); }
#define P(fn, n, layout) static void c_##fn(uint64_t *s) { fn((uint64_t(*) layout)s, 24); }
F(keccak_f1600_x2, 2, [2])
F(keccak_f1600_x4, 4, [4])
F(keccak_f1600_x8, 8, [8])
F(keccak_f1600_x2_states, 2, [25])
F(keccak_f1600_x4_states, 4, [25])
F(keccak_f1600_x8_states, 8, [25])
#if defined(RS_BUILD_AVX512)
P(keccak_p1600_x8_avx512, 8, [8])
P(keccak_p1600_x8_avx512_states, 8, [25])
P(keccak_p1600_x4_avx512vl, 4, [4])
P(keccak_p1600_x4_avx512vl_states, 4, [25])
P(keccak_p1600_x2_avx512vl, 2, [2])
P(keccak_p1600_x2_avx512vl_states, 2, [25])
#endif
#if defined(RS_BUILD_AVX2)
P(keccak_p1600_x4_avx2, 4, [4])
P(keccak_p1600_x4_avx2_states, 4, [25])
#endif

/* Separate states through a copy around the dispatched interleaved call. */
#define COPIED(n)                                                                             \
    static void c_copied_x##n(uint64_t *s)                                                    \
    {                                                                                         \
        uint64_t t[25][n];                                                                    \
        keccak_x##n##_interleave(t, (const uint64_t(*)[25])s);                                \
        keccak_f1600_x##n(t);                                                                 \
        keccak_x##n##_deinterleave((uint64_t(*)[25])s, (const uint64_t(*)[n])t);              \
    }
COPIED(2)
COPIED(4)
COPIED(8)

#define SINGLES(n)                                                                            \
    static void c_single_x##n(uint64_t *s)                                                    \
    {                                                                                         \
        unsigned j;                                                                           \
        for (j = 0; j < n; j++)                                                               \
            keccak_f1600(s + 25 * j);                                                         \
    }
SINGLES(2)
SINGLES(4)
SINGLES(8)

static const struct contender all[] = {
    {"keccak_f1600 x N (yardstick)", 8, 1, c_single_x8},
    {"keccak_f1600_x8", 8, 0, c_keccak_f1600_x8},
    {"keccak_f1600_x8_states", 8, 1, c_keccak_f1600_x8_states},
    {"copy + keccak_f1600_x8 + copy", 8, 1, c_copied_x8},
#if defined(RS_BUILD_AVX512)
    {"keccak_p1600_x8_avx512", 8, 0, c_keccak_p1600_x8_avx512},
    {"keccak_p1600_x8_avx512_states", 8, 1, c_keccak_p1600_x8_avx512_states},
#endif
    {"keccak_f1600 x N (yardstick)", 4, 1, c_single_x4},
    {"keccak_f1600_x4", 4, 0, c_keccak_f1600_x4},
    {"keccak_f1600_x4_states", 4, 1, c_keccak_f1600_x4_states},
    {"copy + keccak_f1600_x4 + copy", 4, 1, c_copied_x4},
#if defined(RS_BUILD_AVX512)
    {"keccak_p1600_x4_avx512vl", 4, 0, c_keccak_p1600_x4_avx512vl},
    {"keccak_p1600_x4_avx512vl_states", 4, 1, c_keccak_p1600_x4_avx512vl_states},
#endif
#if defined(RS_BUILD_AVX2)
    {"keccak_p1600_x4_avx2", 4, 0, c_keccak_p1600_x4_avx2},
    {"keccak_p1600_x4_avx2_states", 4, 1, c_keccak_p1600_x4_avx2_states},
#endif
    {"keccak_f1600 x N (yardstick)", 2, 1, c_single_x2},
    {"keccak_f1600_x2", 2, 0, c_keccak_f1600_x2},
    {"keccak_f1600_x2_states", 2, 1, c_keccak_f1600_x2_states},
    {"copy + keccak_f1600_x2 + copy", 2, 1, c_copied_x2},
#if defined(RS_BUILD_AVX512)
    {"keccak_p1600_x2_avx512vl", 2, 0, c_keccak_p1600_x2_avx512vl},
    {"keccak_p1600_x2_avx512vl_states", 2, 1, c_keccak_p1600_x2_avx512vl_states},
#endif
};
#define ALL (sizeof all / sizeof all[0])

static void run(void *arg)
{
    const struct contender *c = (const struct contender *)arg;
    unsigned k;
    for (k = 0; k < CALLS; k++)
        c->fn(st);
    rs_use(st);
}

/* The contender's output on random states equals n single-state permutations. */
static int verified(const struct contender *c)
{
    uint64_t sep[8 * 25], want[8 * 25], s[8 * 25];
    unsigned i, j, n = c->n;
    for (i = 0; i < 25 * n; i++)
        sep[i] = want[i] = 0x9E3779B97F4A7C15ULL * (i + 1) ^ (uint64_t)i << 40;
    for (j = 0; j < n; j++)
        keccak_f1600(want + 25 * j);
    for (j = 0; j < n; j++)
        for (i = 0; i < 25; i++)
            s[c->separate ? 25 * j + i : n * i + j] = sep[25 * j + i];
    c->fn(s);
    for (j = 0; j < n; j++)
        for (i = 0; i < 25; i++)
            if (s[c->separate ? 25 * j + i : n * i + j] != want[25 * j + i])
                return 0;
    return 1;
}

int main(int argc, char **argv)
{
    struct rs_options o;
    struct rs_entrant e[ALL];
    size_t k, m, first;
    int cls = rs_path() == 0 ? RS_CLASS_SCALAR : RS_CLASS_UNKNOWN;

    rs_bench_options(&argc, argv, &o, 101,
                     "usage: bench_keccak_xN [options]\n"
                     "The x-N permutations, dispatched and by ISA name, both layouts.\n");
    rs_no_options_left(argc, argv, 1);
    for (k = 0; k < ALL; k++)
        if (!verified(&all[k])) {
            fprintf(stderr, "bench_keccak_xN: %s (x%u) gives a wrong result\n", all[k].name,
                    all[k].n);
            return 1;
        }
    if (o.tsv)
        printf("path\tn\tcontender\tmedian\tbest\tspread\n");
    else
        printf("path %s, %s per instance per Keccak-f[1600], median of %u turns "
               "(best, spread)\n", rs_path_name(), RS_TICKS_NAME, o.rounds);
    /* One race per width: the contenders of a width share an ISA class. */
    for (first = 0; first < ALL; first = m) {
        for (m = first; m < ALL && all[m].n == all[first].n; m++) {
            e[m - first].name = all[m].name;
            e[m - first].run = run;
            e[m - first].arg = (void *)(uintptr_t)&all[m];
            e[m - first].per = (double)CALLS * all[m].n;
            e[m - first].isa_class = cls;
        }
        if (rs_race(e, m - first, &o, 5))
            return 1;
        for (k = 0; k < m - first; k++) {
            if (o.tsv)
                printf("%s\t%u\t%s\t%.1f\t%.1f\t%.3f\n", rs_path_name(), all[first].n, e[k].name,
                       e[k].fig.median, e[k].fig.best, e[k].spread);
            else
                printf("  x%u  %-34s %8.1f  (%.1f, %.1f%%)  %.2fx the yardstick\n", all[first].n,
                       e[k].name, e[k].fig.median, e[k].fig.best, 100 * e[k].spread,
                       e[0].fig.median / e[k].fig.median);
        }
    }
    return 0;
}
