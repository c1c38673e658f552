/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Timing for the benchmarks: the TSC where there is one, else the monotonic clock.
 *
 * This machine is a shared VM whose speed moves by up to 1.5x between runs, so benches time
 * a kernel and a fixed yardstick in alternation and keep the best and the median of each: the
 * ratio holds.
 */
#ifndef RS_TIMING_H
#define RS_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__TINYC__))
#define RS_TICKS_NAME "TSC cycles"
static inline uint64_t rs_ticks(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
#else
#define RS_TICKS_NAME "ns"
static inline uint64_t rs_ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* Keeps the compiler from discarding a result. */
static inline void rs_use(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

/* A bench's figures for one contender over its alternations: the best sample and the
 * median one (the tuner decides on medians; the best shows what the code can reach). */
struct rs_figure {
    double best, median;
};

static inline int rs_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Best and median of n samples (sorted in place), each divided by `per`. */
static inline struct rs_figure rs_figures(uint64_t *samples, size_t n, double per)
{
    struct rs_figure f;
    qsort(samples, n, sizeof samples[0], rs_cmp_u64);
    f.best = (double)samples[0] / per;
    f.median = (n % 2 ? (double)samples[n / 2]
                      : ((double)samples[n / 2 - 1] + (double)samples[n / 2]) / 2) / per;
    return f;
}

/* True if `flag` is among the arguments, which it then leaves (the others keep their order):
 * every bench takes --tsv, the machine-readable rows the tuner and the report read. */
static inline int rs_take_flag(int *argc, char **argv, const char *flag)
{
    int i, found = 0, out = 1;
    for (i = 1; i < *argc; i++) {
        if (strcmp(argv[i], flag) == 0)
            found = 1;
        else
            argv[out++] = argv[i];
    }
    *argc = out;
    return found;
}

/* The rows of the permutation benches (bench_keccak, bench_keccak_simd): with --tsv a header
 * and the best and median of each figure, else the best only, as tests/bench_table.py reads. */
#define RS_PERM_TSV_HEADER \
    "compiler\tvariant\tstatus\tmedian_24\tbest_24\tmedian_12\tbest_12\tref_median_24" \
    "\tref_best_24\n"

static inline void rs_perm_row(int tsv, const char *cc, const char *name, struct rs_figure c24,
                               struct rs_figure c12, struct rs_figure y24)
{
    if (tsv)
        printf("%s\t%s\tok\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\n", cc, name, c24.median,
               c24.best, c12.median, c12.best, y24.median, y24.best);
    else
        printf("%s\t%s\t%.0f\t%.0f\t%.0f\t%.2f\n", cc, name, c24.best, c12.best, y24.best,
               y24.best / c24.best);
    fflush(stdout);
}

#endif
