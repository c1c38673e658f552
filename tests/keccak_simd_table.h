/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The vector Keccak variants one build links, as the tables every harness walks (the Check
 * suite, the fuzz target, the constant-time run). The lists come from the generated
 * keccak_simd_variants.h (or the out/ mapping of check_keccak_simd.c), included first.
 */
#ifndef RS_TEST_KECCAK_SIMD_TABLE_H
#define RS_TEST_KECCAK_SIMD_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "cpu_features.h"

#define MAXN RS_KECCAK_MAX_INSTANCES

struct single {
    const char *name;
    const char *cpu;
    void (*f1600)(uint64_t state[25]);
    void (*p1600)(uint64_t state[25], unsigned rounds);
};

struct multi {
    const char *name;
    const char *cpu;
    unsigned n;
    void (*f)(uint64_t *states);
    void (*p)(uint64_t *states, unsigned rounds);
    void (*interleave)(uint64_t *states, const uint64_t *separate);
    void (*deinterleave)(uint64_t *separate, const uint64_t *states);
    size_t (*absorb)(uint64_t *states, const uint8_t *const *in, size_t blocks, unsigned rate,
                     unsigned rounds);
    size_t (*squeeze)(uint64_t *states, uint8_t *const *out, size_t blocks, unsigned rate,
                      unsigned rounds);
};

#define RS_SINGLE(prefix, name, cpu) {name, cpu, prefix##_keccak_f1600, prefix##_keccak_p1600},
#define RS_MULTI(prefix, name, cpu, n) \
    {name, cpu, n, prefix##_f, prefix##_p, prefix##_il, prefix##_dil, prefix##_ab, prefix##_sq},
static const struct single all_singles[] = {RS_KECCAK_SINGLE_VARIANTS(RS_SINGLE) {0, 0, 0, 0}};
static const struct multi all_multis[] = {RS_KECCAK_MULTI_VARIANTS(RS_MULTI) {0, 0, 0, 0, 0, 0, 0, 0, 0}};
#define NSINGLES (sizeof all_singles / sizeof all_singles[0] - 1)
#define NMULTIS (sizeof all_multis / sizeof all_multis[0] - 1)

/* The variants this CPU can run; report(name, missing feature) hears of the others. */
static const struct single *singles[NSINGLES + 1];
static const struct multi *multis[NMULTIS + 1];
static unsigned nsingles, nmultis;

static unsigned rs_simd_runnable(void (*report)(const char *name, const char *missing))
{
    unsigned k, skipped = 0;
    const char *missing;

    for (k = 0; all_singles[k].name; k++) {
        missing = "";
        if (rs_cpu_has_all(all_singles[k].cpu, &missing))
            singles[nsingles++] = &all_singles[k];
        else {
            report(all_singles[k].name, missing);
            skipped++;
        }
    }
    for (k = 0; all_multis[k].name; k++) {
        missing = "";
        if (rs_cpu_has_all(all_multis[k].cpu, &missing))
            multis[nmultis++] = &all_multis[k];
        else {
            report(all_multis[k].name, missing);
            skipped++;
        }
    }
    return skipped;
}

#endif
