/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The tree hashes against the sponges they replace, on the committed x86_64 bundle as a user
 * builds it (gcc -O2, no -m flags; `ninja bench-sp800185`): over 16 MiB, ParallelHash128 and
 * ParallelHash256 with blocks of 8192 bytes, KT128 and KT256, cSHAKE128 and cSHAKE256 (with a
 * customization string, so not SHAKE), raced round-robin in one process on the path the
 * dispatch picks (ROUNDSMITH_PATH=avx2 for the AVX2 path). Prints TSC cycles per byte (median
 * and best of the turns) and each tree's speed over cSHAKE128's and cSHAKE256's. A figure, not
 * a test: nothing is asserted.
 *
 *   bench_sp800185 [--tsv] [--turns N] [--settle-us N] [MiB]
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "rs_dispatch.h"
#include "timing.h"

#define BLOCK 8192

static uint8_t *buf;
static size_t len;
static uint8_t out[64];
static const uint8_t custom[] = {'r', 'o', 'u', 'n', 'd', 's', 'm', 'i', 't', 'h'};

static void run_cshake128(void *a)
{
    (void)a;
    cshake128(out, 32, buf, len, NULL, 0, custom, sizeof custom);
    rs_use(out);
}

static void run_cshake256(void *a)
{
    (void)a;
    cshake256(out, 64, buf, len, NULL, 0, custom, sizeof custom);
    rs_use(out);
}

static void run_ph128(void *a)
{
    (void)a;
    parallelhash128(out, 32, buf, len, BLOCK, custom, sizeof custom);
    rs_use(out);
}

static void run_ph256(void *a)
{
    (void)a;
    parallelhash256(out, 64, buf, len, BLOCK, custom, sizeof custom);
    rs_use(out);
}

static void run_kt128(void *a)
{
    (void)a;
    kt128(out, 32, buf, len, custom, sizeof custom);
    rs_use(out);
}

static void run_kt256(void *a)
{
    (void)a;
    kt256(out, 64, buf, len, custom, sizeof custom);
    rs_use(out);
}

int main(int argc, char **argv)
{
    static struct rs_entrant e[] = {
        {"cshake128", run_cshake128, NULL, 0, RS_CLASS_UNKNOWN, {0, 0}, 0},
        {"cshake256", run_cshake256, NULL, 0, RS_CLASS_UNKNOWN, {0, 0}, 0},
        {"parallelhash128 B=8192", run_ph128, NULL, 0, RS_CLASS_UNKNOWN, {0, 0}, 0},
        {"parallelhash256 B=8192", run_ph256, NULL, 0, RS_CLASS_UNKNOWN, {0, 0}, 0},
        {"kt128", run_kt128, NULL, 0, RS_CLASS_UNKNOWN, {0, 0}, 0},
        {"kt256", run_kt256, NULL, 0, RS_CLASS_UNKNOWN, {0, 0}, 0},
    };
    struct rs_options o;
    size_t n = sizeof e / sizeof e[0], k, mib = 16;

    rs_bench_options(&argc, argv, &o, 5,
                     "usage: bench_sp800185 [--tsv] [--turns N] [--settle-us N] [MiB]\n");
    if (argc > 1)
        mib = (size_t)strtoul(argv[1], NULL, 10);
    if (mib == 0 || mib > 4096) {
        fprintf(stderr, "bench_sp800185: MiB is 1..4096\n");
        return 2;
    }
    len = mib << 20;
    buf = malloc(len);
    if (!buf)
        return 1;
    for (k = 0; k < len; k++)
        buf[k] = (uint8_t)(k * 2654435761u >> 24);
    for (k = 0; k < n; k++) {
        e[k].per = (double)len;
        /* Every contender runs the path's own kernels: one class, so a turn after another
         * needs only the short warm-up. */
        e[k].isa_class = RS_CLASS_SCALAR;
    }
    if (rs_race(e, n, &o, 1) != 0)
        return 1;
    if (!o.tsv)
        printf("# %zu MiB, path %s, KT/ParallelHash leaves on %s, %s per byte, %u turns\n",
               mib, rs_path_name(), rs_choice_name(RS_DECISION_KT128), RS_TICKS_NAME,
               o.rounds);
    printf("function\tmedian c/B\tbest c/B\tspread\tspeed over cshake128\tover cshake256\n");
    for (k = 0; k < n; k++)
        printf("%s\t%.3f\t%.3f\t%.2f\t%.2fx\t%.2fx\n", e[k].name, e[k].fig.median,
               e[k].fig.best, e[k].spread, e[0].fig.median / e[k].fig.median,
               e[1].fig.median / e[k].fig.median);
    free(buf);
    return 0;
}
