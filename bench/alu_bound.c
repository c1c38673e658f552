/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * What bounds a scalar Keccak kernel on this machine: how many XOR, ANDN and RORX the core
 * retires per cycle when nothing depends on anything, and how long a core cycle is in TSC
 * cycles. The clock probe is a chain of dependent 64-bit IMULs: 3 cycles each on every
 * x86-64 core of the last decade (Intel since Sandy Bridge, AMD since Zen), and nothing a
 * core can fold (Intel's recent cores fold a chain of dependent adds of immediates, which
 * made an add chain read 0.15 TSC per core cycle there). x86-64 with BMI1/BMI2, gcc/clang:
 *     gcc -O2 bench/alu_bound.c -o build/alu_bound && build/alu_bound
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "timing.h"

#define PASSES 20000
#define IMUL_LATENCY 3
#define RUNS 400
#define TWELVE(ins) ins ins ins ins ins ins ins ins ins ins ins ins
/* One instruction into each of 12 registers: 12 independent chains, so latency never binds. */
#define SPREAD(op, src)                                                                      \
    op " " src "%%r9\n\t" op " " src "%%r10\n\t" op " " src "%%r11\n\t" op " " src "%%r12\n\t" \
    op " " src "%%r13\n\t" op " " src "%%r14\n\t" op " " src "%%r15\n\t" op " " src "%%rax\n\t" \
    op " " src "%%rcx\n\t" op " " src "%%rdx\n\t" op " " src "%%rsi\n\t" op " " src "%%rdi\n\t"
#define CLOBBERS "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rax", "rcx", "rdx", "rsi", "rdi"

/* Best of RUNS runs of PASSES loop passes of `body`: TSC cycles per pass. Short runs (about
 * half a millisecond), many of them: on a shared machine a long run is always interrupted. */
#define TIME(body, result)                                                                   \
    do {                                                                                     \
        uint64_t best = UINT64_MAX, t0, t;                                                   \
        int r;                                                                               \
        long i;                                                                              \
        for (r = 0; r < RUNS; r++) {                                                           \
            t0 = rs_ticks();                                                                 \
            for (i = 0; i < PASSES; i++)                                                     \
                body;                                                                        \
            t = rs_ticks() - t0;                                                             \
            if (t < best)                                                                    \
                best = t;                                                                    \
        }                                                                                    \
        result = (double)best / PASSES;                                                      \
    } while (0)

/* A round's instruction mix as clang compiles the C kernel here (objdump of the u3 kernel's
 * keccak_f1600 loop, per round: 76 XOR, 25 ANDN, 29 RORX, 46 loads of which 15 folded into
 * an XOR, 28 stores; gcc's: 50 loads, 9 folded, 26 stores; XKCP's opt64 under clang: 34
 * loads, 24 stores), in blocks of 23 ALU instructions, 8 loads and 5 stores that depend on
 * nothing: what the core's ports and dispatch allow for that mix, whatever the order. */
#define MIX_BLOCK                                                                             \
    SPREAD("xor", "%%r8, ")                                                                   \
    "xor 0(%%rbx), %%r10\n\t"                                                                 \
    "andn %%r8, %%r8, %%r11\n\tandn %%r8, %%r8, %%r12\n\tandn %%r8, %%r8, %%r13\n\t"         \
    "andn %%r8, %%r8, %%r14\n\t"                                                              \
    "rorx $3, %%r8, %%r15\n\trorx $5, %%r8, %%rax\n\trorx $7, %%r8, %%rcx\n\t"              \
    "rorx $9, %%r8, %%rdx\n\trorx $11, %%r8, %%rsi\n\t"                                        \
    "xor 8(%%rbx), %%rdi\n\txor 16(%%rbx), %%r9\n\t"                                         \
    "mov 24(%%rbx), %%r11\n\tmov 32(%%rbx), %%r12\n\tmov 40(%%rbx), %%r13\n\t"              \
    "mov 48(%%rbx), %%r14\n\tmov 56(%%rbx), %%r15\n\t"                                        \
    "mov %%r9, 128(%%rbx)\n\tmov %%r10, 136(%%rbx)\n\tmov %%r11, 144(%%rbx)\n\t"            \
    "mov %%r12, 152(%%rbx)\n\tmov %%r13, 160(%%rbx)\n\t"
/* The same 23 ALU instructions without the loads and stores. */
#define ALU_BLOCK                                                                             \
    SPREAD("xor", "%%r8, ")                                                                   \
    "xor %%r8, %%r10\n\t"                                                                     \
    "andn %%r8, %%r8, %%r11\n\tandn %%r8, %%r8, %%r12\n\tandn %%r8, %%r8, %%r13\n\t"         \
    "andn %%r8, %%r8, %%r14\n\t"                                                              \
    "rorx $3, %%r8, %%r15\n\trorx $5, %%r8, %%rax\n\trorx $7, %%r8, %%rcx\n\t"              \
    "rorx $9, %%r8, %%rdx\n\trorx $11, %%r8, %%rsi\n\t"                                        \
    "xor %%r8, %%rdi\n\txor %%r8, %%r9\n\t"
