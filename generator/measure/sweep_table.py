# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A sweep's results: per row (a combination of the swept options) and compiler, the figure,
its spread, the ratios to that compiler's default and to the sweep's best, XKCP's best where
it raced, and what the row's correctness rests on; as the table a person reads and as TSV.

Two figures of one compiler closer than the larger of their spreads (generator/decide.py's
rule) are a tie: the table marks every row that ties with the best with "~", so a ranking is
claimed only where the race can tell the rows apart. Pure: rows in, text out.
"""

from dataclasses import dataclass, field

from . import benchdata, decide
from .bench_build import BuildError
from .sweep_space import default_for
from ..choice import kinds


# Per sweep family: (column, what the figure is, unit, format), from its kind's family.
METRICS = {k.sweep[0]: (kinds.FAMILY[k.family].metric.column, k.sweep[2],
                        kinds.FAMILY[k.family].metric.unit, kinds.FAMILY[k.family].metric.fmt)
           for k in kinds.KINDS if k.sweep}
TITLES = {k.sweep[0]: k.sweep[1] for k in kinds.KINDS if k.sweep}


def correctness(variant, proofs):
    """What a row that gave every vector right rests on: "proved" when `proofs` (variant name
    -> the prover's verdict, bench --prove) says so, the prover's verdict when it says
    otherwise, else "verified" (the vectors alone)."""
    return proofs.get(variant.name, "verified")


@dataclass
class Cell:
    cc: str
    variant: object = None      # None: this compiler has no variant for the combination
    check: str = "n/a"          # verified / proved / WRONG: ... / skipped (...) / ...
    row: dict = field(default_factory=dict)
    median: float = None
    spread: float = None
    x_default: float = None
    x_best: float = None
    mark: str = ""              # "*": the best; "~": a tie with the best
    x_xkcp: float = None
    sponge: dict = None         # SHA3-256 figures (--sponge)


@dataclass
class Result:
    sweep: object
    ccs: list
    cells: list                 # per sweep row: {cc: Cell}
    notes: dict                 # cc -> lines under the table
    xkcp: dict                  # cc -> the best XKCP row, where XKCP raced
    defaults: dict = field(default_factory=dict)   # cc -> its default's row (not x-N)


def results(sweep, programs, rows, sponge_rows, ccs, target, rounds, proofs=None):
    """rows: cc -> the program's --tsv rows (or a BuildError); sponge_rows likewise; proofs:
    variant name -> the prover's verdict (bench --prove)."""
    proofs = proofs or {}
    metric = METRICS[sweep.family][0]
    column = decide.spread_column(metric)
    cells = [{cc: Cell(cc, r.variants.get(cc)) for cc in ccs} for r in sweep.rows]
    notes, xkcp, defaults = {}, {}, {}
    for cc in ccs:
        p = programs.get(cc)
        got = rows.get(cc)
        by = {} if isinstance(got, BuildError) or got is None else {r["variant"]: r for r in got}
        sp = sponge_rows.get(cc)
        sby = {} if isinstance(sp, BuildError) or sp is None else {r["variant"]: r for r in sp}
        for c in (row[cc] for row in cells):
            v = c.variant
            if v is None:
                continue
            if p is not None and v.name in p.failed:
                c.check = "no build"
            elif isinstance(got, BuildError):
                c.check = "no build"
            elif v.name not in by:
                c.check = "no row"
            else:
                c.row = by[v.name]
                c.check = (correctness(v, proofs) if benchdata.ok(c.row)
                           else str(c.row.get("status", "?")).split(" (")[0].split(":")[0])
            if benchdata.ok(c.row):
                c.median, c.spread = c.row[metric], c.row.get(column, 0.0)
            if v.name in sby and benchdata.ok(sby[v.name]):
                c.sponge = sby[v.name]
        timed = [row[cc] for row in cells if row[cc].median is not None]
        best = min(timed, key=lambda c: c.median) if timed else None
        peers = [r for r in by.values() if str(r["variant"]).startswith("xkcp-")
                 and benchdata.ok(r)]
        xk = min(peers, key=lambda r: r[metric]) if peers else None
        if xk:
            xkcp[cc] = xk
        if sweep.family != "multi" and benchdata.ok(
                by.get(default_for(sweep.family, target, cc).name, {})):
            defaults[cc] = by[default_for(sweep.family, target, cc).name]
        for c in timed:
            d = by.get(default_for(sweep.family, target, cc, c.variant).name)
            if d and benchdata.ok(d):
                c.x_default = d[metric] / c.median
            c.x_best = best.median / c.median
            if c is best:
                c.mark = "*"
            elif not decide.judge(best.row, c.row, metric).decisive:
                c.mark = "~"
            if xk:
                c.x_xkcp = xk[metric] / c.median
        notes[cc] = footer(sweep, cc, p, got, by, sp, cells, target, metric, peers, rounds)
    return Result(sweep, ccs, cells, notes, xkcp, defaults)


def footer(sweep, cc, p, got, by, sp, cells, target, metric, peers, rounds):
    fmt = METRICS[sweep.family][3]
    lines = []
    if isinstance(got, BuildError):
        return [f"{cc}: the bench program does not build: {got}"]
    if p is None:
        return [f"{cc}: no variant of this sweep exists for it"]
    first = next((row[cc].variant for row in cells if row[cc].variant), None)
    if first is not None and not sweep.swept:
        lines.append(f"{cc}: the row is {first.name}")
    elif first is not None and sweep.family != "multi":
        lines.append(f"{cc}: each row is {first.name} with the swept options set (the rest "
                     f"are {cc}'s defaults)")
    defaults = list(dict.fromkeys(default_for(sweep.family, target, cc, row[cc].variant).name
                                  for row in cells if row[cc].variant))
    parts = []
    for name in defaults:
        d = by.get(name)
        if d and benchdata.ok(d):
            spread = d.get(decide.spread_column(metric), 0)
            parts.append(f"default {name} {fmt.format(d[metric])} (spread {spread:.1%})")
    ok = [r for r in by.values() if benchdata.ok(r)]
    if ok and "ref_median_24" in ok[0]:
        parts.append(f"reference {ok[0]['ref_median_24']:.0f} (spread "
                     f"{ok[0]['ref_spread_24']:.1%})")
    if ok and "bulk_ossl_median" in ok[0]:
        parts.append(f"reference {ok[0]['bulk_ref_median']:.3f}, OpenSSL "
                     f"{ok[0]['bulk_ossl_median']:.3f}")
    parts += [f"{r['variant'][len('xkcp-opt64-'):]} {fmt.format(r[metric])}" for r in peers]
    if parts:
        lines.append(f"{cc}: " + ", ".join(parts))
    for name, e in (p.failed.items() if p else ()):
        lines.append(f"{cc}: {name} does not build: {e}")
    for row in cells:
        c = row[cc]
        if c.variant is not None and c.row and not benchdata.ok(c.row):
            lines.append(f"{cc}: {c.variant.name}: {c.row.get('status')}")
    if isinstance(sp, BuildError):
        lines.append(f"{cc}: the sponge bench does not build: {sp}")
    elif sp is not None:
        for r in sp:
            if not benchdata.ok(r):
                lines.append(f"{cc}: sponge on {r['variant']}: {r.get('status')}")
    return lines


def _num(x, fmt):
    return "-" if x is None else fmt.format(x)


def columns(result, rounds, versions):
    """(label headers, per-compiler group headers, rows of strings) for the table."""
    sweep = result.sweep
    fam = sweep.family
    fmt = METRICS[fam][3]
    labels = [f.lstrip("-") for f in sweep.swept] or ["variant"]
    group = [METRICS[fam][2], "spread", "x def", "x best"]
    extra_rounds = fam == "keccak" and rounds != 24
    if extra_rounds:
        group.append(f"cyc/{rounds}r")
    with_xkcp = bool(result.xkcp)
    if with_xkcp:
        group.append("x XKCP")
    with_sponge = any(c.sponge for row in result.cells for c in row.values())
    if with_sponge:
        group += ["SHA3 1KiB", "SHA3 1MiB"]
    group.append("check")
    body = []
    for srow, cells in zip(sweep.rows, result.cells):
        values = [v for _, v in srow.combo.swept] or ["as asked"]
        line = []
        for cc in result.ccs:
            c = cells[cc]
            g = [_num(c.median, fmt), _num(c.spread, "{:.1%}"), _num(c.x_default, "{:.3f}"),
                 _num(c.x_best, "{:.3f}") + (c.mark or " ")]
            if extra_rounds:
                g.append(_num(c.row.get(f"median_{rounds}") if c.median else None, "{:.0f}"))
            if with_xkcp:
                g.append(_num(c.x_xkcp, "{:.3f}"))
            if with_sponge:
                g += [_num(c.sponge and c.sponge["sha3_1k_median"], "{:.2f}"),
                      _num(c.sponge and c.sponge["sha3_1m_median"], "{:.2f}")]
            g.append(c.check)
            line.append(g)
        body.append((values, line))
    heads = [f"{cc} {versions.get(cc, '')}".strip() for cc in result.ccs]
    return labels, group, heads, body


def table(result, rounds, turns, versions):
    """The table a person reads: one line per row, a column group per compiler."""
    labels, group, heads, body = columns(result, rounds, versions)
    fam = result.sweep.family
    lw = [max([len(l)] + [len(values[i]) for values, _ in body]) for i, l in enumerate(labels)]
    gw = [max([len(h)] + [len(g[i]) for _, lines in body for g in lines])
          for i, h in enumerate(group)]
    sep = "  |  "
    width = sum(gw) + 2 * (len(gw) - 1)
    out = [f"{TITLES[fam]}: {METRICS[fam][1]}, median of {turns} turns of a round-robin race "
           f"in one process per compiler (wall clock); x def = the compiler's default / this, "
           f"x best = the sweep's best / this (*: the best; ~: within the larger spread of the "
           f"two, a tie with the best)" + ("; x XKCP = XKCP opt64's best / this"
                                          if result.xkcp else "")]
    pad = "  ".join(" " * w for w in lw)
    out.append(pad + sep + sep.join(h.center(width) for h in heads))
    out.append("  ".join(l.ljust(w) for l, w in zip(labels, lw)) + sep
               + sep.join("  ".join(g.rjust(w) for g, w in zip(group, gw)) for _ in heads))
    for values, lines in body:
        out.append("  ".join(v.ljust(w) for v, w in zip(values, lw)) + sep
                   + sep.join("  ".join(x.rjust(w) for x, w in zip(line, gw)) for line in lines))
    for cc in result.ccs:
        out += ["  " + n for n in result.notes.get(cc, [])]
    return "\n".join(out) + "\n"


TSV_HEAD = ("family", "compiler", "options", "variant", "status", "check", "unit", "median",
            "best", "spread", "x_default", "x_best", "tie_with_best", "default_variant",
            "xkcp_best", "x_xkcp", "reference_median", "reference_spread", "sha3_1k_median",
            "sha3_1k_spread", "sha3_1m_median", "sha3_1m_spread")


def tsv_rows(result, target):
    """One row per (combination, compiler) that has a variant, machine-readable."""
    sweep = result.sweep
    metric, _, unit, _ = METRICS[sweep.family]
    best_col = "best_24" if metric == "median_24" else "bulk_best"
    out = []
    for srow, cells in zip(sweep.rows, result.cells):
        options = " ".join(f"{f} {v}" for f, v in srow.combo.given) or "(as asked)"
        for cc in result.ccs:
            c = cells[cc]
            if c.variant is None:
                continue
            xk = result.xkcp.get(cc)
            s = c.sponge or {}
            ref = c.row.get("ref_median_24", c.row.get("bulk_ref_median"))
            values = [sweep.family, cc, options, c.variant.name, c.row.get("status", c.check),
                      c.check, unit, c.median, c.row.get(best_col), c.spread, c.x_default,
                      c.x_best, {"*": "best", "~": "1", "": "0"}[c.mark] if c.median else "",
                      default_for(sweep.family, target, cc, c.variant).name,
                      xk and xk["variant"], c.x_xkcp, ref, c.row.get("ref_spread_24"),
                      s.get("sha3_1k_median"), s.get("sha3_1k_spread"), s.get("sha3_1m_median"),
                      s.get("sha3_1m_spread")]
            out.append("\t".join("" if x is None else
                                 (f"{x:.4f}".rstrip("0").rstrip(".") if isinstance(x, float)
                                  else str(x)) for x in values))
    return out


def tsv(results_, target):
    return "\t".join(TSV_HEAD) + "\n" + "".join(
        line + "\n" for r in results_ for line in tsv_rows(r, target))
