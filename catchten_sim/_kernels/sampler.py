"""Determinization: draw the hidden hands uniformly among all deals consistent with what
the player to move knows (the cards it holds, the cards played, the voids shown, the
turn-up in the dealer's hand, dead cards, how many cards each hidden hand holds).

Exact and uniform, by counting. Hidden hands ("buckets") with the same set of void suits
are merged into one class (a uniform split of a class's cards among its buckets keeps the
draw uniform). A table ``ways[s, state]`` counts the assignments of the hidden cards of
suits ``s, s+1, …`` to the classes' remaining capacities ``state`` (mixed radix). A draw
walks the suits: the number of cards of suit ``s`` each class gets is chosen with
probability proportional to ``multinomial × ways[s + 1, rest]``, then the suit's cards are
shuffled into those counts, and each class's cards are shuffled into its buckets.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .bits import JIT, lowest_index, popcount, rng_below, rng_seed, rng_uniform

MAX_STATES = 4_000_000

#: the hidden hands of a position as :func:`sample_hidden` takes them: ``b_size`` (B,)
#: cards per bucket, ``b_class`` (B,) the class of each bucket, ``cls_cap`` (C,) cards per
#: class, ``cls_void`` (C,) its 4-bit void-suit mask, ``ways``/``radix`` the class table
#: of :func:`class_table` (all int64 but ``ways``, float64)
Hidden = namedtuple("Hidden", ["b_size", "b_class", "cls_cap", "cls_void", "ways", "radix"])


@njit(**JIT)
def _fact_table():
    f = np.ones(64, dtype=np.float64)
    for i in range(1, 64):
        f[i] = f[i - 1] * i
    return f


@njit(**JIT)
def class_table(k_suit, cls_cap, cls_void):
    """``ways`` (5, n_states) float64 and the mixed-radix ``radix`` (n_classes,).

    ``k_suit`` (4,) hidden cards per suit; ``cls_cap`` (C,) capacity per class;
    ``cls_void`` (C,) 4-bit void-suit masks. Returns an empty table when the state space
    exceeds ``MAX_STATES`` (the caller then refuses).
    """
    n_cls = cls_cap.shape[0]
    radix = np.ones(n_cls, dtype=np.int64)
    n_states = 1
    for c in range(n_cls):
        radix[c] = n_states
        n_states *= cls_cap[c] + 1
        if n_states > MAX_STATES:
            return np.zeros((5, 0), dtype=np.float64), radix
    fact = _fact_table()
    ways = np.zeros((5, n_states), dtype=np.float64)
    ways[4, 0] = 1.0
    rem = np.zeros(n_cls, dtype=np.int64)
    x = np.zeros(n_cls, dtype=np.int64)
    for s in range(3, -1, -1):
        k = k_suit[s]
        for st in range(n_states):
            # decode the state
            v = st
            for c in range(n_cls - 1, -1, -1):
                rem[c] = v // radix[c]
                v -= rem[c] * radix[c]
            ways[s, st] = _sum_splits((cls_void, radix, ways, fact), s, k, rem, x, st, -1.0)
    return ways, radix


@njit(**JIT)
def _sum_splits(table, s, k, rem, x, st, target):
    """Sum (or, with ``target`` >= 0, find in ``x`` the split reaching ``target`` of) the
    weights ``k!/prod x! * ways[s+1, st - x]`` over splits ``x`` of ``k`` cards of suit
    ``s`` into the classes (in :func:`next_suit_split`'s order). ``table``: ``(cls_void,
    radix, ways, fact)`` (:func:`class_table`, :func:`_fact_table`)."""
    cls_void, radix, ways, fact = table
    n_cls = x.shape[0]
    total = 0.0
    nxt = next_suit_split(x, rem, k, cls_void, s, n_cls, radix, st, True)
    while nxt >= 0:
        w = fact[k]
        for c in range(n_cls):
            w /= fact[x[c]]
        w *= ways[s + 1, nxt]
        total += w
        if target >= 0.0 and total > target:
            return total
        nxt = next_suit_split(x, rem, k, cls_void, s, n_cls, radix, st, False)
    return total


@njit(inline="always", **JIT)
def next_suit_split(x, rem, k, cls_void, s, n_cls, radix, st, first):
    """Step the odometer ``x`` (int64 (C,)) to the next split of suit ``s``'s ``k`` cards
    among the classes: ``sum(x) == k``, each class at most its remaining capacity ``rem``
    and none in a class void in ``s`` (4-bit masks ``cls_void``).

    ``first``: start over (``x`` is reset) and stop at the first split. Returns the state
    left for the later suits, ``st - sum(x * radix)`` (>= 0), or -1 once every split has
    been visited. The order (class 0 the fastest digit) is the one the sampler's draw and
    :func:`.unrank.unrank_hidden` share.
    """
    step = not first
    if first:
        for c in range(n_cls):
            x[c] = 0
    while True:
        if step:
            # odometer step; False when it wraps round
            c = 0
            while c < n_cls:
                lim = rem[c] if rem[c] < k else k
                if (cls_void[c] >> s) & 1:
                    lim = 0
                if x[c] < lim:
                    x[c] += 1
                    break
                x[c] = 0
                c += 1
            if c == n_cls:
                return np.int64(-1)
        step = True
        ssum = 0
        for c in range(n_cls):
            ssum += x[c]
        if ssum == k:
            nxt = st
            for c in range(n_cls):
                nxt -= x[c] * radix[c]
            return nxt


@njit(**JIT)
def sample_hidden(pool, hidden, seed, start, out):
    """Draw ``out.shape[0]`` determinizations; ``out[i, b]`` = hidden cards of bucket b.

    Draw ``i`` uses the RNG stream ``(seed, start + i)``: results depend on the seed only.
    ``pool`` int64 mask of hidden cards; ``hidden`` a :data:`Hidden` (the buckets, their
    classes and the class table from :func:`class_table`).
    """
    b_size, b_class, cls_cap = hidden.b_size, hidden.b_class, hidden.cls_cap
    cls_void, ways, radix = hidden.cls_void, hidden.ways, hidden.radix
    n_b = b_size.shape[0]
    n_cls = cls_cap.shape[0]
    table = (cls_void, radix, ways, _fact_table())
    state = np.zeros(1, dtype=np.uint64)
    rem = np.zeros(n_cls, dtype=np.int64)
    x = np.zeros(n_cls, dtype=np.int64)
    cls_cards = np.zeros((n_cls, 52), dtype=np.int64)
    cls_n = np.zeros(n_cls, dtype=np.int64)
    suit_cards = np.zeros(13, dtype=np.int64)
    for i in range(out.shape[0]):
        state[0] = rng_seed(seed, start + i)
        for c in range(n_cls):
            rem[c] = cls_cap[c]
            cls_n[c] = 0
        st = np.int64(0)   # typed: a literal 0 compiled _sum_splits once more
        for c in range(n_cls):
            st += rem[c] * radix[c]
        for s in range(4):
            m = (pool >> np.int64(13 * s)) & np.int64(0x1FFF)
            k = popcount(m)
            if k == 0:
                continue
            target = rng_uniform(state) * ways[s, st]
            _sum_splits(table, s, k, rem, x, st, target)
            # shuffle the suit's cards, hand them out by x
            j = 0
            while m != 0:
                suit_cards[j] = s * 13 + lowest_index(m)
                m &= m - 1
                j += 1
            for a in range(k - 1, 0, -1):
                b = rng_below(state, a + 1)
                tmp = suit_cards[a]
                suit_cards[a] = suit_cards[b]
                suit_cards[b] = tmp
            j = 0
            for c in range(n_cls):
                for _ in range(x[c]):
                    cls_cards[c, cls_n[c]] = suit_cards[j]
                    cls_n[c] += 1
                    j += 1
                rem[c] -= x[c]
                st -= x[c] * radix[c]
        # split each class among its buckets uniformly
        for c in range(n_cls):
            nc = cls_n[c]
            for a in range(nc - 1, 0, -1):
                b = rng_below(state, a + 1)
                tmp = cls_cards[c, a]
                cls_cards[c, a] = cls_cards[c, b]
                cls_cards[c, b] = tmp
        for c in range(n_cls):
            cls_n[c] = 0
        for bk in range(n_b):
            c = b_class[bk]
            m = np.int64(0)
            for _ in range(b_size[bk]):
                m |= np.int64(1) << cls_cards[c, cls_n[c]]
                cls_n[c] += 1
            out[i, bk] = m
