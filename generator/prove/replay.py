# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A run of statements (a kernel's round: `round3: ...` up to the next label, or a loop body
with no label and no way out but its break) run once per shape of its inputs and replayed
after, its words renamed.

The kernels run the same round body hundreds of times per entry point: every round count,
every rate, one block and two, each time on a fresh state (the cut points of the round
before). The words a round starts from are then distinct variables, and what it computes is
the same function of them. So the first run of a run of statements is recorded: the frame's
variables it reads before writing them (its inputs), the words it leaves, the cut points it
reached and the sums it made, in order (anf.Sweep, anf.Bases), each as terms over the inputs'
variables numbered by first appearance. A later run whose inputs have the same shape (the
same types and integers, each word one variable, rotated and complemented alike, distinct
where the recorded ones were distinct) is that record with its variables renamed: each sum
is made again over its renamed words, each cut point's form is renamed and looked up in the
current run's table, and its name stands for the recorded one.

A recording serves every run that reads as the same C in the same context (_site_text): the
round body a file's permutation and block loops share, other unroll factors' rounds, other
files' and other compilers' branches that expand alike.

Why a replay is what the run computes: ANF operations and canonical sums commute with an
injective renaming of variables (a canonical form is a set of monomials, a sum a multiset of
words), and control flow is decided by integers, which the shape fixes. Each replayed cut
point is a name defined as equal to its renamed form, found in the table the specification
wrote. A recording is kept only when nothing else could change what the run does: no memory
is written and only the unit's read-only globals are read, no call leaves the unit or is
taken as a contract, no base but a sum or a variable is made, no sum the counter resolution
would rewrite, and every word it leaves is over the inputs' variables, the sums it made and
the cut points it reached. A replay whose renamed cut point is not in the table (a round that
does not compute the specification's), or whose sum is a cut point where the recorded one
was not, is abandoned before it changes the frame, and the statements run.
"""

import hashlib
import re

from pycparser import c_ast, c_generator

from . import anf, memory

# Recordings kept per run of statements: one per integer context (the round index a kernel
# reads its round constant with) and lane-complementing shape, over every file whose run
# reads alike, is a few dozen to a few hundred.
MAX_RECORDS = 512
# A labelled run that fails to record this many times (it writes memory, makes sums) is run
# plainly from then on, without the cost of watching it.
MAX_FAILURES = 3

_ABSENT = object()
# (what the run is, big_endian) -> _Site: one site for every run of statements that reads as
# the same C in the same context (_site_text), in whichever function, file or compiler
# branch it stands. A round's body is emitted alike in a file's permutation and in its block
# loops, in every unroll factor, and under compilers whose rotation macros expand alike.
_SITES = {}
# id(label node) -> (node, its run's digest). The parse trees live as long as the process
# (generator/prove/cfront.py keeps them), and the entry holds its node, so an id is not reused.
_TEXTS = {}
# id(unit) -> (unit, the text of its declarations other than functions).
_UNIT_TEXTS = {}
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_LIFTED = re.compile(r"\b(__rs_stmt_expr|__rs_asm)\((\d+)")
ENABLED = True
# Runs replayed and recorded in this process, for the tests and the curious.
COUNTS = {"replayed": 0, "recorded": 0}


class _Site:
    __slots__ = ("groups", "count", "failures")

    def __init__(self):
        self.groups = {}      # input names (tuple) -> {shape: _Record}
        self.count = 0
        self.failures = 0


class _Record:
    __slots__ = ("steps", "outputs", "outcome", "n_inputs")

    def __init__(self, steps, outputs, outcome, n_inputs):
        # [(how the cut point is found, the name's (index, rotation, complemented))]: by key
        # ("k", what, input indices) or by its terms ("t", W, terms over indices)
        self.steps = steps
        self.outputs = outputs      # [(name, entry over indices, or _ABSENT)]
        self.outcome = outcome      # None, "break" or "continue"
        self.n_inputs = n_inputs


class _Tracking(dict):
    """A frame's variables, noting each name read before it is written (with its value
    then) and each name written."""

    __slots__ = ("reads", "peeks", "written")

    def __init__(self, base):
        super().__init__(base)
        self.reads = {}
        self.peeks = {}       # names only looked up to be written (their type, not value)
        self.written = set()

    def _note(self, k):
        if k not in self.written and k not in self.reads:
            self.reads[k] = dict.get(self, k, _ABSENT)

    def peek(self, k):
        if k not in self.written and k not in self.reads and k not in self.peeks:
            self.peeks[k] = dict.get(self, k, _ABSENT)
        return dict.get(self, k)

    def get(self, k, d=None):
        self._note(k)
        return dict.get(self, k, d)

    def __getitem__(self, k):
        self._note(k)
        return dict.__getitem__(self, k)

    def __contains__(self, k):
        self._note(k)
        return dict.__contains__(self, k)

    def __setitem__(self, k, v):
        self.written.add(k)
        dict.__setitem__(self, k, v)

    def pop(self, k, *d):
        self._note(k)
        self.written.add(k)
        return dict.pop(self, k, *d)

    def update(self, other):
        self.written.update(other)
        dict.update(self, other)


class _Invalid(Exception):
    pass


def peek(vars_, name):
    """vars_.get(name) for an lvalue: a recording notes that the name's type (and whether it
    lives in memory) was looked up, not its value."""
    if type(vars_) is dict:
        return vars_.get(name)
    return vars_.peek(name)


def _site_text(interp, items, a, b):
    """A digest of everything a run of items[a:b] can depend on besides its inputs: its C
    text with each lifted asm statement and statement expression written out (their numbers
    are the file's, not the text's), the text of every function of the unit it may call and
    theirs in turn, and the unit's declarations that are not functions (typedefs, the
    read-only tables a recording may read). Two runs with one digest compute the same from
    inputs of one shape: the models of intrinsics and asm are the process's own."""
    node = items[a]
    got = _TEXTS.get(id(node))
    if got is not None and got[0] is node:
        return got[1]
    gen = c_generator.CGenerator()
    unit = interp.unit
    funcs = interp.funcs

    def spelled(text):
        def one(m):
            k = int(m.group(2))
            if m.group(1) == "__rs_asm":
                return "__rs_asm(" + repr(unit.asm[k]) + ","
            fd = funcs.get(f"{m.group(1)}_{k}")
            return "({" + (spelled(gen.visit(fd.body)) if fd is not None else "?") + "})" + "("
        return _LIFTED.sub(one, text)

    parts = [spelled("\n".join(gen.visit(it) for it in items[a:b]))]
    seen, todo = set(), sorted(set(_CALLED.findall(parts[0])))
    while todo:
        name = todo.pop()
        if name in seen or name not in funcs or name.startswith("__rs_stmt_expr"):
            continue
        seen.add(name)
        text = spelled(gen.visit(funcs[name]))
        parts.append(text)
        todo.extend(sorted(set(_CALLED.findall(text)) - seen))
    ut = _UNIT_TEXTS.get(id(unit))
    if ut is None or ut[0] is not unit:
        ut = _UNIT_TEXTS[id(unit)] = (unit, "\n".join(
            gen.visit(e) for e in unit.ast.ext if not isinstance(e, c_ast.FuncDef) and not (
                isinstance(e, c_ast.Decl) and isinstance(e.type, c_ast.FuncDecl))))
    parts.append(ut[1])
    digest = hashlib.sha256("\n\f".join(parts).encode()).hexdigest()
    _TEXTS[id(node)] = (node, digest)
    return digest


