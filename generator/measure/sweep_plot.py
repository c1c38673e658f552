# SPDX-License-Identifier: Apache-2.0 OR MIT
"""A sweep's figure: the figure of each row against the first swept option, one line per
compiler (and per value of the other swept options), with the spread of each point as an
error bar, each compiler's default as a dashed line; the CPU, the compilers and the date in
the title. matplotlib (Debian's python3-matplotlib) is imported only here, only when a
figure is asked for; `available()` says in one line how to get one where it is missing.
"""

import datetime
import io
import os

from ..choice import cli_options
from .. import toolprobe
from .sweep_table import METRICS, TITLES

FORMATS = (".svg", ".png")
MEANINGS = {o.flag: o.meaning for o in cli_options.KECCAK + cli_options.CHACHA}


def available():
    """None when this interpreter can draw, else the one line that says how to get the
    figure."""
    why = toolprobe.problem("matplotlib")
    return None if why is None else f"no figure: {why}"


def cpu_name():
    """The CPU as /proc/cpuinfo names it, with family and model (a VM's "AMD EPYC" alone
    does not say which)."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break
                k, _, v = line.partition(":")
                fields[k.strip()] = v.strip()
    except OSError:
        pass
    name = fields.get("model name", os.uname().machine)
    if "cpu family" in fields:
        name += f" (family {fields['cpu family']} model {fields.get('model', '?')})"
    return name


def _x_values(sweep):
    flag = sweep.swept[0] if sweep.swept else None
    values = list(dict.fromkeys(dict(r.combo.swept)[flag] for r in sweep.rows)) if flag \
        else ["as asked"]
    return flag, values


def draw(results, path, versions, date=None, loaded=""):
    """Write the figure of `results` (generator/sweep_table.Result, one panel each) to
    `path` (.svg or .png)."""
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "roundsmith"   # same data, same file
    matplotlib.rcParams["svg.fonttype"] = "none"   # text as text: small, searchable
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(8.0 * len(results), 4.8),
                             squeeze=False)
    markers = "os^Dvx+"
    for ax, result in zip(axes[0], results):
        sweep = result.sweep
        flag, xs = _x_values(sweep)
        pos = {x: i for i, x in enumerate(xs)}
        others = [f for f in sweep.swept[1:]]
        for ci, cc in enumerate(result.ccs):
            colour = f"C{ci}"
            series = {}
            for srow, cells in zip(sweep.rows, result.cells):
                c = cells[cc]
                if c.median is None:
                    continue
                key = tuple((f, dict(srow.combo.swept)[f]) for f in others)
                x = dict(srow.combo.swept)[flag] if flag else "as asked"
                # Compilers side by side around each value, so equal figures stay visible.
                dodge = (ci - (len(result.ccs) - 1) / 2) * 0.06
                series.setdefault(key, []).append((pos[x] + dodge, c.median, c.spread or 0.0))
            for si, (key, pts) in enumerate(sorted(series.items())):
                pts.sort()
                label = cc + "".join(f", {f.lstrip('-')} {v}" for f, v in key)
                # The bar spans the row's spread (3rd quartile / 1st of its turns, minus 1).
                ax.errorbar([p[0] for p in pts], [p[1] for p in pts],
                            yerr=[[0] * len(pts), [p[1] * p[2] for p in pts]],
                            marker=markers[si % len(markers)], color=colour, capsize=3,
                            linestyle="-" if si == 0 else (0, (4, 1 + si)), label=label)
            d = result.defaults.get(cc)
            if d:
                ax.axhline(d[METRICS[sweep.family][0]], color=colour, linestyle="--", linewidth=0.8, alpha=0.7,
                           label=f"{cc} default")
            xk = result.xkcp.get(cc)
            if xk:
                ax.axhline(xk[METRICS[sweep.family][0]], color=colour, linestyle=":",
                           linewidth=0.8, label=f"{cc} XKCP opt64 best")
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels(xs)
        ax.set_xlabel(f"{flag}: {MEANINGS.get(flag, '')}" if flag else "variant", fontsize=9)
        ax.set_ylabel(METRICS[sweep.family][1], fontsize=9)
        ax.set_title(TITLES[sweep.family], fontsize=10)
        ax.grid(axis="y", linewidth=0.4, alpha=0.5)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    compilers = ", ".join(f"{cc} {versions.get(cc, '')}".strip() for cc in results[0].ccs)
    date = date or datetime.date.today().isoformat()
    fig.suptitle(f"{cpu_name()}\n{compilers}; {date}{loaded}\nmedian of a round-robin race "
                 "in one process per compiler; bars: the spread of the turns", fontsize=8)
    fig.tight_layout()
    if path.endswith(".svg"):
        text = io.StringIO()
        fig.savefig(text, format="svg", metadata={"Date": None})
        data = text.getvalue().encode()
    else:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=120)
        data = buf.getvalue()
    plt.close(fig)
    with open(path, "wb") as f:
        f.write(data)
