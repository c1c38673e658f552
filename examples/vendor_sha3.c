/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * vendor_sha3: SHA3-256 of files (or stdin), on a vendored roundsmith bundle.
 *
 *   (build: the gcc line below, from this folder)
 *   ./vendor_sha3 FILE...        (no FILE, or -, reads stdin)
 *
 * Prints `HEX  NAME` per input, like sha3sum; exit 1 if an input could not be read.
 */
// gcc -O2 -Wall -Wextra -pedantic -I../out/x86_64 vendor_sha3.c ../out/x86_64/*.c -o vendor_sha3
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

static int hash_stream(FILE *f, const char *name)
{
    static uint8_t buf[1 << 16];
    uint8_t digest[32];
    keccak_sponge s;
    size_t n, i;

    sha3_256_init(&s);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha3_256_update(&s, buf, n);
    if (ferror(f)) {
        fprintf(stderr, "vendor_sha3: %s: read error\n", name);
        return 1;
    }
    sha3_256_final(&s, digest);
    for (i = 0; i < sizeof digest; i++)
        printf("%02x", digest[i]);
    printf("  %s\n", name);
    return 0;
}

int main(int argc, char **argv)
{
    int i, status = 0;

    if (argc < 2)
        return hash_stream(stdin, "-");
    for (i = 1; i < argc; i++) {
        FILE *f = strcmp(argv[i], "-") ? fopen(argv[i], "rb") : stdin;
        if (!f) {
            perror(argv[i]);
            status = 1;
            continue;
        }
        status |= hash_stream(f, argv[i]);
        if (f != stdin)
            fclose(f);
    }
    return status;
}
