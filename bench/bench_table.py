#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Run the bench programs given and print their rows as one table, best variant per compiler
(and per number of states run at once) last. The programs do the timing; this only merges and
sorts what they print. A program that prints its own table (the ChaCha bench, whose columns
differ) is shown as it printed it."""

import re
import subprocess
import sys


def main(programs):
    rows, skipped, own = [], [], []
    for prog in programs:
        out = subprocess.run([prog], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            cols = line.split("\t")
            if len(cols) == 6:
                rows.append((cols[0], cols[1], float(cols[2]), float(cols[3]), float(cols[4]),
                             float(cols[5])))
            elif len(cols) == 3:
                skipped.append(cols)
            else:
                own.append(line)
    head = ("compiler", "variant", "cyc/perm 24r", "cyc/perm 12r", "ref 24r", "x ref")
    print(f"{head[0]:8} {head[1]:36} {head[2]:>12} {head[3]:>12} {head[4]:>8} {head[5]:>6}")
    for r in rows:
        print(f"{r[0]:8} {r[1]:36} {r[2]:12.0f} {r[3]:12.0f} {r[4]:8.0f} {r[5]:6.2f}")
    for cc, name, why in skipped:
        print(f"{cc:8} {name:36} {why}")
    print("\nbest per compiler and shape (TSC cycles per permutation, per instance for x-N;"
          " ref = plain rolled loop, gcc -O3, in the same round-robin race):")
    for cc in dict.fromkeys(r[0] for r in rows):
        for shape in dict.fromkeys(shape_of(r[1]) for r in rows if r[0] == cc):
            best = min((r for r in rows if r[0] == cc and shape_of(r[1]) == shape),
                       key=lambda r: r[2])
            print(f"  {cc:8} {best[1]:36} {best[2]:6.0f} cycles (24 rounds), {best[3]:6.0f} "
                  f"(12 rounds), {best[5]:.2f}x the reference")
    if own:
        print()
        print("\n".join(own))


def shape_of(name):
    """'x8' for a kernel running 8 states at once, 'x1' for a single-state one."""
    m = re.search(r"-(x\d+)-", name)
    return m.group(1) if m else "x1"


if __name__ == "__main__":
    main(sys.argv[1:])
