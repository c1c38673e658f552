# SPDX-License-Identifier: Apache-2.0 OR MIT
"""ChaCha's public functions (chacha.h: chacha{8,12,20}_keysetup, _get_keystream,
chacha20_xor, chacha20_ietf_xor, chacha_level) proven equal to spec_chacha_api.py for every
length, counter and key, memory-safe and free of undefined behaviour, by the engine of
symexec.py.

keysetup is run on a context of exactly its size with symbolic key and IV bytes (both key
sizes, a NULL IV) and must leave the specification's 16 words; get_keystream is run on a
context of any 16 words, a symbolic 64-bit position and a symbolic block count, and must
write the specification's keystream into a buffer of exactly n_blocks * 64 bytes; so every
keysetup followed by get_keystreams gives the standard's bytes. chacha20_xor and
chacha20_ietf_xor are run whole with a symbolic size_t length and counter, the key, IV or
nonce symbolic buffers of their declared sizes, in and out of exactly len bytes: separate,
the same buffer (out == in), or either or both NULL with len 0.

Contracts (what the proof assumes of the calls it does not run): rs_chachaN_block and the
vector levels (rs_chachaN_avx512, _avx2, _sse2, _neon) write "the RFC keystream of n blocks
from counter pos (64-bit across words 12-13 when wide, word 12 alone otherwise), xored with
in unless in is NULL" and nothing else: what the kernel prover proves of them
(chacha_obligations.py) for its sampled block counts, taken here for every n. The contract
checks its own precondition at each call: the blocks inside out and in, and in either out
itself or another object. rs_choice returns any int. The two loops of the file (a run's block
loop, the final partial block's byte loop) run by induction: at the loop head the prover
proposes "after k iterations every stepped variable has moved k steps and the output holds
the first k blocks (bytes) of the specification's", proves it on entry and across one
symbolic iteration, and leaves the loop with it and the exit condition.
"""

import re

import z3

from . import ctypes_ as T
from . import spec_chacha_api as SC
from .symexec import BV64, Engine, Failure, Ptr, State, Unsupported, Val, bv, sel

ROUNDS = (8, 12, 20)
LEVEL_FN = re.compile(r"rs_chacha(8|12|20)_(avx512|avx2|sse2|neon)$")
BLOCK_FN = re.compile(r"rs_chacha(8|12|20)_block$")


def _arr_eq(eng, st, a, b, what):
    """a and b hold the same bytes on the path (Failure with the query otherwise)."""
    if a.eq(b):
        return
    x = z3.BitVec("x", 64)
    q = [sel(a, x) != sel(b, x)]
    m = eng.sat(st, *q)
    if m is not None:
        raise Failure("mismatch", what, m, st, q)


def classify(name):
    """(role, rounds) of a public ChaCha function, or None."""
    m = re.fullmatch(r"chacha(8|12|20)_(keysetup|get_keystream)", name)
    if m:
        return m.group(2), int(m.group(1))
    if name == "chacha20_xor":
        return "xor", 20
    if name == "chacha20_ietf_xor":
        return "ietf_xor", 20
    if name == "chacha_level":
        return "level", 0
    return None


def _concrete(v, what):
    x = z3.simplify(v.v)
    if not z3.is_bv_value(x):
        raise Unsupported(f"{what} is not a constant on a path")
    return x.as_long()


