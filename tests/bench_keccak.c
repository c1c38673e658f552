/*
 * Cycles per permutation of every scalar Keccak variant one compiler built, each timed in
 * alternation with the plain reference (the yardstick, always gcc -O3), best of many pairs.
 * Prints one row per variant: compiler, variant, cycles for 24 and 12 rounds, speed-up.
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

/* Best time per permutation of `fn` and of the yardstick, over PAIRS alternations. */
static void measure(void (*fn)(uint64_t *, unsigned), unsigned rounds, double *kernel,
                    double *yard)
{
    uint64_t st[25], best_k = UINT64_MAX, best_y = UINT64_MAX;
    int k;
    memset(st, 0x5A, sizeof st);
    for (k = 0; k < 20; k++) { /* warm-up: caches, branch predictors, clock ramp */
        fn(st, rounds);
        keccak_ref_p1600(st, rounds);
    }
    for (k = 0; k < PAIRS; k++) {
        uint64_t a = time_kernel(fn, st, rounds);
        uint64_t b = time_kernel(keccak_ref_p1600, st, rounds);
        if (a < best_k)
            best_k = a;
        if (b < best_y)
            best_y = b;
    }
    *kernel = (double)best_k / REPS;
    *yard = (double)best_y / REPS;
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

/* With arguments, only the variants named (a tuner's pruned space). */
int main(int argc, char **argv)
{
    unsigned k;
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "", *wrong;
        double c24, y24, c12, y12;
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
        printf("%s\t%s\t%.0f\t%.0f\t%.0f\t%.2f\n", RS_COMPILER, v->name, c24, c12, y24,
               y24 / c24);
        fflush(stdout);
    }
    return 0;
}
