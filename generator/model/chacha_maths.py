# SPDX-License-Identifier: Apache-2.0 OR MIT
"""ChaCha as data: the maths the templates print, from Bernstein's definition.

Nothing here renders C. The quarter round is a list of (add, xor, rotate) steps; a double round
is the column set then the diagonal set, both derived from the 4x4 word grid; a schedule says
in which order the 48 operations of a double round are issued; a rotation strategy says how
each of the four rotation amounts is carried out on a given instruction set. Templates receive
the resulting list of ready operations and only print it.
"""

from dataclasses import dataclass

WORDS = 16
WORD_BITS = 32
BLOCK_BYTES = 64
MAX_ROUNDS = 20
BUILT_ROUNDS = (8, 12, 20)

# "expand 32-byte k" and "expand 16-byte k" read as four little-endian words.
SIGMA = b"expand 32-byte k"
TAU = b"expand 16-byte k"

# One quarter round on (a, b, c, d): four steps "p += q; r ^= p; r <<<= n", named by position.
QUARTER_STEPS = (("a", "b", "d", 16), ("c", "d", "b", 12), ("a", "b", "d", 8),
                 ("c", "d", "b", 7))
ROTATIONS = tuple(step[3] for step in QUARTER_STEPS)

# Schedules: how the four independent quarter rounds of one half round are interleaved.
#   seq  one quarter round after another (the textbook order, longest dependency chains)
#   step all four quarter rounds advanced one operation at a time (widest independent work)
#   pair quarter rounds 0,1 interleaved step by step, then 2,3 (half the live temporaries)
SCHEDULES = ("seq", "step", "pair")


# The one-block path that a vector variant keeps for tails and single-block calls issues its
# quarter rounds step by step whatever the vector schedule: in scalar registers the four
# chains must be interleaved to fill the ALUs, and no register pressure argues otherwise.
# Measured fastest single block with both gcc and clang on Zen 5 (about 5% over seq and pair).
ONE_BLOCK_SCHEDULE = "step"


def columns():
    """Word indices of the four column quarter rounds: (i, 4 + i, 8 + i, 12 + i)."""
    return tuple(tuple(4 * row + i for row in range(4)) for i in range(4))


def diagonals():
    """Word indices of the four diagonal quarter rounds: row r is shifted left by r.

    In the block-parallel layout (one vector per state word, one block per lane) this is only
    a renaming of the words the quarter rounds read: no lane ever moves between rounds.
    """
    return tuple(tuple(4 * row + (i + row) % 4 for row in range(4)) for i in range(4))


def word_words():
    """Little-endian word values of the two constants, for the templates' tables."""
    return (tuple(int.from_bytes(SIGMA[4 * i:4 * i + 4], "little") for i in range(4)),
            tuple(int.from_bytes(TAU[4 * i:4 * i + 4], "little") for i in range(4)))


@dataclass(frozen=True)
class Op:
    """One vector or scalar operation on state words: dst = dst OP src, or dst <<<= amount."""
    kind: str       # "add", "xor", "rotl"
    dst: int
    src: int = -1
    amount: int = 0
    method: str = ""  # for rotl: "shift" (shift-or), "shuffle" (byte shuffle), "rol"


def quarter_ops(words):
    """The 12 operations of one quarter round on the four word indices `words`, as 4 steps."""
    pos = dict(zip("abcd", words))
    return tuple((Op("add", pos[p], pos[q]), Op("xor", pos[r], pos[p]), Op("rotl", pos[r],
                                                                          amount=n))
                 for p, q, r, n in QUARTER_STEPS)


def half_round(sets, schedule):
    """The 48 operations of one half round (four quarter rounds) in the schedule's order."""
    qrs = [quarter_ops(words) for words in sets]
    if schedule == "seq":
        return tuple(op for qr in qrs for step in qr for op in step)
    if schedule == "step":
        return tuple(qr[s][k] for s in range(4) for k in range(3) for qr in qrs)
    if schedule == "pair":
        out = []
        for group in (qrs[:2], qrs[2:]):
            out += [qr[s][k] for s in range(4) for k in range(3) for qr in group]
        return tuple(out)
    raise ValueError(f"unknown schedule '{schedule}'")


