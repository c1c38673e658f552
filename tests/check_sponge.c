/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for the sponge layer in out/<target>/ (SHA-3, SHAKE, Keccak-256, TurboSHAKE,
 * KT128, KT256, NIST SP 800-185) and for XKCP's SnP interface, driven by the generated
 * sponge_vectors.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "KeccakP-1600-SnP.h"
#include "keccak_sponge.h"
#include "sponge_vectors.h"
#include "sp800185_run.h"

static uint8_t *from_hex(const char *hex, size_t len)
{
    uint8_t *out = malloc(len ? len : 1);
    size_t k;
    int parsed = 1;
    ck_assert_ptr_nonnull(out);
    /* One assertion, not one per byte: each of Check's assertions is a write(2). */
    for (k = 0; k < len && parsed; k++) {
        unsigned v = 0;
        parsed = sscanf(hex + 2 * k, "%2x", &v) == 1;
        out[k] = (uint8_t)v;
    }
    ck_assert_msg(parsed, "bad hex in a vector at byte %u", (unsigned)k);
    return out;
}

static uint8_t *message(const struct rs_message *m)
{
    uint8_t *out;
    size_t k;
    if (m->kind == 'h')
        return from_hex(m->hex, m->length);
    out = malloc(m->length ? m->length : 1);
    ck_assert_ptr_nonnull(out);
    for (k = 0; k < m->length; k++)
        out[k] = m->kind == 'p' ? (uint8_t)(k % 251) : 0xFF;
    return out;
}

/* Deterministic split sizes, different per case, biased towards the awkward small ones. */
static size_t next_split(uint64_t *s, size_t left)
{
    size_t n;
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    switch (*s % 4) {
    case 0: n = *s % 8; break;
    case 1: n = *s % 200; break;
    case 2: n = *s % 2000; break;
    default: n = *s % 20000; break;
    }
    return n < left ? n : left;
}

static int is_xof(enum rs_sponge_function f)
{
    return f == RS_SHAKE128 || f == RS_SHAKE256 || f == RS_TURBOSHAKE128 ||
           f == RS_TURBOSHAKE256 || f == RS_KT128;
}

/* One-shot entry points. */
static void one_shot(const struct rs_sponge_case *c, const uint8_t *in, size_t inlen,
                     const uint8_t *custom, size_t customlen, uint8_t *out)
{
    switch (c->function) {
    case RS_SHA3_224: sha3_224(out, in, inlen); break;
    case RS_SHA3_256: sha3_256(out, in, inlen); break;
    case RS_SHA3_384: sha3_384(out, in, inlen); break;
    case RS_SHA3_512: sha3_512(out, in, inlen); break;
    case RS_KECCAK256: keccak256(out, in, inlen); break;
    case RS_SHAKE128: shake128(out, c->outlen, in, inlen); break;
    case RS_SHAKE256: shake256(out, c->outlen, in, inlen); break;
    case RS_TURBOSHAKE128: turboshake128(out, c->outlen, in, inlen, (uint8_t)c->domain); break;
    case RS_TURBOSHAKE256: turboshake256(out, c->outlen, in, inlen, (uint8_t)c->domain); break;
    case RS_KT128: kt128(out, c->outlen, in, inlen, custom, customlen); break;
    default: ck_abort_msg("unknown function");
    }
}

