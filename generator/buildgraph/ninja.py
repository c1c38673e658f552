# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Writing build.ninja: the edge writer and path escaping."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def esc(path):
    return path.replace("$", "$$").replace(" ", "$ ").replace(":", "$:")


def rel(path):
    return os.path.relpath(path, ROOT)


# An order-only list longer than this is written once, as a phony edge, and named by it: a
# test matrix's compiles each wait for the ~450 files of its generated folder, which written
# out per edge made build.ninja 14 MB that configure writes and every ninja run parses.
ORDER_GROUP = 8


class Writer:
    def __init__(self):
        self.lines = []
        self.groups = {}    # tuple of order-only paths -> the phony edge standing for them

    def variable(self, key, value, indent=0):
        self.lines.append("  " * indent + f"{key} = {value}")

    def build(self, outputs, rule, inputs=(), implicit=(), order_only=(), variables=()):
        line = f"build {' '.join(map(esc, outputs))}: {rule}"
        if inputs:
            line += " " + " ".join(map(esc, inputs))
        if implicit:
            line += " | " + " ".join(map(esc, implicit))
        if order_only:
            line += " || " + " ".join(map(esc, self._group(order_only)))
        self.lines.append(line)
        for k, v in variables:
            self.variable(k, v, indent=1)

    def _group(self, paths):
        paths = tuple(paths)
        if len(paths) <= ORDER_GROUP:
            return paths
        name = self.groups.get(paths)
        if name is None:
            name = self.groups[paths] = os.path.join("build", ".order", f"{len(self.groups)}")
            self.lines.append(f"build {esc(name)}: phony {' '.join(map(esc, paths))}")
        return (name,)

    def blank(self):
        self.lines.append("")

    def write(self, path, template, subst):
        """build.ninja: `template` (build.ninja.in) with `subst` applied, then the edges;
        written beside and renamed, so a failed run leaves the old file whole."""
        for k, v in subst.items():
            template = template.replace(k, v)
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            f.write(template + "\n" + "\n".join(self.lines) + "\n")
        os.replace(tmp, path)