# What each rotation strategy does for each amount. A byte shuffle only moves whole bytes, so
# it serves 16 and 8; 12 and 7 stay shift-or. vprold (AVX-512F, and VL for narrow vectors)
# rotates any amount in one instruction.
# On NEON ("tbl"), 16 is a swap of the 16-bit halves of each word (REV32 on 16-bit elements),
# 8 a byte table lookup (TBL, with the same index table as pshufb), and 12 and 7 a shift left
# then SRI, which inserts the bits shifted out ("shift" on NEON is SHL + SRI for every amount).
STRATEGIES = {
    "shift": {16: "shift", 12: "shift", 8: "shift", 7: "shift"},
    "pshufb": {16: "shuffle", 12: "shift", 8: "shuffle", 7: "shift"},
    "vprold": {16: "rol", 12: "rol", 8: "rol", 7: "rol"},
    "tbl": {16: "rev", 12: "shift", 8: "shuffle", 7: "shift"},
    # WebAssembly SIMD128: i8x16.shuffle with constant indices for 16 and 8 (engines lower it
    # to one byte shuffle), i32x4 shifts and an or for 12 and 7.
    "shuffle": {16: "shuffle", 12: "shift", 8: "shuffle", 7: "shift"},
}


def rotation_method(strategy, amount):
    return STRATEGIES[strategy][amount]


def byte_shuffle(amount):
    """pshufb indices of one 128-bit lane that rotate each little-endian 32-bit word left by
    `amount` (a multiple of 8): output byte i of a word comes from byte (i - amount/8) mod 4."""
    if amount % 8:
        raise ValueError("a byte shuffle only rotates by whole bytes")
    k = amount // 8
    return tuple(4 * w + (i - k) % 4 for w in range(4) for i in range(4))


def with_method(ops, strategy):
    return tuple(Op(op.kind, op.dst, op.src, op.amount, rotation_method(strategy, op.amount))
                 if op.kind == "rotl" else op for op in ops)


def double_round(schedule, strategy="shift"):
    """Column round then diagonal round, as one list of ready operations."""
    return with_method(half_round(columns(), schedule) + half_round(diagonals(), schedule),
                       strategy)


def interleave(ops, states):
    """`states` independent block sets issued op by op: words of set s are 16 s .. 16 s + 15.

    One quarter round is a single dependency chain of 12 operations, so a half round exposes
    only four chains; on a core with more vector pipes than that, a second independent set of
    blocks fills them (at the price of twice the registers: 32 on AVX-512, none spare).
    """
    return tuple(Op(op.kind, op.dst + WORDS * s, op.src + WORDS * s if op.src >= 0 else -1,
                    op.amount, op.method) for op in ops for s in range(states))


# Words that differ between the blocks of one block-parallel call: the counter. Word 13 only
# differs when word 12 wraps inside the call, and the RFC 8439 layout never varies it, but
# treating it as varying always keeps a single code path.
LANE_VARYING = frozenset({12, 13})


def split_uniform(ops, varying=LANE_VARYING):
    """Split the first double round into scalar operations, identical for every block of a
    call, and the vector operations that remain, in order.

    Column quarter rounds 2 and 3 never touch the counter, so in the first half round they are
    the same in every lane: computing them once in scalar registers and broadcasting the result
    saves a quarter of that half round's vector work. A word stops being scalar as soon as a
    vector operation reads it, so every broadcast holds the value that operation must see.
    """
    vector_words = set(varying)
    scalar, vector = [], []
    for op in ops:
        reads = {op.dst} | ({op.src} if op.src >= 0 else set())
        if reads & vector_words:
            vector_words |= reads
            vector.append(op)
        else:
            scalar.append(op)
    return tuple(scalar), tuple(vector)


