# SPDX-License-Identifier: Apache-2.0 OR MIT
"""When a race has found a winner: the rule every tuner applies before it replaces a default.

A race's figure for a contender is the median of its turns (bench/timing.h, rs_race), and its
spread is how far its turns scatter: 3rd quartile / 1st quartile of them, minus 1. On a shared
VM two runs minutes apart can rank two candidates either way when they are closer than that
scatter (an idle Intel machine gave clang's ChaCha to x16-step by 1.28x in one run and kept
x32-seq in the next). So a winner replaces the default only by a margin larger than the
spreads of both: advantage = default median / winner median - 1 must exceed the larger of the
two spreads. Anything less is a tie, and a tie keeps the default, which needs no profile to
be right.

Pure functions over numbers or over a bench's --tsv rows; no timing, no I/O.
"""

from dataclasses import dataclass

from ..errors import UsageError


def advantage(winner_median, base_median):
    """How much faster the winner is than the default: default / winner - 1 (0.05: 5%)."""
    return base_median / winner_median - 1


def decisive(winner_median, winner_spread, base_median, base_spread):
    """True when the winner beats the default by more than the larger of the two spreads."""
    return advantage(winner_median, base_median) > max(winner_spread, base_spread)


def spread_column(metric):
    """The spread beside a median column: median_24 -> spread_24, bulk_median -> bulk_spread."""
    if metric.startswith("median_"):
        return "spread_" + metric[len("median_"):]
    if metric.endswith("_median"):
        return metric[:-len("median")] + "spread"
    raise ValueError(f"{metric}: not a median column")


@dataclass(frozen=True)
class Verdict:
    winner: str
    default: str
    margin: float       # advantage of the winner over the default in this race
    spread: float       # the larger of the two spreads in this race
    decisive: bool

    def record(self, race):
        """The profile's entry for a tie (which race it failed in, rounded as the rows are)."""
        return {"winner": self.winner, "default": self.default, "race": race,
                "margin": round(self.margin, 4), "spread": round(self.spread, 4)}


def judge(winner_row, base_row, metric):
    """The verdict of one race on two of its rows (a bench's --tsv rows, as parsed by
    generator/benchdata.py), by `metric` (median_24, bulk_median) and its spread column. A
    row without that spread comes from a bench built before spreads were printed: refused,
    since without it no margin can be told from noise."""
    column = spread_column(metric)
    for row in (winner_row, base_row):
        if column not in row:
            raise UsageError(f"the bench row of {row.get('variant')} has no {column} column "
                             f"(a bench program built before spreads were printed: rebuild it)")
    margin = advantage(winner_row[metric], base_row[metric])
    spread = max(winner_row[column], base_row[column])
    return Verdict(str(winner_row["variant"]), str(base_row["variant"]), margin, spread,
                   decisive(winner_row[metric], winner_row[column], base_row[metric],
                            base_row[column]))
