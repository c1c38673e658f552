# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The multi-buffer sponge's public functions (keccak_sponge.h's _x2/_x4/_x8: one-shot,
init/absorb/squeeze) proven, stream by stream, equal to the sponge of spec_sponge.py for
every length, memory-safe and free of undefined behaviour, by the engine of symexec.py.

The argument is sponge_api.py's induction over calls, with one specification state per
stream. R(ctx, [S_0 .. S_{N-1}], pos, phase) says the context holds N specification states
sharing one position and phase: stream j's lanes are S_j in the layout of the kernel the
context names (w = 1: state j at words 25 j ..), the rate, rounds and domain are the
function's. Each public function is run once on a context related to symbolic states, with
a symbolic length and each stream's buffer its own object of exactly that length (the
caller's `in[N]`/`out[N]` an object of N pointer cells): init establishes R; absorb ends
related to each stream's specification state after its own chunk; squeeze writes each
stream's specification bytes and ends related. A one-shot function runs whole.

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
from .symexec import BYTES, Engine, Failure, Ptr, State, Unsupported, Val, bv, sel

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
        effect = self.effect(which)

        def run(eng, st, args):
            self.pre(eng, st, args, which)
            st = st.fork()
            for oid, arr in effect(eng, st, args, args[-1].v).items():
                st.mem[oid] = arr
            return [(st, None)]
        return run

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


# -- the kernels' contracts, on the stream a state belongs to --

