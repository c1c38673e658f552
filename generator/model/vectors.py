# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Test vectors: the official files parsed, plus vectors computed by the Python reference.

One source for every test: templates embed what this module returns, nothing else.
"""

import functools
import os
import random
import re

from . import keccak_maths as keccak, reference, sponge_maths as sponge
from ..errors import UsageError

# The one seed of every computed vector, so generated tests are byte-identical on every run.
SEED = 0x726F756E64736D74  # "roundsmt"


def default_dir():
    """tests/vectors/ of this checkout: the official files (their sources in its README.md)
    and the ones only the repository carries (turboshake.txt, sp800185.txt)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(root, "tests", "vectors")


def _read(vectors_dir, name):
    path = os.path.join(vectors_dir, name)
    try:
        with open(path, encoding="ascii") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read test vectors {path}: {e.strerror}; "
                         "pass --vectors DIR (the folder with the official vector files)")


def _lane_block(lines, start):
    """Five lines of five hex lanes, printed row y by row y, starting at lines[start]."""
    words = " ".join(lines[start:start + 5]).split()
    return [int(w, 16) for w in words]


def keccak_intermediate(vectors_dir):
    """Parse KeccakF-1600-IntermediateValues.txt.

    Returns (round_constants, rho_offsets, examples); each example is a dict with 'input', a
    list of 24 rounds each a dict step -> state, and 'output'.
    """
    text = _read(vectors_dir, "KeccakF-1600-IntermediateValues.txt")
    rc = [int(v, 16) for _, v in sorted(
        (int(i), v) for i, v in re.findall(r"RC\[(\d+)\]\[0\]\[0\] = ([0-9A-F]+)", text))]
    rho = [0] * 25
    for x, y, v in re.findall(r"RhoOffset\[(\d)\]\[(\d)\] =\s*(\d+)", text):
        rho[keccak.index(int(x), int(y))] = int(v)
    lines = text.splitlines()
    examples = []
    current = None
    for n, line in enumerate(lines):
        if line.startswith("Same, with lanes as 64-bit words:"):
            current = {"input": _lane_block(lines, n + 1), "rounds": []}
            examples.append(current)
        elif line.startswith("--- Round "):
            current["rounds"].append({})
        elif line.startswith("After ") and current is not None:
            step = line[len("After "):].rstrip(":")
            current["rounds"][-1][step] = _lane_block(lines, n + 1)
        elif line.startswith("State after permutation:"):
            current["output"] = reference.state_from_bytes(bytes.fromhex(lines[n + 1]))
    return rc, rho, examples


def random_states(count, rng):
    return [[rng.getrandbits(64) for _ in range(25)] for _ in range(count)]


@functools.lru_cache(maxsize=None)  # pure: seeded, and read-only to callers
def keccak_cases(vectors_dir, random_count=64):
    """(name, rounds, input, expected) rows for the permutation tests.

    Official: the zero state after one and two permutations. Computed: 12-round outputs, every
    round count 0..24 (so every entry point of an unrolled loop is taken), and random states.
    """
    _, _, examples = keccak_intermediate(vectors_dir)
    rng = random.Random(SEED)
    cases = []
    for n, ex in enumerate(examples):
        cases.append((f"official zero state, permutation {n + 1}", 24, ex["input"], ex["output"]))
    zero = [0] * 25
    cases.append(("zero state, 12 rounds", 12, zero, reference.keccak_p1600(zero, 12)))
    for rounds in range(keccak.MAX_ROUNDS + 1):
        state = random_states(1, rng)[0]
        cases.append((f"random state, {rounds} rounds", rounds, state,
                      reference.keccak_p1600(state, rounds)))
    for i, state in enumerate(random_states(random_count, rng)):
        rounds = 24 if i % 2 == 0 else 12
        cases.append((f"random state {i}, {rounds} rounds", rounds, state,
                      reference.keccak_p1600(state, rounds)))
    return cases


