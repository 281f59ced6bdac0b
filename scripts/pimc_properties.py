#!/usr/bin/env python3
"""The game-tree properties that predict PIMC's error, measured on random endings of Catch
the Ten (issue 11, item 4), and a search for a strategy-fusion mistake of PIMC.

    python scripts/pimc_properties.py --players 4 --endings 300        # 4 players, foster
    python scripts/pimc_properties.py --players 2 --endings 300        # the 2-player sets game
    python scripts/pimc_properties.py --players 4 --fusion 400         # look for a mistake

Long, Sturtevant, Buro and Furtak (AAAI 2010, "Understanding the Success of Perfect
Information Monte Carlo Sampling in Game Tree Search") describe a game tree by three
properties and show on synthetic trees how PIMC's loss against an equilibrium player
depends on them. Measured here, on endings reached by heuristic play of random deals
(deal ``i`` of ``--seed``, played by ``heuristic`` up to ``--tricks`` tricks before the end
of the hand, or with sets before the end of set 1 or 2, alternately), from there along
uniformly random legal play:

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

**Strategy fusion** (``--fusion N``): four players, three tricks left, the player on lead
choosing. PIMC values each card by the mean double-dummy value over the consistent deals:
it assumes it will know, at its next turn, which deal it is in. The exact value of a card
for a player who must play the same card in every deal it cannot tell apart (one card per
information set: what it has seen so far) is computed here by brute force over its
strategies for trick 2 (all others, partner included, see every card and play best
double-dummy: the "best defence" model, which isolates strategy fusion from the other
error of PIMC, non-locality). A position where PIMC's card is not the best under that
model is a strategy-fusion mistake; the script prints the first ones it finds, with the
cards. A script, not a test: its runs take about a minute.
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from catchten_sim import Rules
from catchten_sim.cards import format_card
from catchten_sim.determinize import Sampler
from catchten_sim.pimc import _info_of
from catchten_sim.play import Deal, deal, play
from catchten_sim.solve import solve_deals
from catchten_sim.state import RuleTables, rule_tables


# ------------------------------------------------------------------ a small ending engine
@dataclass(frozen=True)
class Node:
    """A position of an ending, the current set only: each seat's cards (frozensets),
    the leader of the current trick and its cards so far."""

    hands: tuple[frozenset, ...]
    leader: int
    trick: tuple[int, ...]

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def over(self) -> bool:
        return not self.trick and not any(self.hands)


def legal(node: Node) -> list[int]:
    """Follow suit if able, else any card (foster with no switches, RULES.md §1)."""
    hand = node.hands[node.to_move]
    if node.trick:
        led = node.trick[0] // 13
        follow = sorted(c for c in hand if c // 13 == led)
        if follow:
            return follow
    return sorted(hand)


def child(node: Node, card: int, t: RuleTables) -> tuple[Node, int, tuple[int, ...]]:
    """The node after ``card``; the trick's winner (-1 while it runs) and its cards."""
    seat = node.to_move
    hands = list(node.hands)
    hands[seat] = hands[seat] - {card}
    trick = node.trick + (card,)
    n = len(hands)
    if len(trick) < n:
        return Node(tuple(hands), node.leader, trick), -1, ()
    win = (node.leader + t.winner_index(trick)) % n
    return Node(tuple(hands), win, ()), win, trick


def forced_to_end(node: Node, t: RuleTables) -> bool:
    """True when every card from ``node`` to the end of the set is forced."""
    while not node.over:
        cards = legal(node)
        if len(cards) > 1:
            return False
        node = child(node, cards[0], t)[0]
    return True


def is_preterminal(node: Node, t: RuleTables) -> bool:
    cards = legal(node)
    return len(cards) > 1 and all(forced_to_end(child(node, c, t)[0], t) for c in cards)


def trick_value(rules: Rules, t: RuleTables, win: int, cards: Sequence[int], side: int) -> int:
    """What a completed trick adds to ``side``'s score difference (four players, two
    sides, foster: card points are linear, one per card taken above the share of 18)."""
    v = sum(t.honours[c] for c in cards) + (len(cards) if rules.side_of(win) == side else 0)
    return v if rules.side_of(win) == side else -v


def dd_value(rules: Rules, t: RuleTables, node: Node, side: int, memo: dict) -> int:
    """Double-dummy value of the rest of the hand for ``side`` (points, up to a constant:
    the points already banked), every seat seeing every card."""
    if node.over:
        return 0
    hit = memo.get(node)
    if hit is not None:
        return hit
    best = None
    mine = rules.side_of(node.to_move) == side
    for c in legal(node):
        nxt, win, cards = child(node, c, t)
        v = dd_value(rules, t, nxt, side, memo)
        if win >= 0:
            v += trick_value(rules, t, win, cards, side)
        if best is None or (v > best if mine else v < best):
            best = v
    memo[node] = best
    return best


