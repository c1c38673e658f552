# SPDX-License-Identifier: Apache-2.0 OR MIT
"""XKCP's SnP byte functions (KeccakP-1600-SnP.h on keccak_snp.c, KeccakP-1600-times{2,4,8}-
SnP.h on keccak_snp_xN.c) proven equal to spec_snp.py's for every offset, length, instance
and lane count the headers allow, memory-safe and free of undefined behaviour, by the engine
of symexec.py.

Each function is one call on a state it owns: run once on a state object of exactly the
interface's size (200 bytes, 200 N for the times-N states) holding symbolic standard's bytes
(instance j's lanes are words N i + j), with symbolic offsets, lengths, bytes and lane
offsets and each caller's buffer an object of exactly its documented length. After the call
the state's memory must be, at a symbolic address, the specification's bytes stored the same
way, each output buffer the specification's bytes, and the return value the specification's.
The instance index is each value below N in turn, a lane count each value 0..25 and one
symbolic value above 25 (so every value); a round count is symbolic.

Contracts: keccak_p1600 / keccak_f1600 / keccak_p1600_x{2,4,8} are Keccak-p[1600, n] on each
state they are handed (the kernels' proof); keccak_p1600_absorb is sponge_api's (whole blocks
xored then permuted). The byte helpers (rs_xor_bytes, rs_overwrite_bytes, rs_extract_bytes
and their rs_snp_ forms with a lane stride) are summarised, and the summaries proven on their
own by sponge_api's induction over their loops, for each stride.
"""

import re

import z3

from . import ctypes_ as T
from . import mb_api as M
from . import spec_snp as SN
from . import spec_sponge as SP
from . import sponge_api as A
from .symexec import BYTES, Engine, Failure, Ptr, State, Unsupported, Val, bv, sel

STATE_BYTES = SN.STATE_BYTES

# The functions whose loops this prover has no argument for yet, with the reason.
NOT_YET = [
    (r"Keccak[PF]1600(_12rounds)?_ODDuplexing.*",
     "the OD duplexing loop (rs_od_loop) runs a symbolic number of blocks, each overwriting "
     "lanes and permuting: no loop invariant for it in the byte-layer prover yet"),
    (r"KeccakP1600times\d_Extract(AndAdd)?LanesAll",
     "the output's 8 laneCount N lane stores at symbolic addresses (data + 8 j laneOffset), "
     "compared with the specification's: no answer from z3 within 7 min for N = 2 (measured "
     "on 2026-12-06 under load 4)"),
    (r"Keccak[PF]1600times\d(_12rounds)?_FastLoop_Absorb",
     "rs_snp_fast_loop calls its block loop through a function pointer and runs a symbolic "
     "number of blocks: the engine has neither yet"),
]


def classify(name):
    """(instances N, operation, round count or None) of an SnP function, or None."""
    m = re.fullmatch(r"Keccak([PF])1600(?:times([248]))?_(?:(12)rounds_)?(\w+)", name)
    if m is None:
        return None
    n = int(m.group(2) or 1)
    op = m.group(4)
    rounds = 12 if m.group(3) else 24 if op == "FastLoop_Absorb" else None
    pm = re.fullmatch(r"Permute(?:All)?_(\d+|N)rounds", op)
    if pm:
        op, rounds = "Permute", None if pm.group(1) == "N" else int(pm.group(1))
    return n, op.replace("All", "") if op.endswith("All") else op, rounds


def not_yet(name):
    return next((r for pat, r in NOT_YET if re.fullmatch(pat, name)), None)


# -- the byte helpers' summaries --

# name -> (kind, argument index of: state, stride (None: 1), position, source or add, out)
HELPERS = {
    "rs_xor_bytes": ("xor", 0, None, 1, 2, None),
    "rs_overwrite_bytes": ("overwrite", 0, None, 1, 2, None),
    "rs_extract_bytes": ("extract", 0, None, 1, 2, 3),
    "rs_snp_xor_bytes": ("xor", 0, 1, 2, 3, None),
    "rs_snp_overwrite_bytes": ("overwrite", 0, 1, 2, 3, None),
    "rs_snp_extract_bytes": ("extract", 0, 1, 2, 3, 4),
}


