# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The multi-buffer sponge's public functions (keccak_sponge.h's _x2/_x4/_x8: one-shot,
init/absorb/squeeze) proven, stream by stream, equal to the sponge of spec_sponge.py for
every length, memory-safe and free of undefined behaviour, by the engine of symexec.py.

The argument is sponge_api.py's induction over calls, with one specification state per
stream. R(ctx, [S_0 .. S_{N-1}], pos, phase) says the context holds N specification states
(each the standard's 200 bytes, a z3 array) sharing one position and phase: stream j's
bytes are read through its words (word i at rs_mb_lane(st, w, j) + i w; w = 1: state j at
words 25 j ..), the rate, rounds and domain are the function's. rs_mb_absorb and
rs_mb_squeeze are proven once per (streams, rate, rounds[, fixed output length]) on a
context related to symbolic states, a symbolic length and each stream's buffer its own
object of exactly that length (the caller's `in[N]`/`out[N]` an object of N pointer
cells), and are then the summaries every public function runs with: init establishes R;
absorb ends related to each stream's specification state after its own chunk; squeeze
writes each stream's specification bytes and ends related; a one-shot runs whole.

The lane helpers rs_mb_xor / rs_mb_extract are summarised, and the summaries proven on their
own for each lane stride w of the file's kernels, by induction over their three loops
(sponge_api._induct, the pointer steps of the loop bodies included). The kernels are
contracts (sponge_api's: keccak_p1600 is f, the block loops xor/permute or permute/store
whole blocks), applied to the state of the stream they are handed.
"""

import re

import z3
from pycparser import c_ast

from . import ctypes_ as T
from . import spec_sponge as SP
from . import sponge_api as A
from .symexec import BYTES, Engine, Failure, Ptr, State, Unsupported, Val, bv

STATE_BYTES = A.STATE_BYTES


def classify(name):
    """(family, streams, role) of a multi-buffer public function, or None."""
    m = re.fullmatch(r"(sha3_\d+|keccak256|shake\d+|turboshake\d+)_x([248])(_init|_absorb|"
                     r"_squeeze)?", name)
    if m is None or m.group(1) not in A.FAMILIES:
        return None
    return m.group(1), int(m.group(2)), (m.group(3) or "_oneshot")[1:]


# -- the lane helpers' summaries --

class LaneHelpers:
    """rs_mb_xor(lane, w, pos, in, len) / rs_mb_extract(lane, w, pos, out, len): byte L of a
    lane's state is byte L % 8 of its word L / 8, word i w words of 8 bytes from word 0."""

    def __init__(self, big_endian):
        self.e = 7 if big_endian else 0

    def _w(self, eng, st, v):
        return A._concrete(eng, st, v, "the lane stride")

    def xor_effect(self, eng, st, args, n):
        lane, w, pos, src = args[0], self._w(eng, st, args[1]), args[2], args[3]
        old = st.mem[lane.oid]
        if src.oid is None:
            return {lane.oid: old}
        a = z3.BitVec("a", 64)
        d = a - lane.off
        if w == 1:          # separate states: sponge_api's form, which the cut points meet
            L = d ^ self.e if self.e else d
            inside = z3.And(z3.ULT(d, STATE_BYTES), z3.ULE(pos.v, L), z3.ULT(L - pos.v, n))
        else:
            L = A._div(d, 8 * w) * 8 + ((d & 7) ^ self.e if self.e else d & 7)
            inside = z3.And(z3.ULT(d, STATE_BYTES * w), z3.ULT(z3.URem(d, 8 * w), 8),
                            z3.ULE(pos.v, L), z3.ULT(L - pos.v, n))
        srcm = st.mem[src.oid]
        return {lane.oid: z3.Lambda([a], z3.If(inside, old[a] ^ srcm[src.off + (L - pos.v)],
                                               old[a]))}

    def extract_effect(self, eng, st, args, n):
        lane, w, pos, out = args[0], self._w(eng, st, args[1]), args[2], args[3]
        if out.oid is None:
            return {}
        old = st.mem[out.oid]
        sm = st.mem[lane.oid]
        a = z3.BitVec("a", 64)
        s = pos.v + (a - out.off)
        if w == 1:
            byte = sm[lane.off + (s ^ self.e if self.e else s)]
        else:
            byte = sm[lane.off + 8 * w * z3.LShR(s, 3) + ((s & 7) ^ self.e if self.e else s & 7)]
        return {out.oid: z3.Lambda([a], z3.If(z3.ULT(a - out.off, n), byte, old[a]))}

    def extract_at_call(self, eng, st, args, n):
        """extract_effect where the stream at `lane` is a store of the standard's bytes S (a
        contract's exit, R's context): byte d of the output is S[pos + d], the same byte
        read without the context's other layers (its fields, the other streams' states, the
        padding under a later store), which would each be a case of every comparison of the
        output. Sound: the precondition (checked before) puts pos + d below 200 for every
        d < n, and on the stream's 200 bytes the memory is S (_below: the layers it skips
        write other bytes); elsewhere the proven effect itself."""
        lane, w, pos, out = args[0], self._w(eng, st, args[1]), args[2], args[3]
        off = z3.simplify(lane.off)
        if out.oid is None or w != 1 or not z3.is_bv_value(off):
            return self.extract_effect(eng, st, args, n)
        S = _below(st.mem[lane.oid], off, w)
        if S is None:
            return self.extract_effect(eng, st, args, n)
        old = st.mem[out.oid]
        a = z3.BitVec("a", 64)
        d = a - out.off
        return {out.oid: z3.Lambda([a], z3.If(z3.ULT(d, n), z3.Select(S, pos.v + d), old[a]))}

    def pre(self, eng, st, args, which):
        lane, w, pos, buf, n = args
        w = self._w(eng, st, w)
        eng.must(st, z3.And(z3.ULE(pos.v, STATE_BYTES), z3.ULE(n.v, STATE_BYTES - pos.v)),
                 "oob", f"{which}: bytes past the state's {STATE_BYTES}")
        eng.check_access(st, lane, 8 * (24 * w + 1), which == "rs_mb_xor")
        if buf.oid is None:
            eng.must(st, n.v == 0, "oob", f"{which}: a null buffer")
        else:
            eng.check_access(st, buf, n.v, which == "rs_mb_extract")
            eng.must(st, z3.BoolVal(buf.oid != lane.oid), "oob",
                     f"{which}: the buffer is the state")

    def effect(self, which):
        return self.xor_effect if which == "rs_mb_xor" else self.extract_effect

    def summary(self, which):
        effect = self.extract_at_call if which == "rs_mb_extract" else self.effect(which)
        return A.effect_summary(lambda eng, st, args: self.pre(eng, st, args, which), effect)

    def invariant(self, which):
        effect = self.effect(which)
        return lambda eng, st, node, iterate: A._induct(eng, st, node, iterate, effect,
                                                        _body_steps(node))


def _body_steps(node):
    """A for loop's steps: its `next`'s, and each `x++` of its body (a pointer walked in the
    body, once per iteration)."""
    steps = A._steps(node)
    if steps is None:
        return None

    class V(c_ast.NodeVisitor):
        def visit_UnaryOp(self, n):
            if n.op in ("p++", "++") and isinstance(n.expr, c_ast.ID):
                steps[n.expr.name] = steps.get(n.expr.name, 0) + 1
            self.generic_visit(n)
    V().visit(node.stmt)
    return steps


def prove_lane_helper(eng, which, helpers, w):
    """The summary of `which` for stride w, for every pos, length and buffer."""
    fd = eng.funcs[which]
    params, _ = eng.params(fd)
    st = State([], {}, {})
    so = eng.new_obj(st, "lanes", STATE_BYTES * w)
    pos, n = (z3.ZeroExt(56, z3.BitVec(x, 8)) for x in ("pos", "len"))
    st.pc += [z3.ULE(pos, STATE_BYTES), z3.ULE(n, STATE_BYTES - pos)]
    # a buffer of exactly `len` bytes at its object's start (no pointer is compared or
    # turned into an integer, so where it sits does not matter)
    bo = eng.new_obj(st, "in" if which == "rs_mb_xor" else "out", n,
                     writable=which == "rs_mb_extract")
    args = [Ptr(so.oid, bv(0), params[0][1]), Val(bv(w, 32), T.UINT), Val(pos, T.SIZE_T),
            Ptr(bo.oid, bv(0), params[3][1]), Val(n, T.SIZE_T)]
    eng.entry_mem = dict(st.mem)
    want = helpers.effect(which)(eng, State([], dict(st.mem), {}), args, n)
    eng.invariants[which] = helpers.invariant(which)
    try:
        for s2, _ in eng.invoke(st, fd, args):
            for oid, arr in want.items():
                A._arr_eq(eng, s2, s2.mem[oid], arr, f"{which}: differs from its summary")
            for oid, arr in st.mem.items():
                if oid not in want:
                    A._arr_eq(eng, s2, s2.mem[oid], arr, f"{which}: writes outside its summary")
    finally:
        del eng.invariants[which]


# -- a stream's state as the standard's bytes --

# The standard's bytes a stream's store wrote, by the id of the memory it made: (offset of
# word 0, stride, the bytes, the memory under it). A later view of that stream returns the
# bytes themselves, through the stores to other streams and to the fields above it.
STATE_OF = {}


def _span(w):
    """Bytes from a stream's word 0 to the end of its word 24."""
    return 8 * (24 * w + 1)


def _below(mem, off, w):
    """mem with the stores to bytes outside [off, off + span) taken off its top, and the
    stream's bytes where the top is then a stream store at off (else None)."""
    top = mem
    o = off.as_long() if z3.is_bv_value(off) else None
    while o is not None:
        if z3.is_app_of(top, z3.Z3_OP_STORE):
            i = z3.simplify(top.arg(1))
            if not z3.is_bv_value(i) or 0 <= i.as_long() - o < _span(w):
                break
            top = top.arg(0)
            continue
        got = STATE_OF.get(top.get_id())
        if got is None:
            break
        o2, w2, S, under, _ = got
        if o2 == o and w2 == w:
            return S
        # another stream's store: its words and ours are disjoint (separate states, or the
        # same group at another offset within a word)
        if w2 == w and (w == 1 and abs(o2 - o) >= STATE_BYTES or
                        w > 1 and (o2 - o) % 8 == 0 and o2 != o and abs(o2 - o) < 8 * w):
            top = under
            continue
        break
    return None


def _bounded(arr):
    """(lo, hi, byte's guard and value, the memory under it) of a store the engine bounded
    (symexec's Engine.store at a computed offset: a lambda guarded by lo <= a < hi), or
    None."""
    if not (z3.is_quantifier(arr) and arr.is_lambda() and arr.num_vars() == 1):
        return None
    b = arr.body()
    if not (z3.is_app_of(b, z3.Z3_OP_ITE) and z3.is_select(b.arg(2))):
        return None
    c = b.arg(0)
    if not (z3.is_app_of(c, z3.Z3_OP_AND) and c.num_args() == 3 and
            z3.is_app_of(c.arg(0), z3.Z3_OP_UGEQ) and z3.is_app_of(c.arg(1), z3.Z3_OP_ULT)):
        return None
    lo, hi = c.arg(0).arg(1), c.arg(1).arg(1)
    if not (z3.is_var(c.arg(0).arg(0)) and z3.is_var(c.arg(1).arg(0)) and
            z3.is_bv_value(lo) and z3.is_bv_value(hi)):
        return None
    return lo.as_long(), hi.as_long(), b, b.arg(2).arg(0)


def _trim(mem, o, w, memo):
    """mem with every layer that writes no byte of the stream at o taken out, wherever it
    lies (equal to mem on the stream's bytes): a view then reads through the stream's own
    layers only, which z3 compares with the specification's far faster."""
    def other(o2, w2):
        return o2 != o and w2 == w and (w == 1 and abs(o2 - o) >= STATE_BYTES or
                                        w > 1 and (o2 - o) % 8 == 0 and abs(o2 - o) < 8 * w)
    return _peel(mem, lambda lo, hi: hi <= o or lo >= o + _span(w), other, memo)


def _shadow(mem, o):
    """mem without the layers a separate state's store at o (all its 200 bytes) covers: the
    writes under it (the padding's, its earlier states) can never be read again."""
    return _peel(mem, lambda lo, hi: o <= lo and hi <= o + STATE_BYTES,
                 lambda o2, w2: o2 == o and w2 == 1, {})


def _peel(mem, gone, gone_state, memo):
    """mem without the stores, bounded stores and stream stores whose bytes [lo, hi) `gone`
    (or whose stream `gone_state`) says no read of the caller's reaches."""
    key = mem.get_id()
    if key in memo:
        return memo[key]
    out = mem
    if z3.is_app_of(mem, z3.Z3_OP_STORE):
        i = z3.simplify(mem.arg(1))
        under = _peel(mem.arg(0), gone, gone_state, memo)
        if z3.is_bv_value(i) and gone(i.as_long(), i.as_long() + 1):
            out = under
        elif not under.eq(mem.arg(0)):
            out = z3.Store(under, mem.arg(1), mem.arg(2))
    elif STATE_OF.get(key) is not None:
        o2, w2, S, under, _ = STATE_OF[key]
        if gone_state(o2, w2):
            out = _peel(under, gone, gone_state, memo)
    elif _bounded(mem) is not None:
        lo, hi, body, inner = _bounded(mem)
        under = _peel(inner, gone, gone_state, memo)
        if gone(lo, hi):
            out = under
        elif not under.eq(inner):
            a = z3.BitVec("a", 64)
            b = z3.substitute_vars(body, a)
            out = z3.Lambda([a], z3.If(b.arg(0), b.arg(1), z3.Select(under, a)))
    memo[key] = out
    return out


def mb_view(eng, st, p, w, write=True):
    """The stream whose word 0 is at p (word i at p + 8 w i) as the standard's 200 bytes:
    byte j is byte j % 8 of word j // 8, in the target's byte order."""
    eng.check_access(st, p, _span(w), write)
    mem = st.mem[p.oid]
    off = z3.simplify(p.off)
    got = _below(mem, off, w)
    if got is not None:
        return got
    if z3.is_bv_value(off):
        mem = _trim(mem, off.as_long(), w, {})
    e = A._e(eng)
    j = z3.BitVec("j", 64)
    at = (j ^ e) if w == 1 else 8 * w * z3.LShR(j, 3) + ((j & 7) ^ e if e else j & 7)
    return z3.Lambda([j], z3.Select(mem, p.off + at))


def mb_store(eng, st, p, w, S):
    """The standard's 200 bytes S written as the stream whose word 0 is at p."""
    a = z3.BitVec("a", 64)
    off = z3.simplify(p.off)
    d = a - off
    e = A._e(eng)
    old = st.mem[p.oid]
    if w == 1 and z3.is_bv_value(off):
        old = _shadow(old, off.as_long())
    if w == 1:
        inside, j = z3.ULT(d, STATE_BYTES), d ^ e if e else d
    else:
        inside = z3.And(z3.ULT(d, _span(w)), z3.ULT(z3.URem(d, 8 * w), 8))
        j = A._div(d, 8 * w) * 8 + ((d & 7) ^ e if e else d & 7)
    new = z3.Lambda([a], z3.If(inside, z3.Select(S, j), z3.Select(old, a)))
    if z3.is_bv_value(off):
        # (new kept alive: an id z3 frees may name another term)
        STATE_OF[new.get_id()] = (off.as_long(), w, S, old, new)
    st.mem[p.oid] = new


# -- the kernels' contracts, on the stream a state belongs to --

class Kernels:
    """keccak_p1600 / _absorb / _squeeze (sponge_api's contracts) where the state handed is
    one stream's: its bytes meet the specification's at that stream's cut points."""

    def __init__(self):
        # stream j -> its recorded states (one context per run: a public function's, or a
        # one-shot's local one; a stream is its offset from the states' start, soff)
        self.cands = {}
        self.soff = None
        self.quotients = []      # the MultiSponge's (x, c, q, r, xs)

    def canon(self, eng, st, p, S):
        for v in SP.RECORDED:
            if S.eq(v):
                return v
        off = z3.simplify(p.off)
        # the stream a state belongs to: a hint only (every candidate is proven equal
        # before it is taken), so a wrong key costs time, never soundness
        d = off.as_long() - self.soff if z3.is_bv_value(off) and self.soff is not None \
            else None
        key = d // STATE_BYTES if d is not None and d >= 0 and d % STATE_BYTES == 0 else None
        mine = self.cands.get(key, [])
        # another stream's cut points are its own states, not this one's: asking z3 to
        # tell them apart costs up to its limit a query (a model of two padded states
        # that differ is slow to find)
        theirs = [u for k, vs in self.cands.items() if k != key for u in vs]
        for v in mine + [v for v in SP.RECORDED if not any(v.eq(u) for u in mine + theirs)]:
            try:
                if not eng.feasible(st, *A.state_diff(S, v)):
                    return v
            except Unsupported:
                continue
        return S

    def collect(self, terms):
        """The (state, message, offset, count) of each block term the specification's
        expected states hold: the offsets a C's block call is matched against."""
        seen, todo = set(), list(terms)
        self.block_args = []
        while todo:
            t = todo.pop()
            if t.get_id() in seen:
                continue
            seen.add(t.get_id())
            if z3.is_quantifier(t):
                todo.append(t.body())
                continue
            if not z3.is_app(t):
                continue
            if t.num_args() == 4 and t.decl().name().endswith("blocks"):
                self.block_args.append(tuple(t.arg(i) for i in range(4)))
            todo.extend(t.children())

    def spec_off(self, eng, st, S, mem, off, k):
        """The specification's spelling of a block call's offset, where its block term has
        the same state, message and count and an offset provably equal (the C's 32-bit
        `rate - pos` against the specification's 64-bit one)."""
        for (S2, m2, o2, k2) in getattr(self, "block_args", ()):
            if S2.eq(S) and m2.eq(mem) and k2.eq(k):
                if o2.eq(off) or not eng.feasible(st, o2 != off):
                    return o2
        return off

    def blocks_call(self, eng, st, args, name, verb):
        """sponge_api._blocks_call, where a length the caller computed as k whole blocks
        (k times the rate, k a quotient defined on the path) keeps that k: no division."""
        state, rounds, lanes_n, buf, n = args
        w = A._concrete(eng, st, lanes_n, "the lane count")
        x = z3.simplify(n.v)
        k = None
        if 0 < w <= 25:
            for (_, c, q, r, xs) in self.quotients:
                if c == 8 * w and z3.simplify(xs - r).eq(x):
                    k = q
            if k is None and z3.is_app_of(x, z3.Z3_OP_BMUL) and len(x.children()) == 2:
                a, b = x.children()
                c, kk = (a, b) if z3.is_bv_value(a) else (b, a)
                # k whole blocks for any k whose bytes do not wrap (checked): floor(k c / c)
                # is k, the remainder 0. The C's own quotient (len / rate, a name the path
                # defines) as well as the specification's: every stream's block call then
                # shares one k and one `done`, where a division of each call's length would
                # give each stream fresh names, and each comparison its own queries
                if z3.is_bv_value(c) and c.as_long() == 8 * w and \
                        (any(kk.eq(q) for (_, _, q, _) in SP.DIVS) or
                         any(kk.eq(q) for (_, _, q, _, _) in self.quotients)):
                    eng.must(st, z3.ULE(kk, ((1 << 64) - 1) // (8 * w)), "ub",
                             f"{name}: a block count whose bytes wrap")
                    k = kk
        if k is None:
            return A._blocks_call(eng, st, args, name, verb)
        r = A._concrete(eng, st, rounds, "the round count")
        if buf.oid is None:
            eng.must(st, x == 0, "oob", f"{name}: a null buffer")
            return None
        o = eng.objs[buf.oid]
        eng.must(st, z3.Or(x == 0, z3.And(z3.ULE(x, o.size), z3.ULE(buf.off, o.size - x))),
                 "oob", f"{name}: blocks {verb} outside {o.name}")
        return state, buf, o, r, 8 * w, k, x

    def permute(self, eng, st, args):
        state, rounds = args
        r = A._concrete(eng, st, rounds, "the round count")
        if r not in (12, 24):
            raise Unsupported(f"a permutation of {r} rounds")
        S = self.canon(eng, st, state, mb_view(eng, st, state, 1))
        mb_store(eng, st, state, 1, SP.permute(S, r))
        return [(st, None)]

    def absorb(self, eng, st, args):
        call = self.blocks_call(eng, st, args, "keccak_p1600_absorb", "read")
        if call is None:
            return [(st, Val(bv(0), T.SIZE_T))]
        state, data, _, r, rate, k, done = call
        S = self.canon(eng, st, state, mb_view(eng, st, state, 1))
        off = self.spec_off(eng, st, S, st.mem[data.oid], z3.simplify(data.off), k)
        mb_store(eng, st, state, 1, SP.blocks(S, r, rate, st.mem[data.oid], off, k))
        return [(st, Val(done, T.SIZE_T))]

    def squeeze(self, eng, st, args):
        call = self.blocks_call(eng, st, args, "keccak_p1600_squeeze", "written")
        if call is None:
            return [(st, Val(bv(0), T.SIZE_T))]
        state, out, o, r, rate, k, done = call
        if not o.writable:
            eng.must(st, done == 0, "oob", f"keccak_p1600_squeeze: a write to {o.name}")
        S = self.canon(eng, st, state, mb_view(eng, st, state, 1))
        a = z3.BitVec("a", 64)
        d = a - out.off
        byte = SP.state_byte(SP.power(S, z3.UDiv(d, rate) + 1, r), z3.URem(d, rate))
        old = st.mem[out.oid]
        st.mem[out.oid] = z3.Lambda([a], z3.If(z3.ULT(d, done), byte, old[a]))
        mb_store(eng, st, state, 1, SP.power(S, k, r))
        return [(st, Val(done, T.SIZE_T))]

    def externs(self):
        return {"keccak_p1600": self.permute, "keccak_p1600_absorb": self.absorb,
                "keccak_p1600_squeeze": self.squeeze}


# -- the public functions --

def _memo_sat(eng, sat):
    """The engine's sat, asked once per query: the streams share their position and length,
    so a comparison of stream j's bytes asks the same arithmetic (positions, exponents,
    guards; the states themselves are matched syntactically) as stream 0's, on the same
    path. Sound: the key is the query's formulas themselves (z3 shares a term's node, so the
    same formulas have the same ids, and the cache keeps them alive so no id is reused),
    and a query's answer depends on its formulas only; a model of them is a model of the
    same query asked again. z3 giving up is not kept (it raises)."""
    cache = {}

    def run(st, *extra, model=True):
        fs = tuple(st.pc) + extra
        key = (tuple(f.get_id() for f in fs), model)
        if key not in cache:
            got = _lia_first(fs, model) if run.lia_first else None
            if got is None:
                got = sat(st, *extra, model=model)
            else:
                eng.queries += 1
                got = got[0]
            cache[key] = (got, fs)
        else:
            eng.queries += 1     # counted all the same: fresh names are made from it
        return cache[key][0]
    run.lia_first = True
    return run


def _own_layers(eng, load_bytes):
    """The engine's load_bytes, where the offset is computed (the padding's lane[(pos >> 3)
    w]): read from the memory without the layers that write only bytes outside the range
    the path proves the read inside (floor .. bound: another stream's state and padding).
    Without it each stream's padding reads through every earlier stream's padding stores,
    whose guards the index does not decide, and the terms grow with the square of the
    streams. Sound: a layer that writes no byte of [floor, bound) leaves every byte there
    as it was below it, and the read is inside (the engine's own bounds, queries under the
    path); the memory itself is left as it is."""
    def run(st, p, n):
        off = z3.simplify(p.off)
        if p.oid is None or z3.is_bv_value(off):
            return load_bytes(st, p, n)
        hi = eng.bound(st, p, n)
        if hi is None:
            return load_bytes(st, p, n)
        lo, hi = eng.floor(st, p).as_long(), hi.as_long()
        mem = st.mem[p.oid]
        trimmed = _peel(mem, lambda a, b: b <= lo or a >= hi,
                        lambda o2, w2: o2 + _span(w2) <= lo or o2 >= hi, {})
        if trimmed.eq(mem):
            return load_bytes(st, p, n)
        view = State(st.pc, dict(st.mem), st.env, st.ptrs)
        view.mem[p.oid] = trimmed
        return load_bytes(view, p, n)
    return run


def _lia_first(fs, model):
    """(answer,) where the query's arithmetic formulas decide it over the integers in a short
    turn, else None (the engine's own order then runs: bit-vectors for a second, the
    integers, the bit-vectors to the limit). The positions, lengths, quotients and
    exponents of the contracts' comparisons are such formulas; bit-blasting takes seconds
    on many of them (64-bit divisions by the rate), the integers milliseconds. Sound:
    to_lia is exact (each w-bit operation its value modulo 2^w, the same models), so the
    arithmetic formulas having no model means the query has none; a model of them is one
    of the query only where every formula was arithmetic, and only a yes is taken from it
    (the caller that wants a model gets the engine's)."""
    from .spec_sponge import EXACT
    from .symexec import _lia_solvers, to_lia
    lia, whole = [], True
    for f in fs:
        f = f if f.get_id() in EXACT else z3.simplify(f)
        got = to_lia([f], EXACT)
        if got is None:
            whole = False
        else:
            lia += got
    if not lia:
        return None
    s = _lia_solvers()[0]
    s.set("timeout", 500)
    s.add(*lia)
    r = s.check()
    if r == z3.unsat:
        return (None,)
    if r == z3.sat and whole and not model:
        return (True,)
    return None


FIELDS = ("rate", "pos", "rounds", "domain", "squeezing", "kernel")


class MultiSponge:
    """The obligations of one file's multi-buffer sponge under one configuration."""

    def __init__(self, unit, config):
        self.eng = Engine(unit, config.big_endian)
        self.kernels = Kernels()
        self.eng.externs.update(self.kernels.externs())
        self.eng.div_hook = self._div
        self.eng.arith_hook = self._arith
        self.quotients = self.kernels.quotients
        self.eng.memset_lambda = True
        self.eng.widen_hook = self._widen
        self.eng.sat = _memo_sat(self.eng, self.eng.sat)
        self.eng.load_bytes = _own_layers(self.eng, self.eng.load_bytes)
        self.helpers = LaneHelpers(config.big_endian)
        self.mb_t = self.eng.typedefs.get("keccak_sponge_mb")
        self.proven = None
        # (function, streams, rate, rounds, fixed length) -> True, or the Failure or
        # Unsupported its proof ended with; None while it is being proven
        self.contracts = {}
        for which, run in (("rs_mb_absorb", self.contract_absorb),
                           ("rs_mb_squeeze", self.contract_squeeze)):
            if which in self.eng.funcs:
                self.eng.summaries[which] = A.guarded(self.contracts, which, run)

    def _div(self, st, x, c):
        q, r = A.canon_div(self.eng, st, x, c)
        # the specification's own dividend where the quotient is its (else the C's)
        xs = next((y for (y, d, q2, _) in SP.DIVS if d == c and q2.eq(q)), x)
        self.quotients.append((z3.simplify(x), c, q, r, z3.simplify(xs)))
        return q, r

    def _widen(self, st, x):
        """ZeroExt(32, a - b) as ZeroExt(a) - ZeroExt(b) where the path proves b <= a: the
        C's 32-bit `rate - pos` in the specification's 64-bit spelling (z3 takes minutes
        to equate the two inside an index of the state's bytes, milliseconds without)."""
        x = z3.simplify(x)
        if not (z3.is_app_of(x, z3.Z3_OP_CONCAT) and x.num_args() == 2 and
                z3.is_bv_value(x.arg(0)) and x.arg(0).as_long() == 0 and
                x.arg(0).size() == 32):
            return x
        e = x.arg(1)
        if not (z3.is_app_of(e, z3.Z3_OP_BADD) and e.num_args() == 2):
            return x
        a, m = e.arg(0), e.arg(1)
        if not z3.is_app_of(m, z3.Z3_OP_BMUL):
            a, m = m, a
        if not (z3.is_app_of(m, z3.Z3_OP_BMUL) and m.num_args() == 2):
            return x
        c, b = m.arg(0), m.arg(1)
        if not (z3.is_bv_value(c) and c.as_long() == (1 << 32) - 1):
            return x
        if self.eng.feasible(st, z3.ULT(a, b)):
            return x
        return z3.simplify(z3.ZeroExt(32, a) - z3.ZeroExt(32, b))

    def _arith(self, st, op, x, y):
        """Where the path defines q, r as x's quotient and remainder by c: q c is x - r
        (the whole blocks' bytes as the specification writes them), and x - (x - r) is r
        (the length left after them)."""
        x, y = z3.simplify(x), z3.simplify(y)
        for (x0, c, q, r, xs) in self.quotients:
            if op == "*" and ((x.eq(q) and z3.is_bv_value(y) and y.as_long() == c) or
                              (y.eq(q) and z3.is_bv_value(x) and x.as_long() == c)):
                # q c <= x: no wrap (the division's facts), so q c = x - r exactly
                return z3.simplify(xs - r)
            if op == "-" and x0.eq(x) and (y.eq(z3.simplify(xs - r)) or
                                           z3.simplify(q * c).eq(y)):
                return r
        return None

    def widths(self):
        st = State([], {}, {})
        g = self.eng.global_obj(st, "rs_mb_width")
        if g is None:
            raise Unsupported("rs_mb_width has no definition here")
        _, oid, t = g
        return [z3.simplify(st.mem[oid][bv(i)]).as_long() for i in range(t.n)]

    def check_layout(self):
        """Unsupported unless every kernel of the file keeps separate states (w = 1): the
        interleaved layouts' kernels (KeccakP-1600-timesN) and the per-CPU choice of kernel
        (rs_mb_kernel reads the CPU) have no contracts here yet."""
        ws = sorted(set(self.widths()))
        if ws != [1]:
            raise Unsupported(f"the x-N kernels' interleaved lanes (w = {ws[1:]}) and the "
                              "per-CPU kernel choice have no contracts yet (only separate "
                              "states, w = 1)")
        return ws

    def prove_helpers(self):
        if self.proven is None:
            try:
                ws = self.check_layout()
                # the lanes' shifts and masks: the bit-vectors' own ground, where the
                # integers' first turn only adds time (measured: 20 s with it, 9 without)
                self.eng.sat.lia_first = False
                try:
                    for which in ("rs_mb_xor", "rs_mb_extract"):
                        for w in ws:
                            prove_lane_helper(self.eng, which, self.helpers, w)
                        self.eng.summaries[which] = self.helpers.summary(which)
                finally:
                    self.eng.sat.lia_first = True
                self.proven = True
            except (Failure, Unsupported) as f:
                self.proven = f
        return self.proven

    @staticmethod
    def stream_off(soff, j):
        return soff + STATE_BYTES * j                  # w = 1: separate states

    def related(self, st, oid, mb_off, soff, Ss, pos, phase, rate, rounds, domain):
        st.mem[oid] = z3.Const(f"ctx_rest{len(self.eng.objs)}", BYTES)
        for j, S in enumerate(Ss):
            mb_store(self.eng, st, Ptr(oid, bv(self.stream_off(soff, j)), None), 1, S)
        for name, v in zip(FIELDS, (rate, pos, rounds, domain, phase, 0)):
            _, t, off = self.mb_t.field(name)
            self.eng.store(st, Ptr(oid, bv(mb_off + off), t), t, A._width(v, t.bits))

    def _load_fields(self, st, mb):
        out = {}
        for name in FIELDS:
            _, t, off = self.mb_t.field(name)
            out[name] = (self.eng.load(st, Ptr(mb.oid, mb.off + off, t), t), t, off)
        return out

    def check_r(self, st, oid, mb_off, soff, spec, what):
        Ss, pos, phase, rate, rounds, dom = spec
        memo = {}
        Ss = [A.decide(self.eng, st, S, memo) for S in Ss]
        pos = A.decide(self.eng, st, pos, memo)
        x = z3.BitVec("j", 64)
        for j, S in enumerate(Ss):
            view = mb_view(self.eng, st, Ptr(oid, bv(self.stream_off(soff, j)), None), 1, False)
            got = z3.substitute_vars(view.body(), x) if z3.is_quantifier(view) else \
                z3.Select(view, x)
            self.same(st, x, [z3.ULT(x, STATE_BYTES)], got, z3.Select(S, x), what,
                      f"stream {j}'s state byte")
        f = self._load_fields(st, Ptr(oid, bv(mb_off), None))
        for name, v in zip(FIELDS, (rate, pos, rounds, dom, phase, 0)):
            c = z3.simplify(f[name][0] == A._width(v, f[name][1].bits))
            if z3.is_true(c):
                continue
            m = self.eng.sat(st, z3.Not(c))
            if m is not None:
                raise Failure("mismatch", f"{what}: the context's {name} differs from the "
                              "specification's state", m, st, [z3.Not(c)])

    # the single-state sponge's comparisons, case by case (each range the C wrote against
    # each case of the standard's byte): they read only self.eng
    same = A.Sponge.same
    check_out = A.Sponge.check_out

    def _buffers(self, st, name, N, n, writable, null):
        """The caller's array of N pointers (None when null) and each stream's object of
        exactly n bytes."""
        if null:
            return None, [None] * N
        arr = self.eng.new_obj(st, name, bv(8 * N), writable=False)
        objs = []
        for j in range(N):
            o = self.eng.new_obj(st, f"{name}[{j}]", n, writable=writable)
            st.ptrs.setdefault(arr.oid, {})[8 * j] = Ptr(o.oid, bv(0), T.Ptr(T.U8))
            objs.append(o)
        return arr, objs

    def prove(self, name):
        """Raises Failure or Unsupported; returns the paths run."""
        fam, N, role = classify(name)
        rate, rounds, domain, digest = A.FAMILIES[fam]
        fd = self.eng.funcs.get(name)
        if fd is None:
            raise Unsupported(f"{name} has no definition in this file")
        if self.eng.typedefs.get(f"keccak_sponge_x{N}") is None or self.mb_t is None:
            raise Unsupported(f"keccak_sponge_x{N} has no definition here")
        self.check_layout()
        if role != "init":            # init calls no lane helper and no contract
            got = self.prove_helpers()
            if got is not True:
                raise got
            self.ensure_contracts(N, rate, rounds, digest, role == "absorb")
        with SP.scope():
            return self._run(fd, role, N, rate, rounds, domain, digest)

    # -- rs_mb_absorb and rs_mb_squeeze, proven once per stream count, rate and rounds --

    def ensure_contracts(self, N, rate, rounds, out=None, absorb_only=False):
        for which, role, n in (("rs_mb_absorb", "absorb", None),
                               ("rs_mb_squeeze", "squeeze", out)):
            if which not in self.eng.funcs or absorb_only and role == "squeeze":
                continue
            key = (which, N, rate, rounds, n)
            if key not in self.contracts:
                self.contracts[key] = None
                try:
                    with SP.scope():
                        self._run(self.eng.funcs[which], role, N, rate, rounds, None, None,
                                  n, contract=True)
                    self.contracts[key] = True
                except (Failure, Unsupported) as f:
                    self.contracts[key] = f
            got = self.contracts[key]
            if got is not True:
                raise got

    def _contract_entry(self, st, args, which):
        eng = self.eng
        mb, sp, nv, buf, n = args
        N = A._concrete(eng, st, nv, "the stream count")
        eng.check_access(st, mb, self.mb_t.size, True)
        f = self._load_fields(st, mb)
        rate = A._concrete(eng, st, Val(f["rate"][0], f["rate"][1]), "the context's rate")
        rounds = A._concrete(eng, st, Val(f["rounds"][0], f["rounds"][1]),
                             "the context's round count")
        kernel = A._concrete(eng, st, Val(f["kernel"][0], f["kernel"][1]), "the kernel")
        if self.widths()[kernel] != 1:
            raise Unsupported(f"{which} on interleaved lanes")
        x = z3.simplify(n.v)
        got = self.contracts.get((which, N, rate, rounds, None))
        if got is not True and z3.is_bv_value(x):
            got = self.contracts.get((which, N, rate, rounds, x.as_long()), got)
        if got is not True:
            raise Unsupported(f"{which} of {N} streams at rate {rate}, {rounds} rounds is not "
                              f"proven ({got})")
        pos = z3.ZeroExt(64 - f["pos"][1].bits, f["pos"][0])
        # the specification's term where the absorb's contract stored it (a one-shot's
        # absorb then squeeze): the padding's position is then the standard's own
        _, t, off = f["pos"]
        got = A._stored_pos(st, Ptr(mb.oid, mb.off + off, t), t.size)
        pos = pos if got is None else got
        phase = f["squeezing"][0]
        eng.must(st, z3.Or(z3.And(phase == 0, z3.ULT(pos, rate)),
                           z3.And(phase == 1, z3.UGE(pos, 1), z3.ULE(pos, rate))),
                 "mismatch", f"{which}: a context outside the sponge's states (pos, phase)")
        bufs = []
        if buf.oid is None:
            eng.must(st, n.v == 0, "oob", f"{which}: a null array of nonzero length")
            bufs = [None] * N
        else:
            for j in range(N):
                b = eng.load_ptr(st, Ptr(buf.oid, buf.off + 8 * j, None), T.Ptr(T.U8))
                A.check_buffer(eng, st, b, n.v, which, write=which == "rs_mb_squeeze")
                bufs.append(b)
        eng.check_access(st, sp, STATE_BYTES * N, True)
        streams = [Ptr(sp.oid, z3.simplify(sp.off + STATE_BYTES * j), None) for j in range(N)]
        Ss = [self.kernels.canon(eng, st, p, mb_view(eng, st, p, 1)) for p in streams]
        return mb, streams, bufs, n.v, Ss, pos, phase, rate, rounds, f

    def _contract_exit(self, st, mb, streams, f, Ss, pos, phase):
        for p, S in zip(streams, Ss):
            mb_store(self.eng, st, p, 1, S)
        for name, v in (("pos", pos), ("squeezing", phase)):
            _, t, off = f[name]
            A.store_field(self.eng, st, Ptr(mb.oid, mb.off + off, t), t, v, name == "pos")

    def contract_absorb(self, eng, st, args):
        mb, streams, bufs, n, Ss, pos, phase, rate, rounds, f = self._contract_entry(
            st, args, "rs_mb_absorb")
        outs = []
        for s2, absorbing in eng.split(st, phase == 0):
            if absorbing:
                had = len(SP.FACTS)
                S2 = []
                for S, b in zip(Ss, bufs):
                    mem = s2.mem[b.oid] if b is not None and b.oid is not None else \
                        SP.zero_state()
                    s, p2 = SP.absorb(S, pos, mem, b.off if b is not None else bv(0), n,
                                      rate, rounds)
                    S2.append(s)
                s2.pc.extend(SP.FACTS[had:])
                self._contract_exit(s2, mb, streams, f, S2, p2, bv(0, 8))
            outs.append((s2, None))
        return outs

    def contract_squeeze(self, eng, st, args):
        mb, streams, bufs, n, Ss, pos, phase, rate, rounds, f = self._contract_entry(
            st, args, "rs_mb_squeeze")
        dom = z3.ZeroExt(64 - f["domain"][1].bits, f["domain"][0])
        outs = []
        for s2, squeezing in eng.split(st, phase == 1):
            had = len(SP.FACTS)
            S2 = []
            for S, b in zip(Ss, bufs):
                S0, p0 = (S, pos) if squeezing else (SP.pad(S, pos, rate, dom), bv(rate))
                if b is not None and b.oid is not None:
                    a = z3.BitVec("a", 64)
                    d = a - b.off
                    old = s2.mem[b.oid]
                    s2.mem[b.oid] = z3.Lambda([a], z3.If(
                        z3.ULT(d, n), SP.stream_byte(S0, p0, d, rate, rounds),
                        z3.Select(old, a)))
                s, p2 = SP.squeeze_state(S0, p0, n, rate, rounds)
                S2.append(s)
            s2.pc.extend(SP.FACTS[had:])
            self._contract_exit(s2, mb, streams, f, S2, p2, bv(1, 8))
            outs.append((s2, None))
        return outs

    def _run(self, fd, role, N, rate, rounds, domain, digest, fixed=None, contract=False):
        """Run fd (a public function, or rs_mb_absorb/rs_mb_squeeze as `role` where
        contract) on every case of its role; check its result against the specification."""
        eng = self.eng
        params, _ = eng.params(fd)
        ctx_t = eng.typedefs[f"keccak_sponge_x{N}"]
        mb_off, soff = ctx_t.field("mb")[2], ctx_t.field("state")[2]
        self.kernels.soff = soff
        dom_param = z3.ZeroExt(56, z3.BitVec("domain", 8))
        dom = bv(domain) if domain is not None else dom_param
        cases = 0
        for phase in ((0,) if role in ("init", "oneshot") else (0, 1)):
            for null in ((False,) if role == "init" or fixed is not None else (False, True)):
                st = State([], {}, {})
                Ss = [z3.Const(f"S{j}", BYTES) for j in range(N)]
                pos = z3.ZeroExt(56, z3.BitVec("pos", 8))
                st.pc.append(z3.ULT(pos, rate) if phase == 0 else
                             z3.And(z3.UGE(pos, 1), z3.ULE(pos, rate)))
                n = z3.BitVec("len", 64) if fixed is None else bv(fixed)
                if null:
                    st.pc.append(n == 0)
                args, ctx, bufs, env = [], None, [None] * N, {}
                if role != "oneshot":
                    ctx = eng.new_obj(st, "ctx", ctx_t.size)
                    if role != "init":
                        self.related(st, ctx.oid, mb_off, soff, Ss, pos, bv(phase, 8), rate,
                                     rounds, dom)
                    if contract:
                        args += [Ptr(ctx.oid, bv(mb_off), params[0][1]),
                                 Ptr(ctx.oid, bv(soff), params[1][1]), Val(bv(N, 32), T.UINT)]
                    else:
                        args.append(Ptr(ctx.oid, bv(0), params[0][1]))
                if role in ("absorb", "squeeze"):
                    arr, bufs = self._buffers(st, "in" if role == "absorb" else "out", N, n,
                                              role == "squeeze", null)
                    args += [Ptr(arr.oid if arr else None, bv(0), params[len(args)][1]),
                             Val(n, T.SIZE_T)]
                elif role == "init":
                    if domain is None:
                        args.append(Val(z3.Extract(7, 0, dom_param), T.U8))
                else:
                    inlen = z3.BitVec("inlen", 64)
                    if null:
                        st.pc.append(inlen == 0)
                    outn = bv(digest) if digest is not None else n
                    oarr, outs = self._buffers(st, "out", N, outn, True, False)
                    iarr, ins = self._buffers(st, "in", N, inlen, False, null)
                    args = [Ptr(oarr.oid, bv(0), params[0][1])]
                    if digest is None:
                        args.append(Val(n, T.SIZE_T))
                    args += [Ptr(iarr.oid if iarr else None, bv(0), params[len(args)][1]),
                             Val(inlen, T.SIZE_T)]
                    if domain is None:
                        args.append(Val(z3.Extract(7, 0, dom_param), T.U8))
                    env = dict(outs=outs, ins=ins, inlen=inlen, outn=outn)
                entry = dict(st.mem)
                SP.RECORDED.clear()
                SP.DIVS.clear()
                SP.FACTS.clear()
                self.kernels.cands.clear()
                self.quotients.clear()
                want = self._spec(role, bufs, entry, Ss, pos, phase, n, rate, rounds, dom, env)
                st.pc.extend(SP.FACTS)
                SP.FACTS.clear()
                self.kernels.collect(want[1][0] if want[1] is not None else [])
                for s2, _ in eng.invoke(st, fd, args):
                    cases += 1
                    outs, r = want
                    for oid, ln, byte_of in outs:
                        self.check_out(s2, oid, ln, byte_of, "the result")
                    if r is not None:
                        self.check_r(s2, ctx.oid, mb_off, soff, r, "the result")
        return cases

    def _record(self, key, f):
        """f() with the states it hands the specification recorded as the cut points of
        stream `key`: every one, those another stream recorded first as well (a one-shot's
        zero state is every stream's)."""
        saved = list(SP.RECORDED)
        SP.RECORDED.clear()
        try:
            with SP.recorded():
                out = f()
        finally:
            mine = list(SP.RECORDED)
            SP.RECORDED[:] = saved + [v for v in mine if not any(v.eq(u) for u in saved)]
        self.kernels.cands.setdefault(key, []).extend(mine)
        return out

    def _spec(self, role, bufs, entry, Ss, pos, phase, n, rate, rounds, dom, env):
        """([(object, length, byte i of it)], R's states after the call or None)."""
        N = len(Ss)
        zero = z3.K(z3.BitVecSort(64), z3.BitVecVal(0, 8))
        if role == "init":
            return [], ([SP.zero_state()] * N, bv(0), 0, rate, rounds, dom)
        for j in range(N):
            self._record(j, lambda j=j: SP._record(Ss[j]))
        if role == "absorb":
            if phase:
                return [], (Ss, pos, phase, rate, rounds, dom)
            S2, p2 = [], pos
            for j in range(N):
                mem = entry[bufs[j].oid] if bufs[j] else zero
                s, p2 = self._record(j, lambda mem=mem, j=j: SP.absorb(
                    Ss[j], pos, mem, bv(0), n, rate, rounds))
                S2.append(s)
            return [], (S2, p2, phase, rate, rounds, dom)
        if role == "squeeze":
            outs, S2 = [], []
            for j in range(N):
                def one(j=j):
                    S0, p0 = (Ss[j], pos) if phase else (SP.pad(Ss[j], pos, rate, dom),
                                                         bv(rate))
                    SP.power(S0, bv(1), rounds)
                    return S0, p0, SP.squeeze_state(S0, p0, n, rate, rounds)
                S0, p0, (s, p2) = self._record(j, one)
                if bufs[j] is not None:
                    outs.append((bufs[j].oid, n, lambda i, S0=S0, p0=p0:
                                 SP.stream_byte(S0, p0, i, rate, rounds)))
                S2.append(s)
            return outs, (S2, p2, 1, rate, rounds, dom)
        # one-shot: each stream absorbed from the zero state, padded, squeezed
        outs = []
        for j in range(N):
            mem = entry[env["ins"][j].oid] if env["ins"][j] else zero

            def one(mem=mem):
                S1, p1 = SP.absorb(SP.zero_state(), bv(0), mem, bv(0), env["inlen"], rate,
                                   rounds)
                S0 = SP.pad(S1, p1, rate, dom)
                SP.power(S0, bv(1), rounds)
                return S0
            S0 = self._record(j, one)
            outs.append((env["outs"][j].oid, env["outn"],
                         lambda i, S0=S0: SP.stream_byte(S0, bv(rate), i, rate, rounds)))
        return outs, None


# -- a counterexample's reproduction --

def pattern(j, t):
    """Byte t of stream j's message in a reproduction: each stream's differs from the others'
    (a stream reading another's bytes shows in its output)."""
    return (61 * j + 7 * t + 1) & 0xFF


def _expected(fam, N, role, pos, n, inlen, outn):
    """Each stream's output by hashlib, for the reproduction's messages, or None."""
    import hashlib
    total = inlen if role == "oneshot" else pos + (n if role == "absorb" else 0)
    name = fam.replace("shake", "shake_")
    if total > 1 << 22 or outn > 1 << 22 or not hasattr(hashlib, name):
        return None
    out = []
    for j in range(N):
        h = getattr(hashlib, name)(bytes(pattern(j, t) for t in range(total)))
        out.append(list(h.digest(outn) if fam.startswith("shake") else h.digest()))
    return out


def c_repro(name, vals):
    """C calling the folder's multi-buffer API into the counterexample's state (each stream
    its own message, `pos` bytes absorbed first) and then the failing call; it compares each
    stream's output with hashlib's for that stream's message."""
    fam, N, role = classify(name)
    rate, rounds, domain, digest = A.FAMILIES[fam]
    pos, n, inlen = vals.get("pos", 0), vals.get("len", 0), vals.get("inlen", 0)
    if role == "init":
        pos = 0                      # init's state is fresh: the model's pos is no input
    dom = vals.get("domain", 0x1F)
    darg = "" if domain is not None else f", {dom}"
    outn = digest if digest is not None else (n if role in ("oneshot", "squeeze") else 64)
    total = inlen if role == "oneshot" else pos + (n if role == "absorb" else 0)
    body = [f"static uint8_t *msg[{N}], *out[{N}];",
            f"keccak_sponge_x{N} *ctx = malloc(sizeof *ctx);",
            "if (!ctx) return 2;",
            "memset(ctx, 0xa5, sizeof *ctx);   /* a context's bytes before init are any */",
            f"for (int j = 0; j < {N}; j++) {{",
            f"    msg[j] = malloc((size_t){max(total, 1)}ULL);",
            f"    out[j] = malloc((size_t){max(outn, 1)}ULL);",
            "    if (!msg[j] || !out[j]) return 2;",
            f"    for (size_t t = 0; t < (size_t){total}ULL; t++)",
            "        msg[j][t] = (uint8_t)(61 * j + 7 * t + 1);",
            "}"]
    if role == "oneshot":
        if digest is not None:
            body.append(f"{name}(out, (const uint8_t *const *)msg, (size_t){inlen}ULL);")
        else:
            body.append(f"{name}(out, (size_t){outn}ULL, (const uint8_t *const *)msg, "
                        f"(size_t){inlen}ULL{darg});")
    else:
        body.append(f"{fam}_x{N}_init(ctx{darg});")
        if role != "init":
            body.append(f"{fam}_x{N}_absorb(ctx, (const uint8_t *const *)msg, {pos});"
                        f"   /* pos = {pos} */")
        if role == "absorb":
            body += [f"const uint8_t *rest[{N}];",
                     f"for (int j = 0; j < {N}; j++)",
                     f"    rest[j] = msg[j] + {pos};",
                     f"{name}(ctx, rest, (size_t){n}ULL);"]
        body.append(f"{fam}_x{N}_squeeze(ctx, out, (size_t){outn}ULL);")
    # After a failing squeeze, two blocks more from a buffer of their own (the call's own
    # buffer keeps its exact length, for AddressSanitizer): a state the call left wrong
    # shows in them even where the call itself wrote no byte (len 0)
    more = 2 * rate if role == "squeeze" else 0
    if more:
        body += [f"static uint8_t *more[{N}];",
                 f"for (int j = 0; j < {N}; j++)",
                 f"    if (!(more[j] = malloc({more}))) return 2;",
                 f"{fam}_x{N}_squeeze(ctx, more, {more});"]
    want = _expected(fam, N, role, pos, n, inlen, outn + more)
    if want is not None:
        for j, w in enumerate(want):
            arr = ", ".join(f"0x{b:02x}" for b in w)
            body.append(f"static const uint8_t want{j}[{len(w)}] = {{{arr}}};")
        body.append(f"static const uint8_t *const want[{N}] = {{"
                    + ", ".join(f"want{j}" for j in range(N)) + "};")
        got = "out[j][i]" if not more else "more[j][i]" if not outn else \
            f"(i < {outn} ? out[j][i] : more[j][i - {outn}])"
        body += [f"for (int j = 0; j < {N}; j++)",
                 f"    for (size_t i = 0; i < {outn + more}; i++)",
                 f"        if ({got} != want[j][i]) {{",
                 '            printf("stream %d: output byte %zu differs from the standard\'s '
                 f'(hashlib): %02x, not %02x\\n", j, i, {got}, want[j][i]);',
                 "            free(ctx);",
                 "            return 1;",
                 "        }"]
    body += ['puts("every stream\'s output is the same as the standard\'s");',
             f"for (int j = 0; j < {N}; j++) {{ free(msg[j]); free(out[j]); }}",
             *([f"for (int j = 0; j < {N}; j++) free(more[j]);"] if more else []),
             "free(ctx);",
             "return 0;"]
    return ("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n#include <string.h>\n"
            "#include \"keccak_sponge.h\"\n\nint main(void)\n{\n"
            + "".join(f"    {x}\n" for x in body) + "}\n")
