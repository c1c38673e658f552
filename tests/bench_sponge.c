/*
 * SHA3-256 and SHAKE128 over 1 MiB and KT128 over 16 MiB, ours next to OpenSSL's EVP and
 * libgcrypt in the same run: each contender timed in turn (A, B, C, A, B, C, ...), best of
 * each kept, cycles per byte and ratios printed; then SHAKE128 squeezing 1 MiB against
 * absorbing 1 MiB, in alternation. With --tsv: a header line, then one row per
 * (function, contender) with the median and the best cycles per byte (the report reads them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "timing.h"

#ifdef RS_HAVE_OPENSSL
#include <openssl/evp.h>
#endif
#ifdef RS_HAVE_GCRYPT
#include <gcrypt.h>
#endif

#define MIB (1024 * 1024)

typedef void (*hash_fn)(const uint8_t *in, size_t len, uint8_t *out);

static void ours_sha3_256(const uint8_t *in, size_t len, uint8_t *out) { sha3_256(out, in, len); }
static void ours_shake128(const uint8_t *in, size_t len, uint8_t *out)
{
    shake128(out, 32, in, len);
}
/* SHAKE128's output side: `len` bytes squeezed from the empty message, into one buffer. */
static uint8_t *squeeze_buf;
static void ours_shake128_squeeze(const uint8_t *in, size_t len, uint8_t *out)
{
    keccak_sponge s;
    (void)in;
    shake128_init(&s);
    shake128_squeeze(&s, squeeze_buf, len);
    memcpy(out, squeeze_buf + len - 32, 32);
}
static void ours_kt128(const uint8_t *in, size_t len, uint8_t *out)
{
    kt128(out, 32, in, len, NULL, 0);
}

#ifdef RS_HAVE_OPENSSL
static void evp(const EVP_MD *md, const uint8_t *in, size_t len, uint8_t *out, size_t outlen)
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, md, NULL);
    EVP_DigestUpdate(ctx, in, len);
    if (outlen)
        EVP_DigestFinalXOF(ctx, out, outlen);
    else
        EVP_DigestFinal_ex(ctx, out, NULL);
    EVP_MD_CTX_free(ctx);
}
static void openssl_sha3_256(const uint8_t *in, size_t len, uint8_t *out)
{
    evp(EVP_sha3_256(), in, len, out, 0);
}
static void openssl_shake128(const uint8_t *in, size_t len, uint8_t *out)
{
    evp(EVP_shake128(), in, len, out, 32);
}
#endif

#ifdef RS_HAVE_GCRYPT
static void gcrypt_sha3_256(const uint8_t *in, size_t len, uint8_t *out)
{
    gcry_md_hash_buffer(GCRY_MD_SHA3_256, out, in, len);
}
static void gcrypt_shake128(const uint8_t *in, size_t len, uint8_t *out)
{
    gcry_md_hd_t h;
    gcry_md_open(&h, GCRY_MD_SHAKE128, 0);
    gcry_md_write(h, in, len);
    gcry_md_extract(h, GCRY_MD_SHAKE128, out, 32);
    gcry_md_close(h);
}
#endif

struct contender {
    const char *name;
    hash_fn fn;
    uint64_t best;
    struct rs_figure cpb;
};

#define MAX_ROUNDS 101
static int tsv;

/* Alternate the contenders `rounds` times over the same input; keep each one's best, and its
 * best and median cycles per byte. */
static void race(struct contender *c, int n, const uint8_t *in, size_t len, int rounds,
                 int compare)
{
    static uint64_t samples[3][MAX_ROUNDS];
    uint8_t out[64], first[64];
    int r, k;
    for (k = 0; k < n; k++) {
        c[k].fn(in, len, out); /* warm-up, and all must agree */
        if (k == 0)
            memcpy(first, out, 32);
        else if (compare && memcmp(first, out, 32) != 0)
            printf("MISMATCH: %s differs from %s\n", c[k].name, c[0].name);
    }
    for (r = 0; r < rounds; r++)
        for (k = 0; k < n; k++) {
            uint64_t t = rs_ticks();
            c[k].fn(in, len, out);
            t = rs_ticks() - t;
            rs_use(out);
            samples[k][r] = t;
        }
    for (k = 0; k < n; k++) {
        c[k].cpb = rs_figures(samples[k], (size_t)rounds, (double)len);
        c[k].best = samples[k][0];
    }
}

