"""The numba playout engine: deal, legal cards, tricks, scoring, policies, batches.

Arrays and ints in, arrays and ints out (DESIGN.md §3). Rules arrive as the
:class:`catchten_sim.rules.KernelTables` arrays; nothing here knows a preset by name.
Card masks are int64 (bit ``suit * 13 + rank``). Every function assumes valid input:
the Python wrappers validate first.

Rules implemented here (sources: RULES.md, seeds 000/001/003/004):

- deal one card at a time clockwise from the eldest hand, in six-card sets one set after
  another for 2/3 players; the last card dealt is the dealer's turn-up (RULES.md §1, §2);
  ``keep_six_of_spades`` lays the 36th card aside (§3, §7.7);
- follow suit, else any card (``must_trump``: a trump if able); ``no_trump_first_lead``
  on the first lead of every set; ``exposed_trump`` locks the turn-up until the deal's
  last two tricks, and a locked turn-up does not count as holding the led suit (§7.3, §7.6);
- highest trump wins, else the highest card of the led suit; the winner leads;
  with sets the winner of a set's last trick leads to the next set (§1, §2);
- honours and the 10♦ bonus to the side taking them; card points per scoring unit
  ``max(0, cards taken - share)`` (§2, §7.1, §7.2).
"""
from __future__ import annotations

import numpy as np
from numba import njit

from .bits import JIT, highest_index, lowest_index, popcount, rng_below, rng_seed, select_bit

# parameter indices (kept equal to catchten_sim.rules.P_*; checked by a test)
P_N, P_NSIDES, P_NSETS, P_SETSIZE, P_NDEALT, P_DECK, P_SHARE, P_CARDPTS, P_PERSET, \
    P_DEAD, P_NTFL, P_EXPOSED, P_MUSTTRUMP, P_DECLARES, P_TARGET, P_TIE, P_ATONCE, \
    P_REVOKE, P_TDBONUS, P_NPARAMS = range(20)

NO_TRUMPS = 4

# policy ids (catchten_sim.policies.Policy has the same values)
POL_RANDOM = 0
POL_HEURISTIC = 1
POL_SCRIPTED = 2

# per-deal outcome columns
C_DEALER = 0
C_TRUMP = 1
C_TEN_HOLDER = 2      # position (1 = eldest … n = dealer) dealt the Ten of trumps, 0 none
C_TEN_TAKER = 3       # position that took the Ten in a trick, 0 none
C_TEN_FATE = 4        # 0 saved by the holder's side, 1 caught, 2 dead, 3 no trumps
C_HOLDER_TRUMPS = 5   # trumps dealt to the Ten's holder (0 when nobody holds it)
N_FIXED = 6
# per position p (0-based: p = position - 1), at N_FIXED + p * N_PER_POS + field
F_HONOURS = 0         # honour points taken by the side of that seat
F_CARDS = 1           # cards taken by the side
F_CARD_POINTS = 2     # card points of the side (summed over sets)
F_TOTAL = 3           # honours + card points
F_SIDE_TRICKS = 4
F_SEAT_TRICKS = 5
F_HONOURS_DEALT = 6   # honour points among the cards dealt to the side (turn-up included)
F_SEAT_TRUMPS = 7     # trumps dealt to that seat
N_PER_POS = 8

FATE_SAVED = 0
FATE_CAUGHT = 1
FATE_DEAD = 2
FATE_NO_TRUMPS = 3



@njit(inline="always", **JIT)
def suit_mask(s):
    return np.int64(0x1FFF) << np.int64(13 * s)


@njit(inline="always", **JIT)
def card_power(c, led, trump, trump_power, rank_power):
    """Strength of card ``c`` in a trick whose led suit is ``led`` (0 = cannot win)."""
    tp = trump_power[trump, c]
    if tp > 0:
        return tp
    if c // 13 == led:
        return rank_power[c]
    return 0


