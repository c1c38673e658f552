/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A roundsmith bundle as mlkem-native's FIPS-202 backend: the times-4 Keccak-f[1600] and the
 * single-state one under mlkem-native's own SHAKE front end (ML-KEM-768 runs 13 single-state
 * permutations beside its 8 times-4 ones per key generation, so both count). mlkem-native's
 * x4 state is four separate 25-lane states one after another, the layout
 * keccak_f1600_x4_states takes; its x1 state is keccak_f1600's. The byte xor and
 * extract hooks of the backend API (MLK_USE_NATIVE_FIPS202_X4_XOR_BYTES, _EXTRACT_BYTES) are
 * for backends that keep another layout; with this one, mlkem-native's own C code for them
 * reads and writes the right bytes, so they stay unset.
 *
 * Use: copy this file to mlkem/src/fips202/native/roundsmith_x4.h (beside api.h), compile
 * mlkem-native with
 *   -DMLK_CONFIG_USE_NATIVE_BACKEND_FIPS202
 *   -DMLK_CONFIG_FIPS202_BACKEND_FILE='"fips202/native/roundsmith_x4.h"' -Ithird_party/roundsmith
 * and link the bundle's objects (each .c file of it compiled with your flags). The bundle
 * needs no prefix: mlkem-native's names all begin with mlk_ / MLK_. mlkem-native includes
 * the backend file from its assembly files too, hence the __ASSEMBLER__ guard.
 * examples/mlkem_native_x4.c drives it as mlkem-native's front end does.
 */
/* ---- the glue ---- */
#if !defined(RS_MLKEM_NATIVE_ROUNDSMITH_X4_H)
#define RS_MLKEM_NATIVE_ROUNDSMITH_X4_H
#define MLK_USE_NATIVE_FIPS202_X4
#define MLK_USE_NATIVE_FIPS202_X1
#if !defined(__ASSEMBLER__)
#include "api.h"
#include "roundsmith.h"
static MLK_INLINE int mlk_keccak_f1600_x4_native(uint64_t *state)
{
    keccak_f1600_x4_states((uint64_t(*)[25])state);
    return MLK_NATIVE_FUNC_SUCCESS;
}
static MLK_INLINE int mlk_keccak_f1600_x1_native(uint64_t *state)
{
    keccak_f1600(state);
    return MLK_NATIVE_FUNC_SUCCESS;
}
#endif /* !__ASSEMBLER__ */
#endif
/* ---- end of the glue ---- */
