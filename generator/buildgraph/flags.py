# SPDX-License-Identifier: Apache-2.0 OR MIT
"""How each build compiles: the compilers roundsmith knows and their flags, the instrumented
flavours (sanitizers, constant time, fuzzing) and the cross builds. Data only."""

KNOWN_COMPILERS = ("gcc", "clang", "tcc")
WARNINGS = {"gcc": "-Wall -Wextra -pedantic -Werror", "clang": "-Wall -Wextra -pedantic -Werror",
            "tcc": "-Wall -Werror"}
DEFAULT_OPT = {"gcc": "-O3 -march=native", "clang": "-O3 -march=native", "tcc": "-O2"}

SANITIZE = "-fsanitize=address,undefined -fno-sanitize-recover=all"
# Instrumented builds of the variant matrix, in build/<cc>-<flavour>/. `subset` (per family)
# trades coverage for build time.
FLAVOURS = {
    # clang's objects also carry libFuzzer's coverage hooks, so the fuzz targets link the
    # very objects the sanitized Check suite tested instead of compiling them again.
    "asan": {"compilers": ("gcc", "clang"),
             "subset": {"keccak": "representative", "keccak_simd": "representative",
                        "chacha": "representative"},
             # gcc's sanitized build covers what users compile with gcc, out/'s code (the
             # sponge families link it); the variant matrices, kernel code whose undefined
             # behaviour or stray access does not depend on the compiler that finds it, are
             # clang's alone (its objects feed the fuzz targets too): 280 s of CPU less.
             "families_by_compiler": {"gcc": ("sponge", "sponge_xN")},
             "cflags": {"gcc": f"-O1 -g -fno-omit-frame-pointer {SANITIZE}",
                        "clang": f"-O1 -g -fno-omit-frame-pointer {SANITIZE} "
                                 "-fsanitize=fuzzer-no-link"},
             "ldflags": SANITIZE},
    # Built the way users build (-O2), for an instruction set valgrind 3.19 can execute: it
    # stops at the first AVX-512 instruction, and -march=native here would emit some. Its
    # debug-info reader gives up on clang 14's default DWARF 5, hence -gdwarf-4.
    "ct": {"compilers": ("gcc", "clang", "tcc"),
           "subset": {"keccak": "valgrind", "keccak_simd": "valgrind", "chacha": "valgrind"},
           "cflags": {"gcc": "-O2 -g -march=x86-64-v3",
                      "clang": "-O2 -gdwarf-4 -march=x86-64-v3",
                      "tcc": "-O2 -g"},
           "ldflags": ""},
}
FUZZ_FLAGS = f"-O1 -g {SANITIZE} -fsanitize=fuzzer"

# -O2 rather than the host's -O3 -march=native: there is no native CPU to tune for, and the
# point of a cross build is correctness under a foreign byte order and word size, not speed.
CROSS_CFLAGS = "-O2 -Wall -Wextra -pedantic -Werror"


def optimisation(args, cc):
    """The optimisation flags compiler `cc` (a probe) builds kernels with."""
    return args.cflags if args.cflags is not None else DEFAULT_OPT.get(cc["id"], "-O2")
