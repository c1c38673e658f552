# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The scalar Keccak round lowered to x86-64 instructions, registers assigned here.

Why a kernel in inline assembly at all: tcc keeps every C variable in memory, so the C
kernel costs it about 2.7x what gcc and clang make of the same source. This lowering does
the register allocation itself, so every compiler that takes GNU inline assembly (tcc, gcc,
clang) runs the same instructions.

The shape: two lane sets in memory, the caller's state (set A) and a scratch block (set E),
ping-ponged by a two-round loop body. Theta comes in the model's two parities: "separate"
recomputes a round's column parities from the lanes it reads, so the five D values stay in
registers all round; "fused" accumulates them in registers while chi writes the lanes, so D
goes through memory (except in row 0, which takes D[x] in lane x and uses it in place). On
Zen 5 the two are within 2% of each other under every compiler. The rows come from
keccak.round_rows, so lane complementing is the model's.

Everything returned is AT&T syntax, one instruction per string; the template only prints.
"""

from . import keccak_maths as keccak

STATE = "%rdi"      # set A: the caller's 25 lanes
SCRATCH = "%rsi"    # set E, then the round-constant cursor, its end, D, saved registers
ODD = "%rax"        # in: 1 when the round count is odd (the state was copied into E)
# Five registers hold theta's D values for a whole round (separate parity) or the next
# round's column parities as chi writes them (fused); five hold a row's B lanes.
THETA = ("%rax", "%rbx", "%rcx", "%rdx", "%r8")
B = ("%r9", "%r10", "%r11", "%r12", "%r13")
T = "%r14"          # each chi output on its way to memory
RC = "%r15"         # cursor into the round-constant table
COPY = "%rbp"       # a row's shared negated B lane under lane complementing

# Scratch layout in 64-bit words. Every register but rdi, rsi and rax (an in/out operand) is
# saved and restored inside the block, so the statement needs no clobber list beyond memory
# and flags: tcc, gcc and clang then agree on what it does.
SCRATCH_RC = keccak.LANES
SCRATCH_END = SCRATCH_RC + 1
SCRATCH_D = SCRATCH_END + 1
SAVED = THETA[1:] + (COPY,) + B + (T, RC)
SCRATCH_SAVE = SCRATCH_D + 5
SCRATCH_WORDS = SCRATCH_SAVE + len(SAVED)

SETS = {"A": STATE, "E": SCRATCH}
# rol/not/and/or/xor: any x86-64. rorx (BMI2) and, without lane complementing, andn (BMI1).
ROTATIONS = ("rol", "rorx")
PARITIES = ("separate", "fused")
CPU_NEEDS = {"rol": (), "rorx": ("bmi1", "bmi2")}


def _lane(set_, index):
    return f"{8 * index}({SETS[set_]})"


def _d_slot(x):
    return f"{8 * (SCRATCH_D + x)}({SCRATCH})"


def _rotate(rotate, src, dst, amount):
    if rotate == "rorx":
        return [f"rorxq ${64 - amount}, {src}, {dst}"]
    return ([f"movq {src}, {dst}"] if src != dst else []) + [f"rolq ${amount}, {dst}"]


def _chi(out, regs, use_andn):
    """dst = [~]a ^ ([~]b OP [~]c) into T, with one NOT at most on the way (op commutes)."""
    a, b, c, f = regs[out.a], regs[out.b], regs[out.c], out.form
    op = {"&": "andq", "|": "orq"}[f.op]
    if f.not_b and f.not_c:
        raise ValueError("chi form with two negated operands: the lowering has one temporary")
    if use_andn and f.op == "&" and f.not_b:
        body = [f"andnq {c}, {b}, {T}"]
    elif f.not_c:
        body = [f"movq {c}, {T}", f"notq {T}", f"{op} {b}, {T}"]
    else:
        body = [f"movq {b}, {T}"] + ([f"notq {T}"] if f.not_b else []) + [f"{op} {c}, {T}"]
    body.append(f"xorq {a}, {T}")
    if f.not_out:
        body.append(f"notq {T}")
    return body


def _parity(src, regs):
    out = []
    for x in range(5):
        out.append(f"movq {_lane(src, x)}, {regs[x]}")
        out += [f"xorq {_lane(src, x + 5 * y)}, {regs[x]}" for y in range(1, 5)]
    return out


def _round(src, dst, rows, rotate, use_andn, fused):
    """One round. Separate parity: C into B, D into THETA, every B lane from THETA. Fused: the
    parities arrive in THETA; D goes into B, where row 0 (whose lane x takes D[x]) uses it
    in place and the other rows read it back from scratch, while THETA accumulates the next
    round's parities from chi's outputs."""
    out = []
    if fused:
        c_regs, d_regs = THETA, B
    else:
        out += _parity(src, B)
        c_regs, d_regs = B, THETA
    for x in range(5):      # D[x] = C[x-1] ^ rot(C[x+1], 1)
        out += _rotate(rotate, c_regs[(x + 1) % 5], d_regs[x], 1)
        out.append(f"xorq {c_regs[(x - 1) % 5]}, {d_regs[x]}")
        if fused:
            out.append(f"movq {d_regs[x]}, {_d_slot(x)}")
    for y, row in enumerate(rows):
        regs = {lane.b: B[x] for x, lane in enumerate(row.inputs)}
        for x, lane in enumerate(row.inputs):
            if not fused:
                out += [f"movq {_lane(src, lane.src)}, {B[x]}", f"xorq {THETA[lane.d]}, {B[x]}"]
            elif y == 0:
                if lane.d != x:
                    raise ValueError("row 0 must take D[x] in lane x to use D in place")
                out.append(f"xorq {_lane(src, lane.src)}, {B[x]}")
            else:
                out += [f"movq {_lane(src, lane.src)}, {B[x]}",
                        f"xorq {_d_slot(lane.d)}, {B[x]}"]
            if lane.rot:
                out += _rotate(rotate, B[x], B[x], lane.rot)
        if len(row.negated) > 1:
            raise ValueError("more than one negated copy in a row: the lowering has one register")
        for copy, of in row.negated:
            regs[copy] = COPY
            out += [f"movq {regs[of]}, {COPY}", f"notq {COPY}"]
        for o in row.outputs:
            out += _chi(o, regs, use_andn)
            if o.dst == keccak.IOTA_LANE:
                out.append(f"xorq ({RC}), {T}")
            out.append(f"movq {T}, {_lane(dst, o.dst)}")
            if fused:
                out.append(f"{'movq' if row.parity_init else 'xorq'} {T}, {THETA[o.column]}")
    out.append(f"addq $8, {RC}")
    return out


def lower(lane_complement, rotate, parity):
    """The whole asm block, one instruction or label per string. The loop body is two rounds,
    A -> E (label 1) and E -> A (label 2); an odd round count enters at label 2."""
    if rotate not in ROTATIONS or parity not in PARITIES:
        raise ValueError(f"no x86-64 lowering for rotation '{rotate}', parity '{parity}'")
    rows = keccak.round_rows(keccak.BEBIGOKIMISA if lane_complement else frozenset())
    fused = parity == "fused"
    # ANDN pays only for the textbook form; complemented rows use AND/OR with one NOT.
    use_andn = rotate == "rorx"
    lines = [f"movq {r}, {8 * (SCRATCH_SAVE + k)}({SCRATCH})" for k, r in enumerate(SAVED)]
    lines += [f"movq {8 * SCRATCH_RC}({SCRATCH}), {RC}", f"testq {ODD}, {ODD}", "jnz 3f"]
    lines += (_parity("A", THETA) if fused else []) + ["jmp 1f", "3:"]
    lines += (_parity("E", THETA) if fused else []) + ["jmp 2f", "1:"]
    lines += _round("A", "E", rows, rotate, use_andn, fused) + ["2:"]
    lines += _round("E", "A", rows, rotate, use_andn, fused)
    lines += [f"cmpq {8 * SCRATCH_END}({SCRATCH}), {RC}", "jne 1b"]
    lines += [f"movq {8 * (SCRATCH_SAVE + k)}({SCRATCH}), {r}" for k, r in enumerate(SAVED)]
    return tuple(lines)
