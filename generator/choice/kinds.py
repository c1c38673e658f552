# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The kinds of kernel, each described once: which folder family its files belong to, the
profile entries the tuner records for it, the model and the templates it renders from, the
bench that races it and the figure that decides, the run-time decisions of a bundle it
serves, its build-graph family. Every list of kernels elsewhere (the --kernels families, the
profiles' shaping sources, the tuner's and the sweeps' metrics, the wasm32 races, the bench
report, the profiles page, the bundle's decisions, the build graph's kernel rows) is derived
from here, so a new kind is one entry here before it is code anywhere else.

The templates a kind depends on are read from the templates themselves (their `import`,
`from`, `include` and `extends`), so editing any template a kernel is printed with marks its
profiles stale without anyone listing it here.

This module sits in choice/, below every user of it, and imports nothing of the generator.
"""

import functools
import os
import re
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEMPLATES = os.path.join(ROOT, "templates")


@dataclass(frozen=True)
class Metric:
    """The bench column that decides, what it means (recorded in a profile), and how a page
    prints it."""
    column: str
    meaning: str
    unit: str
    fmt: str


@dataclass(frozen=True)
class Family:
    """A kernel family a folder can hold (`generate --kernels`, `bundle --kernels`), and the
    figure the native tuner decides its kinds by."""
    name: str
    metric: Metric


@dataclass(frozen=True)
class Kind:
    """A kind of kernel: the unit whose sources hash keeps its profile entries fresh."""
    name: str               # the key of a profile's "sources"
    family: str             # its Family's name
    entries: tuple          # its profile entries, in docs/profiles.md's order
    models: tuple           # the model modules whose maths it prints (generator/model/)
    templates: tuple        # the templates it is rendered from; what they import is read
    bench: str = None       # the bench program that races it (build/<cc>/bench_<bench>)
    build: str = None       # its build-graph family (generator/buildgraph/families.py)
    sweep: tuple = None     # (name, title, what its figure is) for `generator bench`
    decisions: tuple = ()   # the bundle's run-time decisions it serves (rs_dispatch.c)
    wasm: tuple = None      # (entry, race.mjs column, meaning) for the wasm32 tuner


# Each figure is the candidate's median wall-clock TSC cycles over its turns in the
# round-robin, as it is. Not divided by the plain reference's: on a CPU whose clock drops
# after 512-bit code (Intel), a reference timed next to an AVX-512 candidate runs slow and
# flatters it; the reference is a contender like the others.
FAMILIES = (
    Family("keccak", Metric(
        "median_24",
        "TSC cycles per permutation (per instance for x-N), 24 rounds, median of the "
        "turns of a round-robin race of every candidate and the plain reference "
        "(tests/ref, gcc -O3), each turn after a settling warm-up of its own code",
        "cycles", "{:.0f}")),
    Family("chacha", Metric(
        "bulk_median",
        "TSC cycles per byte, ChaCha8 keystream 4096 calls x 128 blocks, median of the "
        "turns of a round-robin race of every candidate, the plain reference and "
        "OpenSSL, each turn after a settling warm-up of its own code",
        "c/B", "{:.3f}")),
)

RACE_NOTE = ("median of the turns of a round-robin race of every candidate in one node process "
             "(tests/wasm/race.mjs), after untimed warm-up turns")
# The multi-buffer widths the bundle decides a kernel for at run time.
MB_WIDTHS = (2, 4, 8)

# In the order docs/profiles.md lists their entries (the x-N shapes widest first), the
# wasm32 tuner races them, and the bundle's table holds its decisions.
KINDS = (
    # The single-state permutation: scalar C, x86-64 assembly, and the single-state vector
    # kernels, which race it in one bench because which wins is a fact of the machine.
    Kind("keccak_scalar", "keccak", ("keccak_scalar",),
         models=("keccak_maths", "x86_lowering", "avx512_lines"),
         templates=("keccak_p1600.h.j2", "keccak_p1600_scalar.c.j2",
                    "keccak_p1600_x86asm.c.j2", "keccak_p1600_avx512.c.j2"),
         bench="keccak", build="keccak",
         sweep=("keccak", "Keccak-p[1600]", "TSC cycles per permutation (24 rounds)"),
         decisions=("single",),
         wasm=("keccak_scalar", "sha3_median",
               "ns per 136-byte block of SHA3-256 over 64 KiB, " + RACE_NOTE)),
    # The x-N shapes, widest first (variants.SIMD_SHAPES with more than one instance).
    Kind("keccak_simd", "keccak", ("keccak_x8_avx512", "keccak_x4_avx512vl", "keccak_x4_avx2",
                                   "keccak_x2_avx512vl", "keccak_x2_sse2"),
         models=("keccak_maths", "simd"),
         templates=("keccak_p1600_xN.h.j2", "keccak_p1600_xN.c.j2"),
         bench="simd", build="keccak_simd",
         sweep=("multi", "Keccak-p[1600] x-N",
                "TSC cycles per permutation per instance (24 rounds)"),
         decisions=tuple(f"mb{n}" for n in MB_WIDTHS) + ("kt128",)),
    # The x2 kernels of AArch64 and WebAssembly (one lane of each state per 128-bit
    # register), one template for every ISA of targets.ARM_X2_ISAS.
    Kind("keccak_x2_arm", "keccak", ("keccak_x2_neon", "keccak_x2_sha3", "keccak_x2_simd128"),
         models=("keccak_maths",),
         templates=("keccak_p1600.h.j2", "keccak_p1600_xN.h.j2", "keccak_p1600_arm.c.j2"),
         wasm=("keccak_x2_simd128", "x2_median",
               "ns per keccak_p1600_x2 call (24 rounds, two states), " + RACE_NOTE)),
    Kind("chacha", "chacha", ("chacha",),
         models=("chacha_maths",),
         templates=("chacha.h.j2", "chacha8.h.j2", "chacha.c.j2"),
         bench="chacha", build="chacha",
         sweep=("chacha", "ChaCha", "TSC cycles per byte (ChaCha8 keystream, 4096 x 128 blocks)"),
         decisions=("chacha",),
         wasm=("chacha", "chacha_median",
               "ns per 64-byte block of the ChaCha20 keystream over 64 KiB, " + RACE_NOTE)),
)

BY_NAME = {k.name: k for k in KINDS}
BY_ENTRY = {e: k for k in KINDS for e in k.entries}
FAMILY = {f.name: f for f in FAMILIES}
# What the lists elsewhere are, derived.
FAMILY_NAMES = tuple(f.name for f in FAMILIES)
ENTRIES = tuple(BY_ENTRY)
DECISIONS = tuple(d for k in KINDS for d in k.decisions)
BENCHES = tuple(k.bench for k in KINDS if k.bench)


def kind_of(entry):
    """The kind of a profile entry, or None for one no kind records."""
    return BY_ENTRY.get(entry)


BY_DECISION = {d: k for k in KINDS for d in k.decisions}


def metric(name):
    """The native figure of a profile entry or of a bundle decision. A name no kind knows
    (written by a later generator) is read as Keccak's, so a page of old and new profiles
    still renders."""
    kind = BY_ENTRY.get(name) or BY_DECISION.get(name)
    return (FAMILY[kind.family] if kind else FAMILIES[0]).metric


# `{% from "x" import ... %}`, `{% import "x" as y %}`, `{% include "x" %}`,
# `{% extends "x" %}` with a literal name: what jinja2.meta reads, for an interpreter
# without Jinja2 (configure.py may run under one and still looks profiles up).
REFERENCE = re.compile(r"""\{%-?\s*(?:from|import|include|extends)\s+(["'])([^"']+)\1""")


@functools.lru_cache(maxsize=None)
def referenced(name):
    """The templates `name` names directly, in the order it names them."""
    with open(os.path.join(TEMPLATES, name), encoding="utf-8") as f:
        text = f.read()
    try:
        import jinja2
        import jinja2.meta
    except ImportError:
        return tuple(dict.fromkeys(m.group(2) for m in REFERENCE.finditer(text)))
    found = list(jinja2.meta.find_referenced_templates(jinja2.Environment().parse(text)))
    if None in found:
        # A name computed at render time cannot be followed, so the profiles could go stale
        # unnoticed: such a template is refused rather than half tracked.
        raise ValueError(f"templates/{name} names a template it computes; a kernel's "
                         f"templates must name what they import literally")
    return tuple(dict.fromkeys(found))


def templates_of(kind):
    """Every template a kind is rendered from: its own, and whatever they import, recursively,
    each once, in the order first reached."""
    seen = {}

    def walk(name):
        if name not in seen:
            seen[name] = None
            for sub in referenced(name):
                walk(sub)
    for top in kind.templates:
        walk(top)
    return tuple(seen)


def sources(kind):
    """The files whose change can change which variant of a kind wins: its model modules and
    its templates (paths from the repository's root)."""
    return (tuple(f"generator/model/{m}.py" for m in kind.models)
            + tuple(f"templates/{t}" for t in templates_of(kind)))