/* The same through init/update/final (or absorb/squeeze), cut into uneven pieces. */
static void incremental(const struct rs_sponge_case *c, const uint8_t *in, size_t inlen,
                        const uint8_t *custom, size_t customlen, uint8_t *out, uint64_t seed)
{
    keccak_sponge s;
    kt128_ctx kt;
    size_t done = 0, n;

    switch (c->function) {
    case RS_SHA3_224: sha3_224_init(&s); break;
    case RS_SHA3_256: sha3_256_init(&s); break;
    case RS_SHA3_384: sha3_384_init(&s); break;
    case RS_SHA3_512: sha3_512_init(&s); break;
    case RS_KECCAK256: keccak256_init(&s); break;
    case RS_SHAKE128: shake128_init(&s); break;
    case RS_SHAKE256: shake256_init(&s); break;
    case RS_TURBOSHAKE128: turboshake128_init(&s, (uint8_t)c->domain); break;
    case RS_TURBOSHAKE256: turboshake256_init(&s, (uint8_t)c->domain); break;
    case RS_KT128: kt128_init(&kt); break;
    default: ck_abort_msg("unknown function");
    }
    while (done < inlen) {
        n = next_split(&seed, inlen - done);
        if (c->function == RS_KT128)
            kt128_update(&kt, in + done, n);
        else
            sha3_256_update(&s, in + done, n); /* every update/absorb is the same sponge step */
        done += n;
    }
    if (c->function == RS_KT128) {
        kt128_final(&kt, custom, customlen, out, c->outlen);
        return;
    }
    if (!is_xof(c->function)) {
        switch (c->function) {
        case RS_SHA3_224: sha3_224_final(&s, out); break;
        case RS_SHA3_256: sha3_256_final(&s, out); break;
        case RS_SHA3_384: sha3_384_final(&s, out); break;
        case RS_SHA3_512: sha3_512_final(&s, out); break;
        default: keccak256_final(&s, out); break;
        }
        return;
    }
    for (done = 0; done < c->outlen; done += n) {
        n = next_split(&seed, c->outlen - done);
        shake128_squeeze(&s, out + done, n);
    }
}

static const unsigned rates[RS_NFUNCTIONS] = {144, 136, 104, 72, 136, 168, 136, 168, 136, 0};
static const uint8_t suffixes[RS_NFUNCTIONS] = {0x06, 0x06, 0x06, 0x06, 0x01, 0x1F, 0x1F, 0, 0,
                                                0};

/* A sponge written the way XKCP's high-level code drives SnP: fast loop for whole blocks,
 * AddBytes for the rest, the delimited suffix and the final bit, then ExtractBytes. */
static void snp_sponge(const struct rs_sponge_case *c, const uint8_t *in, size_t inlen,
                       uint8_t *out)
{
    KeccakP1600_state state;
    unsigned rate = rates[c->function];
    unsigned rounds = (c->function == RS_TURBOSHAKE128 || c->function == RS_TURBOSHAKE256) ? 12
                                                                                          : 24;
    uint8_t suffix = rounds == 12 ? (uint8_t)c->domain : suffixes[c->function];
    size_t outlen = c->outlen, take;

    KeccakP1600_StaticInitialize();
    KeccakP1600_Initialize(&state);
    while (inlen >= rate) {
        size_t n = rounds == 24 ? KeccakF1600_FastLoop_Absorb(&state, rate / 8, in, inlen)
                                : KeccakP1600_12rounds_FastLoop_Absorb(&state, rate / 8, in,
                                                                       inlen);
        ck_assert_uint_eq(n % rate, 0);
        ck_assert_uint_gt(n, 0);
        in += n;
        inlen -= n;
    }
    KeccakP1600_AddBytes(&state, in, 0, (unsigned)inlen);
    KeccakP1600_AddByte(&state, suffix, (unsigned)inlen);
    KeccakP1600_AddByte(&state, 0x80, rate - 1);
    for (;;) {
        KeccakP1600_Permute_Nrounds(&state, rounds);
        take = outlen < rate ? outlen : rate;
        if (outlen & 1) {
            KeccakP1600_ExtractBytes(&state, out, 0, (unsigned)take);
        } else {
            /* ExtractAndAddBytes onto zeros must give the same bytes. */
            memset(out, 0, take);
            KeccakP1600_ExtractAndAddBytes(&state, out, out, 0, (unsigned)take);
        }
        out += take;
        outlen -= take;
        if (!outlen)
            break;
    }
}

struct prepared {
    uint8_t *in, *custom, *expected, *out;
    size_t inlen, customlen;
};

static struct prepared prepare(const struct rs_sponge_case *c)
{
    struct prepared p;
    p.in = message(&c->message);
    p.inlen = c->message.length;
    p.custom = message(&c->custom);
    p.customlen = c->custom.length;
    p.expected = from_hex(c->expected, c->outlen - c->check_from);
    p.out = malloc(c->outlen + 1);
    ck_assert_ptr_nonnull(p.out);
    memset(p.out, 0xA5, c->outlen + 1);
    return p;
}

