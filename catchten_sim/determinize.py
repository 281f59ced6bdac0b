"""Determinization: complete a player's information set into full deals, uniformly.

``Sampler(info).sample(n, seed=...)`` returns ``n`` deals drawn uniformly among all deals
consistent with everything the player to move knows (see :mod:`catchten_sim.position`).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._kernels import sampler as KS
from ._kernels import unrank as KU
from .errors import DealNotGeneratedError
from .position import InfoSet


@dataclass
class Sampler:
    """Uniform sampler of the hidden hands of an :class:`InfoSet`.

    Raises
    ------
    DealNotGeneratedError
        No deal is consistent with the information set, or the count table would be too
        large (more than ``sampler.MAX_STATES`` states).
    """

    info: InfoSet

    def __post_init__(self) -> None:
        b = self.info.buckets()
        self.buckets = b
        self.pool = int(self.info.hidden_pool())
        sizes = [x["size"] for x in b]
        if sum(sizes) != bin(self.pool).count("1"):
            raise DealNotGeneratedError(
                "position", "inconsistent", f"{bin(self.pool).count('1')} hidden cards for "
                f"{sum(sizes)} places")
        classes: dict[int, int] = {}
        b_class = []
        for x in b:
            b_class.append(classes.setdefault(x["void_suits"], len(classes)))
        cls_void = np.array(list(classes.keys()), dtype=np.int64)
        cls_cap = np.zeros(len(classes), dtype=np.int64)
        for x, c in zip(b, b_class):
            cls_cap[c] += x["size"]
        k_suit = np.array([bin((self.pool >> (13 * s)) & 0x1FFF).count("1") for s in range(4)],
                          dtype=np.int64)
        ways, radix = KS.class_table(k_suit, cls_cap, cls_void)
        if ways.shape[1] == 0:
            raise DealNotGeneratedError("position", "too many hidden-hand constraints",
                                        f"{len(classes)} classes of hidden hands")
        st = int(sum(int(cls_cap[c]) * int(radix[c]) for c in range(len(cls_cap))))
        # ways counts assignments of cards to classes; each class splits among its
        # buckets in (capacity)! / prod(size)! ways, the same for every assignment
        from math import factorial
        split = 1
        for c in range(len(cls_cap)):
            split *= factorial(int(cls_cap[c]))
        for x in b:
            split //= factorial(x["size"])
        #: number of deals consistent with the information set (float)
        self.n_consistent = float(ways[0, st]) * split
        if self.n_consistent <= 0:
            raise DealNotGeneratedError("position", "no consistent deal",
                                        "the voids shown leave no way to place the hidden cards")
        self._args = KS.Hidden(np.array(sizes, dtype=np.int64),
                               np.array(b_class, dtype=np.int64), cls_cap, cls_void, ways, radix)

    def sample(self, n: int, *, seed: int = 1, start: int = 0) -> np.ndarray:
        """int64 (n, n_buckets): the hidden cards of each bucket (fixed cards excluded)."""
        out = np.zeros((n, len(self.buckets)), dtype=np.int64)
        KS.sample_hidden(np.int64(self.pool), self._args, np.uint64(seed), np.int64(start), out)
        return out

    @property
    def n_deals(self) -> int:
        """The number of consistent deals as an exact int (each deal counted once)."""
        return int(round(self.n_consistent))

    def can_enumerate(self, limit: int) -> bool:
        """True when the consistent deals are at most ``limit`` (and few enough to be
        numbered exactly: below 2**53)."""
        return self.n_consistent <= min(float(limit), 2.0 ** 52)

    def enumerate(self, n: int, *, start: int = 0) -> np.ndarray:
        """Deals number ``start … start + n - 1`` of the consistent deals, each deal of
        the information set exactly once over ``0 … n_deals - 1`` (in the layout of
        :meth:`sample`): exhaustive enumeration by unranking the sampler's counts.

        Raises
        ------
        ValueError
            The range leaves ``0 … n_deals - 1``, or there are too many deals to number.
        """
        if not self.can_enumerate(2 ** 52):
            raise ValueError("too many consistent deals to enumerate")
        if start < 0 or n < 0 or start + n > self.n_deals:
            raise ValueError(f"deals {start}..{start + n - 1} outside 0..{self.n_deals - 1}")
        out = np.zeros((n, len(self.buckets)), dtype=np.int64)
        KU.unrank_hidden(np.int64(self.pool), *self._args, np.int64(start), out)
        return out

    def full_hands(self, hidden: np.ndarray) -> np.ndarray:
        """Complete deals: int64 (n, n_sets, players) masks of the cards each seat holds
        now in the current set and will hold in later sets (cards already played are not
        included)."""
        info = self.info
        r = info.rules
        n = hidden.shape[0]
        hands = np.zeros((n, r.n_sets, r.players), dtype=np.int64)
        hands[:, info.set_index, info.seat] = info.my_hand
        for j, x in enumerate(self.buckets):
            hands[:, x["set"], x["seat"]] = hidden[:, j] | x["fixed"]
        return hands
