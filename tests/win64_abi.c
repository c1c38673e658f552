/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * The Windows x64 calling convention around every public function of a bundle: each call
 * goes through rs_abi_probe, which loads a canary into every register the callee must
 * preserve (rbx, rbp, rdi, rsi, r12-r15, xmm6-xmm15), puts a canary just above the 32-byte
 * shadow space, makes the call with the stack 16-byte aligned, and reports which of them
 * came back changed. A compiler keeps those registers safe in its own code; what this
 * catches is generated code that does not (inline assembly, a missing save around vector
 * code, a function writing past its shadow space). Built with x86_64-w64-mingw32-gcc, run
 * under wine (tests/e2e_windows.py); TAP output.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "roundsmith.h"

#if !defined(_WIN64) || !defined(__GNUC__)
#error "the Windows x64 register check needs a GNU compiler targeting Win64 (mingw-w64)"
#endif

/* Bit k of the result: callee-saved register k changed (0-7 rbx rbp rdi rsi r12-r15,
 * 8-17 xmm6-xmm15, 18 the word above the shadow space). */
uint64_t rs_abi_probe(void (*thunk)(void *), void *ctx);
static const char *const rs_abi_names[] = {
    "rbx", "rbp", "rdi", "rsi", "r12", "r13", "r14", "r15", "xmm6", "xmm7", "xmm8", "xmm9",
    "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "the stack above the shadow space"};

/* 16-byte canaries for xmm6-15 (and the first 8 for the general registers). */
__attribute__((aligned(16))) const uint64_t rs_abi_canary[20] = {
    0x0123456789ABCDEFull, 0xFEDCBA9876543210ull, 0x1111222233334444ull, 0x5555666677778888ull,
    0x99990000AAAABBBBull, 0xCCCCDDDDEEEEFFFFull, 0x0F1E2D3C4B5A6978ull, 0x8796A5B4C3D2E1F0ull,
    0x13579BDF02468ACEull, 0xECA86420FDB97531ull, 0x2468ACE013579BDFull, 0x5A5A5A5AA5A5A5A5ull,
    0x3C3C3C3CC3C3C3C3ull, 0x6996699696696996ull, 0x7777888899990000ull, 0xDEADBEEFCAFEF00Dull,
    0x0BADC0DE0DDBA11Cull, 0x1234567887654321ull, 0xA1B2C3D4E5F60718ull, 0x293A4B5C6D7E8F90ull};

/*
 * Frame (rsp after the pushes and the sub): [0, 32) the callee's shadow space, [32, 40) the
 * canary word, [40, 48) rcx's slot for nothing, [48, 208) xmm6-15 of our caller, 8 bytes pad.
 * 8 pushes + 216 = 280 = 8 mod 16 after the return address: rsp is 16-byte aligned at the call.
 */
__asm__(
    ".text\n"
    ".globl rs_abi_probe\n"
    "rs_abi_probe:\n"
    "    pushq %rbx\n    pushq %rbp\n    pushq %rdi\n    pushq %rsi\n"
    "    pushq %r12\n    pushq %r13\n    pushq %r14\n    pushq %r15\n"
    "    subq $216, %rsp\n"
    "    movups %xmm6, 48(%rsp)\n    movups %xmm7, 64(%rsp)\n    movups %xmm8, 80(%rsp)\n"
    "    movups %xmm9, 96(%rsp)\n    movups %xmm10, 112(%rsp)\n    movups %xmm11, 128(%rsp)\n"
    "    movups %xmm12, 144(%rsp)\n    movups %xmm13, 160(%rsp)\n    movups %xmm14, 176(%rsp)\n"
    "    movups %xmm15, 192(%rsp)\n"
    "    leaq rs_abi_canary(%rip), %rax\n"
    "    movq 0(%rax), %rbx\n    movq 8(%rax), %rbp\n    movq 16(%rax), %rdi\n"
    "    movq 24(%rax), %rsi\n    movq 32(%rax), %r12\n    movq 40(%rax), %r13\n"
    "    movq 48(%rax), %r14\n    movq 56(%rax), %r15\n"
    "    movq 64(%rax), %r10\n    movq %r10, 32(%rsp)\n"
    "    movdqa 0(%rax), %xmm6\n    movdqa 16(%rax), %xmm7\n    movdqa 32(%rax), %xmm8\n"
    "    movdqa 48(%rax), %xmm9\n    movdqa 64(%rax), %xmm10\n    movdqa 80(%rax), %xmm11\n"
    "    movdqa 96(%rax), %xmm12\n    movdqa 112(%rax), %xmm13\n    movdqa 128(%rax), %xmm14\n"
    "    movdqa 144(%rax), %xmm15\n"
    "    movq %rcx, %rax\n"
    "    movq %rdx, %rcx\n"
    "    call *%rax\n"
    "    leaq rs_abi_canary(%rip), %r10\n"
    "    xorl %eax, %eax\n"
    /* general registers: bit k when register k differs */
    "    cmpq 0(%r10), %rbx\n    setne %cl\n    movzbl %cl, %ecx\n    orq %rcx, %rax\n"
    "    cmpq 8(%r10), %rbp\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $1, %rcx\n    orq %rcx, %rax\n"
    "    cmpq 16(%r10), %rdi\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $2, %rcx\n    orq %rcx, %rax\n"
    "    cmpq 24(%r10), %rsi\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $3, %rcx\n    orq %rcx, %rax\n"
    "    cmpq 32(%r10), %r12\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $4, %rcx\n    orq %rcx, %rax\n"
    "    cmpq 40(%r10), %r13\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $5, %rcx\n    orq %rcx, %rax\n"
    "    cmpq 48(%r10), %r14\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $6, %rcx\n    orq %rcx, %rax\n"
    "    cmpq 56(%r10), %r15\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $7, %rcx\n    orq %rcx, %rax\n"
#define RS_XMM_CHECK(reg, off, bit) \
    "    movdqa " #off "(%r10), %xmm0\n    pcmpeqb %" #reg ", %xmm0\n    pmovmskb %xmm0, %ecx\n" \
    "    cmpl $0xFFFF, %ecx\n    setne %cl\n    movzbl %cl, %ecx\n    shlq $" #bit ", %rcx\n" \
    "    orq %rcx, %rax\n"
    RS_XMM_CHECK(xmm6, 0, 8) RS_XMM_CHECK(xmm7, 16, 9) RS_XMM_CHECK(xmm8, 32, 10)
    RS_XMM_CHECK(xmm9, 48, 11) RS_XMM_CHECK(xmm10, 64, 12) RS_XMM_CHECK(xmm11, 80, 13)
    RS_XMM_CHECK(xmm12, 96, 14) RS_XMM_CHECK(xmm13, 112, 15) RS_XMM_CHECK(xmm14, 128, 16)
    RS_XMM_CHECK(xmm15, 144, 17)
    "    movq 64(%r10), %rcx\n    cmpq 32(%rsp), %rcx\n    setne %cl\n    movzbl %cl, %ecx\n"
    "    shlq $18, %rcx\n    orq %rcx, %rax\n"
    "    movups 48(%rsp), %xmm6\n    movups 64(%rsp), %xmm7\n    movups 80(%rsp), %xmm8\n"
    "    movups 96(%rsp), %xmm9\n    movups 112(%rsp), %xmm10\n    movups 128(%rsp), %xmm11\n"
    "    movups 144(%rsp), %xmm12\n    movups 160(%rsp), %xmm13\n    movups 176(%rsp), %xmm14\n"
    "    movups 192(%rsp), %xmm15\n"
    "    addq $216, %rsp\n"
    "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n"
    "    popq %rsi\n    popq %rdi\n    popq %rbp\n    popq %rbx\n"
    "    ret\n");

/* Inputs and outputs, large enough for every vector path: 14 KT128 chunks reach the x8, x4
 * and single leaves, 64 ChaCha blocks the widest path. */
static uint8_t in[14 * 8192 + 7], out[64 * 64], key[32], iv[12];
static keccak_sponge sponge;
static kt128_ctx kt;
static KeccakP1600_state snp;
static uint64_t state[25];
static struct chacha8_ctx c8;
static struct chacha12_ctx c12;
static struct chacha20_ctx c20;
#if defined(RS_PATH_AVX512)
static uint64_t sep8[8][25], x8[25][8], sep4[4][25], x4[25][4];
#endif
static volatile uintptr_t sink;

#define T(name, call) static void t_##name(void *ctx) { (void)ctx; call; }
T(keccak_f1600, keccak_f1600(state))
T(keccak_p1600, keccak_p1600(state, 12))
T(keccak_p1600_absorb, sink = keccak_p1600_absorb(state, 24, 21, in, sizeof in))
#define HASH(f) T(f, f(out, in, sizeof in)) T(f##_init, f##_init(&sponge)) \
    T(f##_update, f##_update(&sponge, in, 1000)) T(f##_final, f##_final(&sponge, out))
HASH(sha3_224) HASH(sha3_256) HASH(sha3_384) HASH(sha3_512) HASH(keccak256)
#define XOF(f) T(f, f(out, 300, in, sizeof in)) T(f##_init, f##_init(&sponge)) \
    T(f##_absorb, f##_absorb(&sponge, in, 1000)) T(f##_squeeze, f##_squeeze(&sponge, out, 300))
XOF(shake128) XOF(shake256)
#define TURBO(f) T(f, f(out, 300, in, sizeof in, 0x1F)) T(f##_init, f##_init(&sponge, 0x1F)) \
    T(f##_absorb, f##_absorb(&sponge, in, 1000)) T(f##_squeeze, f##_squeeze(&sponge, out, 300))
TURBO(turboshake128) TURBO(turboshake256)
T(kt128, kt128(out, 32, in, sizeof in, key, 5))
T(kt128_init, kt128_init(&kt))
T(kt128_update, kt128_update(&kt, in, sizeof in))
T(kt128_final, kt128_final(&kt, key, 5, out, 32))
T(KeccakP1600_Initialize, KeccakP1600_Initialize(&snp))
T(KeccakP1600_AddByte, KeccakP1600_AddByte(&snp, 0x1F, 7))
T(KeccakP1600_AddBytes, KeccakP1600_AddBytes(&snp, in, 3, 150))
T(KeccakP1600_OverwriteBytes, KeccakP1600_OverwriteBytes(&snp, in, 10, 20))
T(KeccakP1600_OverwriteWithZeroes, KeccakP1600_OverwriteWithZeroes(&snp, 9))
T(KeccakP1600_Permute_Nrounds, KeccakP1600_Permute_Nrounds(&snp, 6))
T(KeccakP1600_Permute_12rounds, KeccakP1600_Permute_12rounds(&snp))
T(KeccakP1600_Permute_24rounds, KeccakP1600_Permute_24rounds(&snp))
T(KeccakP1600_ExtractBytes, KeccakP1600_ExtractBytes(&snp, out, 5, 100))
T(KeccakP1600_ExtractAndAddBytes, KeccakP1600_ExtractAndAddBytes(&snp, in, out, 5, 100))
T(KeccakF1600_FastLoop_Absorb, sink = KeccakF1600_FastLoop_Absorb(&snp, 21, in, 5000))
T(KeccakP1600_12rounds_FastLoop_Absorb,
  sink = KeccakP1600_12rounds_FastLoop_Absorb(&snp, 21, in, 5000))
T(chacha8_keysetup, chacha8_keysetup(&c8, key, 256, iv))
T(chacha8_get_keystream, chacha8_get_keystream(&c8, 0xFFFFFFF0u, 63, out))
T(chacha12_keysetup, chacha12_keysetup(&c12, key, 128, NULL))
T(chacha12_get_keystream, chacha12_get_keystream(&c12, 5, 63, out))
T(chacha20_keysetup, chacha20_keysetup(&c20, key, 256, iv))
T(chacha20_get_keystream, chacha20_get_keystream(&c20, 7, 63, out))
T(chacha20_xor, chacha20_xor(out, out, sizeof out - 3, key, iv, 1))
T(chacha20_ietf_xor, chacha20_ietf_xor(out, out, sizeof out - 3, key, iv, 1))
T(chacha_level, sink = (uintptr_t)chacha_level())
T(rs_path, sink = (uintptr_t)rs_path())
T(rs_path_name, sink = (uintptr_t)rs_path_name())
T(rs_selftest, sink = (uintptr_t)rs_selftest())
T(rs_selftest_name, sink = (uintptr_t)rs_selftest_name(11))
#if defined(RS_PATH_AVX512)
T(keccak_x8_interleave, keccak_x8_interleave(x8, (const uint64_t (*)[25])sep8))
T(keccak_p1600_x8, keccak_p1600_x8(x8, 12))
T(keccak_f1600_x8, keccak_f1600_x8(x8))
T(keccak_x8_deinterleave, keccak_x8_deinterleave(sep8, (const uint64_t (*)[8])x8))
T(keccak_x4_interleave, keccak_x4_interleave(x4, (const uint64_t (*)[25])sep4))
T(keccak_p1600_x4, keccak_p1600_x4(x4, 12))
T(keccak_f1600_x4, keccak_f1600_x4(x4))
T(keccak_x4_deinterleave, keccak_x4_deinterleave(sep4, (const uint64_t (*)[4])x4))
#endif

struct call {
    const char *name;
    void (*thunk)(void *);
    int needs; /* 0: any path; 4: a path with the x4 kernel; 8: with the x8 kernel */
};

#define C(name) {#name, t_##name, 0}
#define HASH_C(f) C(f), C(f##_init), C(f##_update), C(f##_final)
#define XOF_C(f) C(f), C(f##_init), C(f##_absorb), C(f##_squeeze)
static const struct call calls[] = {
    C(keccak_f1600), C(keccak_p1600), C(keccak_p1600_absorb),
    HASH_C(sha3_224), HASH_C(sha3_256), HASH_C(sha3_384), HASH_C(sha3_512), HASH_C(keccak256),
    XOF_C(shake128), XOF_C(shake256), XOF_C(turboshake128), XOF_C(turboshake256),
    C(kt128), C(kt128_init), C(kt128_update), C(kt128_final),
    C(KeccakP1600_Initialize), C(KeccakP1600_AddByte), C(KeccakP1600_AddBytes),
    C(KeccakP1600_OverwriteBytes), C(KeccakP1600_OverwriteWithZeroes),
    C(KeccakP1600_Permute_Nrounds), C(KeccakP1600_Permute_12rounds),
    C(KeccakP1600_Permute_24rounds), C(KeccakP1600_ExtractBytes),
    C(KeccakP1600_ExtractAndAddBytes), C(KeccakF1600_FastLoop_Absorb),
    C(KeccakP1600_12rounds_FastLoop_Absorb),
    C(chacha8_keysetup), C(chacha8_get_keystream), C(chacha12_keysetup),
    C(chacha12_get_keystream), C(chacha20_keysetup), C(chacha20_get_keystream),
    C(chacha20_xor), C(chacha20_ietf_xor), C(chacha_level),
    C(rs_path), C(rs_path_name), C(rs_selftest), C(rs_selftest_name),
#if defined(RS_PATH_AVX512)
    {"keccak_x8_interleave", t_keccak_x8_interleave, 8},
    {"keccak_p1600_x8", t_keccak_p1600_x8, 8},
    {"keccak_f1600_x8", t_keccak_f1600_x8, 8},
    {"keccak_x8_deinterleave", t_keccak_x8_deinterleave, 8},
    {"keccak_x4_interleave", t_keccak_x4_interleave, 4},
    {"keccak_p1600_x4", t_keccak_p1600_x4, 4},
    {"keccak_f1600_x4", t_keccak_f1600_x4, 4},
    {"keccak_x4_deinterleave", t_keccak_x4_deinterleave, 4},
#endif
};

/* A callee that breaks the convention on purpose (rsi and xmm9 not restored), written in
 * assembly so no compiler saves them for it: the probe must see both. */
void rs_abi_planted(void *ctx);
__asm__(".text\n.globl rs_abi_planted\nrs_abi_planted:\n"
        "    xorps %xmm9, %xmm9\n    xorl %esi, %esi\n    ret\n");

int main(int argc, char **argv)
{
    size_t k;
    unsigned n = 0, bad = 0;
    int path = rs_path(), widest = 0;
    (void)path;
    for (k = 0; k < sizeof in; k++)
        in[k] = (uint8_t)(k * 131 + 7);
#if defined(RS_PATH_AVX512)
    widest = path == RS_PATH_AVX512 ? 8 : path == RS_PATH_AVX2 ? 4 : 0;
#endif
    if (argc > 1 && strcmp(argv[1], "--planted") == 0) {
        uint64_t changed = rs_abi_probe(rs_abi_planted, NULL);
        printf("planted: changed 0x%llx\n", (unsigned long long)changed);
        return changed == ((1ull << 3) | (1ull << 11)) ? 0 : 1;
    }
    for (k = 0; k < sizeof calls / sizeof calls[0]; k++) {
        uint64_t changed;
        unsigned r;
        if (calls[k].needs > widest)
            continue;
        changed = rs_abi_probe(calls[k].thunk, NULL);
        n++;
        for (r = 0; r < 19; r++)
            if ((changed >> r) & 1) {
                printf("# %s changed %s\n", calls[k].name, rs_abi_names[r]);
                bad++;
            }
    }
    printf("%s 1 - Windows x64 callee-saved registers and shadow space around %u functions on "
           "path %s\n1..1\n", bad ? "not ok" : "ok", n, rs_path_name());
    return bad ? 1 : 0;
}
