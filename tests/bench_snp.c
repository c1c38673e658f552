/*
 * XKCP's SnP interface on the out/ kernel: each byte function on one 168-byte block (SHAKE128's
 * rate) at offset 0, timed in alternation with KeccakP1600_Permute_24rounds in one process;
 * prints the median cycles per call and the ratio to the permutation's median from the same
 * run (the goal is at most 1/10). Then the OD duplexing loops against the loop XKCP's
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

#define SAMPLES 301
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

static uint64_t sample(void (*fn)(void))
{
    uint64_t t = rs_ticks();
    int k;
    for (k = 0; k < REPS; k++)
        fn();
    rs_use(&state);
    rs_use(out);
    return rs_ticks() - t;
}

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

static uint64_t sample_once(void (*fn)(void))
{
    uint64_t t = rs_ticks();
    fn();
    rs_use(od_out);
    return rs_ticks() - t;
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
    static uint64_t a[SAMPLES], b[SAMPLES];
    struct rs_figure fa, fb;
    int tsv = rs_take_flag(&argc, argv, "--tsv");
    size_t f, k;

    if (argc > 1) {
        fprintf(stderr, "usage: %s [--tsv]\n", argv[0]);
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
        printf("%s, %s per call (median of %d samples of %d calls), SnP on 168 bytes at "
               "offset 0 against Permute_24rounds in alternation\n",
               RS_COMPILER, RS_TICKS_NAME, SAMPLES, REPS);
    for (f = 0; f < sizeof fns / sizeof fns[0]; f++) {
        for (k = 0; k < 20; k++) {
            sample(perm);
            sample(fns[f].fn);
        }
        for (k = 0; k < SAMPLES; k++) {
            a[k] = sample(perm);
            b[k] = sample(fns[f].fn);
        }
        fa = rs_figures(a, SAMPLES, REPS);
        fb = rs_figures(b, SAMPLES, REPS);
        if (tsv)
            printf("%s\t%s\t%d\tcycles/call\t%.1f\t%.1f\t%.1f\t%.4f\n", RS_COMPILER,
                   fns[f].name, RATE, fb.median, fb.best, fa.median, fb.median / fa.median);
        else
            printf("%-22s %7.1f cycles (best %6.1f)   Permute_24rounds %6.1f   ratio 1/%.1f\n",
                   fns[f].name, fb.median, fb.best, fa.median, fa.median / fb.median);
    }
    for (k = 0; k < 10; k++) {
        sample_once(od_fast);
        sample_once(od_fallback);
    }
    for (k = 0; k < SAMPLES; k++) {
        a[k] = sample_once(od_fallback);
        b[k] = sample_once(od_fast);
    }
    fa = rs_figures(a, SAMPLES, OD_BYTES);
    fb = rs_figures(b, SAMPLES, OD_BYTES);
    if (tsv)
        printf("%s\tODDuplexingFastInOut\t%d\tcycles/byte\t%.3f\t%.3f\t%.3f\t%.4f\n",
               RS_COMPILER, OD_BYTES, fb.median, fb.best, fa.median, fb.median / fa.median);
    else
        printf("ODDuplexingFastInOut, %d lanes, 16 KiB: %.2f cycles/byte, XKCP's fallback loop "
               "on the byte functions %.2f: %.2fx\n",
               OD_LANES, fb.median, fa.median, fa.median / fb.median);
    return 0;
}
