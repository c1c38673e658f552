/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Bench for every generated ChaCha variant one compiler can build, with OpenSSL's
 * EVP_chacha20 and the plain reference kernel (tests/ref, built gcc -O3) as contenders. For
 * each call pattern every contender races round-robin in this one process (bench/timing.h,
 * rs_race: a settling warm-up of its own code before each turn, the median of the turns);
 * the figures are wall-clock TSC cycles, compared as they are. A variant is timed only once it
 * gives the official blocks and the Python reference's streams right (chacha_vectors.h).
 *
 *   bulk    the plotter's call pattern: 4096 calls of 128 ChaCha8 blocks filling 32 MiB
 *   1-block one ChaCha8 block per call (the plotter's F1 path), cycles per call
 *   xor20   ChaCha20 of 1 MiB (RFC 8439 entry point), in place
 *
 * Without --tsv the xor20 race also holds the other registry libraries built in (Debian's
 * libsodium, libgcrypt and nettle: RS_HAVE_SODIUM, RS_HAVE_GCRYPT, RS_HAVE_NETTLE), each
 * first checked equal to OpenSSL's output; their lines follow the table. With --tsv (what the
 * tuner reads) the races are as they were.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#ifdef RS_HAVE_SODIUM
#include <sodium.h>
#endif
#ifdef RS_HAVE_GCRYPT
#include <gcrypt.h>
#endif
#ifdef RS_HAVE_NETTLE
#include <nettle/chacha.h>
#endif

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

/* The other registry libraries, ChaCha20 of RFC 8439 from block 1 like ossl_xor20. */
#ifdef RS_HAVE_SODIUM
static void sodium_xor20(uint8_t *buf)
{
    crypto_stream_chacha20_ietf_xor_ic(buf, buf, XOR_BYTES, nonce, 1, key);
}
#endif
#ifdef RS_HAVE_GCRYPT
static gcry_cipher_hd_t gcry;
/* libgcrypt takes a 16-byte IV as the whole counter block: counter, then nonce. */
static void gcrypt_xor20(uint8_t *buf)
{
    uint8_t iv[16] = {1, 0, 0, 0};
    memcpy(iv + 4, nonce, 12);
    if (gcry_cipher_setiv(gcry, iv, 16) || gcry_cipher_encrypt(gcry, buf, XOR_BYTES, NULL, 0)) {
        fprintf(stderr, "bench_chacha: libgcrypt ChaCha20 failed\n");
        exit(1);
    }
}
#endif
#ifdef RS_HAVE_NETTLE
static void nettle_xor20(uint8_t *buf)
{
    static const uint8_t one[4] = {1, 0, 0, 0};
    struct chacha_ctx c;
    chacha_set_key(&c, key);
    chacha_set_nonce96(&c, nonce);
    chacha_set_counter32(&c, one);
    chacha_crypt32(&c, XOR_BYTES, buf, buf);
}
#endif

struct lib_peer {
    const char *name;
    void (*xor20)(uint8_t *buf);
};
static const struct lib_peer lib_peers[] = {
#ifdef RS_HAVE_SODIUM
    {"libsodium", sodium_xor20},
#endif
#ifdef RS_HAVE_GCRYPT
    {"libgcrypt", gcrypt_xor20},
#endif
#ifdef RS_HAVE_NETTLE
    {"nettle", nettle_xor20},
#endif
    {NULL, NULL}};
#define NLIB_PEERS (sizeof lib_peers / sizeof lib_peers[0] - 1)

/* Whether a peer's 1 MiB equals OpenSSL's: one that differs is left out of the race. */
static int same_as_ossl(const struct lib_peer *p, uint8_t *a, uint8_t *b)
{
    memset(a, 0, XOR_BYTES);
    memset(b, 0, XOR_BYTES);
    ossl_xor20(a);
    p->xor20(b);
    if (memcmp(a, b, XOR_BYTES) == 0)
        return 1;
    printf("%s\t%s ChaCha20\tWRONG: differs from OpenSSL's, not timed\n", RS_COMPILER, p->name);
    return 0;
}