def _plainly(items, a, b, plain):
    for it in items[a:b]:
        outcome = plain(it)
        if outcome is not None:
            return outcome
    return None


def run(interp, items, a, b, frame, plain):
    """Run items[a:b] (items[a] a label) in frame: replayed when a recording fits, else run
    by plain(item) each (which says "break" or "continue" when the item leaves its loop so),
    and recorded when it can be. Returns how the run ended: None, "break" or "continue"."""
    if not ENABLED or _RECORDING:
        return _plainly(items, a, b, plain)
    _whole_lanes(frame.vars)
    key = (_site_text(interp, items, a, b), interp.big_endian)
    site = _SITES.get(key)
    if site is None:
        site = _SITES[key] = _Site()
    if site.failures >= MAX_FAILURES and not site.count:
        return _plainly(items, a, b, plain)
    fits = not site.groups
    for names, by_shape in site.groups.items():
        shape = _shape(frame.vars, names)
        if shape is None:
            continue
        fits = True
        rec = by_shape.get(shape[0])
        if rec is not None and _replay(rec, shape[1], frame):
            COUNTS["replayed"] += 1
            return rec.outcome
    if not fits:
        # Its inputs are no longer one variable each (a block's message XORed in): the
        # recording would not be kept, so the statements run unwatched.
        return _plainly(items, a, b, plain)
    return _record(interp, site, items, a, b, frame, plain)


