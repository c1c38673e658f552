# SPDX-License-Identifier: Apache-2.0 OR MIT
"""XKCP's SnP interface (state and permutation) over z3 terms: what each function does to the
standard's 200 bytes of a state, written from XKCP's documentation of KeccakP-1600-SnP.h and
KeccakP-1600-times{2,4,8}-SnP.h (doc/SnP and the headers' comments) and nothing else in this
repository.

A state is the standard's 200 bytes, a z3 array from a 64-bit index to a byte: byte i is
bits 8 (i mod 8) .. 8 (i mod 8) + 7 of lane i / 8 (FIPS 202 sections 3.1.2 and B.1).
Keccak-p[1600, n] for 1 <= n <= 24 is the last n rounds of Keccak-f[1600]: an uninterpreted
function of the state and n (its rounds are the kernels' proof); n = 0 is the identity.
"""

import z3

from . import spec_sponge as SP

L64 = SP.L64
BYTES = SP.BYTES
STATE_BYTES = 200
_KP = z3.Function("keccak_p", BYTES, z3.BitVecSort(32), BYTES)


def keccak_p(S, nrounds):
    """Keccak-p[1600, nrounds] (a 32-bit term, 0 <= nrounds <= 24) of the state S."""
    return z3.If(nrounds == 0, S, _KP(S, nrounds))


def add_bytes(S, off, mem, moff, n):
    """AddBytes: bytes off .. off + n - 1 of S xored with M[moff ..] (off + n <= 200)."""
    return SP.xor_at(S, off, mem, moff, n)


def add_byte(S, off, byte):
    """AddByte: byte off (< 200) of S xored with `byte`."""
    return SP.xor_byte_at(S, off, byte)


def overwrite_bytes(S, off, mem, moff, n):
    """OverwriteBytes: bytes off .. off + n - 1 of S replaced by M[moff ..]."""
    j = z3.BitVec("j", 64)
    inside = z3.And(z3.ULE(off, j), z3.ULT(j - off, n))
    return z3.Lambda([j], z3.If(inside, z3.Select(mem, moff + (j - off)), z3.Select(S, j)))


def zeroes(S, n):
    """OverwriteWithZeroes: bytes 0 .. n - 1 of S set to zero (n <= 200)."""
    j = z3.BitVec("j", 64)
    return z3.Lambda([j], z3.If(z3.ULT(j, n), z3.BitVecVal(0, 8), z3.Select(S, j)))


def extract_byte(S, off, i, add=None):
    """Byte i of ExtractBytes (add None) or ExtractAndAddBytes (add: the input's byte i)."""
    b = z3.Select(S, off + i)
    return b if add is None else b ^ add


def clip(off, n):
    """The times-N byte functions' range (64-bit terms): an offset at or past 200 takes no
    byte, a length running past byte 200 stops there (the headers' comment)."""
    return z3.If(z3.UGE(off, STATE_BYTES), z3.BitVecVal(0, 64),
                 z3.If(z3.UGT(n, STATE_BYTES - off), STATE_BYTES - off, n))


def lanes_bytes(S, lanes, mem, moff, op):
    """AddLanesAll (op "add") / OverwriteLanesAll ("overwrite") on one instance: its lanes
    0 .. lanes - 1 xored with or replaced by the 8 lanes bytes at M[moff ..]."""
    n = z3.BitVecVal(8 * lanes, 64)
    f = add_bytes if op == "add" else overwrite_bytes
    return f(S, z3.BitVecVal(0, 64), mem, moff, n)
