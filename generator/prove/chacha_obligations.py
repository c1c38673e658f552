# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What each ChaCha entry point must compute, and the runs that check it.

The block function of one block (words 12 and 13 given), the levels' W-block helpers
(rs_chacha_<level>_x<W>: every round count, both counter layouts, keystream and xor) and the
multi-block levels (every block count through each of their paths): the input words and the
counter are variables, the kernel is interpreted, and every output byte must have exactly the
RFC's terms. Counter words, which the kernels compute with compares and carries, are proven
equal to the specification's (pos + j) words by the solver.

A level calls its helpers and the block function for whole blocks. Where those are proven in
the same run, the level's proof takes each call as its contract (the RFC's keystream of the
blocks it was asked for, at the counter it was given) instead of running the body again: the
helper's own proof covers its body for every argument the contract accepts, the contract
declines (and the body runs) for any other, and a level whose helper did not prove is proven
again without contracts (generator/prove/driver.py). What a level's proof then shows is its
own part: which helper serves which blocks, the counter and the pointers it passes them.
"""

import random
import re

from . import anf, solver, spec_chacha
from . import ctypes_ as T
from .keccak_obligations import Mismatch, same
from .memory import NULL, Obj, Pointer

# Every way through the levels' chunk loops: 63 = 32 + 16 + 8 + 4 + 3 takes each width and
# the single-block tail once, 65 the widest twice, and the rest each narrower entry alone.
# Where a level ends in row sets (AVX-512: 1-4 sets of four blocks), 1, 5, 11 and 13 take one,
# two, three and four sets, each with its last set partly written.
LEVEL_COUNTS = (1, 5, 11, 13, 29, 63, 65)


KINDS = [
    (re.compile(r"^rs_chacha(8|12|20)_block$"), "block"),
    (re.compile(r"^rs_chacha(8|12|20)_(?!run$|block$|xor_any$)(\w+)$"), "level"),
    (re.compile(r"^rs_chacha_[a-z0-9]+_x(\d+)$"), "chunk"),
]
ROUND_COUNTS = (8, 12, 20)


def kind_of(name):
    for pat, kind in KINDS:
        m = pat.match(name)
        if m:
            return kind, int(m.group(1))
    return None


def cases(kind, rounds, quick=False):
    """rounds: the function's round count, or its block count for a helper (which takes the
    round count as an argument)."""
    if kind == "block":
        return [dict(xor=x) for x in (False, True)]
    if kind == "chunk":
        counts = (8, 20) if quick else ROUND_COUNTS
        return [dict(rounds=r, wide=w, xor=x) for r in counts for w in (1, 0)
                for x in (False, True)]
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


# The specification the last argument set ran on, kept for the next when it asks for the same
# blocks (a helper's or block function's keystream case and then its xor case): its words'
# bases and cut points are still there, so the next run is over the same variables.
_LAST = {"key": None}


def run_case(interp, name, kind, rounds, case, be, contracts=False):
    """contracts: take the calls to the proven helpers as their contracts (see the module's
    text); the run then expects every block as the contract gives it."""
    key = None
    if not contracts and kind in ("block", "chunk"):
        key = (id(interp), name, kind, rounds, case.get("rounds"), case.get("wide"), be)
    last = _LAST
    if key is not None and last["key"] == key and last["bases"] is anf.BASES:
        try:
            return _run_case(interp, name, kind, rounds, case, be, contracts, last["expect"])
        except (Mismatch, anf.Diverged):
            # Run again on a fresh state: the counterexample's first difference is located
            # from the cut points this run alone reached.
            pass
    last["key"] = None
    anf.reset()
    expect = {}
    got = _run_case(interp, name, kind, rounds, case, be, contracts, expect)
    if key is not None:
        last.update(key=key, bases=anf.BASES, expect=expect, interp=interp)
    return got


def _run_case(interp, name, kind, rounds, case, be, contracts, expect):
    st = [anf.var(f"st.{i}", 32) for i in range(16)]
    sto = _words_obj("st", st, be)
    sto.readonly = True
    if kind == "chunk":
        n, rounds = rounds, case["rounds"]
    if kind == "block":
        w12, w13 = anf.var("w12", 32), anf.var("w13", 32)
        words = st[:12] + [w12, w13] + st[14:]
        return _run_blocks(interp, name, rounds, case, be, sto,
                           [words], expect, lambda inp, out: [
                               (Pointer(sto, 0), T.Ptr(T.U32)), (w12, T.U32), (w13, T.U32),
                               inp, out])
    if kind == "level":
        n = case["n"]
    wide = case["wide"]
    _counters(n, wide)
    blocks = []
    for j in range(n):
        lo = anf.var(f"ctr.lo.{j}", 32)
        hi = anf.var(f"ctr.hi.{j}", 32) if wide else st[13]
        blocks.append(st[:12] + [lo, hi] + st[14:])
    pos = anf.var("pos", 64)
    if kind == "chunk":
        return _run_blocks(interp, name, rounds, case, be, sto, blocks, expect,
                           lambda inp, out: [
            (Pointer(sto, 0), T.Ptr(T.U32)), (pos, T.U64), (wide, T.INT), (rounds, T.UINT),
            inp, out])
    return _run_blocks(interp, name, rounds, case, be, sto, blocks, expect, lambda inp, out: [
        (Pointer(sto, 0), T.Ptr(T.U32)), (pos, T.U64), (wide, T.INT), inp, out,
        (n, T.SIZE_T)], contracts)


def sweep_block(words, rounds, prefix):
    """The RFC's block function on `words`, each double round's output words registered as cut
    points named prefix.d<t>.<i> the moment the round leaves them: a kernel word equal to one
    becomes that name, so no word carries more than one double round's terms (ChaCha20's
    rotated XOR chains and flattened sums otherwise grow with every round)."""
    def cut(t):
        def named(i, word):
            if not isinstance(word, anf.Sym):
                return word
            name = anf.var(f"{prefix}.d{t + 1}.{i}", 32)
            anf.SWEEP.add(word, name, (prefix, t, i))
            return name
        return named
    anf.SWEEP.active = False
    out = spec_chacha.block(words, rounds, cut)
    anf.SWEEP.active = True
    return out


def contract_block(words, rounds):
    """The keystream words of one block as a proven helper's contract gives them: an opaque
    word per output word, over exactly the input words (equal only to itself)."""
    return [anf.opaque(f"chacha{rounds}.{i}", list(words), 32) for i in range(16)]


def _run_blocks(interp, name, rounds, case, be, sto, blocks, kept, args, contracts=False):
    """kept: {"blocks": the expected words} from the argument set before, over the same
    variables, or empty, to be filled."""
    n = len(blocks)
    if contracts:
        expect = [contract_block(words, rounds) for words in blocks]
    elif "blocks" in kept:
        expect = kept["blocks"]
    else:
        expect = [sweep_block(words, rounds, f"block {j}") for j, words in enumerate(blocks)]
        kept["blocks"] = expect
    ins = [anf.var(f"in.{k}", 32) for k in range(16 * n)]
    if case["xor"]:
        ino = _input_bytes_obj("in", ins, be)
        ino.readonly = True
        inp = (Pointer(ino, 0), T.Ptr(T.U8))
    else:
        inp = (NULL, T.Ptr(T.U8))
    out = Obj("out", 64 * n, be)
    interp.call(name, args(inp, (Pointer(out, 0), T.Ptr(T.U8))))
    for j, words in enumerate(expect):
        ks = spec_chacha.serialize(words)
        for b, e in enumerate(ks):
            if case["xor"]:
                e = anf.xor(e, anf.trunc(anf.shr(ins[16 * j + b // 4], 8 * (b % 4), 32), 8))
            got = out.read(64 * j + b, 1)
            if not same(got, e):
                raise Mismatch(f"block {j} byte {b} (word {b // 4})", None,
                               where=("word", j, b // 4))


# (blocks, the word's structure) -> the counter word the solver proved it equal to, or None:
# every argument set of a level, and every level of a file, computes the same counters.
_RESOLVED = {}


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

    def resolve(atom):
        if atom.W != 32:
            return None
        key = (n, anf.structure(atom))
        if key not in _RESOLVED:
            _RESOLVED[key] = _resolve(atom)
        name = _RESOLVED[key]
        return None if name is None else anf.var(name, 32)

    def _resolve(atom):
        """The counter word's name the solver proves atom equal to, or None."""
        try:
            sig = tuple(_eval(atom, env, k) for k, env in enumerate(envs))
        except KeyError:
            return None
        name = by_sig.get(sig)
        if name is None or not solver.prove_equal(atom, anf.var(name, 32), z3_env()):
            return None
        return name

    def _eval(atom, env, k):
        e = {"pos": env["pos"]}
        for name, vals in cands.items():
            e[name] = vals[k]
        return anf.evaluate(atom, e, {})

    R.fn = resolve


