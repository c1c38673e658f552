/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for every generated ChaCha variant one compiler can build.
 *
 * The variant list and the vectors are generated (chacha_variants.h, chacha_vectors.h); this
 * file only walks them. Each variant is checked against the official blocks, against digests
 * computed by the Python reference, and against the plain reference kernel (tests/ref) for
 * random keys, IVs, positions and block counts into unaligned, fenced buffers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK_MAX_ASSERT_MEM_PRINT_SIZE 64
#include <check.h>

#include "chacha_vectors.h"

#ifdef RS_OUT_NAME
/* Checking the vendorable out/ folder itself, under the symbol names a user links. */
#include "chacha.h"
#ifndef RS_OUT_PREFIX
#define RS_OUT_PREFIX
#endif
/* one level of indirection so RS_OUT_PREFIX expands (to nothing, or my_) before ## pastes */
#define RS_OUT_X(X, prefix) X(prefix, "out/ " RS_OUT_NAME, 0, RS_OUT_CPU)
#define RS_CHACHA_VARIANTS(X) RS_OUT_X(X, RS_OUT_PREFIX)
#else
#include "chacha_variants.h"
#endif
#include "cpu_features.h"
#include "ref/chacha_ref.h"

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

#include "chacha_variant_table.h"

static const struct variant *runnable[NVARIANTS];
static unsigned nrunnable;

