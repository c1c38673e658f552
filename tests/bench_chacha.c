/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Bench for every generated ChaCha variant one compiler can build, side by side in one run
 * with OpenSSL's EVP_chacha20 and the plain reference kernel (tests/ref, built gcc -O3).
 *
 * The machine is a shared VM whose speed drifts between runs, so each figure comes from
 * alternating the kernel and its peers inside one process (A, B, C, A, B, C, ...) and keeping
 * the best and the median time of each: the ratios hold to a few percent where absolute
 * figures do not. A variant is timed only once it gives the official blocks and the Python
 * reference's streams right (chacha_vectors.h).
 *
 *   bulk    the plotter's call pattern: 4096 calls of 128 ChaCha8 blocks filling 32 MiB
 *   1-block one ChaCha8 block per call (the plotter's F1 path), cycles per call
 *   xor20   ChaCha20 of 1 MiB (RFC 8439 entry point), in place
 *
 * usage: bench_chacha [--tsv] [-f SUBSTRING] [-b BULK_PAIRS] [-s SINGLE_PAIRS] [-x XOR_PAIRS]
 *                     [VARIANT...]
 * --tsv: one header line, then per variant the median and best of every figure (what
 * generator/tune.py and the report read); VARIANT: only the variants so named.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "chacha_variants.h"
#include "chacha_vectors.h"
#include "chacha_variant_table.h"
#include "cpu_features.h"
#include "ref/chacha_ref.h"
#include "timing.h"

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

#define BULK_CALLS 4096
#define BULK_BLOCKS 128
#define BULK_BYTES ((size_t)BULK_CALLS * BULK_BLOCKS * 64)
#define SINGLE_CALLS 256
#define XOR_BYTES ((size_t)1 << 20)

/* The timed call patterns of each variant, in the order of all_variants. */
struct timed {
    void (*bulk)(uint8_t *buf);
    void (*single)(uint8_t *buf);
    void (*xor20)(uint8_t *buf);
};

static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t nonce[12] = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};

/* Each variant's context type is its own; one set of wrappers per variant hides them. */
#define RS_BENCH_WRAP(prefix, name, width, cpu) \
    static void prefix##bulk(uint8_t *buf) \
    { \
        struct prefix##chacha8_ctx c; \
        uint32_t i; \
        prefix##chacha8_keysetup(&c, key, 256, NULL); \
        for (i = 0; i < BULK_CALLS; i++) \
            prefix##chacha8_get_keystream(&c, (uint64_t)i * BULK_BLOCKS, BULK_BLOCKS, \
                                           buf + (size_t)i * BULK_BLOCKS * 64); \
    } \
    static void prefix##single(uint8_t *buf) \
    { \
        struct prefix##chacha8_ctx c; \
        uint32_t i; \
        prefix##chacha8_keysetup(&c, key, 256, NULL); \
        for (i = 0; i < SINGLE_CALLS; i++) \
            prefix##chacha8_get_keystream(&c, i, 1, buf + 64 * i); \
    } \
    static void prefix##xor20(uint8_t *buf) \
    { \
        prefix##chacha20_ietf_xor(buf, buf, XOR_BYTES, key, nonce, 1); \
    }
RS_CHACHA_VARIANTS(RS_BENCH_WRAP)

#define RS_TIMED(prefix, name, width, cpu) {prefix##bulk, prefix##single, prefix##xor20},
static const struct timed all_timed[] = {RS_CHACHA_VARIANTS(RS_TIMED)};

static void ref_bulk(uint8_t *buf)
{
    uint32_t input[16], i;
    rs_ref_chacha_keysetup(input, key, 256, NULL);
    for (i = 0; i < BULK_CALLS; i++)
        rs_ref_chacha_keystream(input, 8, (uint64_t)i * BULK_BLOCKS, BULK_BLOCKS,
                                buf + (size_t)i * BULK_BLOCKS * 64);
}

static void ref_single(uint8_t *buf)
{
    uint32_t input[16], i;
    rs_ref_chacha_keysetup(input, key, 256, NULL);
    for (i = 0; i < SINGLE_CALLS; i++)
        rs_ref_chacha_keystream(input, 8, i, 1, buf + 64 * i);
}

