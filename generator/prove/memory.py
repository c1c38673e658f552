# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Byte-addressed memory holding symbolic words: the objects a kernel reads and writes."""

from . import anf


# While generator/prove/replay.py records a run of statements: f(obj, is_write) on every
# access, which decides whether the run depends only on its variables.
WATCH = None


class Unsupported(Exception):
    """The code does something the prover has no exact model for (it is then not proven)."""


class Obj:
    """One object (an array, a variable whose address is taken, a caller's buffer).

    Cells are stored at the width they were written with, so a lane written as a word and read
    back as a word is the same symbolic value; a read of another width goes through bytes in
    the configured byte order.
    """

    __slots__ = ("name", "size", "cells", "big_endian", "readonly")

    def __init__(self, name, size, big_endian=False, readonly=False):
        self.name = name
        self.size = size
        self.cells = {}     # offset -> (size, value)
        self.big_endian = big_endian
        self.readonly = readonly

    def __repr__(self):
        return f"<{self.name}>"

    def _check(self, off, size):
        if off < 0 or off + size > self.size:
            raise Unsupported(f"an access to bytes {off}..{off + size - 1} of {self.name}, "
                              f"which has {self.size}")

    def write(self, off, size, value):
        if WATCH is not None:
            WATCH(self, True)
        self._check(off, size)
        if self.readonly:
            raise Unsupported(f"a write to the read-only {self.name}")
        cells = self.cells
        got = cells.get(off)
        if got is not None and got[0] == size:
            cells[off] = (size, value)
            return
        for o in range(off - 7, off + size):
            c = cells.get(o)
            if c is not None and o + c[0] > off and o < off + size:
                self._explode(o)
        for o in range(off, off + size):
            cells.pop(o, None)
        cells[off] = (size, value)

    def _explode(self, o):
        size, value = self.cells.pop(o)
        for k in range(size):
            self.cells[o + k] = (1, self._byte(value, size, k))

    def _byte(self, value, size, k):
        if isinstance(value, Pointer):
            raise Unsupported(f"a pointer in {self.name} read as bytes")
        if value is None:
            return None
        shift = 8 * (size - 1 - k) if self.big_endian else 8 * k
        return anf.trunc(anf.shr(value, shift, 8 * size), 8)

    def read(self, off, size):
        if WATCH is not None:
            WATCH(self, False)
        self._check(off, size)
        got = self.cells.get(off)
        if got is not None and got[0] == size:
            if got[1] is None:
                raise Unsupported(f"a read of {self.name}[{off}] before anything was written")
            return got[1]
        parts = []
        for k in range(size):
            o = off + k
            b = None
            for start in range(o, o - 8, -1):
                c = self.cells.get(start)
                if c is not None and start + c[0] > o:
                    b = self._byte(c[1], c[0], o - start)
                    break
            if b is None:
                raise Unsupported(f"a read of {self.name}[{o}] before anything was written")
            parts.append(b)
        value = 0
        for k, b in enumerate(parts):
            shift = 8 * (size - 1 - k) if self.big_endian else 8 * k
            try:
                value = anf.xor(value, anf.shl(b, shift, 8 * size))
            except anf.Mixed:
                raise Unsupported(f"bytes of words of different widths read as one from "
                                  f"{self.name}")
        return value


class Pointer:
    """An address: an object and a byte offset (obj None is NULL)."""

    __slots__ = ("obj", "off")

    def __init__(self, obj, off):
        self.obj = obj
        self.off = off

    def __add__(self, n):
        return Pointer(self.obj, self.off + n)

    def __repr__(self):
        return f"&{self.obj}+{self.off}" if self.obj is not None else "NULL"

    def same(self, other):
        return self.obj is other.obj


NULL = Pointer(None, 0)
