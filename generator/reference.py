"""Plain Python references: the source of every computed test vector.

Written for clarity, not speed, straight from FIPS 202 step by step. They are checked against
the Keccak team's intermediate values and against hashlib (tests/test_reference.py), so a
vector they compute is as good as a published one.
"""

from . import keccak

MASK64 = (1 << 64) - 1


def rol64(v, n):
    n %= 64
    return ((v << n) | (v >> (64 - n))) & MASK64 if n else v


def theta(a):
    c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
    d = [c[(x - 1) % 5] ^ rol64(c[(x + 1) % 5], 1) for x in range(5)]
    return [a[i] ^ d[i % 5] for i in range(25)]


def rho(a):
    offsets = keccak.rho_offsets()
    return [rol64(a[i], offsets[i]) for i in range(25)]


def pi(a):
    return [a[keccak.pi_source(i % 5, i // 5)] for i in range(25)]


def chi(a):
    out = []
    for i in range(25):
        x, y = i % 5, i // 5
        out.append(a[i] ^ (~a[keccak.index(x + 1, y)] & a[keccak.index(x + 2, y)] & MASK64))
    return out


def iota(a, ir):
    a = list(a)
    a[0] ^= keccak.round_constants()[ir]
    return a


STEPS = (("theta", theta), ("rho", rho), ("pi", pi), ("chi", chi))


def round_steps(a, ir):
    """Yield (step name, state) after each step of round ir, as the Keccak team prints them."""
    for name, step in STEPS:
        a = step(a)
        yield name, a
    yield "iota", iota(a, ir)


def keccak_p1600(state, rounds=keccak.MAX_ROUNDS):
    """Keccak-p[1600, rounds]: the last `rounds` rounds of Keccak-f[1600]."""
    if not 0 <= rounds <= keccak.MAX_ROUNDS:
        raise ValueError("rounds must be 0..24")
    a = list(state)
    for ir in range(keccak.MAX_ROUNDS - rounds, keccak.MAX_ROUNDS):
        for _, a in round_steps(a, ir):
            pass
    return a


def state_from_bytes(data):
    return [int.from_bytes(data[8 * i:8 * i + 8], "little") for i in range(25)]


def state_to_bytes(state):
    return b"".join(v.to_bytes(8, "little") for v in state)


def sponge(rate, suffix, message, outlen, rounds=keccak.MAX_ROUNDS):
    """Keccak[c] sponge with byte-aligned domain suffix (0x06 SHA-3, 0x1F SHAKE, 0x01 Keccak)."""
    padded = bytearray(message)
    padded.append(suffix)
    while len(padded) % rate:
        padded.append(0)
    padded[-1] |= 0x80
    state = bytearray(200)
    for off in range(0, len(padded), rate):
        for i in range(rate):
            state[i] ^= padded[off + i]
        state = bytearray(state_to_bytes(keccak_p1600(state_from_bytes(state), rounds)))
    out = bytearray()
    while True:
        out += state[:rate]
        if len(out) >= outlen:
            return bytes(out[:outlen])
        state = bytearray(state_to_bytes(keccak_p1600(state_from_bytes(state), rounds)))


def sha3(bits, message):
    return sponge(200 - bits // 4, 0x06, message, bits // 8)


def shake(security, message, outlen):
    return sponge(200 - security // 4, 0x1F, message, outlen)
