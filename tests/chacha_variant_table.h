/*
 * The ChaCha variants one build links, as the one table every harness walks (the Check
 * suite, the fuzz target, the constant-time run). The list comes from the generated
 * chacha_variants.h (or check_chacha.c's out/ mapping), included first: each variant has its
 * own context types, and one wrapper per variant hides them.
 */
#ifndef RS_TEST_CHACHA_VARIANT_TABLE_H
#define RS_TEST_CHACHA_VARIANT_TABLE_H

#include <stddef.h>
#include <stdint.h>

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

/* Each variant has its own context types; one wrapper per variant hides them. */
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

#endif