class Chacha:
    """The obligations of one file's ChaCha API under one configuration."""

    def __init__(self, unit, config):
        self.eng = Engine(unit, config.big_endian)
        self.recorded = []          # the specification's words: the cut points
        self._eq = {}
        self.shared_choice = None
        self.used = set()           # the contracts the last proof took
        eng = self.eng
        eng.externs["rs_choice"] = self._choice
        for name in eng.funcs:
            m = LEVEL_FN.match(name)
            if m:
                eng.summaries[name] = self._level_contract(int(m.group(1)), m.group(2))
            m = BLOCK_FN.match(name)
            if m:
                eng.summaries[name] = self._block_contract(int(m.group(1)))
        for r in ROUNDS:
            eng.invariants[f"rs_chacha{r}_run"] = self._run_invariant(r)
        eng.invariants["rs_chacha20_xor_any"] = self._bytes_invariant

    # -- contracts --

    def _choice(self, eng, st, args):
        v = self.shared_choice if self.shared_choice is not None else \
            z3.FreshConst(z3.BitVecSort(32), "level")
        return [(st, Val(v, T.INT))]

    def canon(self, w):
        """w as the specification spelt it where the two are equal for every input (a cut
        point: the uninterpreted block function then takes syntactically equal words)."""
        w = z3.simplify(w)
        for r in self.recorded:
            if r.eq(w):
                return r
        for r in self.recorded:
            key = (w.get_id(), r.get_id())
            if key not in self._eq:
                s = z3.Solver()
                s.set("timeout", 30000)
                s.add(w != r)
                # the terms kept with the answer: an id is not reused while its term lives
                self._eq[key] = (s.check() == z3.unsat, w, r)
            if self._eq[key][0]:
                return r
        return w

    def state_words(self, st, p):
        self.eng.check_access(st, p, 64, False)
        return [self.canon(self.eng.load(st, Ptr(p.oid, p.off + 4 * j, None), T.U32))
                for j in range(16)]

    def _mark(self, st, name):
        st.pc.append(z3.Bool(f"ran {name}"))

    def _buffers(self, st, inp, out, nbytes, who):
        eng = self.eng
        empty = nbytes == 0
        if out.oid is None:
            eng.must(st, empty, "oob", f"{who}: blocks written to a null pointer")
        else:
            o = eng.objs[out.oid]
            if not o.writable:
                eng.must(st, empty, "oob", f"{who}: a write to the read-only {o.name}")
            eng.must(st, z3.Or(empty, z3.And(z3.ULE(nbytes, o.size),
                                             z3.ULE(out.off, o.size - nbytes))),
                     "oob", f"{who}: blocks written outside {o.name}")
        if inp.oid is not None:
            o = eng.objs[inp.oid]
            eng.must(st, z3.Or(empty, z3.And(z3.ULE(nbytes, o.size),
                                             z3.ULE(inp.off, o.size - nbytes))),
                     "oob", f"{who}: blocks read outside {o.name}")
            if inp.oid == out.oid:
                eng.must(st, z3.Or(empty, inp.off == out.off), "oob",
                         f"{who}: in and out overlap without being equal")

    def blocks_effect(self, mem, words, pos, wide, inp, out, nbytes, rounds):
        """out's bytes once blocks pos, pos + 1, ... of words have been written over its
        first nbytes bytes (xored with in's, unless in is NULL)."""
        a = z3.BitVec("a", 64)
        d = a - out.off
        byte = SC.ks(rounds)(*SC.block_words(words, pos, z3.LShR(d, 6), wide),
                             z3.Extract(5, 0, d))
        if inp.oid is not None:
            byte = byte ^ mem[inp.oid][inp.off + d]
        return z3.Lambda([a], z3.If(z3.ULT(d, nbytes), byte, mem[out.oid][a]))

    def _block_contract(self, rounds):
        def run(eng, st, args):
            stp, w12, w13, inp, out = args
            who = f"rs_chacha{rounds}_block"
            self.used.add(who)
            words = self.state_words(st, stp)
            words[12], words[13] = z3.simplify(w12.v), z3.simplify(w13.v)
            self._buffers(st, inp, out, bv(64), who)
            st = st.fork()
            if eng.fn_stack and eng.fn_stack[-1].endswith("_run"):
                self._mark(st, "scalar")
            a = z3.BitVec("a", 64)
            d = a - out.off
            byte = SC.ks(rounds)(*words, z3.Extract(5, 0, d))
            if inp.oid is not None:
                byte = byte ^ st.mem[inp.oid][inp.off + d]
            st.mem[out.oid] = z3.Lambda([a], z3.If(z3.ULT(d, 64), byte, st.mem[out.oid][a]))
            return [(st, None)]
        return run

    def _level_contract(self, rounds, level):
        def run(eng, st, args):
            stp, pos, wide, inp, out, n = args
            who = f"rs_chacha{rounds}_{level}"
            self.used.add(who)
            wide = _concrete(wide, "wide")
            words = self.state_words(st, stp)
            eng.must(st, z3.ULE(n.v, (1 << 58) - 1), "oob", f"{who}: 64 n bytes overflow")
            nbytes = z3.simplify(n.v * 64)
            self._buffers(st, inp, out, nbytes, who)
            st = st.fork()
            self._mark(st, level)
            if out.oid is not None:
                st.mem[out.oid] = self.blocks_effect(st.mem, words, pos.v, wide, inp, out,
                                                     nbytes, rounds)
            return [(st, None)]
        return run

    # -- loops by induction --

    def _induct(self, st, iterate, stepped, bound, effect, fn):
        """Run a loop by induction over its iteration count k (see the module's text).
        stepped: {variable: step}; bound: the most iterations; effect(k): {object: bytes}."""
        eng = self.eng
        for oid, arr in effect(bv(0)).items():
            _arr_eq(eng, st, st.mem[oid], arr, f"{fn}: the loop invariant fails on entry")
        k = z3.FreshConst(BV64, "k")
        h = st.fork(z3.ULE(k, bound))

        def at(v, s, t):
            cur = st.env[v]
            if isinstance(cur, Ptr):
                return Ptr(cur.oid, z3.simplify(cur.off + s * t), cur.t)
            return Val(z3.simplify(cur.v + z3.Extract(cur.t.bits - 1, 0, bv(s) * t)), cur.t)
        for v, s in stepped.items():
            h.env[v] = at(v, s, k)
        now = effect(k)
        for oid, arr in now.items():
            h.mem[oid] = arr
        exits = []
        for s2, kind, val in iterate(h):
            if kind == "again":
                eng.must(s2, z3.ULT(k, bound), "mismatch", f"{fn}: the loop runs past its count")
                for v, s in stepped.items():
                    want, got = at(v, s, k + 1), s2.env[v]
                    if isinstance(want, Ptr):
                        ok = z3.And(z3.BoolVal(want.oid == got.oid), want.off == got.off)
                    else:
                        ok = want.v == got.v
                    eng.must(s2, ok, "mismatch", f"{fn}: {v} does not step as the invariant says")
                nxt = effect(k + 1)
                for oid, arr in nxt.items():
                    _arr_eq(eng, s2, s2.mem[oid], arr, f"{fn}: one iteration breaks the invariant")
                for oid, arr in s2.mem.items():
                    if oid not in nxt and oid in h.mem and not arr.eq(h.mem[oid]):
                        _arr_eq(eng, s2, arr, h.mem[oid], f"{fn}: writes outside its invariant")
            elif kind == "normal":
                exits.append((s2, "normal", None))
            else:
                raise Unsupported(f"a {kind} inside a loop of {fn}")
        return exits

    def _run_invariant(self, rounds):
        """for (; n; n--, pos++, out += 64) { block(pos); if (in) in += 64; }: after k
        iterations the first 64 k bytes of out are blocks pos .. pos + k - 1."""
        def inv(eng, st, node, iterate):
            fn = f"rs_chacha{rounds}_run"
            env = st.env
            inp, out, pos, n = env["in"], env["out"], env["pos"], env["n"]
            wide = _concrete(env["wide"], "wide")
            words = self.state_words(st, env["st"])
            self._mark(st, "scalar")
            stepped = {"n": -1, "pos": 1, "out": 64}
            if inp.oid is not None:
                stepped["in"] = 64
            entry = dict(st.mem)

            def effect(k):
                if out.oid is None:
                    return {}
                return {out.oid: self.blocks_effect(entry, words, pos.v, wide, inp, out,
                                                    z3.simplify(k * 64), rounds)}
            return self._induct(st, iterate, stepped, n.v, effect, fn)
        return inv

    def _bytes_invariant(self, eng, st, node, iterate):
        """for (i = 0; i < rest; i++) out[64 full + i] = in[64 full + i] ^ block[i]: after k
        iterations bytes 64 full .. 64 full + k - 1 of out are in's xored with block's."""
        fn = "rs_chacha20_xor_any"
        env = st.env
        inp, out, full, rest = env["in"], env["out"], env["full"], env["rest"]
        _, boid, _ = env["block"]
        if out.oid is None or inp.oid is None:
            raise Unsupported(f"{fn}: a partial block with a null buffer")
        entry = dict(st.mem)
        base = z3.simplify(full.v * 64)

        def effect(k):
            a = z3.BitVec("a", 64)
            t = a - out.off - base
            byte = entry[inp.oid][inp.off + base + t] ^ entry[boid][t]
            return {out.oid: z3.Lambda([a], z3.If(z3.ULT(t, k), byte, entry[out.oid][a]))}
        return self._induct(st, iterate, {"i": 1}, rest.v, effect, fn)

    # -- the public functions --

    def check_out(self, st, oid, n, byte_of, what):
        x = z3.BitVec("i", 64)
        q = [z3.ULT(x, n), sel(st.mem[oid], x) != byte_of(x)]
        m = self.eng.sat(st, *q)
        if m is not None:
            raise Failure("mismatch", f"{what}: output byte {m.eval(x, True)} differs from "
                          "the specification's", m, st, q)

    def prove(self, name):
        """Raises Failure or Unsupported; returns the paths run."""
        role, rounds = classify(name)
        eng = self.eng
        fd = eng.funcs.get(name)
        if fd is None:
            raise Unsupported(f"{name} has no definition in this file")
        self.used = set()
        return getattr(self, "_prove_" + role)(name, fd, rounds)

    @staticmethod
    def _ctx_size(params):
        t = params[0][1].to
        if not isinstance(t, T.Struct):
            raise Unsupported("a context that is not a struct")
        return t.size

    def _prove_keysetup(self, name, fd, rounds):
        eng = self.eng
        params, _ = eng.params(fd)
        paths = 0
        for key256 in (True, False):
            for iv_null in (False, True):
                st = State([], {}, {})
                ctx = eng.new_obj(st, "ctx", self._ctx_size(params))
                key = eng.new_obj(st, "k", 32 if key256 else 16, writable=False)
                kb = z3.BitVec("kbits", 32)
                st.pc.append(kb == 256 if key256 else kb != 256)
                iv = None if iv_null else eng.new_obj(st, "iv", 8, writable=False)
                want = SC.key_state(st.mem[key.oid], bv(0), key256,
                                    None if iv is None else st.mem[iv.oid], bv(0))
                args = [Ptr(ctx.oid, bv(0), params[0][1]), Ptr(key.oid, bv(0), params[1][1]),
                        Val(kb, T.U32), Ptr(None if iv is None else iv.oid, bv(0), params[3][1])]
                try:
                    for s2, _ in eng.invoke(st, fd, args):
                        paths += 1
                        for j in range(16):
                            got = eng.load(s2, Ptr(ctx.oid, bv(4 * j), None), T.U32)
                            c = z3.simplify(got == want[j])
                            if z3.is_true(c):
                                continue
                            m = eng.sat(s2, z3.Not(c))
                            if m is not None:
                                raise Failure("mismatch", f"the context's word {j} differs from "
                                              "the specification's", m, s2, [z3.Not(c)])
                except Failure as f:
                    f.case = {"key": "256-bit" if key256 else "128-bit",
                              "iv": "NULL" if iv_null else "8 bytes"}
                    raise
        return paths

    def _prove_get_keystream(self, name, fd, rounds):
        eng = self.eng
        params, _ = eng.params(fd)
        st = State([], {}, {})
        ctx = eng.new_obj(st, "ctx", self._ctx_size(params), writable=False)
        S = [z3.simplify(eng.load(st, Ptr(ctx.oid, bv(4 * j), None), T.U32)) for j in range(16)]
        self.recorded = S
        pos = z3.BitVec("pos", 64)
        nb = z3.BitVec("n_blocks", 32)
        nbytes = z3.ZeroExt(32, nb) * 64
        c = eng.new_obj(st, "c", nbytes)
        args = [Ptr(ctx.oid, bv(0), params[0][1]), Val(pos, T.U64), Val(nb, T.U32),
                Ptr(c.oid, bv(0), params[3][1])]
        paths = 0
        for s2, _ in eng.invoke(st, fd, args):
            paths += 1
            self.check_out(s2, c.oid, nbytes,
                           lambda i: SC.stream_byte(rounds, S, pos, True, i), "the keystream")
        return paths

    def _prove_xor(self, name, fd, rounds, ietf=False):
        eng = self.eng
        params, _ = eng.params(fd)
        paths = 0
        # chacha.h: out == in is allowed, other overlaps are not; in and out may be NULL
        # (either or both) only when len is 0
        for layout in ("separate", "in-place", "null", "null in", "null out"):
            st = State([], {}, {})
            n = z3.BitVec("len", 64)
            key = eng.new_obj(st, "key", 32, writable=False)
            iv = eng.new_obj(st, "nonce" if ietf else "iv", 12 if ietf else 8, writable=False)
            if ietf:
                ctr = z3.BitVec("counter", 32)
                counter = z3.ZeroExt(32, ctr)
                S = SC.ietf_state(st.mem[key.oid], bv(0), st.mem[iv.oid], bv(0))
            else:
                ctr = counter = z3.BitVec("counter", 64)
                S = SC.key_state(st.mem[key.oid], bv(0), True, st.mem[iv.oid], bv(0))
            self.recorded = [w for w in S if not z3.is_bv_value(w)]
            if layout.startswith("null"):
                st.pc.append(n == 0)
                out = None if layout in ("null", "null out") else eng.new_obj(st, "out", n)
                inp = None if layout in ("null", "null in") else \
                    eng.new_obj(st, "in", n, writable=False)
            else:
                out = eng.new_obj(st, "out", n)
                inp = out if layout == "in-place" else eng.new_obj(st, "in", n, writable=False)
            entry = dict(st.mem)
            args = [Ptr(None if out is None else out.oid, bv(0), params[0][1]),
                    Ptr(None if inp is None else inp.oid, bv(0), params[1][1]), Val(n, T.SIZE_T),
                    Ptr(key.oid, bv(0), params[3][1]), Ptr(iv.oid, bv(0), params[4][1]),
                    Val(ctr, T.U32 if ietf else T.U64)]
            try:
                for s2, _ in eng.invoke(st, fd, args):
                    paths += 1
                    if out is not None and inp is not None:
                        self.check_out(s2, out.oid, n, lambda i: SC.xor_byte(
                            rounds, S, counter, not ietf, entry[inp.oid], bv(0), i),
                            f"the output ({layout})")
            except Failure as f:
                f.case = {"layout": layout}
                raise
        return paths

    def _prove_ietf_xor(self, name, fd, rounds):
        return self._prove_xor(name, fd, rounds, ietf=True)

    def _prove_level(self, name, fd, rounds):
        """The name is a NUL-terminated string in bounds, and it names the level the block
        loop (rs_chacha20_run) dispatches to for the same rs_choice value: "scalar" where the
        run's own loop serves the blocks."""
        eng = self.eng
        self.shared_choice = z3.BitVec("level", 32)
        try:
            names = []
            for s2, p in eng.invoke(State([], {}, {}), fd, []):
                if not isinstance(p, Ptr) or p.oid is None:
                    m = eng.sat(s2)
                    raise Failure("mismatch", "a null level name", m, s2)
                text = b""
                for i in range(32):
                    c = z3.simplify(eng.load_bytes(s2, Ptr(p.oid, p.off + i, None), 1)[0])
                    if not z3.is_bv_value(c):
                        raise Unsupported("a level name that is not constant")
                    if c.as_long() == 0:
                        break
                    text += bytes([c.as_long()])
                names.append((s2, text.decode()))
            run = eng.funcs.get("rs_chacha20_run")
            if run is None:
                raise Unsupported("rs_chacha20_run has no definition here")
            st = State([], {}, {})
            so = eng.new_obj(st, "st", 64, writable=False)
            out = eng.new_obj(st, "out", bv(64 * 64))
            n = z3.BitVec("n", 64)
            st.pc += [z3.UGE(n, 4), z3.ULE(n, 64)]
            params, _ = eng.params(run)
            ran = []
            for s2, _ in eng.invoke(st, run, [Ptr(so.oid, bv(0), params[0][1]),
                                              Val(z3.BitVec("pos", 64), T.U64),
                                              Val(bv(1, 32), T.INT), Ptr(None, bv(0), params[3][1]),
                                              Ptr(out.oid, bv(0), params[4][1]),
                                              Val(n, T.SIZE_T)]):
                marks = {str(x)[4:] for x in s2.pc if z3.is_const(x) and z3.is_bool(x)
                         and str(x).startswith("ran ")}
                ran.append((s2, marks))
            for s1, text in names:
                for s2, marks in ran:
                    if eng.feasible(State(s1.pc + s2.pc, {}, {})) and marks != {text}:
                        m = eng.sat(State(s1.pc + s2.pc, {}, {}))
                        raise Failure("mismatch", f"chacha_level says {text!r} where the blocks "
                                      f"run on {', '.join(sorted(marks)) or 'nothing'}", m, s2)
            return len(names)
        finally:
            self.shared_choice = None


