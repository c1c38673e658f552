# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Keccak-p[1600] as data: the maths the templates print, derived from FIPS 202.

Nothing here renders C. Every table is computed from its definition (the LFSR for the round
constants, the (x, y) -> (y, 2x + 3y) walk for rho, the pi map), and the round schedule is a
list of ready operations: which lane is read, which rotation it takes, which chi form writes it.
"""

from dataclasses import dataclass
from functools import lru_cache

LANES = 25
WIDTH = 64
MAX_ROUNDS = 24          # 12 + 2 * log2(64)
COLUMN_LETTERS = "aeiou"  # x = 0..4, XKCP's lane naming
ROW_LETTERS = "bgkms"     # y = 0..4
IOTA_LANE = 0             # iota adds the round constant to lane (0, 0) only

# Lane complementing pattern of the Keccak team ("bebigokimisa"): the lanes stored inverted so
# that chi needs one NOT per row instead of five. The NOT count is derived below, not assumed.
BEBIGOKIMISA = frozenset(x + 5 * y for x, y in ((1, 0), (2, 0), (3, 1), (2, 2), (2, 3), (0, 4)))


def index(x, y):
    return (x % 5) + 5 * (y % 5)


def lane_name(x, y):
    return ROW_LETTERS[y % 5] + COLUMN_LETTERS[x % 5]


def rc_bit(t):
    """rc(t) of FIPS 202 algorithm 5: the LFSR x^8 + x^6 + x^5 + x^4 + 1."""
    if t % 255 == 0:
        return 1
    r = 0x01
    for _ in range(t % 255):
        r <<= 1
        if r & 0x100:
            r ^= 0x171
    return r & 1


@lru_cache(maxsize=None)
def round_constants(rounds=MAX_ROUNDS):
    """RC[ir] for ir = 0..rounds-1: bit 2^j - 1 is rc(j + 7 ir)."""
    out = []
    for ir in range(rounds):
        value = 0
        for j in range(7):
            if rc_bit(j + 7 * ir):
                value |= 1 << ((1 << j) - 1)
        out.append(value)
    return tuple(out)


@lru_cache(maxsize=None)
def rho_offsets():
    """offset[index(x, y)] from the walk (x, y) <- (y, 2x + 3y) starting at (1, 0)."""
    offsets = [0] * LANES
    x, y = 1, 0
    for t in range(24):
        offsets[index(x, y)] = ((t + 1) * (t + 2) // 2) % WIDTH
        x, y = y, (2 * x + 3 * y) % 5
    return tuple(offsets)


def pi_source(x, y):
    """pi: output lane (x, y) takes input lane (x + 3y, x)."""
    return index(x + 3 * y, x)


def theta_masks(pattern):
    """Complement mask of each lane after theta, for a state stored with `pattern` inverted."""
    column = [sum(1 for y in range(5) if index(x, y) in pattern) & 1 for x in range(5)]
    d = [column[(x - 1) % 5] ^ column[(x + 1) % 5] for x in range(5)]
    return [(1 if i in pattern else 0) ^ d[i % 5] for i in range(LANES)]


@dataclass(frozen=True)
class ChiForm:
    """out = [~]a ^ ([~]b OP [~]c) on stored operands; OP is '&' or '|'."""
    op: str
    not_b: bool
    not_c: bool
    not_out: bool

    @property
    def nots(self):
        return int(self.not_b) + int(self.not_c) + int(self.not_out)


def chi_forms(ma, mb, mc, mo):
    """Both ways to compute chi's a ^ (~b & c) from operands stored with masks ma, mb, mc into
    an output stored with mask mo.

    With '&' the operands must read as ~b and c; with '|' (De Morgan) as b and ~c, which gives
    the complement of the chi term and so flips the output once more.
    """
    return (ChiForm("&", not_b=(mb == 0), not_c=(mc == 1), not_out=bool(ma ^ mo)),
            ChiForm("|", not_b=(mb == 1), not_c=(mc == 0), not_out=not (ma ^ mo)))


@dataclass(frozen=True)
class LaneIn:
    """B lane of a row: rotate(src lane ^ D[column], rot)."""
    b: str
    src: int
    d: int
    rot: int


@dataclass(frozen=True)
class ChiOut:
    """dst = [~]a ^ ([~]b OP [~]c); a, b, c name B lanes or their negated copies."""
    dst: int
    column: int
    a: str
    b: str
    c: str
    form: ChiForm


@dataclass(frozen=True)
class Row:
    inputs: tuple      # LaneIn x 5
    negated: tuple     # (copy name, B name): copies computed once as ~B and shared
    outputs: tuple     # ChiOut x 5
    parity_init: bool  # the first row starts the next round's column parities, others add


def _row_outputs(names, masks, out_masks, copies, y):
    """Outputs of one chi row given which B lanes also exist negated; returns (nots, outs)."""
    total = len(copies)
    outs = []
    for x in range(5):
        a, b, c = x, (x + 1) % 5, (x + 2) % 5
        best = None
        for form in chi_forms(masks[a], masks[b], masks[c], out_masks[x]):
            # A NOT on an operand that has a negated copy is free: read the copy instead.
            use_b = form.not_b and b in copies
            use_c = form.not_c and c in copies
            use_a = form.not_out and a in copies
            f = ChiForm(form.op, form.not_b and not use_b, form.not_c and not use_c,
                        form.not_out and not use_a)
            pick = (f.nots, f.op != "&", f,
                    ("n" if use_a else "") + names[a], ("n" if use_b else "") + names[b],
                    ("n" if use_c else "") + names[c])
            if best is None or pick[:2] < best[:2]:
                best = pick
        total += best[0]
        outs.append(ChiOut(dst=index(x, y), column=x, a=best[3], b=best[4], c=best[5], form=best[2]))
    return total, tuple(outs)


def round_rows(pattern):
    """The rho-pi-chi part of one round, one Row per output plane y, with the fewest NOTs.

    The state keeps `pattern` lanes inverted at every round boundary. Per row, every subset of
    the five B lanes is tried as 'also kept negated' (one NOT each, shared by the outputs that
    want it), the way the Keccak team's hand-written code reads ~Bko twice for one NOT.
    """
    masks = theta_masks(pattern)
    rho = rho_offsets()
    rows = []
    for y in range(5):
        inputs = []
        for x in range(5):
            src = pi_source(x, y)
            inputs.append(LaneIn(b="B" + COLUMN_LETTERS[x], src=src, d=src % 5, rot=rho[src]))
        names = [i.b for i in inputs]
        b_masks = [masks[i.src] for i in inputs]
        out_masks = [1 if index(x, y) in pattern else 0 for x in range(5)]
        best = None
        # Without complementing, the textbook a ^ (~b & c) is one ANDN where the ISA has it;
        # sharing negated copies would only pay on machines without it.
        for subset in (range(32) if pattern else (0,)):
            copies = {x for x in range(5) if subset >> x & 1}
            nots, outs = _row_outputs(names, b_masks, out_masks, copies, y)
            used = {o for out in outs for o in (out.a, out.b, out.c) if o.startswith("n")}
            negated = tuple(("n" + names[x], names[x]) for x in sorted(copies)
                            if "n" + names[x] in used)
            nots = nots - len(copies) + len(negated)
            if best is None or nots < best[0]:
                best = (nots, negated, outs)
        rows.append(Row(tuple(inputs), best[1], best[2], parity_init=(y == 0)))
    return tuple(rows)


def nots_per_round(pattern):
    return sum(len(row.negated) + sum(o.form.nots for o in row.outputs)
               for row in round_rows(pattern))


def set_sequence(unroll):
    """Lane sets s_0 .. s_unroll for one pass of the unrolled loop body.

    Round k reads s_k and writes s_{k+1}; s_0 = s_unroll = 'A' so the loop needs no copies.
    Even unroll: ping-pong A/E. Odd unroll >= 3: the last round before closing goes through a
    third set I. Unroll 1 is the one body that must read and write the same set: it writes E
    and renames back, which compilers resolve into register moves.
    """
    if unroll == 1:
        return ["A", "E"]
    seq = ["A" if k % 2 == 0 else "E" for k in range(unroll)] + ["A"]
    if unroll % 2:
        seq[unroll - 1] = "I"
    return seq


def divisors(n):
    return [d for d in range(1, n + 1) if n % d == 0]


@dataclass(frozen=True)
class Entry:
    position: int   # round of the loop body to jump to
    base: int       # round index of the body's first round on that pass


# Round counts that get a block loop with the state held across blocks: Keccak-f (SHA-3,
# SHAKE) and the 12 rounds of TurboSHAKE and KangarooTwelve.
ABSORB_ROUNDS = (24, 12)


@dataclass(frozen=True)
class Schedule:
    """Everything a scalar Keccak-p[1600] kernel needs to be printed."""
    unroll: int
    pattern: frozenset
    sets: tuple           # lane-set names used, in order of first use
    steps: tuple          # (position, src set, dst set) per round of the loop body
    closing_copy: bool    # unroll 1: dst set renamed back to A at the end of the body
    rows: tuple
    round_constants: tuple
    lane_names: tuple
    entry_sets: tuple     # entry_sets[p]: set holding the state when entering at position p
    fused_parity: bool    # theta's column parities accumulated while chi writes the lanes

    @property
    def complemented(self):
        return sorted(self.pattern)

    @property
    def absorb_order(self):
        """(lane count, lane name, byte offset) from lane 24 down to lane 0: the cases of a
        switch that xors the first `lane count` lanes of a block into the state."""
        return tuple((i + 1, self.lane_names[i], 8 * i) for i in reversed(range(LANES)))

    def absorb_entry(self, start):
        """Where a block loop running rounds start..23 enters the unrolled body. Only entries
        whose round reads set A qualify: the loop xors each block into A."""
        position = start % self.unroll
        if self.entry_sets[position] != "A":
            raise ValueError(f"rounds from {start} enter unroll {self.unroll} outside set A")
        return Entry(position=position, base=start - position)


def schedule(unroll, lane_complement, fused_parity=True, rounds=MAX_ROUNDS):
    if rounds % unroll:
        raise ValueError(f"unroll {unroll} does not divide {rounds} rounds")
    pattern = BEBIGOKIMISA if lane_complement else frozenset()
    seq = set_sequence(unroll)
    steps = tuple((k, seq[k], seq[k + 1]) for k in range(unroll))
    used = tuple(dict.fromkeys(seq))
    return Schedule(
        unroll=unroll,
        pattern=pattern,
        sets=used,
        steps=steps,
        closing_copy=(unroll == 1),
        rows=round_rows(pattern),
        round_constants=tuple(round_constants(MAX_ROUNDS)),
        lane_names=tuple(lane_name(i % 5, i // 5) for i in range(LANES)),
        entry_sets=tuple(seq[:unroll]),
        fused_parity=fused_parity,
    )


# --- Bit interleaving (32-bit targets) ------------------------------------------------------
#
# The Keccak team's technique for 32-bit machines: each 64-bit lane is held as two 32-bit
# words, the even-numbered bits of the lane in one ("word 0") and the odd-numbered bits in the
# other ("word 1"). A 64-bit rotation by r then becomes two 32-bit rotations: by r/2 on each
# word when r is even; when r is odd the words also trade places, bit 2j of the lane landing
# on bit 2(j + (r-1)/2) + 1, so the odd word takes the even one rotated by (r-1)/2 and the
# even word takes the odd one rotated by (r+1)/2. Nothing else in a round moves bits between
# positions, so theta's xors, chi and iota act on each word alone.

WORD = 32
HALF = WORD // 2


def interleave(lane):
    """(even word, odd word) of a 64-bit lane: bit j of word w is bit 2j + w of the lane."""
    words = [0, 0]
    for bit in range(WIDTH):
        if lane >> bit & 1:
            words[bit & 1] |= 1 << (bit >> 1)
    return tuple(words)


def deinterleave(words):
    lane = 0
    for bit in range(WIDTH):
        if words[bit & 1] >> (bit >> 1) & 1:
            lane |= 1 << bit
    return lane


def interleaved_rotation(r):
    """A 64-bit rotation left by r as (source word, 32-bit rotation) for words 0 and 1."""
    r %= WIDTH
    if r % 2 == 0:
        return ((0, (r // 2) % WORD), (1, (r // 2) % WORD))
    return ((1, ((r + 1) // 2) % WORD), (0, ((r - 1) // 2) % WORD))


@lru_cache(maxsize=None)
def interleaved_round_constants(rounds=MAX_ROUNDS):
    return tuple(interleave(rc) for rc in round_constants(rounds))


def delta_swaps():
    """(mask, shift) steps that sort one 32-bit word's even bits into its low half and its odd
    bits into its high half: bit p of the word goes to bit (p >> 1) | (p & 1) << 4, a rotation
    right of its 5-bit index. Each step swaps two adjacent index bits k, k+1 (the bits whose
    index has bit k set and bit k+1 clear trade places with those 2^k above), k = 0..3; each
    step is its own inverse, so running them backwards undoes the sort.

        t = (x ^ (x >> shift)) & mask;  x ^= t ^ (t << shift);
    """
    out = []
    for k in range(4):
        mask = sum(1 << p for p in range(WORD) if p >> k & 1 and not p >> (k + 1) & 1)
        out.append((mask, 1 << k))
    return tuple(out)


@dataclass(frozen=True)
class LaneLayout:
    """How a 64-bit lane is held in C variables: the word suffixes, their C type, the rotate
    macro, and for each rotation amount 0..63 the (source word, amount) of each word."""
    name: str
    words: tuple
    ctype: str
    rol: str
    rotations: tuple


@lru_cache(maxsize=None)
def lane_layout(name):
    if name == "plain":
        return LaneLayout("plain", ("",), "uint64_t", "RS_ROL64",
                          tuple(((0, r),) for r in range(WIDTH)))
    if name == "interleaved":
        return LaneLayout("interleaved", ("0", "1"), "uint32_t", "RS_ROL32",
                          tuple(interleaved_rotation(r) for r in range(WIDTH)))
    raise ValueError(f"unknown lane layout '{name}'")
