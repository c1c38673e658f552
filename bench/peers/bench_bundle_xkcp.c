/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * A committed bundle as a vendoring project builds it (out/x86_64 or out/portable compiled by
 * one compiler, tcc above all: its scalar path then runs the generator's x86-64 inline
 * assembly) against one configuration of XKCP's opt64 C kernel built by the same compiler
 * (bench/peers/bench_xkcp.sh fetches it at bench time; nothing of it is in this tree).
 * Round-robin in one process (timing.h's rs_race), wall-clock TSC; prints one row.
 *   bench_bundle_xkcp LABEL [lc]     (lc: that XKCP build complements lanes)
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "keccak_p1600.h"
#include "../timing.h"

void KeccakP1600_Permute_24rounds(void *state);

#define CALLS 16

static uint64_t state_ours[25], state_xkcp[25];

static void ours(void *arg)
{
    int k;
    for (k = 0; k < CALLS; k++)
        keccak_f1600((uint64_t *)arg);
    rs_use(arg);
}

static void xkcp(void *arg)
{
    int k;
    for (k = 0; k < CALLS; k++)
        KeccakP1600_Permute_24rounds(arg);
    rs_use(arg);
}

/* The lanes XKCP's lane-complementing builds keep inverted (its Initialize sets them). */
static const int complemented[6] = {1, 2, 8, 12, 17, 20};

int main(int argc, char **argv)
{
    struct rs_options o = {0, 201, 20};
    struct rs_entrant e[2] = {
        {"ours", ours, state_ours, CALLS, RS_CLASS_SCALAR, {0, 0}, 0},
        {"XKCP", xkcp, state_xkcp, CALLS, RS_CLASS_SCALAR, {0, 0}, 0},
    };
    uint64_t x[25], y[25];
    int i, lc = argc == 3 && !strcmp(argv[2], "lc");
    if (argc < 2 || argc > 3 || (argc == 3 && !lc)) {
        fprintf(stderr, "usage: bench_bundle_xkcp LABEL [lc]\n");
        return 2;
    }
    /* The same permutation, or nothing is timed. */
    for (i = 0; i < 25; i++)
        x[i] = y[i] = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
    keccak_f1600(x);
    for (i = 0; i < 6 && lc; i++)
        y[complemented[i]] = ~y[complemented[i]];
    KeccakP1600_Permute_24rounds(y);
    for (i = 0; i < 6 && lc; i++)
        y[complemented[i]] = ~y[complemented[i]];
    if (memcmp(x, y, sizeof x) != 0) {
        fprintf(stderr, "bench_bundle_xkcp: %s: the two kernels disagree; not timed\n", argv[1]);
        return 1;
    }
    if (rs_race(e, 2, &o, 3)) {
        fprintf(stderr, "bench_bundle_xkcp: out of memory\n");
        return 1;
    }
    printf("%s\t%.0f\t%.0f\t%.2f\n", argv[1], e[0].fig.median, e[1].fig.median,
           e[1].fig.median / e[0].fig.median);
    return 0;
}
