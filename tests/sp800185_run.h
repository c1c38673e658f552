/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * KT256 and the NIST SP 800-185 functions driven from one rs_sp_case of sponge_vectors.h,
 * one-shot or through their incremental forms in uneven pieces. Plain C with no Check, so
 * tests/check_sponge.c and tests/vendor_api.c (native, qemu-user, wine) share it; include it
 * after keccak_sponge.h (or roundsmith.h) and sponge_vectors.h.
 */
#ifndef RS_TEST_SP800185_RUN_H
#define RS_TEST_SP800185_RUN_H

#include <stdint.h>
#include <string.h>

/* Deterministic piece sizes, biased towards the awkward small ones and past a block. */
static size_t rs_sp_piece(uint64_t *s, size_t left)
{
    size_t n;
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    switch (*s % 4) {
    case 0: n = (size_t)(*s % 8); break;
    case 1: n = (size_t)(*s % 200); break;
    case 2: n = (size_t)(*s % 2000); break;
    default: n = (size_t)(*s % 20000); break;
    }
    return n < left ? n : left;
}

enum rs_sp_way { RS_SP_ONE_SHOT, RS_SP_PIECES };

#define RS_SP_BITS(f) ((f) % 2 ? 128 : 256) /* kt256 is 0, then 128 and 256 alternate */

/* The output of case `c` into out[0 .. outlen): its inputs are `in` (the message; a TupleHash's
 * parts one after another), `key` (KMAC's key, cSHAKE's N) and `custom`. Returns 0, or -1 when
 * the case does not fit this platform (a block size above SIZE_MAX). */
