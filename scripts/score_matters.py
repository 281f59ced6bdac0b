#!/usr/bin/env python3
"""Find a position near the end of a game where the card that scores most points is not
the card most likely to win the game (issue 5, "use it").

    python scripts/score_matters.py                  # foster, 4 players, heuristic
    python scripts/score_matters.py --tries 400 --samples 6000 --seed 3

Positions are cut from heuristic-played deals (tricks 3-7 of 9, any player to move), with
game scores drawn near the target. For each, ``advise`` ranks the legal cards twice on the
same sampled deals: by the point difference to the opponents (``diff``) and by P(winning
the game) from the equity table (``p_win``). A position is reported when the two best
cards differ and each is separated from the other on its own objective at 95% (paired
intervals). It prints the position (docs/formats.md JSON) and both rankings.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from _positions import cut_position  # noqa: E402  (test helper: positions from played deals)

from catchten_sim import Rules  # noqa: E402
from catchten_sim.cards import format_card  # noqa: E402
from catchten_sim.advise import advise  # noqa: E402
from catchten_sim.position import Position  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tries", type=int, default=300)
    ap.add_argument("--samples", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = Rules("foster", 4)
    rng = random.Random(args.seed)
    for k in range(args.tries):
        n_played = rng.randrange(2 * 4, 7 * 4)
        pos, _ = cut_position(rules, args.seed, n_played, "heuristic", index=k)
        if len(pos.hand) < 2:
            continue
        score = [rng.randrange(25, 41), rng.randrange(25, 41)]
        d = pos.to_dict()
        d["score"] = score
        pos = Position.from_dict(d, rules)
        common = dict(samples=args.samples, seed=args.seed, stop_early=False, time_limit=None)
        by_points = advise(pos, objective="diff", **common)
        if len(by_points.candidates) < 2:
            continue
        by_game = advise(pos, objective="p_win", **common)
        bp, bg = by_points.best, by_game.best
        if bp == bg:
            continue
        # each best card must beat the other on its own objective, paired, at 95%
        c_points = by_points.compare(bp, bg)
        c_game = by_game.compare(bg, bp)
        if c_points.diff.lo > 0 and c_game.diff.lo > 0:
            print(f"found after {k + 1} positions\n")
            print(json.dumps(d, ensure_ascii=False))
            print(f"\nbest for points: {format_card(bp)}: +{c_points.diff.mean:.2f} points over {format_card(bg)} "
                  f"(paired 95% {c_points.diff.lo:+.2f} to {c_points.diff.hi:+.2f})")
            print(f"best for the game: {format_card(bg)}: +{100 * c_game.diff.mean:.2f} points of P(win) over "
                  f"{format_card(bp)} (paired 95% {100 * c_game.diff.lo:+.2f} to {100 * c_game.diff.hi:+.2f})\n")
            print(by_game.to_frame().to_string())
            return 0
    print(f"no such position in {args.tries} tries", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
