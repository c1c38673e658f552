/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The prover's stand-in: the vector types by name; every intrinsic is modelled in
 * intrinsics.py and checked against the instruction. */
#ifndef RS_PROVE_ARM_NEON_H
#define RS_PROVE_ARM_NEON_H
typedef struct rs_prove_u64x2 { unsigned long long rs_v[2]; } uint64x2_t;
typedef struct rs_prove_u32x4 { unsigned long long rs_v[2]; } uint32x4_t;
typedef struct rs_prove_u16x8 { unsigned long long rs_v[2]; } uint16x8_t;
typedef struct rs_prove_u8x16 { unsigned long long rs_v[2]; } uint8x16_t;
typedef struct rs_prove_u64x1 { unsigned long long rs_v[1]; } uint64x1_t;
typedef struct rs_prove_u32x2 { unsigned long long rs_v[1]; } uint32x2_t;
typedef struct rs_prove_u8x8 { unsigned long long rs_v[1]; } uint8x8_t;
typedef struct rs_prove_u32x4x2 { uint32x4_t val[2]; } uint32x4x2_t;
#endif
