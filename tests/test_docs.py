# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The documentation stays true to the tree: docs/cli.md is what tools/cli_reference.py
prints from the parsers now, docs/profiles.md is what `report --profiles` makes of
generator/profiles/ now, every docs page is reachable from README.md, every relative
link resolves to a file and heading, and README's install block and test commands are what CI
(.ci/run) runs, in that order, before it installs anything else."""

import os
import re
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
DOCS = os.path.join(ROOT, "docs")

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def pages():
    return sorted(os.path.join(DOCS, n) for n in os.listdir(DOCS) if n.endswith(".md"))


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", FENCE.sub("", read(path)), re.M):
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(path):
    """Relative links outside code blocks: (target file, anchor or None)."""
    for m in LINK.finditer(FENCE.sub("", read(path))):
        url = m.group(1)
        if re.match(r"^[a-z][a-z0-9+.-]*:", url):   # https:, mailto:
            continue
        file, _, anchor = url.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        yield url, target, anchor or None


class CliReference(unittest.TestCase):
    def test_cli_page_is_current(self):
        # A subprocess: the script pins the host for the page, which must not leak into
        # the other tests of this process.
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "cli_reference.py"),
                            "--check"], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(r.returncode, 0, r.stderr)


class ProfilesPage(unittest.TestCase):
    def test_profiles_page_is_current(self):
        from generator.measure import profile_page
        now = profile_page.render(profile_page.load())
        self.assertTrue(read(os.path.join(DOCS, "profiles.md")) == now,
                        "docs/profiles.md is stale (a profile, or the candidate spaces it is "
                        f"read against, changed): {profile_page.COMMAND}")


class Links(unittest.TestCase):
    def test_every_docs_page_is_linked_from_readme(self):
        linked = {t for _, t, _ in links(README)}
        missing = [os.path.relpath(p, ROOT) for p in pages() if p not in linked]
        self.assertEqual(missing, [], "README.md links no such page")

    def test_relative_links_resolve(self):
        bad = []
        for page in [README] + pages():
            for url, target, anchor in links(page):
                where = f"{os.path.relpath(page, ROOT)}: {url}"
                if not os.path.exists(target):
                    bad.append(f"{where}: no such file")
                elif anchor and target.endswith(".md") and anchor not in anchors(target):
                    bad.append(f"{where}: no such heading")
        self.assertEqual(bad, [])

    def test_slug(self):
        self.assertEqual(slug("`python3 -m generator bench`"), "python3--m-generator-bench")
        self.assertEqual(slug("Vendor a bundle (x86-64, AArch64)"),
                         "vendor-a-bundle-x86-64-aarch64")


class RecipeGlue(unittest.TestCase):
    """docs/multi-buffer.md's post-quantum recipes: the glue each row states, in lines, is
    what lies between the `---- the glue ----` marks of the files it names."""

    def test_stated_counts_match_the_files(self):
        text = read(os.path.join(DOCS, "multi-buffer.md"))
        section = text[text.index("## Serving a post-quantum library"):text.index("## Tests")]
        rows = [r for r in section.splitlines() if r.startswith("| ") and "`examples/" in r]
        self.assertGreaterEqual(len(rows), 4)
        for row in rows:
            glue = row.rstrip(" |").rsplit("|", 1)[1]
            if glue.strip().startswith("none:"):
                # A drop-in the bundle carries: the files it names are in out/.
                files = re.findall(r"`(out/[^`]+)`", glue)
                self.assertTrue(files, row)
                for f in files:
                    self.assertTrue(os.path.isfile(os.path.join(ROOT, f)), f"{row}: {f}")
                continue
            m = re.match(r"\s*(\d+) lines?: (.*)", glue)
            self.assertTrue(m, row)
            files = re.findall(r"`(examples/[^`]+)`", m.group(2).split("driven by")[0])
            self.assertTrue(files, row)
            self.assertEqual(int(m.group(1)), sum(glue_lines(f) for f in files), row)


def glue_lines(name):
    """The lines between a file's glue marks (every pair of them)."""
    inside, n = False, 0
    for line in read(os.path.join(ROOT, name)).splitlines():
        if "---- the glue ----" in line:
            inside = True
        elif "---- end of the glue ----" in line:
            inside = False
        elif inside:
            n += 1
    if not n:
        raise AssertionError(f"{name} has no glue marks")
    return n


class Readme(unittest.TestCase):
    def test_short(self):
        with open(README) as f:
            self.assertLess(sum(1 for _ in f), 250, "README.md is the front door: move detail "
                            "to docs/")

    def test_the_vendoring_example_includes_the_header_readme_names(self):
        # README: "include one header, #include "roundsmith.h"", then builds this example.
        self.assertIn('`#include "roundsmith.h"`', read(README))
        self.assertIn("examples/vendor_sha3.c", read(README))
        example = read(os.path.join(ROOT, "examples", "vendor_sha3.c"))
        self.assertEqual(re.findall(r'(?m)^#include "([^"]+)"', example), ["roundsmith.h"])

    def test_test_command_is_what_ci_runs(self):
        ci = ci_steps()
        commands = [c for kind, c in ci if kind == "run"]
        self.assertEqual(commands, [c for block in readme_test_blocks() for c in block])
        self.assertIn("N passed, N failed, N skipped", read(README))


