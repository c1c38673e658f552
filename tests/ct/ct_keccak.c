/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of every scalar Keccak-p[1600] variant (ct_common.h): the state is
 * secret before each call. Each variant is called at every round count 0..24 (every entry
 * point of an unrolled loop) and through keccak_f1600; the round count is public.
 */
#include <stdint.h>

#include "ct/ct_common.h"
#include "cpu_features.h"
#include "keccak_variants.h"

#include "keccak_variant_table.h"

static void secret_state(uint64_t state[25], unsigned seed)
{
    unsigned k;
    for (k = 0; k < 25; k++)
        state[k] = 0x9E3779B97F4A7C15ULL * (seed * 25u + k + 1u);
    ct_secret(state, 25 * sizeof state[0]);
}

int main(void)
{
    unsigned k, rounds;

    ct_start((unsigned)NVARIANTS);
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "";
        uint64_t state[25];

        if (!rs_cpu_has_all(v->cpu, &missing)) {
            ct_skip(k + 1, v->name, "this CPU lacks a feature it needs");
            continue;
        }
        ct_begin();
        for (rounds = 0; rounds <= 24; rounds++) {
            secret_state(state, rounds);
            v->p1600(state, rounds);
            ct_declassify(state, sizeof state);
        }
        secret_state(state, 25);
        v->f1600(state);
        ct_declassify(state, sizeof state);
        ct_verdict(k + 1, v->name);
    }
    return ct_finish();
}
