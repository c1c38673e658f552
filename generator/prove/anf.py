# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Symbolic machine words in a canonical form: an algebraic normal form over rotated atoms.

A word of C width w is an XOR of terms `mask & (a1 & a2 & ...)`, each ai an atom: a base
value rotated left by a fixed count inside the base's own width W (w <= W). Bases are input
variables (a lane, a key word), sums (a hash-consed multiset of words added mod 2^W) and
opaque nodes (anything else, kept as an expression tree). XOR, AND, OR, NOT, shifts and
rotations of such words are again such words, and two words with the same terms are the same
function of the bases. The converse holds for XOR/AND/NOT/rotation code: for a fixed bit
position, distinct (base, rotation) atoms are distinct input bits, so the terms are the bit's
ANF and the form is canonical. Sums are canonical up to associativity, commutativity and
folded constants only, which is all the ChaCha kernels differ by from the RFC.
"""

from collections import Counter


class Diverged(Exception):
    """A product grew past what any correct kernel computes: the code is not the standard's."""


MAX_DEGREE = 4
MAX_TERMS = 60000
# Terms of a product's two operands multiplied: with every round's lanes cut, the kernels'
# widest is about 500 (chi over a round that XORs a message block in). A kernel whose words
# missed a cut multiplies words of hundreds of terms each for minutes before a degree shows
# it wrong; this says so at once.
MAX_PRODUCT = 20000


def ones(w):
    return (1 << w) - 1


def rotl(x, n, w):
    n %= w
    return ((x << n) | (x >> (w - n))) & ones(w) if n else x


class Bases:
    """Every base in play, by id. An atom is the int id * 64 + rotation."""

    def __init__(self):
        self.kind = []      # 'var', 'add', 'op'
        self.width = []
        self.payload = []
        # Whether a base depends on the counter resolution's inputs only (Resolve): the
        # one question asked of what it depends on, kept as its answer.
        self.pure = []
        self.by_key = {}
        # While generator/prove/replay.py records: ("b", id) for each base made, in order
        # with the cut points' hits (the list Sweep.trace is).
        self.trace = None

    def new(self, kind, width, payload, key=None):
        if key is not None:
            got = self.by_key.get(key)
            if got is not None:
                return got
        self.kind.append(kind)
        self.width.append(width)
        self.payload.append(payload)
        self.pure.append(_pure(kind, payload))
        bid = len(self.kind) - 1
        if key is not None:
            self.by_key[key] = bid
        if self.trace is not None:
            self.trace.append(("b", bid))
        return bid


def _pure(kind, payload):
    """True when the base depends on RESOLVE.inputs and nothing else: a variable they define
    (RESOLVE.deps_of) or name, or a sum or opaque node over such words only. Every base
    depends on some variable, so "only" is "all its words' bases do"."""
    if kind == "var":
        return (RESOLVE.deps_of.get(payload) or frozenset([payload])) <= RESOLVE.inputs
    if kind == "add":
        return all(sym_pure(v) for _, v in payload[0])
    syms = list(_syms_in(payload[1]))
    return bool(syms) and all(sym_pure(v) for v in syms)


def sym_pure(v):
    """_pure of a word's bases, computed once per word (new bases ask it of every operand,
    and ChaCha's sums nest twenty rounds deep); False for a constant."""
    if not isinstance(v, Sym):
        return False
    if v._pure is None:
        pure = BASES.pure
        v._pure = all(pure[a >> 6] for m in v.t for a in m) and any(v.t.keys() - {()})
    return v._pure


class Resolve:
    """Words the specification defines from a few inputs (ChaCha's block counters: the low
    and high words of pos + j). A new sum or opaque word that depends on nothing else is
    compared with them and, where the solver proves it equal to one, replaced by it."""

    def __init__(self):
        self.inputs = frozenset()
        self.deps_of = {}
        self.fn = None

    def clear(self):
        self.__init__()


RESOLVE = Resolve()
BASES = Bases()


def reset():
    global BASES
    BASES = Bases()
    SWEEP.clear()
    RESOLVE.clear()
    _OPERAND.clear()


