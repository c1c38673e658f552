/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Lengths above 4 GiB through the out/ API (size_t all the way through), without 4 GiB of
 * memory: inputs and outputs are a 64 MiB window mapped again and again over the whole length
 * (memfd, MAP_SHARED; inputs all zeros), so a write at offset v lands at v mod 64 MiB. The last bytes written are those of the last
 * window, which a short call at the right block position must reproduce; a length cut to 32
 * bits would write 100 bytes and leave them stale.
 *
 * `ninja test` runs the cheap cases (ChaCha20 xor and ChaCha8 keystream of 4 GiB + a bit:
 * about 2 s of CPU); `ninja test-long`, with RS_LONG=1, adds KT128 (4 GiB + 8193 bytes),
 * SHAKE128 and SHA3-256 (4 GiB + 1000 bytes), each one-shot against incremental pieces, and
 * TupleHash128 and ParallelHash128 (4 GiB and a bit, the encodings' lengths past 32 bits).
 * Linux only (memfd_create).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <check.h>

#include "chacha.h"
#include "keccak_sponge.h"

#define WINDOW ((size_t)64 << 20)
#define BIG (((size_t)1 << 32) + 100)

/* len bytes backed by one WINDOW of memory (zeros until written), mapped again and again, its
 * page tables filled up front (MAP_POPULATE: a million page faults cost more than the run). */
static uint8_t *aliased(size_t len, int prot)
{
    size_t total = (len + WINDOW - 1) / WINDOW * WINDOW, off;
    int fd = memfd_create("rs_check_long", 0);
    uint8_t *base;

    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(ftruncate(fd, (off_t)WINDOW), 0);
    base = mmap(NULL, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert_ptr_ne(base, MAP_FAILED);
    for (off = 0; off < total; off += WINDOW)
        ck_assert_ptr_ne(mmap(base + off, WINDOW, prot, MAP_SHARED | MAP_FIXED | MAP_POPULATE,
                              fd, 0), MAP_FAILED);
    close(fd);
    return base;
}

/* len bytes of zeros, read only. */
static const uint8_t *zeros(size_t len)
{
    return aliased(len, PROT_READ);
}

static const uint8_t key[32] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32};
static const uint8_t iv[8] = {0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7};

START_TEST(test_chacha20_xor_above_4gib)
{
    const uint8_t *in = zeros(BIG);
    uint8_t *out = aliased(BIG, PROT_READ | PROT_WRITE), want[64 * 65];
    size_t start = (BIG / 64 - 64) * 64;

    chacha20_xor(out, in, BIG, key, iv, 7);
    chacha20_xor(want, in, BIG - start, key, iv, 7 + start / 64);
    ck_assert_mem_eq(out + start, want, BIG - start);
}
END_TEST

START_TEST(test_chacha8_keystream_above_4gib)
{
    struct chacha8_ctx ctx;
    uint32_t blocks = (uint32_t)(BIG / 64) + 1; /* 2^26 + 2 blocks: 4 GiB + 128 bytes */
    uint8_t *out = aliased((size_t)blocks * 64, PROT_READ | PROT_WRITE), want[64 * 8];

    chacha8_keysetup(&ctx, key, 256, iv);
    chacha8_get_keystream(&ctx, 0xFFFFFFFFFFFFFFF0ULL, blocks, out);
    chacha8_get_keystream(&ctx, 0xFFFFFFFFFFFFFFF0ULL + blocks - 8, 8, want);
    ck_assert_mem_eq(out + ((size_t)blocks - 8) * 64, want, sizeof want);
}
END_TEST

/* Feed len bytes of in to update(ctx, ...) in pieces just over the window size. */
static void in_pieces(void (*update)(void *ctx, const uint8_t *in, size_t len), void *ctx,
                      const uint8_t *in, size_t len)
{
    size_t done, n;
    for (done = 0; done < len; done += n) {
        n = len - done < WINDOW + 5 ? len - done : WINDOW + 5;
        update(ctx, in + done, n);
    }
}

static void kt128_piece(void *c, const uint8_t *in, size_t n) { kt128_update(c, in, n); }
static void shake128_piece(void *c, const uint8_t *in, size_t n) { shake128_absorb(c, in, n); }
static void sha3_256_piece(void *c, const uint8_t *in, size_t n) { sha3_256_update(c, in, n); }

START_TEST(test_kt128_above_4gib)
{
    size_t len = ((size_t)1 << 32) + 8193;
    const uint8_t *in = zeros(len);
    uint8_t a[32], b[32];
    kt128_ctx ctx;

    kt128(a, 32, in, len, (const uint8_t *)"c", 1);
    kt128_init(&ctx);
    in_pieces(kt128_piece, &ctx, in, len);
    kt128_final(&ctx, (const uint8_t *)"c", 1, b, 32);
    ck_assert_mem_eq(a, b, 32);
}
END_TEST

/* One-shot over the whole length against incremental pieces well under 4 GiB. */
static void ph128_piece(void *c, const uint8_t *in, size_t n)
{
    parallelhash128_update(c, in, n);
}

/* SP 800-185's encodings carry lengths past 32 bits: TupleHash128 of one part of 4 GiB + 5
 * bytes against cSHAKE128 fed encode_string's 2^35 + 40 bits spelled out here (a count cut
 * to 32 bits would encode 40); and ParallelHash128 one-shot against pieces. */
START_TEST(test_sp800185_above_4gib)
{
    static const uint8_t name[9] = {'T', 'u', 'p', 'l', 'e', 'H', 'a', 's', 'h'};
    static const uint8_t bits[6] = {0x05, 0x08, 0x00, 0x00, 0x00, 0x28};
    static const uint8_t outbits[3] = {0x01, 0x00, 0x02};
    size_t len = ((size_t)1 << 32) + 5, biglen = ((size_t)1 << 32) + 8193;
    const uint8_t *in = zeros(biglen);
    const uint8_t *parts[1];
    uint8_t a[32], b[32];
    keccak_sponge s;
    parallelhash_ctx ph;

    parts[0] = in;
    tuplehash128(a, 32, parts, &len, 1, (const uint8_t *)"c", 1);
    cshake128_init(&s, name, sizeof name, (const uint8_t *)"c", 1);
    cshake128_absorb(&s, bits, sizeof bits);
    cshake128_absorb(&s, in, len);
    cshake128_absorb(&s, outbits, sizeof outbits);
    cshake128_squeeze(&s, b, 32);
    ck_assert_mem_eq(a, b, 32);
    ck_assert_int_eq(parallelhash128(a, 32, in, biglen, 8192, NULL, 0), 0);
    ck_assert_int_eq(parallelhash128_init(&ph, 8192, NULL, 0), 0);
    in_pieces(ph128_piece, &ph, in, biglen);
    parallelhash128_final(&ph, b, 32);
    ck_assert_mem_eq(a, b, 32);
}
END_TEST

START_TEST(test_shake128_sha3_256_above_4gib)
{
    size_t len = ((size_t)1 << 32) + 1000;
    const uint8_t *in = zeros(len);
    uint8_t a[64], b[64];
    keccak_sponge s;

    shake128(a, 64, in, len);
    shake128_init(&s);
    in_pieces(shake128_piece, &s, in, len);
    shake128_squeeze(&s, b, 64);
    ck_assert_mem_eq(a, b, 64);

    sha3_256(a, in, len);
    sha3_256_init(&s);
    in_pieces(sha3_256_piece, &s, in, len);
    sha3_256_final(&s, b);
    ck_assert_mem_eq(a, b, 32);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lengths above 4 GiB (out/)");
    TCase *tc = tcase_create(getenv("RS_LONG") ? "cheap and long cases" : "cheap cases");
    SRunner *sr;
    int failed;

    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_chacha20_xor_above_4gib);
    tcase_add_test(tc, test_chacha8_keystream_above_4gib);
    if (getenv("RS_LONG")) {
        tcase_add_test(tc, test_kt128_above_4gib);
        tcase_add_test(tc, test_shake128_sha3_256_above_4gib);
        tcase_add_test(tc, test_sp800185_above_4gib);
    }
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
