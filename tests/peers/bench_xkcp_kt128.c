/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Our KT128 (out/x86_64, dispatching: x8 AVX-512 leaves on an AVX-512 CPU) against XKCP's
 * KangarooTwelve (its AVX512 target: times8 leaves), both built by the same compiler with the
 * same flags by tests/peers/bench_xkcp_kt128.sh, which fetches and builds XKCP in a temporary
 * folder; nothing of XKCP is in this tree. The two are timed in alternation in one process over
 * the same input; prints TSC cycles per byte (median and best) and XKCP's time over ours.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "rs_dispatch.h"
#include "../timing.h"

/* XKCP's KangarooTwelve.h, declared here rather than included from its tree. */
int KT128(const unsigned char *input, size_t inputByteLen, unsigned char *output,
          size_t outputByteLen, const unsigned char *customization, size_t customByteLen);

#define MAXR 64

static void race(const char *cc, const uint8_t *buf, size_t len, int rounds)
{
    static uint64_t ours[MAXR], theirs[MAXR];
    uint8_t a[32], b[32];
    struct rs_figure fo, fx;
    int r;

    kt128(a, 32, buf, len, NULL, 0);
    KT128(buf, len, b, 32, NULL, 0);
    if (memcmp(a, b, 32) != 0) {
        fprintf(stderr, "bench_xkcp_kt128: %s: the two KT128 disagree; not timed\n", cc);
        exit(1);
    }
    for (r = 0; r < rounds; r++) {
        uint64_t t = rs_ticks();
        kt128(a, 32, buf, len, NULL, 0);
        ours[r] = rs_ticks() - t;
        rs_use(a);
        t = rs_ticks();
        KT128(buf, len, b, 32, NULL, 0);
        theirs[r] = rs_ticks() - t;
        rs_use(b);
    }
    fo = rs_figures(ours, (size_t)rounds, (double)len);
    fx = rs_figures(theirs, (size_t)rounds, (double)len);
    printf("%s\t%zu KiB\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\n", cc, len / 1024, rs_path_name(),
           fo.median, fo.best, fx.median, fx.best, fx.median / fo.median);
}

int main(int argc, char **argv)
{
    const char *cc = argc > 1 ? argv[1] : "?";
    size_t len = (size_t)16 << 20, k;
    uint8_t *buf = malloc(len);

    if (!buf)
        return 1;
    for (k = 0; k < len; k++)
        buf[k] = (uint8_t)(k * 2654435761u >> 24);
    race(cc, buf, (size_t)1 << 20, 41);
    race(cc, buf, len, 21);
    free(buf);
    return 0;
}
