"""Streamed sufficient statistics of simulated deals, and summaries with intervals.

The kernels return chunks of per-deal outcome rows (int16, columns ``C_*`` and the
per-position fields ``F_*`` of :mod:`catchten_sim._kernels.engine`). An
:class:`OutcomeAccumulator` folds each chunk into integer sums, sums of squares and
histograms, so memory does not grow with the number of deals. Summaries are pandas
DataFrames: means with standard errors, proportions with 95% Wilson intervals.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from statistics import NormalDist
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from ._lazy import pandas as pd
from .student import t_critical

if TYPE_CHECKING:
    import pandas
from ._kernels import engine as K

FIELDS = {"honours": K.F_HONOURS, "cards_taken": K.F_CARDS, "card_points": K.F_CARD_POINTS,
          "total": K.F_TOTAL, "side_tricks": K.F_SIDE_TRICKS, "seat_tricks": K.F_SEAT_TRICKS}
FATES = ("saved", "caught", "dead", "no_trumps")
Z95 = 1.959963984540054
MAX_POINTS = 128          # histogram range of a side's hand points (0 … 127)
MAX_TRUMPS = 14


def acc_layout(n_players: int, n_sides: int) -> tuple[np.ndarray, dict[int, tuple[int, ...]]]:
    """Layout of the flat int64 accumulator that the kernel folds deals into.

    Returns the offsets (int64 array indexed by the ``A_*`` constants of
    :mod:`catchten_sim._kernels.engine`, its last entry the total size) and the shape of
    each block. :class:`OutcomeAccumulator` keeps its arrays as views of one such array.
    """
    n, nf = n_players, len(FIELDS)
    shapes = {K.A_FATE: (4,), K.A_SUMS: (n, nf), K.A_SUMSQ: (n, nf), K.A_ADV: (n,),
              K.A_ADVSQ: (n,), K.A_SIDE: (n_sides,), K.A_SIDESQ: (n_sides,),
              K.A_HTOT: (n, MAX_POINTS), K.A_HHON: (n, MAX_POINTS),
              K.A_HCP: (n, MAX_POINTS), K.A_FBH: (n + 1, MAX_TRUMPS, 4),
              K.A_HOLDN: (MAX_POINTS,), K.A_HOLDS: (MAX_POINTS,),
              K.A_HOLDSS: (MAX_POINTS,), K.A_NDEALS: (1,)}
    off = np.zeros(K.A_NOFF + 1, np.int64)
    pos = 0
    for a in range(K.A_NOFF):
        off[a] = pos
        pos += int(np.prod(shapes[a]))
    off[K.A_NOFF] = pos
    return off, shapes


# the kernel's fold (engine.fold_row) assumes these
assert list(FIELDS.values()) == list(range(K.N_FIELDS))
assert MAX_POINTS == K.HIST and MAX_TRUMPS == K.HIST_TRUMPS


# ------------------------------------------------------------------ statistics
# The one home of the package's interval arithmetic: ``advise``, ``games``, ``tables`` and
# ``report`` use these functions (and this ``Z95``), never their own copies.

def z_two_sided(alpha: float) -> float:
    """The normal critical value of a two-sided ``1 - alpha`` interval (1.96 for 0.05)."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha!r} (allowed: 0 < alpha < 1)")
    return NormalDist().inv_cdf(1.0 - alpha / 2.0)


