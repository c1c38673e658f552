#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Add the repository's license line to every hand-written source that lacks it (the files
tests/test_vendor.py checks), after a shebang if there is one. Prints what it changed.

usage: python3 tools/spdx_stamp.py [--check]   (--check: list them, change nothing, exit 1)
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.test_vendor import HAND_WRITTEN, hand_written, unlicensed  # noqa: E402

COMMENT = {"c": "/* {} */\n", "h": "/* {} */\n", "j2": "{{# {} #}}\n"}


def stamp(rel):
    path = os.path.join(ROOT, rel)
    ext = rel.rsplit(".", 1)[-1] if "." in os.path.basename(rel) else ""
    line = COMMENT.get(ext, "# {}\n").format(HAND_WRITTEN)
    with open(path) as f:
        text = f.read()
    if text.startswith("#!"):
        first, rest = text.split("\n", 1)
        text = f"{first}\n{line}{rest}"
    else:
        text = line + text
    with open(path, "w") as f:
        f.write(text)


def main(argv):
    missing = unlicensed(hand_written(), HAND_WRITTEN)
    for rel in missing:
        print(rel)
        if "--check" not in argv:
            stamp(rel)
    return 1 if missing and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
