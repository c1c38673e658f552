/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of the out/ sponge layer (ct_common.h): the message bytes are secret,
 * the lengths public (as in every use of a hash). SHA3-256 and Keccak-256 one-shot and
 * incremental, SHAKE128 and TurboSHAKE128 absorbed and squeezed in pieces, KT128 past its
 * 8 KiB chunks (its leaves run on the x-N kernel valgrind's CPU allows: x4 AVX2, as valgrind
 * 3.19 reports no AVX-512; scalar under tcc), KT256 likewise, NIST SP 800-185 with its secrets
 * secret (KMAC's key and message, cSHAKE's and TupleHash's strings, ParallelHash's message
 * over several batches of blocks, the lengths and the block size public), and XKCP's SnP
 * interface: every byte
 * function over the state at every offset (state and data secret, offsets and lengths public)
 * and the OD duplexing loops. One verdict per function.
 */
#include <stdint.h>
#include <string.h>

#include "KeccakP-1600-SnP.h"
#include "ct/ct_common.h"
#include "keccak_sponge.h"

#define MAXMSG (3 * 8192 + 300)

static uint8_t msg[MAXMSG], out[512];

static void secret_message(size_t len)
{
    size_t i;
    for (i = 0; i < len; i++)
        msg[i] = (uint8_t)(i * 0x9Du + len);
    ct_secret(msg, len);
}

/* Lengths around every block boundary of every rate (72..168) and a few multi-block ones. */
static const size_t lengths[] = {0, 1, 7, 8, 71, 72, 73, 135, 136, 137, 167, 168, 169, 500,
                                 1000};
#define NLENGTHS (sizeof lengths / sizeof lengths[0])

static void run_sha3_256(void)
{
    size_t k;
    keccak_sponge c;
    for (k = 0; k < NLENGTHS; k++) {
        secret_message(lengths[k]);
        sha3_256(out, msg, lengths[k]);
        sha3_256_init(&c);
        sha3_256_update(&c, msg, lengths[k] / 3);
        sha3_256_update(&c, msg + lengths[k] / 3, lengths[k] - lengths[k] / 3);
        sha3_256_final(&c, out + 32);
        ct_declassify(out, sizeof out);
    }
}

static void run_keccak256(void)
{
    size_t k;
    keccak_sponge c;
    for (k = 0; k < NLENGTHS; k++) {
        secret_message(lengths[k]);
        keccak256(out, msg, lengths[k]);
        keccak256_init(&c);
        keccak256_update(&c, msg, lengths[k]);
        keccak256_final(&c, out + 32);
        ct_declassify(out, sizeof out);
    }
}

static void run_shake128(void)
{
    size_t k;
    keccak_sponge c;
    for (k = 0; k < NLENGTHS; k++) {
        secret_message(lengths[k]);
        shake128(out, 200, msg, lengths[k]);
        shake128_init(&c);
        shake128_absorb(&c, msg, lengths[k] / 2);
        shake128_absorb(&c, msg + lengths[k] / 2, lengths[k] - lengths[k] / 2);
        shake128_squeeze(&c, out, 5);
        shake128_squeeze(&c, out + 5, 400);
        ct_declassify(out, sizeof out);
    }
}

static void run_turboshake128(void)
{
    size_t k;
    keccak_sponge c;
    for (k = 0; k < NLENGTHS; k++) {
        secret_message(lengths[k]);
        turboshake128(out, 100, msg, lengths[k], 0x1F);
        turboshake128_init(&c, 0x0B);
        turboshake128_absorb(&c, msg, lengths[k]);
        turboshake128_squeeze(&c, out, 300);
        ct_declassify(out, sizeof out);
    }
}

static void run_kt128(void)
{
    static const size_t kt_lengths[] = {0, 100, 8191, 8192, 8193, 2 * 8192 + 1, MAXMSG};
    size_t k;
    kt128_ctx c;
    for (k = 0; k < sizeof kt_lengths / sizeof kt_lengths[0]; k++) {
        size_t len = kt_lengths[k];
        secret_message(len);
        kt128(out, 64, msg, len, msg, len < 10 ? len : 10);
        kt128_init(&c);
        kt128_update(&c, msg, len / 2);
        kt128_update(&c, msg + len / 2, len - len / 2);
        kt128_final(&c, NULL, 0, out, 64);
        ct_declassify(out, sizeof out);
    }
}

static void run_kt256(void)
{
    static const size_t kt_lengths[] = {0, 136, 8192, 8193, MAXMSG};
    size_t k;
    kt256_ctx c;
    for (k = 0; k < sizeof kt_lengths / sizeof kt_lengths[0]; k++) {
        size_t len = kt_lengths[k];
        secret_message(len);
        kt256(out, 64, msg, len, msg, len < 10 ? len : 10);
        kt256_init(&c);
        kt256_update(&c, msg, len / 3);
        kt256_update(&c, msg + len / 3, len - len / 3);
        kt256_final(&c, NULL, 0, out + 64, 100);
        ct_declassify(out, sizeof out);
    }
}