def t_two_sided(alpha: float, df: float) -> float:
    """Student's t critical value of a two-sided ``1 - alpha`` interval with ``df``
    degrees of freedom (12.71 for 0.05 and 1; tends to :func:`z_two_sided`): a whole
    ``df`` (every caller's) in pure Python (:func:`catchten_sim.student.t_critical`: no
    scipy import after a run's time limit), another from ``scipy.stats.t``."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha={alpha!r} (allowed: 0 < alpha < 1)")
    if not df > 0:
        raise ValueError(f"df={df!r} (allowed: > 0)")
    if float(df).is_integer():
        return t_critical(alpha, int(df))
    from scipy.stats import t as student      # imported on first use: scipy is heavy
    return float(student.ppf(1.0 - alpha / 2.0, df))


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k / n`` (95% by default; ``(nan, nan)``
    when n = 0). ``z``: the critical value (:func:`z_two_sided`)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # exact ends at k = 0 and k = n (the formula gives them only up to rounding)
    return (0.0 if k <= 0 else max(0.0, centre - half),
            1.0 if k >= n else min(1.0, centre + half))


def proportion_se(k: int, n: int) -> float:
    """Standard error sqrt(p (1 - p) / n) of a proportion ``k / n`` (nan when n = 0)."""
    if n <= 0:
        return math.nan
    p = k / n
    return math.sqrt(p * (1 - p) / n)


def mean_se(s: float, ss: float, n: int) -> tuple[float, float]:
    """Mean and its standard error from a sum and a sum of squares of ``n`` values
    (the unbiased sample variance, divisor n - 1; se nan when n < 2)."""
    if n <= 0:
        return (math.nan, math.nan)
    m = s / n
    if n < 2:
        return (m, math.nan)
    var = max(0.0, (ss - n * m * m) / (n - 1))
    return (m, math.sqrt(var / n))


def normal_interval(mean: float, se: float, z: float = Z95) -> tuple[float, float]:
    """``mean -/+ z se`` (nan when se is nan)."""
    return (mean - z * se, mean + z * se)


def paired_diff(s_a: float, ss_a: float, s_b: float, ss_b: float, cross: float, n: int
                ) -> tuple[float, float, float]:
    """The paired difference ``a - b`` of two measures taken on the same ``n`` samples,
    from their sums ``s``, sums of squares ``ss`` and the sum of products ``cross``:
    ``(mean, se, sum of squared differences)``. Pairing removes the common noise, so the
    se is much smaller than the unpaired one when a and b are correlated."""
    d2 = max(0.0, ss_a + ss_b - 2.0 * cross)
    m, se = mean_se(s_a - s_b, d2, n)
    return m, se, d2


# ------------------------------------------------------------------ sequential looks
FIRST_LOOK = 256          # samples at the first look
EARLY_SHARE = 0.2         # of alpha, spent on the looks before the last (the rest: the last)


@dataclass(frozen=True)
class LookPlan:
    """Honest intervals for a run that may stop early: alpha spending over a fixed
    schedule of looks (a Bonferroni group-sequential design).

    The looks are fixed before any data is seen: at ``first`` samples, then at every
    doubling (``first * 2**j``), and at ``samples``. Look ``k`` gets its own share
    ``alpha_k`` of ``alpha`` (``sum(alpha_k) = alpha``): the last look ``(1 - early_share)
    alpha``, the others ``early_share * alpha`` in equal parts. At look ``k`` every interval
    uses the critical value ``z_k = z_two_sided(alpha_k)``. By the union bound, the chance
    that *any* look's interval misses its true value is at most ``alpha``, so an interval
    reported at whatever look the run stops at (however the stop was decided: separated,
    equivalent, out of time, Ctrl-C) covers with probability at least ``1 - alpha``, and a
    verdict read off it ("separated", "no practical difference") is wrong with probability
    at most ``alpha``. A run that stops between two looks (out of time) uses the share of
    the next look, which is then never taken.

    Without early stopping (``early=False``) there is one look, wherever the run ends,
    and ``z = z_two_sided(alpha)`` (1.96): the classic fixed-sample interval.

    Why this rule: the looks are few (about log2(samples / 256) + 1: 8 for 20,000), so a
    union bound costs little; it needs no variance bound or asymptotics beyond the
    per-look interval's own (normal for means, Wilson for proportions); and spending most
    of alpha on the last look keeps a run that goes to the end within a few percent of the
    fixed-sample width (z 2.05 instead of 1.96), while early stops need a clear case
    (z about 3.2). Normal-mixture or betting confidence sequences would allow a look after
    every sample, which advise does not need, at a width of about 3 se everywhere.
    """

    samples: int
    early: bool = True
    alpha: float = 0.05
    first: int = FIRST_LOOK
    early_share: float = EARLY_SHARE

    @property
    def looks(self) -> tuple[int, ...]:
        """The sample counts at which the stopping rule looks (ascending, the last is
        ``samples``)."""
        if not self.early:
            return (self.samples,)
        out = []
        n = self.first
        while n < self.samples:
            out.append(n)
            n *= 2
        out.append(self.samples)
        return tuple(out)

    def index(self, n: int) -> int:
        """The index of the look a stop at ``n`` samples uses: the first look at or after
        ``n`` (without early stopping always 0)."""
        if not self.early:
            return 0
        for k, m in enumerate(self.looks):
            if n <= m:
                return k
        return len(self.looks) - 1

    def alpha_at(self, k: int) -> float:
        """The share of alpha spent at look ``k``."""
        looks = self.looks
        if len(looks) == 1:
            return self.alpha
        if k == len(looks) - 1:
            return self.alpha * (1.0 - self.early_share)
        return self.alpha * self.early_share / (len(looks) - 1)

    def z_at(self, n: int) -> float:
        """The critical value of every interval reported after ``n`` samples."""
        return z_two_sided(self.alpha_at(self.index(n)))

    def t_at(self, n: int) -> float:
        """The critical value of a mean of ``n`` independent samples whose standard error
        is estimated from them, reported after ``n`` samples: Student's t with ``n - 1``
        degrees of freedom at the same share of alpha as :meth:`z_at` (the share of the
        first look at or after ``n``; nan below 2 samples). A run stopped after a few
        samples (a match interrupted after a few rounds) needs it: with 4 samples z 1.96
        covers 85% only, t 3.18 covers 95% (normal samples); for hundreds of samples the
        two agree to 2 digits."""
        if n < 2:
            return math.nan
        return t_two_sided(self.alpha_at(self.index(n)), n - 1)

    def critical(self, n: int) -> float:
        """The critical value of the intervals reported after ``n`` samples: Student's t
        (:meth:`t_at`) before the first look, where a run stops only when its time,
        its samples or Ctrl-C end it (with 12 deals z would cover about 92%, not 95%),
        the normal :meth:`z_at` from the first look on (256 samples: t would be at
        most 1.1% wider) and for fewer than 2 samples (no spread to estimate)."""
        if 2 <= n < self.first:
            return self.t_at(n)
        return self.z_at(n)

    def said(self, n: int) -> str:
        """:meth:`critical` as the output says it: ``t 2.20, 12 samples`` or ``z 1.96``."""
        c = self.critical(n)
        return f"t {c:.2f}, {n} samples" if 2 <= n < self.first else f"z {c:.2f}"

    def is_look(self, n: int) -> bool:
        return n in self.looks

    def describe(self, n: int) -> str:
        """One line: what kind of interval a stop at ``n`` samples reports."""
        crit = self.said(n)
        if not self.early:
            return f"95% intervals: fixed sample size ({crit})"
        k = self.index(n)
        return (f"95% intervals valid under early stopping: look {k + 1} of "
                f"{len(self.looks)} planned, {crit}")


VERDICTS = ("separated", "no practical difference", "not separated")


def verdict(lo: float, hi: float, margin: float) -> str:
    """What an interval ``[lo, hi]`` of a difference ``a - b`` says:

    ``no practical difference`` when it lies inside ``(-margin, margin)`` (whichever is
    nominally ahead, the two are within the practical margin), else ``separated`` when
    it excludes 0 (``a`` is better when ``lo > 0``), else ``not separated``.
    """
    if math.isnan(lo) or math.isnan(hi):
        return "not separated"
    if margin > 0 and -margin < lo and hi < margin:
        return "no practical difference"
    if lo > 0 or hi < 0:
        return "separated"
    return "not separated"


def json_number(x: Any, digits: int | None = None) -> float | None:
    """A JSON number: ``x`` as a float (rounded to ``digits`` when given), or None (null)
    for a number that is not defined (None, nan, inf)."""
    if x is None:
        return None
    v = float(x)
    if not math.isfinite(v):
        return None
    return v if digits is None else round(v, digits)


# ------------------------------------------------------------------------ running sums
class CandidateSums:
    """Streamed sums of ``advise``: per candidate and measure, and the objective's cross
    products (for the paired differences between candidates)."""

    def __init__(self, n_cand: int, names: Sequence[str], objective: str) -> None:
        self.names = list(names)
        self.n = 0
        self.s1 = {k: np.zeros(n_cand) for k in names}
        self.s2 = {k: np.zeros(n_cand) for k in names}
        self.objective = objective
        self.cross = np.zeros((n_cand, n_cand))
        #: per candidate, the samples in which it is a best card (objective within 1e-9
        #: of the sample's best)
        self.best_count = np.zeros(n_cand)
        #: the objective's proven bounds beside these sums (:class:`BoundedSums`; double-
        #: dummy advice, where a solve may stop with bounds), else None
        self.bounds: BoundedSums | None = None
        #: the values the objective can take in one sample, ``(lo, hi)``, or None: the
        #: intervals of its means and paired differences are clipped to what they allow
        #: (:func:`widened`)
        self.value_range: tuple[float, float] | None = None

    def add(self, meas: dict[str, np.ndarray]) -> None:
        for k in self.names:
            x = meas[k]
            self.s1[k] += x.sum(axis=0)
            self.s2[k] += (x * x).sum(axis=0)
        x = meas[self.objective]
        self.cross += x.T @ x
        self.best_count += (x >= x.max(axis=1, keepdims=True) - 1e-9).sum(axis=0)
        self.n += x.shape[0]

    def mean_se(self, k: str, j: int) -> tuple[float, float]:
        return mean_se(float(self.s1[k][j]), float(self.s2[k][j]), self.n)

    def pair(self, a: int, b: int) -> tuple[float, float, float]:
        """Mean of the paired difference ``objective[a] - objective[b]``, its standard
        error, and the sum of squared differences."""
        k = self.objective
        return paired_diff(float(self.s1[k][a]), float(self.s2[k][a]), float(self.s1[k][b]),
                           float(self.s2[k][b]), float(self.cross[a, b]), self.n)


def weighted_se(w1: Any, w2: Any, sx: Any, s2x: Any, s2xx: Any) -> tuple[Any, Any]:
    """A self-normalised weighted mean and its standard error from streamed sums:
    ``w1 = sum w``, ``w2 = sum w^2``, ``sx = sum w x``, ``s2x = sum w^2 x``,
    ``s2xx = sum w^2 x^2`` (floats or arrays). The delta method's variance
    ``sum w_i^2 (x_i - mean)^2 / (sum w)^2``, times ``w1^2 / (w1^2 - w2)`` (with equal
    weights ``n / (n - 1)``: then exactly :func:`catchten_sim.aggregate.mean_se`). The
    standard error is nan while the effective size is 1 or less."""
    w1 = np.asarray(w1, dtype=np.float64)
    w2 = np.asarray(w2, dtype=np.float64)
    mean = np.asarray(sx, dtype=np.float64) / w1
    raw = np.maximum(0.0, s2xx - 2.0 * mean * s2x + mean * mean * w2)
    denom = w1 * w1 - w2
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.where(denom > 0, np.sqrt(raw / np.where(denom > 0, denom, 1.0)), np.nan)
    return mean, se



class WeightedCandidateSums:
    """:class:`CandidateSums` with a weight per sample (the importance weights of
    :mod:`catchten_sim.inference`): self-normalised means and paired differences
    (:func:`weighted_se`). The same interface (``add`` takes the weights too): ``n``
    counts the samples, ``s1[k] / n`` is the weighted mean and ``best_count / n`` the
    weighted share of samples where a card is best; ``ess`` is the effective size."""

    def __init__(self, n_cand: int, names: Sequence[str], objective: str) -> None:
        self.names = list(names)
        self.objective = objective
        self.n = 0
        self.w1 = 0.0
        self.w2 = 0.0
        z = np.zeros
        self.sx = {k: z(n_cand) for k in names}
        self.s2x = {k: z(n_cand) for k in names}
        self.s2xx = {k: z(n_cand) for k in names}
        self.cross2 = z((n_cand, n_cand))
        #: per candidate, the weight of the samples in which it is a best card
        self.best_weight = z(n_cand)
        self.bounds: BoundedSums | None = None     # as CandidateSums.bounds
        self.value_range: tuple[float, float] | None = None     # as CandidateSums'

    def add(self, meas: dict[str, np.ndarray], w: np.ndarray) -> None:
        w = np.asarray(w, dtype=np.float64)
        wc = w[:, None]
        for k in self.names:
            x = meas[k]
            self.sx[k] += (wc * x).sum(axis=0)
            self.s2x[k] += (wc * wc * x).sum(axis=0)
            self.s2xx[k] += (wc * wc * x * x).sum(axis=0)
        x = meas[self.objective]
        self.cross2 += (wc * wc * x).T @ x
        self.best_weight += (wc * (x >= x.max(axis=1, keepdims=True) - 1e-9)).sum(axis=0)
        self.n += x.shape[0]
        self.w1 += float(w.sum())
        self.w2 += float((w * w).sum())

    @property
    def ess(self) -> float:
        return self.w1 * self.w1 / self.w2 if self.w2 > 0 else 0.0

    @property
    def s1(self) -> dict[str, np.ndarray]:
        """``n`` times the weighted means (so that ``s1[k] / n`` is the mean)."""
        f = self.n / self.w1 if self.w1 > 0 else 0.0
        return {k: v * f for k, v in self.sx.items()}

    @property
    def best_count(self) -> np.ndarray:
        """``n`` times the weighted share of samples in which a card is best."""
        return self.best_weight * (self.n / self.w1 if self.w1 > 0 else 0.0)

    def mean_se(self, k: str, j: int) -> tuple[float, float]:
        if self.w1 <= 0:
            return (math.nan, math.nan)
        m, se = weighted_se(self.w1, self.w2, self.sx[k][j], self.s2x[k][j],
                            self.s2xx[k][j])
        return float(m), float(se)

    def pair(self, a: int, b: int) -> tuple[float, float, float]:
        """The weighted mean of ``objective[a] - objective[b]``, its standard error, and
        the weighted sum ``sum w^2 d^2``."""
        k = self.objective
        if self.w1 <= 0:
            return (math.nan, math.nan, 0.0)
        d2 = max(0.0, float(self.s2xx[k][a] + self.s2xx[k][b] - 2.0 * self.cross2[a, b]))
        m, se = weighted_se(self.w1, self.w2, self.sx[k][a] - self.sx[k][b],
                            self.s2x[k][a] - self.s2x[k][b], d2)
        return float(m), float(se), d2


#: the running sums of ``advise``: plain, or with a weight per sample
AnySums = Union[CandidateSums, WeightedCandidateSums]   # noqa: UP007 (a runtime alias)


class BoundedSums:
    """The running sums of a measure known on some samples only within proven bounds
    (a double-dummy solve stopped by its node budget or the clock): per sample and
    candidate the bounds' midpoint and half-width (0 when exact), side by side in one
    :class:`CandidateSums` (``2 n_cand`` columns, weighted or not, with their cross
    products).

    The widened interval of a mean (or of a paired difference ``a - b``, whose bounds are
    ``low a - high b`` and ``high a - low b``) runs from the mean with every value at its
    lower bound minus ``z se_max`` to the mean at the upper bounds plus ``z se_max``, where
    ``se_max`` bounds the standard error whatever the exact values within the bounds are:
    by the triangle inequality the spread of the values about their mean is at most that
    of the midpoints plus the root sum of squared half-widths (weighted: plus the weighted
    mean half-width's share). So the widened interval contains the interval the exact
    values would give on the same samples, and keeps its coverage."""

    def __init__(self, n_cand: int, weighted: bool = False,
                 alike: frozenset[tuple[int, int]] = frozenset()) -> None:
        self.k = n_cand
        self.weighted = weighted
        #: pairs ``(a, b)``, ``a < b``, of candidates known to have one value on every
        #: sample (the solver's equivalent cards): tied even on bounded samples
        self.alike = alike
        self.x: AnySums = (WeightedCandidateSums if weighted else CandidateSums)(
            2 * n_cand, ["v"], "v")
        #: samples with at least one candidate known within bounds only
        self.n_bounded = 0

    def add(self, lo: np.ndarray, hi: np.ndarray, w: np.ndarray | None = None) -> None:
        meas = {"v": np.concatenate([(lo + hi) / 2, (hi - lo) / 2], axis=1)}
        if w is None:
            self.x.add(meas)                               # type: ignore[call-arg]
        else:
            self.x.add(meas, w)                            # type: ignore[call-arg]
        self.n_bounded += int((lo != hi).any(axis=1).sum())

    def _halfwidth(self, cols: list[int]) -> tuple[float, float]:
        """The mean half-width of the sum of ``cols``' values (a card, or a difference of
        two: its half-width is the sum of theirs) and the standard error ``se_max`` adds to
        the midpoints' for it."""
        x = self.x
        hw = [self.k + c for c in cols]
        if isinstance(x, WeightedCandidateSums):
            s1 = sum(float(x.sx["v"][c]) for c in hw)
            s2 = sum(float(x.s2xx["v"][c]) for c in hw) + (
                2.0 * float(x.cross2[hw[0], hw[1]]) if len(hw) == 2 else 0.0)
            denom = x.w1 * x.w1 - x.w2
            if x.w1 <= 0 or denom <= 0:
                return math.nan, math.nan
            mean = s1 / x.w1
            return mean, (math.sqrt(max(s2, 0.0)) + math.sqrt(x.w2) * mean) / math.sqrt(denom)
        s1 = sum(float(x.s1["v"][c]) for c in hw)
        s2 = sum(float(x.s2["v"][c]) for c in hw) + (
            2.0 * float(x.cross[hw[0], hw[1]]) if len(hw) == 2 else 0.0)
        n = x.n
        if n < 2:
            return (s1 / n if n else math.nan), math.nan
        return s1 / n, math.sqrt(max(s2, 0.0) / (n * (n - 1)))

    @staticmethod
    def _span(m: float, se: float, hw: float, extra: float, z: float
              ) -> tuple[float, float, float, float]:
        if z == 0:                      # exact: no sampling error, the bounds only
            return m - hw, m + hw, m - hw, m + hw
        se_max = se + extra
        return m - hw, m + hw, m - hw - z * se_max, m + hw + z * se_max

    def mean(self, j: int, z: float) -> tuple[float, float, float, float]:
        """Candidate ``j``'s ``(mean at the lower bounds, mean at the upper bounds, lower
        end, upper end)`` of the widened interval (critical value ``z``)."""
        m, se = self.x.mean_se("v", j)
        return self._span(m, se, *self._halfwidth([j]), z)

    def pair(self, a: int, b: int, z: float) -> tuple[float, float, float, float]:
        """The same for the paired difference ``a - b``."""
        m, se, _ = self.x.pair(a, b)
        return self._span(m, se, *self._halfwidth([a, b]), z)

    def tied(self, a: int, b: int) -> bool:
        """True when ``a`` and ``b`` are proven equal on every sample: both exact, or a
        pair known :attr:`alike` whose bounds were the same on every sample (their sums
        equal: nothing here tells them apart)."""
        if (min(a, b), max(a, b)) in self.alike:
            sums = self.x.sx if isinstance(self.x, WeightedCandidateSums) else self.x.s1
            v = sums["v"]
            return bool(v[a] == v[b] and v[self.k + a] == v[self.k + b])
        return self.x.pair(a, b)[2] <= 1e-9 and self._halfwidth([a, b])[0] == 0


