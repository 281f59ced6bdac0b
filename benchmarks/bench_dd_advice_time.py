"""``advise --evaluator dd --time T`` on random french52 positions (issue 26 items 3, 5;
issue 29 item 2): the command's wall time (a new process each, start-up included) against
its promise (T plus at most max(10%, 1 s)), the deals solved and those known within
bounds only (a solve stopped by the clock or its node budget).

    PYTHONPATH=$PWD python benchmarks/bench_dd_advice_time.py --positions 10 --time 10 \
        --threads 1

Positions: uniform deals (numpy, seeded), the dealer rotating, then 0 to 7 random legal
cards (half of them opening leads); the player to move is advised. One warm-up run first
(the compile is not what is measured).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from catchten_sim.cards import format_card  # noqa: E402
from catchten_sim.rules import Rules  # noqa: E402
from catchten_sim.state import PlayState  # noqa: E402


def random_position(rng: np.random.Generator, i: int, played: int) -> dict:
    rules = Rules("french52", 4)
    dealer = i % 4
    cards = rng.permutation(rules.deck)
    hands = [[int(c) for c in cards[13 * s:13 * s + 13]] for s in range(4)]
    # the turn-up is the dealer's last card (RULES.md §1)
    turnup = hands[dealer][-1]
    ps = PlayState(rules, dealer, [hands], turnup=turnup)
    play = []
    for _ in range(played):
        legal = ps.legal_cards()
        c = legal[int(rng.integers(len(legal)))]
        ps.play(c)
        play.append(c)
    seat = ps.to_move
    held = [c for c in hands[seat] if c not in play]
    return {"rules": "french52", "players": 4, "dealer": dealer, "seat": seat,
            "hand": [format_card(c) for c in held], "turnup": format_card(turnup),
            "play": [format_card(c) for c in play],
            "_record": {"rules": "french52", "players": 4, "dealer": dealer,
                        "hands": [[format_card(c) for c in h] for h in hands],
                        "turnup": format_card(turnup),
                        "play": [format_card(c) for c in play]}}


def solve_run(pos: dict, t: float) -> tuple[float, dict]:
    """``catchten solve --time t --json`` on the true deal of the position (a hand record
    with the play so far): wall seconds and the JSON."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(pos["_record"], f)
    t0 = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "catchten_sim.cli", "solve", f.name,
                          "--time", str(t), "--json"], capture_output=True, text=True,
                         cwd=ROOT)
    took = time.monotonic() - t0
    Path(f.name).unlink()
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return took, json.loads(out.stdout.splitlines()[0])


def run(pos: dict, t: float, threads: int) -> tuple[float, dict]:
    """Wall seconds and JSON of ``catchten advise --evaluator dd --time t`` on ``pos``
    (``stop`` "too short" when no deal was solved within the limit)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({k: v for k, v in pos.items() if k != "_record"}, f)
    t0 = time.monotonic()
    out = subprocess.run([sys.executable, "-m", "catchten_sim.cli", "advise", f.name,
                          "--evaluator", "dd", "--time", str(t), "--threads", str(threads),
                          "--json", "--no-progress"], capture_output=True, text=True, cwd=ROOT)
    took = time.monotonic() - t0
    Path(f.name).unlink()
    if out.returncode == 2 and '"too short"' in out.stdout:
        # no deal solved within the limit: an answer of its own (time: too short)
        return took, {"samples": 0, "bounded_deals": 0, "stop": "too short", "best": "-"}
    if out.returncode != 0:
        raise SystemExit(f"advise failed ({out.returncode}): {out.stdout}{out.stderr}")
    return took, json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=10,
                    help="random french52 positions, half of them opening leads (default 10)")
    ap.add_argument("--time", type=float, default=10.0,
                    help="advise's (and with --solve, solve's) --time, seconds (default 10)")
    ap.add_argument("--threads", type=int, default=1,
                    help="advise's --threads (default 1)")
    ap.add_argument("--seed", type=int, default=26, help="the positions' seed (default 26)")
    ap.add_argument("--solve", action="store_true",
                    help="also `catchten solve --time T` each position's true deal")
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    plays = [0 if i % 2 == 0 else int(rng.integers(1, 8)) for i in range(a.positions)]
    positions = [random_position(rng, i, k) for i, k in enumerate(plays)]
    run(positions[0], 0.5, a.threads)                          # warm-up (compile)
    if a.solve:
        solve_run(positions[0], 0.5)
    promise = a.time + max(0.1 * a.time, 1.0)
    print(f"{'#':>2} {'cards in':>8} {'wall s':>7} {'deals':>6} {'bounded':>7} "
          f"{'stop':>9}  best" + ("  solve s  exact" if a.solve else "  hand"))
    worst = (0.0, -1)
    worst_solve = (0.0, -1)
    for i, pos in enumerate(positions):
        took, d = run(pos, a.time, a.threads)
        worst = max(worst, (took, i))
        tail = f"  {' '.join(pos['hand'])}"
        if a.solve:
            st, sd = solve_run(pos, a.time)
            worst_solve = max(worst_solve, (st, i))
            tail = f"  {st:>7.2f}  {'yes' if sd.get('exact', True) else 'BOUNDS'}"
        print(f"{i:>2} {len(pos['play']):>8} {took:>7.2f} {d['samples']:>6} "
              f"{d['bounded_deals']:>7} {d['stop']:>9}  {d['best']:<4}{tail}", flush=True)
    for what, (took, i) in (("advise", worst), ("solve", worst_solve)):
        if i >= 0:
            pos = {k: v for k, v in positions[i].items() if k != "_record"}
            print(f"slowest {what}: #{i} {took:.2f} s (promise {promise:.1f} s): "
                  f"{json.dumps(pos)}")


if __name__ == "__main__":
    main()
