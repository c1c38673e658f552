# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Keccak-p[1600, n_r] as FIPS 202 sections 3.2-3.3 state it, over symbolic words.

Written from the standard's text and nothing else in this repository: the kernels and the
generator's own model (generator/keccak.py) are what this checks. A lane A[x, y] is word
x + 5y; bit z of a lane is bit z of the 64-bit word (the standard's little-endian reading).
"""

from . import anf

W = 64


def rc_bit(t):
    """Algorithm 5: rc(t), one output bit of the degree-8 LFSR."""
    if t % 255 == 0:
        return 1
    r = [1, 0, 0, 0, 0, 0, 0, 0]
    for _ in range(t % 255):
        r = [0] + r
        r[0] ^= r[8]
        r[4] ^= r[8]
        r[5] ^= r[8]
        r[6] ^= r[8]
        r = r[:8]
    return r[0]


def round_constant(ir):
    """Algorithm 6, step 2-3: RC[2^j - 1] = rc(j + 7 i_r) for j = 0..6."""
    rc = 0
    for j in range(7):
        rc |= rc_bit(j + 7 * ir) << ((1 << j) - 1)
    return rc


def rho_offsets():
    """Algorithm 2: the offset of lane (x, y), walking (x, y) -> (y, 2x + 3y) from (1, 0)."""
    off = {(0, 0): 0}
    x, y = 1, 0
    for t in range(24):
        off[(x, y)] = ((t + 1) * (t + 2) // 2) % W
        x, y = y, (2 * x + 3 * y) % 5
    return off


RHO = rho_offsets()


def theta(a):
    c = [a[x] for x in range(5)]
    for x in range(5):
        for y in range(1, 5):
            c[x] = anf.xor(c[x], a[x + 5 * y])
    d = [anf.xor(c[(x - 1) % 5], anf.rol(c[(x + 1) % 5], 1, W)) for x in range(5)]
    return [anf.xor(a[x + 5 * y], d[x]) for y in range(5) for x in range(5)]


def rho(a):
    return [anf.rol(a[x + 5 * y], RHO[(x, y)], W) for y in range(5) for x in range(5)]


def pi(a):
    """A'[x, y] = A[(x + 3y) mod 5, x]."""
    return [a[(x + 3 * y) % 5 + 5 * x] for y in range(5) for x in range(5)]


def chi(a):
    out = []
    for y in range(5):
        for x in range(5):
            nb = anf.not_(a[(x + 1) % 5 + 5 * y], W)
            out.append(anf.xor(a[x + 5 * y], anf.and_(nb, a[(x + 2) % 5 + 5 * y])))
    return out


def iota(a, ir):
    return [anf.xor(a[0], round_constant(ir))] + list(a[1:])


def rnd(a, ir):
    """Rnd(A, i_r) = iota(chi(pi(rho(theta(A)))), i_r)."""
    return iota(chi(pi(rho(theta(a)))), ir)


def first_round(n_r):
    """Keccak-p[1600, n_r] runs rounds 12 + 2l - n_r .. 12 + 2l - 1, l = 6."""
    return 24 - n_r


def permute(a, n_r):
    for ir in range(first_round(n_r), 24):
        a = rnd(a, ir)
    return a