@dataclass
class RoundSums:
    """Running sums of ``match`` over rounds: x per seating, the duplicate d, the estimate
    y, win share."""

    k: int
    n: int = 0
    sx: np.ndarray = field(init=False)
    ssx: np.ndarray = field(init=False)
    s: dict = field(init=False)

    def __post_init__(self) -> None:
        self.sx = np.zeros(self.k)
        self.ssx = np.zeros(self.k)
        self.s = {name: [0.0, 0.0] for name in ("d", "y", "w")}

    def add(self, x: np.ndarray, y: np.ndarray, w: np.ndarray) -> None:
        """``x`` (rounds, K) per-seating round values, ``y`` (rounds,) the estimate,
        ``w`` (rounds,) A's win share."""
        self.n += x.shape[0]
        self.sx += x.sum(axis=0)
        self.ssx += (x * x).sum(axis=0)
        d = x.mean(axis=1)
        for name, v in (("d", d), ("y", y), ("w", w)):
            self.s[name][0] += float(v.sum())
            self.s[name][1] += float((v * v).sum())

    def mean_se(self, name: str) -> tuple[float, float]:
        return mean_se(self.s[name][0], self.s[name][1], self.n)

    def se_plain(self) -> float:
        ses = [mean_se(float(self.sx[j]), float(self.ssx[j]), self.n)[1] for j in range(self.k)]
        return math.sqrt(sum(s * s for s in ses) / len(ses))


