"""``records.py`` against the independent reference (``tests/reference.py``) on random games
under random rules: each round draws a preset, a player count and a random subset of the
switch registry's switches with random values (skipping combinations ``Rules`` refuses),
then plays random game records (legal cards, now and then a revoke, a partial last hand)
and compares the game results and every hand's sides, revoke and sets.
``tests/test_records_vs_reference.py`` covers 16 fixed configurations; this script draws as
many as time allows:

    PYTHONPATH=$PWD python scripts/check_records_random_rules.py --seconds 600 --seed 1
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import reference as ref  # noqa: E402
import test_records_vs_reference as games  # noqa: E402

from catchten_sim import records  # noqa: E402
from catchten_sim.errors import CatchTenError  # noqa: E402
from catchten_sim.rules import PLAYERS_ALLOWED, REGISTRY, Rules  # noqa: E402


def random_rules(rng: random.Random) -> tuple[str, int, dict]:
    """A preset, a player count and some switches (each given with probability 1/2)."""
    preset = rng.choice(["foster", "foster", "jaques", "french52"])
    players = rng.choice(list(PLAYERS_ALLOWED[preset]))
    variants = {}
    for sw in REGISTRY:
        # target: set per game by the game maker; dealer_declares: no field in a record
        if preset not in sw.defaults or sw.name in ("target", "dealer_declares") \
                or rng.random() < 0.5:
            continue
        if isinstance(sw.kind, tuple):
            variants[sw.name] = rng.choice(list(sw.kind))
        else:
            variants[sw.name] = rng.random() < 0.5
    return preset, players, variants


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--games", type=int, default=3, help="games per configuration")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0 = time.time()
    n_cfg = n_games = 0
    bad = []
    while time.time() - t0 < args.seconds:
        preset, players, variants = random_rules(rng)
        try:
            Rules(preset, players, dict(variants, target=21))
        except CatchTenError:
            continue
        n_cfg += 1
        for _ in range(args.games):
            game = games._game(preset, players, variants, rng)
            n_games += 1
            try:
                mine, theirs = records.score_game(game), ref.score_game(game)
                keys = games.RESULT_KEYS
                assert {k: mine.get(k) for k in keys} == {k: theirs.get(k) for k in keys}
                for rec in game["hands"]:
                    games._same_hand(rec, game)
            except AssertionError:
                bad.append(json.dumps(game))
                print(f"differ: {preset} {players} {variants}: {bad[-1]}", flush=True)
    print(f"{n_games - len(bad)} of {n_games} games agree ({n_cfg} rule configurations, "
          f"{time.time() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
