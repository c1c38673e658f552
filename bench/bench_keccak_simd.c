/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Cycles per permutation of every vector Keccak-p[1600] variant one compiler built (per
 * instance for x-N), with the scalar kernel they are tested against (this compiler's
 * default) and the plain reference (tests/ref, gcc -O3) as contenders: all of them race
 * round-robin in this one process (bench/timing.h, rs_race; the reference is the drift
 * monitor), for 24 rounds and again for 12. Rows are bench_keccak's (bench/bench_table.py
 * prints the table); with --tsv, its header and columns. A kernel is timed only once every
 * instance gives every vector right (keccak_simd_vectors.h for x-N, keccak_vectors.h for
 * single-state kernels).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_simd_variants.h"
#include "keccak_simd_vectors.h"
#include "keccak_vectors.h"
#include "ref/keccak_ref.h"
#include "timing.h"

#define REPS 8
#define MAXN RS_KECCAK_MAX_INSTANCES

struct kernel {
    const char *name;
    const char *cpu;
    unsigned n; /* instances per call; 1 for single-state */
    void (*single)(uint64_t state[25], unsigned rounds);
    void (*multi)(uint64_t *states, unsigned rounds);
    void (*interleave)(uint64_t *states, const uint64_t *separate);
    void (*deinterleave)(uint64_t *separate, const uint64_t *states);
};

#define RS_SINGLE(prefix, name, cpu) {name, cpu, 1, prefix##_keccak_p1600, 0, 0, 0},
#define RS_MULTI(prefix, name, cpu, n) {name, cpu, n, 0, prefix##_p, prefix##_il, prefix##_dil},
static const struct kernel kernels[] = {
    {RS_KECCAK_YARDSTICK_NAME, "", 1, RS_KECCAK_YARDSTICK_P, 0, 0, 0},
    RS_KECCAK_SINGLE_VARIANTS(RS_SINGLE) RS_KECCAK_MULTI_VARIANTS(RS_MULTI)
    {0, 0, 0, 0, 0, 0, 0}};

static const char usage[] =
    "usage: bench_keccak_simd [OPTION...] [SUBSTRING...]\n"
    "Races every vector Keccak-p[1600] kernel this compiler built (or those whose name holds\n"
    "one of the SUBSTRINGs) round-robin with this compiler's default scalar kernel and the\n"
    "plain reference, after checking each against the vectors; prints median TSC cycles per\n"
    "permutation (per instance for x-N) for 24 and 12 rounds.\n";

/* One contender's timed call: REPS calls on its own states. */
struct job {
    const struct kernel *k;
    unsigned rounds;
    uint64_t states[25 * MAXN];
};

static void job_run(void *arg)
{
    struct job *j = (struct job *)arg;
    int r;
    for (r = 0; r < REPS; r++) {
        if (j->k->multi)
            j->k->multi(j->states, j->rounds);
        else
            j->k->single(j->states, j->rounds);
    }
    rs_use(j->states);
}

static const struct kernel reference = {"reference", "", 1, keccak_ref_p1600, 0, 0, 0};

/* The first vector `k` gets wrong (a tuner never picks a wrong kernel), or NULL. */
static const char *first_wrong(const struct kernel *k)
{
    static char what[64];
    uint64_t st[25 * MAXN], out[MAXN][25];
    size_t c;
    unsigned j;
    if (!k->multi) {
        for (c = 0; c < RS_KECCAK_NCASES; c++) {
            memcpy(st, rs_keccak_cases[c].in, 25 * sizeof st[0]);
            k->single(st, rs_keccak_cases[c].rounds);
            if (memcmp(st, rs_keccak_cases[c].out, 25 * sizeof st[0]) != 0)
                return rs_keccak_cases[c].name;
        }
        return NULL;
    }
    for (c = 0; c < RS_KECCAK_NMULTI; c++) {
        const struct rs_keccak_multi_case *m = &rs_keccak_multi_cases[c];
        k->interleave(st, &m->in[0][0]);
        k->multi(st, m->rounds);
        k->deinterleave(&out[0][0], st);
        for (j = 0; j < k->n; j++)
            if (memcmp(out[j], m->out[j], sizeof out[j]) != 0) {
                snprintf(what, sizeof what, "%u rounds, instance %u", m->rounds, j);
                return what;
            }
    }
    return NULL;
}

static int wanted(const char *name, int argc, char **argv)
{
    int i;
    if (argc < 2)
        return 1;
    for (i = 1; i < argc; i++)
        if (strstr(name, argv[i]))
            return 1;
    return 0;
}

static int by_class(const void *a, const void *b)
{
    const struct rs_entrant *x = (const struct rs_entrant *)a, *y = (const struct rs_entrant *)b;
    return x->isa_class - y->isa_class;
}

#define NK (sizeof kernels / sizeof kernels[0])

static void race(struct rs_entrant *e, size_t n, unsigned rounds, const struct rs_options *o)
{
    size_t k, i;
    for (k = 0; k < n; k++) {
        struct job *j = (struct job *)e[k].arg;
        j->rounds = rounds;
        for (i = 0; i < 25 * MAXN; i++)
            j->states[i] = 0x0123456789ABCDEFULL * (i + 1);
    }
    if (rs_race(e, n, o, 5)) {
        fprintf(stderr, "bench_keccak_simd: out of memory\n");
        exit(1);
    }
}

int main(int argc, char **argv)
{
    static struct job jobs[NK];
    struct rs_entrant e[NK], e12[NK];
    struct rs_options o;
    const struct kernel *k;
    size_t n = 0, i, ref = 0;
    int a;

    rs_bench_options(&argc, argv, &o, 31, usage);
    rs_no_options_left(argc, argv, 1);
    for (a = 1; a < argc; a++) {
        for (k = kernels; k->name && !strstr(k->name, argv[a]); k++)
            ;
        if (!k->name) {
            fprintf(stderr, "bench_keccak_simd: no kernel name in this build holds '%s'\n",
                    argv[a]);
            return 2;
        }
    }
    if (o.tsv)
        rs_perm_header(12);
    for (k = kernels; k->name; k++) {
        const char *missing = "", *wrong;
        if (k != kernels && !wanted(k->name, argc, argv))
            continue;
        if (!rs_cpu_has_all(k->cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, k->name, missing);
            continue;
        }
        if ((wrong = first_wrong(k)) != NULL) {
            printf("%s\t%s\tWRONG: fails '%s', not timed\n", RS_COMPILER, k->name, wrong);
            continue;
        }
        jobs[n].k = k;
        e[n] = (struct rs_entrant){k->name, job_run, &jobs[n], (double)REPS * k->n,
                                   rs_class_of(k->cpu), {0, 0}, 0};
        n++;
    }
    fflush(stdout);
    jobs[n].k = &reference;
    e[n] = (struct rs_entrant){"reference", job_run, &jobs[n], REPS, RS_CLASS_SCALAR, {0, 0}, 0};
    n++;
    qsort(e, n, sizeof e[0], by_class);
    memcpy(e12, e, sizeof e);
    race(e, n, 24, &o);
    race(e12, n, 12, &o);
    for (i = 0; i < n; i++)
        if (((struct job *)e[i].arg)->k == &reference)
            ref = i;
    for (i = 0; i < n; i++)
        if (i != ref)
            rs_perm_row(o.tsv, RS_COMPILER, &e[i], &e12[i], &e[ref]);
    return 0;
}
