/* The test-only sponge of sponge_min.h: plain, byte by byte, so it is obviously right. */
#include "sponge_min.h"

#include <string.h>

static void xor_byte(uint64_t state[25], size_t i, uint8_t b)
{
    state[i / 8] ^= (uint64_t)b << (8 * (i % 8));
}

static uint8_t get_byte(const uint64_t state[25], size_t i)
{
    return (uint8_t)(state[i / 8] >> (8 * (i % 8)));
}

void rs_test_sponge_init(struct rs_test_sponge *s, rs_p1600_fn *p1600, unsigned rounds,
                         size_t rate, uint8_t domain)
{
    memset(s->state, 0, sizeof s->state);
    s->p1600 = p1600;
    s->rounds = rounds;
    s->rate = rate;
    s->pos = 0;
    s->domain = domain;
    s->squeezing = 0;
}

void rs_test_sponge_absorb(struct rs_test_sponge *s, const uint8_t *in, size_t len)
{
    size_t k;
    for (k = 0; k < len; k++) {
        xor_byte(s->state, s->pos++, in[k]);
        if (s->pos == s->rate) {
            s->p1600(s->state, s->rounds);
            s->pos = 0;
        }
    }
}

void rs_test_sponge_squeeze(struct rs_test_sponge *s, uint8_t *out, size_t len)
{
    size_t k;
    if (!s->squeezing) {
        /* pad10*1 with the domain bits in front; both ends may share one byte */
        xor_byte(s->state, s->pos, s->domain);
        xor_byte(s->state, s->rate - 1, 0x80);
        s->p1600(s->state, s->rounds);
        s->pos = 0;
        s->squeezing = 1;
    }
    for (k = 0; k < len; k++) {
        if (s->pos == s->rate) {
            s->p1600(s->state, s->rounds);
            s->pos = 0;
        }
        out[k] = get_byte(s->state, s->pos++);
    }
}
