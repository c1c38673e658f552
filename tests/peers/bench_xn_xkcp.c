/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The multi-buffer SHAKE128 of the committed bundle (out/x86_64 as a vendoring user builds
 * it: -O2, no -m flags, the dispatch choosing the path; ROUNDSMITH_PATH forces one) against
 * XKCP's parallel permutations, its AVX2 times4 and AVX-512 times8 C, compiled -O3
 * -march=native by the same compiler. tests/peers/bench_xkcp_xN.sh fetches XKCP into a
 * temporary folder and builds this; nothing of XKCP is in this tree.
 *
 * Every contender runs in one round-robin in this process (timing.h's rs_race, each turn
 * after a warm-up of its own code), so the drift of a shared VM moves them all alike. The
 * figure is TSC cycles per lane per permutation. XKCP is timed twice: its bare permutation,
 * the floor any sponge on it would have, and the same SHAKE128 driven through its
 * AddLanesAll / ExtractLanesAll, which does our sponge's whole job and so checks the bytes.
 *   bench_xn_xkcp LABEL [--tsv] [--turns N] [--settle-us N]
 * Defining RS_XN_NO_TIMES8 leaves XKCP's times8 out (a CPU without AVX-512 cannot build it
 * with -march=native); our x8 row stays.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roundsmith.h"
#include "../timing.h"

/*
 * The work per lane: SHAKE128 of 8 KiB into 8 KiB. The padded message is
 * ceil((8192 + 1) / 168) = 49 blocks, each xored in and then permuted. The output is
 * ceil(8192 / 168) = 49 blocks, but the first of them is the state the last absorbed block's
 * permutation left, so squeezing permutes 48 times: 49 + 49 - 1 = 97 permutations per lane.
 * Our sponge permutes the padded block lazily, on the first squeeze, which is the same 97;
 * XKCP's driver below makes exactly 97 calls, and its bare-permutation contender too.
 */
#define MSG 8192
#define RATE 168
#define ABSORB_BLOCKS ((MSG + 1 + RATE - 1) / RATE)
#define SQUEEZE_BLOCKS ((MSG + RATE - 1) / RATE)
#define PERMS (ABSORB_BLOCKS + SQUEEZE_BLOCKS - 1)

/* XKCP's driver moves whole lanes only: both tails must be whole lanes (8192 % 168 = 128). */
typedef char rs_tail_is_whole_lanes[(MSG % RATE) % 8 == 0 && MSG % 8 == 0 ? 1 : -1];

/* XKCP's KeccakP-1600-times{4,8}-SnP.h, declared here rather than included from its tree;
 * the states are its KeccakP1600times{4,8}_SIMD{256,512}_states, 25 aligned vectors. */
void KeccakP1600times4_InitializeAll(void *states);
void KeccakP1600times4_AddBytes(void *states, unsigned int instanceIndex,
                                const unsigned char *data, unsigned int offset,
                                unsigned int length);
void KeccakP1600times4_AddLanesAll(void *states, const unsigned char *data,
                                   unsigned int laneCount, unsigned int laneOffset);
void KeccakP1600times4_PermuteAll_24rounds(void *states);
void KeccakP1600times4_ExtractLanesAll(const void *states, unsigned char *data,
                                       unsigned int laneCount, unsigned int laneOffset);
#ifndef RS_XN_NO_TIMES8
void KeccakP1600times8_InitializeAll(void *states);
void KeccakP1600times8_AddBytes(void *states, unsigned int instanceIndex,
                                const unsigned char *data, unsigned int offset,
                                unsigned int length);
void KeccakP1600times8_AddLanesAll(void *states, const unsigned char *data,
                                   unsigned int laneCount, unsigned int laneOffset);
void KeccakP1600times8_PermuteAll_24rounds(void *states);
void KeccakP1600times8_ExtractLanesAll(const void *states, unsigned char *data,
                                       unsigned int laneCount, unsigned int laneOffset);
#endif

/* One buffer per side, lane j at j * MSG: XKCP's lane functions take one base pointer and
 * a stride in lanes, our API a pointer per lane; both see the same bytes. */
static uint8_t msg[8][MSG] __attribute__((aligned(64)));
static uint8_t out_ours[8][MSG] __attribute__((aligned(64)));
static uint8_t out_xkcp[8][MSG] __attribute__((aligned(64)));
static uint64_t states4[25 * 4] __attribute__((aligned(64)));
static uint64_t states8[25 * 8] __attribute__((aligned(64)));

