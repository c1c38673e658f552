# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A SIMD register's value as the interpreter holds it (elements of ANF expressions, lane 0
first) and the regrouping of those elements into wider or narrower ones. Apart from interp.py
so that replay.py, intrinsics.py and modelcheck.py use it without importing the interpreter
that imports them."""

from . import anf
from .memory import Unsupported


class Vector:
    """A SIMD register: its elements, lane 0 first, each of ew bits."""

    __slots__ = ("elems", "ew")

    def __init__(self, elems, ew):
        self.elems = list(elems)
        self.ew = ew

    def __repr__(self):
        return f"Vector({self.ew}x{len(self.elems)})"


def regroup(v, ew):
    """The same register seen as elements of ew bits."""
    if not isinstance(v, Vector):
        raise Unsupported("a vector operation on a non-vector")
    if v.ew == ew:
        return v
    out = []
    if ew < v.ew:
        k = v.ew // ew
        for e in v.elems:
            parts = _concat_parts(e)
            if parts is not None and parts[1] == ew:
                out.extend(parts[0])
                continue
            for j in range(k):
                out.append(anf.trunc(anf.shr(e, j * ew, v.ew), ew))
        return Vector(out, ew)
    k = ew // v.ew
    for i in range(0, len(v.elems), k):
        group = v.elems[i:i + k]
        out.append(join(group, v.ew, ew))
    return Vector(out, ew)


def join(parts, pw, w):
    """Elements of pw bits, lowest first, as one word of w bits."""
    val = 0
    try:
        for j, e in enumerate(parts):
            if isinstance(e, anf.Sym) and e.W < w:
                raise anf.Mixed()
            val = anf.xor(val, anf.shl(e, j * pw, w))
        return val
    except anf.Mixed:
        return anf.opaque("concat", [tuple(parts), pw], w)


def _concat_parts(e):
    bid = anf.single_base(e)
    if bid is not None and anf.BASES.kind[bid] == "op" and anf.BASES.payload[bid][0] == "concat":
        parts, pw = anf.BASES.payload[bid][1]
        return list(parts), pw
    return None


# the concrete meaning of a concat tree, for evaluation
anf.OPAQUE_EVAL["concat"] = lambda W, parts, pw: sum(p << (i * pw) for i, p in enumerate(parts))
