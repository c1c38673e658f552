# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The goals users type: `ninja test`, `test-long`, `test-sanitize`, `fuzz`, `check-out` (the
default), `bench`, `tune`, `tune-quick`, `report`; each lists what the families added to it
(context.GOALS)."""

import glob
import os

from generator.buildgraph import proofs
from generator.choice import kinds
from generator.buildgraph.ninja import ROOT, esc, rel

# The bench kinds `python3 -m generator tune` takes (--bench-KIND) besides keccak's, which
# every compiler of the matrix builds.
TUNED = tuple(b for b in kinds.BENCHES if b != "keccak")
# Why a goal no family could add anything to is unavailable here.
WHY = {"test-long": "the above-4-GiB checks need Linux and a host build",
       "test-sanitize": "no compiler of the test matrix links "
                        "-fsanitize=address,undefined (gcc or clang)",
       "fuzz": "clang cannot link -fsanitize=fuzzer "
               "(apt-get install -y clang libclang-rt-14-dev)"}


UNIT_LOG = os.path.join("build", "unittest.log")
CONFIGURE_LOG = os.path.join("build", "configure_e2e.log")
FRESH_CLONE_LOG = os.path.join("build", "fresh_clone_e2e.log")


def python_suites(w, ctx):
    """The long single-process Python suites, written first: ninja 1.11 starts ready edges in
    the order of the file, so these run beside the compiles instead of after them (they were
    the last 5 minutes of a CI run). The proofs (generator/buildgraph/proofs.py) follow."""
    # tests/test_docs.py reads the docs, configure.py's parser and the CLI reference script.
    w.build([UNIT_LOG], "unittest", implicit=ctx.gen_inputs + sorted(
        rel(p) for p in glob.glob(os.path.join(ROOT, "tests", "*.py"))
        + glob.glob(os.path.join(ROOT, "docs", "*.md"))) + [
        "README.md", "configure.py", "tools/cli_reference.py", ".ci/run"])
    # configure.py itself, in a copy of the tree: every target with a prefix, hostile options.
    w.build([CONFIGURE_LOG], "e2e_module", implicit=[
        "configure.py", "tests/e2e_configure.py", "tests/configure_driver.py",
        "generator/toolprobe.py"] + sorted(
        rel(p) for p in glob.glob(os.path.join(ROOT, "generator", "buildgraph", "*.py"))),
        variables=[("module", "tests.e2e_configure")])
    # A clone of the committed tree in an empty folder: the README's set-up and a short build.
    w.build([FRESH_CLONE_LOG], "e2e_module", implicit=[
        "configure.py", "tests/e2e_fresh_clone.py"] + ctx.gen_inputs,
        variables=[("module", "tests.e2e_fresh_clone")])
    w.blank()
    proofs.edges(w, ctx)


def summaries(w, ctx):
    """The test goals (each closes with one line: N passed, N failed, N skipped), out/'s
    checks, and the benches."""
    goals = ctx.goals
    unit_log, configure_log = UNIT_LOG, CONFIGURE_LOG
    # The bench programs' command lines (one compiler's: the parsing is the same C for all).
    bench_log = os.path.join("build", "bench_cli.log")
    progs = []
    if ctx.test_ccs:
        first = ctx.test_ccs[0]["cc"]
        progs = sorted(dict.fromkeys(
            list(ctx.benches["all"].get(first, {}).values())
            + [p for p in goals["bench-sponge"] if p.startswith(os.path.join("build", first, ""))]
            + goals["bench-bundle"]))
    if progs:
        w.build([bench_log], "e2e_module", implicit=progs + ["tests/e2e_bench_cli.py"],
                variables=[("module", "tests.e2e_bench_cli"),
                           ("e2e_env", "RS_BENCH_PROGRAMS='" + " ".join(progs) + "'")])
    w.build(["test"], "summarize", [unit_log, configure_log, FRESH_CLONE_LOG]
            + ([bench_log] if progs else [])
            + goals["test"] + skipped_log(ctx), implicit=["tests/summarize.py"])
    for name in ("test-long", "test-sanitize", "fuzz"):
        if goals[name]:
            w.build([name], "summarize", goals[name], implicit=["tests/summarize.py"])
        else:
            w.build([name], "unavailable", variables=[("why", WHY[name])])
    w.build(["generated"], "describe", order_only=goals["check-out"],
            variables=[("outdir", ctx.out.dir)])
    w.build(["check-out"], "phony", goals["check-out"] + goals["programs"] + ["generated"])
    w.build(["bench-keccak"], "bench",
            [p for cc in ctx.test_ccs for p in ctx.benches["all"][cc["cc"]].values()],
            implicit=["bench/bench_table.py"])
    w.build(["bench-sponge"], "bench_each", goals["bench-sponge"])
    w.build(["bench-bundle"], "bench_each", goals["bench-bundle"])
    w.build(["bench-vendor"], "bench_vendor", implicit=["bench/bundle_cost.py",
                                                        "bench/bench_selftest.c"])
    w.build(["bench"], "phony", ["bench-keccak", "bench-sponge", "bench-bundle"])


SKIPPED_LOG = os.path.join("build", "skipped.log")


def skipped_log(ctx):
    """What configure left out of `ninja test` for a missing tool, as SKIP lines the summary
    lists by name (written now, read by the test edge): [its path], or [] when nothing is."""
    path = os.path.join(ROOT, SKIPPED_LOG)
    if not ctx.skipped:
        if os.path.exists(path):
            os.remove(path)
        return []
    text = "".join(f"SKIP {what}: {why}\n" for what, why in ctx.skipped)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:  # unchanged, untouched: ninja would otherwise rerun the summary for it
        with open(path, "w") as f:
            f.write(text)
    return [SKIPPED_LOG]


def tuning(w, ctx):
    """`ninja tune` times every candidate each compiler built (verified first) and records
    the winners; `ninja tune-quick` the pruned space, built apart (build/<cc>/quick/) so that
    it compiles only its own candidates. No timing starts before every candidate of every
    compiler is built: a compile on the other core would disturb it."""
    for edge, subset in (("tune", "all"), ("tune-quick", "quick")):
        progs = ctx.benches[subset]
        everything = sorted(p for cc in ctx.test_ccs for p in progs[cc["cc"]].values())
        stamps = []
        for cc in ctx.test_ccs:
            mine = progs[cc["cc"]]
            stamp = f"build/{cc['cc']}/{edge}.stamp"
            w.build([stamp], "tune", [mine["keccak"]], implicit=everything,
                    variables=[("ccid", cc["id"]), ("ccversion", cc["version"]),
                               ("cflags", ctx.optimisation(cc)), ("target", ctx.target.name),
                               ("caps", ",".join(cc["caps"])),
                               ("tuneargs", " ".join(f"--bench-{k} {mine[k]}"
                                                     for k in TUNED if k in mine)
                                + (" --quick" if subset == "quick" else ""))])
            stamps.append(stamp)
        w.build([edge], "phony", stamps)


def report(w, ctx):
    """`ninja report`: every bench's rows (--tsv) per compiler, then tables and plots in
    out/report/."""
    everything = sorted(p for cc in ctx.test_ccs
                        for p in ctx.benches["all"][cc["cc"]].values()) + ctx.goals["bench-sponge"]
    tsvs = []
    for cc in ctx.test_ccs:
        progs = dict(ctx.benches["all"][cc["cc"]])
        if cc["cc"] in ctx.benches["out"]:
            progs["sponge"] = ctx.benches["out"][cc["cc"]]
        for bench, prog in sorted(progs.items()):
            tsv = os.path.join("build", "report", f"{cc['cc']}-{bench}.tsv")
            w.build([tsv], "bench_tsv", [prog], implicit=everything + ["always"])
            tsvs.append(tsv)
    report_md = os.path.join("out", "report", "report.md")
    w.build([report_md], "report", tsvs, implicit=ctx.gen_inputs,
            variables=[("outdir", os.path.join("out", "report")),
                       ("python", esc(ctx.plots_python))])
    w.build(["report"], "phony", [report_md])
    w.lines.append("default check-out")
