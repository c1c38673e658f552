# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What each ChaCha entry point must compute, and the runs that check it.

The block function of one block (words 12 and 13 given), and the multi-block levels (every
block count through each of their paths, the 64-bit counter and the RFC 8439 one, keystream
and xor): the input words and the counter are variables, the kernel is interpreted, and every
output byte must have exactly the RFC's terms. Counter words, which the kernels compute with
compares and carries, are proven equal to the specification's (pos + j) words by the solver.
"""

import random
import re

from . import anf, solver, spec_chacha
from . import ctypes_ as T
from .keccak_obligations import Mismatch, same
from .memory import NULL, Obj, Pointer

# Every way through the levels' chunk loops: 63 = 32 + 16 + 8 + 4 + 3 takes each width and
# the single-block tail once, 65 the widest twice, and the rest each narrower entry alone.
LEVEL_COUNTS = (1, 5, 13, 29, 63, 65)


KINDS = [
    (re.compile(r"^rs_chacha(8|12|20)_block$"), "block"),
    (re.compile(r"^rs_chacha(8|12|20)_(?!run$|block$|xor_any$)(\w+)$"), "level"),
]


def kind_of(name):
    for pat, kind in KINDS:
        m = pat.match(name)
        if m:
            return kind, int(m.group(1))
    return None


def cases(kind, rounds, quick=False):
    if kind == "block":
        return [dict(xor=x) for x in (False, True)]
    out = []
    counts = (1, 4, 9, 33) if quick else LEVEL_COUNTS
    for n in counts:
        out.append(dict(n=n, wide=1, xor=False))
    out.append(dict(n=counts[-2], wide=0, xor=False))
    out.append(dict(n=counts[-2], wide=1, xor=True))
    out.append(dict(n=5, wide=0, xor=True))
    return out


def _words_obj(name, words, be):
    obj = Obj(name, 4 * len(words), be)
    for i, w in enumerate(words):
        obj.write(4 * i, 4, w)
    return obj


def _input_bytes_obj(name, words, be):
    """A caller's bytes: 32-bit words little-endian, written as bytes."""
    obj = Obj(name, 4 * len(words), be)
    for i, w in enumerate(words):
        for k in range(4):
            obj.write(4 * i + k, 1, anf.trunc(anf.shr(w, 8 * k, 32), 8))
    return obj


def run_case(interp, name, kind, rounds, case, be):
    anf.reset()
    st = [anf.var(f"st.{i}", 32) for i in range(16)]
    sto = _words_obj("st", st, be)
    if kind == "block":
        w12, w13 = anf.var("w12", 32), anf.var("w13", 32)
        words = st[:12] + [w12, w13] + st[14:]
        return _run_blocks(interp, name, rounds, case, be, sto,
                           [words], lambda inp, out: [
                               (Pointer(sto, 0), T.Ptr(T.U32)), (w12, T.U32), (w13, T.U32),
                               inp, out])
    n, wide = case["n"], case["wide"]
    _counters(n, wide)
    blocks = []
    for j in range(n):
        lo = anf.var(f"ctr.lo.{j}", 32)
        hi = anf.var(f"ctr.hi.{j}", 32) if wide else st[13]
        blocks.append(st[:12] + [lo, hi] + st[14:])
    pos = anf.var("pos", 64)
    return _run_blocks(interp, name, rounds, case, be, sto, blocks, lambda inp, out: [
        (Pointer(sto, 0), T.Ptr(T.U32)), (pos, T.U64), (wide, T.INT), inp, out,
        (n, T.SIZE_T)])


def _run_blocks(interp, name, rounds, case, be, sto, blocks, args):
    n = len(blocks)
    ins = [anf.var(f"in.{k}", 32) for k in range(16 * n)]
    if case["xor"]:
        ino = _input_bytes_obj("in", ins, be)
        inp = (Pointer(ino, 0), T.Ptr(T.U8))
    else:
        inp = (NULL, T.Ptr(T.U8))
    out = Obj("out", 64 * n, be)
    interp.call(name, args(inp, (Pointer(out, 0), T.Ptr(T.U8))))
    for j, words in enumerate(blocks):
        ks = spec_chacha.serialize(spec_chacha.block(words, rounds))
        for b, e in enumerate(ks):
            if case["xor"]:
                e = anf.xor(e, anf.trunc(anf.shr(ins[16 * j + b // 4], 8 * (b % 4), 32), 8))
            got = out.read(64 * j + b, 1)
            if not same(got, e):
                raise Mismatch(f"block {j} byte {b} (word {b // 4})", None,
                               where=("word", j, b // 4))


def _counters(n, wide):
    """Block j's counter words, named, with their definitions for sampling and the solver."""
    R = anf.RESOLVE
    R.inputs = frozenset(["pos"])
    for j in range(n):
        R.deps_of[f"ctr.lo.{j}"] = frozenset(["pos"])
        R.deps_of[f"ctr.hi.{j}"] = frozenset(["pos"])
    rng = random.Random(8439)
    samples = [rng.getrandbits(64) for _ in range(24)]
    samples += [(1 << 32) - k for k in range(1, 70)] + [(1 << 64) - k for k in range(1, 70)]
    samples += [0, 1, (1 << 32), (5 << 32) - 3]
    envs = [{"pos": p} for p in samples]
    cands = {}
    for j in range(n):
        for part in ("lo", "hi"):
            cands[f"ctr.{part}.{j}"] = tuple(
                ((p + j) & 0xFFFFFFFF) if part == "lo" else ((p + j) >> 32) & 0xFFFFFFFF
                for p in samples)
    by_sig = {}
    for name, sig in cands.items():
        by_sig.setdefault(sig, name)

    def z3_env():
        import z3
        p = z3.BitVec("pos", 64)
        env = {"pos": p}
        for j in range(n):
            s = p + j
            env[f"ctr.lo.{j}"] = z3.Extract(31, 0, s)
            env[f"ctr.hi.{j}"] = z3.Extract(63, 32, s)
        return env

    cache = {}

    def resolve(atom):
        if atom.W != 32:
            return None
        try:
            sig = tuple(_eval(atom, env, k) for k, env in enumerate(envs))
        except KeyError:
            return None
        name = by_sig.get(sig)
        if name is None:
            return None
        if name not in cache:
            cache[name] = anf.var(name, 32)
        target = cache[name]
        if solver.prove_equal(atom, target, z3_env()):
            return target
        return None

    def _eval(atom, env, k):
        e = {"pos": env["pos"]}
        for name, vals in cands.items():
            e[name] = vals[k]
        return anf.evaluate(atom, e, {})

    R.fn = resolve
