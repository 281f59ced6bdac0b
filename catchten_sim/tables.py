"""Report tables: the numbers behind every figure, as tidy pandas DataFrames.

pandas only (DESIGN.md §1): these functions read :class:`~catchten_sim.simulate.SimulationResult`
objects through their public summaries (``ten``, ``acc.positions_frame()`` …), combine several
runs (player-count, variant and policy sweeps) and add the 95% intervals and the derived
columns that the figures draw. Plotting code does no statistics; every number a figure
shows, including the numbers quoted in its title, comes from here.

Intervals: proportions carry 95% Wilson intervals (``lo``, ``hi``); means carry a standard
error (``*_se``) and a normal 95% interval (mean ± 1.96 se, ``aggregate.normal_interval``).
"""
from __future__ import annotations

import math
from typing import Any
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from .aggregate import normal_interval, proportion_se, wilson

__all__ = [
    "role", "summary_table", "ten_by_players_table", "points_distribution_table",
    "seat_advantage_table", "convergence_table", "fate_table", "fate_by_trumps_table",
    "holding_table", "variants_table", "policies_table",
    "finding_summary", "finding_players", "finding_points", "finding_advantage",
    "finding_convergence", "finding_fate", "finding_holding", "finding_variants",
    "finding_policies", "pct", "fmt_pts",
]


# ---------------------------------------------------------------------------- helpers
def role(position: int, n_players: int) -> str:
    """``eldest`` for position 1, ``dealer`` for position n, else ``""``."""
    return "eldest" if position == 1 else "dealer" if position == n_players else ""


def pct(p: float, digits: int = 1) -> str:
    """A proportion as a percentage string, e.g. ``23.8%``."""
    return "n/a" if p is None or (isinstance(p, float) and math.isnan(p)) \
        else f"{100 * p:.{digits}f}%"