# -- counterexamples --


def smallest(failure, eng):
    """The failing path's model with the lengths as small as z3 finds them (the reproduction
    allocates them and embeds the standard's bytes)."""
    if failure.state is None:
        return failure.model
    n = z3.BitVec("len", 64)
    nb = z3.BitVec("n_blocks", 32)
    for lb, bb in ((1 << 8, 4), (1 << 12, 64), (1 << 16, 1024)):
        try:
            m = eng.sat(failure.state, *failure.query, z3.ULE(n, lb), z3.ULE(nb, bb))
        except Exception:
            m = None
        if m is not None:
            return m
    return failure.model


def counterexample_text(name, failure, chacha, cnames):
    m = smallest(failure, chacha.eng)
    role = classify(name)[0]
    names = {"keysetup": ("kbits",), "get_keystream": ("pos", "n_blocks"),
             "level": ("level",)}.get(role, ("len", "counter"))
    vals = {}
    for d in m.decls():
        if d.arity() == 0 and d.name() in names:
            vals[d.name()] = m[d].as_long()
    case = getattr(failure, "case", {})
    lines = [f"    kind: {failure.kind}; the call's " +
             ", ".join(f"{k} = {v}" for k, v in sorted(vals.items())) +
             "".join(f"; {k}: {v}" for k, v in sorted(case.items()))]
    lines.append("    reproduce (cc -fsanitize=address -I<folder> repro.c <folder>/*.c && "
                 "./a.out):")
    lines += ["      " + x for x in c_repro(name, vals, case).splitlines()]
    return "\n".join(lines)


