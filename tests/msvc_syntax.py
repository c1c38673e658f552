#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""MSVC-cleanliness of generated sources, without MSVC: clang in MSVC mode, syntax only.

usage: msvc_syntax.py CLANG FILE.c...

clang --target=x86_64-pc-windows-msvc -fms-compatibility defines _MSC_VER and not __GNUC__,
so every guarded branch the sources take under MSVC is the one parsed here, and -Wgnu flags
a GNU extension left outside a guard. The MSVC C runtime headers are not on Linux: the few
declarations the sources (and clang's own intrin.h) need come from stubs in tests/msvc/.
Prints one line per file and a closing line in Check's format for tests/summarize.py.
"""

import os
import subprocess
import sys

FLAGS = ["--target=x86_64-pc-windows-msvc", "-fms-compatibility", "-fsyntax-only",
         "-Wall", "-Wextra", "-Wgnu", "-Werror"]
STUBS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "msvc")


def main(argv):
    clang, files = argv[0], argv[1:]
    failures = 0
    for path in files:
        r = subprocess.run([clang, *FLAGS, "-isystem", STUBS, "-I", os.path.dirname(path), path],
                           capture_output=True, text=True)
        if r.returncode:
            failures += 1
            print(f"FAIL {path}\n{r.stderr}", end="")
        else:
            # Not "ok": tests/summarize.py reads such lines as TAP and would count each file
            # twice with the Checks line below.
            print(f"clean {path}")
    pct = 100 * (len(files) - failures) // max(len(files), 1)
    print(f"{pct}%: Checks: {len(files)}, Failures: {failures}, Errors: 0")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
