# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Output folders: roundsmith replaces only what its manifest says it wrote, and the same
output is the same bytes in any folder."""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from generator.emit import outfolder  # noqa: E402

KECCAK = ("generate", "--target", "generic64", "--kernels", "keccak")
BOTH = ("generate", "--target", "generic64")


def generator(*args, cwd=ROOT, umask=None):
    def preexec():
        if umask is not None:
            os.umask(umask)
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "generator", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, preexec_fn=preexec)


def tree(folder):
    """name -> (bytes, mode, mtime) of every file under folder, and its folders' modes."""
    out = {}
    for top, dirs, files in os.walk(folder):
        for d in dirs:
            p = os.path.join(top, d)
            out[os.path.relpath(p, folder) + "/"] = stat.S_IMODE(os.stat(p).st_mode)
        for f in files:
            p = os.path.join(top, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, folder)] = (fh.read(), stat.S_IMODE(os.stat(p).st_mode),
                                                   os.stat(p).st_mtime_ns)
    return out


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


class Ownership(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.tmp.name, "vendored")

    def tearDown(self):
        self.tmp.cleanup()

    def ok(self, *args, **kw):
        r = generator(*args, "--out", self.out, **kw)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r

    def refused(self, *args, message):
        before = tree(self.tmp.name)
        r = generator(*args, "--out", self.out)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
        self.assertIn(message, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(tree(self.tmp.name), before, "a refusal touched the folder")

    def test_files_the_user_added_survive_every_regeneration(self):
        self.ok(*KECCAK)
        os.chmod(self.out, 0o750)
        write(os.path.join(self.out, "main.c"), "int main(void) { return 0; }\n")
        write(os.path.join(self.out, "VENDORED.md"), "from roundsmith, see its README\n")
        os.mkdir(os.path.join(self.out, "build"))
        write(os.path.join(self.out, "build", "cache"), "x\n")
        mine = {k: v for k, v in tree(self.out).items()
                if k.startswith(("main.c", "VENDORED", "build"))}
        for args in (KECCAK, KECCAK + ("--unroll", "6"), BOTH, KECCAK):
            with self.subTest(args=args):
                self.ok(*args)
                now = tree(self.out)
                self.assertEqual({k: now[k] for k in mine}, mine)
                self.assertEqual(stat.S_IMODE(os.stat(self.out).st_mode), 0o750)
        # The last run dropped ChaCha again: its files went, the user's stayed.
        self.assertNotIn("chacha.c", os.listdir(self.out))

    def test_a_folder_without_manifest_is_refused_whole(self):
        os.mkdir(self.out)
        write(os.path.join(self.out, "main.c"), "int main(void) { return 0; }\n")
        self.refused(*KECCAK, message="holds files roundsmith did not write (main.c) and no "
                                      "roundsmith.manifest")

    def test_an_unlisted_file_is_never_overwritten_even_with_force(self):
        self.ok(*KECCAK)
        write(os.path.join(self.out, "chacha.c"), "/* my own chacha */\n")
        for extra in ((), ("--force",)):
            with self.subTest(extra=extra):
                self.refused(*BOTH, *extra, message="chacha.c: roundsmith did not write it")

    def test_a_generated_build_file_the_user_rewrote_is_refused(self):
        self.ok(*KECCAK)
        write(os.path.join(self.out, "CMakeLists.txt"), "project(mine C)\n")
        self.refused(*KECCAK, "--unroll", "6", message="CMakeLists.txt: changed since")

    def test_a_changed_file_is_refused_and_force_overwrites_it(self):
        self.ok(*KECCAK)
        path = os.path.join(self.out, "keccak_p1600.c")
        write(path, "/* patched by hand */\n")
        self.refused(*KECCAK, "--unroll", "6", message="keccak_p1600.c: changed since "
                                                       "roundsmith wrote it")
        self.ok(*KECCAK, "--unroll", "6", "--force")
        with open(path) as f:
            self.assertIn("unroll          = 6", f.read())

    def test_a_changed_file_no_longer_generated_is_kept_with_force(self):
        self.ok(*BOTH)
        path = os.path.join(self.out, "chacha.c")
        write(path, "/* patched by hand */\n")
        self.refused(*KECCAK, message="chacha.c: changed since roundsmith wrote it")
        r = self.ok(*KECCAK, "--force")
        self.assertIn("so it is yours now", r.stdout)
        with open(path) as f:
            self.assertEqual(f.read(), "/* patched by hand */\n")
        self.assertNotIn("chacha.c", outfolder.read_manifest(self.out))
        self.assertNotIn("chacha.h", os.listdir(self.out))   # unchanged: removed

    def test_new_folders_and_files_follow_the_umask_and_replaced_files_keep_their_mode(self):
        self.ok(*KECCAK, umask=0o027)
        self.assertEqual(stat.S_IMODE(os.stat(self.out).st_mode), 0o750)
        for name in os.listdir(self.out):
            self.assertEqual(stat.S_IMODE(os.stat(os.path.join(self.out, name)).st_mode),
                             0o640, name)
        path = os.path.join(self.out, "keccak_p1600.c")
        os.chmod(path, 0o444)
        self.ok(*KECCAK, "--unroll", "6", umask=0o022)
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o444)
        self.assertEqual(stat.S_IMODE(os.stat(self.out).st_mode), 0o750)

    def test_a_linked_folder_stays_a_link(self):
        real = os.path.join(self.tmp.name, "real")
        os.mkdir(real)
        os.symlink(real, self.out)
        self.ok(*KECCAK)
        self.ok(*KECCAK, "--unroll", "6")
        self.assertTrue(os.path.islink(self.out))
        self.assertIn("keccak_p1600.c", os.listdir(real))

    def test_an_unreadable_manifest_is_refused(self):
        self.ok(*KECCAK)
        write(os.path.join(self.out, "roundsmith.manifest"), "not a manifest\n")
        self.refused(*KECCAK, message="line 1 is not '<sha256>  <file name>'")

    def test_an_unwritable_folder_is_named_as_given_not_by_its_temporary(self):
        """A read-only folder (or its parent) fails where roundsmith makes its hidden
        temporary or staging folder; the message names the --out folder the user gave. The
        refusal is simulated, as root writes through permission bits."""
        from unittest import mock
        from generator.errors import UsageError

        def refuse(prefix="", dir=None, **kw):
            raise PermissionError(13, "Permission denied", os.path.join(dir, prefix + "q1w2e3"))

        for existing in (False, True):
            with self.subTest(existing=existing):
                if existing:
                    outfolder.write_tree(self.out, {"a.c": "one\n"}, "cmd")
                with mock.patch.object(outfolder.tempfile, "mkdtemp", refuse), \
                        self.assertRaises(UsageError) as cm:
                    outfolder.write_tree(self.out, {"a.c": "two\n"}, "cmd")
                self.assertEqual(str(cm.exception),
                                 f"cannot write {self.out}: Permission denied")

    def test_describe_reads_the_manifest(self):
        self.ok(*KECCAK)
        write(os.path.join(self.out, "main.c"), "int main(void) { return 0; }\n")
        write(os.path.join(self.out, "keccak_p1600.h"), "/* mine now */\n")
        r = generator("describe", self.out)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("keccak_p1600.h (changed since generated)", r.stdout)
        self.assertIn("keccak_p1600.c: target=generic64", r.stdout)
        self.assertIn("not generated (yours, never touched): main.c", r.stdout)
        for folder, message in ((self.tmp.name, "holds no roundsmith.manifest"),
                                (os.path.join(self.out, "main.c"), "not a folder"),
                                (os.path.join(self.tmp.name, "none"), "no such folder")):
            with self.subTest(folder=folder):
                r = generator("describe", folder)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertIn(message, r.stderr)


