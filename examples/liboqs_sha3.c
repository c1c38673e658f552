/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * liboqs_sha3: a roundsmith bundle as liboqs' SHA3 provider, single-state and four-way.
 * liboqs takes its SHA3 from two tables of callbacks: struct OQS_SHA3_callbacks
 * (<oqs/sha3_ops.h>: SHA3-256/384/512 and SHAKE128/256, one-shot and incremental) and struct
 * OQS_SHA3_x4_callbacks (<oqs/sha3x4_ops.h>: SHAKE128/256 x4), each installed by its setter,
 * which liboqs documents as to be called before OQS_init:
 *
 *     OQS_SHA3_set_callbacks(&rs_oqs_sha3);
 *     OQS_SHA3_x4_set_callbacks(&rs_oqs_sha3_x4);
 *     OQS_init();
 *
 * The glue below fills both tables with the bundle's functions (a context is a malloc'd
 * keccak_sponge or keccak_sponge_x4; finalize does nothing for SHAKE, whose first squeeze
 * pads). liboqs keeps its own SHA3 in the build, XKCP's code with XKCP's names
 * (KeccakP1600_Initialize, ...), which a plain bundle exports too: so the bundle is made with
 * a prefix, every name of it prefixed (not --keep-drop-in-names, which keeps XKCP's):
 *
 *     python3 -m generator bundle --target x86_64 --kernels keccak --prefix rs_pq_ --out DIR
 *
 * and RS_ below names the prefix. Here the two liboqs headers are stand-ins
 * (examples/stand-ins/oqs/), and main() plays liboqs: it installs the tables through the
 * setters and drives every callback, checking each against the bundle's one-stream functions
 * and the FIPS 202 values of SHA3-256("abc") and SHAKE128("").
 *
 *   (build: from this folder, DIR the prefixed bundle above)
 *   gcc -O2 -Wall -Wextra -pedantic -IDIR -Istand-ins liboqs_sha3.c <each .c file of DIR>
 *       -o liboqs_sha3
 *   ./liboqs_sha3    prints "liboqs_sha3: ok" and exits 0, or names the first difference
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oqs/sha3_ops.h>
#include <oqs/sha3x4_ops.h>

#include "roundsmith.h"

/* ---- the glue ---- */
#define RS_(name) rs_pq_##name /* the bundle's prefix */
#define RS_CTX(N, T, S, INIT) /* inc_init (allocates), release, reset, clone of one context type */ \
static void rs_init_##N(T *s) { s->ctx = malloc(sizeof(S)); if (s->ctx) INIT(s->ctx); }              \
static void rs_free_##N(T *s) { free(s->ctx); } static void rs_reset_##N(T *s) { INIT(s->ctx); }     \
static void rs_clone_##N(T *d, const T *s) { memcpy(d->ctx, s->ctx, sizeof(S)); }
#define RS_SHA3(B) RS_CTX(sha3_##B, OQS_SHA3_sha3_##B##_inc_ctx, RS_(keccak_sponge), RS_(sha3_##B##_init))     \
static void rs_absorb_sha3_##B(OQS_SHA3_sha3_##B##_inc_ctx *s, const uint8_t *i, size_t n) { RS_(sha3_##B##_update)(s->ctx, i, n); } \
static void rs_fin_sha3_##B(uint8_t *o, OQS_SHA3_sha3_##B##_inc_ctx *s) { RS_(sha3_##B##_final)(s->ctx, o); }
#define RS_SHAKE(B, N, T, S) RS_CTX(N, T, S, RS_(shake##B##_init)) static void rs_fin_##N(T *s) { (void)s; } /* the first squeeze pads */
#define RS_SHAKE1(B) RS_SHAKE(B, shake##B, OQS_SHA3_shake##B##_inc_ctx, RS_(keccak_sponge))                \
static void rs_absorb_shake##B(OQS_SHA3_shake##B##_inc_ctx *s, const uint8_t *i, size_t n) { RS_(shake##B##_absorb)(s->ctx, i, n); } \
static void rs_squeeze_shake##B(uint8_t *o, size_t n, OQS_SHA3_shake##B##_inc_ctx *s) { RS_(shake##B##_squeeze)(s->ctx, o, n); }
#define RS_I4 const uint8_t *i0, const uint8_t *i1, const uint8_t *i2, const uint8_t *i3
#define RS_O4 uint8_t *o0, uint8_t *o1, uint8_t *o2, uint8_t *o3
#define RS_SHAKE4(B) RS_SHAKE(B##_x4, x4_##B, OQS_SHA3_shake##B##_x4_inc_ctx, RS_(keccak_sponge_x4))      \
static void rs_x4_##B(RS_O4, size_t m, RS_I4, size_t n) { uint8_t *const o[4] = {o0, o1, o2, o3}; const uint8_t *const i[4] = {i0, i1, i2, i3}; RS_(shake##B##_x4)(o, m, i, n); } \
static void rs_absorb_x4_##B(OQS_SHA3_shake##B##_x4_inc_ctx *s, RS_I4, size_t n) { const uint8_t *const i[4] = {i0, i1, i2, i3}; RS_(shake##B##_x4_absorb)(s->ctx, i, n); } \
static void rs_squeeze_x4_##B(RS_O4, size_t n, OQS_SHA3_shake##B##_x4_inc_ctx *s) { uint8_t *const o[4] = {o0, o1, o2, o3}; RS_(shake##B##_x4_squeeze)(s->ctx, o, n); }
RS_SHA3(256) RS_SHA3(384) RS_SHA3(512) RS_SHAKE1(128) RS_SHAKE1(256) RS_SHAKE4(128) RS_SHAKE4(256)
#define RS_T_SHA3(B) RS_(sha3_##B), rs_init_sha3_##B, rs_absorb_sha3_##B, rs_fin_sha3_##B, rs_free_sha3_##B, rs_reset_sha3_##B, rs_clone_sha3_##B
#define RS_T_SHAKE(F, N) F, rs_init_##N, rs_absorb_##N, rs_fin_##N, rs_squeeze_##N, rs_free_##N, rs_clone_##N, rs_reset_##N
struct OQS_SHA3_callbacks rs_oqs_sha3 = {RS_T_SHA3(256), RS_T_SHA3(384), RS_T_SHA3(512), RS_T_SHAKE(RS_(shake128), shake128), RS_T_SHAKE(RS_(shake256), shake256)};
struct OQS_SHA3_x4_callbacks rs_oqs_sha3_x4 = {RS_T_SHAKE(rs_x4_128, x4_128), RS_T_SHAKE(rs_x4_256, x4_256)};
/* ---- end of the glue ---- */

/* ---- liboqs' side: the setters, and its use of the tables ---- */
static const struct OQS_SHA3_callbacks *sha3;
static const struct OQS_SHA3_x4_callbacks *sha3_x4;
void OQS_SHA3_set_callbacks(struct OQS_SHA3_callbacks *new_callbacks) { sha3 = new_callbacks; }
void OQS_SHA3_x4_set_callbacks(struct OQS_SHA3_x4_callbacks *new_callbacks)
{
    sha3_x4 = new_callbacks;
}

static int bad;

static void expect(const uint8_t *got, const uint8_t *want, size_t len, const char *what)
{
    if (memcmp(got, want, len)) {
        printf("liboqs_sha3: %s differs (path %s)\n", what, rs_pq_path_name());
        bad = 1;
    }
}

/* Four streams' output against the one-stream SHAKE of each input. */
static void same4(int bits, uint8_t out[4][300], const uint8_t *const in[4], size_t inlen,
                  size_t outlen, const char *what)
{
    uint8_t want[300];
    unsigned j;
    for (j = 0; j < 4; j++) {
        (bits == 128 ? rs_pq_shake128 : rs_pq_shake256)(want, outlen, in[j], inlen);
        expect(out[j], want, outlen, what);
    }
}

static void single_state(const uint8_t *msg)
{
    static const uint8_t abc256[8] = {0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2};
    static const uint8_t empty128[8] = {0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d};
    uint8_t got[300], want[300];
    OQS_SHA3_sha3_256_inc_ctx h, h2;
    OQS_SHA3_sha3_384_inc_ctx h384;
    OQS_SHA3_sha3_512_inc_ctx h512;
    OQS_SHA3_shake128_inc_ctx x, x2;
    OQS_SHA3_shake256_inc_ctx y;

    sha3->SHA3_sha3_256(got, (const uint8_t *)"abc", 3);
    expect(got, abc256, sizeof abc256, "SHA3-256(\"abc\")");
    sha3->SHA3_shake128(got, 8, NULL, 0);
    expect(got, empty128, sizeof empty128, "SHAKE128(\"\")");
    /* Incremental SHA3-256 in two pieces, cloned in the middle, reset and reused. */
    sha3->SHA3_sha3_256_inc_init(&h);
    sha3->SHA3_sha3_256_inc_init(&h2);
    if (!h.ctx || !h2.ctx)
        exit(2);
    sha3->SHA3_sha3_256_inc_absorb(&h, msg, 100);
    sha3->SHA3_sha3_256_inc_ctx_clone(&h2, &h);
    sha3->SHA3_sha3_256_inc_absorb(&h, msg + 100, 400);
    sha3->SHA3_sha3_256_inc_finalize(got, &h);
    rs_pq_sha3_256(want, msg, 500);
    expect(got, want, 32, "SHA3-256 incremental");
    sha3->SHA3_sha3_256_inc_absorb(&h2, msg + 100, 1);
    sha3->SHA3_sha3_256_inc_finalize(got, &h2);
    rs_pq_sha3_256(want, msg, 101);
    expect(got, want, 32, "SHA3-256 cloned");
    sha3->SHA3_sha3_256_inc_ctx_reset(&h);
    sha3->SHA3_sha3_256_inc_absorb(&h, (const uint8_t *)"abc", 3);
    sha3->SHA3_sha3_256_inc_finalize(got, &h);
    expect(got, abc256, sizeof abc256, "SHA3-256 after reset");
    sha3->SHA3_sha3_256_inc_ctx_release(&h);
    sha3->SHA3_sha3_256_inc_ctx_release(&h2);
    /* SHA3-384 and SHA3-512, one-shot and incremental. */
    sha3->SHA3_sha3_384(got, msg, 200);
    rs_pq_sha3_384(want, msg, 200);
    expect(got, want, 48, "SHA3-384");
    sha3->SHA3_sha3_384_inc_init(&h384);
    if (!h384.ctx)
        exit(2);
    sha3->SHA3_sha3_384_inc_absorb(&h384, msg, 200);
    sha3->SHA3_sha3_384_inc_finalize(got, &h384);
    expect(got, want, 48, "SHA3-384 incremental");
    sha3->SHA3_sha3_384_inc_ctx_release(&h384);
    sha3->SHA3_sha3_512(got, msg, 72);
    rs_pq_sha3_512(want, msg, 72);
    expect(got, want, 64, "SHA3-512");
    sha3->SHA3_sha3_512_inc_init(&h512);
    if (!h512.ctx)
        exit(2);
    sha3->SHA3_sha3_512_inc_absorb(&h512, msg, 71);
    sha3->SHA3_sha3_512_inc_absorb(&h512, msg + 71, 1);
    sha3->SHA3_sha3_512_inc_finalize(got, &h512);
    expect(got, want, 64, "SHA3-512 incremental");
    sha3->SHA3_sha3_512_inc_ctx_release(&h512);
    /* SHAKE128: absorb in pieces, finalize, clone, squeeze in pieces; reset. */
    sha3->SHA3_shake128_inc_init(&x);
    sha3->SHA3_shake128_inc_init(&x2);
    if (!x.ctx || !x2.ctx)
        exit(2);
    sha3->SHA3_shake128_inc_absorb(&x, msg, 168);
    sha3->SHA3_shake128_inc_absorb(&x, msg + 168, 1);
    sha3->SHA3_shake128_inc_finalize(&x);
    sha3->SHA3_shake128_inc_ctx_clone(&x2, &x);
    sha3->SHA3_shake128_inc_squeeze(got, 1, &x);
    sha3->SHA3_shake128_inc_squeeze(got + 1, 299, &x);
    rs_pq_shake128(want, 300, msg, 169);
    expect(got, want, 300, "SHAKE128 incremental");
    sha3->SHA3_shake128_inc_squeeze(got, 300, &x2);
    expect(got, want, 300, "SHAKE128 cloned");
    sha3->SHA3_shake128_inc_ctx_reset(&x);
    sha3->SHA3_shake128_inc_finalize(&x);
    sha3->SHA3_shake128_inc_squeeze(got, 8, &x);
    expect(got, empty128, sizeof empty128, "SHAKE128 after reset");
    sha3->SHA3_shake128_inc_ctx_release(&x);
    sha3->SHA3_shake128_inc_ctx_release(&x2);
    /* SHAKE256, one-shot and incremental. */
    sha3->SHA3_shake256(got, 200, msg, 136);
    rs_pq_shake256(want, 200, msg, 136);
    expect(got, want, 200, "SHAKE256");
    sha3->SHA3_shake256_inc_init(&y);
    if (!y.ctx)
        exit(2);
    sha3->SHA3_shake256_inc_absorb(&y, msg, 136);
    sha3->SHA3_shake256_inc_finalize(&y);
    sha3->SHA3_shake256_inc_squeeze(got, 137, &y);
    sha3->SHA3_shake256_inc_squeeze(got + 137, 63, &y);
    expect(got, want, 200, "SHAKE256 incremental");
    sha3->SHA3_shake256_inc_ctx_release(&y);
}

static void four_way(const uint8_t msg[4][500])
{
    static uint8_t out[4][300];
    const uint8_t *in[4] = {msg[0], msg[1], msg[2], msg[3]};
    OQS_SHA3_shake128_x4_inc_ctx a, a2;
    OQS_SHA3_shake256_x4_inc_ctx b;

    sha3_x4->SHA3_shake128_x4(out[0], out[1], out[2], out[3], 300, in[0], in[1], in[2], in[3],
                              500);
    same4(128, out, in, 500, 300, "SHAKE128 x4 one-shot");
    sha3_x4->SHA3_shake256_x4(out[0], out[1], out[2], out[3], 300, in[0], in[1], in[2], in[3],
                              33);
    same4(256, out, in, 33, 300, "SHAKE256 x4 one-shot");
    /* Incremental: absorb in pieces, finalize, clone, squeeze in pieces from both copies. */
    sha3_x4->SHA3_shake128_x4_inc_init(&a);
    sha3_x4->SHA3_shake128_x4_inc_init(&a2);
    if (!a.ctx || !a2.ctx)
        exit(2);
    sha3_x4->SHA3_shake128_x4_inc_absorb(&a, in[0], in[1], in[2], in[3], 100);
    sha3_x4->SHA3_shake128_x4_inc_absorb(&a, in[0] + 100, in[1] + 100, in[2] + 100,
                                         in[3] + 100, 400);
    sha3_x4->SHA3_shake128_x4_inc_finalize(&a);
    sha3_x4->SHA3_shake128_x4_inc_ctx_clone(&a2, &a);
    sha3_x4->SHA3_shake128_x4_inc_squeeze(out[0], out[1], out[2], out[3], 1, &a);
    sha3_x4->SHA3_shake128_x4_inc_squeeze(out[0] + 1, out[1] + 1, out[2] + 1, out[3] + 1, 299,
                                          &a);
    same4(128, out, in, 500, 300, "SHAKE128 x4 incremental");
    sha3_x4->SHA3_shake128_x4_inc_squeeze(out[0], out[1], out[2], out[3], 300, &a2);
    same4(128, out, in, 500, 300, "SHAKE128 x4 cloned");
    /* Reset: the context starts over. */
    sha3_x4->SHA3_shake128_x4_inc_ctx_reset(&a);
    sha3_x4->SHA3_shake128_x4_inc_absorb(&a, in[0], in[1], in[2], in[3], 7);
    sha3_x4->SHA3_shake128_x4_inc_finalize(&a);
    sha3_x4->SHA3_shake128_x4_inc_squeeze(out[0], out[1], out[2], out[3], 200, &a);
    same4(128, out, in, 7, 200, "SHAKE128 x4 after reset");
    sha3_x4->SHA3_shake128_x4_inc_ctx_release(&a);
    sha3_x4->SHA3_shake128_x4_inc_ctx_release(&a2);
    sha3_x4->SHA3_shake256_x4_inc_init(&b);
    if (!b.ctx)
        exit(2);
    sha3_x4->SHA3_shake256_x4_inc_absorb(&b, in[0], in[1], in[2], in[3], 136);
    sha3_x4->SHA3_shake256_x4_inc_finalize(&b);
    sha3_x4->SHA3_shake256_x4_inc_squeeze(out[0], out[1], out[2], out[3], 272, &b);
    same4(256, out, in, 136, 272, "SHAKE256 x4 incremental");
    sha3_x4->SHA3_shake256_x4_inc_ctx_release(&b);
}
/* ---- end of liboqs' side ---- */

int main(void)
{
    static uint8_t msg[4][500];
    size_t k;

    for (k = 0; k < sizeof msg; k++)
        msg[k / 500][k % 500] = (uint8_t)(k * 13 + 5);
    /* What a program does before OQS_init. */
    OQS_SHA3_set_callbacks(&rs_oqs_sha3);
    OQS_SHA3_x4_set_callbacks(&rs_oqs_sha3_x4);
    single_state(msg[0]);
    four_way((const uint8_t(*)[500])msg);
    if (!bad)
        printf("liboqs_sha3: ok (path %s)\n", rs_pq_path_name());
    return bad;
}