static const uint8_t *in_ptr[8];
static uint8_t *out_ptr[8];

struct xkcp_times {
    unsigned n;
    void (*init)(void *);
    void (*add_bytes)(void *, unsigned int, const unsigned char *, unsigned int, unsigned int);
    void (*add_lanes)(void *, const unsigned char *, unsigned int, unsigned int);
    void (*permute)(void *);
    void (*extract_lanes)(const void *, unsigned char *, unsigned int, unsigned int);
    void *states;
};

static struct xkcp_times times4 = {
    4, KeccakP1600times4_InitializeAll, KeccakP1600times4_AddBytes,
    KeccakP1600times4_AddLanesAll, KeccakP1600times4_PermuteAll_24rounds,
    KeccakP1600times4_ExtractLanesAll, states4};
#ifndef RS_XN_NO_TIMES8
static struct xkcp_times times8 = {
    8, KeccakP1600times8_InitializeAll, KeccakP1600times8_AddBytes,
    KeccakP1600times8_AddLanesAll, KeccakP1600times8_PermuteAll_24rounds,
    KeccakP1600times8_ExtractLanesAll, states8};
#endif

static void ours4(void *arg)
{
    (void)arg;
    shake128_x4(out_ptr, MSG, in_ptr, MSG);
    rs_use(out_ours);
}

static void ours8(void *arg)
{
    (void)arg;
    shake128_x8(out_ptr, MSG, in_ptr, MSG);
    rs_use(out_ours);
}

static void xkcp_permute(void *arg)
{
    const struct xkcp_times *x = (const struct xkcp_times *)arg;
    int k;
    for (k = 0; k < PERMS; k++)
        x->permute(x->states);
    rs_use(x->states);
}

/* SHAKE128 on n lanes as a sponge over XKCP's parallel SnP would run it. */
static void xkcp_shake128(void *arg)
{
    const struct xkcp_times *x = (const struct xkcp_times *)arg;
    static const unsigned char domain = 0x1F, last = 0x80;
    const unsigned stride = MSG / 8;
    unsigned b, j, left;
    x->init(x->states);
    for (b = 0; b < MSG / RATE; b++) {
        x->add_lanes(x->states, &msg[0][0] + b * RATE, RATE / 8, stride);
        x->permute(x->states);
    }
    x->add_lanes(x->states, &msg[0][0] + b * RATE, (MSG % RATE) / 8, stride);
    for (j = 0; j < x->n; j++) {
        x->add_bytes(x->states, j, &domain, MSG % RATE, 1);
        x->add_bytes(x->states, j, &last, RATE - 1, 1);
    }
    x->permute(x->states);
    for (b = 0, left = MSG; left > RATE; b++, left -= RATE) {
        x->extract_lanes(x->states, &out_xkcp[0][0] + b * RATE, RATE / 8, stride);
        x->permute(x->states);
    }
    x->extract_lanes(x->states, &out_xkcp[0][0] + b * RATE, left / 8, stride);
    rs_use(out_xkcp);
}

/* Both SHAKE128s over the same n lanes, or nothing is timed. */
static int agree(unsigned n, struct xkcp_times *x)
{
    memset(out_ours, 0, sizeof out_ours);
    memset(out_xkcp, 0xA5, sizeof out_xkcp);
    if (n == 8)
        ours8(NULL);
    else
        ours4(NULL);
    xkcp_shake128(x);
    return memcmp(out_ours, out_xkcp, n * sizeof out_ours[0]) == 0;
}

static int class_of_path(int path)
{
    switch (path) {
    case RS_PATH_AVX512: return RS_CLASS_512;
    case RS_PATH_AVX2: return RS_CLASS_256;
    case RS_PATH_SSE2: return RS_CLASS_128;
    default: return RS_CLASS_SCALAR;
    }
}

/* Which kernel runs shake128_xN: the bundle's per-CPU table says, for the path in use. */
static const char *kernel_of(unsigned n)
{
    return rs_choice_name(n == 8 ? RS_DECISION_MB8 : RS_DECISION_MB4);
}

static const char usage[] =
    "usage: bench_xn_xkcp LABEL [OPTION...]\n"
    "Races shake128_x4 and shake128_x8 (8 KiB in, 8 KiB out per lane) against XKCP's\n"
    "KeccakP1600times4/times8_PermuteAll_24rounds over the same 97 permutations per lane,\n"
    "and against XKCP's SHAKE128 through AddLanesAll/ExtractLanesAll; TSC cycles per lane per\n"
    "permutation. LABEL names the compiler in the rows. Turns default to 41.\n";

