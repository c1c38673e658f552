# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Carry the committed profiles over an edit that changed a kind's sources but not the kernels a
profile chose (a comment, a docstring, a new candidate beside the old ones).

    python3 tools/restamp_profiles.py --since REV FAMILY [FAMILY...]

For each profile under generator/profiles/ whose recorded sources hash of FAMILY equals that
family's hash at git revision REV, the hash becomes today's. A profile that was already stale at
REV stays stale: only a re-tune makes it current. Whether the chosen kernels really stayed the
same is the caller's claim; check it with `python3 -m generator bundle --canonical` (out/ must
not change) before committing.
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from generator.choice import profiles  # noqa: E402


def hash_at(rev, family):
    h = hashlib.sha256()
    for rel in profiles.SHAPING[family]:
        try:
            text = subprocess.run(["git", "show", f"{rev}:{rel}"], cwd=profiles.ROOT,
                                  check=True, capture_output=True).stdout
        except subprocess.CalledProcessError:
            # The file did not exist at REV: a source added since (a new model module) was
            # no part of the family's hash then.
            continue
        h.update(profiles.LICENSE_LINE.sub(b"", text, count=1))
    return h.hexdigest()[:16]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--since", required=True, help="the git revision the profiles were current at")
    ap.add_argument("families", nargs="+")
    args = ap.parse_args(argv)
    for family in args.families:
        if family not in profiles.SHAPING:
            print(f"restamp_profiles: no kind {family!r} (kinds: "
                  f"{', '.join(profiles.SHAPING)})", file=sys.stderr)
            return 2
    for name in sorted(os.listdir(profiles.PROFILE_DIR)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(profiles.PROFILE_DIR, name)
        with open(path) as f:
            text = f.read()
        data = json.loads(text)
        sources = data.get("key", {}).get("sources", {})
        changed = []
        for family in args.families:
            old, new = hash_at(args.since, family), profiles.sources_hash(family)
            if family in sources and sources[family] == old and old != new:
                text = text.replace(f'"{family}": "{old}"', f'"{family}": "{new}"', 1)
                changed.append(f"{family} {old} -> {new}")
        if changed:
            with open(path, "w") as f:
                f.write(text)
            print(f"{name}: {'; '.join(changed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
