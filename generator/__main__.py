# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Command line: python3 -m generator {generate, bundle, check, testsuite, list, ...}.

Every user error ends in one line on stderr and exit code 2; nothing is written then.
"""

import argparse
import os
import sys

from . import VERSION
from .choice import cli_options
from .cli import (cmd_bench, cmd_bundle, cmd_describe, cmd_generate, cmd_list, cmd_permute,
                  cmd_prove, cmd_report, cmd_testsuite, cmd_tune, common)
from .errors import UsageError

# Registration order; `--help` lists the commands by GROUPS.
COMMANDS = (cmd_generate, cmd_bench, cmd_bundle, cmd_testsuite, cmd_describe, cmd_tune, cmd_report,
            cmd_permute, cmd_prove, cmd_list)

# The top level's command list: what a user runs first, then the commands this repository's
# build and tests run; each command's example ends its own --help too.
GROUPS = (
    ("commands", (
        ("generate", "python3 -m generator generate --target aarch64 --out third_party/keccak"),
        ("bundle", "python3 -m generator bundle --target x86_64 --prefix my_ "
                   "--out third_party/roundsmith"),
        ("check", "python3 -m generator check"),
        ("describe", "python3 -m generator describe out/x86_64"),
        ("list", "python3 -m generator list targets"),
        ("bench", "python3 -m generator bench --unroll 2,4 --cc gcc,clang"),
        ("tune", "python3 -m generator tune --bench build/gcc/bench_keccak --cc-id gcc "
                 "--cc-version 12 --cflags=-O2"),
        ("tune-bundle", "python3 -m generator tune-bundle --cc gcc"),
        ("tune-wasm", "python3 -m generator tune-wasm --quick"),
        ("prove", "python3 -m generator prove out/portable"),
    )),
    ("internal commands (run by this repository's build and tests)", (
        ("testsuite", "python3 -m generator testsuite --subset quick --out build/gen"),
        ("report", "python3 -m generator report --profiles"),
        ("permute", "python3 -m generator permute --rounds 24"),
    )),
)


def parser():
    groups = []
    p = cli_options.TopParser(prog="python3 -m generator", groups=groups, description=(
        "roundsmith kernel generator. Compiled templates are kept in $XDG_CACHE_HOME/roundsmith "
        "(default ~/.cache/roundsmith; safe to delete); with ROUNDSMITH_NO_CACHE set, every run "
        "compiles them afresh."))
    p.add_argument("--version", action="version", version=f"roundsmith {VERSION}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=cli_options.Parser,
                           metavar="COMMAND", help=argparse.SUPPRESS)
    for command in COMMANDS:
        command.add(sub)
    listed = [name for _, names in GROUPS for name, _ in names]
    if sorted(listed) != sorted(sub.choices):
        raise AssertionError(f"GROUPS lists {sorted(listed)}, the parsers {sorted(sub.choices)}")
    for title, names in GROUPS:
        for name, example in names:
            sub.choices[name].example = example
        groups.append((title, [(n, common.SUMMARIES[n], e) for n, e in names]))
    return p


def main(argv=None):
    if not (sys.argv[1:] if argv is None else argv):
        # No command: the summary of what there is to run, not argparse's one line.
        print(parser().format_help(), file=sys.stderr, end="")
        return 2
    try:
        args = parser().parse_args(argv)
        cli_options.check_values(args.options, args)
        args.command_line = cli_options.canonical_command(args.subcommand, args.options, args)
        args.run(args)
        sys.stdout.flush()
    except UsageError as e:
        # One line whatever the input held: a value with a newline is shown escaped.
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(e))
        print(f"generator: error: {text}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`list variants | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
