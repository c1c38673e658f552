# SPDX-License-Identifier: Apache-2.0 OR MIT
"""NIST SP 800-185 over the sponge of spec_sponge.py: cSHAKE, KMAC and TupleHash as the
byte strings they absorb, for strings of any length.

Written from the standard's text (sections 2.3, 3, 4 and 5) and nothing else in this
repository. A string is a piece (array, offset, length in bytes); the message a function
absorbs is a list of pieces, absorbed in turn by spec_sponge.absorb (a chunk of any length
from any position). Bit lengths are 8 times byte lengths, so an encoded length reaches
2^67: the encodings compute in 72 bits.
"""

import z3

from . import spec_sponge as SP

L64 = z3.BitVecSort(64)
W = 72


def _bytes_needed(x):
    """n, the least positive integer with 2^(8n) > x (section 2.3.1), as a 64-bit term."""
    n = z3.BitVecVal(1, 64)
    for k in range(1, 9):
        n = n + z3.If(z3.UGE(x, z3.BitVecVal(1 << (8 * k), W)), z3.BitVecVal(1, 64),
                      z3.BitVecVal(0, 64))
    return z3.simplify(n)


def _digit(x, k):
    """The byte of x at base-256 place k (a 64-bit term; place 0 is the lowest)."""
    return z3.Extract(7, 0, z3.LShR(x, z3.ZeroExt(W - 64, 8 * k)))


def _value(v, shift):
    """v * 2^shift in 72 bits (shift 3: a byte length as the bit length the standard
    encodes)."""
    return z3.simplify(z3.ZeroExt(W - 64, z3.simplify(v)) << shift)


def left_encode(v, shift=0):
    """(array, length) of left_encode(v * 2^shift): the byte count n, then x_1 .. x_n, the
    most significant first."""
    x = _value(v, shift)
    n = _bytes_needed(x)
    i = z3.BitVec("i", 64)
    arr = z3.Lambda([i], z3.If(i == 0, z3.Extract(7, 0, n), _digit(x, n - i)))
    return arr, z3.simplify(n + 1)


def right_encode(v, shift=0):
    """(array, length) of right_encode(v * 2^shift): x_1 .. x_n, then the byte count n."""
    x = _value(v, shift)
    n = _bytes_needed(x)
    i = z3.BitVec("i", 64)
    arr = z3.Lambda([i], z3.If(i == n, z3.Extract(7, 0, n), _digit(x, n - 1 - i)))
    return arr, z3.simplify(n + 1)


def text(data):
    """A constant string (a function name of the standard: "KMAC", "TupleHash") as a piece."""
    return SP.constant(data), z3.BitVecVal(0, 64), z3.BitVecVal(len(data), 64)


def encode_string(piece):
    """encode_string(S) (section 2.3.2): left_encode of its length in bits, then S."""
    arr, n = left_encode(piece[2], 3)
    return [(arr, z3.BitVecVal(0, 64), n), piece]


def absorb(S, pos, pieces, rate, rounds):
    for mem, off, n in pieces:
        S, pos = SP.absorb(S, pos, mem, off, n, rate, rounds)
        # a piece's end is where the C's absorb of it ends: a cut point of the proof
        SP._record(S)
    return S, pos


def bytepad_end(S, pos, rate, rounds):
    """bytepad's zeros (section 2.3.3) up to the end of the block they complete: none at a
    block's start, else the rest of the block."""
    zeros = z3.K(L64, z3.BitVecVal(0, 8))
    full, _ = absorb(S, pos, [(zeros, z3.BitVecVal(0, 64), rate - pos)], rate, rounds)
    # bytepad's output is whole blocks: the next byte starts one
    return SP._if(pos == 0, S, full), z3.BitVecVal(0, 64)


def bytepad(S, pos, pieces, rate, rounds):
    """Absorb bytepad(X, rate) where X is the pieces' concatenation."""
    enc, n = left_encode(z3.BitVecVal(rate, 64))
    S, pos = absorb(S, pos, [(enc, z3.BitVecVal(0, 64), n)] + pieces, rate, rounds)
    return bytepad_end(S, pos, rate, rounds)


SHAKE_DOMAIN = 0x1F          # SHAKE's suffix 1111 and pad10*1's first 1 (FIPS 202)
CSHAKE_DOMAIN = 0x04         # cSHAKE's suffix 00 and pad10*1's first 1 (section 3.3)


def cshake_start(name, custom, rate, rounds):
    """(S, pos, domain byte) once cSHAKE(X, L, N, S) has absorbed its prefix (section 3.3):
    SHAKE's start where N and S are both empty."""
    S, pos = bytepad(SP.zero_state(), z3.BitVecVal(0, 64),
                     encode_string(name) + encode_string(custom), rate, rounds)
    empty = z3.And(name[2] == 0, custom[2] == 0)
    return (SP._if(empty, SP.zero_state(), S), SP._if(empty, z3.BitVecVal(0, 64), pos),
            SP._if(empty, z3.BitVecVal(SHAKE_DOMAIN, 64), z3.BitVecVal(CSHAKE_DOMAIN, 64)))


def kmac_start(key, custom, rate, rounds):
    """KMAC(K, X, L, S) (section 4.3) before X: cSHAKE with N = "KMAC" and S, having
    absorbed bytepad(encode_string(K), rate)."""
    S, pos, dom = cshake_start(text(b"KMAC"), custom, rate, rounds)
    S, pos = bytepad(S, pos, encode_string(key), rate, rounds)
    return S, pos, dom


def tuplehash_start(custom, rate, rounds):
    """TupleHash(X, L, S) (section 5.3) before its strings: cSHAKE with N = "TupleHash"."""
    return cshake_start(text(b"TupleHash"), custom, rate, rounds)


def close(S, pos, outbits_bytes, rate, rounds):
    """KMAC's and TupleHash's last piece, right_encode(L) with L in bits (0 for the XOF
    forms, sections 4.3.1 and 5.3.1), L given in bytes."""
    arr, n = right_encode(outbits_bytes, 3)
    return absorb(S, pos, [(arr, z3.BitVecVal(0, 64), n)], rate, rounds)
