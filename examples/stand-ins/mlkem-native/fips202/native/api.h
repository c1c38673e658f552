/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * STAND-IN for mlkem-native's mlkem/src/fips202/native/api.h, written from its documented
 * backend interface: a backend sets MLK_USE_NATIVE_FIPS202_X1 and/or _X4 (and _X4_XOR_BYTES,
 * _X4_EXTRACT_BYTES) and defines the matching static functions, which return
 * MLK_NATIVE_FUNC_SUCCESS, or MLK_NATIVE_FUNC_FALLBACK to leave the call to the C code. The
 * x4 state is four separate 25-lane states, one after another (uint64_t state[4 * 25]).
 */
#ifndef RS_STANDIN_MLK_FIPS202_NATIVE_API_H
#define RS_STANDIN_MLK_FIPS202_NATIVE_API_H

#define MLK_NATIVE_FUNC_SUCCESS (0)
#define MLK_NATIVE_FUNC_FALLBACK (-1)

#if defined(MLK_USE_NATIVE_FIPS202_X1)
static MLK_INLINE int mlk_keccak_f1600_x1_native(uint64_t *state);
#endif
#if defined(MLK_USE_NATIVE_FIPS202_X4)
static MLK_INLINE int mlk_keccak_f1600_x4_native(uint64_t *state);
#endif
#if defined(MLK_USE_NATIVE_FIPS202_X4_XOR_BYTES)
static MLK_INLINE int mlk_keccakf1600_xor_bytes_x4_native(
    uint64_t *state, const unsigned char *data0, const unsigned char *data1,
    const unsigned char *data2, const unsigned char *data3, unsigned offset, unsigned length);
#endif
#if defined(MLK_USE_NATIVE_FIPS202_X4_EXTRACT_BYTES)
static MLK_INLINE int mlk_keccakf1600_extract_bytes_x4_native(
    uint64_t *state, unsigned char *data0, unsigned char *data1, unsigned char *data2,
    unsigned char *data3, unsigned offset, unsigned length);
#endif

#endif
