# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Command line: python3 -m generator {generate, bundle, check, testsuite, list, ...}.

Every user error ends in one line on stderr and exit code 2; nothing is written then.
"""

import os
import sys

from . import VERSION
from .choice import cli_options
from .cli import (cmd_bench, cmd_bundle, cmd_describe, cmd_generate, cmd_list, cmd_permute,
                  cmd_prove, cmd_report, cmd_testsuite, cmd_tune)
from .errors import UsageError

# The order `--help` lists them in, and docs/cli.md.
COMMANDS = (cmd_generate, cmd_bench, cmd_bundle, cmd_testsuite, cmd_describe, cmd_tune, cmd_report,
            cmd_permute, cmd_prove, cmd_list)


def parser():
    p = cli_options.Parser(prog="python3 -m generator", description=(
        "roundsmith kernel generator. Compiled templates are kept in $XDG_CACHE_HOME/roundsmith "
        "(default ~/.cache/roundsmith; safe to delete); with ROUNDSMITH_NO_CACHE set, every run "
        "compiles them afresh."))
    p.add_argument("--version", action="version", version=f"roundsmith {VERSION}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=cli_options.Parser,
                           metavar="COMMAND")
    for command in COMMANDS:
        command.add(sub)
    return p


def main(argv=None):
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
