#!/usr/bin/env python3
"""Find real positions where ``advise --evaluator dd`` (perfect play after the card, all
hands seen) and ``advise --evaluator rollout`` (the heuristic plays the deal out) pick
different cards, or answer "lead a trump?" differently.

Positions are cut from simulated 4-player foster deals (the heuristic playing, seat to
move's view only) after a random number of cards. Both evaluators run on the same deals
(the dd run carries the heuristic rollouts' answer: ``Advice.other``); a position is
reported when the two models' best cards differ firmly (``Advice.model_note``).

    python scripts/dd_vs_rollout.py [--positions 40] [--samples 200] [--seed 1]
        [--json found.jsonl]

Each hit prints the position (JSON, for ``catchten advise POSITION.json``) and both
answers.
"""
from __future__ import annotations

import argparse
import json
import random

from catchten_sim import Rules
from catchten_sim.advise import advise
from catchten_sim.cards import cards_of_mask, format_card
from catchten_sim.play import deal, play
from catchten_sim.position import Position


def cut(rules: Rules, seed: int, index: int, n_played: int) -> Position:
    d = deal(rules, seed=seed, index=index)
    seq = play(d, "heuristic").play[:n_played]
    st = d.play_state()
    for c in seq:
        st.play(c)
    seat = st.to_move
    s = st.set_index
    hand = [c for c in cards_of_mask(d.set_hands[s][seat]) if c not in seq]
    return Position.from_dict({
        "dealer": d.dealer, "seat": seat, "hand": [format_card(c) for c in hand],
        "turnup": None if d.turnup is None else format_card(d.turnup),
        "play": [format_card(c) for c in seq], "dead": [format_card(c) for c in d.dead]},
        rules)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", type=str, default=None, help="append hits to this JSONL file")
    a = ap.parse_args()
    rules = Rules("foster", 4)
    rng = random.Random(a.seed)
    hits = 0
    for k in range(a.positions):
        n_played = 4 * rng.randrange(2, 8)          # a lead after 2..7 tricks
        pos = cut(rules, a.seed, k, n_played)
        adv = advise(pos, evaluator="dd", samples=a.samples, threads=a.threads, seed=a.seed,
                     time_limit=None)
        if not adv.model_note:
            continue
        hits += 1
        print(f"\n# position {k} ({n_played} cards played): {adv.model_note}")
        print(json.dumps(pos.to_dict()))
        dd = ", ".join(f"{x.name} {x.estimates['diff'].mean:+.2f}" for x in adv.candidates)
        ro = ", ".join(f"{c['card']} {c['diff']['mean']:+.2f}"
                       for c in adv.other["candidates"])
        print(f"dd ({'exact' if adv.exact else f'{adv.n_samples} deals'}): {dd}")
        print(f"heuristic rollouts (same deals): {ro}")
        if a.json:
            with open(a.json, "a") as f:
                f.write(json.dumps({"position": pos.to_dict(), "advice": adv.to_dict()})
                        + "\n")
    print(f"\n{hits} of {a.positions} positions: the two models disagree")


if __name__ == "__main__":
    main()
