# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The one error type the CLI turns into a single line and exit code 2."""


class UsageError(Exception):
    """Bad input from the user: an unknown value, an impossible combination, a missing tool."""