#define MIX_ALU 23
#define ROUND_ALU 130
/* 15 XOR, 9 loads and 6 stores that depend on nothing: 3 cycles of each kind's ports on a core
 * with 5 ALU, 3 load and 2 store ports, so what it runs at beyond 10 instructions a cycle is
 * the width of the core's front end (rename), the bound of a round of ~190 instructions. */
#define WIDTH_THIRD(a, b, c, d, e, f, g, h)                                                  \
    "xor %%r8, %%r9\n\txor %%r8, %%r10\n\txor %%r8, %%r11\n\txor %%r8, %%r12\n\t"            \
    "xor %%r8, %%r13\n\tmov " a "(%%rbx), " d "\n\tmov " b "(%%rbx), " e "\n\t"              \
    "mov " c "(%%rbx), " f "\n\tmov %%r8, " g "(%%rbx)\n\tmov %%r8, " h "(%%rbx)\n\t"
#define WIDTH_BLOCK                                                                           \
    WIDTH_THIRD("0", "8", "16", "%%r14", "%%r15", "%%rax", "128", "136")                      \
    WIDTH_THIRD("24", "32", "40", "%%rcx", "%%rdx", "%%rsi", "144", "152")                    \
    WIDTH_THIRD("48", "56", "64", "%%rdi", "%%r14", "%%r15", "160", "168")
#define WIDTH_INSNS 30

int main(int argc, char **argv)
{
    static uint64_t buf[32];
    double imul, again, add, xor_, andn, rorx, mix, alu, width, core;
    uint64_t x = 1;
    if (argc > 1) {
        int help = argc == 2 && !strcmp(argv[1], "--help");
        fprintf(help ? stdout : stderr, help ? "usage: %s (no options: prints what bounds a "
                "scalar Keccak kernel on this CPU; see bench/alu_bound.c)\n"
                : "%s: takes no arguments (see --help)\n", argv[0]);
        return help ? 0 : 2;
    }
    /* First a warm-up of the probe itself (the clock ramps when a core wakes), then the
     * probe, again after the others, keeping the faster. */
    TIME(__asm__ volatile(TWELVE("imul %0, %0\n\t") : "+r"(x)), imul);
    TIME(__asm__ volatile(TWELVE("imul %0, %0\n\t") : "+r"(x)), imul);
    core = imul / (12 * IMUL_LATENCY); /* TSC cycles per core cycle */
    TIME(__asm__ volatile(SPREAD("xor", "%%r8, ") SPREAD("xor", "%%r8, ") : : : CLOBBERS), xor_);
    TIME(__asm__ volatile(SPREAD("andn", "%%r8, %%r8, ") SPREAD("andn", "%%r8, %%r8, ")
                          : : : CLOBBERS), andn);
    TIME(__asm__ volatile(SPREAD("rorx", "$3, %%r8, ") : : : CLOBBERS), rorx);
    TIME(__asm__ volatile(MIX_BLOCK MIX_BLOCK : : "b"(buf) : "memory", CLOBBERS), mix);
    TIME(__asm__ volatile(ALU_BLOCK ALU_BLOCK : : : CLOBBERS), alu);
    TIME(__asm__ volatile(WIDTH_BLOCK WIDTH_BLOCK : : "b"(buf) : "memory", CLOBBERS), width);
    TIME(__asm__ volatile(TWELVE("imul %0, %0\n\t") : "+r"(x)), again);
    if (again < imul)
        core = again / (12 * IMUL_LATENCY);
    TIME(__asm__ volatile(TWELVE("add $1, %0\n\t") : "+r"(x)), add);
    printf("TSC cycles per core cycle: %.3f (a dependent IMUL chain, 3 cycles each; a chain "
           "of dependent adds reads %.3f: far less where the core folds it)\n", core, add / 12);
    printf("per core cycle: XOR %.2f, ANDN %.2f, RORX %.2f (loop overhead included)\n",
           24 * core / xor_, 24 * core / andn, 12 * core / rorx);
    printf("floor of 3120 ALU instructions (24 rounds, 130 each): %.0f TSC cycles at that XOR rate\n",
           3120 / (24 * core / xor_) * core);
    printf("floor of the compiled kernel's mix (24 rounds of %d ALU, 46 loads, 28 stores, no "
           "dependencies): %.0f TSC cycles (%.1f core cycles a round)\n", ROUND_ALU,
           mix / 2 / MIX_ALU * ROUND_ALU * 24, mix / 2 / MIX_ALU * ROUND_ALU / core);
    printf("the same ALU instructions alone (XOR:ANDN:RORX as 76:25:29): %.0f TSC cycles "
           "(%.2f ALU instructions per core cycle, %.1f core cycles a round)\n",
           alu / 2 / MIX_ALU * ROUND_ALU * 24, 2 * MIX_ALU * core / alu,
           alu / 2 / MIX_ALU * ROUND_ALU / core);
    printf("instructions issued per core cycle where the ports allow 10 (XOR, loads, stores as "
           "15:9:6, loop overhead included): %.2f; a round of 190 instructions takes at least "
           "%.1f core cycles, %.0f TSC cycles for 24 rounds\n", 2 * WIDTH_INSNS * core / width,
           190 * width / (2 * WIDTH_INSNS * core), 24 * 190 * width / (2 * WIDTH_INSNS));
    return (int)(x & 0);
}
