# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`python3 -m generator prove --api` on planted bugs of the byte layer (the sponge's, ChaCha's
API): each caught with a counterexample whose C reproduction, compiled against the buggy
folder, crashes under AddressSanitizer or differs from the standard's bytes (hashlib's, or
generator/model/reference.py's RFC 8439), and, for a mismatch, compiled against out/portable
gives the standard's bytes."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests.e2e_prove import PY, planted_copy, prove  # noqa: E402

# name, file, text, replacement, function, what the counterexample's kind is
BUGS = [
    # XKCP's CVE-2022-37454: a partial block's length computed in 32 bits (one byte, then
    # 4 GiB + a block): the update writes past the state
    ("32-bit partial-block length", "keccak_sponge.c",
     "        if (take > len)\n            take = len;\n        rs_xor_bytes",
     "        if ((uint32_t)len + ctx->pos <= ctx->rate)\n            take = len;\n"
     "        rs_xor_bytes", "sha3_256_update", "oob"),
    # an off-by-one when a block fills: the block is permuted one byte late
    ("off-by-one at a full block", "keccak_sponge.c",
     "        if (ctx->pos < ctx->rate)\n            return;",
     "        if (ctx->pos + 1 < ctx->rate)\n            return;", "sha3_256_update", "mismatch"),
    # a squeeze that skips a byte at a block boundary: each new block is read from byte 1
    ("squeeze skips a byte per block", "keccak_sponge.c",
     "            keccak_p1600(ctx->state, ctx->rounds);\n            ctx->pos = 0;\n        }\n"
     "        take = ctx->rate - ctx->pos;",
     "            keccak_p1600(ctx->state, ctx->rounds);\n            ctx->pos = 1;\n        }\n"
     "        take = ctx->rate - ctx->pos;", "sha3_256_final", "mismatch"),
    # a wrong domain byte for one function (SHA3-256's incremental form pads as Keccak-256)
    ("wrong domain byte", "keccak_sponge.c", "rs_sponge_init(ctx, 136, 24, 0x06);",
     "rs_sponge_init(ctx, 136, 24, 0x01);", "sha3_256_init", "mismatch"),
    # a wrong length prefix in SP 800-185's encodings: left_encode's and right_encode's byte
    # count one too many (KMAC's init encodes the rate, "KMAC" and the key)
    ("SP 800-185 length prefix", "keccak_sponge.c",
     "out[right ? n : 0] = (uint8_t)n;",
     "out[right ? n : 0] = (uint8_t)(n + 1);", "kmac128_init", "mismatch"),
    # a lost carry between ChaCha's counter words: the whole blocks' high word stays the
    # state's word 13 instead of following the 64-bit counter past 2^32
    ("lost carry between ChaCha's counter words", "chacha.c",
     "rs_chacha20_block(st, (uint32_t)pos, wide ? (uint32_t)(pos >> 32) : st[13], in, out);",
     "rs_chacha20_block(st, (uint32_t)pos, st[13], in, out);", "chacha20_xor", "mismatch"),
    # a multi-buffer init zeroing one state, as the single-state init does: the other
    # streams start from whatever the context held. Tests whose contexts are static or
    # calloc'ed (zero already) pass.
    ("multi-buffer init zeroing one stream's state", "keccak_sponge.c",
     "memset(st, 0, 25 * sizeof *st * rs_mb_lanes(n, rs_mb_width[mb->kernel]));",
     "memset(st, 0, 25 * sizeof *st);", "shake128_x2_init", "mismatch"),
    # every multi-buffer stream absorbing the first stream's input: each stream's own state
    # then holds another's message
    ("multi-buffer stream reading another's input", "keccak_sponge.c",
     "        p[j] = in[j < n ? j : 0];\n    if (mb->pos) {",
     "        p[j] = in[0];\n    if (mb->pos) {", "shake128_x2_absorb", "mismatch"),
    # a multi-buffer squeeze padding every stream at the first stream's lanes: stream 1 is
    # never padded, and stream 0 gets the domain byte and pad10*1's last bit twice
    ("multi-buffer padding at another stream's lanes", "keccak_sponge.c",
     "            lane = rs_mb_lane(st, w, j);\n", "            lane = rs_mb_lane(st, w, 0);\n",
     "shake128_x2_squeeze", "mismatch"),
    # XKCP's SnP AddBytes with its unaligned head loop one byte off: it stops at a position
    # of 7 mod 8, and the lane loop then xors whole lanes one byte out of place
    ("SnP's head loop off by one", "keccak_snp.c",
     "    for (; len && (pos & 7); len--, pos++, in++)\n        state[pos >> 3] ^=",
     "    for (; len && ((pos + 1) & 7); len--, pos++, in++)\n        state[pos >> 3] ^=",
     "KeccakP1600_AddBytes", "mismatch"),
]


