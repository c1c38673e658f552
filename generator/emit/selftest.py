# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The embedded self-test as data: the fixed inputs rs_selftest() feeds every function of a
folder, the answers the Python reference gives for them, and the code that names each failure.

Every input is one byte sequence m(i) = seed[i mod 64] ^ (i / 64 mod 256) over a 64-byte seed
(a constant table in the C file, so the constant-time harness can mark it secret and see
everything derived from it). Short outputs are compared whole; long ones (keystreams, whole
states) through FNV-1a-64, which the C file recomputes. The codes are stable across bundles
and versions: a code only ever names one check.
"""

import functools
import hashlib
from dataclasses import dataclass

from ..model import reference, snp_xn_model, sponge_maths as sponge, vectors

SEED = bytes((0x5A + 37 * i) & 0xFF for i in range(64))
SEED_BYTES = len(SEED)
# The message buffer the C file fills once: every one-shot input and the SnP script's data.
MESSAGE_BYTES = 512
# Short messages: past two blocks of every rate (72..168 bytes), so the block loop runs on
# the kernel, with a partial block after.
SHORT = 300
OUT = 32
# KT128 as a tree: two whole leaves and a partial one, fed in pieces of PIECE bytes.
KT_TREE = 2 * reference.KT_CHUNK + 100
PIECE = 256
KT_CUSTOM = (SHORT, 10)      # offset and length of the customization string in m
# SP 800-185: cSHAKE's function name, KMAC's key, TupleHash's two parts (offset, length in m),
# ParallelHash's block size: eight whole blocks of the short message, one batch of leaves for
# the widest kernel, and a partial one.
SP_NAME = (SHORT + 10, 5)
SP_KEY = (0, 32)
SP_PARTS = ((0, 100), (100, 200))
SP_BLOCK = 37
# ChaCha: key m[0:32], IV m[32:40], RFC 8439 nonce m[40:52], 128-bit key m[40:56]; block
# positions just below a 2^32 boundary, so the 64-bit counter carries inside the wide paths.
CHACHA_POS = (1 << 32) - 3
CHACHA_XOR_TAIL = 37

CODES = {
    "keccak_f1600": 1, "keccak_p1600": 2, "keccak_p1600_absorb": 3, "snp": 4,
    "sha3_224": 10, "sha3_256": 11, "sha3_384": 12, "sha3_512": 13, "keccak256": 14,
    "shake128": 15, "shake256": 16, "turboshake128": 17, "turboshake256": 18,
    "kt128": 19, "kt128_tree": 20, "kt256": 21,
    "cshake128": 22, "cshake256": 23, "kmac128": 24, "kmac256": 25,
    "tuplehash128": 26, "tuplehash256": 27, "parallelhash128": 28, "parallelhash256": 29,
    # the multi-state kernels, by shape (their unroll does not matter)
    "x2-sse2": 50, "x2-avx512vl": 51, "x4-avx2": 52, "x4-avx512vl": 53, "x8-avx512": 54,
    "x2-neon": 55, "x2-sha3": 56, "x2-simd128": 57,
    # ChaCha: 100 + rounds for the keystreams (102..120), then the two xor forms
    "chacha20_xor": 130, "chacha20_ietf_xor": 131,
    # the single-state API as dispatched, then each single-state kernel under its own name
    "single": 30, "single-scalar": 31, "single-bmi2": 32, "single-avx512": 33,
    # the dispatched multi-state functions (keccak_p1600_x<N>) and XKCP's parallel SnP on them
    "x2": 60, "x4": 61, "x8": 62,
    "snp-times2": 64, "snp-times4": 65, "snp-times8": 66,
}
# ChaCha's levels, each called directly (whatever the table chose): the level's base + rounds.
CHACHA_LEVEL_BASE = {"scalar": 200, "sse2": 230, "ssse3": 260, "avx2": 290, "avx512": 320,
                     "neon": 350, "simd128": 380}


def chacha_code(rounds):
    return 100 + rounds


def chacha_level_code(isa, rounds):
    return CHACHA_LEVEL_BASE[isa] + rounds


def m(i):
    return SEED[i % SEED_BYTES] ^ ((i // SEED_BYTES) & 0xFF)


def message(start, length):
    return bytes(m(i) for i in range(start, start + length))


def fnv(data, h=vectors.FNV_OFFSET):
    for b in data:
        h = ((h ^ b) * vectors.FNV_PRIME) & ((1 << 64) - 1)
    return h


@dataclass(frozen=True)
class Check:
    code: int
    name: str       # what rs_selftest_name() answers
    kind: str       # how the C file calls it (the template's branch)
    expected: bytes = b""   # compared whole
    fnv: int = 0            # or through FNV-1a-64
    params: tuple = ()      # kind-specific numbers, as (key, value) pairs
    macro: str = ""         # <NS>SELFTEST_<macro> names the code in roundsmith.h

    @property
    def p(self):
        return dict(self.params)


def _state(start):
    return reference.state_from_bytes(message(start, 200))


def _lane_bytes(states):
    return b"".join(reference.state_to_bytes(s) for s in states)


# The SnP interface driven as XKCP's callers drive it: one script, run by the C file
# line by line and here on a byte model of the state.
SNP_SCRIPT = (
    ("add_bytes", 3, 150, 0),            # offset, length, message offset
    ("add_byte", 0xA5, 199),             # byte, offset
    ("permute", 24),
    ("overwrite_bytes", 10, 20, 7),
    ("permute", 12),
    ("overwrite_zeroes", 9),
    ("permute", 6),
    ("fast_loop", 24, 21, 200, 10),     # rounds, lanes, length, message offset
    ("fast_loop", 12, 17, 300, 3),
    ("extract_and_add", 5, 64, 20),      # offset, length, message offset of the input
    ("extract", 0, 200),
    # XKCP's OD duplexing loops: rounds, lanes, input offset (None: none), length, offset of
    # odataAdd (None: no output); the input-only one stops while more than a block is left.
    ("od", 24, 9, 30, 2 * 72 + 3, 40),
    ("od", 12, 20, None, 165, 50),
    ("od", 24, 13, 60, 2 * 104, None),
    ("od", 12, 5, 70, 2 * 40 + 1, None),
    ("extract", 0, 200),
)
# The trailing lane the OD loops xor in, as the caller's memory holds it.
OD_TRAIL = bytes((0x0B, 0x02, 0, 0, 0, 0, 0, 0x80))


def _run_snp():
    state = bytearray(200)
    out = bytearray()

    def permute(rounds):
        state[:] = reference.state_to_bytes(
            reference.keccak_p1600(reference.state_from_bytes(state), rounds))

    for op in SNP_SCRIPT:
        kind, args = op[0], op[1:]
        if kind == "add_bytes":
            off, n, mo = args
            for k, b in enumerate(message(mo, n)):
                state[off + k] ^= b
        elif kind == "add_byte":
            state[args[1]] ^= args[0]
        elif kind == "permute":
            permute(args[0])
        elif kind == "overwrite_bytes":
            off, n, mo = args
            state[off:off + n] = message(mo, n)
        elif kind == "overwrite_zeroes":
            state[:args[0]] = bytes(args[0])
        elif kind == "fast_loop":
            rounds, lanes, n, mo = args
            data = message(mo, n)
            done = 0
            while n - done >= 8 * lanes:
                for k in range(8 * lanes):
                    state[k] ^= data[done + k]
                permute(rounds)
                done += 8 * lanes
            out += done.to_bytes(8, "little")    # the returned count joins the digest
        elif kind == "extract_and_add":
            off, n, mo = args
            out += bytes(a ^ b for a, b in zip(state[off:off + n], message(mo, n)))
        elif kind == "extract":
            off, n = args
            out += state[off:off + n]
        elif kind == "od":
            rounds, lanes, mi, n, ma = args
            block, done = 8 * lanes, 0
            while (n - done > block) if ma is None else (n - done >= block):
                if mi is None:
                    state[:block] = b"\x01" + bytes(block - 1)
                else:
                    state[:block] = message(mi + done, block)
                for k in range(8):
                    state[block + k] ^= OD_TRAIL[k]
                permute(rounds)
                if ma is not None:
                    out += bytes(a ^ b for a, b in zip(state[:block], message(ma + done, block)))
                done += block
            out += done.to_bytes(8, "little")
    return bytes(out)


def keccak_checks():
    st = _state(0)
    absorb = reference.state_to_bytes(_absorb_model())
    checks = [
        Check(CODES["keccak_f1600"], "keccak_f1600", "f1600",
              fnv=fnv(reference.state_to_bytes(reference.keccak_p1600(st, 24))),
              macro="KECCAK_F1600"),
        Check(CODES["keccak_p1600"], "keccak_p1600", "p1600",
              fnv=fnv(reference.state_to_bytes(reference.keccak_p1600(st, 12))),
              macro="KECCAK_P1600"),
        Check(CODES["keccak_p1600_absorb"], "keccak_p1600_absorb", "absorb", fnv=fnv(absorb),
              macro="KECCAK_P1600_ABSORB"),
        Check(CODES["snp"], "KeccakP1600 (SnP)", "snp", fnv=fnv(_run_snp()), macro="SNP"),
    ]
    msg = message(0, SHORT)
    for f in sponge.HASHES:
        if f.name == "keccak256":
            want = reference.keccak256(msg)
        else:
            bits = int(f.name.split("_")[1])
            want = reference.sha3(bits, msg)
            assert want == hashlib.new(f"sha3_{bits}", msg).digest(), f.name
        checks.append(Check(CODES[f.name], f.name, "hash", expected=want,
                            macro=f.name.upper()))
    for f in sponge.XOFS:
        bits = int(f.name[5:])
        want = reference.shake(bits, msg, OUT)
        assert want == hashlib.new(f"shake_{bits}", msg).digest(OUT), f.name
        checks.append(Check(CODES[f.name], f.name, "xof", expected=want, macro=f.name.upper()))
    for f in sponge.TURBOSHAKES:
        bits = int(f.name[10:])
        checks.append(Check(CODES[f.name], f.name, "turboshake",
                            expected=reference.turboshake(bits, msg, TURBO_DOMAIN, OUT),
                            params=(("domain", TURBO_DOMAIN),), macro=f.name.upper()))
    custom = message(*KT_CUSTOM)
    checks.append(Check(CODES["kt128"], "kt128", "kt128",
                        expected=reference.kt128(msg, custom, OUT), macro="KT128"))
    checks.append(Check(CODES["kt128_tree"], "kt128 (tree, incremental)", "kt128_tree",
                        expected=reference.kt128(message(0, KT_TREE), b"", OUT),
                        params=(("length", KT_TREE), ("piece", PIECE)), macro="KT128_TREE"))
    checks.append(Check(CODES["kt256"], "kt256", "kt256",
                        expected=reference.kt256(msg, custom, OUT), macro="KT256"))
    for bits in (128, 256):
        checks.append(Check(CODES[f"cshake{bits}"], f"cshake{bits}", "cshake",
                            expected=reference.cshake(bits, msg, OUT, message(*SP_NAME), custom),
                            params=(("bits", bits),), macro=f"CSHAKE{bits}"))
        checks.append(Check(CODES[f"kmac{bits}"], f"kmac{bits}", "kmac",
                            expected=reference.kmac(bits, message(*SP_KEY), msg, OUT, custom),
                            params=(("bits", bits),), macro=f"KMAC{bits}"))
        checks.append(Check(CODES[f"tuplehash{bits}"], f"tuplehash{bits}", "tuplehash",
                            expected=reference.tuplehash(bits, [message(*p) for p in SP_PARTS],
                                                         OUT, custom),
                            params=(("bits", bits),), macro=f"TUPLEHASH{bits}"))
        checks.append(Check(CODES[f"parallelhash{bits}"], f"parallelhash{bits}", "parallelhash",
                            expected=reference.parallelhash(bits, msg, SP_BLOCK, OUT, custom),
                            params=(("bits", bits), ("block", SP_BLOCK)),
                            macro=f"PARALLELHASH{bits}"))
    return checks


TURBO_DOMAIN = 0x1F
# keccak_p1600_absorb on a zero state: three blocks and a part at 24 rounds, 21 lanes; then
# two blocks at 12 rounds, 17 lanes (the two round counts its loop keeps in registers).
ABSORB_CALLS = ({"rounds": 24, "lanes": 21, "length": 3 * 168 + 5, "offset": 0},
                {"rounds": 12, "lanes": 17, "length": 2 * 136 + 9, "offset": 5})


def _absorb_model():
    st = [0] * 25
    for call in ABSORB_CALLS:
        data = message(call["offset"], call["length"])
        block = 8 * call["lanes"]
        for off in range(0, call["length"] - block + 1, block):
            for k in range(call["lanes"]):
                st[k] ^= int.from_bytes(data[off + 8 * k:off + 8 * k + 8], "little")
            st = reference.keccak_p1600(st, call["rounds"])
    return st


def whole_blocks(calls):
    """What each block-loop call of `calls` returns: the bytes of its whole blocks."""
    return [c["length"] // (8 * c["lanes"]) * 8 * c["lanes"] for c in calls]


# The fewest blocks the ChaCha checks use as their width: one-block paths still get a run of
# several blocks and a tail.
MIN_CHACHA_WIDTH = 4


def chacha_checks(rounds, width):
    """Keystreams of `width` blocks then width - 1 (every narrower path once, then single
    blocks) from just below 2^32, then one block under a 128-bit key; then both xor forms
    over width - 1 blocks and a partial one."""
    width = max(width, MIN_CHACHA_WIDTH)
    key, iv, nonce, key16 = message(0, 32), message(32, 8), message(40, 12), message(40, 16)
    checks = []
    for r in rounds:
        st = reference.chacha_keysetup(key, iv)
        stream = reference.chacha_keystream(st, CHACHA_POS, 2 * width - 1, r)
        stream += reference.chacha_keystream(reference.chacha_keysetup(key16), 0, 1, r)
        checks.append(Check(chacha_code(r), f"chacha{r}", "chacha", fnv=fnv(stream),
                            params=(("rounds", r),), macro=f"CHACHA{r}"))
    length = 64 * (width - 1) + CHACHA_XOR_TAIL
    if 20 in rounds:
        data = message(0, length)
        checks.append(Check(CODES["chacha20_xor"], "chacha20_xor", "chacha20_xor",
                            fnv=fnv(reference.chacha_xor(data, key, iv, CHACHA_POS + 1)),
                            params=(("length", length),), macro="CHACHA20_XOR"))
        checks.append(Check(CODES["chacha20_ietf_xor"], "chacha20_ietf_xor", "chacha20_ietf",
                            fnv=fnv(reference.chacha20_ietf_xor(data, key, nonce,
                                                                CHACHA_POS + 1)),
                            params=(("length", length),), macro="CHACHA20_IETF_XOR"))
    return checks


# A single-state kernel under its own name (keccak_p1600.c's flavours and vector kernels), or
# the dispatched single-state API: Keccak-f, then Keccak-p at counts whose first rounds leave
# every remainder the unrolled kernels switch on (mod 2 and mod 3), then the absorbing and
# squeezing loops on every branch the kernels take: 24 rounds at the rates they copy with a
# constant (17 and 21 lanes) and at another, 12 rounds, another multiple of 3 and a count
# that is none of these (the plain loop); two blocks or more each, so the step between blocks
# counts.
SINGLE_ROUNDS = (12, 7, 5)
SINGLE_ABSORB = ({"rounds": 24, "lanes": 21, "length": 2 * 168 + 5, "offset": 0},
                 {"rounds": 24, "lanes": 17, "length": 2 * 136 + 3, "offset": 7},
                 {"rounds": 24, "lanes": 9, "length": 3 * 72 + 1, "offset": 11},
                 {"rounds": 12, "lanes": 17, "length": 2 * 136 + 9, "offset": 5},
                 {"rounds": 6, "lanes": 13, "length": 2 * 104 + 2, "offset": 3},
                 {"rounds": 7, "lanes": 9, "length": 2 * 72 + 5, "offset": 1})
SQUEEZE_CALLS = ({"rounds": 24, "lanes": 21, "length": 2 * 168 + 5},
                 {"rounds": 12, "lanes": 17, "length": 2 * 136 + 3},
                 {"rounds": 7, "lanes": 9, "length": 2 * 72 + 1})


@functools.lru_cache(maxsize=None)
def _single_answer():
    st = reference.keccak_p1600(_state(0), 24)
    for r in SINGLE_ROUNDS:
        st = reference.keccak_p1600(st, r)
    for call in SINGLE_ABSORB:
        data = message(call["offset"], call["length"])
        block = 8 * call["lanes"]
        for off in range(0, call["length"] - block + 1, block):
            for k in range(call["lanes"]):
                st[k] ^= int.from_bytes(data[off + 8 * k:off + 8 * k + 8], "little")
            st = reference.keccak_p1600(st, call["rounds"])
    out = reference.state_to_bytes(st)
    for call, n in zip(SQUEEZE_CALLS, whole_blocks(SQUEEZE_CALLS)):
        for _ in range(n // (8 * call["lanes"])):
            st = reference.keccak_p1600(st, call["rounds"])
            out += reference.state_to_bytes(st)[:8 * call["lanes"]]
    return fnv(out + reference.state_to_bytes(st))


def single_check(name=None):
    """The single-state kernel `name` (a scalar flavour or a vector kernel of the bundle) called
    under its own name, or with None the dispatched keccak_p1600 API, through SINGLE_ROUNDS,
    ABSORB_CALLS and SQUEEZE_CALLS."""
    key = "single" if name is None else f"single-{name}"
    label = "keccak_p1600 (single-state API)" if name is None else f"keccak_p1600 ({name} kernel)"
    return Check(CODES[key], label, "single", fnv=_single_answer(),
                 macro="SINGLE" if name is None else "SINGLE_" + name.upper())


# The multi-state script (keccak_p1600_x<N>[_<isa>]): instance j starts from m[200 j ..],
# then 12 rounds in the interleaved layout, all 24 and XN_STATES_ROUNDS in the separate one;
# then the block loops: XN_ABSORB (instance j reads m[offset + stride j ..]) and XN_SQUEEZE
# (instance j writes its own stretch of the output), at the two round counts they keep in
# registers and at another (the plain loop), two blocks each, and one-block squeezes (the
# permutation, then the kernel's own stores).
XN_STATES_ROUNDS = 7
XN_ABSORB = ({"blocks": 2, "lanes": 21, "rounds": 24, "offset": 0, "stride": 8},
             {"blocks": 2, "lanes": 17, "rounds": 12, "offset": 3, "stride": 16},
             {"blocks": 2, "lanes": 9, "rounds": 7, "offset": 5, "stride": 24})
XN_SQUEEZE = ({"blocks": 2, "lanes": 4, "rounds": 24}, {"blocks": 2, "lanes": 3, "rounds": 12},
              {"blocks": 2, "lanes": 2, "rounds": 7}, {"blocks": 1, "lanes": 21, "rounds": 24},
              {"blocks": 1, "lanes": 18, "rounds": 12})
XN_OUT = max(c["blocks"] * 8 * c["lanes"] for c in XN_SQUEEZE)
# Then, in a kernel under its own name, its fresh-sponge writes (_start): a partial lane after
# whole ones with the padding, a message shorter than a lane, and whole lanes unpadded.
XN_START = ({"offset": 0, "stride": 40, "length": 34, "lanes": 21, "domain": 0x1F},
            {"offset": 7, "stride": 3, "length": 5, "lanes": 17, "domain": 0x06},
            {"offset": 11, "stride": 9, "length": 136, "lanes": 18, "domain": 0})


def _interleaved(states, n):
    return b"".join(states[j][i].to_bytes(8, "little") for i in range(25) for j in range(n))


@functools.lru_cache(maxsize=None)
def _xn_answer(n, start=False):
    states = [reference.keccak_p1600(reference.keccak_p1600(_state(200 * j), 12), 24)
              for j in range(n)]
    states = [reference.keccak_p1600(s, XN_STATES_ROUNDS) for s in states]
    out = _lane_bytes(states)
    for call in XN_ABSORB:
        step = 8 * call["lanes"]
        for b in range(call["blocks"]):
            for j in range(n):
                data = message(call["offset"] + call["stride"] * j + b * step, step)
                for k in range(call["lanes"]):
                    states[j][k] ^= int.from_bytes(data[8 * k:8 * k + 8], "little")
                states[j] = reference.keccak_p1600(states[j], call["rounds"])
    for call in XN_SQUEEZE:
        outs = [b""] * n
        for b in range(call["blocks"]):
            for j in range(n):
                states[j] = reference.keccak_p1600(states[j], call["rounds"])
                outs[j] += reference.state_to_bytes(states[j])[:8 * call["lanes"]]
        out += b"".join(outs)
    for call in XN_START if start else ():
        for j in range(n):
            block = bytearray(200)
            block[:call["length"]] = message(call["offset"] + call["stride"] * j, call["length"])
            if call["domain"]:
                block[call["length"]] ^= call["domain"]
                block[8 * call["lanes"] - 1] ^= 0x80
            states[j] = reference.state_from_bytes(bytes(block))
        out += _interleaved(states, n)
    # The interleaved layout, lane by lane.
    out += _interleaved(states, n)
    return fnv(out)


def leaf_check(spec, n):
    """A multi-state kernel under its own name (keccak_p1600_x<N>_<isa>), through the
    multi-state script."""
    shape = spec.split("-")[0] + "-" + spec.split("-")[-1]
    return Check(CODES[shape], f"keccak_p1600_x{n} ({shape})", "leaf", fnv=_xn_answer(n, True),
                 params=(("n", n),), macro="KECCAK_" + shape.upper().replace("-", "_"))


def xn_check(n):
    """The dispatched keccak_p1600_x<N> functions (whichever kernel the table takes for N),
    through the multi-state script."""
    return Check(CODES[f"x{n}"], f"keccak_p1600_x{n} (dispatched)", "leaf", fnv=_xn_answer(n),
                 params=(("n", n),), macro=f"KECCAK_P1600_X{n}")


# XKCP's parallel SnP (KeccakP1600times<N>_*), one script on N instances. Per-instance steps
# take instance j's data at m[offset + stride j]; *LanesAll steps read or write instance j's
# lanes at 8 * laneOffset * j; the fast loops run one through the kernel's own block loop
# (laneOffsetSerial == laneCount) and one block by block.
SNP_XN_SCRIPT = (
    ("add_bytes", 0, 7, 3, 150),            # offset, stride, state offset (+ j), length
    ("add_byte", 0xA5, 199),                # byte ^ j at 199 - j
    ("add_lanes_all", 0, 5, 4),             # offset, laneCount, laneOffset
    ("permute", 24),
    ("overwrite_bytes", 0, 11, 10, 20),
    ("overwrite_zeroes", 9),                # 9 + j bytes
    ("permute", 12),
    ("fast_loop", 24, 21, 2, 21, 0, 450),   # rounds, laneCount, parallel, serial, offset, length
    ("fast_loop", 12, 17, 3, 19, 5, 475),
    ("permute", 6),
    ("overwrite_lanes_all", 100, 2, 3),
    ("permute", 4),
    ("extract_lanes_all", 3, 3),            # laneCount, laneOffset
    ("extract_and_add_lanes_all", 50, 2, 2),
    ("extract_and_add_bytes", 0, 1, 5, 64),  # offset, stride, state offset, length
    ("extract_bytes", 0, 200),
)
SNP_XN_OUT = 200


def snp_xn_span(n, lane_count, lane_offset):
    """The bytes an *LanesAll call reads or writes on n instances."""
    return 8 * (lane_offset * (n - 1) + lane_count)


@functools.lru_cache(maxsize=None)
def _snp_xn_answer(n):
    """SNP_XN_SCRIPT on the model of XKCP's parallel SnP (model/snp_xn_model.py)."""
    st, out = snp_xn_model.States(n), bytearray()
    for kind, *args in SNP_XN_SCRIPT:
        if kind in ("add_bytes", "overwrite_bytes", "extract_and_add_bytes"):
            off, stride, pos, length = args
            for j in range(n):
                data = message(off + stride * j, length)
                if kind == "add_bytes":
                    st.add_bytes(j, data, pos + j, length)
                elif kind == "overwrite_bytes":
                    st.overwrite_bytes(j, data, pos, length)
                else:
                    out += st.extract_and_add_bytes(j, data, pos, length)
        elif kind == "add_byte":
            for j in range(n):
                st.add_byte(j, args[0] ^ j, args[1] - j)
        elif kind in ("add_lanes_all", "overwrite_lanes_all"):
            off, count, offset = args
            st.add_lanes_all(message(off, snp_xn_span(n, count, offset)), count, offset,
                             overwrite=kind == "overwrite_lanes_all")
        elif kind == "permute":
            st.permute(args[0])
        elif kind == "overwrite_zeroes":
            for j in range(n):
                st.overwrite_with_zeroes(j, args[0] + j)
        elif kind == "fast_loop":
            rounds, lanes, par, ser, off, length = args
            done = st.fast_loop(rounds, lanes, par, ser, message(off, length), length)
            out += done.to_bytes(8, "little")
        elif kind in ("extract_lanes_all", "extract_and_add_lanes_all"):
            off, (count, offset) = (None, args) if kind == "extract_lanes_all" else (
                args[0], args[1:])
            buf = bytearray(snp_xn_span(n, count, offset))
            st.extract_lanes_all(buf, count, offset,
                                 add=None if off is None else message(off, len(buf)))
            out += buf
        elif kind == "extract_bytes":
            pos, length = args
            for j in range(n):
                out += st.extract_bytes(j, pos, length)
    return fnv(bytes(out))