class Kernels:
    """keccak_p1600 / _absorb / _squeeze (sponge_api's contracts) where the state handed is
    one stream's: its lanes meet the specification's at that stream's cut points."""

    def __init__(self):
        self.cands = {}          # state's (object, offset) -> the stream's recorded vectors

    def canon(self, eng, st, p, lanes):
        lanes = [z3.simplify(x) for x in lanes]
        for v in SP.RECORDED:
            if all(a.eq(b) for a, b in zip(lanes, v)):
                return v
        off = z3.simplify(p.off)
        key = (p.oid, off.as_long() if z3.is_bv_value(off) else None)
        for v in self.cands.get(key, SP.RECORDED):
            diff = [a != b for a, b in zip(lanes, v) if not a.eq(b)]
            try:
                if not eng.feasible(st, z3.Or(*diff)):
                    return v
            except Unsupported:
                continue
        return lanes

    def blocks_call(self, eng, st, args, name, verb):
        """sponge_api._blocks_call, where a length the caller computed as k whole blocks
        (k times the rate, k a quotient defined on the path) keeps that k: no division."""
        state, rounds, lanes_n, buf, n = args
        w = A._concrete(eng, st, lanes_n, "the lane count")
        x = z3.simplify(n.v)
        if 0 < w <= 25 and z3.is_app_of(x, z3.Z3_OP_BMUL) and len(x.children()) == 2:
            a, b = x.children()
            c, k = (a, b) if z3.is_bv_value(a) else (b, a)
            if z3.is_bv_value(c) and c.as_long() == 8 * w and any(k.eq(q) for (_, _, q, _)
                                                                   in SP.DIVS):
                # floor(k r / r) = k where k r does not wrap: the quotient's own bound
                eng.must(st, z3.ULE(k, ((1 << 64) - 1) // (8 * w)), "ub",
                         f"{name}: a block count whose bytes wrap")
                r = A._concrete(eng, st, rounds, "the round count")
                if buf.oid is None:
                    eng.must(st, x == 0, "oob", f"{name}: a null buffer")
                    return None
                o = eng.objs[buf.oid]
                eng.must(st, z3.Or(x == 0, z3.And(z3.ULE(x, o.size),
                                                  z3.ULE(buf.off, o.size - x))),
                         "oob", f"{name}: blocks {verb} outside {o.name}")
                return state, buf, o, r, 8 * w, k, x
        return A._blocks_call(eng, st, args, name, verb)

    def permute(self, eng, st, args):
        state, rounds = args
        r = A._concrete(eng, st, rounds, "the round count")
        if r not in (12, 24):
            raise Unsupported(f"a permutation of {r} rounds")
        lanes = self.canon(eng, st, state, A._lanes_at(eng, st, state))
        A._store_lanes(eng, st, state, SP.permute(lanes, r))
        return [(st, None)]

    def absorb(self, eng, st, args):
        call = self.blocks_call(eng, st, args, "keccak_p1600_absorb", "read")
        if call is None:
            return [(st, Val(bv(0), T.SIZE_T))]
        state, data, _, r, rate, k, done = call
        lanes = self.canon(eng, st, state, A._lanes_at(eng, st, state))
        A._store_lanes(eng, st, state, SP.blocks(lanes, r, rate, st.mem[data.oid], data.off, k))
        return [(st, Val(done, T.SIZE_T))]

    def squeeze(self, eng, st, args):
        call = self.blocks_call(eng, st, args, "keccak_p1600_squeeze", "written")
        if call is None:
            return [(st, Val(bv(0), T.SIZE_T))]
        state, out, o, r, rate, k, done = call
        if not o.writable:
            eng.must(st, done == 0, "oob", f"keccak_p1600_squeeze: a write to {o.name}")
        lanes = self.canon(eng, st, state, A._lanes_at(eng, st, state))
        a = z3.BitVec("a", 64)
        d = a - out.off
        byte = SP.state_byte(SP.power(lanes, z3.UDiv(d, rate) + 1, r), z3.URem(d, rate))
        old = st.mem[out.oid]
        st.mem[out.oid] = z3.Lambda([a], z3.If(z3.ULT(d, done), byte, old[a]))
        A._store_lanes(eng, st, state, SP.power(lanes, k, r))
        return [(st, Val(done, T.SIZE_T))]

    def externs(self):
        return {"keccak_p1600": self.permute, "keccak_p1600_absorb": self.absorb,
                "keccak_p1600_squeeze": self.squeeze}


# -- the public functions --

class MultiSponge:
    """The obligations of one file's multi-buffer sponge under one configuration."""

    def __init__(self, unit, config):
        self.eng = Engine(unit, config.big_endian)
        self.kernels = Kernels()
        self.eng.externs.update(self.kernels.externs())
        self.eng.div_hook = self._div
        self.eng.arith_hook = self._arith
        self.quotients = []      # (the C's dividend, divisor, q, r) on the current run
        self.eng.lia_unsimplified = True
        self.eng.memset_lambda = True
        self.helpers = LaneHelpers(config.big_endian)
        self.mb_t = self.eng.typedefs.get("keccak_sponge_mb")
        self.proven = None

    def _div(self, st, x, c):
        q, r = A.canon_div(self.eng, st, x, c)
        # the specification's own dividend where the quotient is its (else the C's)
        xs = next((y for (y, d, q2, _) in SP.DIVS if d == c and q2.eq(q)), x)
        self.quotients.append((z3.simplify(x), c, q, r, z3.simplify(xs)))
        return q, r

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
        g = self.eng.globals.get("rs_mb_width")
        if g is None:
            raise Unsupported("rs_mb_width has no definition here")
        oid, t, arr = g
        return [z3.simplify(arr[bv(i)]).as_long() for i in range(t.n)]

    def check_layout(self):
        """Unsupported unless every kernel of the file keeps separate states (w = 1): the
        interleaved layouts and the per-CPU choice of kernel (rs_choice) have no relation
        and contracts here yet."""
        ws = sorted(set(self.widths()))
        if ws != [1]:
            raise Unsupported(f"the x-N kernels' interleaved lanes (w = {ws[1:]}) and the "
                              "per-CPU kernel choice are not covered yet (only separate "
                              "states, w = 1)")
        return ws

    def prove_helpers(self):
        if self.proven is None:
            try:
                ws = self.check_layout()
                for which in ("rs_mb_xor", "rs_mb_extract"):
                    for w in ws:
                        prove_lane_helper(self.eng, which, self.helpers, w)
                    self.eng.summaries[which] = self.helpers.summary(which)
                self.proven = True
            except (Failure, Unsupported) as f:
                self.proven = f
        return self.proven

    def lane_off(self, state_off, j, i):
        return state_off + 8 * (25 * j + i)           # w = 1: separate states

    def related(self, st, oid, ctx_t, Ss, pos, phase, rate, rounds, domain):
        st.mem[oid] = z3.Const(f"ctx_rest{len(self.eng.objs)}", BYTES)
        _, _, soff = ctx_t.field("state")
        for j, S in enumerate(Ss):
            A._store_lanes(self.eng, st, Ptr(oid, bv(self.lane_off(soff, j, 0)), None), S)
        self._fields(st, oid, rate, pos, rounds, domain, phase, 0, store=True)

    def _fields(self, st, oid, rate, pos, rounds, domain, phase, kernel, store=False):
        conds = []
        for name, v in (("rate", rate), ("pos", pos), ("rounds", rounds), ("domain", domain),
                        ("squeezing", phase), ("kernel", kernel)):
            _, t, off = self.mb_t.field(name)
            p = Ptr(oid, bv(off), t)
            if store:
                self.eng.store(st, p, t, A._width(v, t.bits))
            else:
                conds.append((name, self.eng.load(st, p, t) == A._width(v, t.bits)))
        return conds

    def check_r(self, st, oid, ctx_t, spec, what):
        Ss, rest = spec[0], spec[1:]
        memo = {}
        Ss = [[A.decide(self.eng, st, x, memo) for x in S] for S in Ss]
        pos = A.decide(self.eng, st, rest[0], memo)
        _, _, soff = ctx_t.field("state")
        conds = []
        for j, S in enumerate(Ss):
            got = A._lanes_at(self.eng, st, Ptr(oid, bv(self.lane_off(soff, j, 0)), None))
            conds += [(f"stream {j}'s lane {i}", x == y) for i, (x, y) in enumerate(zip(got, S))]
        conds += self._fields(st, oid, rest[2], pos, rest[3], rest[4], rest[1], 0)
        for name, c in conds:
            c = z3.simplify(c)
            if z3.is_true(c):
                continue
            m = self.eng.sat(st, z3.Not(c))
            if m is not None:
                raise Failure("mismatch", f"{what}: the context's {name} differs from the "
                              "specification's state", m, st, [z3.Not(c)])

    def check_out(self, st, oid, n, byte_of, what):
        x = z3.BitVec("i", 64)
        q = [z3.ULT(x, n), sel(st.mem[oid], x) != byte_of(x)]
        m = self.eng.sat(st, *q)
        if m is not None:
            raise Failure("mismatch", f"{what}: byte {m.eval(x, True)} of "
                          f"{self.eng.objs[oid].name} differs from the specification's",
                          m, st, q)

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
        eng = self.eng
        fd = eng.funcs.get(name)
        if fd is None:
            raise Unsupported(f"{name} has no definition in this file")
        ctx_t = eng.typedefs.get(f"keccak_sponge_x{N}")
        if ctx_t is None or self.mb_t is None:
            raise Unsupported(f"keccak_sponge_x{N} has no definition here")
        self.check_layout()
        # init calls no lane helper: its proof needs no summary
        got = self.prove_helpers() if role != "init" else True
        if got is not True:
            raise got
        params, _ = eng.params(fd)
        dom_param = z3.ZeroExt(56, z3.BitVec("domain", 8))
        dom = bv(domain) if domain is not None else dom_param
        cases = 0
        for phase in ((0,) if role in ("init", "oneshot") else (0, 1)):
            for null in ((False,) if role == "init" else (False, True)):
                st = State([], {}, {})
                Ss = [[z3.BitVec(f"S{j}_{i}", 64) for i in range(25)] for j in range(N)]
                pos = z3.ZeroExt(56, z3.BitVec("pos", 8))
                st.pc.append(z3.ULT(pos, rate) if phase == 0 else
                             z3.And(z3.UGE(pos, 1), z3.ULE(pos, rate)))
                n = z3.BitVec("len", 64)
                if null:
                    st.pc.append(n == 0)
                args, ctx, bufs, env = [], None, [None] * N, {}
                if role != "oneshot":
                    ctx = eng.new_obj(st, "ctx", ctx_t.size)
                    if role != "init":
                        self.related(st, ctx.oid, ctx_t, Ss, pos, bv(phase, 8), rate, rounds,
                                     dom)
                    args.append(Ptr(ctx.oid, bv(0), params[0][1]))
                if role in ("absorb", "squeeze"):
                    arr, bufs = self._buffers(st, "in" if role == "absorb" else "out", N, n,
                                              role == "squeeze", null)
                    args += [Ptr(arr.oid if arr else None, bv(0), params[1][1]),
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
                want = self._spec(role, bufs, entry, Ss, pos, phase, n, rate, rounds, dom, env,
                                  ctx_t, ctx)
                st.pc.extend(SP.FACTS)
                SP.FACTS.clear()
                for s2, _ in eng.invoke(st, fd, args):
                    cases += 1
                    outs, r = want
                    for oid, ln, byte_of in outs:
                        self.check_out(s2, oid, ln, byte_of, "the result")
                    if r is not None:
                        self.check_r(s2, ctx.oid, ctx_t, r, "the result")
        return cases

    def _record(self, key, f):
        """f() with the vectors it hands the specification recorded as the cut points of
        the state at key (object, offset)."""
        before = len(SP.RECORDED)
        SP.recording[0] = True
        try:
            out = f()
        finally:
            SP.recording[0] = False
        self.kernels.cands.setdefault(key, []).extend(SP.RECORDED[before:])
        return out

    def _spec(self, role, bufs, entry, Ss, pos, phase, n, rate, rounds, dom, env, ctx_t, ctx):
        """([(object, length, byte i of it)], R's states after the call or None)."""
        N = len(Ss)
        soff = ctx_t.field("state")[2]
        key = (lambda j: (ctx.oid, self.lane_off(soff, j, 0))) if ctx is not None else \
            (lambda j: (None, None))
        zero = z3.K(z3.BitVecSort(64), z3.BitVecVal(0, 8))
        if role == "init":
            return [], ([[bv(0)] * 25] * N, bv(0), 0, rate, rounds, dom)
        if role == "absorb":
            if phase:
                return [], (Ss, pos, phase, rate, rounds, dom)
            S2, p2 = [], pos
            for j in range(N):
                mem = entry[bufs[j].oid] if bufs[j] else zero
                s, p2 = self._record(key(j), lambda: SP.absorb(Ss[j], pos, mem, bv(0), n, rate,
                                                               rounds))
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
                S0, p0, (s, p2) = self._record(key(j), one)
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
                S1, p1 = SP.absorb([bv(0)] * 25, bv(0), mem, bv(0), env["inlen"], rate, rounds)
                S0 = SP.pad(S1, p1, rate, dom)
                SP.power(S0, bv(1), rounds)
                return S0
            S0 = self._record((None, None), one)
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
    want = _expected(fam, N, role, pos, n, inlen, outn)
    if want is not None:
        for j, w in enumerate(want):
            arr = ", ".join(f"0x{b:02x}" for b in w)
            body.append(f"static const uint8_t want{j}[{len(w)}] = {{{arr}}};")
        body.append(f"static const uint8_t *const want[{N}] = {{"
                    + ", ".join(f"want{j}" for j in range(N)) + "};")
        body += [f"for (int j = 0; j < {N}; j++)",
                 f"    for (size_t i = 0; i < {outn}; i++)",
                 "        if (out[j][i] != want[j][i]) {",
                 '            printf("stream %d: output byte %zu differs from the standard\'s '
                 '(hashlib): %02x, not %02x\\n", j, i, out[j][i], want[j][i]);',
                 "            free(ctx);",
                 "            return 1;",
                 "        }"]
    body += ['puts("every stream\'s output is the standard\'s");',
             f"for (int j = 0; j < {N}; j++) {{ free(msg[j]); free(out[j]); }}",
             "free(ctx);",
             "return 0;"]
    return ("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n#include <string.h>\n"
            "#include \"keccak_sponge.h\"\n\nint main(void)\n{\n"
            + "".join(f"    {x}\n" for x in body) + "}\n")
