# SPDX-License-Identifier: Apache-2.0 OR MIT
"""An interpreter for the C the templates emit, over symbolic words.

Control flow must be decided by concrete values (round counts, lengths, pointers): the
kernels are constant-time, so their branches never depend on the data, and a branch that
would is reported as not supported. Everything else (the data) may be symbolic: anf.Sym
words, vectors of them (Vector), pointers (memory.Pointer) into byte-addressed objects.
"""

from pycparser import c_ast

from . import anf, cfront, replay
from . import ctypes_ as T
from .memory import NULL, Obj, Pointer, Unsupported
from .simd_value import Vector, regroup


class StructValue:
    __slots__ = ("type", "fields")

    def __init__(self, type_, fields):
        self.type = type_
        self.fields = fields


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Goto(Exception):
    def __init__(self, label):
        self.label = label


def where(node):
    c = getattr(node, "coord", None)
    return f"{c.file}:{c.line}" if c else "?"


class Frame:
    __slots__ = ("vars", "func")

    def __init__(self, func):
        self.vars = {}
        self.func = func


class Linked:
    """A call into a function of another unit (a dispatch wrapper's call into the folder's
    other files), run by that unit's interpreter."""

    def __init__(self, interp, fd):
        self.interp, self.fd = interp, fd

    def __call__(self, args):
        return self.interp._invoke(self.fd, args)


_LEAVES = (c_ast.Label, c_ast.Goto, c_ast.Return, c_ast.For, c_ast.While, c_ast.DoWhile,
           c_ast.Switch, c_ast.Case, c_ast.Default)


def _self_contained(node):
    """True when nothing under node is a label, a jump out, a return or a loop or switch of
    its own: running it ends at its end or at a break or continue of the enclosing loop."""
    return not any(isinstance(c, _LEAVES) or not _self_contained(c) for _, c in node.children())


