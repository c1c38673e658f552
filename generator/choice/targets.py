# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Targets: architecture x ISA descriptions, and the default choice per compiler.

A target says what instructions a kernel may use; a compiler says what it can express
(configure.py probes that). The defaults below are the measured winners on the reference
machine (see docs/performance.md); `generator tune` will replace them with recorded profiles.
"""

import platform
import re
from dataclasses import dataclass

from ..errors import UsageError
from .variants import (CHACHA_ISAS, CHACHA_ROUNDS, FAMILIES, SIMD_SHAPES, ChachaVariant,
                       KeccakVariant, SimdKeccakVariant, parse_unroll)


@dataclass(frozen=True)
class Target:
    name: str
    arch: str
    description: str
    rotations: tuple
    cpu_features: tuple = ()
    vector_isas: tuple = ()
    chacha_isas: tuple = ("scalar",)
    # Cross-testing facts (empty for targets only built natively): the Debian cross gcc's
    # triplet (gcc-<triplet> package, <triplet>-gcc command), the qemu-user binary that runs
    # its executables, the CPU qemu emulates, and the byte order the sources must get right.
    triplet: str = ""
    qemu: str = ""
    qemu_cpu: str = ""
    byte_order: str = "little"
    word_bits: int = 64
    # Flags the target's kernels are compiled with (an ISA extension the C reaches through
    # the compiler, with no template of its own).
    cflags: str = ""
    # How the scalar kernel may be written: C, and on x86-64 also the generator's own
    # inline-assembly lowering (generator/x86asm.py).
    scalar_isas: tuple = ("scalar",)
    # Lane layouts its test matrix covers (variants.LANE_LAYOUTS; any target can generate
    # either): 32-bit targets add the bit-interleaved one.
    lane_layouts: tuple = ("plain",)


TARGETS = {
    "x86_64": Target("x86_64", "x86_64", "x86-64, scalar 64-bit lanes, optional BMI2 rotations",
                     rotations=("shift", "builtin", "rol", "rorx"),
                     cpu_features=("bmi2", "sse2", "avx2", "avx512f", "avx512vl"),
                     vector_isas=("sse2", "avx2", "avx512vl", "avx512"),
                     chacha_isas=("scalar", "sse2", "ssse3", "avx2", "avx512"),
                     scalar_isas=("scalar", "x86asm")),
    "generic64": Target("generic64", "any", "portable C99 for any 64-bit-capable compiler",
                        rotations=("shift", "builtin")),
}

# Cross targets: the portable scalar kernel on other architectures, built with Debian's cross
# gcc and run under qemu-user. Rotations are the portable ones: the x86 asm strategies would
# not assemble there. A target with new instructions adds a template and names it here:
# aarch64's "neon" and "sha3" are its x2 kernels (keccak_p1600_arm.c.j2) on base NEON and
# on the Armv8.2-A SHA3 extension, checked under `qemu-aarch64 -cpu max`, which emulates it.
CROSS_TARGETS = {
    "aarch64": Target("aarch64", "aarch64", "ARMv8-A 64-bit, little-endian, scalar lanes",
                      rotations=("shift", "builtin"), vector_isas=("neon", "sha3"),
                      chacha_isas=("scalar", "neon"),
                      triplet="aarch64-linux-gnu", qemu="qemu-aarch64", qemu_cpu="max"),
    "s390x": Target("s390x", "s390x", "IBM Z, big-endian 64-bit: every byte-order step explicit",
                    rotations=("shift", "builtin"),
                    triplet="s390x-linux-gnu", qemu="qemu-s390x", byte_order="big"),
    "armhf": Target("armhf", "arm", "ARMv7-A hard-float, 32-bit: 64-bit lanes in register pairs",
                    rotations=("shift", "builtin"),
                    triplet="arm-linux-gnueabihf", qemu="qemu-arm", word_bits=32,
                    lane_layouts=("plain", "interleaved")),
    "riscv64": Target("riscv64", "riscv64", "RV64GC, little-endian, scalar lanes",
                      rotations=("shift", "builtin"),
                      triplet="riscv64-linux-gnu", qemu="qemu-riscv64"),
    # Zbb has rotate instructions; the same C compiled for it turns both rotation strategies
    # into them, so this target is flags only (and qemu told to emulate Zbb).
    "riscv64-zbb": Target("riscv64-zbb", "riscv64", "RV64GC with Zbb: rotations in one instruction",
                          rotations=("shift", "builtin"), triplet="riscv64-linux-gnu",
                          qemu="qemu-riscv64", qemu_cpu="rv64,zbb=true",
                          cflags="-march=rv64gc_zbb"),
}
TARGETS.update(CROSS_TARGETS)

# WebAssembly: a module has no run-time feature test (an engine without SIMD128 refuses to
# compile a module that uses it), so its bundle is one folder built twice, with and without
# clang's -msimd128, and the preprocessor (__wasm_simd128__) picks the path. wasm has native
# 64-bit integers and i64.rotl, so the scalar kernel keeps plain 64-bit lanes. Run under node
# (node:wasi) in `ninja test-cross`; `runner` names the engine, not qemu.
WASM_TARGETS = {
    "wasm32": Target("wasm32", "wasm32", "WebAssembly (wasm32-wasi), 64-bit lanes; SIMD128 "
                     "x2 Keccak and 4-block ChaCha in a second build",
                     rotations=("shift", "builtin"), vector_isas=("simd128",),
                     chacha_isas=("scalar", "simd128")),
}
TARGETS.update(WASM_TARGETS)

HOST_ARCHES = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64",
               "s390x": "s390x", "armv7l": "armhf", "riscv64": "riscv64"}

# Measured winners per compiler (TSC cycles per permutation, see docs/performance.md); used
# when no better choice is given on the command line.
# Only variants that need nothing of the CPU at run time are defaults; rorx may still win a
# tuned profile on a machine known to have BMI2. gcc's default is not the fully unrolled
# body: 24 rounds are ~25 KB of code per copy, and with one link layout the sponge's block
# loop then ran at 6.07 cycles/byte instead of 4.76 (the permutation alone differs by <1%).
DEFAULT_KECCAK = {
    "gcc": KeccakVariant(unroll=4, lane_complement=False, rotate="builtin", parity="fused"),
    "clang": KeccakVariant(unroll=3, lane_complement=False, rotate="builtin", parity="fused"),
    "tcc": KeccakVariant(unroll=3, lane_complement=False, rotate="shift", parity="separate"),
}
FALLBACK_KECCAK = KeccakVariant(unroll=24, lane_complement=False, rotate="builtin")
# Where the target has the generator's own x86-64 lowering: tcc keeps C variables in memory
# and runs the C kernel at 1739 TSC cycles; this one at 775-786 (build/tcc/bench_keccak). rol
# and lane complementing need nothing beyond base x86-64, so it is safe as a default.
DEFAULT_KECCAK_X86ASM = {
    "tcc": KeccakVariant(unroll=2, lane_complement=True, rotate="rol", parity="fused",
                         isa="x86asm"),
}

# Vector kernels: two rounds per loop body measured as fast as 24 for x8 AVX-512 (gcc 12 and
# clang 14, 128-131 TSC cycles per instance at any unroll) and faster for x4 (AVX2 237
# against 273-280, AVX-512VL 136-139 against 138-154), with a twelfth of the code. The
# single-state AVX-512 kernel is no build's default: where it wins (measured per CPU), the
# bundles' table runs it.
DEFAULT_SIMD_UNROLL = 2


def host():
    return TARGETS[HOST_ARCHES.get(platform.machine().lower(), "generic64")]


def get(name, bundles=False):
    """The target `name` names; `bundles`: the refusal lists the bundle names too, as
    `bundle --target` takes them (portable is a bundle, not a target)."""
    if name in (None, "host"):
        return host()
    try:
        return TARGETS[name]
    except KeyError:
        pass
    if bundles:
        names = list(BUNDLES) + [t for t in TARGETS if t not in BUNDLES]
        raise UsageError(f"unknown target '{name}'; accepted: host, {', '.join(names)}")
    hint = (f" ({name} is a bundle: python3 -m generator bundle --target {name}; its kernels "
            f"are target {BUNDLES[name].target}'s)" if name in BUNDLES else "")
    raise UsageError(f"unknown target '{name}'; accepted: host, {', '.join(TARGETS)}{hint}")


# Per target where the engine, not the C compiler, decides: wasm32 runs under V8, whose register
# allocator (16 x86-64 registers for 25 lanes) prefers the smallest loop body. These are the
# fallback where no wasm32 profile applies (generator/wasm_profile.py; `generator tune-wasm`
# writes them): raced once by hand in one node 20 process on the Zen 5 VM (tests/wasm/race.mjs
# over `generate --target wasm32` builds, clang 14 -O3, ns per SHA3-256 block): unroll 1 with
# lane complementing and separate parities 328, unroll 2 354, unroll 4 without complementing
# (the gcc default) 446, fully unrolled 661-1265.
DEFAULT_KECCAK_TARGET = {
    "wasm32": KeccakVariant(unroll=1, lane_complement=True, rotate="builtin", parity="separate"),
}


def default_keccak(target, compiler_id):
    if target.name in DEFAULT_KECCAK_TARGET:
        return DEFAULT_KECCAK_TARGET[target.name]
    if "x86asm" in target.scalar_isas and compiler_id in DEFAULT_KECCAK_X86ASM:
        return DEFAULT_KECCAK_X86ASM[compiler_id]
    v = DEFAULT_KECCAK.get(compiler_id, FALLBACK_KECCAK)
    if v.rotate not in target.rotations:
        v = KeccakVariant(unroll=v.unroll, lane_complement=v.lane_complement, rotate="builtin")
    return v


# Vector register type, intrinsic prefix and full-register suffix per block width.
VECTOR_TYPES = {4: ("__m128i", "_mm", "si128"), 8: ("__m256i", "_mm256", "si256"),
                16: ("__m512i", "_mm512", "si512")}
# The same for each non-x86 family (one width each).
FAMILY_VECTOR_TYPES = {"arm": {4: ("uint32x4_t", "", "")}}


def vector_type(level, width):
    return FAMILY_VECTOR_TYPES.get(level.family, VECTOR_TYPES)[width]

# Measured winners per compiler (build/<cc>/bench_chacha, -O3 -march=native, Zen 5, see
# docs/performance.md); used when nothing is asked. gcc spills with two interleaved block
# sets and gains nothing, clang keeps them in registers and gains about 15%. The schedule
# moves the vector paths by a few percent at most.
DEFAULT_CHACHA = {
    "gcc": ChachaVariant(isa="avx512", schedule="step", rotate="vprold", states=1),
    "clang": ChachaVariant(isa="avx512", schedule="seq", rotate="vprold", states=2),
    "tcc": ChachaVariant(isa="scalar", schedule="step", rotate="shift"),
}


def chacha_levels(isa):
    """The levels one file carries: the asked-for one, then its fallbacks down to scalar."""
    out = []
    while isa:
        out.append(CHACHA_ISAS[isa])
        isa = CHACHA_ISAS[isa].fallback
    return out


def level_rotation(level, wanted):
    """The strategy a fallback level uses when it cannot express the asked-for one."""
    if wanted in level.rotations:
        return wanted
    return "pshufb" if "pshufb" in level.rotations else "shift"


# Per target where the x86 choice does not apply. AArch64: the NEON path, with REV32/TBL for
# the byte-multiple rotations (not timed: no AArch64 machine here, qemu says nothing of speed).
DEFAULT_CHACHA_TARGET = {
    "aarch64": ChachaVariant(isa="neon", schedule="step", rotate="tbl"),
    # The fallback without a wasm32 profile (generator/wasm_profile.py), raced once by hand
    # under node 20 (tests/wasm/race.mjs, Zen 5 VM): two interleaved block sets 44-48 ns per
    # block against 55-61 for one, schedule and rotation within 3% of each other; scalar 100.
    "wasm32": ChachaVariant(isa="simd128", schedule="step", rotate="shift", states=2),
}


def default_chacha(target, compiler_id):
    v = DEFAULT_CHACHA.get(compiler_id, DEFAULT_CHACHA["tcc"])
    if v.isa not in target.chacha_isas:
        v = DEFAULT_CHACHA_TARGET.get(target.name, DEFAULT_CHACHA["tcc"])
    if v.isa not in target.chacha_isas:
        v = DEFAULT_CHACHA["tcc"]
    return v


# Multi-state kernels every x86-64 out/ carries when its compiler has the intrinsics: the
# sponge's KT128 runs its leaves on the widest the CPU allows, checked at run time.
DEFAULT_MULTIS = {"x86_64": ("x8-avx512", "x4-avx2")}


def default_multis(target, compiler_caps):
    out = []
    for spec in DEFAULT_MULTIS.get(target.name, ()):
        v = multi_variant(spec, target)
        if all(need in compiler_caps for need in v.compiler_needs()):
            out.append(v)
    return out


def single_state_isas(target):
    """What `generate --isa` accepts on a target: the ways to write the scalar kernel, then
    the vector ISAs with a single-state kernel behind the scalar API."""
    return target.scalar_isas + tuple(isa for n, isa in SIMD_SHAPES
                                      if n == 1 and isa in target.vector_isas)


def multi_shapes(target):
    """What `generate --multi` accepts on a target (each also as xN-uU-ISA)."""
    return tuple(f"x{n}-{isa}" for n, isa in SIMD_SHAPES
                 if n > 1 and isa in target.vector_isas) + tuple(
        f"x2-{isa}" for isa in ARM_X2_ISAS if isa in target.vector_isas)


def check_vector(target, variant):
    if variant.isa not in target.vector_isas:
        raise UsageError(f"{variant.isa} is not available on target {target.name}; accepted: "
                         f"{', '.join(target.vector_isas) or '(none)'}")
    return variant


def check_multi(spec, target):
    """The (instances, unroll or None, ISA) of a --multi spec the target has a kernel for."""
    m = re.fullmatch(r"x(\d+)(?:-u(\d+))?-([a-z0-9]+)", spec)
    if not m:
        raise UsageError(f"--multi takes xN-ISA or xN-uU-ISA (for example x8-avx512), "
                         f"not '{spec}'")
    shapes = multi_shapes(target)
    if f"x{m.group(1)}-{m.group(3)}" not in shapes:
        if not shapes:
            raise UsageError(f"--multi: target {target.name} has no multi-state kernels")
        raise UsageError(f"--multi: no kernel '{spec}' on target {target.name} (each shape "
                         f"also as xN-uU-ISA); accepted: {', '.join(shapes)}")
    return int(m.group(1)), m.group(2), m.group(3)


def multi_variant(spec, target):
    """--multi x8-avx512 or x8-u24-avx512: one multi-state kernel to add."""
    n, unroll, isa = check_multi(spec, target)
    if n < 2:
        raise UsageError(f"--multi needs at least two instances, not '{spec}'")
    v = SimdKeccakVariant(
        instances=n, isa=isa,
        unroll=parse_unroll(unroll) if unroll else DEFAULT_SIMD_UNROLL)
    return check_vector(target, v)


# The x2 kernels keccak_p1600_arm.c.j2 prints: one lane of each of two states per 128-bit
# register, on AArch64 NEON, its SHA3 extension, or WebAssembly's SIMD128 (the same shape:
# v128 is two 64-bit lanes).
ARM_X2_ISAS = ("neon", "sha3", "simd128")


def is_arm_x2(spec):
    return spec.endswith(tuple("-" + isa for isa in ARM_X2_ISAS))


def arm_x2(spec, target):
    """--multi x2-neon, x2-sha3, x2-uU-sha3 (aarch64): (ISA, unroll) of an AArch64 x2 kernel."""
    _, unroll, isa = check_multi(spec, target)
    return isa, parse_unroll(unroll) if unroll else DEFAULT_SIMD_UNROLL


# The x2 SIMD128 kernel's unroll where no wasm32 profile applies (generator/wasm_profile.py):
# 505 ns per two-state permutation under node 20 against 666 at unroll 2 and 838-1325 above
# (tests/wasm/race.mjs, Zen 5 VM, measured once by hand).
DEFAULT_X2_UNROLL_TARGET = {"wasm32": 1}


# Bundles (`python3 -m generator bundle`): one folder with every code path of an architecture
# and a dispatch file that picks one at run time. A path names the kernel each function runs
# on it; the dispatch takes the last path in the list whose CPU features the machine has, so
# the order is the measured preference (fastest last). The single-state permutation
# (keccak_f1600, keccak_p1600, and the SHA-3/SHAKE block loop) is a scalar kernel on every
# path, and where a path carries one (`single`) the single-state AVX-512 kernel wherever the
# per-CPU table's "single" decision takes it: it wins the sponge on the Intel family 6 model
# 167 measured (docs/performance.md, "Single-state AVX-512: the line layout"), while its
# earlier row-and-transpose form lost to the scalar kernel by 1.2x-1.6x on the reference
# Zen 5. The scalar kernel comes in flavours, the same C compiled for more of the CPU: with
# BMI1 (ANDN) and BMI2 (RORX) it ran 1.2x faster than plain x86-64 here (798 against 655 TSC
# cycles per permutation, gcc 12 -O3), as fast as -march=native.
@dataclass(frozen=True)
class ScalarFlavour:
    name: str
    isa_target: str = ""      # gcc/clang target string over the whole file
    cpu: tuple = ()           # generator/cpuid.py feature names it needs
    andn: bool = False        # chi's ~b & c is one instruction (BMI1's ANDN)


KECCAK_FLAVOURS = {f.name: f for f in (
    ScalarFlavour("scalar"),
    ScalarFlavour("bmi2", "bmi,bmi2", ("bmi1", "bmi2"), andn=True),
)}


# The single-state vector kernels a bundle carries, by option name of the "single" decision:
# the AVX-512 line-layout kernel at unroll 3, which ran as fast as its unrolls 6, 12 and 24 in
# the sponge (Intel family 6 model 167, gcc and clang -O2, within 1%) in the least code.
SINGLE_VECTOR = {"avx512": "keccakp1600-u3-avx512"}


@dataclass(frozen=True)
class DispatchPath:
    name: str                 # ROUNDSMITH_PATH=<name>; RS_NO_<NAME> compiles it out
    keccak: str = "scalar"    # the scalar Keccak flavour (KECCAK_FLAVOURS)
    kt_leaves: tuple = ()     # multi-state kernels for KT128's leaves, widest first
    # Single-state vector kernels (SINGLE_VECTOR) the path may run instead of its scalar
    # flavour, where the CPU's row of the table says so (the "single" decision).
    single: tuple = ()
    chacha: str = "scalar"    # the ChaCha level
    # A preprocessor condition the compiler must meet to build the path besides the
    # architecture (the SHA3 kernel: gcc enables the extension itself, clang needs -march).
    requires: str = ""


@dataclass(frozen=True)
class Bundle:
    name: str                 # out/<name>
    target: str
    paths: tuple              # slowest first
    description: str
    # What `bundle --kernels/--chacha-rounds` kept (generator/bundle.py select()).
    families: tuple = FAMILIES
    chacha_rounds: tuple = CHACHA_ROUNDS


BUNDLES = {
    "portable": Bundle("portable", "generic64", (DispatchPath("portable"),),
                       "portable C99, any compiler and CPU: scalar kernels, no dispatch"),
    "x86_64": Bundle("x86_64", "x86_64", (
        DispatchPath("scalar"),
        DispatchPath("sse2", chacha="sse2"),
        DispatchPath("avx2", keccak="bmi2", kt_leaves=("x4-avx2",), chacha="avx2"),
        DispatchPath("avx512", keccak="bmi2", single=("avx512",),
                     kt_leaves=("x8-avx512", "x4-avx512vl", "x4-avx2", "x2-avx512vl"),
                     chacha="avx512"),
    ), "x86-64: scalar, SSE2, AVX2+BMI2, AVX-512+BMI2 paths chosen by CPUID"),
    "aarch64": Bundle("aarch64", "aarch64", (
        DispatchPath("generic"),
        DispatchPath("neon", kt_leaves=("x2-neon",), chacha="neon"),
        DispatchPath("sha3", kt_leaves=("x2-sha3",), chacha="neon",
                     requires="(defined(__GNUC__) && !defined(__clang__)) || "
                              "defined(__ARM_FEATURE_SHA3)"),
    ), "AArch64: generic, NEON, SHA3-extension paths chosen by HWCAP (Linux)"),
    # Chosen when compiling, not at run time: the simd128 path is built where clang defines
    # __wasm_simd128__ (-msimd128), and a build has that path or the scalar one.
    "wasm32": Bundle("wasm32", "wasm32", (
        DispatchPath("scalar"),
        DispatchPath("simd128", kt_leaves=(f"x2-u{DEFAULT_X2_UNROLL_TARGET['wasm32']}-simd128",),
                     chacha="simd128",
                     requires="defined(__wasm_simd128__)"),
    ), "WebAssembly: scalar and SIMD128 paths, one build each (-msimd128 selects)"),
}
# A compiler the preprocessor can name may get its own scalar kernel inside a bundle: the
# scalar file then holds one branch per such compiler (condition, compiler id, the target whose
# default for that compiler it takes). tcc keeps every C variable in memory and ran a bundle's
# C kernel at 1808-1815 TSC cycles, the generator's x86-64 inline assembly at 781-787. The
# portable bundle takes the branch too: tcc on x86-64 vendors the folder that "works
# everywhere" as readily as out/x86_64, and no other compiler ever sees the branch.
TCC_X86_64 = "defined(__TINYC__) && defined(__x86_64__)"
BUNDLE_COMPILER_KECCAK = {
    "portable": ((TCC_X86_64, "tcc", "x86_64"),),
    "x86_64": ((TCC_X86_64, "tcc", "x86_64"),),
}
# The bundles committed in out/; `python3 -m generator check` keeps them current.
CANONICAL_BUNDLES = ("portable", "x86_64", "aarch64", "wasm32")
# The compiler whose measured defaults shape the committed bundles' kernels.
CANONICAL_CC = "gcc"
# The committed profiles of the canonical machine (the 2-core AMD EPYC Zen 5 VM the project
# is measured on) that shape the committed bundles, per compiler (generator/bundle_profile.py:
# their choices only, so out/ is the same whichever machine regenerates it).
CANONICAL_PROFILES = {"gcc": "x86_64-amd-epyc-f26m2-gcc.json",
                      "clang": "x86_64-amd-epyc-f26m2-clang.json"}


def bundle_for(target):
    for b in BUNDLES.values():
        if b.target == target.name:
            return b
    return Bundle(target.name, target.name, (DispatchPath("scalar"),),
                  f"{target.name}: scalar kernels, no dispatch")
