/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The ChaCha variants one build links (the generated chacha_variants.h registry, or
 * check_chacha.c's out/ mapping, included first), as the one table every harness walks (the
 * Check suite, the bench, the fuzz target, the constant-time run): each variant has its own
 * context types, and one wrapper per variant hides them.
 */
#ifndef RS_TEST_CHACHA_VARIANT_TABLE_H
#define RS_TEST_CHACHA_VARIANT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void keystream_fn(unsigned rounds, const uint8_t *key, unsigned kbits,
                          const uint8_t *iv, uint64_t pos, uint32_t n, uint8_t *out);
typedef void xor_fn(uint8_t *out, const uint8_t *in, size_t len, const uint8_t key[32],
                    const uint8_t *nonce, uint64_t counter);

struct variant {
    const char *name;
    unsigned width;
    const char *cpu;
    keystream_fn *keystream;
    xor_fn *xor64;
    xor_fn *xor_ietf;
    const char *(*level)(void);
    size_t ctx_size;
};

#define RS_WRAP(prefix, name, width, cpu) \
    static void prefix##ks(unsigned rounds, const uint8_t *key, unsigned kbits, \
                            const uint8_t *iv, uint64_t pos, uint32_t n, uint8_t *out) \
    { \
        if (rounds == 8) { \
            struct prefix##chacha8_ctx c; \
            prefix##chacha8_keysetup(&c, key, kbits, iv); \
            prefix##chacha8_get_keystream(&c, pos, n, out); \
        } else if (rounds == 12) { \
            struct prefix##chacha12_ctx c; \
            prefix##chacha12_keysetup(&c, key, kbits, iv); \
            prefix##chacha12_get_keystream(&c, pos, n, out); \
        } else { \
            struct prefix##chacha20_ctx c; \
            prefix##chacha20_keysetup(&c, key, kbits, iv); \
            prefix##chacha20_get_keystream(&c, pos, n, out); \
        } \
    } \
    static void prefix##x64(uint8_t *out, const uint8_t *in, size_t len, \
                             const uint8_t key[32], const uint8_t *nonce, uint64_t counter) \
    { \
        prefix##chacha20_xor(out, in, len, key, nonce, counter); \
    } \
    static void prefix##xietf(uint8_t *out, const uint8_t *in, size_t len, \
                               const uint8_t key[32], const uint8_t *nonce, uint64_t counter) \
    { \
        prefix##chacha20_ietf_xor(out, in, len, key, nonce, (uint32_t)counter); \
    }
RS_CHACHA_VARIANTS(RS_WRAP)

#define RS_ENTRY(prefix, name, width, cpu) \
    {name, width, cpu, prefix##ks, prefix##x64, prefix##xietf, prefix##chacha_level, \
     sizeof(struct prefix##chacha8_ctx)},
static const struct variant all_variants[] = {RS_CHACHA_VARIANTS(RS_ENTRY)};
#define NVARIANTS (sizeof all_variants / sizeof all_variants[0])

#ifdef RS_CHACHA_NRECORDS /* with chacha_vectors.h: the bench and the Check suite */
/* The first vector `v` gets wrong, or NULL: the official blocks and the Python reference's
 * streams (the bench times a variant only once it passes, so a tuner never picks a wrong one). */
static inline const char *rs_chacha_first_wrong(const struct variant *v)
{
    static uint8_t out[70 * 64];
    static char what[80];
    size_t k;
    for (k = 0; k < RS_CHACHA_NRECORDS; k++) {
        const struct rs_chacha_record *r = &rs_chacha_records[k];
        v->keystream(r->rounds, r->key, r->kbits, r->iv, r->counter, 1, out);
        if (memcmp(out, r->block, 64) != 0) {
            snprintf(what, sizeof what, "official block %u (ChaCha%u)", (unsigned)k, r->rounds);
            return what;
        }
    }
    for (k = 0; k < RS_CHACHA_NSTREAMS; k++) {
        const struct rs_chacha_stream *s = &rs_chacha_streams[k];
        if (s->n_blocks > sizeof out / 64)
            continue;
        v->keystream(s->rounds, s->key, s->kbits, s->has_iv ? s->iv : NULL, s->pos,
                     s->n_blocks, out);
        if (rs_chacha_fnv1a64(out, (size_t)s->n_blocks * 64) != s->digest) {
            snprintf(what, sizeof what, "stream %u (ChaCha%u, %u blocks)", (unsigned)k,
                     s->rounds, s->n_blocks);
            return what;
        }
    }
    return NULL;
}
#endif

#endif
