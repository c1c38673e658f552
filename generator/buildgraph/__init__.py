# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The build graph ./configure.py writes into build.ninja from what generator/toolprobe.py
found on this machine: the flags each build uses (flags.py), the variants out/ gets
(choices.py), the ninja writer (ninja.py), and one module per family of edges, listed in the
registry (families.py).
docs/adding-a-family.md says how the pieces fit."""
