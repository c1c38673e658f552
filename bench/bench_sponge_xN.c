/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The multi-buffer sponges against the same bytes hashed one message at a time by the
 * single-buffer functions, on the x86_64 bundle (out/x86_64 as a user vendors it: -O2, no -m
 * flags, the dispatch picking the path; ROUNDSMITH_PATH forces one). Per race the contenders
 * go round-robin in this one process (bench/timing.h, rs_race: each turn first settles on the
 * contender's own code), wall clock; the figure is the median turn in cycles per byte
 * absorbed summed over the lanes, and "speed-up" is one-at-a-time time over multi-buffer time.
 *   - SHAKE128, N x 1 KiB absorbed + N x 1 KiB squeezed, N = 8 (shake128_x8) and N = 4
 *     (shake128_x4): the multi-buffer API's goals were 4.5x (x8, AVX-512) and 3x (x4, AVX2);
 *   - SHA3-256 of 8 x 64-byte messages (short messages, as hash-based signatures use);
 *   - ML-KEM-768's matrix expansion (examples/mlkem_matrix.c): x4 against stream by stream,
 *     in cycles per matrix (goal 2.5x), and its hashing alone (rejection sampling, the same
 *     scalar loop in both, is the part multi-buffer hashing cannot shrink).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "rs_dispatch.h"
#include "timing.h"

#define MLKEM_MATRIX_NO_MAIN
#include "../examples/mlkem_matrix.c"

#define KIB 1024
#define MAXN 8

static uint8_t msgs[MAXN][KIB], outs[MAXN][KIB];
static const uint8_t *in[MAXN];
static uint8_t *out[MAXN];
static size_t msg_len, out_len;

static void single_shake128(void *arg)
{
    unsigned n = *(const unsigned *)arg, j;
    for (j = 0; j < n; j++)
        shake128(outs[j], out_len, msgs[j], msg_len);
    rs_use(outs);
}

static void multi_shake128(void *arg)
{
    if (*(const unsigned *)arg == 8)
        shake128_x8(out, out_len, in, msg_len);
    else
        shake128_x4(out, out_len, in, msg_len);
    rs_use(outs);
}

static void single_sha3_256(void *arg)
{
    unsigned j;
    (void)arg;
    for (j = 0; j < 8; j++)
        sha3_256(outs[j], msgs[j], msg_len);
    rs_use(outs);
}

static void multi_sha3_256(void *arg)
{
    (void)arg;
    sha3_256_x8(out, in, msg_len);
    rs_use(outs);
}

static uint16_t matrix[MLKEM_K][MLKEM_K][MLKEM_N];
static uint8_t rho[32];

static void single_mlkem(void *arg)
{
    (void)arg;
    expand_single(matrix, rho);
    rs_use(matrix);
}

static void multi_mlkem(void *arg)
{
    (void)arg;
    expand_x4(matrix, rho);
    rs_use(matrix);
}

/* The matrix's hashing alone (no sampling): 9 x SHAKE128(34 bytes) -> 504 bytes, batches of
 * 4, 4 and 1 on the x4 API as the example runs them. */
static uint8_t seeds[9][34], streams[9][504];

static void single_streams(void *arg)
{
    unsigned t;
    (void)arg;
    for (t = 0; t < 9; t++)
        shake128(streams[t], sizeof streams[t], seeds[t], sizeof seeds[t]);
    rs_use(streams);
}

static void multi_streams(void *arg)
{
    const uint8_t *i4[4];
    uint8_t *o4[4];
    unsigned t, l;
    (void)arg;
    for (t = 0; t < 9; t += 4) {
        for (l = 0; l < 4; l++) {
            unsigned u = t + l < 9 ? t + l : 8;
            i4[l] = seeds[u];
            o4[l] = streams[u];
        }
        shake128_x4(o4, sizeof streams[0], i4, sizeof seeds[0]);
    }
    rs_use(streams);
}

static struct rs_options opts;

/* Two contenders, one-at-a-time first; prints a row and returns the speed-up. */
static double race(const char *what, const char *multi, void (*a)(void *), void (*b)(void *),
                   void *arg, int multi_class, double per, double goal)
{
    struct rs_entrant e[2] = {
        {"one at a time", a, arg, per, RS_CLASS_SCALAR, {0, 0}, 0},
        {multi, b, arg, per, multi_class, {0, 0}, 0},
    };
    double ratio;
    if (rs_race(e, 2, &opts, 3)) {
        fprintf(stderr, "bench_sponge_xN: out of memory\n");
        exit(1);
    }
    ratio = e[0].fig.median / e[1].fig.median;
    if (opts.tsv) {
        printf("%s\t%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\n", RS_COMPILER, rs_path_name(), what,
               e[0].fig.median, e[1].fig.median, e[0].fig.best, e[1].fig.best, ratio);
    } else {
        printf("%-34s %-12s %9.2f %9.2f   %5.2fx", what, multi, e[0].fig.median,
               e[1].fig.median, ratio);
        if (goal > 0)
            printf("   (goal %.1fx: %s)", goal, ratio >= goal ? "met" : "missed");
        printf("\n");
    }
    return ratio;
}

static const char usage[] =
    "usage: bench_sponge_xN [OPTION...]\n"
    "Races the multi-buffer SHAKE128 and SHA3-256 (x8, x4) and ML-KEM-768's matrix expansion\n"
    "(x4) against the same work done one message at a time, on the path the dispatch picks\n"
    "(ROUNDSMITH_PATH=scalar|sse2|avx2|avx512 forces one); prints median cycles per byte.\n"
    "Turns default to 41.\n";

int main(int argc, char **argv)
{
    unsigned n8 = 8, n4 = 4, j, k;
    int wide, have_x8, have_x4;

    rs_bench_options(&argc, argv, &opts, 41, usage);
    rs_no_options_left(argc, argv, 1);
    if (argc > 1) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", argv[0], argv[1]);
        return 2;
    }
    for (j = 0; j < MAXN; j++) {
        for (k = 0; k < KIB; k++)
            msgs[j][k] = (uint8_t)((k * 2654435761u >> 24) + 31 * j);
        in[j] = msgs[j];
        out[j] = outs[j];
    }
    for (k = 0; k < 32; k++)
        rho[k] = (uint8_t)(k * 7 + 1);
    wide = rs_path();
    have_x8 = wide >= RS_PATH_AVX512;
    have_x4 = wide >= RS_PATH_AVX2;
    if (opts.tsv)
        printf("compiler\tpath\twork\tsingle_cpb\tmulti_cpb\tsingle_best\tmulti_best\tspeedup\n");
    else
        printf("%s, path %s, %s per byte absorbed (summed over lanes), median of %u turns\n"
               "%-34s %-12s %9s %9s   speed-up\n", RS_COMPILER, rs_path_name(), RS_TICKS_NAME,
               opts.rounds, "work", "multi", "single", "multi");
    msg_len = KIB;
    out_len = KIB;
    race("SHAKE128 8 x (1 KiB in + 1 KiB out)", "shake128_x8", single_shake128, multi_shake128,
         &n8, have_x8 ? RS_CLASS_512 : have_x4 ? RS_CLASS_256 : RS_CLASS_SCALAR, 8.0 * KIB,
         have_x8 ? 4.5 : 0);
    race("SHAKE128 4 x (1 KiB in + 1 KiB out)", "shake128_x4", single_shake128, multi_shake128,
         &n4, have_x4 ? RS_CLASS_256 : RS_CLASS_SCALAR, 4.0 * KIB, have_x4 ? 3.0 : 0);
    msg_len = 64;
    race("SHA3-256 8 x 64 B", "sha3_256_x8", single_sha3_256, multi_sha3_256, NULL,
         have_x8 ? RS_CLASS_512 : have_x4 ? RS_CLASS_256 : RS_CLASS_SCALAR, 8.0 * 64, 0);
    for (j = 0; j < 9; j++) {
        memcpy(seeds[j], rho, 32);
        seeds[j][32] = (uint8_t)(j % 3);
        seeds[j][33] = (uint8_t)(j / 3);
    }
    race("ML-KEM-768 hashing only (per matrix)", "shake128_x4", single_streams, multi_streams, NULL,
         have_x4 ? RS_CLASS_256 : RS_CLASS_SCALAR, 1.0, 0);
    race("ML-KEM-768 matrix (per matrix)", "shake128_x4", single_mlkem, multi_mlkem, NULL,
         have_x4 ? RS_CLASS_256 : RS_CLASS_SCALAR, 1.0, have_x4 ? 2.5 : 0);
    return 0;
}
