# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The single-state AVX-512 Keccak-p[1600] schedule: the state held as lines, as data.

Five 512-bit registers hold the 25 lanes, five lanes each (slots 0..4; slots 5..7 carry
nothing any result reads). Every lane-moving instruction that crosses slots (vpermq) issues
on one port of the Intel cores measured, so the schedule is counted in those moves.

Theta wants slot x of every register to hold a lane of column x: the parity is then a xor
of the five registers. Chi wants, for every register, the lanes (x + 1, y) and (x + 2, y) of
its lane (x, y) in the same slot of one other register each. A line of slope c, the lanes
(x, c * x + k) for x = 0..4, is both, if c is neither 0 (a row: chi's neighbours are in the
register itself) nor a column: held slot <-> x it suits theta, held slot <-> y it suits chi.
Pi maps each line to a line (it is linear), so it is one in-register permute per register,
and a slope follows the orbit pi gives it; a round whose theta slope and whose slope after
pi are both such a slope needs, besides pi, one permute per register back from slot <-> y to
slot <-> x. The longest run of such rounds along the orbit is three (slopes 3, 2, 4 -> 1);
then slot-preserving blends move the lanes of slope 1 onto the lines of the run's first
slope. Everything here follows from keccak_maths's pi and rho; nothing prints C.
"""

from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations

from . import keccak_maths as keccak

SLOTS = 8
# Rates (lanes) whose absorbing loop gets a copy with the rate a constant: SHA3-256 and
# SHAKE256 (17), SHAKE128 (21).
CONSTANT_RATES = (17, 21)
NONE_SLOT = 7            # the index a permute reads for a slot that carries nothing


def pi_dest():
    """dest[index(x, y)]: where pi sends input lane (x, y)."""
    dest = [None] * keccak.LANES
    for x in range(5):
        for y in range(5):
            dest[keccak.pi_source(x, y)] = (x, y)
    return dest


def line(c, k):
    """Lanes (x, c * x + k), x = 0..4."""
    return frozenset((x, (c * x + k) % 5) for x in range(5))


def slope_of(lanes):
    """c if `lanes` is a line of slope c (one lane per column), else None."""
    xs = sorted(lanes)
    if [x for x, _ in xs] != list(range(5)):
        return None
    c = (xs[1][1] - xs[0][1]) % 5
    k = xs[0][1]
    return c if lanes == line(c, k) else None


def pi_image(lanes):
    dest = pi_dest()
    return frozenset(dest[keccak.index(x, y)] for x, y in lanes)


def pi_slope(c):
    """The slope pi maps lines of slope c to, or None (columns)."""
    images = {slope_of(pi_image(line(c, k))) for k in range(5)}
    assert len(images) == 1
    return images.pop()


def _good(c):
    """Theta on slope c, chi on its image, and theta again on that image, all without
    cross-register moves."""
    after = pi_slope(c)
    return c is not None and after not in (None, 0)


@lru_cache(maxsize=None)
def slope_run():
    """The longest run of consecutive good slopes along pi's orbit: the theta slope of each
    round of one period."""
    best = ()
    for start in range(5):
        run, c = [], start
        while _good(c) and c not in run:
            run.append(c)
            c = pi_slope(c)
        if len(run) > len(best):
            best = tuple(run)
    assert keccak.MAX_ROUNDS % len(best) == 0
    return best


PERIOD = len(slope_run())


def theta_lane(c, k, x):
    """The lane register k of slope c holds in slot x."""
    return (x, (c * x + k) % 5)


@dataclass(frozen=True)
class Round:
    """One round of a period. Theta reads registers A0..A4 of slope `slope`, slot x = lane
    theta_lane(slope, k, x). `rho[k]`: vprolvq counts of register k; `pi[k]`: the vpermq
    indices taking rotated A_k to B_k, each slot one row, the same in every register;
    `chi[k]` = (k1, k2): the registers holding the x + 1 and x + 2 neighbours of B_k's lanes
    in the same slots; `realign[k]` = (m, index): next round's A_m is vpermq(index, E_k),
    slot x again, in slope `after` (the period's last round regroups instead, regroup())."""
    slope: int
    after: int
    rho: tuple
    pi: tuple
    chi: tuple
    realign: tuple
    # The order theta's updates, rho and pi run through the registers, and the order the
    # chi outputs complete in (each as soon as its three inputs are out): one port does
    # every permute, so the realigning permutes start on the first chi outputs while pi's
    # last permutes still run.
    order: tuple = tuple(range(5))
    chi_order: tuple = tuple(range(5))


def _pad(idx):
    return tuple(idx) + (NONE_SLOT,) * (SLOTS - len(idx))


@lru_cache(maxsize=None)
def rounds():
    out = []
    run = slope_run()
    for i, c in enumerate(run):
        # Chi reads slot s of every register as one row, sigma[row] = s, any sigma: the one
        # that makes the most permutes of the round identities (none issued), realigning ones
        # counting except in the period's last round, which regroups instead.
        best = None
        for sigma in permutations(range(5)):
            r = _round(c, sigma)
            saved = sum(p[:5] == tuple(range(5)) for p in r.pi)
            if i < len(run) - 1:
                saved += sum(idx[:5] == tuple(range(5)) for _, idx in r.realign)
            if best is None or saved > best[0]:
                best = (saved, r)
        out.append(best[1])
    return tuple(out)


def _round(c, sigma):
    rho = keccak.rho_offsets()
    dest = pi_dest()
    after = pi_slope(c)
    counts, perms, rows = [], [], []
    for k in range(5):
        lanes = [theta_lane(c, k, x) for x in range(5)]
        counts.append(_pad([rho[keccak.index(*lane)] for lane in lanes])[:5] + (0,) * 3)
        # slot sigma[y] of B_k: the lane pi sends to row y
        by_slot = {sigma[dest[keccak.index(*lane)][1]]: (x, dest[keccak.index(*lane)])
                   for x, lane in enumerate(lanes)}
        perms.append(_pad([by_slot[s][0] for s in range(5)]))
        rows.append([by_slot[s][1] for s in range(5)])
    chi = []
    for k in range(5):
        nb = []
        for step in (1, 2):
            want = [((x + step) % 5, y) for x, y in rows[k]]
            owners = [j for j in range(5) if rows[j] == want]
            assert len(owners) == 1, (c, k, step)
            nb.append(owners[0])
        chi.append(tuple(nb))
    realign = []
    for k in range(5):
        lanes = set(rows[k])
        m = next(m for m in range(5) if line(after, m) == lanes)
        slot_of = {lane: s for s, lane in enumerate(rows[k])}
        realign.append((m, _pad([slot_of[theta_lane(after, m, x)] for x in range(5)])))
    order, chi_order = _schedule(chi)
    return Round(c, after, tuple(counts), tuple(perms), tuple(chi), tuple(realign),
                 order, chi_order)


@lru_cache(maxsize=None)
def parity_orders():
    """[round of the period] -> A0..A4 in the order they are ready, for theta's parity (the
    last two join it in the outer vpternlogq): the previous round's realigning permutes in
    the order they run, A0 (after iota's extra step) one place later; the regroup's order
    for the period's first round."""
    out = [tuple(range(5))]
    for r in rounds()[:-1]:
        ready = [r.realign[k][0] for k in r.chi_order]
        i = ready.index(0)
        if i < 4:
            ready[i], ready[i + 1] = ready[i + 1], ready[i]
        out.append(tuple(ready))
    return tuple(out)


def _schedule(chi):
    """The order of pi's permutes whose chi outputs complete soonest (the least sum of the
    positions at which each chi has its three inputs; the first such order), and the chi
    outputs by completion."""
    best = None
    for order in permutations(range(5)):
        pos = {k: i for i, k in enumerate(order)}
        done = [max(pos[k], pos[chi[k][0]], pos[chi[k][1]]) for k in range(5)]
        key = (sum(done), order)
        if best is None or key < best[0]:
            best = (key, order, tuple(sorted(range(5), key=lambda k: (done[k], k))))
    return best[1], best[2]


@dataclass(frozen=True)
class Regroup:
    """Target A_n of the period's first slope (slot x) from the last round's chi outputs
    E0..E4 (slot <-> row), which hold its five lanes in five registers:
    P = vpermt2q(E_pa, pi_, E_pb) places slots 0 and 1, Q = vpermt2q(E_qa, qi, E_qb) slots 2
    and 3, R = vpblendmq(0x0C, P, Q), and a vpermq under mask 0x10 adds slot 4 from E_last."""
    n: int
    pa: int
    pb: int
    pi: tuple
    qa: int
    qb: int
    qi: tuple
    last: int
    li: tuple


PAIR_MASK = 0b01100     # R takes Q's slots 2, 3
LAST_MASK = 0b10000     # the merging vpermq writes slot 4


@lru_cache(maxsize=None)
def regroup():
    """Moves from the last round's chi outputs back to the first slope: slot x of target A_n
    is lane (x, c0 * x + n), sitting in slot y = its row of the E whose line holds it."""
    r = rounds()[-1]
    first = slope_run()[0]
    rows = _chi_rows(r)
    where = {lane: (k, y) for k in range(5) for y, lane in enumerate(rows[k])}
    out = []
    for n in range(5):
        src = [where[theta_lane(first, n, x)] for x in range(5)]
        assert len({k for k, _ in src}) == 5
        (pa, ya), (pb, yb) = src[0], src[1]
        (qa, yc), (qb, yd) = src[2], src[3]
        last, ye = src[4]
        pi_ = _pad([ya, SLOTS + yb])
        qi = _pad([0, 0, yc, SLOTS + yd])
        li = _pad([0, 0, 0, 0, ye])
        out.append(Regroup(n, pa, pb, pi_, qa, qb, qi, last, li))
    return tuple(out)


def _chi_rows(r):
    """[k] -> the lanes of B_k (and E_k) by slot, for round r."""
    dest = pi_dest()
    regs = [[theta_lane(r.slope, k, x) for x in range(5)] for k in range(5)]
    return [[dest[keccak.index(*regs[k][i])] for i in r.pi[k][:5]] for k in range(5)]


@dataclass(frozen=True)
class Slot:
    x: int          # the slot
    lane: int       # the lane index it holds

    @property
    def mask(self):
        return 1 << self.x


def lane_slots(c):
    """[register k] -> the slots of registers of slope c with their lane indices, for the
    masked single-lane loads and stores between the state in memory and the registers (a
    lane's load or store addresses the lane pointer minus x, masked to slot x)."""
    return [[Slot(x, keccak.index(*theta_lane(c, k, x))) for x in range(5)] for k in range(5)]


def chi_slots():
    """[register k] -> the slots of the last round's chi outputs E_k with their lane
    indices, for the single-lane masked stores."""
    return [[Slot(y, keccak.index(*lane)) for y, lane in enumerate(row)]
            for row in _chi_rows(rounds()[-1])]


def body_rounds(unroll):
    """Rounds per loop pass for an asked unroll: a whole number of periods, so that the
    registers enter every pass on the first slope."""
    n = unroll
    while n % PERIOD:
        n += unroll
    assert keccak.MAX_ROUNDS % n == 0
    return n


def check():
    """Run a period on lane labels: theta's slots line up by column, chi's neighbours by row,
    pi is pi, and the blends give the first slope's layout back."""
    dest = pi_dest()
    regs = [[theta_lane(slope_run()[0], k, x) for x in range(5)] for k in range(5)]
    for r in rounds():
        assert all(regs[k][x][0] == x for k in range(5) for x in range(5))
        assert regs == [[theta_lane(r.slope, k, x) for x in range(5)] for k in range(5)]
        b = [[dest[keccak.index(*regs[k][i])] for i in r.pi[k][:5]] for k in range(5)]
        for k in range(5):
            assert [lane[1] for lane in b[k]] == [lane[1] for lane in b[0]]
            for step, j in zip((1, 2), r.chi[k]):
                assert all(b[j][s] == ((b[k][s][0] + step) % 5, b[k][s][1]) for s in range(5))
        nxt = [None] * 5
        for k, (m, idx) in enumerate(r.realign):
            nxt[m] = [b[k][i] for i in idx[:5]]
        regs = nxt
    # regs now: the last round's realigned registers; redo the regroup from E
    e = _chi_rows(rounds()[-1])
    for op in regroup():
        p = [(e[op.pa] + [None] * 3 + e[op.pb] + [None] * 3)[i] for i in op.pi]
        q = [(e[op.qa] + [None] * 3 + e[op.qb] + [None] * 3)[i] for i in op.qi]
        rr = [q[s] if PAIR_MASK >> s & 1 else p[s] for s in range(SLOTS)]
        a = [(e[op.last] + [None] * 3)[op.li[s]] if LAST_MASK >> s & 1 else rr[s]
             for s in range(SLOTS)]
        assert a[:5] == [theta_lane(slope_run()[0], op.n, x) for x in range(5)]
    return True
