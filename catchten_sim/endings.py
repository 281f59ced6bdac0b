"""Endings of played deals, and the game-tree properties that predict PIMC's error measured
on them (issue 11, item 4; the study and its command are in docs/findings.md).

Long, Sturtevant, Buro and Furtak (AAAI 2010, "Understanding the Success of Perfect
Information Monte Carlo Sampling in Game Tree Search") describe a game tree by three
properties and show on synthetic trees how PIMC's loss against an equilibrium player
depends on them. :func:`measure` measures them on endings reached by heuristic play of
random deals (deal ``i`` of ``seed``, played by ``heuristic`` up to ``tricks`` tricks before
the end of the hand, or with sets before the end of set 1 or 2, alternately), from there
along uniformly random legal play:

* **leaf correlation** ``lc``: the share of *pre-terminal* nodes (a player with at least
  two legal cards, after any of which the rest of the scoring unit is forced: every later
  player holds a single legal card) whose children all have the same value. The children's
  values are double-dummy values of the real deal (the solver,
  :func:`catchten_sim.solve.solve_deals`, whole deal, every later set); "same" read two
  ways: the same points, and the same sign of the deal's score difference (the hand won,
  drawn or lost, the paper's win/loss payoffs).
* **bias** ``b``: the share of those leaves (children) in which the side on move at the
  ending's start is ahead on the whole deal (draws count half): the paper's probability
  that a leaf favours the first player.
* **disambiguation factor** ``df``: how fast the hidden cards become known: at the
  ending's start, the player on move has ``N0`` consistent deals (its information set,
  counted exactly by :class:`catchten_sim.determinize.Sampler`); one trick later, at its
  next decision, ``N1``. ``df = 1 - log N1 / log N0``: the share of its uncertainty (the
  log count of worlds) one trick removes; also the share of cards that showed a void
  (information beyond the card itself).
"""
from __future__ import annotations

import math
import random

import numpy as np

from .determinize import Sampler
from .fusion import child, is_preterminal, legal, node_of, solve_children
from .position import info_at
from .play import Deal, deal, play
from .rules import Rules
from .state import rule_tables


def ending(rules: Rules, seed: int, index: int, tricks: int,
           into: int = 0, policy: str = "heuristic") -> tuple[Deal, list[int]]:
    """Deal ``index`` and the heuristic play up to ``tricks`` tricks before the end of the
    hand (with sets: before the end of set 1 or 2, alternately), and ``into`` cards of
    the next trick."""
    d = deal(rules, seed=seed, index=index)
    full = play(d, policy).play
    n = rules.players
    if rules.n_sets > 1:
        st = 1 + index % 2
        end = st * rules.set_size * n
    else:
        end = rules.n_dealt
    return d, list(full[:end - tricks * n + into])


def measure(rules: Rules, seed: int, endings: int, tricks: int) -> dict:
    """The three properties on ``endings`` endings (see the module docstring)."""
    rng = random.Random(seed)
    same_pts = same_sign = nodes = 0
    spread = 0.0
    wins = leaves = 0.0
    df_vals: list[float] = []
    voids = others = 0
    for i in range(endings):
        d, prefix = ending(rules, seed, i, tricks)
        node = node_of(d, prefix)
        t = rule_tables(rules, d.trump)
        root_seat = node.to_move
        root_side = rules.side_of(root_seat)
        info0 = info_at(d, root_seat, prefix)
        n0 = Sampler(info0).n_consistent
        path: list[int] = []
        found = None
        n1 = None
        while not node.over:
            if found is None and is_preterminal(node, t):
                found = (node, list(path))
            if path and node.to_move == root_seat and n1 is None:
                n1 = Sampler(info_at(d, root_seat, prefix + path)).n_consistent
            cards = legal(node)
            c = rng.choice(cards)
            if node.trick:                 # a follower: did it show a void?
                others += 1
                voids += int(c // 13 != node.trick[0] // 13)
            node = child(node, c, t)[0]
            path.append(c)
        if n0 > 1 and n1 is not None:
            df_vals.append(1 - math.log(max(n1, 1.0)) / math.log(n0))
        if found is None:
            continue
        pnode, ppath = found
        vals = solve_children(rules, d, prefix + ppath)
        v = np.array(list(vals.values()))
        nodes += 1
        same_pts += int((v == v[0]).all())
        same_sign += int(len(set(np.sign(v))) == 1)
        spread += float(v.max() - v.min())
        sgn = 1 if rules.side_of(pnode.to_move) == root_side else -1
        for x in v * sgn:
            wins += 1.0 if x > 0 else 0.5 if x == 0 else 0.0
            leaves += 1
    return {"endings": endings, "preterminal_nodes": nodes,
            "lc_points": same_pts / max(nodes, 1), "lc_sign": same_sign / max(nodes, 1),
            "mean_spread": spread / max(nodes, 1), "bias": wins / max(leaves, 1),
            "df": float(np.mean(df_vals)) if df_vals else float("nan"),
            "df_n": len(df_vals), "void_share": voids / max(others, 1)}
