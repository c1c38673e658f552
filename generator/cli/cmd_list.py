# SPDX-License-Identifier: Apache-2.0 OR MIT
"""list: the targets, or the variants one target's compilers can build."""

from ..choice import cli_options, targets, variants
from .common import subcommand


def cmd_list(args):
    target = targets.get(args.target)
    caps = cli_options.parse_caps(args.caps)
    if args.what == "targets":
        for t in targets.TARGETS.values():
            print(f"{t.name:11} {t.description}")
        # Bundle names that are no target (portable): `bundle --target` takes them too.
        for b in targets.BUNDLES.values():
            if b.name not in targets.TARGETS:
                print(f"{b.name:11} {b.description} (bundle only; generate: {b.target})")
    else:
        for v in variants.keccak_scalar_space(target, caps):
            print(v.name)
        for v in variants.keccak_simd_space(target, caps):
            print(v.name)
        for v in variants.chacha_space(target, caps):
            print(v.name)


def add(sub):
    O = cli_options.Option
    subcommand(sub, "list", (
        cli_options.TARGET,
        O("--caps", "compiler capabilities the variants may need", "comma-separated "
          + cli_options.words(cli_options.compiler_caps()), "all of them",
          {"default": ",".join(cli_options.compiler_caps())})), cmd_list,
        "list targets or variants",
        positionals=((("what",), {"choices": ("targets", "variants"),
                                  "help": "targets or variants"}),))