_RECORDING = False


def _whole_lanes(vars_):
    """Registers held as bytes (a byte shuffle's rotation leaves them so) seen again as the
    words they are, where each word is then one variable: the same bits, in the form a
    recording can stand for (a byte of a sum is not, the cut point the word is, is)."""
    from .simd_value import regroup
    for name, e in vars_.items():
        v = e[1]
        if type(v).__name__ != "Vector" or v.ew >= 32 or e[2]:
            continue
        widest = min((x.W for x in v.elems if isinstance(x, anf.Sym)), default=0)
        for ew in (32, 64):
            if ew > widest or len(v.elems) * v.ew % ew:
                break
            w = regroup(v, ew)
            if all(isinstance(x, anf.Sym) and _literal(x) is not None for x in w.elems):
                vars_[name] = (e[0], w, e[2])
                break


def _literal(v):
    """(base, rotation, complemented) when v is one full-mask atom of a variable, optionally
    XORed with all-ones; else None."""
    t = v.t
    n = len(t)
    if n > 2:
        return None
    full = anf.ones(v.W)
    atom = None
    ones = False
    for m, c in t.items():
        if c != full:
            return None
        if not m:
            ones = True
        elif len(m) == 1 and atom is None:
            atom = m[0]
        else:
            return None
    if atom is None or anf.BASES.kind[atom >> 6] != "var":
        return None
    return atom >> 6, atom & 63, ones


def _shape(vars_, names):
    """(shape, [base of each index]) of the frame's values of `names` (the names read, and
    the names only looked up to be written), or None when one is not a value a recording
    can stand for: an integer, one variable (rotated, complemented), a word over the
    variables the others are (a column parity carried into the next round), or a vector of
    those. The variables are numbered in the order the one-variable values name them, so a
    word's terms over those numbers are the same whatever order its own terms were made in."""
    bases = []
    index = {}
    out = []
    read, peeked = names
    for name in peeked:
        e = vars_.get(name, _ABSENT)
        out.append(e if e is _ABSENT else (e[0], e[2]))
    values = []
    for name in read:
        e = vars_.get(name, _ABSENT)
        if e is _ABSENT:
            values.append(_ABSENT)
            continue
        t, v, inmem = e
        if inmem or not _number(v, index, bases):
            return None
        values.append((t, v))
    for tv in values:
        if tv is _ABSENT:
            out.append(_ABSENT)
            continue
        s = _value_shape(tv[1], index)
        if s is None:
            return None
        out.append((tv[0], s))
    return tuple(out), bases


def _number(v, index, bases):
    """Number the variable of each one-variable value in v; False for a value no recording
    stands for."""
    if v is None or isinstance(v, int):
        return True
    if isinstance(v, anf.Sym):
        lit = _literal(v)
        if lit is not None and lit[0] not in index:
            index[lit[0]] = len(bases)
            bases.append(lit[0])
        return True
    if type(v).__name__ == "Vector":
        return all(_number(e, index, bases) for e in v.elems)
    return False


def _value_shape(v, index):
    if v is None or isinstance(v, int):
        return ("i", v)
    if isinstance(v, anf.Sym):
        lit = _literal(v)
        if lit is not None:
            bid, rot, ones = lit
            return ("s", v.W, index[bid], rot, ones)
        try:
            return ("w", v.W, tuple(sorted(_to_index(v, index))))
        except _Invalid:
            return None
    if type(v).__name__ == "Vector":
        elems = []
        for e in v.elems:
            s = _value_shape(e, index)
            if s is None:
                return None
            elems.append(s)
        return ("v", v.ew, tuple(elems))
    return None


