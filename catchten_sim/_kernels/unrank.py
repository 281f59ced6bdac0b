"""Enumerate every deal consistent with an information set, one by one, by rank.

The sampler (:mod:`.sampler`) counts the ways to place the hidden cards; this kernel turns
a number ``i`` in ``[0, N)`` into the ``i``-th of those ``N`` deals (unranking), so that
``i = 0 … N-1`` visits each consistent deal exactly once, in batches of any size and on
any number of threads. The order: the rank splits into ``i = r_ways * split + r_split``;
``r_ways`` walks the suits as the sampler's draw does (the split of the suit among the
classes of hidden hands in the sampler's odometer order, then the arrangement of the
suit's cards over those counts), ``r_split`` (mixed radix over the classes) picks how each
class's cards are shared among its hands (buckets).

Integer arithmetic throughout: the caller only enumerates when ``N`` is small (far below
2**53), so every count met on the way fits an int64 exactly.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT, lowest_index, popcount
from .sampler import next_suit_split


@njit(inline="always", **JIT)
def _multinomial(y, n_items):
    """``(sum y)! / prod(y!)`` over the first ``n_items`` entries of ``y`` (int64)."""
    total = 0
    out = np.int64(1)
    for c in range(n_items):
        for i in range(y[c]):
            total += 1
            out = out * total // (i + 1)
    return out


@njit(inline="always", **JIT)
def _unrank_arrangement(a, cards, n_cards, y, n_items, dest, dest_n):
    """Hand ``cards[:n_cards]`` (ascending) out to ``n_items`` places with counts ``y``
    (consumed), as the ``a``-th arrangement in lexicographic order of the place of each
    card; ``dest[place, dest_n[place]]`` gets the cards."""
    for j in range(n_cards):
        for c in range(n_items):
            if y[c] == 0:
                continue
            y[c] -= 1
            cnt = _multinomial(y, n_items)
            if a < cnt:
                dest[c, dest_n[c]] = cards[j]
                dest_n[c] += 1
                break
            a -= cnt
            y[c] += 1


@njit(**JIT)
def unrank_hidden(pool, b_size, b_class, cls_cap, cls_void, ways, radix, start, out):
    """Fill ``out[i]`` with the hidden cards of each bucket in deal number ``start + i``.

    Parameters
    ----------
    pool : int64, mask of the hidden cards.
    b_size, b_class : int64 (B,), cards to draw per bucket and its class (of buckets with
        the same void suits).
    cls_cap, cls_void : int64 (C,), cards per class and its 4-bit void-suit mask.
    ways, radix : the count table of :func:`.sampler.class_table` (values below 2**53).
    start : int64, rank of the first deal (``0 <= start``, ``start + len(out) <= N``).
    out : int64 (m, B) filled: per deal, the mask of hidden cards of each bucket.
    """
    n_b = b_size.shape[0]
    n_cls = cls_cap.shape[0]
    x = np.zeros(n_cls, dtype=np.int64)
    y = np.zeros(max(n_cls, n_b), dtype=np.int64)
    rem = np.zeros(n_cls, dtype=np.int64)
    cls_cards = np.zeros((n_cls, 52), dtype=np.int64)
    cls_n = np.zeros(n_cls, dtype=np.int64)
    suit_cards = np.zeros(13, dtype=np.int64)
    bk_cards = np.zeros((n_b, 52), dtype=np.int64)
    bk_n = np.zeros(n_b, dtype=np.int64)
    b_idx = np.zeros(n_b, dtype=np.int64)
    # ways of sharing each class's cards among its buckets (mixed radix of r_split)
    split_c = np.ones(n_cls, dtype=np.int64)
    for c in range(n_cls):
        k = 0
        for b in range(n_b):
            if b_class[b] == c:
                y[k] = b_size[b]
                k += 1
        split_c[c] = _multinomial(y, k)
    split = np.int64(1)
    for c in range(n_cls):
        split *= split_c[c]
    st0 = np.int64(0)
    for c in range(n_cls):
        st0 += cls_cap[c] * radix[c]
    for i in range(out.shape[0]):
        rank = start + i
        r = rank // split
        r_split = rank - r * split
        st = st0
        for c in range(n_cls):
            rem[c] = cls_cap[c]
            cls_n[c] = 0
        for s in range(4):
            m = (pool >> np.int64(13 * s)) & np.int64(0x1FFF)
            k = popcount(m)
            if k == 0:
                continue
            # the split x of the suit's k cards among the classes (the sampler's order)
            a = np.int64(-1)
            nxt = next_suit_split(x, rem, k, cls_void, s, n_cls, radix, st, True)
            while nxt >= 0:
                wnext = np.int64(ways[s + 1, nxt])
                if wnext > 0:
                    for c in range(n_cls):
                        y[c] = x[c]
                    mult = _multinomial(y, n_cls)
                    w = mult * wnext
                    if r < w:
                        a = r // wnext
                        r -= a * wnext
                        st = nxt
                        break
                    r -= w
                nxt = next_suit_split(x, rem, k, cls_void, s, n_cls, radix, st, False)
            j = 0
            while m != 0:
                suit_cards[j] = s * 13 + lowest_index(m)
                m &= m - 1
                j += 1
            for c in range(n_cls):
                y[c] = x[c]
                rem[c] -= x[c]
            _unrank_arrangement(a, suit_cards, k, y, n_cls, cls_cards, cls_n)
        # share each class's cards (ascending) among its buckets, in bucket order
        for c in range(n_cls):
            rc = r_split % split_c[c]
            r_split //= split_c[c]
            nb = 0
            for b in range(n_b):
                if b_class[b] == c:
                    y[nb] = b_size[b]
                    b_idx[nb] = b
                    bk_n[nb] = 0
                    nb += 1
            _unrank_arrangement(rc, cls_cards[c], cls_n[c], y, nb, bk_cards, bk_n)
            for q in range(nb):
                mm = np.int64(0)
                for j in range(bk_n[q]):
                    mm |= np.int64(1) << bk_cards[q, j]
                out[i, b_idx[q]] = mm
