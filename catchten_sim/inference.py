"""Inference: worlds weighted by what the other seats' cards show.

The uniform sampler (:class:`catchten_sim.determinize.Sampler`) draws every deal
consistent with the voids and the cards seen, all equally likely. A player reads more:
a seat that played low second hand probably lacks the Ace. Here a world (a determinization)
gets the weight

    P(world | play so far)  proportional to  prod over the other seats' cards of the current
    set  pi(card | that seat's information then, its hand in the world)

with ``pi`` the :class:`PlayModel`: the ``heuristic`` policy mixed with a uniform choice
among the legal cards (weight ``eps``). The product is computed in the numba core
(:mod:`catchten_sim._kernels.infer`: a replay of the play in each world, the model's
choice at every card). The observer's own cards and the cards of finished sets are the
same in every world and are left out (with six-card sets a finished set's hands are all
known: every card of it was played).

From the weights: importance weights (self-normalised), an optional floor (a world in
which a scored card had ``pi`` below ``floor`` is rejected, as the bridge engines drop
deals in which a card already played was unlikely), the effective sample size
``(sum w)^2 / sum w^2``, weighted means with self-normalised (delta-method) intervals,
and resampling (systematic) for a player that solves few worlds (``ipimc``).

``eps``: fitted by maximum likelihood (:func:`fit_eps`) on deals where the model's seats
played; see docs/findings.md "Inference" for the fitted values and the default.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._kernels import infer as KI
from ._kernels import trick as KT
from .aggregate import weighted_se
from .checks import check_number
from .errors import CatchTenError, unknown_name
from .position import InfoSet

#: the model's uniform share by default (docs/findings.md "Inference"). Fitted by maximum
#: likelihood on deals played by pimc:10 at every seat (the players ipimc meets): 0.58 at 4
#: players, 0.66 at 2; the heuristic's own deals fit 0 (a model that rejects every world
#: with one card off the heuristic: +19% log loss on pimc's deals at eps 0.02). 0.7: of
#: 0.6, 0.7, 0.8 the one that keeps the log loss on random players' deals within 2% of the
#: uniform sampler's (+0.9%; 0.6: +2.3%) with 11% less on the heuristic's own deals.
DEFAULT_EPS = 0.7
#: worlds drawn per world kept by a resampling player (``ipimc:N`` draws ``DRAW_FACTOR * N``,
#: at least :data:`MIN_DRAW`)
DRAW_FACTOR = 20
MIN_DRAW = 200
#: a resampling player solves every consistent deal, each with its weight, when they are
#: at most this many (the bridge engines enumerate every layout once few cards are unknown;
#: the fusion study found exact weighted endings better than ipimc:10's resampled ten:
#: docs/findings.md)
EXACT_WORLDS = 200
#: mixed into a decision's seed for its resampling draw (not the sampler's stream)
RESAMPLE_SALT = 0x2545F4914F6CDD1D
#: the inference models by name (``--infer``)
MODELS = ("heuristic",)


@dataclass(frozen=True)
class PlayModel:
    """The model of the other seats' play: ``heuristic`` mixed with uniform (``eps``),
    and the floor below which a card's probability rejects a world (0: none)."""

    eps: float = DEFAULT_EPS
    floor: float = 0.0

    def __post_init__(self) -> None:
        check_number("eps", self.eps, 0, 1, lo_open=False)
        check_number("floor", self.floor, 0, lo_open=False)
        if not self.floor < 1.0:
            raise CatchTenError("floor", "out of range", f"floor={self.floor} (allowed 0 to 1)")


def _seq(info: InfoSet) -> list[tuple[int, int]]:
    """The play so far as ``(seat, card)`` in order."""
    n = info.rules.players
    out = []
    if info.state is not None:
        for tr in info.state.tricks:
            out += [((tr.leader + j) % n, c) for j, c in enumerate(tr.cards)]
    return out + list(info.trick)


def _work(rules: Any, length: int) -> tuple:
    r = rules
    ps = KT.new_play(r.players, r.n_sets, r.set_size, r.n_sides)
    m = max(1, length)
    return (ps, np.zeros(m, np.int64), np.zeros(m, np.int64))


def _game(dealer: int, trump: int, turnup: int | None) -> tuple:
    return (np.int64(dealer), np.int64(trump), np.int64(-1 if turnup is None else turnup))


