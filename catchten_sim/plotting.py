"""Figures of a simulation report: matplotlib only, one function per figure.

Every function has the signature ``(data, ax=None, **style) -> Figure``:

- ``data`` is the table the figure draws, as made by :mod:`catchten_sim.tables` (the same
  table is written to the report's CSV). The functions do no statistics: every estimate,
  interval and share they draw is a column of ``data``.
- ``ax``: an Axes to draw into (its figure is returned). Two- and three-panel figures
  also accept a sequence of Axes, one per panel; given a single Axes they split it.
  Without ``ax`` a new figure is made (a bare :class:`~matplotlib.figure.Figure` with an
  Agg canvas: no pyplot state, no GUI backend).
- ``style``: ``title`` (the finding, e.g. "The Ten is caught in 24% of deals"),
  ``subtitle`` (what is drawn), ``footer`` (rules, policies, deals, seed), ``figsize``,
  and figure-specific options documented on each function.

The look is shared: the Okabe-Ito colour-blind-safe palette, the ``cividis`` colour map,
95% intervals drawn on every estimate, axes labelled with units.
"""
from __future__ import annotations

import functools
import textwrap
from typing import Any
from collections.abc import Sequence

import matplotlib as mpl
import numpy as np
import pandas as pd
from cycler import cycler
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, MaxNLocator
from matplotlib.transforms import Bbox

__all__ = [
    "OKABE_ITO", "PALETTE", "STYLE", "FIGSIZE",
    "plot_summary", "plot_ten_by_players", "plot_points_distribution", "plot_seat_advantage",
    "plot_convergence", "plot_fate_heatmap", "plot_holding_value", "plot_variants",
    "plot_policies", "plot_equity", "plot_matches",
]

#: Okabe & Ito (2008) colour-blind-safe palette
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7",
}
PALETTE = [OKABE_ITO[c] for c in ("blue", "orange", "green", "vermillion", "purple", "sky",
                                   "black", "yellow")]
FIGSIZE = (10.0, 6.25)
CMAP = "cividis"
GREY = "0.35"

STYLE: dict[str, Any] = {
    "font.size": 10, "axes.titlesize": 10, "axes.labelsize": 10, "xtick.labelsize": 9,
    "ytick.labelsize": 9, "legend.fontsize": 9, "axes.spines.top": False,
    "axes.spines.right": False, "axes.grid": True, "grid.color": "0.88",
    "grid.linewidth": 0.7, "axes.axisbelow": True, "axes.prop_cycle": cycler(color=PALETTE),
    "legend.frameon": False, "errorbar.capsize": 3, "lines.linewidth": 1.8,
    "lines.markersize": 6, "image.cmap": CMAP, "savefig.dpi": 150,
    "pdf.compression": 9, "svg.hashsalt": "catchten_sim",
}

_FOOTER_SPACE = 0.055   # fraction of the figure height kept for the footer


# ---------------------------------------------------------------------------- plumbing
def _styled(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with mpl.rc_context(STYLE):
            return fn(*args, **kwargs)
    return wrapper


def _footer_lines(style: dict, width_in: float) -> list[str]:
    """The footer as drawn: wrapped to the figure's width (7.5 pt text)."""
    footer = style.get("footer")
    if not footer:
        return []
    chars = int(width_in * 72 * 0.97 / (0.56 * 7.5))
    return "\n".join(textwrap.fill(line, chars, subsequent_indent="  ")
                     for line in str(footer).splitlines()).splitlines()


def _new_figure(style: dict) -> Figure:
    size = style.get("figsize", FIGSIZE)
    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    # room for every footer line (and the red stamp line of an interrupted run)
    n_lines = len(_footer_lines(style, size[0])) + (1 if style.get("stamp") else 0)
    line = 7.5 * 1.35 / (size[1] * 72)
    bottom = max(_FOOTER_SPACE, n_lines * line + 0.02) if n_lines else 0.0
    engine: Any = fig.get_layout_engine()   # constrained layout (set above)
    engine.set(rect=(0, bottom, 1, 1 - bottom), h_pad=0.06, w_pad=0.06)
    return fig


def _axes(ax: Any, n: int, style: dict, direction: str = "right", share: bool = True,
          size: str = "100%", pad: float = 0.8) -> tuple[Any, list[Axes], bool]:
    """The figure and ``n`` panel axes: new ones, the ones given, or a given Axes split."""
    if ax is None:
        fig = _new_figure(style)
        if n == 1:
            axes = [fig.add_subplot()]
        elif direction == "right":
            axes = list(fig.subplots(1, n, sharey=share, squeeze=True))
        else:
            axes = list(fig.subplots(n, 1, sharex=share, squeeze=True))
        return fig, axes, True
    if isinstance(ax, Axes):
        if n == 1:
            return ax.figure, [ax], False
        from mpl_toolkits.axes_grid1 import make_axes_locatable
        div = make_axes_locatable(ax)
        axes = [ax]
        for _ in range(n - 1):
            kw = ({"sharey": ax} if direction == "right" else {"sharex": ax}) if share else {}
            axes.append(div.append_axes(direction if direction == "right" else "bottom",
                                        size=size, pad=pad, **kw))
        return ax.figure, axes, False
    axes = list(ax)
    if len(axes) != n:
        raise ValueError(f"this figure needs {n} axes, got {len(axes)}")
    return axes[0].figure, axes, False


def _finish(fig: Figure, axes: list[Axes], owned: bool, style: dict, title: str,
            subtitle: str = "", sub_in_axes: bool = True) -> Figure:
    title = style.get("title") or title
    subtitle = style.get("subtitle", subtitle)
    width_in = fig.get_figwidth()
    # shrink a long finding so that it fits on one line (about 0.6 em per character)
    tsize = min(13.0, max(9.0, width_in * 72 * 0.97 / (0.6 * max(len(title), 1))))
    if owned:
        if subtitle and not sub_in_axes:
            # the panels have their own titles: the subtitle goes under the figure title,
            # in the space a second (empty) title line keeps free in the layout
            fig.suptitle(title + "\n", x=0.012, ha="left", fontsize=tsize, fontweight="bold")
            from matplotlib.transforms import offset_copy
            fig.text(0.012, 0.98, subtitle, fontsize=9.5, color=GREY, va="top", ha="left",
                     transform=offset_copy(fig.transFigure, fig=fig, y=-21, units="points"))
        else:
            fig.suptitle(title, x=0.012, ha="left", fontsize=tsize, fontweight="bold")
            if subtitle:
                # wrapped to the figure's width (about 0.55 em a character at 9.5 pt): a
                # long one is never clipped at the right edge
                chars = int(width_in * 72 * 0.85 / (0.55 * 9.5))
                axes[0].set_title(textwrap.fill(subtitle, chars), loc="left", fontsize=9.5,
                                  color=GREY, pad=8)
    else:
        axes[0].set_title(title + (f"\n{subtitle}" if subtitle else ""), loc="left",
                          fontsize=10)
    lines = _footer_lines(style, width_in)
    if lines:
        fig.text(0.012, 0.012, "\n".join(lines), ha="left", va="bottom", fontsize=7.5,
                 color=GREY, linespacing=1.35)
    stamp = style.get("stamp")
    if stamp and owned:
        # e.g. "INTERRUPTED after N deals": on every page, in red, above the footer
        y = 0.012 + len(lines) * 7.5 * 1.35 / (fig.get_figheight() * 72)
        fig.text(0.012, y, stamp, ha="left", va="bottom", fontsize=8, fontweight="bold",
                 color="#b00020")
    return fig


def _pct_axis(axis, decimals: int = 0) -> None:
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:.{decimals}f}%"))


