/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * liboqs_x4: a roundsmith bundle as liboqs' four-way SHA3 provider. liboqs takes its x4
 * SHAKE from a table of callbacks (struct OQS_SHA3_x4_callbacks in <oqs/sha3x4_ops.h>, set
 * with OQS_SHA3_x4_set_callbacks before OQS_init); the glue below fills that table with the
 * bundle's shake128_x4 / shake256_x4, one-shot and incremental. This file declares the two
 * liboqs types itself, member for member, so that it builds without liboqs; in a liboqs
 * build, include <oqs/sha3x4_ops.h> instead and pass &rs_oqs_x4 to OQS_SHA3_x4_set_callbacks.
 * main() drives every callback as liboqs does and checks it against the bundle's one-stream
 * shake128 and shake256.
 *
 *   (build: the gcc line below, from this folder)
 *   ./liboqs_x4      prints "liboqs_x4: ok" and exits 0, or names the first difference
 */
// gcc -O2 -Wall -Wextra -pedantic -I../out/x86_64 liboqs_x4.c ../out/x86_64/*.c -o liboqs_x4
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roundsmith.h"

/* ---- liboqs' declarations (sha3x4_ops.h), for a build without liboqs ---- */
typedef struct { void *ctx; } OQS_SHA3_shake128_x4_inc_ctx;
typedef struct { void *ctx; } OQS_SHA3_shake256_x4_inc_ctx;
#define RS_OQS_CALLBACKS(B)                                                                   \
    void (*SHA3_shake##B##_x4)(uint8_t *, uint8_t *, uint8_t *, uint8_t *, size_t,           \
                               const uint8_t *, const uint8_t *, const uint8_t *,            \
                               const uint8_t *, size_t);                                     \
    void (*SHA3_shake##B##_x4_inc_init)(OQS_SHA3_shake##B##_x4_inc_ctx *);                    \
    void (*SHA3_shake##B##_x4_inc_absorb)(OQS_SHA3_shake##B##_x4_inc_ctx *, const uint8_t *,  \
                                          const uint8_t *, const uint8_t *, const uint8_t *,  \
                                          size_t);                                            \
    void (*SHA3_shake##B##_x4_inc_finalize)(OQS_SHA3_shake##B##_x4_inc_ctx *);                \
    void (*SHA3_shake##B##_x4_inc_squeeze)(uint8_t *, uint8_t *, uint8_t *, uint8_t *, size_t,\
                                           OQS_SHA3_shake##B##_x4_inc_ctx *);                 \
    void (*SHA3_shake##B##_x4_inc_ctx_release)(OQS_SHA3_shake##B##_x4_inc_ctx *);             \
    void (*SHA3_shake##B##_x4_inc_ctx_clone)(OQS_SHA3_shake##B##_x4_inc_ctx *,                \
                                             const OQS_SHA3_shake##B##_x4_inc_ctx *);         \
    void (*SHA3_shake##B##_x4_inc_ctx_reset)(OQS_SHA3_shake##B##_x4_inc_ctx *);
struct OQS_SHA3_x4_callbacks {
    RS_OQS_CALLBACKS(128)
    RS_OQS_CALLBACKS(256)
};
/* ---- end of liboqs' declarations ---- */

/* ---- the glue: the 16 callbacks (finalize does nothing: the first squeeze pads) ---- */
#define RS_CTX(B) OQS_SHA3_shake##B##_x4_inc_ctx /* the glue's macros, once per SHAKE */
#define RS_OQS_GLUE(B)                                                                        \
static void rs_x4_##B(uint8_t *o0, uint8_t *o1, uint8_t *o2, uint8_t *o3, size_t outlen,    \
    const uint8_t *i0, const uint8_t *i1, const uint8_t *i2, const uint8_t *i3, size_t inlen) \
{ uint8_t *const o[4] = {o0, o1, o2, o3}; const uint8_t *const i[4] = {i0, i1, i2, i3};      \
  shake##B##_x4(o, outlen, i, inlen); }                                                      \
static void rs_init_##B(RS_CTX(B) *s)                                                        \
{ s->ctx = malloc(sizeof(keccak_sponge_x4)); if (s->ctx) shake##B##_x4_init(s->ctx); }     \
static void rs_absorb_##B(RS_CTX(B) *s, const uint8_t *i0, const uint8_t *i1,                \
    const uint8_t *i2, const uint8_t *i3, size_t n)                                          \
{ const uint8_t *const i[4] = {i0, i1, i2, i3}; shake##B##_x4_absorb(s->ctx, i, n); }        \
static void rs_squeeze_##B(uint8_t *o0, uint8_t *o1, uint8_t *o2, uint8_t *o3, size_t n,    \
    RS_CTX(B) *s) { uint8_t *const o[4] = {o0, o1, o2, o3}; shake##B##_x4_squeeze(s->ctx, o, n); } \
static void rs_fin_##B(RS_CTX(B) *s) { (void)s; } static void rs_free_##B(RS_CTX(B) *s) { free(s->ctx); } \
static void rs_clone_##B(RS_CTX(B) *d, const RS_CTX(B) *s) { memcpy(d->ctx, s->ctx, sizeof(keccak_sponge_x4)); } \
static void rs_reset_##B(RS_CTX(B) *s) { shake##B##_x4_init(s->ctx); }
RS_OQS_GLUE(128) RS_OQS_GLUE(256)
#define RS_OQS(B) rs_x4_##B, rs_init_##B, rs_absorb_##B, rs_fin_##B, rs_squeeze_##B, rs_free_##B, rs_clone_##B, rs_reset_##B
struct OQS_SHA3_x4_callbacks rs_oqs_x4 = {RS_OQS(128), RS_OQS(256)};
/* ---- end of the glue ---- */

/* Compares four streams' output with the one-stream SHAKE of each input. */
static int same(int bits, uint8_t out[4][300], const uint8_t *const in[4], size_t inlen,
                size_t outlen, const char *what)
{
    uint8_t want[300];
    unsigned j;
    for (j = 0; j < 4; j++) {
        if (bits == 128)
            shake128(want, outlen, in[j], inlen);
        else
            shake256(want, outlen, in[j], inlen);
        if (memcmp(out[j], want, outlen)) {
            printf("liboqs_x4: SHAKE%d %s, stream %u differs (path %s)\n", bits, what, j,
                   rs_path_name());
            return 1;
        }
    }
    return 0;
}

int main(void)
{
    static uint8_t msg[4][500], out[4][300];
    const uint8_t *in[4] = {msg[0], msg[1], msg[2], msg[3]};
    const struct OQS_SHA3_x4_callbacks *cb = &rs_oqs_x4;
    OQS_SHA3_shake128_x4_inc_ctx a, a2;
    OQS_SHA3_shake256_x4_inc_ctx b;
    size_t k;
    int bad = 0;

    for (k = 0; k < sizeof msg; k++)
        msg[k / 500][k % 500] = (uint8_t)(k * 13 + 5);
    /* One-shot, both SHAKEs. */
    cb->SHA3_shake128_x4(out[0], out[1], out[2], out[3], 300, in[0], in[1], in[2], in[3], 500);
    bad |= same(128, out, in, 500, 300, "one-shot");
    cb->SHA3_shake256_x4(out[0], out[1], out[2], out[3], 300, in[0], in[1], in[2], in[3], 33);
    bad |= same(256, out, in, 33, 300, "one-shot");
    /* Incremental: absorb in pieces, finalize, clone, squeeze in pieces from both copies. */
    cb->SHA3_shake128_x4_inc_init(&a);
    cb->SHA3_shake128_x4_inc_init(&a2);
    if (!a.ctx || !a2.ctx)
        return 2;
    cb->SHA3_shake128_x4_inc_absorb(&a, in[0], in[1], in[2], in[3], 100);
    cb->SHA3_shake128_x4_inc_absorb(&a, in[0] + 100, in[1] + 100, in[2] + 100, in[3] + 100,
                                    400);
    cb->SHA3_shake128_x4_inc_finalize(&a);
    cb->SHA3_shake128_x4_inc_ctx_clone(&a2, &a);
    cb->SHA3_shake128_x4_inc_squeeze(out[0], out[1], out[2], out[3], 1, &a);
    cb->SHA3_shake128_x4_inc_squeeze(out[0] + 1, out[1] + 1, out[2] + 1, out[3] + 1, 299, &a);
    bad |= same(128, out, in, 500, 300, "incremental");
    cb->SHA3_shake128_x4_inc_squeeze(out[0], out[1], out[2], out[3], 300, &a2);
    bad |= same(128, out, in, 500, 300, "cloned");
    /* Reset: the context starts over. */
    cb->SHA3_shake128_x4_inc_ctx_reset(&a);
    cb->SHA3_shake128_x4_inc_absorb(&a, in[0], in[1], in[2], in[3], 7);
    cb->SHA3_shake128_x4_inc_finalize(&a);
    cb->SHA3_shake128_x4_inc_squeeze(out[0], out[1], out[2], out[3], 200, &a);
    bad |= same(128, out, in, 7, 200, "after reset");
    cb->SHA3_shake128_x4_inc_ctx_release(&a);
    cb->SHA3_shake128_x4_inc_ctx_release(&a2);
    cb->SHA3_shake256_x4_inc_init(&b);
    if (!b.ctx)
        return 2;
    cb->SHA3_shake256_x4_inc_absorb(&b, in[0], in[1], in[2], in[3], 136);
    cb->SHA3_shake256_x4_inc_finalize(&b);
    cb->SHA3_shake256_x4_inc_squeeze(out[0], out[1], out[2], out[3], 272, &b);
    bad |= same(256, out, in, 136, 272, "incremental");
    cb->SHA3_shake256_x4_inc_ctx_release(&b);
    if (!bad)
        printf("liboqs_x4: ok (path %s)\n", rs_path_name());
    return bad;
}
