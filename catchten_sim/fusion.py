"""Strategy fusion, exactly: the value of a card for a player who must play the same card in
every deal it cannot tell apart (one card per information set), beside PIMC's mean
double-dummy value (issue 11; the study is in docs/findings.md).

PIMC values each card by the mean double-dummy value over the consistent deals: it assumes
it will know, at its next turn, which deal it is in. :func:`fusion_values` computes, by
brute force over the player's strategies for the next trick, the best value of each card
when the player commits to one card per information set (what it has seen so far) while
every other seat, partner included, sees every card and plays best double-dummy (the "best
defence" model, which isolates strategy fusion from PIMC's other error, non-locality).
Four players, foster rules with no switches (follow suit, linear card points), the current
set only: a small ending engine (:class:`Node`, :func:`legal`, :func:`child`,
:func:`dd_value`) written for this and checked against the solver
(``tests/test_pimc_properties.py``).

>>> from catchten_sim import Rules
>>> from catchten_sim.endings import ending
>>> from catchten_sim.state import rule_tables
>>> r = Rules("foster", 4)
>>> d, prefix = ending(r, seed=2, index=71, tricks=3, into=2)
>>> worlds = worlds_of(d, prefix, seat=0, limit=1000)
>>> len(worlds)
120
>>> vals = fusion_values(r, rule_tables(r, d.trump), worlds, 0)
>>> from catchten_sim.cards import format_card
>>> {format_card(c): tuple(round(x, 3) for x in v) for c, v in sorted(vals.items())}
{'7S': (2.167, 1.6, 4), '9S': (2.167, 1.6, 4), 'JD': (1.867, 1.867, 0)}

PIMC ruffs (7S or 9S: mean double-dummy value 2.167), yet for a player who cannot see the
cards the discard JD is worth more (1.867 against 1.6): a strategy-fusion mistake.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

import numpy as np

from .determinize import Sampler
from .position import info_at
from .rules import Rules
from .solve import solve_deals
from .cards import format_card
from .state import RuleTables, rule_tables

if TYPE_CHECKING:
    from .play import Deal
    from .position import InfoSet


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
    assert best is not None                      # a position not over has a legal card
    memo[node] = best
    return best


# ------------------------------------------------------------------ positions and worlds
def node_of(d: Deal, prefix: Sequence[int]) -> Node:
    """The ending node (current set only) after ``prefix``."""
    st = d.play_state()
    for c in prefix:
        st.play(c)
    hands = []
    for h in st.hands:
        if h is None:                            # a deal knows every hand
            raise ValueError("node_of: a hand is unknown")
        hands.append(frozenset(h))
    return Node(tuple(hands), st.leader, tuple(c for _, c in st.trick))


def solve_children(rules: Rules, d: Deal, play_: Sequence[int]) -> dict[int, int]:
    """Double-dummy value of each legal card after ``play_`` for the mover's side."""
    out = solve_deals(rules, d.dealer, -1 if d.turnup is None else d.turnup,
                      d.masks()[None], list(play_))[0]
    return {c: int(out[c]) for c in range(52) if out[c] < 30000}


def worlds_of(d: Deal, prefix: Sequence[int], seat: int, limit: int) -> list[Node] | None:
    """Every deal consistent with what ``seat`` knows after ``prefix`` (current set), as
    ending nodes; None when there are more than ``limit``."""
    return worlds_of_info(info_at(d, seat, prefix), limit)


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
            for wi in tb.worlds[s]:
                by_world.setdefault(wi, []).append(s)
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




# ------------------------------------------------------------------ in advise (issue 25)
#: the most consistent deals for which ``advise --evaluator dd`` adds the fusion values
FUSION_MAX_WORLDS = 200


def scope_reason(info: InfoSet, dd: bool = True, exact: bool = True) -> str:
    """Why the fusion-aware values do not apply at ``info`` ("" when they may: foster,
    four players, no switches, the last set, at most three tricks left, the dd evaluator,
    every consistent deal evaluated). Cheap: counts no deal."""
    r = info.rules
    n_left = bin(info.my_hand).count("1")
    return ("only with the dd evaluator" if not dd else
            "only foster rules, 4 players, no switches"
            if r.to_dict() != Rules("foster", 4).to_dict() else
            "only in the last set" if info.set_index != r.n_sets - 1 else
            f"only with at most 3 tricks left ({n_left} left)" if n_left > 3 else
            "only when every consistent deal is evaluated (exact)" if not exact else "")


def values_at(info: InfoSet) -> tuple[dict[int, tuple[float, float, int]], int] | str:
    """:func:`fusion_values` at ``info`` over every consistent deal and their number, or
    why not (:func:`scope_reason`, more than :data:`FUSION_MAX_WORLDS` consistent deals,
    too many linked information sets)."""
    why = scope_reason(info)
    if why:
        return why
    worlds = worlds_of_info(info, FUSION_MAX_WORLDS)
    if worlds is None:
        return f"only with at most {FUSION_MAX_WORLDS} consistent deals"
    vals = fusion_values(info.rules, rule_tables(info.rules, info.trump), worlds, info.seat)
    if vals is None:
        return "too many linked information sets to search"
    return vals, len(worlds)


def for_advice(info: InfoSet, dd: bool, exact: bool, candidates: Sequence[Any] = ()) -> dict:
    """What ``advise`` shows of :func:`fusion_values` at ``info``: ``{"summary": {"worlds",
    "best", "model"}, "values": {card name: value}}`` (the value of committing to one card
    per information set over the next trick, others double-dummy), or ``{"reason"}``
    saying why it does not apply (:func:`scope_reason`, :func:`values_at`).
    ``candidates``: the dd run's cards (:class:`catchten_sim.advise.CandidateResult`);
    with their exact means of ``diff``, the values are on the dd column's scale: each
    card's dd value minus what committing to one card per information set costs it
    (PIMC's mean minus the fusion-aware value, both on the rest of the set), so the two
    columns differ only by that cost. Without it: points of the
    rest of the set (the points already taken left out)."""
    why = scope_reason(info, dd, exact)
    try:                        # a Ctrl-C here keeps the dd advice (without these values)
        got = why or values_at(info)
    except KeyboardInterrupt:
        return {"reason": "interrupted (Ctrl-C) before the fusion-aware values"}
    if isinstance(got, str):
        return {"reason": got}
    vals, n_worlds = got
    dd_diff = {int(x.card): x.estimates["diff"].mean for x in candidates
               if "diff" in x.estimates}
    if dd_diff and all(c in dd_diff for c in vals):
        vals = {c: (v[0], dd_diff[c] - (v[0] - v[1]), v[2]) for c, v in vals.items()}
    best = max(sorted(vals), key=lambda c: vals[c][1])        # ties: the lower card
    return {"summary": {"worlds": n_worlds, "best": format_card(best),
                        "model": "one card per information set over the next trick; "
                                 "the other seats double-dummy"},
            "values": {format_card(c): round(v[1], 6) for c, v in vals.items()}}


def worlds_of_info(info: InfoSet, limit: int) -> list[Node] | None:
    """Every deal consistent with ``info`` (current set) as ending nodes; None when
    there are more than ``limit``."""
    s = Sampler(info)
    if not s.can_enumerate(limit):
        return None
    full = s.full_hands(s.enumerate(s.n_deals))
    trick = tuple(c for _, c in info.trick)
    return [Node(tuple(frozenset(c for c in range(52) if full[w, info.set_index, k] >> c & 1)
                       for k in range(info.rules.players)), info.leader, trick)
            for w in range(full.shape[0])]
