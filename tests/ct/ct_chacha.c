/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of the ChaCha variants (ct_common.h) at every level valgrind can run:
 * scalar, SSE2, SSSE3, AVX2. The key, the IV or nonce and the plaintext are secret; the block
 * position (words 12-13), the block count and the length are public. The position is public
 * in every use of ChaCha (a stream offset); marked secret, memcheck flags the loop exit tests
 * gcc rewrites onto the running counter (pos + n against pos), whose outcome depends on the
 * public block count alone. Each variant runs
 * ChaCha8/12/20 keystreams of 0..2w+1 blocks (w its widest path: every path and tail), and
 * chacha20_xor and chacha20_ietf_xor of 0..(2w+1)*64+1 bytes in steps that hit every tail.
 * One verdict per variant, naming the level it ran (chacha_level()); the AVX-512 level gets
 * a SKIP line (valgrind 3.19 cannot execute it).
 */
#include <stdint.h>
#include <string.h>

#include "ct/ct_common.h"
#include "chacha_variants.h"
#include "cpu_features.h"

#include "chacha_variant_table.h"

/* Compilers that build the vector levels (not tcc) also have an AVX-512 level to report. */
#if defined(__x86_64__) && !defined(__TINYC__)
#define RS_AVX512_LINE 1
#else
#define RS_AVX512_LINE 0
#endif

#define MAXW 32
#define MAXBYTES ((2 * MAXW + 1) * 64 + 1)

static struct {
    uint8_t key[32], iv[12], text[MAXBYTES];
} s;
static uint64_t pos = 0xFFFFFFFFFFFFFFF0ULL; /* public; across the 2^32 carry and 2^64 wrap */
static uint8_t out[MAXBYTES];

static void fresh_secrets(unsigned seed)
{
    size_t i;
    uint8_t *p = (uint8_t *)&s;
    for (i = 0; i < sizeof s; i++)
        p[i] = (uint8_t)((i + 1) * 0x9Du ^ seed * 0x3Bu);
    ct_secret(&s, sizeof s);
}

static void run(const struct variant *v)
{
    static const unsigned rounds[3] = {8, 12, 20};
    unsigned w = v->width > MAXW ? MAXW : v->width, n, r;
    size_t len;

    for (n = 0; n <= 2 * w + 1; n++) {
        for (r = 0; r < 3; r++) {
            fresh_secrets(n * 3 + r);
            v->keystream(rounds[r], s.key, n & 1 ? 128 : 256, n & 2 ? NULL : s.iv, pos, n,
                         out);
            ct_declassify(out, sizeof out);
        }
    }
    for (len = 0; len <= (2 * w + 1) * 64 + 1; len += 29) {
        fresh_secrets((unsigned)len);
        v->xor64(out, s.text, len, s.key, s.iv, pos);
        v->xor_ietf(out, s.text, len, s.key, s.iv, pos);
        ct_declassify(out, sizeof out);
    }
}

int main(void)
{
    unsigned k;
    char what[160];

    ct_start((unsigned)NVARIANTS + RS_AVX512_LINE);
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "";
        snprintf(what, sizeof what, "%s (%s path)", v->name, v->level());
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            ct_skip(k + 1, what, "valgrind's CPU lacks a feature it needs");
            continue;
        }
        ct_begin();
        run(v);
        ct_verdict(k + 1, what);
    }
    if (RS_AVX512_LINE)
        ct_skip(k + 1, "chacha avx512 level (x16, x32 and its row paths)", CT_AVX512_WHY);
    return ct_finish();
}
