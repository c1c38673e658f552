# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Vector instruction sets for Keccak-p[1600], as data.

What each x86 vector ISA offers a 64-bit-lane kernel (width, three-input logic, native
rotates, byte shuffles), the vpternlogq immediates computed from the boolean functions they
stand for, the choices that shape a multi-state round, and the tables of the single-state
kernel (rho counts per row, theta's in-row shifts, pi into column registers, the transpose
back), all derived from keccak.py. Nothing here prints C.
"""

from collections import Counter
from dataclasses import dataclass

from . import keccak


def ternlog_imm(f):
    """vpternlogq immediate for f(a, b, c): bit (a << 2 | b << 1 | c) of it is f of those bits.

    a is the first (destination) operand of the instruction, as in _mm*_ternarylogic_epi64.
    """
    return sum(1 << (a << 2 | b << 1 | c)
               for a in (0, 1) for b in (0, 1) for c in (0, 1) if f(a, b, c) & 1)


XOR3_IMM = ternlog_imm(lambda a, b, c: a ^ b ^ c)
CHI_IMM = ternlog_imm(lambda a, b, c: a ^ ((b ^ 1) & c))


@dataclass(frozen=True)
class VectorIsa:
    """One x86 vector ISA seen as `bits // 64` parallel 64-bit lanes."""
    name: str
    bits: int
    ctype: str
    intrin: str          # intrinsic prefix: _mm, _mm256, _mm512
    si: str              # suffix of the whole-register logic intrinsics: si128, si256, si512
    target: str          # gcc/clang target attribute that enables it in one function
    cpu: tuple           # run-time CPU features (tests/cpu_features.h names)
    compiler_cap: str    # what configure.py must have probed the compiler for
    ternlog: bool        # vpternlogq: any three-input logic in one instruction
    rotate: bool         # vprolq
    byte_shuffle: bool   # pshufb within 128-bit lanes: a rotation by 8k bits in one shuffle

    @property
    def lanes(self):
        return self.bits // 64

    def rotation(self, n):
        """How this ISA rotates each 64-bit lane left by n (1..63): 'rol', 'shuffle', 'add'
        (n = 1 with x + x as the left shift: adds issue on more ports than shifts), 'shift'."""
        if self.rotate:
            return "rol"
        if self.byte_shuffle and n % 8 == 0:
            return "shuffle"
        return "add" if n == 1 else "shift"

    def shuffle_bytes(self, n):
        """pshufb indices rotating every 64-bit lane left by n bits (n a multiple of 8),
        repeated over every 128-bit lane (the shuffle never crosses one)."""
        k = n // 8
        lane = [8 * (j // 8) + (j % 8 - k) % 8 for j in range(16)]
        return lane * (self.bits // 128)


ISAS = {
    "sse2": VectorIsa("sse2", 128, "__m128i", "_mm", "si128", "sse2", ("sse2",),
                      "intrin-sse2", ternlog=False, rotate=False, byte_shuffle=False),
    "avx2": VectorIsa("avx2", 256, "__m256i", "_mm256", "si256", "avx2", ("avx2",),
                      "intrin-avx2", ternlog=False, rotate=False, byte_shuffle=True),
    # AVX-512VL on 128/256-bit registers: ternlog and vprolq without the 512-bit width.
    "avx512vl128": VectorIsa("avx512vl", 128, "__m128i", "_mm", "si128", "avx512f,avx512vl",
                             ("avx512f", "avx512vl"), "intrin-avx512", ternlog=True,
                             rotate=True, byte_shuffle=True),
    "avx512vl256": VectorIsa("avx512vl", 256, "__m256i", "_mm256", "si256", "avx512f,avx512vl",
                             ("avx512f", "avx512vl"), "intrin-avx512", ternlog=True,
                             rotate=True, byte_shuffle=True),
    "avx512": VectorIsa("avx512", 512, "__m512i", "_mm512", "si512", "avx512f", ("avx512f",),
                        "intrin-avx512", ternlog=True, rotate=True, byte_shuffle=False),
}


def isa_for(name, instances):
    """The ISA entry that runs `instances` states at once with instruction set `name`."""
    for isa in ISAS.values():
        if isa.name == name and isa.lanes == instances:
            return isa
    return None


# --- Single-state layout: row y of the state in one 512-bit register, lane x in slot x, ---
# --- slots 5..7 kept zero so that parities, rotations and permutes never mix them in.   ---
# Theta works on whole rows (its column parity is a xor of the five registers); chi works on
# whole columns; pi turns one layout into the other and a transpose turns it back.


def shift_index(k):
    """vpermq indices so that slot x receives slot (x + k) mod 5 of the same row."""
    return [(x + k) % 5 for x in range(5)] + [5, 6, 7]


def rho_counts():
    """vprolvq counts per row y: slot x rotates by rho's offset of lane (x, y)."""
    off = keccak.rho_offsets()
    return [[off[keccak.index(x, y)] for x in range(5)] + [0, 0, 0] for y in range(5)]


@dataclass(frozen=True)
class Gather:
    """dst = vpermt2q(lo, index, hi): slot s takes lo[i] for i < 8, hi[i - 8] otherwise."""
    dst: str
    lo: str
    hi: str
    index: tuple


