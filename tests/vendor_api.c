/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Every public function of a bundle against the vectors, with nothing but a C library: no
 * Check, no fork, no POSIX, so the same program runs natively, under qemu-user and under
 * wine (the Windows x64 build of tests/e2e_windows.py). Include path: the bundle folder
 * and a testsuite folder with sponge_vectors.h, keccak_vectors.h and chacha_vectors.h (and
 * tests/ for sp800185_run.h). TAP
 * output, one line per function group; exit status 1 if any check failed.
 *
 * Build with -DRS_VENDOR_NO_KECCAK or -DRS_VENDOR_NO_CHACHA for a bundle cut down by
 * --kernels.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roundsmith.h"

#ifndef RS_VENDOR_NO_KECCAK
#include "keccak_vectors.h"
#include "sponge_vectors.h"
#include "sp800185_run.h"
#endif
#ifndef RS_VENDOR_NO_CHACHA
#include "chacha_vectors.h"
#endif

static unsigned tests, failed_total;

/* One TAP line for a group: `bad` of `n` checks failed. */
static void report(const char *what, unsigned n, unsigned bad)
{
    tests++;
    if (bad)
        failed_total++;
    printf("%s %u - %s on path %s: %u checks%s\n", bad ? "not ok" : "ok", tests, what,
           rs_path_name(), n, bad ? ", some failed (see above)" : "");
    fflush(stdout);
}

static int fail(const char *what, const char *detail)
{
    printf("# FAILED %s: %s\n", what, detail);
    return 1;
}

#ifndef RS_VENDOR_NO_KECCAK
static uint8_t *from_hex(const char *hex, size_t len)
{
    uint8_t *out = (uint8_t *)malloc(len ? len : 1);
    size_t k;
    if (!out)
        abort();
    for (k = 0; k < len; k++) {
        unsigned v;
        if (sscanf(hex + 2 * k, "%2x", &v) != 1)
            abort();
        out[k] = (uint8_t)v;
    }
    return out;
}

static uint8_t *message(const struct rs_message *m)
{
    uint8_t *out;
    size_t k;
    if (m->kind == 'h')
        return from_hex(m->hex, m->length);
    out = (uint8_t *)malloc(m->length ? m->length : 1);
    if (!out)
        abort();
    for (k = 0; k < m->length; k++)
        out[k] = m->kind == 'p' ? (uint8_t)(k % 251) : 0xFF;
    return out;
}

/* Uneven split sizes, different per case. */
static size_t next_split(uint64_t *s, size_t left)
{
    size_t n;
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    n = (size_t)(*s % ((*s >> 32) % 3 == 0 ? 7 : (*s >> 32) % 3 == 1 ? 300 : 9000));
    return n < left ? n : left;
}

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
    default: kt128(out, c->outlen, in, inlen, custom, customlen); break;
    }
}

/* Each function's own init / update-absorb / final-squeeze, in uneven pieces. */
static void incremental(const struct rs_sponge_case *c, const uint8_t *in, size_t inlen,
                        const uint8_t *custom, size_t customlen, uint8_t *out, uint64_t seed)
{
    keccak_sponge s;
    kt128_ctx kt;
    size_t done, n;
    enum rs_sponge_function f = c->function;

    switch (f) {
    case RS_SHA3_224: sha3_224_init(&s); break;
    case RS_SHA3_256: sha3_256_init(&s); break;
    case RS_SHA3_384: sha3_384_init(&s); break;
    case RS_SHA3_512: sha3_512_init(&s); break;
    case RS_KECCAK256: keccak256_init(&s); break;
    case RS_SHAKE128: shake128_init(&s); break;
    case RS_SHAKE256: shake256_init(&s); break;
    case RS_TURBOSHAKE128: turboshake128_init(&s, (uint8_t)c->domain); break;
    case RS_TURBOSHAKE256: turboshake256_init(&s, (uint8_t)c->domain); break;
    default: kt128_init(&kt); break;
    }
    for (done = 0; done < inlen; done += n) {
        n = next_split(&seed, inlen - done);
        switch (f) {
        case RS_SHA3_224: sha3_224_update(&s, in + done, n); break;
        case RS_SHA3_256: sha3_256_update(&s, in + done, n); break;
        case RS_SHA3_384: sha3_384_update(&s, in + done, n); break;
        case RS_SHA3_512: sha3_512_update(&s, in + done, n); break;
        case RS_KECCAK256: keccak256_update(&s, in + done, n); break;
        case RS_SHAKE128: shake128_absorb(&s, in + done, n); break;
        case RS_SHAKE256: shake256_absorb(&s, in + done, n); break;
        case RS_TURBOSHAKE128: turboshake128_absorb(&s, in + done, n); break;
        case RS_TURBOSHAKE256: turboshake256_absorb(&s, in + done, n); break;
        default: kt128_update(&kt, in + done, n); break;
        }
    }
    switch (f) {
    case RS_SHA3_224: sha3_224_final(&s, out); return;
    case RS_SHA3_256: sha3_256_final(&s, out); return;
    case RS_SHA3_384: sha3_384_final(&s, out); return;
    case RS_SHA3_512: sha3_512_final(&s, out); return;
    case RS_KECCAK256: keccak256_final(&s, out); return;
    case RS_KT128: kt128_final(&kt, custom, customlen, out, c->outlen); return;
    default: break;
    }
    for (done = 0; done < c->outlen; done += n) {
        n = next_split(&seed, c->outlen - done);
        switch (f) {
        case RS_SHAKE128: shake128_squeeze(&s, out + done, n); break;
        case RS_SHAKE256: shake256_squeeze(&s, out + done, n); break;
        case RS_TURBOSHAKE128: turboshake128_squeeze(&s, out + done, n); break;
        default: turboshake256_squeeze(&s, out + done, n); break;
        }
    }
}

