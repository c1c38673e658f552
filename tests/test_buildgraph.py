# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The build graph's registry (generator/buildgraph/families.py) and configure.py's shape:
every file a row names exists, every variant space reaches the testsuite rule, the flavours
name real families, configure.py's bad input is one line and exit status 2, and no function
of configure.py or the package runs past a screen."""

import ast
import glob
import os
import re
import subprocess
import sys
import unittest

from generator.buildgraph import families, flags

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHASES = ("per_compiler", "vendored", "elsewhere")
SCREEN = 50  # lines


class Registry(unittest.TestCase):
    def test_every_file_a_row_names_exists(self):
        for family in families.FAMILIES:
            named = [family.check, family.ct, *family.support]
            for _, harness, extras in family.fuzz:
                named += [harness, *extras]
            for path in filter(None, named):
                self.assertTrue(os.path.isfile(os.path.join(ROOT, path)),
                                f"{family.name}: {path} missing")

    def test_every_variant_space_reaches_the_testsuite_rule(self):
        with open(os.path.join(ROOT, "build.ninja.in")) as f:
            template = f.read()
        rule = re.search(r"^rule testsuite\n  command = (.*)$", template, re.M).group(1)
        for family in families.FAMILIES:
            if family.space:
                option = family.subset_option
                self.assertIn(f"${option} ", rule, f"{family.name}: the rule lacks ${option}")
                self.assertRegex(template, rf"(?m)^{option} = all$",
                                 f"{family.name}: no default for {option}")
                self.assertTrue(family.subset and family.headers, family.name)

    def test_every_family_writes_edges_and_flavours_name_families(self):
        names = [family.name for family in families.FAMILIES]
        self.assertEqual(len(names), len(set(names)))
        for family in families.FAMILIES:
            self.assertTrue(any(callable(getattr(family.module, p, None)) for p in PHASES),
                            f"{family.name}: its module has none of {PHASES}")
        for flavour, spec in flags.FLAVOURS.items():
            for name in spec["subset"]:
                self.assertIn(name, names, f"{flavour} subsets unknown family {name}")


class Configure(unittest.TestCase):
    def test_bad_input_is_one_line_and_exit_2(self):
        for argv, message in (
                (["--cross", "aarch64,mips"], "--cross: unknown cross target 'mips'"),
                (["--amalgamate"], "--amalgamate needs --bundle TARGET"),
                (["--fuzz-seconds", "0"], "--fuzz-seconds must be at least 1")):
            r = subprocess.run([sys.executable, os.path.join(ROOT, "configure.py"), *argv],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, argv)
            self.assertEqual(r.stdout, "", argv)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertIn(f"configure.py: error: {message}", r.stderr)

    def test_no_function_runs_past_a_screen(self):
        paths = [os.path.join(ROOT, "configure.py")] + sorted(
            glob.glob(os.path.join(ROOT, "generator", "buildgraph", "*.py")))
        for path in paths:
            with open(path) as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef):
                    length = node.end_lineno - node.lineno + 1
                    self.assertLessEqual(length, SCREEN,
                                         f"{os.path.relpath(path, ROOT)}: {node.name}() is "
                                         f"{length} lines")


if __name__ == "__main__":
    unittest.main()
