# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A labelled run of statements (a kernel's round: `round3: ...` up to the next label) run once
per shape of its inputs and replayed after, its words renamed.

The kernels run the same round body hundreds of times per entry point: every round count,
every rate, one block and two, each time on a fresh state (the cut points of the round
before). The words a round starts from are then distinct variables, and what it computes is
the same function of them. So the first run of a labelled run of statements is recorded: the
frame's variables it reads before writing them (its inputs), the words it leaves, the cut
points it reached in order (anf.Sweep), each as terms over the inputs' variables numbered by
first appearance. A later run whose inputs have the same shape (the same types and integers,
each word one variable, rotated and complemented alike, distinct where the recorded ones were
distinct) is that record with its variables renamed: each cut point's form is renamed and
looked up in the current run's table, and its name stands for the recorded one.

Why a replay is what the run computes: ANF operations commute with an injective renaming of
variables (a canonical form is a set of monomials), and control flow is decided by integers,
which the shape fixes. Each replayed cut point is a name defined as equal to its renamed
form, found in the table the specification wrote. A recording is kept only when nothing else
could change what the run does: no memory is written and only the unit's read-only globals
are read, no call leaves the unit or is taken as a contract, no base is made (sums, opaque
nodes: ChaCha's words), no counter resolution is in force, and every word it leaves is over
the inputs' variables and the cut points it reached. A replay whose renamed cut point is not
in the table (a round that does not compute the specification's) is abandoned before it
changes anything, and the statements run.
"""

from . import anf, memory

# Recordings kept per labelled statement: one per integer context (the round index a kernel
# reads its round constant with) and lane-complementing shape is a few dozen at most.
MAX_RECORDS = 96
# A labelled run that fails to record this many times (it writes memory, makes sums) is run
# plainly from then on, without the cost of watching it.
MAX_FAILURES = 3

_ABSENT = object()
# (id(label node), big_endian) -> _Site. The parse trees live as long as the process
# (generator/prove/cfront.py keeps them), and a site holds its node, so an id is not reused.
_SITES = {}
ENABLED = True
# Runs replayed and recorded in this process, for the tests and the curious.
COUNTS = {"replayed": 0, "recorded": 0}


class _Site:
    __slots__ = ("node", "groups", "count", "failures")

    def __init__(self, node):
        self.node = node
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
    if not ENABLED or _RECORDING or anf.RESOLVE.fn is not None:
        return _plainly(items, a, b, plain)
    node = items[a]
    key = (id(node), interp.big_endian)
    site = _SITES.get(key)
    if site is None or site.node is not node:
        site = _SITES[key] = _Site(node)
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
    try:
        outcome = _plainly(items, a, b, plain)
    finally:
        _RECORDING = False
        memory.WATCH = None
        anf.SWEEP.trace = None
        frame.vars = dict(track)
    ok = not seen["bad"] and effects == interp.effects and len(anf.BASES.kind) == n_bases
    rec = None
    if ok:
        try:
            rec, names, shape = _make_record(track, trace, outcome)
        except _Invalid:
            rec = None
    if rec is None:
        site.failures += 1
    elif site.count < MAX_RECORDS:
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
    index = {bid: i for i, bid in enumerate(bases)}
    n_inputs = len(bases)
    steps = []
    by_inputs = {}
    for word, name, key in trace:
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


def _to_index(word, index):
    out = []
    for m, c in word.t.items():
        vm = []
        for x in m:
            i = index.get(x >> 6)
            if i is None:
                raise _Invalid()
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
    for how, (i, rot, ones) in rec.steps:
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
    from .interp import Vector
    return Vector([_value_from_index(e, base) for e in v[2]], v[1])