def _pattern(n, a, b):
    return bytes((a * i + b) & 0xFF for i in range(n))


def _carray(name, data):
    rows = [", ".join(f"0x{x:02x}" for x in data[i:i + 16]) for i in range(0, len(data), 16)]
    return [f"static const uint8_t {name}[{max(len(data), 1)}] = {{"] + \
        ["    " + r + "," for r in rows] + ["};"]


def c_repro(name, vals, case):
    """C calling the folder's API with the counterexample's values (the key, IV, nonce and
    input a fixed pattern of bytes) that compares the output with the standard's bytes,
    computed here by generator/model/reference.py (RFC 8439 and Bernstein's layout)."""
    from ..model import reference as R
    role, rounds = classify(name)
    key, iv, src = _pattern(32, 7, 1), _pattern(12, 13, 5), None
    # the key and IV (nonce) on the heap, of exactly the length the call passes, so that
    # AddressSanitizer stops a read past them
    klen = 16 if role == "keysetup" and vals.get("kbits", 256) != 256 else 32
    ivlen = 12 if role == "ietf_xor" else 8
    body = ["size_t i;",
            f"uint8_t *key = malloc({klen}), *iv = malloc({ivlen});",
            "if (!key || !iv) return 2;",
            f"for (i = 0; i < {klen}; i++) key[i] = (uint8_t)(7 * i + 1);",
            f"for (i = 0; i < {ivlen}; i++) iv[i] = (uint8_t)(13 * i + 5);"]
    want, nout = None, 0
    if role == "level":
        body.append('printf("chacha_level: %s\\n", chacha_level());')
        body.append("free(key); free(iv);")
        body.append("return 0;")
    elif role in ("keysetup", "get_keystream"):
        kbits = vals.get("kbits", 256) if role == "keysetup" else 256
        klen = 32 if kbits == 256 else 16
        iv_null = case.get("iv") == "NULL"
        pos = vals.get("pos", 0) if role == "get_keystream" else 0
        nb = vals.get("n_blocks", 1) if role == "get_keystream" else 1
        nout = 64 * nb
        free = "free(out); free(key); free(iv);"
        body += [f"struct chacha{rounds}_ctx ctx;",
                 f"uint8_t *out = malloc({max(nout, 1)});",
                 "if (!out) return 2;",
                 f"chacha{rounds}_keysetup(&ctx, key, {kbits}U, {'NULL' if iv_null else 'iv'});",
                 f"chacha{rounds}_get_keystream(&ctx, {pos}ULL, {nb}U, out);"]
        if nb <= 1024:
            st = R.chacha_keysetup(key[:klen], None if iv_null else iv[:8])
            want = R.chacha_keystream(st, pos, nb, rounds)
    else:
        n, ctr = vals.get("len", 0), vals.get("counter", 0)
        nout = n
        src = _pattern(n, 3, 11) if n <= 1 << 16 else None
        inplace = case.get("layout") == "in-place"
        body += [f"size_t len = (size_t){n}ULL;",
                 "uint8_t *in = malloc(len ? len : 1), *out = malloc(len ? len : 1);",
                 "if (!in || !out) return 2;",
                 "for (i = 0; i < len; i++) in[i] = (uint8_t)(3 * i + 11);"]
        if inplace:
            body.append("free(out);")
            body.append("out = in;")
        free = "free(in);" if inplace else "free(in); free(out);"
        free += " free(key); free(iv);"
        call = "chacha20_xor" if role == "xor" else "chacha20_ietf_xor"
        if case.get("layout", "").startswith("null"):
            o = "NULL" if case["layout"] in ("null", "null out") else "out"
            i = "NULL" if case["layout"] in ("null", "null in") else "in"
            body.append(f"{call}({o}, {i}, 0, key, iv, {ctr}ULL);")
        else:
            body.append(f"{call}(out, {'out' if inplace else 'in'}, len, key, iv, {ctr}ULL);")
        if src is not None:
            want = (R.chacha_xor(src, key, iv[:8], ctr, 20) if role == "xor"
                    else R.chacha20_ietf_xor(src, key, iv, ctr))
    if role != "level":
        if want is not None:
            body += _carray("want", want)
            body += [f"for (i = 0; i < {len(want)}; i++)",
                     "    if (out[i] != want[i]) {",
                     '        printf("output byte %zu differs from the standard\'s '
                     '(RFC 8439 / Bernstein, generator/model/reference.py): %02x, not %02x\\n",'
                     " i, out[i], want[i]);",
                     f"        {free}",
                     "        return 1;",
                     "    }",
                     'puts("the same as the standard\'s output");']
        else:
            body.append('puts("(too long to embed the standard\'s output)");')
        body.append(free)
        body.append("return 0;")
    return ("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n"
            "#include \"chacha.h\"\n\nint main(void)\n{\n"
            + "".join(f"    {x}\n" for x in body) + "}\n")
