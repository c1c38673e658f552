/*
 * Bench for every generated ChaCha variant one compiler can build, side by side in one run
 * with OpenSSL's EVP_chacha20 and the plain reference kernel (tests/ref, built gcc -O3).
 *
 * The machine is a shared VM whose speed drifts between runs, so each figure comes from
 * alternating the kernel and its peers inside one process (A, B, C, A, B, C, ...) and keeping
 * the best time of each: the ratios hold to a few percent where absolute figures do not.
 *
 *   bulk    the plotter's call pattern: 4096 calls of 128 ChaCha8 blocks filling 32 MiB
 *   1-block one ChaCha8 block per call (the plotter's F1 path), cycles per call
 *   xor20   ChaCha20 of 1 MiB (RFC 8439 entry point), in place
 *
 * usage: bench_chacha [-f SUBSTRING] [-b BULK_PAIRS] [-s SINGLE_PAIRS] [-x XOR_PAIRS]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "chacha_variants.h"
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

struct variant {
    const char *name;
    const char *cpu;
    void (*bulk)(uint8_t *buf);
    void (*single)(uint8_t *buf);
    void (*xor20)(uint8_t *buf);
    const char *(*level)(void);
};

static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t nonce[12] = {0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};

/* Each variant's context type is its own; one set of wrappers per variant hides them. */
#define RS_WRAP(prefix, name, width, cpu) \
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
RS_CHACHA_VARIANTS(RS_WRAP)

#define RS_ENTRY(prefix, name, width, cpu) \
    {name, cpu, prefix##bulk, prefix##single, prefix##xor20, prefix##chacha_level},
static const struct variant all_variants[] = {RS_CHACHA_VARIANTS(RS_ENTRY)};
#define NVARIANTS (sizeof all_variants / sizeof all_variants[0])

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

/* Best TSC cycles of each of n functions, run in turn `pairs` times after one warm-up turn. */
static void best_of(void (*const *fn)(uint8_t *), unsigned n, uint8_t *const *buf,
                    unsigned pairs, uint64_t *best)
{
    unsigned p, k;
    for (k = 0; k < n; k++) {
        fn[k](buf[k]);
        best[k] = UINT64_MAX;
    }
    for (p = 0; p < pairs; p++)
        for (k = 0; k < n; k++) {
            uint64_t t0 = rs_ticks(), t;
            fn[k](buf[k]);
            rs_use(buf[k]);
            t = rs_ticks() - t0;
            if (t < best[k])
                best[k] = t;
        }
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
    const char *filter = "";
    unsigned bulk_pairs = 20, single_pairs = 300, xor_pairs = 100, k;
    uint8_t *bulk_a = xmalloc(BULK_BYTES), *bulk_b = xmalloc(BULK_BYTES);
    uint8_t *small_a = xmalloc(XOR_BYTES), *small_b = xmalloc(XOR_BYTES);
    int i;

    for (i = 1; i + 1 < argc; i += 2) {
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
    if (i < argc) {
        fprintf(stderr, "usage: %s [-f SUBSTRING] [-b BULK_PAIRS] [-s SINGLE_PAIRS] "
                        "[-x XOR_PAIRS]\n", argv[0]);
        return 2;
    }
    ossl = EVP_CIPHER_CTX_new();
    if (!ossl || !EVP_EncryptInit_ex(ossl, EVP_chacha20(), NULL, NULL, NULL)) {
        fprintf(stderr, "bench_chacha: OpenSSL has no EVP_chacha20\n");
        return 1;
    }

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
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "";
        uint64_t bulk[3], single[2], xr[2];
        double cb, cr, co, sb, sr, xb, xo;

        if (!strstr(v->name, filter))
            continue;
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            printf("%-34s %-5s SKIP: this CPU lacks %.*s\n", v->name, RS_COMPILER,
                   (int)strcspn(missing, " "), missing);
            continue;
        }
        {
            void (*const fn[3])(uint8_t *) = {v->bulk, ref_bulk, ossl_bulk};
            uint8_t *const buf[3] = {bulk_a, bulk_b, bulk_b};
            best_of(fn, 3, buf, bulk_pairs, bulk);
        }
        {
            void (*const fn[2])(uint8_t *) = {v->single, ref_single};
            uint8_t *const buf[2] = {small_a, small_b};
            best_of(fn, 2, buf, single_pairs, single);
        }
        {
            void (*const fn[2])(uint8_t *) = {v->xor20, ossl_xor20};
            uint8_t *const buf[2] = {small_a, small_b};
            best_of(fn, 2, buf, xor_pairs, xr);
        }
        cb = (double)bulk[0] / BULK_BYTES;
        cr = (double)bulk[1] / BULK_BYTES;
        co = (double)bulk[2] / BULK_BYTES;
        sb = (double)single[0] / SINGLE_CALLS;
        sr = (double)single[1] / SINGLE_CALLS;
        xb = (double)xr[0] / XOR_BYTES;
        xo = (double)xr[1] / XOR_BYTES;
        printf("%-34s %-5s %-6s | %7.3f %7.3f %7.3f %6.2f %6.2f | %6.1f %6.1f %6.2f | %7.3f "
               "%7.3f %6.2f\n", v->name, RS_COMPILER, v->level(), cb, cr, co, cr / cb, co / cb,
               sb, sr, sb / sr, xb, xo, xo / xb);
        fflush(stdout);
    }
    EVP_CIPHER_CTX_free(ossl);
    free(bulk_a);
    free(bulk_b);
    free(small_a);
    free(small_b);
    return 0;
}
