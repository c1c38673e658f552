/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * rsum: print or check Keccak-family checksums, in the shape of sha3sum and b3sum.
 *
 *   rsum [-a ALGO] [-l BYTES] [FILE...]      one "HEX  NAME" line per file ('-' is stdin)
 *   rsum [-a ALGO] --check [SUMSFILE...]     verify "HEX  NAME" lines: NAME: OK / FAILED
 *
 * ParallelHash runs with blocks of PH_BLOCK bytes and an empty customization string, as do
 * KT128 and KT256. Files are streamed through a fixed buffer, so memory does not grow with their size. An
 * unreadable file is reported on stderr and the others are still processed; the exit status
 * is 1 if anything failed, 2 for bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"

#define BUFFER_BYTES (256 * 1024)
#define MAX_OUTPUT 4096
#define PH_BLOCK 8192

enum kind { HASH, XOF, TURBO, KT, KT256, PH128, PH256 };

struct algorithm {
    const char *name;
    enum kind kind;
    size_t default_len;
    void (*init)(keccak_sponge *);
    void (*update)(keccak_sponge *, const uint8_t *, size_t);
    void (*final)(keccak_sponge *, uint8_t *);
    void (*squeeze)(keccak_sponge *, uint8_t *, size_t);
    void (*turbo_init)(keccak_sponge *, uint8_t);
};

static const struct algorithm algorithms[] = {
    {"sha3-224", HASH, 28, sha3_224_init, sha3_224_update, sha3_224_final, NULL, NULL},
    {"sha3-256", HASH, 32, sha3_256_init, sha3_256_update, sha3_256_final, NULL, NULL},
    {"sha3-384", HASH, 48, sha3_384_init, sha3_384_update, sha3_384_final, NULL, NULL},
    {"sha3-512", HASH, 64, sha3_512_init, sha3_512_update, sha3_512_final, NULL, NULL},
    {"keccak256", HASH, 32, keccak256_init, keccak256_update, keccak256_final, NULL, NULL},
    {"shake128", XOF, 32, shake128_init, shake128_absorb, NULL, shake128_squeeze, NULL},
    {"shake256", XOF, 64, shake256_init, shake256_absorb, NULL, shake256_squeeze, NULL},
    {"turboshake128", TURBO, 32, NULL, turboshake128_absorb, NULL, turboshake128_squeeze,
     turboshake128_init},
    {"turboshake256", TURBO, 64, NULL, turboshake256_absorb, NULL, turboshake256_squeeze,
     turboshake256_init},
    {"kt128", KT, 32, NULL, NULL, NULL, NULL, NULL},
    {"kt256", KT256, 64, NULL, NULL, NULL, NULL, NULL},
    {"parallelhash128", PH128, 32, NULL, NULL, NULL, NULL, NULL},
    {"parallelhash256", PH256, 64, NULL, NULL, NULL, NULL, NULL},
};

static uint8_t buffer[BUFFER_BYTES];

/* --help: on stdout, as a request answered rather than an error. */
static void usage(void)
{
    size_t k;
    printf("usage: rsum [-a ALGO] [-l BYTES] [--check] [FILE...]\nALGO:");
    for (k = 0; k < sizeof algorithms / sizeof algorithms[0]; k++)
        printf(" %s", algorithms[k].name);
    printf(" (default sha3-256); -l sets the output length of the XOFs and of"
           " ParallelHash (blocks of %d bytes)\n", PH_BLOCK);
}

/* Digest of one file into out; returns 0, or -1 with errno set and a message printed. */
static int digest_file(const struct algorithm *a, const char *name, uint8_t *out, size_t len)
{
    FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
    keccak_sponge s;
    kt128_ctx kt;
    kt256_ctx kt2;
    parallelhash_ctx ph;
    size_t n;
    int error;

    if (!f) {
        fprintf(stderr, "rsum: %s: %s\n", name, strerror(errno));
        return -1;
    }
    if (a->kind == KT)
        kt128_init(&kt);
    else if (a->kind == KT256)
        kt256_init(&kt2);
    else if (a->kind == PH128)
        parallelhash128_init(&ph, PH_BLOCK, NULL, 0);
    else if (a->kind == PH256)
        parallelhash256_init(&ph, PH_BLOCK, NULL, 0);
    else if (a->kind == TURBO)
        a->turbo_init(&s, 0x1F);
    else
        a->init(&s);
    while ((n = fread(buffer, 1, sizeof buffer, f)) > 0) {
        if (a->kind == KT)
            kt128_update(&kt, buffer, n);
        else if (a->kind == KT256)
            kt256_update(&kt2, buffer, n);
        else if (a->kind == PH128)
            parallelhash128_update(&ph, buffer, n);
        else if (a->kind == PH256)
            parallelhash256_update(&ph, buffer, n);
        else
            a->update(&s, buffer, n);
    }
    error = ferror(f) ? errno : 0;
    if (f != stdin)
        fclose(f);
    if (error) {
        fprintf(stderr, "rsum: %s: %s\n", name, strerror(error));
        return -1;
    }
    if (a->kind == KT)
        kt128_final(&kt, NULL, 0, out, len);
    else if (a->kind == KT256)
        kt256_final(&kt2, NULL, 0, out, len);
    else if (a->kind == PH128)
        parallelhash128_final(&ph, out, len);
    else if (a->kind == PH256)
        parallelhash256_final(&ph, out, len);
    else if (a->kind == HASH)
        a->final(&s, out);
    else
        a->squeeze(&s, out, len);
    return 0;
}

