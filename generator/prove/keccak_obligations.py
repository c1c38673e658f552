# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What each Keccak entry point must compute, and the runs that check it.

An entry point is recognised by its name and prototype (what the API headers document), not by
anything the generator wrote about it. For each argument set (every round count the function
accepts, every rate the sponges use and the rates at the edges, one and two blocks) the state
lanes and message words are fresh variables, the specification's rounds are registered as cut
points (anf.Sweep), the function is interpreted, and every lane and byte it leaves must have
exactly the specification's terms.

A sponge entry point (absorb, squeeze, and Keccak-f) calls the file's permutation between
blocks. Where that permutation is proven in the same run, under the same branch, its calls are
taken as its contract: the specification's rounds on the lanes it is given. Its own proof covers
its body for every lane value and every round count the contract accepts (those its argument
sets ran, on a state object of the size they ran it on); the contract declines, and the body
runs, for any other call, and for one whose lanes the specification's rounds do not take
through the caller's own cut points (a kernel that differs: its run then locates the
difference). A caller whose permutation did not prove is proven again without contracts
(generator/prove/driver.py). What the caller's proof then shows is its own part: the message
bytes XORed into the right lanes, the output bytes taken from the right lanes, the rates, the
block loop, and the round count passed on.
"""

import re

from . import anf, spec_keccak
from . import ctypes_ as T
from .memory import NULL, Obj, Pointer

ROUND_COUNTS = tuple(range(0, 25)) + (25, 0xFFFFFFFF)
RATES = (9, 13, 17, 18, 21)          # SHA3-512/384/256/224 and SHAKE128 (= KT128) lanes
EDGE_RATES = (1, 25, 0, 26)
BLOCK_ROUNDS = (24, 12)
OTHER_ROUNDS = (1, 0)


class Mismatch(Exception):
    def __init__(self, what, inputs, where=None):
        super().__init__(what)
        self.what = what
        self.inputs = inputs
        self.where = where


def lane_vars(prefix):
    return [anf.var(f"{prefix}.{i}", 64) for i in range(25)]


# Round i_r of the specification computed once on 25 distinct unrotated lane variables, kept
# as terms over (lane index, rotation): every later round on distinct variables (the cut
# points' names, a state's lanes) is that form with its variables put in. Canonical forms
# depend on which variables stand where, not on what they are called, so the substitution is
# the form spec_keccak.rnd computes on them, at a fraction of the products.
_ROUNDS = {}


def _form(ir):
    """Round ir of the specification as terms over (lane index, rotation): per lane, its
    terms, and the same split by degree (1, 2, other) for _instantiate's common case."""
    form = _ROUNDS.get(ir)
    if form is None:
        own = [anf.var(f"rnd.{i}", 64) for i in range(25)]
        index = {anf.single_base(x): i for i, x in enumerate(own)}
        # A monomial as its atoms' offsets lane * 64 + rotation, in ascending order.
        form = []
        for w in spec_keccak.rnd(own, ir):
            terms = [(tuple(sorted(index[a >> 6] * 64 + (a & 63) for a in m)), c)
                     for m, c in w.t.items()]
            form.append((terms, [(m[0], c) for m, c in terms if len(m) == 1],
                         [(m[0], m[1], c) for m, c in terms if len(m) == 2],
                         [(m, c) for m, c in terms if len(m) not in (1, 2)]))
        _ROUNDS[ir] = form
    return form


def _distinct_bases(lanes):
    """The 25 lanes' base ids when each is one distinct unrotated variable, else None."""
    bids = [anf.single_base(x) for x in lanes]
    if None in bids or len(set(bids)) < 25:
        return None
    return tuple(bids)