static void check_and_free(const struct rs_sponge_case *c, struct prepared *p, const char *how)
{
    ck_assert_msg(memcmp(p->out + c->check_from, p->expected, c->outlen - c->check_from) == 0,
                  "%s (%s): %s", rs_sponge_function_names[c->function], how, c->source);
    ck_assert_msg(p->out[c->outlen] == 0xA5, "%s wrote past the output: %s", how, c->source);
    free(p->in);
    free(p->custom);
    free(p->expected);
    free(p->out);
}

START_TEST(test_one_shot)
{
    const struct rs_sponge_case *c = &rs_sponge_cases[_i];
    struct prepared p = prepare(c);
    one_shot(c, p.in, p.inlen, p.custom, p.customlen, p.out);
    check_and_free(c, &p, "one-shot");
}
END_TEST

START_TEST(test_incremental)
{
    const struct rs_sponge_case *c = &rs_sponge_cases[_i];
    struct prepared p = prepare(c);
    incremental(c, p.in, p.inlen, p.custom, p.customlen, p.out, 0x9E3779B97F4A7C15ull ^ _i);
    check_and_free(c, &p, "incremental, uneven pieces");
}
END_TEST

START_TEST(test_snp)
{
    const struct rs_sponge_case *c = &rs_sponge_cases[_i];
    struct prepared p;
    if (c->function == RS_KT128)
        return; /* a tree mode, not one sponge */
    p = prepare(c);
    snp_sponge(c, p.in, p.inlen, p.out);
    check_and_free(c, &p, "XKCP SnP interface");
}
END_TEST

/* NULL with length 0 is the empty message; NULL output with length 0 writes nothing. */
START_TEST(test_null_and_empty)
{
    uint8_t a[64], b[64];
    keccak_sponge s;
    kt128_ctx kt;

    sha3_256(a, NULL, 0);
    sha3_256(b, (const uint8_t *)"", 0);
    ck_assert_mem_eq(a, b, 32);
    shake128(NULL, 0, NULL, 0);
    shake128_init(&s);
    shake128_absorb(&s, NULL, 0);
    shake128_squeeze(&s, NULL, 0);
    shake128_squeeze(&s, a, 64);
    shake128(b, 64, NULL, 0);
    ck_assert_mem_eq(a, b, 64);
    kt128(a, 32, NULL, 0, NULL, 0);
    kt128_init(&kt);
    kt128_update(&kt, NULL, 0);
    kt128_final(&kt, NULL, 0, b, 32);
    ck_assert_mem_eq(a, b, 32);
    kt128(NULL, 0, NULL, 0, NULL, 0);
    kt128_init(&kt);
    kt128_final(&kt, NULL, 0, NULL, 0);
}
END_TEST

/* Every other entry point with NULL and length 0: the same bytes as an empty buffer. */
START_TEST(test_null_every_function)
{
    static const uint8_t nothing[1];
    uint8_t a[64], b[64];
    keccak_sponge s;

#define RS_HASH_NULL(f, n) \
    f(a, NULL, 0); \
    f##_init(&s); \
    f##_update(&s, NULL, 0); \
    f##_update(&s, nothing, 0); \
    f##_final(&s, b); \
    ck_assert_mem_eq(a, b, n); \
    f(b, nothing, 0); \
    ck_assert_mem_eq(a, b, n)
    RS_HASH_NULL(sha3_224, 28);
    RS_HASH_NULL(sha3_256, 32);
    RS_HASH_NULL(sha3_384, 48);
    RS_HASH_NULL(sha3_512, 64);
    RS_HASH_NULL(keccak256, 32);
#define RS_XOF_NULL(f, ...) \
    f(a, 64, NULL, 0 __VA_ARGS__); \
    f(NULL, 0, NULL, 0 __VA_ARGS__); \
    f##_init(&s __VA_ARGS__); \
    f##_absorb(&s, NULL, 0); \
    f##_squeeze(&s, NULL, 0); \
    f##_squeeze(&s, b, 64); \
    f##_squeeze(&s, NULL, 0); \
    ck_assert_mem_eq(a, b, 64)
    RS_XOF_NULL(shake128, );
    RS_XOF_NULL(shake256, );
    RS_XOF_NULL(turboshake128, , 0x1F);
    RS_XOF_NULL(turboshake256, , 0x07);
}
END_TEST