def shell_lines(text):
    """Shell text as logical lines: continuations joined, comments and blanks dropped."""
    text = re.sub(r"\\\n\s*", " ", text)
    for line in text.splitlines():
        line = " ".join(re.sub(r"(^|\s)#.*$", "", line).split())
        if line:
            yield line


def packages(line):
    """The package names of an `apt-get ... install -y ...` line."""
    words = line.split()
    words = words[words.index("install") + 1:]
    # up to the first shell operator or redirection: the command's words end there
    end = next((i for i, w in enumerate(words) if w[0] in ")>&|;" or w.startswith("2>")),
               len(words))
    return [w for w in words[:end] if not w.startswith("-")]


def readme_install():
    """README's install block: the packages of its one apt-get line."""
    m = re.search(r"^## Install$.*?^```sh\n(.*?)^```", read(README), re.S | re.M)
    lines = [l for l in shell_lines(m.group(1)) if l.startswith("apt-get install")]
    assert len(lines) == 1, lines
    return packages(lines[0])


def readme_test_blocks():
    """The shell blocks of README's "Test it" section, each a list of commands."""
    section = re.search(r"^## Test it$(.*?)^## ", read(README), re.S | re.M).group(1)
    return [list(shell_lines(b)) for b in re.findall(r"^```sh\n(.*?)^```", section, re.S | re.M)]


def ci_steps():
    """.ci/run in order: ("install", [packages]), ("download", [packages]) for an
    --download-only line, and ("run", command as README spells it) for each configure and
    ninja goal; a "${NAME[@]}" is the words of its NAME=(...) line."""
    out, arrays = [], {}
    for line in shell_lines(read(os.path.join(ROOT, ".ci", "run"))):
        m = re.match(r"(\w+)=\((.*)\)$", line)
        if m:
            arrays[m.group(1)] = m.group(2).split()
            continue
        line = re.sub(r'"\$\{(\w+)\[@\]\}"',
                      lambda a: " ".join(arrays.get(a.group(1), [a.group(0)])), line)
        if "--download-only" in line:
            out.append(("download", packages(line)))
        elif re.search(r"\binstall -y\b", line):
            out.append(("install", packages(line)))
        elif re.match(r"(\./configure\.py|ninja)\b", line):
            line = re.sub(r"\s*(\|\||\||2>&1).*$", "", line).replace(" -k 0", "")
            out.append(("run", line.strip()))
    return out


def targets_cross_packages():
    """The packages docs/targets.md's cross block installs."""
    text = read(os.path.join(DOCS, "targets.md"))
    m = re.search(r"^## Cross targets.*?^```sh\n(.*?)^```", text, re.S | re.M)
    return [p for l in shell_lines(m.group(1)) if l.startswith("apt-get install")
            for p in packages(l)]


class FreshMachine(unittest.TestCase):
    """.ci/run is the README's install block and test commands as written, in their order:
    the README's packages, `./configure.py` and `ninja test` first, and only then the cross
    tools (docs/targets.md's) and the rest, so a green CI cannot hide an install step."""

    def setUp(self):
        self.steps = ci_steps()
        self.installs = [i for i, (kind, _) in enumerate(self.steps) if kind == "install"]
        self.runs = [c for kind, c in self.steps if kind == "run"]

    def test_readme_packages_installed_first_and_alone(self):
        self.assertTrue(self.installs, "no apt-get install in .ci/run")
        first = self.installs[0]
        self.assertEqual(self.steps[first][1], readme_install())
        readme_first = readme_test_blocks()[0]
        self.assertEqual(readme_first, ["./configure.py", "ninja test"])
        # Nothing else installed before the README's first test commands have run.
        after = self.steps.index(("run", readme_first[-1]))
        self.assertEqual([i for i in self.installs if i < after], [first])
        self.assertLess(first, self.steps.index(("run", readme_first[0])))

    def test_cross_tools_after_and_documented(self):
        later = [self.steps[i][1] for i in self.installs[1:]]
        self.assertEqual(len(later), 1, "one install of the cross tools after `ninja test`")
        self.assertEqual(sorted(set(later[0]) - set(targets_cross_packages())), [],
                         "docs/targets.md's cross block names every cross package CI installs")
        self.assertEqual(set(later[0]) & set(readme_install()), set())
        # Downloaded early (never installed before `ninja test`): the same packages.
        downloads = [p for kind, p in self.steps if kind == "download"]
        self.assertEqual(downloads, [later[0]])

    def test_closing_command_is_ninja_test(self):
        self.assertEqual(self.runs[-1], "ninja test")
        ci = read(os.path.join(ROOT, ".ci", "run"))
        self.assertTrue(ci.rstrip().endswith("exit $status"))

    def test_readme_says_which_interpreter(self):
        install = re.search(r"^## Install$(.*?)^## ", read(README), re.S | re.M).group(1)
        self.assertIn("/usr/bin/python3", install)

    def test_parsers(self):
        self.assertEqual(packages("apt-get -o X=1 install -y -qq a b:arm64 >/dev/null"),
                         ["a", "b:arm64"])
        self.assertEqual(packages("( apt-get install -y --download-only a b ) > x.log 2>&1 &"),
                         ["a", "b"])
        self.assertEqual(list(shell_lines("a \\\n   b  # c\n# d\n\ne")), ["a b", "e"])

if __name__ == "__main__":
    unittest.main()
