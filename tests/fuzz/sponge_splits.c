/*
 * libFuzzer target: a sponge fed and drained in fuzzer-chosen pieces must give the bytes of a
 * one-shot run, for any rate (1..199 bytes, so padding lands at every position), round count
 * (0..24), domain byte and Keccak variant linked in. The sponge is reached only through
 * sponge_api.h. Every piece lives in its own exact-size heap buffer, so a read or write past
 * a piece is an AddressSanitizer report, not a silent pass.
 *
 * Input: variant, rate, rounds, domain, output length (2 bytes), then the message; the split
 * points come from a generator seeded by the whole input, so a crash reproduces from it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_variants.h"
#include "sponge_api.h"

#include "keccak_variant_table.h"

static const struct variant *runnable[NVARIANTS];
static size_t nrunnable;

#define HEADER 6

static void one_shot_sha3_256(const struct variant *v, const uint8_t *msg, size_t len,
                              uint8_t out[32])
{
    rs_fuzz_sponge s;
    rs_fuzz_sponge_init(&s, v->p1600, 24, 136, 0x06);
    rs_fuzz_sponge_absorb(&s, msg, len);
    rs_fuzz_sponge_squeeze(&s, out, 32);
}

/* The one-shot side must itself be right, or agreeing with it proves little: SHA3-256 of ""
 * and of "abc" (FIPS 202 examples) through every variant before fuzzing starts. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    static const uint8_t empty[32] = {
        0xa7, 0xff, 0xc6, 0xf8, 0xbf, 0x1e, 0xd7, 0x66, 0x51, 0xc1, 0x47,
        0x56, 0xa0, 0x61, 0xd6, 0x62, 0xf5, 0x80, 0xff, 0x4d, 0xe4, 0x3b,
        0x49, 0xfa, 0x82, 0xd8, 0x0a, 0x4b, 0x80, 0xf8, 0x43, 0x4a};
    static const uint8_t abc[32] = {
        0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2, 0x04, 0x5c, 0x17,
        0x2d, 0x6b, 0xd3, 0x90, 0xbd, 0x85, 0x5f, 0x08, 0x6e, 0x3e, 0x9d,
        0x52, 0x5b, 0x46, 0xbf, 0xe2, 0x45, 0x11, 0x43, 0x15, 0x32};
    uint8_t out[32];
    size_t k;
    (void)argc;
    (void)argv;
    for (k = 0; k < NVARIANTS; k++) {
        const char *missing = "";
        if (!rs_cpu_has_all(all_variants[k].cpu, &missing))
            continue;
        runnable[nrunnable++] = &all_variants[k];
        one_shot_sha3_256(&all_variants[k], NULL, 0, out);
        if (memcmp(out, empty, 32) != 0) {
            fprintf(stderr, "%s: SHA3-256(\"\") is wrong\n", all_variants[k].name);
            abort();
        }
        one_shot_sha3_256(&all_variants[k], (const uint8_t *)"abc", 3, out);
        if (memcmp(out, abc, 32) != 0) {
            fprintf(stderr, "%s: SHA3-256(\"abc\") is wrong\n", all_variants[k].name);
            abort();
        }
    }
    fprintf(stderr, "sponge_splits: %zu variants, SHA3-256 examples ok\n", nrunnable);
    return 0;
}

static uint64_t next(uint64_t *x)
{
    /* xorshift64: any fixed generator will do, it only has to be the same on a rerun */
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A piece length for a sponge of this rate: often 0 or a short piece, sometimes across a
 * block boundary, sometimes whole blocks. */
static size_t piece(uint64_t *rng, size_t rate, size_t left)
{
    size_t n;
    switch (next(rng) % 4) {
    case 0: n = 0; break;
    case 1: n = (size_t)(next(rng) % 8); break;
    case 2: n = (size_t)(next(rng) % (2 * rate + 1)); break;
    default: n = rate * (size_t)(1 + next(rng) % 3); break;
    }
    return n < left ? n : left;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct variant *v;
    rs_fuzz_sponge whole, split;
    size_t rate, outlen, msglen, done, k;
    unsigned rounds;
    uint8_t domain;
    const uint8_t *msg;
    uint8_t *want, *got;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;

    if (size < HEADER || nrunnable == 0)
        return 0;
    v = runnable[data[0] % nrunnable];
    rate = 1 + data[1] % 199;
    rounds = data[2] % 25;
    domain = data[3] ? data[3] : 0x1F;
    outlen = (size_t)(data[4] | data[5] << 8) % 1024;
    msg = data + HEADER;
    msglen = size - HEADER;
    for (k = 0; k < size; k++)
        rng = (rng ^ data[k]) * 0x100000001B3ULL;
    rng |= 1;

    want = malloc(outlen + 1);
    got = malloc(outlen + 1);
    if (!want || !got)
        abort();
    rs_fuzz_sponge_init(&whole, v->p1600, rounds, rate, domain);
    rs_fuzz_sponge_absorb(&whole, msglen ? msg : NULL, msglen);
    rs_fuzz_sponge_squeeze(&whole, want, outlen);

    rs_fuzz_sponge_init(&split, v->p1600, rounds, rate, domain);
    for (done = 0; done < msglen;) {
        size_t n = piece(&rng, rate, msglen - done);
        uint8_t *chunk = n ? malloc(n) : NULL;
        if (n && !chunk)
            abort();
        if (n)
            memcpy(chunk, msg + done, n);
        rs_fuzz_sponge_absorb(&split, chunk, n);
        free(chunk);
        done += n;
    }
    for (done = 0; done < outlen;) {
        size_t n = piece(&rng, rate, outlen - done);
        uint8_t *chunk = n ? malloc(n) : NULL;
        if (n && !chunk)
            abort();
        rs_fuzz_sponge_squeeze(&split, chunk, n);
        if (n)
            memcpy(got + done, chunk, n);
        free(chunk);
        done += n;
    }
    if (outlen && memcmp(want, got, outlen) != 0) {
        fprintf(stderr, "MISMATCH %s rate=%zu rounds=%u domain=0x%02X msglen=%zu outlen=%zu\n",
                v->name, rate, rounds, domain, msglen, outlen);
        abort();
    }
    free(want);
    free(got);
    return 0;
}