/* Absorbing after the first squeeze is documented to be ignored. */
START_TEST(test_absorb_after_squeeze_ignored)
{
    uint8_t a[100], b[100];
    keccak_sponge s;
    shake256(a, 100, (const uint8_t *)"abc", 3);
    shake256_init(&s);
    shake256_absorb(&s, (const uint8_t *)"abc", 3);
    shake256_squeeze(&s, b, 10);
    shake256_absorb(&s, (const uint8_t *)"more", 4);
    shake256_squeeze(&s, b + 10, 90);
    ck_assert_mem_eq(a, b, 100);
}
END_TEST

/* Every SnP byte operation at every offset, against a plain byte array model. */
START_TEST(test_snp_bytes)
{
    KeccakP1600_state state;
    uint8_t model[200], data[256], got[200];
    unsigned offset = (unsigned)_i, length, k;

    for (k = 0; k < sizeof data; k++)
        data[k] = (uint8_t)(k * 7 + 3);
    for (length = 0; offset + length <= 200; length += 13) {
        KeccakP1600_Initialize(&state);
        KeccakP1600_AddBytes(&state, data, 0, 200);
        memcpy(model, data, 200);
        KeccakP1600_OverwriteBytes(&state, data + 50, offset, length);
        memcpy(model + offset, data + 50, length);
        KeccakP1600_ExtractBytes(&state, got, 0, 200);
        ck_assert_mem_eq(got, model, 200);
        KeccakP1600_AddByte(&state, 0x5A, offset);
        model[offset] ^= 0x5A;
        KeccakP1600_OverwriteWithZeroes(&state, offset);
        memset(model, 0, offset);
        KeccakP1600_ExtractBytes(&state, got + offset, offset, 200 - offset);
        KeccakP1600_ExtractBytes(&state, got, 0, offset);
        ck_assert_mem_eq(got, model, 200);
    }
}
END_TEST

/* The byte model of a state: byte i is bits 8(i mod 8) .. of lane i / 8 (FIPS 202 order). */
static void state_bytes(const KeccakP1600_state *state, uint8_t out[200])
{
    unsigned i;
    for (i = 0; i < 200; i++)
        out[i] = (uint8_t)(state->A[i / 8] >> (8 * (i % 8)));
}

static void random_state(KeccakP1600_state *state, uint64_t seed)
{
    unsigned i;
    for (i = 0; i < 25; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        state->A[i] = seed ^ (seed >> 29);
    }
}

/* Every SnP byte function at offset _i (0..200) and every length that fits, data and output at
 * every alignment, against the byte model: the bytes in range as the function says, every
 * other state byte unchanged, nothing written outside the output. */
