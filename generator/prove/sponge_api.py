# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The single-state sponge's public functions (keccak_sponge.h: SHA3-*, SHAKE*, Keccak-256,
TurboSHAKE*; one-shot, init/update/final, init/absorb/squeeze) proven equal to the sponge of
spec_sponge.py for every length, memory-safe and free of undefined behaviour, by the engine of
symexec.py.

The argument is induction over the calls. R(ctx, S, pos, phase) says the context holds the
specification's state: its lanes are S, its rate, rounds and domain are the function's, and
`pos`/`squeezing` are the machine's position and phase (absorbing: pos < r; squeezing:
1 <= pos <= r). Each public function is run once on a context related to a symbolic
(S, pos, phase), with symbolic lengths and buffers of exactly the caller's length:
init establishes R; update/absorb ends related to the specification's state after the chunk,
for any chunk; final/squeeze writes the specification's bytes for any output length and ends
related; so every sequence of calls, of any lengths, gives the standard's output. A one-shot
function is run whole from its own context.

Contracts (what the proof assumes of the calls out of the file): keccak_p1600 is f (the
kernels' proof); keccak_p1600_absorb xors then permutes floor(len / rate) whole blocks and
returns their bytes; keccak_p1600_squeeze permutes then stores as many. The two byte helpers
of the file (rs_xor_bytes, rs_extract_bytes) are summarised, and the summaries proven on their
own, by induction over their loops: the prover proposes at each loop head "the memory is the
summary after the bytes consumed so far, every variable the loop steps has moved by that
count", proves it on entry and across one symbolic iteration, and leaves the loop with it and
the exit condition. A wrong summary fails its proof: nothing is taken on trust.
"""

import re

import z3

from . import ctypes_ as T
from . import spec_sponge as SP
from .symexec import BYTES, Engine, sel, unfold, Failure, Ptr, State, Unsupported, Val, bv

STATE_BYTES = 200


def _suffix_byte(bits):
    """The domain byte: the suffix bits (FIPS 202 section 6.1/6.2, first bit lowest) then pad10*1's
    first 1."""
    b = 0
    for i, c in enumerate(bits + "1"):
        b |= int(c) << i
    return b


def functions():
    """name -> (rate bytes, rounds, domain byte or None for the caller's, digest bytes or None)."""
    out = {}
    for d in (224, 256, 384, 512):                        # FIPS 202 section 6.1
        out[f"sha3_{d}"] = ((1600 - 2 * d) // 8, 24, _suffix_byte("01"), d // 8)
    out["keccak256"] = ((1600 - 512) // 8, 24, _suffix_byte(""), 32)   # the Keccak submission
    for s in (128, 256):                                  # FIPS 202 section 6.2
        out[f"shake{s}"] = ((1600 - 2 * s) // 8, 24, _suffix_byte("1111"), None)
        out[f"turboshake{s}"] = ((1600 - 2 * s) // 8, 12, None, None)   # RFC 9861 section 2
    return out


FAMILIES = functions()


def classify(name):
    """(family, role) of a public function of the single-state sponge, or None."""
    m = re.fullmatch(r"(sha3_\d+|keccak256|shake\d+|turboshake\d+)(_init|_update|_final|"
                     r"_absorb|_squeeze)?", name)
    if m is None or m.group(1) not in FAMILIES:
        return None
    return m.group(1), (m.group(2) or "_oneshot")[1:]


# -- the helpers' summaries --

def effect_summary(pre, effect):
    """A byte helper's summary: its preconditions checked, then its effect on memory (the
    objects it writes, for the length in its last argument)."""
    def run(eng, st, args):
        pre(eng, st, args)
        st = st.fork()
        for oid, arr in effect(eng, st, args, args[-1].v).items():
            st.mem[oid] = arr
        return [(st, None)]
    return run


class Helpers:
    """rs_xor_bytes / rs_extract_bytes: the summary (an effect on memory) and the loop
    invariant proposed from it."""

    def __init__(self, big_endian):
        self.e = 7 if big_endian else 0

    def _lbyte(self, d):
        return d ^ self.e if self.e else d

    def xor_effect(self, eng, st, args, n):
        state, pos, src = args[0], args[1], args[2]
        old = st.mem[state.oid]
        a = z3.BitVec("a", 64)
        d = a - state.off
        L = self._lbyte(d)
        inside = z3.And(z3.ULT(d, STATE_BYTES), z3.ULE(pos.v, L), z3.ULT(L - pos.v, n))
        if src.oid is None:
            return {state.oid: old}
        srcm = st.mem[src.oid]
        return {state.oid: z3.Lambda([a], z3.If(inside, old[a] ^ srcm[src.off + (L - pos.v)],
                                                old[a]))}

    def extract_effect(self, eng, st, args, n):
        state, pos, add, out = args[0], args[1], args[2], args[3]
        if out.oid is None:
            return {}
        old = st.mem[out.oid]
        sm = st.mem[state.oid]
        a = z3.BitVec("a", 64)
        d = a - out.off
        byte = sm[state.off + self._lbyte(pos.v + d)]
        if add.oid is not None:
            byte = byte ^ st.mem[add.oid][add.off + d]
        return {out.oid: z3.Lambda([a], z3.If(z3.ULT(d, n), byte, old[a]))}

    def pre(self, eng, st, args, which):
        """The summary's precondition, checked at a call (Failure where it fails)."""
        state, pos, n = args[0], args[1], args[-1]
        eng.must(st, z3.And(z3.ULE(pos.v, STATE_BYTES), z3.ULE(n.v, STATE_BYTES - pos.v)),
                 "oob", f"{which}: bytes past the state's {STATE_BYTES}")
        eng.check_access(st, state, STATE_BYTES, which == "rs_xor_bytes")
        eng.must(st, state.off == 0, "oob", f"{which}: a state not at its object's start")
        bufs = [(args[2], False)] if which == "rs_xor_bytes" else [(args[2], False),
                                                                     (args[3], True)]
        for p, w in bufs:
            if p.oid is None:
                if w or which == "rs_xor_bytes":
                    eng.must(st, n.v == 0, "oob", f"{which}: a null buffer of nonzero length")
                continue
            o = eng.objs[p.oid]
            eng.must(st, z3.Or(n.v == 0, z3.And(z3.ULE(n.v, o.size), z3.ULE(p.off, o.size - n.v))),
                     "oob", f"{which}: {n.v} bytes outside {o.name}")
            if w and not o.writable:
                eng.must(st, z3.BoolVal(False), "oob", f"{which}: a write to {o.name}")

    def summary(self, which):
        effect = self.xor_effect if which == "rs_xor_bytes" else self.extract_effect
        apply = effect_summary(lambda eng, st, args: self.pre(eng, st, args, which), effect)

        def run(eng, st, args):
            if which == "rs_extract_bytes" and args[2].oid is not None:
                return eng.invoke(st, eng.funcs[which], args)
            return apply(eng, st, args)
        return run

    def invariant(self, which):
        effect = self.xor_effect if which == "rs_xor_bytes" else self.extract_effect
        return lambda eng, st, node, iterate: _induct(eng, st, node, iterate, effect)


def _steps(node):
    """{variable: step} of a for loop's `next` (x++, x--, x += c, x -= c), or None."""
    from pycparser import c_ast
    if node.next is None:
        return None
    items = node.next.exprs if isinstance(node.next, c_ast.ExprList) else [node.next]
    out = {}
    for it in items:
        if isinstance(it, c_ast.UnaryOp) and it.op in ("p++", "p--", "++", "--") and \
                isinstance(it.expr, c_ast.ID):
            out[it.expr.name] = 1 if "+" in it.op else -1
        elif isinstance(it, c_ast.Assignment) and it.op in ("+=", "-=") and \
                isinstance(it.lvalue, c_ast.ID) and isinstance(it.rvalue, c_ast.Constant):
            c = int(it.rvalue.value.rstrip("uUlL"), 0)
            out[it.lvalue.name] = c if it.op == "+=" else -c
        else:
            return None
    return out


def _arr_eq(eng, st, a, b, what):
    x = z3.BitVec("x", 64)
    if a.eq(b):
        return
    # Select pushed through the stores and into the lambdas: a formula without arrays but
    # the caller's untouched ones, which z3 decides far faster
    m = eng.sat(st, sel(a, x) != sel(b, x))
    if m is not None:
        raise Failure("mismatch", what, m, st)


def _div(x, c):
    if c & (c - 1) == 0:
        return z3.LShR(x, c.bit_length() - 1) if c > 1 else x
    return z3.UDiv(x, c)


def _induct(eng, st, node, iterate, effect, steps=None):
    """Run a loop of a summarised helper by induction (see the module's docstring). steps:
    {variable: step per iteration} where the loop's `next` alone does not say it (each is
    checked across the iteration all the same)."""
    steps = steps if steps is not None else _steps(node)
    fn = st.env["__fn__"]
    entry = st.env["__entry__"]
    lenvar = [v for v, s in (steps or {}).items() if s < 0]
    if not steps or len(lenvar) != 1 or lenvar[0] != eng.funcs[fn].decl.type.args.params[-1].name:
        raise Unsupported(f"a loop of {fn} without a length that counts down")
    lenvar = lenvar[0]
    step = -steps[lenvar]
    args_entry = [entry[p.name] for p in eng.funcs[fn].decl.type.args.params]
    # a 32-bit length (an SnP helper's unsigned) counts in 64 bits here
    len0 = z3.ZeroExt(64 - entry[lenvar].v.size(), entry[lenvar].v)
    lenL = z3.ZeroExt(64 - st.env[lenvar].v.size(), st.env[lenvar].v)
    t_L = len0 - lenL

    # the memory at the helper's entry, which the effect is relative to
    entry_mem = dict(eng.entry_mem)

    def effect_at(t):
        s = State([], dict(entry_mem), {})
        return effect(eng, s, args_entry, t)

    # base: the state at the loop head is the effect after t_L bytes
    for oid, arr in effect_at(t_L).items():
        _arr_eq(eng, st, st.mem[oid], arr, f"{fn}: the loop invariant fails on entry")
    # Every count below 2^8 is ZeroExt of an 8-bit variable: the same set of values where the
    # length is below 2^8 (checked), and circuits z3 bit-blasts 8 bits wide, not 64
    eng.must(st, z3.ULT(lenL, 256), "mismatch", f"{fn}: a length of 256 or more in a loop")
    k = z3.ZeroExt(56, z3.BitVec(f"k{eng.queries}", 8))
    h = st.fork(z3.ULE(k, _div(lenL, step)))
    for v, s in steps.items():
        cur = st.env[v]
        if isinstance(cur, Ptr):
            h.env[v] = Ptr(cur.oid, cur.off + s * k, cur.t)
        else:
            h.env[v] = Val(cur.v + z3.Extract(cur.t.bits - 1, 0, bv(s) * k), cur.t)
    for oid, arr in effect_at(t_L + step * k).items():
        h.mem[oid] = arr
    exits = []
    for s2, kind, val in iterate(h):
        if kind == "again":
            # one step keeps the invariant, at k + 1
            eng.must(s2, z3.ULE(k + 1, _div(lenL, step)), "mismatch",
                     f"{fn}: the loop runs past its length")
            for v, sv in steps.items():
                cur, new = st.env[v], s2.env[v]
                if isinstance(cur, Ptr):
                    ok = z3.And(z3.BoolVal(new.oid == cur.oid), new.off == cur.off + sv * (k + 1))
                else:
                    ok = new.v == cur.v + z3.Extract(cur.t.bits - 1, 0, bv(sv) * (k + 1))
                eng.must(s2, ok, "mismatch", f"{fn}: {v} does not step as the loop's next says")
            for oid, arr in effect_at(t_L + step * (k + 1)).items():
                _arr_eq(eng, s2, s2.mem[oid], arr, f"{fn}: one iteration breaks the invariant")
            for oid in s2.mem:
                if oid not in effect_at(t_L).keys() and oid in h.mem:
                    _arr_eq(eng, s2, s2.mem[oid], h.mem[oid], f"{fn}: writes outside its summary")
        elif kind == "normal":
            exits.append((s2, "normal", None))
        else:
            raise Unsupported(f"a {kind} inside a loop of {fn}")
    return exits


def prove_helper(eng, which, helpers):
    """The summary of `which` holds for every pos, length and buffer: its body run by
    induction from symbolic arguments satisfying the precondition."""
    fd = eng.funcs[which]
    params, _ = eng.params(fd)
    # rs_extract_bytes's `add` is NULL in the single-state sponge: the summary is proven, and
    # applies, for that case only (a call with a buffer there runs the body)
    for _ in (0,):
        st = State([], {}, {})
        so = eng.new_obj(st, "state", STATE_BYTES)
        soff = bv(0)
        # pos and len are below 2^8 (the precondition): 8-bit variables zero-extended
        pos, n = (z3.ZeroExt(56, z3.BitVec(x, 8)) for x in ("pos", "len"))
        st.pc += [z3.ULE(pos, STATE_BYTES), z3.ULE(n, STATE_BYTES - pos)]
        state = Ptr(so.oid, soff, params[0][1])
        # The caller's buffer as an object of exactly `len` bytes at its start: the code's
        # behaviour does not depend on where a buffer sits (no pointer is compared or turned
        # into an integer), and an object of exactly that length makes any access outside it
        # a failure.
        if which == "rs_xor_bytes":
            io = eng.new_obj(st, "in", n, writable=False)
            args = [state, Val(pos, T.SIZE_T), Ptr(io.oid, bv(0), params[2][1]),
                    Val(n, T.SIZE_T)]
        else:
            oo = eng.new_obj(st, "out", n)
            args = [state, Val(pos, T.SIZE_T), Ptr(None, bv(0), params[2][1]),
                    Ptr(oo.oid, bv(0), params[3][1]), Val(n, T.SIZE_T)]
        eng.entry_mem = dict(st.mem)
        effect = helpers.xor_effect if which == "rs_xor_bytes" else helpers.extract_effect
        want = effect(eng, State([], dict(st.mem), {}), args, n)
        eng.invariants[which] = helpers.invariant(which)
        try:
            for s2, _ in eng.invoke(st, fd, args):
                for oid, arr in want.items():
                    _arr_eq(eng, s2, s2.mem[oid], arr, f"{which}: differs from its summary")
                for oid, arr in st.mem.items():
                    if oid not in want:
                        _arr_eq(eng, s2, s2.mem[oid], arr, f"{which}: writes outside its summary")
        finally:
            del eng.invariants[which]


# -- contracts of the kernels --

# The specification's bytes a summary wrote (an encoding of SP 800-185), by the id of the
# memory it made: (offset, array, length, that memory, kept alive so its id stays its own). Absorbing them is absorbing that array.
BYTES_OF = {}


def input_bytes(eng, st, buf, n):
    """(array, offset) the absorb contract reads its n input bytes from: the
    specification's own array where a summary wrote it or the bytes are constants (a
    function name of SP 800-185), so the C's terms and the specification's are the same;
    else the buffer's memory."""
    if buf.oid is None:
        return z3.K(z3.BitVecSort(64), z3.BitVecVal(0, 8)), bv(0)
    mem = st.mem[buf.oid]
    got = BYTES_OF.get(mem.get_id())
    if got is not None and got[0].eq(z3.simplify(buf.off)) and got[2].eq(z3.simplify(n)):
        return got[1], bv(0)
    k = z3.simplify(n)
    if z3.is_bv_value(k) and k.as_long() <= 64:
        data = [z3.simplify(sel(mem, z3.simplify(buf.off + i))) for i in range(k.as_long())]
        if all(z3.is_bv_value(b) for b in data):
            return SP.constant([b.as_long() for b in data]), bv(0)
    return mem, buf.off


def check_buffer(eng, st, buf, n, which, write=False):
    """A contract's buffer of n bytes: NULL only with n = 0, else inside its object (and,
    written, a writable one)."""
    if buf.oid is None:
        eng.must(st, n == 0, "oob", f"{which}: a null buffer of nonzero length")
        return
    o = eng.objs[buf.oid]
    eng.must(st, z3.Or(n == 0, z3.And(z3.ULE(n, o.size), z3.ULE(buf.off, o.size - n))),
             "oob", f"{which}: {n} bytes outside {o.name}")
    if write and not o.writable:
        eng.must(st, n == 0, "oob", f"{which}: a write to {o.name}")


def _e(eng):
    return 7 if eng.big_endian else 0


# The standard's bytes a state store wrote, by the id of the memory it made: a view of that
# memory (under stores to other bytes) is those bytes themselves, no query needed.
STATE_OF = {}


def state_view(eng, st, p, write=True):
    """The state at p (25 lanes in the target's byte order) as the standard's 200 bytes: byte
    j is byte j % 8 of lane j // 8, little-endian."""
    eng.check_access(st, p, STATE_BYTES, write)
    mem = st.mem[p.oid]
    off = z3.simplify(p.off)
    top = mem
    while z3.is_app_of(top, z3.Z3_OP_STORE) and z3.is_bv_value(off):
        i = z3.simplify(top.arg(1))
        if not z3.is_bv_value(i) or 0 <= i.as_long() - off.as_long() < STATE_BYTES:
            break
        top = top.arg(0)
    got = STATE_OF.get(top.get_id())
    if got is not None and got[0].eq(off):
        return got[2]
    if _zeroed(top, off):
        return SP.zero_state()
    j = z3.BitVec("j", 64)
    return z3.Lambda([j], z3.Select(mem, p.off + (j ^ _e(eng))))


def _zeroed(top, off):
    """The state's 200 bytes at off are stores of zero on top of the memory (a memset)."""
    if not z3.is_bv_value(off):
        return False
    seen = set()
    while z3.is_app_of(top, z3.Z3_OP_STORE) and len(seen) < STATE_BYTES:
        i, v = z3.simplify(top.arg(1)), z3.simplify(top.arg(2))
        if not z3.is_bv_value(i) or not z3.is_bv_value(v) or v.as_long() != 0:
            return False
        d = i.as_long() - off.as_long()
        if not 0 <= d < STATE_BYTES:
            return False
        seen.add(d)
        top = top.arg(0)
    return len(seen) == STATE_BYTES


def store_state(eng, st, p, S):
    """The standard's 200 bytes S written as the state at p."""
    a = z3.BitVec("a", 64)
    off = z3.simplify(p.off)
    d = a - off
    old = st.mem[p.oid]
    new = z3.Lambda([a], z3.If(z3.ULT(d, STATE_BYTES), z3.Select(S, d ^ _e(eng)),
                               z3.Select(old, a)))
    STATE_OF[new.get_id()] = (off, new, S)
    st.mem[p.oid] = new


def state_diff(a, b):
    """The query that states a and b differ in a byte below 200 (a symbolic index)."""
    j = z3.BitVec("j", 64)
    return [z3.ULT(j, STATE_BYTES), z3.simplify(unfold(z3.Select(a, j)) !=
                                                unfold(z3.Select(b, j)))]


def _reach(roots, below):
    """The ids of the terms roots and below(term) lead to, transitively."""
    ids, todo = set(), list(roots)
    while todo:
        t = todo.pop()
        if t.get_id() not in ids:
            ids.add(t.get_id())
            todo += below(t)
    return ids


def _memory_ids(st):
    """The ids of every layer of the path's memory (the arrays the C reads and writes, not
    the specification's)."""
    def below(arr):
        if z3.is_app_of(arr, z3.Z3_OP_STORE):
            return [arr.arg(0)]
        if z3.is_app_of(arr, z3.Z3_OP_ITE):
            return [arr.arg(1), arr.arg(2)]
        if z3.is_quantifier(arr) and arr.is_lambda():
            body = arr.body()
            if z3.is_app_of(body, z3.Z3_OP_ITE) and z3.is_select(body.arg(2)):
                return [body.arg(2).arg(0)]
        return []
    return _reach(st.mem.values(), below)


def _layers(arr, x):
    """[(guards, byte)] of memory arr read at x: each store or written range on top, under the
    guards that reach it, then what lies below."""
    out, guards = [], []
    while True:
        if z3.is_app_of(arr, z3.Z3_OP_STORE):
            c = z3.simplify(arr.arg(1) == x)
            if not z3.is_false(c):
                out.append((guards + [c], arr.arg(2)))
                if z3.is_true(c):
                    return out
                guards = guards + [z3.Not(c)]
            arr = arr.arg(0)
            continue
        if z3.is_app_of(arr, z3.Z3_OP_ITE):
            c = arr.arg(0)
            return out + [(guards + [c] + g, v) for g, v in _layers(arr.arg(1), x)] + \
                [(guards + [z3.Not(c)] + g, v) for g, v in _layers(arr.arg(2), x)]
        if z3.is_quantifier(arr) and arr.is_lambda():
            body = z3.substitute_vars(arr.body(), x)
            if z3.is_app_of(body, z3.Z3_OP_ITE) and z3.is_select(body.arg(2)) and \
                    body.arg(2).arg(1).eq(x):
                c = z3.simplify(body.arg(0))
                if not z3.is_false(c):
                    out.append((guards + [c], body.arg(1)))
                    if z3.is_true(c):
                        return out
                    guards = guards + [z3.Not(c)]
                arr = body.arg(2).arg(0)
                continue
            return out + [(guards, body)]
        return out + [(guards, z3.Select(arr, x))]


def _lift(t, mem_ids):
    """[(guards, leaf)]: t's if-then-else (of bytes, of the arrays a byte is read from, of the
    memory it reads) lifted out, down to reads of the specification's arrays and of untouched
    memory."""
    if z3.is_app_of(t, z3.Z3_OP_ITE):
        c, a, b = t.children()
        return [([c] + g, v) for g, v in _lift(a, mem_ids)] + \
            [([z3.Not(c)] + g, v) for g, v in _lift(b, mem_ids)]
    if z3.is_select(t):
        A, i = t.arg(0), t.arg(1)
        if z3.is_app_of(A, z3.Z3_OP_ITE):
            c, a, b = A.children()
            return [([c] + g, v) for g, v in _lift(z3.Select(a, i), mem_ids)] + \
                [([z3.Not(c)] + g, v) for g, v in _lift(z3.Select(b, i), mem_ids)]
        if A.get_id() in mem_ids:
            out = []
            for g, v in _layers(A, i):
                if z3.is_select(v) and v.arg(0).eq(A):
                    out.append((g, v))           # A itself: memory nothing wrote
                else:
                    out += [(g + g2, v2) for g2, v2 in _lift(v, mem_ids)]
            return out
    return [([], t)]


def _has_select(t):
    todo, seen = [t], set()
    while todo:
        x = todo.pop()
        if x.get_id() in seen or not z3.is_app(x):
            continue
        seen.add(x.get_id())
        if z3.is_select(x) or z3.is_array(x):
            return True
        todo.extend(x.children())
    return False


def _match(a, b):
    """Equalities (of positions, exponents, offsets) under which the terms a and b are equal
    because they are the same function of those arguments; None where their shapes differ."""
    if a.eq(b):
        return []
    if z3.is_bv(a) and not _has_select(a) and not _has_select(b):
        return [a == b]
    if z3.is_select(a) and z3.is_select(b):
        m = _match(a.arg(0), b.arg(0))
        return None if m is None else m + ([] if a.arg(1).eq(b.arg(1)) else
                                           [a.arg(1) == b.arg(1)])
    if z3.is_app(a) and z3.is_app(b) and a.decl().eq(b.decl()) and \
            a.num_args() == b.num_args() and not z3.is_quantifier(a):
        out = []
        for x, y in zip(a.children(), b.children()):
            m = _match(x, y)
            if m is None:
                return None
            out += m
        return out
    return None


def _concrete(eng, st, v, what):
    x = z3.simplify(v.v)
    if z3.is_bv_value(x):
        return x.as_long()
    # one value on the path (a field read back through stores the path keeps elsewhere)
    m = eng.sat(st)
    if m is not None:
        val = m.eval(v.v, True)
        if not eng.feasible(st, v.v != val):
            return val.as_long()
    raise Unsupported(f"{what} is not a constant on a path")


def canon(eng, st, S):
    """The state as the specification spelt it, where a recorded state is provably equal on
    its 200 bytes under the path condition (a cut point: the C's terms and the
    specification's then meet at one name, and the uninterpreted f, power and blocks take
    equal arguments syntactically); the state itself otherwise."""
    for v in SP.RECORDED:
        if S.eq(v):
            return v
    # a recorded case split (SP 800-185's bytepad: the block completed or not) whose case
    # the path decides is the C's state syntactically
    memo = {}
    for v in SP.RECORDED:
        # decide only ever returns a node reached through the branches: where S is none,
        # its queries cannot make S
        if z3.is_app_of(v, z3.Z3_OP_ITE) and S.get_id() in _branch_nodes(v) and \
                S.eq(decide(eng, st, v, memo)):
            return v
    for v in SP.RECORDED:
        try:
            if not eng.feasible(st, *state_diff(S, v)):
                return v
        except Unsupported:
            continue
    return S


def _branch_nodes(t):
    """The ids of t and of every term reached from it through if-then-else branches."""
    return _reach([t], lambda x: x.children()[1:] if z3.is_app_of(x, z3.Z3_OP_ITE) else [])


def decide(eng, st, t, memo):
    """t with each if-then-else whose condition the path decides replaced by its branch (the
    specification's case split by length, resolved once per path)."""
    if not z3.is_app(t):
        return t
    if z3.is_app_of(t, z3.Z3_OP_ITE):
        c, a, b = t.children()
        key = c.get_id()
        if key not in memo:
            memo[key] = (True if not eng.feasible(st, z3.Not(c)) else
                         False if not eng.feasible(st, c) else None)
        if memo[key] is True:
            return decide(eng, st, a, memo)
        if memo[key] is False:
            return decide(eng, st, b, memo)
        return t
    return t


def canon_div(eng, st, x, c):
    """floor(x / c) and x mod c as fresh q, r defined on the path (the specification's own
    where its dividend is provably x): done = x - r then needs no divider."""
    x = z3.simplify(x)
    for (y, d, q, r) in SP.DIVS:
        if d == c and (y.eq(x) or not eng.feasible(st, y != x)):
            return q, r
    q, r = z3.FreshConst(z3.BitVecSort(64), "q"), z3.FreshConst(z3.BitVecSort(64), "r")
    st.pc.extend(SP.div_facts(x, c, q, r))
    return q, r


def c_permute(eng, st, args):
    state, rounds = args
    r = _concrete(eng, st, rounds, "the round count")
    S = canon(eng, st, state_view(eng, st, state))
    if r not in (12, 24):
        raise Unsupported(f"a permutation of {r} rounds")
    store_state(eng, st, state, SP.permute(S, r))
    return [(st, None)]


def _blocks_call(eng, st, args, name, verb):
    """What a block loop's contract asks before it acts: its round count and rate, the whole
    blocks of its length (k of them, `done` bytes) and the buffer they stay inside. None when
    the call does nothing (a lane count outside 1..25, or a null buffer with no whole block)."""
    state, rounds, lanes_n, buf, n = args
    r = _concrete(eng, st, rounds, "the round count")
    w = _concrete(eng, st, lanes_n, "the lane count")
    if w == 0 or w > 25:
        return None
    rate = 8 * w
    k, rem = canon_div(eng, st, n.v, rate)
    done = z3.simplify(n.v - rem)
    if buf.oid is None:
        eng.must(st, done == 0, "oob", f"{name}: a null buffer")
        return None
    o = eng.objs[buf.oid]
    eng.must(st, z3.Or(done == 0, z3.And(z3.ULE(done, o.size), z3.ULE(buf.off, o.size - done))),
             "oob", f"{name}: blocks {verb} outside {o.name}")
    return state, buf, o, r, rate, k, done


def c_absorb(eng, st, args):
    call = _blocks_call(eng, st, args, "keccak_p1600_absorb", "read")
    if call is None:
        return [(st, Val(bv(0), T.SIZE_T))]
    state, data, _, r, rate, k, done = call
    S = canon(eng, st, state_view(eng, st, state))
    store_state(eng, st, state, SP.blocks(S, r, rate, st.mem[data.oid], data.off, k))
    return [(st, Val(done, T.SIZE_T))]


def c_squeeze(eng, st, args):
    call = _blocks_call(eng, st, args, "keccak_p1600_squeeze", "written")
    if call is None:
        return [(st, Val(bv(0), T.SIZE_T))]
    state, out, o, r, rate, k, done = call
    if not o.writable:
        eng.must(st, done == 0, "oob", f"keccak_p1600_squeeze: a write to {o.name}")
    S = canon(eng, st, state_view(eng, st, state))
    a = z3.BitVec("a", 64)
    d = a - out.off
    byte = SP.state_byte(SP.power(S, z3.UDiv(d, rate) + 1, r), z3.URem(d, rate))
    old = st.mem[out.oid]
    st.mem[out.oid] = z3.Lambda([a], z3.If(z3.ULT(d, done), byte, old[a]))
    store_state(eng, st, state, SP.power(S, k, r))
    return [(st, Val(done, T.SIZE_T))]


KERNEL_CONTRACTS = {"keccak_p1600": c_permute, "keccak_p1600_absorb": c_absorb,
                    "keccak_p1600_squeeze": c_squeeze}


# -- the public functions --

# The position a contract's exit stored, by the id of the memory the store made: (offset,
# the specification's 64-bit term). Read back under stores to other bytes, the field is that
# term, so the positions of consecutive contracts meet syntactically.
POS_OF = {}


def _stored_pos(st, p, width):
    """The specification's term of the position field at p, where a contract stored it and
    only other bytes were written since; else None."""
    top, off = st.mem[p.oid], z3.simplify(p.off)
    if not z3.is_bv_value(off):
        return None
    while z3.is_app_of(top, z3.Z3_OP_STORE):
        got = POS_OF.get(top.get_id())
        if got is not None:
            break
        i = z3.simplify(top.arg(1))
        if not z3.is_bv_value(i) or 0 <= i.as_long() - off.as_long() < width:
            return None
        top = top.arg(0)
    got = POS_OF.get(top.get_id())
    return got[1] if got is not None and got[0].eq(off) else None


def store_field(eng, st, p, t, v, pos=False):
    """A context's field of type t at p set to v. A position (pos) that is a term is then
    read back as that term (_stored_pos): the callers hold it at most the rate, so its
    field holds it exactly."""
    eng.store(st, p, t, _width(v, t.bits))
    if pos and not isinstance(v, int):
        mem = st.mem[p.oid]
        POS_OF[mem.get_id()] = (z3.simplify(p.off), v, mem)   # kept alive: its id stays


def run_spec(st, make):
    """make()'s specification of a run, its states recorded as the run's cut points and its
    divisions' facts added to the path."""
    SP.RECORDED.clear()
    SP.DIVS.clear()
    SP.FACTS.clear()
    with SP.recorded():
        want = make()
    st.pc.extend(SP.FACTS)
    SP.FACTS.clear()
    return want


def _width(v, bits):
    if isinstance(v, int):
        return bv(v, bits)
    if v.size() > bits:
        return z3.Extract(bits - 1, 0, v)
    return z3.ZeroExt(bits - v.size(), v) if v.size() < bits else v


def guarded(contracts, which, run):
    """The contract `run` at a call of `which`, unless its own proof is the one running
    (contracts holds None for it): then the body runs."""
    def call(eng, st, args):
        if any(k[0] == which and v is None for k, v in contracts.items()):
            return eng.invoke(st, eng.funcs[which], args)
        return run(eng, st, args)
    return call


class Sponge:
    """The obligations of one file's single-state sponge under one configuration."""

    def __init__(self, unit, config):
        self.eng = Engine(unit, config.big_endian)
        self.eng.externs.update(KERNEL_CONTRACTS)
        self.helpers = Helpers(config.big_endian)
        self.ctx_t = self.eng.typedefs.get("keccak_sponge")
        self.helpers_proven = None
        # (function, rate, rounds) -> True, or the Failure/Unsupported its proof ended with
        self.contracts = {}
        for which, run in (("rs_sponge_absorb", self.contract_absorb),
                           ("rs_sponge_squeeze", self.contract_squeeze)):
            if which in self.eng.funcs:
                self.eng.summaries[which] = guarded(self.contracts, which, run)

    def prove_helpers(self):
        """The byte helpers' summaries, proven once; then used at every call."""
        if self.helpers_proven is None:
            try:
                for which in ("rs_xor_bytes", "rs_extract_bytes"):
                    if which in self.eng.funcs:
                        prove_helper(self.eng, which, self.helpers)
                        self.eng.summaries[which] = self.helpers.summary(which)
                self.helpers_proven = True
            except Failure as f:
                self.helpers_proven = f
        return self.helpers_proven

    def _field(self, name):
        return self.ctx_t.field(name)

    def related(self, st, oid, S, pos, phase, rate, rounds, domain):
        """A context object holding (S, pos, phase): the stores R asks for, on a fresh array."""
        st.mem[oid] = z3.Const(f"ctx_rest{len(self.eng.objs)}", BYTES)
        self.establish(st, Ptr(oid, bv(0), None), S, pos, phase, rate, rounds, domain)

    def r_holds(self, st, oid, pos, phase, rate, rounds, domain):
        """The conditions of R on the context's fields, one Bool each with a name."""
        eng = self.eng
        conds = []
        for name, v in (("rate", rate), ("pos", pos), ("rounds", rounds), ("domain", domain),
                        ("squeezing", phase)):
            _, t, off = self._field(name)
            got = eng.load(st, Ptr(oid, bv(off), t), t)
            want = _width(v, t.bits)
            conds.append((name, got == want))
        return conds

    def check_r(self, st, oid, spec, what):
        S, rest = spec[0], spec[1:]
        memo = {}
        S = decide(self.eng, st, S, memo)
        rest = (decide(self.eng, st, rest[0], memo),) + tuple(rest[1:])
        # the state's 200 bytes in one query over a symbolic byte index
        view = state_view(self.eng, st, Ptr(oid, bv(0), None), False)
        j = z3.BitVec("j", 64)
        got = z3.substitute_vars(view.body(), j) if z3.is_quantifier(view) else \
            z3.Select(view, j)
        self.same(st, j, [z3.ULT(j, STATE_BYTES)], got, z3.Select(S, j), what,
                  "the context's state byte")
        for name, c in self.r_holds(st, oid, *rest):
            c = z3.simplify(c)
            if z3.is_true(c):
                continue
            m = self.eng.sat(st, z3.Not(c))
            if m is not None:
                raise Failure("mismatch", f"{what}: the context's {name} differs from the "
                              "specification's state", m, st, [z3.Not(c)])

    def same(self, st, x, guard, got, want, what, label):
        """got == want (bytes, functions of x) wherever guard holds on the path, else a
        Failure. Case by case first: each range the C wrote against each case of the
        standard's byte, equal where the arguments of the same terms are (arithmetic the
        integers decide); the whole byte at once where the shapes differ."""
        mem_ids = _memory_ids(st)
        for gc, leaf in _lift(got, mem_ids):
            for gs, vs in _lift(want, mem_ids):
                where = [*guard, *gc, *gs]
                if not self.eng.feasible(st, *where):
                    continue
                need = _match(leaf, vs)
                if need == []:
                    continue
                q = where + ([z3.Not(z3.And(*need))] if need is not None else
                             [unfold(leaf) != unfold(vs)])
                m = self.eng.sat(st, *q)
                if m is not None:
                    raise Failure("mismatch", f"{what}: {label} {m.eval(x, True)} differs from "
                                  "the specification's", m, st, q)

    def check_out(self, st, oid, n, byte_of, what):
        x = z3.BitVec("i", 64)
        had = len(SP.FACTS)
        want = byte_of(x)
        guard = [z3.ULT(x, n), *SP.FACTS[had:]]
        for gc, vc in _layers(st.mem[oid], x):
            self.same(st, x, guard + gc, vc, want, what, "output byte")

    def prove(self, name):
        """Raises Failure or Unsupported; returns the cases run."""
        fam, role = classify(name)
        rate, rounds, domain, digest = FAMILIES[fam]
        fd = self.eng.funcs.get(name)
        if fd is None:
            raise Unsupported(f"{name} has no definition in this file")
        if self.ctx_t is None:
            raise Unsupported("keccak_sponge has no definition here")
        got = self.prove_helpers()
        if isinstance(got, Failure):
            raise got
        if role != "init":      # an init calls neither: a call would find no contract
            self.ensure_contracts(rate, rounds, digest)
        with SP.scope():
            return self._run(fd, role, rate, rounds, domain, digest)

    # -- the sponge's own absorb and squeeze, proven once per rate and round count --

    def ensure_contracts(self, rate, rounds, out=None, squeeze=True):
        """Prove rs_sponge_absorb (every length) and, with squeeze, rs_sponge_squeeze (of
        `out` bytes, or of every length where out is None) for this rate and round count,
        every domain byte, position and phase, unless done; a failure is the caller's."""
        for which, role, n in (("rs_sponge_absorb", "absorb", None),
                               ("rs_sponge_squeeze", "squeeze", out)):
            if which not in self.eng.funcs or (role == "squeeze" and not squeeze):
                continue
            key = (which, rate, rounds, n)
            if key not in self.contracts:
                self.contracts[key] = None           # being proven: its own body runs
                try:
                    with SP.scope():
                        self._run(self.eng.funcs[which], role, rate, rounds, None, None, n)
                    self.contracts[key] = True
                except Failure as f:
                    f.role = "update" if role == "absorb" else "squeeze"
                    self.contracts[key] = f
                except Unsupported as u:
                    self.contracts[key] = u
            got = self.contracts[key]
            if isinstance(got, (Failure, Unsupported)):
                raise got

    def _fields(self, st, ctx):
        eng = self.eng
        out = {}
        for name in ("rate", "pos", "rounds", "domain", "squeezing"):
            _, t, off = self._field(name)
            out[name] = (eng.load(st, Ptr(ctx.oid, ctx.off + off, t), t), t, off)
        return out

    def _contract_entry(self, st, args, which):
        """The context a contract is called on, as R's (S, pos, phase, rate, rounds, domain),
        with R's conditions on it checked; the buffer's bounds checked."""
        eng = self.eng
        ctx, buf, n = args
        eng.check_access(st, ctx, self.ctx_t.size, True)
        f = self._fields(st, ctx)
        rate = _concrete(eng, st, Val(f["rate"][0], f["rate"][1]), "the context's rate")
        rounds = _concrete(eng, st, Val(f["rounds"][0], f["rounds"][1]),
                           "the context's round count")
        nv = z3.simplify(n.v)
        got = self.contracts.get((which, rate, rounds, None))
        if got is not True and z3.is_bv_value(nv):
            got = self.contracts.get((which, rate, rounds, nv.as_long()), got)
        if got is not True:
            raise Unsupported(f"{which} at rate {rate}, {rounds} rounds is not proven "
                              f"({got})" if got is not None else
                              f"{which} at rate {rate}, {rounds} rounds calls itself")
        pos = z3.simplify(z3.ZeroExt(64 - f["pos"][1].bits, f["pos"][0]))
        _, t, off = self._field("pos")
        got = _stored_pos(st, Ptr(ctx.oid, ctx.off + off, t), t.size)
        pos = pos if got is None else got
        phase = f["squeezing"][0]
        eng.must(st, z3.Or(z3.And(phase == 0, z3.ULT(pos, rate)),
                           z3.And(phase == 1, z3.UGE(pos, 1), z3.ULE(pos, rate))),
                 "mismatch", f"{which}: a context outside the sponge's states (pos, phase)")
        check_buffer(eng, st, buf, n.v, which, write=which == "rs_sponge_squeeze")
        S = canon(eng, st, state_view(eng, st, ctx))
        return ctx, buf, n.v, S, pos, phase, rate, rounds, f

    def _contract_exit(self, st, ctx, f, S, pos, phase):
        store_state(self.eng, st, ctx, S)
        for name, v in (("pos", pos), ("squeezing", phase)):
            _, t, off = f[name]
            store_field(self.eng, st, Ptr(ctx.oid, ctx.off + off, t), t, v, name == "pos")

    def establish(self, st, ctx, S, pos, phase, rate, rounds, domain):
        """The context at ctx made to hold (S, pos, phase) of this rate, round count and
        domain byte: every field R reads, as a contract's exit stores them."""
        f = {name: self._field(name) for name in ("rate", "pos", "rounds", "domain",
                                                  "squeezing")}
        for name, v in (("rate", rate), ("rounds", rounds), ("domain", domain)):
            _, t, off = f[name]
            store_field(self.eng, st, Ptr(ctx.oid, ctx.off + off, t), t, v)
        self._contract_exit(st, ctx, f, S, pos, phase)

    def contract_absorb(self, eng, st, args):
        ctx, buf, n, S, pos, phase, rate, rounds, f = self._contract_entry(
            st, args, "rs_sponge_absorb")
        outs = []
        for s2, absorbing in eng.split(st, phase == 0):
            if absorbing:
                mem, off = input_bytes(eng, s2, buf, n)
                had = len(SP.FACTS)
                S2, p2 = SP.absorb(S, pos, mem, off, n, rate, rounds)
                s2.pc.extend(SP.FACTS[had:])
                self._contract_exit(s2, ctx, f, S2, p2, bv(0, 8))
            outs.append((s2, None))
        return outs

    def contract_squeeze(self, eng, st, args):
        ctx, buf, n, S, pos, phase, rate, rounds, f = self._contract_entry(
            st, args, "rs_sponge_squeeze")
        dom = z3.simplify(z3.ZeroExt(64 - f["domain"][1].bits, f["domain"][0]))
        outs = []
        for s2, squeezing in eng.split(st, phase == 1):
            S0, p0 = (S, pos) if squeezing else (SP.pad(S, pos, rate, dom), bv(rate))
            had = len(SP.FACTS)
            if buf.oid is not None:
                a = z3.BitVec("a", 64)
                d = a - buf.off
                old = s2.mem[buf.oid]
                s2.mem[buf.oid] = z3.Lambda([a], z3.If(
                    z3.ULT(d, n), SP.stream_byte(S0, p0, d, rate, rounds), z3.Select(old, a)))
            S2, p2 = SP.squeeze_state(S0, p0, n, rate, rounds)
            s2.pc.extend(SP.FACTS[had:])
            self._contract_exit(s2, ctx, f, S2, p2, bv(1, 8))
            outs.append((s2, None))
        return outs

    def _run(self, fd, role, rate, rounds, domain, digest, fixed=None):
        """Run fd (a public function, or the sponge's absorb or squeeze as `role`) on every
        case of its role and check its result against the specification; `fixed`: a squeeze
        of that many bytes only."""
        eng = self.eng
        params, _ = eng.params(fd)
        dom_param = z3.ZeroExt(56, z3.BitVec("domain", 8))
        dom = bv(domain) if domain is not None else dom_param
        cases = 0
        for phase in ((0,) if role in ("init", "oneshot") else (0, 1)):
            for null in ((False,) if role in ("init", "final") or fixed else (False, True)):
                st = State([], {}, {})
                S = z3.Const("S", BYTES)
                p8 = z3.BitVec("pos", 8)
                pos = z3.ZeroExt(56, p8)
                st.pc.append(z3.ULT(pos, rate) if phase == 0 else
                             z3.And(z3.UGE(pos, 1), z3.ULE(pos, rate)))
                n = z3.BitVec("len", 64)
                if role == "final":
                    n = bv(digest)
                elif fixed is not None:
                    n = bv(fixed)
                args, ctx, buf = [], None, None
                if role != "oneshot":
                    ctx = eng.new_obj(st, "ctx", self.ctx_t.size)
                    if role != "init":
                        self.related(st, ctx.oid, S, pos, bv(phase, 8), rate, rounds, dom)
                    args.append(Ptr(ctx.oid, bv(0), params[0][1]))
                if null:
                    st.pc.append(n == 0)
                if role in ("update", "absorb"):
                    buf = None if null else eng.new_obj(st, "in", n, writable=False)
                    args += [Ptr(buf.oid if buf else None, bv(0), params[1][1]),
                             Val(n, T.SIZE_T)]
                elif role in ("final", "squeeze"):
                    buf = None if null else eng.new_obj(st, "out", n)
                    args += [Ptr(buf.oid if buf else None, bv(0), params[1][1])]
                    if role == "squeeze":
                        args.append(Val(n, T.SIZE_T))
                elif role == "init":
                    if domain is None:
                        args.append(Val(z3.Extract(7, 0, dom_param), T.U8))
                else:
                    inlen = z3.BitVec("inlen", 64)
                    src = eng.new_obj(st, "in", inlen, writable=False)
                    if null:
                        st.pc.append(inlen == 0)
                    outn = bv(digest) if digest is not None else n
                    out = eng.new_obj(st, "out", outn)
                    args = [Ptr(out.oid, bv(0), params[0][1])]
                    if digest is None:
                        args.append(Val(n, T.SIZE_T))
                    args += [Ptr(None if null else src.oid, bv(0), params[-2 if domain is not None
                                                                         else -3][1]),
                             Val(inlen, T.SIZE_T)]
                    if digest is not None:
                        args = [args[0], args[1], args[2]]
                    if domain is None:
                        args.append(Val(z3.Extract(7, 0, dom_param), T.U8))
                entry = dict(st.mem)
                env = locals()
                want = run_spec(st, lambda: self._spec(role, buf, entry, S, pos, phase, n, rate,
                                                       rounds, dom, digest, env))
                for s2, _ in eng.invoke(st, fd, args):
                    cases += 1
                    self._check(s2, role, ctx, want)
        return cases

    def _check(self, st, role, ctx, want):
        what = "the result"
        outs, r = want
        for oid, n, byte_of in outs:
            self.check_out(st, oid, n, byte_of, what)
        if r is not None:
            self.check_r(st, ctx.oid, r, what)

    def _spec(self, role, buf, entry, S, pos, phase, n, rate, rounds, dom, digest, env):
        """([(object, length, byte i of it)], R's state after the call or None)."""
        if role == "init":
            return [], (SP.zero_state(), bv(0), 0, rate, rounds, dom)
        SP._record(S)               # the incoming state is a cut point
        if role in ("update", "absorb"):
            if phase:
                S2, p2 = S, pos
            else:
                mem = entry[buf.oid] if buf else z3.K(z3.BitVecSort(64), z3.BitVecVal(0, 8))
                S2, p2 = SP.absorb(S, pos, mem, bv(0), n, rate, rounds)
            return [], (S2, p2, phase, rate, rounds, dom)
        if role in ("final", "squeeze"):
            S0, p0 = (S, pos) if phase else (SP.pad(S, pos, rate, dom), bv(rate))
            SP.power(S0, bv(1), rounds)          # S0 is a cut point
            outs = []
            if buf is not None:
                outs.append((buf.oid, n, lambda i: SP.stream_byte(S0, p0, i, rate, rounds)))
            S2, p2 = SP.squeeze_state(S0, p0, n, rate, rounds)
            return outs, (S2, p2, 1, rate, rounds, dom)
        # one-shot: absorb everything from the zero state, pad, squeeze
        out, src, inlen = env["out"], env["src"], env["inlen"]
        mem = entry[src.oid]
        S1, p1 = SP.absorb(SP.zero_state(), bv(0), mem, bv(0), inlen, rate, rounds)
        S0 = SP.pad(S1, p1, rate, dom)
        SP.power(S0, bv(1), rounds)
        return [(out.oid, env["outn"], lambda i: SP.stream_byte(S0, bv(rate), i, rate,
                                                                rounds))], None