static const unsigned rates[RS_NFUNCTIONS] = {144, 136, 104, 72, 136, 168, 136, 168, 136, 0};
static const uint8_t suffixes[RS_NFUNCTIONS] = {0x06, 0x06, 0x06, 0x06, 0x01, 0x1F, 0x1F, 0, 0,
                                                0};

/* The sponge as XKCP's high-level code drives SnP: every SnP function takes part. */
static void snp_sponge(const struct rs_sponge_case *c, const uint8_t *in, size_t inlen,
                       uint8_t *out)
{
    KeccakP1600_state state;
    unsigned rate = rates[c->function];
    unsigned rounds = (c->function == RS_TURBOSHAKE128 || c->function == RS_TURBOSHAKE256) ? 12
                                                                                          : 24;
    uint8_t suffix = rounds == 12 ? (uint8_t)c->domain : suffixes[c->function];
    size_t outlen = c->outlen, take;
    uint8_t zero[200];

    memset(zero, 0, sizeof zero);
    KeccakP1600_Initialize(&state);
    /* Overwriting zeros with zeros, and zeroing, leave the fresh state as it is. */
    KeccakP1600_OverwriteBytes(&state, zero, 0, 200);
    KeccakP1600_OverwriteWithZeroes(&state, 200);
    while (inlen >= rate) {
        size_t n = rounds == 24 ? KeccakF1600_FastLoop_Absorb(&state, rate / 8, in, inlen)
                                : KeccakP1600_12rounds_FastLoop_Absorb(&state, rate / 8, in,
                                                                       inlen);
        in += n;
        inlen -= n;
    }
    KeccakP1600_AddBytes(&state, in, 0, (unsigned)inlen);
    KeccakP1600_AddByte(&state, suffix, (unsigned)inlen);
    KeccakP1600_AddByte(&state, 0x80, rate - 1);
    for (;;) {
        if (rounds == 24)
            KeccakP1600_Permute_24rounds(&state);
        else if (outlen & 2)
            KeccakP1600_Permute_12rounds(&state);
        else
            KeccakP1600_Permute_Nrounds(&state, 12);
        take = outlen < rate ? outlen : rate;
        if (outlen & 1) {
            KeccakP1600_ExtractBytes(&state, out, 0, (unsigned)take);
        } else {
            memset(out, 0, take);
            KeccakP1600_ExtractAndAddBytes(&state, out, out, 0, (unsigned)take);
        }
        out += take;
        outlen -= take;
        if (!outlen)
            break;
    }
}

static void sponge_vectors(void)
{
    unsigned k, n = 0, bad = 0, way;
    for (k = 0; k < RS_SPONGE_NCASES; k++) {
        const struct rs_sponge_case *c = &rs_sponge_cases[k];
        uint8_t *in = message(&c->message), *custom = message(&c->custom);
        uint8_t *want = from_hex(c->expected, c->outlen - c->check_from);
        uint8_t *out = (uint8_t *)malloc(c->outlen + 1);
        if (!out)
            abort();
        for (way = 0; way < 3; way++) {
            if (way == 2 && c->function == RS_KT128)
                continue; /* a tree of sponges, not one */
            memset(out, 0xA5, c->outlen + 1);
            if (way == 0)
                one_shot(c, in, c->message.length, custom, c->custom.length, out);
            else if (way == 1)
                incremental(c, in, c->message.length, custom, c->custom.length, out,
                            0x9E3779B97F4A7C15ull ^ k);
            else
                snp_sponge(c, in, c->message.length, out);
            n++;
            if (memcmp(out + c->check_from, want, c->outlen - c->check_from) != 0 ||
                out[c->outlen] != 0xA5)
                bad += fail(way == 0 ? "one-shot" : way == 1 ? "incremental" : "SnP", c->source);
        }
        free(in);
        free(custom);
        free(want);
        free(out);
    }
    report("sponge functions (one-shot, incremental, SnP) and KT128", n, bad);
}