START_TEST(test_snp_bytes_every_range)
{
    KeccakP1600_state state;
    uint8_t before[200], model[200], got[200], data[216], out[216], want[216];
    unsigned offset = (unsigned)_i, length, k, shift;

    for (k = 0; k < sizeof data; k++)
        data[k] = (uint8_t)(k * 151u + offset * 7u + 1u);
    for (length = 0; offset + length <= 200; length++) {
        const uint8_t *in = data + (length + offset) % 8;
        shift = (length * 3u + offset) % 8;

        random_state(&state, 0x9E3779B97F4A7C15ULL * (offset * 201u + length + 1u));
        state_bytes(&state, before);
        KeccakP1600_AddBytes(&state, in, offset, length);
        memcpy(model, before, 200);
        for (k = 0; k < length; k++)
            model[offset + k] ^= in[k];
        state_bytes(&state, got);
        ck_assert_msg(memcmp(got, model, 200) == 0, "AddBytes at %u, %u bytes", offset, length);

        random_state(&state, 0xC2B2AE3D27D4EB4FULL * (offset * 201u + length + 1u));
        state_bytes(&state, before);
        KeccakP1600_OverwriteBytes(&state, in, offset, length);
        memcpy(model, before, 200);
        memcpy(model + offset, in, length);
        state_bytes(&state, got);
        ck_assert_msg(memcmp(got, model, 200) == 0, "OverwriteBytes at %u, %u bytes", offset,
                      length);

        memset(out, 0xA5, sizeof out);
        KeccakP1600_ExtractBytes(&state, out + shift, offset, length);
        memset(want, 0xA5, sizeof want);
        memcpy(want + shift, model + offset, length);
        ck_assert_msg(memcmp(out, want, sizeof out) == 0, "ExtractBytes at %u, %u bytes", offset,
                      length);

        memset(out, 0xA5, sizeof out);
        KeccakP1600_ExtractAndAddBytes(&state, in, out + shift, offset, length);
        memset(want, 0xA5, sizeof want);
        for (k = 0; k < length; k++)
            want[shift + k] = (uint8_t)(model[offset + k] ^ in[k]);
        ck_assert_msg(memcmp(out, want, sizeof out) == 0, "ExtractAndAddBytes at %u, %u bytes",
                      offset, length);

        /* In place, as XKCP's duplex code calls it. */
        memcpy(out, in, length);
        KeccakP1600_ExtractAndAddBytes(&state, out, out, offset, length);
        ck_assert_msg(memcmp(out, want + shift, length) == 0,
                      "ExtractAndAddBytes in place at %u, %u bytes", offset, length);
        state_bytes(&state, got);
        ck_assert_msg(memcmp(got, model, 200) == 0, "an extraction at %u changed the state",
                      offset);
    }
    /* OverwriteWithZeroes(byteCount = offset). */
    random_state(&state, 0x165667B19E3779F9ULL * (offset + 1u));
    state_bytes(&state, model);
    memset(model, 0, offset);
    KeccakP1600_OverwriteWithZeroes(&state, offset);
    state_bytes(&state, got);
    ck_assert_msg(memcmp(got, model, 200) == 0, "OverwriteWithZeroes(%u)", offset);
}
END_TEST

/* XKCP's duplexing loops as KeccakOD.inc falls back to them (SnP byte functions and the
 * permutation), the truth for the ODDuplexingFast* functions. */
static size_t od_fallback(KeccakP1600_state *state, unsigned lanes, unsigned rounds,
                          const uint8_t *in, uint8_t *out, const uint8_t *add, size_t len,
                          const uint8_t trailenc[8], int strict)
{
    unsigned r = 8 * lanes;
    size_t done = 0;
    while (strict ? len - done > r : len - done >= r) {
        if (in) {
            KeccakP1600_OverwriteBytes(state, in + done, 0, r);
        } else {
            KeccakP1600_OverwriteWithZeroes(state, r);
            KeccakP1600_AddByte(state, 1, 0);
        }
        KeccakP1600_AddBytes(state, trailenc, r, 8);
        KeccakP1600_Permute_Nrounds(state, rounds);
        if (out)
            KeccakP1600_ExtractAndAddBytes(state, add + done, out + done, 0, r);
        done += r;
    }
    return done;
}

static const unsigned od_lanes[] = {1, 9, 16, 17, 20, 21, 24};
#define OD_CASES (sizeof od_lanes / sizeof od_lanes[0] * 2 * 3)

/* One loop index per (rate, rounds, function); lengths with a partial block left over, and
 * exactly one block (FastIn then does nothing). */