PQ_KECCAK = ("bundle", "--target", "portable", "--kernels", "keccak")
PQ_CHACHA = ("bundle", "--target", "portable", "--kernels", "chacha")


class Subfolder(unittest.TestCase):
    """A bundle's pq-crystals/ (files one level down): the same rules, file by file."""

    setUp, tearDown, ok, refused = (Ownership.setUp, Ownership.tearDown, Ownership.ok,
                                    Ownership.refused)

    def sub(self, name=""):
        return os.path.join(self.out, "pq-crystals", name)

    def test_written_listed_and_removed_when_no_longer_generated(self):
        self.ok(*PQ_KECCAK)
        self.assertIn("pq-crystals/fips202.c", outfolder.read_manifest(self.out))
        self.assertTrue(os.path.isfile(self.sub("fips202.h")))
        self.ok(*PQ_CHACHA)
        self.assertFalse(os.path.exists(self.sub()))
        self.ok(*PQ_KECCAK)
        write(self.sub("NOTES"), "mine\n")
        self.ok(*PQ_CHACHA)
        self.assertEqual(os.listdir(self.sub()), ["NOTES"])
        self.ok(*PQ_KECCAK)
        self.assertEqual(sorted(os.listdir(self.sub())), ["NOTES", "fips202.c", "fips202.h"])
        r = generator("describe", self.out)
        self.assertIn("  pq-crystals/fips202.c: target=generic64", r.stdout)
        self.assertIn("not generated (yours, never touched): pq-crystals/NOTES", r.stdout)

    def test_a_changed_file_or_a_file_in_its_place_is_refused(self):
        self.ok(*PQ_KECCAK)
        write(self.sub("fips202.c"), "/* patched */\n")
        self.refused(*PQ_CHACHA, message="pq-crystals/fips202.c: changed since")
        shutil.rmtree(self.sub())
        write(self.sub()[:-1], "a file\n")
        self.refused(*PQ_KECCAK, message="roundsmith did not write it")

    def test_a_linked_subfolder_is_never_written_through(self):
        self.ok(*PQ_CHACHA)
        elsewhere = os.path.join(self.tmp.name, "elsewhere")
        os.mkdir(elsewhere)
        os.symlink(elsewhere, self.sub()[:-1])
        self.refused(*PQ_KECCAK, message="roundsmith did not write it")
        self.assertEqual(os.listdir(elsewhere), [])

    def test_a_run_killed_midway_is_completed_or_undone_by_the_next(self):
        for fault in ("raise:2", "kill:commit", "kill:commit:1", "kill:commit:4"):
            with self.subTest(fault=fault):
                shutil.rmtree(self.out, ignore_errors=True)
                self.ok(*PQ_CHACHA)
                r = subprocess.run([sys.executable, "-m", "generator", *PQ_KECCAK, "--out",
                                    self.out], cwd=ROOT, capture_output=True, text=True,
                                   env=dict(os.environ, **{outfolder.FAULT_ENV: fault}))
                self.assertNotEqual(r.returncode, 0, "the injected fault did not fire")
                self.ok(*PQ_KECCAK)
                self.assertEqual(sorted(outfolder.listing(self.out)),
                                 sorted([*outfolder.read_manifest(self.out), outfolder.MANIFEST]))
                self.assertIn("(unchanged)", self.ok(*PQ_KECCAK).stdout)

    def test_a_manifest_naming_a_deeper_path_is_refused(self):
        self.ok(*PQ_KECCAK)
        path = os.path.join(self.out, "roundsmith.manifest")
        with open(path) as f:
            text = f.read()
        write(path, text.replace("  pq-crystals/fips202.c", "  pq-crystals/../fips202.c"))
        self.refused(*PQ_KECCAK, message="is not '<sha256>  <file name>'")