class Inference:
    """The weights of worlds of one information set under a :class:`PlayModel`.

    ``log_weights(hands)`` with ``hands`` (m, n_sets, n) as
    :meth:`catchten_sim.determinize.Sampler.full_hands` gives them (the cards held now and
    in later sets).
    """

    def __init__(self, info: InfoSet, model: PlayModel | None = None) -> None:
        self.info = info
        self.model = model or PlayModel()
        r = info.rules
        seq = _seq(info)
        first = info.set_index * r.set_size * r.players
        self.play = np.array([c for _, c in seq], dtype=np.int64)
        self.score = np.array([1 if (i >= first and s != info.seat) else 0
                               for i, (s, _) in enumerate(seq)], dtype=np.int64)
        self.played = np.zeros((r.n_sets, r.players), dtype=np.int64)
        per_set = r.set_size * r.players
        for i, (s, c) in enumerate(seq):
            self.played[i // per_set, s] |= 1 << c
        self._tab = r.tables()
        self._game = _game(info.dealer, info.trump, info.turnup)
        self._work = _work(r, len(seq))
        #: the log weight that weighs 1 (:meth:`weights`)
        self.ref: float | None = None

    def summary(self, sums: Any) -> dict[str, Any]:
        """What weighted running sums (:class:`~catchten_sim.aggregate.WeightedCandidateSums`)
        were: the model, ``eps``, the worlds drawn and their effective size."""
        return {"model": "heuristic", "eps": self.model.eps, "worlds_drawn": sums.n,
                "effective_size": round(sums.ess, 1)}

    @property
    def scored_cards(self) -> int:
        """How many cards of the play count in the weights."""
        return int(self.score.sum())

    def dealt(self, hands: np.ndarray) -> np.ndarray:
        """The worlds as dealt: ``hands`` plus the cards each seat has played, per set."""
        return np.asarray(hands, dtype=np.int64) | self.played[None]

    def log_weights(self, hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(logw, low)`` float64 (m,): the log of each world's weight and the smallest
        probability the model gave a scored card in it."""
        worlds = self.dealt(hands)
        m = worlds.shape[0]
        logw = np.zeros(m, dtype=np.float64)
        low = np.ones(m, dtype=np.float64)
        KI.log_weights(self._tab, self._work, worlds, self._game, (self.play, self.score),
                       float(self.model.eps), (logw, low))
        return logw, low

    def weights(self, hands: np.ndarray) -> np.ndarray:
        """Importance weights (m,): ``exp(log weight - ref)``, 0 for a world rejected by
        the floor or impossible. ``ref`` is the largest log weight of the first call's
        worlds, kept for the later calls, so that weights of several batches share one
        scale (the first batch's heaviest world weighs 1). When every world of a call is
        rejected by the floor, the floor is dropped for that call (the weights alone)."""
        logw, low = self.log_weights(hands)
        if self.ref is None and logw.size and np.isfinite(logw.max()):
            self.ref = float(logw.max())
        if self.ref is None:
            return np.zeros(logw.shape, dtype=np.float64)
        w = np.exp(logw - self.ref)
        if self.model.floor > 0.0:
            keep = low >= self.model.floor
            if keep.any():
                w = np.where(keep, w, 0.0)
        return w


def for_advice(info: InfoSet, infer: str | None, evaluator: str) -> Inference | None:
    """The :class:`Inference` of ``advise(infer=...)`` (None for ``None`` or ``none``).

    Raises
    ------
    CatchTenError
        An unknown model; a model with an evaluator other than ``dd``.
    """
    if infer is None or str(infer).strip().lower() == "none":
        return None
    if str(infer).strip().lower() not in MODELS:
        raise unknown_name("infer", "model", infer, ("none", *MODELS))
    if evaluator != "dd":
        raise CatchTenError("infer", "not available",
                            f"--infer {infer} with --evaluator {evaluator}: the weighted deals "
                            "are used by --evaluator dd only")
    return Inference(info, PlayModel())


def effective_size(w: np.ndarray) -> float:
    """Kish's effective sample size ``(sum w)^2 / sum w^2`` (0 for no weight)."""
    w = np.asarray(w, dtype=np.float64)
    s2 = float((w * w).sum())
    return float(w.sum()) ** 2 / s2 if s2 > 0 else 0.0


def weighted_mean(x: np.ndarray, w: np.ndarray, z: float = 1.959963984540054
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Self-normalised weighted means of ``x`` (m, ...) over its first axis and the
    half-widths ``z * se`` of their intervals (:func:`weighted_se`)."""
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    sw = float(w.sum())
    if sw <= 0:
        raise ValueError("no weight")
    ws = w.reshape((-1,) + (1,) * (x.ndim - 1))
    mean, se = weighted_se(sw, float((w * w).sum()), (ws * x).sum(axis=0),
                           (ws * ws * x).sum(axis=0), (ws * ws * x * x).sum(axis=0))
    return mean, z * se


def resample(w: np.ndarray, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Systematic resampling of ``n`` draws proportional to ``w``: the distinct indices
    drawn and how many times each (``counts.sum() == n``). Reproducible from ``seed``."""
    w = np.asarray(w, dtype=np.float64)
    sw = float(w.sum())
    if sw <= 0:
        raise ValueError("no weight")
    u = (np.random.default_rng(int(seed) & ((1 << 63) - 1)).random() + np.arange(n)) / n
    cdf = np.cumsum(w) / sw
    cdf[-1] = 1.0
    idx = np.searchsorted(cdf, u, side="right")
    uniq, counts = np.unique(idx, return_counts=True)
    return uniq, counts


@dataclass(frozen=True)
class Worlds:
    """Worlds to solve and their weights.

    ``hands`` (k, n_sets, n) as :meth:`Sampler.full_hands`; ``weights`` (k,) (a resampled
    world's count, or its importance weight); ``drawn`` how many worlds were drawn and
    weighted; ``ess`` the effective size of those weights; ``exact``: the drawn worlds
    were every consistent deal."""

    hands: np.ndarray
    weights: np.ndarray
    drawn: int
    ess: float
    exact: bool


def worlds_for_player(info: InfoSet, sampler: Any, n: int, seed: int,
                      model: PlayModel | None = None) -> Worlds:
    """The worlds of a player that solves ``n`` of them (``ipimc:n``): ``max(MIN_DRAW,
    DRAW_FACTOR * n)`` drawn uniformly (every consistent deal when there are no more),
    weighted by the model, then ``n`` draws by systematic resampling (the distinct worlds
    and their counts); every consistent deal with its weight when they are at most
    ``max(n, EXACT_WORLDS)``.
    Reproducible from ``seed``."""
    draw = max(MIN_DRAW, DRAW_FACTOR * int(n))
    exact = sampler.can_enumerate(draw)
    hidden = sampler.enumerate(sampler.n_deals) if exact else sampler.sample(draw, seed=seed)
    hands = sampler.full_hands(hidden)
    w = Inference(info, model).weights(hands)
    ess = effective_size(w)
    if exact and hands.shape[0] <= max(int(n), EXACT_WORLDS):
        keep = w > 0
        return Worlds(hands[keep], w[keep], hands.shape[0], ess, True)
    idx, counts = resample(w, int(n), seed ^ RESAMPLE_SALT)
    return Worlds(hands[idx], counts.astype(np.float64), hands.shape[0], ess, exact)


def card_terms(rules: Any, dealt: np.ndarray, dealer: int, trump: int, turnup: int | None,
               play: list[int] | np.ndarray, score: list[int] | np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """For one world (the deal as dealt, int64 (n_sets, n)) and a play: per card, 1 when
    it is the heuristic's choice, 0 not, -1 not scored, -2 impossible in the world; and
    the number of legal cards then (:func:`._kernels.infer.card_terms`)."""
    play = np.asarray(play, dtype=np.int64)
    work = _work(rules, len(play))
    KI.card_terms(rules.tables(), work, np.asarray(dealt, dtype=np.int64),
                  _game(dealer, trump, turnup),
                  (play, np.asarray(score, dtype=np.int64)))
    return work[1][:len(play)].copy(), work[2][:len(play)].copy()


def log_likelihood(eps: float, hits: np.ndarray, nlegal: np.ndarray) -> float:
    """The log-likelihood of cards with ``hits`` (1/0) among ``nlegal`` legal cards
    (cards with one legal card, or not scored, left out) under the mixture ``eps``."""
    hits = np.asarray(hits)
    nlegal = np.asarray(nlegal, dtype=np.float64)
    keep = (hits >= 0) & (nlegal > 1)
    h, nl = hits[keep], nlegal[keep]
    p = eps / nl + np.where(h == 1, 1.0 - eps, 0.0)
    with np.errstate(divide="ignore"):
        return float(np.log(p).sum())


def fit_eps(hits: np.ndarray, nlegal: np.ndarray) -> float:
    """The maximum-likelihood ``eps`` of the mixture for cards with ``hits`` among
    ``nlegal`` legal cards (the true hands known): the log-likelihood is concave in
    ``eps``, maximised by bisection on its derivative."""
    hits = np.asarray(hits)
    nlegal = np.asarray(nlegal, dtype=np.float64)
    keep = (hits >= 0) & (nlegal > 1)
    h, nl = hits[keep], nlegal[keep]
    if h.size == 0:
        raise ValueError("no scored card with a choice")
    miss = int((h == 0).sum())
    if miss == 0:
        return 0.0
    # d/d eps: misses contribute 1/eps; hits (1/n - 1) / (1 - eps + eps/n)
    a = 1.0 / nl[h == 1] - 1.0

    def grad(e: float) -> float:
        return miss / e + float((a / (1.0 + e * a)).sum())

    if grad(1.0) >= 0:
        return 1.0
    lo, hi = 1e-12, 1.0
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        if grad(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)
