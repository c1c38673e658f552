# SPDX-License-Identifier: Apache-2.0 OR MIT
"""C types as the interpreter needs them: widths, signedness, sizes and layouts."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Int:
    bits: int
    signed: bool

    @property
    def size(self):
        return self.bits // 8


@dataclass(frozen=True)
class Ptr:
    to: object
    size: int = 8


@dataclass(frozen=True)
class Arr:
    elem: object
    n: int

    @property
    def size(self):
        return self.elem.size * (self.n or 0)


@dataclass(frozen=True)
class Vec:
    name: str
    bits: int
    ew: int          # the element width its intrinsics work on by default

    @property
    def size(self):
        return self.bits // 8


@dataclass(frozen=True)
class Struct:
    name: str
    fields: tuple    # (name, type, offset)
    size: int

    def field(self, name):
        for f in self.fields:
            if f[0] == name:
                return f
        raise KeyError(name)


@dataclass(frozen=True)
class Void:
    size: int = 1


@dataclass(frozen=True)
class Func:
    ret: object


VOID = Void()
INT = Int(32, True)
UINT = Int(32, False)
U8 = Int(8, False)
U16 = Int(16, False)
U32 = Int(32, False)
U64 = Int(64, False)
I64 = Int(64, True)
SIZE_T = U64

BASIC = {
    ("char",): Int(8, True), ("signed", "char"): Int(8, True), ("unsigned", "char"): U8,
    ("short",): Int(16, True), ("short", "int"): Int(16, True),
    ("unsigned", "short"): U16, ("unsigned", "short", "int"): U16,
    ("int",): INT, ("signed",): INT, ("signed", "int"): INT,
    ("unsigned",): UINT, ("unsigned", "int"): UINT,
    ("long",): I64, ("long", "int"): I64, ("unsigned", "long"): U64,
    ("unsigned", "long", "int"): U64,
    ("long", "long"): I64, ("long", "long", "int"): I64, ("unsigned", "long", "long"): U64,
    ("unsigned", "long", "long", "int"): U64, ("void",): VOID, ("_Bool",): U8,
}

VECTORS = {
    "__m128i": Vec("__m128i", 128, 64), "__m256i": Vec("__m256i", 256, 64),
    "__m512i": Vec("__m512i", 512, 64),
    "uint64x2_t": Vec("uint64x2_t", 128, 64), "uint32x4_t": Vec("uint32x4_t", 128, 32),
    "uint16x8_t": Vec("uint16x8_t", 128, 16), "uint8x16_t": Vec("uint8x16_t", 128, 8),
    "uint64x1_t": Vec("uint64x1_t", 64, 64), "uint32x2_t": Vec("uint32x2_t", 64, 32),
    "uint8x8_t": Vec("uint8x8_t", 64, 8),
}


def promote(t):
    if isinstance(t, Int) and t.bits < 32:
        return INT
    return t


def common(a, b):
    """The usual arithmetic conversions for two integer types."""
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.bits != b.bits:
        wide, narrow = (a, b) if a.bits > b.bits else (b, a)
        return wide
    return Int(a.bits, False)