@njit(inline="always", **JIT)
def legal_mask(hand, lock_bit, n_in_trick, led, first_lead_of_set, trump, ntfl, must_trump):
    """Legal cards (mask) for a player holding ``hand``.

    ``lock_bit`` is the exposed turn-up while it may not be played (0 otherwise);
    ``n_in_trick`` cards already played to the trick, ``led`` the led suit.
    """
    playable = hand & ~lock_bit
    if n_in_trick == 0:
        if ntfl and first_lead_of_set and trump < NO_TRUMPS:
            nt = playable & ~suit_mask(trump)
            if nt != 0:
                return nt
        return playable
    follow = playable & suit_mask(led)
    if follow != 0:
        return follow
    if must_trump and trump < NO_TRUMPS:
        tr = playable & suit_mask(trump)
        if tr != 0:
            return tr
    return playable


@njit(inline="always", **JIT)
def _cost_low(c, trump, honours, trump_power, rank_power):
    """Order for throwing a card away: honours last, trumps after plain cards, low first."""
    tp = trump_power[trump, c]
    if tp > 0:
        return honours[trump, c] * 1000 + 200 + tp - 100
    return honours[trump, c] * 1000 + rank_power[c]


@njit(inline="always", **JIT)
def _cheapest(mask, trump, honours, trump_power, rank_power):
    best = -1
    best_cost = 1 << 40
    m = mask
    while m != 0:
        c = lowest_index(m)
        m &= m - 1
        cost = _cost_low(c, trump, honours, trump_power, rank_power)
        if cost < best_cost:
            best_cost = cost
            best = c
    return best


@njit(inline="always", **JIT)
def _is_master(c, led, trump, unseen, trump_power, rank_power):
    """True when no unseen card can beat card ``c`` in a trick led in suit ``led``."""
    tp = trump_power[trump, c]
    if tp > 0:
        m = unseen & suit_mask(trump)
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            if trump_power[trump, d] > tp:
                return False
        return True
    if c // 13 != led:
        return False
    if trump < NO_TRUMPS and (unseen & suit_mask(trump)) != 0:
        return False
    m = unseen & suit_mask(led)
    while m != 0:
        d = lowest_index(m)
        m &= m - 1
        if rank_power[d] > rank_power[c]:
            return False
    return True


