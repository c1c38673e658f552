/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Probe of a bundle's dispatch (tests/bundle_paths.py runs it): prints the path in use, the
 * ChaCha level it runs, and digests of work on every dispatched kernel, so the same digests
 * under every forced path mean every path computes the same thing.
 *
 *   bundle_probe      path=avx512 chacha=avx512 sha3=... kt128=... chacha8=...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "chacha.h"
#include "keccak_p1600.h"
#include "keccak_sponge.h"
#include "rs_dispatch.h"

static void hex(const char *label, const uint8_t *p, size_t n)
{
    size_t i;
    printf(" %s=", label);
    for (i = 0; i < n; i++)
        printf("%02x", p[i]);
}

int main(void)
{
    /* 14 chunks of KT128 + 7 bytes: the first chunk, then 13 leaves = 8 + 4 + 1, a group
     * for each x86-64 leaf kernel and a single one (tests/e2e_bundle.py: PROBE_LEN). */
    size_t len = 14 * 8192 + 7, i;
    uint8_t *msg = malloc(len), *ks = malloc(64 * 1000), out[32], key[32] = {0};
    uint64_t state[25] = {0};
    struct chacha8_ctx ctx;

    if (!msg || !ks)
        return 2;
    for (i = 0; i < len; i++)
        msg[i] = (uint8_t)(i % 251);
    printf("path=%s chacha=%s", rs_path_name(), chacha_level());
    keccak_f1600(state);
    hex("f1600", (const uint8_t *)state, 8);
    sha3_256(out, msg, len);
    hex("sha3", out, sizeof out);
    kt128(out, sizeof out, msg, len, (const uint8_t *)"probe", 5);
    hex("kt128", out, sizeof out);
    for (i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    chacha8_keysetup(&ctx, key, 256, NULL);
    chacha8_get_keystream(&ctx, 3, 1000, ks);
    sha3_256(out, ks, 64 * 1000);
    hex("chacha8", out, sizeof out);
    printf("\n");
    free(msg);
    free(ks);
    return 0;
}
