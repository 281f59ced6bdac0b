"""Long check (issue 28): game rollouts against the exact game-equity table.

For ``--states`` random states (scores below the target, a random dealer) of a 2-side
(``--players 4``) or 3-side (``--players 3``) table, P(each side wins) by game rollouts
(``--games`` games per state, each state its own seed: independent states) is compared
with the exact table built from ``--hands`` deals. The table is exact for the deal
outcomes it was built from, which are a sample: its own sampling error at each state is
estimated by a bootstrap (``--boot`` replicates: the deals of each dealer class resampled
with replacement, the DP solved again; with ``--boot-hands M`` a table of the first M
deals is bootstrapped and its se scaled by sqrt(M / hands), the first-order 1/N law).
``z = (rollouts - table) / sqrt(se_rollouts^2 + se_table^2)``. Passes when every
|z| <= 3 and the 95% intervals (p ± 1.96 se) cover the table's value for at least 94.5%
of the figures. The rollout-only z (the table taken as exact) is printed too.

``--versus SEED ...`` checks the bootstrap se against tables of as many deals from other
seeds: their spread at the states should match it (ratio about 1). A table's errors are
shared by its states (one dealer class's outcomes move them all), so one more table is
about one draw, however many figures; take several at a small ``--hands``. A simulation
of the check under its null (rollouts drawn from the table's own values) gives the
expected count of |z| > 3 among the figures and how often every |z| <= 3.

    python3 scripts/check_equity_rollouts.py --players 4 --states 200 --seed 1
    python3 scripts/check_equity_rollouts.py --players 3 --states 200 --seed 2 \\
        --hands 50000 --boot 12 --versus 1002 --threads 1
    python3 scripts/check_equity_rollouts.py --players 3 --states 200 --seed 101 \\
        --hands 3000 --boot 16 --versus 102 103 104 105 106 107 108 --threads 1
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from catchten_sim import Rules
from catchten_sim.equity import (EquityTable, cached_equity_table, default_equity_hands,
                                 outcome_distribution, sample_outcomes, solve_equity)
from catchten_sim.gamerollouts import game_rollouts


def table_values(V: np.ndarray, eq: EquityTable, states: list) -> np.ndarray:
    """Each side's P(win) from a DP solution ``V`` (the layout of ``eq.V``) at ``states``
    (before a deal: the table's plain lookup)."""
    out = np.zeros((len(states), eq.n_sides))
    for i, (sc, d) in enumerate(states):
        c = eq.class_of(d)
        if eq.n_sides == 2:
            p0 = V[c, sc[0], sc[1]]
            out[i] = (p0, 1.0 - p0)
        else:
            out[i] = V[(c,) + tuple(sc)]
    return out


def deal_classes(eq: EquityTable, n: int) -> np.ndarray:
    """Deals of each dealer class among the first ``n`` (deal i dealt by seat i % players)."""
    dealer = np.arange(n) % eq.rules.players
    cls = dealer % eq.n_sides if eq.by_side else dealer
    return np.bincount(cls, minlength=len(eq.nxt))


def bootstrap_se(eq: EquityTable, states: list, a: argparse.Namespace) -> np.ndarray:
    """The table's sampling se at ``states`` (module docstring); zeros when ``--boot 0``."""
    if a.boot == 0:
        return np.zeros((len(states), eq.n_sides))
    m = a.boot_hands or eq.n_hands
    if m == eq.n_hands:
        steps, tside, prob = eq.steps, eq.tside, eq.prob
    else:
        st, ts = sample_outcomes(eq.rules, eq.policies, n_hands=m, seed=eq.seed,
                                 threads=a.threads)
        dealer = np.arange(m, dtype=np.int64) % eq.rules.players
        cls = dealer % eq.n_sides if eq.by_side else dealer
        steps, tside, prob = outcome_distribution(st, ts, cls, len(eq.nxt))
    n_c = deal_classes(eq, m)
    counts = np.rint(prob * n_c[:, None]).astype(np.int64)
    rng = np.random.default_rng([a.seed, 28])
    vals = []
    t0 = time.perf_counter()
    try:
        for _ in range(a.boot):
            pb = np.stack([rng.multinomial(n_c[c], counts[c] / n_c[c]) / n_c[c]
                           for c in range(len(n_c))])
            V = solve_equity(eq.rules, steps, tside, pb, eq.nxt)[0]
            vals.append(table_values(V, eq, states))
    except KeyboardInterrupt:
        if len(vals) < 2:
            raise
        print(f"interrupted (Ctrl-C): {len(vals)} of {a.boot} bootstrap replicates kept")
    se = np.std(np.array(vals), axis=0, ddof=1) * np.sqrt(m / eq.n_hands)
    scaled = f", scaled by sqrt({m:,}/{eq.n_hands:,})" if m != eq.n_hands else ""
    print(f"table se: bootstrap of {len(vals)} replicates of {m:,} deals{scaled} "
          f"({time.perf_counter() - t0:.0f} s): median {np.median(se):.4f}, "
          f"max {se.max():.4f}")
    return se


def versus(eq: EquityTable, states: list, exact: np.ndarray, se_t: np.ndarray,
           a: argparse.Namespace) -> None:
    """The bootstrap se against independent tables of as many deals (module docstring)."""
    vals = [exact] + [table_values(o.V, o, states) for o in (
        cached_equity_table(eq.rules, eq.policies, n_hands=eq.n_hands, seed=s,
                            threads=a.threads) for s in a.versus)]
    v = np.array(vals)
    ok = se_t > 0
    if len(v) == 2:
        d = v[0] - v[1]
        zd = np.abs(d[ok] / (np.sqrt(2.0) * se_t[ok]))
        print(f"vs a table from seed {a.versus[0]}: |difference| median "
              f"{np.median(np.abs(d)):.4f}, max {np.abs(d).max():.4f}; over sqrt(2) "
              f"se_table: rms {np.sqrt(np.mean(zd ** 2)):.2f}, "
              f"{100 * float((zd <= 1.96).mean()):.1f}% within 1.96, max {zd.max():.2f} "
              f"({int(ok.sum())} figures; one pair of tables is about one draw: a table's "
              "errors are shared by its states)")
        return
    sd = v.std(axis=0, ddof=1)
    k = len(v)
    dev = np.abs((v - v.mean(axis=0))[:, ok] / (np.sqrt((k - 1) / k) * se_t[ok]))
    print(f"vs {k - 1} more tables (seeds {' '.join(map(str, a.versus))}): spread of the "
          f"{k} tables over the bootstrap se, rms ratio "
          f"{np.sqrt(np.mean(sd[ok] ** 2) / np.mean(se_t[ok] ** 2)):.2f}; each table's "
          f"deviation from their mean over its se: rms {np.sqrt(np.mean(dev ** 2)):.2f}, "
          f"{100 * float((dev > 3).mean()):.2f}% over 3")


def null_check(exact: np.ndarray, games: int, seed: int, reps: int = 2000) -> None:
    """The check's statistics when the rollouts are drawn from the table's own values."""
    rng = np.random.default_rng([seed, 29])
    p = np.clip(exact, 0.0, 1.0)
    p = p / p.sum(axis=1, keepdims=True)
    over, worst_ok, cover = [], 0, []
    for _ in range(reps):
        ph = rng.multinomial(games, p) / games
        se = np.sqrt(ph * (1 - ph) / games)
        z = np.where(se > 0, np.abs(ph - p) / np.where(se > 0, se, 1.0),
                     np.where(np.abs(ph - p) < 3.0 / games, 0.0, np.inf))
        over.append(int((z > 3).sum()))
        worst_ok += int(z.max() <= 3)
        cover.append(float((z <= 1.96).mean()))
    print(f"null (rollouts drawn from the table's values, {reps} checks): |z| > 3 on "
          f"{np.mean(over):.2f} of {p.size} figures on average; every |z| <= 3 in "
          f"{100 * worst_ok / reps:.0f}%; coverage {100 * np.mean(cover):.1f}% "
          f"(5th pct {100 * np.percentile(cover, 5):.1f}%)")


def stats(label: str, p: np.ndarray, exact: np.ndarray, se: np.ndarray,
          games: int, states: list) -> tuple[float, float]:
    """Print max |z|, coverage and |z| > 3 count; return (max |z|, coverage)."""
    dev = p - exact
    z = np.where(se > 0, dev / np.where(se > 0, se, 1.0),
                 np.where(np.abs(dev) < 3.0 / games, 0.0, np.inf))
    az = np.abs(z)
    cover = float((az <= 1.96).mean())
    i, s = np.unravel_index(int(np.argmax(az)), az.shape)
    print(f"{label}: {az.size} figures: max |z| {az.max():.2f}, 95% intervals cover "
          f"{100 * cover:.1f}%, |z| > 3: {int((az > 3).sum())}")
    print(f"  worst: scores {states[i][0]}, dealer {states[i][1]}, side {s}: rollouts "
          f"{p[i, s]:.4f}, table {exact[i, s]:.4f}, se {se[i, s]:.4f}, z {z[i, s]:+.2f}")
    return float(az.max()), cover


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="foster")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--states", type=int, default=200)
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--boot", type=int, default=20,
                    help="bootstrap replicates for the table's se (0: table taken as exact)")
    ap.add_argument("--boot-hands", type=int, default=None,
                    help="bootstrap a table of these first deals, se scaled (default: all)")
    ap.add_argument("--versus", type=int, nargs="+", default=None,
                    help="seeds of more tables to check the bootstrap se against")
    a = ap.parse_args()
    if a.boot == 1 or a.boot < 0:
        ap.error("--boot: 0, or at least 2 replicates")
    rules = Rules(a.preset, a.players)
    hands = a.hands or default_equity_hands(rules)
    if a.boot_hands is not None and not 0 < a.boot_hands <= hands:
        ap.error(f"--boot-hands: 1 … {hands} (the table's deals)")
    t0 = time.perf_counter()
    eq = cached_equity_table(rules, "heuristic", n_hands=hands, seed=a.seed,
                             threads=a.threads)
    print(f"{rules.label()}: exact table of {eq.n_hands:,} deals "
          f"({time.perf_counter() - t0:.1f} s); {a.states} states, {a.games:,} games each")
    rng = np.random.default_rng(a.seed)
    ns = rules.n_sides
    states = []
    for _ in range(a.states):
        sc = tuple(int(x) for x in rng.integers(0, rules.target, ns))
        states.append((sc, int(rng.integers(0, rules.players))))
    exact = table_values(eq.V, eq, states)
    se_t = bootstrap_se(eq, states, a)
    if a.versus is not None and a.boot:
        versus(eq, states, exact, se_t, a)
    t1 = time.perf_counter()
    p = np.zeros((a.states, ns))
    se_r = np.zeros((a.states, ns))
    for i, (sc, d) in enumerate(states):
        ro = game_rollouts(rules, "heuristic", [(sc, d)], n_games=a.games,
                           seed=a.seed * 1_000_003 + i, threads=a.threads)
        p[i], se_r[i] = ro.p_win[0], ro.se[0]
    print(f"rollouts {time.perf_counter() - t1:.1f} s")
    stats("rollout se only (table taken as exact)", p, exact, se_r, a.games, states)
    zmax, cover = stats("rollout and table se", p, exact, np.sqrt(se_r ** 2 + se_t ** 2),
                        a.games, states)
    p0 = np.clip(exact, 1e-12, 1 - 1e-12)          # the score test: se at the table
    zt = np.abs(p - exact) / np.sqrt(p0 * (1 - p0) / a.games)
    print(f"(for information: with the se at the table's value, the score test, max |z| "
          f"{zt.max():.2f}, {100 * float((zt <= 1.96).mean()):.1f}% within 1.96)")
    null_check(exact, a.games, a.seed)
    ok = zmax <= 3 and cover >= 0.945
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