# ------------------------------------------------------------------ endings
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


def node_of(d: Deal, prefix: Sequence[int]) -> Node:
    """The ending node (current set only) after ``prefix``."""
    st = d.play_state()
    for c in prefix:
        st.play(c)
    return Node(tuple(frozenset(h) for h in st.hands), st.leader,
                tuple(c for _, c in st.trick))


def solve_children(rules: Rules, d: Deal, play_: Sequence[int]) -> dict[int, int]:
    """Double-dummy value of each legal card after ``play_`` for the mover's side."""
    out = solve_deals(rules, d.dealer, -1 if d.turnup is None else d.turnup,
                      d.masks()[None], list(play_))[0]
    return {c: int(out[c]) for c in range(52) if out[c] < 30000}


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
        info0 = _info_of(d, root_seat, prefix)
        n0 = Sampler(info0).n_consistent
        path: list[int] = []
        found = None
        n1 = None
        while not node.over:
            if found is None and is_preterminal(node, t):
                found = (node, list(path))
            if path and node.to_move == root_seat and n1 is None:
                n1 = Sampler(_info_of(d, root_seat, prefix + path)).n_consistent
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


# ------------------------------------------------------------------ strategy fusion
def worlds_of(d: Deal, prefix: Sequence[int], seat: int, limit: int) -> list[Node] | None:
    """Every deal consistent with what ``seat`` knows after ``prefix`` (current set), as
    ending nodes; None when there are more than ``limit``."""
    info = _info_of(d, seat, prefix)
    s = Sampler(info)
    if not s.can_enumerate(limit):
        return None
    full = s.full_hands(s.enumerate(s.n_deals))
    base = node_of(d, prefix)
    out = []
    for w in range(full.shape[0]):
        hands = tuple(frozenset(c for c in range(52) if full[w, info.set_index, k] >> c & 1)
                      for k in range(d.rules.players))
        out.append(Node(hands, base.leader, base.trick))
    return out


class _Tree:
    """One world's tree below a root card: the others' choices are min/max nodes (they
    see every card), the root player's trick-2 choices are looked up in a strategy."""

    def __init__(self, rules: Rules, t: RuleTables, seat: int, side: int) -> None:
        self.rules, self.t, self.seat, self.side = rules, t, seat, side
        self.keys: dict[tuple, int] = {}       # information set -> strategy slot
        self.choices: dict[int, list[int]] = {}
        self.worlds: dict[int, set[int]] = {}  # slot -> the worlds that reach it
        self.world = 0

    def build(self, node: Node, hist: tuple[int, ...]):
        """A nested description: ('v', value) | ('min'/'max', [kids]) | ('me', slot,
        [kids]) with the card values of completed tricks folded in."""
        if node.over:
            return ("v", 0)
        cards = legal(node)
        if len(cards) == 1:
            return self._edge(node, cards[0], hist)
        if node.to_move == self.seat:
            slot = self.keys.setdefault(hist, len(self.keys))
            self.choices[slot] = cards
            self.worlds.setdefault(slot, set()).add(self.world)
            return ("me", slot, [self._edge(node, c, hist) for c in cards])
        mine = self.rules.side_of(node.to_move) == self.side
        return ("max" if mine else "min", [self._edge(node, c, hist) for c in cards])

    def _edge(self, node: Node, c: int, hist: tuple[int, ...]):
        nxt, win, cards = child(node, c, self.t)
        sub = self.build(nxt, hist + (c,))
        bonus = trick_value(self.rules, self.t, win, cards, self.side) if win >= 0 else 0
        return ("+", bonus, sub) if bonus else sub


def evaluate(tree, strat: np.ndarray, shared: dict[int, int], fixed: dict | None = None):
    """The tree's value for each strategy (rows of ``strat``: a choice index per shared
    slot, ``shared``: slot -> column; ``fixed``: slot -> the choice made for it). Any
    other choice is the player's free choice there (a max node: reached in one deal only,
    or with no choice left to fix)."""
    kind = tree[0]
    if kind == "v":
        return tree[1]
    if kind == "+":
        return tree[1] + evaluate(tree[2], strat, shared, fixed)
    if kind == "me" and fixed and tree[1] in fixed:
        return evaluate(tree[2][fixed[tree[1]]], strat, shared, fixed)
    if kind == "me" and tree[1] not in shared:
        tree = ("max", tree[2])
        kind = "max"
    if kind == "me":
        kids = [evaluate(k, strat, shared, fixed) for k in tree[2]]
        pick = strat[:, shared[tree[1]]]
        out = np.zeros(strat.shape[0])
        for j, v in enumerate(kids):
            out = np.where(pick == j, v, out)
        return out
    kids = [evaluate(k, strat, shared, fixed) for k in tree[1]]
    arr = np.array([np.broadcast_to(k, (strat.shape[0],)) for k in kids], dtype=float)
    return arr.max(axis=0) if kind == "max" else arr.min(axis=0)


