/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Timing for the benchmarks: the TSC where there is one (wall clock: every x86-64 CPU this
 * runs on has an invariant TSC), else the monotonic clock.
 *
 * How a bench times (rs_race): every contender of one kernel, the plain reference among them,
 * takes its turn in a round-robin inside one process, for many rounds. Each turn first runs
 * the contender's own code, untimed, long enough for the core to settle on it: a few
 * microseconds after a contender of the same ISA class (caches, predictors), RS_SETTLE_US
 * (3 ms by default) after one of another class (scalar, 128-, 256-, 512-bit). On Intel cores
 * 512-bit code lowers the clock for whatever runs next until ~2 ms after it stops, so a
 * figure taken right after it is a figure at the wrong clock. Then a few samples; the turn
 * keeps its best. A contender's figure is the median of its turns (best beside it): wall-clock
 * TSC cycles, compared as they are. The machine's speed drifts (a shared VM), but a round is
 * short and every contender has a turn in every round, so the drift moves all of them alike;
 * the reference's spread over the rounds is printed as the drift it saw, not divided out.
 */
#ifndef RS_TIMING_H
#define RS_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__TINYC__))
#define RS_TICKS_NAME "TSC cycles"
static inline uint64_t rs_ticks(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}
#else
#define RS_TICKS_NAME "ns"
static inline uint64_t rs_ticks(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

/* Keeps the compiler from discarding a result. */
static inline void rs_use(const void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

/* A bench's figures for one contender over its rounds: the median turn (what decides) and
 * the best one (what the code can reach). */
struct rs_figure {
    double best, median;
};

static inline int rs_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Best and median of n samples (sorted in place), each divided by `per`. */
static inline struct rs_figure rs_figures(uint64_t *samples, size_t n, double per)
{
    struct rs_figure f;
    qsort(samples, n, sizeof samples[0], rs_cmp_u64);
    f.best = (double)samples[0] / per;
    f.median = (n % 2 ? (double)samples[n / 2]
                      : ((double)samples[n / 2 - 1] + (double)samples[n / 2]) / 2) / per;
    return f;
}

/* Ticks per microsecond: the TSC against the monotonic clock over 5 ms, once. */
static inline double rs_ticks_per_us(void)
{
    static double cached;
    struct timespec a, b;
    uint64_t t0, t1;
    double ns;
    if (cached > 0)
        return cached;
    clock_gettime(CLOCK_MONOTONIC, &a);
    t0 = rs_ticks();
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec) < 5e6);
    t1 = rs_ticks();
    ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    cached = (double)(t1 - t0) / ns * 1e3;
    return cached;
}

/* ISA classes: a turn after a contender of another class settles for RS_SETTLE_US. */
enum { RS_CLASS_SCALAR, RS_CLASS_128, RS_CLASS_256, RS_CLASS_512, RS_CLASS_UNKNOWN };
/* RS_CLASS_UNKNOWN: code whose class the bench cannot know (a library's, one built out of
 * the tree): every turn of it settles. */
static const char *const rs_class_names[] = {"scalar", "128-bit", "256-bit", "512-bit", "unknown"};

/* The class of code needing the CPU features `cpu` (cpu_features.h names, space separated). */
static inline int rs_class_of(const char *cpu)
{
    if (strstr(cpu, "avx512"))
        return RS_CLASS_512;
    if (strstr(cpu, "avx2") || strstr(cpu, "avx "))
        return RS_CLASS_256;
    if (strstr(cpu, "sse") || strstr(cpu, "neon") || strstr(cpu, "sha3"))
        return RS_CLASS_128;
    return RS_CLASS_SCALAR;
}

/* One contender of a race: `run(arg)` is one timed call covering `per` units (permutations,
 * bytes). */
struct rs_entrant {
    const char *name;
    void (*run)(void *arg);
    void *arg;
    double per;
    int isa_class;
    struct rs_figure fig;   /* out: per unit */
    double spread;          /* out: 3rd quartile / 1st quartile of its turns, minus 1 */
};

/* The options every bench takes (rs_bench_options). */
struct rs_options {
    int tsv;
    unsigned rounds;        /* turns per contender */
    unsigned settle_us;     /* warm-up before a turn after another ISA class */
};

#define RS_SHORT_WARMUP_US 20
#define RS_MAX_ROUNDS 10000

static inline void rs_warm(const struct rs_entrant *e, uint64_t ticks)
{
    uint64_t t0 = rs_ticks();
    do
        e->run(e->arg);
    while (rs_ticks() - t0 < ticks);
}

/* Race n contenders for o->rounds rounds, `samples` timed calls per turn (the turn keeps the
 * best: an interrupt lands in one sample, not in all). Fills each one's fig and spread.
 * Returns 0, or -1 when out of memory. */