def pi_to_columns():
    """vpermq indices taking rotated row x to column register x of pi's output.

    Pi's output lane (x, y) reads input lane (x + 3y, x): every lane of output column x comes
    from input row x, so from the row layout pi is one in-register permute per register and
    leaves the state in the column layout, where chi's neighbours x + 1, x + 2 are whole
    registers. Slot y of column register x holds lane (x, y).
    """
    return [[(x + 3 * y) % 5 for y in range(5)] + [5, 5, 5] for x in range(5)]


def transpose_gathers():
    """Two-source permutes (vpermt2q) from column registers E0..E4 back to rows R0..R4.

    Three levels, twelve permutes: E0/E1 and E2/E3 pack slots 0..3 side by side, a second
    level pairs them into the first four lanes of rows 0-1 and 2-3, and the last level adds
    E4's lane; row 4 gathers slot 4 of every column separately. Slots 5..7 of every row read
    E4's slot 5, which is zero.
    """
    zero = 8 + 5
    ops = [Gather("P01", "E0", "E1", (0, 1, 2, 3, 8, 9, 10, 11)),
           Gather("P23", "E2", "E3", (0, 1, 2, 3, 8, 9, 10, 11))]
    for pair, ys in (("Q01", (0, 1)), ("Q23", (2, 3))):
        idx = []
        for y in ys:
            idx += [y, 4 + y, 8 + y, 8 + 4 + y]
        ops.append(Gather(pair, "P01", "P23", tuple(idx)))
    for y in range(4):
        base = 4 * (y % 2)
        ops.append(Gather(f"R{y}", "Q01" if y < 2 else "Q23", "E4",
                          (base, base + 1, base + 2, base + 3, 8 + y, zero, zero, zero)))
    ops += [Gather("S01", "E0", "E1", (4, 12, 0, 0, 0, 0, 0, 0)),
            Gather("S23", "E2", "E3", (4, 12, 0, 0, 0, 0, 0, 0)),
            Gather("S", "S01", "S23", (0, 1, 8, 9, 0, 0, 0, 0)),
            Gather("R4", "S", "E4", (0, 1, 2, 3, 8 + 4, zero, zero, zero))]
    return ops


def rotations_used(sched):
    """Every rotation amount a multi-state round performs (theta's 1 and rho's offsets)."""
    return sorted({1} | {b.rot for row in sched.rows for b in row.inputs if b.rot})


def multi_op_mix(isa, sched):
    """The instructions of one multi-state round, by kind, as printed (before the compiler):
    what tests/isa_bound.py times without dependencies to bound a kernel from below."""
    mix = Counter()

    def rotate(n):
        how = isa.rotation(n)
        mix.update({"rol": ("rol",), "shuffle": ("shuffle",), "add": ("add", "srl", "or"),
                    "shift": ("sll", "srl", "or")}[how])

    def xor3(count=1):
        mix.update(("ternlog",) * count if isa.ternlog else ("xor",) * (2 * count))

    fused = theta_fused(isa)
    xor3(10)                                   # column parities, two per column
    for _ in range(5):                         # D[x] = C[x - 1] ^ rol(C[x + 1], 1)
        rotate(1)
        if not fused:
            mix["xor"] += 1
    for row in sched.rows:
        for b in row.inputs:                   # theta applied, then rho
            if fused:
                xor3()
            else:
                mix["xor"] += 1
            if b.rot:
                rotate(b.rot)
        for _ in row.outputs:                  # chi
            mix.update(("ternlog",) if isa.ternlog else ("andnot", "xor"))
    mix["xor"] += 1                            # iota
    return mix


def multi_ops_per_round(isa, sched):
    """Vector instructions in one multi-state round, as printed (before the compiler)."""
    return sum(multi_op_mix(isa, sched).values())


def theta_fused(isa):
    """Whether A ^ C[x - 1] ^ rol(C[x + 1], 1) is one vpternlogq per lane instead of forming D.

    Five instructions fewer per round, yet measured slower on Zen 5 with gcc 12 and clang 14
    (x8: 150 against 133 TSC cycles per instance): vpternlogq issues at a lower rate than vpxorq
    and the ten live C/rol(C) vectors push more lanes out of the 32 registers. Kept as a
    choice of the model so another core can take it.
    """
    return False


def fused_parity(isa):
    """Whether the next round's column parity is summed as chi's output rows appear (rows
    0-2, then 3-4: one vpternlogq each) rather than all at the start of the round (the
    scalar kernel's "fused" parity, keccak.Schedule.fused_parity): the same instructions, but the
    next round's first ones no longer all wait for this round's last row. Needs C dead once D
    is formed, so not with a fused theta. (Measured equal to slightly better; applying each D
    to its column in place, to keep one D live instead of five, measured equal to worse.)"""
    return not theta_fused(isa)



def parity_steps(fused):
    """With a fused parity, after which chi row the next round's column parities are summed:
    {row: [(x, operands)]}, an operand being a lane index or None for C[x] itself. Rows 0-2
    start the sum and rows 3-4 complete it, one three-input xor each (vpternlogq, or two xors).
    """
    if not fused:
        return {}
    return {2: [(x, tuple(keccak.index(x, y) for y in (0, 1, 2))) for x in range(5)],
            4: [(x, (None,) + tuple(keccak.index(x, y) for y in (3, 4))) for x in range(5)]}
