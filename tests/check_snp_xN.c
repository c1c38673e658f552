/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * XKCP's parallel SnP (KeccakP-1600-times2/4/8-SnP.h) against the Python model
 * (generator/snp_xn.py): each width's script of calls replayed step by step, every output and
 * the states' hash after every step compared; then the layout (lane i of instance j is word
 * N i + j, canonical) against the single-state permutation, on whatever path the bundle runs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "KeccakP-1600-times2-SnP.h"
#include "KeccakP-1600-times4-SnP.h"
#include "KeccakP-1600-times8-SnP.h"
#include "keccak_p1600.h"
#include "snp_xN_vectors.h"

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

/* One width's functions, XKCP's names behind pointers. */
struct plsnp {
    unsigned n;
    const struct rs_snp_step *steps;
    size_t nsteps;
    void (*initialize_all)(void *);
    void (*add_byte)(void *, unsigned int, unsigned char, unsigned int);
    void (*add_bytes)(void *, unsigned int, const unsigned char *, unsigned int, unsigned int);
    void (*add_lanes_all)(void *, const unsigned char *, unsigned int, unsigned int);
    void (*overwrite_bytes)(void *, unsigned int, const unsigned char *, unsigned int,
                            unsigned int);
    void (*overwrite_lanes_all)(void *, const unsigned char *, unsigned int, unsigned int);
    void (*overwrite_with_zeroes)(void *, unsigned int, unsigned int);
    void (*permute[4])(void *);
    void (*extract_bytes)(const void *, unsigned int, unsigned char *, unsigned int,
                          unsigned int);
    void (*extract_lanes_all)(const void *, unsigned char *, unsigned int, unsigned int);
    void (*extract_and_add_bytes)(const void *, unsigned int, const unsigned char *,
                                  unsigned char *, unsigned int, unsigned int);
    void (*extract_and_add_lanes_all)(const void *, const unsigned char *, unsigned char *,
                                      unsigned int, unsigned int);
    size_t (*fast_loop_24)(void *, unsigned int, unsigned int, unsigned int,
                           const unsigned char *, size_t);
    size_t (*fast_loop_12)(void *, unsigned int, unsigned int, unsigned int,
                           const unsigned char *, size_t);
};

