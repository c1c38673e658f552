/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of a bundle's self-test (ct_common.h): the seed every input comes from
 * and the expected answers are marked secret, so memcheck reports any branch or address
 * computed from an input, an output or a comparison. The self-test runs on the path
 * ROUNDSMITH_PATH forces (one run per path valgrind can execute). The file is included, not
 * linked, to reach its static tables; link the rest of the bundle.
 *
 * A second line checks the result itself came out of the marked data (else nothing secret
 * would have flowed and the first line would prove nothing). With --planted, a branch on the
 * result is added inside the checked window and the verdict is inverted: it passes only if
 * memcheck saw that branch.
 */
#include <stdint.h>
#include <string.h>

#include "ct/ct_common.h"
#include "rs_selftest.c"

static volatile int rs_ct_sink;

int main(int argc, char **argv)
{
    int code, planted = argc > 1 && strcmp(argv[1], "--planted") == 0;
    char what[96];

    ct_start(planted ? 1 : 2);
    (void)rs_path(); /* the path choice reads the environment: public, and made first */
    snprintf(what, sizeof what, "rs_selftest on path %s", rs_path_name());
    ct_secret(rs_st_seed, sizeof rs_st_seed);
    ct_secret(rs_st_want, sizeof rs_st_want);
    ct_secret(rs_st_want_fnv, sizeof rs_st_want_fnv);
    ct_begin();
    code = rs_selftest();
    /* A branch on what came out of the marked data (a branch on a table byte itself can be
     * folded away: the compiler knows the constant table). */
    if (planted && code == 0)
        rs_ct_sink = 1;
    if (planted) {
        unsigned errors = VALGRIND_COUNT_ERRORS - ct_before;
        printf("%s 1 - %s planted secret branch: %s\n", errors ? "ok" : "not ok", RS_COMPILER,
               errors ? "seen by memcheck" : "NOT seen: the tables are not marked");
        return errors ? 0 : 1;
    }
    ct_verdict(1, what);
    {
        int tainted = VALGRIND_CHECK_MEM_IS_DEFINED(&code, sizeof code) != 0;
        printf("%s 2 - %s the result depends on the marked inputs%s\n",
               tainted ? "ok" : "not ok", RS_COMPILER,
               tainted ? " (memcheck's one report above is this check)"
                       : ": nothing secret flowed, line 1 proves nothing");
        if (!tainted)
            ct_failed++;
    }
    ct_declassify(&code, sizeof code);
    if (code) {
        printf("not ok 1 - %s: self-test failed with code %d (%s)\n", what, code,
               rs_selftest_name(code));
        return 1;
    }
    return ct_finish();
}
