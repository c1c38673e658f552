/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Cycles per permutation of every vector Keccak-p[1600] variant one compiler built (per
 * instance for x-N), and of the scalar kernel they are tested against, each timed in
 * alternation with the plain reference (the yardstick of every bench, tests/ref), best of
 * many pairs. Rows are bench_keccak's: compiler, variant, cycles for 24 and 12 rounds,
 * yardstick cycles for 24 rounds, speed-up over it (tests/bench_table.py prints the table);
 * with --tsv, bench_keccak's header and columns (best and median of each). A kernel is timed
 * only once every instance gives every vector right (keccak_simd_vectors.h for x-N,
 * keccak_vectors.h for single-state kernels).
 *
 *   bench_keccak_simd [--tsv] [substring...]   only variants whose name contains one of them
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_simd_variants.h"
#include "keccak_simd_vectors.h"
#include "keccak_vectors.h"
#include "ref/keccak_ref.h"
#include "timing.h"

#define PAIRS 300
#define REPS 8
#define MAXN RS_KECCAK_MAX_INSTANCES

struct kernel {
    const char *name;
    const char *cpu;
    unsigned n; /* instances per call; 1 for single-state */
    void (*single)(uint64_t state[25], unsigned rounds);
    void (*multi)(uint64_t *states, unsigned rounds);
    void (*interleave)(uint64_t *states, const uint64_t *separate);
    void (*deinterleave)(uint64_t *separate, const uint64_t *states);
};

#define RS_SINGLE(prefix, name, cpu) {name, cpu, 1, prefix##_keccak_p1600, 0, 0, 0},
#define RS_MULTI(prefix, name, cpu, n) {name, cpu, n, 0, prefix##_p, prefix##_il, prefix##_dil},
static const struct kernel kernels[] = {
    {RS_KECCAK_YARDSTICK_NAME, "", 1, RS_KECCAK_YARDSTICK_P, 0, 0, 0},
    RS_KECCAK_SINGLE_VARIANTS(RS_SINGLE) RS_KECCAK_MULTI_VARIANTS(RS_MULTI)
    {0, 0, 0, 0, 0, 0, 0}};

static uint64_t states[25 * MAXN];

static uint64_t time_kernel(const struct kernel *k, unsigned rounds)
{
    uint64_t t0 = rs_ticks();
    int r;
    for (r = 0; r < REPS; r++) {
        if (k->multi)
            k->multi(states, rounds);
        else
            k->single(states, rounds);
    }
    rs_use(states);
    return rs_ticks() - t0;
}

static uint64_t time_ref(uint64_t *st, unsigned rounds)
{
    uint64_t t0 = rs_ticks();
    int r;
    for (r = 0; r < REPS; r++)
        keccak_ref_p1600(st, rounds);
    rs_use(st);
    return rs_ticks() - t0;
}

/* Time per permutation per instance of `k` and of the yardstick, over PAIRS pairs. */
static void measure(const struct kernel *k, unsigned rounds, struct rs_figure *kernel,
                    struct rs_figure *yard)
{
    static uint64_t ks[PAIRS], ys[PAIRS];
    uint64_t st[25];
    int i;
    memset(st, 0x5A, sizeof st);
    for (i = 0; i < 50; i++) { /* warm-up: caches, branch predictors, clock ramp */
        time_kernel(k, rounds);
        time_ref(st, rounds);
    }
    for (i = 0; i < PAIRS; i++) {
        ks[i] = time_kernel(k, rounds);
        ys[i] = time_ref(st, rounds);
    }
    *kernel = rs_figures(ks, PAIRS, (double)REPS * k->n);
    *yard = rs_figures(ys, PAIRS, REPS);
}

/* The first vector `k` gets wrong (a tuner never picks a wrong kernel), or NULL. */
static const char *first_wrong(const struct kernel *k)
{
    static char what[64];
    uint64_t st[25 * MAXN], out[MAXN][25];
    size_t c;
    unsigned j;
    if (!k->multi) {
        for (c = 0; c < RS_KECCAK_NCASES; c++) {
            memcpy(st, rs_keccak_cases[c].in, 25 * sizeof st[0]);
            k->single(st, rs_keccak_cases[c].rounds);
            if (memcmp(st, rs_keccak_cases[c].out, 25 * sizeof st[0]) != 0)
                return rs_keccak_cases[c].name;
        }
        return NULL;
    }
    for (c = 0; c < RS_KECCAK_NMULTI; c++) {
        const struct rs_keccak_multi_case *m = &rs_keccak_multi_cases[c];
        k->interleave(st, &m->in[0][0]);
        k->multi(st, m->rounds);
        k->deinterleave(&out[0][0], st);
        for (j = 0; j < k->n; j++)
            if (memcmp(out[j], m->out[j], sizeof out[j]) != 0) {
                snprintf(what, sizeof what, "%u rounds, instance %u", m->rounds, j);
                return what;
            }
    }
    return NULL;
}

static int wanted(const char *name, int argc, char **argv)
{
    int i;
    if (argc < 2)
        return 1;
    for (i = 1; i < argc; i++)
        if (strstr(name, argv[i]))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int tsv = rs_take_flag(&argc, argv, "--tsv");
    const struct kernel *k;
    size_t i;

    if (tsv)
        printf(RS_PERM_TSV_HEADER);
    for (k = kernels; k->name; k++) {
        const char *missing = "", *wrong;
        struct rs_figure c24, y24, c12, y12;
        if (k != kernels && !wanted(k->name, argc, argv))
            continue;
        if (!rs_cpu_has_all(k->cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, k->name, missing);
            continue;
        }
        if ((wrong = first_wrong(k)) != NULL) {
            printf("%s\t%s\tWRONG: fails '%s', not timed\n", RS_COMPILER, k->name, wrong);
            continue;
        }
        for (i = 0; i < 25 * MAXN; i++)
            states[i] = 0x0123456789ABCDEFULL * (i + 1);
        measure(k, 24, &c24, &y24);
        measure(k, 12, &c12, &y12);
        rs_perm_row(tsv, RS_COMPILER, k->name, c24, c12, y24);
    }
    return 0;
}