/* KMAC's key at every length around a block of either rate, the message after it. */
static void run_kmac(void)
{
    static const size_t key_lengths[] = {0, 16, 32, 131, 132, 133, 163, 164, 165, 300};
    size_t k;
    keccak_sponge c;
    for (k = 0; k < sizeof key_lengths / sizeof key_lengths[0]; k++) {
        size_t keylen = key_lengths[k], len = 1000;
        secret_message(keylen + len);
        kmac128(out, 32, msg, keylen, msg + keylen, len, NULL, 0);
        kmac256(out + 32, 64, msg, keylen, msg + keylen, len, msg, 5);
        kmacxof128(out + 96, 200, msg, keylen, msg + keylen, len / 2, NULL, 0);
        kmac256_init(&c, msg, keylen, NULL, 0);
        kmac256_update(&c, msg + keylen, 7);
        kmac256_update(&c, msg + keylen + 7, len - 7);
        kmac256_final(&c, out + 300, 64);
        kmac128_init(&c, msg, keylen, msg, 3);
        kmac128_update(&c, msg + keylen, len);
        kmac128_squeeze(&c, out + 364, 1);
        kmac128_squeeze(&c, out + 365, 140);
        ct_declassify(out, sizeof out);
    }
}

static void run_cshake_tuplehash(void)
{
    static const size_t lengths3[] = {0, 1, 135, 168, 500};
    size_t k;
    keccak_sponge c;
    for (k = 0; k < sizeof lengths3 / sizeof lengths3[0]; k++) {
        size_t len = lengths3[k];
        const uint8_t *parts[3];
        size_t lens[3];
        secret_message(3 * len + 40);
        cshake128(out, 100, msg, len, msg + len, 20, msg + len + 20, 20);
        cshake256_init(&c, NULL, 0, msg, len);
        cshake256_absorb(&c, msg + len, len);
        cshake256_squeeze(&c, out + 100, 200);
        parts[0] = msg;
        parts[1] = msg + len;
        parts[2] = msg + 2 * len;
        lens[0] = len;
        lens[1] = len / 2;
        lens[2] = 40;
        tuplehash128(out + 300, 32, parts, lens, 3, msg, 5);
        tuplehashxof256(out + 332, 64, parts, lens, 3, NULL, 0);
        tuplehash256_init(&c, msg, len);
        tuplehash256_add(&c, parts[0], lens[0]);
        tuplehash256_add(&c, parts[2], lens[2]);
        tuplehash256_final(&c, out + 400, 64);
        ct_declassify(out, sizeof out);
    }
}

/* Block sizes under a rate, across one, and KT's 8192: batches of whole blocks go through
 * the x-N kernels, the rest through the sponge. */
static void run_parallelhash(void)
{
    static const size_t blocks[] = {1, 100, 137, 1000, 8192};
    size_t k;
    parallelhash_ctx c;
    for (k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
        size_t b = blocks[k], len = MAXMSG;
        secret_message(len);
        parallelhash128(out, 32, msg, len, b, msg, 4);
        parallelhashxof256(out + 32, 100, msg, len - 3, b, NULL, 0);
        parallelhash256_init(&c, b, NULL, 0);
        parallelhash256_update(&c, msg, 5);
        parallelhash256_update(&c, msg + 5, len - 5);
        parallelhash256_final(&c, out + 132, 64);
        parallelhash128_init(&c, b, msg, 2);
        parallelhash128_update(&c, msg, len / 2);
        parallelhash128_squeeze(&c, out + 196, 300);
        ct_declassify(out, sizeof out);
    }
}

static void run_snp(void)
{
    KeccakP1600_state state;
    unsigned offset, length;
    uint64_t trail;

    secret_message(MAXMSG);
    memcpy(&trail, msg, 8);
    for (offset = 0; offset <= 200; offset += 3)
        for (length = 0; offset + length <= 200; length += 7) {
            KeccakP1600_Initialize(&state);
            KeccakP1600_AddBytes(&state, msg, 0, 200);
            KeccakP1600_AddBytes(&state, msg + 1, offset, length);
            KeccakP1600_OverwriteBytes(&state, msg + 3, offset, length);
            KeccakP1600_ExtractBytes(&state, out, offset, length);
            KeccakP1600_ExtractAndAddBytes(&state, msg + 5, out + 256, offset, length);
            KeccakP1600_OverwriteWithZeroes(&state, offset);
            ct_declassify(out, sizeof out);
        }
    KeccakP1600_Permute_24rounds(&state);
    KeccakP1600_ODDuplexingFastInOut(&state, 20, msg, 1000, msg + 2000, msg + 4000, trail);
    KeccakP1600_12rounds_ODDuplexingFastOut(&state, 16, msg + 6000, 700, msg + 7000, trail);
    KeccakP1600_ODDuplexingFastIn(&state, 21, msg + 8000, 900, trail);
    ct_declassify(msg, sizeof msg);
}

static const struct {
    const char *name;
    void (*run)(void);
} functions[] = {
    {"sha3_256 (out/ sponge, one-shot and incremental)", run_sha3_256},
    {"keccak256 (out/ sponge, one-shot and incremental)", run_keccak256},
    {"shake128 (out/ sponge, absorb and squeeze in pieces)", run_shake128},
    {"turboshake128 (out/ sponge, two domain bytes)", run_turboshake128},
    {"kt128 (out/ sponge, one to four chunks)", run_kt128},
    {"kt256 (out/ sponge, one to four chunks)", run_kt256},
    {"kmac128, kmac256, kmacxof128 (secret key and message)", run_kmac},
    {"cshake128, cshake256, tuplehash128/256 (secret strings)", run_cshake_tuplehash},
    {"parallelhash128/256 (secret message, five block sizes)", run_parallelhash},
    {"XKCP SnP (out/ byte functions at every offset, OD duplexing loops)", run_snp},
};

int main(void)
{
    unsigned k, n = sizeof functions / sizeof functions[0];

    ct_start(n);
    for (k = 0; k < n; k++) {
        ct_begin();
        functions[k].run();
        ct_verdict(k + 1, functions[k].name);
    }
    return ct_finish();
}
