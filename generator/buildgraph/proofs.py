# SPDX-License-Identifier: Apache-2.0 OR MIT
"""`ninja test`'s proofs (tests/e2e_prove.py): each committed bundle the prover covers proven
whole by `python3 -m generator prove`, the planted bugs each caught with a counterexample that
differs when run, and the intrinsic models checked against this CPU's instructions. Written
with the long Python suites, so they run beside the compiles.

`ninja prove-matrix`: every variant the Check suites build (a test-matrix compiler's testsuite
folder holds every variant's files), proven under every compiler's branch. Not part of `ninja
test`: it is hours of work on two cores (docs/proof.md).
"""

import glob
import os

from generator import toolprobe
from generator.buildgraph.families import FAMILIES
from generator.emit import outfolder
from generator.buildgraph.ninja import ROOT, esc, rel

# The bundles the prover has configurations for (wasm32's SIMD128 branch has no models).
PROVEN = ("portable", "x86_64", "aarch64")
PLANTED = ("PlantedBugs", "HelperContracts", "WrapperLemma", "SharedRoads", "Replay",
           "SharedRecordings", "Variants", "AsmRotations", "SingleStateAvx512")
RENDERING = ("Variants", "AsmRotations", "SingleStateAvx512")


def edges(w, ctx):
    prover = sorted(rel(p) for p in glob.glob(os.path.join(ROOT, "generator", "prove", "**",
                                                           "*.*"), recursive=True)
                    if not p.endswith(".pyc"))
    inputs = prover + ["tests/e2e_prove.py", "generator/toolprobe.py"]
    logs = []
    for name in PROVEN:
        folder = os.path.join(ROOT, "out", name)
        if not os.path.isdir(folder):
            continue
        log = os.path.join("build", "prove", f"bundle_{name}.log")
        w.build([log], "e2e_module", implicit=inputs + sorted(
            rel(os.path.join(folder, f)) for f in outfolder.listing(folder)),
            variables=[("module", f"tests.e2e_prove.Bundle_{name}")])
        logs.append(log)
    planted = sorted(rel(os.path.join(ROOT, "out", n, f)) for n in ("portable", "x86_64")
                     for f in outfolder.listing(os.path.join(ROOT, "out", n)))
    for cls in PLANTED + ("ModelCheck_x86_64",):
        log = os.path.join("build", "prove", f"{cls}.log")
        # These render the variants they prove: the templates and generator are theirs too.
        rendered = list(ctx.gen_inputs) if cls in RENDERING else []
        w.build([log], "e2e_module", implicit=inputs + rendered +
                (planted if cls in PLANTED else []),
                variables=[("module", f"tests.e2e_prove.{cls}")])
        logs.append(log)
    # Every function of the bundles seen by some configuration, and a hidden one failing.
    log = os.path.join("build", "prove", "Visibility.log")
    w.build([log], "e2e_module", implicit=inputs + sorted(
        rel(os.path.join(ROOT, "out", n, f)) for n in PROVEN
        if os.path.isdir(os.path.join(ROOT, "out", n))
        for f in outfolder.listing(os.path.join(ROOT, "out", n))),
        variables=[("module", "tests.e2e_prove.Visibility")])
    logs.append(log)
    logs += _api_edges(w, inputs)
    # Under qemu-aarch64 with the cross compiler: rerun when those tools appear.
    log = os.path.join("build", "prove", "ModelCheck_aarch64.log")
    w.build([log], "e2e_module", implicit=inputs,
            variables=[("module", "tests.e2e_prove.ModelCheck_aarch64")]
            + toolprobe.tools_here(toolprobe.A64_TOOLS))
    logs.append(log)
    for log in logs:
        ctx.add(log, "test")
    matrix(w, ctx, inputs)
    w.blank()


def matrix(w, ctx, inputs):
    prover = toolprobe.python_with(("jinja2", "pycparser", "z3"))
    # gcc's and clang's testsuite folders hold the same files; tcc's a part of them.
    gens = [os.path.join(ctx.compiler_dir(cc), "gen") for cc in ctx.test_ccs
            if cc["id"] != "tcc"] or [os.path.join(ctx.compiler_dir(cc), "gen")
                                      for cc in ctx.test_ccs]
    folders = gens[:1]
    if prover is None or not folders:
        w.build(["prove-matrix"], "unavailable", variables=[(
            "why", "no test-matrix compiler" if prover else
            "no interpreter here imports jinja2, pycparser and z3 (apt-get install -y "
            "python3-z3 python3-pycparser)")])
        return
    log = os.path.join("build", "prove", "matrix.log")
    # Each family's registry is written by the testsuite edge with the variants' files.
    registries = [os.path.join(f, fam.headers[0]) for f in folders for fam in FAMILIES
                  if fam.headers]
    w.build([log], "prove", implicit=inputs + registries,
            variables=[("prover", esc(prover)), ("folders", " ".join(folders))])
    w.build(["prove-matrix"], "phony", [log])


def _api_edges(w, inputs):
    """The byte layer's planted bugs (prove --api) on a copy of out/portable, and a proof
    shared by the folders whose text of a function is the same. The committed
    folder's own public functions (tests.e2e_prove_api.ApiBundles) take over an hour of one
    core, past this suite's budget: that test is run by hand."""
    folders = sorted(rel(os.path.join(ROOT, "out", n, f)) for n in ("portable", "x86_64")
                     for f in outfolder.listing(os.path.join(ROOT, "out", n)))
    logs = []
    for cls in ("ApiPlantedBugs", "SharedAcrossFolders"):
        log = os.path.join("build", "prove", f"{cls}.log")
        w.build([log], "e2e_module", implicit=inputs + ["tests/e2e_prove_api.py"] + folders,
                variables=[("module", f"tests.e2e_prove_api.{cls}")])
        logs.append(log)
    return logs
