/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * libFuzzer target: KT256 and NIST SP 800-185 in the out/ sponge layer (keccak_sponge.h)
 * fed and drained in fuzzer-chosen pieces must give the bytes of the one-shot function:
 * cSHAKE (absorb/squeeze), KMAC and KMACXOF (update/final, update/squeeze), TupleHash and
 * TupleHashXOF (one add per part, the tuple cut where the fuzzer says), ParallelHash and
 * ParallelHashXOF at block sizes 1..256 and 8192 (update/final, update/squeeze), KT256
 * (update/final, past its 8 KiB chunks). Every piece lives in its own exact-size heap buffer,
 * so a read or write past a piece is an AddressSanitizer report, not a silent pass.
 *
 * Input: function, output length (2 bytes), repeat count, key (or N) length, customization
 * length, block size, then the key, the customization string and the message (repeated
 * 1..16 times). The split points come from a generator seeded by the whole input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "pieces.h"

#define HEADER 7
#define MAX_PARTS 8

enum { KT256, CSHAKE128, CSHAKE256, KMAC128, KMAC256, KMACXOF128, KMACXOF256, TUPLEHASH128,
       TUPLEHASH256, TUPLEHASHXOF128, TUPLEHASHXOF256, PARALLELHASH128, PARALLELHASH256,
       PARALLELHASHXOF128, PARALLELHASHXOF256, NFUNCTIONS };
static const char *const names[NFUNCTIONS] = {
    "kt256", "cshake128", "cshake256", "kmac128", "kmac256", "kmacxof128", "kmacxof256",
    "tuplehash128", "tuplehash256", "tuplehashxof128", "tuplehashxof256", "parallelhash128",
    "parallelhash256", "parallelhashxof128", "parallelhashxof256"};

/* The one-shot side must itself be right: NIST's KMAC128 sample #1 before fuzzing starts;
 * the Check suite has the rest. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const uint8_t want[32] = {
        0xe5, 0x78, 0x0b, 0x0d, 0x3e, 0xa6, 0xf7, 0xd3, 0xa4, 0x29, 0xc5, 0x70, 0x6a, 0xa4, 0x3a,
        0x00, 0xfa, 0xdb, 0xd7, 0xd4, 0x96, 0x28, 0x83, 0x9e, 0x31, 0x87, 0x24, 0x3f, 0x45, 0x6e,
        0xe1, 0x4e};
    uint8_t key[32], out[32];
    size_t k;
    (void)argc;
    (void)argv;
    for (k = 0; k < 32; k++)
        key[k] = (uint8_t)(0x40 + k);
    kmac128(out, 32, key, 32, (const uint8_t *)"\x00\x01\x02\x03", 4, NULL, 0);
    if (memcmp(out, want, 32) != 0) {
        fprintf(stderr, "sp800185_splits: KMAC128 sample #1 is wrong\n");
        abort();
    }
    fprintf(stderr, "sp800185_splits: out/ sponge, %d functions, KMAC128 sample ok\n",
            NFUNCTIONS);
    return 0;
}

/* Across a block of either rate (136, 168) or a KT256 chunk. */
static size_t piece(uint64_t *rng, size_t left)
{
    return rs_piece(rng, left, 136);
}

static uint8_t *copy(const uint8_t *from, size_t n)
{
    uint8_t *p = exact(n);
    if (n)
        memcpy(p, from, n);
    return p;
}