def lane_byte(d, w, e):
    """(inside, j): the address d bytes past an instance's word 0 is its byte j, where
    `inside` (its words are 8 w bytes apart; e = 7 on a big-endian target)."""
    if w == 1:
        return z3.ULT(d, STATE_BYTES), (d ^ e if e else d)
    inside = z3.And(z3.ULT(d, 8 * (24 * w + 1)), z3.ULT(d & (8 * w - 1), 8))
    return inside, A._div(d, 8 * w) * 8 + ((d & 7) ^ e if e else d & 7)


def lane_addr(j, w, e):
    """The inverse: the address of byte j past word 0."""
    return 8 * w * z3.LShR(j, 3) + ((j & 7) ^ e if e else j & 7) if w > 1 else \
        (j ^ e if e else j)


class Helpers:
    """The summaries (effects on memory) of the byte helpers, for one byte order."""

    def __init__(self, big_endian):
        self.e = 7 if big_endian else 0

    def parts(self, eng, st, which, args):
        kind, si, wi, pi, bi, oi = HELPERS[which]
        w = 1 if wi is None else A._concrete(eng, st, args[wi], "the lane stride")
        pos = z3.ZeroExt(64 - args[pi].v.size(), args[pi].v)
        return kind, args[si], w, pos, args[bi], args[oi] if oi is not None else None

    def effect(self, which):
        def run(eng, st, args, n):
            kind, state, w, pos, src, out = self.parts(eng, st, which, args)
            n = z3.ZeroExt(64 - n.size(), n)
            a = z3.BitVec("a", 64)
            if kind == "extract":
                if out.oid is None:
                    return {}
                d = a - out.off
                byte = st.mem[state.oid][state.off + lane_addr(pos + d, w, self.e)]
                if src.oid is not None:
                    byte = byte ^ st.mem[src.oid][src.off + d]
                old = st.mem[out.oid]
                return {out.oid: z3.Lambda([a], z3.If(z3.ULT(d, n), byte, old[a]))}
            old = st.mem[state.oid]
            if src.oid is None:
                return {state.oid: old}
            inside, j = lane_byte(a - state.off, w, self.e)
            inside = z3.And(inside, z3.ULE(pos, j), z3.ULT(j - pos, n))
            b = st.mem[src.oid][src.off + (j - pos)]
            return {state.oid: z3.Lambda([a], z3.If(inside, old[a] ^ b if kind == "xor" else b,
                                                    old[a]))}
        return run

    def pre(self, eng, st, which, args):
        """The summary's precondition, checked at a call (a Failure where it fails)."""
        kind, state, w, pos, src, out = self.parts(eng, st, which, args)
        n = z3.ZeroExt(64 - args[-1].v.size(), args[-1].v)
        eng.must(st, z3.Or(n == 0, z3.And(z3.ULE(pos, STATE_BYTES),
                                          z3.ULE(n, STATE_BYTES - pos))),
                 "oob", f"{which}: bytes past the state's {STATE_BYTES}")
        eng.check_access(st, state, 8 * (24 * w + 1), kind != "extract")
        for p, write in ((src, False), (out, True)) if kind == "extract" else ((src, False),):
            if p.oid is None:
                if write or kind != "extract":
                    eng.must(st, n == 0, "oob", f"{which}: a null buffer of nonzero length")
                continue
            eng.check_access(st, p, n, write)
            eng.must(st, z3.BoolVal(p.oid != state.oid), "oob", f"{which}: a buffer in the state")
        if kind == "extract" and src.oid is not None and src.oid == out.oid:
            eng.must(st, src.off == out.off, "oob",
                     f"{which}: input and output overlap without being the same buffer")

    def summary(self, which):
        return A.effect_summary(lambda eng, st, args: self.pre(eng, st, which, args), self.effect(which))

    def invariant(self, which, add):
        """sponge_api's induction, where `add` (a buffer, not NULL) steps with `out`."""
        effect = self.effect(which)

        def run(eng, st, node, iterate):
            steps = A._steps(node)
            if steps is not None and add and "out" in steps:
                steps.setdefault("add", steps["out"])
            return A._induct(eng, st, node, iterate, effect, steps)
        return run


