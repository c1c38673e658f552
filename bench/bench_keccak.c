/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Cycles per permutation of every single-state Keccak-p[1600] kernel one compiler built: the
 * scalar variants and, where the build links them (RS_WITH_SINGLES), the single-state vector
 * kernels, with the plain reference (tests/ref, gcc -O3) as one more contender and the drift
 * monitor. All of them race round-robin in this one process (bench/timing.h, rs_race), for 24
 * rounds and again for 12; a kernel is timed only once it gives every vector right.
 *
 * Builds that link XKCP's opt64 configurations (RS_WITH_XKCP) race them too.
 *
 * Rows: compiler, variant, median TSC cycles for 24 and 12 rounds, the reference's for 24,
 * reference / kernel (bench/bench_table.py prints the table). With --tsv: a header, then the
 * median and best of each, the kernel's ISA class, the reference's spread over the rounds and
 * the kernel's own (spread_24, spread_12: what generator/tune.py, generator/bench.py and the
 * report read).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_features.h"
#include "keccak_variants.h"
#include "keccak_vectors.h"
#include "ref/keccak_ref.h"
#include "timing.h"
#ifdef RS_WITH_SINGLES
#include "keccak_simd_variants.h"
#endif
#ifdef RS_WITH_XKCP
/* XKCP's opt64 kernel in one or more of its configurations, each built out of the tree with
 * its symbols prefixed xkcp_<tag>_ (bench/peers/bench_xkcp.sh, generator/bench.py):
 * RS_XKCP_CONFIGS(X), X(tag, lane complementing 0/1). */
#include "xkcp_configs.h"
#endif

#define REPS 16

#include "keccak_variant_table.h"

static const char usage[] =
    "usage: bench_keccak [OPTION...] [-r ROUNDS] [VARIANT...]\n"
    "Races every single-state Keccak-p[1600] kernel this compiler built (or the VARIANTs\n"
    "named, exact names) round-robin with the plain reference, after checking each against\n"
    "the vectors; prints median TSC cycles per permutation for 24 rounds and for ROUNDS\n"
    "(default 12).\n";

struct kernel {
    const char *name, *cpu;
    void (*p1600)(uint64_t *, unsigned);
    void (*check)(uint64_t *, unsigned);  /* what the vectors check, when not p1600 */
};

#ifdef RS_WITH_XKCP
/* XKCP keeps a lane-complemented state complemented in memory (lanes 1, 2, 8, 12, 17, 20):
 * the vectors check it through that mapping; the timed call runs it as it is. */
static void rs_xkcp_complement(uint64_t *s)
{
    s[1] = ~s[1], s[2] = ~s[2], s[8] = ~s[8], s[12] = ~s[12], s[17] = ~s[17], s[20] = ~s[20];
}
#define RS_XKCP_WRAP(tag, lc)                                                                  \
    void xkcp_##tag##_KeccakP1600_Permute_24rounds(void *state);                               \
    void xkcp_##tag##_KeccakP1600_Permute_12rounds(void *state);                               \
    void xkcp_##tag##_KeccakP1600_Permute_Nrounds(void *state, unsigned nr);                   \
    static void xkcp_##tag##_p(uint64_t *s, unsigned r)                                        \
    {                                                                                          \
        if (r == 24)                                                                           \
            xkcp_##tag##_KeccakP1600_Permute_24rounds(s);                                      \
        else if (r == 12)                                                                      \
            xkcp_##tag##_KeccakP1600_Permute_12rounds(s);                                      \
        else                                                                                   \
            xkcp_##tag##_KeccakP1600_Permute_Nrounds(s, r);                                    \
    }                                                                                          \
    static void xkcp_##tag##_v(uint64_t *s, unsigned r)                                        \
    {                                                                                          \
        if (lc)                                                                                \
            rs_xkcp_complement(s);                                                             \
        xkcp_##tag##_p(s, r);                                                                  \
        if (lc)                                                                                \
            rs_xkcp_complement(s);                                                             \
    }
RS_XKCP_CONFIGS(RS_XKCP_WRAP)
#define RS_XKCP_ROW(tag, lc) {"xkcp-opt64-" #tag, "", xkcp_##tag##_p, xkcp_##tag##_v},
#endif

#define RS_SCALAR_ROW(f1600, p1600, absorb, squeeze, name, cpu) {name, cpu, p1600, 0},
#define RS_SINGLE_ROW(prefix, name, cpu) {name, cpu, prefix##_keccak_p1600, 0},
static const struct kernel kernels[] = {
    RS_KECCAK_VARIANTS(RS_SCALAR_ROW)
#ifdef RS_WITH_SINGLES
    RS_KECCAK_SINGLE_VARIANTS(RS_SINGLE_ROW)
#endif
#ifdef RS_WITH_XKCP
    RS_XKCP_CONFIGS(RS_XKCP_ROW)
#endif
    {0, 0, 0, 0}};
#define NKERNELS (sizeof kernels / sizeof kernels[0] - 1)