static int rs_sp_run(const struct rs_sp_case *c, const uint8_t *in, const uint8_t *key,
                     const uint8_t *custom, uint8_t *out, enum rs_sp_way way, uint64_t seed)
{
    const uint8_t *parts[RS_SP_MAX_PARTS + 1];
    size_t inlen = c->message.length, keylen = c->key.length, customlen = c->custom.length;
    size_t outlen = c->outlen, blocksize, done, n, at;
    enum rs_sp_function f = c->function;
    int bits = RS_SP_BITS(f), xof;
    unsigned k;
    keccak_sponge s;
    kt256_ctx kt;
    parallelhash_ctx ph;

    if (c->blocksize > (unsigned long long)(size_t)-1)
        return -1;
    blocksize = (size_t)c->blocksize;
    for (k = 0, at = 0; k < c->nparts; at += c->parts[k], k++)
        parts[k] = in + at;
    xof = f == RS_SP_KMACXOF128 || f == RS_SP_KMACXOF256 || f == RS_SP_TUPLEHASHXOF128 ||
          f == RS_SP_TUPLEHASHXOF256 || f == RS_SP_PARALLELHASHXOF128 ||
          f == RS_SP_PARALLELHASHXOF256;
    if (way == RS_SP_ONE_SHOT) {
        switch (f) {
        case RS_SP_KT256: kt256(out, outlen, in, inlen, custom, customlen); break;
        case RS_SP_CSHAKE128: cshake128(out, outlen, in, inlen, key, keylen, custom, customlen); break;
        case RS_SP_CSHAKE256: cshake256(out, outlen, in, inlen, key, keylen, custom, customlen); break;
        case RS_SP_KMAC128: kmac128(out, outlen, key, keylen, in, inlen, custom, customlen); break;
        case RS_SP_KMAC256: kmac256(out, outlen, key, keylen, in, inlen, custom, customlen); break;
        case RS_SP_KMACXOF128: kmacxof128(out, outlen, key, keylen, in, inlen, custom, customlen); break;
        case RS_SP_KMACXOF256: kmacxof256(out, outlen, key, keylen, in, inlen, custom, customlen); break;
        case RS_SP_TUPLEHASH128: tuplehash128(out, outlen, parts, c->parts, c->nparts, custom, customlen); break;
        case RS_SP_TUPLEHASH256: tuplehash256(out, outlen, parts, c->parts, c->nparts, custom, customlen); break;
        case RS_SP_TUPLEHASHXOF128: tuplehashxof128(out, outlen, parts, c->parts, c->nparts, custom, customlen); break;
        case RS_SP_TUPLEHASHXOF256: tuplehashxof256(out, outlen, parts, c->parts, c->nparts, custom, customlen); break;
        case RS_SP_PARALLELHASH128: return parallelhash128(out, outlen, in, inlen, blocksize, custom, customlen);
        case RS_SP_PARALLELHASH256: return parallelhash256(out, outlen, in, inlen, blocksize, custom, customlen);
        case RS_SP_PARALLELHASHXOF128: return parallelhashxof128(out, outlen, in, inlen, blocksize, custom, customlen);
        default: return parallelhashxof256(out, outlen, in, inlen, blocksize, custom, customlen);
        }
        return 0;
    }
    /* Incremental: init, the input in pieces (TupleHash: one add per part), then the output
     * in one final or, for the XOF forms, in pieces. */
    switch (f) {
    case RS_SP_KT256: kt256_init(&kt); break;
    case RS_SP_CSHAKE128: cshake128_init(&s, key, keylen, custom, customlen); break;
    case RS_SP_CSHAKE256: cshake256_init(&s, key, keylen, custom, customlen); break;
    case RS_SP_KMAC128: case RS_SP_KMACXOF128: kmac128_init(&s, key, keylen, custom, customlen); break;
    case RS_SP_KMAC256: case RS_SP_KMACXOF256: kmac256_init(&s, key, keylen, custom, customlen); break;
    case RS_SP_TUPLEHASH128: case RS_SP_TUPLEHASHXOF128: tuplehash128_init(&s, custom, customlen); break;
    case RS_SP_TUPLEHASH256: case RS_SP_TUPLEHASHXOF256: tuplehash256_init(&s, custom, customlen); break;
    default:
        if ((bits == 128 ? parallelhash128_init : parallelhash256_init)(&ph, blocksize, custom,
                                                                         customlen) != 0)
            return 1;
        break;
    }
    if (f == RS_SP_TUPLEHASH128 || f == RS_SP_TUPLEHASHXOF128)
        for (k = 0; k < c->nparts; k++)
            tuplehash128_add(&s, parts[k], c->parts[k]);
    else if (f == RS_SP_TUPLEHASH256 || f == RS_SP_TUPLEHASHXOF256)
        for (k = 0; k < c->nparts; k++)
            tuplehash256_add(&s, parts[k], c->parts[k]);
    else
        for (done = 0; done < inlen; done += n) {
            n = rs_sp_piece(&seed, inlen - done);
            switch (f) {
            case RS_SP_KT256: kt256_update(&kt, in + done, n); break;
            case RS_SP_CSHAKE128: cshake128_absorb(&s, in + done, n); break;
            case RS_SP_CSHAKE256: cshake256_absorb(&s, in + done, n); break;
            case RS_SP_KMAC128: case RS_SP_KMACXOF128: kmac128_update(&s, in + done, n); break;
            case RS_SP_KMAC256: case RS_SP_KMACXOF256: kmac256_update(&s, in + done, n); break;
            default: (bits == 128 ? parallelhash128_update : parallelhash256_update)(&ph, in + done, n); break;
            }
        }
    if (f == RS_SP_KT256) {
        kt256_final(&kt, custom, customlen, out, outlen);
        return 0;
    }
    if (!xof && f != RS_SP_CSHAKE128 && f != RS_SP_CSHAKE256) {
        switch (f) {
        case RS_SP_KMAC128: kmac128_final(&s, out, outlen); break;
        case RS_SP_KMAC256: kmac256_final(&s, out, outlen); break;
        case RS_SP_TUPLEHASH128: tuplehash128_final(&s, out, outlen); break;
        case RS_SP_TUPLEHASH256: tuplehash256_final(&s, out, outlen); break;
        case RS_SP_PARALLELHASH128: parallelhash128_final(&ph, out, outlen); break;
        default: parallelhash256_final(&ph, out, outlen); break;
        }
        return 0;
    }
    for (done = 0; done < outlen; done += n) {
        n = rs_sp_piece(&seed, outlen - done);
        switch (f) {
        case RS_SP_CSHAKE128: cshake128_squeeze(&s, out + done, n); break;
        case RS_SP_CSHAKE256: cshake256_squeeze(&s, out + done, n); break;
        case RS_SP_KMACXOF128: kmac128_squeeze(&s, out + done, n); break;
        case RS_SP_KMACXOF256: kmac256_squeeze(&s, out + done, n); break;
        case RS_SP_TUPLEHASHXOF128: tuplehash128_squeeze(&s, out + done, n); break;
        case RS_SP_TUPLEHASHXOF256: tuplehash256_squeeze(&s, out + done, n); break;
        case RS_SP_PARALLELHASHXOF128: parallelhash128_squeeze(&ph, out + done, n); break;
        default: parallelhash256_squeeze(&ph, out + done, n); break;
        }
    }
    return 0;
}

#endif
