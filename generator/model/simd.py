# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Vector instruction sets for Keccak-p[1600], as data.

What each x86 vector ISA offers a 64-bit-lane kernel (width, three-input logic, native
rotates, byte shuffles), the vpternlogq immediates computed from the boolean functions they
stand for, the choices that shape a multi-state round, and theta's in-register shifts (the
single-state kernel's layout is avx512_lines.py's), all derived from keccak.py. Nothing here
prints C.
"""

from collections import Counter
from dataclasses import dataclass

from . import keccak_maths as keccak


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


def rotations_used(sched):
    """Every rotation amount a multi-state round performs (theta's 1 and rho's offsets)."""
    return sorted({1} | {b.rot for row in sched.rows for b in row.inputs if b.rot})


def multi_op_mix(isa, sched):
    """The instructions of one multi-state round, by kind, as printed (before the compiler):
    what bench/isa_bound.py times without dependencies to bound a kernel from below."""
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


# --- Lane-major states and byte streams: the transposes of the x-N block loops ------------
# N instances each read (or write) their own byte stream; a vector register holds one lane of
# every instance. A group of N consecutive lanes of the N streams is an N x N matrix of 64-bit
# words: N unaligned loads give its rows (stream j, lanes k .. k + N - 1), a transpose gives
# its columns (lane k + i of every instance), which are xored into the state. Squeezing runs
# the same network the other way: a transpose is its own inverse.


@dataclass(frozen=True)
class Shuffle:
    """dst = one two-source shuffle of a and b, as the model defines it (see shuffle()):
    'lo64' / 'hi64' take the low / high 64-bit element of each 128-bit chunk of a and b
    (unpacklo/unpackhi_epi64, NEON ZIP1/ZIP2); 'even128' / 'odd128' take the even / odd 128-bit
    chunks of a, then those of b (vperm2i128, vshufi64x2)."""
    dst: str
    kind: str
    a: str
    b: str


def shuffle(kind, a, b):
    """The result of one Shuffle on vectors given as lists of 64-bit elements."""
    n = len(a)
    if kind in ("lo64", "hi64"):
        e = 0 if kind == "lo64" else 1
        return [(a if k % 2 == 0 else b)[k - k % 2 + e] for k in range(n)]
    chunks = [(v[2 * c], v[2 * c + 1]) for v in (a, b) for c in range(n // 2)]
    first = 0 if kind == "even128" else 1
    picked = [chunks[c] for c in range(first, n, 2)]   # a's chunks are 0 .. n/2 - 1
    return [w for chunk in picked for w in chunk]


def chunk_select(kind, n):
    """(source, chunk) per output 128-bit chunk of an even128 / odd128 shuffle of n-element
    vectors: the source of the immediates below."""
    first = 0 if kind == "even128" else 1
    return [(src, c) for src in ("a", "b") for c in range(first, n // 2, 2)]


def chunk_imm(kind, n):
    """The immediate that makes the ISA's 128-bit-chunk shuffle do `kind` on n-element vectors:
    vperm2i128 (n = 4) codes each output chunk as 0/1 (a's) or 2/3 (b's) in bits 0-1 and 4-5;
    vshufi64x2 (n = 8) takes output chunks 0-1 from a and 2-3 from b, two bits each."""
    sel = chunk_select(kind, n)
    if n == 4:
        code = [(0 if src == "a" else 2) + c for src, c in sel]
        return code[0] | code[1] << 4
    if n == 8:
        return sum(c << (2 * k) for k, (_, c) in enumerate(sel))
    raise ValueError(f"no 128-bit chunk shuffle for {n} elements")


@dataclass(frozen=True)
class Transpose:
    """The network: inputs T0 .. T{n-1}, the ops in order, outputs[k] the name holding row k of
    the transposed matrix. Every name is assigned once."""
    n: int
    ops: tuple
    outputs: tuple

    @property
    def temporaries(self):
        return tuple(op.dst for op in self.ops)

    def ops_for(self, count):
        """The ops outputs 0 .. count - 1 depend on, in order: what a group of `count` < n
        lanes needs (the other outputs would only be xored in as zeros)."""
        producer = {op.dst: op for op in self.ops}
        needed, todo = set(), list(self.outputs[:count])
        while todo:
            name = todo.pop()
            if name in producer and name not in needed:
                needed.add(name)
                todo += [producer[name].a, producer[name].b]
        return tuple(op for op in self.ops if op.dst in needed)


def transpose(n):
    """An n x n transpose of 64-bit words (n a power of two, 2..8) in log2(n) levels of n
    shuffles: 64-bit elements within 128-bit chunks first (lo64/hi64), then 128-bit chunks by
    even/odd halving. Checked by simulation before it is returned."""
    if n < 2 or n & (n - 1) or n > 8:
        raise ValueError(f"no transpose for {n} instances")
    ops = []
    rows = [f"T{j}" for j in range(n)]
    # Level 1: row 2p + e of the result holds, in chunk c, element 2c + e of rows 2p, 2p + 1.
    level = []
    for p in range(n // 2):
        for e, kind in enumerate(("lo64", "hi64")):
            name = f"U1_{2 * p + e}"
            ops.append(Shuffle(name, kind, rows[2 * p], rows[2 * p + 1]))
            level.append(name)
    # Chunk levels: for each e the vectors level[2q + e] form an (n/2) x (n/2) matrix of
    # chunks; halving into even and odd chunks log2(n/2) times transposes it.
    groups = {e: [level[2 * q + e] for q in range(n // 2)] for e in (0, 1)}
    for depth in range(2, 2 + (n // 2).bit_length() - 1):
        for e in (0, 1):
            m = len(groups[e])
            nxt = [None] * m
            for i in range(m // 2):
                for half, kind in enumerate(("even128", "odd128")):
                    name = f"U{depth}_{e}_{half * (m // 2) + i}"
                    ops.append(Shuffle(name, kind, groups[e][2 * i], groups[e][2 * i + 1]))
                    nxt[half * (m // 2) + i] = name
            groups[e] = nxt
    # Output k = 2c + e: chunk c of the transposed chunk matrix of e.
    outputs = tuple(groups[k % 2][k // 2] for k in range(n))
    net = Transpose(n, tuple(ops), outputs)
    check_transpose(net)
    return net


def run_transpose(net, rows):
    """The network applied to n rows (lists of n values): the n output vectors."""
    values = {f"T{j}": list(rows[j]) for j in range(net.n)}
    for op in net.ops:
        values[op.dst] = shuffle(op.kind, values[op.a], values[op.b])
    return [values[name] for name in net.outputs]


def check_transpose(net):
    rows = [[(j, k) for k in range(net.n)] for j in range(net.n)]
    got = run_transpose(net, rows)
    want = [[(j, k) for j in range(net.n)] for k in range(net.n)]
    if got != want:
        raise AssertionError(f"transpose network for {net.n} is wrong: {got}")


@dataclass(frozen=True)
class ChunkTranspose:
    """n separate states' lanes f .. f + n - 1 and the n lane vectors, through 128-bit chunks:
    vector X<p>_<k> holds, in chunk q, lanes f + 2k and f + 2k + 1 of state p + 2q (one
    unaligned 128-bit load or store per chunk, which the load and store ports do, not the
    shuffle port), and one level of lo64/hi64 shuffles between them and the lanes: half the
    shuffles of the full network at n = 4, where a 128-bit chunk move is an insert or extract
    that also runs on other ports. `chunks[name]`: the (state, lane offset) of each chunk;
    `to_lanes` / `to_chunks`: the shuffles each way; `lanes[k]`: the vector of lane f + k."""
    n: int
    chunks: tuple
    to_lanes: tuple
    lanes: tuple
    to_chunks: tuple

    @property
    def temporaries(self):
        return tuple(name for name, _ in self.chunks) + self.lanes


def chunk_transpose(n):
    """The ChunkTranspose for n = 2, 4 or 8 states, checked by simulation."""
    if n not in (2, 4, 8):
        raise ValueError(f"no chunk transpose for {n} instances")
    chunks, to_lanes, to_chunks, lanes = [], [], [], []
    for k in range(n // 2):
        for p in (0, 1):
            chunks.append((f"X{p}_{k}", tuple((p + 2 * q, 2 * k) for q in range(n // 2))))
        for e, kind in enumerate(("lo64", "hi64")):
            to_lanes.append(Shuffle(f"L{2 * k + e}", kind, f"X0_{k}", f"X1_{k}"))
            lanes.append(f"L{2 * k + e}")
        for p, kind in enumerate(("lo64", "hi64")):
            to_chunks.append(Shuffle(f"X{p}_{k}", kind, f"L{2 * k}", f"L{2 * k + 1}"))
    plan = ChunkTranspose(n, tuple(chunks), tuple(to_lanes), tuple(lanes), tuple(to_chunks))
    check_chunk_transpose(plan)
    return plan


# The x-N kernels that load and store separate states through 128-bit chunks; the others run
# the block loops' full network. x8 keeps the network: its chunk form costs 24 inserts and
# 24 extracts on the two 512-bit ports where the network costs 24 shuffles on one, and measured
# slower (keccak_f1600_x8_states, median TSC cycles per call on a Xeon family 6 model 167,
# 2026-12-06: gcc 12 1034 against 996, clang 14 1041 against 1027).
SEPARATE_CHUNKS = {"x2-avx512vl", "x4-avx2", "x4-avx512vl"}


def separate_chunks(isa_name, n):
    """The ChunkTranspose an x-N kernel on this ISA loads separate states with, or None."""
    return chunk_transpose(n) if f"x{n}-{isa_name}" in SEPARATE_CHUNKS else None


def check_chunk_transpose(plan):
    """Both directions simulated on (state, lane) labels."""
    n = plan.n
    values = {name: [(s, off + e) for s, off in where for e in (0, 1)]
              for name, where in plan.chunks}
    for op in plan.to_lanes:
        values[op.dst] = shuffle(op.kind, values[op.a], values[op.b])
    got = [values[name] for name in plan.lanes]
    if got != [[(j, k) for j in range(n)] for k in range(n)]:
        raise AssertionError(f"chunk transpose for {n} is wrong: {got}")
    values = {name: [(j, k) for j in range(n)] for k, name in enumerate(plan.lanes)}
    for op in plan.to_chunks:
        values[op.dst] = shuffle(op.kind, values[op.a], values[op.b])
    for name, where in plan.chunks:
        if values[name] != [(s, off + e) for s, off in where for e in (0, 1)]:
            raise AssertionError(f"chunk transpose for {n} stores {name} wrong")


@dataclass(frozen=True)
class Group:
    """N consecutive lanes of a block: lanes first .. first + N - 1 (those below 25 exist).
    `full`: all N exist; `tails`: the lane counts t < N a rate can leave in this group (the
    rate first + t exists), loaded or stored partially."""
    index: int
    first: int
    lanes: tuple
    full: bool
    tails: tuple


def block_groups(n, lanes=keccak.LANES):
    """The groups a block of up to 25 lanes splits into on an x-N kernel. A rate of r lanes
    uses the r // n full groups and, when n does not divide r, group r // n with its first
    r % n lanes (the others read as zero, so xoring them in would change nothing)."""
    out = []
    for g in range((lanes + n - 1) // n):
        first = g * n
        have = tuple(range(first, min(first + n, lanes)))
        out.append(Group(g, first, have, len(have) == n,
                         tuple(t for t in range(1, n) if first + t <= lanes)))
    return tuple(out)


def partial_access(isa_name, lanes):
    """How an x-N kernel loads or stores the first t < N lanes of a stream: 'low' (N = 2: the
    one lane is the low 64 bits, movq / LD1 of 8 bytes), 'mask' (AVX-512 opmask), 'maskvec'
    (AVX2 vpmaskmovq with a lane mask vector)."""
    if lanes == 2:
        return "low"
    if isa_name in ("avx512", "avx512vl"):
        return "mask"
    if isa_name == "avx2":
        return "maskvec"
    raise ValueError(f"no partial access for {isa_name} x{lanes}")
