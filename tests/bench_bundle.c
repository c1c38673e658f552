/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The dispatched bundle against the single-target build, kernel by kernel, per compiler, in
 * one process. For gcc: the bundle under prefix bg_ (out/x86_64 as a user vendors it: every
 * path, dispatch, -O3 and no -m flags) and the single-target build under sg_ (generate
 * --cc-id gcc for this machine, -O3 -march=native); with RS_HAVE_CLANG the same pair built
 * by clang (bc_, sc_). All four are timed in alternation (bg, sg, bc, sc, bg, ...), the best
 * of each kept; a ratio is the bundle's time over the same compiler's single-target time
 * (1.00: dispatch costs nothing; above 1.03 misses the 3% goal).
 *
 *   bench_bundle [PAIRS]       (default 300)
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

int main(int argc, char **argv)
{
    unsigned pairs = argc > 1 ? (unsigned)atoi(argv[1]) : 300, r, i, k;
    uint8_t key[32] = {7};
    static const char *const cc[2] = {"gcc", "clang"};

    buf = malloc(KT_LEN + MIB);
    if (!buf)
        return 1;
    for (i = 0; i < KT_LEN + MIB; i++)
        buf[i] = (uint8_t)(i * 131);
    RS_BUILDS(RS_SETUP)
    printf("bundle path %s (%s ChaCha); %u alternated rounds, best of each, %s\n",
           bg_rs_path_name(), bg_chacha_level(), pairs, RS_TICKS_NAME);
    printf("%-26s %-12s %-6s %11s %14s %7s\n", "kernel", "unit", "cc", "dispatched",
           "single-target", "ratio");
    for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uint64_t best[RS_NBUILDS], t;
        unsigned n = r == 2 ? pairs / 4 + 1 : pairs;  /* KT128's 4 MiB calls are long */
        for (k = 0; k < RS_NBUILDS; k++)
            best[k] = UINT64_MAX;
        for (i = 0; i < n; i++)
            for (k = 0; k < RS_NBUILDS; k++) {
                t = rs_ticks();
                rows[r].f[k]();
                t = rs_ticks() - t;
                rs_use(buf);
                rs_use(state);
                if (t < best[k])
                    best[k] = t;
            }
        for (k = 0; k < RS_NBUILDS; k += 2)
            printf("%-26s %-12s %-6s %11.3f %14.3f %7.3f\n", rows[r].kernel, rows[r].unit,
                   cc[k / 2], best[k] / rows[r].per, best[k + 1] / rows[r].per,
                   (double)best[k] / (double)best[k + 1]);
    }
    free(buf);
    return 0;
}
