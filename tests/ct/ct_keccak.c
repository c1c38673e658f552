/*
 * Constant-time check, run under valgrind memcheck: the state is marked undefined (secret)
 * before each call, so memcheck reports every conditional jump or move, and every memory
 * address, computed from it. Each variant is called at every round count 0..24 (every entry
 * point of an unrolled loop) and through keccak_f1600; the round count is public.
 *
 * One TAP line per variant: the number of memcheck errors its calls added is its verdict.
 * Build it for valgrind's instruction set (x86-64-v3, no AVX-512: valgrind 3.19 cannot run it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "cpu_features.h"
#include "keccak_variants.h"

#include "keccak_variant_table.h"

#ifndef RS_COMPILER
#define RS_COMPILER "cc"
#endif

static void secret_state(uint64_t state[25], unsigned seed)
{
    unsigned k;
    for (k = 0; k < 25; k++)
        state[k] = 0x9E3779B97F4A7C15ULL * (seed * 25u + k + 1u);
    VALGRIND_MAKE_MEM_UNDEFINED(state, 25 * sizeof state[0]);
}

/* What the caller may do with the result: look at it, which is no longer a secret use. */
static void declassify(uint64_t state[25])
{
    VALGRIND_MAKE_MEM_DEFINED(state, 25 * sizeof state[0]);
}

int main(void)
{
    unsigned k, rounds, bad = 0;

    if (!RUNNING_ON_VALGRIND) {
        printf("not ok 1 - %s: the constant-time check must run under valgrind memcheck\n",
               RS_COMPILER);
        return EXIT_FAILURE;
    }
    printf("1..%u\n", (unsigned)NVARIANTS);
    for (k = 0; k < NVARIANTS; k++) {
        const struct variant *v = &all_variants[k];
        const char *missing = "";
        unsigned before, errors;
        uint64_t state[25];

        if (!rs_cpu_has_all(v->cpu, &missing)) {
            printf("ok %u - %s %s # SKIP this CPU lacks %s\n", k + 1, RS_COMPILER, v->name,
                   missing);
            continue;
        }
        before = VALGRIND_COUNT_ERRORS;
        for (rounds = 0; rounds <= 24; rounds++) {
            secret_state(state, rounds);
            v->p1600(state, rounds);
            declassify(state);
        }
        secret_state(state, 25);
        v->f1600(state);
        declassify(state);
        errors = VALGRIND_COUNT_ERRORS - before;
        if (errors)
            bad++;
        printf("%s %u - %s %s: %s\n", errors ? "not ok" : "ok", k + 1, RS_COMPILER, v->name,
               errors ? "secret-dependent branch or address (see memcheck above)"
                      : "constant time");
        fflush(stdout);
    }
    return bad ? EXIT_FAILURE : EXIT_SUCCESS;
}
