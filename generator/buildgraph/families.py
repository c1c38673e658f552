# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The family registry: one row per family of the build graph, in the order its edges are
written. A kernel family is a variant space (generator/variants.py) and the tests of it; the
out/ sponge checks the vendorable folder; the bundles and the cross targets consume what the
others generate. docs/adding-a-family.md says how to add one.

Each row names the family's module, whose functions write its edges (each optional):

  per_compiler(w, ctx, suite)  one compiler's build of the variant matrix (matrix.Suite):
                               compile the family's variants, add its Check suite (`ninja
                               test`) and its bench (`ninja bench`, `ninja tune`, the report)
  vendored(w, ctx)             checks of what users get: out/ built by --cc (`ninja test`,
                               `ninja check-out`), the committed bundles
  elsewhere(w, ctx)            other targets: cross builds under qemu (`ninja test-cross`),
                               MSVC syntax

and, as data, what the instrumented flavours (flags.FLAVOURS: sanitizers, constant time,
fuzzing; written by instrumented.py) build and run of it.
"""

import dataclasses

from generator.choice import kinds, variants
from generator.buildgraph import (bundles, chacha, cross, keccak, keccak_simd, snp_xn, sponge,
                                  sponge_xn)


@dataclasses.dataclass(frozen=True)
class Family:
    name: str                  # also the key of flags.FLAVOURS' subsets
    module: object             # the functions that write its edges (above)
    # The variants a compiler can build, space(target, caps), and the part of them a subset
    # name keeps, subset(space, name); the testsuite command generates them, each under its
    # own symbol prefix, with the registry its harnesses walk. None: the family has no
    # variant space (the out/ sponge checks out/ itself).
    space: object = None
    subset: object = None
    subset_option: str = None  # the testsuite variable that carries the subset name
    headers: tuple = ()        # what the testsuite command writes for it besides the
                               # variants: its registry first (harnesses wait for it), vectors
    # Test data that an edge of the family's own writes once for every compiler and flavour
    # (not the testsuite command), so the testsuite edges and what waits on them stay as
    # they are: its harnesses get its folder as an include path and wait for it.
    vectors: str = None
    yardstick: bool = False    # the compiler's default scalar kernel is linked too
    # Instrumented flavours: the Check harness and the plain sources it links, the
    # constant-time harness, and each libFuzzer target with the extra sources it links.
    check: str = None
    support: tuple = ()
    ct: str = None
    fuzz: tuple = ()           # ((name, harness, (extra sources...)), ...)


def kernel_family(kind, module, space, subset, subset_option, **rest):
    """The row of a kind of kernel (choice/kinds.py), its name the kind's build name: the
    testsuite headers and the harnesses are named after it, so a new kind's files are found
    where its row says without a list of its own."""
    name = kinds.BY_NAME[kind].build
    return Family(name, module, space=space, subset=subset, subset_option=subset_option,
                  headers=(f"{name}_variants.h", f"{name}_vectors.h"),
                  check=f"tests/check_{name}.c", ct=f"tests/ct/ct_{name}.c", **rest)


FAMILIES = (
    kernel_family("keccak_scalar", keccak, variants.keccak_scalar_space, variants.keccak_subset,
                  "subset", support=("tests/ref/keccak_ref.c",),
                  fuzz=(("keccak_vs_ref", "tests/fuzz/keccak_vs_ref.c",
                         ("tests/ref/keccak_ref.c",)),)),
    kernel_family("keccak_simd", keccak_simd, variants.keccak_simd_space,
                  variants.keccak_simd_subset, "simd_subset", yardstick=True,
                  fuzz=(("keccak_xN", "tests/fuzz/keccak_xN.c", ()),)),
    kernel_family("chacha", chacha, variants.chacha_space, variants.chacha_subset,
                  "chacha_subset", support=("tests/ref/chacha_ref.c",),
                  fuzz=(("chacha_keystream", "tests/fuzz/chacha_keystream.c",
                         ("tests/ref/chacha_ref.c",)),)),
    Family("sponge", sponge, headers=("sponge_vectors.h",),
           check="tests/check_sponge.c", ct="tests/ct/ct_sponge.c",
           fuzz=(("sponge_splits", "tests/fuzz/sponge_splits.c", ()),
                 ("sp800185_splits", "tests/fuzz/sp800185_splits.c", ()))),
    Family("bundles", bundles),
    Family("cross", cross),
    Family("sponge_xN", sponge_xn, vectors=sponge_xn.VECTORS,
           check=sponge_xn.CHECK, ct="tests/ct/ct_sponge_xN.c",
           fuzz=(("sponge_xN", "tests/fuzz/sponge_xN.c", ()),)),
    Family("snp_xN", snp_xn, vectors=snp_xn.VECTORS),
)
