/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * libFuzzer target: the out/ sponge layer (keccak_sponge.h) fed and drained in fuzzer-chosen
 * pieces must give the bytes of its one-shot function, for every function it has: SHA3-224..
 * 512 and Keccak-256 (init/update/final), SHAKE128/256 and TurboSHAKE128/256 at any domain
 * byte (init/absorb/squeeze, squeezed in pieces too), KT128 with a customization string
 * (init/update/final, past its 8 KiB chunks). Every piece lives in its own exact-size heap
 * buffer, so a read or write past a piece is an AddressSanitizer report, not a silent pass.
 *
 * Input: function, domain byte, output length (2 bytes), repeat count, customization length,
 * then the message (repeated 1..16 times, so KT128 reaches its tree with small inputs). The
 * split points come from a generator seeded by the whole input, so a crash reproduces.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "pieces.h"

#define HEADER 6

enum { SHA3_224, SHA3_256, SHA3_384, SHA3_512, KECCAK256, SHAKE128, SHAKE256, TURBOSHAKE128,
       TURBOSHAKE256, KT128, NFUNCTIONS };
static const char *const names[NFUNCTIONS] = {
    "sha3_224", "sha3_256", "sha3_384", "sha3_512", "keccak256", "shake128", "shake256",
    "turboshake128", "turboshake256", "kt128"};
static const size_t digest[NFUNCTIONS] = {28, 32, 48, 64, 32, 0, 0, 0, 0, 0};

/* The one-shot side must itself be right, or agreeing with it proves little: SHA3-256 of ""
 * and of "abc" (FIPS 202 examples) before fuzzing starts; the Check suite has the rest. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const uint8_t abc[32] = {
        0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2, 0x04, 0x5c, 0x17,
        0x2d, 0x6b, 0xd3, 0x90, 0xbd, 0x85, 0x5f, 0x08, 0x6e, 0x3e, 0x9d,
        0x52, 0x5b, 0x46, 0xbf, 0xe2, 0x45, 0x11, 0x43, 0x15, 0x32};
    uint8_t out[32];
    (void)argc;
    (void)argv;
    sha3_256(out, (const uint8_t *)"abc", 3);
    if (memcmp(out, abc, 32) != 0) {
        fprintf(stderr, "sponge_splits: SHA3-256(\"abc\") is wrong\n");
        abort();
    }
    fprintf(stderr, "sponge_splits: out/ sponge, %d functions, SHA3-256 example ok\n",
            NFUNCTIONS);
    return 0;
}

/* Rates 72..168: a piece of one to three 168-byte blocks crosses every rate's boundary. */
static size_t piece(uint64_t *rng, size_t left)
{
    return rs_piece(rng, left, 168);
}

static void one_shot(int f, uint8_t domain, const uint8_t *in, size_t len, const uint8_t *custom,
                     size_t customlen, uint8_t *out, size_t outlen)
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
    case TURBOSHAKE256: turboshake256(out, outlen, in, len, domain); break;
    default: kt128(out, outlen, in, len, custom, customlen); break;
    }
}

/* Absorb msg in pieces, each copied into its own exact-size buffer. */
static void absorb_split(int f, keccak_sponge *s, kt128_ctx *kt, const uint8_t *msg, size_t len,
                         uint64_t *rng)
{
    size_t done, n;
    for (done = 0; done < len; done += n) {
        uint8_t *chunk;
        n = piece(rng, len - done);
        chunk = exact(n);
        if (n)
            memcpy(chunk, msg + done, n);
        switch (f) {
        case SHA3_224: sha3_224_update(s, chunk, n); break;
        case SHA3_256: sha3_256_update(s, chunk, n); break;
        case SHA3_384: sha3_384_update(s, chunk, n); break;
        case SHA3_512: sha3_512_update(s, chunk, n); break;
        case KECCAK256: keccak256_update(s, chunk, n); break;
        case SHAKE128: shake128_absorb(s, chunk, n); break;
        case SHAKE256: shake256_absorb(s, chunk, n); break;
        case TURBOSHAKE128: turboshake128_absorb(s, chunk, n); break;
        case TURBOSHAKE256: turboshake256_absorb(s, chunk, n); break;
        default: kt128_update(kt, chunk, n); break;
        }
        free(chunk);
    }
}

static void squeeze_split(int f, keccak_sponge *s, uint8_t *out, size_t len, uint64_t *rng)
{
    size_t done, n;
    for (done = 0; done < len; done += n) {
        uint8_t *chunk;
        n = piece(rng, len - done);
        chunk = exact(n);
        switch (f) {
        case SHAKE128: shake128_squeeze(s, chunk, n); break;
        case SHAKE256: shake256_squeeze(s, chunk, n); break;
        case TURBOSHAKE128: turboshake128_squeeze(s, chunk, n); break;
        default: turboshake256_squeeze(s, chunk, n); break;
        }
        if (n)
            memcpy(out + done, chunk, n);
        free(chunk);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int f;
    size_t outlen, msglen, customlen, reps, k;
    uint8_t domain, *msg, *custom, *want, *got;
    keccak_sponge s;
    kt128_ctx kt;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;

    if (size < HEADER)
        return 0;
    f = data[0] % NFUNCTIONS;
    domain = (uint8_t)(1 + data[1] % 0x7F);
    outlen = digest[f] ? digest[f] : (size_t)(data[2] | data[3] << 8) % 2048;
    reps = 1 + data[4] % 16;
    customlen = f == KT128 ? data[5] % 64 : 0;
    if (customlen > size - HEADER)
        customlen = size - HEADER;
    custom = exact(customlen);
    if (customlen)
        memcpy(custom, data + HEADER, customlen);
    msglen = (size - HEADER - customlen) * reps;
    msg = exact(msglen);
    for (k = 0; k < msglen; k++)
        msg[k] = data[HEADER + customlen + k % (size - HEADER - customlen)];
    for (k = 0; k < size; k++)
        rng = (rng ^ data[k]) * 0x100000001B3ULL;
    rng |= 1;

    want = exact(outlen);
    got = exact(outlen);
    one_shot(f, domain, msg, msglen, custom, customlen, want, outlen);

    switch (f) {
    case SHA3_224: sha3_224_init(&s); break;
    case SHA3_256: sha3_256_init(&s); break;
    case SHA3_384: sha3_384_init(&s); break;
    case SHA3_512: sha3_512_init(&s); break;
    case KECCAK256: keccak256_init(&s); break;
    case SHAKE128: shake128_init(&s); break;
    case SHAKE256: shake256_init(&s); break;
    case TURBOSHAKE128: turboshake128_init(&s, domain); break;
    case TURBOSHAKE256: turboshake256_init(&s, domain); break;
    default: kt128_init(&kt); break;
    }
    absorb_split(f, &s, &kt, msg, msglen, &rng);
    switch (f) {
    case SHA3_224: sha3_224_final(&s, got); break;
    case SHA3_256: sha3_256_final(&s, got); break;
    case SHA3_384: sha3_384_final(&s, got); break;
    case SHA3_512: sha3_512_final(&s, got); break;
    case KECCAK256: keccak256_final(&s, got); break;
    case KT128: kt128_final(&kt, custom, customlen, got, outlen); break;
    default: squeeze_split(f, &s, got, outlen, &rng); break;
    }
    if (outlen && memcmp(want, got, outlen) != 0) {
        fprintf(stderr, "MISMATCH %s domain=0x%02X msglen=%zu customlen=%zu outlen=%zu\n",
                names[f], domain, msglen, customlen, outlen);
        abort();
    }
    free(msg);
    free(custom);
    free(want);
    free(got);
    return 0;
}