@dataclass
class OutcomeAccumulator:
    """Integer sums over simulated deals; ``add(chunk)`` then read the summaries.

    Parameters
    ----------
    n_players : int
    side_of_seat : ndarray int64 (n,)
    """

    n_players: int
    side_of_seat: np.ndarray
    n_deals: int = 0
    fate: Any = field(default=None)            # (4,) deals by the Ten's fate
    sums: Any = field(default=None)            # (n_pos, n_fields) int64
    sumsq: Any = field(default=None)
    adv_sum: Any = field(default=None)         # (n_pos,) sum of n*(total_p - mean)
    adv_sumsq: Any = field(default=None)
    side_sums: Any = field(default=None)       # (n_sides,) totals by side
    side_sumsq: Any = field(default=None)
    side_count: int = 0
    hist_total: Any = field(default=None)      # (n_pos, MAX_POINTS)
    hist_honours: Any = field(default=None)
    hist_card_points: Any = field(default=None)
    fate_by_holder: Any = field(default=None)  # (n_pos + 1, MAX_TRUMPS, 4)
    holding_count: Any = field(default=None)   # (MAX_POINTS,) by side honours dealt
    holding_sum: Any = field(default=None)
    holding_sumsq: Any = field(default=None)
    convergence: list = field(default_factory=list)   # (deals, caught, in_play)

    def __post_init__(self) -> None:
        ns = int(self.side_of_seat.max()) + 1
        # every array is a view of one flat int64 array (acc_layout), so that the kernel's
        # per-thread partial sums fold in with one addition (add_flat)
        self.offsets, shapes = acc_layout(self.n_players, ns)
        self.flat = np.zeros(int(self.offsets[K.A_NOFF]), np.int64)

        def view(a: int) -> np.ndarray:
            o = int(self.offsets[a])
            return self.flat[o:o + int(np.prod(shapes[a]))].reshape(shapes[a])

        self.fate = view(K.A_FATE)
        self.sums = view(K.A_SUMS)
        self.sumsq = view(K.A_SUMSQ)
        self.adv_sum = view(K.A_ADV)
        self.adv_sumsq = view(K.A_ADVSQ)
        self.side_sums = view(K.A_SIDE)
        self.side_sumsq = view(K.A_SIDESQ)
        self.hist_total = view(K.A_HTOT)
        self.hist_honours = view(K.A_HHON)
        self.hist_card_points = view(K.A_HCP)
        self.fate_by_holder = view(K.A_FBH)
        self.holding_count = view(K.A_HOLDN)
        self.holding_sum = view(K.A_HOLDS)
        self.holding_sumsq = view(K.A_HOLDSS)

    def new_part(self) -> np.ndarray:
        """A zeroed flat array of this accumulator's layout, for a kernel to fold into
        (on its own cache lines: each thread folds into its own part)."""
        return K.padded_zeros([self.flat.shape])[0]

    def add_flat(self, part: np.ndarray) -> None:
        """Fold a kernel's flat partial sums (``engine.run_chunk``'s ``acc``) covering the
        next deals in order; records a convergence point at their end."""
        m = int(part[self.offsets[K.A_NDEALS]])
        if m == 0:
            return
        self.flat += part
        self.n_deals += m
        self.side_count += m
        point = (self.n_deals, int(self.fate[K.FATE_CAUGHT]),
                 int(self.fate[K.FATE_SAVED] + self.fate[K.FATE_CAUGHT]))
        if not self.convergence or self.convergence[-1][0] != point[0]:
            self.convergence.append(point)

    def column(self, out: np.ndarray, pos: int, f: int) -> np.ndarray:
        return out[:, K.N_FIXED + pos * K.N_PER_POS + f].astype(np.int64)

    def add(self, out: np.ndarray) -> None:
        """Fold a chunk of outcome rows (int16, shape (m, N_FIXED + n * N_PER_POS))."""
        m = out.shape[0]
        if m == 0:
            return
        n = self.n_players
        fate = out[:, K.C_TEN_FATE].astype(np.int64)
        # convergence checkpoints at powers of two inside the chunk, and at its end
        caught = np.cumsum(fate == K.FATE_CAUGHT)
        inplay = np.cumsum(fate <= K.FATE_CAUGHT)
        marks = [2 ** k for k in range(4, 40) if self.n_deals < 2 ** k <= self.n_deals + m]
        base_c = self.fate[K.FATE_CAUGHT]
        base_i = self.fate[K.FATE_SAVED] + self.fate[K.FATE_CAUGHT]
        for mk in marks + [self.n_deals + m]:
            j = mk - self.n_deals - 1
            self.convergence.append((mk, int(base_c + caught[j]), int(base_i + inplay[j])))
        self.fate += np.bincount(fate, minlength=4)[:4]
        totals = np.empty((m, n), np.int64)
        for p in range(n):
            for j, f in enumerate(FIELDS.values()):
                col = self.column(out, p, f)
                self.sums[p, j] += col.sum()
                self.sumsq[p, j] += (col * col).sum()
            totals[:, p] = self.column(out, p, K.F_TOTAL)
            self.hist_total[p] += np.bincount(np.clip(totals[:, p], 0, MAX_POINTS - 1),
                                              minlength=MAX_POINTS)
            self.hist_honours[p] += np.bincount(
                np.clip(self.column(out, p, K.F_HONOURS), 0, MAX_POINTS - 1), minlength=MAX_POINTS)
            self.hist_card_points[p] += np.bincount(
                np.clip(self.column(out, p, K.F_CARD_POINTS), 0, MAX_POINTS - 1),
                minlength=MAX_POINTS)
        # seat advantage: n * total_p - sum_q total_q (kept integral), per deal
        row_sum = totals.sum(axis=1)
        for p in range(n):
            d = n * totals[:, p] - row_sum
            self.adv_sum[p] += d.sum()
            self.adv_sumsq[p] += (d * d).sum()
        # totals by side (seat numbers, not positions): seat at position p is dealer+p+1
        dealer = out[:, K.C_DEALER].astype(np.int64)
        ns = len(self.side_sums)
        first_pos = np.full((m, ns), -1, np.int64)
        for p in range(n - 1, -1, -1):
            side = self.side_of_seat[(dealer + p + 1) % n]
            first_pos[np.arange(m), side] = p
        for s_ in range(ns):
            t = totals[np.arange(m), first_pos[:, s_]]
            self.side_sums[s_] += t.sum()
            self.side_sumsq[s_] += (t * t).sum()
        self.side_count += m
        # the Ten's fate by its holder's position and trumps dealt to the holder
        holder = out[:, K.C_TEN_HOLDER].astype(np.int64)
        htr = np.clip(out[:, K.C_HOLDER_TRUMPS].astype(np.int64), 0, MAX_TRUMPS - 1)
        flat = (holder * MAX_TRUMPS + htr) * 4 + fate
        self.fate_by_holder += np.bincount(flat, minlength=self.fate_by_holder.size).reshape(
            self.fate_by_holder.shape)
        # value of a holding: a side's hand points by the honour points it was dealt,
        # each side once per deal (at its first position)
        for s_ in range(ns):
            p_first = first_pos[:, s_]
            dealt = np.clip(out[np.arange(m), K.N_FIXED + p_first * K.N_PER_POS
                                + K.F_HONOURS_DEALT].astype(np.int64), 0, MAX_POINTS - 1)
            tot = totals[np.arange(m), p_first]
            self.holding_count += np.bincount(dealt, minlength=MAX_POINTS)
            self.holding_sum += np.bincount(dealt, weights=tot,
                                            minlength=MAX_POINTS).astype(np.int64)
            self.holding_sumsq += np.bincount(dealt, weights=tot * tot,
                                              minlength=MAX_POINTS).astype(np.int64)
        self.flat[self.offsets[K.A_NDEALS]] += m
        self.n_deals += m

    # ------------------------------------------------------------------ summaries
    def ten_summary(self) -> dict:
        """The Ten's fate: counts, P(caught | in play) with its Wilson interval."""
        saved, caught, dead, nt = (int(x) for x in self.fate)
        in_play = saved + caught
        p = caught / in_play if in_play else math.nan
        return {"in_play": in_play, "dead": dead, "no_trumps": nt, "caught": caught,
                "saved": saved, "p_caught": p, "wilson95": list(wilson(caught, in_play)),
                "p_saved": (saved / in_play if in_play else math.nan)}

    def positions_frame(self) -> pandas.DataFrame:
        """:meth:`positions_rows` as a frame indexed by position."""
        return pd.DataFrame(self.positions_rows()).set_index("position")

    def positions_rows(self) -> list[dict]:
        """One row per position (1 = eldest … n = dealer) for the side holding that seat.

        Columns ``<field>_mean`` and ``<field>_se`` for honours, cards_taken, card_points,
        total, side_tricks, seat_tricks (points, cards, tricks per deal), and the seat
        advantage ``advantage_mean``/``advantage_se``/``advantage_lo``/``advantage_hi``:
        the position's mean total minus the mean over positions (points per deal).
        """
        n = self.n_players
        rows = []
        for p in range(n):
            row: dict[str, float] = {"position": p + 1}
            for j, name in enumerate(FIELDS):
                row[f"{name}_mean"], row[f"{name}_se"] = mean_se(
                    float(self.sums[p, j]), float(self.sumsq[p, j]), self.n_deals)
            m, se = mean_se(float(self.adv_sum[p]), float(self.adv_sumsq[p]), self.n_deals)
            row["advantage_mean"], row["advantage_se"] = m / n, se / n
            row["advantage_lo"], row["advantage_hi"] = normal_interval(
                row["advantage_mean"], row["advantage_se"])
            rows.append(row)
        return rows

    def sides_frame(self) -> pandas.DataFrame:
        """:meth:`sides_rows` as a frame indexed by side."""
        return pd.DataFrame(self.sides_rows()).set_index("side")

    def sides_rows(self) -> list[dict]:
        """Mean hand total per side (by seat numbers, side 0 holds seat 0), with its se."""
        rows = []
        for s in range(len(self.side_sums)):
            m, se = mean_se(float(self.side_sums[s]), float(self.side_sumsq[s]),
                            self.side_count)
            rows.append({"side": s, "total_mean": m, "total_se": se})
        return rows

    def points_distribution(self) -> pandas.DataFrame:
        """Tidy distribution of a side's hand points: position, points, kind, deals."""
        frames = []
        for kind, h in (("total", self.hist_total), ("honours", self.hist_honours),
                        ("card_points", self.hist_card_points)):
            for p in range(self.n_players):
                nz = np.nonzero(h[p])[0]
                frames.append(pd.DataFrame({"position": p + 1, "kind": kind, "points": nz,
                                            "deals": h[p, nz]}))
        return pd.concat(frames, ignore_index=True)

    def fate_by_holder_frame(self) -> pandas.DataFrame:
        """Deals by the Ten holder's position and trumps dealt to the holder, and fate."""
        rows = []
        for pos in range(1, self.n_players + 1):
            for t in range(MAX_TRUMPS):
                c = self.fate_by_holder[pos, t]
                tot = int(c[0] + c[1])
                if tot:
                    lo, hi = wilson(int(c[1]), tot)
                    rows.append({"holder_position": pos, "holder_trumps": t, "deals": tot,
                                 "caught": int(c[1]), "p_caught": c[1] / tot,
                                 "lo": lo, "hi": hi})
        return pd.DataFrame(rows, columns=["holder_position", "holder_trumps", "deals",
                                           "caught", "p_caught", "lo", "hi"])

    def holding_frame(self) -> pandas.DataFrame:
        """A side's mean hand points by the honour points its players were dealt (each
        side counted once per deal)."""
        rows = []
        for v in np.nonzero(self.holding_count)[0]:
            m, se = mean_se(float(self.holding_sum[v]), float(self.holding_sumsq[v]),
                            int(self.holding_count[v]))
            rows.append({"honours_dealt": int(v), "sides": int(self.holding_count[v]),
                         "total_mean": m, "total_se": se})
        return pd.DataFrame(rows, columns=["honours_dealt", "sides", "total_mean", "total_se"])

    def convergence_frame(self) -> pandas.DataFrame:
        """Running P(Ten caught) against deals, with Wilson bounds."""
        rows = []
        for deals, c, i in self.convergence:
            lo, hi = wilson(c, i)
            rows.append({"deals": deals, "caught": c, "in_play": i,
                         "p_caught": c / i if i else math.nan, "lo": lo, "hi": hi})
        return pd.DataFrame(rows, columns=["deals", "caught", "in_play", "p_caught", "lo", "hi"])