/* KT256 and SP 800-185: every case one-shot and incremental in uneven pieces. */
static void sp_vectors(void)
{
    unsigned k, n = 0, bad = 0;
    int way;
    for (k = 0; k < RS_SP_NCASES; k++) {
        const struct rs_sp_case *c = &rs_sp_cases[k];
        uint8_t *in = message(&c->message), *key = message(&c->key);
        uint8_t *custom = message(&c->custom);
        uint8_t *want = from_hex(c->expected, c->outlen - c->check_from);
        uint8_t *out = (uint8_t *)malloc(c->outlen + 1);
        if (!out)
            abort();
        for (way = RS_SP_ONE_SHOT; way <= RS_SP_PIECES; way++) {
            memset(out, 0xA5, c->outlen + 1);
            if (rs_sp_run(c, in, key, custom, out, (enum rs_sp_way)way,
                          0x9E3779B97F4A7C15ull ^ k) < 0)
                continue; /* a block size this platform's size_t cannot hold */
            n++;
            if (memcmp(out + c->check_from, want, c->outlen - c->check_from) != 0 ||
                out[c->outlen] != 0xA5)
                bad += fail(way == RS_SP_ONE_SHOT ? "one-shot" : "incremental", c->source);
        }
        free(in);
        free(key);
        free(custom);
        free(want);
        free(out);
    }
    report("KT256, cSHAKE, KMAC, TupleHash, ParallelHash (one-shot, incremental)", n, bad);
}

static void keccak_vectors(void)
{
    unsigned k, n = 0, bad = 0;
    for (k = 0; k < RS_KECCAK_NCASES; k++) {
        const struct rs_keccak_case *c = &rs_keccak_cases[k];
        uint64_t st[25], lanes[25];
        uint8_t block[8 * 25];
        unsigned i, j;
        memcpy(st, c->in, sizeof st);
        if (c->rounds == 24)
            keccak_f1600(st);
        else
            keccak_p1600(st, c->rounds);
        n++;
        if (memcmp(st, c->out, sizeof st) != 0)
            bad += fail("keccak_p1600", c->name);
        if (c->rounds != 24 && c->rounds != 12)
            continue;
        /* The block loop from a zero state with the input as one block of 25 lanes. */
        for (i = 0; i < 25; i++)
            for (j = 0; j < 8; j++)
                block[8 * i + j] = (uint8_t)(c->in[i] >> (8 * j));
        memset(lanes, 0, sizeof lanes);
        n++;
        if (keccak_p1600_absorb(lanes, c->rounds, 25, block, sizeof block) != sizeof block ||
            memcmp(lanes, c->out, sizeof lanes) != 0)
            bad += fail("keccak_p1600_absorb", c->name);
    }
    report("keccak_f1600, keccak_p1600, keccak_p1600_absorb", n, bad);
}