def _record(interp, site, items, a, b, frame, plain):
    global _RECORDING
    track = _Tracking(frame.vars)
    frame.vars = track
    allowed = {id(obj) for _, obj in interp.globals.values() if obj.readonly}
    seen = {"bad": False}

    def watch(obj, write):
        if write or id(obj) not in allowed:
            seen["bad"] = True

    trace = []
    n_bases = len(anf.BASES.kind)
    effects = interp.effects
    _RECORDING = True
    memory.WATCH = watch
    anf.SWEEP.trace = trace
    bases = anf.BASES
    bases.trace = trace
    try:
        outcome = _plainly(items, a, b, plain)
    finally:
        _RECORDING = False
        memory.WATCH = None
        anf.SWEEP.trace = None
        bases.trace = None
        frame.vars = dict(track)
    # A variable made on the way (an asm statement's view of a register the caller set) is
    # harmless: a word over it is over no input, and makes the recording invalid below. A
    # sum is made again by a replay, over the renamed words (ChaCha's additions); an opaque
    # node is not, nor a sum the counter resolution would have rewritten.
    R = anf.RESOLVE
    ok = (not seen["bad"] and effects == interp.effects and bases is anf.BASES and
          all(k in ("var", "add") for k in bases.kind[n_bases:]) and
          (R.fn is None or not any(bases.pure[n_bases:])))
    rec = None
    if not ok:
        # What the run does, not what it was given: it will not record on other inputs.
        site.failures += 1
        return outcome
    try:
        rec, names, shape = _make_record(track, trace, outcome)
    except _Invalid:
        # What it was given or left (a block's message XORed in): other inputs may record.
        return outcome
    if site.count < MAX_RECORDS:
        site.groups.setdefault(names, {})[shape] = rec
        site.count += 1
        COUNTS["recorded"] += 1
    return outcome


def _make_record(track, trace, outcome):
    names = (tuple(sorted(track.reads)), tuple(sorted(set(track.peeks) - set(track.reads))))
    vars0 = {n: e for n, e in track.peeks.items() if e is not _ABSENT}
    vars0.update((n, e) for n, e in track.reads.items() if e is not _ABSENT)
    got = _shape(vars0, names)
    if got is None:
        raise _Invalid()
    shape, bases = got
    index = _Index((bid, i) for i, bid in enumerate(bases))
    n_inputs = len(bases)
    steps = index.steps = []
    by_inputs = {}
    kinds, payloads = anf.BASES.kind, anf.BASES.payload
    for e, event in enumerate(trace):
        if event[0] == "b":
            bid = event[1]
            if kinds[bid] != "add":
                continue        # a variable: a word over it is over no input (_to_index)
            # A sum made here: made again on replay from its renamed words. Whether its
            # atom was a cut point is the next event's to say.
            items, const = payloads[bid]
            nxt = trace[e + 1] if e + 1 < len(trace) else None
            hit = (nxt is not None and nxt[0] == "c" and len(nxt[1].t) == 1 and
                   next(iter(nxt[1].t)) == (bid * 64,))
            steps.append((("b", anf.BASES.width[bid],
                           tuple(_to_index(w, index) for _, w in items), const, hit), None))
            index[bid] = len(index)
            continue
        _, word, name, key = event
        if key is not None and all(b in index for b in key[1]):
            # A cut point with a key: found again by its key on the renamed variables (one
            # tuple per set of variables, so a replay renames each set once).
            idx = tuple(index[b] for b in key[1])
            how = ("k", key[0], by_inputs.setdefault(idx, idx))
        else:
            how = ("t", word.W, _to_index(word, index))
        if not isinstance(name, anf.Sym):
            raise _Invalid()
        lit = _literal(name)
        if lit is None:
            raise _Invalid()
        bid, rot, ones = lit
        i = index.get(bid)
        if i is None:
            i = index[bid] = len(index)
        steps.append((how, (i, rot, ones)))
    outputs = []
    for n in sorted(track.written):
        e = dict.get(track, n, _ABSENT)
        if e is _ABSENT:
            outputs.append((n, _ABSENT))
            continue
        t, v, inmem = e
        if inmem:
            raise _Invalid()
        outputs.append((n, (t, _value_to_index(v, index))))
    return _Record(steps, outputs, outcome, n_inputs), names, shape