START_TEST(test_snp_od_duplexing)
{
    unsigned lanes = od_lanes[_i / 6], rounds = (_i / 3) % 2 ? 12 : 24, fn = (unsigned)_i % 3;
    uint8_t in[4 * 200 + 3], add[4 * 200 + 3], got[4 * 200 + 3], want[4 * 200 + 3];
    /* As XKCP builds it: the domain byte, zeros, 0x80 + a separator. */
    const uint8_t trailenc[8] = {0x4A, 0, 0, 0, 0, 0, 0, 0x9F};
    KeccakP1600_state a, b;
    size_t lens[3], k, n, m;
    uint64_t trail;
    unsigned t;

    lens[0] = 3 * 8 * (size_t)lanes + 5;
    lens[1] = 8 * (size_t)lanes;
    lens[2] = 2;
    memcpy(&trail, trailenc, 8);
    for (k = 0; k < sizeof in; k++) {
        in[k] = (uint8_t)(k * 29u + lanes);
        add[k] = (uint8_t)(k * 71u + 3u);
    }
    for (t = 0; t < 3; t++) {
        random_state(&a, 77u * lanes + rounds + t);
        b = a;
        memset(got, 0xA5, sizeof got);
        memset(want, 0xA5, sizeof want);
        if (fn == 0) {
            n = rounds == 24
                    ? KeccakP1600_ODDuplexingFastInOut(&a, lanes, in + 1, lens[t], got + 1,
                                                       add + 2, trail)
                    : KeccakP1600_12rounds_ODDuplexingFastInOut(&a, lanes, in + 1, lens[t],
                                                                got + 1, add + 2, trail);
            m = od_fallback(&b, lanes, rounds, in + 1, want + 1, add + 2, lens[t], trailenc, 0);
        } else if (fn == 1) {
            n = rounds == 24
                    ? KeccakP1600_ODDuplexingFastOut(&a, lanes, got + 1, lens[t], add + 2, trail)
                    : KeccakP1600_12rounds_ODDuplexingFastOut(&a, lanes, got + 1, lens[t],
                                                              add + 2, trail);
            m = od_fallback(&b, lanes, rounds, NULL, want + 1, add + 2, lens[t], trailenc, 0);
        } else {
            n = rounds == 24
                    ? KeccakP1600_ODDuplexingFastIn(&a, lanes, in + 1, lens[t], trail)
                    : KeccakP1600_12rounds_ODDuplexingFastIn(&a, lanes, in + 1, lens[t], trail);
            m = od_fallback(&b, lanes, rounds, in + 1, NULL, NULL, lens[t], trailenc, 1);
        }
        ck_assert_uint_eq(n, m);
        ck_assert_msg(memcmp(a.A, b.A, sizeof a.A) == 0,
                      "ODDuplexingFast (%u) %u lanes, %u rounds, %zu bytes: state", fn, lanes,
                      rounds, lens[t]);
        ck_assert_msg(memcmp(got, want, sizeof got) == 0,
                      "ODDuplexingFast (%u) %u lanes, %u rounds, %zu bytes: output", fn, lanes,
                      rounds, lens[t]);
    }
    /* Rates the interface cannot take are refused, so XKCP falls back. */
    ck_assert_uint_eq(KeccakP1600_ODDuplexingFastInOut(&a, 0, in, sizeof in, got, add, trail),
                      0);
    ck_assert_uint_eq(KeccakP1600_ODDuplexingFastOut(&a, 25, got, sizeof got, add, trail), 0);
    ck_assert_uint_eq(KeccakP1600_12rounds_ODDuplexingFastIn(&a, 25, in, sizeof in, trail), 0);
}
END_TEST

/* KT256 and SP 800-185: one case one way; `shift` moves every input and the output off
 * their allocation's alignment. */
static void sp_case(int i, enum rs_sp_way way, size_t shift)
{
    const struct rs_sp_case *c = &rs_sp_cases[i];
    uint8_t *in = message(&c->message), *key = message(&c->key), *custom = message(&c->custom);
    uint8_t *want = from_hex(c->expected, c->outlen - c->check_from);
    uint8_t *bin = malloc(c->message.length + shift + 1), *bkey = malloc(c->key.length + shift + 1);
    uint8_t *bcustom = malloc(c->custom.length + shift + 1), *out = malloc(c->outlen + shift + 1);
    int r;

    ck_assert(bin && bkey && bcustom && out);
    memcpy(bin + shift, in, c->message.length);
    memcpy(bkey + shift, key, c->key.length);
    memcpy(bcustom + shift, custom, c->custom.length);
    memset(out, 0xA5, c->outlen + shift + 1);
    r = rs_sp_run(c, bin + shift, bkey + shift, bcustom + shift, out + shift, way,
                  0x9E3779B97F4A7C15ull ^ (uint64_t)i);
    if (r >= 0) {
        ck_assert_msg(r == 0, "%s refused: %s", rs_sp_function_names[c->function], c->source);
        ck_assert_msg(memcmp(out + shift + c->check_from, want, c->outlen - c->check_from) == 0,
                      "%s (%s, shift %u): %s", rs_sp_function_names[c->function],
                      way == RS_SP_ONE_SHOT ? "one-shot" : "incremental", (unsigned)shift,
                      c->source);
        ck_assert_msg(out[shift + c->outlen] == 0xA5 && (shift == 0 || out[shift - 1] == 0xA5),
                      "wrote outside the output: %s", c->source);
    }
    free(in);
    free(key);
    free(custom);
    free(want);
    free(bin);
    free(bkey);
    free(bcustom);
    free(out);
}

