#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Print the portability matrix of `ninja test-cross` and fail if any cell failed.

usage: cross_matrix.py PLAN.json [MSVC_LOG [WINDOWS_LOG [WASM_LOG]]]

PLAN.json is written by configure.py (generator/buildgraph/cross.py): per cross target, the compiler,
what is missing on this machine, and the Check logs of the suites run under qemu-user. By the
time this runs, ninja has generated and built every cell it planned (it stops otherwise), so
"built" follows from the plan; "vector-checked" is read from the logs.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import summarize  # noqa: E402


def suite_cell(log):
    passed, failed, _, broken = summarize(log)
    if broken:
        return f"BROKEN ({log})", True
    return f"{passed}/{passed + failed}" + (" FAILED" if failed else ""), bool(failed)


def main(argv):
    with open(argv[0]) as f:
        plan = json.load(f)
    rows, bad = [], False
    for cell in plan:
        cc = f"{cell['cc']} {cell.get('version', '')} {cell.get('cflags', '')}".strip()
        where = f"{cell['byte_order']}-endian {cell['word_bits']}-bit"
        if "version" not in cell:
            rows.append((cell["target"], where, cc, "no", "no", "no"))
        else:
            checked = []
            for suite, log in cell.get("logs", {}).items():
                text, failed = suite_cell(log)
                bad |= failed
                checked.append(f"{suite.replace('check_', '')} {text}")
            extra = "".join(f" + {cell[k]}" for k in ("interleaved", "singles", "x2", "chacha")
                            if cell.get(k))
            built = f"yes ({cell['variants']} kernels{extra} + out/)"
            rows.append((cell["target"], where, cc, "yes", built,
                         ", ".join(checked) if checked else "no"))
    if len(argv) > 1 and argv[1]:
        text, failed = suite_cell(argv[1])
        bad |= failed
        rows.append(("msvc", "x86-64 (syntax)", "clang -fms-compatibility", "yes",
                     "parsed only", f"n/a (files clean: {text})"))
    # tests/e2e_windows.py and tests/e2e_wasm.py: their unittest lines (for Windows each a
    # folder x program x path; for wasm32 the programs under node:wasi and roundsmith.mjs).
    for i, (target, where, cc, built, what) in enumerate((
            ("windows-x64", "Windows x64 ABI (wine64)", "x86_64-w64-mingw32-gcc -O2",
             "out/x86_64, out/portable, 2 generate outputs",
             "self-test + API + registers, every path"),
            ("wasm32", "wasm32-wasi under node", "clang --target=wasm32-wasi -O2",
             "out/wasm32: scalar and -msimd128 builds",
             "self-test + API + sponge/KT128 + multi-buffer, roundsmith.mjs")), 2):
        if len(argv) > i and argv[i]:
            text, failed = suite_cell(argv[i])
            bad |= failed
            rows.append((target, where, cc, "yes", f"yes ({built})", f"{what}: tests {text}"))
    head = ("target", "platform", "compiler", "generated", "built", "vector-checked (checks passed)")
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    print("portability matrix (runs under qemu-user check correctness; their times are not "
          "performance figures)")
    for r in [head] + rows:
        print("  " + "  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
    for cell in plan:
        for m in cell["missing"]:
            print(f"  {cell['target']}: missing {m}")
        if "version" in cell:
            print(f"  {cell['target']}: kernels {cell['variants']} scalar variants (unroll 1, 2, "
                  f"24 x rotation x lane complementing x parity"
                  + (", again with bit-interleaved lanes" if cell.get("interleaved") else "")
                  + f"); build/cross/{cell['target']}/out-folder "
                  f"{cell['out_variant']}"
                  + (f"; single-state {cell['singles'].split()[-1]} kernels in check_keccak"
                     if cell.get("singles") else "")
                  + (f"; x2 kernels ({cell['x2'].split()[-1]}) at unroll 1, 2, 24 under "
                     f"qemu -cpu max" if cell.get("x2") else ""))
    missing_cells = [c["target"] for c in plan if c["missing"]]
    print("test-cross: " + ("FAILED" if bad else "ok")
          + (f"; not fully checked here: {', '.join(missing_cells)}" if missing_cells else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
