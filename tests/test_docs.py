# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The documentation stays true to the tree: docs/cli.md is what tools/cli_reference.py
prints from the parsers now, docs/profiles.md is what `report --profiles` makes of
generator/profiles/ now, every docs page is reachable from README.md, every relative
link resolves to a file and heading, and README's test command is the one CI runs."""

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
        from generator import profile_page
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


class Readme(unittest.TestCase):
    def test_short(self):
        with open(README) as f:
            self.assertLess(sum(1 for _ in f), 250, "README.md is the front door: move detail "
                            "to docs/")

    def test_test_command_is_what_ci_runs(self):
        ci = read(os.path.join(ROOT, ".ci", "run"))
        readme = read(README)
        commands = re.findall(r'^"\$PY" (\./configure\.py .*)$', ci, re.M)
        commands += re.findall(r"^(ninja) -k 0 (test\S*)", ci, re.M)
        self.assertEqual(len(commands), 4, "the .ci/run lines this test reads have changed")
        for c in commands:
            line = c if isinstance(c, str) else " ".join(c)
            self.assertIn(line, readme)
        self.assertIn("N passed, N failed, N skipped", readme)


if __name__ == "__main__":
    unittest.main()