/* Room for 70 blocks plus fences and a misaligning offset on both sides. */
#define FENCE 64
#define MAXBLOCKS 70
#define BUFSIZE (FENCE + 64 + MAXBLOCKS * 64 + FENCE)
#define FENCE_BYTE 0xA5

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t rng(void)
{
    /* xorshift64*: reproducible across compilers, no libc dependence */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

START_TEST(test_ref_records)
{
    const struct rs_chacha_record *r = &rs_chacha_records[_i];
    uint32_t input[16];
    uint8_t out[64];

    rs_ref_chacha_keysetup(input, r->key, r->kbits, r->iv);
    rs_ref_chacha_keystream(input, r->rounds, r->counter, 1, out);
    ck_assert_mem_eq(out, r->block, 64);
}
END_TEST

/* One loop index per (variant, record). */
START_TEST(test_records)
{
    const struct variant *v = runnable[_i / RS_CHACHA_NRECORDS];
    const struct rs_chacha_record *r = &rs_chacha_records[_i % RS_CHACHA_NRECORDS];
    uint8_t out[3 * 64];

    v->keystream(r->rounds, r->key, r->kbits, r->iv, r->counter, 1, out);
    ck_assert_msg(memcmp(out, r->block, 64) == 0, "%s: record %u (ChaCha%u, %u-bit key)",
                  v->name, (unsigned)(_i % RS_CHACHA_NRECORDS), r->rounds, r->kbits);
    /* the same block as the middle one of three */
    v->keystream(r->rounds, r->key, r->kbits, r->iv, r->counter - 1, 3, out);
    ck_assert_msg(memcmp(out + 64, r->block, 64) == 0, "%s: record %u inside a 3-block call",
                  v->name, (unsigned)(_i % RS_CHACHA_NRECORDS));
}
END_TEST

/* One loop index per (variant, computed stream). */
START_TEST(test_streams)
{
    const struct variant *v = runnable[_i / RS_CHACHA_NSTREAMS];
    const struct rs_chacha_stream *s = &rs_chacha_streams[_i % RS_CHACHA_NSTREAMS];
    static uint8_t buf[BUFSIZE];
    uint8_t *out = buf + FENCE;
    size_t i, len = (size_t)s->n_blocks * 64;

    memset(buf, FENCE_BYTE, sizeof buf);
    v->keystream(s->rounds, s->key, s->kbits, s->has_iv ? s->iv : NULL, s->pos, s->n_blocks,
                 out);
    if (s->n_blocks)
        ck_assert_msg(memcmp(out, s->first, 64) == 0, "%s: ChaCha%u pos %llu n %u: first block",
                      v->name, s->rounds, (unsigned long long)s->pos, s->n_blocks);
    ck_assert_msg(rs_chacha_fnv1a64(out, len) == s->digest,
                  "%s: ChaCha%u pos 0x%llx n %u: digest differs from the Python reference",
                  v->name, s->rounds, (unsigned long long)s->pos, s->n_blocks);
    /* One assertion, not one per byte: each of Check's assertions is a write(2). */
    for (i = 0; i < sizeof buf; i++)
        if ((i < FENCE || i >= FENCE + len) && buf[i] != FENCE_BYTE)
            break;
    ck_assert_msg(i == sizeof buf, "%s: wrote outside the output (byte %d)", v->name,
                  (int)i - FENCE);
}
END_TEST

/* Random calls against the plain reference: one loop index per (variant, round count); each
 * runs every block count 0..70 at a random output misalignment, positions drawn around the
 * 2^32 carry and the 2^64 wrap as often as anywhere else. */
START_TEST(test_against_reference)
{
    static const unsigned rounds_of[3] = {8, 12, 20};
    const struct variant *v = runnable[_i / 3];
    unsigned rounds = rounds_of[_i % 3];
    static uint8_t got[BUFSIZE], want[BUFSIZE];
    uint32_t n;

    rng_state = 0x9E3779B97F4A7C15ULL + (uint64_t)_i;
    for (n = 0; n <= MAXBLOCKS; n++) {
        uint8_t key[32], iv[8];
        uint32_t input[16];
        unsigned kbits = rng() & 1 ? 256 : 128, misalign = (unsigned)(rng() % 64);
        int use_iv = (rng() & 7) != 0;
        uint64_t pos = rng();
        size_t i, len = (size_t)n * 64;

        for (i = 0; i < 32; i++)
            key[i] = (uint8_t)rng();
        for (i = 0; i < 8; i++)
            iv[i] = (uint8_t)rng();
        switch (rng() % 4) {
        case 0:
            pos = 0xFFFFFFFFULL - rng() % 80 + (rng() & 0xFFFFFFFF00000000ULL);
            break;
        case 1:
            pos = (uint64_t)0 - 1 - rng() % 80;
            break;
        default:
            break;
        }
        memset(got, FENCE_BYTE, sizeof got);
        memset(want, FENCE_BYTE, sizeof want);
        rs_ref_chacha_keysetup(input, key, kbits, use_iv ? iv : NULL);
        rs_ref_chacha_keystream(input, rounds, pos, n, want + FENCE + misalign);
        v->keystream(rounds, key, kbits, use_iv ? iv : NULL, pos, n, got + FENCE + misalign);
        for (i = 0; i < len; i += 64)
            ck_assert_msg(memcmp(got + FENCE + misalign + i, want + FENCE + misalign + i, 64)
                          == 0, "%s: ChaCha%u pos 0x%llx n %u offset %u: block %u differs",
                          v->name, rounds, (unsigned long long)pos, n, misalign,
                          (unsigned)(i / 64));
        ck_assert_msg(memcmp(got, want, sizeof got) == 0,
                      "%s: ChaCha%u n %u: wrote outside the output", v->name, rounds, n);
    }
}
END_TEST

/* One loop index per (variant, xor case), out of place and in place. */
START_TEST(test_xor)
{
    const struct variant *v = runnable[_i / RS_CHACHA_NXORS];
    const struct rs_chacha_xor *x = &rs_chacha_xors[_i % RS_CHACHA_NXORS];
    uint8_t *in = malloc(x->len + 1), *out = malloc(x->len + 2);
    size_t i;

    ck_assert_ptr_nonnull(in);
    ck_assert_ptr_nonnull(out);
    for (i = 0; i < x->len; i++)
        in[i] = rs_chacha_plain(i);
    out[x->len + 1] = FENCE_BYTE;
    (x->ietf ? v->xor_ietf : v->xor64)(out + 1, in, x->len, x->key, x->nonce, x->counter);
    ck_assert_msg(rs_chacha_fnv1a64(out + 1, x->len) == x->digest,
                  "%s: %s len %u counter 0x%llx", v->name,
                  x->ietf ? "chacha20_ietf_xor" : "chacha20_xor", (unsigned)x->len,
                  (unsigned long long)x->counter);
    ck_assert_msg(out[x->len + 1] == FENCE_BYTE, "%s: xor wrote past the output", v->name);
    (x->ietf ? v->xor_ietf : v->xor64)(in, in, x->len, x->key, x->nonce, x->counter);
    ck_assert_msg(rs_chacha_fnv1a64(in, x->len) == x->digest, "%s: in-place xor, len %u",
                  v->name, (unsigned)x->len);
    free(in);
    free(out);
}
END_TEST

/* Every entry point accepts NULL buffers with a zero length, and writes nothing. */
START_TEST(test_null_zero_length)
{
    const struct variant *v = runnable[_i];
    static const uint8_t key[32], iv[12];
    static const unsigned rounds_of[3] = {8, 12, 20};
    unsigned r;

    for (r = 0; r < 3; r++) {
        v->keystream(rounds_of[r], key, 256, iv, 0, 0, NULL);
        v->keystream(rounds_of[r], key, 128, NULL, (uint64_t)0 - 1, 0, NULL);
    }
    v->xor64(NULL, NULL, 0, key, iv, 0);
    v->xor64(NULL, NULL, 0, key, iv, (uint64_t)0 - 1);
    v->xor_ietf(NULL, NULL, 0, key, iv, 0xFFFFFFFFu);
}
END_TEST

/* The block counter at its ends, as the header documents: get_keystream's and chacha20_xor's
 * 64-bit counter carries from word 12 into word 13 and wraps from 2^64 - 1 to 0;
 * chacha20_ietf_xor's 32-bit counter wraps from 2^32 - 1 to 0 and leaves the nonce alone. The
 * expected blocks come from the plain reference, one block per call. */
START_TEST(test_counter_ends)
{
    const struct variant *v = runnable[_i];
    static const uint64_t starts[] = {0xFFFFFFFFULL - 1, 0xFFFFFFFFFFFFFFFFULL - 1,
                                      0xFFFFFFFFFFFFFFFFULL};
    uint8_t key[32], nonce[12], got[4 * 64], want[4 * 64], zero[4 * 64] = {0};
    uint32_t input[16];
    uint64_t word13;
    unsigned k, b;

    for (k = 0; k < 32; k++)
        key[k] = (uint8_t)(3 * k + 1);
    for (k = 0; k < 12; k++)
        nonce[k] = (uint8_t)(0xF0 + k);
    rs_ref_chacha_keysetup(input, key, 256, nonce);
    for (k = 0; k < sizeof starts / sizeof starts[0]; k++) {
        for (b = 0; b < 4; b++)
            rs_ref_chacha_keystream(input, 20, starts[k] + b, 1, want + 64 * b);
        v->keystream(20, key, 256, nonce, starts[k], 4, got);
        ck_assert_msg(memcmp(got, want, sizeof got) == 0, "%s: get_keystream from 0x%llx",
                      v->name, (unsigned long long)starts[k]);
        v->xor64(got, zero, sizeof got - 3, key, nonce, starts[k]);
        ck_assert_msg(memcmp(got, want, sizeof got - 3) == 0, "%s: chacha20_xor from 0x%llx",
                      v->name, (unsigned long long)starts[k]);
    }
    rs_ref_chacha_keysetup(input, key, 256, nonce + 4);
    word13 = (uint64_t)nonce[0] | (uint64_t)nonce[1] << 8 | (uint64_t)nonce[2] << 16 |
             (uint64_t)nonce[3] << 24;
    for (b = 0; b < 4; b++)
        rs_ref_chacha_keystream(input, 20, word13 << 32 | (uint32_t)(0xFFFFFFFEu + b), 1,
                                want + 64 * b);
    v->xor_ietf(got, zero, sizeof got, key, nonce, 0xFFFFFFFEu);
    ck_assert_msg(memcmp(got, want, sizeof got) == 0,
                  "%s: chacha20_ietf_xor across 2^32 must wrap to 0, nonce untouched", v->name);
}
END_TEST

/* The context is chiapos' 16 words, and keysetup fills them the same way. */
START_TEST(test_context_layout)
{
    const struct variant *v = runnable[_i];
    ck_assert_uint_eq(v->ctx_size, 64);
}
END_TEST

static Suite *chacha_suite(void)
{
    Suite *s = suite_create("chacha (" RS_COMPILER ")");
    TCase *tc;

    tc = tcase_create("reference kernel vs official blocks");
    tcase_add_loop_test(tc, test_ref_records, 0, (int)RS_CHACHA_NRECORDS);
    suite_add_tcase(s, tc);

    tc = tcase_create("official blocks");
    tcase_add_loop_test(tc, test_records, 0, (int)(nrunnable * RS_CHACHA_NRECORDS));
    suite_add_tcase(s, tc);

    tc = tcase_create("python reference digests, 0..70 blocks");
    tcase_add_loop_test(tc, test_streams, 0, (int)(nrunnable * RS_CHACHA_NSTREAMS));
    suite_add_tcase(s, tc);

    tc = tcase_create("random calls vs plain reference, unaligned, fenced");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_against_reference, 0, (int)(nrunnable * 3));
    suite_add_tcase(s, tc);

    tc = tcase_create("chacha20 xor, RFC 8439 and 64-bit counter, in place");
    tcase_add_loop_test(tc, test_xor, 0, (int)(nrunnable * RS_CHACHA_NXORS));
    suite_add_tcase(s, tc);

    tc = tcase_create("API edges: NULL with length 0, counter carry and wrap");
    tcase_add_loop_test(tc, test_null_zero_length, 0, (int)nrunnable);
    tcase_add_loop_test(tc, test_counter_ends, 0, (int)nrunnable);
    suite_add_tcase(s, tc);

    tc = tcase_create("context layout");
    tcase_add_loop_test(tc, test_context_layout, 0, (int)nrunnable);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    unsigned k, skipped = 0;
    int failed;
    SRunner *sr;

    for (k = 0; k < NVARIANTS; k++) {
        const char *missing = "";
        if (rs_cpu_has_all(all_variants[k].cpu, &missing)) {
            runnable[nrunnable++] = &all_variants[k];
        } else {
            printf("SKIP %s: this CPU lacks %.*s (the variant would run its %s fallback)\n",
                   all_variants[k].name, (int)strcspn(missing, " "), missing,
                   all_variants[k].level());
            skipped++;
        }
    }
    printf("%s: %u variants, %u runnable, %u skipped; %u records, %u streams, %u xor cases\n",
           RS_COMPILER, (unsigned)NVARIANTS, nrunnable, skipped, (unsigned)RS_CHACHA_NRECORDS,
           (unsigned)RS_CHACHA_NSTREAMS, (unsigned)RS_CHACHA_NXORS);

    sr = srunner_create(chacha_suite());
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