static void row(int tsv, const char *cc, const char *what, const struct rs_entrant *e,
                const struct rs_entrant *ours)
{
    if (tsv) {
        printf("%s\t%s\t%.1f\t%.1f\t%.4f\t", cc, what, e->fig.median, e->fig.best, e->spread);
        if (ours)
            printf("%.3f\n", e->fig.median / ours->fig.median);
        else
            printf("-\n");
    } else {
        printf("%-14s %-26s %8.1f %8.1f %7.1f%%", cc, what, e->fig.median, e->fig.best,
               100 * e->spread);
        if (ours) {
            double r = e->fig.median / ours->fig.median;
            printf("   %9.2f  %s", r, r >= 0.95 ? "yes" : "no");
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    struct rs_options o;
    struct rs_entrant e[6];
    unsigned j, k, n = 0;
    int cls;
    const char *cc;

    rs_bench_options(&argc, argv, &o, 41, usage);
    rs_no_options_left(argc, argv, 1);
    if (argc != 2) {
        fprintf(stderr, "%s: %s (see --help)\n", argv[0],
                argc < 2 ? "needs a LABEL" : "takes one LABEL");
        return 2;
    }
    cc = argv[1];
    for (j = 0; j < 8; j++) {
        for (k = 0; k < MSG; k++)
            msg[j][k] = (uint8_t)((k * 2654435761u >> 24) + 31 * j);
        in_ptr[j] = msg[j];
        out_ptr[j] = out_ours[j];
    }
    if (!agree(4, &times4)) {
        fprintf(stderr, "bench_xn_xkcp: %s: shake128_x4 and XKCP times4 disagree; not timed\n", cc);
        return 1;
    }
#ifndef RS_XN_NO_TIMES8
    if (!agree(8, &times8)) {
        fprintf(stderr, "bench_xn_xkcp: %s: shake128_x8 and XKCP times8 disagree; not timed\n", cc);
        return 1;
    }
#endif
    cls = class_of_path(rs_path());
    printf("%s%s: our path %s (shake128_x4: %s; shake128_x8: %s)\n", o.tsv ? "# " : "", cc,
           rs_path_name(), kernel_of(4), kernel_of(8));
    printf("%s%s: our CPU row %s\n", o.tsv ? "# " : "", cc, rs_cpu_row_name());
    if (!o.tsv)
        printf("%-14s %-26s %8s %8s %8s   %9s  %s\n", "compiler", "what", "median", "best",
               "spread", "XKCP/ours", "within 5%");
    fflush(stdout);

    e[n++] = (struct rs_entrant){"ours x4", ours4, NULL, 4.0 * PERMS, cls, {0, 0}, 0};
    e[n++] = (struct rs_entrant){"XKCP times4", xkcp_permute, &times4, 4.0 * PERMS,
                                 RS_CLASS_256, {0, 0}, 0};
    e[n++] = (struct rs_entrant){"XKCP times4 sponge", xkcp_shake128, &times4, 4.0 * PERMS,
                                 RS_CLASS_256, {0, 0}, 0};
    e[n++] = (struct rs_entrant){"ours x8", ours8, NULL, 8.0 * PERMS, cls, {0, 0}, 0};
#ifndef RS_XN_NO_TIMES8
    e[n++] = (struct rs_entrant){"XKCP times8", xkcp_permute, &times8, 8.0 * PERMS,
                                 RS_CLASS_512, {0, 0}, 0};
    e[n++] = (struct rs_entrant){"XKCP times8 sponge", xkcp_shake128, &times8, 8.0 * PERMS,
                                 RS_CLASS_512, {0, 0}, 0};
#endif
    if (rs_race(e, n, &o, 3)) {
        fprintf(stderr, "bench_xn_xkcp: out of memory\n");
        return 1;
    }
    row(o.tsv, cc, "ours shake128_x4", &e[0], NULL);
    row(o.tsv, cc, "XKCP times4", &e[1], &e[0]);
    row(o.tsv, cc, "XKCP times4 +lanes (SHAKE)", &e[2], &e[0]);
    row(o.tsv, cc, "ours shake128_x8", &e[3], NULL);
#ifndef RS_XN_NO_TIMES8
    row(o.tsv, cc, "XKCP times8", &e[4], &e[3]);
    row(o.tsv, cc, "XKCP times8 +lanes (SHAKE)", &e[5], &e[3]);
#endif
    return 0;
}
