"""The ``pimc`` player: Perfect Information Monte Carlo, built on the double-dummy solver.

At each of its decisions a ``pimc:N`` seat does what the strongest bridge and skat
programs do: it draws ``N`` deals uniformly among those consistent with what it knows
(:class:`catchten_sim.determinize.Sampler`: its hand, the cards played and by whom, the
voids shown, the turn-up, dead cards; never the hidden hands), solves each double-dummy
for every legal card (:class:`catchten_sim.evaluators.DoubleDummyEvaluator`) and plays the card of
the best mean value. When the consistent deals are at most ``N`` it takes every one of
them once instead (an exact average).

Reproducible: the deals of a decision come from the sampler's counter-based stream with
the seed :func:`decision_seed` ``(seed, deal, decision)``: the same simulation seed, deal
number and decision number (the index of the card in the deal's play) always give the same
deals, whatever the threads.

Ties (cards of equal mean value, e.g. the 8 and 9 of a suit when neither can matter) are
broken by a stated rule, in order: the larger share of the deals in which the card is a
best card; then the card that gives away least: fewer honour points, then lower
trick-taking power (keep honours and high cards); only then the lower card index.

How it is driven (why not inside the numba play loop): a decision needs the sampler's
count table for the information set and the position's checks, which are Python; so the
driver plays a deal decision by decision: the play kernel (:mod:`._kernels.pimc`) replays
the deal with the ``pimc`` seats scripted by the choices made so far and the other seats
playing their own policies, up to the next ``pimc`` decision; the driver decides it and
replays. A replay costs microseconds; the decisions' solves are the whole cost.
:class:`PimcRolloutEvaluator` plays ``pimc`` seats in ``advise``'s rollouts the same way,
resuming the rollout kernel after each ``pimc`` decision.

``ipimc:N`` is the same player on inference-weighted deals (:mod:`catchten_sim.inference`):
a draw of max(200, 20 N) deals weighted by how likely the other seats' cards so far are in
each (the heuristic mixed with a uniform choice), resampled to ``N`` (the distinct deals
with their counts) and solved as above; means and shares are weighted.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import run
from ._kernels import engine as K
from ._kernels import pimc as KP
from ._kernels import rollout as KR
from ._kernels.layout import POL_SCRIPTED
from .cards import cards_of_mask
from .determinize import Sampler
from .evaluators import (DoubleDummyEvaluator, RolloutEvaluator, dealt_hands, legal_cards,
                         play_of)
from .inference import worlds_for_player
from .deals import Deal
from .deals import deal as make_deal
from .policies import DEFAULT_N, PimcPolicy, Seating
from .position import InfoSet, info_at
from .rules import Rules

PIMC_SALT = 0x5DEECE66D2545F49
_M64 = (1 << 64) - 1


def _mix(z: int) -> int:
    """SplitMix64's finaliser (64-bit)."""
    z = (z + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def decision_seed(seed: int, deal: int, decision: int) -> int:
    """The sampler seed of decision ``decision`` (the card's index in the deal's play) of
    deal ``deal`` of a run with ``seed``: a counter-based key, the same whatever the
    threads or the order the deals are played in."""
    return _mix(_mix(_mix(int(seed) ^ PIMC_SALT) ^ int(deal)) ^ int(decision))


# ------------------------------------------------------------------ one decision
def _tie_key(info: InfoSet, c: int) -> tuple:
    """What a card gives away, for ties: honour points, then trick-taking power, then
    its index (smaller is given away first)."""
    t = info.rules.tables()
    hon = int(t.honours[info.trump][c])
    tp = int(t.trump_power[info.trump][c])
    power = 100 + tp if tp > 0 else int(t.rank_power[c])
    return (hon, power, c)


def choose(info: InfoSet, n: int = DEFAULT_N, *, seed: int = 1, threads: int = 1,
           executor: Any = None, infer: bool = False) -> tuple[int, dict[str, Any]]:
    """The ``pimc:n`` (``ipimc:n`` with ``infer``) card of the player to move in ``info``.

    Parameters
    ----------
    info : InfoSet, what the player to move knows (nothing hidden is used).
    n : determinizations (all consistent deals when there are at most ``n``).
    seed : the sampler seed of this decision (:func:`decision_seed`).
    threads : solver threads (ignored with ``executor``).
    executor : a run-engine executor whose solvers (one per thread, with their
        transposition tables) are reused across decisions (``run.make_executor``;
        not closed here). None: one of its own for this decision.
    infer : ``ipimc``: the deals weighted by inference
        (:func:`catchten_sim.inference.worlds_for_player`: a larger weighted draw resampled
        to ``n``), the means and shares weighted.

    Returns
    -------
    (card, detail) : the card index; ``detail`` = ``{"cards", "mean", "best_share",
    "deals", "exact"}`` (float64 arrays per legal card; with ``infer`` also ``"drawn"``
    and ``"ess"``, the worlds drawn and their effective size).
    """
    cands = legal_cards(info)
    if len(cands) == 1:
        return cands[0], {"cards": cands, "mean": None, "best_share": None, "deals": 0,
                          "exact": True}
    sampler = Sampler(info)
    extra: dict[str, Any] = {}
    if infer:
        worlds = worlds_for_player(info, sampler, n, seed)
        hands, w, exact = worlds.hands, worlds.weights, worlds.exact
        extra = {"drawn": worlds.drawn, "ess": worlds.ess}
    else:
        exact = sampler.can_enumerate(n)
        hidden = sampler.enumerate(sampler.n_deals) if exact else sampler.sample(n, seed=seed)
        hands = sampler.full_hands(hidden)
        w = np.ones(hands.shape[0])
    ev = DoubleDummyEvaluator(info, cands, threads=threads, executor=executor)
    try:
        vals = ev.measures(hands, 0)["diff"]
    finally:
        ev.close()
    mean = (w[:, None] * vals).sum(axis=0) / w.sum()
    share = (w[:, None] * (vals >= vals.max(axis=1, keepdims=True))).sum(axis=0) / w.sum()
    order = sorted(range(len(cands)),
                   key=lambda j: (-round(float(mean[j]), 9), -round(float(share[j]), 9),
                                  _tie_key(info, cands[j])))
    return cands[order[0]], {"cards": cands, "mean": mean, "best_share": share,
                             "deals": vals.shape[0], "exact": exact, **extra}


def decide(policy: Any, info: InfoSet, *, seed: int, threads: int = 1,
           executor: Any = None, detail: dict | None = None) -> int:
    """The card a Python-driven seat of ``policy`` plays in ``info`` (the one place that
    maps a Python-driven policy kind of :mod:`catchten_sim.policies` to its player);
    ``detail``, when given, is updated with :func:`choose`'s detail."""
    if isinstance(policy, PimcPolicy):
        card, d = choose(info, policy.n, seed=seed, threads=threads, executor=executor,
                         infer=policy.infer)
        if detail is not None:
            detail.update(d)
        return card
    raise TypeError(f"not a Python-driven policy: {policy!r}")   # pragma: no cover


# ------------------------------------------------------------------ whole deals
class DealDriver:
    """Plays deals of a simulation in which some seats are ``pimc``.

    ``play(index)`` plays deal ``index`` of a simulation with ``seed`` (the deal of
    :func:`catchten_sim.play.deal`); ``row``/``acc`` as :func:`._kernels.pimc.scripted_deal`.
    """

    def __init__(self, rules: Rules, policies: Sequence[Any], seed: int, *,
                 threads: int = 1) -> None:
        self.rules = rules
        self.n = rules.players
        self.policies = tuple(policies)
        self.seed = int(seed)
        self.threads = threads
        self.tab = rules.tables()
        self.scr = K.scratch(self.tab)
        self.seating = Seating.of(self.policies)
        self.pol_arr = self.seating.scripted_ids()
        tricks = rules.n_sets * rules.set_size
        self.logs = (np.zeros(tricks, np.int64), np.zeros((tricks, self.n), np.int64),
                     np.zeros(tricks, np.int64))
        # the run engine's executor: the decisions' solves split over its threads, one
        # solver (and transposition table) per thread kept across decisions and deals
        self.executor = run.make_executor(max(1, int(threads)))
        self.decisions = 0
        #: per ``ipimc`` policy label: [weighted decisions, worlds drawn, sum and least
        #: of the effective sizes] (decisions with one legal card draw none)
        self.worlds: dict[str, list[float]] = {}

    def close(self) -> None:
        """Stop the solver threads (the executor's)."""
        self.executor.close()

    def _count_worlds(self, policy: Any, detail: dict) -> None:
        if "ess" not in detail:
            return
        w = self.worlds.setdefault(policy.label, [0, 0, 0.0, math.inf])
        w[0] += 1
        w[1] += detail["drawn"]
        w[2] += detail["ess"]
        w[3] = min(w[3], detail["ess"])

    def _replay(self, index: int, script: np.ndarray, row: np.ndarray, acc: np.ndarray,
                off: np.ndarray) -> list[tuple[int, int]]:
        KP.scripted_deal(self.tab, self.scr, self.pol_arr, np.uint64(self.seed),
                         np.int64(index), script, KP.ScriptedOut(self.logs, row, acc, off))
        out = []
        leaders, cards = self.logs[0], self.logs[1]
        for t in range(leaders.shape[0]):
            for k in range(self.n):
                out.append(((int(leaders[t]) + k) % self.n, int(cards[t, k])))
        return out

    def play(self, index: int, row: np.ndarray | None = None, acc: np.ndarray | None = None,
             off: np.ndarray | None = None) -> list[int]:
        """Play deal ``index``; returns its play (card indices in order). ``row`` (int16
        outcome row) and ``acc`` (flat accumulator, offsets ``off``) are filled from the
        final replay when given."""
        r = self.rules
        empty16 = np.zeros(0, np.int16)
        empty64 = np.zeros(0, np.int64)
        script = np.zeros(r.n_dealt, np.int64)
        d = make_deal(r, seed=self.seed, index=index)
        used = 0
        while True:
            seq = self._replay(index, script, empty16, empty64, empty64)
            # the first play of a pimc seat not decided yet
            k = -1
            seen = 0
            for i, (seat, _c) in enumerate(seq):
                if self.pol_arr[seat] == POL_SCRIPTED:
                    if seen == used:
                        k = i
                        break
                    seen += 1
            if k < 0:
                break
            seat = seq[k][0]
            prefix = [c for _, c in seq[:k]]
            info = info_at(d, seat, prefix)
            detail: dict = {}
            card = decide(self.policies[seat], info, seed=decision_seed(self.seed, index, k),
                          threads=self.threads, executor=self.executor, detail=detail)
            self._count_worlds(self.policies[seat], detail)
            self.decisions += 1
            assert info.state is not None   # info_at replays the play
            legal = info.state.legal_cards()
            script[used] = sorted(legal).index(card)
            used += 1
        if row is not None or acc is not None:
            seq = self._replay(index, script, empty16 if row is None else row,
                               empty64 if acc is None else acc,
                               empty64 if off is None else off)
        return [c for _, c in seq]


def simulate_pimc(rules: Rules, pols: Sequence[object], seed: int, start: int, count: int,
                  rows: np.ndarray, part: np.ndarray, off: np.ndarray,
                  driver: DealDriver) -> None:
    """Deals ``start … start + count - 1`` with ``pimc`` seats: outcome rows (when
    ``rows`` has rows) and the flat accumulator ``part`` (``run_chunk``'s layout)."""
    want_rows = rows.shape[0] > 0
    for i in range(count):
        driver.play(start + i, rows[i] if want_rows else None, part, off)


# ------------------------------------------------------------------ pimc rollouts (advise)
class PimcRolloutEvaluator:
    """``advise --evaluator rollout`` with ``pimc`` seats among the rollout policies.

    For each determinization and candidate card: the card is played, then the deal is
    played out with every ``pimc`` seat deciding by :func:`choose` (its own information
    set in that deal, never the hidden hands) and the other seats by their kernel
    policies. Driven decision by decision like :class:`DealDriver`: the rollout kernel
    (:class:`catchten_sim.evaluators.RolloutEvaluator`, the ``pimc`` seats standing in as
    ``heuristic``) plays from the current position to the end with the play logged; the
    first card of a ``pimc`` seat in that line is replaced by the ``pimc`` decision and the
    kernel resumes after it, until no ``pimc`` seat is left to play. The outcome row is the
    last resume's (the whole hand, as the kernel's rollouts score it).

    Slow by nature: every ``pimc`` decision solves ``N`` deals double-dummy (a 4-player
    deal holds up to 36 of them per seat kind); meant for few determinizations.
    Reproducible: decision ``k`` (the card's index in the deal's play) of sample ``i``
    draws its deals with :func:`decision_seed` ``(seed, i, k)``, the same for every
    candidate (common random numbers), whatever the threads.
    """

    name = "rollout"

    def __init__(self, info: InfoSet, candidates: Sequence[int], policies: Sequence[Any],
                 seed: int = 1, threads: int = 1) -> None:
        self.info = info
        self.candidates = [int(c) for c in candidates]
        self.policies = tuple(policies)
        self.seating = Seating.of(self.policies)
        self.stand_in = self.seating.stand_in()
        self.seed = int(seed)
        self.threads = max(1, int(threads))
        self.executor = run.make_executor(self.threads)   # solvers kept across decisions
        self.decisions = 0

    def close(self) -> None:
        self.executor.close()

    def _deal(self, hands: np.ndarray) -> Any:
        """The determinization ``hands`` (n_sets, n) as a dealt :class:`~.play.Deal`."""
        info = self.info
        dealt = dealt_hands(info, hands[None])[0]
        dead = tuple(cards_of_mask(info.dead))
        return Deal(info.rules, info.dealer, tuple(tuple(int(x) for x in row)
                                                   for row in dealt),
                    int(info.trump), info.turnup, dead)

    def _one(self, d: Any, hands: np.ndarray, sample: int, card: int) -> np.ndarray:
        r = self.info.rules
        n = r.players
        info, c = self.info, card
        dealt = np.array(d.set_hands, dtype=np.int64)
        while True:
            ev = RolloutEvaluator(info, [c], self.stand_in, self.seed, 1)
            try:
                leaders, cards, _w, row = ev.line(hands[None], sample, c)
            finally:
                ev.close()
            seq = play_of(info) + [c]
            k0 = len(info.trick) + 1
            for t in range(info.trick_index, r.n_sets * r.set_size):
                for j in range(k0 if t == info.trick_index else 0, n):
                    seq.append(int(cards[t, j]))
            start = len(play_of(info)) + 1
            nxt = -1
            for k in range(start, len(seq)):
                t, j = divmod(k, n)
                if self.seating.is_driven((int(leaders[t]) + j) % n):
                    nxt = k
                    break
            if nxt < 0:
                return row
            t, j = divmod(nxt, n)
            seat = (int(leaders[t]) + j) % n
            info = info_at(d, seat, seq[:nxt])
            c = decide(self.policies[seat], info, seed=decision_seed(self.seed, sample, nxt),
                       threads=self.threads, executor=self.executor)
            self.decisions += 1
            played = 0
            for x in seq[:nxt]:
                played |= 1 << x
            hands = dealt & ~np.int64(played)

    def evaluate(self, hands: np.ndarray, first: int) -> np.ndarray:
        """int16 (m, n_cand, ``rollout.n_out_cols``): as
        :meth:`catchten_sim.evaluators.RolloutEvaluator.evaluate`."""
        r = self.info.rules
        out = np.zeros((hands.shape[0], len(self.candidates), KR.n_out_cols(r.n_sides)),
                       dtype=np.int16)
        for i in range(hands.shape[0]):
            d = self._deal(hands[i])
            for j, c in enumerate(self.candidates):
                out[i, j] = self._one(d, hands[i], first + i, c)
        return out
