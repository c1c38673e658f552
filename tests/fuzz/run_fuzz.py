#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Run one libFuzzer target for a bounded time and print its verdict as a TAP line.

usage: run_fuzz.py EXE SECONDS SEEDS CORPUS ARTIFACT_PREFIX

The committed seeds are read only; what the fuzzer learns goes to CORPUS (under build/), and
a crashing input to ARTIFACT_PREFIX*, so a run never writes into the source tree. Exits 0
either way, like every test runner here: tests/summarize.py reads the verdict.
"""

import os
import re
import subprocess
import sys


def main(exe, seconds, seeds, corpus, artifacts):
    os.makedirs(corpus, exist_ok=True)
    name = os.path.basename(exe)
    cmd = [exe, f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=20",
           "-rss_limit_mb=2048", f"-artifact_prefix={artifacts}", corpus, seeds]
    print("$ " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    print(r.stdout)
    runs = re.findall(r"^stat::number_of_executed_units:\s*(\d+)", r.stdout, re.M)
    crashes = re.findall(r"^(?:==\d+==\s*ERROR|SUMMARY: |MISMATCH |.*runtime error:)",
                         r.stdout, re.M)
    if r.returncode == 0 and runs and not crashes:
        print(f"ok 1 - fuzz {name}: {runs[-1]} executions in {seconds} s, no failure")
    else:
        print(f"not ok 1 - fuzz {name}: exit {r.returncode} after "
              f"{runs[-1] if runs else 'an unknown number of'} executions; "
              f"crashing input saved as {artifacts}*")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
