/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Cycles per permutation of every scalar Keccak variant one compiler built, each timed in
 * alternation with the plain reference (the yardstick, always gcc -O3) over many pairs.
 * Prints one row per variant: compiler, variant, best cycles for 24 and 12 rounds, the
 * yardstick's, speed-up. With --tsv: a header line, then the best and the median of each
 * (what generator/tune.py and the report read). A variant is timed only once it gives
 * every vector right.
 *
 *   bench_keccak [--tsv] [VARIANT...]   only the variants named (a tuner's pruned space)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_variants.h"
#include "keccak_vectors.h"
#include "ref/keccak_ref.h"
#include "timing.h"

#define PAIRS 300
#define REPS 16

#include "keccak_variant_table.h"

static uint64_t time_kernel(void (*p1600)(uint64_t *, unsigned), uint64_t *st, unsigned r)
{
    uint64_t t0 = rs_ticks();
    int k;
    for (k = 0; k < REPS; k++)
        p1600(st, r);
    rs_use(st);
    return rs_ticks() - t0;
}

/* Time per permutation of `fn` and of the yardstick, over PAIRS alternations. */
static void measure(void (*fn)(uint64_t *, unsigned), unsigned rounds, struct rs_figure *kernel,
                    struct rs_figure *yard)
{
    static uint64_t ks[PAIRS], ys[PAIRS];
    uint64_t st[25];
    int k;
    memset(st, 0x5A, sizeof st);
    for (k = 0; k < 20; k++) { /* warm-up: caches, branch predictors, clock ramp */
        fn(st, rounds);
        keccak_ref_p1600(st, rounds);
    }
    for (k = 0; k < PAIRS; k++) {
        ks[k] = time_kernel(fn, st, rounds);
        ys[k] = time_kernel(keccak_ref_p1600, st, rounds);
    }
    *kernel = rs_figures(ks, PAIRS, REPS);
    *yard = rs_figures(ys, PAIRS, REPS);
}

/* A candidate is timed only once it gives every vector right, so a tuner never picks a
 * wrong kernel; returns the first vector it fails, or NULL. */
static const char *first_wrong(const struct variant *v)
{
    size_t k;
    for (k = 0; k < RS_KECCAK_NCASES; k++) {
        uint64_t st[25];
        memcpy(st, rs_keccak_cases[k].in, sizeof st);
        v->p1600(st, rs_keccak_cases[k].rounds);
        if (memcmp(st, rs_keccak_cases[k].out, sizeof st) != 0)
            return rs_keccak_cases[k].name;
    }
    return NULL;
}

static int selected(const char *name, int argc, char **argv)
{
    int i;
    if (argc < 2)
        return 1;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int tsv = rs_take_flag(&argc, argv, "--tsv");
    unsigned k;
    if (tsv)
        printf(RS_PERM_TSV_HEADER);
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "", *wrong;
        struct rs_figure c24, y24, c12, y12;
        if (!selected(v->name, argc, argv))
            continue;
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, v->name, missing);
            continue;
        }
        if ((wrong = first_wrong(v)) != NULL) {
            printf("%s\t%s\tWRONG: fails '%s', not timed\n", RS_COMPILER, v->name, wrong);
            continue;
        }
        measure(v->p1600, 24, &c24, &y24);
        measure(v->p1600, 12, &c12, &y12);
        rs_perm_row(tsv, RS_COMPILER, v->name, c24, c12, y24);
    }
    return 0;
}
