/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Kyber's fips202x4.c on a roundsmith bundle: copy over avx2/fips202x4.c of pq-crystals'
 * Kyber and leave avx2/keccak4x/ out of the build. Kyber's fips202x4.h stays as it is: its
 * keccakx4_state (__m256i s[25], four interleaved states) is keccak_f1600_x4's layout, so the
 * bundle's block loops run on it directly. The bundle is the one fips202.c beside it takes
 * (--prefix rs_pq_).
 */
/* ---- the glue ---- */
#include <string.h>
#include "fips202x4.h"
#include "roundsmith.h"
#define RS_I4 const uint8_t *i0, const uint8_t *i1, const uint8_t *i2, const uint8_t *i3
#define RS_O4 uint8_t *o0, uint8_t *o1, uint8_t *o2, uint8_t *o3
#define RS_KYBER_X4(B, R)                                                                       \
void shake##B##x4_absorb_once(keccakx4_state *s, RS_I4, size_t n)                              \
{ const uint8_t *in[4] = {i0, i1, i2, i3}; size_t d = n / R * R; unsigned j;                  \
  memset(s, 0, sizeof *s); rs_pq_keccak_p1600_x4_absorb((uint64_t(*)[4])s->s, in, n / R, R / 8, 24); \
  for (j = 0; j < 4; j++) { rs_pq_KeccakP1600times4_AddBytes(s->s, j, in[j] + d, 0, (unsigned)(n - d)); \
    rs_pq_KeccakP1600times4_AddByte(s->s, j, 0x1F, (unsigned)(n - d)); rs_pq_KeccakP1600times4_AddByte(s->s, j, 0x80, R - 1); } } \
void shake##B##x4_squeezeblocks(RS_O4, size_t nb, keccakx4_state *s)                          \
{ uint8_t *const o[4] = {o0, o1, o2, o3}; rs_pq_keccak_p1600_x4_squeeze((uint64_t(*)[4])s->s, o, nb, R / 8, 24); } \
void shake##B##x4(RS_O4, size_t m, RS_I4, size_t n)                                           \
{ uint8_t *const o[4] = {o0, o1, o2, o3}; const uint8_t *const in[4] = {i0, i1, i2, i3}; rs_pq_shake##B##_x4(o, m, in, n); }
RS_KYBER_X4(128, 168)
RS_KYBER_X4(256, 136)
/* ---- end of the glue ---- */
