# SPDX-License-Identifier: Apache-2.0 OR MIT
"""The bench report (`ninja report`): markdown tables and SVG plots in out/report/, built from
the benches' machine-readable rows (`--tsv`, saved as build/report/<cc>-<bench>.tsv).

The tables need nothing beyond the standard library; the plots need matplotlib (Debian's
python3-matplotlib), imported only when plotting. Every figure is the median of a contender's
turns in its bench's round-robin race (bench/timing.h; the best in parentheses where shown),
wall-clock TSC cycles; the peers raced in the same runs: the plain reference (tests/ref,
gcc -O3), OpenSSL and libgcrypt.
"""

import io
import os
import platform
import re
import statistics

from . import benchdata
from ..emit import outfolder
from ..choice import kinds, profiles, targets, variants
from .. import toolprobe
from ..errors import UsageError

# The kinds' benches, and the out/ sponge's, which races no kind's variants.
BENCHES = kinds.BENCHES + ("sponge",)
UNROLLS = variants.KECCAK_UNROLLS


def load(paths):
    """{bench: rows} from build/report/<cc>-<bench>.tsv files, rows of every compiler."""
    data = {b: [] for b in BENCHES}
    for path in paths:
        m = re.fullmatch(r"(.+)-(" + "|".join(BENCHES) + r")\.tsv", os.path.basename(path))
        if not m:
            raise UsageError(f"{path}: not a <compiler>-<bench>.tsv file (one of "
                             f"{', '.join(BENCHES)})")
        try:
            with open(path, encoding="utf-8") as f:
                rows = benchdata.parse_tsv(f.read())
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") \
                from None
        if any("compiler" not in r for r in rows):
            raise UsageError(f"{path}: not a bench's --tsv output (no compiler column)")
        for r in rows:
            r["compiler"] = str(r["compiler"])
        data[m.group(2)] += rows
    return {b: sorted(rows, key=lambda r: compilers(rows).index(r["compiler"]))
            for b, rows in data.items()}


ORDER = ("gcc", "clang", "tcc")


def compilers(rows):
    found = dict.fromkeys(r["compiler"] for r in rows)
    return sorted(found, key=lambda c: (ORDER.index(c) if c in ORDER else len(ORDER), c))


def timed(rows):
    return [r for r in rows if benchdata.ok(r)]


def table(head, rows):
    """A markdown table; numbers already formatted by the caller."""
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def cyc(row, key="median_24"):
    best = key.replace("median", "best")
    return f"{row[key]:.0f} ({row[best]:.0f})" if best in row else f"{row[key]:.0f}"


def reference(rows):
    """The plain reference's median over the runs of these rows (it is timed beside each)."""
    refs = [r["ref_median_24"] for r in timed(rows)]
    return statistics.median(refs) if refs else None


def scalar_shape(name):
    return variants.keccak_from_name(name)


def scalar_rows(rows):
    """The scalar kernels among bench_keccak's rows (it races the single-state vector ones
    too)."""
    return [r for r in rows if str(r["variant"]).endswith(variants.SCALAR_ISAS)]


def best_by(rows, key_fn, figure="median_24"):
    """The row with the least figure per key_fn(row)."""
    out = {}
    for r in timed(rows):
        k = key_fn(r)
        if k not in out or r[figure] < out[k][figure]:
            out[k] = r
    return out


def keccak_tables(rows):
    if not rows:
        return ""
    target = targets.host()
    ccs = compilers(rows)
    out = ["## Single-state Keccak-p[1600]\n",
           "TSC cycles per permutation, 24 rounds, wall clock: the median of each kernel's "
           "turns in one round-robin race of every scalar and single-state vector kernel the "
           "compiler built and the plain reference (best in parentheses); x ref = reference "
           "median / kernel median in the same race.\n"]
    summary = []
    for cc in ccs:
        mine = [r for r in timed(rows) if r["compiler"] == cc]
        if not mine:
            continue
        best = min(mine, key=lambda r: r["median_24"])
        default = targets.default_keccak(target, cc).name
        base = next((r for r in mine if r["variant"] == default), None)
        summary.append([cc, f"`{best['variant']}`", cyc(best), cyc(best, "median_12"),
                        f"{best['ref_median_24'] / best['median_24']:.2f}x",
                        f"`{default}` {cyc(base)}" if base else f"`{default}` (not timed)",
                        f"{base['median_24'] / best['median_24']:.2f}x" if base else ""])
    out.append(table(["compiler", "fastest variant", "24 rounds", "12 rounds", "x ref",
                      "untuned default", "fastest / default"], summary))
    ref = reference(rows)
    if ref:
        out.append(f"\nPlain reference (tests/ref/keccak_ref.c, gcc -O3): {ref:.0f} cycles per "
                   "permutation (median of its medians).\n")
    out.append("\n### Every variant\n\n")
    names = list(dict.fromkeys(r["variant"] for r in rows))
    by = {(r["compiler"], r["variant"]): r for r in rows}
    body = []
    for name in names:
        cells = []
        for cc in ccs:
            r = by.get((cc, name))
            cells.append(cyc(r) if r and benchdata.ok(r) else (r["status"] if r else ""))
        body.append([f"`{name}`"] + cells)
    out.append(table(["variant"] + [f"{cc}" for cc in ccs], body))
    return "\n".join(out)


