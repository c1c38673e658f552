# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Which answers of the dispatch oracles run a wrapper's case the same.

A wrapper is proven once per answer of its oracles (rs_path, rs_choice), but many answers
take the same road: the x-N sponges ask rs_xn_kernel(slot, separate) which kernel to use, and
seven of nine answers fall back to the same loop. A run is deterministic and an answer enters
it only through the oracles, so where every oracle call of a run happened inside a decider (a
function of the unit that is a pure function of its scalar arguments and the oracles'
answers) and each decider call recorded in it returns the same value under another answer,
the run under that answer is the same run, step for step, and so has the same verdict.

A decider is a function of the unit whose parameters are all scalars, that calls nothing but
the oracles and declares no static that could change, in a unit whose globals are all
read-only: nothing it computes can depend on anything but its arguments and the answers.
"""

from pycparser import c_ast

from . import ctypes_ as T

# Off: every answer runs every case (tests compare the verdicts both ways).
ENABLED = True
# Cases proven by a run, and cases settled by a run on another answer, in this process.
COUNTS = {"run": 0, "shared": 0}


def deciders(interp, oracles):
    """The names of the unit's functions that are deciders for `oracles` (see above)."""
    if any(not obj.readonly for _, obj in interp.globals.values()):
        return set()
    out = set()
    for name, fd in interp.funcs.items():
        calls, statics = _calls_and_statics(fd)
        if not calls or not calls <= oracles or statics:
            continue
        params, _ = interp.signature(fd)
        if all(isinstance(t, T.Int) for _, t in params):
            out.add(name)
    return out


def _calls_and_statics(fd):
    """(names the body calls, or None for a call through an expression; mutable statics)."""
    calls, statics = set(), []

    class V(c_ast.NodeVisitor):
        def visit_FuncCall(self, node):
            calls.add(node.name.name if isinstance(node.name, c_ast.ID) else None)
            self.generic_visit(node)

        def visit_Decl(self, node):
            if "static" in (node.storage or []) and "const" not in (node.quals or []):
                statics.append(node.name)
            self.generic_visit(node)

    V().visit(fd.body)
    return calls, statics


class Record:
    """The decider calls of one run, and how many oracle calls happened inside them."""

    def __init__(self, interp, names, asked):
        self.interp, self.names, self.asked = interp, names, asked
        # (name, argument values, returned value, the value's meaning: None, the value itself;
        # else a function of it, see switched)
        self.calls = []
        self.inside = 0         # oracle calls made from a decider

    def __enter__(self):
        self.interp.watch = self
        return self

    def __exit__(self, *exc):
        self.interp.watch = None

    def invoke(self, fd, args, run):
        """Run a call of the unit (run()), noting it when fd is a decider."""
        if fd.decl.name not in self.names:
            return run()
        before = len(self.asked)
        got = run()
        self.inside += len(self.asked) - before
        self.calls.append((fd.decl.name, tuple(args), got, None))
        return got

    def switched(self, s, pick):
        """Switch s has run on its controlling value, which pick(value) maps to the label it
        jumps to. When that value is a decider's call itself (`switch (rs_xn_kernel(2, 0))`),
        the call's value is used by nothing else, so another answer runs the same where it
        takes the same label, whatever value it returns."""
        call = s.cond
        if (isinstance(call, c_ast.FuncCall) and isinstance(call.name, c_ast.ID) and
                self.calls and self.calls[-1][0] == call.name.name):
            name, args, got, _ = self.calls[-1]
            self.calls[-1] = (name, args, got, pick)

    def replayable(self):
        """True when every oracle call of the run was inside a decider called on concrete
        arguments and returning a concrete value: the run is then fixed by those values."""
        COUNTS["run"] += 1
        return ENABLED and self.inside == len(self.asked) and all(
            _concrete(args) and _concrete([got]) for _, args, got, _ in self.calls)

    def same_under(self, set_answer):
        """True when each recorded decider call returns the same value once set_answer() has
        given the oracles another answer."""
        set_answer()
        self.interp.watch = None
        same = all(_meaning(self.interp.call(name, list(args)), pick) == _meaning(got, pick)
                   for name, args, got, pick in self.calls)
        COUNTS["shared"] += same
        return same


def _meaning(vt, pick):
    if pick is not None:
        return id(pick(vt[0])) if isinstance(vt[0], int) else None
    return (vt[0], repr(vt[1]))


def _concrete(vals):
    return all(v is None or isinstance(v[0], int) for v in vals)
