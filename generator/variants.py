"""The parameter space: what may be asked for, validated, with one canonical name per variant."""

from dataclasses import dataclass, field

from . import keccak, simd
from .errors import UsageError

KECCAK_UNROLLS = tuple(keccak.divisors(keccak.MAX_ROUNDS))

# Rotation strategies and what each needs from the compiler (probed by configure.py) and,
# at run time, from the CPU.
ROTATIONS = {
    "shift": {"compiler": (), "cpu": ()},
    "builtin": {"compiler": (), "cpu": ()},
    "rol": {"compiler": ("gnu-asm-x86-64",), "cpu": ()},
    "rorx": {"compiler": ("gnu-asm-x86-64", "asm-bmi2"), "cpu": ("bmi2",)},
}
# Where theta's column parities come from: accumulated while chi writes each lane (fused, the
# Keccak team's "prepare theta"), or recomputed from the lanes at the start of each round.
PARITIES = ("fused", "separate")
ON_OFF = {"on": True, "off": False, "1": True, "0": False, "yes": True, "no": False}


@dataclass(frozen=True)
class KeccakVariant:
    unroll: int = 24
    lane_complement: bool = False
    rotate: str = "builtin"
    parity: str = "fused"
    isa: str = field(default="scalar")

    def __post_init__(self):
        if self.unroll not in KECCAK_UNROLLS:
            raise UsageError(f"unroll {self.unroll} does not divide {keccak.MAX_ROUNDS} rounds; "
                             f"accepted: {', '.join(map(str, KECCAK_UNROLLS))}")
        if self.rotate not in ROTATIONS:
            raise UsageError(f"unknown rotation '{self.rotate}'; accepted: "
                             f"{', '.join(ROTATIONS)}")
        if self.parity not in PARITIES:
            raise UsageError(f"unknown parity '{self.parity}'; accepted: {', '.join(PARITIES)}")

    @property
    def name(self):
        lc = "lc" if self.lane_complement else "nolc"
        return f"keccakp1600-u{self.unroll}-{lc}-{self.parity}-{self.rotate}-{self.isa}"

    @property
    def ident(self):
        return self.name.replace("-", "_")

    @property
    def params(self):
        """The full parameter set, in the order the provenance header prints it."""
        return (("kernel", "keccak-p1600"), ("isa", self.isa), ("unroll", self.unroll),
                ("lane_complement", "on" if self.lane_complement else "off"),
                ("parity", self.parity), ("rotate", self.rotate))

    def compiler_needs(self):
        return ROTATIONS[self.rotate]["compiler"]

    def cpu_needs(self):
        return ROTATIONS[self.rotate]["cpu"]


# (instances, ISA) pairs the vector kernels come in. Instances 1 is the single-state kernel
# (one row of the state per 512-bit register); the others run that many states side by side.
SIMD_SHAPES = ((1, "avx512"), (2, "sse2"), (2, "avx512vl"), (4, "avx2"), (4, "avx512vl"),
               (8, "avx512"))


@dataclass(frozen=True)
class SimdKeccakVariant:
    instances: int = 8
    unroll: int = 24
    isa: str = "avx512"

    def __post_init__(self):
        if (self.instances, self.isa) not in SIMD_SHAPES:
            raise UsageError(f"no {self.isa} kernel for {self.instances} instance(s); accepted: "
                             + ", ".join(f"x{n} {i}" for n, i in SIMD_SHAPES))
        if self.unroll not in KECCAK_UNROLLS:
            raise UsageError(f"unroll {self.unroll} does not divide {keccak.MAX_ROUNDS} rounds; "
                             f"accepted: {', '.join(map(str, KECCAK_UNROLLS))}")

    @property
    def vector_isa(self):
        if self.instances == 1:
            return simd.ISAS["avx512"]
        return simd.isa_for(self.isa, self.instances)

    @property
    def single(self):
        return self.instances == 1

    @property
    def name(self):
        shape = "" if self.single else f"x{self.instances}-"
        return f"keccakp1600-{shape}u{self.unroll}-{self.isa}"

    @property
    def ident(self):
        return self.name.replace("-", "_")

    @property
    def params(self):
        return (("kernel", "keccak-p1600"), ("isa", self.isa), ("instances", self.instances),
                ("unroll", self.unroll))

    def compiler_needs(self):
        return (self.vector_isa.compiler_cap,)

    def cpu_needs(self):
        return self.vector_isa.cpu


def parse_unroll(text):
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"unroll must be a number; accepted: "
                         f"{', '.join(map(str, KECCAK_UNROLLS))}") from None
    KeccakVariant(unroll=value)
    return value


def parse_on_off(text, what):
    try:
        return ON_OFF[text.lower()]
    except KeyError:
        raise UsageError(f"{what} takes on or off, not '{text}'") from None


def parse_rounds(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= keccak.MAX_ROUNDS:
        raise UsageError(f"rounds must be 0..{keccak.MAX_ROUNDS}, not '{text}'")
    return value


def keccak_scalar_space(target, compiler_caps):
    """Every scalar Keccak variant the target allows and the compiler can build."""
    out = []
    for unroll in KECCAK_UNROLLS:
        for lc in (False, True):
            for parity in PARITIES:
                for rotate in target.rotations:
                    v = KeccakVariant(unroll=unroll, lane_complement=lc, rotate=rotate,
                                      parity=parity)
                    if all(need in compiler_caps for need in v.compiler_needs()):
                        out.append(v)
    return out


# Under emulation every variant costs a cross compile and a qemu run, so the cross suites take
# a subset that still reaches every code path the byte order or word size could break: every
# rotation x lane complementing x parity combination, at unroll 1 (the rolled loop), 2 (the
# smallest unroll with mid-loop entry points for odd round counts) and 24 (straight line).
CROSS_UNROLLS = (1, 2, 24)


def keccak_cross_space(target, compiler_caps):
    return [v for v in keccak_scalar_space(target, compiler_caps) if v.unroll in CROSS_UNROLLS]


def keccak_simd_space(target, compiler_caps):
    """Every vector Keccak variant the target allows and the compiler can build."""
    out = []
    for instances, isa in SIMD_SHAPES:
        if isa not in target.vector_isas:
            continue
        for unroll in KECCAK_UNROLLS:
            v = SimdKeccakVariant(instances=instances, unroll=unroll, isa=isa)
            if all(need in compiler_caps for need in v.compiler_needs()):
                out.append(v)
    return out


def keccak_from_options(target, default, unroll=None, lane_complement=None, rotate=None,
                        parity=None):
    """The variant the command line asks for: each option given overrides `default`."""
    v = KeccakVariant(
        unroll=parse_unroll(unroll) if unroll else default.unroll,
        lane_complement=(parse_on_off(lane_complement, "--lane-complement")
                         if lane_complement else default.lane_complement),
        rotate=rotate or default.rotate,
        parity=parity or default.parity)
    if v.rotate not in target.rotations:
        raise UsageError(f"rotation '{v.rotate}' is not available on target {target.name}; "
                         f"accepted: {', '.join(target.rotations)}")
    return v