def prove_helper(eng, which, helpers, w, alias, empty=False):
    """The summary of `which` for stride w, every position and length (a buffer of exactly
    that length); alias: extract's add is None (NULL), "apart" or "same" (the output);
    empty: the length 0 at every position (the times-N functions' offset past 200)."""
    fd = eng.funcs[which]
    params, _ = eng.params(fd)
    kind, si, wi, pi, bi, oi = HELPERS[which]
    st = State([], {}, {})
    so = eng.new_obj(st, "state", 8 * (24 * w + 1))
    pos, n = (z3.ZeroExt(56, z3.BitVec(x, 8)) for x in ("pos", "len"))
    if empty:
        pos, n = z3.ZeroExt(32, z3.BitVec("pos", 32)), bv(0)
    else:
        st.pc += [z3.ULE(pos, STATE_BYTES), z3.ULE(n, STATE_BYTES - pos)]
    args = [None] * len(params)
    args[si] = Ptr(so.oid, bv(0), params[si][1])
    if wi is not None:
        args[wi] = Val(bv(w, 32), T.UINT)
    args[pi] = eng.convert(Val(pos, T.SIZE_T), params[pi][1])
    args[-1] = eng.convert(Val(n, T.SIZE_T), params[-1][1])
    if kind == "extract":
        oo = eng.new_obj(st, "out", n)
        args[oi] = Ptr(oo.oid, bv(0), params[oi][1])
        src = None if alias is None else oo if alias == "same" else \
            eng.new_obj(st, "add", n, writable=False)
    else:
        src = eng.new_obj(st, "in", n, writable=False)
    args[bi] = Ptr(src.oid if src else None, bv(0), params[bi][1])
    eng.entry_mem = dict(st.mem)
    want = helpers.effect(which)(eng, State([], dict(st.mem), {}), args, args[-1].v)
    if not empty:
        eng.invariants[which] = helpers.invariant(which, src is not None)
    try:
        for s2, _ in eng.invoke(st, fd, args):
            for oid, arr in st.mem.items():
                A._arr_eq(eng, s2, s2.mem[oid], want.get(oid, arr),
                          f"{which}: differs from its summary" if oid in want else
                          f"{which}: writes outside its summary")
    finally:
        eng.invariants.pop(which, None)


# -- the kernels' contracts --

def c_keccak_p(eng, st, args):
    """keccak_p1600(state, rounds): Keccak-p[1600, rounds], the state unchanged for rounds
    above 24 (keccak_p1600.h)."""
    state, rounds = args
    S = A.state_view(eng, st, state)
    r = rounds.v
    A.store_state(eng, st, state, z3.If(z3.UGT(r, 24), S, SN.keccak_p(S, r)))
    return [(st, None)]


def c_keccak_f(eng, st, args):
    S = A.state_view(eng, st, args[0])
    A.store_state(eng, st, args[0], SN.keccak_p(S, bv(24, 32)))
    return [(st, None)]


def c_permute_x(n):
    """keccak_p1600_xN(states, rounds) on the interleaved layout: each instance's state."""
    def run(eng, st, args):
        p, rounds = args
        at = [Ptr(p.oid, z3.simplify(p.off + 8 * j), None) for j in range(n)]
        Ss = [M.mb_view(eng, st, q, n) for q in at]
        r = rounds.v
        for q, S in zip(at, Ss):
            M.mb_store(eng, st, q, n, z3.If(z3.UGT(r, 24), S, SN.keccak_p(S, r)))
        return [(st, None)]
    return run


def contracts():
    out = {"keccak_p1600": c_keccak_p, "keccak_f1600": c_keccak_f,
           "keccak_p1600_absorb": A.c_absorb}
    out.update({f"keccak_p1600_x{n}": c_permute_x(n) for n in (2, 4, 8)})
    return out


# -- the public functions --

INSTANCE_OPS = ("AddByte", "AddBytes", "OverwriteBytes", "OverwriteWithZeroes", "ExtractBytes",
                "ExtractAndAddBytes")
LANE_OPS = ("AddLanes", "OverwriteLanes", "ExtractLanes", "ExtractAndAddLanes")
BYTE_OPS = ("AddBytes", "OverwriteBytes", "ExtractBytes", "ExtractAndAddBytes")