def _position_labels(positions, roles) -> list[str]:
    return [f"{p}\n{r}" if r else f"{p}" for p, r in zip(positions, roles)]


def _pct_range(lo: float, hi: float) -> str:
    """``[61.6\u201362.4]``: an interval in percent, one decimal (none at 0 and 100)."""
    def f(x: float) -> str:
        t = f"{100 * x:.1f}"
        return t[:-2] if t in ("0.0", "100.0") else t
    return f"[{f(lo)}\u2013{f(hi)}]"


def _minus(s: str) -> str:
    return s.replace("-", "\u2212")


def _table_style(t, fontsize: float = 9) -> None:
    t.auto_set_font_size(False)
    t.set_fontsize(fontsize)
    for (r, c), cell in t.get_celld().items():
        cell.set_edgecolor("0.85")
        cell.set_linewidth(0.6)
        if r == 0:
            cell.set_text_props(fontweight="bold")
            cell.set_facecolor("#EEF3F8")
        if c == 0:
            cell.set_text_props(ha="left")
            cell._loc = "left"


# ---------------------------------------------------------------------------- 1. summary
@_styled
def plot_summary(data: pd.DataFrame, ax: Axes | None = None, **style: Any) -> Figure:
    """First page: the headline numbers with their 95% intervals, and the rules.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.summary_table`.
    ax : Axes, optional
    style : ``rules_lines`` (list of str: the rules, one line each), ``title``,
        ``subtitle``, ``footer``, ``figsize``.
    """
    fig, (a,), owned = _axes(ax, 1, style)
    a.set_axis_off()
    a.set_xlim(0, 1)
    a.set_ylim(0, 1)
    names = {"ten_caught": "Ten of trumps caught (when in play)",
             "ten_saved": "Ten of trumps saved (when in play)",
             "ten_dead": "Ten of trumps dead (laid aside)",
             "no_trumps": "Dealer declared no trumps"}
    ten = data[data["section"] == "ten"]
    rows_a = [[names.get(r.quantity, r.quantity), f"{100 * r.estimate:.2f}%",
               f"{100 * r.lo:.2f}% \u2013 {100 * r.hi:.2f}%", f"{int(r.n):,}"]
              for r in ten.itertuples()]
    pos = data[data["section"] == "position"]
    rows_b = []
    for p, g in pos.groupby("position", sort=True):
        q = g.set_index("quantity")
        label = f"{p}" + (f" ({q.loc['total', 'role']})" if q.loc["total", "role"] else "")

        def ci(name: str, sign: bool = False, q: Any = q) -> str:
            r = q.loc[name]
            f = "+.2f" if sign else ".2f"
            return _minus(f"{r.estimate:{f}}  [{r.lo:{f}}, {r.hi:{f}}]")

        rows_b.append([label, ci("total"), _minus(f"{q.loc['honours', 'estimate']:.2f}"),
                       _minus(f"{q.loc['card_points', 'estimate']:.2f}"),
                       ci("advantage", True)])
    sides = data[data["section"] == "side"]
    rows_c = [[f"side {int(r.position)}", r.role,
               _minus(f"{r.estimate:.2f}  [{r.lo:.2f}, {r.hi:.2f}]")]
              for r in sides.itertuples()]
    left, width, top = 0.0, 0.6, 0.97
    head, note, gap = 0.05, 0.045, 0.04
    n_rows = len(rows_a) + 1 + len(rows_b) + 1 + (len(rows_c) + 1 if rows_c else 0)
    fixed = 3 * head + note + 2 * gap + 0.02
    row_h = min(0.052, (top - fixed) / n_rows)
    fs = 9 if row_h >= 0.042 else 8
    y = top
    a.text(left, y, "The Ten of trumps", fontsize=11, fontweight="bold", va="top")
    h = row_h * (len(rows_a) + 1)
    tables = [a.table(cellText=rows_a, colLabels=["", "estimate", "95% interval", "deals"],
                      colWidths=[0.44, 0.16, 0.26, 0.14], cellLoc="right", colLoc="right",
                      bbox=Bbox.from_bounds(left, y - head - h, width, h))]
    y -= head + h + gap
    a.text(left, y, "Points per deal of the side holding each position", fontsize=11,
           fontweight="bold", va="top")
    a.text(left, y - head + 0.005, "mean [95% interval]; advantage = the position's points "
           "minus the mean over positions", fontsize=8, color=GREY, va="top")
    h = row_h * (len(rows_b) + 1)
    tables.append(a.table(cellText=rows_b,
                          colLabels=["position", "hand points", "honours", "card points",
                                     "seat advantage"],
                          colWidths=[0.17, 0.27, 0.13, 0.16, 0.27], cellLoc="right",
                          colLoc="right",
                          bbox=Bbox.from_bounds(left, y - head - note - h, width, h)))
    y -= head + note + h + gap
    if rows_c:
        a.text(left, y, "Points per deal by side (side 0 holds seat 0; the deal rotates)",
               fontsize=11, fontweight="bold", va="top")
        h = row_h * (len(rows_c) + 1)
        tables.append(a.table(cellText=rows_c,
                              colLabels=["side", "seats, policy", "hand points"],
                              colWidths=[0.17, 0.43, 0.40], cellLoc="right", colLoc="right",
                              bbox=Bbox.from_bounds(left, y - head - h, width, h)))
    for t in tables:
        _table_style(t, fs)
    lines = style.get("rules_lines") or []
    a.text(0.64, top, "Rules and run", fontsize=11, fontweight="bold", va="top")
    a.text(0.64, top - 0.06, "\n".join(lines), fontsize=8.5, va="top", ha="left",
           linespacing=1.55, wrap=True)
    return _finish(fig, [a], owned, style, "Catch the Ten: headline numbers")


