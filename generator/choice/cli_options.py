# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The command line's options, each with its meaning, accepted values and default.

The accepted values come from the tables that validate them (generator/variants.py,
generator/targets.py), so `--help`, the "accepted:" part of an error and the check itself
cannot disagree. Every parser refuses abbreviations: `--unrol 3` is an error, not `--unroll`.
"""

import argparse
import dataclasses
import re
import shlex
import sys
import textwrap
from dataclasses import dataclass, field

from ..model import chacha_maths as chacha
from . import targets, variants
from ..errors import UsageError


class Parser(argparse.ArgumentParser):
    """argparse whose errors are one line and exit 2 (through UsageError), and whose help ends
    with an example command (`example`) printed as written."""

    def __init__(self, *args, example=None, **kwargs):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)
        self.example = example
        self._argv = []

    def parse_known_args(self, args=None, namespace=None):
        # Kept for error(): what followed an option argparse found without its value.
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message):
        raise UsageError(message + self._dash_hint(message))

    def _dash_hint(self, message):
        """argparse reads a value starting with '-' (--cflags -O3) as the next option and says
        only 'expected one argument': name the spelling that works, --cflags=-O3."""
        m = re.match(r"argument (?:\S+/)?(--[\w-]+): expected one argument", message)
        if not m:
            return ""
        flag = m.group(1)
        for i, a in enumerate(self._argv[:-1]):
            value = self._argv[i + 1]
            # An option of this parser after it: the value was left out, not misread.
            if a == flag and value.startswith("-") \
                    and value.split("=")[0] not in self._option_string_actions:
                return f" (a value starting with '-' is written {flag}={shlex.quote(value)})"
        return ""

    def format_help(self):
        text = super().format_help()
        if self.example:
            text += f"\nexample:\n  {self.example}\n"
        return text


class TopParser(Parser):
    """The top level: usage and description, then each group of commands (name, summary,
    example), then the options. `groups` may be filled after construction."""

    def __init__(self, *args, groups=(), **kwargs):
        kwargs.setdefault("usage", "%(prog)s [-h] [--version] COMMAND ...")
        super().__init__(*args, **kwargs)
        self.groups = groups

    def format_help(self):
        f = self._get_formatter()
        f.add_usage(self.usage, self._actions, self._mutually_exclusive_groups)
        f.add_text(self.description)
        text = f.format_help()
        width = max(f._width, 60)
        column = 2 + max((len(n) for _, cs in self.groups for n, _, _ in cs), default=0) + 2
        for title, commands in self.groups:
            text += f"\n{title}:\n"
            for name, summary, example in commands:
                text += textwrap.fill(summary, width, initial_indent=f"  {name}".ljust(column),
                                      subsequent_indent=" " * column) + "\n"
                # As written, unwrapped, so it can be copied.
                text += " " * column + f"example: {example}\n"
        f = self._get_formatter()
        for group in self._action_groups:
            f.start_section(group.title)
            f.add_text(group.description)
            f.add_arguments(group._group_actions)
            f.end_section()
        text += "\n" + f.format_help()
        return text + "\nEach command's options: python3 -m generator COMMAND --help\n"


@dataclass(frozen=True)
class Option:
    flag: str
    meaning: str
    accepted: str = ""
    default: str = ""       # as the help shows it ("" when the option has no default)
    kw: dict = field(default_factory=dict)   # add_argument's own keywords
    shapes_output: bool = True   # False: left out of the command a provenance header records

    @property
    def dest(self):
        return self.kw.get("dest", self.flag.lstrip("-").replace("-", "_"))

    @property
    def help(self):
        text = self.meaning
        if self.accepted:
            text += f". Accepted: {self.accepted}"
        if self.default:
            text += f". Default: {self.default}"
        return text.replace("%", "%%") + "."


def words(values):
    return ", ".join(map(str, values))


def by_target(values_of):
    """Values over every target, each followed by the targets it is limited to, if any:
    'shift, builtin, rol (x86_64), rorx (x86_64)'."""
    seen = {}
    for t in targets.TARGETS.values():
        for v in values_of(t):
            seen.setdefault(v, []).append(t.name)
    every = len(targets.TARGETS)
    return words(v if len(ts) == every else f"{v} ({', '.join(ts)})" for v, ts in seen.items())


HOST = targets.host()
CC_IDS = tuple(targets.DEFAULT_KECCAK) + ("other",)


def compiler_caps():
    """Every capability configure.py probes a compiler for: what some variant needs."""
    caps = {c for r in variants.ROTATIONS.values() for c in r["compiler"]}
    caps |= {c for isa in variants.CHACHA_ISAS.values() for c in isa.compiler}
    caps |= {v.compiler_needs()[0] for n, isa in variants.SIMD_SHAPES
             for v in [variants.SimdKeccakVariant(instances=n, isa=isa)] if v.compiler_needs()}
    return tuple(sorted(caps))


def parse_caps(text):
    caps = tuple(c for c in text.split(",") if c)
    bad = [c for c in caps if c not in compiler_caps()]
    if bad:
        raise UsageError(f"--caps: unknown capability '{bad[0]}'; accepted (comma separated): "
                         f"{words(compiler_caps())}")
    return set(caps)


# Long enough for any library's namespace; a longer one made names past what some linkers
# and file systems take ("File name too long" on a temporary path, not a message).
PREFIX_MAX = 32


def parse_prefix(prefix):
    """The prefix as given ("" when the option was left out), or UsageError: a C identifier
    start of at most PREFIX_MAX characters, not starting with an underscore (its upper case
    starts the macros, and _X... and __... are reserved identifiers in C)."""
    if not prefix:
        return ""
    shown = prefix if len(prefix) <= 40 else prefix[:40] + "..."
    if len(prefix) > PREFIX_MAX:
        raise UsageError(f"--prefix is {len(prefix)} characters, at most {PREFIX_MAX}: "
                         f"'{shown}'")
    if not (prefix.replace("_", "a").isalnum() and not prefix[0].isdigit()
            and prefix.isascii()):
        raise UsageError(f"--prefix must be a C identifier prefix (ASCII letters, digits and "
                         f"_, not starting with a digit), not '{shown}'")
    if prefix.startswith("_"):
        raise UsageError(f"--prefix must not start with '_': '{prefix}' and its upper case "
                         f"'{prefix.upper()}' (the macros') begin reserved identifiers in C")
    return prefix


def parse_names(prefix, keep_drop_in_names):
    """(prefix, keep_drop_in_names), checked: keeping the drop-ins' names means something
    only under a prefix (without one every name is already the peers' own)."""
    prefix = parse_prefix(prefix)
    if keep_drop_in_names and not prefix:
        raise UsageError("--keep-drop-in-names needs --prefix: without one the drop-in "
                         "headers already carry their peers' names")
    return prefix, keep_drop_in_names


class _PrefixGiven(argparse.Action):
    """--prefix as given: an empty one is refused (no prefix is the option left out), which a
    check after parsing cannot tell from the default."""

    def __call__(self, parser, namespace, values, option_string=None):
        if values == "":
            raise UsageError("--prefix needs a value (leave the option out for no prefix)")
        setattr(namespace, self.dest, values)


def parse_cc_id(text):
    if text not in CC_IDS:
        raise UsageError(f"--cc-id: unknown compiler '{text}'; accepted: {words(CC_IDS)}")
    return text


def _default_keccak():
    return targets.default_keccak(HOST, "gcc")


def _default_chacha():
    return targets.default_chacha(HOST, "gcc")


PER_COMPILER = f"the --cc-id compiler's measured choice for the target (here {HOST.name}, gcc: {{}})"

TARGET = Option("--target", "the architecture to generate for",
                "host, " + words(targets.TARGETS), f"host (this machine: {HOST.name})",
                {"default": "host"})
CC_ID = Option("--cc-id", "the compiler whose measured defaults (generator/targets.py) choose "
               "every option left unset; 'other' takes the portable fallback", words(CC_IDS),
               "gcc", {"default": "gcc"})
PREFIX = Option("--prefix", "replaces roundsmith's namespace rs_ / RS_ (rs_selftest -> "
                "PREFIXselftest, RS_PATH_AVX2 -> upper-case PREFIX PATH_AVX2, include guards "
                "too) and goes before every other exported function, type and macro "
                "(PREFIXsha3_256, PREFIXKeccakP1600_Initialize), so two copies made with "
                "different prefixes link into one program and share a translation unit",
                f"a C identifier prefix of 1 to {PREFIX_MAX} characters: ASCII letters, "
                "digits and _, not starting with a digit or _", "none",
                {"default": "", "action": _PrefixGiven})
KEEP_DROP_IN_NAMES = Option(
    "--keep-drop-in-names", "with --prefix: the drop-in headers keep their peers' names "
    "unprefixed (XKCP's KeccakP1600_* and KeccakP1600timesN_* with their macros in "
    "KeccakP-1600-SnP.h and KeccakP-1600-times2/4/8-SnP.h; chiapos' chacha8_keysetup, "
    "chacha8_get_keystream and struct chacha8_ctx in chacha8.h), so they still stand in for "
    "the peer, while every other name takes the prefix; two such bundles in one program "
    "clash on those names", "", "off", {"action": "store_true"})
FORCE = Option("--force", "overwrite generated files you changed since roundsmith wrote them "
               "(files roundsmith did not write are never touched)", "",
               "off", {"action": "store_true"}, shapes_output=False)
PROVE = Option("--prove", "prove every kernel equal to FIPS 202 or RFC 8439 for all inputs "
               "before anything is written, and write nothing if one does not prove (as "
               "`generator prove` does: Debian's python3-z3 and python3-pycparser)", "", "off",
               {"action": "store_true"}, shapes_output=False)
CAPS = Option("--caps", "compiler capabilities, as configure.py probes them by compiling",
              "comma-separated " + words(compiler_caps()), "none", {"default": ""})

KECCAK = (
    Option("--unroll", "Keccak rounds per loop pass (24: fully unrolled)",
           words(variants.KECCAK_UNROLLS), PER_COMPILER.format(_default_keccak().unroll)),
    Option("--lane-complement", "keep six lanes inverted, 5 NOTs per round in chi instead of 25",
           words(variants.ON_OFF), PER_COMPILER.format(
               "on" if _default_keccak().lane_complement else "off")),
    Option("--rotate", "how lanes are rotated: shift-or, the compiler builtin, or x86-64 "
           "inline asm (rol; rorx needs BMI2)", by_target(lambda t: t.rotations),
           PER_COMPILER.format(_default_keccak().rotate)),
    Option("--parity", "theta's column parities: fused into chi, or separate at each round "
           "start", words(variants.PARITIES), PER_COMPILER.format(_default_keccak().parity)),
    Option("--lanes", "how a lane is held: plain 64-bit, or interleaved as two 32-bit words "
           "of its even and odd bits (32-bit targets)", words(variants.LANE_LAYOUTS), "plain"),
    Option("--isa", "the single-state kernel: C (scalar), the generator's x86-64 inline "
           "assembly (x86asm), or a vector kernel behind the same API",
           by_target(targets.single_state_isas), PER_COMPILER.format(_default_keccak().isa)),
    Option("--multi", "also emit a multi-state kernel (repeatable)",
           f"xN-ISA or xN-uU-ISA: {by_target(targets.multi_shapes)}; U one of "
           f"{words(variants.KECCAK_UNROLLS)}", f"none (U: {targets.DEFAULT_SIMD_UNROLL})",
           {"action": "append", "default": [], "metavar": "xN[-uU]-ISA"}),
)
CHACHA = (
    Option("--chacha-isa", "the widest ChaCha level (narrower ones come with it, chosen at run "
           "time)", by_target(lambda t: t.chacha_isas),
           PER_COMPILER.format(_default_chacha().isa)),
    Option("--chacha-schedule", "the order of the four quarter rounds of a half round",
           words(chacha.SCHEDULES), PER_COMPILER.format(_default_chacha().schedule)),
    Option("--chacha-rotate", "ChaCha rotations: shift-or, byte shuffles for 16 and 8 (pshufb, "
           "tbl, wasm's shuffle), or AVX-512's vprold",
           words(f"{r} ({', '.join(i for i, l in variants.CHACHA_ISAS.items() if r in l.rotations)})"
                 for r in dict.fromkeys(r for l in variants.CHACHA_ISAS.values()
                                        for r in l.rotations)),
           "the level's richest rotation, or the --cc-id compiler's choice"),
    Option("--chacha-states", "independent block sets interleaved in the widest vector path",
           words(variants.CHACHA_STATES), PER_COMPILER.format(_default_chacha().states)),
    Option("--chacha-rounds", "the round counts to emit, comma separated",
           f"even numbers 2..{chacha.MAX_ROUNDS}", words(chacha.BUILT_ROUNDS).replace(" ", "")),
)


def reworded(options, old, new):
    """The same options with their default's wording changed (configure and bench choose
    per-compiler defaults from another option than --cc-id)."""
    return tuple(dataclasses.replace(o, default=o.default.replace(old, new)) for o in options)


def as_lists(options, flags, note, meanings=None):
    """The same options, those in `flags` saying they take a list (bench sweeps them), and
    those in `meanings` (flag -> meaning) meaning something else there."""
    meanings = meanings or {}
    return tuple(dataclasses.replace(o, accepted=f"{o.accepted}; {note}",
                                     meaning=meanings.get(o.flag, o.meaning))
                 if o.flag in flags else o for o in options)


def out_option(required=True, meaning="the folder to write; files you add beside the "
               "generated ones are kept, and a folder roundsmith did not write is refused"):
    return Option("--out", meaning, "a folder path", "" if required else "none",
                  {"required": True} if required else {})


def add_options(parser, options):
    for o in options:
        parser.add_argument(o.flag, **dict({"help": o.help}, **o.kw))


def check_values(options, args):
    """argparse turns `--opt=--` into an empty list instead of a string: refuse it."""
    for o in options:
        value = getattr(args, o.dest, None)
        if o.kw.get("action") == "append":
            value = next((v for v in value if isinstance(v, list)), None)
        if isinstance(value, list):
            raise UsageError(f"{o.flag} needs a value, not '--'")


def canonical_command(subcommand, options, args):
    """The command that makes the same output, spelled one way: the options that differ from
    their defaults, in table order, with the output folder left out (as DIR), so the same
    output is byte-identical in any folder on any machine."""
    parts = ["python3", "-m", "generator", subcommand]
    for o in options:
        value = getattr(args, o.dest)
        if not o.shapes_output or value == o.kw.get("default"):
            continue
        if o.flag == "--out":
            parts += ["--out", "DIR"]
        elif o.kw.get("action") == "store_true":
            # argparse's default for a switch is False, not the table's None: only one given
            # belongs in the command.
            if value:
                parts.append(o.flag)
        elif o.kw.get("action") == "append":
            for v in value:
                parts += [o.flag, v]
        else:
            parts += [o.flag, str(value)]
    return " ".join(p if p == "DIR" else shlex.quote(p) for p in parts)
