/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Our ParallelHash128/256 (blocks of 8192 bytes), KT256 and cSHAKE128 (out/x86_64,
 * dispatching: x8 AVX-512 leaves on an AVX-512 CPU) against XKCP's (its AVX512 target: times8
 * leaves), both built by the same compiler with the same flags by
 * tests/peers/bench_xkcp_sp800185.sh, which fetches and builds XKCP in a temporary folder;
 * nothing of XKCP is in this tree. Each pair is checked to agree, then timed in alternation in
 * one process over the same 16 MiB; prints TSC cycles per byte (median and best) and XKCP's
 * time over ours.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keccak_sponge.h"
#include "rs_dispatch.h"
#include "../timing.h"

/* XKCP's SP800-185.h and KangarooTwelve.h, declared here rather than included from its tree
 * (BitLength is its size_t; its lengths are in bits). */
int ParallelHash128(const unsigned char *input, size_t inputBitLen, size_t blockByteLen,
                    unsigned char *output, size_t outputBitLen,
                    const unsigned char *customization, size_t customBitLen);
int ParallelHash256(const unsigned char *input, size_t inputBitLen, size_t blockByteLen,
                    unsigned char *output, size_t outputBitLen,
                    const unsigned char *customization, size_t customBitLen);
int cSHAKE128(const unsigned char *input, size_t inputBitLen, unsigned char *output,
              size_t outputBitLen, const unsigned char *name, size_t nameBitLen,
              const unsigned char *customization, size_t customBitLen);
int KT256(const unsigned char *input, size_t inputByteLen, unsigned char *output,
          size_t outputByteLen, const unsigned char *customization, size_t customByteLen);

#define ROUNDS 15
#define BLOCK 8192

enum { PH128, PH256, KT, CSHAKE, NFUNCTIONS };
static const char *const names[NFUNCTIONS] = {"parallelhash128 B=8192", "parallelhash256 B=8192",
                                               "kt256", "cshake128"};
static const uint8_t custom[3] = {'a', 'b', 'c'};

static void ours(int f, const uint8_t *in, size_t len, uint8_t *out)
{
    switch (f) {
    case PH128: parallelhash128(out, 32, in, len, BLOCK, custom, 3); break;
    case PH256: parallelhash256(out, 64, in, len, BLOCK, custom, 3); break;
    case KT: kt256(out, 64, in, len, custom, 3); break;
    default: cshake128(out, 32, in, len, NULL, 0, custom, 3); break;
    }
}

static void theirs(int f, const uint8_t *in, size_t len, uint8_t *out)
{
    switch (f) {
    case PH128: ParallelHash128(in, 8 * len, BLOCK, out, 256, custom, 24); break;
    case PH256: ParallelHash256(in, 8 * len, BLOCK, out, 512, custom, 24); break;
    case KT: KT256(in, len, out, 64, custom, 3); break;
    default: cSHAKE128(in, 8 * len, out, 256, NULL, 0, custom, 24); break;
    }
}

int main(int argc, char **argv)
{
    const char *cc = argc > 1 ? argv[1] : "?";
    size_t len = (size_t)16 << 20, k;
    uint8_t *buf = malloc(len), a[64], b[64];
    static uint64_t t_ours[ROUNDS], t_theirs[ROUNDS];
    int f, r;

    if (!buf)
        return 1;
    for (k = 0; k < len; k++)
        buf[k] = (uint8_t)(k * 2654435761u >> 24);
    printf("# %s: 16 MiB, our path %s (leaves on %s), %s per byte\n", cc, rs_path_name(),
           rs_choice_name(RS_DECISION_KT128), RS_TICKS_NAME);
    printf("compiler and flags\tfunction\tours median c/B\tours best\tXKCP median c/B\t"
           "XKCP best\tXKCP/ours (medians)\n");
    for (f = 0; f < NFUNCTIONS; f++) {
        struct rs_figure fo, fx;
        ours(f, buf, len, a);
        theirs(f, buf, len, b);
        if (memcmp(a, b, f == PH128 || f == CSHAKE ? 32 : 64) != 0) {
            fprintf(stderr, "bench_xkcp_sp800185: %s: %s disagrees with XKCP; not timed\n", cc,
                    names[f]);
            return 1;
        }
        for (r = 0; r < ROUNDS; r++) {
            uint64_t t = rs_ticks();
            ours(f, buf, len, a);
            t_ours[r] = rs_ticks() - t;
            rs_use(a);
            t = rs_ticks();
            theirs(f, buf, len, b);
            t_theirs[r] = rs_ticks() - t;
            rs_use(b);
        }
        fo = rs_figures(t_ours, ROUNDS, (double)len);
        fx = rs_figures(t_theirs, ROUNDS, (double)len);
        printf("%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\n", cc, names[f], fo.median, fo.best,
               fx.median, fx.best, fx.median / fo.median);
    }
    free(buf);
    return 0;
}
