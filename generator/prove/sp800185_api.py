# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The obligations of SP 800-185's public functions (cSHAKE, KMAC, TupleHash): each equal to
spec_sp800185.py for every string and output length, on the single-state sponge's
contracts (sponge_api.py).

The C absorbs each encoding from a local buffer rs_sp_encode fills. rs_sp_encode is proven
once per (shift, side) to fill exactly left_encode / right_encode's bytes of any 64-bit
value and return their count; at every call it is then that summary: the buffer holds the
specification's encoding, which the absorb contract reads as the specification's own array
(sponge_api.input_bytes), so the C's terms and the standard's meet syntactically. The
functions' names ("KMAC", "TupleHash") are constant tables the contract reads as their
bytes. The static helpers that absorb a prefix (cSHAKE's, KMAC's key block) are proven once
per rate and are then contracts too, so a one-shot starts from the standard's prefix
state."""

import itertools
import re

import z3

from . import ctypes_ as T
from . import spec_sp800185 as SS
from . import spec_sponge as SP
from . import sponge_api as A
from .symexec import Failure, Ptr, State, Unsupported, Val, bv

ROUNDS = 24                                  # SP 800-185 section 3: KECCAK[c], 24 rounds
RATES = {"128": 168, "256": 136}             # KECCAK[256] and KECCAK[512]

# The static helpers that absorb a function's prefix (cSHAKE's, KMAC's key block), by the
# kind whose prefix they are. Each is proven once per rate, then is a contract at every
# call: a one-shot starts from the standard's prefix state instead of running the prefix's
# absorbs under its own symbolic lengths once more.
PREFIX_HELPERS = {"rs_cshake_init": "cshake", "rs_kmac_init": "kmac"}


# The context parameter's names: the public functions' and the static helpers'.
CONTEXTS = ("ctx", "s")


def classify(name):
    """(kind, rate, role) of a cSHAKE, KMAC or TupleHash function, or None."""
    m = re.fullmatch(r"(cshake|kmac|kmacxof|tuplehash|tuplehashxof)(128|256)"
                     r"(_init|_absorb|_update|_add|_final|_squeeze)?", name)
    if m is None:
        return None
    return m.group(1), RATES[m.group(2)], (m.group(3) or "_oneshot")[1:]


def _null_cases(k):
    """Which strings are NULL (length 0) in each run: every combination for up to two; for
    more (the one-shots' three strings and output), none, each alone, and all."""
    if k <= 2:
        return list(itertools.product((False, True), repeat=k))
    return [(False,) * k] + [tuple(i == j for j in range(k)) for i in range(k)] + [(True,) * k]


class Sp800185:
    """SP 800-185's obligations on one file's sponge (its engine and proven contracts)."""

    def __init__(self, sponge):
        self.sp = sponge
        self.eng = sponge.eng
        self.encode = {}              # (shift, right) -> True, or the Failure of its proof
        if "rs_sp_encode" in self.eng.funcs:
            self.eng.summaries["rs_sp_encode"] = self.encode_summary
        self.prefixes = {}            # (helper, rate) -> True, None (being proven) or the end
        for which in PREFIX_HELPERS:
            if which in self.eng.funcs:
                self.eng.summaries[which] = A.guarded(
                    self.prefixes, which,
                    lambda eng, st, args, which=which: self.prefix_contract(which, st, args))

    # -- rs_sp_encode: the encodings' bytes --

    def prove_encode(self, shift, right):
        """rs_sp_encode(out, x, shift, right) writes exactly the encoding of x * 2^shift to
        out[0 .. n) and returns n, for every x; the rest of out unchanged."""
        eng = self.eng
        fd = eng.funcs["rs_sp_encode"]
        params, _ = eng.params(fd)
        st = State([], {}, {})
        out = eng.new_obj(st, "enc", 10)
        old = st.mem[out.oid]
        x = z3.BitVec("x", 64)
        arr, n = (SS.right_encode if right else SS.left_encode)(x, shift)
        args = [Ptr(out.oid, bv(0), params[0][1]), Val(x, T.U64), Val(bv(shift, 32), T.UINT),
                Val(bv(int(right), 32), T.INT)]
        for s2, ret in eng.invoke(st, fd, args):
            eng.must(s2, z3.ZeroExt(64 - ret.t.bits, ret.v) == n if ret.t.bits < 64 else
                     ret.v == n, "mismatch", "rs_sp_encode: a length other than the "
                     "encoding's")
            i = z3.BitVec("i", 64)
            want = z3.If(z3.ULT(i, n), z3.Select(arr, i), z3.Select(old, i))
            for gc, vc in A._layers(s2.mem[out.oid], i):
                self.sp.same(s2, i, [z3.ULT(i, 10), *gc], vc, want, "rs_sp_encode",
                             "encoded byte")

    def encode_summary(self, eng, st, args):
        out, x, shift, right = args
        key = (A._concrete(eng, st, shift, "the encoding's shift"),
               A._concrete(eng, st, right, "the encoding's side") != 0)
        if key not in self.encode:
            try:
                with SP.scope():
                    self.prove_encode(*key)
                self.encode[key] = True
            except Failure as f:
                self.encode[key] = f
        if self.encode[key] is not True:
            raise self.encode[key]
        eng.check_access(st, out, 10, True)
        arr, n = (SS.right_encode if key[1] else SS.left_encode)(x.v, key[0])
        a = z3.BitVec("a", 64)
        off = z3.simplify(out.off)
        old = st.mem[out.oid]
        new = z3.Lambda([a], z3.If(z3.ULT(a - off, n), z3.Select(arr, a - off),
                                   z3.Select(old, a)))
        A.BYTES_OF[new.get_id()] = (off, arr, n, new)
        st = st.fork()
        st.mem[out.oid] = new
        return [(st, Val(n, T.SIZE_T))]

    # -- the prefix helpers: the standard's state after a prefix --

    def prefix_contract(self, which, st, args):
        """rs_cshake_init / rs_kmac_init(s, rate, a, alen, b, blen): once proven at this rate
        (every length of both strings, each NULL or not), the context holds the
        specification's state after the prefix, its position and domain byte."""
        eng = self.eng
        s, rate, a, alen, b, blen = args
        kind = PREFIX_HELPERS[which]
        rate = A._concrete(eng, st, rate, "the prefix's rate")
        key = (which, rate)
        if key not in self.prefixes:
            self.prefixes[key] = None                 # being proven: its own body runs
            try:
                with SP.scope():
                    self._run(eng.funcs[which], kind, "init", rate)
                self.prefixes[key] = True
            except (Failure, Unsupported) as e:
                self.prefixes[key] = e
        if self.prefixes[key] is not True:
            raise self.prefixes[key]
        eng.check_access(st, s, self.sp.ctx_t.size, True)
        pieces = []
        for p, n in ((a, alen), (b, blen)):
            A.check_buffer(eng, st, p, n.v, which)
            if p.oid is not None and p.oid == s.oid:
                raise Unsupported(f"{which}: a string inside the context it initializes")
            mem, off = A.input_bytes(eng, st, p, n.v)
            pieces.append((mem, off, n.v))
        st = st.fork()
        had = len(SP.FACTS)
        S, pos, dom = (SS.cshake_start if kind == "cshake" else SS.kmac_start)(
            pieces[0], pieces[1], rate, ROUNDS)
        st.pc.extend(SP.FACTS[had:])
        self.sp.establish(st, s, S, pos, 0, rate, ROUNDS, dom)
        return [(st, None)]

    # -- the public functions --

    def prove(self, name):
        kind, rate, role = classify(name)
        fd = self.eng.funcs.get(name)
        if fd is None:
            raise Unsupported(f"{name} has no definition in this file")
        if self.sp.ctx_t is None:
            raise Unsupported("keccak_sponge has no definition here")
        if kind.startswith("tuplehash") and role == "oneshot":
            raise Unsupported("a tuple of a symbolic count of strings, each an object of its "
                              "own, is outside the engine's memory; its loop body is "
                              f"{kind[:9]}{'128' if rate == 168 else '256'}_add, proven")
        got = self.sp.prove_helpers()
        if isinstance(got, Failure):
            raise got
        # an init, an absorb or a string of a tuple only absorbs: the squeeze's contract is
        # not asked
        self.sp.ensure_contracts(rate, ROUNDS, squeeze=role in ("final", "squeeze", "oneshot"))
        with SP.scope():
            if role in ("absorb", "update") or (kind == "cshake" and role == "squeeze"):
                # the sponge's own absorb and squeeze under the context's domain byte
                return self.sp._run(fd, "absorb" if role != "squeeze" else "squeeze", rate,
                                    ROUNDS, None, None)
            return self._run(fd, kind, role, rate)

    def _buffers(self, params):
        """[(pointer parameter, its length parameter)] of a function's strings."""
        out = []
        for (p, t), (q, u) in zip(params, params[1:]):
            if isinstance(t, T.Ptr) and p not in CONTEXTS and isinstance(u, T.Int):
                out.append((p, q))
        return out

    def _run(self, fd, kind, role, rate):
        eng = self.eng
        params, _ = eng.params(fd)
        bufs = self._buffers(params)
        cases = 0
        for phase in ((0, 1) if role in ("add", "final", "squeeze") else (0,)):
            for nulls in _null_cases(len(bufs)):
                st = State([], {}, {})
                env = self._args(st, params, dict(zip([b for b, _ in bufs], nulls)), phase,
                                 rate, role)
                entry = dict(st.mem)
                want = A.run_spec(st, lambda: self._spec(kind, role, env, entry, phase, rate))
                for s2, _ in eng.invoke(st, fd, env["args"]):
                    cases += 1
                    self.sp._check(s2, role, env.get("ctx"), want)
        return cases

    def _args(self, st, params, nulls, phase, rate, role):
        """The call's arguments: a context (related to a symbolic sponge state unless it is
        the init's), each string an object of a symbolic length (or NULL and 0)."""
        eng = self.eng
        env = {"args": [], "S": z3.Const("S", SP.BYTES)}
        env["pos"] = z3.ZeroExt(56, z3.BitVec("pos", 8))
        env["dom"] = z3.ZeroExt(56, z3.BitVec("domain", 8))
        names = [p for p, _ in params]
        for k, (p, t) in enumerate(params):
            if p == "rate":                       # a prefix helper's, proven per rate
                env["args"].append(Val(bv(rate, t.bits), t))
            elif p in CONTEXTS:
                ctx = eng.new_obj(st, "ctx", self.sp.ctx_t.size)
                if role != "init":
                    st.pc.append(z3.ULT(env["pos"], rate) if phase == 0 else
                                 z3.And(z3.UGE(env["pos"], 1), z3.ULE(env["pos"], rate)))
                    self.sp.related(st, ctx.oid, env["S"], env["pos"], bv(phase, 8), rate,
                                    ROUNDS, env["dom"])
                env["ctx"] = ctx
                env["args"].append(Ptr(ctx.oid, bv(0), t))
            elif p in nulls:
                n = z3.BitVec(names[k + 1], 64)
                o = None
                if nulls[p]:
                    st.pc.append(n == 0)
                else:
                    o = eng.new_obj(st, p, n, writable=(p == "out"))
                env[p] = (o, n)
                env["args"] += [Ptr(o.oid if o else None, bv(0), t), Val(n, T.SIZE_T)]
        return env

    def _piece(self, env, entry, p):
        o, n = env[p]
        mem = entry[o.oid] if o is not None else z3.K(z3.BitVecSort(64), z3.BitVecVal(0, 8))
        return mem, bv(0), n

    def _spec(self, kind, role, env, entry, phase, rate):
        """([(object, length, byte i of it)], R's state after the call or None)."""
        piece = lambda p: self._piece(env, entry, p)      # noqa: E731
        if role == "init":
            S, pos, dom = self._start(kind, piece, rate)
            return [], (S, pos, 0, rate, ROUNDS, dom)
        S, pos, dom = env["S"], env["pos"], env["dom"]
        SP._record(S)
        if role == "add":
            if not phase:
                S, pos = SS.absorb(S, pos, SS.encode_string(piece("part")), rate, ROUNDS)
            return [], (S, pos, phase, rate, ROUNDS, dom)
        if role == "oneshot":
            # the prefix's state and the message's are cut points: the C's contracts leave
            # the same terms (the prefix helper's and the absorb's)
            S, pos, dom = self._start(kind, piece, rate)
            SP._record(S)
            S, pos = SS.absorb(S, pos, [piece("in")], rate, ROUNDS)
            SP._record(S)
        out, n = env["out"]
        if not phase:
            if kind != "cshake":
                S, pos = SS.close(S, pos, n if role in ("final", "oneshot") and
                                  not kind.endswith("xof") else bv(0), rate, ROUNDS)
                SP._record(S)        # the C's absorb contract leaves the same term
            S, pos = SP.pad(S, pos, rate, dom), bv(rate)
        SP.power(S, bv(1), ROUNDS)                        # S is a cut point
        outs = [] if out is None else \
            [(out.oid, n, lambda i: SP.stream_byte(S, pos, i, rate, ROUNDS))]
        if role == "oneshot":
            return outs, None
        S2, p2 = SP.squeeze_state(S, pos, n, rate, ROUNDS)
        return outs, (S2, p2, 1, rate, ROUNDS, dom)

    def _start(self, kind, piece, rate):
        if kind == "cshake":
            return SS.cshake_start(piece("name"), piece("custom"), rate, ROUNDS)
        if kind.startswith("kmac"):
            return SS.kmac_start(piece("key"), piece("custom"), rate, ROUNDS)
        return SS.tuplehash_start(piece("custom"), rate, ROUNDS)


# -- a counterexample as C --

def c_repro(name, vals):
    """C that reaches the failing call through the folder's API with zero bytes of the
    counterexample's lengths, squeezes 32 bytes where the call does not, and compares them
    with generator/model/reference.py's SP 800-185 (the standard's bytes)."""
    kind, rate, role = classify(name)
    bits = "128" if rate == 168 else "256"
    fam = re.sub(r"xof$", "", kind) + bits
    g = {k: min(vals.get(k, 0), 1 << 20) for k in ("namelen", "customlen", "keylen", "len",
                                                    "inlen", "pos")}
    outn = min(vals.get("outlen", vals.get("len", 32)), 1 << 16) if role in (
        "final", "squeeze", "oneshot") else 32
    big = max(g.values()) + 1
    body = ["keccak_sponge *ctx = malloc(sizeof *ctx);",
            f"uint8_t *z = calloc({big}, 1);", f"uint8_t *out = calloc({outn} + 1, 1);",
            "if (!ctx || !z || !out) return 2;"]
    body += _repro_calls(name, kind, fam, role, g, outn)
    want = _repro_want(kind, bits, role, g, outn)
    arr = ", ".join(f"0x{b:02x}" for b in want)
    body += [f"static const uint8_t want[{len(want)}] = {{{arr}}};",
             f"for (size_t i = 0; i < {len(want)}; i++)",
             "    if (out[i] != want[i]) {",
             '        printf("output byte %zu differs from the standard\'s (SP 800-185): '
             '%02x, not %02x\\n", i, out[i], want[i]);',
             "        free(ctx); free(z); free(out);", "        return 1;", "    }",
             'puts("the same as the standard\'s output");', "free(ctx); free(z); free(out);",
             "return 0;"]
    return ("#include <stdio.h>\n#include <stdlib.h>\n#include <stdint.h>\n"
            "#include \"keccak_sponge.h\"\n\nint main(void)\n{\n"
            + "".join(f"    {x}\n" for x in body) + "}\n")


def _repro_calls(name, kind, fam, role, g, outn):
    if role == "oneshot":
        if kind == "cshake":
            return [f"{name}(out, {outn}, z, {g['inlen']}, z, {g['namelen']}, z, "
                    f"{g['customlen']});"]
        return [f"{name}(out, {outn}, z, {g['keylen']}, z, {g['inlen']}, z, {g['customlen']});"]
    if role == "init" or fam.startswith("cshake"):
        init = {"cshake": f"cshake{fam[-3:]}_init(ctx, z, {g['namelen']}, z, {g['customlen']});",
                "kmac": f"{fam}_init(ctx, z, {g['keylen']}, z, {g['customlen']});",
                "tuplehash": f"{fam}_init(ctx, z, {g['customlen']});"}[kind.replace("xof", "")]
    else:
        init = f"{fam}_init(ctx, z, 0, z, 0);" if kind.startswith("kmac") else \
            f"{fam}_init(ctx, z, 0);"
    calls = [init]
    if role != "init":
        # the context's position: absorbed bytes (KMAC, cSHAKE), or one string of the tuple
        # whose encoding ends there (TupleHash)
        calls.append(f"{fam}_add(ctx, z, {_tuple_part(g['pos'], fam)});" if
                     fam.startswith("tuplehash") else
                     f"{fam}_{'absorb' if kind == 'cshake' else 'update'}(ctx, z, {g['pos']});")
    if role in ("absorb", "update", "add"):
        calls.append(f"{name}(ctx, z, {g['len']});")
    if role == "final":
        calls.append(f"{name}(ctx, out, {outn});")
    else:
        calls.append(f"{fam}_squeeze(ctx, out, {outn});")
    return calls


def _tuple_part(pos, fam):
    """A string length whose encode_string ends at pos of a block (its length's encoding
    takes 2 bytes below 32 bytes, 3 below 8 KiB)."""
    rate = RATES[fam[-3:]]
    for n in range(0, 3 * rate):
        enc = 2 if 8 * n < 256 else 3
        if (enc + n) % rate == pos % rate:
            return n
    raise ValueError(pos)


def _repro_want(kind, bits, role, g, outn):
    from ..model import reference as R
    sec = int(bits)
    xof = kind.endswith("xof") or role == "squeeze" or role in ("init", "absorb", "update",
                                                               "add")
    z = lambda n: bytes(n)                                            # noqa: E731
    msg = b"" if role == "init" else z(g["inlen"]) if role == "oneshot" else z(g["pos"]) + (
        z(g["len"]) if role in ("absorb", "update") else b"")
    if kind == "cshake":
        return list(R.cshake(sec, msg, outn, z(g["namelen"]), z(g["customlen"])))
    if kind.startswith("kmac"):
        key, custom = (z(g["keylen"]), z(g["customlen"])) if role in ("init", "oneshot") \
            else (b"", b"")
        return list(R.kmac(sec, key, msg, outn, custom, xof))
    fam = f"tuplehash{bits}"
    parts = [] if role == "init" else [z(_tuple_part(g["pos"], fam))] + (
        [z(g["len"])] if role == "add" else [])
    custom = z(g["customlen"]) if role == "init" else b""
    return list(R.tuplehash(sec, parts, outn, custom, xof))
