/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Kyber's fips202.c on a roundsmith bundle: copy over ref/fips202.c or avx2/fips202.c of
 * pq-crystals' Kyber. Kyber's fips202.h stays as it is (its namespace macros rename every
 * function below to Kyber's symbol), and so does its keccak_state, which Kyber's test code
 * sets by hand (test_vectors.c: a SHAKE128 state, padded, its position at the rate): the
 * position means what it means in Kyber, the bytes absorbed into the current block, or
 * squeezed from it (the rate: none left). The bundle is made with a prefix, since its plain
 * names are Kyber's own (shake128, sha3_256, ...):
 *
 *     python3 -m generator bundle --target x86_64 --kernels keccak --prefix rs_pq_ --out DIR
 *
 * Build Kyber with -IDIR and link the bundle's objects. (With --prefix rs_pq_
 * --keep-drop-in-names, XKCP's names keep no prefix: the rs_pq_KeccakP1600_* below lose it.)
 */
/* ---- the glue ---- */
#include <string.h>
#include "fips202.h"
#include "roundsmith.h"
static void absorb(keccak_state *st, unsigned r, const uint8_t *in, size_t n)
{
    for (; st->pos + n >= r; in += r - st->pos, n -= r - st->pos, st->pos = 0)
        rs_pq_KeccakP1600_AddBytes(st->s, in, st->pos, r - st->pos), rs_pq_keccak_f1600(st->s);
    rs_pq_KeccakP1600_AddBytes(st->s, in, st->pos, (unsigned)n);
    st->pos += (unsigned)n;
}
static void squeeze(uint8_t *out, size_t n, keccak_state *st, unsigned r)
{
    size_t k;
    for (; n; out += k, n -= k, st->pos += (unsigned)k) {
        if (st->pos == r)
            rs_pq_keccak_f1600(st->s), st->pos = 0;
        k = r - st->pos < n ? r - st->pos : n;
        rs_pq_KeccakP1600_ExtractBytes(st->s, out, st->pos, (unsigned)k);
    }
}
#define RS_KYBER_SHAKE(B, R)                                                                    \
void shake##B##_init(keccak_state *s) { memset(s, 0, sizeof *s); }                             \
void shake##B##_absorb(keccak_state *s, const uint8_t *in, size_t n) { absorb(s, R, in, n); }  \
void shake##B##_finalize(keccak_state *s)                                                     \
{ rs_pq_KeccakP1600_AddByte(s->s, 0x1F, s->pos); rs_pq_KeccakP1600_AddByte(s->s, 0x80, R - 1); s->pos = R; } \
void shake##B##_squeeze(uint8_t *o, size_t n, keccak_state *s) { squeeze(o, n, s, R); }       \
void shake##B##_absorb_once(keccak_state *s, const uint8_t *in, size_t n)                     \
{ shake##B##_init(s); absorb(s, R, in, n); shake##B##_finalize(s); }                            \
void shake##B##_squeezeblocks(uint8_t *o, size_t nb, keccak_state *s)                         \
{ rs_pq_keccak_p1600_squeeze(s->s, 24, R / 8, o, nb * R); }                                     \
void shake##B(uint8_t *o, size_t m, const uint8_t *in, size_t n) { rs_pq_shake##B(o, m, in, n); }
RS_KYBER_SHAKE(128, SHAKE128_RATE)
RS_KYBER_SHAKE(256, SHAKE256_RATE)
void sha3_256(uint8_t h[32], const uint8_t *in, size_t n) { rs_pq_sha3_256(h, in, n); }
void sha3_512(uint8_t h[64], const uint8_t *in, size_t n) { rs_pq_sha3_512(h, in, n); }
/* ---- end of the glue ---- */
