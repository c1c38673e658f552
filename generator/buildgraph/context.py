# SPDX-License-Identifier: Apache-2.0 OR MIT
"""What every family's edges are written from: the options, what the probes found, the
variants out/ is generated with, and the goals (`ninja test`, `ninja bench`, ...) the edges
feed."""

import dataclasses
import os

from generator.buildgraph import flags

# The goals families add their logs and programs to, in the order they emit them; the closing
# edges (goals.py) list them. "check-out": the logs of out/ built by --cc; "programs": the
# programs `ninja check-out` builds besides.
GOALS = ("test", "check-out", "programs", "test-long", "test-sanitize", "fuzz",
         "bench-sponge", "bench-bundle")


@dataclasses.dataclass
class Context:
    args: object               # the parsed options
    target: object             # generator.targets.Target
    main_cc: dict              # --cc's probe; "name": the test-matrix compiler it is, if any
    test_ccs: list             # probes of the test matrix's compilers that are installed
    check_cflags: str          # Check, the C test framework
    check_libs: str
    crypto_libs: object        # libcrypto's link flags (the ChaCha bench's peer), or None
    peers: dict                # cflags/libs of the sponge bench's peers
    clang: object              # clang's path (MSVC syntax checks), or None
    ref_cc: str                # compiler of the reference objects benches compare with
    valgrind: object           # valgrind's path, or None
    python: str                # the interpreter the build's edges run (has Jinja2)
    plots_python: str          # an interpreter with matplotlib for the report, if any
    cpu: set                   # the host CPU's feature flags
    gen_inputs: list           # the generator's sources: implicit inputs of generate edges
    keccak: object = None      # out/'s variants (choices.py)
    multis: list = None
    chacha: object = None
    out: object = None         # outdir.OutFolder
    goals: dict = dataclasses.field(default_factory=lambda: {g: [] for g in GOALS})
    # What `ninja test` leaves out for a tool this machine lacks, [(what, why)]: its summary
    # lists them by name (goals.summaries writes them as SKIP lines).
    skipped: list = dataclasses.field(default_factory=list)
    # Bench programs per compiler, {kind: program}: "all" the variant matrix, "quick" the
    # tuner's pruned space, "out" the out/ folder's (bench_sponge).
    benches: dict = dataclasses.field(
        default_factory=lambda: {"all": {}, "quick": {}, "out": {}})

    @property
    def compilers(self):
        """Every compiler that builds the matrix: the test matrix's, and --cc if it is none
        of them (it builds out/ only for the out/ checks)."""
        in_matrix = any(c["cc"] == self.main_cc["name"] for c in self.test_ccs)
        return self.test_ccs + ([] if in_matrix else [self.main_cc])

    def skip(self, what, tool, package):
        """Record that `what` of `ninja test` is left out because `tool` is not installed."""
        self.skipped.append((what, f"{tool} not installed (apt-get install -y {package})"))

    def add(self, path, *goals):
        """Make `path` (a log or a program) part of each of `goals`."""
        for goal in goals:
            self.goals[goal].append(path)

    @property
    def main_gen(self):
        """The main compiler's testsuite folder (a test-matrix compiler's, or --cc's): the
        vectors headers out/'s harnesses read."""
        return os.path.join("build", self.main_cc["name"], "gen")

    @property
    def out_check(self):
        """Where out/ is checked, by the main compiler."""
        return os.path.join("build", "out-check", self.main_cc["name"])

    def runs_tests(self, cc):
        return any(cc is t for t in self.test_ccs)

    def optimisation(self, cc):
        return flags.optimisation(self.args, cc)

    def warnings(self, cc):
        return flags.WARNINGS.get(cc["id"], "")

    def kernel_flags(self, cc):
        """How kernels and out/ are compiled: optimised, warnings as errors."""
        return f"{self.optimisation(cc)} {self.warnings(cc)}"

    def compiler_dir(self, cc, *parts):
        return os.path.join("build", cc["cc"], *parts)
