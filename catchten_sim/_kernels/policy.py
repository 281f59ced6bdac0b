"""The policies, dispatched by integer id in one place (:func:`choose_card`).

Ids (``layout.POL_*``, :class:`catchten_sim.policies.Policy`): ``POL_RANDOM`` a uniformly
random legal card; ``POL_HEURISTIC`` the rule-based player of :func:`heuristic_choice`;
``POL_SCRIPTED`` replays given choices (``legal[script[i] % n_legal]``, legal ascending by
card index) for records and tests.

API (``@njit(inline="always")``; ``tab`` the :class:`catchten_sim.rules.Tables` bundle)
-------------------------------------------------------------------------------------
``choose_card(tab, pol, seat, legal, hand, k, led, tm, trump, played, trump_leads,
owner, s, script, spos) -> (card, s)``
    the card seat ``seat`` plays with policy ``pol``: ``legal`` its legal cards, ``hand``
    its hand, ``k`` cards already in the trick (mask ``tm``, led suit ``led``),
    ``played`` the cards of finished tricks, ``trump_leads`` int64 (n_sides,) trump leads
    so far, ``owner`` int64 (52,) seat of each card, ``s`` the uint64 RNG state, ``script``
    and ``spos`` (int64 (1,), the next position) the scripted choices.
``all_seats_random(policies) -> bool``.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT, lowest_index, popcount, rng_below_s, select_bit
from .layout import NO_TRUMPS, POL_RANDOM, POL_SCRIPTED
from .trick import suit_mask, winning_card


@njit(inline="always", **JIT)
def all_seats_random(policies):
    """True when every seat plays ``random`` (the kernels then take the lean play loop)."""
    for p in range(policies.shape[0]):
        if policies[p] != POL_RANDOM:
            return False
    return True


@njit(inline="always", **JIT)
def _cheapest(mask, clow_t):
    """The card of ``mask`` with the lowest cost in the table ``clow_t`` (the throw-away or
    the winning cost; ties: lowest card)."""
    best = -1
    best_cost = np.int64(1) << 40
    m = mask
    while m != 0:
        c = lowest_index(m)
        m &= m - 1
        cost = clow_t[c]
        if cost < best_cost:
            best_cost = cost
            best = c
    return best


@njit(inline="always", **JIT)
def heuristic_choice(tab, seat, legal, hand, k, led, tm, trump, played, trump_leads, owner):
    """The ``heuristic`` policy: a sensible club player (see catchten_sim.policies).

    Uses only what the player may know: its own hand, the cards played, the trick so far.
    Rules in priority order:

    Leading
      1. With two of the three highest trumps other than the Ten (J+A, J+K, A+K in foster)
         while the Ten is out and unseen, and the side has led trumps fewer than twice this
         deal: lead the highest trump (draw the Ten).
      2. Lead a master card of a plain suit (no unseen card of the suit beats it) that
         scores no honour.
      3. Lead the lowest card of the longest plain suit; honours and trumps last.
    Following
      4. Holding the Ten: play it on a trick the partner wins with a higher trump that no
         unseen trump beats, or when it wins the trick and no opponent plays after.
      5. Partner winning: throw the lowest non-counting card.
      6. No opponent to play after: win with the cheapest winning card; but when that
         card is a master and a bigger honour that can be beaten also wins, win with the
         honour (keep the master; jaques: win with the A, not the J, else the Ten
         catches the A later).
      7. Second hand low when the trick holds no honour.
      8. Win with the cheapest winning card that no unseen card can beat (not the Ten).
      9. Third hand high: the highest winning card that scores no honour.
     10. Otherwise throw the lowest non-counting card (never an honour when a cheaper legal
         card exists).

    "No unseen card beats ``c``" is ``unseen & beats[trump, c] == 0`` for a card that is a
    trump or of the led suit (:func:`policy_tables`).
    """
    if (legal & (legal - 1)) == 0:
        return lowest_index(legal)
    deck_mask = tab.deck_mask
    side_of_seat = tab.side_of_seat
    top_trump = tab.top_trump
    pw = tab.pw
    ten = tab.ten_card[trump]
    hmask = tab.hon_mask[trump]
    honours_t = tab.honours[trump]
    played = played | tm
    unseen = deck_mask & ~played & ~hand
    myside = side_of_seat[seat]
    has_trumps = trump < NO_TRUMPS
    tmask = suit_mask(trump) if has_trumps else np.int64(0)
    beats_t = tab.beats[trump]
    clow_t = tab.clow[trump]
    if k == 0:
        # 1. draw the Ten
        if has_trumps and ten >= 0 and trump_leads[myside] < 2 and \
                ((played >> ten) & 1) == 0 and ((hand >> ten) & 1) == 0:
            lt = legal & tmask
            if lt != 0 and popcount(hand & tab.top3[trump]) >= 2:
                lane = ((lt & ~(np.int64(1) << ten)) >> np.int64(13 * trump)) & np.int64(0x1FFF)
                if lane != 0:
                    return trump * 13 + top_trump[lane]
        # 2. a master card of a plain suit that scores no honour
        m = legal & ~tmask
        if has_trumps:
            m &= ~hmask
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            if (unseen & beats_t[d]) == 0:
                return d
        # 3. lowest of the longest plain suit
        best = -1
        best_cost = np.int64(1) << 40
        m = legal
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            su = d // 13
            slen = popcount(hand & suit_mask(su))
            cost = clow_t[d] + (13 - slen) * 14
            if cost < best_cost:
                best_cost = cost
                best = d
        return best
    # following: the trick so far
    win_card = winning_card(tm, suit_mask(led), trump, top_trump)
    win_pow = pw[trump, win_card]
    win_seat = owner[win_card]
    trick_hon = (tm & hmask) != 0
    opp_after_me = tab.opp_after[seat, k]
    partner_win = side_of_seat[win_seat] == myside
    partner_safe = partner_win and (not opp_after_me or (unseen & beats_t[win_card]) == 0)
    # 4. the Ten
    if ten >= 0 and ((legal >> ten) & 1) != 0:
        tenpow = tab.trump_power[trump, ten]
        if partner_safe and win_pow > tenpow:
            return ten
        if tenpow > win_pow and not opp_after_me:
            return ten
    winners = legal & beats_t[win_card]
    # 5. partner winning
    if partner_win and (partner_safe or not trick_hon or winners == 0):
        return _cheapest(legal, clow_t)
    if winners != 0:
        cwin_t = tab.cwin[trump]
        # 6. last to act for the opponents: cheapest winner, but keep a master trump
        # when a bigger honour would be left exposed (win with the honour instead)
        if not opp_after_me:
            best = _cheapest(winners, cwin_t)
            if (unseen & beats_t[best]) == 0:
                alt = -1
                ac = np.int64(1) << 40
                m = winners
                while m != 0:
                    d = lowest_index(m)
                    m &= m - 1
                    if honours_t[d] > honours_t[best] and (unseen & beats_t[d]) != 0 \
                            and cwin_t[d] < ac:
                        ac = cwin_t[d]
                        alt = d
                if alt >= 0:
                    return alt
            return best
        # 7. second hand low
        if k == 1 and not trick_hon and not partner_win:
            return _cheapest(legal, clow_t)
        # 8. cheapest safe winner
        best = -1
        bc = np.int64(1) << 40
        m = winners
        if ten >= 0:
            m &= ~(np.int64(1) << ten)
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            if (unseen & beats_t[d]) == 0:
                cst = cwin_t[d]
                if cst < bc:
                    bc = cst
                    best = d
        if best >= 0:
            return best
        # 9. third hand high
        if not partner_win:
            best = -1
            bp = 0
            m = winners & ~hmask
            pw_t = pw[trump]
            while m != 0:
                d = lowest_index(m)
                m &= m - 1
                p = pw_t[d]
                if p > bp:
                    bp = p
                    best = d
            if best >= 0:
                return best
    # 10. throw the lowest non-counting card
    return _cheapest(legal, clow_t)


@njit(inline="always", **JIT)
def choose_card(tab, pol, seat, legal, hand, k, led, tm, trump, played, trump_leads, owner,
                s, script, spos):
    """The card ``seat`` plays under policy ``pol`` (module docstring): ``(card, s)``."""
    if pol == POL_RANDOM:
        s, r = rng_below_s(s, popcount(legal))
        return lowest_index(select_bit(legal, r)), s
    if pol == POL_SCRIPTED:
        r = script[spos[0]]
        spos[0] += 1
        return lowest_index(select_bit(legal, r % popcount(legal))), s
    return heuristic_choice(tab, seat, legal, hand, k, led, tm, trump, played, trump_leads,
                            owner), s