START_TEST(test_sp_one_shot)
{
    sp_case(_i, RS_SP_ONE_SHOT, 0);
}
END_TEST

START_TEST(test_sp_pieces)
{
    sp_case(_i, RS_SP_PIECES, 0);
}
END_TEST

START_TEST(test_sp_unaligned)
{
    sp_case(_i, _i % 2 ? RS_SP_PIECES : RS_SP_ONE_SHOT, 1 + (size_t)_i % 7);
}
END_TEST

/* NULL with length 0 is the empty string in every position, and a NULL output of length 0
 * writes nothing. */
START_TEST(test_sp_null_and_empty)
{
    static const uint8_t nothing[1];
    uint8_t a[64], b[64];
    keccak_sponge s;
    kt256_ctx kt;
    parallelhash_ctx ph;

    kt256(a, 64, NULL, 0, NULL, 0);
    kt256_init(&kt);
    kt256_update(&kt, NULL, 0);
    kt256_final(&kt, NULL, 0, b, 64);
    ck_assert_mem_eq(a, b, 64);
    kt256(NULL, 0, NULL, 0, NULL, 0);
    cshake128(a, 64, NULL, 0, NULL, 0, NULL, 0);
    shake128(b, 64, nothing, 0);
    ck_assert_mem_eq(a, b, 64);
    cshake256(a, 64, NULL, 0, NULL, 0, nothing, 0);
    shake256(b, 64, NULL, 0);
    ck_assert_mem_eq(a, b, 64);
    cshake128(NULL, 0, NULL, 0, nothing, 1, NULL, 0);
    kmac256(a, 64, NULL, 0, NULL, 0, NULL, 0);
    kmac256_init(&s, nothing, 0, NULL, 0);
    kmac256_update(&s, NULL, 0);
    kmac256_final(&s, b, 64);
    ck_assert_mem_eq(a, b, 64);
    kmacxof128(NULL, 0, NULL, 0, NULL, 0, NULL, 0);
    tuplehash128(a, 32, NULL, NULL, 0, NULL, 0);
    tuplehash128_init(&s, NULL, 0);
    tuplehash128_final(&s, b, 32);
    ck_assert_mem_eq(a, b, 32);
    {
        const uint8_t *parts[2] = {NULL, nothing};
        const size_t lens[2] = {0, 0};
        tuplehashxof256(a, 64, parts, lens, 2, NULL, 0);
        tuplehash256_init(&s, NULL, 0);
        tuplehash256_add(&s, NULL, 0);
        tuplehash256_add(&s, NULL, 0);
        tuplehash256_squeeze(&s, b, 64);
        ck_assert_mem_eq(a, b, 64);
    }
    ck_assert_int_eq(parallelhash128(a, 32, NULL, 0, 8192, NULL, 0), 0);
    ck_assert_int_eq(parallelhash128_init(&ph, 8192, nothing, 0), 0);
    parallelhash128_update(&ph, NULL, 0);
    parallelhash128_final(&ph, b, 32);
    ck_assert_mem_eq(a, b, 32);
    ck_assert_int_eq(parallelhashxof256(NULL, 0, NULL, 0, 1, NULL, 0), 0);
}
END_TEST