class Sym:
    """A symbolic word: terms {monomial: mask}, over bases of width W."""

    __slots__ = ("t", "W", "_key", "_pure")

    def __init__(self, terms, W):
        self.t = terms
        self.W = W
        self._key = None
        self._pure = None

    def key(self):
        if self._key is None:
            self._key = (self.W, frozenset(self.t.items()))
        return self._key

    def degree(self):
        return max((len(m) for m in self.t), default=0)

    def __repr__(self):
        return f"Sym({len(self.t)} terms, W={self.W})"


def var(name, W):
    bid = BASES.new("var", W, name, key=("var", name))
    return Sym({(bid * 64,): ones(W)}, W)


def atom_of(bid):
    return Sym({(bid * 64,): ones(BASES.width[bid])}, BASES.width[bid])


def single_base(v):
    """The base id when v is exactly one unrotated atom with a full mask, else None."""
    if isinstance(v, Sym) and len(v.t) == 1:
        (m, c), = v.t.items()
        if len(m) == 1 and m[0] & 63 == 0 and c == ones(v.W):
            return m[0] >> 6
    return None


def _terms(v, W):
    if isinstance(v, int):
        return {(): v} if v else {}
    return v.t


def _make(terms, W):
    if not terms:
        return 0
    if len(terms) == 1 and () in terms:
        return terms[()]
    s = Sym(terms, W)
    if SWEEP.active:
        got = SWEEP.find(s)
        if got is not None:
            return got
    return s


def _fingerprint(terms):
    """An order-free summary of a word's monomials: most kernel words are no cut point, and
    this costs a sum in C where a key costs a set of every term."""
    return len(terms), sum(map(hash, terms))


class Sweep:
    """Cut points: words the specification names (a round's output lanes). A kernel word whose
    terms equal one is replaced by the name, an atom defined as exactly that word, which is
    an equality and so sound; it keeps every word a low-degree form in one round's lanes.

    A group of cut points (a round on distinct variables) may be added unbuilt: its words are
    made the first time a word over its variables is looked up, and each can be found without
    being made by its key (what it is of which variables: generator/prove/replay.py)."""

    def __init__(self):
        self.active = False
        self.table = {}     # fingerprint -> [(terms, name, tag, key)]
        self.sizes = set()  # the cut points' term counts: most words have none of them
        self.hits = {}
        self.keyed = {}     # key -> (name, tag)
        self.pending = {}   # base id -> [groups not yet built over it]
        self.group_sizes = set()    # the term counts of the groups' words
        # While generator/prove/replay.py records: every hit, ("c", word, name, key), in order.
        self.trace = None

    def add(self, word, name, tag, key=None):
        if isinstance(word, Sym):
            self.table.setdefault(_fingerprint(word.t), []).append((word.t, name, tag, key))
            self.sizes.add(len(word.t))
            if key is not None:
                self.keyed[key] = (name, tag)

    def add_group(self, bases, sizes, make, keyed):
        """Cut points over the variables `bases`, built by make() -> [(word, name, tag, key)]
        when first needed; keyed: [(key, name, tag)], the same cut points by key. sizes: their
        words' term counts."""
        group = [make]
        for b in set(bases):
            self.pending.setdefault(b, []).append(group)
        self.sizes.update(sizes)
        self.group_sizes.update(sizes)
        for key, name, tag in keyed:
            self.keyed[key] = (name, tag)

    def _build(self, base):
        for group in self.pending.pop(base, ()):
            make = group[0]
            if make is None:
                continue
            group[0] = None
            for word, name, tag, key in make():
                self.add(word, name, tag, key)

    def find(self, word):
        """The name of the cut point equal to `word` (counted as a hit), or None."""
        if len(word.t) not in self.sizes:
            return None
        if self.pending and len(word.t) in self.group_sizes:
            # A word equal to a cut point is over that cut point's variables only, so one of
            # its atoms tells which unbuilt group could hold it.
            for m in word.t:
                if m:
                    if m[0] >> 6 in self.pending:
                        self._build(m[0] >> 6)
                    break
        for terms, name, tag, key in self.table.get(_fingerprint(word.t), ()):
            if terms == word.t:
                self.hits[tag] = self.hits.get(tag, 0) + 1
                if self.trace is not None:
                    self.trace.append(("c", word, name, key))
                return name
        return None

    def find_keyed(self, key):
        """The name of the cut point added with `key` (counted as a hit), or None."""
        got = self.keyed.get(key)
        if got is None:
            return None
        name, tag = got
        self.hits[tag] = self.hits.get(tag, 0) + 1
        return name

    def tags(self):
        for b in list(self.pending):
            self._build(b)
        return [tag for entries in self.table.values() for _, _, tag, _ in entries]

    def clear(self):
        self.__init__()


