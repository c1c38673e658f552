/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * SHA3-256 over 1 KiB and over 1 MiB on every permutation of a `generator bench --sponge`
 * sweep, each under its own sponge (the generated keccak_sponge.c, symbols prefixed): what a
 * user of the sponge sees, where padding, absorbing and the copy out sit around the bare
 * permutation. Every sponge first gives both digests right (sweep_sponges.h, from Python's
 * hashlib), then all race round-robin in this one process (bench/timing.h, rs_race), one race
 * per message length. Figures: median TSC cycles per byte.
 *
 * With --tsv: a header, then per variant the median, best and spread of each length.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "sweep_sponges.h"
#include "timing.h"

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

#define KIB 1024
#define MIB (1024 * 1024)

typedef void hash_fn(uint8_t out[32], const uint8_t *in, size_t len);

struct sponge {
    hash_fn *fn;
    const char *name, *cpu;
};

#define RS_ROW(fn, name, cpu) {fn, name, cpu},
static const struct sponge sponges[] = {RS_SWEEP_SPONGES(RS_ROW){0, 0, 0}};
#define NSPONGES (sizeof sponges / sizeof sponges[0] - 1)

static const char usage[] =
    "usage: bench_sweep_sponge [OPTION...]\n"
    "Races SHA3-256 of 1 KiB and of 1 MiB on every sponge this sweep built, round-robin,\n"
    "after checking each one's digests; prints median TSC cycles per byte.\n";

struct job {
    hash_fn *fn;
    const uint8_t *in;
    size_t len;
    uint8_t out[32];
};

static void job_run(void *arg)
{
    struct job *j = (struct job *)arg;
    j->fn(j->out, j->in, j->len);
    rs_use(j->out);
}

int main(int argc, char **argv)
{
    static const uint8_t want_1k[32] = RS_SHA3_1K_DIGEST, want_1m[32] = RS_SHA3_1M_DIGEST;
    static struct job jobs[2][NSPONGES + 1];
    static struct rs_entrant e[2][NSPONGES + 1];
    static size_t chosen[NSPONGES + 1];
    struct rs_options o;
    uint8_t *msg = malloc(MIB), out[32];
    size_t i, k, n = 0;
    unsigned p;

    rs_bench_options(&argc, argv, &o, 31, usage);
    rs_no_options_left(argc, argv, 1);
    if (argc > 1) {
        fprintf(stderr, "bench_sweep_sponge: takes no variant names ('%s')\n", argv[1]);
        return 2;
    }
    if (!msg) {
        fprintf(stderr, "bench_sweep_sponge: out of memory\n");
        return 1;
    }
    for (i = 0; i < MIB; i++)
        msg[i] = (uint8_t)(i * RS_SWEEP_MSG_MUL + RS_SWEEP_MSG_ADD);
    if (o.tsv)
        printf("compiler\tvariant\tstatus\tsha3_1k_median\tsha3_1k_best\tsha3_1k_spread"
               "\tsha3_1m_median\tsha3_1m_best\tsha3_1m_spread\n");
    for (k = 0; k < NSPONGES; k++) {
        const char *missing = "";
        if (!rs_cpu_has_all(sponges[k].cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, sponges[k].name, missing);
            continue;
        }
        sponges[k].fn(out, msg, KIB);
        if (memcmp(out, want_1k, 32) != 0) {
            printf("%s\t%s\tWRONG: SHA3-256 of 1 KiB, not timed\n", RS_COMPILER, sponges[k].name);
            continue;
        }
        sponges[k].fn(out, msg, MIB);
        if (memcmp(out, want_1m, 32) != 0) {
            printf("%s\t%s\tWRONG: SHA3-256 of 1 MiB, not timed\n", RS_COMPILER, sponges[k].name);
            continue;
        }
        chosen[n++] = k;
    }
    fflush(stdout);
    for (p = 0; p < 2 && n; p++) {
        /* 1 MiB turns are a thousand times longer: a tenth of the turns (at least 3). */
        struct rs_options op = o;
        if (p == 1)
            op.rounds = o.rounds / 10 > 3 ? o.rounds / 10 : (o.rounds < 3 ? o.rounds : 3);
        for (i = 0; i < n; i++) {
            const struct sponge *s = &sponges[chosen[i]];
            jobs[p][i] = (struct job){s->fn, msg, p ? MIB : KIB, {0}};
            e[p][i] = (struct rs_entrant){s->name, job_run, &jobs[p][i], p ? MIB : KIB,
                                          rs_class_of(s->cpu), {0, 0}, 0};
        }
        if (rs_race(e[p], n, &op, p ? 1 : 5)) {
            fprintf(stderr, "bench_sweep_sponge: out of memory\n");
            return 1;
        }
    }
    for (i = 0; i < n; i++) {
        if (o.tsv)
            printf("%s\t%s\tok\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\n", RS_COMPILER, e[0][i].name,
                   e[0][i].fig.median, e[0][i].fig.best, e[0][i].spread, e[1][i].fig.median,
                   e[1][i].fig.best, e[1][i].spread);
        else
            printf("%s\t%s\t%.2f\t%.2f\n", RS_COMPILER, e[0][i].name, e[0][i].fig.median,
                   e[1][i].fig.median);
    }
    free(msg);
    return 0;
}
