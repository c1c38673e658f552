/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * libFuzzer differential target: every ChaCha variant linked in (chacha_variants.h: one per
 * instruction-set level, so every path of chacha.c runs: scalar, SSE2, SSSE3, AVX2, AVX-512,
 * with their narrower paths and single-block tails) against the plain reference
 * tests/ref/chacha_ref.c, at fuzzer-chosen keys, IVs, positions (often next to the 2^32 carry
 * and the 2^64 wrap), block counts and output misalignments; and chacha20_xor and
 * chacha20_ietf_xor (out of place and in place) at fuzzer-chosen lengths against the
 * reference keystream. Variants whose ISA the CPU lacks are left out (named at start).
 *
 * Input: variant, rounds, key size and IV flags, position mode, 8 position bytes, block
 * count, misalignment, length (2 bytes), then the key (32), IV or nonce (12); missing bytes
 * are zero. Every output lives in its own exact-size heap buffer, so a write past it is an
 * AddressSanitizer report.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chacha_variants.h"
#include "cpu_features.h"
#include "ref/chacha_ref.h"

#include "chacha_variant_table.h"

#define HEADER 15
#define MAXBLOCKS 100

static const struct variant *runnable[NVARIANTS];
static size_t nrunnable;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t k;
    (void)argc;
    (void)argv;
    for (k = 0; k < NVARIANTS; k++) {
        const char *missing = "";
        if (rs_cpu_has_all(all_variants[k].cpu, &missing))
            runnable[nrunnable++] = &all_variants[k];
        else
            fprintf(stderr, "chacha_keystream: %s left out, this CPU lacks %s\n",
                    all_variants[k].name, missing);
    }
    fprintf(stderr, "chacha_keystream: %zu of %zu variants runnable\n", nrunnable,
            (size_t)NVARIANTS);
    return 0;
}

static void mismatch(const struct variant *v, const char *what, unsigned rounds, uint64_t pos,
                     size_t n)
{
    fprintf(stderr, "MISMATCH %s (%s path) %s ChaCha%u pos=0x%016llx n=%zu\n", v->name,
            v->level(), what, rounds, (unsigned long long)pos, n);
    abort();
}

static uint8_t *exact(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        abort();
    return p;
}

/* The RFC 8439 keystream from the reference: word 12 the 32-bit counter (wrapping), word 13
 * the nonce's first word, words 14-15 the rest, which the reference takes as its IV. */
static void ref_ietf(const uint8_t key[32], const uint8_t nonce[12], uint32_t counter,
                     size_t blocks, uint8_t *out)
{
    uint32_t input[16];
    uint64_t word13 = (uint64_t)nonce[0] | (uint64_t)nonce[1] << 8 |
                      (uint64_t)nonce[2] << 16 | (uint64_t)nonce[3] << 24;
    size_t b;
    rs_ref_chacha_keysetup(input, key, 256, nonce + 4);
    for (b = 0; b < blocks; b++)
        rs_ref_chacha_keystream(input, 20, word13 << 32 | (uint32_t)(counter + b), 1,
                                out + 64 * b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned rounds_of[3] = {8, 12, 20};
    uint8_t head[HEADER + 44] = {0}, *key = head + HEADER, *iv = head + HEADER + 32;
    const struct variant *v;
    unsigned rounds, kbits, misalign;
    uint32_t input[16], n;
    uint64_t pos = 0;
    size_t len, blocks, i;
    uint8_t *want, *got, *buf, *text;

    if (size == 0 || nrunnable == 0)
        return 0;
    memcpy(head, data, size < sizeof head ? size : sizeof head);
    v = runnable[head[0] % nrunnable];
    rounds = rounds_of[head[1] % 3];
    kbits = head[2] & 1 ? 128 : 256;
    for (i = 0; i < 8; i++)
        pos |= (uint64_t)head[4 + i] << (8 * i);
    switch (head[3] % 4) { /* next to the 32-bit carry, next to the 64-bit wrap, or as given */
    case 0: pos = (pos & 0xFFFFFFFF00000000ULL) | (0xFFFFFFFFu - (uint32_t)(pos % 64)); break;
    case 1: pos = (uint64_t)0 - 1 - pos % 64; break;
    default: break;
    }
    n = head[12] % (MAXBLOCKS + 1);
    misalign = head[13] % 64;

    /* get_keystream against the reference, into a misaligned exact-size buffer */
    want = exact(64 * (size_t)n);
    buf = exact(64 * (size_t)n + misalign);
    got = buf + misalign;
    rs_ref_chacha_keysetup(input, key, kbits, head[2] & 2 ? NULL : iv);
    rs_ref_chacha_keystream(input, rounds, pos, n, want);
    v->keystream(rounds, key, kbits, head[2] & 2 ? NULL : iv, pos, n, n ? got : NULL);
    if (n && memcmp(got, want, 64 * (size_t)n) != 0)
        mismatch(v, "get_keystream", rounds, pos, n);
    free(buf);
    free(want);

    /* chacha20_xor (64-bit counter) and chacha20_ietf_xor at any length, on the remaining
     * input bytes as plaintext (repeated), out of place then in place */
    len = (size_t)(head[14] | (size_t)(size > HEADER + 44 ? data[HEADER + 44] : 0) << 8)
          % (64 * MAXBLOCKS + 64);
    blocks = (len + 63) / 64;
    text = exact(len);
    for (i = 0; i < len; i++)
        text[i] = size > HEADER + 45 ? data[HEADER + 45 + i % (size - HEADER - 45)] : (uint8_t)i;
    want = exact(64 * blocks);
    got = exact(len);
    for (i = 0; i < 2; i++) {
        size_t k;
        if (i == 0) {
            rs_ref_chacha_keysetup(input, key, 256, iv);
            rs_ref_chacha_keystream(input, 20, pos, (uint32_t)blocks, want);
        } else {
            ref_ietf(key, iv, (uint32_t)pos, blocks, want);
        }
        for (k = 0; k < len; k++)
            want[k] ^= text[k];
        (i ? v->xor_ietf : v->xor64)(len ? got : NULL, len ? text : NULL, len, key, iv, pos);
        if (len && memcmp(got, want, len) != 0)
            mismatch(v, i ? "chacha20_ietf_xor" : "chacha20_xor", 20, pos, len);
        memcpy(got, text, len);
        (i ? v->xor_ietf : v->xor64)(len ? got : NULL, len ? got : NULL, len, key, iv, pos);
        if (len && memcmp(got, want, len) != 0)
            mismatch(v, i ? "chacha20_ietf_xor in place" : "chacha20_xor in place", 20, pos,
                     len);
    }
    free(text);
    free(want);
    free(got);
    return 0;
}
