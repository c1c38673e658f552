/*
 * Cycles per permutation of every vector Keccak-p[1600] variant (per instance for x-N), next
 * to the scalar yardstick, in one run.
 *
 * This is a shared VM whose speed drifts by up to 1.5x between runs, so each variant is timed
 * in alternation with the scalar kernel (A, B, A, B, ...) and the best of each over PAIRS
 * pairs is kept; the ratio of the two holds to a few percent where the raw figures do not.
 * Times are TSC ticks (rdtsc), not core cycles: no performance counters here.
 *
 *   bench_keccak_simd [substring...]   only variants whose name contains one of them
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_simd_variants.h"

#define PAIRS 400
#define WARMUP 2000
#define CALLS 4   /* calls per timed sample: amortises the cost of reading the clock */
#define MAXN RS_KECCAK_MAX_INSTANCES

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

static inline uint64_t ticks(void)
{
    uint32_t lo, hi;
    /* lfence keeps rdtsc from being hoisted above the work it should follow. */
    __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

struct kernel {
    const char *name;
    const char *cpu;
    unsigned n;   /* instances per call; 1 for single-state */
    void (*single)(uint64_t state[25], unsigned rounds);
    void (*multi)(uint64_t *states, unsigned rounds);
};

#define RS_SINGLE(prefix, name, cpu) {name, cpu, 1, prefix##_keccak_p1600, 0},
#define RS_MULTI(prefix, name, cpu, n) {name, cpu, n, 0, prefix##_p},
static const struct kernel kernels[] = {
    RS_KECCAK_SINGLE_VARIANTS(RS_SINGLE) RS_KECCAK_MULTI_VARIANTS(RS_MULTI) {0, 0, 0, 0, 0}};

static uint64_t states[25 * MAXN];
static uint64_t yard[25];

static inline void run(const struct kernel *k, unsigned rounds)
{
    if (k->multi)
        k->multi(states, rounds);
    else
        k->single(states, rounds);
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
    static const unsigned round_counts[] = {24, 12};
    const struct kernel *k;
    size_t r;
    unsigned i;

    for (i = 0; i < 25 * MAXN; i++)
        states[i] = 0x0123456789ABCDEFULL * (i + 1);
    for (i = 0; i < 25; i++)
        yard[i] = states[i];

    printf("%-32s %-6s %6s %12s %12s %8s\n", "variant", "cc", "rounds", "cyc/perm", "scalar",
           "speedup");
    for (k = kernels; k->name; k++) {
        const char *missing = "";
        if (!wanted(k->name, argc, argv))
            continue;
        if (!rs_cpu_has_all(k->cpu, &missing)) {
            printf("%-32s %-6s skipped: this CPU lacks %s\n", k->name, RS_COMPILER, missing);
            continue;
        }
        for (r = 0; r < sizeof round_counts / sizeof round_counts[0]; r++) {
            unsigned rounds = round_counts[r], c;
            uint64_t best_k = UINT64_MAX, best_s = UINT64_MAX, t0, t1;
            int pair;

            for (i = 0; i < WARMUP; i++) {
                run(k, rounds);
                RS_KECCAK_YARDSTICK_P(yard, rounds);
            }
            for (pair = 0; pair < PAIRS; pair++) {
                t0 = ticks();
                for (c = 0; c < CALLS; c++)
                    run(k, rounds);
                t1 = ticks();
                if (t1 - t0 < best_k)
                    best_k = t1 - t0;
                t0 = ticks();
                for (c = 0; c < CALLS; c++)
                    RS_KECCAK_YARDSTICK_P(yard, rounds);
                t1 = ticks();
                if (t1 - t0 < best_s)
                    best_s = t1 - t0;
            }
            {
                double per = (double)best_k / (CALLS * k->n);
                double scalar = (double)best_s / CALLS;
                printf("%-32s %-6s %6u %12.1f %12.1f %7.2fx\n", k->name, RS_COMPILER, rounds,
                       per, scalar, scalar / per);
            }
        }
    }
    /* Keep the states observable so no call is optimised away. */
    return (int)((states[0] ^ yard[0]) & 0);
}