class _Index(dict):
    """Base id -> its number in a recording. A sum made before the run (the specification's
    own, which the kernel's addition met again) is numbered where first met, after a step
    that makes it again on replay."""

    __slots__ = ("steps",)

    def number(self, bid):
        i = self.get(bid)
        if i is None:
            if anf.BASES.kind[bid] != "add":
                raise _Invalid()
            items, const = anf.BASES.payload[bid]
            terms = tuple(_to_index(w, self) for _, w in items)
            self.steps.append((("b", anf.BASES.width[bid], terms, const, None), None))
            i = self[bid] = len(self)
        return i


def _to_index(word, index):
    out = []
    number = index.number if type(index) is _Index else None
    for m, c in word.t.items():
        vm = []
        for x in m:
            i = index.get(x >> 6)
            if i is None:
                if number is None:
                    raise _Invalid()
                i = number(x >> 6)
            vm.append(i * 64 + (x & 63))
        vm.sort()
        out.append((tuple(vm), c))
    return tuple(out)


def _value_to_index(v, index):
    if v is None or isinstance(v, int):
        return ("i", v)
    if isinstance(v, anf.Sym):
        return ("s", v.W, _to_index(v, index))
    if type(v).__name__ == "Vector":
        return ("v", v.ew, tuple(_value_to_index(e, index) for e in v.elems))
    raise _Invalid()


def _rename(terms, base):
    out = {}
    for m, c in terms:
        if len(m) == 1:
            x = m[0]
            out[(base[x >> 6] + (x & 63),)] = c
        elif len(m) == 2:
            x, y = m
            x = base[x >> 6] + (x & 63)
            y = base[y >> 6] + (y & 63)
            out[(x, y) if x < y else (y, x)] = c
        else:
            out[tuple(sorted(base[x >> 6] + (x & 63) for x in m))] = c
    return out


def _replay(rec, bases, frame):
    """Apply rec to frame with the inputs' bases `bases`; False (frame untouched) when a cut
    point it reached has no renamed counterpart here."""
    base = [b * 64 for b in bases]
    images = set(bases)
    sweep = anf.SWEEP
    renamed = {}
    for how, target in rec.steps:
        if how[0] == "b":
            _, W, items, const, hit = how
            words = [anf.Sym(_rename(t, base), W) for t in items]
            bid = anf.sum_base([(w.key(), w) for w in words], const, W)
            R = anf.RESOLVE
            if R.fn is not None and anf.BASES.pure[bid]:
                return False
            # hit: whether the recorded sum was a cut point (None: it was made before the
            # run, and the run met it again).
            if (hit is False and sweep.active and
                    sweep.find(anf.atom_of(bid)) is not None) or bid in images:
                return False
            base.append(bid * 64)
            images.add(bid)
            continue
        i, rot, ones = target
        if how[0] == "k":
            idx = how[2]
            inputs = renamed.get(id(idx))
            if inputs is None:
                inputs = renamed[id(idx)] = tuple(base[j] >> 6 for j in idx)
            got = sweep.find_keyed((how[1], inputs))
        else:
            got = sweep.find(anf.Sym(_rename(how[2], base), how[1]))
        if got is None:
            return False
        lit = _literal(got) if isinstance(got, anf.Sym) else None
        if lit is None or lit[1] != rot or lit[2] != ones:
            return False
        bid = lit[0]
        if i < len(base):
            if base[i] != bid * 64:
                return False
        elif i == len(base) and bid not in images:
            base.append(bid * 64)
            images.add(bid)
        else:
            return False
    writes = []
    for name, e in rec.outputs:
        if e is _ABSENT:
            writes.append((name, _ABSENT))
            continue
        t, v = e
        writes.append((name, (t, _value_from_index(v, base), False)))
    vars_ = frame.vars
    for name, e in writes:
        if e is _ABSENT:
            vars_.pop(name, None)
        else:
            vars_[name] = e
    return True


def _value_from_index(v, base):
    kind = v[0]
    if kind == "i":
        return v[1]
    if kind == "s":
        s = anf.Sym(_rename(v[2], base), v[1])
        got = anf.SWEEP.find(s) if anf.SWEEP.active else None
        return s if got is None else got
    from .simd_value import Vector
    return Vector([_value_from_index(e, base) for e in v[2]], v[1])
