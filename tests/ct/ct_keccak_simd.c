/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of the vector Keccak-p[1600] kernels (ct_common.h) valgrind can run:
 * x4 AVX2 and x2 SSE2. Every instance's state is secret; each kernel runs at every round count
 * 0..24 and through keccak_f1600_xN, with its interleave and deinterleave helpers. The AVX-512
 * shapes (x8, x4 and x2 AVX-512VL, single state) get a SKIP line: valgrind 3.19 cannot
 * execute them, so this check cannot see them.
 */
#include <stdint.h>
#include <string.h>

#include "ct/ct_common.h"
#include "keccak_simd_variants.h"

#include "keccak_simd_table.h"

static void no_report(const char *name, const char *missing)
{
    (void)name;
    (void)missing;
}

int main(void)
{
    unsigned k, j, rounds, t = 0;
    uint64_t separate[MAXN][25], states[25 * MAXN];

    rs_simd_runnable(no_report);
    ct_start((unsigned)(NSINGLES + NMULTIS + 1));
    for (k = 0; all_multis[k].name; k++) {
        const struct multi *v = &all_multis[k];
        const char *missing = "";
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            ct_skip(++t, v->name, "valgrind's CPU lacks a feature it needs");
            continue;
        }
        ct_begin();
        for (rounds = 0; rounds <= 25; rounds++) {
            for (j = 0; j < 25 * MAXN; j++)
                separate[j / 25][j % 25] = 0x9E3779B97F4A7C15ULL * (rounds * 200u + j + 1u);
            ct_secret(separate, sizeof separate);
            v->interleave(states, &separate[0][0]);
            if (rounds < 25)
                v->p(states, rounds);
            else
                v->f(states);
            v->deinterleave(&separate[0][0], states);
            ct_declassify(separate, sizeof separate);
            ct_declassify(states, sizeof states);
        }
        ct_verdict(++t, v->name);
    }
    for (k = 0; all_singles[k].name; k++) {
        const struct single *v = &all_singles[k];
        const char *missing = "";
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            ct_skip(++t, v->name, "valgrind's CPU lacks a feature it needs");
            continue;
        }
        ct_begin();
        for (rounds = 0; rounds <= 24; rounds++) {
            ct_secret(separate[0], sizeof separate[0]);
            v->p1600(separate[0], rounds);
            ct_declassify(separate[0], sizeof separate[0]);
        }
        ct_verdict(++t, v->name);
    }
    ct_skip(++t, "keccakp1600 x8-avx512, x4-avx512vl, x2-avx512vl, single-state avx512",
            CT_AVX512_WHY);
    return ct_finish();
}
