# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The generator and configure under a python3 that is not Debian's: a venv without system
site packages stands in for pyenv or conda, which see none of Debian's python3-* packages.
Each names the interpreter that lacks Jinja2 in one line; configure runs on with
/usr/bin/python3 when that one has it. And the layer rule of the one module that probes
tools: generator/toolprobe.py imports only the standard library and generator/errors.py."""

import ast
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from generator import toolprobe  # noqa: E402


def debian_has(module):
    return os.path.exists(toolprobe.DEBIAN_PYTHON) and toolprobe.importable(module, toolprobe.DEBIAN_PYTHON)


class ForeignInterpreter(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.exists(toolprobe.DEBIAN_PYTHON):
            raise unittest.SkipTest("python3 not installed (apt-get install -y python3)")
        cls.tmp = tempfile.mkdtemp(prefix="rs-venv-")
        venv = os.path.join(cls.tmp, "venv")
        r = subprocess.run([toolprobe.DEBIAN_PYTHON, "-m", "venv", "--without-pip", venv],
                           capture_output=True, text=True)
        if r.returncode:
            shutil.rmtree(cls.tmp, ignore_errors=True)
            raise unittest.SkipTest("python3 -m venv not installed (apt-get install -y "
                                    "python3-venv)")
        cls.bin = os.path.join(venv, "bin")
        cls.python = os.path.join(cls.bin, "python3")
        cls.env = dict(os.environ, PATH=cls.bin + os.pathsep + os.environ.get("PATH", ""))
        cls.env.pop("PYTHONPATH", None)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_here(self, *argv):
        return subprocess.run(list(argv), cwd=ROOT, env=self.env, capture_output=True,
                              text=True, timeout=300)

    def test_the_venv_lacks_jinja2(self):
        r = self.run_here(self.python, "-c", "import jinja2")
        self.assertNotEqual(r.returncode, 0, "the venv sees a Jinja2: no foreign interpreter")

    def test_generator_names_the_interpreter_and_the_command_that_works(self):
        out = os.path.join(self.tmp, "gen")
        r = self.run_here("python3", "-m", "generator", "generate", "--target", "x86_64",
                          "--out", out)
        self.assertEqual(r.returncode, 2, r.stderr)
        lines = r.stderr.splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(f"jinja2: not importable by {self.python} (", lines[0])
        if debian_has("jinja2"):
            self.assertIn(f"/usr/bin/python3 has it: run /usr/bin/python3 -m generator "
                          f"generate --target x86_64 --out {out}", lines[0])
        else:
            self.assertIn("apt-get install -y python3-jinja2", lines[0])
        self.assertFalse(os.path.exists(out))

    def test_configure_runs_itself_with_debian_python(self):
        r = self.run_here("./configure.py", "--help")
        if not debian_has("jinja2"):
            self.assertEqual(r.returncode, 2)
            self.assertIn(f"jinja2: not importable by {self.python}", r.stderr)
            self.assertIn("apt-get install -y python3-jinja2", r.stderr)
            return
        self.assertEqual(r.returncode, 0, r.stderr)
        first = r.stdout.splitlines()[0]
        self.assertTrue(first.startswith(f"configure.py: jinja2: not importable by "
                                         f"{self.python} ("), first)
        self.assertTrue(first.endswith("configure and the build run /usr/bin/python3, which "
                                       "has it"), first)
        self.assertIn("usage: ./configure.py", r.stdout)

    def test_build_python_and_problem(self):
        code = ("from generator import toolprobe\n"
                "print(toolprobe.build_python())\n"
                "print(toolprobe.problem('jinja2', ['./configure.py']))\n"
                "print(toolprobe.problem('os'))\n")
        r = self.run_here(self.python, "-c", code)
        self.assertEqual(r.returncode, 0, r.stderr)
        chosen, problem, none = r.stdout.splitlines()
        self.assertEqual(none, "None")
        if debian_has("jinja2"):
            self.assertTrue(chosen.startswith("('/usr/bin/python3', 'jinja2: not importable by "
                                              f"{self.python}"), chosen)
            self.assertTrue(problem.endswith("/usr/bin/python3 has it: run /usr/bin/python3 "
                                             "./configure.py"), problem)
        else:
            self.assertTrue(chosen.startswith("(None, "), chosen)


class Layer(unittest.TestCase):
    def test_toolprobe_imports_only_errors_of_the_generator(self):
        with open(os.path.join(ROOT, "generator", "toolprobe.py")) as f:
            tree = ast.parse(f.read())
        names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        names += [("." * n.level) + (n.module or "") for n in ast.walk(tree)
                  if isinstance(n, ast.ImportFrom)]
        ours = sorted(n for n in names if n.startswith(("generator", ".")))
        self.assertEqual(ours, ["generator.errors"])


if __name__ == "__main__":
    unittest.main()
