#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Sum up the logs of every test suite into one closing line: N passed, N failed, N skipped.

Reads Check's '100%: Checks: N, Failures: F, Errors: E' lines, unittest's 'Ran N tests' and
'FAILED (...)' lines, 'SKIP' lines, and TAP lines ('ok N - ...', 'not ok N - ...', '# SKIP')
from the constant-time and fuzz runners; exits 1 if anything failed or a suite did not finish.
Every skip is listed by name with its reason before the closing line: a test that could not
run here (a tool not installed) must be seen, not just counted. A log may hold only SKIP lines:
configure writes one for the edges it left out (build/skipped.log).
"""

import re
import sys


def summarize(path):
    with open(path, errors="replace") as f:
        text = f.read()
    passed = failed = 0
    skipped = len(re.findall(r"^SKIP ", text, re.M))
    checks = re.findall(r"^\d+%: Checks: (\d+), Failures: (\d+), Errors: (\d+)", text, re.M)
    for n, fails, errors in checks:
        failed += int(fails) + int(errors)
        passed += int(n) - int(fails) - int(errors)
    ran = re.search(r"^Ran (\d+) tests?", text, re.M)
    if ran:
        bad = re.search(r"^FAILED \(([^)]*)\)", text, re.M)
        n_bad = sum(int(v) for v in re.findall(r"(?:failures|errors)=(\d+)", bad.group(1))) \
            if bad else 0
        skip = re.search(r"skipped=(\d+)", text)
        n_skip = int(skip.group(1)) if skip else 0
        failed += n_bad
        skipped += n_skip
        passed += int(ran.group(1)) - n_bad - n_skip
    tap = re.findall(r"^(ok|not ok)\b(.*)$", text, re.M)
    for verdict, rest in tap:
        if "# SKIP" in rest:
            skipped += 1
        elif verdict == "ok":
            passed += 1
        else:
            failed += 1
    status = re.search(r"^exit status (\d+)", text, re.M)
    broken = not (checks or ran or tap or skipped) or bool(
        status and status.group(1) != "0" and failed == 0)
    return passed, failed, skipped, broken


# unittest -v: "test_x (module.Class.test_x) ... skipped 'why'", the docstring's first line
# between the name and the dots when the test has one, test output possibly in between too.
UNITTEST_NAME = re.compile(r"^(\w+) \(([\w.]+)\)", re.M)
UNITTEST_SKIP = re.compile(r"\.\.\. skipped '(.*)'$", re.M)


def skips(path):
    """[(name, reason)] of every skip a log reports."""
    with open(path, errors="replace") as f:
        text = f.read()
    out = [(f"{path}: {m.group(1)}", m.group(2))
           for m in re.finditer(r"^SKIP (.*?): (.*)$", text, re.M)]
    out += [(f"{path}: {m.group(1).strip()}", m.group(2).strip())
            for m in re.finditer(r"^ok \d+ - (.*?)# SKIP(.*)$", text, re.M)]
    names = list(UNITTEST_NAME.finditer(text))
    for m in UNITTEST_SKIP.finditer(text):
        head = [n for n in names if n.start() < m.start()]
        if head:
            method, dotted = head[-1].groups()
            name = dotted if dotted.endswith("." + method) else f"{dotted}.{method}"
        else:
            name = path
        out.append((name, m.group(1)))
    return out


def main(paths):
    total = [0, 0, 0]
    broken = []
    for path in paths:
        p, f, s, b = summarize(path)
        total = [total[0] + p, total[1] + f, total[2] + s]
        mark = "BROKEN (see log)" if b else ("FAILED" if f else "ok")
        print(f"  {path}: {p} passed, {f} failed, {s} skipped  {mark}")
        if b:
            broken.append(path)
    for path in paths:
        for name, why in skips(path):
            print(f"  {name}: skipped: {why}")
    for path in broken:
        print(f"--- {path} did not finish cleanly:")
        with open(path, errors="replace") as f:
            print("".join(f.readlines()[-30:]), end="")
    print(f"{total[0]} passed, {total[1] + len(broken)} failed, {total[2]} skipped")
    return 1 if total[1] or broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