class SharedAcrossFolders(unittest.TestCase):
    """`prove --api` over several folders proves a function's text once: a later folder's
    function whose definitions read alike takes the earlier proof (and says so), one whose
    text differs is proven again, and a bug there is caught."""

    def test_same_text_shared_and_changed_text_proven(self):
        call = "void chacha8_keysetup(struct chacha8_ctx *x, const uint8_t *k,\n" \
               "                     uint32_t kbits, const uint8_t *iv)\n{\n" \
               "    rs_keysetup(x->input, k, kbits, iv);"
        with tempfile.TemporaryDirectory() as tmp:
            d = planted_copy(tmp, "x86_64", "chacha.c", call,
                             call.replace("k, kbits, iv", "k, 128, iv"), 1)
            # and in the file's other compiler branch (gcc's is the second)
            with open(os.path.join(d, "chacha.c")) as fh:
                src = fh.read()
            self.assertEqual(src.count(call), 1)
            with open(os.path.join(d, "chacha.c"), "w") as fh:
                fh.write(src.replace(call, call.replace("k, kbits, iv", "k, 128, iv")))
            r = prove("--api", os.path.join("out", "portable"), d, "--function",
                      "chacha8_keysetup,chacha12_keysetup", "--config", "gcc-x86_64")
        self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
        lines = {(m.group(2), m.group(3)): (m.group(1), l) for l in r.stdout.splitlines()
                 for m in [re.match(r"^(\w[\w ]*?) +(\S+): (\w+) ", l)] if m}
        self.assertEqual(lines[("out/portable", "chacha8_keysetup")][0], "proved", r.stdout)
        self.assertNotIn("the same text", lines[("out/portable", "chacha12_keysetup")][1])
        status, line = lines[(d, "chacha12_keysetup")]
        self.assertEqual(status, "proved", r.stdout)
        self.assertIn("the same text as out/portable [gcc-x86_64]: one proof", line)
        status, line = lines[(d, "chacha8_keysetup")]
        self.assertEqual(status, "counterexample", r.stdout)
        self.assertNotIn("the same text", line)


    # The digests of functions of chacha.c in two folders, under gcc-x86_64, by the
    # interpreter that has the prover's packages.
    DIGESTS = (
        "import sys\n"
        "from generator.prove import api_closure, cfront\n"
        "cfg = cfront.CONFIGS['gcc-x86_64']\n"
        "for folder in sys.argv[1:3]:\n"
        "    unit = cfront.load(folder + '/chacha.c', cfg)\n"
        "    print(' '.join(api_closure.digest(unit, f, False) for f in sys.argv[3:]))\n")

    def test_the_digest_reads_globals_and_types_the_function_reaches(self):
        base = os.path.join(ROOT, "out", "portable")
        edits = {"rs_sigma": ("0x61707865U", "0x61707866U"),
                 "chacha.h": ("    uint32_t input[16];\n};", "    uint32_t input[17];\n};")}
        for what, (text, repl) in edits.items():
            with self.subTest(changed=what), tempfile.TemporaryDirectory() as tmp:
                d = shutil.copytree(base, os.path.join(tmp, "portable"))
                f = os.path.join(d, "chacha.h" if what == "chacha.h" else "chacha.c")
                with open(f) as fh:
                    src = fh.read()
                self.assertIn(text, src)
                with open(f, "w") as fh:
                    fh.write(src.replace(text, repl, 1))
                if PY is None:
                    prove()     # skips with the reason
                r = subprocess.run([PY, "-c", self.DIGESTS, base, d, "chacha8_keysetup",
                                    "chacha_level"], cwd=ROOT, capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr[-2000:])
                (key_a, level_a), (key_b, level_b) = [l.split() for l in
                                                      r.stdout.strip().splitlines()]
                self.assertNotEqual(key_a, key_b)
                # a function that reaches neither keeps its digest
                if what == "rs_sigma":
                    self.assertEqual(level_a, level_b)