# ------------------------------------------------------------------------ estimates
@dataclass(frozen=True)
class Estimate:
    """A mean (or proportion) with its 95% interval and sample size."""

    mean: float
    lo: float
    hi: float
    n: int
    se: float = math.nan
    #: with bounded deals (dd): the mean with every bounded value at its lower bound and
    #: at its upper bound; ``lo``/``hi`` then span both intervals (``mean``: midpoints)
    bounds: tuple[float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"mean": json_number(self.mean, 4),
                "ci95": [json_number(self.lo, 4), json_number(self.hi, 4)], "n": int(self.n),
                **({"se": json_number(self.se, 4)} if not math.isnan(self.se) else {}),
                **({"mean_bounds": [json_number(x, 4) for x in self.bounds]}
                   if self.bounds is not None else {})}

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ({self.lo:+.2f} to {self.hi:+.2f})"


def mean_estimate(m: float, se: float, n: int, z: float = Z95) -> Estimate:
    """``m`` with its interval ``m -/+ z se``; ``z = 0`` marks an exact answer (every
    consistent deal, no random play): the interval is ``[m, m]`` and ``se`` 0."""
    if z == 0:
        return Estimate(m, m, m, n, 0.0)
    if math.isnan(se):
        return Estimate(m, math.nan, math.nan, n, se)
    lo, hi = normal_interval(m, se, z)
    return Estimate(m, lo, hi, n, se)


