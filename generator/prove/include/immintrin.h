/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* The prover's stand-in: the vector types by name; every intrinsic is modelled in
 * intrinsics.py and checked against the instruction. */
#ifndef RS_PROVE_IMMINTRIN_H
#define RS_PROVE_IMMINTRIN_H
typedef struct rs_prove_m128i { unsigned long long rs_v[2]; } __m128i;
typedef struct rs_prove_m256i { unsigned long long rs_v[4]; } __m256i;
typedef struct rs_prove_m512i { unsigned long long rs_v[8]; } __m512i;
typedef unsigned char __mmask8;
typedef unsigned short __mmask16;
typedef int _MM_PERM_ENUM;     /* an enum in the real header: pshufd's immediate */
#endif
