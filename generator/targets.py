"""Targets: architecture x ISA descriptions, and the default choice per compiler.

A target says what instructions a kernel may use; a compiler says what it can express
(configure.py probes that). The defaults below are the measured winners on the reference
machine (see README, "Figures"); `generator tune` will replace them with recorded profiles.
"""

import platform
from dataclasses import dataclass

from .errors import UsageError
from .variants import CHACHA_ISAS, ChachaVariant, KeccakVariant


@dataclass(frozen=True)
class Target:
    name: str
    arch: str
    description: str
    rotations: tuple
    cpu_features: tuple = ()
    chacha_isas: tuple = ("scalar",)


TARGETS = {
    "x86_64": Target("x86_64", "x86_64", "x86-64, scalar 64-bit lanes, optional BMI2 rotations",
                     rotations=("shift", "builtin", "rol", "rorx"),
                     cpu_features=("bmi2",),
                     chacha_isas=("scalar", "sse2", "ssse3", "avx2", "avx512")),
    "generic64": Target("generic64", "any", "portable C99 for any 64-bit-capable compiler",
                        rotations=("shift", "builtin")),
}

HOST_ARCHES = {"x86_64": "x86_64", "amd64": "x86_64"}

# Measured winners per compiler (TSC cycles per permutation, see README); used when no
# better choice is given on the command line.
DEFAULT_KECCAK = {
    "gcc": KeccakVariant(unroll=24, lane_complement=False, rotate="builtin"),
    "clang": KeccakVariant(unroll=24, lane_complement=False, rotate="builtin"),
    "tcc": KeccakVariant(unroll=24, lane_complement=False, rotate="builtin"),
}
FALLBACK_KECCAK = KeccakVariant(unroll=24, lane_complement=False, rotate="builtin")


def host():
    return TARGETS[HOST_ARCHES.get(platform.machine().lower(), "generic64")]


def get(name):
    if name in (None, "", "host"):
        return host()
    try:
        return TARGETS[name]
    except KeyError:
        raise UsageError(f"unknown target '{name}'; accepted: host, {', '.join(TARGETS)}") \
            from None


def default_keccak(target, compiler_id):
    v = DEFAULT_KECCAK.get(compiler_id, FALLBACK_KECCAK)
    if v.rotate not in target.rotations:
        v = KeccakVariant(unroll=v.unroll, lane_complement=v.lane_complement, rotate="builtin")
    return v


# Vector register type, intrinsic prefix and full-register suffix per block width.
VECTOR_TYPES = {4: ("__m128i", "_mm", "si128"), 8: ("__m256i", "_mm256", "si256"),
                16: ("__m512i", "_mm512", "si512")}

# Measured winners per compiler (build/<cc>/bench_chacha, -O3 -march=native, Zen 5, see
# README); used when nothing is asked. gcc spills with two interleaved block sets and gains
# nothing, clang keeps them in registers and gains about 15%. The schedule moves the vector
# paths by a few percent at most.
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


def default_chacha(target, compiler_id):
    v = DEFAULT_CHACHA.get(compiler_id, DEFAULT_CHACHA["tcc"])
    if v.isa not in target.chacha_isas:
        v = DEFAULT_CHACHA["tcc"]
    return v
