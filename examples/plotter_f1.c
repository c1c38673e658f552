/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * plotter_f1: Chia proof-of-space F1, the way chiapos computes it, on a vendored bundle's
 * chiapos-compatible chacha8.h.
 *
 *   (build: the gcc line below, from this folder)
 *   ./plotter_f1 PLOT_ID K X...         f1(X) for each X, in decimal
 *   ./plotter_f1 PLOT_ID K --sum X0 N   the sum mod 2^64 of f1(X0 .. X0+N-1), in batches
 *
 * PLOT_ID is 64 hex digits. ChaCha8 is keyed with 1 followed by the first 31 bytes of the plot
 * id (zero IV); its keystream, read as one big-endian bit string, holds f1's k-bit outputs
 * back to back: bits x*k .. x*k+k-1 for input x. f1(x) is those k bits followed by the top 6
 * bits of x (chiapos' kExtraBits), k + 6 bits in all (38 for k = 32).
 */
// gcc -O2 -Wall -Wextra -pedantic -I../out/x86_64 plotter_f1.c ../out/x86_64/*.c -o plotter_f1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chacha8.h"

#define EXTRA_BITS 6
#define BLOCK_BITS 512
#define BATCH 4096
#define MAX_K 50

/* k bits at bit offset `bit` of a big-endian bit string (k <= 57: one 8-byte window). */
static uint64_t read_bits(const uint8_t *buf, uint64_t bit, unsigned k)
{
    uint64_t w = 0;
    unsigned j;
    for (j = 0; j < 8; j++)
        w = w << 8 | buf[bit / 8 + j];
    return (w << (bit % 8)) >> (64 - k);
}

/* f1 of x0 .. x0+n-1 (n <= BATCH): one keystream call covers the whole batch, as a plotter's
 * table-1 pass does. */
static void f1_batch(const struct chacha8_ctx *ctx, unsigned k, uint64_t x0, unsigned n,
                     uint64_t *out)
{
    static uint8_t buf[(BATCH * MAX_K / BLOCK_BITS + 2) * 64 + 8];
    uint64_t first = x0 * k / BLOCK_BITS, last = ((x0 + n) * k - 1) / BLOCK_BITS;
    unsigned i;

    chacha8_get_keystream(ctx, first, (uint32_t)(last - first + 1), buf);
    for (i = 0; i < n; i++) {
        uint64_t x = x0 + i;
        out[i] = read_bits(buf, x * k - first * BLOCK_BITS, k) << EXTRA_BITS
                 | x >> (k - EXTRA_BITS);
    }
}

static int parse_id(const char *hex, uint8_t id[32])
{
    unsigned i, v;
    if (strlen(hex) != 64)
        return 0;
    for (i = 0; i < 32; i++) {
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return 0;
        id[i] = (uint8_t)v;
    }
    return 1;
}

int main(int argc, char **argv)
{
    uint8_t id[32], key[32];
    struct chacha8_ctx ctx;
    static uint64_t f1[BATCH];
    unsigned k;
    int i;

    if (argc < 4 || !parse_id(argv[1], id) || (k = (unsigned)atoi(argv[2])) < 18 || k > MAX_K) {
        fprintf(stderr, "usage: plotter_f1 PLOT_ID(64 hex) K(18..%d) X... | --sum X0 N\n", MAX_K);
        return 2;
    }
    key[0] = 1;
    memcpy(key + 1, id, 31);
    chacha8_keysetup(&ctx, key, 256, NULL);
    if (!strcmp(argv[3], "--sum") && argc == 6) {
        uint64_t x = strtoull(argv[4], NULL, 0), left = strtoull(argv[5], NULL, 0), sum = 0;
        while (left) {
            unsigned n = left < BATCH ? (unsigned)left : BATCH, j;
            f1_batch(&ctx, k, x, n, f1);
            for (j = 0; j < n; j++)
                sum += f1[j];
            x += n;
            left -= n;
        }
        printf("%llu\n", (unsigned long long)sum);
        return 0;
    }
    for (i = 3; i < argc; i++) {
        uint64_t x = strtoull(argv[i], NULL, 0);
        f1_batch(&ctx, k, x, 1, f1);
        printf("%llu %llu\n", (unsigned long long)x, (unsigned long long)f1[0]);
    }
    return 0;
}