/* One contender's timed call: REPS permutations of its own state. */
struct perm_job {
    void (*p1600)(uint64_t *, unsigned);
    unsigned rounds;
    uint64_t st[25];
};

static void perm_run(void *arg)
{
    struct perm_job *j = (struct perm_job *)arg;
    int k;
    for (k = 0; k < REPS; k++)
        j->p1600(j->st, j->rounds);
    rs_use(j->st);
}

/* A candidate is timed only once it gives every vector right, so a tuner never picks a
 * wrong kernel; returns the first vector it fails, or NULL. */
static const char *first_wrong(const struct kernel *v)
{
    size_t k;
    for (k = 0; k < RS_KECCAK_NCASES; k++) {
        uint64_t st[25];
        memcpy(st, rs_keccak_cases[k].in, sizeof st);
        (v->check ? v->check : v->p1600)(st, rs_keccak_cases[k].rounds);
        if (memcmp(st, rs_keccak_cases[k].out, sizeof st) != 0)
            return rs_keccak_cases[k].name;
    }
    return NULL;
}

static int selected(const char *name, int argc, char **argv)
{
    int i;
    if (argc < 2)
        return 1;
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], name) == 0)
            return 1;
    return 0;
}

/* Race the chosen kernels and the reference at `rounds` rounds; the reference is last. */
static void race(struct rs_entrant *e, struct perm_job *jobs, size_t n, unsigned rounds,
                 const struct rs_options *o)
{
    size_t k;
    for (k = 0; k < n; k++) {
        jobs[k].rounds = rounds;
        memset(jobs[k].st, 0x5A, sizeof jobs[k].st);
    }
    if (rs_race(e, n, o, 5)) {
        fprintf(stderr, "bench_keccak: out of memory\n");
        exit(1);
    }
}

static int by_class(const void *a, const void *b)
{
    const struct rs_entrant *x = (const struct rs_entrant *)a, *y = (const struct rs_entrant *)b;
    return x->isa_class - y->isa_class;
}

int main(int argc, char **argv)
{
    struct rs_options o;
    struct rs_entrant e[NKERNELS + 1], e12[NKERNELS + 1];
    struct perm_job jobs[NKERNELS + 1];
    size_t n = 0, k, ref = 0;
    unsigned second = 12;
    int i;

    rs_bench_options(&argc, argv, &o, 31, usage);
    if (argc > 2 && !strcmp(argv[1], "-r")) {
        char *end;
        unsigned long r = strtoul(argv[2], &end, 10);
        if (*end || !*argv[2] || r < 1 || r > 24) {
            fprintf(stderr, "bench_keccak: -r takes a round count from 1 to 24, not '%s'\n",
                    argv[2]);
            return 2;
        }
        second = (unsigned)r;
        argv[2] = argv[0];
        argc -= 2;
        argv += 2;
    }
    rs_no_options_left(argc, argv, 1);
    for (i = 1; i < argc; i++) {
        for (k = 0; k < NKERNELS && strcmp(kernels[k].name, argv[i]); k++)
            ;
        if (k == NKERNELS) {
            fprintf(stderr, "bench_keccak: no kernel named '%s' in this build\n", argv[i]);
            return 2;
        }
    }
    if (o.tsv)
        rs_perm_header(second);
    for (k = 0; k < NKERNELS; k++) {
        const struct kernel *v = &kernels[k];
        const char *missing = "", *wrong;
        if (!selected(v->name, argc, argv))
            continue;
        if (!rs_cpu_has_all(v->cpu, &missing)) {
            printf("%s\t%s\tskipped (CPU lacks %s)\n", RS_COMPILER, v->name, missing);
            continue;
        }
        if ((wrong = first_wrong(v)) != NULL) {
            printf("%s\t%s\tWRONG: fails '%s', not timed\n", RS_COMPILER, v->name, wrong);
            continue;
        }
        jobs[n].p1600 = v->p1600;
        e[n] = (struct rs_entrant){v->name, perm_run, &jobs[n], REPS, rs_class_of(v->cpu),
                                   {0, 0}, 0};
        n++;
    }
    fflush(stdout);
    if (!n)
        return 0;
    jobs[n].p1600 = keccak_ref_p1600;
    e[n] = (struct rs_entrant){"reference", perm_run, &jobs[n], REPS, RS_CLASS_SCALAR,
                               {0, 0}, 0};
    n++;
    /* Grouped by class, so a round changes class twice at most (the jobs go along through
     * arg); the second race reuses the jobs at 12 rounds, so it gets its own entrants. */
    qsort(e, n, sizeof e[0], by_class);
    memcpy(e12, e, sizeof e);
    race(e, jobs, n, 24, &o);
    race(e12, jobs, n, second, &o);
    for (k = 0; k < n; k++)
        if (((struct perm_job *)e[k].arg)->p1600 == keccak_ref_p1600)
            ref = k;
    for (k = 0; k < n; k++)
        if (k != ref)
            rs_perm_row(o.tsv, RS_COMPILER, &e[k], &e12[k], &e[ref]);
    return 0;
}