# ---------------------------------------------------------------------------- 2. players
@_styled
def plot_ten_by_players(data: pd.DataFrame, ax: Axes | None = None, **style: Any) -> Figure:
    """P(Ten caught) for each player count, one line per policy, 95% Wilson intervals.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.ten_by_players_table` (players, policy, n_sides,
        p_caught, lo, hi).
    """
    fig, (a,), owned = _axes(ax, 1, style)
    policies = list(dict.fromkeys(data["policy"]))
    markers = ["o", "s", "D", "^"]
    # each player count is a different game (sides, cards a player, six-card sets): the
    # points are not joined by lines; the policies sit side by side at each count, each
    # labelled on its own side (left / right / above for a third), so labels never collide
    k = len(policies)
    width = 0.36 if k > 1 else 0.0
    offsets = np.linspace(-width / 2, width / 2, k) if k > 1 else np.zeros(1)
    for i, pol in enumerate(policies):
        d = data[data["policy"] == pol].sort_values("players")
        x = d["players"].to_numpy() + offsets[i]
        y = d["p_caught"].to_numpy()
        err = np.vstack([y - d["lo"].to_numpy(), d["hi"].to_numpy() - y])
        colour = PALETTE[i % len(PALETTE)]
        a.errorbar(x, y, yerr=err, marker=markers[i % 4], color=colour, linestyle="none",
                   markersize=7, label=f"{pol} (all seats)" if " vs " not in pol else pol,
                   capsize=4)
        if k == 1:
            off, ha, va = (0, 9), "center", "bottom"
        elif i == 0:
            off, ha, va = (-8, 0), "right", "center"
        elif i == k - 1:
            off, ha, va = (8, 0), "left", "center"
        else:
            off, ha, va = (0, 12), "center", "bottom"
        for xi, yi, hi in zip(x, y, d["hi"].to_numpy()):
            a.annotate(f"{100 * yi:.1f}%", (xi, hi if va == "bottom" else yi), xytext=off,
                       textcoords="offset points", fontsize=8.5, ha=ha, va=va, color=colour,
                       bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none",
                             "alpha": 0.85})
    players = sorted(set(data["players"]))
    sides = data.drop_duplicates("players").set_index("players")["n_sides"]
    a.set_xticks(players)
    a.set_xticklabels([f"{p}\n" + ("each alone" if sides[p] == p else f"{sides[p]} sides")
                       for p in players])
    a.set_xlim(min(players) - 0.6, max(players) + 0.6)
    for p_ in players[:-1]:      # a thin rule between player counts: separate games
        a.axvline(p_ + 0.5, color="0.85", lw=0.8, zorder=0)
    a.grid(axis="x", visible=False)
    a.set_ylim(0, min(1.0, max(0.1, float(data["hi"].max()) * 1.15)))
    _pct_axis(a.yaxis)
    a.set_xlabel("players at the table")
    a.set_ylabel("P(Ten caught), share of deals")
    a.legend(loc="upper left")
    return _finish(fig, [a], owned, style, "P(Ten caught) by number of players",
                   "The Ten is caught when a side other than its holder's takes it; bars: "
                   "95% Wilson intervals; each player count is its own game (not joined)")


