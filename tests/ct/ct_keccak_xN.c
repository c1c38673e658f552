/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/*
 * Constant-time check of a bundle's x-N API (ct_common.h): the dispatched permutations in both
 * layouts, their block loops and XKCP's parallel SnP byte functions, every state byte and
 * every message byte marked secret (offsets, lengths and instance numbers are public, as in
 * every caller). memcheck reports any branch or address computed from them. One run per path
 * ROUNDSMITH_PATH forces (valgrind 3.19 runs no AVX-512, so the avx512 path is not checked).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ct/ct_common.h"
#include "roundsmith.h"

int main(void)
{
    static uint64_t st[8 * 25];
    static uint8_t msg[8][3 * 168], out[8][3 * 168];
    const uint8_t *in[8];
    uint8_t *outp[8];
    char what[96];
    unsigned j, k = 0;

    ct_start(4);
    (void)rs_path(); /* the path choice reads the environment: public, and made first */
    for (j = 0; j < 8; j++)
        in[j] = msg[j], outp[j] = out[j];
    memset(st, 0x5A, sizeof st);
    memset(msg, 0xA5, sizeof msg);
    ct_secret(st, sizeof st);
    ct_secret(msg, sizeof msg);

    snprintf(what, sizeof what, "keccak_p1600_x2/x4/x8, both layouts, on path %s",
             rs_path_name());
    ct_begin();
    keccak_f1600_x2((uint64_t(*)[2])st);
    keccak_p1600_x4((uint64_t(*)[4])st, 12);
    keccak_f1600_x8((uint64_t(*)[8])st);
    keccak_f1600_x2_states((uint64_t(*)[25])st);
    keccak_p1600_x4_states((uint64_t(*)[25])st, 7);
    keccak_f1600_x8_states((uint64_t(*)[25])st);
    ct_verdict(++k, what);

    snprintf(what, sizeof what, "keccak_p1600_xN_absorb / _squeeze on path %s", rs_path_name());
    ct_begin();
    keccak_p1600_x4_absorb((uint64_t(*)[4])st, in, 3, 21, 24);
    keccak_p1600_x8_absorb((uint64_t(*)[8])st, in, 2, 17, 12);
    keccak_p1600_x2_squeeze((uint64_t(*)[2])st, outp, 3, 21, 24);
    keccak_p1600_x4_squeeze((uint64_t(*)[4])st, outp, 1, 25, 5);
    ct_verdict(++k, what);

    snprintf(what, sizeof what, "KeccakP1600times4/8 byte functions on path %s",
             rs_path_name());
    ct_begin();
    KeccakP1600times4_AddBytes(st, 1, msg[0], 3, 150);
    KeccakP1600times4_AddLanesAll(st, msg[0], 21, 21);
    KeccakP1600times4_PermuteAll_24rounds(st);
    KeccakP1600times4_ExtractBytes(st, 2, out[0], 5, 131);
    KeccakP1600times4_ExtractAndAddBytes(st, 3, msg[1], out[1], 1, 190);
    KeccakP1600times8_OverwriteBytes(st, 7, msg[2], 11, 100);
    KeccakP1600times8_PermuteAll_12rounds(st);
    KeccakP1600times8_ExtractLanesAll(st, out[2], 17, 17);
    (void)KeccakF1600times4_FastLoop_Absorb(st, 21, 21, 21, msg[3], sizeof msg[3] / 4 * 4);
    ct_verdict(++k, what);

    /* What was computed came from the marked data (else the lines above prove nothing). */
    {
        int tainted = VALGRIND_CHECK_MEM_IS_DEFINED(out, sizeof out) != 0;
        printf("%s %u - %s the outputs depend on the marked inputs%s\n",
               tainted ? "ok" : "not ok", ++k, RS_COMPILER,
               tainted ? " (memcheck's one report above is this check)"
                       : ": nothing secret flowed");
        if (!tainted)
            ct_failed++;
    }
    return ct_finish();
}
