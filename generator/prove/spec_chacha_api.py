# SPDX-License-Identifier: Apache-2.0 OR MIT
"""ChaCha's public functions (chacha.h) specified over z3 terms, for every length and counter.

Written from RFC 8439 sections 2.3-2.4 and Bernstein's original ChaCha (chacha-ref.c's
layout), not from the C or from generator/model. The input state is 16 32-bit words:
words 0-3 the constants, "expand 32-byte k" for a 256-bit key and "expand 16-byte k" for a
128-bit one (Bernstein: a 128-bit key is then used twice), words 4-11 the key, then
- the original layout: words 12-13 a 64-bit block counter (low word first), words 14-15 the
  8-byte IV; the counter of block b is counter + b modulo 2^64 (chacha.h: it carries from
  word 12 into word 13 and wraps at 2^64);
- RFC 8439 (section 2.3): word 12 a 32-bit block counter, words 13-15 the 12-byte nonce; the
  counter of block b is counter + b modulo 2^32 (chacha.h: it wraps at 2^32 without touching
  the nonce).
Every word is read from its bytes little-endian (section 2.3). The keystream is block 0, 1,
2, ... each serialised as 64 bytes, and encryption (section 2.4) is byte i of the output =
byte i of the input ^ byte (i mod 64) of block floor(i / 64).

The block function is an uninterpreted function of its 16 input words and the byte index, one
per round count (`ks`): the C and the specification agree exactly where they hand it the same
words. Its equality with the RFC's rounds (section 2.3's inner_block, the words added back,
serialised little-endian) is the kernels' proof (spec_chacha.py, chacha_obligations.py), not
this module's.
"""

import z3

W32 = z3.BitVecSort(32)
BV64 = z3.BitVecSort(64)
BYTES = z3.ArraySort(BV64, z3.BitVecSort(8))

SIGMA = b"expand 32-byte k"
TAU = b"expand 16-byte k"

_KS = {}


def ks(rounds):
    """The block function of `rounds` rounds: 16 words and a byte index (0..63, 6 bits) to
    that byte of the serialised output block."""
    if rounds not in _KS:
        _KS[rounds] = z3.Function(f"chacha{rounds}_byte", *([W32] * 16), z3.BitVecSort(6),
                                  z3.BitVecSort(8))
    return _KS[rounds]


def le_word(mem, off):
    """The 32-bit word of bytes off .. off + 3 of mem, little-endian."""
    return z3.simplify(z3.Concat(*[mem[off + k] for k in (3, 2, 1, 0)]))


def const_words(b):
    return [z3.BitVecVal(int.from_bytes(b[i:i + 4], "little"), 32) for i in range(0, 16, 4)]


def key_state(kmem, koff, key256, ivmem, ivoff):
    """The 16 words keysetup leaves: constants, the key (a 128-bit one twice), words 12-13
    zero, the IV's two words (zero for a NULL IV, ivmem None)."""
    consts = const_words(SIGMA if key256 else TAU)
    key = [le_word(kmem, koff + 4 * i) for i in range(8 if key256 else 4)]
    if not key256:
        key = key + key
    iv = [z3.BitVecVal(0, 32)] * 2 if ivmem is None else \
        [le_word(ivmem, ivoff + 4 * i) for i in range(2)]
    return consts + key + [z3.BitVecVal(0, 32)] * 2 + iv


def ietf_state(kmem, koff, nmem, noff):
    """RFC 8439's state before the counter: constants, key, word 12 (set per block), the nonce's
    three words."""
    consts = const_words(SIGMA)
    key = [le_word(kmem, koff + 4 * i) for i in range(8)]
    nonce = [le_word(nmem, noff + 4 * i) for i in range(3)]
    return consts + key + [z3.BitVecVal(0, 32)] + nonce


def block_words(S, counter, b, wide):
    """Block b's input words: S with the counter of block b in word 12 (and 13 when wide, the
    64-bit counter; RFC 8439's 32-bit one leaves word 13 to S)."""
    c = counter + b
    words = list(S)
    words[12] = z3.Extract(31, 0, c)
    if wide:
        words[13] = z3.Extract(63, 32, c)
    return [z3.simplify(w) for w in words]


def stream_byte(rounds, S, counter, wide, i):
    """Byte i of the keystream from block `counter` on (i a 64-bit index)."""
    words = block_words(S, counter, z3.LShR(i, 6), wide)
    return ks(rounds)(*words, z3.Extract(5, 0, i))


def xor_byte(rounds, S, counter, wide, inmem, inoff, i):
    """Byte i of encryption (section 2.4): the input's byte i xored with the keystream's."""
    return inmem[inoff + i] ^ stream_byte(rounds, S, counter, wide, i)
