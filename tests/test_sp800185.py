# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The reference's KT256 and NIST SP 800-185 functions, written from the standards' text:
against the published values (tests/vectors/sp800185.txt), against hashlib (cSHAKE with empty
strings is SHAKE), and against Debian's python3-pycryptodome, which has cSHAKE (its 3.11 has
no KMAC, TupleHash, ParallelHash or KT256). Also the encodings at lengths far above 4 GiB,
which need no memory."""

import hashlib
import json
import os
import random
import subprocess
import sys
import unittest

from generator.model import reference, vectors

SYSTEM_PYTHON = "/usr/bin/python3"
# The reference is pure Python: the published KT256 messages of 17^5 and 17^6 bytes are left to
# the C suites, which check every published value.
MAX_REFERENCE_BYTES = 100_000


class Encodings(unittest.TestCase):
    def test_left_and_right_encode_by_the_standard(self):
        self.assertEqual(reference.left_encode(0), b"\x01\x00")
        self.assertEqual(reference.right_encode(0), b"\x00\x01")
        self.assertEqual(reference.left_encode(168), b"\x01\xa8")
        self.assertEqual(reference.left_encode(256), b"\x02\x01\x00")
        self.assertEqual(reference.right_encode(256), b"\x01\x00\x02")
        self.assertEqual(reference.encode_string(b""), b"\x01\x00")
        self.assertEqual(reference.encode_string(b"KMAC"), b"\x01\x20KMAC")

    def test_lengths_above_4_gib(self):
        """A byte count past 2^32 as bits needs five or more bytes; 2^64 - 1 bytes as bits is
        67 bits, nine bytes: the C side's widest encoding (sponge.ENCODE_MAX)."""
        four_gib = 1 << 32
        self.assertEqual(reference.left_encode(8 * (four_gib + 1)), b"\x05\x08\x00\x00\x00\x08")
        self.assertEqual(reference.right_encode(8 * four_gib), b"\x08\x00\x00\x00\x00\x05")
        big = 8 * ((1 << 64) - 1)
        self.assertEqual(reference.left_encode(big), b"\x09\x07" + b"\xff" * 7 + b"\xf8")
        self.assertEqual(reference.right_encode(big), b"\x07" + b"\xff" * 7 + b"\xf8\x09")
        from generator.model import sponge_maths as sponge
        self.assertEqual(len(reference.left_encode(big)), sponge.ENCODE_MAX)
        self.assertEqual(reference.left_encode((1 << 2040) - 1)[0], 255)
        with self.assertRaises(ValueError):
            reference.left_encode(1 << 2040)
        with self.assertRaises(ValueError):
            reference.right_encode(-1)

    def test_bytepad(self):
        self.assertEqual(reference.bytepad(b"ab", 4), b"\x01\x04ab")
        self.assertEqual(reference.bytepad(b"abc", 4), b"\x01\x04abc\x00\x00\x00")
        with self.assertRaises(ValueError):
            reference.bytepad(b"", 0)

    def test_parallelhash_refuses_block_size_0(self):
        with self.assertRaises(ValueError):
            reference.parallelhash(128, b"abc", 0, 32)


class Published(unittest.TestCase):
    def test_every_published_value(self):
        cases = vectors.sp800185_published(vectors.default_dir())
        self.assertEqual(len(cases), 58)
        checked = 0
        for c in cases:
            if len(vectors.message_bytes(c["message"])) + len(
                    vectors.message_bytes(c["custom"])) > MAX_REFERENCE_BYTES:
                continue
            got = vectors.sp800185_expected(c)[c["check_from"]:]
            self.assertEqual(got, c["expected"], c["source"])
            checked += 1
        self.assertGreaterEqual(checked, 54)

    def test_every_function_has_a_published_value(self):
        have = {c["function"] for c in vectors.sp800185_published(vectors.default_dir())}
        self.assertEqual(have, set(vectors.SP_FUNCTIONS))


