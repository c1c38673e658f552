/*
 * The dispatched bundle against the single-target build, kernel by kernel, in one process:
 * the bundle under prefix b_ (out/x86_64 as a user vendors it: every path, dispatch, no -m
 * flags), the single-target build under prefix s_ (generate for this machine, -march=native).
 * Each pair is timed in alternation (b, s, b, s, ...) and the best of each kept; the ratio is
 * dispatched time / single-target time (1.00: no cost; above 1.03 misses the 3% goal).
 *
 *   bench_bundle [PAIRS]       (default 300)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "b/chacha8.h"
#include "b/keccak_p1600.h"
#include "b/keccak_sponge.h"
#include "b/rs_dispatch.h"
#include "s/chacha8.h"
#include "s/keccak_p1600.h"
#include "s/keccak_sponge.h"
#include "timing.h"

#define MIB (1024 * 1024)
#define KT_LEN (4 * MIB)
#define PERMS 64

static uint8_t *buf, digest[32];
static uint64_t state[25];
static struct b_chacha8_ctx bctx;
static struct s_chacha8_ctx sctx;

static void b_f1600(void) { unsigned i; for (i = 0; i < PERMS; i++) b_keccak_f1600(state); }
static void s_f1600(void) { unsigned i; for (i = 0; i < PERMS; i++) s_keccak_f1600(state); }
static void b_sha3(void) { b_sha3_256(digest, buf, MIB); }
static void s_sha3(void) { s_sha3_256(digest, buf, MIB); }
static void b_kt(void) { b_kt128(digest, 32, buf, KT_LEN, NULL, 0); }
static void s_kt(void) { s_kt128(digest, 32, buf, KT_LEN, NULL, 0); }
static void b_cha(void) { b_chacha8_get_keystream(&bctx, 0, MIB / 64, buf + KT_LEN); }
static void s_cha(void) { s_chacha8_get_keystream(&sctx, 0, MIB / 64, buf + KT_LEN); }

static const struct {
    const char *kernel, *unit;
    void (*b)(void), (*s)(void);
    double per;  /* units per call */
} rows[] = {
    {"keccak_f1600", "cycles/perm", b_f1600, s_f1600, PERMS},
    {"sha3_256, 1 MiB", "cycles/byte", b_sha3, s_sha3, MIB},
    {"kt128, 4 MiB", "cycles/byte", b_kt, s_kt, KT_LEN},
    {"chacha8 keystream, 1 MiB", "cycles/byte", b_cha, s_cha, MIB},
};

static uint64_t once(void (*f)(void))
{
    uint64_t t = rs_ticks();
    f();
    t = rs_ticks() - t;
    rs_use(buf);
    rs_use(state);
    return t;
}

int main(int argc, char **argv)
{
    unsigned pairs = argc > 1 ? (unsigned)atoi(argv[1]) : 300, r, i;
    uint8_t key[32] = {7};

    buf = malloc(KT_LEN + MIB);
    if (!buf)
        return 1;
    for (i = 0; i < KT_LEN + MIB; i++)
        buf[i] = (uint8_t)(i * 131);
    b_chacha8_keysetup(&bctx, key, 256, NULL);
    s_chacha8_keysetup(&sctx, key, 256, NULL);
    printf("bundle path %s (%s ChaCha); %u alternated pairs, best of each, %s\n",
           b_rs_path_name(), b_chacha_level(), pairs, RS_TICKS_NAME);
    printf("%-26s %-12s %12s %14s %8s\n", "kernel", "unit", "dispatched", "single-target",
           "ratio");
    for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        uint64_t bb = UINT64_MAX, sb = UINT64_MAX, t;
        unsigned n = r == 2 ? pairs / 4 + 1 : pairs;  /* KT128's 4 MiB calls are long */
        for (i = 0; i < n; i++) {
            if ((t = once(rows[r].b)) < bb)
                bb = t;
            if ((t = once(rows[r].s)) < sb)
                sb = t;
        }
        printf("%-26s %-12s %12.3f %14.3f %8.3f\n", rows[r].kernel, rows[r].unit,
               bb / rows[r].per, sb / rows[r].per, (double)bb / (double)sb);
    }
    free(buf);
    return 0;
}