static EVP_CIPHER_CTX *ossl;

/* OpenSSL's IV for ChaCha20 is the 32-bit counter (little-endian) then the 12-byte nonce. */
static void ossl_run(uint8_t *buf, size_t len)
{
    uint8_t iv[16] = {1, 0, 0, 0};
    int outl;
    memcpy(iv + 4, nonce, 12);
    if (!EVP_EncryptInit_ex(ossl, NULL, NULL, key, iv) ||
        !EVP_EncryptUpdate(ossl, buf, &outl, buf, (int)len)) {
        fprintf(stderr, "bench_chacha: OpenSSL EVP_chacha20 failed\n");
        exit(1);
    }
}

static void ossl_bulk(uint8_t *buf)
{
    ossl_run(buf, BULK_BYTES);
}

static void ossl_xor20(uint8_t *buf)
{
    ossl_run(buf, XOR_BYTES);
}

#define MAX_PAIRS 4096
/* The --tsv columns, in the order of the figures: c/B for bulk and xor, cycles per call for
 * the single-block calls. */
static const char *const columns[7] = {"bulk", "bulk_ref", "bulk_ossl", "blk1", "blk1_ref",
                                       "xor20", "xor20_ossl"};

/* Best and median TSC cycles of each of n functions, divided by `per`, run in turn `pairs`
 * times after one warm-up turn. */
static void race(void (*const *fn)(uint8_t *), unsigned n, uint8_t *const *buf,
                 unsigned pairs, double per, struct rs_figure *fig)
{
    static uint64_t samples[3][MAX_PAIRS];
    unsigned p, k;
    for (k = 0; k < n; k++)
        fn[k](buf[k]);
    for (p = 0; p < pairs; p++)
        for (k = 0; k < n; k++) {
            uint64_t t0 = rs_ticks();
            fn[k](buf[k]);
            rs_use(buf[k]);
            samples[k][p] = rs_ticks() - t0;
        }
    for (k = 0; k < n; k++)
        fig[k] = rs_figures(samples[k], pairs, per);
}

static int named(const char *name, int argc, char **argv, int first)
{
    int i;
    if (first >= argc)
        return 1;
    for (i = first; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "bench_chacha: out of memory\n");
        exit(1);
    }
    memset(p, 0, n);
    return p;
}

