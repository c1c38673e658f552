# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The benches' machine-readable output (`--tsv`): one header line, then one row per variant
(or contender). A row that stops after its status column (a variant skipped for lack of a CPU
feature, or one that got a vector wrong and was not timed) has no figures. Read by the tuner
and the report; nothing here times anything."""

import subprocess

from ..errors import UsageError


def parse_tsv(text):
    """Rows of a bench's --tsv output as dicts: numbers as floats, empty columns left out."""
    lines = [l for l in text.splitlines() if l.strip()]
    if not lines:
        return []
    head = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        row = {}
        for name, value in zip(head, line.split("\t")):
            try:
                row[name] = float(value)
            except ValueError:
                row[name] = value
        rows.append(row)
    return rows


def ok(row):
    return row.get("status") == "ok"


def run(command, progress=None):
    """Run a bench with --tsv (its command line given whole); `progress(n, row)` is called
    for each row as it arrives. Returns the rows; a bench that cannot run, is not one or fails
    raises UsageError (one line, exit 2)."""
    try:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, errors="replace")
    except OSError as e:
        raise UsageError(f"cannot run {command[0]}: {e.strerror}") from None
    try:
        return _read(proc, command, progress)
    except BaseException:
        # Ctrl-C (or a reader's error): the bench must not outlive the folder it runs from.
        proc.kill()
        proc.wait()
        raise


def _read(proc, command, progress):
    head, rows = None, []
    for line in proc.stdout:
        if head is None:
            head = line
            if "variant" not in head.split("\t"):
                proc.kill()
                proc.wait()
                raise UsageError(f"{command[0]} is not a bench program: its --tsv output has "
                                 "no variant column")
            continue
        row = parse_tsv(head + line)[0]
        rows.append(row)
        if progress:
            progress(len(rows), row)
    if proc.wait() != 0:
        raise UsageError(f"{command[0]} failed (exit status {proc.returncode})")
    return rows
