/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A program with its own Keccak functions under the short names (as SPHINCS+ and Kyber's
 * reference code have them, each with a signature of its own), built with a bundle made with
 * `--prefix my_ --keep-drop-in-names` the README's way: every .c of the folder compiled,
 * every object linked (tests/e2e_peer_names.py).
 *
 * It compiles only if no header of the bundle declares the short names (their types differ
 * here), links only if no object of the bundle defines them, and then calls both the
 * drop-ins under their peers' names (XKCP's KeccakP1600_* and KeccakP1600times4_*, chiapos'
 * chacha8_*) and the prefixed API (my_sha3_256, my_shake256, ...). It prints what each
 * computed, for the Python side to check against known answers:
 *
 *   peer_names own=ok selftest=0 sha3_256=... shake128=... shake256=... ...
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"
/* The drop-ins, by the names their peers' code includes them (roundsmith.h has them too). */
#include "KeccakP-1600-SnP.h"
#include "KeccakP-1600-times4-SnP.h"
#include "chacha8.h"

/* The program's own functions. Each leaves a mark the caller checks, so a call that reached
 * the bundle's code instead would show. */
static unsigned own_calls;

void shake256(unsigned char *out, unsigned long long outlen, const unsigned char *in,
              unsigned long long inlen)
{
    (void)in;
    (void)inlen;
    memset(out, 0xA5, (size_t)outlen);
    own_calls |= 1;
}

void shake256_absorb(uint64_t *s, const unsigned char *in, unsigned long long inlen)
{
    s[0] = (uint64_t)inlen + (in ? 1u : 0u);
    own_calls |= 2;
}

int sha3_256(unsigned char *h, const unsigned char *in, unsigned long long inlen)
{
    (void)in;
    h[0] = (unsigned char)inlen;
    own_calls |= 4;
    return 256;
}

void shake128(unsigned char *out, unsigned long long outlen, const unsigned char *in,
              unsigned long long inlen, unsigned char tag)
{
    (void)in;
    (void)inlen;
    memset(out, tag, (size_t)outlen);
    own_calls |= 8;
}

unsigned keccak_f1600(void *state, unsigned rounds)
{
    ((unsigned char *)state)[0] ^= 1;
    own_calls |= 16;
    return rounds;
}

static void hex(const char *label, const uint8_t *p, size_t n)
{
    size_t i;
    printf(" %s=", label);
    for (i = 0; i < n; i++)
        printf("%02x", p[i]);
}

/* SHA3-256 padding of a message shorter than a block, by hand through an SnP state. */
#define RATE 136

static int own_functions_ran(void)
{
    unsigned char buf[8] = {0};
    uint64_t s[25] = {0};
    unsigned char st[200] = {0};

    shake256(buf, sizeof buf, buf, 1);
    shake256_absorb(s, buf, 5);
    shake128(buf, 4, buf, 1, 0x5A);
    return buf[0] == 0x5A && buf[4] == 0xA5 && s[0] == 6 && sha3_256(buf, buf, 3) == 256
           && buf[0] == 3 && keccak_f1600(st, 24) == 24 && st[0] == 1 && own_calls == 31;
}

int main(void)
{
    static const uint8_t abc[3] = {'a', 'b', 'c'};
    uint8_t msg[200], out[64], block[RATE], key[32], iv[8], ks[128];
    uint64_t lanes[25] = {0};
    KeccakP1600_state one;
    KeccakP1600times4_states four;
    my_keccak_sponge ctx;
    struct chacha8_ctx cc;
    unsigned i, j;

    for (i = 0; i < sizeof msg; i++)
        msg[i] = (uint8_t)(i * 7 + 1);
    printf("peer_names own=%s selftest=%d path=%s", own_functions_ran() ? "ok" : "BROKEN",
           my_selftest(), my_path_name());

    /* The prefixed API. */
    my_sha3_256(out, abc, sizeof abc);
    hex("sha3_256", out, 32);
    my_shake128(out, 64, msg, sizeof msg);
    hex("shake128", out, 64);
    my_shake256(out, 64, msg, sizeof msg);
    hex("shake256", out, 64);
    my_shake256_init(&ctx);
    my_shake256_absorb(&ctx, msg, 77);
    my_shake256_absorb(&ctx, msg + 77, sizeof msg - 77);
    my_shake256_squeeze(&ctx, out, 64);
    hex("shake256_inc", out, 64);
    my_keccak_f1600(lanes);
    hex("keccak_f1600", (const uint8_t *)lanes, 200);

    /* XKCP's SnP: SHA3-256("abc") by hand. */
    memset(block, 0, sizeof block);
    memcpy(block, abc, sizeof abc);
    block[sizeof abc] = 0x06;
    block[RATE - 1] |= 0x80;
    KeccakP1600_Initialize(&one);
    KeccakP1600_AddBytes(&one, block, 0, RATE);
    KeccakP1600_Permute_24rounds(&one);
    KeccakP1600_ExtractBytes(&one, out, 0, 32);
    hex("snp_sha3_256", out, 32);

    /* XKCP's times4 SnP: SHA3-256 of msg[0 .. j] for instance j = 0..3. */
    KeccakP1600times4_InitializeAll(&four);
    for (j = 0; j < 4; j++) {
        KeccakP1600times4_AddBytes(&four, j, msg, 0, j + 1);
        KeccakP1600times4_AddByte(&four, j, 0x06, j + 1);
        KeccakP1600times4_AddByte(&four, j, 0x80, RATE - 1);
    }
    KeccakP1600times4_PermuteAll_24rounds(&four);
    for (j = 0; j < 4; j++) {
        char label[16];
        KeccakP1600times4_ExtractBytes(&four, j, out, 0, 32);
        snprintf(label, sizeof label, "x4_sha3_%u", j);
        hex(label, out, 32);
    }

    /* chiapos' ChaCha8: blocks 3 and 4 of the keystream. */
    for (i = 0; i < 32; i++)
        key[i] = (uint8_t)i;
    for (i = 0; i < 8; i++)
        iv[i] = (uint8_t)(0xF0 + i);
    chacha8_keysetup(&cc, key, 256, iv);
    chacha8_get_keystream(&cc, 3, 2, ks);
    hex("chacha8", ks, sizeof ks);
    printf("\n");
    return 0;
}
