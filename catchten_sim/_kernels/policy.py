"""The policies, dispatched by integer id in one place (:func:`choose_card`).

Ids (``layout.POL_*``, :class:`catchten_sim.policies.Policy`): ``POL_RANDOM`` a uniformly
random legal card; ``POL_HEURISTIC`` the rule-based player of :func:`heuristic_choice`;
``POL_SCRIPTED`` replays given choices (``legal[script[i] % n_legal]``, legal ascending by
card index) for records and tests.

API (``@njit(inline="always")``; ``tab`` the :class:`catchten_sim.rules.Tables` bundle)
-------------------------------------------------------------------------------------
``choose_card(tab, pol, turn, trump_leads, s, script, spos) -> (card, s)``
    the card ``turn.seat`` plays with policy ``pol`` (``turn`` a :data:`Turn`):
    ``trump_leads`` int64 (n_sides,) trump leads so far, ``s`` the uint64 RNG state,
    ``script`` and ``spos`` (int64 (1,), the next position) the scripted choices.
``all_seats_random(policies) -> bool``.

:func:`heuristic_choice` is not ``inline="always"`` but ``forceinline`` (LLVM's
``alwaysinline``): numba compiles it once per ``tab`` type, LLVM inlines it into the play
loop. numba's own inlining copies a callee's IR at every level it is inlined through, at
a cost that grows with blocks times variables; the heuristic inlined through
``choose_card`` and ``play_and_deal`` cost about 3.5 s (CPU) of a 17 s cold compile. A
plain ``@njit`` call (not inlined) made the heuristic 8x slower (its arguments, ``tab``
included, are passed word by word at every card).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .bits import (JIT, KERNEL_JIT, highest_index, ix, lowest_index, popcount, rng_below_s,
                   select_bit)
from .layout import NO_TRUMPS, POL_RANDOM, POL_SCRIPTED
from .trick import suit_mask

#: what a player sees when it is to play (ints): ``seat``; ``legal`` its legal cards;
#: ``hand`` its hand; ``k`` cards already in the trick (mask ``tm``, led suit ``led``);
#: ``trump``; ``played`` the cards of finished tricks; ``win`` ``(card, seat)`` winning
#: the trick so far (:func:`.trick.winning_card` of ``tm`` and its seat; read only when
#: ``k > 0``)
Turn = namedtuple("Turn", ["seat", "legal", "hand", "k", "led", "tm", "trump", "played",
                           "win"])


@njit(inline="always", **JIT)
def all_seats_random(policies):
    """True when every seat plays ``random`` (the kernels then take the lean play loop)."""
    for p in range(policies.shape[0]):
        if policies[p] != POL_RANDOM:
            return False
    return True


#: the four 13-bit suit lanes (bits 0..51)
_LANES = np.int64((1 << 52) - 1)
#: bit 0 of every lane: ``_COL << r`` is rank ``r`` of every suit
_COL = np.int64(1 | 1 << 13 | 1 << 26 | 1 << 39)
#: per lane, the bits that stay in their lane when a mask is shifted right by 1, 2, 4, 8
_K1, _K2, _K4, _K8 = (np.int64(sum(((1 << (13 - j)) - 1) << (13 * s) for s in range(4)))
                      for j in (1, 2, 4, 8))


@njit(inline="always", **JIT)
def _cheapest(mask, clow_t):
    """The card of ``mask`` with the lowest cost in the table ``clow_t`` (the throw-away or
    the winning cost; ties: lowest card): the plain loop, for masks of honours only."""
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
def _cheapest_throw(mask, hmask, tmask, clow_t):
    """:func:`_cheapest` of ``mask`` (not 0) by the throw-away cost ``clow``: a card that
    scores no honour first; of those a plain card of the lowest rank (ties: the lowest
    suit), else the lowest trump; only a mask of honours takes the loop.

    Exact because ``clow`` is ``honour points * 1000 +`` the rank (1..13) of a plain card,
    or 200 + (trump power - 100) of a trump, and the trumps that score no honour (the 2 to
    the 9) rank in the trump order as in the plain order in every preset (checked by
    tests/test_policy.py)."""
    nh = mask & ~hmask
    if nh == 0:
        return _cheapest(mask, clow_t)
    plain = nh & ~tmask
    if plain == 0:
        return lowest_index(nh)
    u = (plain | (plain >> np.int64(13)) | (plain >> np.int64(26)) |
         (plain >> np.int64(39))) & np.int64(0x1FFF)
    return lowest_index(plain & (_COL << lowest_index(u)))


@njit(inline="always", **JIT)
def _cheapest_win(mask, hmask, tmask, cwin_t):
    """:func:`_cheapest` of ``mask`` (not 0; trumps and cards of one plain suit, as any
    set of winners) by the winning cost ``cwin`` (honour points * 1000 + power): a card
    that scores no honour first, a plain one before a trump, the lowest of them (see
    :func:`_cheapest_throw`); only a mask of honours takes the loop."""
    nh = mask & ~hmask
    if nh == 0:
        return _cheapest(mask, cwin_t)
    plain = nh & ~tmask
    return lowest_index(plain if plain != 0 else nh)


@njit(inline="always", **JIT)
def _safe_cards(unseen, tmask, trump, beats_t, top_trump):
    """The cards ``c`` (a trump, or a plain card with its suit led; not unseen
    themselves) that no unseen card beats: ``unseen & beats[trump, c] == 0`` for all such
    ``c`` at once. With an unseen
    trump: the trumps above the highest unseen one (no plain card); else every trump and
    each plain card above the highest unseen card of its suit (plain ranks in bit order)."""
    ut = (unseen & tmask) >> np.int64(13 * trump)
    if ut != 0:
        return beats_t[ix(trump * 13 + top_trump[ix(ut)])]
    y = unseen
    y |= (y >> np.int64(1)) & _K1
    y |= (y >> np.int64(2)) & _K2
    y |= (y >> np.int64(4)) & _K4
    y |= (y >> np.int64(8)) & _K8
    return (~y & _LANES) | tmask


@njit(inline="always", **JIT)
def _lead_key(plain, hand, su):
    """Rule 3's key of suit ``su``: ``((13 - suit length in hand) * 14 + rank) * 64 +
    card`` of the lowest card of ``plain`` in the suit, or ``1 << 20`` when it has none."""
    lane = (plain >> np.int64(13 * su)) & np.int64(0x1FFF)
    r = lowest_index(lane | np.int64(1 << 13))      # 13 for an empty lane, never used
    key = (r + (13 - popcount(hand & suit_mask(su))) * 14) * 64 + su * 13 + r
    return key if lane != 0 else np.int64(1) << 20


@njit(forceinline=True, **KERNEL_JIT)
def heuristic_choice(tab, turn, trump_leads):
    """The ``heuristic`` policy: a sensible club player (see catchten_sim.policies), for
    the :data:`Turn` ``turn`` (``trump_leads`` int64 (n_sides,) trump leads so far).

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
    trump or of the led suit (:func:`policy_tables`); all such cards at once are
    :func:`_safe_cards`. The cheapest cards are found by mask arithmetic
    (:func:`_cheapest_throw`, :func:`_cheapest_win`), with the same choices (and ties)
    as the loops over the cost tables that define them.
    """
    seat, legal, hand, k, _, tm, trump, played, win = turn
    if (legal & (legal - 1)) == 0:
        return lowest_index(legal)
    top_trump = tab.top_trump
    ten = tab.ten_card[ix(trump)]
    hmask = tab.hon_mask[ix(trump)]
    played = played | tm
    unseen = tab.deck_mask & ~played & ~hand
    myside = tab.side_of_seat[ix(seat)]
    has_trumps = trump < NO_TRUMPS
    tmask = suit_mask(trump) if has_trumps else np.int64(0)
    beats_t = tab.beats[ix(trump)]
    if k == 0:
        # 1. draw the Ten
        if has_trumps and ten >= 0 and trump_leads[ix(myside)] < 2 and \
                ((played >> ten) & 1) == 0 and ((hand >> ten) & 1) == 0:
            lt = legal & tmask
            if lt != 0 and popcount(hand & tab.top3[ix(trump)]) >= 2:
                lane = ((lt & ~(np.int64(1) << ten)) >> np.int64(13 * trump)) & np.int64(0x1FFF)
                if lane != 0:
                    return trump * 13 + top_trump[ix(lane)]
        # 2. a master card of a plain suit that scores no honour (the lowest such; with
        # no trumps an honour too): none while a trump is unseen (it beats every plain
        # card), else the plain cards of :func:`_safe_cards`
        if (unseen & tmask) == 0:
            m = legal & ~tmask & _safe_cards(unseen, tmask, trump, beats_t, top_trump)
            if has_trumps:
                m &= ~hmask
            if m != 0:
                return lowest_index(m)
        nh = legal & ~hmask
        # 3. lowest of the longest plain suit: by suit length in hand, then rank (a plain
        # card that scores no honour always costs less than a trump or an honour)
        plain = nh & ~tmask
        if plain != 0:
            # key: cost * 64 + card (the lowest card among equal costs), per suit
            # without branches; a suit with no such card keys above them all
            key = np.int64(1) << 20
            for su in range(4):
                ks = _lead_key(plain, hand, su)
                key = ks if ks < key else key       # not min(): numba calls a helper
            return key & np.int64(63)
        if nh != 0:
            return lowest_index(nh)
        clow_t = tab.clow[trump]
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
    # following: the trick so far. "No unseen card beats c" for one card c (a trump or
    # of the led suit) is ``unseen & beats_t[c] == 0``; the mask of all such cards
    # (:func:`_safe_cards`) only where rule 8 needs it
    win_card, win_seat = win
    beats_win = beats_t[ix(win_card)]
    trick_hon = (tm & hmask) != 0
    opp_after_me = tab.opp_after[ix(seat), ix(k)]
    partner_win = tab.side_of_seat[ix(win_seat)] == myside
    partner_safe = partner_win and (not opp_after_me or (unseen & beats_win) == 0)
    # 4. the Ten
    if ten >= 0 and ((legal >> ten) & 1) != 0:
        tenpow = tab.trump_power[trump, ten]
        win_pow = tab.pw[trump, win_card]
        if partner_safe and win_pow > tenpow:
            return ten
        if tenpow > win_pow and not opp_after_me:
            return ten
    winners = legal & beats_win
    # 5. partner winning (and 10. when no card wins): throw
    if (winners != 0) & ((not partner_win) | ((not partner_safe) & trick_hon)):
        cwin_t = tab.cwin[ix(trump)]
        if not opp_after_me:
            # 6. last to act for the opponents: the cheapest winner; but keep a master
            # when a bigger honour that can be beaten also wins (win with the honour)
            best = _cheapest_win(winners, hmask, tmask, cwin_t)
            if (unseen & beats_t[ix(best)]) == 0:
                honours_t = tab.honours[trump]
                alt = -1
                ac = np.int64(1) << 40
                m = winners & hmask
                while m != 0:
                    d = lowest_index(m)
                    m &= m - 1
                    if (unseen & beats_t[d]) != 0 and honours_t[d] > honours_t[best] \
                            and cwin_t[d] < ac:
                        ac = cwin_t[d]
                        alt = d
                if alt >= 0:
                    return alt
            return best
        # 7. second hand low: throw (below)
        if (k != 1) | trick_hon | partner_win:
            # 8. the cheapest safe winner (not the Ten)
            m8 = winners & _safe_cards(unseen, tmask, trump, beats_t, top_trump)
            if ten >= 0:
                m8 &= ~(np.int64(1) << ten)
            if m8 != 0:
                return _cheapest_win(m8, hmask, tmask, cwin_t)
        # 9. third hand high: the highest winner that scores no honour (a trump above
        # any plain card; trumps that score no honour rank as in the plain order)
        m = winners & ~hmask
        if (m != 0) & (not partner_win) & ((k != 1) | trick_hon):
            mt = m & tmask
            return highest_index(mt if mt != 0 else m)
    # 10. throw the lowest non-counting card
    return _cheapest_throw(legal, hmask, tmask, tab.clow[ix(trump)])


@njit(inline="always", **JIT)
def choose_card(tab, pol, turn, trump_leads, s, script, spos):
    """The card ``turn.seat`` plays under policy ``pol`` (module docstring): ``(card, s)``."""
    legal = turn.legal
    if pol == POL_RANDOM:
        s, r = rng_below_s(s, popcount(legal))
        return lowest_index(select_bit(legal, r)), s
    if pol == POL_SCRIPTED:
        r = script[spos[0]]
        spos[0] += 1
        return lowest_index(select_bit(legal, r % popcount(legal))), s
    # int64 casts: a literal argument (``led = 0`` at a trick's start) would compile
    # heuristic_choice once more, for that literal type (no cost at run time)
    i8 = np.int64
    seat, _, hand, k, led, tm, trump, played, win = turn
    turn8 = Turn(i8(seat), i8(legal), i8(hand), i8(k), i8(led), i8(tm), i8(trump), i8(played),
                 (i8(win[0]), i8(win[1])))
    return heuristic_choice(tab, turn8, trump_leads), s