def snp_xn_check(n):
    """XKCP's KeccakP1600times<N> SnP through SNP_XN_SCRIPT."""
    return Check(CODES[f"snp-times{n}"], f"KeccakP1600times{n} (SnP)", "snp_xn",
                 fnv=_snp_xn_answer(n), params=(("n", n),), macro=f"SNP_TIMES{n}")


def chacha_level_calls(widths, rows, n):
    """The kernel calls a level function makes for n blocks, as chacha.c.j2 writes it: the
    widest path while it fills, each narrower one at most once, then the row paths (sets,
    above: n > above takes them, given the blocks left) or single blocks (their count, up to
    the narrowest path's width less one)."""
    calls = []
    for k, w in enumerate(widths):
        while n >= w:
            calls.append(("x", w))
            n -= w
            if k:
                break
    if rows:
        for sets, above in reversed(rows):
            if n > above:
                calls.append(("rows", sets, n))
                break
    elif n:
        calls.append(("blocks", min(n, widths[-1] - 1 if widths else 1)))
    return calls


def chacha_block_counts(shapes):
    """The block counts that reach every call every shape of a level makes (each path, each
    row path at each count of blocks it may be left, each tail of single blocks): for every
    such call the fewest blocks that make it. `shapes`: the level's kernels.chacha_level_shapes
    entries, one per compiler branch of chacha.c."""
    first = {}
    for shape in shapes:
        widths, rows = shape["widths"], shape["rows"]
        top = sum(widths) + (widths[-1] if widths else 1) + 4 * len(rows) + 1
        for n in range(1, top + 1):
            for call in chacha_level_calls(widths, rows, n):
                first.setdefault((shape["widths"], shape["rows"], call), n)
    return tuple(sorted(set(first.values())))