class Interp:
    """Runs functions of one parsed unit. `intrinsics` maps a name to f(interp, args, node)
    returning (value, type); asm_runner runs a lifted asm statement."""

    def __init__(self, unit, intrinsics, asm_runner=None, big_endian=False):
        self.unit = unit
        self.intrinsics = intrinsics
        self.asm_runner = asm_runner
        self.big_endian = big_endian
        self.typedefs = {}
        self.structs = {}
        self.funcs = {}
        self.globals = {}
        self.labels = {}
        self.steps = 0
        self.called = set()
        # Calls out of the unit: name -> f(values) -> (value, type). The driver links the
        # folder's other files here and gives the dispatch oracle each of its answers.
        self.externs = {}
        # Functions of the unit proven on their own: name -> f(interp, values) -> (value, type),
        # or None where the call is outside what the proof covered (then the body runs).
        self.contracts = {}
        self.contracted = set()     # the names a call was taken as its contract for
        # Calls that leave the unit or are taken as contracts: a run of statements making one
        # is not recorded for replay (generator/prove/replay.py).
        self.effects = 0
        # A decisions.Record noting the calls of the unit a run makes to its deciders.
        self.watch = None
        self._type_cache = {}
        self._loop_bodies = set()       # ids of the statements loops of the unit run
        for ext in unit.ast.ext:
            self._top(ext)

    # -- declarations --

    def _top(self, ext):
        if isinstance(ext, c_ast.FuncDef):
            self.funcs[ext.decl.name] = ext
        elif isinstance(ext, c_ast.Decl):
            if isinstance(ext.type, c_ast.FuncDecl):
                return
            if ext.name is None:
                self.type_of(ext.type)        # a struct definition
                return
            t = self.type_of(ext.type)
            obj = Obj(ext.name, t.size, self.big_endian)
            if ext.init is not None:
                self._init_memory(obj, 0, t, ext.init, Frame(None))
            if "const" in (ext.quals or []):
                obj.readonly = True
            self.globals[ext.name] = (t, obj)
        elif isinstance(ext, c_ast.Typedef):
            name = ext.name
            if name in T.VECTORS:
                self.typedefs[name] = T.VECTORS[name]
            else:
                self.typedefs[name] = self.type_of(ext.type)

    def type_of(self, node):
        got = self._type_cache.get(id(node))
        if got is not None:
            return got
        t = self._type_of(node)
        self._type_cache[id(node)] = t
        return t

    def _type_of(self, node):
        if isinstance(node, c_ast.TypeDecl):
            return self.type_of(node.type)
        if isinstance(node, c_ast.IdentifierType):
            names = tuple(node.names)
            if len(names) == 1 and names[0] in self.typedefs:
                return self.typedefs[names[0]]
            if len(names) == 1 and names[0] in T.VECTORS:
                return T.VECTORS[names[0]]
            key = tuple(n for n in names if n not in ("const", "volatile"))
            if key in T.BASIC:
                return T.BASIC[key]
            raise Unsupported(f"the type {' '.join(names)}")
        if isinstance(node, c_ast.PtrDecl):
            return T.Ptr(self.type_of(node.type))
        if isinstance(node, c_ast.ArrayDecl):
            elem = self.type_of(node.type)
            n = self.const_int(node.dim) if node.dim is not None else 0
            return T.Arr(elem, n)
        if isinstance(node, c_ast.Struct):
            if node.decls is None:
                got = self.structs.get(node.name)
                if got is None:
                    raise Unsupported(f"struct {node.name} has no definition here")
                return got
            fields, off = [], 0
            for d in node.decls:
                t = self.type_of(d.type)
                align = _align(t)
                off = (off + align - 1) // align * align
                fields.append((d.name, t, off))
                off += t.size
            size = (off + 7) // 8 * 8 if off > 4 else off
            st = T.Struct(node.name or "", tuple(fields), size)
            if node.name:
                self.structs[node.name] = st
            return st
        if isinstance(node, c_ast.FuncDecl):
            return T.Func(self.type_of(node.type))
        if isinstance(node, c_ast.Typename):
            return self.type_of(node.type)
        if isinstance(node, c_ast.Enum):
            return T.INT
        raise Unsupported(f"the declarator {type(node).__name__}")

    def const_int(self, node):
        v, _ = self.eval(node, Frame(None))
        if not isinstance(v, int):
            raise Unsupported(f"a non-constant array size at {where(node)}")
        return v

    # -- running --

    def call(self, name, args):
        """Call a function by name with (value, type) arguments."""
        fd = self.funcs.get(name)
        if fd is None:
            raise Unsupported(f"{name} is not defined in this file")
        return self._invoke(fd, args)

    def signature(self, fd):
        """([(parameter node, type)], return type) of a definition: `(void)` has no
        parameters, and an array parameter is the pointer it decays to."""
        ftype = fd.decl.type
        params = []
        for p in (ftype.args.params if ftype.args else []):
            pt = self.type_of(p.type)
            if isinstance(p, c_ast.Typename) and isinstance(pt, T.Void):
                continue
            params.append((p, T.Ptr(pt.elem) if isinstance(pt, T.Arr) else pt))
        return params, self.type_of(ftype.type)

    def _invoke(self, fd, args):
        if self.watch is not None:
            return self.watch.invoke(fd, args, lambda: self._run_call(fd, args))
        return self._run_call(fd, args)

    def _run_call(self, fd, args):
        self.called.add(fd.decl.name)
        frame = Frame(fd)
        params, rt = self.signature(fd)
        if len(params) != len(args):
            raise Unsupported(f"{fd.decl.name} called with {len(args)} arguments")
        taken = self._taken(fd)
        for (p, pt), (v, vt) in zip(params, args):
            v = self.convert(v, vt, pt, p)
            self._bind(frame, p.name, pt, v, taken)
        try:
            self.exec_block(fd.body, frame)
        except _Return as r:
            if r.value is None:
                return None, rt
            v, vt = r.value
            return self.convert(v, vt, rt, fd), rt
        return None, rt

    def _taken(self, fd):
        return cfront.addresses_taken(fd)

    def _bind(self, frame, name, t, value, taken):
        if name in taken or isinstance(t, (T.Arr, T.Struct)):
            obj = Obj(name, t.size, self.big_endian)
            if value is not None:
                self.store(Pointer(obj, 0), t, value)
            frame.vars[name] = (t, obj, True)
        else:
            frame.vars[name] = (t, value, False)

    # -- statements --

    def exec_block(self, stmt, frame, seek=None):
        """Run stmt; seek: a label (or case value) to jump to inside it."""
        while True:
            try:
                self._exec(stmt, frame, seek)
                return
            except _Goto as g:
                if g.label in self._labels_in(stmt):
                    seek = ("label", g.label)
                    continue
                raise

    def _labels_in(self, node):
        got = self.labels.get(id(node))
        if got is None:
            got = set()
            if isinstance(node, c_ast.Label):
                got.add(node.name)
            for _, child in node.children():
                if isinstance(child, c_ast.Switch):
                    got |= self._labels_in(child)
                elif isinstance(child, c_ast.Node):
                    got |= self._labels_in(child)
            self.labels[id(node)] = got
        return got

    def _contains(self, node, seek):
        kind, what = seek
        if kind == "label":
            return what in self._labels_in(node)
        return self._has_case(node, what)

    def _has_case(self, node, what):
        if isinstance(node, (c_ast.Case, c_ast.Default)) and node is what:
            return True
        if isinstance(node, c_ast.Switch):
            return False
        return any(self._has_case(c, what) for _, c in node.children())

    def _exec(self, s, frame, seek=None):
        self.steps += 1
        if isinstance(s, c_ast.Compound):
            items = s.block_items or []
            start = 0
            if seek is not None:
                for i, it in enumerate(items):
                    if self._contains(it, seek):
                        start = i
                        break
                else:
                    return
                # declarations skipped over still exist (C scopes); give them no value
                for it in items[:start]:
                    if isinstance(it, c_ast.Decl) and it.name not in frame.vars:
                        self._decl(it, frame, init=False)
                it = items[start]
                # A jump to one of this block's own labels runs on from it as if reached.
                if not (isinstance(it, c_ast.Label) and seek == ("label", it.name)):
                    self._exec(it, frame, seek)
                    start += 1
            ends = self._segments(s)
            if not ends:
                for it in items[start:]:
                    self._exec(it, frame)
                return
            i, n = start, len(items)
            while i < n:
                end = ends.get(i)
                if end is None:
                    self._exec(items[i], frame)
                    i += 1
                else:
                    outcome = replay.run(self, items, i, end, frame,
                                         lambda it: self._step(it, frame))
                    if outcome == "break":
                        raise _Break()
                    if outcome == "continue":
                        raise _Continue()
                    i = end
            return
        if seek is not None:
            return self._seek(s, frame, seek)
        if isinstance(s, c_ast.Decl):
            return self._decl(s, frame)
        if isinstance(s, c_ast.DeclList):
            for d in s.decls:
                self._decl(d, frame)
            return
        if isinstance(s, c_ast.If):
            if self.truth(s.cond, frame):
                self._exec(s.iftrue, frame)
            elif s.iffalse is not None:
                self._exec(s.iffalse, frame)
            return
        if isinstance(s, c_ast.For):
            if s.init is not None:
                if isinstance(s.init, c_ast.DeclList):
                    self._exec(s.init, frame)
                else:
                    self.eval(s.init, frame)
            return self._loop(s, frame, first=None)
        if isinstance(s, c_ast.While):
            return self._loop(s, frame, first=None)
        if isinstance(s, c_ast.DoWhile):
            return self._loop(s, frame, first=("do", None))
        if isinstance(s, c_ast.Return):
            raise _Return(None if s.expr is None else self.eval(s.expr, frame))
        if isinstance(s, c_ast.Break):
            raise _Break()
        if isinstance(s, c_ast.Continue):
            raise _Continue()
        if isinstance(s, c_ast.Goto):
            raise _Goto(s.name)
        if isinstance(s, c_ast.Label):
            return self._exec(s.stmt, frame)
        if isinstance(s, c_ast.Switch):
            return self._switch(s, frame)
        if isinstance(s, (c_ast.Case, c_ast.Default)):
            for st in s.stmts or []:
                self._exec(st, frame)
            return
        if isinstance(s, c_ast.EmptyStatement):
            return
        if isinstance(s, c_ast.Node):
            self.eval(s, frame)
            return
        raise Unsupported(f"the statement {type(s).__name__} at {where(s)}")

    def _step(self, s, frame):
        """Run s; "break" or "continue" when it leaves the enclosing loop so, else None."""
        try:
            self._exec(s, frame)
        except _Break:
            return "break"
        except _Continue:
            return "continue"
        return None

    def _segments(self, block):
        """{index of a label among the block's items: index of the next label or the end}:
        the runs of statements generator/prove/replay.py records (a kernel's rounds). A loop
        body without labels is one run when nothing in it leaves the run but its own break
        or continue (an unroll-1 kernel's round: no label marks it)."""
        got = self.labels.get(("segments", id(block)))
        if got is None:
            items = block.block_items or []
            at = [i for i, it in enumerate(items) if isinstance(it, c_ast.Label)]
            got = {a: b for a, b in zip(at, at[1:] + [len(items)])}
            if not got and items and id(block) in self._loop_bodies and _self_contained(block):
                got = {0: len(items)}
            self.labels[("segments", id(block))] = got
        return got

    def _seek(self, s, frame, seek):
        if isinstance(s, c_ast.Label):
            if seek == ("label", s.name):
                return self._exec(s.stmt, frame)
            return self._exec(s.stmt, frame, seek)
        if isinstance(s, (c_ast.Case, c_ast.Default)):
            if seek[0] == "case" and seek[1] is s:
                for st in s.stmts or []:
                    self._exec(st, frame)
                return
            items = s.stmts or []
            for i, st in enumerate(items):
                if self._contains(st, seek):
                    self._exec(st, frame, seek)
                    for rest in items[i + 1:]:
                        self._exec(rest, frame)
                    return
            return
        if isinstance(s, c_ast.If):
            if self._contains(s.iftrue, seek):
                return self._exec(s.iftrue, frame, seek)
            return self._exec(s.iffalse, frame, seek)
        if isinstance(s, (c_ast.For, c_ast.While, c_ast.DoWhile)):
            return self._loop(s, frame, first=("seek", seek))
        if isinstance(s, c_ast.Switch):
            # a label inside a switch body: enter the body there (no case test)
            try:
                self._exec(s.stmt, frame, seek)
            except _Break:
                pass
            return
        raise Unsupported(f"a jump into {type(s).__name__} at {where(s)}")

    def _loop(self, s, frame, first):
        is_for = isinstance(s, c_ast.For)
        self._loop_bodies.add(id(s.stmt))
        while True:
            if first is None:
                if s.cond is not None and not self.truth(s.cond, frame):
                    return
                seek = None
            elif first[0] == "do":
                seek = None
            else:
                seek = first[1]
            first = None
            try:
                if seek is not None:
                    self._exec(s.stmt, frame, seek)
                else:
                    self._exec(s.stmt, frame)
            except _Break:
                return
            except _Continue:
                pass
            if is_for and s.next is not None:
                self.eval(s.next, frame)
            if isinstance(s, c_ast.DoWhile) and not self.truth(s.cond, frame):
                return

    def _switch(self, s, frame):
        v, _ = self.eval(s.cond, frame)
        if not isinstance(v, int):
            raise Unsupported(f"a switch on data at {where(s)}")
        if self.watch is not None:
            self.watch.switched(s, lambda x: self._target(s, x))
        target = self._target(s, v)
        if target is None:
            return
        try:
            self._exec(s.stmt, frame, ("case", target))
        except _Break:
            pass

    def _target(self, s, v):
        """The case (or default) label switch s jumps to on the value v; None: past it."""
        default = None
        for case in self._cases(s.stmt):
            if isinstance(case, c_ast.Default):
                default = case
            elif self.const_int(case.expr) & 0xFFFFFFFFFFFFFFFF == v & 0xFFFFFFFFFFFFFFFF:
                return case
        return default

    def _cases(self, node):
        for _, c in node.children():
            if isinstance(c, (c_ast.Case, c_ast.Default)):
                yield c
            if not isinstance(c, c_ast.Switch):
                yield from self._cases(c)

    def _decl(self, d, frame, init=True):
        t = self.type_of(d.type)
        if isinstance(t, T.Func):
            return
        if isinstance(t, T.Arr) and t.n == 0 and isinstance(d.init, c_ast.InitList):
            t = T.Arr(t.elem, len(d.init.exprs))
        taken = self._taken(frame.func) if frame.func is not None else set()
        if isinstance(t, (T.Arr, T.Struct)) or d.name in taken:
            obj = Obj(d.name, t.size, self.big_endian)
            frame.vars[d.name] = (t, obj, True)
            if init and d.init is not None:
                self._init_memory(obj, 0, t, d.init, frame)
            return
        value = None
        if init and d.init is not None:
            v, vt = self.eval(d.init, frame)
            value = self.convert(v, vt, t, d)
        frame.vars[d.name] = (t, value, False)

    def _init_memory(self, obj, off, t, init, frame):
        if isinstance(init, c_ast.InitList):
            if isinstance(t, T.Arr):
                for i, e in enumerate(init.exprs):
                    self._init_memory(obj, off + i * t.elem.size, t.elem, e, frame)
                for i in range(len(init.exprs), t.n):
                    self._zero(obj, off + i * t.elem.size, t.elem)
                return
            if isinstance(t, T.Struct):
                for (name, ft, foff), e in zip(t.fields, init.exprs):
                    self._init_memory(obj, off + foff, ft, e, frame)
                return
            init = init.exprs[0]
        v, vt = self.eval(init, frame)
        self.store(Pointer(obj, off), t, self.convert(v, vt, t, init))

    def _zero(self, obj, off, t):
        if isinstance(t, T.Arr):
            for i in range(t.n):
                self._zero(obj, off + i * t.elem.size, t.elem)
        else:
            self.store(Pointer(obj, off), t, 0)

    # -- memory through types --

    def load(self, p, t):
        if not isinstance(p, Pointer) or p.obj is None:
            raise Unsupported(f"a load through {p!r}")
        if isinstance(t, T.Int):
            return p.obj.read(p.off, t.size)
        if isinstance(t, T.Ptr):
            v = p.obj.read(p.off, 8)
            return v
        if isinstance(t, T.Vec):
            n = t.bits // t.ew
            return Vector([p.obj.read(p.off + i * t.ew // 8, t.ew // 8) for i in range(n)], t.ew)
        if isinstance(t, T.Struct):
            return StructValue(t, {name: self.load(p + off, ft) for name, ft, off in t.fields})
        if isinstance(t, T.Arr):
            return p          # arrays decay
        raise Unsupported(f"a load of {t}")

    def store(self, p, t, v):
        if not isinstance(p, Pointer) or p.obj is None:
            raise Unsupported(f"a store through {p!r}")
        if isinstance(t, T.Int):
            p.obj.write(p.off, t.size, v)
        elif isinstance(t, T.Ptr):
            p.obj.write(p.off, 8, v)
        elif isinstance(t, T.Vec):
            v = regroup(v, t.ew)
            step = v.ew // 8
            for i, e in enumerate(v.elems):
                p.obj.write(p.off + i * step, step, e)
        elif isinstance(t, T.Struct):
            for name, ft, off in t.fields:
                self.store(p + off, ft, v.fields[name])
        elif isinstance(t, T.Arr) and isinstance(v, tuple):
            # An array member of a value no memory holds (vtrnq_u32's uint32x4x2_t .val):
            # its elements, not a pointer to them.
            for i, e in enumerate(v):
                self.store(p + i * t.elem.size, t.elem, e)
        elif isinstance(t, T.Arr):
            for i in range(t.n):
                self.store(p + i * t.elem.size, t.elem,
                           self.load(v + i * t.elem.size, t.elem))
        else:
            raise Unsupported(f"a store of {t}")

    # -- expressions --

    def truth(self, node, frame):
        v, t = self.eval(node, frame)
        return self.is_true(v, node)

    def is_true(self, v, node):
        if isinstance(v, int):
            return v != 0
        if isinstance(v, Pointer):
            return v.obj is not None
        raise Unsupported(f"a branch on data at {where(node)}")

    def convert(self, v, vt, t, node):
        if v is None or t is None:
            return v
        if isinstance(t, T.Int):
            if isinstance(v, Pointer):
                return v          # (uintptr_t)p: still the address
            if isinstance(vt, T.Int):
                if t.bits < vt.bits:
                    return anf.trunc(v, t.bits)
                if t.bits > vt.bits and vt.signed:
                    if isinstance(v, int):
                        return (v - (1 << vt.bits) if v >> (vt.bits - 1) & 1 else v) & \
                            anf.ones(t.bits)
                    return self.opaque("sext", [v, vt.bits], t.bits, node)
                return v
            if isinstance(v, int):
                return v & anf.ones(t.bits)
            return v
        if isinstance(t, T.Ptr):
            if isinstance(v, int):
                if v == 0:
                    return NULL
                raise Unsupported(f"an integer used as an address at {where(node)}")
            return v
        return v

    def opaque(self, op, args, w, node):
        if all(isinstance(a, int) for a in args):
            return anf.OPAQUE_EVAL[op](w, *args) & anf.ones(w)
        return anf.opaque(op, args, w)

    def lvalue(self, node, frame):
        """(pointer or ('var', frame, name), type)."""
        if isinstance(node, c_ast.ID):
            got = replay.peek(frame.vars, node.name)
            if got is not None:
                t, v, inmem = got
                if inmem:
                    return Pointer(v, 0), t
                return ("var", frame, node.name), t
            g = self.globals.get(node.name)
            if g is not None:
                return Pointer(g[1], 0), g[0]
            raise Unsupported(f"the identifier {node.name} at {where(node)}")
        if isinstance(node, c_ast.ArrayRef):
            base, bt = self.eval(node.name, frame)
            idx, it = self.eval(node.subscript, frame)
            if isinstance(base, int) and isinstance(idx, Pointer):
                base, bt, idx, it = idx, it, base, bt
            if not isinstance(idx, int):
                raise Unsupported(f"an index that depends on data at {where(node)}")
            elem = bt.to if isinstance(bt, T.Ptr) else bt.elem
            idx = _signed_index(idx, it)
            return base + idx * elem.size, elem
        if isinstance(node, c_ast.UnaryOp) and node.op == "*":
            p, pt = self.eval(node.expr, frame)
            return p, pt.to
        if isinstance(node, c_ast.StructRef):
            if node.type == "->":
                p, pt = self.eval(node.name, frame)
                st = pt.to
            else:
                p, st = self.lvalue(node.name, frame)
                if not isinstance(p, Pointer):
                    raise Unsupported(f"a field of a register value at {where(node)}")
            name, ft, off = st.field(node.field.name)
            return p + off, ft
        raise Unsupported(f"the lvalue {type(node).__name__} at {where(node)}")

    def read_lv(self, lv, t):
        if isinstance(lv, tuple):
            _, frame, name = lv
            v = frame.vars[name][1]
            if v is None:
                raise Unsupported(f"{name} is read before it is written")
            return v
        if isinstance(t, T.Arr):
            return lv
        return self.load(lv, t)

    def write_lv(self, lv, t, v):
        if isinstance(lv, tuple):
            _, frame, name = lv
            frame.vars[name] = (t, v, False)
        else:
            self.store(lv, t, v)

    def eval(self, node, frame):
        m = getattr(self, "_e_" + type(node).__name__, None)
        if m is None:
            raise Unsupported(f"the expression {type(node).__name__} at {where(node)}")
        return m(node, frame)

    def _e_Constant(self, node, frame):
        if node.type == "string":
            raise Unsupported(f"a string literal at {where(node)}")
        if node.type == "char":
            s = node.value[1:-1]
            return ord(s.encode().decode("unicode_escape")), T.INT
        text = node.value.lower()
        suffix = ""
        while text and text[-1] in "ul":
            suffix = text[-1] + suffix
            text = text[:-1]
        v = int(text, 0) if not (text.startswith("0") and len(text) > 1 and text[1].isdigit()) \
            else int(text, 8)
        unsigned = "u" in suffix
        if "l" in suffix or v > 0xFFFFFFFF or (not unsigned and v > 0x7FFFFFFF and
                                                 not text.startswith("0x")):
            t = T.U64 if unsigned or v > 0x7FFFFFFFFFFFFFFF else T.I64
        elif unsigned or v > 0x7FFFFFFF:
            t = T.UINT
        else:
            t = T.INT
        return v, t

    def _e_ID(self, node, frame):
        got = frame.vars.get(node.name)
        if got is not None:
            t, v, inmem = got
            if inmem:
                p = Pointer(v, 0)
                if isinstance(t, T.Arr):
                    return p, T.Ptr(t.elem)
                return self.load(p, t), t
            if v is None:
                raise Unsupported(f"{node.name} is read before it is written at {where(node)}")
            return v, t
        g = self.globals.get(node.name)
        if g is not None:
            t, obj = g
            if isinstance(t, T.Arr):
                return Pointer(obj, 0), T.Ptr(t.elem)
            return self.load(Pointer(obj, 0), t), t
        if node.name in self.funcs:
            return ("func", node.name), T.Func(None)
        raise Unsupported(f"the identifier {node.name} at {where(node)}")

    def _e_ArrayRef(self, node, frame):
        p, t = self.lvalue(node, frame)
        if isinstance(t, T.Arr):
            return p, T.Ptr(t.elem)
        return self.load(p, t), t

    def _e_StructRef(self, node, frame):
        if node.type == "." and not isinstance(node.name, (c_ast.ID, c_ast.ArrayRef,
                                                           c_ast.StructRef)):
            v, t = self.eval(node.name, frame)
            name, ft, off = t.field(node.field.name)
            return v.fields[name], ft
        if node.type == ".":
            try:
                p, st = self.lvalue(node.name, frame)
            except Unsupported:
                p = None
            if not isinstance(p, Pointer):
                v, st = self.eval(node.name, frame)
                name, ft, off = st.field(node.field.name)
                return v.fields[name], ft
        p, t = self.lvalue(node, frame)
        if isinstance(t, T.Arr):
            return p, T.Ptr(t.elem)
        return self.load(p, t), t

    def _e_Cast(self, node, frame):
        t = self.type_of(node.to_type)
        v, vt = self.eval(node.expr, frame)
        if isinstance(t, T.Void):
            return None, t
        return self.convert(v, vt, t, node), t

    def _e_TernaryOp(self, node, frame):
        if self.truth(node.cond, frame):
            return self.eval(node.iftrue, frame)
        return self.eval(node.iffalse, frame)

    def _e_ExprList(self, node, frame):
        out = None, T.VOID
        for e in node.exprs:
            out = self.eval(e, frame)
        return out

    def _e_Assignment(self, node, frame):
        lv, t = self.lvalue(node.lvalue, frame)
        rv, rt = self.eval(node.rvalue, frame)
        if node.op != "=":
            cur = self.read_lv(lv, t)
            rv, rt = self.binop(node.op[:-1], cur, t, rv, rt, node)
        v = self.convert(rv, rt, t, node)
        self.write_lv(lv, t, v)
        return v, t

    def _e_UnaryOp(self, node, frame):
        op = node.op
        if op == "&":
            p, t = self.lvalue(node.expr, frame)
            if isinstance(p, tuple):
                raise Unsupported(f"the address of a register variable at {where(node)}")
            return p, T.Ptr(t)
        if op == "*":
            p, pt = self.eval(node.expr, frame)
            t = pt.to
            if isinstance(t, T.Arr):
                return p, T.Ptr(t.elem)
            return self.load(p, t), t
        if op == "sizeof":
            e = node.expr
            t = self.type_of(e) if isinstance(e, c_ast.Typename) else self.eval(e, frame)[1]
            return t.size, T.SIZE_T
        if op in ("++", "--", "p++", "p--"):
            lv, t = self.lvalue(node.expr, frame)
            cur = self.read_lv(lv, t)
            new, _ = self.binop("+" if "+" in op else "-", cur, t, 1, T.INT, node)
            new = self.convert(new, t, t, node)
            self.write_lv(lv, t, new)
            return (new if op[0] != "p" else cur), t
        v, t = self.eval(node.expr, frame)
        if op == "!":
            return int(not self.is_true(v, node)), T.INT
        t = T.promote(t)
        if op == "~":
            return anf.not_(v, t.bits), t
        if op == "-":
            if isinstance(v, int):
                return (-v) & anf.ones(t.bits), t
            return self.opaque("sub", [0, v], t.bits, node), t
        if op == "+":
            return v, t
        raise Unsupported(f"the operator {op} at {where(node)}")

    def _e_BinaryOp(self, node, frame):
        op = node.op
        if op == "&&":
            if not self.truth(node.left, frame):
                return 0, T.INT
            return int(self.truth(node.right, frame)), T.INT
        if op == "||":
            if self.truth(node.left, frame):
                return 1, T.INT
            return int(self.truth(node.right, frame)), T.INT
        a, at = self.eval(node.left, frame)
        b, bt = self.eval(node.right, frame)
        return self.binop(op, a, at, b, bt, node)

    def binop(self, op, a, at, b, bt, node):
        # pointers
        if isinstance(at, T.Ptr) or isinstance(a, Pointer):
            return self._ptr_op(op, a, at, b, bt, node)
        if isinstance(bt, T.Ptr) or isinstance(b, Pointer):
            if op == "+":
                return self._ptr_op(op, b, bt, a, at, node)
            return self._ptr_op(op, a, at, b, bt, node)
        if op in ("<<", ">>"):
            t = T.promote(at)
            if not isinstance(b, int):
                raise Unsupported(f"a shift by a data-dependent count at {where(node)}")
            if op == "<<":
                return anf.shl(a, b, t.bits), t
            if t.signed and not isinstance(a, int):
                return self.opaque("sar", [a, b, t.bits], t.bits, node), t
            if t.signed and a >> (t.bits - 1) & 1:
                return ((a - (1 << t.bits)) >> b) & anf.ones(t.bits), t
            return anf.shr(a, b, t.bits), t
        t = T.common(at, bt)
        a = self.convert(a, at, t, node) if T.promote(at) != t or at != t else a
        b = self.convert(b, bt, t, node) if T.promote(bt) != t or bt != t else b
        if isinstance(at, T.Int) and at.signed and at.bits < t.bits:
            a = self.convert(a, at, t, node)
        w = t.bits
        if op == "^":
            return anf.xor(a, b), t
        if op == "&":
            return anf.and_(a, b), t
        if op == "|":
            return anf.or_(a, b), t
        if op == "+":
            r = anf.add(a, b, w)
            if r is None:
                r = self.opaque("add", [a, b], w, node)
            return r, t
        if isinstance(a, int) and isinstance(b, int):
            return _concrete(op, a, b, t, node), (T.INT if op in _CMP else t)
        if op == "-":
            return self.opaque("sub", [a, b], w, node), t
        if op == "*":
            return self.opaque("mul", [a, b], w, node), t
        if op in ("<", ">", "<=", ">="):
            if t.signed:
                raise Unsupported(f"a signed comparison of data at {where(node)}")
            x, y = (a, b) if op in ("<", ">=") else (b, a)
            r = self.opaque("ltu", [x, y], 1, node)
            if op in (">=", "<="):
                r = anf.xor(r, 1)
            return r, T.INT
        if op in ("==", "!="):
            r = self.opaque("eq", [a, b], 1, node)
            return (r if op == "==" else anf.xor(r, 1)), T.INT
        raise Unsupported(f"the operator {op} on data at {where(node)}")

    def _ptr_op(self, op, a, at, b, bt, node):
        elem = at.to.size if isinstance(at, T.Ptr) and not isinstance(at.to, T.Void) else 1
        if isinstance(b, Pointer) or isinstance(bt, T.Ptr):
            if op == "-":
                if not a.same(b):
                    raise Unsupported(f"a difference of unrelated pointers at {where(node)}")
                return (a.off - b.off) // elem, T.I64
            if op in _CMP:
                if not a.same(b) and a.obj is not None and b.obj is not None:
                    raise Unsupported(f"a comparison of unrelated pointers at {where(node)}")
                x = a.off if a.obj is not None else -1
                y = b.off if b.obj is not None else -1
                if a.obj is None or b.obj is None:
                    x, y = (0 if a.obj is None else 1), (0 if b.obj is None else 1)
                return _concrete(op, x, y, T.I64, node), T.INT
            raise Unsupported(f"the pointer operator {op} at {where(node)}")
        if isinstance(b, int) and op in ("+", "-"):
            n = _signed_index(b, bt)
            if isinstance(a, int):
                return a, at
            return a + (n * elem if op == "+" else -n * elem), at
        if op in _CMP and isinstance(b, int) and b == 0:
            return _concrete(op, 0 if a.obj is None else 1, 0, T.INT, node), T.INT
        raise Unsupported(f"the pointer operator {op} at {where(node)}")

    def _e_FuncCall(self, node, frame):
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        if name is None:
            raise Unsupported(f"an indirect call at {where(node)}")
        args = node.args.exprs if node.args is not None else []
        if name == "__rs_asm":
            return self._asm(node, args, frame)
        if name == cfront.STMT_EXPR:
            return self._stmt_expr(node, args, frame)
        if name in self.funcs:
            vals = [self.eval(a, frame) for a in args]
            if name in self.contracts:
                self.effects += 1
                got = self.contracts[name](self, vals)
                if got is not None:
                    self.contracted.add(name)
                    return got
            return self._invoke(self.funcs[name], vals)
        if name in self.externs:
            self.effects += 1
            vals = [self.eval(a, frame) for a in args]
            # A function of another file taken as its contract, as one of this unit's.
            if name in self.contracts:
                got = self.contracts[name](self, vals)
                if got is not None:
                    self.contracted.add(name)
                    return got
            return self.externs[name](vals)
        f = self.intrinsics.get(name)
        if f is None:
            raise Unsupported(f"{name} (called at {where(node)}) has no model in the prover")
        return f(self, [self.eval(a, frame) for a in args], node)

    def _asm(self, node, args, frame):
        if self.asm_runner is None:
            raise Unsupported(f"inline assembly at {where(node)}")
        k = self.const_int(args[0])
        stmt = self.unit.asm[k]
        return self.asm_runner(self, stmt, args[1:], frame, node)

    def _stmt_expr(self, node, args, frame):
        """A GNU statement expression, lifted by cfront into the body of __rs_stmt_expr_k:
        its block runs in the caller's frame, its declarations scoped to it, and its value is
        its last statement's, when that is an expression."""
        fd = self.funcs.get(cfront.stmt_expr_block(self.const_int(args[0])))
        if fd is None:
            raise Unsupported(f"a statement expression at {where(node)} has no lifted block")
        items = fd.body.block_items or []
        own = {it.name for it in items if isinstance(it, c_ast.Decl) and it.name}
        outer = {n: frame.vars[n] for n in own if n in frame.vars}
        try:
            for it in items[:-1]:
                self._exec(it, frame)
            if not items:
                return None, T.VOID
            last = items[-1]
            if hasattr(self, "_e_" + type(last).__name__):
                return self.eval(last, frame)
            self._exec(last, frame)
            return None, T.VOID
        finally:
            for n in own:
                frame.vars.pop(n, None)
            frame.vars.update(outer)

    def _e_InitList(self, node, frame):
        raise Unsupported(f"an initializer list used as a value at {where(node)}")

    def _e_CompoundLiteral(self, node, frame):
        t = self.type_of(node.type)
        obj = Obj("literal", t.size, self.big_endian)
        self._init_memory(obj, 0, t, node.init, frame)
        if isinstance(t, T.Arr):
            return Pointer(obj, 0), T.Ptr(t.elem)
        return self.load(Pointer(obj, 0), t), t


_CMP = ("<", ">", "<=", ">=", "==", "!=")


def _signed_index(v, t):
    if isinstance(t, T.Int) and t.signed and v >> (t.bits - 1) & 1:
        return v - (1 << t.bits)
    if isinstance(t, T.Int) and not t.signed and t.bits == 64 and v >> 63:
        return v - (1 << 64)
    return v


def _concrete(op, a, b, t, node):
    w = t.bits
    if t.signed:
        a = a - (1 << w) if a >> (w - 1) & 1 else a
        b = b - (1 << w) if b >> (w - 1) & 1 else b
    if op == "-":
        return (a - b) & anf.ones(w)
    if op == "*":
        return (a * b) & anf.ones(w)
    if op == "/":
        if b == 0:
            raise Unsupported(f"a division by zero at {where(node)}")
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return q & anf.ones(w)
    if op == "%":
        if b == 0:
            raise Unsupported(f"a division by zero at {where(node)}")
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        return (a - q * b) & anf.ones(w)
    if op == "<":
        return int(a < b)
    if op == ">":
        return int(a > b)
    if op == "<=":
        return int(a <= b)
    if op == ">=":
        return int(a >= b)
    if op == "==":
        return int(a == b)
    if op == "!=":
        return int(a != b)
    raise Unsupported(f"the operator {op} at {where(node)}")


def _align(t):
    if isinstance(t, T.Arr):
        return _align(t.elem)
    if isinstance(t, T.Struct):
        return max((_align(f[1]) for f in t.fields), default=1)
    if isinstance(t, T.Vec):
        return min(t.size, 64)
    return max(1, min(t.size, 8))