static inline int rs_race(struct rs_entrant *e, size_t n, const struct rs_options *o,
                          unsigned samples)
{
    uint64_t *t = (uint64_t *)malloc(n * o->rounds * sizeof *t);
    double us = rs_ticks_per_us();
    uint64_t settle = (uint64_t)(o->settle_us * us), brief = (uint64_t)(RS_SHORT_WARMUP_US * us);
    unsigned r, s;
    size_t k;
    int prev = -1;
    if (!t)
        return -1;
    for (r = 0; r < o->rounds; r++)
        for (k = 0; k < n; k++) {
            uint64_t best = UINT64_MAX, t0, dt;
            rs_warm(&e[k], e[k].isa_class == prev && prev != RS_CLASS_UNKNOWN ? brief : settle);
            prev = e[k].isa_class;
            for (s = 0; s < samples; s++) {
                t0 = rs_ticks();
                e[k].run(e[k].arg);
                dt = rs_ticks() - t0;
                if (dt < best)
                    best = dt;
            }
            t[k * o->rounds + r] = best;
        }
    for (k = 0; k < n; k++) {
        uint64_t *mine = t + k * o->rounds;
        e[k].fig = rs_figures(mine, o->rounds, e[k].per);
        e[k].spread = (double)mine[(o->rounds * 3) / 4] / (double)mine[o->rounds / 4] - 1;
    }
    free(t);
    return 0;
}

/* Parse the options every bench takes, leaving the rest of argv (its own options and
 * names) in order: --tsv, --turns N, --settle-us N, --help (prints `usage` on stdout, exit
 * 0). A bad value: one line on stderr, exit 2. */
static inline void rs_bench_options(int *argc, char **argv, struct rs_options *o,
                                    unsigned default_rounds, const char *usage)
{
    int i, out = 1;
    const char *env = getenv("RS_SETTLE_US");
    o->tsv = 0;
    o->rounds = default_rounds;
    o->settle_us = env && *env ? (unsigned)strtoul(env, NULL, 10) : 3000;
    /* A refusal names the argument it refuses in one line: control characters in arguments
     * (a newline from a shell variable) are shown as '?'. No option or variant name holds
     * one, so nothing that matched before stops matching. */
    for (i = 1; i < *argc; i++) {
        char *c;
        for (c = argv[i]; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
    }
    for (i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s", usage);
            printf("common options:\n"
                   "  --tsv           machine-readable rows (a header, then median, best, spread)\n"
                   "  --turns N       turns per contender in the round-robin");
            if (default_rounds)
                printf(" (default %u)", default_rounds);
            printf("\n  --settle-us N   warm-up before a turn after code of another ISA class\n"
                   "                  (default 3000, or $RS_SETTLE_US)\n"
                   "figures: %s, wall clock, median of the turns\n", RS_TICKS_NAME);
            exit(0);
        } else if (!strcmp(a, "--tsv")) {
            o->tsv = 1;
        } else if (!strcmp(a, "--turns") || !strcmp(a, "--settle-us")) {
            char *end;
            unsigned long v;
            if (i + 1 >= *argc) {
                fprintf(stderr, "%s: %s needs a number (see --help)\n", argv[0], a);
                exit(2);
            }
            v = strtoul(argv[++i], &end, 10);
            if (*end || !*argv[i] || (a[2] == 't' && (v < 1 || v > RS_MAX_ROUNDS)) ||
                v > 1000000) {
                fprintf(stderr, "%s: %s takes a number%s, not '%s'\n", argv[0], a,
                        a[2] == 't' ? " from 1 to 10000" : " of microseconds", argv[i]);
                exit(2);
            }
            if (a[2] == 't')
                o->rounds = (unsigned)v;
            else
                o->settle_us = (unsigned)v;
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
}

/* The first leftover argument that looks like an option: refused, one line, exit 2. */
static inline void rs_no_options_left(int argc, char **argv, int first)
{
    int i;
    for (i = first; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(stderr, "%s: unknown option '%s' (see --help)\n", argv[0], argv[i]);
            exit(2);
        }
}

/* The rows of the permutation benches (bench_keccak, bench_keccak_simd): with --tsv a header
 * and the median and best of each figure plus the plain reference's, from the same race, and
 * its spread over the rounds (the drift the race saw), then the kernel's own spread at 24
 * rounds and at the second count: a tuner declares a winner only by a margin larger than the
 * spreads of the two it compares (generator/decide.py). New columns go last, so a reader that
 * counts columns still finds the old ones where they were. Without --tsv, the medians, as
 * bench/bench_table.py reads. */
static inline void rs_perm_header(unsigned second_rounds)
{
    printf("compiler\tvariant\tstatus\tclass\tmedian_24\tbest_24\tmedian_%u\tbest_%u"
           "\tref_median_24\tref_best_24\tref_spread_24\tspread_24\tspread_%u\n",
           second_rounds, second_rounds, second_rounds);
}

/* c24, c12: the kernel's entrant in the 24-round race and in the second one. */
static inline void rs_perm_row(int tsv, const char *cc, const struct rs_entrant *c24,
                               const struct rs_entrant *c12, const struct rs_entrant *ref24)
{
    if (tsv)
        printf("%s\t%s\tok\t%s\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.4f\t%.4f\t%.4f\n", cc,
               c24->name, rs_class_names[c24->isa_class], c24->fig.median, c24->fig.best,
               c12->fig.median, c12->fig.best, ref24->fig.median, ref24->fig.best,
               ref24->spread, c24->spread, c12->spread);
    else
        printf("%s\t%s\t%.0f\t%.0f\t%.0f\t%.2f\n", cc, c24->name, c24->fig.median,
               c12->fig.median, ref24->fig.median, ref24->fig.median / c24->fig.median);
    fflush(stdout);
}

#endif
