# SPDX-License-Identifier: Apache-2.0 OR MIT
"""permute: the reference Keccak-p[1600] applied to a state."""

from ..choice import cli_options, variants
from ..model import reference
from ..errors import UsageError
from .common import subcommand


def cmd_permute(args):
    """Keccak-p[1600, rounds] by the Python reference: a hand check for any target's output."""
    rounds = variants.parse_rounds(args.rounds)
    try:
        data = bytes.fromhex(args.state) if args.state else bytes(200)
    except ValueError:
        data = b""
    if len(data) != 200:
        raise UsageError("--state takes 200 bytes in hex (400 digits), the FIPS 202 byte order")
    print(reference.state_to_bytes(reference.keccak_p1600(reference.state_from_bytes(data),
                                                          rounds)).hex())


def add(sub):
    O = cli_options.Option
    subcommand(sub, "permute", (
        O("--rounds", "the number of rounds (the last ones of Keccak-f[1600])", "0..24", "24",
          {"default": "24"}),
        O("--state", "the state, 200 bytes in hex in FIPS 202 byte order", "400 hex digits",
          "zeros", {"default": ""})), cmd_permute,
        "apply the reference Keccak-p[1600, rounds] to a state")
