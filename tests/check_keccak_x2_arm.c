/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Check suite for the AArch64 x2 kernels, NEON and SHA3 extension (keccak_p1600_arm.c.j2),
 * run under `qemu-aarch64 -cpu max` by `ninja test-cross`.
 *
 * Instance 0 gets each vector's input and must give its output; instance 1 gets a different
 * state, checked against the scalar kernel, so a kernel that mixed the two halves of a
 * register, or computed only one, fails.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK_MAX_ASSERT_MEM_PRINT_SIZE 200
#include <check.h>

#include "cpu_features.h"
#include "keccak_x2_arm_variants.h"
#include "keccak_vectors.h"

struct variant {
    const char *name;
    void (*f1600)(uint64_t states[25][2]);
    void (*p1600)(uint64_t states[25][2], unsigned rounds);
    int sha3;
};

#define RS_ENTRY(f1600, p1600, name, sha3) {name, f1600, p1600, sha3},
static const struct variant all_variants[] = {RS_X2_ARM_VARIANTS(RS_ENTRY)};
#define NVARIANTS (sizeof all_variants / sizeof all_variants[0])

static const struct variant *runnable[NVARIANTS];
static unsigned nrunnable;

START_TEST(test_vectors)
{
    const struct variant *v = runnable[_i / RS_KECCAK_NCASES];
    const struct rs_keccak_case *c = &rs_keccak_cases[_i % RS_KECCAK_NCASES];
    uint64_t states[25][2], other[25], got0[25], got1[25];
    unsigned k;

    for (k = 0; k < 25; k++) {
        other[k] = c->in[(k + 7) % 25] ^ (0x9E3779B97F4A7C15u * (k + 1));
        states[k][0] = c->in[k];
        states[k][1] = other[k];
    }
    v->p1600(states, c->rounds);
    RS_ORACLE_P(other, c->rounds);
    for (k = 0; k < 25; k++) {
        got0[k] = states[k][0];
        got1[k] = states[k][1];
    }
    ck_assert_msg(memcmp(got0, c->out, sizeof got0) == 0, "%s: instance 0, %s", v->name,
                  c->name);
    ck_assert_msg(memcmp(got1, other, sizeof got1) == 0, "%s: instance 1, %s (against %s)",
                  v->name, c->name, RS_ORACLE_NAME);
    if (c->rounds == 24) {
        for (k = 0; k < 25; k++)
            states[k][0] = states[k][1] = c->in[k];
        v->f1600(states);
        for (k = 0; k < 25; k++)
            ck_assert_msg(states[k][0] == c->out[k] && states[k][1] == c->out[k],
                          "%s: keccak_f1600_x2, %s, lane %u", v->name, c->name, k);
    }
}
END_TEST

int main(void)
{
    int failed;
    unsigned k, skipped = 0;
    SRunner *sr;
    Suite *s;
    TCase *tc;

    for (k = 0; k < NVARIANTS; k++) {
        const char *missing = "";
        /* HWCAP_SHA3, as the kernel reports it (tests/cpu_features.h) */
        if (all_variants[k].sha3 && !rs_cpu_has_all("sha3", &missing)) {
            printf("SKIP %s: this CPU lacks the SHA3 extension (qemu: -cpu max)\n",
                   all_variants[k].name);
            skipped++;
        } else {
            runnable[nrunnable++] = &all_variants[k];
        }
    }
    printf("%s: %u variants, %u runnable, %u skipped, %u vectors each\n", RS_COMPILER,
           (unsigned)NVARIANTS, nrunnable, skipped, (unsigned)RS_KECCAK_NCASES);
    s = suite_create("keccak-p1600 x2 neon/sha3 (" RS_COMPILER ")");
    tc = tcase_create("vectors");
    tcase_add_loop_test(tc, test_vectors, 0, (int)(nrunnable * RS_KECCAK_NCASES));
    suite_add_tcase(s, tc);
    sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