class AgainstHashlib(unittest.TestCase):
    def test_cshake_with_empty_strings_is_shake(self):
        rng = random.Random(185)
        for length in (0, 1, 135, 136, 167, 168, 169, 500):
            msg = bytes(rng.getrandbits(8) for _ in range(length))
            self.assertEqual(reference.cshake(128, msg, 77), hashlib.shake_128(msg).digest(77))
            self.assertEqual(reference.cshake(256, msg, 77), hashlib.shake_256(msg).digest(77))

    def test_parallelhash_leaves_are_shake(self):
        """ParallelHash rebuilt from hashlib's SHAKE leaves and the reference's cSHAKE."""
        msg = bytes(range(256)) * 5
        for bits, block in ((128, 100), (256, 136)):
            z = reference.left_encode(block)
            n = -(-len(msg) // block)
            for i in range(n):
                leaf = msg[i * block:(i + 1) * block]
                z += (hashlib.shake_128 if bits == 128 else hashlib.shake_256)(leaf).digest(
                    bits // 4)
            z += reference.right_encode(n) + reference.right_encode(8 * 40)
            self.assertEqual(reference.parallelhash(bits, msg, block, 40),
                             reference.cshake(bits, z, 40, b"ParallelHash"))


# Run by /usr/bin/python3 when the interpreter running the tests lacks pycryptodome.
_PYCRYPTODOME = r"""
import json, sys
try:
    from Cryptodome.Hash import cSHAKE128, cSHAKE256   # Debian's python3-pycryptodome
except ImportError:
    from Crypto.Hash import cSHAKE128, cSHAKE256
out = []
for bits, data, name, custom, n in json.load(sys.stdin):
    h = (cSHAKE128 if bits == 128 else cSHAKE256).new(data=bytes.fromhex(data),
        custom=bytes.fromhex(custom))
    assert name == ""   # pycryptodome 3.11 takes S only; N is empty
    out.append(h.read(n).hex())
print(json.dumps(out))
"""


class AgainstPycryptodome(unittest.TestCase):
    def test_cshake(self):
        rng = random.Random(800)
        jobs = []
        for bits in (128, 256):
            for length in (0, 3, 135, 136, 168, 400):
                # Up to 31 bytes: Debian's 3.11 left-encodes lengths of 256 bits and more with
                # their bytes in the wrong order (fixed in later releases), so its cSHAKE
                # differs from the standard's sample values' definition there.
                for custom_len in (0, 1, 20, 31):
                    jobs.append((bits, bytes(rng.getrandbits(8) for _ in range(length)),
                                 bytes(rng.getrandbits(8) for _ in range(custom_len)),
                                 rng.choice((1, 32, 200))))
        payload = json.dumps([(b, d.hex(), "", c.hex(), n) for b, d, c, n in jobs])
        python = sys.executable
        for module in ("Cryptodome.Hash.cSHAKE128", "Crypto.Hash.cSHAKE128"):
            try:
                __import__(module)
                break
            except ImportError:
                python = SYSTEM_PYTHON
        try:
            r = subprocess.run([python, "-c", _PYCRYPTODOME], input=payload, text=True,
                               capture_output=True, timeout=120)
        except OSError:
            r = None
        if r is None or r.returncode:
            self.skipTest("python3-pycryptodome not installed for /usr/bin/python3 "
                          "(apt-get install -y python3-pycryptodome)")
        theirs = json.loads(r.stdout)
        for (bits, data, custom, n), want in zip(jobs, theirs):
            self.assertEqual(reference.cshake(bits, data, n, b"", custom).hex(), want,
                             f"cSHAKE{bits} len {len(data)} S {len(custom)}")


class ComputedCases(unittest.TestCase):
    def test_deterministic_and_wide(self):
        a = vectors.sp800185_computed()
        self.assertEqual(a, vectors.sp800185_computed.__wrapped__())
        functions = {c["function"] for c in a}
        self.assertEqual(functions, set(vectors.SP_FUNCTIONS))
        self.assertTrue(any(c["blocksize"] > 1 << 32 for c in a), "a block size above 4 GiB")
        self.assertTrue(any(c["function"].startswith("tuplehash") and not c["parts"] for c in a))
        for c in a:
            if c["function"].startswith("tuplehash"):
                self.assertEqual(sum(c["parts"]), len(vectors.message_bytes(c["message"])))


if __name__ == "__main__":
    unittest.main()