def simd_tables(rows):
    multis = [r for r in timed(rows) if re.search(r"-x\d+-", r["variant"])]
    if not multis:
        return ""
    ccs = compilers(multis)
    out = ["## Multi-state Keccak-p[1600] (x-N)\n",
           "TSC cycles per permutation per instance, 24 rounds, median (best); every unroll "
           "factor per shape.\n"]
    shapes = list(dict.fromkeys(shape_of(r["variant"]) for r in multis))
    body = []
    for shape in shapes:
        for u in UNROLLS:
            name = shape_name(shape, u)
            cells = [next((cyc(r) for r in multis if r["compiler"] == cc and r["variant"] == name),
                          "") for cc in ccs]
            if any(cells):
                body.append([shape, u] + cells)
    out.append(table(["shape", "unroll"] + ccs, body))
    return "\n".join(out)


def shape_of(name):
    v = variants.simd_from_name(name)
    return f"x{v.instances}-{v.isa}"


def shape_name(shape, unroll):
    n, isa = shape.split("-", 1)
    return f"keccakp1600-{n}-u{unroll}-{isa}"


def chacha_tables(rows):
    if not timed(rows):
        return ""
    out = ["## ChaCha\n",
           "bulk: ChaCha8, 4096 calls x 128 blocks (32 MiB), cycles per byte; ref: the plain "
           "kernel (tests/ref, gcc -O3) doing the same; OpenSSL: EVP_chacha20 over 32 MiB; "
           "1-block: cycles per one-block call; xor20: chacha20_ietf_xor over 1 MiB. Medians "
           "over the turns of the round-robin race (best in parentheses).\n"]
    body = []
    for r in sorted(timed(rows), key=lambda r: (r["compiler"], r["bulk_median"])):
        body.append([f"`{r['variant']}`", r["compiler"], r["level"],
                     f"{r['bulk_median']:.3f} ({r['bulk_best']:.3f})",
                     f"{r['bulk_ref_median'] / r['bulk_median']:.2f}x",
                     f"{r['bulk_ossl_median'] / r['bulk_median']:.2f}x",
                     f"{r['blk1_median']:.0f}", f"{r['xor20_median']:.3f}",
                     f"{r['xor20_ossl_median'] / r['xor20_median']:.2f}x"])
    out.append(table(["variant", "cc", "level", "bulk c/B", "x ref", "x OpenSSL", "1-block cyc",
                      "xor20 c/B", "xor20 x OpenSSL"], body))
    return "\n".join(out)


def sponge_tables(rows):
    if not rows:
        return ""
    out = ["## Sponge functions\n",
           "Cycles per byte, median over the turns of the round-robin race (best in parentheses); each "
           "compiler's run times OpenSSL's EVP and libgcrypt beside ours.\n"]
    body = []
    for r in rows:
        ours = r["contender"] == "roundsmith"
        if not ours and not first_peer_row(rows, r):
            continue
        who = f"roundsmith ({r['compiler']})" if ours else r["contender"]
        body.append([r["function"], f"{int(r['bytes']) // 1024} KiB", who,
                     f"{r['median_cpb']:.2f} ({r['best_cpb']:.2f})"])
    out.append(table(["function", "input", "implementation", "c/B"], body))
    return "\n".join(out)


def first_peer_row(rows, row):
    """A peer library is timed in every compiler's run: show it from the first run only."""
    return next(r for r in rows if r["function"] == row["function"]
                and r["contender"] == row["contender"]) is row


def profile_tables():
    rows = []
    for cc in ("gcc", "clang", "tcc"):
        path = profiles.host_path(cc)
        if os.path.exists(path):
            import json
            with open(path) as f:
                data = json.load(f)
            for kernel, name in sorted(data["choice"].items()):
                rows.append([cc, kernel, f"`{name}`"])
    if not rows:
        return ""
    return ("## Tuned profiles on this machine\n\n"
            + table(["compiler", "kernel", "chosen variant"], rows))


