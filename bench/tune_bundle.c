/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The bundle tuner's race: one bundle, compiled as a vendoring user compiles it (its own .c
 * files, the user's -O level, no -m flags) plus -DRS_TUNING_HOOKS, races the options of every
 * run-time decision of its per-CPU table through the API each decision serves, end to end on
 * bytes:
 *   single sha3_256 over 256 KiB (the sponge's block loop, one state);
 *   mbN    shake128_xN, N lanes of 8 KiB absorbed and 8 KiB squeezed each;
 *   kt128  kt128 over 256 KiB (32 whole leaves, so every kernel width runs full batches);
 *   chacha chacha8_get_keystream, 128 blocks a call.
 * Every option the path in use can run is first checked by the bundle's own self-test with
 * that option forced (a wrong one is reported, never timed), then all of them race
 * round-robin in one process (bench/timing.h: each turn after a warm-up of its own code).
 * Figures: TSC cycles per lane per permutation for mbN (97 permutations a lane: ceil(8193 /
 * 168) = 49 absorbing, the padding block's included, and 48 more for the 8192 bytes out, the
 * first 168 of which the last absorbing permutation gave), cycles per byte for single, kt128
 * and chacha. generator/tune_bundle.py reads the --tsv rows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roundsmith.h"
#include "timing.h"

#define LANE_BYTES 8192
#define LANE_PERMS 97
#define KT_BYTES (256 * 1024)
#define CHACHA_BLOCKS 128

static uint8_t *in_buf, *out_buf;
static struct chacha8_ctx chacha_ctx;

struct job {
    int d, o;
};

static void mb_run(unsigned n, const uint8_t *const *in, uint8_t *const *out)
{
    switch (n) {
    case 2:
        shake128_x2(out, LANE_BYTES, in, LANE_BYTES);
        break;
    case 4:
        shake128_x4(out, LANE_BYTES, in, LANE_BYTES);
        break;
    default:
        shake128_x8(out, LANE_BYTES, in, LANE_BYTES);
        break;
    }
}

static unsigned mb_lanes(int d)
{
    return d == RS_DECISION_MB2 ? 2 : d == RS_DECISION_MB4 ? 4 : 8;
}

static void run(void *arg)
{
    const struct job *j = (const struct job *)arg;
    if (rs_tuning_force(j->d, j->o)) {
        fprintf(stderr, "tune_bundle: option %d of %s cannot run here\n", j->o,
                rs_decision_name(j->d));
        exit(1);
    }
    if (j->d == RS_DECISION_SINGLE) {
        sha3_256(out_buf, in_buf, KT_BYTES);
    } else if (j->d == RS_DECISION_KT128) {
        kt128(out_buf, 32, in_buf, KT_BYTES, NULL, 0);
    } else if (j->d == RS_DECISION_CHACHA) {
        chacha8_get_keystream(&chacha_ctx, 0, CHACHA_BLOCKS, out_buf);
    } else {
        const uint8_t *in[8];
        uint8_t *out[8];
        unsigned k, n = mb_lanes(j->d);
        for (k = 0; k < n; k++) {
            in[k] = in_buf + k * LANE_BYTES;
            out[k] = out_buf + k * LANE_BYTES;
        }
        mb_run(n, in, out);
    }
    rs_use(out_buf);
}

static double per_call(int d)
{
    if (d == RS_DECISION_KT128 || d == RS_DECISION_SINGLE)
        return KT_BYTES;
    if (d == RS_DECISION_CHACHA)
        return 64.0 * CHACHA_BLOCKS;
    return (double)mb_lanes(d) * LANE_PERMS;
}

static const char *unit(int d)
{
    return d == RS_DECISION_KT128 || d == RS_DECISION_CHACHA || d == RS_DECISION_SINGLE
               ? "cycles/byte"
                                                               : "cycles/lane/permutation";
}

int main(int argc, char **argv)
{
    struct rs_options opt;
    struct rs_entrant e[RS_OPTIONS_MAX];
    struct job jobs[RS_OPTIONS_MAX];
    const char *opts[RS_OPTIONS_MAX];
    uint8_t key[32];
    size_t i;
    int d, o, bad = 0;

    rs_bench_options(&argc, argv, &opt, 31,
                     "usage: tune_bundle [--tsv] [--turns N] [--settle-us N]\n"
                     "Races the options of every run-time decision of the bundle it was\n"
                     "built with (-DRS_TUNING_HOOKS), each checked by the self-test first.\n");
    rs_no_options_left(argc, argv, 1);
    if (argc > 1) {
        fprintf(stderr, "%s: takes no names, not '%s' (see --help)\n", argv[0], argv[1]);
        return 2;
    }
    in_buf = (uint8_t *)malloc(KT_BYTES);
    out_buf = (uint8_t *)malloc(KT_BYTES);
    if (!in_buf || !out_buf)
        return 1;
    for (i = 0; i < KT_BYTES; i++)
        in_buf[i] = (uint8_t)(i * 131 + 7);
    for (i = 0; i < sizeof key; i++)
        key[i] = (uint8_t)i;
    chacha8_keysetup(&chacha_ctx, key, 256, NULL);

    if (opt.tsv)
        printf("decision\tvariant\tstatus\tclass\tmedian\tbest\tspread\tunit\tpath\tcpu_row\n");
    else
        printf("%s, path %s, CPU row: %s\n", RS_TICKS_NAME, rs_path_name(), rs_cpu_row_name());
    for (d = 0; d < RS_DECISIONS; d++) {
        size_t n = 0;
        for (o = 0; o < RS_OPTIONS_MAX && rs_option_name(d, o); o++) {
            const char *name = rs_option_name(d, o);
            int code;
            if (rs_tuning_force(d, o))
                continue;   /* not on this path or compiled out: not a candidate here */
            code = rs_selftest();
            if (code) {
                printf(opt.tsv ? "%s\t%s\twrong: %s\t\t\t\t\t\t\t\n" : "%s %s: WRONG (%s)\n",
                       rs_decision_name(d), name, rs_selftest_name(code));
                bad = 1;
                continue;
            }
            jobs[n].d = d;
            jobs[n].o = o;
            opts[n] = name;
            e[n].name = name;
            e[n].run = run;
            e[n].arg = &jobs[n];
            e[n].per = per_call(d);
            e[n].isa_class = rs_class_of(name);
            n++;
        }
        if (!n)
            continue;
        if (rs_race(e, n, &opt, 3))
            return 1;
        for (i = 0; i < n; i++) {
            if (opt.tsv)
                printf("%s\t%s\tok\t%s\t%.4f\t%.4f\t%.4f\t%s\t%s\t%s\n", rs_decision_name(d),
                       opts[i], rs_class_names[e[i].isa_class], e[i].fig.median, e[i].fig.best,
                       e[i].spread, unit(d), rs_path_name(), rs_cpu_row_name());
            else
                printf("%-7s %-13s median %9.3f  best %9.3f  spread %5.1f%%  %s\n",
                       rs_decision_name(d), opts[i], e[i].fig.median, e[i].fig.best,
                       100 * e[i].spread, unit(d));
        }
    }
    free(in_buf);
    free(out_buf);
    return bad;
}
