/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The dispatched bundle against the single-target build, kernel by kernel, per compiler, in
 * one process. For gcc: the bundle under prefix bg_ (out/x86_64 as a user vendors it: every
 * path, dispatch, -O2 and no -m flags, as its README compiles it) and the single-target build under sg_ (generate
 * --cc-id gcc for this machine, -O3 -march=native); with RS_HAVE_CLANG the same pair built
 * by clang (bc_, sc_). All four race round-robin per kernel (bench/timing.h, rs_race: each
 * turn settles on the contender's own code first), the median of each kept; a ratio is the
 * bundle's time over the same compiler's single-target time (1.00: dispatch costs nothing;
 * above 1.03 misses the 3% goal). `bench_bundle --help` for the options.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bg/chacha8.h"
#include "bg/keccak_p1600.h"
#include "bg/keccak_sponge.h"
#include "bg/rs_dispatch.h"
#include "sg/chacha8.h"
#include "sg/keccak_p1600.h"
#include "sg/keccak_sponge.h"
#ifdef RS_HAVE_CLANG
#include "bc/chacha8.h"
#include "bc/keccak_p1600.h"
#include "bc/keccak_sponge.h"
#include "sc/chacha8.h"
#include "sc/keccak_p1600.h"
#include "sc/keccak_sponge.h"
#define RS_BUILDS(X) X(bg) X(sg) X(bc) X(sc)
#define RS_NBUILDS 4
#else
#define RS_BUILDS(X) X(bg) X(sg)
#define RS_NBUILDS 2
#endif
#include "timing.h"

#define MIB (1024 * 1024)
#define KT_LEN (4 * MIB)
#define PERMS 64

static uint8_t *buf, digest[32];
static uint64_t state[25];

/* Per build: its ChaCha context, its setup, and one call of each timed kernel. */
#define RS_CONTENDER(p)                                                                        \
    static struct p##_chacha8_ctx p##_ctx;                                                     \
    static void p##_setup(const uint8_t *key) { p##_chacha8_keysetup(&p##_ctx, key, 256, NULL); } \
    static void p##_f1600(void) { unsigned i; for (i = 0; i < PERMS; i++) p##_keccak_f1600(state); } \
    static void p##_sha3(void) { p##_sha3_256(digest, buf, MIB); }                              \
    static void p##_kt(void) { p##_kt128(digest, 32, buf, KT_LEN, NULL, 0); }                   \
    static void p##_cha(void) { p##_chacha8_get_keystream(&p##_ctx, 0, MIB / 64, buf + KT_LEN); }
RS_BUILDS(RS_CONTENDER)

typedef void (*run_fn)(void);
#define RS_F1600(p) p##_f1600,
#define RS_SHA3(p) p##_sha3,
#define RS_KT(p) p##_kt,
#define RS_CHA(p) p##_cha,
#define RS_SETUP(p) p##_setup(key);

static const struct {
    const char *kernel, *unit;
    double per;  /* units per call */
    run_fn f[RS_NBUILDS];
} rows[] = {
    {"keccak_f1600", "cycles/perm", PERMS, {RS_BUILDS(RS_F1600)}},
    {"sha3_256, 1 MiB", "cycles/byte", MIB, {RS_BUILDS(RS_SHA3)}},
    {"kt128, 4 MiB", "cycles/byte", KT_LEN, {RS_BUILDS(RS_KT)}},
    {"chacha8 keystream, 1 MiB", "cycles/byte", MIB, {RS_BUILDS(RS_CHA)}},
};

static const char usage[] =
    "usage: bench_bundle [OPTION...]\n"
    "Races the dispatched bundle (out/x86_64) against the single-target build, per compiler\n"
    "and kernel, round-robin; prints median cycles and bundle / single-target.\n"
    "Turns default to 101 (a quarter of them for KT128's 4 MiB calls).\n";

static void call_run(void *arg)
{
    (*(const run_fn *)arg)();
    rs_use(buf);
    rs_use(state);
}

int main(int argc, char **argv)
{
    struct rs_options o;
    unsigned r, k, rounds;
    size_t i;
    uint8_t key[32] = {7};
    static const char *const cc[2] = {"gcc", "clang"};

    rs_bench_options(&argc, argv, &o, 101, usage);
    if (argc > 1) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", argv[0], argv[1]);
        return 2;
    }
    rounds = o.rounds;
    buf = malloc(KT_LEN + MIB);
    if (!buf)
        return 1;
    for (i = 0; i < KT_LEN + MIB; i++)
        buf[i] = (uint8_t)(i * 131);
    RS_BUILDS(RS_SETUP)
    printf("bundle path %s (%s ChaCha); %u rounds round-robin, median of each, %s\n",
           bg_path_name(), bg_chacha_level(), rounds, RS_TICKS_NAME);
    printf("%-26s %-12s %-6s %11s %14s %7s\n", "kernel", "unit", "cc", "dispatched",
           "single-target", "ratio");
    for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        struct rs_entrant e[RS_NBUILDS];
        static const char *const names[4] = {"bundle gcc", "single gcc", "bundle clang",
                                             "single clang"};
        o.rounds = r == 2 ? rounds / 4 + 1 : rounds;  /* KT128's 4 MiB calls are long */
        for (k = 0; k < RS_NBUILDS; k++)
            e[k] = (struct rs_entrant){names[k], call_run, (void *)&rows[r].f[k], rows[r].per,
                                       RS_CLASS_UNKNOWN, {0, 0}, 0};
        if (rs_race(e, RS_NBUILDS, &o, 3))
            return 1;
        for (k = 0; k < RS_NBUILDS; k += 2)
            printf("%-26s %-12s %-6s %11.3f %14.3f %7.3f\n", rows[r].kernel, rows[r].unit,
                   cc[k / 2], e[k].fig.median, e[k + 1].fig.median,
                   e[k].fig.median / e[k + 1].fig.median);
    }
    free(buf);
    return 0;
}