static void report(const char *what, struct contender *c, int n, size_t len)
{
    int k;
    if (tsv) {
        for (k = 0; k < n; k++)
            printf("%s\t%s\t%s\t%zu\t%.3f\t%.3f\n", RS_COMPILER, what, c[k].name, len,
                   c[k].cpb.median, c[k].cpb.best);
        return;
    }
    for (k = 0; k < n; k++)
        printf("%-10s %-22s %8.2f cycles/byte  %6.2fx of ours\n", what, c[k].name,
               (double)c[k].best / len, (double)c[0].best / c[k].best);
}

int main(int argc, char **argv)
{
    uint8_t *buf = malloc(16 * MIB);
    squeeze_buf = malloc(MIB);
    struct contender c[3];
    double sha3_cpb;
    int n;
    size_t k;

    for (k = 0; k < 16 * MIB; k++)
        buf[k] = (uint8_t)(k * 2654435761u >> 24);
#ifdef RS_HAVE_GCRYPT
    gcry_check_version(NULL);
#endif
    tsv = rs_take_flag(&argc, argv, "--tsv");
    if (argc > 1) {
        fprintf(stderr, "usage: %s [--tsv]\n", argv[0]);
        return 2;
    }
    if (tsv)
        printf("compiler\tfunction\tcontender\tbytes\tmedian_cpb\tbest_cpb\n");
    else
        printf("%s, %s; speed-up = their cycles / ours, so > 1 means ours is faster\n",
               RS_COMPILER, RS_TICKS_NAME);

    n = 0;
    c[n++] = (struct contender){"roundsmith", ours_sha3_256, 0};
#ifdef RS_HAVE_OPENSSL
    c[n++] = (struct contender){"OpenSSL EVP", openssl_sha3_256, 0};
#endif
#ifdef RS_HAVE_GCRYPT
    c[n++] = (struct contender){"libgcrypt", gcrypt_sha3_256, 0};
#endif
    race(c, n, buf, MIB, 25, 1);
    report("SHA3-256", c, n, MIB);
    for (k = 1; k < (size_t)n && !tsv; k++)
        printf("  ours vs %s: %.2fx the throughput\n", c[k].name, (double)c[k].best / c[0].best);
    sha3_cpb = (double)c[0].best / MIB;

    n = 0;
    c[n++] = (struct contender){"roundsmith", ours_shake128, 0};
#ifdef RS_HAVE_OPENSSL
    c[n++] = (struct contender){"OpenSSL EVP", openssl_shake128, 0};
#endif
#ifdef RS_HAVE_GCRYPT
    c[n++] = (struct contender){"libgcrypt", gcrypt_shake128, 0};
#endif
    race(c, n, buf, MIB, 25, 1);
    report("SHAKE128", c, n, MIB);

    /* Squeezing against absorbing the same length, in alternation. */
    c[0] = (struct contender){"roundsmith", ours_shake128, 0};
    c[1] = (struct contender){"roundsmith", ours_shake128_squeeze, 0};
    race(c, 2, buf, MIB, MAX_ROUNDS, 0);
    report("SHAKE128 absorb", c, 1, MIB);
    report("SHAKE128 squeeze", c + 1, 1, MIB);
    if (!tsv)
        printf("  SHAKE128 squeezing 1 MiB vs absorbing 1 MiB: %.2fx the throughput (medians "
               "%.2f and %.2f c/B; best %.2f and %.2f)\n",
               c[0].cpb.median / c[1].cpb.median, c[1].cpb.median, c[0].cpb.median,
               c[1].cpb.best, c[0].cpb.best);

    c[0] = (struct contender){"roundsmith", ours_kt128, 0};
    race(c, 1, buf, 16 * MIB, 7, 1);
    report("KT128", c, 1, 16 * MIB);
    if (!tsv)
        printf("  KT128 over 16 MiB vs our SHA3-256: %.2fx the throughput\n",
               sha3_cpb / ((double)c[0].best / (16 * MIB)));
    free(buf);
    free(squeeze_buf);
    return 0;
}
