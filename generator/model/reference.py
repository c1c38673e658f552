# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Plain Python references: the source of every computed test vector.

Written for clarity, not speed, straight from FIPS 202 step by step. They are checked against
the Keccak team's intermediate values and against hashlib (tests/test_reference.py), so a
vector they compute is as good as a published one.
"""

from . import keccak_maths as keccak

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


# ChaCha, straight from Bernstein's description: a 4x4 grid of 32-bit words, column rounds
# and diagonal rounds, the input added back at the end, the words written little-endian.

MASK32 = (1 << 32) - 1


def rol32(v, n):
    return ((v << n) | (v >> (32 - n))) & MASK32


def chacha_quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & MASK32
    x[d] = rol32(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & MASK32
    x[b] = rol32(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & MASK32
    x[d] = rol32(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & MASK32
    x[b] = rol32(x[b] ^ x[c], 7)


def chacha_block(state, rounds):
    """The 64 keystream bytes of one 16-word input state."""
    x = list(state)
    for _ in range(rounds // 2):
        chacha_quarter(x, 0, 4, 8, 12)
        chacha_quarter(x, 1, 5, 9, 13)
        chacha_quarter(x, 2, 6, 10, 14)
        chacha_quarter(x, 3, 7, 11, 15)
        chacha_quarter(x, 0, 5, 10, 15)
        chacha_quarter(x, 1, 6, 11, 12)
        chacha_quarter(x, 2, 7, 8, 13)
        chacha_quarter(x, 3, 4, 9, 14)
    return b"".join(((v + s) & MASK32).to_bytes(4, "little") for v, s in zip(x, state))


def _words(data):
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


def chacha_keysetup(key, iv=None):
    """The 16-word input of the original layout; words 12, 13 (the block counter) are zero.

    A 128-bit key is used twice with the "expand 16-byte k" constants, a 256-bit key once with
    "expand 32-byte k"; a missing IV is eight zero bytes.
    """
    if len(key) == 32:
        constants, k = b"expand 32-byte k", key
    elif len(key) == 16:
        constants, k = b"expand 16-byte k", key + key
    else:
        raise ValueError("ChaCha keys are 16 or 32 bytes")
    iv = bytes(8) if iv is None else iv
    return _words(constants) + _words(k) + [0, 0] + _words(iv)


def chacha_keystream(state, pos, n_blocks, rounds):
    """Blocks pos, pos + 1, ... of the 64-bit counter in words 12 (low) and 13 (high), which
    wraps at 2^64."""
    out = bytearray()
    for i in range(n_blocks):
        p = (pos + i) & ((1 << 64) - 1)
        s = list(state)
        s[12], s[13] = p & MASK32, p >> 32
        out += chacha_block(s, rounds)
    return bytes(out)


def _xor(data, stream):
    return bytes(a ^ b for a, b in zip(data, stream))


def chacha_xor(data, key, iv, counter, rounds=20):
    """Encrypt/decrypt with the original layout: 64-bit block counter, 8-byte IV."""
    state = chacha_keysetup(key, iv)
    return _xor(data, chacha_keystream(state, counter, (len(data) + 63) // 64, rounds))


def chacha20_ietf_xor(data, key, nonce, counter, rounds=20):
    """RFC 8439: 32-bit block counter in word 12 (wrapping at 2^32), 12-byte nonce in 13-15
    (its layout at other round counts too, as the ChaCha levels run it)."""
    state = _words(b"expand 32-byte k") + _words(key) + [0] + _words(nonce)
    out = bytearray()
    for i in range((len(data) + 63) // 64):
        s = list(state)
        s[12] = (counter + i) & MASK32
        out += chacha_block(s, rounds)
    return _xor(data, out)


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
KT_CV256 = 64


def _kangaroo(security, cv, message, custom, outlen):
    """RFC 9861's tree on TurboSHAKE128/256: the first chunk in the final node, the others as
    leaves of `cv` bytes."""
    s = message + custom + length_encode(len(custom))
    if len(s) <= KT_CHUNK:
        return turboshake(security, s, 0x07, outlen)
    chunks = [s[i:i + KT_CHUNK] for i in range(0, len(s), KT_CHUNK)]
    node = chunks[0] + b"\x03" + bytes(7)
    for chunk in chunks[1:]:
        node += turboshake(security, chunk, 0x0B, cv)
    node += length_encode(len(chunks) - 1) + b"\xff\xff"
    return turboshake(security, node, 0x06, outlen)


def kt128(message, custom, outlen):
    """KangarooTwelve (KT128, RFC 9861) on TurboSHAKE128."""
    return _kangaroo(128, KT_CV, message, custom, outlen)


def kt256(message, custom, outlen):
    """KT256 (RFC 9861): KT128's tree on TurboSHAKE256, with 64-byte chaining values."""
    return _kangaroo(256, KT_CV256, message, custom, outlen)


