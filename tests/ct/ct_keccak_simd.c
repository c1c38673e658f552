/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of the vector Keccak-p[1600] kernels (ct_common.h) valgrind can run:
 * x4 AVX2 and x2 SSE2. Every instance's state is secret; each kernel runs at every round count
 * 0..24 and through keccak_f1600_xN, with its interleave and deinterleave helpers, and its block
 * loops absorb secret bytes and squeeze them out at every rate 1..25 lanes, for 24, 12 and 0
 * rounds (the stream pointers and lengths are public). The AVX-512
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
    static const unsigned block_rounds[] = {24, 12, 0};
    static uint8_t bytes[MAXN][2 * 200], outs[MAXN][2 * 200];
    unsigned k, j, rounds, rate, r, t = 0;
    uint64_t separate[MAXN][25], states[25 * MAXN];
    const uint8_t *in[MAXN];
    uint8_t *out[MAXN];

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
        for (j = 0; j < MAXN; j++) {
            in[j] = bytes[j];
            out[j] = outs[j];
        }
        for (rate = 1; rate <= 25; rate++)
            for (r = 0; r < 3; r++) {
                for (j = 0; j < sizeof bytes; j++)
                    bytes[j / sizeof bytes[0]][j % sizeof bytes[0]] = (uint8_t)(j * 7u + rate);
                ct_secret(bytes, sizeof bytes);
                ct_secret(states, sizeof states);
                v->absorb(states, in, 2, rate, block_rounds[r]);
                v->squeeze(states, out, 2, rate, block_rounds[r]);
                ct_declassify(states, sizeof states);
                ct_declassify(outs, sizeof outs);
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
