# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A small x86-64 semantics for the AT&T instructions the inline-assembly kernel and the
rol/rorx rotation macros emit.

Registers hold symbolic words or addresses; memory operands go through the interpreter's
objects. Flags are kept only as the zero flag, and a jump on it must be decided by concrete
values or addresses (the loop over the round constants): the data never steers this kernel.
xor/and/or/andn set the zero flag from their result, so a jump after one on data is not
supported rather than taken on a stale comparison. An instruction outside this list is not
supported, so a template change that emits a new one cannot pass unmodelled.
"""

import re

from . import anf
from . import ctypes_ as T
from .memory import Pointer, Unsupported

REGS = ("rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11",
        "r12", "r13", "r14", "r15")
PINNED = {"a": "rax", "b": "rbx", "c": "rcx", "d": "rdx", "S": "rsi", "D": "rdi"}

_MEM = re.compile(r"^(-?\d*)\((%\w+)\)$")


class Machine:
    def __init__(self):
        self.r = {}
        self.zf = None
        self.inputs = {}

    def get(self, reg):
        v = self.r.get(reg)
        if v is None:
            raise Unsupported(f"the asm reads %{reg} before anything is in it")
        return v


# Where the compiler may put an "r" operand: any register but the stack and frame pointers.
FREE = ("r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rax", "rbx", "rcx", "rdx",
        "rsi", "rdi")


def _allocations(stmt):
    """Every register assignment of the operands that can change what the asm computes: one
    operand per register, and each write-only "r" output (no "&") sharing the register of an
    "r" input, as the compiler may. An immediate ("i", "n") operand is None."""
    cons = [c.lstrip("=+&") for c in stmt.outputs + stmt.inputs]
    n_out = len(stmt.outputs)
    for c in cons:
        if c not in PINNED and c not in ("r", "i", "n"):
            raise Unsupported(f"the asm constraint \"{c}\" (modelled: r, i, n and the pinned "
                              "registers)")
    taken = {PINNED[c] for c in cons if c in PINNED}
    free = iter(r for r in FREE if r not in taken)
    base = [PINNED[c] if c in PINNED else next(free) if c == "r" else None for c in cons]
    out = [base]
    for i, c in enumerate(stmt.outputs):
        if cons[i] != "r" or "&" in c or "+" in c:
            continue
        for j in range(n_out, len(cons)):
            if cons[j] == "r":
                out.append([base[j] if k == i else r for k, r in enumerate(base)])
    return out


def _substitute(template, regs, imms):
    """The template with its operand references (%0, %1, ...) made registers or immediates."""
    if not regs:
        return template

    def repl(m):
        tok = m.group(0)
        if tok == "%%":
            return tok
        if not tok[1:].isdigit():
            raise Unsupported(f"the asm operand reference {tok} (a modifier)")
        k = int(tok[1:])
        if k >= len(regs):
            raise Unsupported(f"the asm operand {tok} does not exist")
        return f"%%{regs[k]}" if regs[k] is not None else f"${imms[k]}"
    return re.sub(r"%%|%[a-zA-Z]?\d+", repl, template)


def run(interp, stmt, arg_nodes, frame, node):
    n_out = len(stmt.outputs)
    lvs, inputs = [], []
    for i, (c, a) in enumerate(zip(stmt.outputs + stmt.inputs, arg_nodes)):
        if i < n_out:
            lv, t = interp.lvalue(a, frame)
            lvs.append((lv, t, interp.read_lv(lv, t) if "+" in c else None))
        else:
            inputs.append(interp.eval(a, frame)[0])
    imms = {}
    for k, c in enumerate(stmt.outputs + stmt.inputs):
        if c.lstrip("=+&") in ("i", "n"):
            v = inputs[k - n_out] if k >= n_out else None
            if not isinstance(v, int):
                raise Unsupported("an asm immediate that is not a constant")
            imms[k] = v
    results = None
    for regs in _allocations(stmt):
        got = _run_once(interp, stmt, regs, imms, lvs, inputs)
        if results is None:
            results = got
        elif any(not _same(a, b) for a, b in zip(results, got)):
            raise Unsupported("the asm's result depends on which registers the compiler "
                              "gives its operands")
    for (lv, t, _), v in zip(lvs, results):
        interp.write_lv(lv, t, v)
    return None, T.VOID


def _same(a, b):
    if isinstance(a, anf.Sym) and isinstance(b, anf.Sym):
        return a.key() == b.key()
    if isinstance(a, Pointer) and isinstance(b, Pointer):
        return a.same(b) and a.off == b.off
    return type(a) is type(b) and a == b


def _run_once(interp, stmt, regs, imms, lvs, inputs):
    """The outputs of the asm under one register assignment."""
    n_out = len(stmt.outputs)
    m = Machine()
    # Registers the asm is not given hold the caller's values: it must hand back every one it
    # does not declare as an output or a clobber (the ABI's contract with the compiler).
    for reg in REGS:
        m.r[reg] = anf.var(f"caller %{reg}", 64)
    for i, (_, _, before) in enumerate(lvs):
        if before is not None:
            m.r[regs[i]] = before
    for k, v in enumerate(inputs, n_out):
        if regs[k] is not None:
            m.r[regs[k]] = v
    m.inputs = {regs[k]: m.r[regs[k]] for k in range(n_out, len(regs)) if regs[k] is not None}
    execute(interp, m, _substitute(stmt.template, regs, imms))
    outs = [r for r in regs[:n_out]]
    declared = set(outs) | {c.lstrip("%") for c in stmt.clobbers}
    for reg in REGS:
        if reg in declared or reg in m.inputs:
            continue
        v = m.r[reg]
        if not (isinstance(v, anf.Sym) and v.key() == anf.var(f"caller %{reg}", 64).key()):
            raise Unsupported(f"the asm changes %{reg} without declaring it")
    for reg in m.inputs:
        if reg not in declared and m.r[reg] is not m.inputs[reg]:
            raise Unsupported(f"the asm changes its input %{reg} without declaring it")
    return [m.get(r) for r in outs]


def execute(interp, m, template):
    """Run an asm template (operands already substituted) on machine m."""
    _execute(interp, m, _parse(template))


def _parse(template):
    lines = []
    for raw in template.replace("%%", "%").split("\n"):
        line = raw.strip().rstrip(";")
        if not line:
            continue
        lm = re.match(r"^(\d+):$", line)
        if lm:
            lines.append(("label", lm.group(1)))
            continue
        parts = line.split(None, 1)
        op = parts[0]
        ops = [o.strip() for o in parts[1].split(",")] if len(parts) > 1 else []
        lines.append((op, ops))
    return lines


def _target(program, pc, ref):
    m = re.match(r"^(\d+)([fb])$", ref)
    if not m:
        raise Unsupported(f"the asm jump target {ref}")
    name, direction = m.groups()
    rng = range(pc + 1, len(program)) if direction == "f" else range(pc - 1, -1, -1)
    for i in rng:
        if program[i] == ("label", name):
            return i
    raise Unsupported(f"the asm label {ref} has no definition")


def _execute(interp, m, program):
    pc = 0
    steps = 0
    while pc < len(program):
        steps += 1
        if steps > 10_000_000:
            raise Unsupported("the asm does not terminate")
        op, ops = program[pc]
        pc += 1
        if op == "label":
            continue
        if op == "jmp":
            pc = _target(program, pc - 1, ops[0])
            continue
        if op in ("jne", "jnz", "je", "jz"):
            if m.zf is None:
                raise Unsupported("an asm jump on flags nothing set")
            taken = (not m.zf) if op in ("jne", "jnz") else m.zf
            if taken:
                pc = _target(program, pc - 1, ops[0])
            continue
        fn = _OPS.get(op)
        if fn is None:
            raise Unsupported(f"the x86-64 instruction {op}")
        fn(interp, m, ops)


def _read(interp, m, o):
    if o.startswith("%"):
        return m.get(o[1:])
    if o.startswith("$"):
        return int(o[1:], 0) & anf.ones(64)
    mm = _MEM.match(o)
    if mm:
        p = _addr(m, mm)
        return p.obj.read(p.off, 8)
    raise Unsupported(f"the asm operand {o}")


def _addr(m, mm):
    disp = int(mm.group(1) or "0", 0)
    base = m.get(mm.group(2)[1:])
    if not isinstance(base, Pointer):
        raise Unsupported("an asm address that is not a pointer")
    return base + disp


def _write(interp, m, o, v):
    if o.startswith("%"):
        m.r[o[1:]] = v
        return
    mm = _MEM.match(o)
    if mm:
        p = _addr(m, mm)
        p.obj.write(p.off, 8, v)
        return
    raise Unsupported(f"the asm destination {o}")


def _binary(f):
    def run(interp, m, ops):
        src, dst = ops
        _logical(interp, m, dst, f(_read(interp, m, dst), _read(interp, m, src)))
    return run


def _andn(interp, m, ops):
    """BMI1 andn src2, src1, dst: dst = ~src1 & src2 (AT&T order; chi's ~b & c)."""
    src2, src1, dst = ops
    _logical(interp, m, dst, anf.and_(anf.not_(_read(interp, m, src1), 64),
                                      _read(interp, m, src2)))


def _logical(interp, m, dst, r):
    """A logical instruction's result written, its zero flag known only for a constant."""
    m.zf = r == 0 if isinstance(r, int) else None
    _write(interp, m, dst, r)


def _mov(interp, m, ops):
    src, dst = ops
    _write(interp, m, dst, _read(interp, m, src))


def _not(interp, m, ops):
    _write(interp, m, ops[0], anf.not_(_read(interp, m, ops[0]), 64))


def _rotate(left):
    """rol/ror $n, dst; and with a third operand, rorx $n, src, dst (dst = src rotated)."""
    def run(interp, m, ops):
        n, src, dst = ops if len(ops) == 3 else (ops[0], ops[1], ops[1])
        if not n.startswith("$"):
            raise Unsupported("a rotation by a register")
        k = int(n[1:], 0) % 64
        _write(interp, m, dst, anf.rol(_read(interp, m, src), k if left else (64 - k) % 64,
                                       64))
    return run


def _add(interp, m, ops):
    src, dst = ops
    a, b = _read(interp, m, dst), _read(interp, m, src)
    if isinstance(a, Pointer) and isinstance(b, int):
        r = a + b
    elif isinstance(a, int) and isinstance(b, int):
        r = (a + b) & anf.ones(64)
    else:
        raise Unsupported("an asm add of data")
    m.zf = _is_zero(r)
    _write(interp, m, dst, r)


def _is_zero(v):
    if isinstance(v, int):
        return v == 0
    if isinstance(v, Pointer):
        return v.obj is None and v.off == 0
    raise Unsupported("asm flags from data")


def _cmp(interp, m, ops):
    src, dst = ops
    a, b = _read(interp, m, dst), _read(interp, m, src)
    if isinstance(a, Pointer) and isinstance(b, Pointer):
        if not a.same(b):
            raise Unsupported("an asm comparison of unrelated addresses")
        m.zf = a.off == b.off
    elif isinstance(a, int) and isinstance(b, int):
        m.zf = a == b
    else:
        raise Unsupported("an asm comparison of data")


def _test(interp, m, ops):
    a, b = (_read(interp, m, o) for o in ops)
    if isinstance(a, int) and isinstance(b, int):
        m.zf = (a & b) == 0
    else:
        raise Unsupported("an asm test of data")


_OPS = {
    "movq": _mov, "xorq": _binary(anf.xor), "andq": _binary(anf.and_),
    "orq": _binary(anf.or_), "andnq": _andn, "notq": _not, "rolq": _rotate(True),
    "rorq": _rotate(False), "rorxq": _rotate(False), "addq": _add,
    "cmpq": _cmp, "testq": _test,
}


