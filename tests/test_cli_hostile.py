# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Thousands of random and hostile argument lists against every generator subcommand.

Each must end in exit 0 or 2, print at most one line on stderr when it refuses, never a
traceback, and change no file outside the output it asked for. The lists mix valid options and
values (from the same tables the parsers use) with hostile ones: unknown and abbreviated
options, missing values, empty strings, huge and negative numbers, non-ASCII text, and paths
that are files, folders the user owns, unwritable, nonexistent, too long or full of spaces.
Run in-process (a subprocess per list would take minutes), with a fixed seed and a time
budget; the closing line says how many lists ran and what they got.
"""

import contextlib
import io
import os
import random
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generator import __main__ as cli_main  # noqa: E402
from generator.choice import targets, variants  # noqa: E402

SEED = 20261201
# A fixed number of lists from a fixed seed, not a time budget: the same lists on every run,
# however loaded the machine (about 30 s on the 2-core VM).
LISTS = 800

HOSTILE = ["", " ", "-", "--", "-1", "0", "99999999999999999999999999", "1e9", "0x18", "nan",
           "\u00e9t\u00e9", "\u202etxt", "a b", "a\nb", "on,off", ",", ",,", "x" * 300,
           "--out", "--help", "=", "'", '"', "$HOME", "*", "../..", "%s%n", "\\"]
PATHS = ["user", "user/main.c", "a file.txt", "with space/out", "/proc/roundsmith/out",
         "/proc/roundsmith", "/nonexistent-roundsmith/x", "x" * 300, "outs/../user", ".", "/",
         "", "user/sub"]
VALID = {
    "--target": ["host"] + list(targets.TARGETS),
    "--cc-id": ["gcc", "clang", "tcc", "other"],
    "--unroll": [str(u) for u in variants.KECCAK_UNROLLS],
    "--lane-complement": list(variants.ON_OFF),
    "--rotate": list(variants.ROTATIONS),
    "--parity": list(variants.PARITIES),
    "--lanes": list(variants.LANE_LAYOUTS),
    "--isa": ["scalar", "x86asm", "avx512", "sha3"],
    "--multi": ["x8-avx512", "x4-avx2", "x2-u3-sse2", "x2-neon", "x2-sha3", "x4-u24-avx512vl"],
    "--kernels": ["keccak", "chacha", "keccak,chacha"],
    "--chacha-isa": list(variants.CHACHA_ISAS),
    "--chacha-schedule": ["seq", "step", "pair"],
    "--chacha-rotate": ["shift", "pshufb", "vprold", "tbl", "shuffle"],
    "--chacha-states": ["1", "2"],
    "--chacha-rounds": ["8", "8,12,20", "20,8", "2"],
    "--prefix": ["p_", "my_", "x", "_x"],
    "--caps": ["", "intrin-avx2", "gnu-asm-x86-64,asm-bmi2,intrin-sse2,intrin-avx2,"
                                   "intrin-avx512,x86-target-attr"],
    "--only": ["chacha", "simd"],
    "--select": ["x4", "avx512"],
    "--simd-subset": ["quick"],
    "--chacha-subset": ["quick"],
    "--scalar-space": ["all", "cross"],
    "--rounds": ["0", "12", "24"],
    "--state": ["00" * 200, "ff" * 200],
    "--vectors": [os.path.join(ROOT, "tests", "vectors")],
    "--cc": ["gcc", "clang", "gcc,clang", "tcc", "icc"],
    "--turns": ["1", "3", "0", "10001"],
    "--xkcp": ["none", "/nonexistent-roundsmith"],
    "--keep": ["outs/keep", "user"],
    "--bench": ["/bin/true", "/bin/echo", "/bin/false", "a file.txt", "user", "/nonexistent"],
    "--bench-simd": ["/bin/true", "a file.txt"],
    "--bench-chacha": ["/bin/echo", "user"],
    "--cc-version": ["12.2.0", ""],
    "--cflags": ["-O2", "-O3 -march=native"],
}
FLAGS = ("--force", "--amalgamate", "--canonical", "--help", "--quick", "--xkcp-all",
         "--profiles", "--sponge")
OUTPUT_OPTIONS = ("--out", "--root", "--keep", "--tsv", "--plot")
# bench sweeps a comma-separated list of each shape option: lists of valid values, and the
# bad ones (an empty item, a value twice, an unknown value among good ones).
LISTED = ("--unroll", "--rotate", "--lane-complement", "--parity", "--isa", "--multi",
          "--chacha-isa", "--chacha-states")
# The subcommands and the options each takes; testsuite always asks for its quick subset, so
# a valid list costs a second, not a minute.
COMMANDS = {
    "generate": ["--target", "--cc-id", "--unroll", "--lane-complement", "--rotate", "--parity",
                 "--lanes", "--isa", "--multi", "--kernels", "--chacha-isa", "--chacha-schedule",
                 "--chacha-rotate", "--chacha-states", "--chacha-rounds", "--prefix", "--out",
                 "--force"],
    "bundle": ["--target", "--cc-id", "--prefix", "--amalgamate", "--out", "--canonical",
               "--root", "--force"],
    "check": ["--root"],
    "testsuite": ["--target", "--caps", "--cc-id", "--vectors", "--only", "--select",
                  "--simd-subset", "--chacha-subset", "--scalar-space", "--out"],
    "describe": [],
    "permute": ["--rounds", "--state"],
    "list": ["--target", "--caps"],
    # A bench list always ends with a target it refuses to run (bench runs what it builds on
    # this machine), after checking every other option: a real race costs a minute.
    "bench": ["--unroll", "--rotate", "--lane-complement", "--parity", "--isa", "--multi",
              "--kernels", "--chacha-isa", "--chacha-states", "--cc", "--rounds", "--turns",
              "--xkcp", "--xkcp-all", "--keep", "--sponge", "--tsv", "--plot"],
    # tune and report get programs and files that are not what they want, never real ones.
    "tune": ["--bench", "--bench-simd", "--bench-chacha", "--cc-id", "--cc-version",
             "--cflags", "--target", "--caps", "--quick"],
    "report": ["--out", "--profiles"],
}
# How often each comes up: valid testsuite and bundle lists cost about a second each.
WEIGHTS = {"generate": 30, "bundle": 8, "check": 6, "testsuite": 4, "describe": 8,
           "permute": 10, "list": 14, "bench": 8, "tune": 6, "report": 6}
BUNDLE_TARGETS = list(targets.BUNDLES) + ["generic64", "s390x"]


def value_for(rng, flag, command):
    if command == "bench" and flag in LISTED and rng.random() < 0.5:
        good = VALID[flag]
        items = rng.sample(good, rng.randrange(1, min(4, len(good)) + 1))
        roll = rng.random()
        if roll < 0.15:
            items.append(items[0])                       # a value twice
        elif roll < 0.3:
            items.insert(rng.randrange(len(items) + 1), "")  # an empty item
        elif roll < 0.45:
            items.append(rng.choice(HOSTILE))
        return ",".join(items)
    if rng.random() < 0.35:
        return rng.choice(HOSTILE + PATHS)
    if flag in ("--tsv", "--plot"):
        return f"outs/{rng.randrange(6)}" + rng.choice([".tsv", ".svg", ".png", ".pdf", ""])
    if flag in OUTPUT_OPTIONS:
        return f"outs/{rng.randrange(6)}"
    if flag == "--target" and command == "bundle":
        return rng.choice(BUNDLE_TARGETS)
    return rng.choice(VALID.get(flag, HOSTILE))


def argument_list(rng):
    roll = rng.random()
    if roll < 0.03:
        return rng.sample(HOSTILE, rng.randrange(3))
    command = rng.choices(list(COMMANDS), weights=[WEIGHTS[c] for c in COMMANDS])[0]
    argv = [command if roll > 0.06 else command[:3]]
    if command == "testsuite":
        argv += ["--subset", "quick", "--only", "chacha"]
    if command == "describe":
        argv.append(rng.choice(PATHS + ["outs/0", "outs/1"]))
    if command == "list":
        argv.append(rng.choice(["targets", "variants", "", "vari"]))
    if command == "report":
        argv += rng.sample(["gcc-keccak.tsv", "clang-chacha.tsv", "gcc-blake3.tsv", "a file.txt",
                            "user", "/nonexistent.tsv", "empty-keccak.tsv"], rng.randrange(3))
    if command in ("generate", "testsuite") or (command == "bundle" and rng.random() < 0.8):
        if rng.random() < 0.9:
            argv += ["--out", value_for(rng, "--out", command)]
    for _ in range(rng.randrange(5)):
        kind = rng.random()
        flag = rng.choice(COMMANDS[command] or ["--bogus"])
        if kind < 0.06:
            argv.append(rng.choice(["--bogus", "-x", "---", "--unrol", "--rot", "--pre",
                                    "--out=", "--=", flag[:5]]))
        elif flag in FLAGS:
            argv.append(flag if kind < 0.9 else flag + "=1")
        elif kind < 0.12:
            argv.append(flag)                                   # missing value
        elif kind < 0.25:
            argv.append(f"{flag}={value_for(rng, flag, command)}")
        else:
            argv += [flag, value_for(rng, flag, command)]
    if rng.random() < 0.02:
        argv.append("--help")
    if command == "bench":
        argv += ["--target", rng.choice(list(targets.CROSS_TARGETS))]
    return argv


def snapshot(top, skip=()):
    out = {}
    for folder, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) not in skip]
        for name in files + dirs:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            out[os.path.relpath(path, top)] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


def requested_outputs(argv, sandbox):
    """The folders a list asks to write (with the bundles --canonical writes under --root)."""
    out = []
    for i, a in enumerate(argv):
        for flag in OUTPUT_OPTIONS:
            if a == flag and i + 1 < len(argv):
                out.append(argv[i + 1])
            elif a.startswith(flag + "="):
                out.append(a.split("=", 1)[1])
    if "--canonical" in argv and not any(a == "--root" or a.startswith("--root=") for a in argv):
        out.append("out")
    if argv and argv[0] == "report" and not any(a == "--out" or a.startswith("--out=")
                                                for a in argv):
        out.append(os.path.join("out", "report"))
    return [os.path.normpath(os.path.join(sandbox, p)) for p in out if p]


class HostileCommandLines(unittest.TestCase):
    def test_random_and_hostile_argument_lists(self):
        rng = random.Random(SEED)
        here = os.getcwd()
        outcomes, ran, start = {}, 0, time.monotonic()
        with tempfile.TemporaryDirectory() as sandbox:
            os.chdir(sandbox)
            try:
                os.makedirs("user/sub")
                os.makedirs("with space")
                os.makedirs("outs")
                for name, text in (("user/main.c", "int main(void) { return 0; }\n"),
                                   ("a file.txt", "a file\n"),
                                   ("gcc-keccak.tsv", "compiler\tvariant\tstatus\tmedian_24\n"
                                                      "gcc\tkeccakp1600-u4-nolc-fused-builtin"
                                                      "-scalar\tok\t600\n"),
                                   ("clang-chacha.tsv", "not\ta\tbench\n1\t2\t3\n"),
                                   ("empty-keccak.tsv", "")):
                    with open(name, "w") as f:
                        f.write(text)
                repo_before = snapshot(os.path.join(ROOT, "generator"))
                while ran < LISTS:
                    argv = argument_list(rng)
                    outputs = requested_outputs(argv, sandbox)
                    before = snapshot(sandbox, skip=[os.path.join(sandbox, "outs")])
                    outs_before = {p: snapshot(p) for p in outputs if os.path.isdir(p)
                                   and p.startswith(os.path.join(sandbox, "outs") + os.sep)}
                    code, out, err = self.run_one(argv)
                    ran += 1
                    key = (argv[0] if argv and argv[0] in COMMANDS else "(none)",
                           code if code in (0, 2) else "other")
                    outcomes[key] = outcomes.get(key, 0) + 1
                    with self.subTest(argv=argv):
                        self.assertIn(code, (0, 2), err)
                        self.assertNotIn("Traceback", err)
                        if code == 2 and not argv:
                            # No command at all: the command summary, not a refusal.
                            self.assertIn("internal commands", err)
                        elif code == 2:
                            self.assertEqual(len(err.splitlines()), 1, err)
                        after = snapshot(sandbox, skip=[os.path.join(sandbox, "outs")])
                        changed = {p for p in set(before) | set(after)
                                   if before.get(p) != after.get(p)}
                        allowed = [os.path.relpath(p, sandbox) for p in outputs] if code == 0 else []
                        # Inside an output anything may change; above one, only the folders
                        # that now hold it (their times).
                        stray = [p for p in changed if not any(
                            p == a or p.startswith(a + os.sep) or a.startswith(p + os.sep)
                            and os.path.isdir(p) for a in allowed)]
                        self.assertEqual(stray, [], f"changed outside the output: {stray}")
                        if code == 2:
                            for p, snap in outs_before.items():
                                self.assertEqual(snapshot(p), snap, f"a refusal changed {p}")
                self.assertEqual(snapshot(os.path.join(ROOT, "generator")), repo_before)
            finally:
                os.chdir(here)
        print(f"\nhostile command lines: {ran} lists in {time.monotonic() - start:.0f} s: "
              + ", ".join(f"{c} -> exit {k}: {n}" for (c, k), n in sorted(
                  outcomes.items(), key=str)), file=sys.__stderr__)

    @staticmethod
    def run_one(argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli_main.main(argv)
            except SystemExit as e:     # --help and --version exit through argparse
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            except BaseException:        # any escape is what the test exists to catch
                import traceback
                traceback.print_exc()
                code = "raised"
        return code, out.getvalue(), err.getvalue()


if __name__ == "__main__":
    unittest.main()
