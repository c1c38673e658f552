/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of the out/ sponge layer (ct_common.h): the message bytes are secret,
 * the lengths public (as in every use of a hash). SHA3-256 and Keccak-256 one-shot and
 * incremental, SHAKE128 and TurboSHAKE128 absorbed and squeezed in pieces, KT128 past its
 * 8 KiB chunks (its leaves run on the x-N kernel valgrind's CPU allows: x4 AVX2, as valgrind
 * 3.19 reports no AVX-512; scalar under tcc), and XKCP's SnP interface: every byte
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
