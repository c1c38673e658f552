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


PI_SOURCES = tuple(keccak.pi_source(i % 5, i // 5) for i in range(25))


def pi(a):
    return [a[PI_SOURCES[i]] for i in range(25)]


CHI_NEIGHBOURS = tuple((keccak.index(i % 5 + 1, i // 5), keccak.index(i % 5 + 2, i // 5))
                       for i in range(25))


def chi(a):
    return [a[i] ^ (~a[b] & a[c] & MASK64) for i, (b, c) in enumerate(CHI_NEIGHBOURS)]


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


def keccak256(message):
    """The original Keccak padding (domain byte 0x01), as Ethereum uses it."""
    return sponge(136, 0x01, message, 32)


def turboshake(security, message, domain, outlen):
    """TurboSHAKE128/256 (RFC 9861): 12 rounds, the domain byte D in 0x01..0x7F."""
    if not 0x01 <= domain <= 0x7F:
        raise ValueError("TurboSHAKE domain byte must be 0x01..0x7F")
    return sponge(200 - security // 4, domain, message, outlen, rounds=12)


def length_encode(x):
    """RFC 9861: x big-endian with no leading zero byte, then the count of those bytes."""
    body = x.to_bytes((x.bit_length() + 7) // 8, "big") if x else b""
    return body + bytes([len(body)])


KT_CHUNK = 8192
KT_CV = 32


def kt128(message, custom, outlen):
    """KangarooTwelve (KT128, RFC 9861) on TurboSHAKE128."""
    s = message + custom + length_encode(len(custom))
    if len(s) <= KT_CHUNK:
        return turboshake(128, s, 0x07, outlen)
    chunks = [s[i:i + KT_CHUNK] for i in range(0, len(s), KT_CHUNK)]
    node = chunks[0] + b"\x03" + bytes(7)
    for chunk in chunks[1:]:
        node += turboshake(128, chunk, 0x0B, KT_CV)
    node += length_encode(len(chunks) - 1) + b"\xff\xff"
    return turboshake(128, node, 0x06, outlen)


def ptn(n):
    """The RFC 9861 test message: n bytes of 00 01 .. FA repeated."""
    return bytes(i % 251 for i in range(n))
