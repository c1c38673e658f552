/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * libFuzzer differential target: every Keccak-p[1600] variant linked in (keccak_variants.h)
 * against the plain reference tests/ref/keccak_ref.c (itself checked against the Python
 * reference by the Check suites), on fuzzer-chosen states and round counts.
 *
 * Input: byte 0 picks the round count (0..31: 25..31 must leave the state unchanged, as the
 * header documents), the next 200 bytes are the state (missing bytes are zero). Every variant
 * runs on every input: the kernels have no data-dependent branches, so coverage cannot steer
 * the fuzzer between them, and running all of them costs less than a lost mismatch.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_variants.h"
#include "ref/keccak_ref.h"

#include "keccak_variant_table.h"

static const struct variant *runnable[NVARIANTS];
static size_t nrunnable;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    size_t k;
    (void)argc;
    (void)argv;
    for (k = 0; k < NVARIANTS; k++) {
        const char *missing = "";
        if (rs_cpu_has_all(all_variants[k].cpu, &missing))
            runnable[nrunnable++] = &all_variants[k];
    }
    fprintf(stderr, "keccak_vs_ref: %zu of %zu variants runnable on this CPU\n", nrunnable,
            (size_t)NVARIANTS);
    return 0;
}

static void mismatch(const char *variant, const char *entry, unsigned rounds,
                     const uint64_t in[25])
{
    size_t k;
    fprintf(stderr, "MISMATCH %s %s rounds=%u, input state:\n", variant, entry, rounds);
    for (k = 0; k < 25; k++)
        fprintf(stderr, "%016llX%c", (unsigned long long)in[k], k % 5 == 4 ? '\n' : ' ');
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t bytes[200] = {0};
    uint64_t in[25], want[25], got[25];
    unsigned rounds;
    size_t k;

    if (size == 0)
        return 0;
    rounds = data[0] % 32;
    memcpy(bytes, data + 1, size - 1 < sizeof bytes ? size - 1 : sizeof bytes);
    for (k = 0; k < 200; k++) /* FIPS 202 byte order whatever the host's */
        in[k / 8] = (k % 8 ? in[k / 8] : 0) | (uint64_t)bytes[k] << (8 * (k % 8));

    memcpy(want, in, sizeof want);
    keccak_ref_p1600(want, rounds);
    if (rounds > 24 && memcmp(want, in, sizeof in) != 0)
        mismatch("reference", "keccak_ref_p1600 (out-of-range rounds)", rounds, in);
    for (k = 0; k < nrunnable; k++) {
        memcpy(got, in, sizeof got);
        runnable[k]->p1600(got, rounds);
        if (memcmp(got, want, sizeof got) != 0)
            mismatch(runnable[k]->name, "keccak_p1600", rounds, in);
        if (rounds == 24) {
            memcpy(got, in, sizeof got);
            runnable[k]->f1600(got);
            if (memcmp(got, want, sizeof got) != 0)
                mismatch(runnable[k]->name, "keccak_f1600", rounds, in);
        }
    }
    return 0;
}
