/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for the multi-buffer sponges (sha3_*_xN, keccak256_xN, shake*_xN,
 * turboshake*_xN) in out/<target>/ or a bundle, driven by the generated
 * sponge_xN_vectors.h (hashlib's and the reference's outputs), and against the single-buffer
 * functions at random lengths. A bundle runs it once per forced path (ROUNDSMITH_PATH).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "keccak_sponge.h"
#include "sponge_xN_vectors.h"

#define MAXN RS_MB_LANES

static uint8_t *lane_message(size_t length, unsigned lane)
{
    uint8_t *m = malloc(length ? length : 1);
    size_t k;
    ck_assert_ptr_nonnull(m);
    for (k = 0; k < length; k++)
        m[k] = (uint8_t)(k % 251 + 37u * lane);
    return m;
}

static uint8_t *from_hex(const char *hex, size_t len)
{
    uint8_t *out = malloc(len ? len : 1);
    size_t k;
    ck_assert_ptr_nonnull(out);
    for (k = 0; k < len; k++) {
        unsigned v;
        ck_assert_int_eq(sscanf(hex + 2 * k, "%2x", &v), 1);
        out[k] = (uint8_t)v;
    }
    return out;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Uneven pieces, the small awkward ones often. */
static size_t next_split(uint64_t *s, size_t left)
{
    size_t n;
    switch (xorshift(s) % 4) {
    case 0: n = *s % 8; break;
    case 1: n = *s % 200; break;
    case 2: n = *s % 600; break;
    default: n = left; break;
    }
    return n < left ? n : left;
}

#define ONE_SHOT(N)                                                                           \
    case N:                                                                                   \
        switch (f) {                                                                          \
        case RS_MB_SHA3_224: sha3_224_x##N(out, in, inlen); break;                            \
        case RS_MB_SHA3_256: sha3_256_x##N(out, in, inlen); break;                            \
        case RS_MB_SHA3_384: sha3_384_x##N(out, in, inlen); break;                            \
        case RS_MB_SHA3_512: sha3_512_x##N(out, in, inlen); break;                            \
        case RS_MB_KECCAK256: keccak256_x##N(out, in, inlen); break;                          \
        case RS_MB_SHAKE128: shake128_x##N(out, outlen, in, inlen); break;                    \
        case RS_MB_SHAKE256: shake256_x##N(out, outlen, in, inlen); break;                    \
        case RS_MB_TURBOSHAKE128: turboshake128_x##N(out, outlen, in, inlen, domain); break;  \
        case RS_MB_TURBOSHAKE256: turboshake256_x##N(out, outlen, in, inlen, domain); break;  \
        default: ck_abort_msg("unknown function");                                            \
        }                                                                                     \
        break;

static void one_shot(enum rs_mb_function f, unsigned n, uint8_t *const *out, size_t outlen,
                     const uint8_t *const *in, size_t inlen, uint8_t domain)
{
    switch (n) {
        ONE_SHOT(2)
        ONE_SHOT(4)
        ONE_SHOT(8)
    default: ck_abort_msg("unknown width");
    }
}

/* The single-buffer function, the yardstick at random lengths. */
static void single(enum rs_mb_function f, uint8_t *out, size_t outlen, const uint8_t *in,
                   size_t inlen, uint8_t domain)
{
    switch (f) {
    case RS_MB_SHA3_224: sha3_224(out, in, inlen); break;
    case RS_MB_SHA3_256: sha3_256(out, in, inlen); break;
    case RS_MB_SHA3_384: sha3_384(out, in, inlen); break;
    case RS_MB_SHA3_512: sha3_512(out, in, inlen); break;
    case RS_MB_KECCAK256: keccak256(out, in, inlen); break;
    case RS_MB_SHAKE128: shake128(out, outlen, in, inlen); break;
    case RS_MB_SHAKE256: shake256(out, outlen, in, inlen); break;
    case RS_MB_TURBOSHAKE128: turboshake128(out, outlen, in, inlen, domain); break;
    case RS_MB_TURBOSHAKE256: turboshake256(out, outlen, in, inlen, domain); break;
    default: ck_abort_msg("unknown function");
    }
}

typedef struct {
    keccak_sponge_x2 c2;
    keccak_sponge_x4 c4;
    keccak_sponge_x8 c8;
} contexts;

#define INCREMENTAL(N, op, ...)                                                               \
    case N:                                                                                   \
        switch (f) {                                                                          \
        case RS_MB_SHAKE128: shake128_x##N##_##op(&c->c##N, __VA_ARGS__); break;              \
        case RS_MB_SHAKE256: shake256_x##N##_##op(&c->c##N, __VA_ARGS__); break;              \
        case RS_MB_TURBOSHAKE128: turboshake128_x##N##_##op(&c->c##N, __VA_ARGS__); break;    \
        case RS_MB_TURBOSHAKE256: turboshake256_x##N##_##op(&c->c##N, __VA_ARGS__); break;    \
        default: ck_abort_msg("not an extendable-output function");                           \
        }                                                                                     \
        break;

static void inc_init(contexts *c, enum rs_mb_function f, unsigned n, uint8_t domain)
{
    switch (n) {
#define INIT(N)                                                                               \
    case N:                                                                                   \
        switch (f) {                                                                          \
        case RS_MB_SHAKE128: shake128_x##N##_init(&c->c##N); break;                           \
        case RS_MB_SHAKE256: shake256_x##N##_init(&c->c##N); break;                           \
        case RS_MB_TURBOSHAKE128: turboshake128_x##N##_init(&c->c##N, domain); break;         \
        case RS_MB_TURBOSHAKE256: turboshake256_x##N##_init(&c->c##N, domain); break;         \
        default: ck_abort_msg("not an extendable-output function");                           \
        }                                                                                     \
        break;
        INIT(2)
        INIT(4)
        INIT(8)
    default: ck_abort_msg("unknown width");
    }
}

static void inc_absorb(contexts *c, enum rs_mb_function f, unsigned n,
                       const uint8_t *const *in, size_t len)
{
    switch (n) {
        INCREMENTAL(2, absorb, in, len)
        INCREMENTAL(4, absorb, in, len)
        INCREMENTAL(8, absorb, in, len)
    default: ck_abort_msg("unknown width");
    }
}

static void inc_squeeze(contexts *c, enum rs_mb_function f, unsigned n, uint8_t *const *out,
                        size_t len)
{
    switch (n) {
        INCREMENTAL(2, squeeze, out, len)
        INCREMENTAL(4, squeeze, out, len)
        INCREMENTAL(8, squeeze, out, len)
    default: ck_abort_msg("unknown width");
    }
}

/* One vector case on one width: the messages, output buffers with a guard byte either side,
 * and the expected bytes. */
struct setup {
    const struct rs_mb_case *c;
    unsigned n;
    uint8_t *msg[MAXN];
    uint8_t *buf[MAXN];
    uint8_t *out[MAXN];
    uint8_t *want;
};

static void setup_case(struct setup *s, int i)
{
    unsigned j;
    s->c = &rs_mb_cases[i / RS_MB_NWIDTHS];
    s->n = rs_mb_widths[i % RS_MB_NWIDTHS];
    s->want = malloc(RS_MB_LANES * s->c->outlen + 1);
    ck_assert_ptr_nonnull(s->want);
    for (j = 0; j < s->n; j++) {
        uint8_t *lane = from_hex(s->c->expected[j], s->c->outlen);
        memcpy(s->want + j * s->c->outlen, lane, s->c->outlen);
        free(lane);
        s->msg[j] = lane_message(s->c->length, j);
        s->buf[j] = malloc(s->c->outlen + 2);
        ck_assert_ptr_nonnull(s->buf[j]);
        memset(s->buf[j], 0xA5, s->c->outlen + 2);
        s->out[j] = s->buf[j] + 1;
    }
}

static void check_outputs(struct setup *s, const char *how)
{
    unsigned j;
    for (j = 0; j < s->n; j++) {
        ck_assert_msg(memcmp(s->out[j], s->want + j * s->c->outlen, s->c->outlen) == 0,
                      "%s, x%u, %s: lane %u differs", s->c->source, s->n, how, j);
        ck_assert_msg(s->buf[j][0] == 0xA5 && s->buf[j][s->c->outlen + 1] == 0xA5,
                      "%s, x%u, %s: lane %u written out of bounds", s->c->source, s->n, how, j);
    }
}

static void teardown_case(struct setup *s)
{
    unsigned j;
    for (j = 0; j < s->n; j++) {
        free(s->msg[j]);
        free(s->buf[j]);
    }
    free(s->want);
}

START_TEST(test_one_shot)
{
    struct setup s;
    setup_case(&s, _i);
    /* An empty message may come as NULL pointers, or a NULL array. */
    if (s.c->length == 0 && s.n == 4) {
        free(s.msg[1]);
        s.msg[1] = NULL;
    }
    one_shot(s.c->function, s.n, s.out, s.c->outlen,
             s.c->length == 0 && s.n == 8 ? NULL : (const uint8_t *const *)s.msg, s.c->length,
             (uint8_t)s.c->domain);
    check_outputs(&s, "one-shot");
    teardown_case(&s);
}
END_TEST

START_TEST(test_incremental)
{
    struct setup s;
    contexts c;
    uint64_t seed = 0x9E3779B97F4A7C15u ^ (uint64_t)_i * 0x100000001B3u;
    const uint8_t *in[MAXN];
    uint8_t *out[MAXN];
    size_t done, piece;
    unsigned j;

    setup_case(&s, _i);
    if (rs_mb_digests[s.c->function]) {
        teardown_case(&s);
        return;
    }
    inc_init(&c, s.c->function, s.n, (uint8_t)s.c->domain);
    for (done = 0; done < s.c->length; done += piece) {
        piece = next_split(&seed, s.c->length - done);
        for (j = 0; j < s.n; j++)
            in[j] = piece ? s.msg[j] + done : NULL;
        inc_absorb(&c, s.c->function, s.n, in, piece);
    }
    for (done = 0; done < s.c->outlen || done == 0; done += piece) {
        piece = next_split(&seed, s.c->outlen - done);
        for (j = 0; j < s.n; j++)
            out[j] = s.out[j] + done;
        inc_squeeze(&c, s.c->function, s.n, piece ? out : NULL, piece);
        if (s.c->outlen == 0)
            break;
    }
    check_outputs(&s, "incremental");
    teardown_case(&s);
}
END_TEST

START_TEST(test_in_place)
{
    struct setup s;
    uint8_t *io[MAXN];
    size_t size;
    unsigned j;

    setup_case(&s, _i);
    size = s.c->length > s.c->outlen ? s.c->length : s.c->outlen;
    for (j = 0; j < s.n; j++) {
        io[j] = malloc(size ? size : 1);
        ck_assert_ptr_nonnull(io[j]);
        if (s.c->length)
            memcpy(io[j], s.msg[j], s.c->length);
    }
    one_shot(s.c->function, s.n, io, s.c->outlen, (const uint8_t *const *)io, s.c->length,
             (uint8_t)s.c->domain);
    for (j = 0; j < s.n; j++) {
        memcpy(s.out[j], io[j], s.c->outlen);
        free(io[j]);
    }
    check_outputs(&s, "in place");
    teardown_case(&s);
}
END_TEST

/* Random functions, widths, lengths and domains against the single-buffer function lane by
 * lane, with every lane's message its own random bytes. */
START_TEST(test_random_vs_single)
{
    uint64_t seed = 0xD1B54A32D192ED03u + (uint64_t)_i;
    enum rs_mb_function f;
    unsigned n, j, rate;
    size_t inlen, outlen, k;
    uint8_t *msg[MAXN], *out[MAXN], *want;
    uint8_t domain;

    xorshift(&seed);
    f = (enum rs_mb_function)(xorshift(&seed) % RS_MB_NFUNCTIONS);
    n = rs_mb_widths[xorshift(&seed) % RS_MB_NWIDTHS];
    rate = rs_mb_rates[f];
    inlen = xorshift(&seed) % (5 * rate);
    outlen = rs_mb_digests[f] ? rs_mb_digests[f] : xorshift(&seed) % (4 * rate);
    domain = (uint8_t)(1 + xorshift(&seed) % 0x7F);
    want = malloc(outlen + 1);
    ck_assert_ptr_nonnull(want);
    for (j = 0; j < n; j++) {
        msg[j] = malloc(inlen + 1);
        out[j] = malloc(outlen + 1);
        ck_assert(msg[j] && out[j]);
        for (k = 0; k < inlen; k++)
            msg[j][k] = (uint8_t)xorshift(&seed);
    }
    one_shot(f, n, out, outlen, (const uint8_t *const *)msg, inlen, domain);
    for (j = 0; j < n; j++) {
        single(f, want, outlen, msg[j], inlen, domain);
        ck_assert_msg(memcmp(out[j], want, outlen) == 0,
                      "%s x%u, %zu bytes in, %zu out: lane %u differs from the single-buffer "
                      "function", rs_mb_function_names[f], n, inlen, outlen, j);
        free(msg[j]);
        free(out[j]);
    }
    free(want);
}
END_TEST

/* Lanes are independent: changing one lane's message changes no other lane's output. */
START_TEST(test_lanes_independent)
{
    const uint8_t *in[MAXN];
    uint8_t msgs[MAXN][300], a[MAXN][64], b[MAXN][64], *out[MAXN];
    unsigned j, n = rs_mb_widths[_i % RS_MB_NWIDTHS], hit = (unsigned)_i % n;

    memset(msgs, 0x3C, sizeof msgs);
    for (j = 0; j < MAXN; j++) {
        in[j] = msgs[j];
        out[j] = a[j];
    }
    one_shot(RS_MB_SHAKE256, n, out, 64, in, sizeof msgs[0], 0);
    msgs[hit][_i % 300] ^= 1;
    for (j = 0; j < MAXN; j++)
        out[j] = b[j];
    one_shot(RS_MB_SHAKE256, n, out, 64, in, sizeof msgs[0], 0);
    for (j = 0; j < n; j++)
        ck_assert_msg((memcmp(a[j], b[j], 64) == 0) == (j != hit), "x%u: lane %u", n, j);
}
END_TEST

START_TEST(test_null_everything)
{
    contexts c;
    unsigned i, n;
    for (i = 0; i < RS_MB_NFUNCTIONS; i++)
        for (n = 0; n < RS_MB_NWIDTHS; n++) {
            if (!rs_mb_digests[i])
                one_shot((enum rs_mb_function)i, rs_mb_widths[n], NULL, 0, NULL, 0, 0x1F);
            else
                continue;
            inc_init(&c, (enum rs_mb_function)i, rs_mb_widths[n], 0x1F);
            inc_absorb(&c, (enum rs_mb_function)i, rs_mb_widths[n], NULL, 0);
            inc_squeeze(&c, (enum rs_mb_function)i, rs_mb_widths[n], NULL, 0);
            inc_squeeze(&c, (enum rs_mb_function)i, rs_mb_widths[n], NULL, 0);
        }
}
END_TEST

static Suite *sponge_xn_suite(void)
{
    Suite *s = suite_create("sponge xN (" RS_COMPILER ")");
    TCase *tc;
    int cases = (int)(RS_MB_NCASES * RS_MB_NWIDTHS);

    tc = tcase_create("one-shot");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_one_shot, 0, cases);
    suite_add_tcase(s, tc);

    tc = tcase_create("incremental");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_incremental, 0, cases);
    suite_add_tcase(s, tc);

    tc = tcase_create("in place");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_in_place, 0, cases);
    suite_add_tcase(s, tc);

    tc = tcase_create("against the single-buffer functions");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_random_vs_single, 0, 600);
    tcase_add_loop_test(tc, test_lanes_independent, 0, 24);
    suite_add_tcase(s, tc);

    tc = tcase_create("API edges");
    tcase_add_test(tc, test_null_everything);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(sponge_xn_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
