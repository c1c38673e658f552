/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * XKCP's SnP interface on the out/ kernel: each byte function on one 168-byte block (SHAKE128's
 * rate) at offset 0, raced round-robin with KeccakP1600_Permute_24rounds in one process
 * (bench/timing.h, rs_race); prints the median cycles per call and the ratio to the
 * permutation's median from the same race (the goal is at most 1/10). Then the OD duplexing loops against the loop XKCP's
 * KeccakOD.inc falls back to without them (byte functions and the permutation), 16 KiB at a
 * rate of 20 lanes. With --tsv: one row per function (median and best, the baseline's median
 * from the same run, the ratio of medians).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "KeccakP-1600-SnP.h"
#include "timing.h"

#define REPS 64
#define RATE 168

static KeccakP1600_state state;
static uint8_t data[RATE], out[RATE];

static void perm(void) { KeccakP1600_Permute_24rounds(&state); }
static void add(void) { KeccakP1600_AddBytes(&state, data, 0, RATE); }
static void overwrite(void) { KeccakP1600_OverwriteBytes(&state, data, 0, RATE); }
static void zeroes(void) { KeccakP1600_OverwriteWithZeroes(&state, RATE); }
static void extract(void) { KeccakP1600_ExtractBytes(&state, out, 0, RATE); }
static void extract_add(void) { KeccakP1600_ExtractAndAddBytes(&state, data, out, 0, RATE); }

/* A timed call of the race: REPS calls of one function. */
static void reps(void *arg)
{
    void (*fn)(void) = *(void (**)(void))arg;
    int k;
    for (k = 0; k < REPS; k++)
        fn();
    rs_use(&state);
    rs_use(out);
}

static struct rs_figure figure_a, figure_b;

#define OD_LANES 20
#define OD_BYTES (16 * 1024)
static uint8_t od_in[OD_BYTES], od_out[OD_BYTES];
static const uint8_t trailenc[8] = {0x4A, 0, 0, 0, 0, 0, 0, 0x9F};

static void od_fast(void)
{
    uint64_t trail;
    memcpy(&trail, trailenc, 8);
    KeccakP1600_ODDuplexingFastInOut(&state, OD_LANES, od_in, OD_BYTES, od_out, od_in, trail);
}

static void od_fallback(void)
{
    size_t done;
    for (done = 0; done + 8 * OD_LANES <= OD_BYTES; done += 8 * OD_LANES) {
        KeccakP1600_OverwriteBytes(&state, od_in + done, 0, 8 * OD_LANES);
        KeccakP1600_AddBytes(&state, trailenc, 8 * OD_LANES, 8);
        KeccakP1600_Permute_24rounds(&state);
        KeccakP1600_ExtractAndAddBytes(&state, od_in + done, od_out + done, 0, 8 * OD_LANES);
    }
}

static void once(void *arg)
{
    (*(void (**)(void))arg)();
    rs_use(od_out);
}

static const char usage[] =
    "usage: bench_snp [OPTION...]\n"
    "Races each SnP byte function on 168 bytes with KeccakP1600_Permute_24rounds, then\n"
    "ODDuplexingFastInOut with XKCP's fallback loop over 16 KiB; prints median cycles.\n";

/* Race `a` (the baseline) and `b`; fills their figures. */
static void race2(const char *name_a, void (*a)(void), const char *name_b, void (*b)(void),
                  void (*turn)(void *), double per, const struct rs_options *o)
{
    static void (*fa)(void), (*fb)(void);
    struct rs_entrant e[2];
    fa = a;
    fb = b;
    e[0] = (struct rs_entrant){name_a, turn, (void *)&fa, per, RS_CLASS_UNKNOWN, {0, 0}, 0};
    e[1] = (struct rs_entrant){name_b, turn, (void *)&fb, per, RS_CLASS_UNKNOWN, {0, 0}, 0};
    if (rs_race(e, 2, o, 3)) {
        fprintf(stderr, "bench_snp: out of memory\n");
        exit(1);
    }
    figure_a = e[0].fig;
    figure_b = e[1].fig;
}

int main(int argc, char **argv)
{
    static const struct {
        const char *name;
        void (*fn)(void);
    } fns[] = {{"AddBytes", add},
               {"OverwriteBytes", overwrite},
               {"OverwriteWithZeroes", zeroes},
               {"ExtractBytes", extract},
               {"ExtractAndAddBytes", extract_add}};
    struct rs_figure fa, fb;
    struct rs_options o;
    size_t f, k;
    int tsv;

    rs_bench_options(&argc, argv, &o, 101, usage);
    tsv = o.tsv;
    if (argc > 1) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", argv[0], argv[1]);
        return 2;
    }
    for (k = 0; k < RATE; k++)
        data[k] = (uint8_t)(k * 13u + 1u);
    for (k = 0; k < OD_BYTES; k++)
        od_in[k] = (uint8_t)(k * 7u);
    KeccakP1600_Initialize(&state);
    if (tsv)
        printf("compiler\tfunction\tbytes\tunit\tmedian\tbest\tbaseline_median\tratio\n");
    else
        printf("%s, %s per call (median of %u turns of %d calls), SnP on 168 bytes at "
               "offset 0 raced with Permute_24rounds\n", RS_COMPILER, RS_TICKS_NAME, o.rounds,
               REPS);
    for (f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        race2("Permute_24rounds", perm, fns[f].name, fns[f].fn, reps, REPS, &o);
        fa = figure_a;
        fb = figure_b;
        if (tsv)
            printf("%s\t%s\t%d\tcycles/call\t%.1f\t%.1f\t%.1f\t%.4f\n", RS_COMPILER,
                   fns[f].name, RATE, fb.median, fb.best, fa.median, fb.median / fa.median);
        else
            printf("%-22s %7.1f cycles (best %6.1f)   Permute_24rounds %6.1f   ratio 1/%.1f\n",
                   fns[f].name, fb.median, fb.best, fa.median, fa.median / fb.median);
    }
    race2("fallback", od_fallback, "ODDuplexingFastInOut", od_fast, once, OD_BYTES, &o);
    fa = figure_a;
    fb = figure_b;
    if (tsv)
        printf("%s\tODDuplexingFastInOut\t%d\tcycles/byte\t%.3f\t%.3f\t%.3f\t%.4f\n",
               RS_COMPILER, OD_BYTES, fb.median, fb.best, fa.median, fb.median / fa.median);
    else
        printf("ODDuplexingFastInOut, %d lanes, 16 KiB: %.2f cycles/byte, XKCP's fallback loop "
               "on the byte functions %.2f: %.2fx\n",
               OD_LANES, fb.median, fa.median, fa.median / fb.median);
    return 0;
}
