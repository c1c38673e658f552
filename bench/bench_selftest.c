/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * What rs_selftest() costs on the path in force (ROUNDSMITH_PATH picks one): the first call
 * (cold caches, the path chosen) and then the best and median of 201 calls, in microseconds
 * (CLOCK_MONOTONIC) and in TSC cycles where there is one. One line:
 *   path=<path> selftest=<code> first_us=<..> best_us=<..> median_us=<..> median_cycles=<..>
 * Built and run per bundle and compiler by bench/bundle_cost.py.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "roundsmith.h"
#include "timing.h"

#define RUNS 201

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    static double us[RUNS];
    static uint64_t ticks[RUNS];
    double t0 = now_us(), first;
    int code = rs_selftest(), k;
    struct rs_figure f;

    first = now_us() - t0;
    for (k = 0; k < RUNS; k++) {
        uint64_t c0 = rs_ticks();
        t0 = now_us();
        code |= rs_selftest();
        us[k] = now_us() - t0;
        ticks[k] = rs_ticks() - c0;
    }
    qsort(us, RUNS, sizeof us[0], cmp_double);
    f = rs_figures(ticks, RUNS, 1);
    printf("path=%s selftest=%d first_us=%.1f best_us=%.1f median_us=%.1f median_%s=%.0f\n",
           rs_path_name(), code, first, us[0], us[RUNS / 2],
           RS_TICKS_NAME[0] == 'T' ? "cycles" : "ns", f.median);
    return code != 0;
}