# ---------------------------------------------------------------------------- 3. points
@_styled
def plot_points_distribution(data: pd.DataFrame, ax: Axes | Sequence[Axes] | None = None,
                             **style: Any) -> Figure:
    """Distribution of a side's hand points in one deal: total, honours, card points.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.points_distribution_table` (kind, points, share,
        kind_mean).
    ax : Axes, or three Axes (total, honours, card points), optional
    """
    kinds = [k for k in ("total", "honours", "card_points") if (data["kind"] == k).any()]
    fig, axes, owned = _axes(ax, len(kinds), style, direction="bottom", share=True,
                             size="100%", pad=0.35)
    names = {"total": "hand total (honours + card points)", "honours": "honours taken",
             "card_points": "card points (cards taken above the share)"}
    colours = {"total": PALETTE[0], "honours": PALETTE[1], "card_points": PALETTE[2]}
    xmax = float(data.loc[data["share"] >= 1e-4, "points"].max()) + 1
    for a, kind in zip(axes, kinds):
        d = data[data["kind"] == kind]
        a.bar(d["points"], d["share"], width=0.85, color=colours[kind], label=names[kind])
        mean = float(d["kind_mean"].iloc[0])
        a.axvline(mean, color="black", linestyle="--", linewidth=1)
        a.text(mean, 0.97, f"  mean {mean:.1f}", transform=a.get_xaxis_transform(),
               va="top", ha="left", fontsize=8.5)
        a.text(0.995, 0.93, names[kind], transform=a.transAxes, ha="right", va="top",
               fontsize=9.5, color=colours[kind], fontweight="bold")
        _pct_axis(a.yaxis)
        a.yaxis.set_major_locator(MaxNLocator(3))
        a.set_ylabel("share of\nside-deals")
        a.set_xlim(-0.8, xmax)
        a.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=16))
    for a in axes[:-1]:
        a.tick_params(labelbottom=False)
    axes[-1].set_xlabel("points a side scores in one deal")
    return _finish(fig, axes, owned, style, "A side's hand points in one deal",
                   "Share of deals in which a side scores each number of points; dashed: "
                   "the mean")


