# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The sponge of FIPS 202 sections 4-6 over z3 terms, for chunks of any length.

Written from the standard's text and nothing else in this repository. The state S is 25
lanes of 64 bits; byte j of the state is byte j % 8 (little-endian) of lane j // 8, the
standard's bit order (section 3.1.2 and B.1). The machine is the byte-at-a-time sponge:
absorbing byte b xors it into S at `pos` and applies f when `pos` reaches the rate r;
padding xors the function's domain byte (its suffix bits and pad10*1's first 1, section
6 and B.2) at `pos` and 0x80 at r - 1 (pad10*1's last 1); squeezing applies f first when
`pos` is r (the block is used up), then emits S's byte at `pos`.

A chunk of any length n is one closed form of that machine, unrolled by block: the bytes
up to the block's end, k = floor((n - first) / r) whole blocks, the rest. The block step
S -> f(S ^ block) repeated k times is the term `blocks(S, M, off, k)`, and f applied q
times to S is `power(S, q)`: uninterpreted functions of their arguments, so a term of the C
and a term of the specification are equal only where their arguments are (the recurrences
themselves: permute() below rewrites f(power(S, q)) to power(S, q + 1), the one fact used
of them). `check_chunk_lemma` proves the closed form equal to the byte step: absorbing n
bytes then one more is absorbing n + 1 bytes, for every state, position and n.

f is Keccak-p[1600, n_r] (n_r = 24 for SHA-3 and SHAKE, 12 for TurboSHAKE): its equality
with the standard's rounds is the kernels' proof (docs/proof.md), not this module's.
"""

import z3

L64 = z3.BitVecSort(64)
BYTES = z3.ArraySort(L64, z3.BitVecSort(8))

_POW = {}
_BLK = {}

# The lane vectors the specification hands to f, power and blocks while `recording` is on:
# the prover's cut points (sponge_api.canon matches the C's against them).
RECORDED = []
recording = [False]


# Divisions by the rate the specification makes: (x, c, q, r), and the facts defining each
# q = floor(x / c), r = x mod c (FACTS, added to the path condition). The C's divisions of a
# provably equal x take the same q, r (sponge_api.canon_div).
DIVS = []
FACTS = []


def divmod_(x, c):
    x = z3.simplify(x)
    if z3.is_bv_value(x):
        return z3.BitVecVal(x.as_long() // c, 64), z3.BitVecVal(x.as_long() % c, 64)
    for (y, d, q, r) in DIVS:
        if d == c and y.eq(x):
            return q, r
    q, r = z3.FreshConst(L64, "q"), z3.FreshConst(L64, "r")
    FACTS.extend(div_facts(x, c, q, r))
    DIVS.append((x, c, q, r))
    return q, r


class recorded:
    """The states handed to f, power and blocks inside the block are recorded as cut points
    (RECORDED)."""

    def __enter__(self):
        recording[0] = True
        return self

    def __exit__(self, *exc):
        recording[0] = False
        return False


class scope:
    """A proof's own recorded states, divisions and facts: saved on entry, restored on exit,
    so a contract proven in the middle of another proof leaves that proof's intact."""

    def __enter__(self):
        self.saved = (list(RECORDED), list(DIVS), list(FACTS), recording[0])
        RECORDED.clear()
        DIVS.clear()
        FACTS.clear()
        recording[0] = False
        return self

    def __exit__(self, *exc):
        r, d, f, rec = self.saved
        RECORDED[:] = r
        DIVS[:] = d
        FACTS[:] = f
        recording[0] = rec
        return False


# (x, c, q, r) of every division's facts, by the id of the equation: the arithmetic solver
# takes x = q c + r as the exact integer identity it is (no wrap: q = floor(x / c)).
EXACT = {}


def div_facts(x, c, q, r):
    # in 72 bits: q c + r must equal x without wrapping (else q, r are not the quotient)
    eq = z3.ZeroExt(8, x) == z3.ZeroExt(8, q) * c + z3.ZeroExt(8, r)
    EXACT[eq.get_id()] = (x, c, q, r)
    return [z3.ULT(r, c), z3.ULE(q, ((1 << 64) - 1) // c), eq]


def _if(c, a, b):
    """If(c, a, b), or the branch itself where c is a constant (the one-shot's position 0)."""
    c = z3.simplify(c)
    return a if z3.is_true(c) else b if z3.is_false(c) else z3.If(c, a, b)


def _record(arr):
    if recording[0] and not any(arr.eq(v) for v in RECORDED):
        RECORDED.append(arr)


def _pow_fn(rounds):
    if rounds not in _POW:
        _POW[rounds] = z3.Function(f"f{rounds}pow", BYTES, L64, BYTES)
    return _POW[rounds]


def _blk_fn(rounds, rate):
    key = (rounds, rate)
    if key not in _BLK:
        _BLK[key] = z3.Function(f"f{rounds}r{rate}blocks", BYTES, BYTES, L64, L64, BYTES)
    return _BLK[key]


def _is_app(t, f):
    return z3.is_app(t) and t.decl().eq(f)


def _power_parts(x, fn):
    """(X, q) where x is power(X, q) spelt If(q == 0, X, pow(X, q)) or pow(X, q); else None."""
    if z3.is_app_of(x, z3.Z3_OP_ITE):
        c, a, b = x.children()
        if _is_app(b, fn) and a.eq(b.arg(0)) and z3.simplify(c).eq(z3.simplify(b.arg(1) == 0)):
            return b.arg(0), b.arg(1)
    if _is_app(x, fn):
        return x.arg(0), x.arg(1)
    return None


def permute(S, rounds):
    """f(S), rewritten to power(X, q + 1) when S is power(X, q)."""
    fn = _pow_fn(rounds)
    _record(S)
    parts = _power_parts(S, fn)
    if parts is not None:
        return fn(parts[0], z3.simplify(parts[1] + 1))
    return fn(S, z3.BitVecVal(1, 64))


def power(S, q, rounds):
    """f applied q times (q a 64-bit term)."""
    _record(S)
    return _if(q == 0, S, _pow_fn(rounds)(S, q))


def blocks(S, rounds, rate, mem, off, k):
    """k whole blocks of M (mem) from off: S <- f(S ^ block), k times."""
    _record(S)
    return _if(k == 0, S, _blk_fn(rounds, rate)(S, mem, off, k))


def state_byte(S, j):
    """Byte j (a 64-bit term below 200) of the state."""
    return z3.Select(S, j)


def zero_state():
    return z3.K(L64, z3.BitVecVal(0, 8))


def constant(data):
    """The bytes of a constant string as an array from index 0."""
    arr = zero_state()
    for i, b in enumerate(data):
        arr = z3.Store(arr, z3.BitVecVal(i, 64), z3.BitVecVal(b, 8))
    return arr


def xor_at(S, pos, mem, off, n):
    """S with M[off .. off + n) xored at bytes pos .. pos + n (pos + n <= 200); S itself
    where M is all zeros (SP 800-185's bytepad: x ^ 0 = x)."""
    if z3.is_K(mem) and z3.is_bv_value(mem.arg(0)) and mem.arg(0).as_long() == 0:
        return S
    j = z3.BitVec("j", 64)
    inside = z3.And(z3.ULE(pos, j), z3.ULT(j - pos, n))
    return z3.Lambda([j], z3.If(inside, z3.Select(S, j) ^ z3.Select(mem, off + (j - pos)),
                                z3.Select(S, j)))


def xor_byte_at(S, pos, byte):
    """S with `byte` (8 bits) xored at byte pos (a 64-bit term below 200)."""
    j = z3.BitVec("j", 64)
    return z3.Lambda([j], z3.If(j == pos, z3.Select(S, j) ^ byte, z3.Select(S, j)))


def absorb(S, pos, mem, off, n, rate, rounds):
    """(S', pos') after absorbing the n bytes M[off ..] at pos < rate (absorbing phase)."""
    first = rate - pos
    short = z3.ULT(n, first)
    s_short = xor_at(S, pos, mem, off, n)
    s1 = permute(xor_at(S, pos, mem, off, first), rounds)
    m = n - first
    k, rem = divmod_(m, rate)
    s2 = blocks(s1, rounds, rate, mem, off + first, k)
    # k whole blocks are m - rem bytes (k r, written without the product)
    s3 = xor_at(s2, z3.BitVecVal(0, 64), mem, off + first + (m - rem), rem)
    # At a block's start the first block is a whole one: the same machine, unrolled from
    # there (the form a caller's whole-block loop meets)
    k0, rem0 = divmod_(n, rate)
    s0 = xor_at(blocks(S, rounds, rate, mem, off, k0), z3.BitVecVal(0, 64), mem,
                off + (n - rem0), rem0)
    start = pos == 0
    return (_if(start, s0, _if(short, s_short, s3)),
            _if(start, rem0, _if(short, pos + n, rem)))


def pad(S, pos, rate, domain):
    """The absorbing phase's end: the domain byte at pos, pad10*1's last bit at rate - 1;
    the squeezing phase starts with the block used up (pos = rate)."""
    s = xor_byte_at(S, pos, z3.simplify(z3.Extract(7, 0, domain)))
    return xor_byte_at(s, z3.BitVecVal(rate - 1, 64), z3.BitVecVal(0x80, 8))


def stream_byte(S, pos, i, rate, rounds):
    """Byte i of what squeezing from (S, pos), 1 <= pos <= rate, emits: byte (pos + i) of
    the stream S[0 .. r) || f(S)[0 .. r) || f(f(S))[0 .. r) ..."""
    j = pos + i
    q = z3.UDiv(j, rate)
    return state_byte(power(S, q, rounds), z3.URem(j, rate))


def squeeze_state(S, pos, n, rate, rounds):
    """(S', pos') after squeezing n bytes from (S, pos), 1 <= pos <= rate."""
    e = pos + n - 1
    q, _ = divmod_(e, rate)
    moved = z3.And(n != 0, q != 0)
    return (_if(moved, power(S, q, rounds), S),
            _if(n == 0, pos, e - q * rate + 1))


def check_chunk_lemma(rate, rounds, timeout=120000):
    """absorb(S, pos, M, off, n + 1) = byte step of absorb(S, pos, M, off, n) with M[off + n],
    for every S, pos < rate, off, n < 2^62: the closed form is the byte-at-a-time machine.
    The block recurrence is given for the one k the step needs. Returns None, a model, or
    "unknown"."""
    with scope():
        S = z3.Const("S", BYTES)
        pos, off, n = z3.BitVecs("pos off n", 64)
        mem = z3.Const("M", BYTES)
        s_n, p_n = absorb(S, pos, mem, off, n, rate, rounds)
        s_n1, p_n1 = absorb(S, pos, mem, off, n + 1, rate, rounds)
        # the byte machine's step from (s_n, p_n)
        x = xor_byte_at(s_n, p_n, z3.Select(mem, off + n))
        full = p_n + 1 == rate
        step_s = z3.If(full, permute(x, rounds), x)
        step_p = z3.If(full, z3.BitVecVal(0, 64), p_n + 1)
        # the recurrence blocks(S, k + 1) = f(blocks(S, k) ^ block k), at the k reached
        first = rate - pos
        k = z3.UDiv(n + 1 - first, rate)
        s1 = permute(xor_at(S, pos, mem, off, first), rounds)
        prev = blocks(s1, rounds, rate, mem, off + first, k - 1)
        blk = xor_at(prev, z3.BitVecVal(0, 64), mem, off + first + (k - 1) * rate,
                     z3.BitVecVal(rate, 64))
        rec = blocks(s1, rounds, rate, mem, off + first, k) == permute(blk, rounds)
        j = z3.BitVec("j", 64)
        s = z3.Solver()
        s.set("timeout", timeout)
        s.add(z3.ULT(pos, rate), z3.ULT(n, 2 ** 62), z3.ULT(off, 2 ** 62), *FACTS)
        s.add(z3.Implies(k != 0, rec))
        s.add(z3.Or(p_n1 != step_p, z3.And(z3.ULT(j, 200),
                                            z3.Select(s_n1, j) != z3.Select(step_s, j))))
        r = s.check()
        return None if r == z3.unsat else (s.model() if r == z3.sat else "unknown")
