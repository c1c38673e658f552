/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The scalar Keccak variants one build links, as the one table every harness walks (the
 * Check suite, the bench, the constant-time run, the fuzz targets). The list itself is
 * generated (keccak_variants.h, included by the harness first); a harness that adds rows, as
 * the Check suite adds the plain reference, defines RS_ALL_VARIANTS before including this.
 */
#ifndef RS_TEST_KECCAK_VARIANT_TABLE_H
#define RS_TEST_KECCAK_VARIANT_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct variant {
    const char *name;
    const char *cpu;   /* CPU features it needs at run time, space separated */
    void (*f1600)(uint64_t state[25]);
    void (*p1600)(uint64_t state[25], unsigned rounds);
    size_t (*absorb)(uint64_t state[25], unsigned rounds, unsigned lanes, const uint8_t *data,
                     size_t len);
    size_t (*squeeze)(uint64_t state[25], unsigned rounds, unsigned lanes, uint8_t *out,
                      size_t len);
};

#ifndef RS_ALL_VARIANTS
#define RS_ALL_VARIANTS RS_KECCAK_VARIANTS
#endif
#define RS_ENTRY(f1600, p1600, absorb, squeeze, name, cpu) {name, cpu, f1600, p1600, absorb, squeeze},
static const struct variant all_variants[] = {RS_ALL_VARIANTS(RS_ENTRY)};
#define NVARIANTS (sizeof all_variants / sizeof all_variants[0])

#endif