class SameBytesAnywhere(unittest.TestCase):
    def test_generate_and_bundle_are_identical_in_any_folder(self):
        for args in (("generate", "--unroll", "6", "--prefix", "p_"),
                     ("bundle", "--target", "x86_64", "--prefix", "q_")):
            with self.subTest(args=args), tempfile.TemporaryDirectory() as a, \
                    tempfile.TemporaryDirectory() as b:
                self.assertEqual(generator(*args, "--out", os.path.join(a, "one")).returncode, 0)
                os.mkdir(os.path.join(b, "two words"))
                r = generator(*args, "--out", "deeper/than that", cwd=os.path.join(b, "two words"))
                self.assertEqual(r.returncode, 0, r.stderr)
                one = tree(os.path.join(a, "one"))
                two = tree(os.path.join(b, "two words", "deeper", "than that"))
                self.assertEqual({k: v[0] for k, v in one.items() if not k.endswith("/")},
                                 {k: v[0] for k, v in two.items() if not k.endswith("/")})
                for name, entry in one.items():
                    if name.endswith("/"):
                        continue    # a subfolder (pq-crystals/)
                    data = entry[0]
                    self.assertNotIn(a.encode(), data, name)
                    if name != "LICENSE-CC0":
                        self.assertIn(b"--out DIR", data, name)

    def test_equivalent_spellings_give_the_same_bytes(self):
        with tempfile.TemporaryDirectory() as tmp:
            outs = []
            for i, args in enumerate((("--unroll", "6", "--rotate", "shift"),
                                      ("--rotate=shift", "--unroll=6", "--target", "host"))):
                out = os.path.join(tmp, str(i))
                self.assertEqual(generator("generate", *args, "--out", out).returncode, 0)
                outs.append({k: v[0] for k, v in tree(out).items()})
            self.assertEqual(outs[0], outs[1])


if __name__ == "__main__":
    unittest.main()