#define PLSNP(N)                                                                             \
    {N, rs_snp_steps_x##N, sizeof rs_snp_steps_x##N / sizeof rs_snp_steps_x##N[0],         \
     KeccakP1600times##N##_InitializeAll, KeccakP1600times##N##_AddByte,                    \
     KeccakP1600times##N##_AddBytes, KeccakP1600times##N##_AddLanesAll,                     \
     KeccakP1600times##N##_OverwriteBytes, KeccakP1600times##N##_OverwriteLanesAll,         \
     KeccakP1600times##N##_OverwriteWithZeroes,                                             \
     {KeccakP1600times##N##_PermuteAll_4rounds, KeccakP1600times##N##_PermuteAll_6rounds,   \
      KeccakP1600times##N##_PermuteAll_12rounds, KeccakP1600times##N##_PermuteAll_24rounds}, \
     KeccakP1600times##N##_ExtractBytes, KeccakP1600times##N##_ExtractLanesAll,             \
     KeccakP1600times##N##_ExtractAndAddBytes, KeccakP1600times##N##_ExtractAndAddLanesAll, \
     KeccakF1600times##N##_FastLoop_Absorb, KeccakP1600times##N##_12rounds_FastLoop_Absorb}

static const struct plsnp widths[] = {PLSNP(2), PLSNP(4), PLSNP(8)};

static unsigned char data[RS_SNP_DATA_LEN];
static unsigned char out[4096], want[4096];

static void fill_data(void)
{
    size_t k;
    for (k = 0; k < RS_SNP_DATA_LEN; k++)
        data[k] = (unsigned char)(k * 167 + (k >> 8) * 13 + 5);
}

static size_t unhex(const char *hex, unsigned char *to)
{
    size_t k, len = strlen(hex) / 2;
    for (k = 0; k < len; k++) {
        unsigned v;
        sscanf(hex + 2 * k, "%2x", &v);
        to[k] = (unsigned char)v;
    }
    return len;
}

/* FNV-1a 64 of the states, instance after instance, from the words themselves. */
static uint64_t states_hash(const uint64_t *w, unsigned n)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    unsigned i, j, k;
    for (j = 0; j < n; j++)
        for (i = 0; i < 25; i++)
            for (k = 0; k < 8; k++)
                h = (h ^ (uint8_t)(w[n * i + j] >> (8 * k))) * UINT64_C(0x100000001B3);
    return h;
}

static size_t lanes_span(unsigned n, unsigned long count, unsigned long lane_offset)
{
    return count ? 8 * ((n - 1) * lane_offset + (count > 25 ? 25 : count)) : 0;
}

START_TEST(test_script)
{
    const struct plsnp *f = &widths[_i];
    uint64_t states[25 * 8];
    size_t s;

    fill_data();
    memset(states, 0x5A, sizeof states);
    for (s = 0; s < f->nsteps; s++) {
        const struct rs_snp_step *t = &f->steps[s];
        const unsigned long *p = t->p;
        size_t len = 0, ret = 0;
        int output = 1;

        memset(out, RS_SNP_FILL, sizeof out);
        switch (t->kind) {
        case RS_SNP_INIT:
            f->initialize_all(states);
            output = 0;
            break;
        case RS_SNP_ADD_BYTE:
            f->add_byte(states, t->inst, (unsigned char)p[0], (unsigned)p[1]);
            output = 0;
            break;
        case RS_SNP_ADD_BYTES:
            f->add_bytes(states, t->inst, data + p[0], (unsigned)p[1], (unsigned)p[2]);
            output = 0;
            break;
        case RS_SNP_OVERWRITE_BYTES:
            f->overwrite_bytes(states, t->inst, data + p[0], (unsigned)p[1], (unsigned)p[2]);
            output = 0;
            break;
        case RS_SNP_OVERWRITE_WITH_ZEROES:
            f->overwrite_with_zeroes(states, t->inst, (unsigned)p[0]);
            output = 0;
            break;
        case RS_SNP_ADD_LANES_ALL:
            f->add_lanes_all(states, data + p[0], (unsigned)p[1], (unsigned)p[2]);
            output = 0;
            break;
        case RS_SNP_OVERWRITE_LANES_ALL:
            f->overwrite_lanes_all(states, data + p[0], (unsigned)p[1], (unsigned)p[2]);
            output = 0;
            break;
        case RS_SNP_EXTRACT_BYTES:
            f->extract_bytes(states, t->inst, out, (unsigned)p[1], (unsigned)p[2]);
            break;
        case RS_SNP_EXTRACT_AND_ADD_BYTES:
            f->extract_and_add_bytes(states, t->inst, data + p[0], out, (unsigned)p[1],
                                     (unsigned)p[2]);
            break;
        case RS_SNP_EXTRACT_LANES_ALL:
            f->extract_lanes_all(states, out, (unsigned)p[1], (unsigned)p[2]);
            len = lanes_span(f->n, p[1], p[2]);
            break;
        case RS_SNP_EXTRACT_AND_ADD_LANES_ALL:
            f->extract_and_add_lanes_all(states, data + p[0], out, (unsigned)p[1],
                                         (unsigned)p[2]);
            len = lanes_span(f->n, p[1], p[2]);
            break;
        case RS_SNP_PERMUTE:
            f->permute[p[0] == 4 ? 0 : p[0] == 6 ? 1 : p[0] == 12 ? 2 : 3](states);
            output = 0;
            break;
        case RS_SNP_FAST_LOOP:
            ret = (t->inst == 24 ? f->fast_loop_24 : f->fast_loop_12)(
                states, (unsigned)p[1], (unsigned)p[2], (unsigned)p[3], data + p[0], p[4]);
            ck_assert_msg(ret == t->ret, "x%u step %u (fast_loop %u rounds, laneCount %lu, "
                          "laneOffsetParallel %lu, laneOffsetSerial %lu, %lu bytes): returned "
                          "%lu, expected %lu", f->n, (unsigned)s, t->inst, p[1], p[2], p[3],
                          p[4], (unsigned long)ret, (unsigned long)t->ret);
            output = 0;
            break;
        default:
            ck_abort_msg("unknown step kind %d", (int)t->kind);
        }
        if (output) {
            size_t n = unhex(t->expected, want);
            if (t->kind == RS_SNP_EXTRACT_BYTES || t->kind == RS_SNP_EXTRACT_AND_ADD_BYTES)
                len = n;
            ck_assert_msg(n == len, "x%u step %u: %lu expected bytes for a span of %lu", f->n,
                          (unsigned)s, (unsigned long)n, (unsigned long)len);
            /* One byte past the span stays untouched. */
            want[len] = RS_SNP_FILL;
            ck_assert_msg(memcmp(out, want, len + 1) == 0, "x%u step %u (%s, instance %u, "
                          "%lu %lu %lu): output differs", f->n, (unsigned)s,
                          rs_snp_kind_names[t->kind], t->inst, p[0], p[1], p[2]);
        }
        ck_assert_msg(states_hash(states, f->n) == t->hash, "x%u step %u (%s, instance %u, "
                      "%lu %lu %lu %lu %lu): states differ from the model", f->n, (unsigned)s,
                      rs_snp_kind_names[t->kind], t->inst, p[0], p[1], p[2], p[3], p[4]);
    }
}
END_TEST

/* ExtractAndAddBytes with input == output, as XKCP's callers use it. */
START_TEST(test_in_place)
{
    const struct plsnp *f = &widths[_i];
    uint64_t states[25 * 8];
    unsigned char buf[200], ref[200];
    unsigned j;

    fill_data();
    f->initialize_all(states);
    f->add_lanes_all(states, data, 25, 25);
    f->permute[3](states);
    for (j = 0; j < f->n; j++) {
        memcpy(buf, data + 1000 + j, 200);
        f->extract_and_add_bytes(states, j, buf, ref, 3, 190);
        f->extract_and_add_bytes(states, j, buf, buf, 3, 190);
        ck_assert_msg(memcmp(buf, ref, 190) == 0, "x%u instance %u", f->n, j);
    }
}
END_TEST

/* The layout: lane i of instance j is word N i + j, canonical, and the permutations are the
 * single-state ones per instance. */
START_TEST(test_layout)
{
    const struct plsnp *f = &widths[_i];
    static const unsigned rounds[4] = {4, 6, 12, 24};
    uint64_t states[25 * 8], single[8][25];
    unsigned i, j, r;

    fill_data();
    for (i = 0; i < 25 * f->n; i++) {
        uint64_t v = 0;
        unsigned k;
        for (k = 0; k < 8; k++)
            v |= (uint64_t)data[8 * i + k] << (8 * k);
        states[i] = v;
    }
    for (j = 0; j < f->n; j++)
        for (i = 0; i < 25; i++)
            single[j][i] = states[f->n * i + j];
    /* AddByte's lane and bit position. */
    f->add_byte(states, f->n - 1, 0x80, 8 * 7 + 6);
    single[f->n - 1][7] ^= (uint64_t)0x80 << 48;
    for (r = 0; r < 4; r++) {
        f->permute[r](states);
        for (j = 0; j < f->n; j++) {
            keccak_p1600(single[j], rounds[r]);
            for (i = 0; i < 25; i++)
                ck_assert_msg(states[f->n * i + j] == single[j][i],
                              "x%u, %u rounds: lane %u of instance %u", f->n, rounds[r], i, j);
        }
    }
}
END_TEST

static Suite *snp_xn_suite(void)
{
    Suite *s = suite_create("parallel SnP (" RS_COMPILER ")");
    TCase *tc = tcase_create("against the model");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_script, 0, 3);
    tcase_add_loop_test(tc, test_in_place, 0, 3);
    suite_add_tcase(s, tc);
    tc = tcase_create("layout");
    tcase_add_loop_test(tc, test_layout, 0, 3);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(snp_xn_suite());
    int failed;
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
