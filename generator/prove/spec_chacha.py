# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The ChaCha block function as RFC 8439 sections 2.1-2.3 state it, over symbolic words.

Written from the RFC's text, sharing nothing with generator/chacha.py. The round count is a
parameter (8, 12 or 20: 4, 6 or 10 double rounds, as DJB's ChaCha family defines them).
"""

from . import anf

W = 32


def _same(i, word):
    return word


def quarter_round(s, a, b, c, d, cut=_same):
    """Section 2.1: a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12; ... 8 ... 7.
    cut(i, word) is given each word's last value and returns an equal word (the prover's name
    for it)."""
    s[a] = anf.add(s[a], s[b], W)
    s[d] = anf.rol(anf.xor(s[d], s[a]), 16, W)
    s[c] = anf.add(s[c], s[d], W)
    s[b] = anf.rol(anf.xor(s[b], s[c]), 12, W)
    s[a] = cut(a, anf.add(s[a], s[b], W))
    s[d] = cut(d, anf.rol(anf.xor(s[d], s[a]), 8, W))
    s[c] = cut(c, anf.add(s[c], s[d], W))
    s[b] = cut(b, anf.rol(anf.xor(s[b], s[c]), 7, W))


def inner_block(s, cut=_same):
    """Section 2.3.1: a column round then a diagonal round; cut(i, word) sees each word as the
    double round leaves it."""
    quarter_round(s, 0, 4, 8, 12)
    quarter_round(s, 1, 5, 9, 13)
    quarter_round(s, 2, 6, 10, 14)
    quarter_round(s, 3, 7, 11, 15)
    quarter_round(s, 0, 5, 10, 15, cut)
    quarter_round(s, 1, 6, 11, 12, cut)
    quarter_round(s, 2, 7, 8, 13, cut)
    quarter_round(s, 3, 4, 9, 14, cut)


def block(words, rounds, cut=lambda t: _same):
    """Section 2.3: the 16 output words, working state plus the input state. cut(t) gives
    double round t's cut (see inner_block)."""
    s = list(words)
    for t in range(rounds // 2):
        inner_block(s, cut(t))
    return [anf.add(s[i], words[i], W) for i in range(16)]


def serialize(words):
    """Section 2.3: each word little-endian, word 0 first: 64 bytes."""
    return [anf.trunc(anf.shr(w, 8 * k, W), 8) for w in words for k in range(4)]


SIGMA = b"expand 32-byte k"
TAU = b"expand 16-byte k"


def le_words(b):
    return [int.from_bytes(b[i:i + 4], "little") for i in range(0, len(b), 4)]