def _instantiate(form, bids):
    """The round's 25 output lanes with lane j's variable the base bids[j]."""
    base = bids[0]
    if list(bids) == list(range(base, base + 25)):
        # A round's cut points are 25 bases made in lane order: an atom is then the offset
        # plus one constant, and the offsets' order is already the atoms' (the common case,
        # every round after the first, done without a sort per monomial).
        k = base * 64
        out = []
        for _, ones_, twos, rest in form:
            t = {(o + k,): c for o, c in ones_}
            t.update({(p + k, q + k): c for p, q, c in twos})
            t.update({tuple(o + k for o in m): c for m, c in rest})
            out.append(anf.Sym(t, 64))
        return out
    # Other bases (a block's absorbed lanes before the state's own): each atom moved to its
    # base, the common degrees without a sort.
    at = [b * 64 for b in bids]
    out = []
    for _, ones_, twos, rest in form:
        t = {(at[o >> 6] + (o & 63),): c for o, c in ones_}
        for p, q, c in twos:
            x, y = at[p >> 6] + (p & 63), at[q >> 6] + (q & 63)
            t[(x, y) if x < y else (y, x)] = c
        t.update({tuple(sorted(at[o >> 6] + (o & 63) for o in m)): c for m, c in rest})
        out.append(anf.Sym(t, 64))
    return out


def _round(lanes, ir):
    """spec_keccak.rnd(lanes, ir), by substitution where the lanes are distinct variables."""
    bids = _distinct_bases(lanes)
    if bids is None:
        return spec_keccak.rnd(lanes, ir)
    return _instantiate(_form(ir), bids)


def _complement(word):
    """word XOR all-ones, made without a cut-point lookup (the table is being written)."""
    full = anf.ones(word.W)
    t = dict(word.t)
    c = t.pop((), 0) ^ full
    if c:
        t[()] = c
    return anf.Sym(t, word.W)


_SIZES = {}


def _sizes(ir):
    """The term counts of round ir's output lanes and of their complements."""
    got = _SIZES.get(ir)
    if got is None:
        got = set()
        for terms, _, _, _ in _form(ir):
            n = len(terms)
            has_one = any(not m for m, _ in terms)
            got.update((n, n - 1 if has_one else n + 1))
        _SIZES[ir] = got
    return got


def round_key(ir, lane, complemented, bids):
    """A round's cut point by what it is: output lane `lane` of round ir (complemented or
    not) on the variables bids (generator/prove/replay.py finds it without building it)."""
    return (("keccak-round", ir, lane, complemented), bids)


def sweep_permute(lanes, n_r, prefix):
    """The specification's Keccak-p[1600, n_r] on `lanes`, each round's output registered as a
    cut point named prefix.r<t>.<lane>. A round on distinct variables is added unbuilt: most
    are reached only by key, from a replayed kernel round."""
    if not 1 <= n_r <= 24:
        return list(lanes)
    for t, ir in enumerate(range(spec_keccak.first_round(n_r), 24)):
        new = [anf.var(f"{prefix}.r{t + 1}.{i}", 64) for i in range(25)]
        tags = [(prefix, t, i) for i in range(25)]
        comp = [_complement(x) for x in new]
        bids = _distinct_bases(lanes)
        if bids is None:
            anf.SWEEP.active = False
            out = spec_keccak.rnd(lanes, ir)
            for i in range(25):
                anf.SWEEP.add(out[i], new[i], tags[i])
                if isinstance(out[i], anf.Sym):
                    anf.SWEEP.add(_complement(out[i]), comp[i], tags[i])
        else:
            # Tuples: the caller may change the list it is given back (a block XORed in)
            # before the group is built.
            def make(ir=ir, bids=bids, new=tuple(new), comp=tuple(comp), tags=tuple(tags)):
                made = []
                for i, w in enumerate(_instantiate(_form(ir), bids)):
                    made.append((w, new[i], tags[i], round_key(ir, i, False, bids)))
                    made.append((_complement(w), comp[i], tags[i], round_key(ir, i, True, bids)))
                return made
            keyed = [(round_key(ir, i, c, bids), (comp if c else new)[i], tags[i])
                     for i in range(25) for c in (False, True)]
            anf.SWEEP.add_group(bids, _sizes(ir), make, keyed)
        anf.SWEEP.active = True
        lanes = new
    return list(lanes)