def markdown(data, plots=()):
    model = profiles.cpu_identity()[0]
    parts = [f"# roundsmith bench report\n\nMachine: {platform.machine()}, {model}; load "
             f"average {os.getloadavg()[0]:.1f} when the report was written. TSC cycles.\n"]
    if plots:
        parts.append("\n".join(f"![{p}]({p})" for p in plots) + "\n")
    for part in (keccak_tables(data["keccak"]), sponge_tables(data["sponge"]),
                 simd_tables(data["simd"]), chacha_tables(data["chacha"]), profile_tables()):
        if part:
            parts.append(part.strip() + "\n")
    return re.sub(r"\n{3,}", "\n\n", "\n".join(parts))


# --- plots (matplotlib) --------------------------------------------------------------------

def plot_all(data):
    """The SVG plots: {file name: SVG text}."""
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "roundsmith"  # stable ids: same data, same file
    import matplotlib.pyplot as plt

    written = {}

    def save(fig, name):
        fig.tight_layout()
        text = io.StringIO()
        fig.savefig(text, format="svg", metadata={"Date": None})
        plt.close(fig)
        written[name] = text.getvalue()

    peer_colours = {"plain reference": "tab:grey", "OpenSSL": "tab:red",
                    "best scalar": "tab:green", "XKCP": "tab:purple"}

    def hline(ax, y, label, style):
        """A peer as a named line (in the legend), coloured by who it is."""
        if y:
            colour = next((c for k, c in peer_colours.items() if label.startswith(k)), "black")
            ax.axhline(y, linestyle=style, color=colour, linewidth=1.2, label=label)

    def log_axis(ax, values):
        """A log y axis with a labelled tick at every 1, 2 and 5 of each decade the data
        spans, and room above the highest value or line so nothing is clipped."""
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
        lines = [l.get_ydata()[0] for l in ax.get_lines() if len(set(l.get_ydata())) == 1]
        top, bottom = max(list(values) + lines), min(list(values) + lines)
        ax.set_yscale("log")
        ax.set_ylim(bottom / 1.5, top * 1.8)
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(axis="y", which="major", linewidth=0.4, alpha=0.5)

    keccak = timed(scalar_rows(data["keccak"]))
    xkcp = [r for r in timed(data["keccak"]) if str(r["variant"]).startswith("xkcp-")]
    if keccak:
        panels = (("best of every shape", lambda v: True),
                  ("no lane complementing", lambda v: not v.lane_complement),
                  ("lane complementing", lambda v: v.lane_complement))
        panels = [(t, keep) for t, keep in panels
                  if any(keep(scalar_shape(r["variant"])) for r in keccak)]
        fig, axes = plt.subplots(1, len(panels), figsize=(4.4 * len(panels), 4), sharey=True,
                                 squeeze=False)
        axes = axes[0]
        for ax, (title, keep) in zip(axes, panels):
            for cc in compilers(keccak):
                best = best_by([r for r in keccak if r["compiler"] == cc
                                and keep(scalar_shape(r["variant"]))],
                               lambda r: scalar_shape(r["variant"]).unroll)
                xs = [u for u in UNROLLS if u in best]
                ax.plot([str(u) for u in xs], [best[u]["median_24"] for u in xs], marker="o",
                        label=cc)
            hline(ax, reference(keccak), "plain reference (gcc -O3)", "--")
            # XKCP's opt64, where the rows hold it (bench_keccak built with RS_WITH_XKCP, as
            # generator bench and bench/peers/bench_xkcp.sh build it): its best configuration.
            for cc in compilers(xkcp):
                best = min((r for r in xkcp if r["compiler"] == cc), key=lambda r: r["median_24"])
                hline(ax, best["median_24"], f"XKCP opt64 {best['variant'][11:]} ({cc})", "-.")
            ax.set_title(title, fontsize=10)
            ax.set_xlabel("unroll factor (rounds per loop pass)")
            ax.set_ylim(0, max([r["median_24"] for r in keccak + xkcp]
                               + [reference(keccak) or 0]) * 1.1)
            ax.grid(axis="y", linewidth=0.4, alpha=0.5)
        axes[0].set_ylabel("TSC cycles per permutation (24 rounds, median)")
        axes[0].legend(fontsize=8, loc="upper left")
        fig.suptitle("Scalar Keccak-p[1600]: best variant per unroll factor")
        save(fig, "keccak_unroll.svg")

    multis = [r for r in timed(data["simd"]) if re.search(r"-x\d+-", r["variant"])]
    if multis:
        shapes = list(dict.fromkeys(shape_of(r["variant"]) for r in multis))
        fig, axes = plt.subplots(1, len(shapes), figsize=(3.2 * len(shapes), 4), sharey=True,
                                 squeeze=False)
        for ax, shape in zip(axes[0], shapes):
            for cc in compilers(multis):
                pts = [(u, r["median_24"]) for u in UNROLLS for r in multis
                       if r["compiler"] == cc and r["variant"] == shape_name(shape, u)]
                ax.plot([str(u) for u, _ in pts], [c for _, c in pts], marker="o", label=cc)
            ax.set_title(shape, fontsize=10)
            ax.set_xlabel("unroll factor")
        best_scalar = min((r["median_24"] for r in keccak), default=None)
        for ax in axes[0]:
            hline(ax, reference(multis), "plain reference", "--")
            hline(ax, best_scalar, "best scalar", ":")
            log_axis(ax, [r["median_24"] for r in multis])
        axes[0][0].set_ylabel("TSC cycles per permutation per instance (median)")
        axes[0][0].legend(fontsize=8, loc="center left")
        fig.suptitle("Multi-state Keccak-p[1600]: cycles per instance against unroll factor")
        save(fig, "keccak_xn.svg")

    chacha = timed(data["chacha"])
    if chacha:
        ccs = compilers(chacha)
        fig, axes = plt.subplots(len(ccs), 1, figsize=(12, 3.6 * len(ccs)), squeeze=False)
        most = max(sum(1 for r in chacha if r["compiler"] == cc) for cc in ccs)
        for ax, cc in zip(axes[:, 0], ccs):
            ax.set_xlim(-0.6, most - 0.4)
            mine = sorted((r for r in chacha if r["compiler"] == cc),
                          key=lambda r: (-variants.chacha_from_name(r["variant"]).width,
                                         r["variant"]))
            labels = [r["variant"].replace("chacha-", "") for r in mine]
            ax.bar(range(len(mine)), [r["bulk_median"] for r in mine], color="tab:blue")
            ax.set_xticks(range(len(mine)))
            ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
            hline(ax, statistics.median(r["bulk_ossl_median"] for r in mine),
                  "OpenSSL EVP_chacha20", "--")
            hline(ax, statistics.median(r["bulk_ref_median"] for r in mine),
                  "plain reference (gcc -O3)", ":")
            log_axis(ax, [r["bulk_median"] for r in mine])
            ax.set_ylabel(f"{cc}: c/B (median)")
            ax.legend(fontsize=8, loc="upper right")
        axes[0][0].set_title("ChaCha8 keystream, 32 MiB: width x schedule x rotation x level")
        save(fig, "chacha.svg")

    sponge = data["sponge"]
    if sponge:
        functions = list(dict.fromkeys(r["function"] for r in sponge))
        who = list(dict.fromkeys(
            f"roundsmith ({r['compiler']})" if r["contender"] == "roundsmith" else r["contender"]
            for r in sponge))
        fig, ax = plt.subplots(figsize=(9, 4))
        width = 0.8 / len(who)
        for k, name in enumerate(who):
            ys = []
            for fn in functions:
                row = next((r for r in sponge if r["function"] == fn and name in (
                    r["contender"], f"roundsmith ({r['compiler']})")), None)
                ys.append(row["median_cpb"] if row else 0)
            ax.bar([i + k * width for i in range(len(functions))], ys, width, label=name)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(functions))])
        ax.set_xticklabels(functions)
        ax.set_ylabel("cycles per byte (median)")
        ax.grid(axis="y", linewidth=0.4, alpha=0.5)
        ax.legend(fontsize=8)
        ax.set_title("Sponge functions: roundsmith, OpenSSL and libgcrypt in the same runs")
        save(fig, "sponge.svg")
    return written


def main(paths, out_dir, command="python3 -m generator report"):
    """report.md and the plots into out_dir, which the generator owns like any output folder
    (generator/emit/outfolder.py: a folder of the user's is refused, never overwritten)."""
    data = load(paths)
    outfolder.precheck(out_dir)
    try:
        try:
            plots = plot_all(data)
            missing = None
        except ImportError as e:
            plots, missing = {}, e
        text = markdown(data, sorted(plots))
    except KeyError as e:
        # Rows of another version's bench, or a file that only looks like one.
        raise UsageError(f"{', '.join(paths)}: the rows lack column {e} (output of this "
                         "version's bench programs with --tsv?)") from None
    outfolder.write_tree(out_dir, dict(plots, **{"report.md": text}), command)
    print(f"report: {os.path.join(out_dir, 'report.md')}"
          + (f" and {len(plots)} plots: {', '.join(plots)}" if plots else ""))
    if missing:
        # Tables are the report; plots are for people, and need a package the build does not.
        # Which interpreter lacks it: Debian's package is for /usr/bin/python3 only.
        print(f"report: tables only, no plots ({toolprobe.problem('matplotlib') or missing}); for "
              "the plots: apt-get install -y python3-matplotlib, then ninja report")