def chacha_level_checks(isa, rounds, counts):
    """ChaCha level `isa` called directly, at every round count: one call per block count of
    `counts`, each from CHACHA_POS (so each path of four blocks or more carries the counter
    across 2^32 inside it); at the last round count also the xor form with RFC 8439's 32-bit
    counter (its 32-bit wrap inside the paths, the nonce in word 13 untouched)."""
    key, iv, nonce = message(0, 32), message(32, 8), message(40, 12)
    st = reference.chacha_keysetup(key, iv)
    checks = []
    for r in rounds:
        stream = b"".join(reference.chacha_keystream(st, CHACHA_POS, c, r) for c in counts)
        xor = r == rounds[-1]
        if xor:
            stream += b"".join(reference.chacha20_ietf_xor(message(0, 64 * c), key, nonce,
                                                            CHACHA_POS, r) for c in counts)
        checks.append(Check(chacha_level_code(isa, r), f"chacha{r} ({isa} level)",
                            "chacha_level", fnv=fnv(stream),
                            params=(("isa", isa), ("rounds", r), ("xor", xor)),
                            macro=f"CHACHA{r}_{isa.upper()}"))
    return checks


def _message_uses():
    """Every (offset, length) the C file reads from its message buffer."""
    uses = [(0, SHORT), KT_CUSTOM, (0, 56), SP_NAME, SP_KEY, *SP_PARTS]
    uses += [(c["offset"], c["length"]) for c in ABSORB_CALLS + SINGLE_ABSORB]
    uses += [(c["offset"] + 7 * c["stride"], c["blocks"] * 8 * c["lanes"]) for c in XN_ABSORB]
    uses += [(c["offset"] + 7 * c["stride"], c["length"]) for c in XN_START]
    for op in SNP_XN_SCRIPT:
        if op[0] in ("add_bytes", "overwrite_bytes", "extract_and_add_bytes"):
            uses.append((op[1] + 7 * op[2], op[4]))
        elif op[0] in ("add_lanes_all", "overwrite_lanes_all", "extract_and_add_lanes_all"):
            uses.append((op[1], snp_xn_span(8, op[2], op[3])))
        elif op[0] == "fast_loop":
            uses.append((op[5], op[6]))
    for op in SNP_SCRIPT:
        if op[0] in ("add_bytes", "overwrite_bytes", "extract_and_add"):
            uses.append((op[3], op[2]))
        elif op[0] == "fast_loop":
            uses.append((op[4], op[3]))
        elif op[0] == "od":
            uses += [(o, op[4]) for o in (op[3], op[5]) if o is not None]
    return uses


assert all(o + n <= MESSAGE_BYTES for o, n in _message_uses()), "MESSAGE_BYTES too small"
