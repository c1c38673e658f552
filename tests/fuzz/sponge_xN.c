/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * libFuzzer target: the multi-buffer sponges (keccak_sponge.h, *_x2/_x4/_x8) against N calls
 * of the single-buffer one-shot function, lane by lane. Every width, every function: one-shot
 * (SHA3-224..512, Keccak-256, SHAKE128/256, TurboSHAKE128/256 at any domain byte), and for the
 * extendable-output functions init/absorb/squeeze in fuzzer-chosen pieces (equal across the
 * lanes, as the API asks). Every lane's piece lives in its own exact-size heap buffer, so a
 * read or write past it is an AddressSanitizer report.
 *
 * Input: function, width, domain byte, output length (2 bytes), then the message; lane j reads
 * it rotated by 7j bytes and xored with j, so no two lanes agree. The splits come from a
 * generator seeded by the whole input, so a crash reproduces.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "pieces.h"

#define HEADER 5
#define MAXN 8

enum { SHA3_224, SHA3_256, SHA3_384, SHA3_512, KECCAK256, SHAKE128, SHAKE256, TURBOSHAKE128,
       TURBOSHAKE256, NFUNCTIONS };
static const size_t digest[NFUNCTIONS] = {28, 32, 48, 64, 32, 0, 0, 0, 0};
static const unsigned widths[] = {2, 4, 8};

/* A piece: often empty or short, sometimes across a block (rates 72..168) or several. */
static size_t piece(uint64_t *rng, size_t left)
{
    size_t n;
    switch (next(rng) % 4) {
    case 0: n = 0; break;
    case 1: n = (size_t)(next(rng) % 8); break;
    case 2: n = (size_t)(next(rng) % 340); break;
    default: n = 168 * (size_t)(1 + next(rng) % 3); break;
    }
    return n < left ? n : left;
}

static void single(int f, uint8_t domain, const uint8_t *in, size_t len, uint8_t *out,
                   size_t outlen)
{
    switch (f) {
    case SHA3_224: sha3_224(out, in, len); break;
    case SHA3_256: sha3_256(out, in, len); break;
    case SHA3_384: sha3_384(out, in, len); break;
    case SHA3_512: sha3_512(out, in, len); break;
    case KECCAK256: keccak256(out, in, len); break;
    case SHAKE128: shake128(out, outlen, in, len); break;
    case SHAKE256: shake256(out, outlen, in, len); break;
    case TURBOSHAKE128: turboshake128(out, outlen, in, len, domain); break;
    default: turboshake256(out, outlen, in, len, domain); break;
    }
}

#define ONE_SHOT(N)                                                                           \
    case N:                                                                                   \
        switch (f) {                                                                          \
        case SHA3_224: sha3_224_x##N(out, in, len); break;                                    \
        case SHA3_256: sha3_256_x##N(out, in, len); break;                                    \
        case SHA3_384: sha3_384_x##N(out, in, len); break;                                    \
        case SHA3_512: sha3_512_x##N(out, in, len); break;                                    \
        case KECCAK256: keccak256_x##N(out, in, len); break;                                  \
        case SHAKE128: shake128_x##N(out, outlen, in, len); break;                            \
        case SHAKE256: shake256_x##N(out, outlen, in, len); break;                            \
        case TURBOSHAKE128: turboshake128_x##N(out, outlen, in, len, domain); break;          \
        default: turboshake256_x##N(out, outlen, in, len, domain); break;                     \
        }                                                                                     \
        break;

static void multi(int f, unsigned n, uint8_t domain, const uint8_t *const *in, size_t len,
                  uint8_t *const *out, size_t outlen)
{
    switch (n) {
        ONE_SHOT(2)
        ONE_SHOT(4)
    default:
        ONE_SHOT(8)
    }
}

typedef struct {
    keccak_sponge_x2 c2;
    keccak_sponge_x4 c4;
    keccak_sponge_x8 c8;
} contexts;

#define STEP(N, op, ...)                                                                      \
    case N:                                                                                   \
        switch (f) {                                                                          \
        case SHAKE128: shake128_x##N##_##op(&c->c##N, __VA_ARGS__); break;                    \
        case SHAKE256: shake256_x##N##_##op(&c->c##N, __VA_ARGS__); break;                    \
        case TURBOSHAKE128: turboshake128_x##N##_##op(&c->c##N, __VA_ARGS__); break;          \
        default: turboshake256_x##N##_##op(&c->c##N, __VA_ARGS__); break;                     \
        }                                                                                     \
        break;

