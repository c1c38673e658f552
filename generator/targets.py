"""Targets: architecture x ISA descriptions, and the default choice per compiler.

A target says what instructions a kernel may use; a compiler says what it can express
(configure.py probes that). The defaults below are the measured winners on the reference
machine (see README, "Figures"); `generator tune` will replace them with recorded profiles.
"""

import platform
from dataclasses import dataclass

from .errors import UsageError
from .variants import KeccakVariant


@dataclass(frozen=True)
class Target:
    name: str
    arch: str
    description: str
    rotations: tuple
    cpu_features: tuple = ()


TARGETS = {
    "x86_64": Target("x86_64", "x86_64", "x86-64, scalar 64-bit lanes, optional BMI2 rotations",
                     rotations=("shift", "builtin", "rol", "rorx"),
                     cpu_features=("bmi2",)),
    "generic64": Target("generic64", "any", "portable C99 for any 64-bit-capable compiler",
                        rotations=("shift", "builtin")),
}

HOST_ARCHES = {"x86_64": "x86_64", "amd64": "x86_64"}

# Measured winners per compiler (TSC cycles per permutation, see README); used when no
# better choice is given on the command line.
# Only variants that need nothing of the CPU at run time are defaults; rorx may still win a
# tuned profile on a machine known to have BMI2.
DEFAULT_KECCAK = {
    "gcc": KeccakVariant(unroll=24, lane_complement=False, rotate="shift", parity="fused"),
    "clang": KeccakVariant(unroll=3, lane_complement=False, rotate="builtin", parity="fused"),
    "tcc": KeccakVariant(unroll=3, lane_complement=False, rotate="shift", parity="separate"),
}
FALLBACK_KECCAK = KeccakVariant(unroll=24, lane_complement=False, rotate="builtin")


def host():
    return TARGETS[HOST_ARCHES.get(platform.machine().lower(), "generic64")]


def get(name):
    if name in (None, "host"):
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
