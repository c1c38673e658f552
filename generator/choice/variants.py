# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The parameter space: what may be asked for, validated, with one canonical name per variant."""

import re
from dataclasses import dataclass, field

from . import kinds
from ..model import chacha_maths as chacha, keccak_maths as keccak, simd, x86_lowering as x86asm
from ..errors import UsageError

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
# How the scalar round becomes code: C for the compiler to allocate ("scalar"), or x86-64
# inline assembly with registers assigned by the generator (generator/x86asm.py), which has
# a two-round body and rotates with rol or rorx.
# The kernel families a folder can hold (`generate --kernels`, `bundle --kernels`).
FAMILIES = kinds.FAMILY_NAMES
CHACHA_ROUNDS = chacha.BUILT_ROUNDS
SCALAR_ISAS = ("scalar", "x86asm")
# How a 64-bit lane is held: as one 64-bit variable, or bit-interleaved as two 32-bit words
# (keccak.lane_layout), for 32-bit targets, where only the portable rotations apply.
LANE_LAYOUTS = ("plain", "interleaved")
INTERLEAVED_ROTATIONS = ("shift", "builtin")
# Every on/off option is spelled exactly this way (one spelling set, shown in --help).
ON_OFF = {"on": True, "off": False}


@dataclass(frozen=True)
class KeccakVariant:
    unroll: int = 24
    lane_complement: bool = False
    rotate: str = "builtin"
    parity: str = "fused"
    isa: str = field(default="scalar")
    lanes: str = "plain"

    def __post_init__(self):
        if self.unroll not in KECCAK_UNROLLS:
            raise UsageError(f"unroll {self.unroll} does not divide {keccak.MAX_ROUNDS} rounds; "
                             f"accepted: {', '.join(map(str, KECCAK_UNROLLS))}")
        if self.rotate not in ROTATIONS:
            raise UsageError(f"unknown rotation '{self.rotate}'; accepted: "
                             f"{', '.join(ROTATIONS)}")
        if self.parity not in PARITIES:
            raise UsageError(f"unknown parity '{self.parity}'; accepted: {', '.join(PARITIES)}")
        if self.isa not in SCALAR_ISAS:
            raise UsageError(f"unknown scalar Keccak ISA '{self.isa}'; accepted: "
                             f"{', '.join(SCALAR_ISAS)}")
        if self.isa == "x86asm" and self.unroll != 2:
            raise UsageError("the x86asm kernel has a two-round body: --unroll 2")
        if self.isa == "x86asm" and self.rotate not in x86asm.ROTATIONS:
            raise UsageError(f"the x86asm kernel rotates with {' or '.join(x86asm.ROTATIONS)}, "
                             f"not '{self.rotate}'")
        if self.lanes not in LANE_LAYOUTS:
            raise UsageError(f"unknown lane layout '{self.lanes}'; accepted: "
                             f"{', '.join(LANE_LAYOUTS)}")
        if self.isa == "x86asm" and self.lanes != "plain":
            raise UsageError("the x86asm kernel holds plain 64-bit lanes: --lanes plain")
        if self.lanes == "interleaved" and self.rotate not in INTERLEAVED_ROTATIONS:
            raise UsageError(f"interleaved lanes rotate 32-bit words: --rotate "
                             f"{' or '.join(INTERLEAVED_ROTATIONS)}, not '{self.rotate}'")

    @property
    def name(self):
        lc = "lc" if self.lane_complement else "nolc"
        lanes = "-interleaved" if self.lanes == "interleaved" else ""
        return f"keccakp1600-u{self.unroll}-{lc}-{self.parity}-{self.rotate}{lanes}-{self.isa}"

    @property
    def ident(self):
        return self.name.replace("-", "_")

    @property
    def params(self):
        """The full parameter set, in the order the provenance header prints it."""
        # The lane layout is printed only when it is not the plain one, so that every plain
        # variant's output stays as it was before interleaving existed.
        return (("kernel", "keccak-p1600"), ("isa", self.isa), ("unroll", self.unroll),
                ("lane_complement", "on" if self.lane_complement else "off"),
                ("parity", self.parity), ("rotate", self.rotate)) + (
                (("lanes", self.lanes),) if self.lanes != "plain" else ())

    def compiler_needs(self):
        return ROTATIONS[self.rotate]["compiler"]

    def cpu_needs(self):
        if self.isa == "x86asm":
            return x86asm.CPU_NEEDS[self.rotate]
        return ROTATIONS[self.rotate]["cpu"]