def ptn(n):
    """The RFC 9861 test message: n bytes of 00 01 .. FA repeated."""
    return bytes(i % 251 for i in range(n))



# NIST SP 800-185, section 2.3, with every length in bytes: a byte string of n bytes is an
# 8n-bit string, and only whole-byte outputs are computed.

def left_encode(x):
    """x big-endian in the fewest bytes (one byte for 0), after the count of those bytes."""
    if not 0 <= x < 1 << 2040:
        raise ValueError("left_encode takes 0 <= x < 2^2040")
    n = max(1, (x.bit_length() + 7) // 8)
    return bytes([n]) + x.to_bytes(n, "big")


def right_encode(x):
    """x big-endian in the fewest bytes (one byte for 0), then the count of those bytes."""
    if not 0 <= x < 1 << 2040:
        raise ValueError("right_encode takes 0 <= x < 2^2040")
    n = max(1, (x.bit_length() + 7) // 8)
    return x.to_bytes(n, "big") + bytes([n])


def encode_string(s):
    """The string's length in bits, left-encoded, then the string."""
    return left_encode(8 * len(s)) + bytes(s)


def bytepad(x, w):
    """left_encode(w) and x, then zero bytes up to a multiple of w."""
    if w <= 0:
        raise ValueError("bytepad takes w > 0")
    z = left_encode(w) + bytes(x)
    return z + bytes(-len(z) % w)


def _rate(security):
    return 200 - security // 4


def cshake(security, message, outlen, name=b"", custom=b""):
    """cSHAKE128/256: SHAKE when N and S are both empty, otherwise KECCAK[c] over
    bytepad(encode_string(N) || encode_string(S), rate) || X with the suffix bits 00."""
    if not name and not custom:
        return shake(security, message, outlen)
    rate = _rate(security)
    prefix = bytepad(encode_string(name) + encode_string(custom), rate)
    return sponge(rate, 0x04, prefix + bytes(message), outlen)


def kmac(security, key, message, outlen, custom=b"", xof=False):
    """KMAC128/256, and KMACXOF128/256 (the output length encoded as 0)."""
    new_x = bytepad(encode_string(key), _rate(security)) + bytes(message) \
        + right_encode(0 if xof else 8 * outlen)
    return cshake(security, new_x, outlen, b"KMAC", custom)


def tuplehash(security, parts, outlen, custom=b"", xof=False):
    """TupleHash128/256 over a sequence of byte strings, and the XOF forms."""
    z = b"".join(encode_string(p) for p in parts)
    return cshake(security, z + right_encode(0 if xof else 8 * outlen), outlen, b"TupleHash",
                  custom)


def parallelhash(security, message, blocksize, outlen, custom=b"", xof=False):
    """ParallelHash128/256 with blocks of `blocksize` bytes (> 0), each hashed by
    SHAKE128/256 to 2 * security bits; and the XOF forms."""
    if blocksize <= 0:
        raise ValueError("ParallelHash takes a block size above 0")
    n = (len(message) + blocksize - 1) // blocksize
    z = left_encode(blocksize)
    for i in range(n):
        z += shake(security, message[i * blocksize:(i + 1) * blocksize], security // 4)
    z += right_encode(n) + right_encode(0 if xof else 8 * outlen)
    return cshake(security, z, outlen, b"ParallelHash", custom)