def chacha_records(vectors_dir):
    """Parse chacha.txt: dicts with rounds, key, iv, counter, block (bytes or ints)."""
    text = _read(vectors_dir, "chacha.txt")
    records, current = [], {}
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = (part.strip() for part in line.partition("="))
        if not sep or key not in ("rounds", "key", "iv", "counter", "block"):
            raise UsageError(f"chacha.txt line {n}: cannot read '{line}'")
        if key == "rounds" and current:
            records.append(current)
            current = {}
        current[key] = int(value) if key in ("rounds", "counter") else bytes.fromhex(value)
    if current:
        records.append(current)
    for r in records:
        if set(r) != {"rounds", "key", "iv", "counter", "block"} or len(r["block"]) != 64:
            raise UsageError(f"chacha.txt: incomplete record {r}")
    return records


FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data):
    """The digest the C tests recompute over a whole keystream, so long expected outputs need
    not be embedded byte by byte."""
    h = FNV_OFFSET
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & ((1 << 64) - 1)
    return h


def xor_input(length):
    """The plaintext of the xor cases, recomputed by the C tests: byte i is (131 i + 7) mod 256."""
    return bytes((131 * i + 7) & 0xFF for i in range(length))


def _positions(rng, n_blocks):
    """Block positions that cross the 2^32 carry and the 2^64 wrap inside the call, or not."""
    k = rng.randrange(1, n_blocks + 2)
    return (rng.getrandbits(64), (1 << 32) - k, (1 << 64) - k, 0, (rng.getrandbits(32) << 32) - k,
            rng.getrandbits(32))


@functools.lru_cache(maxsize=None)  # pure: seeded, and read-only to callers
def chacha_stream_cases(rounds_list=(8, 12, 20), max_blocks=70):
    """Keystream calls for every round count and block count 0..max_blocks, checked by digest.

    Rows: (rounds, key, iv or None, pos, n_blocks, fnv1a64 of the output, its first block).
    """
    rng = random.Random(SEED ^ 0xC4AC4A)
    cases = []
    for rounds in rounds_list:
        for n in range(max_blocks + 1):
            key = rng.randbytes(32 if (n + rounds) % 3 else 16)
            iv = None if n % 7 == 3 else rng.randbytes(8)
            pos = _positions(rng, n)[n % 6]
            state = reference.chacha_keysetup(key, iv)
            out = reference.chacha_keystream(state, pos, n, rounds)
            cases.append((rounds, key, iv, pos, n, fnv1a64(out), out[:64].ljust(64, b"\0")))
    return cases


