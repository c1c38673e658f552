/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * SHA3-256 and SHAKE128 over 1 MiB and KT128 over 16 MiB, ours next to OpenSSL's EVP,
 * libgcrypt and (SHA3-256 only: it has no SHAKE128) nettle: the contenders race round-robin in this one process (bench/timing.h, rs_race;
 * each turn settles on the contender's own code first: what ISA a library runs is not
 * known here), median cycles per byte and ratios printed; then SHAKE128 squeezing 1 MiB
 * against absorbing 1 MiB, raced the same way. With --tsv: a header line, then one row per
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
#ifdef RS_HAVE_NETTLE
#include <nettle/sha3.h>
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

#ifdef RS_HAVE_NETTLE
static void nettle_sha3_256(const uint8_t *in, size_t len, uint8_t *out)
{
    struct sha3_256_ctx c;
    sha3_256_init(&c);
    sha3_256_update(&c, len, in);
    sha3_256_digest(&c, SHA3_256_DIGEST_SIZE, out);
}
#endif

/* The most contenders of one race: ours, OpenSSL, libgcrypt, nettle. */
#define MAX_CONTENDERS 4

struct contender {
    const char *name;
    hash_fn fn;
    struct rs_figure cpb;
};

static struct rs_options opts;

struct hash_job {
    hash_fn fn;
    const uint8_t *in;
    size_t len;
    uint8_t out[64];
};

static void hash_run(void *arg)
{
    struct hash_job *j = (struct hash_job *)arg;
    j->fn(j->in, j->len, j->out);
    rs_use(j->out);
}

/* Race the contenders over the same input, `rounds` turns each (all must agree first when
 * `compare`: squeezing and absorbing do not). */
static void race(struct contender *c, int n, const uint8_t *in, size_t len, unsigned rounds,
                 int compare)
{
    struct hash_job jobs[MAX_CONTENDERS];
    struct rs_entrant e[MAX_CONTENDERS];
    struct rs_options o = opts;
    int k;
    for (k = 0; k < n; k++) {
        jobs[k] = (struct hash_job){c[k].fn, in, len, {0}};
        hash_run(&jobs[k]);
        if (compare && k && memcmp(jobs[0].out, jobs[k].out, 32) != 0)
            printf("MISMATCH: %s differs from %s\n", c[k].name, c[0].name);
        e[k] = (struct rs_entrant){c[k].name, hash_run, &jobs[k], (double)len, RS_CLASS_UNKNOWN,
                                   {0, 0}, 0};
    }
    if (o.rounds == 0)
        o.rounds = rounds;
    if (rs_race(e, (size_t)n, &o, 1)) {
        fprintf(stderr, "bench_sponge: out of memory\n");
        exit(1);
    }
    for (k = 0; k < n; k++)
        c[k].cpb = e[k].fig;
}

static void report(const char *what, struct contender *c, int n, size_t len)
{
    int k;
    if (opts.tsv) {
        for (k = 0; k < n; k++)
            printf("%s\t%s\t%s\t%zu\t%.3f\t%.3f\n", RS_COMPILER, what, c[k].name, len,
                   c[k].cpb.median, c[k].cpb.best);
        return;
    }
    for (k = 0; k < n; k++)
        printf("%-10s %-22s %8.2f cycles/byte  %6.2fx of ours\n", what, c[k].name,
               c[k].cpb.median, c[0].cpb.median / c[k].cpb.median);
}

static const char usage[] =
    "usage: bench_sponge [OPTION...]\n"
    "Races our SHA3-256 and SHAKE128 (1 MiB) with OpenSSL's, libgcrypt's and nettle's (SHA3-256)\n"
    "where built in,\n"
    "round-robin, and times our KT128 over 16 MiB; prints median cycles per byte.\n"
    "Turns default to 25 (7 for KT128).\n";

int main(int argc, char **argv)
{
    uint8_t *buf = malloc(16 * MIB);
    squeeze_buf = malloc(MIB);
    struct contender c[MAX_CONTENDERS];
    double sha3_cpb;
    int n;
    size_t k;

    for (k = 0; k < 16 * MIB; k++)
        buf[k] = (uint8_t)(k * 2654435761u >> 24);
#ifdef RS_HAVE_GCRYPT
    gcry_check_version(NULL);
#endif
    rs_bench_options(&argc, argv, &opts, 0, usage);
    if (argc > 1) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", argv[0], argv[1]);
        return 2;
    }
    if (opts.tsv)
        printf("compiler\tfunction\tcontender\tbytes\tmedian_cpb\tbest_cpb\n");
    else
        printf("%s, %s; \"x of ours\" = our cycles / theirs (their throughput relative to "
               "ours: below 1, ours is faster); \"ours vs X\" = their cycles / ours (above 1, "
               "ours is faster)\n", RS_COMPILER, RS_TICKS_NAME);

    n = 0;
    c[n++] = (struct contender){"roundsmith", ours_sha3_256, {0, 0}};
#ifdef RS_HAVE_OPENSSL
    c[n++] = (struct contender){"OpenSSL EVP", openssl_sha3_256, {0, 0}};
#endif
#ifdef RS_HAVE_GCRYPT
    c[n++] = (struct contender){"libgcrypt", gcrypt_sha3_256, {0, 0}};
#endif
#ifdef RS_HAVE_NETTLE
    c[n++] = (struct contender){"nettle", nettle_sha3_256, {0, 0}};
#endif
    race(c, n, buf, MIB, 25, 1);
    report("SHA3-256", c, n, MIB);
    for (k = 1; k < (size_t)n && !opts.tsv; k++)
        printf("  ours vs %s: %.2fx the throughput\n", c[k].name,
               c[k].cpb.median / c[0].cpb.median);
    sha3_cpb = c[0].cpb.median;

    n = 0;
    c[n++] = (struct contender){"roundsmith", ours_shake128, {0, 0}};
#ifdef RS_HAVE_OPENSSL
    c[n++] = (struct contender){"OpenSSL EVP", openssl_shake128, {0, 0}};
#endif
#ifdef RS_HAVE_GCRYPT
    c[n++] = (struct contender){"libgcrypt", gcrypt_shake128, {0, 0}};
#endif
    race(c, n, buf, MIB, 25, 1);
    report("SHAKE128", c, n, MIB);

    /* Squeezing against absorbing the same length, in one race. */
    c[0] = (struct contender){"roundsmith", ours_shake128, {0, 0}};
    c[1] = (struct contender){"roundsmith", ours_shake128_squeeze, {0, 0}};
    race(c, 2, buf, MIB, 101, 0);
    report("SHAKE128 absorb", c, 1, MIB);
    report("SHAKE128 squeeze", c + 1, 1, MIB);
    if (!opts.tsv)
        printf("  SHAKE128 squeezing 1 MiB vs absorbing 1 MiB: %.2fx the throughput (medians "
               "%.2f and %.2f c/B; best %.2f and %.2f)\n",
               c[0].cpb.median / c[1].cpb.median, c[1].cpb.median, c[0].cpb.median,
               c[1].cpb.best, c[0].cpb.best);

    c[0] = (struct contender){"roundsmith", ours_kt128, {0, 0}};
    race(c, 1, buf, 16 * MIB, 7, 1);
    report("KT128", c, 1, 16 * MIB);
    if (!opts.tsv)
        printf("  KT128 over 16 MiB vs our SHA3-256: %.2fx the throughput\n",
               sha3_cpb / c[0].cpb.median);
    free(buf);
    free(squeeze_buf);
    return 0;
}
