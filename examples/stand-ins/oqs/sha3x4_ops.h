/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * STAND-IN for liboqs' <oqs/sha3x4_ops.h>, written from its documented interface: the
 * four-way SHAKE callback table, member for member and in liboqs' order (SHAKE128, then
 * SHAKE256: one-shot, inc_init, inc_absorb, inc_finalize, inc_squeeze, inc_ctx_release,
 * inc_ctx_clone, inc_ctx_reset), and its setter, which liboqs documents as to be called
 * before OQS_init. With liboqs, include its header instead.
 */
#ifndef RS_STANDIN_OQS_SHA3X4_OPS_H
#define RS_STANDIN_OQS_SHA3X4_OPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct { void *ctx; } OQS_SHA3_shake128_x4_inc_ctx;
typedef struct { void *ctx; } OQS_SHA3_shake256_x4_inc_ctx;

#define RS_STANDIN_OQS_X4(B)                                                                  \
    void (*SHA3_shake##B##_x4)(uint8_t *out0, uint8_t *out1, uint8_t *out2, uint8_t *out3,   \
                               size_t outlen, const uint8_t *in0, const uint8_t *in1,        \
                               const uint8_t *in2, const uint8_t *in3, size_t inplen);       \
    void (*SHA3_shake##B##_x4_inc_init)(OQS_SHA3_shake##B##_x4_inc_ctx *state);               \
    void (*SHA3_shake##B##_x4_inc_absorb)(OQS_SHA3_shake##B##_x4_inc_ctx *state,              \
                                          const uint8_t *in0, const uint8_t *in1,             \
                                          const uint8_t *in2, const uint8_t *in3,             \
                                          size_t inplen);                                     \
    void (*SHA3_shake##B##_x4_inc_finalize)(OQS_SHA3_shake##B##_x4_inc_ctx *state);           \
    void (*SHA3_shake##B##_x4_inc_squeeze)(uint8_t *out0, uint8_t *out1, uint8_t *out2,       \
                                           uint8_t *out3, size_t outlen,                      \
                                           OQS_SHA3_shake##B##_x4_inc_ctx *state);            \
    void (*SHA3_shake##B##_x4_inc_ctx_release)(OQS_SHA3_shake##B##_x4_inc_ctx *state);        \
    void (*SHA3_shake##B##_x4_inc_ctx_clone)(OQS_SHA3_shake##B##_x4_inc_ctx *dest,            \
                                             const OQS_SHA3_shake##B##_x4_inc_ctx *src);      \
    void (*SHA3_shake##B##_x4_inc_ctx_reset)(OQS_SHA3_shake##B##_x4_inc_ctx *state);

struct OQS_SHA3_x4_callbacks {
    RS_STANDIN_OQS_X4(128)
    RS_STANDIN_OQS_X4(256)
};

void OQS_SHA3_x4_set_callbacks(struct OQS_SHA3_x4_callbacks *new_callbacks);

#endif