# Row layout, for calls too short to fill the block-parallel paths: one vector per row of the
# 4x4 grid (a, b, c, d = words 0-3, 4-7, 8-11, 12-15), one block per 128-bit lane. A column
# quarter round is then one add, xor or rotation per row, and the diagonal round is the same
# operations after a rotation of the words inside each lane. Every block's quarter rounds form
# one chain of 12 operations per half round, so a few blocks are bound by that chain's
# latency, not by the vector ports: the rotation that turns columns into diagonals moves rows
# a, c and d, never b. b is the last row a half round writes and the first the next one reads
# (a += b); a, d and c are last used one to four operations earlier, so their word rotations
# run in the shadow of b's last steps instead of on the chain.
ROWS = "abcd"
ROW_KEEP = "b"


def row_offsets():
    """Per row, by how many words the diagonal round's lane rotation moves it left: in
    position k of every row the diagonal quarter round whose b word is b[k]."""
    keep = ROWS.index(ROW_KEEP)
    offs = set()
    for qr in diagonals():
        col = [w % 4 for w in qr]
        offs.add(tuple((col[r] - col[keep]) % 4 for r in range(4)))
    if len(offs) != 1:
        raise AssertionError("the diagonals are not one rotation per row")
    return offs.pop()


def lane_rotation(offset):
    """pshufd immediate that puts word (k + offset) % 4 of each lane in position k."""
    return sum(((k + offset) % 4) << (2 * k) for k in range(4))


def row_double_round(strategy="vprold"):
    """One double round in the row layout, as ready operations on rows 0-3 (a, b, c, d):
    the column round on the rows as they are, the rotations into the diagonal positions
    (Op "perm", amount = pshufd immediate), the same round, the rotations back. Each row's
    rotation is issued right after the operation that last reads or writes it in the half
    round."""
    offsets = row_offsets()
    half = [op for step in QUARTER_STEPS
            for op in (Op("add", ROWS.index(step[0]), ROWS.index(step[1])),
                       Op("xor", ROWS.index(step[2]), ROWS.index(step[0])),
                       Op("rotl", ROWS.index(step[2]), amount=step[3]))]
    last = {}
    for i, op in enumerate(half):
        last[op.dst] = i
        if op.src >= 0:
            last[op.src] = i

    def with_perms(sign):
        out = []
        for i, op in enumerate(half):
            out.append(op)
            out += [Op("perm", r, amount=lane_rotation(sign * offsets[r] % 4))
                    for r in sorted(last) if last[r] == i and offsets[r]]
        return out
    return with_method(tuple(with_perms(1) + with_perms(-1)), strategy)


def interleave_rows(ops, sets):
    """`sets` independent row sets (rows 4 s .. 4 s + 3) issued op by op."""
    return tuple(Op(op.kind, op.dst + 4 * s, op.src + 4 * s if op.src >= 0 else -1,
                    op.amount, op.method) for op in ops for s in range(sets))


def check_rounds(rounds):
    if rounds % 2 or not 2 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"ChaCha takes an even round count 2..{MAX_ROUNDS}, not {rounds}")
    return rounds


def shuffles_used(ops):
    return sorted({op.amount for op in ops if op.kind == "rotl" and op.method == "shuffle"})


@dataclass(frozen=True)
class Kernel:
    """Everything one family of ChaCha paths (all widths of one file) needs to be printed."""
    schedule: str
    ops: tuple              # one double round, rotations resolved for the file's strategy
    shuffles: dict          # amount -> 16 pshufb indices, for the amounts printed as shuffles
    sigma: tuple
    tau: tuple
    columns: tuple
    diagonals: tuple


def kernel(schedule, strategy):
    if schedule not in SCHEDULES:
        raise ValueError(f"unknown schedule '{schedule}'")
    ops = double_round(schedule, strategy)
    sigma, tau = word_words()
    return Kernel(schedule=schedule, ops=ops,
                  shuffles={n: byte_shuffle(n) for n in shuffles_used(ops)},
                  sigma=sigma, tau=tau, columns=columns(), diagonals=diagonals())
