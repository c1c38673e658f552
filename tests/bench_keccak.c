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
#include "ref/keccak_ref.h"
#include "timing.h"

#define PAIRS 300
#define REPS 16

struct variant {
    const char *name;
    const char *cpu;
    void (*f1600)(uint64_t state[25]);
    void (*p1600)(uint64_t state[25], unsigned rounds);
};

#define RS_ENTRY(f1600, p1600, absorb, name, cpu) {name, cpu, f1600, p1600},
static const struct variant all_variants[] = {RS_KECCAK_VARIANTS(RS_ENTRY)};
#define NVARIANTS (sizeof all_variants / sizeof all_variants[0])

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

int main(void)
{
    unsigned k;
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "";
        double c24, y24, c12, y12;
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, v->name, missing);
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