def message_obj(name, words, big_endian, length=None):
    """A caller's byte buffer holding 64-bit message words little-endian, as bytes, so a
    kernel reads the same bytes whatever its own byte order; with `length`, exactly that many
    bytes of them (a read past the message fails), else the words and 8 bytes more."""
    obj = Obj(name, 8 * len(words) + 8 if length is None else length, big_endian)
    for b in range(8 * len(words) if length is None else length):
        obj.write(b, 1, anf.trunc(anf.shr(words[b // 8], 8 * (b % 8), 64), 8))
    if length is not None:
        return obj
    for k in range(8):
        obj.write(8 * len(words) + k, 1, anf.trunc(anf.shr(anf.var(f"{name}.tail", 64), 8 * k,
                                                           64), 8))
    return obj


def bytes_of(lane):
    return [anf.trunc(anf.shr(lane, 8 * k, 64), 8) for k in range(8)]


def same(a, b):
    if isinstance(a, int) or isinstance(b, int):
        return isinstance(a, int) and isinstance(b, int) and a == b
    if isinstance(a, Pointer) or isinstance(b, Pointer):
        return False
    return a.W == b.W and a.key() == b.key()


# -- entry points --

# A bundle's x-N kernels end with their ISA (keccak_p1600_x4_avx2); the plain names are the
# bundle's dispatch wrappers, or generate's kernels.
_ISA = r"(?:_(?:sse2|avx2|avx512|avx512vl|neon|sha3|simd128))?"

KINDS = [
    (re.compile(r"^(?:\w+_)?keccak_f1600$"), "f"),
    (re.compile(r"^(?:\w+_)?keccak_p1600$"), "p"),
    (re.compile(r"^(?:\w+_)?keccak_p1600_absorb$"), "absorb"),
    (re.compile(r"^(?:\w+_)?keccak_p1600_squeeze$"), "squeeze"),
    (re.compile(rf"^(?:\w+_)?keccak_f1600_x(\d){_ISA}_states$"), "sfN"),
    (re.compile(rf"^(?:\w+_)?keccak_p1600_x(\d){_ISA}_states$"), "spN"),
    (re.compile(rf"^(?:\w+_)?keccak_f1600_x(\d){_ISA}$"), "fN"),
    (re.compile(rf"^(?:\w+_)?keccak_p1600_x(\d){_ISA}$"), "pN"),
    (re.compile(rf"^(?:\w+_)?keccak_p1600_x(\d){_ISA}_absorb$"), "absorbN"),
    (re.compile(rf"^(?:\w+_)?keccak_p1600_x(\d){_ISA}_squeeze$"), "squeezeN"),
    (re.compile(rf"^(?:\w+_)?keccak_p1600_x(\d){_ISA}_start$"), "startN"),
    (re.compile(rf"^(?:\w+_)?keccak_p1600_x(\d){_ISA}_extract$"), "extractN"),
    (re.compile(r"^(?:\w+_)?keccak_x(\d)_interleave$"), "interleave"),
    (re.compile(r"^(?:\w+_)?keccak_x(\d)_deinterleave$"), "deinterleave"),
]


def kind_of(name):
    for pat, kind in KINDS:
        m = pat.match(name)
        if m:
            return kind, (int(m.group(1)) if m.groups() else 1)
    return None


def cases(kind, n, quick=False):
    """The argument sets a kind is run on."""
    if kind == "f":
        return [dict(rounds=24)]
    if kind in ("p", "pN", "spN"):
        return [dict(rounds=r) for r in ROUND_COUNTS]
    if kind in ("fN", "sfN"):
        return [dict(rounds=24)]
    if kind in ("interleave", "deinterleave"):
        return [dict()]
    if kind == "startN":
        return start_cases(quick)
    if kind == "extractN":
        # every count of lanes, each group's tail among them, and one past the state
        return [dict(lanes=k) for k in range(27)]
    out = []
    # Two blocks take the loop from a first block into a second (the state kept in registers
    # between them); one block is its own case once.
    rates = RATES[:1] + RATES[-1:] if quick else RATES
    for lanes in rates:
        out.append(dict(rounds=24, lanes=lanes, blocks=2))
    for lanes in (17, 21):
        out.append(dict(rounds=12, lanes=lanes, blocks=2))
    out.append(dict(rounds=24, lanes=21, blocks=1))
    out.append(dict(rounds=12, lanes=21, blocks=1))
    for rounds in OTHER_ROUNDS:
        out.append(dict(rounds=rounds, lanes=17, blocks=1))
    for lanes in EDGE_RATES:
        out.append(dict(rounds=24, lanes=lanes, blocks=1))
    return out


# A fresh sponge's first write (_start): every length class of the last lane (none, a whole
# lane before it or not, each remainder) at the SHA-3 / SHAKE rates, with and without the
# padding, and the lengths at and past the block that must write nothing.
START_DOMAINS = (0x00, 0x06, 0x1F)


def start_cases(quick=False):
    out = []
    rates = (21, 17) if quick else (21, 17, 18, 13, 9, 1, 25)
    for lanes in rates:
        lengths = sorted({0, 1, 7, 8, 9, 15, 16, 33, 34, 8 * lanes - 9, 8 * lanes - 8,
                          8 * lanes - 1, 8 * lanes} - {-1} if lanes > 1 else {0, 1, 7, 8})
        for length in (x for x in lengths if 0 <= x <= 8 * lanes):
            for domain in START_DOMAINS:
                out.append(dict(lanes=lanes, length=length, domain=domain))
    for lanes in (0, 26):
        out.append(dict(lanes=lanes, length=0, domain=0x06))
    return out


def _start(interp, name, n, case, be, S, states, sp):
    """_start: the states' lanes the standard's first block (the message bytes, zero after
    them, the padding where the domain is nonzero), read from buffers of exactly the message's
    length (a read past it fails), or the states untouched when the length is out of range."""
    lanes, length, domain = case["lanes"], case["length"], case["domain"]
    ok = 1 <= lanes <= 25 and length < 8 * lanes
    words = (length + 7) // 8
    M = [[anf.var(f"M{j}.{w}", 64) for w in range(words)] for j in range(n)]
    ptrs = Obj("streams", 8 * n, be)
    for j in range(n):
        buf = message_obj(f"in{j}", M[j], be, length) if length else None
        if buf:
            buf.readonly = True
        ptrs.write(8 * j, 8, Pointer(buf, 0) if buf else NULL)
    interp.call(name, [sp, (Pointer(ptrs, 0), T.Ptr(T.Ptr(T.U8))), (length, T.SIZE_T),
                       (lanes, T.UINT), (domain, T.U8)])
    for j in range(n):
        if not ok:
            _check_lanes(states, S[j], f"instance {j}", base=8 * j, stride=8 * n)
            continue
        want = []
        for i in range(25):
            w = 0
            if 8 * i < length:
                keep = min(8, length - 8 * i)
                w = M[j][i] if keep == 8 else anf.shr(anf.shl(M[j][i], 64 - 8 * keep, 64),
                                                      64 - 8 * keep, 64)
            if domain and i == length // 8:
                w = anf.xor(w, domain << (8 * (length % 8)))
            if domain and i == lanes - 1:
                w = anf.xor(w, 0x80 << 56)
            want.append(w)
        _check_lanes(states, want, f"instance {j}", base=8 * j, stride=8 * n)


def _extract(interp, name, n, case, be, S, sp):
    """_extract: instance j's first `lanes` lanes as bytes at out[j], buffers of exactly
    that many bytes (a write past one fails); nothing at all for more than 25 lanes."""
    lanes = case["lanes"]
    size = 8 * lanes if lanes <= 25 else 1
    ptrs = Obj("streams", 8 * n, be)
    bufs = [Obj(f"out{j}", size, be) for j in range(n)]
    for j in range(n):
        ptrs.write(8 * j, 8, Pointer(bufs[j], 0))
    interp.call(name, [sp, (Pointer(ptrs, 0), T.Ptr(T.Ptr(T.U8))), (lanes, T.UINT)])
    for j in range(n):
        if lanes <= 25:
            _check_bytes(bufs[j], 0, S[j][:lanes], f"stream {j} output")
        elif bufs[j].cells:
            raise Mismatch(f"stream {j}: written with {lanes} lanes asked", None)


def run_case(interp, name, kind, n, case, big_endian, contracts=False):
    """Interpret one call; raise Mismatch on a difference. The expectation is the same with
    contracts or without: a contract gives the specification's lanes. An absorbing call is
    run first with its blocks' sums as cut points (absorbed); where that fails it is run
    again without them, and that run's verdict (and counterexample) is the case's."""
    run = _single if kind in ("f", "p", "absorb", "squeeze") else _multi
    if kind in ("absorb", "absorbN"):
        anf.reset()
        try:
            return run(interp, name, kind, n, case, big_endian, cuts=True)
        except (Mismatch, anf.Diverged):
            pass
    anf.reset()
    return run(interp, name, kind, n, case, big_endian)


def absorbed(lanes, words, prefix, cuts):
    """lanes with words XORed into the first len(words). With cuts, each sum (and its
    complement, for lane complementing) is a cut point named prefix.in.<k>: a kernel's lane
    after its XOR is then one variable, so the permutation that follows starts, as every
    later round does, from distinct variables (its rounds are replayed and the
    specification's are substituted). A kernel that never makes the sum as one word fails
    to match under cuts and is run again without them (run_case)."""
    out = list(lanes)
    if not cuts:
        for k, w in enumerate(words):
            out[k] = anf.xor(out[k], w)
        return out
    anf.SWEEP.active = False
    try:
        for k, w in enumerate(words):
            x = anf.var(f"{prefix}.in.{k}", 64)
            sum_ = anf.xor(out[k], w)
            tag = (prefix, -1, k)
            anf.SWEEP.add(sum_, x, tag)
            anf.SWEEP.add(_complement(sum_), _complement(x), tag)
            out[k] = x
    finally:
        anf.SWEEP.active = True
    return out


def _state_obj(lanes, big_endian, name="state"):
    obj = Obj(name, 200, big_endian)
    for i, v in enumerate(lanes):
        obj.write(8 * i, 8, v)
    return obj


def _check_lanes(obj, expect, label, base=0, stride=8):
    for i, e in enumerate(expect):
        got = obj.read(base + i * stride, 8)
        if not same(got, e):
            raise Mismatch(f"{label} lane {i}", None, where=("lane", i))


def _check_bytes(obj, off, lanes, label):
    for j, lane in enumerate(lanes):
        for k, e in enumerate(bytes_of(lane)):
            got = obj.read(off + 8 * j + k, 1)
            if not same(got, e):
                raise Mismatch(f"{label} byte {8 * j + k}", None, where=("byte", 8 * j + k))


def _single(interp, name, kind, n, case, be, cuts=False):
    rounds = case["rounds"]
    S = lane_vars("S")
    state = _state_obj(S, be)
    sp = (Pointer(state, 0), T.Ptr(T.U64))
    if kind == "f":
        expect = sweep_permute(S, 24, "P")
        interp.call(name, [sp])
        _check_lanes(state, expect, "state")
        return
    if kind == "p":
        expect = sweep_permute(S, rounds, "P")
        interp.call(name, [sp, (rounds, T.UINT)])
        _check_lanes(state, expect, "state")
        return
    lanes, blocks = case["lanes"], case["blocks"]
    ok = 1 <= lanes <= 25 and 1 <= rounds <= 24
    n_words = lanes * blocks if 1 <= lanes <= 25 else 8
    length = 8 * n_words + 5
    if kind == "absorb":
        M = [anf.var(f"M.{j}", 64) for j in range(n_words)]
        data = message_obj("data", M, be)
        st = list(S)
        if ok:
            for b in range(blocks):
                st = absorbed(st, M[b * lanes:(b + 1) * lanes], f"P{b}", cuts)
                st = sweep_permute(st, rounds, f"P{b}")
        ret, _ = interp.call(name, [sp, (rounds, T.UINT), (lanes, T.UINT),
                                    (Pointer(data, 0), T.Ptr(T.U8)), (length, T.SIZE_T)])
        want = 8 * lanes * blocks if ok else None
        if ok and ret != want:
            raise Mismatch(f"returned {ret}, not {want}", None)
        if ok:
            _check_lanes(state, st, "state")
        elif ret not in (0, None) and not (1 <= lanes <= 25):
            raise Mismatch(f"returned {ret} for lanes = {lanes}", None)
        return
    out = Obj("out", length, be)
    st = list(S)
    produced = []
    if ok:
        for b in range(blocks):
            st = sweep_permute(st, rounds, f"P{b}")
            produced.append(st[:lanes])
    ret, _ = interp.call(name, [sp, (rounds, T.UINT), (lanes, T.UINT),
                                (Pointer(out, 0), T.Ptr(T.U8)), (length, T.SIZE_T)])
    if ok:
        want = 8 * lanes * blocks
        if ret != want:
            raise Mismatch(f"returned {ret}, not {want}", None)
        for b, lanes_out in enumerate(produced):
            _check_bytes(out, 8 * lanes * b, lanes_out, "output")
        _check_lanes(state, st, "state")
    elif not (1 <= lanes <= 25) and ret != 0:
        raise Mismatch(f"returned {ret} for lanes = {lanes}", None)


def _multi(interp, name, kind, n, case, be, cuts=False):
    S = [lane_vars(f"S{j}") for j in range(n)]
    states = Obj("states", 200 * n, be)
    for j in range(n):
        for i in range(25):
            states.write((i * n + j) * 8, 8, S[j][i])
    sp = (Pointer(states, 0), T.Ptr(T.Arr(T.U64, n)))
    if kind in ("interleave", "deinterleave"):
        sep = Obj("separate", 200 * n, be)
        if kind == "interleave":
            for j in range(n):
                for i in range(25):
                    sep.write((j * 25 + i) * 8, 8, S[j][i])
            states2 = Obj("states", 200 * n, be)
            interp.call(name, [(Pointer(states2, 0), T.Ptr(T.Arr(T.U64, n))),
                               (Pointer(sep, 0), T.Ptr(T.Arr(T.U64, 25)))])
            for j in range(n):
                _check_lanes(states2, S[j], f"instance {j}", base=8 * j, stride=8 * n)
        else:
            interp.call(name, [(Pointer(sep, 0), T.Ptr(T.Arr(T.U64, 25))), sp])
            for j in range(n):
                _check_lanes(sep, S[j], f"instance {j}", base=200 * j)
        return
    if kind == "startN":
        _start(interp, name, n, case, be, S, states, sp)
        return
    if kind == "extractN":
        _extract(interp, name, n, case, be, S, sp)
        return
    if kind in ("fN", "pN"):
        rounds = case["rounds"]
        expect = [sweep_permute(S[j], rounds, f"P{j}") for j in range(n)]
        args = [sp] if kind == "fN" else [sp, (rounds, T.UINT)]
        interp.call(name, args)
        for j in range(n):
            _check_lanes(states, expect[j], f"instance {j}", base=8 * j, stride=8 * n)
        return
    if kind in ("sfN", "spN"):
        # n separate states, one after another: lane i of instance j at word 25j + i.
        sep = Obj("states", 200 * n, be)
        for j in range(n):
            for i in range(25):
                sep.write((j * 25 + i) * 8, 8, S[j][i])
        rounds = case["rounds"]
        expect = [sweep_permute(S[j], rounds, f"P{j}") for j in range(n)]
        arg = (Pointer(sep, 0), T.Ptr(T.Arr(T.U64, 25)))
        interp.call(name, [arg] if kind == "sfN" else [arg, (rounds, T.UINT)])
        for j in range(n):
            _check_lanes(sep, expect[j], f"instance {j}", base=200 * j)
        return
    rounds, lanes, blocks = case["rounds"], case["lanes"], case["blocks"]
    ok = 1 <= lanes <= 25
    n_words = lanes * blocks if ok else 8
    ptrs = Obj("streams", 8 * n, be)
    bufs = []
    if kind == "absorbN":
        M = [[anf.var(f"M{j}.{w}", 64) for w in range(n_words)] for j in range(n)]
        for j in range(n):
            bufs.append(message_obj(f"in{j}", M[j], be))
    else:
        for j in range(n):
            bufs.append(Obj(f"out{j}", 8 * n_words + 8, be))
    for j in range(n):
        ptrs.write(8 * j, 8, Pointer(bufs[j], 0))
    expect, produced = [], []
    for j in range(n):
        st = list(S[j])
        outs = []
        if ok:
            for b in range(blocks):
                if kind == "absorbN":
                    st = absorbed(st, M[j][b * lanes:(b + 1) * lanes], f"P{j}.{b}", cuts)
                    st = sweep_permute(st, rounds, f"P{j}.{b}")
                else:
                    st = sweep_permute(st, rounds, f"P{j}.{b}")
                    outs.append(st[:lanes])
        expect.append(st)
        produced.append(outs)
    ret, _ = interp.call(name, [sp, (Pointer(ptrs, 0), T.Ptr(T.Ptr(T.U8))),
                                (blocks, T.SIZE_T), (lanes, T.UINT), (rounds, T.UINT)])
    want = blocks if ok else 0
    if ret != want:
        raise Mismatch(f"returned {ret}, not {want}", None)
    for j in range(n):
        _check_lanes(states, expect[j], f"instance {j}", base=8 * j, stride=8 * n)
        for b, lanes_out in enumerate(produced[j]):
            _check_bytes(bufs[j], 8 * lanes * b, lanes_out, f"stream {j} output")


# -- contracts: a proven permutation's calls, taken as what its proof showed --

def contract(kind, n):
    """The contract a proven function of this kind stands for in its callers' proofs (a
    permutation's: it rewrites the state's lanes and nothing else), or None."""
    if kind in ("p", "pN"):
        return _permute_contract(n)
    return _permute_contract(n, separate=True) if kind == "spN" else None


def _permute_contract(n, separate=False):
    size = 200 * n
    # Word of lane i of instance j: interleaved (i * n + j), or separate states (25 j + i).
    word = (lambda i, j: 25 * j + i) if separate else (lambda i, j: i * n + j)

    def call(interp, vals):
        if len(vals) != 2:
            return None
        (st, _), (rounds, _) = vals
        # What the permutation's proof ran: every round count of ROUND_COUNTS, the lanes at
        # the start of an object of exactly the state's size. The state may also sit inside
        # a larger object (one of a caller's N separate states, a wrapper's group): the
        # proof's object had exactly its size, so the kernel touched nothing outside it.
        if (not isinstance(rounds, int) or rounds not in ROUND_COUNTS or
                not isinstance(st, Pointer) or st.obj is None or st.obj.readonly):
            return None
        if not (isinstance(st.off, int) and st.off % 8 == 0 and 0 <= st.off and
                st.off + size <= st.obj.size):
            return None
        at = st.off
        lanes = [[st.obj.read(at + 8 * word(i, j), 8) for i in range(25)] for j in range(n)]
        if 1 <= rounds <= 24:
            for j in range(n):
                lanes[j] = _through_cuts(lanes[j], rounds)
                if lanes[j] is None:
                    return None
        for j in range(n):
            for i in range(25):
                st.obj.write(at + 8 * word(i, j), 8, lanes[j][i])
        return None, T.VOID
    return call


def _through_cuts(lanes, n_r):
    """The specification's Keccak-p[1600, n_r] on lanes, each round's lanes replaced by the
    caller's cut points they equal; None where a round's lane equals none (the caller expects
    other lanes there, and the body is run instead)."""
    if any(not isinstance(x, (int, anf.Sym)) for x in lanes):
        return None
    for ir in range(spec_keccak.first_round(n_r), 24):
        bids = _distinct_bases(lanes)
        out = None
        if bids is not None:
            out = [anf.SWEEP.find_keyed(round_key(ir, i, False, bids)) for i in range(25)]
        if out is None or None in out:
            out = []
            # The round's own words are no cut points: only its output lanes are looked up.
            anf.SWEEP.active = False
            try:
                words = _round(lanes, ir)
            finally:
                anf.SWEEP.active = True
            for w in words:
                got = anf.SWEEP.find(w) if isinstance(w, anf.Sym) else None
                if got is None:
                    return None
                out.append(got)
        lanes = out
    return lanes