def fmt_pts(x: float, digits: int = 1, sign: bool = False) -> str:
    """Points with a real minus sign, e.g. ``−2.4`` or ``+2.4``."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    s = f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    return s.replace("-", "\u2212")


def _ci(mean: float, se: float) -> tuple[float, float]:
    if se is None or math.isnan(se):
        return (math.nan, math.nan)
    return normal_interval(mean, se)


def _ten_row(res) -> dict:
    t = res.ten
    lo, hi = t["wilson95"]
    return {"deals": int(res.n_deals), "in_play": int(t["in_play"]), "caught": int(t["caught"]),
            "p_caught": float(t["p_caught"]), "lo": float(lo), "hi": float(hi)}


def _side_row(res, side: int, prefix: str) -> dict:
    sf = res.acc.sides_frame()
    if side not in sf.index:
        return {f"{prefix}_mean": math.nan, f"{prefix}_se": math.nan,
                f"{prefix}_lo": math.nan, f"{prefix}_hi": math.nan}
    m, se = float(sf.loc[side, "total_mean"]), float(sf.loc[side, "total_se"])
    lo, hi = _ci(m, se)
    return {f"{prefix}_mean": m, f"{prefix}_se": se, f"{prefix}_lo": lo, f"{prefix}_hi": hi}


# ---------------------------------------------------------------------------- main run
def summary_table(res) -> pd.DataFrame:
    """Headline numbers of one run, tidy.

    Returns
    -------
    DataFrame
        Columns ``section`` (``ten``, ``position`` or ``side``), ``quantity``,
        ``position`` (0 for ``ten`` rows, the side number for ``side`` rows), ``role``
        (eldest/dealer; for sides: their seats and policies), ``estimate``, ``se``, ``lo``,
        ``hi``, ``n`` (deals the
        estimate rests on) and ``unit``. Ten rows: P(caught | in play), P(saved | in play),
        and where they occur P(Ten dead) and P(no trumps), all with Wilson intervals.
        Position rows (1 = eldest … n = dealer, for the side holding that seat): hand
        points, honours, card points and the seat advantage (points per deal). Side rows
        (side 0 holds seat 0; the deal rotates): the side's mean hand points.
    """
    t = res.ten
    n = int(res.n_deals)
    rows = []

    def prop(quantity: str, k: int, m: int) -> None:
        lo, hi = wilson(k, m)
        rows.append({"section": "ten", "quantity": quantity, "position": 0, "role": "",
                     "estimate": (k / m if m else math.nan),
                     "se": proportion_se(k, m),
                     "lo": lo, "hi": hi, "n": m, "unit": "probability"})

    prop("ten_caught", int(t["caught"]), int(t["in_play"]))
    prop("ten_saved", int(t["saved"]), int(t["in_play"]))
    if t["dead"]:
        prop("ten_dead", int(t["dead"]), n)
    if t["no_trumps"]:
        prop("no_trumps", int(t["no_trumps"]), n)
    pf = res.acc.positions_frame()
    npl = res.rules.players
    for pos, r in pf.iterrows():
        for q in ("total", "honours", "card_points"):
            m, se = float(r[f"{q}_mean"]), float(r[f"{q}_se"])
            lo, hi = _ci(m, se)
            rows.append({"section": "position", "quantity": q, "position": int(pos),
                         "role": role(int(pos), npl), "estimate": m, "se": se, "lo": lo,
                         "hi": hi, "n": n, "unit": "points per deal"})
        rows.append({"section": "position", "quantity": "advantage", "position": int(pos),
                     "role": role(int(pos), npl), "estimate": float(r["advantage_mean"]),
                     "se": float(r["advantage_se"]), "lo": float(r["advantage_lo"]),
                     "hi": float(r["advantage_hi"]), "n": n, "unit": "points per deal"})
    sf = res.acc.sides_frame()
    for side, r in sf.iterrows():
        seats = res.rules.seats_of(int(side))
        pols = "/".join(sorted({res.policies[s].label for s in seats}))
        m, se = float(r["total_mean"]), float(r["total_se"])
        lo, hi = _ci(m, se)
        rows.append({"section": "side", "quantity": "total", "position": int(side),
                     "role": f"seats {'+'.join(str(s) for s in seats)}, {pols}",
                     "estimate": m, "se": se, "lo": lo, "hi": hi, "n": n,
                     "unit": "points per deal"})
    return pd.DataFrame(rows, columns=["section", "quantity", "position", "role", "estimate",
                                       "se", "lo", "hi", "n", "unit"])


def points_distribution_table(res) -> pd.DataFrame:
    """Distribution of a side's hand points in one deal, pooled over the sides.

    Every position reports the points of the side holding that seat, so pooling the
    positions weights every side equally; a side with k players appears k times per deal,
    so ``side_deals`` divides the pooled count by the side size.

    Returns
    -------
    DataFrame
        ``kind`` (``total``, ``honours``, ``card_points``), ``points``, ``side_deals``,
        ``share`` (fraction of side-deals with that many points, sums to 1 per kind) and
        ``kind_mean`` (the mean of that kind, points per side per deal).
    """
    d = res.acc.points_distribution()
    k = max(1, int(res.rules.side_size))
    g = d.groupby(["kind", "points"], sort=True)["deals"].sum().reset_index()
    g["side_deals"] = g["deals"] / k
    g["share"] = g["deals"] / g.groupby("kind")["deals"].transform("sum")
    g["kind_mean"] = (g["points"] * g["share"]).groupby(g["kind"]).transform("sum")
    order = {"total": 0, "honours": 1, "card_points": 2}
    g = g.sort_values(["kind", "points"], key=lambda s: s.map(order) if s.name == "kind" else s)
    return g[["kind", "points", "side_deals", "share", "kind_mean"]].reset_index(drop=True)


def seat_advantage_table(res) -> pd.DataFrame:
    """Seat advantage by position: the side's mean hand points at that position minus the
    mean over positions (points per deal), with its se and 95% interval, and the side's
    mean hand points there."""
    pf = res.acc.positions_frame()
    n = res.rules.players
    out = pd.DataFrame({
        "position": pf.index.astype(int),
        "role": [role(int(p), n) for p in pf.index],
        "advantage_mean": pf["advantage_mean"].to_numpy(),
        "advantage_se": pf["advantage_se"].to_numpy(),
        "advantage_lo": pf["advantage_lo"].to_numpy(),
        "advantage_hi": pf["advantage_hi"].to_numpy(),
        "total_mean": pf["total_mean"].to_numpy(),
        "total_se": pf["total_se"].to_numpy(),
    })
    out["total_lo"], out["total_hi"] = normal_interval(out["total_mean"], out["total_se"])
    return out


def convergence_table(res) -> pd.DataFrame:
    """Running P(Ten caught) against deals at powers of two and at the run's end, with
    Wilson bounds (the accumulator's other checkpoints, at chunk ends, are dropped)."""
    c = res.acc.convergence_frame()
    c = c.drop_duplicates(subset=["deals"], keep="last").sort_values("deals")
    d = c["deals"].to_numpy()
    keep = ((d & (d - 1)) == 0) | (d == d.max())       # powers of two, and the last
    return c[keep & (c["in_play"] > 0).to_numpy()].reset_index(drop=True)


def fate_table(res) -> pd.DataFrame:
    """The Ten's fate by its holder's position (1 = eldest … n = dealer) and the number of
    trumps dealt to the holder (the Ten included): deals, caught, P(caught), Wilson 95%."""
    f = res.acc.fate_by_holder_frame().copy()
    return f.sort_values(["holder_position", "holder_trumps"]).reset_index(drop=True)


def fate_by_trumps_table(res) -> pd.DataFrame:
    """The Ten's fate by the holder's trump count alone (pooled over positions)."""
    f = res.acc.fate_by_holder_frame()
    g = f.groupby("holder_trumps", sort=True)[["deals", "caught"]].sum().reset_index()
    g["p_caught"] = g["caught"] / g["deals"]
    ci = [wilson(int(c), int(d)) for c, d in zip(g["caught"], g["deals"])]
    g["lo"] = [a for a, _ in ci]
    g["hi"] = [b for _, b in ci]
    return g


def holding_table(res) -> pd.DataFrame:
    """The value of a holding: a side's mean hand points by the honour points its players
    were dealt.

    Returns
    -------
    DataFrame
        ``honours_dealt``, ``sides``, ``total_mean``, ``total_se``, ``lo``, ``hi`` and
        ``net`` (= total_mean − honours_dealt: points gained (+) or lost (−) in play).
    """
    h = res.acc.holding_frame().copy()
    h["lo"], h["hi"] = normal_interval(h["total_mean"], h["total_se"])
    h["net"] = h["total_mean"] - h["honours_dealt"]
    return h.reset_index(drop=True)


def holdings_table(rules, policies, *, n_deals: int, seed: int,
                   threads: int | None = None) -> pd.DataFrame:
    """The value of a holding: a side's mean hand points by *which* trump honours its
    players were dealt (J, T, A, K, Q; jaques also the 9), over the first ``n_deals``
    deals of the run with ``seed`` (the same deals as the main run).

    A sum of honour points cannot tell J+Q (13) from T+K (13), which play very
    differently (the Ten can be caught): holdings are kept apart, each compared with its
    own honour points.

    Returns
    -------
    DataFrame
        ``holding`` (e.g. ``"J T A"``, ``"none"``), ``honours_dealt`` (its honour
        points), ``sides`` (side-deals with that holding), ``total_mean``, ``total_se``,
        ``lo``, ``hi`` (95% normal interval) and ``net`` (= total_mean − honours_dealt),
        sorted by honour points then holding. Deals at no trumps are left out.
    """
    from ._kernels import engine as K
    from .cards import format_card
    from .play import deal as deal_of
    from .simulate import simulate
    t = rules.tables()
    n = rules.players
    chunks: list[np.ndarray] = []
    simulate(rules, policies, n_deals=n_deals, seed=seed, threads=threads,
             on_chunk=lambda rows, first: chunks.append(rows.copy()))
    rows = np.concatenate(chunks) if chunks else np.zeros((0, K.N_FIXED), dtype=np.int16)
    n_sides = rules.n_sides
    seats_of = [rules.seats_of(sd) for sd in range(n_sides)]
    totals: dict[tuple[tuple[int, ...], tuple[str, ...]], list[float]] = {}
    honours = np.asarray(t.honours)
    for i in range(len(rows)):
        d = deal_of(rules, seed=seed, index=i)
        if d.trump > 3:
            continue
        hon = [c for c in np.nonzero(honours[d.trump])[0]]
        hon.sort(key=lambda c: (-int(honours[d.trump][c]), -int(c)))
        dealer = int(rows[i, K.C_DEALER])
        for sd in range(n_sides):
            mask = 0
            for st in d.set_hands:
                for seat in seats_of[sd]:
                    mask |= int(st[seat])
            held = tuple(int(c) for c in hon if mask >> int(c) & 1)
            pos = (seats_of[sd][0] - dealer) % n or n        # 1 = eldest … n = dealer
            total = float(rows[i, K.N_FIXED + (pos - 1) * K.N_PER_POS + K.F_TOTAL])
            key: tuple[tuple[int, ...], tuple[str, ...]] = (
                tuple(int(honours[d.trump][c]) for c in held),
                tuple(format_card(c)[0] for c in held))
            totals.setdefault(key, []).append(total)
    out = []
    for (vals, names), xs in totals.items():
        x = np.asarray(xs)
        m = float(x.mean())
        se = float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else math.nan
        lo, hi = normal_interval(m, se)
        out.append({"holding": " ".join(names) or "none", "honours_dealt": int(sum(vals)),
                    "sides": len(x), "total_mean": m, "total_se": se,
                    "lo": lo, "hi": hi, "net": m - sum(vals)})
    cols = ["holding", "honours_dealt", "sides", "total_mean", "total_se", "lo", "hi", "net"]
    df = pd.DataFrame(out, columns=cols)
    return df.sort_values(["honours_dealt", "holding"], kind="stable").reset_index(drop=True)


# ---------------------------------------------------------------------------- sweeps
def ten_by_players_table(runs: Iterable) -> pd.DataFrame:
    """P(Ten caught) by player count and policy, one row per run.

    Parameters
    ----------
    runs : iterable of SimulationResult (one per player count and policy)
    """
    rows = []
    for res in runs:
        rows.append({"players": res.rules.players, "policy": res.policy_label(),
                     "rules": res.rules.label(), "n_sides": res.rules.n_sides,
                     **_ten_row(res)})
    cols = ["players", "policy", "rules", "n_sides", "deals", "in_play", "caught",
            "p_caught", "lo", "hi"]
    return pd.DataFrame(rows, columns=cols).sort_values(["policy", "players"],
                                                       kind="stable").reset_index(drop=True)


def variants_table(runs: Sequence[tuple[str, str, object]]) -> pd.DataFrame:
    """P(Ten caught) and side 0's mean hand points under each preset and switch.

    Parameters
    ----------
    runs : sequence of (variant label, kind, SimulationResult); kind is ``baseline``,
        ``preset`` or ``switch``.

    Returns
    -------
    DataFrame
        ``variant``, ``kind``, ``rules``, ``deals``, ``in_play``, ``caught``, ``p_caught``,
        ``lo``, ``hi`` and ``points_mean``/``_se``/``_lo``/``_hi``: the mean hand points of
        side 0 (the deal rotates, so side 0 stands for any side), ``n_sides``,
        ``side_size`` (players in side 0), ``per_player_mean``/``_lo``/``_hi`` (side 0's
        points divided by its players: comparable between partnerships and players alone,
        e.g. ``everyone_alone``), and the differences from the baseline run
        (``d_p_caught``, ``d_points``, ``d_per_player``).
    """
    rows = []
    for label, kind, res_ in runs:
        res: Any = res_
        row = {"variant": label, "kind": kind, "rules": res.rules.label(), **_ten_row(res)}
        side = _side_row(res, 0, "points")
        row.update(side)
        row["n_sides"] = res.rules.n_sides
        size = len(res.rules.seats_of(0))
        row["side_size"] = size
        for k in ("mean", "lo", "hi"):
            row[f"per_player_{k}"] = row[f"points_{k}"] / size
        rows.append(row)
    df = pd.DataFrame(rows)
    base = df[df["kind"] == "baseline"]
    if len(base):
        df["d_p_caught"] = df["p_caught"] - float(base["p_caught"].iloc[0])
        df["d_points"] = df["points_mean"] - float(base["points_mean"].iloc[0])
        df["d_per_player"] = df["per_player_mean"] - float(base["per_player_mean"].iloc[0])
    return df


def policies_table(runs: Sequence[tuple[str, str, object]]) -> pd.DataFrame:
    """Policies compared on the same rules and seed (common deals).

    Parameters
    ----------
    runs : sequence of (side 0 policy, opponents' policy, SimulationResult[, whose]);
        ``whose`` (:class:`catchten_sim.report.TenBySide`) counts whose Ten was caught.

    Returns
    -------
    DataFrame
        ``policy``, ``opponents``, ``label``, the Ten's fate (``p_caught``, ``lo``, ``hi``:
        any side's Ten caught), with ``whose``: ``p_ours_caught`` (side 0's Ten caught by
        an opponent) and ``p_theirs_caught`` (an opponent's Ten caught), each with
        ``_lo``/``_hi`` (95% Wilson),
        side 0's mean hand points (``side0_*``) and side 1's (``side1_*``: an opposing
        side), with se and 95% intervals; ``margin`` = side0_mean − side1_mean.
    """
    rows = []
    for run in runs:
        mine, theirs, res = run[:3]
        row = {"policy": mine, "opponents": theirs, "label": f"{mine} vs {theirs}",
               **_ten_row(res)}
        if len(run) > 3:
            w = run[3]
            for k, name in ((0, "ours"), (1, "theirs")):
                n_, c_ = int(w.in_play[k]), int(w.caught[k])
                lo, hi = wilson(c_, n_)
                row[f"p_{name}_caught"] = c_ / n_ if n_ else math.nan
                row[f"p_{name}_caught_lo"], row[f"p_{name}_caught_hi"] = lo, hi
        row.update(_side_row(res, 0, "side0"))
        row.update(_side_row(res, 1, "side1"))
        row["margin"] = row["side0_mean"] - row["side1_mean"]
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------- findings
# Each returns a one-line title stating what the figure shows, built from the tables.
def finding_summary(summary: pd.DataFrame, rules_label: str, policy: str) -> str:
    r = summary[(summary["section"] == "ten") & (summary["quantity"] == "ten_caught")].iloc[0]
    dead = (summary["quantity"] == "ten_dead").any() or (summary["quantity"] == "no_trumps").any()
    where = " of the deals where it is in play" if dead else " of deals"
    return (f"{rules_label}, {policy}: the Ten is caught in {pct(r.estimate)}{where} "
            f"(95% CI {pct(r.lo, 2)}\u2013{pct(r.hi, 2)})")


def finding_players(df: pd.DataFrame) -> str:
    pol = "heuristic" if (df["policy"] == "heuristic").any() else df["policy"].iloc[0]
    d = df[df["policy"] == pol].sort_values("p_caught")
    if len(d) == 0:
        return "P(Ten caught) by number of players"
    if len(d) == 1:
        r = d.iloc[0]
        return f"With {r.players} players the Ten is caught in {pct(r.p_caught)} of deals ({pol})"
    lo, hi = d.iloc[0], d.iloc[-1]
    return (f"The Ten is safest with {lo.players} players ({pct(lo.p_caught)} caught) and "
            f"most at risk with {hi.players} ({pct(hi.p_caught)}), {pol} play")


def finding_points(dist: pd.DataFrame) -> str:
    tot = dist[dist["kind"] == "total"]
    mean = float(tot["kind_mean"].iloc[0])
    zero = float(tot.loc[tot["points"] == 0, "share"].sum())
    return (f"A side scores {fmt_pts(mean)} points a deal on average; "
            f"{pct(zero, 0)} of the time it scores nothing")


def finding_advantage(adv: pd.DataFrame) -> str:
    a = adv.copy()
    best = a["advantage_mean"].max()
    worst = a["advantage_mean"].min()
    if abs(best - worst) < 1e-12:
        return "Every position is worth the same"

    def names(v: float) -> str:
        ps = a[np.isclose(a["advantage_mean"], v, rtol=0, atol=1e-9)]
        parts = [f"{p}" + (f" ({r})" if r else "") for p, r in zip(ps["position"], ps["role"])]
        lab = "positions " if len(parts) > 1 else "position "
        return lab + " and ".join(parts)

    sig = a.loc[a["advantage_mean"].idxmax()]
    note = "" if sig["advantage_lo"] > 0 else " (not significant)"
    return (f"Best: {names(best)} at {fmt_pts(best, 2, True)} points a deal; "
            f"worst: {names(worst)} at {fmt_pts(worst, 2, True)}{note}")


def finding_convergence(conv: pd.DataFrame) -> str:
    r = conv.iloc[-1]
    return (f"P(Ten caught) settles at {pct(r.p_caught, 2)} after {int(r.deals):,} deals "
            f"(95% CI {pct(r.lo, 2)}\u2013{pct(r.hi, 2)})")


def finding_fate(by_trumps: pd.DataFrame, min_deals: int = 100) -> str:
    g = by_trumps[by_trumps["deals"] >= min_deals]
    if len(g) == 0:
        return "The Ten's fate by its holder's position and trumps"
    first = g.iloc[0]
    later = g[g["holder_trumps"] >= first.holder_trumps + 3]
    last = later.iloc[0] if len(later) else g.iloc[-1]
    if first.holder_trumps == 1:
        head = (f"A bare Ten (its holder has no other trump) is caught in "
                f"{pct(first.p_caught, 0)} of deals")
    else:
        head = (f"Held with {int(first.holder_trumps)} trumps, the Ten is caught in "
                f"{pct(first.p_caught, 0)} of deals")
    return f"{head}; held with {int(last.holder_trumps)} trumps, in {pct(last.p_caught, 0)}"


def finding_holding(hold: pd.DataFrame, min_sides: int = 100) -> str:
    h = hold[(hold["sides"] >= min_sides) & (hold["honours_dealt"] > 0)]
    if len(h) == 0:
        return "A side's hand points by the honours it was dealt"
    if "holding" not in h.columns:
        w = h.loc[h["net"].idxmin()]
        return (f"Dealt {int(w.honours_dealt)} honour points, a side scores only "
                f"{fmt_pts(w.total_mean)} on average")
    w = h.loc[h["net"].idxmin()]
    b = h.loc[h["net"].idxmax()]
    def name(h: str) -> str:
        return f"the {h} of trumps alone" if " " not in h else f"{h} of trumps"

    return (f"Dealt {name(w.holding)} ({int(w.honours_dealt)} honour points), a "
            f"side scores {fmt_pts(w.total_mean)} on average; dealt {name(b.holding)} "
            f"({int(b.honours_dealt)}), {fmt_pts(b.total_mean)}")


def finding_variants(df: pd.DataFrame) -> str:
    d = df.sort_values("p_caught")
    lo, hi = d.iloc[0], d.iloc[-1]
    return (f"The rules move P(Ten caught) from {pct(lo.p_caught)} ({lo.variant}) "
            f"to {pct(hi.p_caught)} ({hi.variant})")


def finding_policies(df: pd.DataFrame) -> str:
    m = df[(df["policy"] == "heuristic") & (df["opponents"] == "random")]
    if len(m):
        r = m.iloc[0]
        whose = (f"their Ten is caught in {pct(r.p_theirs_caught)}, ours in "
                 f"{pct(r.p_ours_caught)}" if "p_ours_caught" in df.columns else
                 f"a Ten is caught in {pct(r.p_caught)} of deals")
        return (f"Heuristic vs random play: {fmt_pts(r.side0_mean)} points a deal to "
                f"{fmt_pts(r.side1_mean)}; {whose}")
    r = df.loc[df["margin"].idxmax()]
    return (f"{r.policy} vs {r.opponents}: {fmt_pts(r.side0_mean)} points a deal to "
            f"{fmt_pts(r.side1_mean)}")