# -- contracts: a proven helper's calls, taken as what its proof showed --

def contract(kind, n):
    """The contract a proven function of this kind stands for in its callers' proofs (a
    helper's or block function's: it writes its output and nothing else), or None."""
    if kind == "block":
        return _block_contract(n)
    if kind == "chunk":
        return _chunk_contract(n)
    return None


def _block_contract(rounds):
    def call(interp, vals):
        (st, _), (w12, w12t), (w13, w13t), inp, out = vals
        words = _state_words(interp, st)
        if words is None:
            return None
        words[12] = _word(interp.convert(w12, w12t, T.U32, None))
        words[13] = _word(interp.convert(w13, w13t, T.U32, None))
        if words[12] is None or words[13] is None:
            return None
        return _emit(interp, [words], rounds, inp, out)
    return call


def _chunk_contract(n):
    def call(interp, vals):
        (st, _), (pos, post), (wide, _), (rounds, _), inp, out = vals
        if rounds not in ROUND_COUNTS or wide not in (0, 1):
            return None
        words = _state_words(interp, st)
        k = anf.var_offset(interp.convert(pos, post, T.U64, None), "pos")
        if words is None or k is None:
            return None
        blocks = []
        for j in range(n):
            # block j's counter is pos + k + j, which the level's run names (its definition)
            lo, hi = f"ctr.lo.{k + j}", f"ctr.hi.{k + j}"
            if lo not in anf.RESOLVE.deps_of:
                return None
            blocks.append(words[:12] + [anf.var(lo, 32), anf.var(hi, 32) if wide
                                        else words[13]] + words[14:])
        return _emit(interp, blocks, rounds, inp, out)
    return call


def _state_words(interp, st):
    if not isinstance(st, Pointer) or st.obj is None:
        return None
    return [interp.load(st + 4 * i, T.U32) for i in range(16)]


def _word(v):
    """v as a word over 32-bit bases (a counter computed in 64 bits, narrowed), or None."""
    if isinstance(v, int) or v.W == 32:
        return v
    try:
        return anf.narrow(v, 32)
    except anf.Mixed:
        return None


def _emit(interp, blocks, rounds, inp, out):
    (inp, _), (out, _) = inp, out
    if not isinstance(out, Pointer) or out.obj is None or not isinstance(inp, Pointer):
        return None
    for j, words in enumerate(blocks):
        for b, e in enumerate(spec_chacha.serialize(contract_block(words, rounds))):
            if inp.obj is not None:
                e = anf.xor(e, interp.load(inp + 64 * j + b, T.U8))
            out.obj.write(out.off + 64 * j + b, 1, e)
    return None, T.VOID
