/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * What every constant-time harness shares. Run under valgrind memcheck: bytes marked secret
 * are undefined to memcheck, so it reports every conditional jump or move, and every memory
 * address, computed from them. A harness runs one kernel or path, then asks ct_verdict how
 * many errors that added: one TAP line each. Build for valgrind's instruction set
 * (x86-64-v3, no AVX-512: valgrind 3.19 cannot execute it).
 */
#ifndef RS_TEST_CT_COMMON_H
#define RS_TEST_CT_COMMON_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <valgrind/memcheck.h>

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

#define ct_secret(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
/* What the caller may do with a result: look at it, which is no longer a secret use. */
#define ct_declassify(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static unsigned ct_failed, ct_before;

/* Call first: the plan line, or a failure when not under valgrind (nothing would be seen). */
static void ct_start(unsigned planned)
{
    if (!RUNNING_ON_VALGRIND) {
        printf("not ok 1 - %s: the constant-time check must run under valgrind memcheck\n",
               RS_COMPILER);
        exit(EXIT_FAILURE);
    }
    printf("1..%u\n", planned);
}

/* Before a kernel's calls. */
static void ct_begin(void)
{
    ct_before = VALGRIND_COUNT_ERRORS;
}

/* After them: the verdict line for test number k; `what` names the kernel or path. */
static void ct_verdict(unsigned k, const char *what)
{
    unsigned errors = VALGRIND_COUNT_ERRORS - ct_before;
    if (errors)
        ct_failed++;
    printf("%s %u - %s %s: %s\n", errors ? "not ok" : "ok", k, RS_COMPILER, what,
           errors ? "secret-dependent branch or address (see memcheck above)"
                  : "constant time");
    fflush(stdout);
}

static void ct_skip(unsigned k, const char *what, const char *why)
{
    printf("ok %u - %s %s # SKIP %s\n", k, RS_COMPILER, what, why);
    fflush(stdout);
}

#define CT_AVX512_WHY "not checkable: valgrind 3.19 cannot execute AVX-512"

static int ct_finish(void)
{
    return ct_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