def cases(n, op):
    """The runs that together cover every argument: each instance index below N, each lane
    count (0..25 and one symbolic above 25; 1..25 where the header asks it), the input and
    output apart and the same buffer."""
    out = [{}]
    if n > 1 and op in INSTANCE_OPS:
        out = [{"k": k} for k in range(n)]
    if op in LANE_OPS:
        out = [{"lanes": w} for w in list(range(26)) + [None]]
    if op == "FastLoop_Absorb":
        out = [{"lanes": w} for w in range(1, 26)]
    if op.startswith("ExtractAndAdd"):
        out = [dict(c, alias=a) for c in out for a in ("apart", "same")]
    return out


def assumed(name):
    """The preconditions a proof of `name` takes (XKCP's documented ones), as text."""
    n, op, _ = classify(name)
    pre = []
    if n == 1 and op == "AddByte":
        pre.append("offset < 200")
    elif n == 1 and op in BYTE_OPS:
        pre.append("offset + length <= 200")
    elif n == 1 and op == "OverwriteWithZeroes":
        pre.append("byteCount <= 200")
    elif op == "Permute" and n == 1 and "Nrounds" in name:
        pre.append("nrounds <= 24")
    elif op == "FastLoop_Absorb":
        pre.append("1 <= laneCount <= 25")
    if n > 1 and op in INSTANCE_OPS:
        pre.append(f"instanceIndex < {n}")
    if op.startswith("ExtractAndAdd"):
        pre.append("input and output the same buffer or apart")
    return ", ".join(pre)


def detail(name, paths, snp):
    """The report line's detail: paths, preconditions, contracts taken."""
    text = f"{paths} paths"
    if assumed(name):
        text += f"; assumes {assumed(name)}"
    if snp.taken:
        text += "; contracts: " + ", ".join(sorted(snp.taken))
    return text


