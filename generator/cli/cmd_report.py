# SPDX-License-Identifier: Apache-2.0 OR MIT
"""report: markdown tables and plots from the benches' rows, or the tuned profiles side by
side."""

from ..choice import cli_options
from ..errors import UsageError
from .common import subcommand


def cmd_report(args):
    if args.profiles:
        from ..measure import profile_page
        if args.tsv:
            raise UsageError("report --profiles reads generator/profiles/, not .tsv files "
                             f"('{args.tsv[0]}'): give one or the other")
        profile_page.main(args.out or profile_page.PAGE)
        return
    from ..measure import bench_report
    if not args.tsv:
        raise UsageError("report needs build/report/<compiler>-<bench>.tsv files (or "
                         "--profiles)")
    bench_report.main(args.tsv, args.out or "out/report", args.command_line)


def add(sub):
    O = cli_options.Option
    subcommand(sub, "report", (
        O("--out", "the folder for report.md and the plots; with --profiles, the markdown "
          "file to write", "a folder path; with --profiles, a file path",
          "out/report; with --profiles, docs/profiles.md", {"default": None}),
        O("--profiles", "instead of bench rows, set every profile in generator/profiles/ side "
          "by side: each CPU's winners per kernel and compiler, one CPU's pick on another, "
          "how each was measured, its ties (the page docs/profiles.md)", "", "off",
          {"action": "store_true"})), cmd_report,
        "markdown tables and SVG plots from the benches' --tsv rows (run by ninja report), or "
        "the tuned profiles side by side (--profiles)",
        positionals=((("tsv",), {"nargs": "*",
                                 "help": "build/report/<compiler>-<bench>.tsv files (none "
                                         "with --profiles)"}),))