def pair_estimate(acc: AnySums, a: int, b: int, z: float) -> Estimate:
    """The paired difference ``a - b`` of the objective, widened by the bounded deals."""
    d, se, _ = acc.pair(a, b)
    return widened(mean_estimate(d, se, acc.n, z), acc, z, a, b)


def widened(est: Estimate, acc: AnySums, z: float, a: int, b: int | None = None
             ) -> Estimate:
    """``est`` (of the objective: card ``a``, or ``a - b``) widened to the union of its
    intervals with every bounded value at its lower and at its upper bound
    (:class:`~catchten_sim.aggregate.BoundedSums`; unchanged when no deal is bounded), then
    clipped to what the objective can take (``acc.value_range``: a card's mean within it, a
    difference within ``lo - hi .. hi - lo``)."""
    bs = acc.bounds
    if bs is not None and bs.n_bounded:
        m_lo, m_hi, lo, hi = bs.mean(a, z) if b is None else bs.pair(a, b, z)
        est = replace(est, lo=min(lo, est.lo), hi=max(hi, est.hi), bounds=(m_lo, m_hi))
    vr = getattr(acc, "value_range", None)
    if vr is None or math.isnan(est.lo):
        return est
    # the mean lies within what one sample can take: clipping keeps the coverage
    lo, hi = vr if b is None else (vr[0] - vr[1], vr[1] - vr[0])
    return replace(est, lo=min(max(est.lo, lo), hi), hi=max(min(est.hi, hi), lo))