def _choice_values(tree, out: dict[int, list]) -> None:
    """Append to ``out[slot]``, for each trick-2 choice of the player in this deal's
    tree, the value of each of its cards (everything below is forced for the player:
    constants)."""
    if tree[0] == "v":
        return
    if tree[0] == "+":
        _choice_values(tree[2], out)
        return
    if tree[0] == "me":
        empty = np.zeros((1, 0), np.int64)
        out.setdefault(tree[1], []).append(
            [float(np.max(evaluate(k, empty, {}))) for k in tree[2]])
        return
    for k in tree[1]:
        _choice_values(k, out)


def fusion_values(rules: Rules, t: RuleTables, worlds: list[Node], seat: int,
                  max_slots: int = 14, reduce: bool = True
                  ) -> dict[int, tuple[float, float, int]] | None:
    """For each legal root card: (PIMC's mean double-dummy value, the best value when the
    player commits to one card per information set against double-dummy others, the
    number of its later information sets where the deals reaching it disagree on the
    card to play: the strategy-fusion points).
    None when a card has more than ``max_slots`` of those (the brute force over the
    player's strategies is 2**slots)."""
    side = rules.side_of(seat)
    out = {}
    for c in legal(worlds[0]):
        pimc = 0.0
        tb = _Tree(rules, t, seat, side)
        trees = []
        for k, w in enumerate(worlds):
            nxt, win, cards = child(w, c, t)
            bonus = trick_value(rules, t, win, cards, side) if win >= 0 else 0
            pimc += bonus + dd_value(rules, t, nxt, side, {})
            tb.world = k
            trees.append(("+", bonus, tb.build(nxt, (c,))))
        shared_slots = [s for s in sorted(tb.worlds) if len(tb.worlds[s]) > 1]
        # below a trick-2 choice everything is forced for the player: each of its cards
        # has a fixed value in each deal; a card at least as good as the other in every
        # deal reaching the choice is the right choice there, whatever else is chosen
        # (the values are monotone in each leaf), so only the choices where the deals
        # disagree are searched
        kid_vals: dict[int, list] = {}
        empty = np.zeros((1, 0), np.int64)
        for tr in trees:
            _choice_values(tr, kid_vals)
        fixed = {}
        for sl in shared_slots if reduce else ():
            v = np.array(kid_vals[sl])
            for j in range(v.shape[1]):
                if (v[:, j] >= v.max(axis=1)).all():
                    fixed[sl] = j
                    break
        n_conflict = len(shared_slots) - len(fixed)
        shared_slots = [sl for sl in shared_slots if sl not in fixed]
        # the objective is a sum over deals: it splits over the connected parts of the
        # graph "deal - information set it reaches"; each part is brute-forced alone
        parent = {s: s for s in shared_slots}

        def root(s: int, parent: dict[int, int] = parent) -> int:
            while parent[s] != s:
                parent[s] = parent[parent[s]]
                s = parent[s]
            return s

        by_world: dict[int, list[int]] = {}
        for s in shared_slots:
            for w in tb.worlds[s]:
                by_world.setdefault(w, []).append(s)
        for slots in by_world.values():
            for s in slots[1:]:
                parent[root(s)] = root(slots[0])
        parts: dict[int, list[int]] = {}
        for s in shared_slots:
            parts.setdefault(root(s), []).append(s)
        if any(len(p) > max_slots for p in parts.values()):
            return None
        best = 0.0
        free = [k for k in range(len(worlds)) if k not in by_world]
        for k in free:
            best += float(np.max(evaluate(trees[k], empty, {}, fixed)))
        for part in parts.values():
            shared = {s: j for j, s in enumerate(part)}
            ranges = [range(len(tb.choices[s])) for s in part]
            strat = np.array(list(product(*ranges)), dtype=np.int64)
            ws = sorted({w for s in part for w in tb.worlds[s]})
            total = np.zeros(strat.shape[0])
            for k in ws:
                total = total + evaluate(trees[k], strat, shared, fixed)
            best += float(total.max())
        out[c] = (pimc / len(worlds), best / len(worlds), n_conflict)
    return out