int main(int argc, char **argv)
{
    int tsv = rs_take_flag(&argc, argv, "--tsv");
    const char *filter = "";
    unsigned bulk_pairs = 20, single_pairs = 300, xor_pairs = 100, k;
    uint8_t *bulk_a = xmalloc(BULK_BYTES), *bulk_b = xmalloc(BULK_BYTES);
    uint8_t *small_a = xmalloc(XOR_BYTES), *small_b = xmalloc(XOR_BYTES);
    int i;

    for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-f") == 0)
            filter = argv[i + 1];
        else if (strcmp(argv[i], "-b") == 0)
            bulk_pairs = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-s") == 0)
            single_pairs = (unsigned)atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-x") == 0)
            xor_pairs = (unsigned)atoi(argv[i + 1]);
        else
            break;
    }
    if ((i < argc && argv[i][0] == '-') || !bulk_pairs || !single_pairs || !xor_pairs ||
        bulk_pairs > MAX_PAIRS || single_pairs > MAX_PAIRS || xor_pairs > MAX_PAIRS) {
        fprintf(stderr, "usage: %s [--tsv] [-f SUBSTRING] [-b BULK_PAIRS] [-s SINGLE_PAIRS] "
                        "[-x XOR_PAIRS] [VARIANT...] (pairs 1..%u)\n", argv[0], MAX_PAIRS);
        return 2;
    }
    ossl = EVP_CIPHER_CTX_new();
    if (!ossl || !EVP_EncryptInit_ex(ossl, EVP_chacha20(), NULL, NULL, NULL)) {
        fprintf(stderr, "bench_chacha: OpenSSL has no EVP_chacha20\n");
        return 1;
    }

    if (tsv) {
        printf("compiler\tvariant\tstatus\tlevel");
        for (k = 0; k < 7; k++)
            printf("\t%s_median\t%s_best", columns[k], columns[k]);
        printf("\n");
    } else {
        printf("# %s; pairs: bulk %u, 1-block %u, xor %u; %s, best of each\n", RS_COMPILER,
               bulk_pairs, single_pairs, xor_pairs, RS_TICKS_NAME);
        printf("# bulk: ChaCha8 4096 x 128 blocks (32 MiB) vs plain ref ChaCha8 (gcc -O3) and "
               "OpenSSL EVP_chacha20 over 32 MiB\n");
        printf("# 1-block: cycles per ChaCha8 call with n_blocks = 1; xor20: ChaCha20 1 MiB vs "
               "OpenSSL\n");
        printf("%-34s %-5s %-6s | %7s %7s %7s %6s %6s | %6s %6s %6s | %7s %7s %6s\n", "variant",
               "cc", "level", "bulk", "ref", "ossl20", "xref", "xossl", "1blk", "ref", "ratio",
               "xor20", "ossl20", "xossl");
        printf("%-34s %-5s %-6s | %7s %7s %7s %6s %6s | %6s %6s %6s | %7s %7s %6s\n", "", "",
               "", "c/B", "c/B", "c/B", ">=8", ">=2.2", "cyc", "cyc", "<=0.8", "c/B", "c/B",
               ">=1.0");
    }
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const struct timed *t = &all_timed[k];
        const char *missing = "", *wrong;
        struct rs_figure fig[7]; /* bulk, ref, ossl20 | 1blk, ref | xor20, ossl20 */

        if (!strstr(v->name, filter) || !named(v->name, argc, argv, i))
            continue;
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            if (tsv)
                printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, v->name, missing);
            else
                printf("%-34s %-5s SKIP: this CPU lacks %.*s\n", v->name, RS_COMPILER,
                       (int)strcspn(missing, " "), missing);
            continue;
        }
        if ((wrong = rs_chacha_first_wrong(v)) != NULL) {
            if (tsv)
                printf("%s\t%s\tWRONG: fails %s, not timed\n", RS_COMPILER, v->name, wrong);
            else
                printf("%-34s %-5s WRONG: fails %s, not timed\n", v->name, RS_COMPILER, wrong);
            continue;
        }
        {
            void (*const fn[3])(uint8_t *) = {t->bulk, ref_bulk, ossl_bulk};
            uint8_t *const buf[3] = {bulk_a, bulk_b, bulk_b};
            race(fn, 3, buf, bulk_pairs, BULK_BYTES, fig);
        }
        {
            void (*const fn[2])(uint8_t *) = {t->single, ref_single};
            uint8_t *const buf[2] = {small_a, small_b};
            race(fn, 2, buf, single_pairs, SINGLE_CALLS, fig + 3);
        }
        {
            void (*const fn[2])(uint8_t *) = {t->xor20, ossl_xor20};
            uint8_t *const buf[2] = {small_a, small_b};
            race(fn, 2, buf, xor_pairs, XOR_BYTES, fig + 5);
        }
        if (tsv) {
            unsigned c;
            printf("%s\t%s\tok\t%s", RS_COMPILER, v->name, v->level());
            for (c = 0; c < 7; c++)
                printf("\t%.4f\t%.4f", fig[c].median, fig[c].best);
            printf("\n");
        } else
            printf("%-34s %-5s %-6s | %7.3f %7.3f %7.3f %6.2f %6.2f | %6.1f %6.1f %6.2f | %7.3f "
                   "%7.3f %6.2f\n", v->name, RS_COMPILER, v->level(), fig[0].best, fig[1].best,
                   fig[2].best, fig[1].best / fig[0].best, fig[2].best / fig[0].best,
                   fig[3].best, fig[4].best, fig[3].best / fig[4].best, fig[5].best,
                   fig[6].best, fig[6].best / fig[5].best);
        fflush(stdout);
    }
    EVP_CIPHER_CTX_free(ossl);
    free(bulk_a);
    free(bulk_b);
    free(small_a);
    free(small_b);
    return 0;
}
