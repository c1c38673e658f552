/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Does 512-bit code change the clock of what runs after it on this CPU? The plain scalar
 * reference permutation is timed in 1-2 microsecond samples for 4 ms right after 5 ms of
 * 512-bit FMAs, and right after 5 ms of scalar integer work; 25 times each, alternated, the
 * median per 100-microsecond bin printed side by side. On Intel cores with an AVX-512
 * frequency offset the first column runs slow until the core returns to its scalar clock
 * (about 2 ms after the 512-bit code stops): there a reference timed next to a 512-bit
 * candidate flatters it, which is why bench/timing.h settles each turn on its own code. On a
 * CPU without such an offset (AMD Zen 4 and Zen 5) the two columns agree.
 *     gcc -O3 -Itests bench/clock_settle.c tests/ref/keccak_ref.c -o build/clock_settle
 *     build/clock_settle
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "ref/keccak_ref.h"
#include "timing.h"

#define BINS 40      /* 100-microsecond bins after the burst */
#define REPEATS 25
#define PERMS 2      /* permutations per sample */

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__TINYC__)
#include <immintrin.h>
#define RS_HAVE_512 1
/* 512-bit FMAs in 8 independent chains until `ticks` have passed. */
__attribute__((target("avx512f"))) static double burst512(uint64_t ticks)
{
    __m512d a[8], m = _mm512_set1_pd(0.999999), c = _mm512_set1_pd(1e-7);
    uint64_t t0 = rs_ticks();
    double out[8];
    int k;
    for (k = 0; k < 8; k++)
        a[k] = _mm512_set1_pd(1.0 + k);
    do
        for (k = 0; k < 8; k++)
            a[k] = _mm512_fmadd_pd(a[k], m, c);
    while (rs_ticks() - t0 < ticks);
    for (k = 1; k < 8; k++)
        a[0] = _mm512_add_pd(a[0], a[k]);
    _mm512_storeu_pd(out, a[0]);
    return out[0];
}
#endif

/* Scalar integer work until `ticks` have passed. */
static double burst_scalar(uint64_t ticks)
{
    uint64_t t0 = rs_ticks(), x = 1, y = 2;
    do {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        y ^= x >> 7;
    } while (rs_ticks() - t0 < ticks);
    return (double)(x ^ y);
}

/* After a burst: the reference in samples, each filed in its 100-us bin by start time. */
static void series(uint64_t *bins, const uint64_t us100, uint64_t *st)
{
    uint64_t start = rs_ticks(), t, dt;
    int b, k;
    for (b = 0; b < BINS; b++)
        bins[b] = UINT64_MAX;
    while ((t = rs_ticks()) - start < BINS * us100) {
        b = (int)((t - start) / us100);
        for (k = 0; k < PERMS; k++)
            keccak_ref_p1600(st, 24);
        rs_use(st);
        dt = rs_ticks() - t;
        if (dt < bins[b])
            bins[b] = dt; /* the best sample of the bin: an interrupt lands in one */
    }
}

int main(int argc, char **argv)
{
    static uint64_t after512[BINS][REPEATS], after_scalar[BINS][REPEATS];
    uint64_t bins[BINS], st[25], us100 = (uint64_t)(100 * rs_ticks_per_us());
    double sink = 0;
    const char *missing;
    int r, b;
    (void)argv;
    if (argc > 1) {
        printf("usage: clock_settle\n(no options: see the comment at the top of "
               "bench/clock_settle.c)\n");
        return argc == 2 && !strcmp(argv[1], "--help") ? 0 : 2;
    }
#ifndef RS_HAVE_512
    printf("clock_settle: needs x86-64 and gcc or clang\n");
    return 0;
#else
    if (!rs_cpu_has_all("avx512f", &missing)) {
        printf("clock_settle: this CPU has no AVX-512: nothing to show\n");
        return 0;
    }
    memset(st, 0x5A, sizeof st);
    for (r = 0; r < REPEATS; r++) {
        sink += burst512(50 * us100);
        series(bins, us100, st);
        for (b = 0; b < BINS; b++)
            after512[b][r] = bins[b];
        sink += burst_scalar(50 * us100);
        series(bins, us100, st);
        for (b = 0; b < BINS; b++)
            after_scalar[b][r] = bins[b];
    }
    printf("plain reference Keccak-f[1600], %s per permutation, best sample of each 100-us "
           "bin, median over %d bursts\n", RS_TICKS_NAME, REPEATS);
    printf("%-14s %14s %14s %8s\n", "after burst", "512-bit FMAs", "scalar work", "ratio");
    for (b = 0; b < BINS; b++) {
        struct rs_figure x = rs_figures(after512[b], REPEATS, PERMS);
        struct rs_figure y = rs_figures(after_scalar[b], REPEATS, PERMS);
        if (b < 10 || b % 5 == 4)
            printf("%5d-%4d us %14.1f %14.1f %8.3f\n", b * 100, b * 100 + 100, x.median,
                   y.median, x.median / y.median);
    }
    return sink == 12345.0;
#endif
}