# (instances, ISA) pairs the vector kernels come in. Instances 1 is a single-state kernel
# behind the scalar API (AVX-512: one row of the state per 512-bit register; sha3: AArch64's
# SHA3 extension, one lane per 128-bit register); the others run that many states side by side.
# AArch64 ISAs, whose kernels keccak_p1600_arm.c.j2 prints (the x2 ones are asked for with
# --multi x2-neon / x2-sha3, see targets.arm_x2), and what each needs of the CPU at run time
# (tests/cpu_features.h names: HWCAP bits).
ARM_CPU_NEEDS = {"neon": (), "sha3": ("sha3",)}
SIMD_SHAPES = ((1, "avx512"), (1, "sha3"), (2, "sse2"), (2, "avx512vl"), (4, "avx2"), (4, "avx512vl"),
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
    def arm(self):
        return self.isa in ARM_CPU_NEEDS

    @property
    def vector_isa(self):
        if self.arm:
            return None
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
        # The AArch64 kernels need only arm_neon.h, which every AArch64 gcc and clang has.
        return () if self.arm else (self.vector_isa.compiler_cap,)

    def cpu_needs(self):
        return ARM_CPU_NEEDS[self.isa] if self.arm else self.vector_isa.cpu


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
        return ON_OFF[text]
    except KeyError:
        raise UsageError(f"{what} takes {' or '.join(ON_OFF)}, not '{text}'") from None


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
    for lanes in target.lane_layouts:
        for unroll in KECCAK_UNROLLS:
            for lc in (False, True):
                for parity in PARITIES:
                    for rotate in target.rotations:
                        if lanes == "interleaved" and rotate not in INTERLEAVED_ROTATIONS:
                            continue
                        v = KeccakVariant(unroll=unroll, lane_complement=lc, rotate=rotate,
                                          parity=parity, lanes=lanes)
                        if all(need in compiler_caps for need in v.compiler_needs()):
                            out.append(v)
    if "x86asm" in target.scalar_isas:
        for lc in (False, True):
            for parity in x86asm.PARITIES:
                for rotate in x86asm.ROTATIONS:
                    v = KeccakVariant(unroll=2, lane_complement=lc, rotate=rotate,
                                      parity=parity, isa="x86asm")
                    if all(need in compiler_caps for need in v.compiler_needs()):
                        out.append(v)
    return out


@dataclass(frozen=True)
class VectorIsa:
    """One instruction-set level of the ChaCha kernels.

    widths: the block-parallel paths compiled for this level, widest first (a tail narrower
    than the last one goes to the row paths if the level has them, else to the scalar
    one-block path). rows: blocks per vector of the level's row-layout paths (one block per
    128-bit lane; 0: none), which serve calls and tails shorter than the narrowest width with
    up to four interleaved row sets. uniform: the first double round's counter-free quarter
    rounds are computed once in scalar registers and broadcast (chacha_maths.split_uniform).
    unroll: the round loops are unrolled fully (their count is a constant in every level
    function). attribute: the gcc/clang target
    attribute the level's functions carry, so one source file holds every level and picks one
    at run time. cpu: __builtin_cpu_supports names the level needs. fallback: the level a file
    built for this one drops to on a CPU that lacks it.
    """
    name: str
    widths: tuple
    rotations: tuple
    attribute: str
    cpu: tuple
    fallback: str
    rows: int = 0
    uniform: bool = True
    unroll: bool = False
    family: str = "x86"   # its intrinsics: x86 (immintrin.h), arm (arm_neon.h), wasm (wasm_simd128.h)

    @property
    def width(self):
        return self.widths[0] if self.widths else 1

    @property
    def row_sets(self):
        """The row paths' set counts (rows blocks a set): enough sets for every tail below the
        narrowest width, one path per count; none without row paths."""
        if not self.rows:
            return ()
        return tuple(range(1, -(-(self.widths[-1] - 1) // self.rows) + 1))

    @property
    def compiler(self):
        """What the compiler must support (configure.py probes it): target attributes and
        immintrin.h, which tcc lacks."""
        return ("x86-target-attr",) if self.attribute else ()


CHACHA_ISAS = {
    "scalar": VectorIsa("scalar", (), ("shift",), "", (), ""),
    "sse2": VectorIsa("sse2", (4,), ("shift",), "sse2", (), "scalar"),
    "ssse3": VectorIsa("ssse3", (4,), ("shift", "pshufb"), "ssse3", ("ssse3",), "sse2"),
    "avx2": VectorIsa("avx2", (8, 4), ("shift", "pshufb"), "avx2", ("avx2",), "sse2"),
    # BW for vpshufb on zmm. Below 16 blocks the row paths (four blocks per zmm) replace the
    # 8- and 4-block ymm and xmm paths and the scalar blocks this level had: ChaCha20 of 256
    # bytes 1.32 -> 0.85 TSC cycles per byte, of 64 bytes 3.96 -> 3.36 (Xeon f6m167, gcc 12
    # -O2 bundle, 2026-12-06; docs/performance.md).
    # No uniform start: its scalar chain and broadcasts open every 16-block chunk with ~30
    # cycles the vector ports cannot fill, which costs more than the 24 vector operations it
    # saves (same CPU and compilers, ChaCha20 of 16 KiB: gcc 0.458 -> 0.428, clang 0.465 ->
    # 0.447 TSC cycles per byte for the x16 seq shape). Unrolled rounds: gcc otherwise
    # copies every state register once per double round (x16 0.428 -> 0.406, x32 0.429 ->
    # 0.387; clang unchanged). The SSE2 and AVX2 levels lost about 2% to it under gcc.
    "avx512": VectorIsa("avx512", (16,), ("shift", "pshufb", "vprold"),
                        "avx512f,avx512vl,avx512bw", ("avx512f", "avx512vl", "avx512bw"),
                        "avx2", rows=4, uniform=False, unroll=True),
    # AArch64: NEON is in every AArch64 CPU, so no attribute and no run-time check.
    "neon": VectorIsa("neon", (4,), ("shift", "tbl"), "", (), "scalar", family="arm"),
    # WebAssembly SIMD128: a build has it or not (-msimd128), nothing is checked at run time.
    "simd128": VectorIsa("simd128", (4,), ("shift", "shuffle"), "", (), "scalar",
                         family="wasm"),
}


CHACHA_STATES = (1, 2)


@dataclass(frozen=True)
class ChachaVariant:
    isa: str = "avx512"
    schedule: str = "step"
    rotate: str = "vprold"
    rounds: tuple = chacha.BUILT_ROUNDS
    states: int = 1     # independent block sets interleaved in the widest path

    def __post_init__(self):
        if self.isa not in CHACHA_ISAS:
            raise UsageError(f"unknown ChaCha ISA '{self.isa}'; accepted: "
                             f"{', '.join(CHACHA_ISAS)}")
        if self.schedule not in chacha.SCHEDULES:
            raise UsageError(f"unknown ChaCha schedule '{self.schedule}'; accepted: "
                             f"{', '.join(chacha.SCHEDULES)}")
        allowed = CHACHA_ISAS[self.isa].rotations
        if self.rotate not in allowed:
            raise UsageError(f"rotation '{self.rotate}' is not available on {self.isa}; "
                             f"accepted: {', '.join(allowed)}")
        for r in self.rounds:
            try:
                chacha.check_rounds(r)
            except ValueError as e:
                raise UsageError(str(e)) from None
        if self.states not in CHACHA_STATES or (self.states > 1 and self.isa == "scalar"):
            raise UsageError(f"ChaCha interleaves {', '.join(map(str, CHACHA_STATES))} block "
                             f"sets on vector ISAs, not {self.states} on {self.isa}")
        if len(set(self.rounds)) != len(self.rounds) or not self.rounds:
            raise UsageError("ChaCha round counts must be distinct and at least one")

    @property
    def width(self):
        return CHACHA_ISAS[self.isa].width * self.states

    def name_for(self, rounds):
        return f"chacha{rounds}-x{self.width}-{self.schedule}-{self.rotate}-{self.isa}"

    @property
    def name(self):
        """The file's name: every round count it carries shares one shape."""
        return self.name_for("")

    @property
    def ident(self):
        return self.name.replace("-", "_")

    @property
    def params(self):
        return (("kernel", "chacha"), ("isa", self.isa), ("width", self.width),
                ("states", self.states),
                ("schedule", self.schedule), ("rotate", self.rotate),
                ("rounds", ",".join(map(str, self.rounds))))

    def compiler_needs(self):
        return CHACHA_ISAS[self.isa].compiler

    def cpu_needs(self):
        return CHACHA_ISAS[self.isa].cpu


def parse_chacha_rounds(text):
    out = []
    for part in text.split(","):
        try:
            out.append(chacha.check_rounds(int(part)))
        except ValueError:
            raise UsageError(f"ChaCha round counts are even numbers 2..{chacha.MAX_ROUNDS}, "
                             f"comma separated, not '{text}'") from None
    return tuple(out)


def chacha_space(target, compiler_caps):
    """Every ChaCha variant the target allows and the compiler can build."""
    out = []
    for isa in target.chacha_isas:
        for schedule in chacha.SCHEDULES:
            for rotate in CHACHA_ISAS[isa].rotations:
                # Two interleaved sets need 32 registers: only AVX-512 has them.
                for states in (1, 2) if isa == "avx512" else (1,):
                    v = ChachaVariant(isa=isa, schedule=schedule, rotate=rotate, states=states)
                    if all(need in compiler_caps for need in v.compiler_needs()):
                        out.append(v)
    return out
# Under emulation every variant costs a cross compile and a qemu run, so the cross suites take
# a subset that still reaches every code path the byte order or word size could break: every
# rotation x lane complementing x parity combination, at unroll 1 (the rolled loop), 2 (the
# smallest unroll with mid-loop entry points for odd round counts) and 24 (straight line).
CROSS_UNROLLS = (1, 2, 24)


def keccak_cross_space(target, compiler_caps):
    """The cross subset of the scalar variants, then the single-state kernels behind the same
    API that the target's vector ISAs add (aarch64: the SHA3 extension) at the same unrolls."""
    return [v for v in keccak_scalar_space(target, compiler_caps) if v.unroll in CROSS_UNROLLS] + [
        SimdKeccakVariant(instances=n, unroll=u, isa=isa) for n, isa in SIMD_SHAPES
        if n == 1 and isa in ARM_CPU_NEEDS and isa in target.vector_isas for u in CROSS_UNROLLS]


def chacha_cross_space(target):
    """The ChaCha variants run under emulation: the one-block path (scalar, step), and on a
    target with a vector level each of its rotations, plus two interleaved block sets in
    another schedule (the 2-set path and the schedules share no code with the rest)."""
    out = [ChachaVariant(isa="scalar", schedule="step", rotate="shift")]
    for isa in target.chacha_isas[1:]:
        out += [ChachaVariant(isa=isa, schedule="step", rotate=r)
                for r in CHACHA_ISAS[isa].rotations]
        out.append(ChachaVariant(isa=isa, schedule="seq", rotate=CHACHA_ISAS[isa].rotations[-1],
                                 states=2))
    return out


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


# Subsets of the variant space for the slow, instrumented builds (sanitizers, constant time,
# fuzzing), which cannot afford to compile every variant again per compiler on every run (with
# the whole scalar space they were 40% of a CI run's CPU time). "representative" (and
# "valgrind", the same for scalar Keccak): every combination of lane complementing, parity,
# rotation and lane layout at unroll 2 (two lane sets, odd round counts entering mid-body, the
# x86asm shapes), unroll 1 and 3 with the builtin rotation both ways of lane complementing
# (one and three lane sets), and every larger unroll factor once per parity with lane
# complementing and the builtin rotation (the long bodies, where a wrong entry label or
# lane-set schedule would show). What a sanitizer can catch in a kernel (an out-of-bounds
# lane, a shift by 64, a read of a lane set before it is written) and what the constant-time
# run can (a branch or an address that depends on the state) follow the schedule's shape,
# which these cover, not the rotation spelled in a 24-round body: every rotation is
# branch-free and table-free at every unroll, and unroll 2 runs each of them.
#
# The instrumented builds of the vector kernels are costly (an unrolled x8 kernel takes 20 s
# to compile under ASan, a ChaCha file with every level a minute), so their subsets keep one
# variant per code path. "representative", for the sanitizers and fuzzing: every x-N shape
# (ISA x instances) at unroll 2 (the loop, and odd round counts entering mid-body; the loads,
# stores and interleaving a sanitizer watches are the same at every unroll); every ChaCha
# level at its widest rotation and every block-set count (x16 and x32 on AVX-512), in one
# quarter-round order (the schedule and the rotation only reorder or respell register
# operations, which no sanitizer sees). "valgrind", for the constant-time run: the same
# without AVX-512, which valgrind 3.19 cannot execute.
#
# "quick": the tuner's pruned space (`ninja tune-quick`, built apart so it compiles only
# these, in under 2 minutes on 2 cores): scalar Keccak at the short unrolls and the rotations
# that won somewhere on the reference machine, without lane complementing (chi is one ANDN
# with BMI1), and every x86asm shape (tcc's fastest is one); unroll 24 is left to the full
# space: its 6 candidates took 40% of the quick build's CPU time (3.5 s each with gcc, 6.7 s
# with clang), and `ninja tune` still times them; x-N and single-state vector Keccak at short
# loop bodies, which time as fast as long ones there; ChaCha at the two widest levels the compiler can build, each
# with its richest rotation, every schedule and block-set count.
SUBSETS = ("all", "representative", "valgrind", "quick")
SIMD_REPRESENTATIVE_UNROLL = 2
CHACHA_REPRESENTATIVE_SCHEDULE = "step"
AVX512_ISAS = ("avx512", "avx512vl")
QUICK_UNROLLS = (2, 3, 4, 6)
QUICK_ROTATIONS = ("shift", "builtin", "rorx")
QUICK_SIMD_UNROLLS = (1, 2, 4)
QUICK_CHACHA_LEVELS = 2


def check_subset(subset):
    if subset not in SUBSETS:
        raise UsageError(f"unknown subset '{subset}'; accepted: {', '.join(SUBSETS)}")
    return subset


def keccak_subset(space, subset):
    if check_subset(subset) in ("representative", "valgrind"):
        return [v for v in space if v.unroll == 2 or (
                v.rotate == "builtin" and (v.unroll in (1, 3) or v.lane_complement))]
    if subset == "quick":
        return [v for v in space if v.isa == "x86asm" or (
                v.unroll in QUICK_UNROLLS and not v.lane_complement
                and v.rotate in QUICK_ROTATIONS)]
    return list(space)


def keccak_simd_subset(space, subset):
    if check_subset(subset) in ("representative", "valgrind"):
        return [v for v in space if v.unroll == SIMD_REPRESENTATIVE_UNROLL
                and (subset == "representative" or v.isa not in AVX512_ISAS)]
    if subset == "quick":
        return [v for v in space if v.unroll in QUICK_SIMD_UNROLLS]
    return list(space)


def chacha_subset(space, subset):
    if check_subset(subset) in ("representative", "valgrind"):
        return [v for v in space if v.schedule == CHACHA_REPRESENTATIVE_SCHEDULE
                and v.rotate == CHACHA_ISAS[v.isa].rotations[-1]
                and (subset == "representative" or v.isa not in AVX512_ISAS)]
    if subset == "quick":
        levels = [isa for isa in reversed(list(CHACHA_ISAS))
                  if any(v.isa == isa for v in space)][:QUICK_CHACHA_LEVELS]
        return [v for v in space
                if v.isa in levels and v.rotate == CHACHA_ISAS[v.isa].rotations[-1]]
    return list(space)


def keccak_from_options(target, default, unroll=None, lane_complement=None, rotate=None,
                        parity=None, lanes=None, isa=None):
    """The variant the command line asks for: each option given overrides `default`."""
    if isa is None:
        # The x86asm kernel has one unroll and plain lanes: asking for another asks for C.
        asks_shape = unroll is not None or lanes not in (None, "plain")
        isa = "scalar" if default.isa == "x86asm" and asks_shape else default.isa
    if isa not in target.scalar_isas:
        raise UsageError(f"scalar Keccak ISA '{isa}' is not available on target {target.name}; "
                         f"accepted: {', '.join(target.scalar_isas)}")
    if isa == "scalar" and default.isa == "x86asm":
        # From the asm default to C: the portable rotation, which every target and layout has.
        default = KeccakVariant(unroll=default.unroll, lane_complement=default.lane_complement,
                                parity=default.parity, rotate="builtin")
    if isa == "x86asm" and default.isa != "x86asm":
        default = KeccakVariant(unroll=2, lane_complement=default.lane_complement,
                                parity=default.parity,
                                rotate=default.rotate if default.rotate in x86asm.ROTATIONS
                                else "rol", isa=isa)
    # `is None`, not falsiness: an empty value ("--rotate ''", a blank shell variable) is a
    # mistake to report, not a request for the default.
    v = KeccakVariant(
        unroll=parse_unroll(unroll) if unroll is not None else default.unroll,
        lane_complement=(parse_on_off(lane_complement, "--lane-complement")
                         if lane_complement is not None else default.lane_complement),
        rotate=default.rotate if rotate is None else rotate,
        parity=default.parity if parity is None else parity,
        lanes=default.lanes if lanes is None else lanes, isa=isa)
    if v.rotate not in target.rotations:
        raise UsageError(f"rotation '{v.rotate}' is not available on target {target.name}; "
                         f"accepted: {', '.join(target.rotations)}")
    return v


def chacha_from_options(target, default, isa=None, schedule=None, rotate=None, states=None,
                        rounds=None):
    """The ChaCha variant the command line asks for: each option given overrides `default`;
    a different ISA than the default's starts from that ISA's richest rotation and one set."""
    isa = isa or default.isa
    if isa not in target.chacha_isas:
        raise UsageError(f"ChaCha ISA '{isa}' is not available on target {target.name}; "
                         f"accepted: {', '.join(target.chacha_isas)}")
    if isa not in CHACHA_ISAS:
        raise UsageError(f"unknown ChaCha ISA '{isa}'; accepted: {', '.join(CHACHA_ISAS)}")
    if states:
        try:
            states = int(states)
        except ValueError:
            raise UsageError(f"--chacha-states takes a number, not '{states}'") from None
    else:
        states = default.states if isa == default.isa else 1
    return ChachaVariant(
        isa=isa, schedule=schedule or default.schedule,
        rotate=rotate or (default.rotate if isa == default.isa else CHACHA_ISAS[isa].rotations[-1]),
        states=states, rounds=parse_chacha_rounds(rounds) if rounds else default.rounds)


def keccak_from_name(name):
    """The scalar variant a canonical name stands for (the inverse of KeccakVariant.name)."""
    m = re.fullmatch(r"keccakp1600-u(\d+)-(lc|nolc)-(\w+)-(\w+)(-interleaved)?-(scalar|x86asm)",
                     name)
    if not m:
        raise UsageError(f"not a scalar Keccak variant name: '{name}'")
    return KeccakVariant(unroll=int(m.group(1)), lane_complement=m.group(2) == "lc",
                         parity=m.group(3), rotate=m.group(4),
                         lanes="interleaved" if m.group(5) else "plain", isa=m.group(6))



def simd_from_name(name):
    """The vector variant a canonical name stands for (the inverse of SimdKeccakVariant.name)."""
    m = re.fullmatch(r"keccakp1600-(?:x(\d+)-)?u(\d+)-(\w+)", name)
    if not m:
        raise UsageError(f"not a vector Keccak variant name: '{name}'")
    return SimdKeccakVariant(instances=int(m.group(1) or 1), unroll=int(m.group(2)),
                             isa=m.group(3))


def chacha_from_name(name, rounds=chacha.BUILT_ROUNDS):
    """The ChaCha variant a canonical file name (chacha-xW-schedule-rotate-isa) stands for."""
    m = re.fullmatch(r"chacha\d*-x(\d+)-(\w+)-(\w+)-(\w+)", name)
    if not m or m.group(4) not in CHACHA_ISAS:
        raise UsageError(f"not a ChaCha variant name: '{name}'")
    width, isa = int(m.group(1)), m.group(4)
    states = width // CHACHA_ISAS[isa].width
    v = ChachaVariant(isa=isa, schedule=m.group(2), rotate=m.group(3), states=states,
                      rounds=rounds)
    if v.width != width:
        raise UsageError(f"not a ChaCha variant name: '{name}' (no x{width} on {isa})")
    return v