/* The --tsv columns, in the order of the figures: c/B for bulk and xor, cycles per call for
 * the single-block calls. After them the variant's own spread in each race (3rd quartile / 1st
 * of its turns, minus 1): a tuner declares a winner only by a margin larger than the spreads
 * of the two it compares (generator/decide.py). They go last, so the older columns keep their
 * places. */
static const char *const columns[7] = {"bulk", "bulk_ref", "bulk_ossl", "blk1", "blk1_ref",
                                       "xor20", "xor20_ossl"};
static const char *const spread_columns[3] = {"bulk_spread", "blk1_spread", "xor20_spread"};

static const char usage[] =
    "usage: bench_chacha [OPTION...] [-f SUBSTRING] [-b BULK_TURNS] [-s SINGLE_TURNS]\n"
    "                    [-x XOR_TURNS] [VARIANT...]\n"
    "Races every ChaCha variant this compiler built (those whose name holds SUBSTRING, or the\n"
    "VARIANTs named) round-robin with the plain reference and OpenSSL, per call pattern: bulk\n"
    "(4096 x 128 ChaCha8 blocks, c/B), 1-block calls (cycles per call), ChaCha20 XOR of 1 MiB\n"
    "(c/B). -b/-s/-x: turns of each race (default 20, 101, 51; --turns N sets all three).\n";

/* One contender's timed call. */
struct call {
    void (*fn)(uint8_t *);
    uint8_t *buf;
};

static void call_run(void *arg)
{
    const struct call *c = (const struct call *)arg;
    c->fn(c->buf);
    rs_use(c->buf);
}

/* OpenSSL picks its widest path itself; its class is the widest this CPU has. */
static int ossl_class(void)
{
    const char *missing;
    return rs_cpu_has_all("avx512f", &missing) ? RS_CLASS_512
           : rs_cpu_has_all("avx2", &missing)  ? RS_CLASS_256 : RS_CLASS_128;
}

/* Race the contenders; `fig[c][k]`: contender k's figure. */
static void race(struct rs_entrant *e, struct call *calls, size_t n, unsigned rounds,
                 unsigned samples, const struct rs_options *base)
{
    struct rs_options o = *base;
    size_t k;
    o.rounds = rounds;
    for (k = 0; k < n; k++)
        e[k].arg = &calls[k];
    if (rs_race(e, n, &o, samples)) {
        fprintf(stderr, "bench_chacha: out of memory\n");
        exit(1);
    }
}

