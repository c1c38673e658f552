/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * kyber_fips202: the bundle's pq-crystals/ drop-in (fips202.h, fips202.c, fips202x4.h,
 * fips202x4.c: Kyber's and Dilithium's FIPS 202 interface) driven the way pq-crystals' Kyber
 * uses it: through Kyber's own names, a keccak_state set by hand as Kyber's test_vectors.c sets
 * its generator's, the absorb-once and squeeze-blocks of its matrix, the incremental SHAKE256
 * of its rejection key derivation, SHA3-256 and SHA3-512, and the four-way functions of its
 * AVX2 code. Checked against the bundle's own functions (taken below before fips202.h's
 * macros rename shake128, sha3_256, ...) and FIPS 202's values for "abc" and "".
 *
 *   (build: from the repository, DIR out/x86_64, or -DRS_PQ and a bundle made with
 *   --prefix rs_pq_)
 *   gcc -O2 -Wall -Wextra -pedantic -IDIR -IDIR/pq-crystals examples/kyber_fips202.c
 *       DIR/pq-crystals/fips202.c DIR/pq-crystals/fips202x4.c <each .c file of DIR>
 *       -o kyber_fips202
 *   ./kyber_fips202   prints "kyber_fips202: ok" and exits 0, or names the first difference
 */
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

/* RS: the bundle's exported names; NS: its own (rs_path_name), in its namespace. */
#ifdef RS_PQ
#define RS(name) rs_pq_##name
#define NS(name) rs_pq_##name
#else
#define RS(name) name
#define NS(name) rs_##name
#endif

typedef void xof_fn(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);
typedef void hash_fn(uint8_t *out, const uint8_t *in, size_t inlen);
static xof_fn *const bundle_shake128 = RS(shake128), *const bundle_shake256 = RS(shake256);
static hash_fn *const bundle_sha3_256 = RS(sha3_256), *const bundle_sha3_512 = RS(sha3_512);

#include "fips202.h"
#include "fips202x4.h"

static int bad;

static void expect(const uint8_t *got, const uint8_t *want, size_t len, const char *what)
{
    if (memcmp(got, want, len)) {
        printf("kyber_fips202: %s differs (path %s)\n", what, NS(path_name)());
        bad = 1;
    }
}

int main(void)
{
    static const uint8_t abc256[8] = {0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2};
    static const uint8_t abc512[8] = {0xb7, 0x51, 0x85, 0x0b, 0x1a, 0x57, 0x16, 0x8a};
    static const uint8_t empty128[8] = {0x7f, 0x9c, 0x2b, 0xa4, 0xe8, 0x8f, 0x82, 0x7d};
    static const uint8_t empty256[8] = {0x46, 0xb9, 0xdd, 0x2b, 0x0b, 0xa8, 0x8d, 0x13};
    /* test_vectors.c's generator: SHAKE128 of nothing, padded by hand, position at the rate. */
    keccak_state rng = {{0x1F, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                         1ULL << 63, 0, 0, 0, 0}, SHAKE128_RATE};
    static uint8_t in[4][400], out[4][3 * SHAKE128_RATE], want[3 * SHAKE128_RATE];
    keccak_state st;
    keccakx4_state st4;
    size_t n, k;
    unsigned j;

    for (j = 0; j < 4; j++)
        for (k = 0; k < sizeof in[j]; k++)
            in[j][k] = (uint8_t)(k * 37 + j * 5 + 2);
    sha3_256(out[0], (const uint8_t *)"abc", 3);
    expect(out[0], abc256, sizeof abc256, "SHA3-256(\"abc\")");
    sha3_512(out[0], (const uint8_t *)"abc", 3);
    expect(out[0], abc512, sizeof abc512, "SHA3-512(\"abc\")");
    shake128(out[0], 8, (const uint8_t *)"", 0);
    expect(out[0], empty128, sizeof empty128, "SHAKE128(\"\")");
    shake256(out[0], 8, (const uint8_t *)"", 0);
    expect(out[0], empty256, sizeof empty256, "SHAKE256(\"\")");
    shake128_squeeze(out[0], 1, &rng);
    shake128_squeeze(out[0] + 1, 200, &rng);
    shake128_squeeze(out[0] + 201, 3 * SHAKE128_RATE - 201, &rng);
    bundle_shake128(want, sizeof want, (const uint8_t *)"", 0);
    expect(out[0], want, sizeof want, "the hand-set SHAKE128 state");
    for (n = 0; n <= 400; n += n == 34 ? 100 : 17) {
        /* The matrix: absorb once, squeeze whole blocks; the x4 form on four inputs. */
        shake128_absorb_once(&st, in[0], n);
        shake128_squeezeblocks(out[0], 3, &st);
        bundle_shake128(want, sizeof want, in[0], n);
        expect(out[0], want, sizeof want, "SHAKE128 absorb-once, squeeze-blocks");
        shake128x4_absorb_once(&st4, in[0], in[1], in[2], in[3], n);
        shake128x4_squeezeblocks(out[0], out[1], out[2], out[3], 3, &st4);
        for (j = 0; j < 4; j++) {
            bundle_shake128(want, sizeof want, in[j], n);
            expect(out[j], want, sizeof want, "SHAKE128 x4 absorb-once, squeeze-blocks");
        }
        shake256x4_absorb_once(&st4, in[0], in[1], in[2], in[3], n);
        shake256x4_squeezeblocks(out[0], out[1], out[2], out[3], 2, &st4);
        shake256x4(out[0] + 2 * SHAKE256_RATE, out[1] + 2 * SHAKE256_RATE,
                   out[2] + 2 * SHAKE256_RATE, out[3] + 2 * SHAKE256_RATE, 100,
                   in[0], in[1], in[2], in[3], n);
        for (j = 0; j < 4; j++) {
            bundle_shake256(want, 2 * SHAKE256_RATE, in[j], n);
            expect(out[j], want, 2 * SHAKE256_RATE, "SHAKE256 x4 absorb-once, squeeze-blocks");
            expect(out[j] + 2 * SHAKE256_RATE, want, 100, "SHAKE256 x4 one-shot");
        }
        sha3_256(out[0], in[0], n);
        bundle_sha3_256(want, in[0], n);
        expect(out[0], want, 32, "SHA3-256");
        sha3_512(out[0], in[0], n);
        bundle_sha3_512(want, in[0], n);
        expect(out[0], want, 64, "SHA3-512");
        /* The rejection key: SHAKE256 absorbed in two pieces, squeezed in two. */
        shake256_init(&st);
        shake256_absorb(&st, in[0], n / 3);
        shake256_absorb(&st, in[0] + n / 3, n - n / 3);
        shake256_finalize(&st);
        shake256_squeeze(out[0], 5, &st);
        shake256_squeeze(out[0] + 5, 300, &st);
        bundle_shake256(want, 305, in[0], n);
        expect(out[0], want, 305, "SHAKE256 incremental");
        shake256(out[1], 305, in[0], n);
        expect(out[1], want, 305, "SHAKE256 one-shot");
        shake128_init(&st);
        shake128_absorb(&st, in[0], n);
        shake128_finalize(&st);
        shake128_squeeze(out[0], 400, &st);
        shake128(out[1], 400, in[0], n);
        bundle_shake128(want, 400, in[0], n);
        expect(out[0], want, 400, "SHAKE128 incremental");
        expect(out[1], want, 400, "SHAKE128 one-shot");
    }
    if (!bad)
        printf("kyber_fips202: ok (path %s)\n", NS(path_name)());
    return bad;
}
