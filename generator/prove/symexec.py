# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A second engine for the byte layer: preprocessed C run over z3 bit-vectors.

Integers are bit-vectors of their C width, pointers are (object, offset) with a 64-bit offset,
and every object is an array of bytes of a (possibly symbolic) length. A branch on a symbolic
condition forks; z3 drops the side the path condition rules out. Every memory access is
checked in bounds, every shift against its width, every signed operation against overflow,
by a z3 query under the path condition: a failing query is a counterexample (Failure).

Where the kernel interpreter (interp.py) decides control flow on concrete values only, this
engine lets lengths, offsets and counters be symbolic, so one run covers every value of
them. Loops run by unrolling while the path condition bounds them; a loop the caller gives an
invariant for (Engine.invariants) runs by induction instead (base, one symbolic step, exit).
Calls out of the unit are contracts (Engine.externs); calls in the unit run their bodies
unless the caller gave a summary (Engine.summaries), which it then proves on its own.
"""

import z3
from pycparser import c_ast

from . import cfront
from . import ctypes_ as T

BV64 = z3.BitVecSort(64)
BYTES = z3.ArraySort(BV64, z3.BitVecSort(8))
MAX_UNROLL = 80


class Unsupported(Exception):
    """C outside what this engine runs: the function is reported `not supported`."""


class Failure(Exception):
    """A query found a path that leaves a buffer, hits undefined behaviour or differs from
    the specification. kind: oob, ub, mismatch; model: z3 model of the path."""

    def __init__(self, kind, what, model, state=None, query=()):
        super().__init__(f"{kind}: {what}")
        self.kind, self.what, self.model, self.state = kind, what, model, state
        self.query = list(query)      # what was added to the path for the model


class Obj:
    """A region of memory: name, length in bytes (z3 term), writable or not."""

    def __init__(self, oid, name, size, writable=True):
        self.oid, self.name, self.size, self.writable = oid, name, size, writable


class Ptr:
    __slots__ = ("oid", "off", "t")

    def __init__(self, oid, off, t):
        self.oid, self.off, self.t = oid, off, t     # oid None: the null pointer


class Val:
    __slots__ = ("v", "t")

    def __init__(self, v, t):
        self.v, self.t = v, t


class State:
    """One path: its condition, the bytes of every object, the current frame's variables,
    and the pointers stored in memory: ptrs[object][byte offset] (concrete offsets; a pointer
    is not bytes here, so a cell is read back only as the pointer it holds)."""

    def __init__(self, pc, mem, env, ptrs=None):
        self.pc, self.mem, self.env = pc, mem, env
        self.ptrs = ptrs if ptrs is not None else {}

    def fork(self, cond=None):
        pc = self.pc + [cond] if cond is not None else list(self.pc)
        return State(pc, dict(self.mem), dict(self.env),
                     {k: dict(v) for k, v in self.ptrs.items()})


def bv(x, bits=64):
    return z3.BitVecVal(x, bits) if isinstance(x, int) else x


_DIVS = (z3.Z3_OP_BUDIV, z3.Z3_OP_BUREM, z3.Z3_OP_BUDIV_I, z3.Z3_OP_BUREM_I)


def elim_div(fs):
    """The formulas with each unsigned division or remainder by a constant c replaced by fresh
    q, r and the facts x = q c + r, r < c, q c without overflow: the same models, without the
    64-bit divider circuits z3 would otherwise bit-blast."""
    found, seen = [], set()

    def walk(e):
        if e.get_id() in seen or not z3.is_app(e):
            return
        seen.add(e.get_id())
        for c in e.children():
            walk(c)
        if e.decl().kind() in _DIVS:
            d = z3.simplify(e.children()[1])
            if z3.is_bv_value(d) and d.as_long() > 0:
                found.append(e)
    for f in fs:
        walk(f)
    if not found:
        return fs
    subst, pairs, facts = [], {}, []
    for e in found:                      # inner divisions first (post-order)
        x = z3.substitute(e.children()[0], *subst) if subst else e.children()[0]
        c = z3.simplify(e.children()[1]).as_long()
        key = (z3.simplify(x).sexpr(), c)
        if key not in pairs:
            q, r = z3.FreshConst(x.sort(), "q"), z3.FreshConst(x.sort(), "r")
            pairs[key] = (q, r)
            w = 8
            facts += [z3.ULE(q, ((1 << x.size()) - 1) // c), z3.ULT(r, c),
                      z3.ZeroExt(w, x) == z3.ZeroExt(w, q) * c + z3.ZeroExt(w, r)]
        q, r = pairs[key]
        subst.append((e, q if e.decl().kind() in (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I) else r))
    return [z3.substitute(f, *subst) for f in fs] + facts


class _NotLinear(Exception):
    pass


def to_lia(fs, exact=None):
    """The formulas over unbounded integers (each w-bit value its number in [0, 2^w)), or
    None where one of them is more than arithmetic (bytes of memory, xor, functions). The
    same models: the integer form of each operation is its exact value modulo 2^w."""
    memo, facts, names = {}, [], {}
    exact = exact or {}

    def num(e):
        key = e.get_id()
        if key in memo:
            return memo[key]
        w = e.size()
        M = 1 << w
        if z3.is_bv_value(e):
            out = z3.IntVal(e.as_long())
        elif z3.is_const(e):
            out = z3.Int(f"i_{e.sexpr()}")
            if out.get_id() not in names:
                names[out.get_id()] = out
                facts.extend([out >= 0, out < M])
        elif not z3.is_app(e):
            raise _NotLinear()
        else:
            k, kids = e.decl().kind(), e.children()
            consts = [z3.simplify(c) for c in kids]
            if k == z3.Z3_OP_BADD:
                out = sum(num(c) for c in kids) % M
            elif k == z3.Z3_OP_BSUB:
                out = (num(kids[0]) - num(kids[1])) % M
            elif k == z3.Z3_OP_BNEG:
                out = (-num(kids[0])) % M
            elif k == z3.Z3_OP_BMUL:
                c = [x for x in consts if z3.is_bv_value(x)]
                if len(kids) != 2 or not c:
                    raise _NotLinear()
                other = kids[1] if z3.is_bv_value(consts[0]) else kids[0]
                cv = c[0].as_long()
                cv = cv - M if cv >= M // 2 else cv     # a - b is a + (2^w - 1) b
                out = (cv * num(other)) % M
            elif k == z3.Z3_OP_CONCAT:
                out, acc = z3.IntVal(0), 0
                for c in reversed(kids):
                    out = out + num(c) * (1 << acc)
                    acc += c.size()
            elif k == z3.Z3_OP_EXTRACT:
                hi, lo = e.params()
                out = (num(kids[0]) / (1 << lo)) % (1 << (hi - lo + 1))
            elif k == z3.Z3_OP_ZERO_EXT:
                out = num(kids[0])
            elif k in (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I, z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I,
                       z3.Z3_OP_BLSHR) and z3.is_bv_value(consts[1]):
                c = consts[1].as_long()
                if k == z3.Z3_OP_BLSHR:
                    out = num(kids[0]) / (1 << c) if c < w else z3.IntVal(0)
                elif c == 0:
                    raise _NotLinear()
                else:
                    out = num(kids[0]) / c if k in (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I) \
                        else num(kids[0]) % c
            elif k == z3.Z3_OP_BSHL and z3.is_bv_value(consts[1]):
                c = consts[1].as_long()
                out = (num(kids[0]) * (1 << c)) % M if c < w else z3.IntVal(0)
            elif k == z3.Z3_OP_BAND and len(kids) == 2 and any(
                    z3.is_bv_value(x) and (x.as_long() + 1) & x.as_long() == 0 for x in consts):
                c = [x for x in consts if z3.is_bv_value(x)][0].as_long()
                other = kids[1] if z3.is_bv_value(consts[0]) else kids[0]
                out = num(other) % (c + 1)
            elif k == z3.Z3_OP_ITE:
                out = z3.If(prop(kids[0]), num(kids[1]), num(kids[2]))
            else:
                raise _NotLinear()
        memo[key] = out
        return out

    def prop(e):
        if z3.is_true(e) or z3.is_false(e):
            return e
        if e.get_id() in exact:
            x, c, q, r = exact[e.get_id()]
            return num(x) == c * num(q) + num(r)
        if not z3.is_app(e):
            raise _NotLinear()
        k, kids = e.decl().kind(), e.children()
        if k == z3.Z3_OP_AND:
            return z3.And(*[prop(c) for c in kids])
        if k == z3.Z3_OP_OR:
            return z3.Or(*[prop(c) for c in kids])
        if k == z3.Z3_OP_NOT:
            return z3.Not(prop(kids[0]))
        if k == z3.Z3_OP_IMPLIES:
            return z3.Implies(prop(kids[0]), prop(kids[1]))
        if k == z3.Z3_OP_ITE:
            return z3.If(prop(kids[0]), prop(kids[1]), prop(kids[2]))
        if k in (z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT) and len(kids) == 2:
            if kids[0].sort().kind() == z3.Z3_BOOL_SORT:
                r = prop(kids[0]) == prop(kids[1])
            elif not z3.is_bv(kids[0]):
                raise _NotLinear()
            else:
                r = num(kids[0]) == num(kids[1])
            return r if k == z3.Z3_OP_EQ else z3.Not(r)
        cmp = {z3.Z3_OP_ULEQ: lambda a, b: a <= b, z3.Z3_OP_ULT: lambda a, b: a < b,
               z3.Z3_OP_UGEQ: lambda a, b: a >= b, z3.Z3_OP_UGT: lambda a, b: a > b}
        if k in cmp:
            return cmp[k](num(kids[0]), num(kids[1]))
        raise _NotLinear()

    try:
        got = [prop(f) for f in fs]
    except (_NotLinear, z3.Z3Exception):
        return None
    return got + facts


# id of a chain of stores at constant addresses -> (the chain, {address: value on top}, the
# array below it); the chain is kept so that its id is not reused
_CONST = {}


def _const_stores(arr):
    """({address: the topmost value stored there}, the array below) of the stores at
    constant addresses on top of arr, built on the table of the chain below where it has
    one."""
    chain, a = [], arr
    while z3.is_app_of(a, z3.Z3_OP_STORE) and z3.is_bv_value(a.arg(1)) and \
            a.get_id() not in _CONST:
        chain.append(a)
        a = a.arg(0)
    if a.get_id() in _CONST:
        _, table, bottom = _CONST[a.get_id()]
        table = dict(table)
    else:
        table, bottom = {}, a
    for s in reversed(chain):
        table[s.arg(1).as_long()] = s.arg(2)
    if len(_CONST) > 4096:
        _CONST.clear()
    _CONST[arr.get_id()] = (arr, table, bottom)
    return table, bottom


def sel(arr, x, below=None):
    """arr[x] with every store, lambda and if-then-else of arrays on top of the base array
    unfolded, and the reads inside them too: a formula whose only array terms are the
    untouched ones, which z3 decides far faster. A lambda's guard that the index decides
    (a range a store or a state was written to) drops the branch, and so does a store at a
    constant offset at or past `below`, a bound the caller proved x is under."""
    if z3.is_bv_value(x) and z3.is_app_of(arr, z3.Z3_OP_STORE):
        # a constant address past the stores at other constant addresses (a chain of
        # hundreds of lane stores): one table per chain read, no walk per byte
        table, arr = _const_stores(arr)
        got = table.get(x.as_long())
        if got is not None:
            return got
    if z3.is_app_of(arr, z3.Z3_OP_STORE):
        a, i, v = arr.children()
        i = z3.simplify(i)
        if below is not None and z3.is_bv_value(i) and i.as_long() >= below:
            return sel(a, x, below)
        same = z3.simplify(i == x)
        if z3.is_true(same):
            return v
        rest = sel(a, x, below)
        return rest if z3.is_false(same) else z3.If(same, v, rest)
    if z3.is_app_of(arr, z3.Z3_OP_ITE):
        c, a, b = arr.children()
        return z3.If(c, sel(a, x, below), sel(b, x, below))
    if z3.is_quantifier(arr) and arr.is_lambda():
        body = z3.substitute_vars(arr.body(), x)
        if z3.is_app_of(body, z3.Z3_OP_ITE):
            c, a, b = body.children()
            c = z3.simplify(c)
            if z3.is_true(c):
                return unfold(a)
            if z3.is_false(c):
                return unfold(b)
            return z3.If(c, unfold(a), unfold(b))
        return unfold(body)
    if z3.is_app_of(arr, z3.Z3_OP_CONST_ARRAY):
        return arr.arg(0)
    return z3.Select(arr, x)


def unfold(t):
    """t with each array read in it pushed through the stores and lambdas it reads (sel)."""
    reads, seen, todo = [], set(), [t]
    while todo:
        x = todo.pop()
        if x.get_id() in seen or not z3.is_app(x):
            continue
        seen.add(x.get_id())
        if z3.is_select(x):
            reads.append(x)
            continue
        todo.extend(x.children())
    if not reads:
        return t
    return z3.substitute(t, *[(r, sel(r.arg(0), unfold(r.arg(1)))) for r in reads])


def _lia_solvers():
    """Integer solvers to try in turn: z3's older simplex, which decides these queries (linear
    facts about positions, quotients and remainders of 64-bit values) in milliseconds, then
    its QF_LIA strategy, whose first stage sits 5 s on some of them before its fallback."""
    fast = z3.Then("simplify", "purify-arith", z3.With("smt", **{"arith.solver": 2})).solver()
    fast.set("timeout", 3000)
    slow = z3.SolverFor("QF_LIA")
    slow.set("timeout", 10000)
    return (fast, slow)


class Engine:
    def __init__(self, unit, big_endian=False):
        self.unit = unit
        self.big_endian = big_endian
        self.typedefs, self.structs, self.funcs = {}, {}, {}
        self.objs = []
        self.externs = {}       # name -> f(engine, state, [Val|Ptr]) -> [(state, value)]
        self.summaries = {}     # name -> same signature, for functions of the unit
        self.invariants = {}    # function name -> f(engine, state, loop node, k) (see _loop)
        # f(state, x, c) -> (q, r) or None: a 64-bit unsigned division of x by the constant c
        # as names the caller defines on the path (a cut point: the specification's own
        # quotient where the dividends are provably equal), instead of a divider circuit
        self.div_hook = None
        # f(state, op, x, y) -> term or None: a 64-bit unsigned x op y the caller knows a
        # simpler name of on the path (x - q c is r where x = q c + r is defined there)
        self.arith_hook = None
        # f(state, 64-bit term) -> term or None: a 64-bit operand (of unsigned arithmetic,
        # or added to a pointer) the caller spells otherwise on the path (a 32-bit a - b
        # widened, where b <= a, as the 64-bit a - b the specification writes)
        self.widen_hook = None
        # memset of a constant length as one lambda over the range, not a store per byte
        # (a chain of thousands of stores that every later load walks)
        self.memset_lambda = False
        self.timeout = 300000
        self.queries = 0
        self.fn_stack = []
        self.global_decls = {}  # name -> file-scope Decl with an initialiser (a const table)
        self._globals = {}      # name -> (oid, type, contents), made on first use
        self._strings = {}      # a string literal's bytes -> (oid, contents)
        for ext in unit.ast.ext:
            if isinstance(ext, c_ast.FuncDef):
                self.funcs[ext.decl.name] = ext
            elif isinstance(ext, c_ast.Decl) and ext.name and isinstance(ext.init,
                                                                        c_ast.InitList):
                self.global_decls[ext.name] = ext
            elif isinstance(ext, c_ast.Typedef):
                try:
                    self.typedefs[ext.name] = self.type_of(ext.type)
                except Unsupported:
                    pass
            elif isinstance(ext, c_ast.Decl) and ext.name is None:
                try:
                    self.type_of(ext.type)
                except Unsupported:
                    pass

    # -- types --

    def type_of(self, node):
        if isinstance(node, (c_ast.TypeDecl, c_ast.Typename)):
            return self.type_of(node.type)
        if isinstance(node, c_ast.IdentifierType):
            names = tuple(n for n in node.names if n not in ("const", "volatile"))
            if len(names) == 1 and names[0] in self.typedefs:
                return self.typedefs[names[0]]
            if names in T.BASIC:
                return T.BASIC[names]
            raise Unsupported(f"the type {' '.join(names)}")
        if isinstance(node, c_ast.PtrDecl):
            return T.Ptr(self.type_of(node.type))
        if isinstance(node, c_ast.ArrayDecl):
            elem = self.type_of(node.type)
            n = self.const(node.dim) if node.dim is not None else 0
            return T.Arr(elem, n)
        if isinstance(node, c_ast.Struct):
            if node.decls is None:
                if node.name not in self.structs:
                    raise Unsupported(f"struct {node.name}")
                return self.structs[node.name]
            fields, off, align_max = [], 0, 1
            for d in node.decls:
                t = self.type_of(d.type)
                a = align(t)
                align_max = max(align_max, a)
                off = (off + a - 1) // a * a
                fields.append((d.name, t, off))
                off += t.size
            st = T.Struct(node.name or "", tuple(fields), (off + align_max - 1) // align_max
                          * align_max)
            if node.name:
                self.structs[node.name] = st
            return st
        if isinstance(node, c_ast.FuncDecl):
            return T.Func(self.type_of(node.type))
        raise Unsupported(f"the declarator {type(node).__name__}")

    def const(self, node):
        st = State([], {}, {})
        (_, v), = self.eval(node, st)
        v = z3.simplify(v.v)
        if not z3.is_bv_value(v):
            raise Unsupported("a non-constant array size")
        return v.as_long()

    # -- objects and queries --

    def new_obj(self, st, name, size, writable=True, contents=None):
        o = Obj(len(self.objs), name, bv(size), writable)
        self.objs.append(o)
        if not z3.is_bv_value(z3.simplify(o.size)):
            # no object reaches half the address space (the one assumption on sizes)
            st.pc.append(z3.ULT(o.size, 1 << 63))
        st.mem[o.oid] = contents if contents is not None else z3.Const(
            f"{name}#{o.oid}", BYTES)
        return o

    def feasible(self, st, *extra):
        return self.sat(st, *extra, model=False) is not None

    def sat(self, st, *extra, model=True):
        """A model of the path with `extra` (True where model is False), or None."""
        self.queries += 1
        # a fresh solver per query: z3 preprocesses (and bit-blasts) a one-shot query far
        # better than checks under assumptions on a shared one
        from .spec_sponge import EXACT
        fs = [f if f.get_id() in EXACT else z3.simplify(f) for f in list(st.pc) + list(extra)]
        bvfs = elim_div(fs)
        # Bit-blasting decides most queries in milliseconds; a few (64-bit adders under
        # several divisions) take it seconds, and the integers decide those in milliseconds,
        # while z3's integer solver sits for seconds on some of the rest: each has a short
        # turn, then the bit-vectors run to the limit.
        r, m = self._check(bvfs, 1000)
        if r == "timeout":
            # the formulas that are arithmetic, over the integers: if they alone have no
            # model, neither has the query; a model is the query's only where all were
            lia, whole = [], True
            for f in fs:
                got = to_lia([f], EXACT)
                if got is None:
                    whole = False
                else:
                    lia += got
            for s in _lia_solvers() if lia else ():
                s.add(*lia)
                got = s.check()
                if got == z3.unsat:
                    return None
                if got == z3.sat:
                    if whole and not model:
                        return True
                    break
            r, m = self._check(bvfs, self.timeout)
        if r == "unsat":
            return None
        if r == "sat":
            return m if model else True
        raise Unsupported(f"z3 gave up ({m})")

    @staticmethod
    def _check(fs, timeout):
        """("unsat", None), ("sat", model), ("timeout", None) or ("unknown", z3's reason)."""
        s = z3.Solver()
        s.set("timeout", timeout)
        s.add(*fs)
        r = s.check()
        if r == z3.sat:
            return "sat", s.model()
        if r == z3.unsat:
            return "unsat", None
        why = s.reason_unknown()
        return ("timeout", None) if why in ("timeout", "canceled") else ("unknown", why)

    def must(self, st, cond, kind, what):
        cond = z3.simplify(cond)
        if z3.is_true(cond):
            return
        m = self.sat(st, z3.Not(cond))
        if m is not None:
            raise Failure(kind, what + self.where(), m, st, [z3.Not(cond)])

    def where(self):
        return f" (in {' < '.join(reversed(self.fn_stack))})" if self.fn_stack else ""

    def split(self, st, cond):
        """[(state, truth)] for the feasible sides of cond."""
        cond = z3.simplify(cond)
        if z3.is_true(cond):
            return [(st, True)]
        if z3.is_false(cond):
            return [(st, False)]
        out = []
        if self.feasible(st, cond):
            out.append((st.fork(cond), True))
        if self.feasible(st, z3.Not(cond)):
            out.append((st.fork(z3.Not(cond)), False))
        return out

    def check_access(self, st, p, n, write):
        if p.oid is None:
            self.must(st, z3.BoolVal(False), "oob", "a null pointer dereferenced")
        o = self.objs[p.oid]
        if write and not o.writable:
            self.must(st, z3.BoolVal(False), "oob", f"a write to the read-only {o.name}")
        n = bv(n)
        self.must(st, z3.And(z3.ULE(n, o.size), z3.ULE(p.off, o.size - n)), "oob",
                  f"{'write' if write else 'read'} of {n} bytes outside {o.name}")

    def load_bytes(self, st, p, n):
        self.check_access(st, p, n, False)
        arr = st.mem[p.oid]
        bound = self.bound(st, p, n)
        below = bound.as_long() if bound is not None else None
        return [sel(arr, z3.simplify(p.off + i), below) for i in range(n)]

    def _cell(self, st, p, what):
        off = z3.simplify(p.off)
        if not z3.is_bv_value(off):
            raise Unsupported(f"a pointer {what} at a symbolic offset")
        return off.as_long()

    def load_ptr(self, st, p, t):
        """The pointer a cell holds: checked inside its object like any load; a cell no
        pointer was stored to is Unsupported (its bytes are not a pointer this engine
        knows)."""
        self.check_access(st, p, 8, False)
        off = self._cell(st, p, "loaded")
        got = st.ptrs.get(p.oid, {}).get(off)
        if got is None:
            raise Unsupported(f"a pointer loaded from {self.objs[p.oid].name} + {off}, where "
                              "none was stored")
        return Ptr(got.oid, got.off, t)

    def store_ptr(self, st, p, v):
        self.check_access(st, p, 8, True)
        off = self._cell(st, p, "stored")
        cells = st.ptrs.setdefault(p.oid, {})
        for o in [o for o in cells if abs(o - off) < 8 and o != off]:
            del cells[o]
        cells[off] = Ptr(v.oid, v.off, v.t)

    def _clobber(self, st, p, n):
        """An integer store over pointer cells: the cells it overlaps are gone."""
        cells = st.ptrs.get(p.oid)
        if not cells:
            return
        off = z3.simplify(p.off)
        if z3.is_bv_value(off):
            for o in [o for o in cells if o < off.as_long() + n and off.as_long() < o + 8]:
                del cells[o]
            return
        for o in list(cells):
            if self.feasible(st, z3.And(z3.ULT(p.off, o + 8), z3.ULT(bv(o), p.off + n))):
                raise Unsupported("an integer store that may overwrite a stored pointer")

    def load(self, st, p, t):
        if isinstance(t, T.Ptr):
            raise Unsupported("a pointer loaded as an integer")
        if not isinstance(t, T.Int):
            raise Unsupported(f"a load of {t}")
        if st.ptrs.get(p.oid):
            off = z3.simplify(p.off)
            if not z3.is_bv_value(off) or any(o < off.as_long() + t.size and
                                              off.as_long() < o + 8 for o in st.ptrs[p.oid]):
                raise Unsupported("an integer load that may read a stored pointer's bytes")
        bs = self.load_bytes(st, p, t.size)
        if t.size == 1:
            return bs[0]
        order = bs if self.big_endian else list(reversed(bs))
        return z3.simplify(z3.Concat(*order))

    def store(self, st, p, t, v, check=True):
        if not isinstance(t, T.Int):
            raise Unsupported(f"a store of {t}")
        if check:
            self.check_access(st, p, t.size, True)
            self._clobber(st, p, t.size)
        arr = st.mem[p.oid]
        bound = self.bound(st, p, t.size)
        floor = self.floor(st, p) if bound is not None else 0
        for i in range(t.size):
            sh = (t.size - 1 - i) if self.big_endian else i
            byte = z3.Extract(8 * sh + 7, 8 * sh, v)
            if bound is None:
                arr = z3.Store(arr, z3.simplify(p.off + i), byte)
            else:
                # a store at a computed offset, inside bounds the path proves: a read at a
                # constant offset outside them (a field before or after the state) skips it
                # unasked
                a = z3.BitVec("a", 64)
                arr = z3.Lambda([a], z3.If(z3.And(z3.UGE(a, floor), z3.ULT(a, bound),
                                                  a == p.off + i), byte, z3.Select(arr, a)))
        st.mem[p.oid] = arr

    def bound(self, st, p, n):
        """The least offset the n bytes at p provably end below, where p's offset is computed
        and its object's size a constant; else None."""
        off = z3.simplify(p.off)
        size = z3.simplify(self.objs[p.oid].size)
        if z3.is_bv_value(off) or not z3.is_bv_value(size):
            return None
        lo, hi = n, size.as_long()
        while lo < hi:
            mid = (lo + hi) // 2
            if self.feasible(st, z3.UGT(off + n, mid)):
                lo = mid + 1
            else:
                hi = mid
        return bv(hi) if hi < size.as_long() else None

    def floor(self, st, p):
        """The greatest offset p's provably starts at or above (0 where the path says
        nothing), where its object's size is a constant."""
        size = z3.simplify(self.objs[p.oid].size)
        if not z3.is_bv_value(size):
            return bv(0)
        lo, hi = 0, size.as_long()
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.feasible(st, z3.ULT(p.off, mid)):
                hi = mid - 1
            else:
                lo = mid
        return bv(lo)

    # -- functions --

    def call(self, st, name, args):
        """[(state, value)] of calling `name` with args (Val or Ptr)."""
        if name in self.summaries:
            if name in self.funcs:
                params, _ = self.params(self.funcs[name])
                args = [self.convert(a, pt) for a, (_, pt) in zip(args, params)]
            return self.summaries[name](self, st, args)
        if name in self.funcs:
            return self.invoke(st, self.funcs[name], args)
        if name in self.externs:
            return self.externs[name](self, st, args)
        if name in ("memcpy", "memset", "__builtin_memcpy", "__builtin_memset"):
            return self._mem_builtin(st, name, args)
        raise Unsupported(f"a call to {name}, which has no definition or contract here")

    def params(self, fd):
        out = []
        ftype = fd.decl.type
        for p in (ftype.args.params if ftype.args else []):
            pt = self.type_of(p.type)
            if isinstance(pt, T.Void):
                continue
            out.append((p.name, T.Ptr(pt.elem) if isinstance(pt, T.Arr) else pt))
        return out, self.type_of(ftype.type)

    def invoke(self, st, fd, args):
        params, rt = self.params(fd)
        if len(params) != len(args):
            raise Unsupported(f"{fd.decl.name} called with {len(args)} arguments")
        caller = st.env
        st = st.fork()
        st.env = {"__fn__": fd.decl.name}
        self.fn_stack.append(fd.decl.name)
        taken = self._addr_taken()
        for (name, pt), a in zip(params, args):
            st.env[name] = self.convert(a, pt)
        st.env["__entry__"] = dict(st.env)
        for (name, pt), a in zip(params, args):
            if name in taken:
                o = self.new_obj(st, name, pt.size)
                self.write(st, ("mem", Ptr(o.oid, bv(0), pt), pt), st.env[name])
                st.env[name] = ("obj", o.oid, pt)
        try:
            outs = []
            for s, kind, val in self.exec_stmt(fd.body, st):
                if kind not in ("normal", "return"):
                    raise Unsupported(f"{kind} outside a loop")
                s.env = dict(caller)
                outs.append((s, self.convert(val, rt) if val is not None and
                             not isinstance(rt, T.Void) else None))
            return outs
        finally:
            self.fn_stack.pop()

    def _mem_builtin(self, st, name, args):
        if "memcpy" in name:
            dst, src, n = args
            n = z3.simplify(n.v)
            if not z3.is_bv_value(n):
                raise Unsupported("memcpy of a symbolic length")
            bs = self.load_bytes(st, src, n.as_long())
            self.check_access(st, dst, n.as_long(), True)
            self._clobber(st, dst, n.as_long())
            arr = st.mem[dst.oid]
            for i, b in enumerate(bs):
                arr = z3.Store(arr, dst.off + i, b)
            st.mem[dst.oid] = arr
            return [(st, dst)]
        dst, c, n = args
        n = z3.simplify(n.v)
        if not z3.is_bv_value(n):
            raise Unsupported("memset of a symbolic length")
        self.check_access(st, dst, n.as_long(), True)
        self._clobber(st, dst, n.as_long())
        byte = z3.Extract(7, 0, c.v)
        arr = st.mem[dst.oid]
        if self.memset_lambda:
            a = z3.BitVec("a", 64)
            st.mem[dst.oid] = z3.Lambda([a], z3.If(z3.ULT(a - dst.off, bv(n.as_long())), byte,
                                                   arr[a]))
            return [(st, dst)]
        for i in range(n.as_long()):
            arr = z3.Store(arr, dst.off + i, byte)
        st.mem[dst.oid] = arr
        return [(st, dst)]

    # -- statements: each returns [(state, kind, value)], kind normal/return/break/continue --

    def exec_stmt(self, s, st):
        if s is None:
            return [(st, "normal", None)]
        m = getattr(self, "_s_" + type(s).__name__, None)
        if m is None:
            return [(s2, "normal", None) for s2, _ in self.eval(s, st)]
        return m(s, st)

    def _s_Compound(self, s, st):
        states = [(st, "normal", None)]
        for item in (s.block_items or []):
            nxt = []
            for s2, kind, val in states:
                if kind != "normal":
                    nxt.append((s2, kind, val))
                else:
                    nxt += self.exec_stmt(item, s2)
            states = nxt
        return states

    def _s_EmptyStatement(self, s, st):
        return [(st, "normal", None)]

    def _s_DeclList(self, s, st):
        states = [(st, "normal", None)]
        for d in s.decls:
            states = [x for s2, _, _ in states for x in self._s_Decl(d, s2)]
        return states

    def _s_Decl(self, d, st):
        t = self.type_of(d.type)
        if isinstance(t, T.Func):
            return [(st, "normal", None)]
        if isinstance(t, (T.Arr, T.Struct)) or d.name in self._addr_taken():
            o = self.new_obj(st, d.name, t.size)
            st.env[d.name] = ("obj", o.oid, t)
            if d.init is not None:
                if isinstance(t, (T.Arr, T.Struct)):
                    raise Unsupported("an initialised aggregate")
                outs = []
                for s2, v in self.eval(d.init, st):
                    self.write(s2, ("mem", Ptr(o.oid, bv(0), t), t), v)
                    outs.append((s2, "normal", None))
                return outs
            return [(st, "normal", None)]
        if d.init is None:
            st.env[d.name] = self.fresh_val(t, d.name)
            return [(st, "normal", None)]
        outs = []
        for s2, v in self.eval(d.init, st):
            s2.env[d.name] = self.convert(v, t)
            outs.append((s2, "normal", None))
        return outs

    def fresh_val(self, t, name):
        if isinstance(t, T.Int):
            return Val(z3.BitVec(f"undef_{name}", t.bits), t)
        return Ptr(None, bv(0), t)

    def _addr_taken(self):
        fd = self.funcs.get(self.fn_stack[-1]) if self.fn_stack else None
        return cfront.addresses_taken(fd) if fd is not None else set()

    def _s_Return(self, s, st):
        if s.expr is None:
            return [(st, "return", None)]
        return [(s2, "return", v) for s2, v in self.eval(s.expr, st)]

    def _s_Break(self, s, st):
        return [(st, "break", None)]

    def _s_Continue(self, s, st):
        return [(st, "continue", None)]

    def _s_If(self, s, st):
        outs = []
        for s2, c in self.eval(s.cond, st):
            for s3, truth in self.split(s2, self.truth(c)):
                outs += self.exec_stmt(s.iftrue if truth else s.iffalse, s3)
        return outs

    def _s_Switch(self, s, st):
        """The labels tried in order (a symbolic value forks), the statements run from the
        matching one on, falling through to a break; default where no case matches."""
        items = (s.stmt.block_items or []) if isinstance(s.stmt, c_ast.Compound) else None
        if items is None or not all(isinstance(x, (c_ast.Case, c_ast.Default)) for x in items):
            raise Unsupported("a switch whose body is not a list of labels")

        def run_from(i, s3):
            states = [(s3, "normal", None)]
            for item in items[i:]:
                for stmt in item.stmts or []:
                    nxt = []
                    for s4, kind, val in states:
                        nxt += [(s4, kind, val)] if kind != "normal" else self.exec_stmt(stmt, s4)
                    states = nxt
            return [(s4, "normal" if kind == "break" else kind, val) for s4, kind, val in states]

        outs = []
        for s2, v in self.eval(s.cond, st):
            v = self.convert(v, T.promote(v.t))
            pending = [s2]
            for i, item in enumerate(items):
                if not isinstance(item, c_ast.Case):
                    continue
                (_, c), = self.eval(item.expr, State([], {}, {}))
                c = self.convert(c, v.t)
                rest = []
                for s3 in pending:
                    for s4, truth in self.split(s3, v.v == c.v):
                        if truth:
                            outs += run_from(i, s4)
                        else:
                            rest.append(s4)
                pending = rest
            dflt = [i for i, item in enumerate(items) if isinstance(item, c_ast.Default)]
            for s3 in pending:
                outs += run_from(dflt[0], s3) if dflt else [(s3, "normal", None)]
        return outs

    def _s_For(self, s, st):
        states = self.exec_stmt(s.init, st) if s.init is not None else [(st, "normal", None)]
        outs = []
        for s2, _, _ in states:
            outs += self._loop(s, s2, s.cond, s.stmt, s.next, False)
        return outs

    def _s_While(self, s, st):
        return self._loop(s, st, s.cond, s.stmt, None, False)

    def _s_DoWhile(self, s, st):
        return self._loop(s, st, s.cond, s.stmt, None, True)

    def _loop(self, node, st, cond, body, nxt, first):
        inv = self.invariants.get(self.fn_stack[-1]) if self.fn_stack else None
        if inv is not None and not first:
            # an invariant function returns None for a loop it leaves to the unrolling
            got = inv(self, st, node, lambda s: self._iterate(s, cond, body, nxt, 1))
            if got is not None:
                return got
        done, live = [], [st]
        for i in range(MAX_UNROLL + 1):
            if not live:
                return done
            if i == MAX_UNROLL:
                raise Unsupported(f"a loop the path condition does not bound ({MAX_UNROLL} "
                                  f"iterations){self.where()}")
            nxt_live = []
            for s in live:
                for s2, kind, val in self._iterate(s, cond, body, nxt, 0 if first and i == 0
                                                   else 1):
                    if kind == "again":
                        nxt_live.append(s2)
                    else:
                        done.append((s2, kind, val))
            live = nxt_live
        return done

    def _iterate(self, st, cond, body, nxt, test):
        """One iteration: [(state, kind, value)], kind 'again' for the states that go round,
        'normal' for those leaving, return for a return."""
        heads = [(st, True)]
        if test and cond is not None:
            heads = []
            for s2, c in self.eval(cond, st):
                heads += self.split(s2, self.truth(c))
        outs = []
        for s2, go in heads:
            if not go:
                outs.append((s2, "normal", None))
                continue
            for s3, kind, val in self.exec_stmt(body, s2):
                if kind == "break":
                    outs.append((s3, "normal", None))
                elif kind == "return":
                    outs.append((s3, kind, val))
                else:
                    tails = [(s3, None)] if nxt is None else self.eval(nxt, s3)
                    outs += [(s4, "again", None) for s4, _ in tails]
        return outs

    # -- expressions: each returns [(state, value)] --

    def eval(self, e, st):
        m = getattr(self, "_e_" + type(e).__name__, None)
        if m is None:
            raise Unsupported(f"the expression {type(e).__name__}")
        return m(e, st)

    def _e_Constant(self, e, st):
        if e.type == "char":
            return [(st, Val(bv(ord(e.value.strip("'")[-1]), 32), T.INT))]
        if e.type == "string":
            return [(st, self.string_obj(st, e.value))]
        text = e.value.lower()
        suf = ""
        while text[-1] in "ul":
            suf = text[-1] + suf
            text = text[:-1]
        n = int(text, 0) if not (text.startswith("0") and text[1:2].isdigit()) else \
            int(text, 8)
        if "u" in suf:
            t = T.U64 if "l" in suf or n >= 2 ** 32 else T.UINT
        elif "l" in suf or n >= 2 ** 31:
            t = T.I64 if n < 2 ** 63 else T.U64
            if n >= 2 ** 31 and "l" not in suf and text.startswith("0x") and n < 2 ** 32:
                t = T.UINT
        else:
            t = T.INT
        return [(st, Val(bv(n, t.bits), t))]

    def global_obj(self, st, name):
        """A file-scope table with an initialiser, as a read-only object of its bytes (made
        once, then present in every path that names it), or None."""
        d = self.global_decls.get(name)
        if d is None:
            return None
        if name not in self._globals:
            t = self.type_of(d.type)
            if not isinstance(t, T.Arr) or not isinstance(t.elem, T.Int):
                raise Unsupported(f"the file-scope {name}")
            n = t.n or len(d.init.exprs)
            t = T.Arr(t.elem, n)
            tmp = State([], {}, {})
            o = Obj(len(self.objs), name, bv(t.size), False)
            self.objs.append(o)
            tmp.mem[o.oid] = z3.K(BV64, z3.BitVecVal(0, 8))
            for i, x in enumerate(d.init.exprs):
                self.store(tmp, Ptr(o.oid, bv(i * t.elem.size), t.elem), t.elem,
                           bv(self.const(x), t.elem.bits), check=False)
            self._globals[name] = (o.oid, t, tmp.mem[o.oid])
        oid, t, contents = self._globals[name]
        if oid not in st.mem:
            st.mem[oid] = contents
        return ("obj", oid, t)

    def string_obj(self, st, literal):
        """A string literal: a read-only object of its bytes and the NUL (plain ASCII
        literals only), made once per text."""
        body = literal[1:-1]
        if "\\" in body or not body.isascii():
            raise Unsupported("a string literal with escapes")
        data = body.encode() + b"\0"
        if data not in self._strings:
            o = Obj(len(self.objs), f"the string {literal}", bv(len(data)), False)
            self.objs.append(o)
            arr = z3.K(BV64, z3.BitVecVal(0, 8))
            for i, c in enumerate(data):
                arr = z3.Store(arr, bv(i), z3.BitVecVal(c, 8))
            self._strings[data] = (o.oid, arr)
        oid, arr = self._strings[data]
        if oid not in st.mem:
            st.mem[oid] = arr
        return Ptr(oid, bv(0), T.Ptr(T.BASIC[("char",)]))

    def _e_ID(self, e, st):
        got = st.env.get(e.name)
        if got is None:
            got = self.global_obj(st, e.name)
        if got is None:
            raise Unsupported(f"the identifier {e.name}")
        if isinstance(got, tuple):
            _, oid, t = got
            if isinstance(t, T.Arr):
                return [(st, Ptr(oid, bv(0), T.Ptr(t.elem)))]
            if isinstance(t, T.Struct):
                return [(st, ("lv", Ptr(oid, bv(0), t), t))]
            return [(st, self.read(st, ("mem", Ptr(oid, bv(0), t), t)))]
        return [(st, got)]

    def lvalue(self, e, st):
        """[(state, ('var', name, t) | ('mem', Ptr, t))]"""
        if isinstance(e, c_ast.ID):
            got = st.env.get(e.name)
            if got is None:
                got = self.global_obj(st, e.name)
            if got is None:
                raise Unsupported(f"the identifier {e.name}")
            if isinstance(got, tuple):
                return [(st, ("mem", Ptr(got[1], bv(0), got[2]), got[2]))]
            return [(st, ("var", e.name, got.t))]
        if isinstance(e, c_ast.UnaryOp) and e.op == "*":
            outs = []
            for s2, p in self.eval(e.expr, st):
                if not isinstance(p, Ptr):
                    raise Unsupported("a dereference of a non-pointer")
                outs.append((s2, ("mem", p, p.t.to)))
            return outs
        if isinstance(e, c_ast.ArrayRef):
            return self.lvalue(c_ast.UnaryOp("*", c_ast.BinaryOp("+", e.name, e.subscript)), st)
        if isinstance(e, c_ast.StructRef):
            outs = []
            if e.type == "->":
                bases = [(s2, p, p.t.to) for s2, p in self.eval(e.name, st)]
            else:
                bases = []
                for s2, lv in self.lvalue(e.name, st):
                    if lv[0] != "mem":
                        raise Unsupported("a struct held in a variable")
                    bases.append((s2, lv[1], lv[2]))
            for s2, p, t in bases:
                if not isinstance(t, T.Struct):
                    raise Unsupported("a member of a non-struct")
                name, ft, off = t.field(e.field.name)
                outs.append((s2, ("mem", Ptr(p.oid, p.off + off, ft), ft)))
            return outs
        raise Unsupported(f"the lvalue {type(e).__name__}")

    def read(self, st, lv):
        if lv[0] == "var":
            return st.env[lv[1]]
        p, t = lv[1], lv[2]
        if isinstance(t, T.Arr):
            return Ptr(p.oid, p.off, T.Ptr(t.elem))
        if isinstance(t, T.Struct):
            return ("lv", p, t)
        if isinstance(t, T.Ptr):
            return self.load_ptr(st, p, t)
        return Val(self.load(st, p, t), t)

    def write(self, st, lv, v):
        if lv[0] == "var":
            st.env[lv[1]] = self.convert(v, lv[2])
            return
        if isinstance(lv[2], T.Ptr):
            self.store_ptr(st, lv[1], self.convert(v, lv[2]))
            return
        if isinstance(v, Ptr):
            raise Unsupported("a pointer stored to memory as an integer")
        self.store(st, lv[1], lv[2], self.convert(v, lv[2]).v)

    def _e_ArrayRef(self, e, st):
        return [(s2, self.read(s2, lv)) for s2, lv in self.lvalue(e, st)]

    def _e_StructRef(self, e, st):
        return [(s2, self.read(s2, lv)) for s2, lv in self.lvalue(e, st)]

    def _e_Cast(self, e, st):
        t = self.type_of(e.to_type)
        if isinstance(t, T.Ptr) and isinstance(e.expr, c_ast.Cast):
            # (T *)(uintptr_t)p, a const pointer's qualifier cast away: the pointer itself
            inner = self.type_of(e.expr.to_type)
            if isinstance(inner, T.Int) and inner.bits == 64 and not inner.signed:
                return [(s2, self.convert(v, t)) if isinstance(v, Ptr) else
                        (s2, self.convert(self.convert(v, inner), t))
                        for s2, v in self.eval(e.expr.expr, st)]
        return [(s2, self.convert(v, t)) for s2, v in self.eval(e.expr, st)]

    def _e_ExprList(self, e, st):
        states = [(st, None)]
        for x in e.exprs:
            states = [y for s2, _ in states for y in self.eval(x, s2)]
        return states

    def _e_TernaryOp(self, e, st):
        outs = []
        for s2, c in self.eval(e.cond, st):
            for s3, truth in self.split(s2, self.truth(c)):
                outs += self.eval(e.iftrue if truth else e.iffalse, s3)
        return outs

    def _e_FuncCall(self, e, st):
        name = e.name.name if isinstance(e.name, c_ast.ID) else None
        if name is None:
            raise Unsupported("a call through a pointer")
        states = [(st, [])]
        for a in (e.args.exprs if e.args else []):
            states = [(s3, vs + [v]) for s2, vs in states for s3, v in self.eval(a, s2)]
        outs = []
        for s2, vs in states:
            outs += self.call(s2, name, vs)
        return outs

    def _e_Assignment(self, e, st):
        outs = []
        for s2, v in self.eval(e.rvalue, st):
            for s3, lv in self.lvalue(e.lvalue, s2):
                if e.op != "=":
                    old = self.read(s3, lv)
                    v2 = self.binop(s3, e.op[:-1], old, v)
                else:
                    v2 = v
                self.write(s3, lv, v2)
                outs.append((s3, self.read(s3, lv) if lv[0] == "var" else
                             self.convert(v2, lv[2])))
        return outs

    def _e_UnaryOp(self, e, st):
        op = e.op
        if op == "sizeof":
            t = self.type_of(e.expr) if isinstance(e.expr, c_ast.Typename) else \
                self._type_of_expr(e.expr, st)
            return [(st, Val(bv(t.size), T.SIZE_T))]
        if op == "&":
            outs = []
            for s2, lv in self.lvalue(e.expr, st):
                if lv[0] != "mem":
                    raise Unsupported("the address of a register variable")
                outs.append((s2, Ptr(lv[1].oid, lv[1].off, T.Ptr(lv[2]))))
            return outs
        if op == "*":
            return [(s2, self.read(s2, lv)) for s2, lv in self.lvalue(e, st)]
        if op in ("++", "--", "p++", "p--"):
            outs = []
            for s2, lv in self.lvalue(e.expr, st):
                old = self.read(s2, lv)
                new = self.binop(s2, "+" if "+" in op else "-", old, Val(bv(1, 32), T.INT))
                self.write(s2, lv, new)
                outs.append((s2, old if op.startswith("p") else self.read(s2, lv)))
            return outs
        outs = []
        for s2, v in self.eval(e.expr, st):
            if op == "!":
                outs.append((s2, Val(z3.If(self.truth(v), bv(0, 32), bv(1, 32)), T.INT)))
                continue
            v = self.convert(v, T.promote(v.t))
            if op == "-":
                if v.t.signed:
                    self.must(s2, v.v != z3.BitVecVal(1 << (v.t.bits - 1), v.t.bits), "ub",
                              "signed negation overflows")
                outs.append((s2, Val(-v.v, v.t)))
            elif op == "~":
                outs.append((s2, Val(~v.v, v.t)))
            elif op == "+":
                outs.append((s2, v))
            else:
                raise Unsupported(f"the operator {op}")
        return outs

    def _type_of_expr(self, e, st):
        if isinstance(e, c_ast.StructRef) or isinstance(e, c_ast.ID) or \
                (isinstance(e, c_ast.UnaryOp) and e.op == "*"):
            lvs = self.lvalue(e, st.fork())
            return lvs[0][1][2]
        raise Unsupported("sizeof of an expression")

    def truth(self, v):
        if isinstance(v, Ptr):
            return z3.BoolVal(v.oid is not None)
        return v.v != 0

    def _e_BinaryOp(self, e, st):
        if e.op in ("&&", "||"):
            outs = []
            for s2, a in self.eval(e.left, st):
                for s3, truth in self.split(s2, self.truth(a)):
                    if truth == (e.op == "||"):
                        outs.append((s3, Val(bv(1 if truth else 0, 32), T.INT)))
                        continue
                    for s4, b in self.eval(e.right, s3):
                        outs.append((s4, Val(z3.If(self.truth(b), bv(1, 32), bv(0, 32)),
                                             T.INT)))
            return outs
        outs = []
        for s2, a in self.eval(e.left, st):
            for s3, b in self.eval(e.right, s2):
                outs.append((s3, self.binop(s3, e.op, a, b)))
        return outs

    def binop(self, st, op, a, b):
        if isinstance(a, Ptr) or isinstance(b, Ptr):
            return self._ptr_op(st, op, a, b)
        if op in ("<<", ">>"):
            t = T.promote(a.t)
            x = self.convert(a, t).v
            n = self.convert(b, T.promote(b.t))
            nv = z3.ZeroExt(t.bits - n.t.bits, n.v) if n.t.bits < t.bits else \
                z3.Extract(t.bits - 1, 0, n.v) if n.t.bits > t.bits else n.v
            cnt_ok = z3.ULT(n.v, z3.BitVecVal(t.bits, n.t.bits))
            if n.t.signed:
                cnt_ok = z3.And(cnt_ok, n.v >= 0)
            self.must(st, cnt_ok, "ub", f"a shift by {t.bits} or more")
            if op == "<<":
                if t.signed:
                    self.must(st, z3.And(x >= 0, z3.LShR(x << nv, nv) == x, (x << nv) >= 0),
                              "ub", "a signed left shift overflows")
                return Val(x << nv, t)
            return Val(x >> nv if t.signed else z3.LShR(x, nv), t)
        t = T.common(a.t, b.t)
        x, y = self.convert(a, t).v, self.convert(b, t).v
        if op in ("==", "!=", "<", ">", "<=", ">="):
            if t.signed:
                r = {"==": x == y, "!=": x != y, "<": x < y, ">": x > y, "<=": x <= y,
                     ">=": x >= y}[op]
            else:
                r = {"==": x == y, "!=": x != y, "<": z3.ULT(x, y), ">": z3.UGT(x, y),
                     "<=": z3.ULE(x, y), ">=": z3.UGE(x, y)}[op]
            return Val(z3.If(r, bv(1, 32), bv(0, 32)), T.INT)
        if op in ("/", "%"):
            self.must(st, y != 0, "ub", "a division by zero")
            c = z3.simplify(y)
            if self.div_hook is not None and not t.signed and t.bits == 64 and \
                    z3.is_bv_value(c) and c.as_long() > 0:
                got = self.div_hook(st, x, c.as_long())
                if got is not None:
                    return Val(got[0] if op == "/" else got[1], t)
            if t.signed:
                return Val(x / y if op == "/" else z3.SRem(x, y), t)
            return Val(z3.UDiv(x, y) if op == "/" else z3.URem(x, y), t)
        if t.signed and op in "+-*":
            chk = {"+": [z3.BVAddNoOverflow(x, y, True), z3.BVAddNoUnderflow(x, y)],
                   "-": [z3.BVSubNoOverflow(x, y), z3.BVSubNoUnderflow(x, y, True)],
                   "*": [z3.BVMulNoOverflow(x, y, True), z3.BVMulNoUnderflow(x, y)]}[op]
            self.must(st, z3.And(*chk), "ub", f"signed overflow in {op}")
        if self.widen_hook is not None and not t.signed and t.bits == 64:
            x, y = self.widen_hook(st, x), self.widen_hook(st, y)
        if self.arith_hook is not None and not t.signed and t.bits == 64:
            got = self.arith_hook(st, op, x, y)
            if got is not None:
                return Val(got, t)
        f = {"+": lambda: x + y, "-": lambda: x - y, "*": lambda: x * y, "&": lambda: x & y,
             "|": lambda: x | y, "^": lambda: x ^ y}.get(op)
        if f is None:
            raise Unsupported(f"the operator {op}")
        return Val(f(), t)

    def _ptr_op(self, st, op, a, b):
        if op in ("+", "-") and isinstance(a, Ptr) and isinstance(b, Val):
            n = self.convert(b, T.I64 if b.t.signed else T.U64).v
            if self.widen_hook is not None:
                n = self.widen_hook(st, n)
            scale = a.t.to.size if not isinstance(a.t.to, T.Void) else 1
            off = a.off + n * scale if op == "+" else a.off - n * scale
            return Ptr(a.oid, z3.simplify(off), a.t)
        if op == "+" and isinstance(b, Ptr):
            return self._ptr_op(st, op, b, a)
        if op in ("==", "!=") and isinstance(b, Val):     # p == NULL
            eq = z3.BoolVal(a.oid is None) if True else None
            eq = z3.simplify(z3.And(eq, b.v == 0)) if a.oid is None else z3.BoolVal(False)
            r = eq if op == "==" else z3.Not(eq)
            return Val(z3.If(r, bv(1, 32), bv(0, 32)), T.INT)
        raise Unsupported(f"the pointer operation {op}")

    def convert(self, v, t):
        if isinstance(v, tuple):
            raise Unsupported("a struct value")
        if isinstance(t, T.Ptr):
            if isinstance(v, Ptr):
                return Ptr(v.oid, v.off, t)
            z = z3.simplify(v.v)
            if z3.is_bv_value(z) and z.as_long() == 0:
                return Ptr(None, bv(0), t)
            raise Unsupported("an integer converted to a pointer")
        if isinstance(t, T.Void):
            return v
        if not isinstance(t, T.Int):
            raise Unsupported(f"a conversion to {t}")
        if isinstance(v, Ptr):
            raise Unsupported("a pointer converted to an integer")
        if v.t == t:
            return v
        x, src = v.v, v.t
        if t.bits == 8 and t.signed is False and src.bits == 8:
            return Val(x, t)
        if t.bits < src.bits:
            x = z3.Extract(t.bits - 1, 0, x)
        elif t.bits > src.bits:
            x = (z3.SignExt if src.signed else z3.ZeroExt)(t.bits - src.bits, x)
        return Val(x, t)


def align(t):
    if isinstance(t, T.Arr):
        return align(t.elem)
    if isinstance(t, T.Struct):
        return max((align(f[1]) for f in t.fields), default=1)
    return min(t.size, 8) or 1