static unsigned parse_rounds(const char *prog, const char *opt, const char *text)
{
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (*end || !*text || v < 1 || v > RS_MAX_ROUNDS) {
        fprintf(stderr, "%s: %s takes a number from 1 to %u, not '%s'\n", prog, opt,
                RS_MAX_ROUNDS, text);
        exit(2);
    }
    return (unsigned)v;
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
    struct rs_options o;
    const char *filter = "";
    unsigned bulk_rounds = 20, single_rounds = 101, xor_rounds = 51, k, n = 0, p;
    uint8_t *bulk = xmalloc(BULK_BYTES), *small = xmalloc(XOR_BYTES);
    unsigned chosen[NVARIANTS];
    static struct rs_figure fig[NVARIANTS + 2 + NLIB_PEERS][3];  /* [contender][race] */
    static double spread[NVARIANTS + 2 + NLIB_PEERS][3];         /* [contender][race] */
    unsigned peers_in[NLIB_PEERS + 1], npeers = 0;
    int i, rounds_given = 0;

    for (i = 1; i < argc; i++)
        rounds_given |= !strcmp(argv[i], "--turns");
    rs_bench_options(&argc, argv, &o, 20, usage);
    if (rounds_given)
        bulk_rounds = single_rounds = xor_rounds = o.rounds;
    for (i = 1; i < argc && argv[i][0] == '-'; i += 2) {
        if (i + 1 >= argc || (strcmp(argv[i], "-f") && strcmp(argv[i], "-b") &&
                              strcmp(argv[i], "-s") && strcmp(argv[i], "-x")))
            break;
        if (!strcmp(argv[i], "-f"))
            filter = argv[i + 1];
        else
            *(argv[i][1] == 'b' ? &bulk_rounds : argv[i][1] == 's' ? &single_rounds
                                                                     : &xor_rounds) =
                parse_rounds(argv[0], argv[i], argv[i + 1]);
    }
    rs_no_options_left(argc, argv, i);
    for (p = (unsigned)i; p < (unsigned)argc; p++) {
        for (k = 0; k < NVARIANTS && strcmp(all_variants[k].name, argv[p]); k++)
            ;
        if (k == NVARIANTS) {
            fprintf(stderr, "bench_chacha: no variant named '%s' in this build\n", argv[p]);
            return 2;
        }
    }
    ossl = EVP_CIPHER_CTX_new();
    if (!ossl || !EVP_EncryptInit_ex(ossl, EVP_chacha20(), NULL, NULL, NULL)) {
        fprintf(stderr, "bench_chacha: OpenSSL has no EVP_chacha20\n");
        return 1;
    }
#ifdef RS_HAVE_SODIUM
    /* Picks libsodium's fastest ChaCha20 for this CPU (the reference code until then). */
    if (sodium_init() < 0) {
        fprintf(stderr, "bench_chacha: sodium_init failed\n");
        return 1;
    }
#endif
#ifdef RS_HAVE_GCRYPT
    gcry_check_version(NULL);
    if (gcry_cipher_open(&gcry, GCRY_CIPHER_CHACHA20, GCRY_CIPHER_MODE_STREAM, 0) ||
        gcry_cipher_setkey(gcry, key, 32)) {
        fprintf(stderr, "bench_chacha: libgcrypt has no ChaCha20\n");
        return 1;
    }
#endif
    for (k = 0; k < NLIB_PEERS && !o.tsv; k++)
        if (same_as_ossl(&lib_peers[k], bulk, small))
            peers_in[npeers++] = k;

    if (o.tsv) {
        printf("compiler\tvariant\tstatus\tlevel\tclass");
        for (k = 0; k < 7; k++)
            printf("\t%s_median\t%s_best", columns[k], columns[k]);
        for (k = 0; k < 3; k++)
            printf("\t%s", spread_columns[k]);
        printf("\n");
    }
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "", *wrong;
        if (!strstr(v->name, filter) || !named(v->name, argc, argv, i))
            continue;
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, v->name, missing);
            continue;
        }
        if ((wrong = rs_chacha_first_wrong(v)) != NULL) {
            printf("%s\t%s\tWRONG: fails %s, not timed\n", RS_COMPILER, v->name, wrong);
            continue;
        }
        chosen[n++] = k;
    }
    fflush(stdout);
    if (n) {
        struct rs_entrant e[NVARIANTS + 2 + NLIB_PEERS];
        struct call calls[NVARIANTS + 2 + NLIB_PEERS];
        /* Three races, the peers after the variants: bulk has the reference (n) and OpenSSL
         * (n + 1), 1-block the reference (n), the XOR OpenSSL (n). */
        for (p = 0; p < 3; p++) {
            size_t m = 0, j;
            for (j = 0; j < n; j++) {
                const struct timed *t = &all_timed[chosen[j]];
                calls[m].fn = p == 0 ? t->bulk : p == 1 ? t->single : t->xor20;
                calls[m].buf = p == 0 ? bulk : small;
                e[m] = (struct rs_entrant){all_variants[chosen[j]].name, call_run, 0,
                                           p == 0 ? BULK_BYTES : p == 1 ? SINGLE_CALLS
                                                                        : XOR_BYTES,
                                           rs_class_of(all_variants[chosen[j]].cpu), {0, 0}, 0};
                m++;
            }
            if (p < 2) {
                calls[m] = (struct call){p == 0 ? ref_bulk : ref_single, p == 0 ? bulk : small};
                e[m++] = (struct rs_entrant){"reference", call_run, 0,
                                             p == 0 ? BULK_BYTES : SINGLE_CALLS,
                                             RS_CLASS_SCALAR, {0, 0}, 0};
            }
            if (p != 1) {
                calls[m] = (struct call){p == 0 ? ossl_bulk : ossl_xor20, p == 0 ? bulk : small};
                e[m++] = (struct rs_entrant){"OpenSSL", call_run, 0,
                                             p == 0 ? BULK_BYTES : XOR_BYTES, ossl_class(),
                                             {0, 0}, 0};
            }
            /* The other libraries after OpenSSL (n + 1 on): what ISA they run is unknown. */
            for (j = 0; p == 2 && j < npeers; j++) {
                calls[m] = (struct call){lib_peers[peers_in[j]].xor20, small};
                e[m++] = (struct rs_entrant){lib_peers[peers_in[j]].name, call_run, 0,
                                             XOR_BYTES, RS_CLASS_UNKNOWN, {0, 0}, 0};
            }
            race(e, calls, m, p == 0 ? bulk_rounds : p == 1 ? single_rounds : xor_rounds,
                 p == 1 ? 3 : 2, &o);
            for (j = 0; j < m; j++) {
                fig[j][p] = e[j].fig;
                spread[j][p] = e[j].spread;
            }
        }
    }
    if (!o.tsv && n) {
        printf("# %s; rounds: bulk %u, 1-block %u, xor %u; %s, median of the turns\n",
               RS_COMPILER, bulk_rounds, single_rounds, xor_rounds, RS_TICKS_NAME);
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
    for (k = 0; k < n; k++) {
        const struct variant *v = &all_variants[chosen[k]];
        /* bulk, ref, ossl20 | 1blk, ref | xor20, ossl20 */
        struct rs_figure f[7] = {fig[k][0], fig[n][0], fig[n + 1][0], fig[k][1], fig[n][1],
                                 fig[k][2], fig[n][2]};
        if (o.tsv) {
            unsigned c;
            printf("%s\t%s\tok\t%s\t%s", RS_COMPILER, v->name, v->level(),
                   rs_class_names[rs_class_of(v->cpu)]);
            for (c = 0; c < 7; c++)
                printf("\t%.4f\t%.4f", f[c].median, f[c].best);
            for (c = 0; c < 3; c++)
                printf("\t%.4f", spread[k][c]);
            printf("\n");
        } else
            printf("%-34s %-5s %-6s | %7.3f %7.3f %7.3f %6.2f %6.2f | %6.1f %6.1f %6.2f | %7.3f "
                   "%7.3f %6.2f\n", v->name, RS_COMPILER, v->level(), f[0].median, f[1].median,
                   f[2].median, f[1].median / f[0].median, f[2].median / f[0].median,
                   f[3].median, f[4].median, f[3].median / f[4].median, f[5].median,
                   f[6].median, f[6].median / f[5].median);
    }
    if (n && npeers) {
        unsigned best = 0;
        for (k = 1; k < n; k++)
            if (fig[k][2].median < fig[best][2].median)
                best = k;
        printf("# xor20 (ChaCha20 1 MiB in place), other libraries in the same race; ours = "
               "%s at %.3f c/B\n", all_variants[chosen[best]].name, fig[best][2].median);
        for (k = 0; k < npeers; k++)
            printf("%-34s %-5s %-6s | %7.3f c/B, ours %.2fx its throughput\n",
                   lib_peers[peers_in[k]].name, RS_COMPILER, "lib", fig[n + 1 + k][2].median,
                   fig[n + 1 + k][2].median / fig[best][2].median);
    }
    fflush(stdout);
#ifdef RS_HAVE_GCRYPT
    gcry_cipher_close(gcry);
#endif
    EVP_CIPHER_CTX_free(ossl);
    free(bulk);
    free(small);
    return 0;
}