class Snp:
    """The obligations of one SnP file (keccak_snp.c or keccak_snp_xN.c) under one
    configuration."""

    def __init__(self, unit, config):
        self.eng = Engine(unit, config.big_endian)
        self.eng.memset_lambda = True
        self.taken = set()        # the contracts a proof took
        for name, run in contracts().items():
            self.eng.externs[name] = self._record(name, run)
        self.helpers = Helpers(config.big_endian)
        self.proven = {}        # (helper, stride) -> True, or the Failure / Unsupported

    def _record(self, name, run):
        def call(eng, st, args):
            self.taken.add(name)
            return run(eng, st, args)
        return call

    def prove_helpers(self, w):
        for which, (kind, _, wi, _, _, _) in HELPERS.items():
            if which not in self.eng.funcs or (wi is None) != (w == 1):
                continue
            key = (which, w)
            if key not in self.proven:
                try:
                    for alias in (None, "apart", "same") if kind == "extract" else (None,):
                        for empty in (False, True):
                            prove_helper(self.eng, which, self.helpers, w, alias, empty)
                    self.proven[key] = True
                except (Failure, Unsupported) as f:
                    self.proven[key] = f
            if self.proven[key] is not True:
                raise self.proven[key]
            self.eng.summaries[which] = self.helpers.summary(which)

    def prove(self, name):
        """Raises Failure or Unsupported; returns the paths run."""
        n, op, rounds = classify(name)
        reason = not_yet(name)
        if reason:
            raise Unsupported(reason)
        fd = self.eng.funcs.get(name)
        if fd is None:
            raise Unsupported(f"{name} has no definition in this file")
        self.prove_helpers(n)
        self.taken = set()
        paths = 0
        for case in cases(n, op):
            try:
                with SP.scope():
                    paths += self._run(fd, n, op, rounds, case)
            except Failure as f:
                f.case = dict(case)
                raise
        return paths

    def _store(self, mem, oid, n, Ss):
        """mem with the instances' standard's bytes Ss stored as the C holds them (words
        N i + j), at the start of object oid."""
        st = State([], {oid: mem}, {})
        for j, S in enumerate(Ss):
            p = Ptr(oid, bv(8 * j), None)
            if n == 1:
                A.store_state(self.eng, st, p, S)
            else:
                M.mb_store(self.eng, st, p, n, S)
        return st.mem[oid]

    def _values(self, st, params, n, op, case, so):
        """{parameter: argument}: the state, symbolic integers, the case's instance and lane
        count, and each buffer an object of exactly its documented length."""
        eng, v = self.eng, {}
        for name, t in params:
            if name in ("state", "states"):
                v[name] = Ptr(so.oid, bv(0), t)
            elif name == "instanceIndex":
                v[name] = Val(bv(case["k"], 32), t)
            elif name == "laneCount" and case.get("lanes") is not None:
                v[name] = Val(bv(case["lanes"], 32), t)
            elif not isinstance(t, T.Ptr):
                v[name] = Val(z3.BitVec(name, t.bits), t)
                if name == "laneCount":
                    st.pc.append(z3.UGT(v[name].v, 25))
        size = self._size(n, op, v, case)
        out_w = op in ("ExtractBytes", "ExtractLanes")
        for name, t in params:
            if isinstance(t, T.Ptr) and name not in v and not (
                    name == "input" and case.get("alias") == "same"):
                o = eng.new_obj(st, name, size, writable=name == "output" or out_w)
                v[name] = Ptr(o.oid, bv(0), t)
        if case.get("alias") == "same":
            v["input"] = Ptr(v["output"].oid, bv(0), v["output"].t)
        for c in self._pre(n, op, v):
            st.pc.append(c)
        return v

    @staticmethod
    def _size(n, op, v, case):
        if op in BYTE_OPS:
            return z3.ZeroExt(32, v["length"].v)
        if op in LANE_OPS:
            lanes = 25 if case["lanes"] is None else case["lanes"]
            return 8 * ((n - 1) * z3.ZeroExt(32, v["laneOffset"].v) + lanes)
        if op == "FastLoop_Absorb":
            return v["dataByteLen"].v
        return bv(0)

    @staticmethod
    def _pre(n, op, v):
        """XKCP's preconditions of the single-state functions (assumed() says them)."""
        x64 = {k: z3.ZeroExt(32, x.v) for k, x in v.items()
               if isinstance(x, Val) and x.v.size() == 32}
        if n > 1:
            return []
        if op == "AddByte":
            return [z3.ULT(x64["offset"], STATE_BYTES)]
        if op in BYTE_OPS:
            return [z3.ULE(x64["offset"] + x64["length"], STATE_BYTES)]
        if op == "OverwriteWithZeroes":
            return [z3.ULE(x64["byteCount"], STATE_BYTES)]
        if "nrounds" in v:
            return [z3.ULE(x64["nrounds"], 24)]
        return []

    def _run(self, fd, n, op, rounds, case):
        eng = self.eng
        params, _ = eng.params(fd)
        st = State([], {}, {})
        so = eng.new_obj(st, "state", STATE_BYTES * n)
        base = z3.Const(f"state_rest#{so.oid}", BYTES)
        Ss = [z3.Const(f"S{j}#{so.oid}", BYTES) for j in range(n)]
        st.mem[so.oid] = self._store(base, so.oid, n, Ss)
        v = self._values(st, params, n, op, case, so)
        args = [v[name] for name, _ in params]
        entry = dict(st.mem)
        with SP.recorded():
            new, outs, ret = self._spec(n, op, rounds, case, v, Ss, entry)
        st.pc.extend(SP.FACTS)
        want = self._store(base, so.oid, n, new)
        what = f"{fd.decl.name}" + "".join(f", {k} = {x}" for k, x in sorted(case.items()))
        paths = 0
        for s2, r in eng.invoke(st, fd, args):
            paths += 1
            self._same_state(s2, s2.mem[so.oid], want, STATE_BYTES * n, op, f"{what}: the state")
            for oid, arr in outs.items():
                A._arr_eq(eng, s2, s2.mem[oid], arr, f"{what}: the output")
            if ret is not None:
                eng.must(s2, r.v == ret, "mismatch", f"{what}: the return value")
        return paths

    def _same_state(self, st, got, want, size, op, what):
        """The state's memory equal to the specification's: at a symbolic address, or where
        the C stored whole lanes at constant addresses (the *LanesAll functions: hundreds of
        stores, whose reads z3 pairs up slowly), address by address: the stores walked once
        from the top, each byte simplified and asked only when not equal on its face."""
        if op not in LANE_OPS:
            A._arr_eq(self.eng, st, got, want, what)
            return
        top, arr = {}, got
        while z3.is_app_of(arr, z3.Z3_OP_STORE):
            i = z3.simplify(arr.arg(1))
            if not z3.is_bv_value(i):
                A._arr_eq(self.eng, st, got, want, what)
                return
            top.setdefault(i.as_long(), arr.arg(2))
            arr = arr.arg(0)
        for a in range(size):
            g = z3.simplify(top[a] if a in top else sel(arr, bv(a)))
            w = z3.simplify(sel(want, bv(a)))
            if not g.eq(w):
                self.eng.must(st, g == w, "mismatch", f"{what} byte {a}")

    def _spec(self, n, op, rounds, case, v, Ss, entry):
        """(the instances' states after the call, {object: its bytes after}, the return
        value or None), from spec_snp."""
        k = case.get("k", 0)
        x64 = {name: z3.ZeroExt(32, x.v) for name, x in v.items()
               if isinstance(x, Val) and x.v.size() == 32}
        new, outs, ret = list(Ss), {}, None
        off = x64.get("offset", bv(0))
        if op == "Initialize":
            new = [SP.zero_state()] * n
        elif op == "Permute":
            r = v["nrounds"].v if "nrounds" in v else bv(rounds, 32)
            new = [SN.keccak_p(S, r) for S in Ss]
        elif op == "AddByte":
            b = SN.add_byte(Ss[k], off, v["data"].v)
            new[k] = b if n == 1 else z3.If(z3.ULT(off, STATE_BYTES), b, Ss[k])
        elif op in ("AddBytes", "OverwriteBytes", "OverwriteWithZeroes"):
            cnt = x64.get("length", x64.get("byteCount"))
            cnt = cnt if n == 1 else SN.clip(off, cnt)
            if op == "OverwriteWithZeroes":
                new[k] = SN.zeroes(Ss[k], cnt)
            else:
                f = SN.add_bytes if op == "AddBytes" else SN.overwrite_bytes
                new[k] = f(Ss[k], off, entry[v["data"].oid], bv(0), cnt)
        elif op in ("ExtractBytes", "ExtractAndAddBytes"):
            cnt = x64["length"] if n == 1 else SN.clip(off, x64["length"])
            out = v["output" if "output" in v else "data"]
            add = entry[v["input"].oid] if "input" in v else None
            a = z3.BitVec("a", 64)
            byte = SN.extract_byte(Ss[k], off, a, None if add is None else add[a])
            outs[out.oid] = z3.Lambda([a], z3.If(z3.ULT(a, cnt), byte, entry[out.oid][a]))
        elif op in LANE_OPS:
            new, outs = self._spec_lanes(n, op, case, v, Ss, entry, x64)
        elif op == "FastLoop_Absorb":
            rate = 8 * case["lanes"]
            q, rem = SP.divmod_(v["dataByteLen"].v, rate)
            new[0] = SP.blocks(Ss[0], rounds, rate, entry[v["data"].oid], bv(0), q)
            ret = v["dataByteLen"].v - rem
        else:
            raise Unsupported(f"no specification of SnP's {op}")
        return new, outs, ret

    @staticmethod
    def _spec_lanes(n, op, case, v, Ss, entry, x64):
        """The *LanesAll functions: instance j's lanes at data + 8 j laneOffset, instance
        after instance (a later instance's output bytes stay where blocks overlap)."""
        lanes = 25 if case["lanes"] is None else case["lanes"]
        step = 8 * x64["laneOffset"]
        new, outs = list(Ss), {}
        if op in ("AddLanes", "OverwriteLanes"):
            mem = entry[v["data"].oid]
            kind = "add" if op == "AddLanes" else "overwrite"
            return [SN.lanes_bytes(S, lanes, mem, j * step, kind) for j, S in enumerate(Ss)], {}
        out = v["output" if "output" in v else "data"]
        cur = entry[out.oid]
        for j, S in enumerate(Ss):
            a = z3.BitVec("a", 64)
            d = a - j * step
            byte = z3.Select(S, d)
            if "input" in v:
                src = cur if v["input"].oid == out.oid else entry[v["input"].oid]
                byte = byte ^ src[a]
            cur = z3.Lambda([a], z3.If(z3.ULT(d, 8 * lanes), byte, cur[a]))
        outs[out.oid] = cur
        return new, outs
