/*
 * Cycles per permutation of every vector Keccak-p[1600] variant one compiler built (per
 * instance for x-N), and of the scalar kernel they are tested against, each timed in
 * alternation with the plain reference (the yardstick of every bench, tests/ref), best of
 * many pairs. Rows are bench_keccak's: compiler, variant, cycles for 24 and 12 rounds,
 * yardstick cycles for 24 rounds, speed-up over it (tests/bench_table.py prints the table).
 *
 *   bench_keccak_simd [substring...]   only variants whose name contains one of them
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_simd_variants.h"
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
};

#define RS_SINGLE(prefix, name, cpu) {name, cpu, 1, prefix##_keccak_p1600, 0},
#define RS_MULTI(prefix, name, cpu, n) {name, cpu, n, 0, prefix##_p},
static const struct kernel kernels[] = {
    {RS_KECCAK_YARDSTICK_NAME, "", 1, RS_KECCAK_YARDSTICK_P, 0},
    RS_KECCAK_SINGLE_VARIANTS(RS_SINGLE) RS_KECCAK_MULTI_VARIANTS(RS_MULTI) {0, 0, 0, 0, 0}};

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

/* Best time per permutation per instance of `k` and of the yardstick, over PAIRS pairs. */
static void measure(const struct kernel *k, unsigned rounds, double *kernel, double *yard)
{
    uint64_t st[25], best_k = UINT64_MAX, best_y = UINT64_MAX;
    int i;
    memset(st, 0x5A, sizeof st);
    for (i = 0; i < 50; i++) { /* warm-up: caches, branch predictors, clock ramp */
        time_kernel(k, rounds);
        time_ref(st, rounds);
    }
    for (i = 0; i < PAIRS; i++) {
        uint64_t a = time_kernel(k, rounds);
        uint64_t b = time_ref(st, rounds);
        if (a < best_k)
            best_k = a;
        if (b < best_y)
            best_y = b;
    }
    *kernel = (double)best_k / (REPS * k->n);
    *yard = (double)best_y / REPS;
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
    const struct kernel *k;
    size_t i;

    for (i = 0; i < 25 * MAXN; i++)
        states[i] = 0x0123456789ABCDEFULL * (i + 1);
    for (k = kernels; k->name; k++) {
        const char *missing = "";
        double c24, y24, c12, y12;
        if (k != kernels && !wanted(k->name, argc, argv))
            continue;
        if (!rs_cpu_has_all(k->cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, k->name, missing);
            continue;
        }
        measure(k, 24, &c24, &y24);
        measure(k, 12, &c12, &y12);
        printf("%s\t%s\t%.0f\t%.0f\t%.0f\t%.2f\n", RS_COMPILER, k->name, c24, c12, y24,
               y24 / c24);
        fflush(stdout);
    }
    return 0;
}
