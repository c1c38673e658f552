/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The part of Check's API the sponge suites use, for wasm32-wasi, where Check is not built
 * (it forks per test, and WASI has no fork). Each loop iteration counts as one check, as in
 * Check. WASI has no setjmp under clang 14 either, so the first failing assertion prints
 * Check's summary line with one failure and ends the program with status 1: a failing suite
 * fails, it just stops at its first failure.
 */
#ifndef RS_WASM_CHECK_H
#define RS_WASM_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum print_output { CK_SILENT, CK_MINIMAL, CK_NORMAL, CK_VERBOSE };

typedef void (*rs_ck_fn)(int);
typedef struct {
    rs_ck_fn fn;
    int start, end;
} rs_ck_test;
typedef struct TCase {
    const char *name;
    rs_ck_test tests[32];
    int n;
} TCase;
typedef struct Suite {
    const char *name;
    TCase *cases[32];
    int n;
} Suite;
typedef struct SRunner {
    Suite *suite;
} SRunner;

static unsigned rs_ck_checks;

static inline void rs_ck_fail(const char *file, int line, const char *text)
{
    printf("%s:%d: F: %s\n", file, line, text);
    printf("%u%%: Checks: %u, Failures: 1, Errors: 0\n", 0u, rs_ck_checks + 1);
    fflush(stdout);
    exit(1);
}

#define START_TEST(name) static void name(int _i __attribute__((unused)))
#define END_TEST

#define ck_assert_msg(expr, ...) do { \
        if (!(expr)) { \
            char rs_ck_text_[512]; \
            snprintf(rs_ck_text_, sizeof rs_ck_text_, __VA_ARGS__); \
            rs_ck_fail(__FILE__, __LINE__, rs_ck_text_); \
        } \
    } while (0)
#define ck_abort_msg(...) ck_assert_msg(0, __VA_ARGS__)
#define ck_assert(expr) ck_assert_msg((expr), "Assertion '%s' failed", #expr)
#define ck_assert_int_eq(a, b) ck_assert_msg((long long)(a) == (long long)(b), \
        "Assertion '%s == %s' failed: %lld != %lld", #a, #b, (long long)(a), (long long)(b))
#define ck_assert_uint_eq(a, b) ck_assert_msg((unsigned long long)(a) == (unsigned long long)(b), \
        "Assertion '%s == %s' failed: %llu != %llu", #a, #b, (unsigned long long)(a), \
        (unsigned long long)(b))
#define ck_assert_uint_gt(a, b) ck_assert_msg((unsigned long long)(a) > (unsigned long long)(b), \
        "Assertion '%s > %s' failed", #a, #b)
#define ck_assert_ptr_nonnull(p) ck_assert_msg((p) != NULL, "Assertion '%s != NULL' failed", #p)
#define ck_assert_mem_eq(a, b, n) ck_assert_msg(!memcmp((a), (b), (n)), \
        "Assertion '%s == %s' failed (%zu bytes)", #a, #b, (size_t)(n))

static inline TCase *tcase_create(const char *name)
{
    TCase *tc = (TCase *)calloc(1, sizeof *tc);
    if (!tc)
        abort();
    tc->name = name;
    return tc;
}

static inline void tcase_set_timeout(TCase *tc, double seconds)
{
    (void)tc;
    (void)seconds;
}

static inline void tcase_add_loop_test(TCase *tc, rs_ck_fn fn, int start, int end)
{
    if (tc->n == 32)
        abort();
    tc->tests[tc->n].fn = fn;
    tc->tests[tc->n].start = start;
    tc->tests[tc->n].end = end;
    tc->n++;
}

#define tcase_add_test(tc, fn) tcase_add_loop_test((tc), (fn), 0, 1)

static inline Suite *suite_create(const char *name)
{
    Suite *s = (Suite *)calloc(1, sizeof *s);
    if (!s)
        abort();
    s->name = name;
    return s;
}

static inline void suite_add_tcase(Suite *s, TCase *tc)
{
    if (s->n == 32)
        abort();
    s->cases[s->n++] = tc;
}

static inline SRunner *srunner_create(Suite *s)
{
    SRunner *sr = (SRunner *)calloc(1, sizeof *sr);
    if (!sr)
        abort();
    sr->suite = s;
    return sr;
}

static inline void srunner_run_all(SRunner *sr, enum print_output mode)
{
    int c, t, i;
    (void)mode;
    printf("Running suite(s): %s\n", sr->suite->name);
    for (c = 0; c < sr->suite->n; c++) {
        TCase *tc = sr->suite->cases[c];
        for (t = 0; t < tc->n; t++)
            for (i = tc->tests[t].start; i < tc->tests[t].end; i++) {
                tc->tests[t].fn(i);
                rs_ck_checks++;
            }
    }
    printf("100%%: Checks: %u, Failures: 0, Errors: 0\n", rs_ck_checks);
}

static inline int srunner_ntests_failed(SRunner *sr)
{
    (void)sr;
    return 0;
}

static inline void srunner_free(SRunner *sr)
{
    int c;
    for (c = 0; c < sr->suite->n; c++)
        free(sr->suite->cases[c]);
    free(sr->suite);
    free(sr);
}

#endif
