/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * bench_short: what a short-message hashing call costs beyond the bare permutation it rides
 * on, on the x86_64 bundle (out/x86_64 as a user vendors it: -O2, no -m flags, the dispatch
 * picking the path; ROUNDSMITH_PATH=scalar|sse2|avx2|avx512 forces one). A 32-byte hash is
 * one Keccak-f[1600], so whatever the call costs on top (padding, loading and storing the
 * bytes, the dispatch, the context) is the byte layer's share, and on short messages it is
 * the part a faster permutation cannot shrink. Rows, each a call against its permutation:
 *   - single state, against keccak_f1600: sha3_256 of 32 and 64 bytes, keccak256 of 32,
 *     shake128 of 34 bytes in and 168 out (ML-KEM's matrix seeds, one block), and sha3_256
 *     as init + update(32) + final;
 *   - N = 2, 4, 8 lanes, against keccak_f1600_xN (keccak_p1600_xN.h): sha3_256_xN and
 *     keccak256_xN of 32 bytes per lane; shake128_xN of 34 bytes in and 168 out per lane;
 *     shake128_xN init + absorb(34) + squeeze(504 = 3 blocks) against three permutations;
 *     shake128_xN_squeeze of 168 bytes on a context already squeezing.
 * Each row group races in one rs_race (bench/timing.h: round-robin in this one process, a
 * call and its permutation timed turn about, so the machine's drift moves both alike); the
 * figures are TSC cycles per call (CALLS back-to-back calls per sample, the turn keeping its
 * best sample), the median turn and the best; overhead = call / permutation - 1. Every call
 * is checked before timing (known answers, lanes against the single-buffer functions,
 * incremental against one-shot). Nothing asserts a timing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roundsmith.h"
#include "timing.h"

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

#define CALLS 16 /* back-to-back calls per timed sample: rdtsc's own cost stays out */

typedef void (*call_fn)(void);

struct contender {
    const char *name;
    call_fn fn;
};

/* One row: contender `call` against contender `perm` of the same group. */
struct row {
    unsigned call, perm;
};

struct group {
    const char *title;
    int decision; /* RS_DECISION_*: the calls' kernel (the permutation's too, unless the
                   * dispatch runs a kernel of the exact width for it) */
    const struct contender *c;
    unsigned n;
    const struct row *rows;
    unsigned nrows;
};

static uint8_t msgs[8][64];
static uint8_t outs[8][504];
static const uint8_t *inp[8];
static uint8_t *outp[8];

/* -- single state -- */

static uint64_t st1[25];
static keccak_sponge ctx1;

static void perm_x1(void) { keccak_f1600(st1); }
static void sha3_32(void) { sha3_256(outs[0], msgs[0], 32); }
static void sha3_64(void) { sha3_256(outs[0], msgs[0], 64); }
static void k256_32(void) { keccak256(outs[0], msgs[0], 32); }
static void shake_34(void) { shake128(outs[0], 168, msgs[0], 34); }
static void sha3_incr(void)
{
    sha3_256_init(&ctx1);
    sha3_256_update(&ctx1, msgs[0], 32);
    sha3_256_final(&ctx1, outs[0]);
}

static const struct contender single_c[] = {
    {"keccak_f1600", perm_x1},
    {"sha3_256, 32 B", sha3_32},
    {"sha3_256, 64 B", sha3_64},
    {"keccak256, 32 B", k256_32},
    {"shake128, 34 B -> 168 B", shake_34},
    {"sha3_256 init+update(32)+final", sha3_incr},
};
static const struct row single_r[] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}};

/* -- N lanes -- */

