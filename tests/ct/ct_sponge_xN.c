/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of the multi-buffer sponges (ct_common.h): every lane's message bytes
 * are secret, the lengths public. SHA3-256 and Keccak-256 one-shot at every width, SHAKE128
 * and TurboSHAKE256 one-shot and absorbed and squeezed in pieces. Under valgrind the x-N
 * kernels its CPU allows run (x4 AVX2: valgrind 3.19 reports no AVX-512, so x8 is not
 * checked here; scalar under tcc). One verdict per function.
 */
#include <stdint.h>
#include <string.h>

#include "ct/ct_common.h"
#include "keccak_sponge.h"

#define MAXN 8
#define MAXMSG 600

static uint8_t msgs[MAXN][MAXMSG], outs[MAXN][512];
static const uint8_t *in[MAXN];
static uint8_t *out[MAXN];

static void secret_messages(size_t len)
{
    size_t i, j;
    for (j = 0; j < MAXN; j++) {
        for (i = 0; i < len; i++)
            msgs[j][i] = (uint8_t)(i * 0x9Du + len + 31 * j);
        ct_secret(msgs[j], len);
        in[j] = msgs[j];
        out[j] = outs[j];
    }
}

static void declassify_outputs(void)
{
    unsigned j;
    for (j = 0; j < MAXN; j++)
        ct_declassify(outs[j], sizeof outs[j]);
}

/* Around every block boundary of the rates used (72..168) and a few blocks. */
static const size_t lengths[] = {0, 1, 7, 8, 71, 72, 73, 135, 136, 137, 167, 168, 169, 500};
#define NLENGTHS (sizeof lengths / sizeof lengths[0])

static void run_sha3_256(void)
{
    size_t k;
    for (k = 0; k < NLENGTHS; k++) {
        secret_messages(lengths[k]);
        sha3_256_x2(out, in, lengths[k]);
        sha3_256_x4(out, in, lengths[k]);
        sha3_256_x8(out, in, lengths[k]);
        declassify_outputs();
    }
}

static void run_keccak256(void)
{
    size_t k;
    for (k = 0; k < NLENGTHS; k++) {
        secret_messages(lengths[k]);
        keccak256_x4(out, in, lengths[k]);
        keccak256_x8(out, in, lengths[k]);
        declassify_outputs();
    }
}

static void run_shake128(void)
{
    size_t k, half;
    unsigned j;
    const uint8_t *rest[MAXN];
    uint8_t *more[MAXN];
    keccak_sponge_x4 c4;
    keccak_sponge_x8 c8;
    for (k = 0; k < NLENGTHS; k++) {
        secret_messages(lengths[k]);
        half = lengths[k] / 2;
        for (j = 0; j < MAXN; j++) {
            rest[j] = msgs[j] + half;
            more[j] = outs[j] + 5;
        }
        shake128_x2(out, 300, in, lengths[k]);
        shake128_x4_init(&c4);
        shake128_x4_absorb(&c4, in, half);
        shake128_x4_absorb(&c4, rest, lengths[k] - half);
        shake128_x4_squeeze(&c4, out, 5);
        shake128_x4_squeeze(&c4, more, 400);
        shake128_x8_init(&c8);
        shake128_x8_absorb(&c8, in, lengths[k]);
        shake128_x8_squeeze(&c8, out, 336);
        declassify_outputs();
    }
}

static void run_turboshake256(void)
{
    size_t k;
    for (k = 0; k < NLENGTHS; k++) {
        secret_messages(lengths[k]);
        turboshake256_x4(out, 200, in, lengths[k], 0x1F);
        turboshake256_x8(out, 300, in, lengths[k], 0x0B);
        declassify_outputs();
    }
}

static const struct {
    const char *name;
    void (*run)(void);
} functions[] = {
    {"sha3_256_x2/x4/x8 (out/ sponge, one-shot)", run_sha3_256},
    {"keccak256_x4/x8 (out/ sponge, one-shot)", run_keccak256},
    {"shake128_x2/x4/x8 (out/ sponge, one-shot, absorb and squeeze in pieces)", run_shake128},
    {"turboshake256_x4/x8 (out/ sponge, two domain bytes)", run_turboshake256},
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