/* blocksize 0 is refused by the documented rule: -1, zeros out, input ignored. */
START_TEST(test_sp_blocksize_zero)
{
    static const uint8_t msg[3] = {1, 2, 3};
    uint8_t out[40], zero[40];
    parallelhash_ctx ph;

    memset(zero, 0, sizeof zero);
    memset(out, 0xA5, sizeof out);
    ck_assert_int_eq(parallelhash128(out, 32, msg, 3, 0, NULL, 0), -1);
    ck_assert_mem_eq(out, zero, 32);
    ck_assert_uint_eq(out[32], 0xA5);
    memset(out, 0xA5, sizeof out);
    ck_assert_int_eq(parallelhashxof256(out, 40, NULL, 0, 0, msg, 3), -1);
    ck_assert_mem_eq(out, zero, 40);
    ck_assert_int_eq(parallelhash256(NULL, 0, NULL, 0, 0, NULL, 0), -1);
    ck_assert_int_eq(parallelhash256_init(&ph, 0, msg, 3), -1);
    parallelhash256_update(&ph, msg, 3);
    memset(out, 0xA5, sizeof out);
    parallelhash256_squeeze(&ph, out, 7);
    parallelhash256_squeeze(&ph, out + 7, 0);
    parallelhash256_final(&ph, out + 7, 33);
    ck_assert_mem_eq(out, zero, 40);
}
END_TEST

/* Input after the first final or squeeze is ignored; an XOF squeezed in pieces gives the
 * bytes of one squeeze. */
START_TEST(test_sp_after_squeeze)
{
    static const uint8_t msg[5] = {9, 8, 7, 6, 5};
    uint8_t a[300], b[300];
    keccak_sponge s;
    parallelhash_ctx ph;

    kmacxof128(a, 300, msg, 5, msg, 5, msg, 2);
    kmac128_init(&s, msg, 5, msg, 2);
    kmac128_update(&s, msg, 5);
    kmac128_squeeze(&s, b, 1);
    kmac128_update(&s, msg, 5);
    kmac128_squeeze(&s, b + 1, 299);
    ck_assert_mem_eq(a, b, 300);
    tuplehashxof128(a, 300, NULL, NULL, 0, msg, 1);
    tuplehash128_init(&s, msg, 1);
    tuplehash128_squeeze(&s, b, 170);
    tuplehash128_add(&s, msg, 5);
    tuplehash128_squeeze(&s, b + 170, 130);
    ck_assert_mem_eq(a, b, 300);
    ck_assert_int_eq(parallelhashxof128(a, 300, msg, 5, 2, NULL, 0), 0);
    ck_assert_int_eq(parallelhash128_init(&ph, 2, NULL, 0), 0);
    parallelhash128_update(&ph, msg, 5);
    parallelhash128_squeeze(&ph, b, 168);
    parallelhash128_update(&ph, msg, 5);
    parallelhash128_squeeze(&ph, b + 168, 132);
    ck_assert_mem_eq(a, b, 300);
}
END_TEST

static Suite *sponge_suite(void)
{
    Suite *s = suite_create("sponge (" RS_COMPILER ")");
    TCase *tc;

    tc = tcase_create("one-shot");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_one_shot, 0, (int)RS_SPONGE_NCASES);
    suite_add_tcase(s, tc);

    tc = tcase_create("incremental");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_incremental, 0, (int)RS_SPONGE_NCASES);
    suite_add_tcase(s, tc);

    tc = tcase_create("XKCP SnP interface");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_snp, 0, (int)RS_SPONGE_NCASES);
    tcase_add_loop_test(tc, test_snp_bytes, 0, 200);
    tcase_add_loop_test(tc, test_snp_bytes_every_range, 0, 201);
    tcase_add_loop_test(tc, test_snp_od_duplexing, 0, (int)OD_CASES);
    suite_add_tcase(s, tc);

    tc = tcase_create("KT256 and SP 800-185");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_sp_one_shot, 0, (int)RS_SP_NCASES);
    tcase_add_loop_test(tc, test_sp_pieces, 0, (int)RS_SP_NCASES);
    tcase_add_loop_test(tc, test_sp_unaligned, 0, (int)RS_SP_NCASES);
    tcase_add_test(tc, test_sp_null_and_empty);
    tcase_add_test(tc, test_sp_blocksize_zero);
    tcase_add_test(tc, test_sp_after_squeeze);
    suite_add_tcase(s, tc);

    tc = tcase_create("API edges");
    tcase_add_test(tc, test_null_and_empty);
    tcase_add_test(tc, test_null_every_function);
    tcase_add_test(tc, test_absorb_after_squeeze_ignored);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sponge_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
