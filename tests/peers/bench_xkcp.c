/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Our default scalar kernel against XKCP's opt64 C kernel (KeccakP-1600-opt64.c, as the npm
 * package "keccak" ships it; fetched at bench time by tests/peers/bench_xkcp.sh, never
 * copied into this tree), both built by the same compiler with the same flags, timed in
 * alternation in one process. Prints TSC cycles per permutation (best and median of the
 * pairs) and the ratio.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_p1600.h"
#include "../timing.h"

void KeccakP1600_Permute_24rounds(void *state);
void KeccakP1600_Permute_12rounds(void *state);

#define PAIRS 401
#define REPS 16

static void ours24(uint64_t *s) { keccak_f1600(s); }
static void ours12(uint64_t *s) { keccak_p1600(s, 12); }
static void xkcp24(uint64_t *s) { KeccakP1600_Permute_24rounds(s); }
static void xkcp12(uint64_t *s) { KeccakP1600_Permute_12rounds(s); }

static uint64_t time_one(void (*fn)(uint64_t *), uint64_t *st)
{
    uint64_t t0 = rs_ticks();
    int k;
    for (k = 0; k < REPS; k++)
        fn(st);
    rs_use(st);
    return rs_ticks() - t0;
}

static void race(const char *cc, unsigned rounds, void (*a)(uint64_t *), void (*b)(uint64_t *))
{
    static uint64_t ta[PAIRS], tb[PAIRS];
    struct rs_figure fa, fb;
    uint64_t st[25];
    int k;
    memset(st, 0x5A, sizeof st);
    for (k = 0; k < 50; k++) {
        a(st);
        b(st);
    }
    for (k = 0; k < PAIRS; k++) {
        ta[k] = time_one(a, st);
        tb[k] = time_one(b, st);
    }
    fa = rs_figures(ta, PAIRS, REPS);
    fb = rs_figures(tb, PAIRS, REPS);
    printf("%s\t%u\t%.0f\t%.0f\t%.0f\t%.0f\t%.2f\n", cc, rounds, fa.best, fa.median, fb.best,
           fb.median, fb.best / fa.best);
}

int main(int argc, char **argv)
{
    const char *cc = argc > 1 ? argv[1] : "?";
    uint64_t x[25], y[25];
    int i;
    /* Same permutation? (XKCP's opt64 built without lane complementing keeps lanes plain.) */
    for (i = 0; i < 25; i++)
        x[i] = y[i] = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
    keccak_f1600(x);
    KeccakP1600_Permute_24rounds(y);
    if (memcmp(x, y, sizeof x) != 0) {
        fprintf(stderr, "bench_xkcp: %s: the two kernels disagree; not timed\n", cc);
        return 1;
    }
    race(cc, 24, ours24, xkcp24);
    race(cc, 12, ours12, xkcp12);
    return 0;
}