static void init(contexts *c, int f, unsigned n, uint8_t domain)
{
    switch (n) {
#define INIT(N)                                                                               \
    case N:                                                                                   \
        switch (f) {                                                                          \
        case SHAKE128: shake128_x##N##_init(&c->c##N); break;                                 \
        case SHAKE256: shake256_x##N##_init(&c->c##N); break;                                 \
        case TURBOSHAKE128: turboshake128_x##N##_init(&c->c##N, domain); break;               \
        default: turboshake256_x##N##_init(&c->c##N, domain); break;                          \
        }                                                                                     \
        break;
        INIT(2)
        INIT(4)
    default:
        INIT(8)
    }
}

static void absorb(contexts *c, int f, unsigned n, const uint8_t *const *in, size_t len)
{
    switch (n) {
        STEP(2, absorb, in, len)
        STEP(4, absorb, in, len)
    default:
        STEP(8, absorb, in, len)
    }
}

static void squeeze(contexts *c, int f, unsigned n, uint8_t *const *out, size_t len)
{
    switch (n) {
        STEP(2, squeeze, out, len)
        STEP(4, squeeze, out, len)
    default:
        STEP(8, squeeze, out, len)
    }
}

static void mismatch(const char *how, int f, unsigned n, unsigned lane, size_t len)
{
    fprintf(stderr, "MISMATCH %s: function %d x%u lane %u, %zu bytes\n", how, f, n, lane, len);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int f;
    unsigned n, j;
    size_t len, outlen, k, done, p;
    uint8_t domain, *msg[MAXN], *want[MAXN], *got[MAXN];
    const uint8_t *in[MAXN];
    uint8_t *out[MAXN];
    contexts c;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;

    if (size < HEADER)
        return 0;
    f = data[0] % NFUNCTIONS;
    n = widths[data[1] % 3];
    domain = (uint8_t)(1 + data[2] % 0x7F);
    outlen = digest[f] ? digest[f] : (size_t)(data[3] | data[4] << 8) % 1200;
    len = size - HEADER;
    for (k = 0; k < size; k++)
        rng = (rng ^ data[k]) * 0x100000001B3ULL;
    rng |= 1;
    for (j = 0; j < n; j++) {
        msg[j] = exact(len);
        for (k = 0; k < len; k++)
            msg[j][k] = (uint8_t)(data[HEADER + (k + 7 * j) % len] ^ j);
        want[j] = exact(outlen);
        got[j] = exact(outlen);
        single(f, domain, msg[j], len, want[j], outlen);
        in[j] = msg[j];
        out[j] = got[j];
    }
    multi(f, n, domain, in, len, out, outlen);
    for (j = 0; j < n; j++)
        if (outlen && memcmp(got[j], want[j], outlen) != 0)
            mismatch("one-shot", f, n, j, len);

    if (!digest[f]) {
        init(&c, f, n, domain);
        for (done = 0; done < len; done += p) {
            p = piece(&rng, len - done);
            for (j = 0; j < n; j++) {
                uint8_t *chunk = exact(p);
                if (p)
                    memcpy(chunk, msg[j] + done, p);
                in[j] = chunk;
            }
            absorb(&c, f, n, in, p);
            for (j = 0; j < n; j++)
                free((void *)(uintptr_t)in[j]);
        }
        for (done = 0; done < outlen || done == 0; done += p) {
            p = piece(&rng, outlen - done);
            for (j = 0; j < n; j++)
                out[j] = exact(p);
            squeeze(&c, f, n, out, p);
            for (j = 0; j < n; j++) {
                if (p)
                    memcpy(got[j] + done, out[j], p);
                free(out[j]);
            }
            if (outlen == 0)
                break;
        }
        for (j = 0; j < n; j++)
            if (outlen && memcmp(got[j], want[j], outlen) != 0)
                mismatch("incremental", f, n, j, len);
    }
    for (j = 0; j < n; j++) {
        free(msg[j]);
        free(want[j]);
        free(got[j]);
    }
    return 0;
}
