# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A dispatch wrapper that only passes its call on: the lemma that lets its proof rest on its
callees' instead of running them once more per path.

For one answer of the path oracle, the wrapper is run once on arguments that are all fresh
(every integer a variable, every pointer the start of an empty object) with each function of
another file replaced by a recorder. When the run makes exactly one such call, with the
wrapper's own arguments unchanged and of the same declared types, returns what that call
returned, and neither reads nor writes memory (an empty object cannot be read, and every
object is compared before and after), then wrapper(args) is callee(args) for every args. The
wrapper's obligations are then the callee's, which its own proof discharges: same kind, same
argument sets, same compiler branch. Anything else (a branch on an argument, a second call,
a converted argument) is no lemma, and the wrapper is run whole as before.
"""

from . import anf
from . import ctypes_ as T
from .interp import Linked
from .memory import Obj, Pointer

# Big enough for any offset a wrapper might form from a pointer argument; an access to an
# empty object fails either way.
_ARG_BYTES = 1 << 20


class _NoLemma(Exception):
    """The wrapper did something the lemma does not cover."""


def _params(interp, fd):
    params, rt = interp.signature(fd)
    return [t for _, t in params], rt


def _fresh(types):
    """(value, type) arguments, each a fresh variable or a pointer to a fresh empty object."""
    args = []
    for i, t in enumerate(types):
        if isinstance(t, T.Ptr):
            args.append((Pointer(Obj(f"passthrough.arg{i}", _ARG_BYTES), 0), t))
        elif isinstance(t, T.Int):
            args.append((anf.var(f"passthrough.arg{i}", t.bits), t))
        else:
            return None
    return args


def _same(a, b):
    if isinstance(a, Pointer) or isinstance(b, Pointer):
        return (isinstance(a, Pointer) and isinstance(b, Pointer) and a.obj is b.obj
                and a.off == b.off)
    if isinstance(a, int) or isinstance(b, int):
        return False       # a fresh argument is never a constant
    return a.W == b.W and a.key() == b.key()


def callee(interp, name, outside):
    """The one function of `outside` that `name` passes its call to, under the oracle answer
    already installed in interp.externs; None when it does anything else."""
    saved = {n: interp.externs[n] for n in outside}
    before = {g: dict(obj.cells) for g, (_, obj) in interp.globals.items()}
    anf.reset()
    try:
        return _run(interp, name, saved, before)
    except Exception:   # noqa: BLE001 - no lemma: the wrapper is then run whole
        return None
    finally:
        interp.externs.update(saved)
        anf.reset()     # the variables made here name nothing in a case's run


def _run(interp, name, saved, before):
    types, rt = _params(interp, interp.funcs[name])
    args = _fresh(types)
    if args is None:
        return None
    calls, ret = [], []

    def recorder(n, vals):
        calls.append((n, vals))
        _, crt = _declared(saved[n])
        if isinstance(crt, T.Void):
            return None, crt
        if not isinstance(crt, T.Int):
            raise _NoLemma()
        ret.append(anf.var(f"passthrough.ret{len(ret)}", crt.bits))
        return ret[-1], crt

    for n in saved:
        interp.externs[n] = lambda vals, n=n: recorder(n, vals)
    got, got_t = interp.call(name, args)
    if len(calls) != 1:
        return None
    n, vals = calls[0]
    ctypes, crt = _declared(saved[n])
    if ctypes != types or crt != rt or len(vals) != len(args):
        return None
    if not all(_same(v, a) and vt == at for (v, vt), (a, at) in zip(vals, args)):
        return None
    if isinstance(rt, T.Void):
        if got is not None:
            return None
    elif not (got_t == rt and _same(got, ret[0])):
        return None
    if any(a.obj.cells for a, _ in args if isinstance(a, Pointer)):
        return None
    if {g: dict(obj.cells) for g, (_, obj) in interp.globals.items()} != before:
        return None
    return n


def _declared(extern):
    """(parameter types, return type) of a function of another file, as its unit reads its
    definition; a call to anything but such a function is no lemma."""
    if not isinstance(extern, Linked):
        raise _NoLemma()
    return _params(extern.interp, extern.fd)
