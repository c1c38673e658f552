#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A floor under the multi-state kernels on this machine: one round's instruction mix, as the
model prints it (generator.simd.multi_op_mix), timed with no dependencies between the
instructions. No scheduling or register allocation can beat it, so a target below it cannot
be met on this core whatever the code looks like.

    bench/isa_bound.py [CC]     (default gcc; prints TSC cycles per permutation per instance)
"""

import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from generator.model import keccak_maths as keccak, simd  # noqa: E402

# AT&T spellings per kind; {r} is the register class, {d} the destination number.
SPELLING = {
    "rol": "vprolq $13, %%{r}0, %%{r}{d}",
    "ternlog": "vpternlogq $0x96, %%{r}0, %%{r}1, %%{r}{d}",
    "xor": "vpxor{q} %%{r}0, %%{r}1, %%{r}{d}",
    "andnot": "vpandn{q} %%{r}0, %%{r}1, %%{r}{d}",
    "or": "vpor{q} %%{r}0, %%{r}1, %%{r}{d}",
    "sll": "vpsllq $13, %%{r}0, %%{r}{d}",
    "srl": "vpsrlq $51, %%{r}0, %%{r}{d}",
    "add": "vpaddq %%{r}0, %%{r}1, %%{r}{d}",
    "shuffle": "vpshufb %%{r}0, %%{r}1, %%{r}{d}",
}
CASES = (("avx512", "zmm", "-mavx512f", 30), ("avx512vl256", "ymm", "-mavx512f -mavx512vl", 30),
         ("avx2", "ymm", "-mavx2", 14))


def program(isa, reg, ndest):
    mix = simd.multi_op_mix(isa, keccak.schedule(1, lane_complement=False))
    kinds = [k for k, n in sorted(mix.items()) for _ in range(n)]
    random.Random(0).shuffle(kinds)   # interleaved as a compiler would, reproducibly
    q = "q" if isa.ternlog else ""   # EVEX forms reach registers 16..31
    body = " ".join('"' + SPELLING[k].format(r=reg, d=2 + i % ndest, q=q) + '\\n\\t"'
                    for i, k in enumerate(kinds))
    clobbers = ", ".join(f'"xmm{2 + i}"' for i in range(ndest))
    return f"""#include <stdint.h>
#include <stdio.h>
static inline uint64_t ticks(void)
{{
    uint32_t lo, hi;
    __asm__ volatile("lfence\\n\\trdtsc\\n\\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}}
int main(void)
{{
    uint64_t best = UINT64_MAX;
    int k, i;
    for (k = 0; k < 300; k++) {{
        uint64_t t0 = ticks(), t;
        for (i = 0; i < 1000; i++)
            __asm__ volatile({body} : : : {clobbers});
        t = ticks() - t0;
        if (t < best)
            best = t;
    }}
    printf("%.1f\\n", best / 1000.0);
    return 0;
}}
"""


def main(argv):
    cc = argv[1] if len(argv) > 1 else "gcc"
    print(f"{'kernel':12} {'instr/round':>11} {'TSC/round':>10} {'TSC/perm/instance':>18}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, reg, flags, ndest in CASES:
            isa = simd.ISAS[name]
            src, exe = os.path.join(tmp, "mix.c"), os.path.join(tmp, "mix")
            with open(src, "w") as f:
                f.write(program(isa, reg, ndest))
            subprocess.run([cc, "-O2", *flags.split(), src, "-o", exe], check=True)
            per_round = float(subprocess.run([exe], capture_output=True, text=True,
                                             check=True).stdout)
            ops = simd.multi_ops_per_round(isa, keccak.schedule(1, lane_complement=False))
            print(f"x{isa.lanes} {isa.name:9} {ops:11} {per_round:10.1f} "
                  f"{per_round * keccak.MAX_ROUNDS / isa.lanes:18.1f}")


if __name__ == "__main__":
    main(sys.argv)