/* The multi-state kernels of the path in use: every instance against keccak_p1600. */
#define RS_XN_CHECK(N) \
    do { \
        uint64_t sep[N][25], want[N][25], states[25][N]; \
        unsigned j, i, r; \
        for (r = 0; r <= 24; r++) { \
            for (j = 0; j < N; j++) \
                for (i = 0; i < 25; i++) \
                    sep[j][i] = want[j][i] = 0x9E3779B97F4A7C15ull * (i + 25 * j + 1) ^ r; \
            keccak_x##N##_interleave(states, (const uint64_t (*)[25])sep); \
            if (r == 24) \
                keccak_f1600_x##N(states); \
            else \
                keccak_p1600_x##N(states, r); \
            keccak_x##N##_deinterleave(sep, (const uint64_t (*)[N])states); \
            for (j = 0; j < N; j++) { \
                keccak_p1600(want[j], r); \
                n++; \
                if (memcmp(want[j], sep[j], sizeof want[j]) != 0) \
                    bad += fail("keccak_p1600_x" #N, "an instance differs"); \
            } \
        } \
    } while (0)

static void multi_vectors(void)
{
    unsigned n = 0, bad = 0;
    int path = rs_path();
    (void)path;
#if defined(RS_PATH_AVX512)
    if (path == RS_PATH_AVX512)
        RS_XN_CHECK(8);
    if (path == RS_PATH_AVX512 || path == RS_PATH_AVX2)
        RS_XN_CHECK(4);
#endif
    if (n)
        report("keccak_p1600_xN, keccak_f1600_xN, interleave, deinterleave", n, bad);
    else
        printf("ok %u - multi-state kernels # SKIP none on path %s\n", ++tests, rs_path_name());
}
#endif

#ifndef RS_VENDOR_NO_CHACHA
static uint64_t keystream_digest(unsigned rounds, const uint8_t *key, unsigned kbits,
                                 const uint8_t *iv, uint64_t pos, uint32_t n_blocks,
                                 uint8_t *first)
{
    uint8_t *buf = (uint8_t *)malloc(n_blocks ? 64 * (size_t)n_blocks : 64);
    uint64_t h;
    if (!buf)
        abort();
    memset(buf, 0, 64);
    switch (rounds) {
#define RS_CHACHA_CASE(R) \
    case R: { \
        struct chacha##R##_ctx x; \
        chacha##R##_keysetup(&x, key, kbits, iv); \
        chacha##R##_get_keystream(&x, pos, n_blocks, buf); \
        break; \
    }
#ifndef RS_VENDOR_NO_CHACHA8
    RS_CHACHA_CASE(8)
#endif
#ifndef RS_VENDOR_NO_CHACHA12
    RS_CHACHA_CASE(12)
#endif
#ifndef RS_VENDOR_NO_CHACHA20
    RS_CHACHA_CASE(20)
#endif
    default:
        free(buf);
        return 0;
    }
    h = rs_chacha_fnv1a64(buf, 64 * (size_t)n_blocks);
    if (first)
        memcpy(first, buf, 64);
    free(buf);
    return h;
}

static int chacha_built(unsigned rounds)
{
    (void)rounds;
#ifdef RS_VENDOR_NO_CHACHA8
    if (rounds == 8)
        return 0;
#endif
#ifdef RS_VENDOR_NO_CHACHA12
    if (rounds == 12)
        return 0;
#endif
#ifdef RS_VENDOR_NO_CHACHA20
    if (rounds == 20)
        return 0;
#endif
    return 1;
}

static void chacha_vectors(void)
{
    unsigned k, n = 0, bad = 0;
    uint8_t first[64];
    for (k = 0; k < RS_CHACHA_NRECORDS; k++) {
        const struct rs_chacha_record *r = &rs_chacha_records[k];
        if (!chacha_built(r->rounds))
            continue;
        keystream_digest(r->rounds, r->key, r->kbits, r->iv, r->counter, 1, first);
        n++;
        if (memcmp(first, r->block, 64) != 0)
            bad += fail("chacha record", "block differs");
    }
    for (k = 0; k < RS_CHACHA_NSTREAMS; k++) {
        const struct rs_chacha_stream *s = &rs_chacha_streams[k];
        if (!chacha_built(s->rounds))
            continue;
        n++;
        if (keystream_digest(s->rounds, s->key, s->kbits, s->has_iv ? s->iv : NULL, s->pos,
                             s->n_blocks, first) != s->digest)
            bad += fail("chacha keystream", "digest differs");
    }
    report("chachaN_keysetup, chachaN_get_keystream", n, bad);
#ifndef RS_VENDOR_NO_CHACHA20
    n = bad = 0;
    for (k = 0; k < RS_CHACHA_NXORS; k++) {
        const struct rs_chacha_xor *x = &rs_chacha_xors[k];
        uint8_t *buf = (uint8_t *)malloc(x->len ? x->len : 1);
        size_t i;
        if (!buf)
            abort();
        for (i = 0; i < x->len; i++)
            buf[i] = rs_chacha_plain(i);
        if (x->ietf)
            chacha20_ietf_xor(buf, buf, x->len, x->key, x->nonce, (uint32_t)x->counter);
        else
            chacha20_xor(buf, buf, x->len, x->key, x->nonce, x->counter);
        n++;
        if (rs_chacha_fnv1a64(buf, x->len) != x->digest)
            bad += fail(x->ietf ? "chacha20_ietf_xor" : "chacha20_xor", "digest differs");
        free(buf);
    }
    report("chacha20_xor, chacha20_ietf_xor (in place)", n, bad);
#endif
    printf("# chacha_level: %s\n", chacha_level());
}
#endif

int main(void)
{
    int code = rs_selftest();
    printf("# path %s (RS_PATH %d)\n", rs_path_name(), rs_path());
    tests++;
    if (code)
        failed_total++;
    printf("%s %u - rs_selftest on path %s: %d (%s)\n", code ? "not ok" : "ok", tests,
           rs_path_name(), code, rs_selftest_name(code));
#ifndef RS_VENDOR_NO_KECCAK
    keccak_vectors();
    multi_vectors();
    sponge_vectors();
    sp_vectors();
#endif
#ifndef RS_VENDOR_NO_CHACHA
    chacha_vectors();
#endif
    printf("1..%u\n", tests);
    return failed_total ? 1 : 0;
}