static void print_hex(const uint8_t *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    while (n--) {
        putchar(digits[*p >> 4]);
        putchar(digits[*p & 15]);
        p++;
    }
}

static int from_hex(const char *hex, size_t n, uint8_t *out)
{
    size_t k;
    for (k = 0; k < n; k++) {
        unsigned v;
        if (sscanf(hex + 2 * k, "%2x", &v) != 1)
            return -1;
        out[k] = (uint8_t)v;
    }
    return 0;
}

/* Lines "HEX  NAME"; the output length follows from the HEX for the XOFs. */
static int check_sums(const struct algorithm *a, const char *sums)
{
    static char line[8192];
    static uint8_t want[MAX_OUTPUT], got[MAX_OUTPUT];
    FILE *f = strcmp(sums, "-") == 0 ? stdin : fopen(sums, "r");
    int failures = 0;

    if (!f) {
        fprintf(stderr, "rsum: %s: %s\n", sums, strerror(errno));
        return 1;
    }
    while (fgets(line, sizeof line, f)) {
        size_t hexlen = strspn(line, "0123456789abcdefABCDEF"), len = hexlen / 2;
        char *name = line + hexlen;
        line[strcspn(line, "\r\n")] = 0;
        if (hexlen == 0 || hexlen % 2 || len > MAX_OUTPUT || strncmp(name, "  ", 2) != 0 ||
            (a->kind == HASH && len != a->default_len) || from_hex(line, len, want)) {
            fprintf(stderr, "rsum: %s: improperly formatted line: %s\n", sums, line);
            failures++;
            continue;
        }
        name += 2;
        if (digest_file(a, name, got, len) != 0) {
            printf("%s: FAILED open or read\n", name);
            failures++;
        } else if (memcmp(got, want, len) != 0) {
            printf("%s: FAILED\n", name);
            failures++;
        } else {
            printf("%s: OK\n", name);
        }
    }
    if (f != stdin)
        fclose(f);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    const struct algorithm *a = &algorithms[1];
    static uint8_t out[MAX_OUTPUT];
    size_t len = 0, k;
    int check = 0, status = 0, i, files = 0;
    char *end;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-a") == 0 && i + 1 < argc) {
            const char *name = argv[++i];
            a = NULL;
            for (k = 0; k < sizeof algorithms / sizeof algorithms[0]; k++)
                if (strcmp(algorithms[k].name, name) == 0)
                    a = &algorithms[k];
            if (!a) {
                fprintf(stderr, "rsum: unknown algorithm '%s'; accepted:", name);
                for (k = 0; k < sizeof algorithms / sizeof algorithms[0]; k++)
                    fprintf(stderr, " %s", algorithms[k].name);
                fprintf(stderr, "\n");
                return 2;
            }
        } else if (strcmp(argv[i], "-l") == 0 && i + 1 < argc) {
            unsigned long v = strtoul(argv[++i], &end, 10);
            if (*end || v == 0 || v > MAX_OUTPUT) {
                fprintf(stderr, "rsum: -l takes 1..%d bytes, not '%s'\n", MAX_OUTPUT, argv[i]);
                return 2;
            }
            len = v;
        } else if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "--check") == 0) {
            check = 1;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage();
            return 0;
        } else if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "-a") == 0 || strcmp(argv[i], "-l") == 0) {
            fprintf(stderr, "rsum: %s needs a value (rsum --help)\n", argv[i]);
            return 2;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "rsum: unknown option '%s' (rsum --help)\n", argv[i]);
            return 2;
        } else {
            break;
        }
    }
    if (len && a->kind == HASH) {
        fprintf(stderr, "rsum: -l applies to the extendable-output functions only\n");
        return 2;
    }
    if (!len)
        len = a->default_len;
    for (; i < argc || files == 0; i++, files++) {
        const char *name = i < argc ? argv[i] : "-";
        if (check) {
            status |= check_sums(a, name);
        } else if (digest_file(a, name, out, len) == 0) {
            print_hex(out, len);
            printf("  %s\n", name);
        } else {
            status = 1;
        }
    }
    return status;
}
