# SPDX-License-Identifier: Apache-2.0 OR MIT
"""bundle and check: every code path of one architecture in one folder, and the committed
bundles against a fresh generation."""

import argparse
import os
import sys

from ..choice import cli_options, targets, variants
from ..emit import kernels, outfolder
from ..errors import UsageError
from .common import FAMILIES, parse_families, prove_before_writing, subcommand, wasm_shapes


def cmd_bundle(args):
    """Every code path of one architecture in one folder, with a dispatch file."""
    from ..emit import bundle
    if args.canonical or args.target == "wasm32":
        wasm_shapes(targets.get("wasm32"))
    if args.canonical:
        if (args.target != "host" or args.prefix or args.keep_drop_in_names
                or args.amalgamate or args.out
                or args.kernels != ",".join(FAMILIES) or args.chacha_rounds):
            raise UsageError("--canonical writes the committed bundles (out/portable, "
                             "out/x86_64, out/aarch64) and takes no other option")
        folders = bundle.canonical_files(args.root)
        if args.prove:
            prove_before_writing(folders, "bundle", canonical=True)
        for folder, files in folders.items():
            changed = outfolder.write_tree(folder, files, bundle.CANONICAL_COMMAND,
                                        force=args.force)
            print(f"bundle {folder}: {len(files)} files"
                  + (f" ({len(changed)} changed)" if changed else " (unchanged)"))
        return
    if not args.out:
        raise UsageError("bundle needs --out DIR (or --canonical)")
    b = (targets.BUNDLES[args.target] if args.target in targets.BUNDLES
         else targets.bundle_for(targets.get(args.target, bundles=True)))
    rounds = variants.parse_chacha_rounds(args.chacha_rounds) if args.chacha_rounds else None
    families = parse_families(args.kernels, "--kernels")
    if rounds and "chacha" not in families:
        raise UsageError("--chacha-rounds needs chacha among --kernels")
    b = bundle.select(b, families, rounds)
    prefix, keep = cli_options.parse_names(args.prefix, args.keep_drop_in_names)
    cc_id = cli_options.parse_cc_id(args.cc_id)
    outfolder.precheck(args.out, (kernels.PQ_CRYSTALS,))
    command = args.command_line
    files = bundle.folder(b, prefix, command, cc_id, args.amalgamate, keep)
    if args.prove:
        prove_before_writing({args.out: files}, "bundle")
    changed = outfolder.write_tree(args.out, files, command, force=args.force)
    print(f"bundle {args.out}: {b.description}"
          + (f"; kernels {', '.join(families)}" if families != FAMILIES else "")
          + (f"; ChaCha rounds {','.join(map(str, rounds))}" if rounds else "")
          + (f"; paths {', '.join(p.name for p in b.paths)}"
             if families != FAMILIES else "")
          + (f", prefix {args.prefix}" if args.prefix else "")
          + (" (drop-in names kept)" if keep else "")
          + (", amalgamated" if args.amalgamate else "")
          + (f" ({len(changed)} file(s) changed)" if changed else " (unchanged)"))


def cmd_check(args):
    """The committed bundles against a fresh generation; exit 1 naming the fix."""
    from ..emit import bundle
    if not os.path.isdir(args.root):
        raise UsageError(f"--root {args.root}: " + ("not a folder" if os.path.exists(args.root)
                                                     else "no such folder"))
    if not any(os.path.isdir(os.path.join(args.root, name))
               for name in targets.CANONICAL_BUNDLES):
        raise UsageError(f"--root {args.root} holds none of the committed bundles "
                         f"({', '.join(targets.CANONICAL_BUNDLES)})")
    wasm_shapes(targets.get("wasm32"))
    bad = bundle.check(args.root)
    sys.stdout.flush()  # the diff first, the fix last: CI logs show their tail
    if bad:
        print(f"generator check: {bad} file(s) in {args.root}/ differ from what the generator "
              f"makes now; run `{bundle.CANONICAL_COMMAND}` and commit the result",
              file=sys.stderr)
        sys.exit(1)
    print(f"generator check: {args.root}/ ({', '.join(targets.CANONICAL_BUNDLES)}) is current")


def add(sub):
    O = cli_options.Option
    bundle_targets = cli_options.words(list(targets.BUNDLES) + [t for t in targets.TARGETS
                                                       if t not in targets.BUNDLES])
    subcommand(sub, "bundle", (
        O("--target", "the architecture: a bundle with dispatch, or any other target's scalar "
          "kernels", "host, " + bundle_targets, f"host (this machine: {cli_options.HOST.name})",
          {"default": "host"}),
        O("--cc-id", "the compiler whose measured defaults shape the kernels",
          cli_options.words(cli_options.CC_IDS), targets.CANONICAL_CC,
          {"default": targets.CANONICAL_CC}),
        cli_options.PREFIX, cli_options.KEEP_DROP_IN_NAMES,
        O("--amalgamate", "write one roundsmith.c and one roundsmith.h", "", "off",
          {"action": "store_true"}),
        O("--kernels", "the kernel families to keep: keccak (the permutation, the sponge "
          "functions, the SnP interface), chacha",
          "comma-separated " + cli_options.words(FAMILIES), "all",
          {"default": ",".join(FAMILIES)}),
        O("--chacha-rounds", "the ChaCha round counts to keep (chacha20_xor and the IETF form "
          "need 20)", f"even numbers 2..{variants.chacha.MAX_ROUNDS}, comma separated",
          ",".join(map(str, variants.chacha.BUILT_ROUNDS))),
        cli_options.out_option(required=False),
        O("--canonical", "write the committed bundles into ROOT/out/ (what check compares)", "",
          "off", {"action": "store_true"}),
        O("--root", "", "", "", {"default": "out", "help": argparse.SUPPRESS}),
        cli_options.FORCE, cli_options.PROVE), cmd_bundle,
        "every code path of one architecture in one vendorable folder, with run-time dispatch")
    subcommand(sub, "check", (
        O("--root", "the folder holding the committed bundles", "a folder path", "out",
          {"default": "out"}),), cmd_check,
        "regenerate the committed bundles into a temporary folder and diff them against out/")
