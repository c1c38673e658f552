/*
 * A minimal byte-at-a-time sponge over Keccak-p[1600], for tests only: the fuzz target that
 * checks absorb/squeeze splits against one-shot runs on it until the real sponge layer
 * (issue 5) exists. Swapping that in means changing tests/fuzz/sponge_api.h, not the target.
 */
#ifndef RS_TEST_SPONGE_MIN_H
#define RS_TEST_SPONGE_MIN_H

#include <stddef.h>
#include <stdint.h>

typedef void rs_p1600_fn(uint64_t state[25], unsigned rounds);

struct rs_test_sponge {
    uint64_t state[25];
    rs_p1600_fn *p1600;
    unsigned rounds;
    size_t rate;      /* bytes, 1..199 */
    size_t pos;       /* next byte of the rate to absorb into or squeeze from */
    uint8_t domain;   /* first padding byte: 0x06 SHA-3, 0x1F SHAKE, 0x01..0x7F TurboSHAKE */
    int squeezing;
};

void rs_test_sponge_init(struct rs_test_sponge *s, rs_p1600_fn *p1600, unsigned rounds,
                         size_t rate, uint8_t domain);
/* len may be 0, and `in` NULL then. */
void rs_test_sponge_absorb(struct rs_test_sponge *s, const uint8_t *in, size_t len);
void rs_test_sponge_squeeze(struct rs_test_sponge *s, uint8_t *out, size_t len);

#endif