@functools.lru_cache(maxsize=None)  # pure: seeded, and read-only to callers
def chacha_xor_cases(count=48):
    """xor calls, RFC 8439 (ietf = True: 32-bit counter, 12-byte nonce) and the original 64-bit
    counter layout: lengths across block boundaries and counters at their wrap points.

    Rows: (ietf, key, nonce (12 or 8 bytes), counter, length, fnv1a64 of the output).
    """
    rng = random.Random(SEED ^ 0x8439)
    lengths = [0, 1, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024,
               1025, 4095, 4097]
    cases = []
    for i in range(count):
        ietf = i % 2 == 0
        length = lengths[i // 2] if i // 2 < len(lengths) else rng.randrange(1, 5000)
        key = rng.randbytes(32)
        blocks = (length + 63) // 64
        if ietf:
            nonce = rng.randbytes(12)
            counter = ((1 << 32) - rng.randrange(1, blocks + 2)) if i % 4 == 0 else \
                rng.getrandbits(32)
            out = reference.chacha20_ietf_xor(xor_input(length), key, nonce, counter)
        else:
            nonce = rng.randbytes(8)
            counter = rng.choice([(1 << 64) - rng.randrange(1, blocks + 2),
                                  (1 << 32) - rng.randrange(1, blocks + 2), rng.getrandbits(64)])
            out = reference.chacha_xor(xor_input(length), key, nonce, counter)
        cases.append((ietf, key, nonce, counter, length, fnv1a64(out)))
    return cases


# --- sponge functions ---------------------------------------------------------------------

FIPS202_KATS = (("sha3_224", "ShortMsgKAT_SHA3-224.txt", "MD"),
                ("sha3_256", "ShortMsgKAT_SHA3-256.txt", "MD"),
                ("sha3_384", "ShortMsgKAT_SHA3-384.txt", "MD"),
                ("sha3_512", "ShortMsgKAT_SHA3-512.txt", "MD"),
                ("shake128", "ShortMsgKAT_SHAKE128.txt", "Squeezed"),
                ("shake256", "ShortMsgKAT_SHAKE256.txt", "Squeezed"))


def _case(function, message, expected, outlen=None, domain=0, custom=None, check_from=0,
          source=""):
    """One sponge test case. `message` and `custom` are ('hex', bytes), ('ptn', n) or
    ('ff', n): the C side rebuilds patterns rather than embedding megabytes."""
    return {"function": function, "message": message, "custom": custom or ("hex", b""),
            "domain": domain, "outlen": outlen if outlen is not None else len(expected),
            "check_from": check_from, "expected": expected, "source": source}


def fips202_cases(vectors_dir):
    """The byte-aligned entries (Len % 8 == 0) of the NIST-format known answers."""
    cases = []
    for function, name, key in FIPS202_KATS:
        text = _read(vectors_dir, name)
        for bits, msg, out in re.findall(
                rf"Len = (\d+)\s*\nMsg = ([0-9A-Fa-f]*)\s*\n{key} = ([0-9A-Fa-f]+)", text):
            if int(bits) % 8:
                continue
            data = bytes.fromhex(msg)[:int(bits) // 8]
            cases.append(_case(function, ("hex", data), bytes.fromhex(out),
                               source=f"{name} Len={bits}"))
    return cases


def _message_spec(text):
    """'empty', 'pattern 0x00 to 0xFA for 17^2 bytes', '3 times byte 0xFF'."""
    text = text.strip()
    if text == "empty":
        return ("hex", b"")
    m = re.fullmatch(r"pattern 0x00 to 0xFA for (\d+)\^(\d+) bytes", text)
    if m:
        return ("ptn", int(m.group(1)) ** int(m.group(2)))
    m = re.fullmatch(r"(\d+) times byte 0xFF", text)
    if m:
        return ("ff", int(m.group(1)))
    raise ValueError(f"unknown message description: {text}")


def kt128_cases(vectors_dir):
    text = _read(vectors_dir, "KangarooTwelve.txt")
    cases = []
    for head, out in re.findall(r"^(KangarooTwelve\(.*\):)\s*\n([0-9a-f ]+)$", text, re.M):
        m = re.match(r"KangarooTwelve\(M=(.*), C=(.*), (\d+) bytes\)(, last 32 bytes)?:", head)
        expected = bytes.fromhex(out)
        outlen = int(m.group(3))
        cases.append(_case("kt128", _message_spec(m.group(1)), expected, outlen=outlen,
                           custom=_message_spec(m.group(2)),
                           check_from=outlen - 32 if m.group(4) else 0,
                           source="KangarooTwelve.txt " + head))
    return cases


def turboshake_cases(path):
    with open(path, encoding="ascii") as f:
        text = f.read()
    cases = []
    for record in text.split("\n\n"):
        fields = dict(re.findall(r"^(\w+) = ?(.*)$", record, re.M))
        if "function" not in fields:
            continue
        msg = fields["message"].strip()
        message = ("ptn", int(msg[4:-1])) if msg.startswith("ptn(") else ("hex",
                                                                             bytes.fromhex(msg))
        outlen = int(fields["length"])
        last = fields.get("last32")
        expected = bytes.fromhex(last or fields["output"])
        cases.append(_case(fields["function"].lower(), message, expected, outlen=outlen,
                           domain=int(fields["D"], 16), check_from=outlen - 32 if last else 0,
                           source=f"RFC 9861 {fields['function']} {msg or 'empty'} "
                                  f"D={fields['D']}"))
    return cases


def message_bytes(spec):
    kind, value = spec
    if kind == "hex":
        return value
    if kind == "ptn":
        return reference.ptn(value)
    return b"\xff" * value


@functools.lru_cache(maxsize=None)  # pure: seeded, and read-only to callers
def random_sponge_cases(count_per_function=24, max_len=2000):
    """Random lengths 0..max_len for every function, expected values from hashlib where it
    has the function and from the reference otherwise (itself checked against hashlib)."""
    import hashlib
    rng = random.Random(SEED ^ 0x5F0)
    lib = {"sha3_224": lambda m, n: hashlib.sha3_224(m).digest(),
           "sha3_256": lambda m, n: hashlib.sha3_256(m).digest(),
           "sha3_384": lambda m, n: hashlib.sha3_384(m).digest(),
           "sha3_512": lambda m, n: hashlib.sha3_512(m).digest(),
           "shake128": lambda m, n: hashlib.shake_128(m).digest(n),
           "shake256": lambda m, n: hashlib.shake_256(m).digest(n),
           "keccak256": lambda m, n: reference.keccak256(m),
           "turboshake128": None, "turboshake256": None, "kt128": None}
    cases = []
    for function, fn in lib.items():
        for i in range(count_per_function):
            length = rng.randrange(max_len + 1) if i else 0
            msg = bytes(rng.getrandbits(8) for _ in range(length))
            outlen = rng.choice((32, 64, 168, 200, 500))
            domain = 0
            custom = b""
            if function.startswith("turboshake"):
                domain = rng.randrange(1, 0x80)
                out = reference.turboshake(int(function[-3:]), msg, domain, outlen)
            elif function == "kt128":
                custom = bytes(rng.getrandbits(8) for _ in range(rng.randrange(40)))
                out = reference.kt128(msg, custom, outlen)
            else:
                out = fn(msg, outlen)
            cases.append(_case(function, ("hex", msg), out, domain=domain,
                               custom=("hex", custom), source=f"random {function} #{i}"))
    # KangarooTwelve across the chunk boundary and several leaves, where the tree starts.
    for length in (8191, 8192, 8193, 8192 + 8192, 8 * 8192 + 5, 9 * 8192 + 1):
        msg = reference.ptn(length)
        cases.append(_case("kt128", ("ptn", length), reference.kt128(msg, b"", 32),
                           source=f"kt128 tree edge {length}"))
    return cases


def sponge_cases(vectors_dir, extra_dir):
    return (fips202_cases(vectors_dir) + kt128_cases(vectors_dir)
            + turboshake_cases(os.path.join(extra_dir, "turboshake.txt"))
            + random_sponge_cases())


@functools.lru_cache(maxsize=None)  # pure: seeded, and read-only to callers
def keccak_multi_cases(instances=8):
    """(rounds, inputs, outputs) for every round count 0..24: `instances` independent random
    states each, so every lane of every x-N kernel sees different data."""
    rng = random.Random(SEED ^ instances)
    cases = []
    for rounds in range(keccak.MAX_ROUNDS, -1, -1):
        ins = random_states(instances, rng)
        cases.append((rounds, ins, [reference.keccak_p1600(s, rounds) for s in ins]))
    return cases


# --- multi-buffer sponges ------------------------------------------------------------------

MB_LANES = max(sponge.MULTI_BUFFER_WIDTHS)


def mb_lane_message(length, lane):
    """Lane `lane`'s message: RFC 9861's ptn shifted per lane, so no two lanes agree and the
    C side rebuilds it from (length, lane)."""
    return bytes((k % 251 + 37 * lane) & 0xFF for k in range(length))


@functools.lru_cache(maxsize=None)  # pure: seeded, and read-only to callers
def multi_buffer_cases():
    """Every multi-buffer function at the block edges (0 .. 3 blocks and one past) and at a few
    random lengths: the outputs of all MB_LANES lanes (a width N checks the first N). Expected
    bytes from hashlib where it has the function, from the reference otherwise; the reference
    is cross-checked against hashlib on every case hashlib has."""
    import hashlib
    rng = random.Random(SEED ^ 0x16)
    lib = {"sha3_224": hashlib.sha3_224, "sha3_256": hashlib.sha3_256,
           "sha3_384": hashlib.sha3_384, "sha3_512": hashlib.sha3_512,
           "shake128": hashlib.shake_128, "shake256": hashlib.shake_256}
    cases = []
    for f in sponge.HASHES + sponge.XOFS + sponge.TURBOSHAKES:
        r = f.rate
        lengths = sorted({0, 1, 8, r - 1, r, r + 1, 2 * r - 1, 2 * r, 2 * r + 1, 3 * r - 1,
                          3 * r, 3 * r + 1} | {rng.randrange(4 * r) for _ in range(3)})
        for i, length in enumerate(lengths):
            outlen = f.digest or (32, r, r + 1, 2 * r + 13, 3 * r, 0)[i % 6]
            domain = f.domain or (0x1F, 0x01, 0x7F, 0x0B, rng.randrange(1, 0x80))[i % 5]
            out = []
            for lane in range(MB_LANES):
                msg = mb_lane_message(length, lane)
                ref = reference.sponge(r, domain, msg, outlen, rounds=f.rounds)
                if f.name in lib:
                    h = lib[f.name](msg)
                    lib_out = h.digest(outlen) if not f.digest else h.digest()
                    if lib_out != ref:
                        raise AssertionError(f"reference and hashlib disagree: {f.name}")
                out.append(ref.hex())
            cases.append({"function": f.name, "length": length, "outlen": outlen,
                          "domain": domain, "expected": out,
                          "source": f"{f.name} {length} bytes x {MB_LANES} lanes"})
    return cases


# --- KT256 and NIST SP 800-185 ---------------------------------------------------------------

# The C names, in the order of the C side's enum.
SP_FUNCTIONS = ("kt256",) + tuple(
    f"{fn}{b}" for fn in ("cshake", "kmac", "kmacxof", "tuplehash", "tuplehashxof",
                          "parallelhash", "parallelhashxof") for b in (128, 256))


def _sp_string(text):
    """A field of tests/vectors/sp800185.txt: "ASCII", hex, ptn(n) or empty, as a message
    spec."""
    text = text.strip()
    if text.startswith('"'):
        return ("hex", text[1:-1].encode("ascii"))
    if text.startswith("ptn("):
        return ("ptn", int(text[4:-1]))
    return ("hex", bytes.fromhex(text))


def _sp_case(function, message=("hex", b""), key=("hex", b""), custom=("hex", b""),
             blocksize=0, parts=(), outlen=32, expected=b"", check_from=0, source=""):
    """One KT256 / SP 800-185 case: `key` is KMAC's key or cSHAKE's function name N; a
    TupleHash message is its parts, concatenated, with `parts` their lengths."""
    return {"function": function, "message": message, "key": key, "custom": custom,
            "blocksize": blocksize, "parts": tuple(parts), "outlen": outlen,
            "check_from": check_from, "expected": expected, "source": source}


def sp800185_published(extra_dir):
    """The published values of tests/vectors/sp800185.txt."""
    with open(os.path.join(extra_dir, "sp800185.txt"), encoding="ascii") as f:
        text = f.read()
    cases = []
    for record in text.split("\n\n"):
        fields = dict((k, v.strip()) for k, v in re.findall(r"^(\w+) = ?(.*)$", record, re.M))
        if "function" not in fields:
            continue
        function = fields["function"].lower()
        message, parts = ("hex", b""), ()
        raw = fields.get("X", fields.get("M", ""))
        if "|" in raw:
            chunks = [bytes.fromhex(p.strip()) for p in raw.split("|")]
            message, parts = ("hex", b"".join(chunks)), tuple(len(c) for c in chunks)
        elif raw:
            message = _sp_string(raw)
        elif function.startswith("tuplehash"):
            raise ValueError("a TupleHash record needs its parts")
        outlen = int(fields["L"])
        last = int(fields.get("last", 0))
        key = _sp_string(fields.get("K", fields.get("N", "")))
        cases.append(_sp_case(function, message, key,
                              _sp_string(fields.get("S", fields.get("C", ""))),
                              int(fields.get("B", 0)), parts, outlen,
                              bytes.fromhex(fields["output"]), outlen - last if last else 0,
                              fields["source"]))
    return cases


def sp800185_expected(case):
    """The reference's answer for a case (all of it; the caller compares from check_from)."""
    f = case["function"]
    msg, key, custom = (message_bytes(case[k]) for k in ("message", "key", "custom"))
    bits = int(f[-3:]) if f != "kt256" else 256
    xof = "xof" in f
    n = case["outlen"]
    if f == "kt256":
        return reference.kt256(msg, custom, n)
    if f.startswith("cshake"):
        return reference.cshake(bits, msg, n, key, custom)
    if f.startswith("kmac"):
        return reference.kmac(bits, key, msg, n, custom, xof)
    if f.startswith("tuplehash"):
        parts, at = [], 0
        for length in case["parts"]:
            parts.append(msg[at:at + length])
            at += length
        return reference.tuplehash(bits, parts, n, custom, xof)
    return reference.parallelhash(bits, msg, case["blocksize"], n, custom, xof)


@functools.lru_cache(maxsize=None)  # pure: seeded, and read-only to callers
def sp800185_computed():
    """Computed cases: random lengths of every field, the KT256 tree edges, ParallelHash block
    sizes around the rates and the batch of leaves, a block size above 4 GiB (its left_encode
    carries five bytes; no memory needed), and TupleHash tuples of 0..5 parts."""
    rng = random.Random(SEED ^ 0x800185)
    cases = []

    def rnd(n):
        return ("hex", bytes(rng.getrandbits(8) for _ in range(n)))

    for f in SP_FUNCTIONS:
        for i in range(6):
            length = rng.randrange(600) if i else 0
            outlen = rng.choice((1, 16, 32, 64, 137, 169, 300))
            c = _sp_case(f, rnd(length), rnd(rng.randrange(0, 200) if i > 1 else 0),
                         rnd(rng.randrange(0, 180) if i > 2 else 0), outlen=outlen,
                         source=f"random {f} #{i}")
            if f.startswith("parallelhash"):
                c["blocksize"] = rng.choice((1, 7, 8, 135, 136, 137, 168, 169, 256))
            if f.startswith("tuplehash"):
                k = rng.randrange(6)
                cuts = sorted(rng.randrange(length + 1) for _ in range(k - 1)) if k else []
                c["parts"] = tuple(b - a for a, b in zip([0] + cuts, cuts + [length])) if k \
                    else ()
                if not k:
                    c["message"] = ("hex", b"")
            if f.startswith("cshake") and i == 1:
                c["key"] = ("hex", b"")   # N empty, S empty: SHAKE
                c["custom"] = ("hex", b"")
            cases.append(c)
    for length in (8191, 8192, 8193, 2 * 8192, 8 * 8192 + 5, 9 * 8192 + 1):
        cases.append(_sp_case("kt256", ("ptn", length), outlen=64,
                              source=f"kt256 tree edge {length}"))
    for bits in (128, 256):
        for blocksize, length in ((8192, 17 * 8192 + 100), (1000, 9 * 1000), (136, 8 * 136 + 1),
                                  (1, 20), ((1 << 32) + 5, 300)):
            cases.append(_sp_case(f"parallelhash{bits}", ("ptn", length), custom=rnd(5),
                                  blocksize=blocksize, outlen=bits // 4,
                                  source=f"parallelhash{bits} B={blocksize} len={length}"))
        cases.append(_sp_case(f"parallelhashxof{bits}", ("ptn", 3 * 8192), blocksize=8192,
                              outlen=1000, source=f"parallelhashxof{bits} 1000 bytes out"))
    for c in cases:
        c["expected"] = sp800185_expected(c)
    return cases


def sp800185_cases(extra_dir):
    return sp800185_published(extra_dir) + list(sp800185_computed())
