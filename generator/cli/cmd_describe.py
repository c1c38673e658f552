# SPDX-License-Identifier: Apache-2.0 OR MIT
"""describe: what a generated folder holds."""

import os

from ..emit import outfolder
from ..errors import UsageError
from .common import subcommand


def cmd_describe(args):
    """Print what a generated folder holds: its manifest checked against the files, and each
    file's parameters from its provenance header."""
    folder = args.folder
    if not os.path.isdir(folder):
        raise UsageError(f"cannot read {folder}: " + ("not a folder" if os.path.exists(folder)
                                                       else "no such folder"))
    try:
        names = sorted(os.listdir(folder))
    except OSError as e:
        raise UsageError(f"cannot read {folder}: {e.strerror}") from None
    owned = outfolder.read_manifest(folder)
    if owned is None:
        raise UsageError(f"{folder} holds no {outfolder.MANIFEST}: roundsmith did not write it "
                         "(or wrote it before roundsmith 0.2)")
    print(f"generated in {folder}/ ({len(owned)} files in {outfolder.MANIFEST}):")
    for name in sorted(owned):
        path = os.path.join(folder, name)
        if not os.path.lexists(path):
            print(f"  {name}: missing")
            continue
        state = "" if outfolder.file_digest(path) == owned[name] else " (changed since generated)"
        print(f"  {name}{state}: " + ", ".join(header_parameters(path)))
    subfolders = {n.split("/")[0] for n in owned if "/" in n}
    yours = [n for n in names if n not in owned and n != outfolder.MANIFEST
             and not n.startswith(outfolder.STAGING) and n not in subfolders]
    yours += [f"{d}/{n}" for d in sorted(subfolders) if os.path.isdir(os.path.join(folder, d))
              for n in sorted(os.listdir(os.path.join(folder, d))) if f"{d}/{n}" not in owned]
    if yours:
        print(f"  not generated (yours, never touched): {', '.join(yours)}")
    if any(n.startswith(outfolder.STAGING) for n in names):
        print("  an interrupted generation is pending: the next generate or bundle into this "
              "folder completes or discards it")


def header_parameters(path):
    """key=value pairs of a file's provenance header (empty for a file without one)."""
    try:
        with open(path, errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return []
    if "Parameters:" not in head:
        return []
    block = head.split("Parameters:", 1)[1].split("*/", 1)[0]
    return [" ".join(l.strip(" *").split()).replace(" = ", "=")
            for l in block.splitlines() if "=" in l]


def add(sub):
    subcommand(sub, "describe", (), cmd_describe, "print what a generated folder holds",
               positionals=((("folder",), {"help": "a folder roundsmith wrote"}),))