def interval_colours(lo: np.ndarray, hi: np.ndarray, par: Any = 0.0) -> list[str]:
    """A colour per estimate from its 95% interval, not its point: blue when the interval
    lies above ``par``, vermillion below, grey when it holds ``par`` (or is nan)."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    par = np.broadcast_to(np.asarray(par, dtype=float), lo.shape)
    return [OKABE_ITO["blue"] if a > p else OKABE_ITO["vermillion"] if b < p else GREY
            for a, b, p in zip(lo, hi, par)]


# ---------------------------------------------------------------------------- 4. seats
@_styled
def plot_seat_advantage(data: pd.DataFrame, ax: Axes | None = None, **style: Any) -> Figure:
    """Seat advantage by position relative to the dealer, with 95% intervals.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.seat_advantage_table` (position, role,
        advantage_mean, advantage_lo, advantage_hi, total_mean).
    """
    fig, (a,), owned = _axes(ax, 1, style)
    x = data["position"].to_numpy()
    y = data["advantage_mean"].to_numpy()
    err = np.vstack([y - data["advantage_lo"].to_numpy(), data["advantage_hi"].to_numpy() - y])
    colours = interval_colours(data["advantage_lo"].to_numpy(),
                               data["advantage_hi"].to_numpy())
    a.bar(x, y, color=colours, width=0.6)
    a.errorbar(x, y, yerr=err, fmt="none", ecolor="black", capsize=5, linewidth=1.2)
    a.axhline(0, color="black", linewidth=0.8)
    span = max(float(np.nanmax(np.abs(data[["advantage_lo", "advantage_hi"]].to_numpy()))),
               0.05)
    for xi, yi, tot in zip(x, y, data["total_mean"]):
        a.annotate(_minus(f"{yi:+.2f}") + f"\n({tot:.1f} pts)", (xi, yi),
                   xytext=(0, 14 if yi >= 0 else -14), textcoords="offset points",
                   ha="center", va="bottom" if yi >= 0 else "top", fontsize=8.5)
    a.set_ylim(-span * 1.6, span * 1.6)
    a.set_xticks(x)
    a.set_xticklabels(_position_labels(x, data["role"]))
    a.set_xlabel("position relative to the dealer (1 = eldest hand, leads first)")
    a.set_ylabel("points per deal above the average position")
    a.yaxis.set_major_formatter(FuncFormatter(
        lambda v, _: "0" if abs(v) < 1e-12 else _minus(f"{v:+.1f}")))
    a.grid(axis="x", visible=False)
    return _finish(fig, [a], owned, style, "Seat advantage by position",
                   "The side holding each position: mean hand points minus the mean over "
                   "positions (in brackets: the mean); bars: 95% intervals; blue/red: "
                   "the interval lies above/below 0, grey: it holds 0")


# ---------------------------------------------------------------------------- 5. convergence
@_styled
def plot_convergence(data: pd.DataFrame, ax: Axes | None = None, **style: Any) -> Figure:
    """Running estimate of P(Ten caught) against deals simulated (log x), 95% band.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.convergence_table` (deals, p_caught, lo, hi).
    """
    fig, (a,), owned = _axes(ax, 1, style)
    x = data["deals"].to_numpy()
    a.fill_between(x, data["lo"], data["hi"], color=OKABE_ITO["sky"], alpha=0.45,
                   linewidth=0, label="95% Wilson interval")
    a.plot(x, data["p_caught"], color=OKABE_ITO["blue"], marker="o", markersize=3.5,
           label="estimate after this many deals")
    final = float(data["p_caught"].iloc[-1])
    a.axhline(final, color="black", linestyle="--", linewidth=1,
              label=f"final estimate {100 * final:.2f}%")
    a.set_xscale("log")
    a.set_xlim(x.min() * 0.8, x.max() * 1.25)
    lo = max(0.0, float(data["lo"].min()) - 0.02)
    hi = min(1.0, float(data["hi"].max()) + 0.02)
    a.set_ylim(lo, hi)
    _pct_axis(a.yaxis)
    a.xaxis.set_major_formatter(FuncFormatter(
        lambda v, _: f"{v:,.0f}" if v < 1e6 else f"{v / 1e6:g}M"))
    a.set_xlabel("deals simulated (log scale)")
    a.set_ylabel("P(Ten caught), share of deals")
    a.legend(loc="upper right")
    return _finish(fig, [a], owned, style, "Convergence of P(Ten caught)",
                   "Running estimate at powers of two; the band narrows as 1/\u221adeals")


# ---------------------------------------------------------------------------- 6. fate
@_styled
def plot_fate_heatmap(data: pd.DataFrame, ax: Axes | None = None, **style: Any) -> Figure:
    """The Ten's fate by its holder's position and trump count: P(caught) in each cell,
    with the number of deals.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.fate_table` (holder_position, holder_trumps, deals,
        p_caught, lo, hi).
    style : ``n_players`` (rows to show; default: the positions in ``data``),
        ``min_deals`` (cells with fewer deals are greyed; default 30).
    """
    fig, (a,), owned = _axes(ax, 1, style)
    n = int(style.get("n_players") or data["holder_position"].max())
    min_deals = int(style.get("min_deals", 30))
    trumps = list(range(int(data["holder_trumps"].min()), int(data["holder_trumps"].max()) + 1))
    grid = np.full((n, len(trumps)), np.nan)
    count = np.zeros((n, len(trumps)), dtype=np.int64)
    lo = np.full((n, len(trumps)), np.nan)
    hi = np.full((n, len(trumps)), np.nan)
    for r in data.itertuples():
        i, j = int(r.holder_position) - 1, trumps.index(int(r.holder_trumps))
        count[i, j] = r.deals
        lo[i, j], hi[i, j] = r.lo, r.hi
        if r.deals >= min_deals:
            grid[i, j] = r.p_caught
    cmap = mpl.colormaps[CMAP].with_extremes(bad="0.93")
    im = a.imshow(np.ma.masked_invalid(grid), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    fs = 8.5 if len(trumps) <= 8 else 7.5
    for i in range(n):
        for j in range(len(trumps)):
            if count[i, j] == 0:
                continue
            if np.isnan(grid[i, j]):
                a.text(j, i, f"n={count[i, j]:,}", ha="center", va="center", fontsize=fs - 1,
                       color=GREY)
                continue
            v = grid[i, j]
            colour = "white" if v < 0.55 else "black"
            # the Wilson interval as it is: asymmetric near 0% and 100%
            a.text(j, i, f"{100 * v:.0f}%\n{_pct_range(lo[i, j], hi[i, j])}\n"
                   f"n={count[i, j]:,}",
                   ha="center", va="center", fontsize=fs, color=colour, linespacing=1.15)
    a.set_xticks(range(len(trumps)))
    a.set_xticklabels([str(t) for t in trumps])
    roles = ["eldest" if p == 1 else "dealer" if p == n else "" for p in range(1, n + 1)]
    a.set_yticks(range(n))
    a.set_yticklabels([f"{p} {r}".strip() for p, r in zip(range(1, n + 1), roles)])
    a.set_xlabel("trumps dealt to the Ten's holder (the Ten included)")
    a.set_ylabel("holder's position (1 = eldest)")
    a.grid(False)
    for s in a.spines.values():
        s.set_visible(False)
    cb = fig.colorbar(im, ax=a, fraction=0.04, pad=0.02)
    cb.set_label("P(Ten caught)")
    _pct_axis(cb.ax.yaxis)
    return _finish(fig, [a], owned, style, "The Ten's fate by its holder",
                   f"Each cell: P(Ten caught), its 95% Wilson interval [low\u2013high], and "
                   f"deals; "
                   f"grey: fewer than {min_deals} deals")


# ---------------------------------------------------------------------------- 7. holding
@_styled
def plot_holding_value(data: pd.DataFrame, ax: Axes | None = None, **style: Any) -> Figure:
    """The value of a holding: for each set of trump honours a side was dealt (J, T, A,
    K, Q), its mean hand points (95% interval) beside the honour points it was dealt.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.holdings_table` (holding, honours_dealt, sides,
        total_mean, lo, hi, net).
    style : ``min_sides`` (holdings seen fewer times are not drawn; default 30).
    """
    fig, (a,), owned = _axes(ax, 1, style)
    d = data[data["sides"] >= int(style.get("min_sides", 30))]
    if len(d) == 0:             # a small run: draw every holding seen
        d = data
    d = d.sort_values(["honours_dealt", "holding"], kind="stable").reset_index(drop=True)
    y = np.arange(len(d))[::-1]
    m = d["total_mean"].to_numpy()
    lo, hi = d["lo"].to_numpy(), d["hi"].to_numpy()
    dealt = d["honours_dealt"].to_numpy()
    a.barh(y, dealt, height=0.6, color="0.88", label="honour points dealt (par)")
    # coloured by what the interval says, not by the point estimate: above par only when
    # the whole 95% interval is (the gain's interval excludes 0)
    with np.errstate(invalid="ignore"):
        up = lo > dealt
        down = hi < dealt
    for mask, colour, lab in ((up, OKABE_ITO["blue"], "scores more than it was dealt"),
                              (down, OKABE_ITO["vermillion"], "scores less than it was dealt"),
                              (~(up | down), GREY, "interval includes its par")):
        if mask.any():
            a.errorbar(m[mask], y[mask], xerr=[m[mask] - lo[mask], hi[mask] - m[mask]],
                       fmt="o", color=colour, ecolor=colour, capsize=2, markersize=5,
                       label=f"mean hand points, 95% interval: {lab}")
    for yi, mi, hv, di in zip(y, m, np.where(np.isnan(hi), m, hi), dealt):
        a.annotate(f"{mi:.1f} ({mi - di:+.1f})", (max(hv, di), yi), xytext=(5, 0),
                   textcoords="offset points", va="center", fontsize=7.5, color=GREY)
    a.set_yticks(y)
    a.set_yticklabels([f"{h}  ({v})" for h, v in zip(d["holding"], dealt)], fontsize=8)
    a.set_ylim(-0.7, len(d) - 0.3)
    top = float(np.nanmax(np.concatenate([hi, dealt.astype(float)])))
    a.set_xlim(0, top * 1.12 + 1)
    a.set_xlabel("a side's hand points (mean, points per deal); grey bar: the honour "
                 "points of the holding")
    a.set_ylabel("trump honours dealt to the side's players (their points)")
    a.grid(axis="y", visible=False)
    a.legend(loc="upper right", fontsize=8)
    return _finish(fig, [a], owned, style, "The value of a holding",
                   "One row per holding of trump honours. Grey bar: its honour points; dot: "
                   "the side's mean hand points (gain or loss in brackets)")


# ---------------------------------------------------------------------------- 8/9. comparisons
def _dot_rows(a: Axes, y: np.ndarray, est, lo, hi, colours, pct: bool, labels=True,
              offset: float = 0.0, marker: str = "o", label: str | None = None) -> None:
    est, lo, hi = (np.asarray(v, dtype=float) for v in (est, lo, hi))
    for k in range(len(y)):
        a.errorbar(est[k], y[k] + offset, xerr=[[est[k] - lo[k]], [hi[k] - est[k]]],
                   fmt=marker, color=colours[k], ecolor=colours[k], capsize=3,
                   label=label if k == 0 else None)
        if labels:
            txt = f"{100 * est[k]:.1f}%" if pct else f"{est[k]:.1f}"
            a.annotate(txt, (hi[k], y[k] + offset), xytext=(5, 0), textcoords="offset points",
                       va="center", fontsize=8, color=colours[k])


@_styled
def plot_variants(data: pd.DataFrame, ax: Axes | Sequence[Axes] | None = None,
                  **style: Any) -> Figure:
    """P(Ten caught) and a side's mean hand points under each preset and main switch.

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.variants_table` (variant, kind, p_caught, lo, hi,
        points_mean, points_lo, points_hi).
    ax : Axes, or two Axes (P(Ten caught), points), optional
    """
    fig, axes, owned = _axes(ax, 2, style, direction="right", share=True, pad=0.3)
    a1, a2 = axes
    d = data.iloc[::-1].reset_index(drop=True)          # first row on top
    y = np.arange(len(d))
    kind_colour = {"baseline": OKABE_ITO["black"], "preset": OKABE_ITO["blue"],
                   "switch": OKABE_ITO["orange"]}
    colours = [kind_colour.get(k, PALETTE[0]) for k in d["kind"]]
    _dot_rows(a1, y, d["p_caught"], d["lo"], d["hi"], colours, pct=True)
    # per player (a side's points over its players), so that a partnership and a player
    # alone (everyone_alone, jaques' sides of three) are compared on the same footing
    per = "per_player" if "per_player_mean" in d.columns else "points"
    _dot_rows(a2, y, d[f"{per}_mean"], d[f"{per}_lo"], d[f"{per}_hi"], colours, pct=False)
    base = d[d["kind"] == "baseline"]
    if len(base):
        a1.axvline(float(base["p_caught"].iloc[0]), color=GREY, linestyle=":", linewidth=1)
        a2.axvline(float(base[f"{per}_mean"].iloc[0]), color=GREY, linestyle=":",
                   linewidth=1)
    a1.set_yticks(y)
    a1.set_yticklabels(d["variant"])
    for t, k in zip(a1.get_yticklabels(), d["kind"]):
        t.set_color(kind_colour.get(k, "black"))
        if k == "baseline":
            t.set_fontweight("bold")
    a2.tick_params(labelleft=False)
    a1.set_ylim(-0.7, len(d) - 0.3)
    a1.set_xlim(0, min(1.0, float(d["hi"].max()) * 1.2 + 0.02))
    a2.set_xlim(0, float(d[f"{per}_hi"].max()) * 1.2 + 0.5)
    _pct_axis(a1.xaxis)
    a1.set_xlabel("P(Ten caught), share of deals")
    if per == "per_player":
        a2.set_xlabel("points per player (side's mean \u00f7 its players)")
        a2.set_title("Hand points per player (seat 0's side)", loc="left", fontsize=10)
    else:
        a2.set_xlabel("a side's hand points (mean, points per deal)")
        a2.set_title("Hand points of a side (side 0)", loc="left", fontsize=10)
    a1.set_title("P(Ten caught)", loc="left", fontsize=10)
    for a in axes:
        a.grid(axis="y", visible=False)
    return _finish(fig, axes, owned, style, "Rule variants compared",
                   "Each row one run: black the baseline, blue another preset, orange a "
                   "switch on the baseline rules; bars: 95% intervals; dotted: the baseline",
                   sub_in_axes=False)


@_styled
def plot_policies(data: pd.DataFrame, ax: Axes | Sequence[Axes] | None = None,
                  **style: Any) -> Figure:
    """Policies compared on the same rules and deals: P(Ten caught), and the hand points of
    side 0 (playing ``policy``) and of an opposing side (``opponents``).

    Parameters
    ----------
    data : DataFrame
        :func:`catchten_sim.tables.policies_table`.
    ax : Axes, or two Axes, optional
    """
    fig, axes, owned = _axes(ax, 2, style, direction="right", share=True, pad=0.3)
    a1, a2 = axes
    d = data.iloc[::-1].reset_index(drop=True)
    y = np.arange(len(d))
    if "p_ours_caught" in d.columns:
        # whose Ten: side 0's caught by the opponents, and the opponents' caught
        _dot_rows(a1, y, d["p_ours_caught"], d["p_ours_caught_lo"], d["p_ours_caught_hi"],
                  [OKABE_ITO["blue"]] * len(d), pct=True, offset=0.13, marker="o")
        _dot_rows(a1, y, d["p_theirs_caught"], d["p_theirs_caught_lo"],
                  d["p_theirs_caught_hi"], [OKABE_ITO["vermillion"]] * len(d), pct=True,
                  offset=-0.13, marker="s")
        top = float(max(d["p_ours_caught_hi"].max(), d["p_theirs_caught_hi"].max()))
        ten_title = "Whose Ten is caught"
    else:
        _dot_rows(a1, y, d["p_caught"], d["lo"], d["hi"], [OKABE_ITO["black"]] * len(d),
                  pct=True)
        top = float(d["hi"].max())
        ten_title = "P(a Ten is caught), whoever holds it"
    _dot_rows(a2, y, d["side0_mean"], d["side0_lo"], d["side0_hi"],
              [OKABE_ITO["blue"]] * len(d), pct=False, offset=0.13, marker="o",
              label="side 0 (first policy)")
    _dot_rows(a2, y, d["side1_mean"], d["side1_lo"], d["side1_hi"],
              [OKABE_ITO["vermillion"]] * len(d), pct=False, offset=-0.13, marker="s",
              label="an opposing side (second policy)")
    a1.set_yticks(y)
    a1.set_yticklabels([f"{p}\nvs {o}" for p, o in zip(d["policy"], d["opponents"])])
    a2.tick_params(labelleft=False)
    a1.set_ylim(-0.7, len(d) - 0.3)
    a1.set_xlim(0, min(1.0, top * 1.25 + 0.02))
    lo = float(min(d["side0_lo"].min(), d["side1_lo"].min()))
    hi = float(max(d["side0_hi"].max(), d["side1_hi"].max()))
    a2.set_xlim(max(0.0, lo - 0.25 * (hi - lo) - 1), hi + 0.25 * (hi - lo) + 1)
    _pct_axis(a1.xaxis)
    a1.set_xlabel("P(the side's Ten is caught), of deals it was dealt the Ten"
                  if ten_title == "Whose Ten is caught" else "P(Ten caught), share of deals")
    a2.set_xlabel("hand points (mean, points per deal)")
    a1.set_title(ten_title, loc="left", fontsize=10)
    a2.set_title("Hand points by side", loc="left", fontsize=10)
    a1.set_ylabel("side 0's policy vs the opponents'")
    for a in axes:
        a.grid(axis="y", visible=False)
    a2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=2)
    return _finish(fig, axes, owned, style, "Policies compared",
                   "Same rules, seed and deals in every row; side 0 plays the first policy, "
                   "the other sides the second; bars: 95% intervals", sub_in_axes=False)


# ---------------------------------------------------------------------------- game equity
@_styled
def plot_equity(data: pd.DataFrame, ax: Axes | Sequence[Axes] | None = None,
                **style: Any) -> Figure:
    """The game-equity table as heatmaps: P(side 0 wins the game) by the two sides' scores
    before a deal, one panel per dealer's side, with the 50% contour.

    Parameters
    ----------
    data : DataFrame
        :meth:`catchten_sim.equity.EquityTable.to_frame` of a two-sided game (score_0,
        score_1, dealer_side, p_win_0; with a ``dealer_seat`` column the lowest seat of
        each side is drawn).
    style : ``target`` (default: the highest score + 1).
    """
    df = data
    if "dealer_seat" in df.columns:
        first = df.groupby("dealer_side")["dealer_seat"].transform("min")
        df = df[df["dealer_seat"] == first]
    sides = sorted(int(x) for x in df["dealer_side"].unique())
    fig, axes, owned = _axes(ax, len(sides), style, share=True, pad=0.6)
    T = int(style.get("target") or max(df["score_0"].max(), df["score_1"].max()) + 1)
    im = None
    for a, sd in zip(axes, sides):
        sub = df[df["dealer_side"] == sd]
        grid = np.full((T, T), np.nan)
        grid[sub["score_0"].to_numpy(), sub["score_1"].to_numpy()] = sub["p_win_0"].to_numpy()
        im = a.imshow(grid, origin="lower", cmap=CMAP, vmin=0, vmax=1, aspect="equal",
                      extent=(-0.5, T - 0.5, -0.5, T - 0.5))
        cs = a.contour(np.arange(T), np.arange(T), grid, levels=[0.25, 0.5, 0.75],
                       colors=["white", "black", "white"], linewidths=[0.8, 1.4, 0.8])
        a.clabel(cs, fmt=lambda v: f"{100 * v:.0f}%", fontsize=8)
        a.set_xlabel("side 1's score before the deal")
        a.set_ylabel("side 0's score before the deal")
        a.set_title(f"side {sd} deals", loc="left", fontsize=9.5)
        a.grid(False)
        for sp in a.spines.values():
            sp.set_visible(False)
    if im is not None:
        cb = fig.colorbar(im, ax=axes, fraction=0.04, pad=0.02)
        cb.set_label("P(side 0 wins the game)")
        _pct_axis(cb.ax.yaxis)
    return _finish(fig, axes, owned, style, "Game equity: P(side 0 wins) by the score",
                   f"Exact DP over the simulated deal outcomes; contours at 25%, 50%, 75%; "
                   f"target {T}", sub_in_axes=False)


# ---------------------------------------------------------------------------- matches
@_styled
def plot_matches(data: pd.DataFrame, ax: Axes | None = None, estimate: str = "duplicate",
                 **style: Any) -> Figure:
    """Duplicate matches: the mean point difference per deal (A minus B) with its 95%
    interval, one row per match.

    Parameters
    ----------
    data : DataFrame
        Columns ``label`` (the row's name, e.g. "heuristic vs random, foster 4p"),
        ``mean``, ``lo``, ``hi`` (points per deal), as :func:`catchten_sim.match.match`
        reports them (``MatchResult.mean_difference`` and ``ci95``; ``lo``/``hi`` nan or
        missing for a match with no interval: a point alone, marked "no interval").
    ax : Axes, optional
    estimate : str
        What ``mean`` is, for the axis label: ``"duplicate"`` (the plain duplicate mean)
        or ``"duplicate + control variate"`` (``MatchResult.mean_difference`` with a
        pilot), or any other short phrase.
    """
    fig, axes, owned = _axes(ax, 1, style)
    a = axes[0]
    d = data.iloc[::-1].reset_index(drop=True)
    y = np.arange(len(d))
    lo = pd.to_numeric(d["lo"], errors="coerce").to_numpy(dtype=float)
    hi = pd.to_numeric(d["hi"], errors="coerce").to_numpy(dtype=float)
    est = d["mean"].to_numpy(dtype=float)
    ok = np.isfinite(lo) & np.isfinite(hi)
    if ok.any():
        _dot_rows(a, y[ok], est[ok], lo[ok], hi[ok], [OKABE_ITO["blue"]] * int(ok.sum()),
                  pct=False)
    for k in np.nonzero(~ok)[0]:
        a.plot(est[k], y[k], "o", color=OKABE_ITO["blue"], fillstyle="none")
        a.annotate(f"{est[k]:.1f} (no interval)", (est[k], y[k]), xytext=(6, 0),
                   textcoords="offset points", va="center", fontsize=8,
                   color=OKABE_ITO["blue"])
    a.axvline(0.0, color=GREY, linewidth=1.0)
    a.set_yticks(y)
    a.set_yticklabels(list(d["label"]))
    a.set_ylim(-0.7, len(d) - 0.3)
    a.set_xlabel(f"A minus B, points per deal (estimate: {estimate}; 95% interval)")
    a.grid(axis="y", visible=False)
    return _finish(fig, axes, owned, style, "Strategy matches",
                   "Every deal played in every seating on the same cards; bars: 95% intervals")