def search_fusion(rules: Rules, seed: int, deals: int, limit: int, show: int,
                  policy: str = "heuristic", max_slots: int = 14) -> int:
    """Look for positions (the first trick of the last three, each seat in turn to
    choose) where PIMC's card is not the best card for a player who cannot tell the
    deals apart."""
    found = checked = 0
    over: list[float] = []
    loss: list[float] = []
    for i, into in product(range(deals), range(rules.players)):
        if into == 0 and i and i % 50 == 0 and checked:
            print(f"  ... deals 0..{i - 1}: {checked} positions solved, {found} mistakes, "
                  f"mean loss {np.mean(loss):.4f}", file=sys.stderr, flush=True)
        d, prefix = ending(rules, seed, i, 3, into, policy)
        base = node_of(d, prefix)
        seat = base.to_move
        worlds = worlds_of(d, prefix, seat, limit)
        if worlds is None or len(legal(base)) < 2:
            continue
        t = rule_tables(rules, d.trump)
        vals = fusion_values(rules, t, worlds, seat, max_slots)
        if vals is None:
            continue
        checked += 1
        cards = sorted(vals)
        p_best = max(cards, key=lambda c: (vals[c][0], -c))
        t_best = max(cards, key=lambda c: (vals[c][1], -c))
        over.append(vals[p_best][0] - vals[p_best][1])
        loss.append(vals[t_best][1] - vals[p_best][1])
        if vals[t_best][1] > vals[p_best][1] + 1e-9 and vals[p_best][0] > vals[t_best][0]:
            found += 1
            if found <= show:
                print(f"deal {i} of seed {seed} ({policy} play; dealt by "
                      f"catchten_sim.play.deal), {into} cards into the trick:")
                print(describe(d, prefix, seat, worlds, vals, p_best, t_best))
    print(f"fusion search: {checked} positions solved exactly, {found} strategy-fusion "
          f"mistakes of PIMC (deals 0..{deals - 1}, seed {seed})")
    if checked:
        print(f"  PIMC's card: its mean double-dummy value exceeds its committed value by "
              f"{np.mean(over):.3f} points on average (max {np.max(over):.2f}); the "
              f"committed value lost by playing it instead of the best: mean "
              f"{np.mean(loss):.4f}, max {np.max(loss):.2f} points")
    return found


def describe(d: Deal, prefix: Sequence[int], seat: int, worlds: list[Node],
             vals: dict, p_best: int, t_best: int) -> str:
    fc = format_card
    r = d.rules
    base = node_of(d, prefix)
    lines = [f"deal {d}", f"  after {len(prefix)} cards (play {' '.join(fc(c) for c in prefix)})",
             f"  seat {seat} to play, trumps {'SHDC'[d.trump]}"
             + (", trick so far: " + ", ".join(
                 f"seat {(base.leader + j) % r.players} {fc(c)}"
                 for j, c in enumerate(base.trick)) if base.trick else ", on lead")
             + "; holding "
             f"{' '.join(fc(c) for c in sorted(base.hands[seat]))}; the others hold "
             + "; ".join(f"seat {s}: {' '.join(fc(c) for c in sorted(base.hands[s]))}"
                         for s in range(r.players) if s != seat)
             + f" ({len(worlds)} deals consistent with what seat {seat} knows)"]
    for c in sorted(vals):
        p, tv, k = vals[c]
        mark = ("  <- PIMC" if c == p_best else "") + ("  <- best" if c == t_best else "")
        lines.append(f"  {fc(c):>4}: PIMC mean {p:+7.3f}, committed {tv:+7.3f} "
                     f"({k} later choices where the deals disagree){mark}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=4, choices=(2, 4))
    ap.add_argument("--endings", type=int, default=300)
    ap.add_argument("--tricks", type=int, default=3, help="tricks left at the ending")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--fusion", type=int, default=0,
                    help="deals to search for a strategy-fusion mistake (4 players)")
    ap.add_argument("--worlds", type=int, default=400,
                    help="most consistent deals of a fusion position")
    ap.add_argument("--show", type=int, default=2)
    ap.add_argument("--policy", default="heuristic", choices=("heuristic", "random"),
                    help="who plays the deal up to the ending")
    ap.add_argument("--max-slots", type=int, default=14,
                    help="most linked information sets brute-forced together (2**N)")
    args = ap.parse_args(argv)
    rules = Rules("foster", args.players)
    t0 = time.perf_counter()
    if args.fusion:
        if args.players != 4:
            raise SystemExit("--fusion: four players only")
        search_fusion(rules, args.seed, args.fusion, args.worlds, args.show, args.policy,
                      args.max_slots)
        print(f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
        return 0
    m = measure(rules, args.seed, args.endings, args.tricks)
    print(f"{rules.label()}: {m['endings']} endings ({args.tricks} tricks left), "
          f"{m['preterminal_nodes']} pre-terminal nodes")
    print(f"  leaf correlation: same points {m['lc_points']:.3f}, same sign "
          f"{m['lc_sign']:.3f}; mean spread of the children {m['mean_spread']:.2f} points")
    print(f"  bias (leaves won by the side on move at the ending's start): {m['bias']:.3f}")
    print(f"  disambiguation factor: {m['df']:.3f} of the log count of worlds per trick "
          f"({m['df_n']} endings); followers showing a void: {m['void_share']:.3f}")
    print(f"{time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