SWEEP = Sweep()


def width_of(a, b):
    if isinstance(a, Sym):
        if isinstance(b, Sym) and b.W != a.W:
            return None
        return a.W
    return b.W


def narrow(v, W):
    """v, a word over wider bases whose masks fit in W bits, as a word over W-bit bases."""
    if isinstance(v, int) or v.W == W:
        return v
    if v.W < W or any(c >> W for c in v.t.values()):
        raise Mixed()
    return opaque("narrow", [v], W)


def align(a, b):
    """a and b over bases of one width (the narrower), or Mixed."""
    if isinstance(a, Sym) and isinstance(b, Sym) and a.W != b.W:
        W = min(a.W, b.W)
        return narrow(a, W), narrow(b, W)
    return a, b


def xor(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a ^ b
    a, b = align(a, b)
    W = width_of(a, b)
    if W is None:
        raise Mixed()
    ta, tb = _terms(a, W), _terms(b, W)
    if len(ta) < len(tb):
        ta, tb = tb, ta
    out = dict(ta)
    get = out.get
    for m, c in tb.items():
        v = get(m, 0) ^ c
        if v:
            out[m] = v
        else:
            del out[m]
    return _make(out, W)


def and_(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a & b
    a, b = align(a, b)
    W = width_of(a, b)
    if W is None:
        raise Mixed()
    if isinstance(b, int):
        a, b = b, a
    if isinstance(a, int):
        return _make({m: c & a for m, c in b.t.items() if c & a}, W)
    if len(a.t) * len(b.t) > MAX_PRODUCT:
        raise Diverged(f"a product of words of {len(a.t)} and {len(b.t)} terms")
    out = {}
    get = out.get
    # This loop is most of a proof's time. Fresh variables every argument set make a product
    # rarely repeat, so it is computed, not cached; most are of two atoms (chi over linear
    # words), merged without a set. A zero sum leaves a monomial that was there: deleted.
    tb = b.t
    singles = [(m[0], c) for m, c in tb.items() if len(m) == 1]
    others = [(m, c) for m, c in tb.items() if len(m) != 1] if len(singles) < len(tb) else ()
    for m1, c1 in a.t.items():
        rest = tb.items()
        if len(m1) == 1:
            one = m1[0]
            for x, c2 in singles:
                c = c1 & c2
                if c:
                    m = (one, x) if one < x else (x, one) if x < one else m1
                    v = get(m, 0) ^ c
                    if v:
                        out[m] = v
                    else:
                        del out[m]
            rest = others
        for m2, c2 in rest:
            c = c1 & c2
            if not c:
                continue
            m = tuple(sorted(set(m1).union(m2)))
            if len(m) > MAX_DEGREE:
                raise Diverged(f"a product of degree {len(m)}")
            v = get(m, 0) ^ c
            if v:
                out[m] = v
            else:
                del out[m]
    if len(out) > MAX_TERMS:
        raise Diverged(f"a word of {len(out)} terms")
    return _make(out, W)


def or_(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a | b
    if not bits_of(a) & bits_of(b):
        # No bit set in both (a rotation written as two shifts): a | b is a ^ b, and the
        # product of every term pair, all of them zero, is not computed.
        return xor(a, b)
    return xor(xor(a, b), and_(a, b))


def bits_of(v):
    """The bits v can have set: the union of its masks."""
    if isinstance(v, int):
        return v
    out = 0
    for c in v.t.values():
        out |= c
    return out


def not_(a, w):
    return xor(a, ones(w))


def rot_terms(a, n, W):
    """Every atom of a rotated left by n inside W, masks too (exact: rotation is a bijection)."""
    n %= W
    if not n:
        return dict(a.t)
    full = ones(W)
    out = {}
    # Inlined, and not cached: rotations are a quarter of a SIMD kernel's proof, and with every
    # round's lanes cut to fresh bases a rotated monomial rarely comes twice. Most monomials
    # are one atom, which needs no sort.
    for m, c in a.t.items():
        if len(m) == 1:
            x = m[0]
            r = x & 63
            m = ((x - r) | ((r + n) % W),)
        else:
            m = tuple(sorted((x - (x & 63)) | (((x & 63) + n) % W) for x in m))
        out[m] = c if c == full else ((c << n) | (c >> (W - n))) & full
    return out


def shl(a, n, w):
    if isinstance(a, int):
        return (a << n) & ones(w) if n < w else 0
    if n >= w:
        return 0
    keep = ones(w) & ~ones(n)
    return _make({m: c & keep for m, c in rot_terms(a, n, a.W).items() if c & keep}, a.W)


def shr(a, n, w):
    if isinstance(a, int):
        return (a & ones(w)) >> n
    if n >= w:
        return 0
    keep = ones(w - n)
    return _make({m: c & keep for m, c in rot_terms(a, -n % a.W, a.W).items() if c & keep},
                 a.W)


def rol(a, n, w):
    n %= w
    if isinstance(a, int):
        return rotl(a, n, w)
    if not n:
        return a
    if w == a.W:
        return _make(rot_terms(a, n, w), w)
    return or_(shl(a, n, w), shr(a, w - n, w))


def trunc(a, w):
    """a mod 2^w (a narrower C type)."""
    if isinstance(a, int):
        return a & ones(w)
    return and_(a, ones(w))


class Mixed(Exception):
    """Words over bases of different widths met in one canonical operation."""


def add(a, b, w):
    """a + b mod 2^w as a canonical sum, or None when the widths do not allow one."""
    if isinstance(a, int) and isinstance(b, int):
        return (a + b) & ones(w)
    try:
        a, b = align(a, b)
        a = narrow(a, w) if isinstance(a, Sym) and a.W > w else a
        b = narrow(b, w) if isinstance(b, Sym) and b.W > w else b
    except Mixed:
        return None
    W = width_of(a, b)
    if W is None or W != w:
        return None
    if isinstance(a, Sym) and isinstance(b, Sym) and a.key() == b.key():
        return shl(a, 1, w)         # x + x is x << 1 exactly (the carry out is dropped)
    ops = {}
    const = 0
    for v in (a, b):
        if isinstance(v, int):
            const += v
            continue
        bid = single_base(v)
        if bid is not None and BASES.kind[bid] == "add":
            sub_ops, sub_const = BASES.payload[bid]
            for k, v2 in sub_ops:
                ops[k] = ops.get(k, 0) + 1
                _OPERAND[k] = v2
            const += sub_const
        else:
            k = v.key()
            ops[k] = ops.get(k, 0) + 1
            _OPERAND[k] = v
    const &= ones(w)
    if not ops:
        return const
    if sum(ops.values()) == 1 and not const:
        (k,) = ops
        return _OPERAND[k]
    items = []
    for k, n in ops.items():
        items.extend([(k, _OPERAND[k])] * n)
    return _resolved(sum_base(items, const, W))


def sum_base(items, const, W):
    """The base of the sum of the words `items` ([(key, word)], a word once per time it is
    added) and const: what add makes, in the order it makes it."""
    ops = {}
    for k, _ in items:
        ops[k] = ops.get(k, 0) + 1
    items = sorted(items, key=lambda kv: hash(kv[0]))
    return BASES.new("add", W, (tuple(items), const), key=("add", W, frozenset(ops.items()),
                                                           const))


def var_offset(v, name):
    """k when v is exactly the input variable `name` plus the constant k (mod 2^W), else
    None."""
    bid = single_base(v)
    if bid is None:
        return None
    if BASES.kind[bid] == "add":
        items, k = BASES.payload[bid]
        if len(items) != 1:
            return None
        bid = single_base(items[0][1])
        if bid is None:
            return None
    else:
        k = 0
    return k if BASES.kind[bid] == "var" and BASES.payload[bid] == name else None


def _resolved(bid):
    atom = atom_of(bid)
    if RESOLVE.fn is not None and BASES.pure[bid]:
        got = RESOLVE.fn(atom)
        if got is not None:
            return got
    if SWEEP.active:
        got = SWEEP.find(atom)
        if got is not None:
            return got
    return atom


_OPERAND = {}


def opaque(op, args, w):
    """A base for anything outside the canonical operations, kept as an expression tree over
    its arguments (words, ints, or other trees): equal trees give the same base."""
    key = ("op", op, w, tuple(_arg_key(x) for x in args))
    bid = BASES.new("op", w, (op, tuple(args)), key=key)
    return _resolved(bid)


def _arg_key(x):
    if isinstance(x, Sym):
        return ("s", x.key())
    if isinstance(x, tuple):
        return ("t",) + tuple(_arg_key(y) for y in x)
    return ("i", x)


def structure(v, memo=None):
    """v with every base spelt out by what it is (variable names, operands) instead of its id:
    equal for equal words whatever order their bases were made in, so a key that outlives
    reset() (each argument set makes its bases afresh)."""
    if isinstance(v, int):
        return ("i", v)
    memo = {} if memo is None else memo
    return ("s", v.W, frozenset((frozenset((_base_structure(a >> 6, memo), a & 63) for a in m),
                                 c) for m, c in v.t.items()))


def _base_structure(bid, memo):
    got = memo.get(bid)
    if got is None:
        kind, W, payload = BASES.kind[bid], BASES.width[bid], BASES.payload[bid]
        if kind == "var":
            got = ("v", W, payload)
        elif kind == "add":
            items, const = payload
            got = ("a", W, frozenset(Counter(structure(x, memo) for _, x in items).items()),
                   const)
        else:
            op, args = payload
            got = ("o", W, op, _arg_structure(args, memo))
        memo[bid] = got
    return got


def _arg_structure(x, memo):
    if isinstance(x, tuple):
        return ("t",) + tuple(_arg_structure(y, memo) for y in x)
    return structure(x, memo)


# -- evaluation on concrete inputs (counterexamples, signatures) --

def evaluate(v, env, memo):
    """The value of v with every 'var' base replaced by env[name]."""
    if isinstance(v, int):
        return v
    out = 0
    W = v.W
    for m, c in v.t.items():
        x = ones(W)
        for a in m:
            bid, r = a >> 6, a & 63
            x &= rotl(base_value(bid, env, memo), r, BASES.width[bid])
        out ^= x & c
    return out


def base_value(bid, env, memo):
    got = memo.get(bid)
    if got is not None:
        return got
    kind, W, payload = BASES.kind[bid], BASES.width[bid], BASES.payload[bid]
    if kind == "var":
        val = env[payload]
    elif kind == "add":
        items, const = payload
        val = const
        for _, v in items:
            val += evaluate(v, env, memo)
        val &= ones(W)
    else:
        op, args = payload
        val = OPAQUE_EVAL[op](W, *[evaluate_arg(a, env, memo) for a in args]) & ones(W)
    memo[bid] = val
    return val


def evaluate_arg(a, env, memo):
    if isinstance(a, tuple):
        return tuple(evaluate_arg(x, env, memo) for x in a)
    return evaluate(a, env, memo)


def _signed(x, w):
    return x - (1 << w) if x >> (w - 1) & 1 else x


OPAQUE_EVAL = {
    "sub": lambda W, a, b: a - b,
    "mul": lambda W, a, b: a * b,
    "add": lambda W, a, b: a + b,
    "ltu": lambda W, a, b: int(a < b),
    "lts": lambda W, a, b, w: int(_signed(a, w) < _signed(b, w)),
    "eq": lambda W, a, b: int(a == b),
    "sar": lambda W, a, n, w: _signed(a, w) >> n,
    "sext": lambda W, a, w: _signed(a, w),
    "concat": lambda W, hi, lo, lw: (hi << lw) | lo,
    "udiv": lambda W, a, b: a // b if b else 0,
    "umod": lambda W, a, b: a % b if b else 0,
    "select": lambda W, c, a, b: a if c else b,
    "undef": lambda W, n: 0,
    "narrow": lambda W, a: a,
}


def bases_of(v, acc=None):
    """The 'var' names v depends on."""
    acc = set() if acc is None else acc
    seen = set()
    stack = []
    if isinstance(v, Sym):
        stack.append(v)
    while stack:
        s = stack.pop()
        for m in s.t:
            for a in m:
                bid = a >> 6
                if bid in seen:
                    continue
                seen.add(bid)
                kind = BASES.kind[bid]
                if kind == "var":
                    acc.add(BASES.payload[bid])
                elif kind == "add":
                    stack.extend(x for _, x in BASES.payload[bid][0])
                else:
                    stack.extend(_syms_in(BASES.payload[bid][1]))
    return acc


def _syms_in(args):
    for a in args:
        if isinstance(a, Sym):
            yield a
        elif isinstance(a, tuple):
            yield from _syms_in(a)
