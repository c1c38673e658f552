/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * What bounds a scalar Keccak kernel on this machine: how many XOR, ANDN and RORX the core
 * retires per cycle when nothing depends on anything, and how long a core cycle is in TSC
 * cycles (a chain of dependent adds, one per core cycle). x86-64 with BMI1/BMI2, gcc/clang:
 *     gcc -O2 tests/alu_bound.c -o build/alu_bound && build/alu_bound
 */
#include <stdint.h>
#include <stdio.h>

#include "timing.h"

#define PASSES 1000000
#define TWELVE(ins) ins ins ins ins ins ins ins ins ins ins ins ins
/* One instruction into each of 12 registers: 12 independent chains, so latency never binds. */
#define SPREAD(op, src)                                                                      \
    op " " src "%%r9\n\t" op " " src "%%r10\n\t" op " " src "%%r11\n\t" op " " src "%%r12\n\t" \
    op " " src "%%r13\n\t" op " " src "%%r14\n\t" op " " src "%%r15\n\t" op " " src "%%rax\n\t" \
    op " " src "%%rcx\n\t" op " " src "%%rdx\n\t" op " " src "%%rsi\n\t" op " " src "%%rdi\n\t"
#define CLOBBERS "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rax", "rcx", "rdx", "rsi", "rdi"

/* Best of 20 runs of PASSES loop passes of `body`: TSC cycles per pass. */
#define TIME(body, result)                                                                   \
    do {                                                                                     \
        uint64_t best = UINT64_MAX, t0, t;                                                   \
        int r;                                                                               \
        long i;                                                                              \
        for (r = 0; r < 20; r++) {                                                           \
            t0 = rs_ticks();                                                                 \
            for (i = 0; i < PASSES; i++)                                                     \
                body;                                                                        \
            t = rs_ticks() - t0;                                                             \
            if (t < best)                                                                    \
                best = t;                                                                    \
        }                                                                                    \
        result = (double)best / PASSES;                                                      \
    } while (0)

int main(void)
{
    double add, xor_, andn, rorx, core;
    uint64_t x = 1;
    TIME(__asm__ volatile(TWELVE("add $1, %0\n\t") : "+r"(x)), add);
    core = add / 12; /* TSC cycles per core cycle */
    TIME(__asm__ volatile(SPREAD("xor", "%%r8, ") SPREAD("xor", "%%r8, ") : : : CLOBBERS), xor_);
    TIME(__asm__ volatile(SPREAD("andn", "%%r8, %%r8, ") SPREAD("andn", "%%r8, %%r8, ")
                          : : : CLOBBERS), andn);
    TIME(__asm__ volatile(SPREAD("rorx", "$3, %%r8, ") : : : CLOBBERS), rorx);
    printf("TSC cycles per core cycle: %.3f\n", core);
    printf("per core cycle: XOR %.2f, ANDN %.2f, RORX %.2f (loop overhead included)\n",
           24 * core / xor_, 24 * core / andn, 12 * core / rorx);
    printf("floor of 3120 ALU instructions (24 rounds, 130 each): %.0f TSC cycles at that XOR rate\n",
           3120 / (24 * core / xor_) * core);
    return (int)(x & 0);
}