#define LANES(N)                                                                              \
    static uint64_t st_x##N[25][N];                                                           \
    static keccak_sponge_x##N ctx_x##N, sq_x##N;                                              \
    static void perm_x##N(void) { keccak_f1600_x##N(st_x##N); }                               \
    static void perm3_x##N(void)                                                              \
    {                                                                                         \
        keccak_f1600_x##N(st_x##N);                                                           \
        keccak_f1600_x##N(st_x##N);                                                           \
        keccak_f1600_x##N(st_x##N);                                                           \
    }                                                                                         \
    static void sha3_x##N(void) { sha3_256_x##N(outp, inp, 32); }                             \
    static void k256_x##N(void) { keccak256_x##N(outp, inp, 32); }                            \
    static void shake_x##N(void) { shake128_x##N(outp, 168, inp, 34); }                       \
    static void stream_x##N(void)                                                             \
    {                                                                                         \
        shake128_x##N##_init(&ctx_x##N);                                                      \
        shake128_x##N##_absorb(&ctx_x##N, inp, 34);                                           \
        shake128_x##N##_squeeze(&ctx_x##N, outp, 504);                                        \
    }                                                                                         \
    static void squeeze_x##N(void) { shake128_x##N##_squeeze(&sq_x##N, outp, 168); }         \
    static const struct contender lanes_c##N[] = {                                            \
        {"keccak_f1600_x" #N, perm_x##N},                                                     \
        {"3 x keccak_f1600_x" #N, perm3_x##N},                                                \
        {"sha3_256_x" #N ", 32 B", sha3_x##N},                                                \
        {"keccak256_x" #N ", 32 B", k256_x##N},                                               \
        {"shake128_x" #N ", 34 B -> 168 B", shake_x##N},                                      \
        {"shake128_x" #N " init+absorb(34)+squeeze(504)", stream_x##N},                       \
        {"shake128_x" #N "_squeeze, 168 B", squeeze_x##N},                                    \
    };                                                                                        \
    /* Squeezing 504 bytes is 3 permutations; the others are 1. */                            \
    static const struct row lanes_r##N[] = {{2, 0}, {3, 0}, {4, 0}, {5, 1}, {6, 0}};          \
    /* Lane j of every call is the single-buffer function on lane j's bytes. */               \
    static const char *check_x##N(void)                                                       \
    {                                                                                         \
        uint8_t want[672];                                                                    \
        unsigned j;                                                                           \
        sha3_x##N();                                                                          \
        for (j = 0; j < N; j++) {                                                             \
            sha3_256(want, msgs[j], 32);                                                      \
            if (memcmp(outs[j], want, 32))                                                    \
                return "sha3_256_x" #N;                                                       \
        }                                                                                     \
        k256_x##N();                                                                          \
        for (j = 0; j < N; j++) {                                                             \
            keccak256(want, msgs[j], 32);                                                     \
            if (memcmp(outs[j], want, 32))                                                    \
                return "keccak256_x" #N;                                                      \
        }                                                                                     \
        shake_x##N();                                                                         \
        for (j = 0; j < N; j++) {                                                             \
            shake128(want, 168, msgs[j], 34);                                                 \
            if (memcmp(outs[j], want, 168))                                                   \
                return "shake128_x" #N;                                                       \
        }                                                                                     \
        stream_x##N();                                                                        \
        for (j = 0; j < N; j++) {                                                             \
            shake128(want, 504, msgs[j], 34);                                                 \
            if (memcmp(outs[j], want, 504))                                                   \
                return "shake128_x" #N " init/absorb/squeeze";                                \
        }                                                                                     \
        /* The squeezing context the race keeps calling: 504 bytes out, then 168 more. */     \
        shake128_x##N##_init(&sq_x##N);                                                       \
        shake128_x##N##_absorb(&sq_x##N, inp, 34);                                            \
        shake128_x##N##_squeeze(&sq_x##N, outp, 504);                                         \
        squeeze_x##N();                                                                       \
        for (j = 0; j < N; j++) {                                                             \
            shake128(want, 672, msgs[j], 34);                                                 \
            if (memcmp(outs[j], want + 504, 168))                                             \
                return "shake128_x" #N "_squeeze";                                            \
        }                                                                                     \
        return NULL;                                                                          \
    }

LANES(2)
LANES(4)
LANES(8)

static const struct group groups[] = {
    {"single state", RS_DECISION_SINGLE, single_c, 6, single_r, 5},
    {"2 lanes", RS_DECISION_MB2, lanes_c2, 7, lanes_r2, 5},
    {"4 lanes", RS_DECISION_MB4, lanes_c4, 7, lanes_r4, 5},
    {"8 lanes", RS_DECISION_MB8, lanes_c8, 7, lanes_r8, 5},
};
#define GROUPS (sizeof groups / sizeof groups[0])

static int hex_is(const uint8_t *got, const char *hex)
{
    size_t i, n = strlen(hex) / 2;
    for (i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1 || got[i] != v)
            return 0;
    }
    return 1;
}

/* Known answers for the single-state functions, incremental against one-shot, then the
 * lanes: the name of the first call that gives wrong bytes, or NULL. */
static const char *check_all(void)
{
    uint8_t d[168], want[32];
    const char *bad;
    sha3_256(d, (const uint8_t *)"abc", 3);
    if (!hex_is(d, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"))
        return "sha3_256";
    keccak256(d, NULL, 0);
    if (!hex_is(d, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"))
        return "keccak256";
    shake128(d, 32, NULL, 0);
    if (!hex_is(d, "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"))
        return "shake128";
    sha3_256(want, msgs[0], 32);
    sha3_incr();
    if (memcmp(outs[0], want, 32))
        return "sha3_256_init/update/final";
    if ((bad = check_x2()) || (bad = check_x4()) || (bad = check_x8()))
        return bad;
    return NULL;
}

static void run(void *arg)
{
    call_fn fn = ((const struct contender *)arg)->fn;
    unsigned k;
    for (k = 0; k < CALLS; k++)
        fn();
    rs_use(outs);
}

/* /proc/cpuinfo's "model name", or NULL. */
static const char *cpu_model(void)
{
    static char line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    const char *name = NULL;
    if (!f)
        return NULL;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            char *p = strchr(line, ':') + 1, *end;
            while (*p == ' ' || *p == '\t')
                p++;
            end = p + strlen(p);
            while (end > p && (end[-1] == '\n' || end[-1] == ' '))
                *--end = 0;
            name = p;
            break;
        }
    fclose(f);
    return name;
}

static const char usage[] =
    "usage: bench_short [OPTION...]\n"
    "Races each short-message call of the x86_64 bundle (sha3_256, keccak256, shake128, and\n"
    "their 2-, 4- and 8-lane forms) against the bare permutation it rides on, on the path the\n"
    "dispatch picks (ROUNDSMITH_PATH=scalar|sse2|avx2|avx512 forces one; a path this CPU or\n"
    "build cannot run is skipped with a line, exit 0; another name is refused); prints\n"
    "cycles per call and the overhead (call / permutation - 1). Turns default to 201.\n";

int main(int argc, char **argv)
{
    struct rs_options o;
    struct rs_entrant e[8];
    const char *want = getenv("ROUNDSMITH_PATH"), *bad, *cpu;
    unsigned g, k, j;

    rs_bench_options(&argc, argv, &o, 201, usage);
    rs_no_options_left(argc, argv, 1);
    if (argc > 1) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", argv[0], argv[1]);
        return 2;
    }
    /* A name that is no path of the bundle is a typo, refused before the dispatch reads
     * it; a path it falls back from (it says why on stderr) would give another path's
     * figures, so none are taken. */
    if (want && *want && strcmp(want, "scalar") && strcmp(want, "sse2") &&
        strcmp(want, "avx2") && strcmp(want, "avx512")) {
        fprintf(stderr, "%s: ROUNDSMITH_PATH=%s is not one of scalar, sse2, avx2, avx512\n",
                argv[0], want);
        return 2;
    }
    if (want && *want && strcmp(want, rs_path_name())) {
        printf("bench_short: path %s not run here (the dispatch runs %s); skipped\n", want,
               rs_path_name());
        return 0;
    }
    for (j = 0; j < 8; j++) {
        for (k = 0; k < 64; k++)
            msgs[j][k] = (uint8_t)((k * 2654435761u >> 24) + 31 * j);
        inp[j] = msgs[j];
        outp[j] = outs[j];
    }
    if ((bad = check_all())) {
        fprintf(stderr, "bench_short: %s gives wrong bytes\n", bad);
        return 1;
    }
    cpu = cpu_model();
    if (o.tsv)
        printf("compiler\tpath\tkernel\tcall\tcall_median\tcall_best\tpermutation"
               "\tperm_median\tperm_best\toverhead_pct\tcall_spread\tperm_spread\n");
    else
        printf("%s, path %s, CPU %s\nper-CPU table: %s\n%s per call, median of %u turns "
               "(best); overhead = call / permutation - 1\n", RS_COMPILER, rs_path_name(),
               cpu ? cpu : "unknown", rs_cpu_row_name(), RS_TICKS_NAME, o.rounds);
    for (g = 0; g < GROUPS; g++) {
        const struct group *gr = &groups[g];
        const char *kernel = rs_choice_name(gr->decision);
        /* A call and its permutation run kernels of one ISA class (the same kernel, or on
         * AVX-512 an x2 permutation on the x2 kernel), so one class for the group: the first
         * turn settles after the previous group, the rest warm briefly. */
        int cls = rs_class_of(kernel);
        for (k = 0; k < gr->n; k++) {
            e[k].name = gr->c[k].name;
            e[k].run = run;
            e[k].arg = (void *)(uintptr_t)&gr->c[k];
            e[k].per = CALLS;
            e[k].isa_class = cls;
        }
        if (rs_race(e, gr->n, &o, 5)) {
            fprintf(stderr, "bench_short: out of memory\n");
            return 1;
        }
        if (!o.tsv)
            printf("\n%s (the calls run %s)\n  %-44s %14s   %-20s %14s %9s\n", gr->title, kernel,
                   "call", "cycles", "permutation", "cycles", "overhead");
        for (k = 0; k < gr->nrows; k++) {
            const struct rs_entrant *c = &e[gr->rows[k].call], *p = &e[gr->rows[k].perm];
            double over = 100 * (c->fig.median / p->fig.median - 1);
            if (o.tsv)
                printf("%s\t%s\t%s\t%s\t%.1f\t%.1f\t%s\t%.1f\t%.1f\t%.1f\t%.4f\t%.4f\n",
                       RS_COMPILER, rs_path_name(), kernel, c->name, c->fig.median,
                       c->fig.best, p->name, p->fig.median, p->fig.best, over, c->spread,
                       p->spread);
            else
                printf("  %-44s %6.0f (%5.0f)   %-20s %6.0f (%5.0f) %+8.1f%%\n", c->name,
                       c->fig.median, c->fig.best, p->name, p->fig.median, p->fig.best, over);
        }
        fflush(stdout);
    }
    return 0;
}
