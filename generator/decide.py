# SPDX-License-Identifier: Apache-2.0 OR MIT
"""When a race decides: a candidate beats the default only by a margin larger than the
race's own measured spread."""


def decisive(winner_median, winner_spread, base_median, base_spread):
    """True when the winner's advantage over the default (base / winner - 1) exceeds the
    larger of the two spreads (3rd quartile / 1st quartile - 1 of their turns)."""
    if winner_median <= 0:
        return False
    return base_median / winner_median - 1 > max(winner_spread, base_spread)
