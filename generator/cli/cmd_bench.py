# SPDX-License-Identifier: Apache-2.0 OR MIT
"""bench: generate the variants a sweep asks for, build them with each compiler and race
them."""

from ..choice import cli_options
from ..measure import bench, sweep_space
from . import common
from .common import KERNELS, subcommand


def cmd_bench(args):
    bench.main(args, common)


def add(sub):
    subcommand(sub, "bench", (cli_options.TARGET,) + cli_options.as_lists(cli_options.reworded(
                   cli_options.KECCAK + (KERNELS,) + cli_options.CHACHA,
                   "the --cc-id compiler's measured choice",
                   "each --cc compiler's measured choice"), sweep_space.KECCAK_OPTIONS
                   + (sweep_space.MULTI_OPTION,) + sweep_space.CHACHA_OPTIONS, bench.LISTS,
                   {"--multi": "race multi-state kernels instead of the single-state one "
                    "(repeatable; not with the single-state shape options)"})
               + bench.OPTIONS, cmd_bench,
               "generate the variants the options ask for (any generate option; each shape "
               "option a comma-separated list to sweep), build them with each compiler, verify "
               "them and race them in one process per compiler against its default (and "
               "XKCP); a table, and --tsv and --plot files. With --target wasm32 the candidates "
               "are wasm modules built by clang and raced under node in one process")
