# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The generator's command line: bad input, determinism, atomic and incremental output."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generator.emit import kernels, vendor  # noqa: E402


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def generator(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd,
                          capture_output=True, text=True)


class BadInput(unittest.TestCase):
    CASES = [
        (["generate", "--unroll", "5"], "unroll 5 does not divide 24"),
        (["generate", "--unroll", "x"], "unroll must be a number"),
        (["generate", "--target", "vax"], "unknown target 'vax'"),
        (["generate", "--rotate", "spin"], "unknown rotation 'spin'"),
        (["generate", "--lane-complement", "maybe"], "takes on or off"),
        (["generate", "--target", "generic64", "--rotate", "rorx"], "not available on target"),
        (["generate", "--prefix", "9bad"], "C identifier prefix"),
        (["generate", "--bogus"], "unrecognized arguments"),
        (["testsuite", "--vectors", "/nonexistent"], "cannot read test vectors"),
        (["permute", "--rounds", "25"], "rounds must be 0..24"),
        (["permute", "--rounds", "-1"], "rounds must be 0..24"),
        (["permute", "--state", "00"], "200 bytes in hex"),
        (["permute", "--state", "zz" * 200], "200 bytes in hex"),
        (["permute", "--rounds", "twelve"], "rounds must be 0..24"),
        (["generate", "--unroll", "0"], "unroll 0 does not divide 24"),
        (["generate", "--unroll", "48"], "unroll 48 does not divide 24"),
        (["generate", "--unroll", "-3"], "unroll -3 does not divide 24"),
        (["generate", "--unroll", "2.0"], "unroll must be a number"),
        (["generate", "--unroll", ""], "unroll must be a number"),
        (["generate", "--rotate", ""], "unknown rotation ''"),
        (["generate", "--parity", "diagonal"], "unknown parity 'diagonal'"),
        (["generate", "--parity", ""], "unknown parity ''"),
        (["generate", "--lane-complement", ""], "takes on or off, not ''"),
        (["generate", "--target", "generic64", "--rotate", "rol"], "not available on target"),
        (["generate", "--target", ""], "unknown target ''"),
        (["generate", "--prefix", "a-b"], "C identifier prefix"),
        (["generate", "--prefix", "\u00e9_"], "C identifier prefix"),
        (["generate", "--prefix", ""], "--prefix needs a value"),
        (["generate", "--prefix="], "--prefix needs a value"),
        (["bundle", "--prefix", ""], "--prefix needs a value"),
        (["generate", "--prefix", "x" * 300], "--prefix is 300 characters, at most 32"),
        (["generate", "--prefix", "x" * 33], "--prefix is 33 characters, at most 32"),
        (["generate", "--prefix", "_X"], "must not start with '_'"),
        (["generate", "--prefix", "_x"], "must not start with '_'"),
        (["bundle", "--prefix", "__rs"], "must not start with '_'"),
        (["testsuite", "--subset", "some"], "unknown subset 'some'"),
        (["testsuite", "--target", "vax"], "unknown target 'vax'"),
        (["list", "variants", "--target", "vax"], "unknown target 'vax'"),
        (["describe", "/nonexistent"], "cannot read /nonexistent"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        # portable is a bundle, not a target: bundle's list names it, generate says what it is
        (["bundle", "--target", "vax"], "accepted: host, portable, x86_64, aarch64, wasm32, "),
        (["generate", "--target", "portable"], "(portable is a bundle: python3 -m generator "
                                               "bundle --target portable; its kernels are "
                                               "target generic64's)"),
        # bench sweeps lists: each bad list is refused whole, before anything is built
        (["bench", "--unroll", "2,,3"], "an empty item in '2,,3'"),
        (["bench", "--unroll", "2,3,2"], "'2' given twice in '2,3,2'"),
        (["bench", "--rotate", "shift,spin"], "unknown value 'spin'"),
        (["bench", "--multi", "x4-avx2,x9-avx2"], "no kernel 'x9-avx2'"),
        (["bench", "--unroll", "3,6", "--isa", "x86asm"], "exists for no compiler"),
        (["bench", "--plot", "figure.jpg"], "must end in .svg or .png"),
    ]

    def test_each_bad_input_is_one_line_exit_2_and_out_untouched(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            os.mkdir(out)
            with open(os.path.join(out, "keep.txt"), "w") as f:
                f.write("previous output\n")
            for args, message in self.CASES:
                with self.subTest(args=args):
                    extra = ["--out", out] if args[0] in ("generate", "testsuite", "bundle") else []
                    r = generator(*args, *extra)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                    self.assertIn(message, r.stderr)
                    self.assertEqual(os.listdir(out), ["keep.txt"])

    def test_unwritable_output_is_reported(self):
        """Each place generate cannot (or must not) write: one line, exit 2, no traceback.
        Permission bits do not stop root, so /proc stands for a folder nobody may write."""
        with tempfile.TemporaryDirectory() as tmp:
            a_file = os.path.join(tmp, "file")
            with open(a_file, "w") as f:
                f.write("not a folder\n")
            holds_folders = os.path.join(tmp, "mine")
            os.makedirs(os.path.join(holds_folders, "src"))
            cases = [
                ("/proc/roundsmith-cannot-exist/out", "cannot create"),
                # The folder the user named, not the hidden temporary beside it.
                ("/proc/roundsmith-out", "cannot write /proc/roundsmith-out: "),
                (os.path.join(a_file, "out"), "cannot create"),
                (a_file, "exists and is not a folder"),
                (holds_folders, "holds files roundsmith did not write (src)"),
                (tmp, "holds files roundsmith did not write (file, mine)"),
                (".", "will not write into .: it holds files roundsmith did not write"),
                ("/", "will not write into /: it holds files roundsmith did not write"),
            ]
            for out, message in cases:
                with self.subTest(out=out):
                    r = generator("generate", "--out", out)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                    self.assertIn(message, r.stderr)
            with open(a_file) as f:
                self.assertEqual(f.read(), "not a folder\n")
            self.assertEqual(os.listdir(holds_folders), ["src"])

    def test_a_value_starting_with_a_dash_names_the_spelling_that_works(self):
        # argparse takes -fx for an option; the refusal says how to pass it, on every option
        # that takes a value, and not where the value was left out before another option.
        for args, hint in ((["tune-bundle", "--cflags", "-fx"], "--cflags=-fx"),
                           (["tune", "--cflags", "-O3", "--cc-id", "gcc"], "--cflags=-O3"),
                           (["bench", "--cc", "-x"], "--cc=-x"),
                           (["generate", "--prefix", "-p"], "--prefix=-p"),
                           (["generate", "--out", "--force"], None)):
            with self.subTest(args=args):
                r = generator(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertIn("expected one argument", r.stderr)
                if hint:
                    self.assertIn(f"a value starting with '-' is written {hint}", r.stderr)
                else:
                    self.assertNotIn("written", r.stderr)
        r = subprocess.run([sys.executable, os.path.join(ROOT, "configure.py"), "--cflags",
                            "-fx"], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("written --cflags=-fx", r.stderr)

    def test_abbreviations_are_refused(self):
        for args in (["generate", "--unrol", "3"], ["generate", "--rot", "rorx"],
                     ["generate", "--pre", "foo_"], ["bundle", "--amal"],
                     ["list", "variants", "--targ", "x86_64"]):
            with self.subTest(args=args), tempfile.TemporaryDirectory() as tmp:
                r = generator(*args, "--out", os.path.join(tmp, "o"))
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("unrecognized arguments", r.stderr)
                self.assertEqual(os.listdir(tmp), [])


def snapshot(folder):
    return {n: (read(os.path.join(folder, n)), os.stat(os.path.join(folder, n)).st_mtime_ns)
            for n in os.listdir(folder)}


class Interrupted(unittest.TestCase):
    """A generation that dies midway (outdir.FAULT_ENV) never leaves a half-written folder for
    the next run: before its commit marker the folder is as it was, after it the next run
    completes the commit first; and nothing of the dead run is left behind."""

    FIRST = ("generate", "--unroll", "4", "--rotate", "shift")
    SECOND = ("generate", "--unroll", "6", "--rotate", "builtin")

    def run_with_fault(self, fault, out):
        env = dict(os.environ, ROUNDSMITH_FAULT=fault)
        return subprocess.run([sys.executable, "-m", "generator", *self.SECOND, "--out", out],
                              cwd=ROOT, env=env, capture_output=True, text=True)

    def test_crash_or_kill_before_the_commit_leaves_previous_output(self):
        for fault in ("raise:0", "raise:1", "kill:0", "kill:1"):
            with self.subTest(fault=fault), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "out")
                self.assertEqual(generator(*self.FIRST, "--out", out).returncode, 0)
                mine = os.path.join(out, "mine.c")
                with open(mine, "w") as f:
                    f.write("int mine;\n")
                before = snapshot(out)
                r = self.run_with_fault(fault, out)
                self.assertNotEqual(r.returncode, 0, "the injected fault did not fire")
                if fault.startswith("raise"):
                    self.assertEqual(snapshot(out), before)
                # Whatever was left, the previous output is what the next run finds: the same
                # parameters regenerate nothing, and the staging folder is gone.
                r = generator(*self.FIRST, "--out", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn("(unchanged)", r.stdout)
                self.assertEqual(snapshot(out), before)
                r = generator(*self.SECOND, "--out", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn("unroll          = 6", read(os.path.join(out, "keccak_p1600.c"),
                                                          "r"))
                self.assertEqual(read(mine), b"int mine;\n")
                self.assertEqual(sorted(os.listdir(tmp)), ["out"])

    def test_kill_after_the_commit_marker_is_completed_by_the_next_run(self):
        for fault in ("kill:commit", "kill:commit:0", "kill:commit:3", "raise:commit:5"):
            with self.subTest(fault=fault), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "out")
                self.assertEqual(generator(*self.SECOND, "--out", os.path.join(tmp, "ref"))
                                 .returncode, 0)
                self.assertEqual(generator(*self.FIRST, "--out", out).returncode, 0)
                with open(os.path.join(out, "mine.c"), "w") as f:
                    f.write("int mine;\n")
                r = self.run_with_fault(fault, out)
                self.assertNotEqual(r.returncode, 0, "the injected fault did not fire")
                r = generator(*self.SECOND, "--out", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn("(unchanged)", r.stdout)
                ref = {n: read(os.path.join(tmp, "ref", n)) for n in os.listdir(
                    os.path.join(tmp, "ref"))}
                self.assertEqual({n: read(os.path.join(out, n)) for n in os.listdir(out)},
                                 dict(ref, **{"mine.c": b"int mine;\n"}))

    def test_a_new_folder_appears_whole_or_not_at_all(self):
        for fault in ("raise:2", "kill:2", "kill:commit"):
            with self.subTest(fault=fault), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "out")
                r = self.run_with_fault(fault, out)
                self.assertNotEqual(r.returncode, 0, "the injected fault did not fire")
                self.assertFalse(os.path.exists(out))
                r = generator(*self.SECOND, "--out", out)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(sorted(os.listdir(tmp)), ["out"])


class Permute(unittest.TestCase):
    def test_zero_state_gives_the_published_permutation(self):
        r = generator("permute")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith("e7dde140798f25f18a47c033f9ccd584"), r.stdout)


class Output(unittest.TestCase):
    def test_byte_identical_and_unchanged_files_not_rewritten(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "k")
            args = ("generate", "--unroll", "6", "--lane-complement", "on", "--rotate",
                    "shift", "--prefix", "my_", "--kernels", "keccak", "--out", out)
            self.assertEqual(generator(*args).returncode, 0)
            first = {n: read(os.path.join(out, n)) for n in os.listdir(out)}
            stamps = {n: os.stat(os.path.join(out, n)).st_mtime_ns for n in first}
            self.assertEqual(generator(*args).returncode, 0)
            again = {n: read(os.path.join(out, n)) for n in os.listdir(out)}
            self.assertEqual(first, again)
            self.assertEqual(stamps, {n: os.stat(os.path.join(out, n)).st_mtime_ns
                                      for n in first})
            self.assertEqual(sorted(first), sorted(kernels.KECCAK_FILES + kernels.SPONGE_FILES
                                                   + vendor.names("my_")
                                                   + ("roundsmith.manifest",)))
            for name, text in first.items():
                if name in (vendor.LICENSE, "roundsmith.manifest"):
                    continue
                head = text.decode()[:1400]
                self.assertIn("Do not edit", head)
                self.assertIn("python3 -m generator generate --unroll 6", head)
                self.assertRegex(head, r"prefix +=? my_")
                if name in kernels.KECCAK_FILES + kernels.SPONGE_FILES:
                    self.assertIn("lane_complement = on", head)
            self.assertIn(b"void my_keccak_p1600(", first["keccak_p1600.h"])
            for name, text in first.items():
                self.assertNotIn(b"main(", text, name)
            self.assertIn(b"void my_sha3_256(", first["keccak_sponge.h"])
            self.assertIn(b"my_KeccakP1600_Initialize(", first["KeccakP-1600-SnP.h"])
            self.assertFalse([n for n in os.listdir(tmp) if n.startswith(".")])

class ListTargets(unittest.TestCase):
    def test_every_name_bundle_and_generate_take_is_listed(self):
        from generator.choice import targets
        r = generator("list", "targets")
        self.assertEqual(r.returncode, 0, r.stderr)
        listed = [line.split()[0] for line in r.stdout.splitlines()]
        self.assertEqual(sorted(listed), sorted(set(targets.TARGETS) | set(targets.BUNDLES)))
        self.assertRegex(r.stdout, r"(?m)^portable +.*\(bundle only; generate: generic64\)$")


class Help(unittest.TestCase):
    """What a newcomer sees first: the commands they run before the internal ones, each with
    an example that parses as written."""

    USER = ("generate", "bundle", "check", "describe", "list", "bench", "tune", "prove")
    INTERNAL = ("testsuite", "report", "permute")

    def listing(self, text):
        """Command -> (position, under the internal heading) in a top-level help."""
        internal = text.index("internal commands")
        commands = text[:text.index("\noptions:")]
        return {m.group(1): (m.start(), m.start() > internal)
                for m in re.finditer(r"(?m)^  ([a-z-]+)  +\S", commands)}

    def test_top_level_help_lists_the_users_commands_first_each_with_an_example(self):
        r = generator("--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        got = self.listing(r.stdout)
        for name in self.USER:
            self.assertFalse(got[name][1], f"{name} listed as internal")
        for name in self.INTERNAL:
            self.assertTrue(got[name][1], f"{name} not under the internal heading")
        self.assertLess(max(got[n][0] for n in self.USER), min(got[n][0] for n in self.INTERNAL))
        self.assertEqual(len(re.findall(r"(?m)^ +example: python3 -m generator \S", r.stdout)),
                         len(got))

    def test_no_command_prints_the_summary_and_exits_2(self):
        r = generator()
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stdout, "")
        self.assertNotIn("the following arguments are required", r.stderr)
        self.assertIn("example: python3 -m generator generate ", r.stderr)
        self.assertEqual(set(self.listing(r.stderr)), set(self.listing(generator("--help").stdout)))

    def test_each_command_help_ends_with_an_example_that_parses(self):
        import shlex
        from generator import __main__ as m
        from generator.choice import cli_options
        for _, commands in m.GROUPS:
            for name, example in commands:
                with self.subTest(command=name):
                    r = generator(name, "--help")
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertTrue(r.stdout.endswith(f"\nexample:\n  {example}\n"), r.stdout)
                    argv = shlex.split(example)
                    self.assertEqual(argv[:4], ["python3", "-m", "generator", name])
                    # Parsed and checked as main() does, not run.
                    args = m.parser().parse_args(argv[3:])
                    cli_options.check_values(args.options, args)


class HelpAgreesWithValidation(unittest.TestCase):
    """Every value --help lists for a target is accepted there, and a refusal's "accepted:"
    list is exactly what --help lists for that target."""

    OPTIONS = {"--isa": ("--kernels", "keccak"), "--rotate": ("--kernels", "keccak"),
               "--chacha-isa": ("--kernels", "chacha"), "--multi": ("--kernels", "keccak")}

    @staticmethod
    def listed(option, target):
        """The values an option's help names for a target ('rol (x86_64)': x86_64 only)."""
        from generator.choice import cli_options
        text = next(o for o in cli_options.KECCAK + cli_options.CHACHA if o.flag == option).accepted
        text = text.split(": ", 1)[1].split("; ")[0] if option == "--multi" else text
        out = []
        for value, where in re.findall(r"([\w-]+)(?: \(([^)]*)\))?", text):
            if not where or target in where.split(", "):
                out.append(value)
        return out

    def test_each_listed_value_is_accepted_and_refusals_list_the_same(self):
        import contextlib
        import io
        from generator import __main__ as m
        from generator.choice import targets
        everything = {o: {v for t in targets.TARGETS for v in self.listed(o, t)}
                      for o in self.OPTIONS}
        with tempfile.TemporaryDirectory() as tmp:
            for target in targets.TARGETS:
                for option, extra in self.OPTIONS.items():
                    listed = self.listed(option, target)
                    for value in sorted(everything[option]):
                        with self.subTest(target=target, option=option, value=value):
                            out, err = io.StringIO(), io.StringIO()
                            argv = ["generate", "--target", target, option, value, *extra,
                                    "--out", os.path.join(tmp, f"{target}-{option}-{value}")]
                            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                                code = m.main(argv)
                            if value in listed:
                                self.assertEqual(code, 0, err.getvalue())
                            else:
                                self.assertEqual(code, 2, out.getvalue())
                                if not listed:
                                    self.assertIn(f"target {target} has no", err.getvalue())
                                    continue
                                accepted = err.getvalue().split("accepted: ")[-1].strip()
                                self.assertEqual(sorted(re.findall(r"[\w-]+", accepted)),
                                                 sorted(listed), err.getvalue())


if __name__ == "__main__":
    unittest.main()
