/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * STAND-IN for liboqs' <oqs/sha3_ops.h>, written from its documented interface: the
 * single-state SHA3 callback table, member for member and in liboqs' order (SHA3-256, -384,
 * -512: one-shot, inc_init, inc_absorb, inc_finalize, inc_ctx_release, inc_ctx_reset,
 * inc_ctx_clone; SHAKE128, SHAKE256: one-shot, inc_init, inc_absorb, inc_finalize,
 * inc_squeeze, inc_ctx_release, inc_ctx_clone, inc_ctx_reset), and its setter, which liboqs
 * documents as to be called before OQS_init. With liboqs, include its header instead.
 */
#ifndef RS_STANDIN_OQS_SHA3_OPS_H
#define RS_STANDIN_OQS_SHA3_OPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct { void *ctx; } OQS_SHA3_sha3_256_inc_ctx;
typedef struct { void *ctx; } OQS_SHA3_sha3_384_inc_ctx;
typedef struct { void *ctx; } OQS_SHA3_sha3_512_inc_ctx;
typedef struct { void *ctx; } OQS_SHA3_shake128_inc_ctx;
typedef struct { void *ctx; } OQS_SHA3_shake256_inc_ctx;

#define RS_STANDIN_OQS_SHA3(B)                                                                \
    void (*SHA3_sha3_##B)(uint8_t *output, const uint8_t *input, size_t inplen);             \
    void (*SHA3_sha3_##B##_inc_init)(OQS_SHA3_sha3_##B##_inc_ctx *state);                    \
    void (*SHA3_sha3_##B##_inc_absorb)(OQS_SHA3_sha3_##B##_inc_ctx *state,                   \
                                       const uint8_t *input, size_t inlen);                  \
    void (*SHA3_sha3_##B##_inc_finalize)(uint8_t *output, OQS_SHA3_sha3_##B##_inc_ctx *state); \
    void (*SHA3_sha3_##B##_inc_ctx_release)(OQS_SHA3_sha3_##B##_inc_ctx *state);             \
    void (*SHA3_sha3_##B##_inc_ctx_reset)(OQS_SHA3_sha3_##B##_inc_ctx *state);               \
    void (*SHA3_sha3_##B##_inc_ctx_clone)(OQS_SHA3_sha3_##B##_inc_ctx *dest,                 \
                                          const OQS_SHA3_sha3_##B##_inc_ctx *src);
#define RS_STANDIN_OQS_SHAKE(B)                                                               \
    void (*SHA3_shake##B)(uint8_t *output, size_t outlen, const uint8_t *input, size_t inplen); \
    void (*SHA3_shake##B##_inc_init)(OQS_SHA3_shake##B##_inc_ctx *state);                    \
    void (*SHA3_shake##B##_inc_absorb)(OQS_SHA3_shake##B##_inc_ctx *state,                   \
                                       const uint8_t *input, size_t inlen);                  \
    void (*SHA3_shake##B##_inc_finalize)(OQS_SHA3_shake##B##_inc_ctx *state);                \
    void (*SHA3_shake##B##_inc_squeeze)(uint8_t *output, size_t outlen,                      \
                                        OQS_SHA3_shake##B##_inc_ctx *state);                 \
    void (*SHA3_shake##B##_inc_ctx_release)(OQS_SHA3_shake##B##_inc_ctx *state);             \
    void (*SHA3_shake##B##_inc_ctx_clone)(OQS_SHA3_shake##B##_inc_ctx *dest,                 \
                                          const OQS_SHA3_shake##B##_inc_ctx *src);           \
    void (*SHA3_shake##B##_inc_ctx_reset)(OQS_SHA3_shake##B##_inc_ctx *state);

struct OQS_SHA3_callbacks {
    RS_STANDIN_OQS_SHA3(256)
    RS_STANDIN_OQS_SHA3(384)
    RS_STANDIN_OQS_SHA3(512)
    RS_STANDIN_OQS_SHAKE(128)
    RS_STANDIN_OQS_SHAKE(256)
};

void OQS_SHA3_set_callbacks(struct OQS_SHA3_callbacks *new_callbacks);

#endif
