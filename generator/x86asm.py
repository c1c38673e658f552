"""The scalar Keccak round lowered to x86-64 instructions, registers assigned here.

Why a kernel in inline assembly at all: tcc keeps every C variable in memory, so the C
kernel costs it about 2.7x what gcc and clang make of the same source. This lowering does
the register allocation itself, so every compiler that takes GNU inline assembly (tcc, gcc,
clang) runs the same instructions.

The shape (one of several tried, the fastest on Zen 5 under all three compilers): two lane
sets in memory, the caller's state (set A) and a scratch block (set E), ping-ponged by a
two-round loop body. Each round recomputes its column parities from the lanes it reads
("separate" parity), so the five theta D values stay in registers for the whole round; with
parities accumulated in registers instead, D had to live in memory and the kernel was ~6%
slower. The rows come from keccak.round_rows, so lane complementing is the model's.

Everything returned is AT&T syntax, one instruction per string; the template only prints.
"""

from dataclasses import dataclass

from . import keccak

STATE = "%rdi"      # set A: the caller's 25 lanes
SCRATCH = "%rsi"    # set E, then the round-constant cursor, its end, and saved registers
D = ("%rax", "%rbx", "%rcx", "%rdx", "%r8")
B = ("%r9", "%r10", "%r11", "%r12", "%r13")    # also the column parities before D is made
T = "%r14"          # each chi output on its way to memory
RC = "%r15"         # cursor into the round-constant table
COPY = "%rbp"       # a row's shared negated B lane under lane complementing

# Scratch layout in 64-bit words. Every register but rdi, rsi and rax (the odd-entry flag,
# an in/out operand) is saved and restored inside the block, so the statement needs no
# clobber list beyond memory and flags: tcc, gcc and clang then agree on what it does.
SCRATCH_RC, SCRATCH_END, SCRATCH_SAVE = keccak.LANES, keccak.LANES + 1, keccak.LANES + 2
SAVED = D[1:] + (COPY,) + B + (T, RC)
SCRATCH_WORDS = SCRATCH_SAVE + len(SAVED)

SETS = {"A": STATE, "E": SCRATCH}
# rol/not/and/or/xor: any x86-64. rorx (BMI2) and, without lane complementing, andn (BMI1).
ROTATIONS = ("rol", "rorx")
CPU_NEEDS = {"rol": (), "rorx": ("bmi1", "bmi2")}


@dataclass(frozen=True)
class Lowering:
    save: tuple         # instructions before the first round
    restore: tuple      # ... after the last
    first_round: tuple  # A -> E: the body's first half, entered for even round counts
    second_round: tuple  # E -> A: entered directly for odd round counts
    loop_end: str       # compares the cursor with the end of the table


def _lane(set_, index):
    return f"{8 * index}({SETS[set_]})"


def _rotate(rotate, reg, amount):
    if rotate == "rorx":
        return [f"rorxq ${64 - amount}, {reg}, {reg}"]
    return [f"rolq ${amount}, {reg}"]


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


def _round(src, dst, rows, rotate, use_andn):
    out = []
    for x in range(5):      # column parities of the lanes this round reads
        out.append(f"movq {_lane(src, x)}, {B[x]}")
        out += [f"xorq {_lane(src, x + 5 * y)}, {B[x]}" for y in range(1, 5)]
    for x in range(5):      # D[x] = C[x-1] ^ rot(C[x+1], 1)
        if rotate == "rorx":
            out.append(f"rorxq $63, {B[(x + 1) % 5]}, {D[x]}")
        else:
            out += [f"movq {B[(x + 1) % 5]}, {D[x]}", f"rolq $1, {D[x]}"]
        out.append(f"xorq {B[(x - 1) % 5]}, {D[x]}")
    for row in rows:
        regs = {lane.b: B[x] for x, lane in enumerate(row.inputs)}
        for x, lane in enumerate(row.inputs):
            out += [f"movq {_lane(src, lane.src)}, {B[x]}", f"xorq {D[lane.d]}, {B[x]}"]
            if lane.rot:
                out += _rotate(rotate, B[x], lane.rot)
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
    out.append(f"addq $8, {RC}")
    return tuple(out)


def lower(lane_complement, rotate):
    if rotate not in ROTATIONS:
        raise ValueError(f"no x86-64 lowering for rotation '{rotate}'")
    rows = keccak.round_rows(keccak.BEBIGOKIMISA if lane_complement else frozenset())
    # ANDN pays only for the textbook form; complemented rows use AND/OR with one NOT.
    use_andn = rotate == "rorx"
    save = tuple(f"movq {r}, {8 * (SCRATCH_SAVE + k)}({SCRATCH})" for k, r in enumerate(SAVED))
    restore = tuple(f"movq {8 * (SCRATCH_SAVE + k)}({SCRATCH}), {r}"
                    for k, r in enumerate(SAVED))
    return Lowering(
        save=save + (f"movq {8 * SCRATCH_RC}({SCRATCH}), {RC}",),
        restore=restore,
        first_round=_round("A", "E", rows, rotate, use_andn),
        second_round=_round("E", "A", rows, rotate, use_andn),
        loop_end=f"cmpq {8 * SCRATCH_END}({SCRATCH}), {RC}")
