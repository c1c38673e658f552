# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The ChaCha model, the Python reference and the generator's ChaCha output.

Run from the repository root: python3 -m unittest discover -s tests
"""

import contextlib
import io
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from generator import __main__ as cli  # noqa: E402
from generator.model import chacha_maths as chacha, reference, vectors  # noqa: E402,E501
from generator.emit import kernels, render, vendor  # noqa: E402,E501
from generator.choice import targets, variants  # noqa: E402,E501
from generator.errors import UsageError  # noqa: E402

MASK32 = (1 << 32) - 1


def run_ops(ops, x):
    """Execute a model operation list on a 16-word state, whatever the rotation method."""
    x = list(x)
    for op in ops:
        if op.kind == "add":
            x[op.dst] = (x[op.dst] + x[op.src]) & MASK32
        elif op.kind == "xor":
            x[op.dst] ^= x[op.src]
        elif op.method == "shuffle":
            data = x[op.dst].to_bytes(4, "little")
            idx = chacha.byte_shuffle(op.amount)[:4]
            x[op.dst] = int.from_bytes(bytes(data[i] for i in idx), "little")
        elif op.method == "rev":
            # NEON REV32 on 16-bit elements: the two halves of each word swap places.
            assert op.amount == 16, op
            x[op.dst] = (x[op.dst] & 0xFFFF) << 16 | x[op.dst] >> 16
        else:
            x[op.dst] = reference.rol32(x[op.dst], op.amount)
    return x


class ReferenceTest(unittest.TestCase):
    def test_official_records(self):
        records = vectors.chacha_records(vectors.default_dir())
        self.assertEqual(len(records), 7)
        for r in records:
            state = reference.chacha_keysetup(r["key"], r["iv"])
            self.assertEqual(reference.chacha_keystream(state, r["counter"], 1, r["rounds"]),
                             r["block"], r)

    def test_rfc8439_encryption(self):
        # RFC 8439 section 2.4.2
        plain = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one "
                 b"tip for the future, sunscreen would be it.")
        cipher = reference.chacha20_ietf_xor(plain, bytes(range(32)),
                                             bytes.fromhex("000000000000004a00000000"), 1)
        self.assertEqual(cipher[:16].hex(), "6e2e359a2568f98041ba0728dd0d6981")
        self.assertEqual(cipher[-16:].hex(), "0bbf74a35be6b40b8eedf2785e42874d")

    def test_counter_wraps_at_2_64(self):
        state = reference.chacha_keysetup(bytes(32))
        both = reference.chacha_keystream(state, (1 << 64) - 1, 2, 8)
        self.assertEqual(both[64:], reference.chacha_keystream(state, 0, 1, 8))


class ModelTest(unittest.TestCase):
    def test_sets_cover_every_word_once(self):
        for sets in (chacha.columns(), chacha.diagonals()):
            self.assertEqual(sorted(w for s in sets for w in s), list(range(16)))
        self.assertEqual(chacha.diagonals()[1], (1, 6, 11, 12))

    def test_every_schedule_and_strategy_is_a_double_round(self):
        rng = random.Random(1)
        for schedule in chacha.SCHEDULES:
            for strategy in chacha.STRATEGIES:
                ops = chacha.double_round(schedule, strategy)
                self.assertEqual(len(ops), 96)
                state = [rng.getrandbits(32) for _ in range(16)]
                for rounds in (2, 8, 20):
                    x = state
                    for _ in range(rounds // 2):
                        x = run_ops(ops, x)
                    got = b"".join(((a + b) & MASK32).to_bytes(4, "little")
                                   for a, b in zip(x, state))
                    self.assertEqual(got, reference.chacha_block(state, rounds),
                                     (schedule, strategy, rounds))

    def test_schedules_differ_only_in_order(self):
        base = sorted(map(repr, chacha.double_round("seq")))
        for schedule in chacha.SCHEDULES:
            self.assertEqual(sorted(map(repr, chacha.double_round(schedule))), base)
        step = chacha.half_round(chacha.columns(), "step")
        self.assertEqual([op.kind for op in step[:4]], ["add"] * 4)

    def test_uniform_split_is_exact(self):
        # Scalar part once, then the vector part per lane, must equal the whole double round
        # for lanes that differ only in the counter words.
        rng = random.Random(2)
        for schedule in chacha.SCHEDULES:
            ops = chacha.double_round(schedule, "vprold")
            scalar, vector = chacha.split_uniform(ops)
            self.assertEqual(len(scalar) + len(vector), len(ops))
            self.assertGreaterEqual(len(scalar), 24)
            base = [rng.getrandbits(32) for _ in range(16)]
            shared = run_ops(scalar, base)
            for _ in range(8):
                lane = list(base)
                lane[12], lane[13] = rng.getrandbits(32), rng.getrandbits(32)
                start = list(shared)
                start[12], start[13] = lane[12], lane[13]
                self.assertEqual(run_ops(vector, start), run_ops(ops, lane), schedule)

    def test_byte_shuffle_only_whole_bytes(self):
        self.assertEqual(chacha.byte_shuffle(16)[:4], (2, 3, 0, 1))
        self.assertEqual(chacha.byte_shuffle(8)[:4], (3, 0, 1, 2))
        with self.assertRaises(ValueError):
            chacha.byte_shuffle(12)

    def test_neon_is_aarch64s(self):
        # AArch64 gets the NEON path by default (REV32 for 16, TBL for 8, SHL+SRI for 12, 7);
        # an x86 target refuses it, and the cross subset runs each of its rotations.
        a64 = targets.CROSS_TARGETS["aarch64"]
        self.assertEqual(targets.default_chacha(a64, "gcc").name, "chacha-x4-step-tbl-neon")
        self.assertEqual(chacha.STRATEGIES["tbl"], {16: "rev", 12: "shift", 8: "shuffle",
                                                     7: "shift"})
        with self.assertRaises(UsageError):
            variants.chacha_from_options(targets.TARGETS["x86_64"], targets.default_chacha(
                targets.TARGETS["x86_64"], "gcc"), isa="neon")
        self.assertEqual({(v.isa, v.rotate) for v in variants.chacha_cross_space(a64)},
                         {("scalar", "shift"), ("neon", "shift"), ("neon", "tbl")})
        self.assertEqual([v.isa for v in variants.chacha_cross_space(
            targets.CROSS_TARGETS["s390x"])], ["scalar"])

    def test_round_counts(self):
        for bad in (0, 1, 7, 22, -2):
            with self.assertRaises(ValueError):
                chacha.check_rounds(bad)
        self.assertEqual(variants.parse_chacha_rounds("2,8,20"), (2, 8, 20))
        with self.assertRaises(UsageError):
            variants.parse_chacha_rounds("9")


class GeneratorTest(unittest.TestCase):
    def sources(self, **kw):
        v = variants.ChachaVariant(**kw)
        return kernels.chacha_sources(render.environment(), v, "", "cmd", targets.TARGETS["x86_64"])

    def test_deterministic(self):
        self.assertEqual(self.sources(), self.sources())

    def test_names(self):
        v = variants.ChachaVariant(isa="avx512", schedule="step", rotate="vprold")
        self.assertEqual(v.name_for(8), "chacha8-x16-step-vprold-avx512")
        self.assertEqual(v.ident, "chacha_x16_step_vprold_avx512")

    def test_impossible_combinations(self):
        with self.assertRaises(UsageError):
            variants.ChachaVariant(isa="sse2", rotate="pshufb")
        with self.assertRaises(UsageError):
            variants.ChachaVariant(isa="avx2", rotate="vprold")
        with self.assertRaises(UsageError):
            variants.ChachaVariant(schedule="zigzag")

    def test_one_block_schedule(self):
        vector = self.sources(isa="avx512", schedule="seq")["chacha.c"]
        self.assertIn("one_block_schedule = step", vector)
        scalar = self.sources(isa="scalar", schedule="seq", rotate="shift")["chacha.c"]
        self.assertIn("one_block_schedule = seq", scalar)

    def test_any_even_round_count_generates(self):
        c = self.sources(rounds=(2, 6))["chacha.c"]
        self.assertIn("chacha2_get_keystream", c)
        self.assertNotIn("chacha20_ietf_xor", c)

    def test_space(self):
        names = [v.name for v in variants.chacha_space(targets.TARGETS["x86_64"],
                                                       {"x86-target-attr"})]
        self.assertEqual(len(names), 36)
        self.assertEqual(len(set(names)), 36)
        scalar_only = variants.chacha_space(targets.TARGETS["x86_64"], set())
        self.assertEqual({v.isa for v in scalar_only}, {"scalar"})

    def test_cli_errors_are_one_line_exit_2(self):
        with tempfile.TemporaryDirectory() as d:
            for argv in (["generate", "--out", d, "--chacha-rounds", "7"],
                         ["generate", "--out", d, "--chacha-isa", "neon"],
                         ["generate", "--out", d, "--chacha-isa", "sse2",
                          "--chacha-rotate", "vprold"],
                         ["generate", "--out", d, "--kernels", "chacha,aes"]):
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    self.assertEqual(cli.main(argv), 2, argv)
                self.assertEqual(err.getvalue().count("\n"), 1, err.getvalue())

    def test_cli_generates_both_families(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "out")
            with contextlib.redirect_stdout(io.StringIO()):
                self.assertEqual(cli.main(["generate", "--out", out, "--target", "x86_64",
                                           "--prefix", "rs_"]), 0)
            self.assertEqual(sorted(os.listdir(out)), sorted(
                kernels.CHACHA_FILES + kernels.KECCAK_FILES + kernels.SPONGE_FILES
                + vendor.names("rs_") + ("roundsmith.manifest",)))
            with open(os.path.join(out, "chacha.h")) as f:
                self.assertIn("struct rs_chacha8_ctx", f.read())


if __name__ == "__main__":
    unittest.main()