# The classes `prove --api` covers today, by the name's shape: each of their lines must say
# `proved`; every other line `not supported` with its reason, never a counterexample.
COVERED = re.compile(r"(sha3_\d+|keccak256|shake\d+|turboshake\d+)(_init|_update|_final|"
                     r"_absorb|_squeeze)?|chacha.*|(cshake|kmac|tuplehash)\d+_\w+|(cshake|kmac|kmacxof)\d+")


# TurboSHAKE's one-shots: a squeeze of any length and a caller's domain byte together.
SLOW = ("turboshake128", "turboshake256")


class ApiBundles(unittest.TestCase):
    """The committed out/portable's public functions, by `prove --api` under gcc-x86_64
    (over an hour of one core, measured class by class: the sponge and ChaCha about 11
    minutes, SnP about 20, SP 800-185 about 26, the multi-buffer API's 2 and 4 streams
    about 22, its 8 streams more: run by hand, not in `ninja test`)."""

    def test_portable(self):
        r = prove("--api", "out/portable", "--config", "gcc-x86_64")
        lines = [l for l in r.stdout.splitlines() if re.match(r"^(proved|not supported|"
                                                               r"counterexample)\s", l)]
        self.assertGreater(len(lines), 200, r.stdout[-2000:] + r.stderr[-2000:])
        covered = 0
        for l in lines:
            status, name = re.match(r"^(proved|not supported|counterexample)\s+\S+: (\w+)",
                                    l).groups()
            if COVERED.fullmatch(name):
                covered += 1
                if name in SLOW and status == "not supported":
                    # measured: proved in 135-622 s, or z3's 300 s limit on one query when
                    # the machine is loaded (z3's limits are wall-clock time)
                    self.assertIn("z3 gave up", l)
                    continue
                self.assertEqual(status, "proved", l)
            elif status == "not supported":
                self.assertRegex(l, r"not supported  .*: \S+.*: \S", l)
            else:
                self.assertEqual(status, "proved", l)
        self.assertEqual(covered, 73, r.stdout[-3000:])


class ApiPlantedBugs(unittest.TestCase):
    def test_each_is_caught(self):
        for name, fname, text, repl, fn, kind in BUGS:
            with self.subTest(bug=name), tempfile.TemporaryDirectory() as tmp:
                d = planted_copy(tmp, "portable", fname, text, repl, 1)
                r = prove("--api", d, "--function", fn, "--config", "gcc-x86_64")
                self.assertEqual(r.returncode, 1, r.stdout[-2000:] + r.stderr[-2000:])
                self.assertRegex(r.stdout, rf"counterexample .*: {fn} .*{kind}")
                src = "\n".join(l[6:] for l in r.stdout.splitlines() if l.startswith("      "))
                c = os.path.join(tmp, "repro.c")
                with open(c, "w") as fh:
                    fh.write(src)
                if not shutil.which("gcc"):
                    continue
                run = self.build_and_run(tmp, c, d, "buggy")
                self.assertNotEqual(run.returncode, 0, run.stdout + run.stderr[-1500:])
                if kind == "oob":
                    self.assertTrue(re.search(r"AddressSanitizer: \S*overflow", run.stderr),
                                    run.stderr[-1500:])
                else:
                    # the buggy folder's bytes differ from the standard's, the right one's not
                    self.assertIn("differs from the standard", run.stdout)
                    right = self.build_and_run(tmp, c, os.path.join(ROOT, "out", "portable"),
                                               "right")
                    self.assertEqual(right.returncode, 0, right.stdout + right.stderr[-1500:])
                    self.assertIn("the same as the standard", right.stdout)

    def build_and_run(self, tmp, c, d, tag):
        exe = os.path.join(tmp, f"repro-{tag}.exe")
        b = subprocess.run(["gcc", "-g", "-fsanitize=address", "-I" + d, c] +
                           [os.path.join(d, x) for x in sorted(os.listdir(d))
                            if x.endswith(".c")] + ["-o", exe],
                           capture_output=True, text=True)
        self.assertEqual(b.returncode, 0, b.stderr[-2000:])
        return subprocess.run([exe], capture_output=True, text=True)


if __name__ == "__main__":
    unittest.main()