static int is_xof(int f)
{
    return f == CSHAKE128 || f == CSHAKE256 || f == KMACXOF128 || f == KMACXOF256 ||
           f == TUPLEHASHXOF128 || f == TUPLEHASHXOF256 || f == PARALLELHASHXOF128 ||
           f == PARALLELHASHXOF256;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *parts[MAX_PARTS];
    size_t lens[MAX_PARTS], nparts = 0;
    size_t outlen, msglen, keylen, customlen, reps, blocksize, k, done, n, rest;
    uint8_t *msg, *key, *custom, *want, *got;
    keccak_sponge s;
    kt256_ctx kt;
    parallelhash_ctx ph;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    int f, small;

    if (size < HEADER)
        return 0;
    f = data[0] % NFUNCTIONS;
    outlen = (size_t)(data[1] | data[2] << 8) % 1500;
    reps = 1 + data[3] % 16;
    rest = size - HEADER;
    keylen = data[4] < rest ? data[4] : rest;
    customlen = data[5] % 64 < rest - keylen ? data[5] % 64 : rest - keylen;
    blocksize = data[6] & 0x80 ? 8192 : 1 + (size_t)data[6];
    key = copy(data + HEADER, keylen);
    custom = copy(data + HEADER + keylen, customlen);
    rest -= keylen + customlen;
    msglen = rest * reps;
    msg = exact(msglen);
    for (k = 0; k < msglen; k++)
        msg[k] = data[HEADER + keylen + customlen + k % rest];
    for (k = 0; k < size; k++)
        rng = (rng ^ data[k]) * 0x100000001B3ULL;
    rng |= 1;
    /* TupleHash: the message cut into up to MAX_PARTS parts where the generator says. */
    for (done = 0; nparts < MAX_PARTS && (done < msglen || nparts == 0); done += n) {
        n = nparts == MAX_PARTS - 1 ? msglen - done : piece(&rng, msglen - done);
        parts[nparts] = msglen ? msg + done : NULL;
        lens[nparts++] = n;
    }
    if (done < msglen)
        lens[nparts - 1] += msglen - done;
    small = f % 2 == 1; /* the 128-bit functions have odd numbers */

    want = exact(outlen);
    got = exact(outlen);
    switch (f) {
    case KT256: kt256(want, outlen, msg, msglen, custom, customlen); break;
    case CSHAKE128: cshake128(want, outlen, msg, msglen, key, keylen, custom, customlen); break;
    case CSHAKE256: cshake256(want, outlen, msg, msglen, key, keylen, custom, customlen); break;
    case KMAC128: kmac128(want, outlen, key, keylen, msg, msglen, custom, customlen); break;
    case KMAC256: kmac256(want, outlen, key, keylen, msg, msglen, custom, customlen); break;
    case KMACXOF128: kmacxof128(want, outlen, key, keylen, msg, msglen, custom, customlen); break;
    case KMACXOF256: kmacxof256(want, outlen, key, keylen, msg, msglen, custom, customlen); break;
    case TUPLEHASH128: tuplehash128(want, outlen, parts, lens, nparts, custom, customlen); break;
    case TUPLEHASH256: tuplehash256(want, outlen, parts, lens, nparts, custom, customlen); break;
    case TUPLEHASHXOF128: tuplehashxof128(want, outlen, parts, lens, nparts, custom, customlen); break;
    case TUPLEHASHXOF256: tuplehashxof256(want, outlen, parts, lens, nparts, custom, customlen); break;
    case PARALLELHASH128: parallelhash128(want, outlen, msg, msglen, blocksize, custom, customlen); break;
    case PARALLELHASH256: parallelhash256(want, outlen, msg, msglen, blocksize, custom, customlen); break;
    case PARALLELHASHXOF128: parallelhashxof128(want, outlen, msg, msglen, blocksize, custom, customlen); break;
    default: parallelhashxof256(want, outlen, msg, msglen, blocksize, custom, customlen); break;
    }

    switch (f) {
    case KT256: kt256_init(&kt); break;
    case CSHAKE128: cshake128_init(&s, key, keylen, custom, customlen); break;
    case CSHAKE256: cshake256_init(&s, key, keylen, custom, customlen); break;
    case KMAC128: case KMACXOF128: kmac128_init(&s, key, keylen, custom, customlen); break;
    case KMAC256: case KMACXOF256: kmac256_init(&s, key, keylen, custom, customlen); break;
    case TUPLEHASH128: case TUPLEHASHXOF128: tuplehash128_init(&s, custom, customlen); break;
    case TUPLEHASH256: case TUPLEHASHXOF256: tuplehash256_init(&s, custom, customlen); break;
    default:
        if ((small ? parallelhash128_init : parallelhash256_init)(&ph, blocksize, custom,
                                                                  customlen))
            abort();
        break;
    }
    if (f >= TUPLEHASH128 && f <= TUPLEHASHXOF256) {
        for (k = 0; k < nparts; k++) {
            uint8_t *p = copy(parts[k], lens[k]);
            (small ? tuplehash128_add : tuplehash256_add)(&s, p, lens[k]);
            free(p);
        }
    } else {
        for (done = 0; done < msglen; done += n) {
            uint8_t *p;
            n = piece(&rng, msglen - done);
            p = copy(msg + done, n);
            switch (f) {
            case KT256: kt256_update(&kt, p, n); break;
            case CSHAKE128: cshake128_absorb(&s, p, n); break;
            case CSHAKE256: cshake256_absorb(&s, p, n); break;
            case KMAC128: case KMACXOF128: kmac128_update(&s, p, n); break;
            case KMAC256: case KMACXOF256: kmac256_update(&s, p, n); break;
            default: (small ? parallelhash128_update : parallelhash256_update)(&ph, p, n); break;
            }
            free(p);
        }
    }
    if (!is_xof(f)) {
        switch (f) {
        case KT256: kt256_final(&kt, custom, customlen, got, outlen); break;
        case KMAC128: kmac128_final(&s, got, outlen); break;
        case KMAC256: kmac256_final(&s, got, outlen); break;
        case TUPLEHASH128: tuplehash128_final(&s, got, outlen); break;
        case TUPLEHASH256: tuplehash256_final(&s, got, outlen); break;
        case PARALLELHASH128: parallelhash128_final(&ph, got, outlen); break;
        default: parallelhash256_final(&ph, got, outlen); break;
        }
    } else {
        for (done = 0; done < outlen; done += n) {
            uint8_t *p;
            n = piece(&rng, outlen - done);
            p = exact(n);
            switch (f) {
            case CSHAKE128: cshake128_squeeze(&s, p, n); break;
            case CSHAKE256: cshake256_squeeze(&s, p, n); break;
            case KMACXOF128: kmac128_squeeze(&s, p, n); break;
            case KMACXOF256: kmac256_squeeze(&s, p, n); break;
            case TUPLEHASHXOF128: tuplehash128_squeeze(&s, p, n); break;
            case TUPLEHASHXOF256: tuplehash256_squeeze(&s, p, n); break;
            case PARALLELHASHXOF128: parallelhash128_squeeze(&ph, p, n); break;
            default: parallelhash256_squeeze(&ph, p, n); break;
            }
            if (n)
                memcpy(got + done, p, n);
            free(p);
        }
    }
    if (outlen && memcmp(want, got, outlen) != 0) {
        fprintf(stderr, "MISMATCH %s msglen=%zu keylen=%zu customlen=%zu blocksize=%zu "
                "parts=%zu outlen=%zu\n", names[f], msglen, keylen, customlen, blocksize,
                nparts, outlen);
        abort();
    }
    free(msg);
    free(key);
    free(custom);
    free(want);
    free(got);
    return 0;
}
