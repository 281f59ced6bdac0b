"""Small game-equity arithmetic the commands used to do themselves: the default number of
deals an equity table is estimated from, and each side's P(win) from 0-0.

(Kept apart from :mod:`catchten_sim.games` while the equity table moves to its own module;
these functions belong beside it.)
"""
from __future__ import annotations

from typing import Any

def default_equity_hands(rules: Any) -> int:
    """Deals an equity table is estimated from by default: 1,000,000 with two sides; with
    three sides (a table of 41^3 states) 200,000, or 50,000 with six-card sets."""
    return (1_000_000 if rules.n_sides == 2 else
            50_000 if rules.n_sets > 1 else 200_000)


def start_p_win(eq: Any) -> list[dict[str, Any]]:
    """Each side's P(win) from 0-0, by who deals first: ``[{"dealer_seat": c, "p_win":
    [...]}, ...]`` (by side when the table is kept by side, else by seat)."""
    ns = eq.rules.n_sides
    return [{"dealer_seat": c, "p_win": list(eq.p_win((0,) * ns, c))}
            for c in range(eq.rules.players if not eq.by_side else ns)]