@njit(inline="always", **JIT)
def heuristic_choice(seat, legal, hand, k, n, leader, led, tm, trump, played, deck_mask,
                     side_of_seat, side_trump_leads, honours, trump_power, rank_power, ten,
                     top_trump, owner):
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
      6. No opponent to play after: win with the cheapest winning card.
      7. Second hand low when the trick holds no honour.
      8. Win with the cheapest winning card that no unseen card can beat (not the Ten).
      9. Third hand high: the highest winning card that scores no honour.
     10. Otherwise throw the lowest non-counting card (never an honour when a cheaper legal
         card exists).
    """
    if popcount(legal) == 1:
        return lowest_index(legal)
    played = played | tm
    unseen = deck_mask & ~played & ~hand
    myside = side_of_seat[seat]
    has_trumps = trump < NO_TRUMPS
    tmask = suit_mask(trump) if has_trumps else np.int64(0)
    if k == 0:
        # 1. draw the Ten
        if has_trumps and ten >= 0 and side_trump_leads[myside] < 2 and \
                ((played >> ten) & 1) == 0 and ((hand >> ten) & 1) == 0:
            # the three highest trumps other than the Ten
            held_top = 0
            thr = 0
            for _ in range(3):
                best = -1
                bp = 0
                m = deck_mask & tmask
                while m != 0:
                    d = lowest_index(m)
                    m &= m - 1
                    p = trump_power[trump, d]
                    if d != ten and p > bp and (thr == 0 or p < thr):
                        bp = p
                        best = d
                if best < 0:
                    break
                thr = bp
                if (hand >> best) & 1:
                    held_top += 1
            lt = legal & tmask
            if held_top >= 2 and lt != 0:
                best = -1
                bp = 0
                m = lt
                while m != 0:
                    d = lowest_index(m)
                    m &= m - 1
                    if trump_power[trump, d] > bp and d != ten:
                        bp = trump_power[trump, d]
                        best = d
                if best >= 0:
                    return best
        # 2. a master card of a plain suit
        m = legal & ~tmask
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            if honours[trump, d] == 0 or not has_trumps:
                if _is_master(d, d // 13, trump, unseen, trump_power, rank_power):
                    return d
        # 3. lowest of the longest plain suit
        best = -1
        best_cost = 1 << 40
        m = legal
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            slen = popcount(hand & suit_mask(d // 13))
            cost = _cost_low(d, trump, honours, trump_power, rank_power) + (13 - slen) * 14
            if cost < best_cost:
                best_cost = cost
                best = d
        return best
    # following: the trick so far
    win_card = trick_winner_card(tm, led, trump, top_trump)
    win_pow = card_power(win_card, led, trump, trump_power, rank_power)
    win_seat = owner[win_card]
    trick_hon = 0
    m = tm
    while m != 0:
        trick_hon += honours[trump, lowest_index(m)]
        m &= m - 1
    opp_after = False
    for j in range(k + 1, n):
        if side_of_seat[(leader + j) % n] != myside:
            opp_after = True
    partner_win = side_of_seat[win_seat] == myside
    partner_safe = partner_win and (not opp_after or
                                    _is_master(win_card, led, trump, unseen, trump_power,
                                               rank_power))
    # 4. the Ten
    if ten >= 0 and ((legal >> ten) & 1) != 0:
        tenpow = trump_power[trump, ten]
        if partner_safe and win_pow > tenpow:
            return ten
        if tenpow > win_pow and not opp_after:
            return ten
    winners = np.int64(0)
    m = legal
    while m != 0:
        d = lowest_index(m)
        m &= m - 1
        if card_power(d, led, trump, trump_power, rank_power) > win_pow:
            winners |= np.int64(1) << d
    # 5. partner winning
    if partner_win and (partner_safe or trick_hon == 0 or winners == 0):
        return _cheapest(legal, trump, honours, trump_power, rank_power)
    if winners != 0:
        # 6. last to act for the opponents: cheapest winner
        if not opp_after:
            best = -1
            bc = 1 << 40
            m = winners
            while m != 0:
                d = lowest_index(m)
                m &= m - 1
                cst = honours[trump, d] * 1000 + card_power(d, led, trump, trump_power,
                                                            rank_power)
                if cst < bc:
                    bc = cst
                    best = d
            return best
        # 7. second hand low
        if k == 1 and trick_hon == 0 and not partner_win:
            return _cheapest(legal, trump, honours, trump_power, rank_power)
        # 8. cheapest safe winner
        best = -1
        bc = 1 << 40
        m = winners
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            if d != ten and _is_master(d, led, trump, unseen, trump_power, rank_power):
                cst = honours[trump, d] * 1000 + card_power(d, led, trump, trump_power,
                                                            rank_power)
                if cst < bc:
                    bc = cst
                    best = d
        if best >= 0:
            return best
        # 9. third hand high
        if not partner_win:
            best = -1
            bp = 0
            m = winners
            while m != 0:
                d = lowest_index(m)
                m &= m - 1
                if honours[trump, d] == 0:
                    p = card_power(d, led, trump, trump_power, rank_power)
                    if p > bp:
                        bp = p
                        best = d
            if best >= 0:
                return best
    # 10. throw the lowest non-counting card
    return _cheapest(legal, trump, honours, trump_power, rank_power)


@njit(inline="always", **JIT)
def declare_trumps(hand, trump_power, honours):
    """jaques ``dealer_declares``: the dealer's choice of trumps (4 = no trumps).

    No trumps when the longest suit has at most three cards and the hand holds two Aces
    or more; otherwise the longest suit, ties to the suit whose honours the dealer holds
    most points of, then the lower suit code.
    """
    best = 0
    best_len = -1
    best_hon = -1
    aces = 0
    for s in range(4):
        m = hand & suit_mask(s)
        ln = popcount(m)
        if (hand >> (s * 13 + 12)) & 1:
            aces += 1
        hon = 0
        while m != 0:
            d = lowest_index(m)
            m &= m - 1
            hon += honours[s, d]
        if ln > best_len or (ln == best_len and hon > best_hon):
            best = s
            best_len = ln
            best_hon = hon
    if best_len <= 3 and aces >= 2:
        return NO_TRUMPS
    return best


@njit(inline="always", **JIT)
def trick_winner_card(tm, led, trump, top_trump):
    """The winning card of a trick given the mask ``tm`` of its cards (branch-light).

    The highest trump (by ``top_trump``, the highest trump rank of a 13-bit suit lane in
    the preset's trump order), else the highest card of the led suit (bit order is the
    plain-suit rank order).
    """
    if trump < NO_TRUMPS:
        lane = (tm >> np.int64(13 * trump)) & np.int64(0x1FFF)
        if lane != 0:
            return trump * 13 + top_trump[lane]
    lane = (tm >> np.int64(13 * led)) & np.int64(0x1FFF)
    return led * 13 + highest_index(lane)


@njit(inline="always", **JIT)
def play_deal(params, side_of_seat, trump_power, rank_power, honours, ten_card, top_trump,
              hon_mask, deck_mask, set_hands, dealer, trump, turnup, policies, state, script, spos,
              hands_cur, owner, cap_hon, cap_cards, seat_tricks, side_trump_leads,
              log_leader, log_cards, log_winner):
    """Play one deal from dealt hands to the end; fill the capture arrays and the log.

    Parameters
    ----------
    set_hands : int64 (n_sets, n) masks of each seat's cards per set.
    dealer, trump, turnup : ints (``turnup`` -1 when there is none; ``trump`` 4 = none).
    policies : int64 (n,) policy id per seat; ``state`` uint64 (1,) RNG state;
    script, spos : int64 choices for ``POL_SCRIPTED`` (pick ``legal[script[i] % n_legal]``,
        legal ascending by card index) and the next position in it (1-element array).
    hon_mask : int64 (5,) cards that score honours, per trump code (``honour_masks``).
    hands_cur : int64 scratch (n,); owner : int64 (52,) seat dealt each card.

    Returns
    -------
    int
        The seat that took the Ten of trumps, -1 when nobody did.
    """
    n = params[P_N]
    n_sets = params[P_NSETS]
    set_size = params[P_SETSIZE]
    per_set = params[P_PERSET] != 0
    total_tricks = n_sets * set_size
    lock_card = np.int64(0)
    if params[P_EXPOSED] != 0 and turnup >= 0:
        lock_card = np.int64(1) << turnup
    ntfl = params[P_NTFL] != 0
    must_trump = params[P_MUSTTRUMP] != 0
    ten = ten_card[trump]
    ten_bit = np.int64(1) << ten if ten >= 0 else np.int64(0)
    hmask = hon_mask[trump]
    ten_taker = -1
    played = np.int64(0)
    for u in range(cap_hon.shape[0]):
        for sd in range(cap_hon.shape[1]):
            cap_hon[u, sd] = 0
            cap_cards[u, sd] = 0
    for p in range(n):
        seat_tricks[p] = 0
    for sd in range(side_trump_leads.shape[0]):
        side_trump_leads[sd] = 0
    leader = dealer + 1
    if leader == n:
        leader = 0
    t_index = 0
    for st in range(n_sets):
        for p in range(n):
            hands_cur[p] = set_hands[st, p]
        unit = st if per_set else 0
        for t in range(set_size):
            lock_bit = lock_card if t_index < total_tricks - 2 else np.int64(0)
            led = 0
            tm = np.int64(0)
            seat = leader
            for k in range(n):
                hand = hands_cur[seat]
                legal = legal_mask(hand, lock_bit, k, led, t == 0, trump, ntfl, must_trump)
                pol = policies[seat]
                if pol == POL_RANDOM:
                    c = lowest_index(select_bit(legal, rng_below(state, popcount(legal))))
                elif pol == POL_SCRIPTED:
                    r = script[spos[0]]
                    spos[0] += 1
                    c = lowest_index(select_bit(legal, r % popcount(legal)))
                else:
                    c = heuristic_choice(seat, legal, hand, k, n, leader, led, tm, trump,
                                         played, deck_mask, side_of_seat, side_trump_leads,
                                         honours, trump_power, rank_power, ten, top_trump,
                                         owner)
                bit = np.int64(1) << c
                hands_cur[seat] = hand & ~bit
                tm |= bit
                log_cards[t_index, k] = c
                if k == 0:
                    led = c // 13
                seat += 1
                if seat == n:
                    seat = 0
            played |= tm
            win_seat = owner[trick_winner_card(tm, led, trump, top_trump)]
            wside = side_of_seat[win_seat]
            h = 0
            m = tm & hmask
            while m != 0:
                h += honours[trump, lowest_index(m)]
                m &= m - 1
            cap_hon[unit, wside] += h
            cap_cards[unit, wside] += n
            seat_tricks[win_seat] += 1
            if (tm & ten_bit) != 0:
                ten_taker = win_seat
            if trump < NO_TRUMPS and led == trump:
                side_trump_leads[side_of_seat[leader]] += 1
            log_leader[t_index] = leader
            log_winner[t_index] = win_seat
            leader = win_seat
            t_index += 1
    return ten_taker


@njit(inline="always", **JIT)
def deal_cards(params, deck, dealer, state, perm, set_hands, owner):
    """Shuffle and deal (RULES.md §1, §2; sets §2; ``keep_six_of_spades`` §3).

    Fills ``set_hands`` (n_sets, n) and returns ``(turnup, dead)`` card indices
    (``dead`` -1 when no card is laid aside). Card ``i`` of the shuffled pack goes to seat
    ``(dealer + 1 + i) % n`` in set ``i // (n * set_size)``; the last card dealt is the
    dealer's and is the turn-up.
    """
    n = params[P_N]
    d = params[P_DECK]
    n_dealt = params[P_NDEALT]
    per_set_cards = n * params[P_SETSIZE]
    for i in range(d):
        perm[i] = deck[i]
        owner[deck[i]] = -1
    for i in range(d - 1, 0, -1):
        j = rng_below(state, i + 1)
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
    set_hands[:, :] = 0
    i = 0
    for s in range(params[P_NSETS]):
        seat = dealer
        for _ in range(per_set_cards):
            seat += 1
            if seat == n:
                seat = 0
            set_hands[s, seat] |= np.int64(1) << perm[i]
            owner[perm[i]] = seat
            i += 1
    dead = perm[d - 1] if params[P_DEAD] != 0 else -1
    return perm[n_dealt - 1], dead


@njit(inline="always", **JIT)
def honour_masks(honours):
    """int64 (5,) mask of the cards that score honour points, per trump code."""
    out = np.zeros(5, dtype=np.int64)
    for t in range(5):
        for c in range(52):
            if honours[t, c] != 0:
                out[t] |= np.int64(1) << c
    return out


@njit(inline="always", **JIT)
def write_outcome(row, params, side_of_seat, honours, ten_card, hon_mask, set_hands, dealer,
                  trump, ten_taker, cap_hon, cap_cards, seat_tricks, side_acc):
    """Fill one outcome row (columns ``C_*`` and per-position fields ``F_*``).

    ``side_acc`` is int64 scratch of shape (4, n_sides).
    """
    n = params[P_N]
    n_sides = params[P_NSIDES]
    n_sets = params[P_NSETS]
    n_units = n_sets if params[P_PERSET] != 0 else 1
    share = params[P_SHARE]
    cardpts = params[P_CARDPTS] != 0
    tmask = suit_mask(trump) if trump < NO_TRUMPS else np.int64(0)
    hmask = hon_mask[trump]
    ten = ten_card[trump]
    row[C_DEALER] = dealer
    row[C_TRUMP] = trump
    for side in range(n_sides):
        hon = 0
        cards = 0
        cp = 0
        for u in range(n_units):
            hon += cap_hon[u, side]
            cards += cap_cards[u, side]
            if cardpts and cap_cards[u, side] > share:
                cp += cap_cards[u, side] - share
        side_acc[0, side] = hon
        side_acc[1, side] = cp
        side_acc[2, side] = 0
        side_acc[3, side] = 0
    holder = -1
    for q in range(n):
        side = side_of_seat[q]
        side_acc[2, side] += seat_tricks[q]
        for st in range(n_sets):
            m = set_hands[st, q] & hmask
            while m != 0:
                c = lowest_index(m)
                m &= m - 1
                side_acc[3, side] += honours[trump, c]
                if c == ten:
                    holder = q
    row[C_HOLDER_TRUMPS] = 0
    if trump == NO_TRUMPS:
        row[C_TEN_FATE] = FATE_NO_TRUMPS
    elif holder < 0:
        row[C_TEN_FATE] = FATE_DEAD
    elif side_of_seat[holder] == side_of_seat[ten_taker]:
        row[C_TEN_FATE] = FATE_SAVED
    else:
        row[C_TEN_FATE] = FATE_CAUGHT
    row[C_TEN_HOLDER] = 0
    row[C_TEN_TAKER] = 0
    seat = dealer
    for pos in range(n):
        seat += 1
        if seat == n:
            seat = 0
        side = side_of_seat[seat]
        seat_trumps = 0
        for st in range(n_sets):
            seat_trumps += popcount(set_hands[st, seat] & tmask)
        if seat == holder:
            row[C_HOLDER_TRUMPS] = seat_trumps
            row[C_TEN_HOLDER] = pos + 1
        if seat == ten_taker:
            row[C_TEN_TAKER] = pos + 1
        base = N_FIXED + pos * N_PER_POS
        row[base + F_HONOURS] = side_acc[0, side]
        row[base + F_CARDS] = 0
        for u in range(n_units):
            row[base + F_CARDS] += cap_cards[u, side]
        row[base + F_CARD_POINTS] = side_acc[1, side]
        row[base + F_TOTAL] = side_acc[0, side] + side_acc[1, side]
        row[base + F_SIDE_TRICKS] = side_acc[2, side]
        row[base + F_SEAT_TRICKS] = seat_tricks[seat]
        row[base + F_HONOURS_DEALT] = side_acc[3, side]
        row[base + F_SEAT_TRUMPS] = seat_trumps


@njit(**JIT)
def simulate_chunk(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card,
                   top_trump, policies, seed, start, out):
    """Deal and play ``out.shape[0]`` deals, numbered ``start, start+1, …``.

    Deal ``i`` uses an RNG stream keyed by ``(seed, i)`` and dealer ``i % n`` (the deal
    rotates), so results depend on the seed only, never on threads or chunking. The
    kernel releases the GIL: callers run disjoint ranges on several threads.

    Parameters
    ----------
    policies : int64 (n,) policy id per seat.
    seed : uint64.
    start : int64, number of the first deal.
    out : int16 (count, N_FIXED + n * N_PER_POS), filled with one outcome row per deal.
    """
    count = out.shape[0]
    n = params[P_N]
    n_sets = params[P_NSETS]
    n_sides = params[P_NSIDES]
    total_tricks = n_sets * params[P_SETSIZE]
    deck_mask = np.int64(0)
    for i in range(deck.shape[0]):
        deck_mask |= np.int64(1) << deck[i]
    hon_mask = honour_masks(honours)
    state = np.zeros(1, dtype=np.uint64)
    perm = np.zeros(deck.shape[0], dtype=np.int64)
    set_hands = np.zeros((n_sets, n), dtype=np.int64)
    hands_cur = np.zeros(n, dtype=np.int64)
    owner = np.zeros(52, dtype=np.int64)
    cap_hon = np.zeros((n_sets, n_sides), dtype=np.int64)
    cap_cards = np.zeros((n_sets, n_sides), dtype=np.int64)
    seat_tricks = np.zeros(n, dtype=np.int64)
    side_trump_leads = np.zeros(n_sides, dtype=np.int64)
    log_leader = np.zeros(total_tricks, dtype=np.int64)
    log_cards = np.zeros((total_tricks, n), dtype=np.int64)
    log_winner = np.zeros(total_tricks, dtype=np.int64)
    script = np.zeros(1, dtype=np.int64)
    spos = np.zeros(1, dtype=np.int64)
    side_acc = np.zeros((4, n_sides), dtype=np.int64)
    for i in range(count):
        deal_index = start + i
        state[0] = rng_seed(seed, deal_index)
        dealer = deal_index % n
        turnup, dead = deal_cards(params, deck, dealer, state, perm, set_hands, owner)
        if params[P_DECLARES] != 0:
            trump = declare_trumps(set_hands[0, dealer], trump_power, honours)
            turnup = -1
        else:
            trump = turnup // 13
        ten_taker = play_deal(params, side_of_seat, trump_power, rank_power, honours,
                              ten_card, top_trump, hon_mask, deck_mask, set_hands, dealer,
                              trump, turnup, policies, state, script, spos, hands_cur, owner,
                              cap_hon, cap_cards, seat_tricks, side_trump_leads, log_leader,
                              log_cards, log_winner)
        write_outcome(out[i], params, side_of_seat, honours, ten_card, hon_mask, set_hands,
                      dealer, trump, ten_taker, cap_hon, cap_cards, seat_tricks, side_acc)


@njit(**JIT)
def deal_one(params, deck, trump_power, honours, seed, deal_index):
    """Deal number ``deal_index`` of a simulation with ``seed``, exactly as
    :func:`simulate_chunk` deals it.

    Returns
    -------
    set_hands : int64 (n_sets, n); dealer, trump, turnup, dead : ints;
    state : uint64, the RNG state after the deal (what the random policy draws from next).
    """
    n = params[P_N]
    state = np.zeros(1, dtype=np.uint64)
    state[0] = rng_seed(seed, deal_index)
    perm = np.zeros(deck.shape[0], dtype=np.int64)
    set_hands = np.zeros((params[P_NSETS], n), dtype=np.int64)
    owner = np.zeros(52, dtype=np.int64)
    dealer = deal_index % n
    turnup, dead = deal_cards(params, deck, dealer, state, perm, set_hands, owner)
    if params[P_DECLARES] != 0:
        trump = declare_trumps(set_hands[0, dealer], trump_power, honours)
        turnup = -1
    else:
        trump = turnup // 13
    return set_hands, dealer, trump, turnup, dead, state[0]


@njit(**JIT)
def play_given(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card,
               top_trump, set_hands, dealer, trump, turnup, policies, rng_state, script):
    """Play one deal from given hands (for records, tests and rollouts).

    ``rng_state`` (uint64, non-zero) feeds the random policy; ``script`` the scripted one.

    Returns
    -------
    log_leader : int64 (tricks,)
    log_cards : int64 (tricks, n) cards in play order within each trick
    log_winner : int64 (tricks,)
    cap_hon, cap_cards : int64 (n_sets, n_sides) honours and cards taken per scoring
        unit (row 0 only without per-set scoring)
    ten_taker : int
    """
    n = params[P_N]
    n_sets = params[P_NSETS]
    n_sides = params[P_NSIDES]
    total_tricks = n_sets * params[P_SETSIZE]
    deck_mask = np.int64(0)
    for i in range(deck.shape[0]):
        deck_mask |= np.int64(1) << deck[i]
    state = np.zeros(1, dtype=np.uint64)
    state[0] = rng_state
    hands_cur = np.zeros(n, dtype=np.int64)
    owner = np.full(52, -1, dtype=np.int64)
    cap_hon = np.zeros((n_sets, n_sides), dtype=np.int64)
    cap_cards = np.zeros((n_sets, n_sides), dtype=np.int64)
    seat_tricks = np.zeros(n, dtype=np.int64)
    side_trump_leads = np.zeros(n_sides, dtype=np.int64)
    log_leader = np.zeros(total_tricks, dtype=np.int64)
    log_cards = np.zeros((total_tricks, n), dtype=np.int64)
    log_winner = np.zeros(total_tricks, dtype=np.int64)
    spos = np.zeros(1, dtype=np.int64)
    hon_mask = honour_masks(honours)
    for st in range(n_sets):
        for p in range(n):
            m = set_hands[st, p]
            while m != 0:
                owner[lowest_index(m)] = p
                m &= m - 1
    ten_taker = play_deal(params, side_of_seat, trump_power, rank_power, honours, ten_card,
                          top_trump, hon_mask, deck_mask, set_hands, dealer, trump, turnup,
                          policies, state, script, spos, hands_cur, owner, cap_hon,
                          cap_cards, seat_tricks, side_trump_leads, log_leader, log_cards,
                          log_winner)
    return log_leader, log_cards, log_winner, cap_hon, cap_cards, ten_taker
