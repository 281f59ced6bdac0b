"""The numba playout engine: deal, legal cards, tricks, scoring, policies, batches.

Arrays and ints in, arrays and ints out (DESIGN.md §3). Rules arrive as the
:class:`catchten_sim.rules.KernelTables` arrays; nothing here knows a preset by name.
Card masks are int64 (bit ``suit * 13 + rank``). Every function assumes valid input:
the Python wrappers validate first.

Rules implemented here (sources: docs/rules.md, seeds 000/001/003/004):

- deal one card at a time clockwise from the eldest hand, in six-card sets one set after
  another for 2/3 players; the last card dealt is the dealer's turn-up (docs/rules.md §1, §2);
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

from .bits import (JIT, KERNEL_JIT, highest_index, lowest_index, popcount, rng_below_s, rng_seed,
                   select_bit)

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

#: the ``start`` argument of :func:`play_deal` for a fresh deal (ignored without ``resume``)
_Z = np.int64(0)
FRESH = (_Z, _Z, _Z, _Z, _Z, _Z, np.int64(-1))

FATE_SAVED = 0
FATE_CAUGHT = 1
FATE_DEAD = 2
FATE_NO_TRUMPS = 3



assert all((c * 79) >> 10 == c // 13 for c in range(52))

# accumulator layout (catchten_sim.aggregate.acc_layout): offsets into one flat int64 array
A_FATE, A_SUMS, A_SUMSQ, A_ADV, A_ADVSQ, A_SIDE, A_SIDESQ, A_HTOT, A_HHON, A_HCP, A_FBH, \
    A_HOLDN, A_HOLDS, A_HOLDSS, A_NDEALS, A_NOFF = range(16)
N_FIELDS = 6            # F_HONOURS … F_SEAT_TRICKS are summed (aggregate.FIELDS)
HIST = 128              # aggregate.MAX_POINTS
HIST_TRUMPS = 14        # aggregate.MAX_TRUMPS


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
    (:func:`play_deal` computes the same thing inline, with selects instead of branches.)
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


def honour_masks(honours):
    """int64 (5,) mask of the cards that score honour points, per trump code."""
    bits = np.int64(1) << np.arange(52, dtype=np.int64)
    return ((honours != 0) * bits).sum(axis=1).astype(np.int64)


def policy_tables(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card):
    """Tables derived from the rule tables for the kernels (numpy, once per kernel call).

    Returns ``(deck_mask, hon_mask, beats, clow, cwin, pw, top3, opp_after)``; per trump
    code ``t``:

    ``hon_mask[t]``  the cards that score honours;
    ``beats[t, c]``  mask of the cards that beat card ``c`` in a trick where ``c`` is a
        trump or of the led suit (the trumps above it; for a plain card also every trump);
    ``clow[t, c]``   the heuristic's cost of throwing ``c`` away (honours last, trumps
        after plain cards, low first);
    ``cwin[t, c]``   its cost of winning with ``c`` (honour points * 1000 + power);
    ``pw[t, c]``     the power of ``c`` as a trump, else in its own suit;
    ``top3[t]``      the three highest trumps other than the Ten (fewer in small decks);
    ``opp_after[seat, k]``  1 when an opponent of ``seat`` plays after it when it plays
        the ``k``-th card (0-based) of a trick.
    """
    n = int(params[P_N])
    bits = np.int64(1) << np.arange(52, dtype=np.int64)
    deck_mask = np.int64(bits[np.asarray(deck)].sum())
    suit = np.arange(52) // 13
    tp = np.asarray(trump_power, dtype=np.int64)
    rp = np.asarray(rank_power, dtype=np.int64)
    hon = np.asarray(honours, dtype=np.int64)
    pw = np.where(tp > 0, tp, rp[None, :])
    cwin = hon * 1000 + pw
    clow = hon * 1000 + np.where(tp > 0, 200 + tp - 100, rp[None, :])
    # power of card d in a trick led in the suit of card c: [t, c, d]
    same = suit[:, None] == suit[None, :]
    pd = np.where(tp[:, None, :] > 0, tp[:, None, :],
                  np.where(same[None, :, :], rp[None, None, :], 0))
    beats = ((pd > pw[:, :, None]) * bits[None, None, :]).sum(axis=2).astype(np.int64)
    top3 = np.zeros(5, dtype=np.int64)
    for t in range(NO_TRUMPS):
        ten = int(ten_card[t])
        cands = [c for c in range(52) if tp[t, c] > 0 and (int(deck_mask) >> c) & 1 and c != ten]
        for c in sorted(cands, key=lambda c: -tp[t, c])[:3]:
            top3[t] |= np.int64(1) << c
    opp_after = np.zeros((n, n), dtype=np.int64)
    for seat in range(n):
        for k in range(n):
            opp_after[seat, k] = any(side_of_seat[(seat + j) % n] != side_of_seat[seat]
                                     for j in range(1, n - k))
    return (deck_mask, honour_masks(hon), beats, clow.astype(np.int64),
            cwin.astype(np.int64), pw.astype(np.int64), top3, opp_after)


LINE = 128   # bytes kept between arrays written by different threads (cache lines, with
             # the adjacent-line prefetcher)


def padded_zeros(shapes, fill=None):
    """Zeroed int64 arrays of the given shapes carved from one buffer that starts on a
    cache line and has a free line on each side, so that arrays written by one thread never
    share a cache line with anything another thread writes (false sharing slows two
    threads down more than 10%). ``fill`` gives per-array fill values (None: 0)."""
    sizes = [int(np.prod(sh)) for sh in shapes]
    words = sum(sizes)
    raw = np.zeros(words + 3 * LINE // 8, dtype=np.int64)
    start = (-raw.ctypes.data % LINE) // 8 + LINE // 8
    out = []
    pos = start
    for k, (sh, size) in enumerate(zip(shapes, sizes)):
        arr = raw[pos:pos + size].reshape(sh)
        if fill is not None and fill[k] is not None:
            arr[...] = fill[k]
        out.append(arr)
        pos += size
    return out


def scratch(params, deck):
    """The kernels' work arrays (they allocate nothing themselves): ``(set_hands,
    hands_cur, owner, cap_mask, seat_tricks, side_trump_leads, spos, side_acc, row)``,
    one block per thread (:func:`padded_zeros`). ``deck`` is unused (kept for the call
    sites)."""
    n = int(params[P_N])
    n_sets = int(params[P_NSETS])
    n_sides = int(params[P_NSIDES])
    shapes = [(n_sets, n), (n,), (52,), (n_sets, n_sides), (n,), (n_sides,), (1,),
              (5, n_sides), (N_FIXED + n * N_PER_POS,)]
    return tuple(padded_zeros(shapes, [None, None, -1, None, None, None, None, None, None]))


@njit(inline="always", **JIT)
def _cheapest(mask, clow_t):
    """The card of ``mask`` with the lowest throw-away cost (ties: lowest card)."""
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
def heuristic_choice(seat, legal, hand, k, led, tm, trump, played, deck_mask, side_of_seat,
                     side_trump_leads, honours, trump_power, ten, top_trump, owner, hmask,
                     beats, clow, cwin, pw, top3, opp_after):
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

    "No unseen card beats ``c``" is ``unseen & beats[trump, c] == 0`` for a card that is a
    trump or of the led suit (:func:`policy_tables`).
    """
    if (legal & (legal - 1)) == 0:
        return lowest_index(legal)
    played = played | tm
    unseen = deck_mask & ~played & ~hand
    myside = side_of_seat[seat]
    has_trumps = trump < NO_TRUMPS
    tmask = suit_mask(trump) if has_trumps else np.int64(0)
    beats_t = beats[trump]
    clow_t = clow[trump]
    if k == 0:
        # 1. draw the Ten
        if has_trumps and ten >= 0 and side_trump_leads[myside] < 2 and \
                ((played >> ten) & 1) == 0 and ((hand >> ten) & 1) == 0:
            lt = legal & tmask
            if lt != 0 and popcount(hand & top3[trump]) >= 2:
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
    win_card = trick_winner_card(tm, led, trump, top_trump)
    win_pow = pw[trump, win_card]
    win_seat = owner[win_card]
    trick_hon = (tm & hmask) != 0
    opp_after_me = opp_after[seat, k]
    partner_win = side_of_seat[win_seat] == myside
    partner_safe = partner_win and (not opp_after_me or (unseen & beats_t[win_card]) == 0)
    # 4. the Ten
    if ten >= 0 and ((legal >> ten) & 1) != 0:
        tenpow = trump_power[trump, ten]
        if partner_safe and win_pow > tenpow:
            return ten
        if tenpow > win_pow and not opp_after_me:
            return ten
    winners = legal & beats_t[win_card]
    # 5. partner winning
    if partner_win and (partner_safe or not trick_hon or winners == 0):
        return _cheapest(legal, clow_t)
    if winners != 0:
        cwin_t = cwin[trump]
        # 6. last to act for the opponents: cheapest winner
        if not opp_after_me:
            best = -1
            bc = np.int64(1) << 40
            m = winners
            while m != 0:
                d = lowest_index(m)
                m &= m - 1
                cst = cwin_t[d]
                if cst < bc:
                    bc = cst
                    best = d
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
def all_seats_random(policies):
    """True when every seat plays ``random`` (the kernels then take the lean play loop)."""
    for p in range(policies.shape[0]):
        if policies[p] != POL_RANDOM:
            return False
    return True


@njit(inline="always", **JIT)
def trick_winner_card(tm, led, trump, top_trump):
    """The winning card of a trick given the mask ``tm`` of its cards (branch-free).

    The highest trump (by ``top_trump``, the highest trump rank of a 13-bit suit lane in
    the preset's trump order), else the highest card of the led suit (bit order is the
    plain-suit rank order). With no trumps (4) the trump lane is bits 52.. and empty.
    """
    tlane = (tm >> np.int64(13 * trump)) & np.int64(0x1FFF)
    llane = (tm >> np.int64(13 * led)) & np.int64(0x1FFF)
    by_trump = trump * 13 + top_trump[tlane]
    by_led = led * 13 + highest_index(llane)
    return by_trump if tlane != 0 else by_led


@njit(inline="always", **JIT)
def play_deal(params, side_of_seat, trump_power, honours, ten_card, top_trump, ptab,
              set_hands, dealer, trump, turnup, policies, s, script, spos, hands_cur, owner,
              cap_mask, seat_tricks, side_trump_leads, do_log, logs, only_random,
              start, resume):
    """Play one deal from dealt hands (or from a mid-deal state) to the end; fill the
    capture masks (and the log).

    (At most 30 arguments: CPython passes more as ``*args``, which numba cannot inline.)

    Parameters
    ----------
    ptab : the tuple of :func:`policy_tables`.
    set_hands : int64 (n_sets, n) masks of each seat's cards per set.
    dealer, trump, turnup : ints (``turnup`` -1 when there is none; ``trump`` 4 = none).
    policies : int64 (n,) policy id per seat; ``s`` uint64 RNG state (random policy);
    script, spos : int64 choices for ``POL_SCRIPTED`` (pick ``legal[script[i] % n_legal]``,
        legal ascending by card index) and the next position in it (1-element array).
    hands_cur : int64 scratch (n,); owner : int64 (52,) seat dealt each card.
    cap_mask : int64 (n_sets, n_sides) out: cards taken per scoring unit and side (row 0
        only without per-set scoring); seat_tricks (n,), side_trump_leads (n_sides,) out.
    do_log : bool, fill ``logs = (log_leader (tricks,), log_cards (tricks, n) in play
        order, log_winner (tricks,))``.
    start : tuple of ints ``(t0, leader0, k0, tm0, led0, played0, ten_taker0)``, used only
        with ``resume``: play from trick ``t0`` (over the whole deal) led by ``leader0``,
        whose first ``k0`` cards (mask ``tm0``, led suit ``led0``) are already on the table
        (``k0`` may be ``n``: the trick is then only resolved); ``played0`` the cards of the
        earlier tricks; ``ten_taker0`` the seat that took the Ten in them (-1 none). Then
        ``set_hands[t0 // set_size]`` must hold the cards each seat holds now, later sets
        their cards, ``owner`` the seat of every card (played ones included).
    resume : bool, False: a fresh deal (``start`` ignored; captures, tricks and trump leads
        zeroed); True: resume from ``start``, adding to ``cap_mask``, ``seat_tricks`` and
        ``side_trump_leads`` as the caller filled them (the current trick's lead is not
        in ``side_trump_leads`` yet: it is counted when the trick ends).

    Returns
    -------
    (int, uint64)
        The seat that took the Ten of trumps (-1 when nobody did), the RNG state.
    """
    deck_mask, hon_mask, beats, clow, cwin, pw, top3, opp_after = ptab
    log_leader, log_cards, log_winner = logs
    n = params[P_N]
    n_sets = params[P_NSETS]
    set_size = params[P_SETSIZE]
    per_set = params[P_PERSET] != 0
    total_tricks = n_sets * set_size
    lock_card = np.int64(0)
    if params[P_EXPOSED] != 0 and turnup >= 0:
        lock_card = np.int64(1) << turnup
    has_trumps = trump < NO_TRUMPS
    ntfl = params[P_NTFL] != 0 and has_trumps
    must_trump = params[P_MUSTTRUMP] != 0 and has_trumps
    tmask = suit_mask(trump) if has_trumps else np.int64(0)
    ten = ten_card[trump]
    ten_bit = np.int64(1) << ten if ten >= 0 else np.int64(0)
    hmask = hon_mask[trump]
    ten_taker = -1
    played = np.int64(0)
    leader = dealer + 1
    if leader == n:
        leader = 0
    t_index = 0
    k_first = 0
    tm_first = np.int64(0)
    led_first = 0
    if resume:
        t_index, leader, k_first, tm_first, led_first, played, ten_taker = start
    else:
        for u in range(cap_mask.shape[0]):
            for sd in range(cap_mask.shape[1]):
                cap_mask[u, sd] = 0
        for p in range(n):
            seat_tricks[p] = 0
        for sd in range(side_trump_leads.shape[0]):
            side_trump_leads[sd] = 0
    st_first = t_index // set_size
    t_first = t_index - st_first * set_size
    for st in range(st_first, n_sets):
        for p in range(n):
            hands_cur[p] = set_hands[st, p]
        unit = st if per_set else 0
        for t in range(t_first if st == st_first else 0, set_size):
            lock_bit = lock_card if t_index < total_tricks - 2 else np.int64(0)
            led = 0
            ledmask = np.int64(0)
            tm = np.int64(0)
            k0 = 0
            if resume and t_index == start[0]:
                k0 = k_first
                tm = tm_first
                led = led_first
                ledmask = suit_mask(led) if k0 > 0 else np.int64(0)
            seat = leader + k0
            seat = seat - n if seat >= n else seat
            for k in range(k0, n):
                hand = hands_cur[seat]
                # the legal cards (legal_mask), written with selects rather than branches
                playable = hand & ~lock_bit
                follow = playable & ledmask
                if k == 0:
                    legal = playable
                    if ntfl and t == 0:
                        nt = playable & ~tmask
                        legal = nt if nt != 0 else playable
                else:
                    legal = follow if follow != 0 else playable
                    if must_trump:
                        tr = playable & tmask
                        legal = tr if (follow == 0 and tr != 0) else legal
                pol = POL_RANDOM if only_random else policies[seat]
                if pol == POL_RANDOM:
                    s, r = rng_below_s(s, popcount(legal))
                    c = lowest_index(select_bit(legal, r))
                elif pol == POL_SCRIPTED:
                    r = script[spos[0]]
                    spos[0] += 1
                    c = lowest_index(select_bit(legal, r % popcount(legal)))
                else:
                    c = heuristic_choice(seat, legal, hand, k, led, tm, trump, played,
                                         deck_mask, side_of_seat, side_trump_leads, honours,
                                         trump_power, ten, top_trump, owner, hmask, beats,
                                         clow, cwin, pw, top3, opp_after)
                bit = np.int64(1) << c
                hands_cur[seat] = hand ^ bit
                tm |= bit
                if do_log:
                    log_cards[t_index, k] = c
                if k == 0:
                    led = (c * 79) >> 10         # = c // 13 for 0 <= c < 52, shorter latency
                    ledmask = suit_mask(led)
                seat = seat + 1
                seat = 0 if seat == n else seat
            played |= tm
            # trick_winner_card, with the led suit's mask at hand
            tlane = (tm >> np.int64(13 * trump)) & np.int64(0x1FFF)
            by_trump = trump * 13 + top_trump[tlane]
            by_led = highest_index(tm & ledmask)
            win_seat = owner[by_trump if tlane != 0 else by_led]
            cap_mask[unit, side_of_seat[win_seat]] |= tm
            seat_tricks[win_seat] += 1
            ten_taker = win_seat if (tm & ten_bit) != 0 else ten_taker
            side_trump_leads[side_of_seat[leader]] += 1 if led == trump else 0
            if do_log:
                log_leader[t_index] = leader
                log_winner[t_index] = win_seat
            leader = win_seat
            t_index += 1
    return ten_taker, s


@njit(inline="always", **JIT)
def deal_cards(params, deck_mask, dealer, s, set_hands, owner):
    """Shuffle and deal (docs/rules.md §1, §2; sets §2; ``keep_six_of_spades`` §3).

    Fills ``set_hands`` (n_sets, n) and ``owner`` (seat dealt each card of the deck, -1
    for a card laid aside; entries of cards outside the deck are left alone) and returns
    ``(turnup, dead, s)``: card indices (``dead`` -1 when no card is laid aside) and the
    RNG state. Card ``i`` of the shuffled pack goes to seat ``(dealer + 1 + i) % n`` in set
    ``i // (n * set_size)``; the last card dealt is the dealer's and is the turn-up.

    The pack is shuffled from the top down: position ``i`` (``d-1`` … 0) gets a uniformly
    drawn card among the ``i + 1`` not yet placed (the ``k``-th set bit of their mask), and
    is dealt at once. No array is touched but the hands, so no step waits on a memory
    round-trip of the previous one (a Fisher-Yates swap does).
    """
    n = params[P_N]
    d = params[P_DECK]
    n_dealt = params[P_NDEALT]
    per_set_cards = n * params[P_SETSIZE]
    for st in range(set_hands.shape[0]):
        for p in range(n):
            set_hands[st, p] = 0
    rest = deck_mask
    dead = -1
    # the card laid aside (top of the pack, not dealt)
    for i in range(d - 1, n_dealt - 1, -1):
        s, k = rng_below_s(s, i + 1)
        bit = select_bit(rest, k)
        rest ^= bit
        dead = lowest_index(bit)
        owner[dead] = -1
    # position i -> seat (dealer + 1 + i) % n, set i // per_set_cards; walk i downwards
    seat = (dealer + n_dealt) % n
    i = n_dealt - 1
    turnup = -1
    for st in range(set_hands.shape[0] - 1, -1, -1):
        hands = set_hands[st]
        for _ in range(per_set_cards):
            s, k = rng_below_s(s, i + 1)      # k = 0 for i = 0: no branch for the last card
            bit = select_bit(rest, k)
            rest ^= bit
            c = lowest_index(bit)
            hands[seat] |= bit
            owner[c] = seat
            turnup = c if i == n_dealt - 1 else turnup
            seat = seat - 1 if seat > 0 else n - 1
            i -= 1
    return turnup, dead, s


@njit(inline="always", **JIT)
def deal_trumps(params, deck_mask, trump_power, honours, dealer, s, set_hands, owner):
    """Deal, then fix trumps: ``(trump, turnup, dead, s)`` (``turnup`` -1 when the dealer
    declares)."""
    turnup, dead, s = deal_cards(params, deck_mask, dealer, s, set_hands, owner)
    if params[P_DECLARES] != 0:
        trump = declare_trumps(set_hands[0, dealer], trump_power, honours)
        turnup = -1
    else:
        trump = turnup // 13
    return trump, turnup, dead, s


@njit(inline="always", **JIT)
def outcome_row(row, params, side_of_seat, honours, ten_card, deck_mask, hon_mask, set_hands,
                owner, dealer, trump, ten_taker, cap_mask, seat_tricks, side_acc):
    """Fill one outcome row (int64 ``row``, columns ``C_*`` and per-position fields ``F_*``).

    ``owner`` maps the dealt cards to their seats (-1 for cards not dealt);
    ``side_acc`` is int64 scratch of shape (5, n_sides).
    """
    n = params[P_N]
    n_sides = params[P_NSIDES]
    n_sets = params[P_NSETS]
    n_units = n_sets if params[P_PERSET] != 0 else 1
    share = params[P_SHARE]
    cardpts = params[P_CARDPTS] != 0
    tmask = suit_mask(trump) if trump < NO_TRUMPS else np.int64(0)
    ten = ten_card[trump]
    for side in range(n_sides):
        cards = 0
        cp = 0
        for u in range(n_units):
            k = popcount(cap_mask[u, side])
            cards += k
            cp += k - share if k > share else 0
        side_acc[0, side] = 0                       # honours taken
        side_acc[1, side] = cp if cardpts else 0    # card points
        side_acc[2, side] = 0                       # side tricks
        side_acc[3, side] = 0                       # honours dealt
        side_acc[4, side] = cards
    # honours taken and dealt: one pass over the honour cards of the deck
    hm = hon_mask[trump] & deck_mask
    for side in range(n_sides):
        taken = np.int64(0)
        for u in range(n_units):
            taken |= cap_mask[u, side]
        hon = 0
        m = taken & hm
        while m != 0:
            hon += honours[trump, lowest_index(m)]
            m &= m - 1
        side_acc[0, side] = hon
    holder = -1
    m = hm
    while m != 0:
        c = lowest_index(m)
        m &= m - 1
        o = owner[c]
        if o >= 0:
            side_acc[3, side_of_seat[o]] += honours[trump, c]
        holder = o if c == ten else holder
    for q in range(n):
        side_acc[2, side_of_seat[q]] += seat_tricks[q]
    row[C_DEALER] = dealer
    row[C_TRUMP] = trump
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
        row[base + F_CARDS] = side_acc[4, side]
        row[base + F_CARD_POINTS] = side_acc[1, side]
        row[base + F_TOTAL] = side_acc[0, side] + side_acc[1, side]
        row[base + F_SIDE_TRICKS] = side_acc[2, side]
        row[base + F_SEAT_TRICKS] = seat_tricks[seat]
        row[base + F_HONOURS_DEALT] = side_acc[3, side]
        row[base + F_SEAT_TRUMPS] = seat_trumps


@njit(inline="always", **JIT)
def _clip(v, hi):
    v = v if v > 0 else 0
    return v if v < hi else hi


@njit(inline="always", **JIT)
def fold_row(row, n, side_of_seat, acc, off):
    """Add one outcome row to the flat accumulator ``acc`` (layout ``off``, the ``A_*``
    offsets; see :meth:`catchten_sim.aggregate.OutcomeAccumulator.add`, which folds rows
    the same way with numpy)."""
    fate = row[C_TEN_FATE]
    acc[off[A_FATE] + fate] += 1
    acc[off[A_NDEALS]] += 1
    o_sums = off[A_SUMS]
    o_sumsq = off[A_SUMSQ]
    o_ht = off[A_HTOT]
    o_hh = off[A_HHON]
    o_hc = off[A_HCP]
    o_hn = off[A_HOLDN]
    o_hs = off[A_HOLDS]
    o_hss = off[A_HOLDSS]
    row_sum = 0
    for p in range(n):
        base = N_FIXED + p * N_PER_POS
        for j in range(N_FIELDS):
            v = row[base + j]
            acc[o_sums + p * N_FIELDS + j] += v
            acc[o_sumsq + p * N_FIELDS + j] += v * v
        tot = row[base + F_TOTAL]
        row_sum += tot
        acc[o_ht + p * HIST + _clip(tot, HIST - 1)] += 1
        acc[o_hh + p * HIST + _clip(row[base + F_HONOURS], HIST - 1)] += 1
        acc[o_hc + p * HIST + _clip(row[base + F_CARD_POINTS], HIST - 1)] += 1
    seen = 0
    seat = row[C_DEALER]
    for p in range(n):
        tot = row[N_FIXED + p * N_PER_POS + F_TOTAL]
        d = n * tot - row_sum
        acc[off[A_ADV] + p] += d
        acc[off[A_ADVSQ] + p] += d * d
        # side totals (by seat numbers): the side's total at its first position
        seat += 1
        if seat == n:
            seat = 0
        side = side_of_seat[seat]
        if (seen >> side) & 1 == 0:
            seen |= 1 << side
            acc[off[A_SIDE] + side] += tot
            acc[off[A_SIDESQ] + side] += tot * tot
            # the value of a holding: each side once per deal
            dealt = _clip(row[N_FIXED + p * N_PER_POS + F_HONOURS_DEALT], HIST - 1)
            acc[o_hn + dealt] += 1
            acc[o_hs + dealt] += tot
            acc[o_hss + dealt] += tot * tot
    holder = row[C_TEN_HOLDER]
    htr = _clip(row[C_HOLDER_TRUMPS], HIST_TRUMPS - 1)
    acc[off[A_FBH] + (holder * HIST_TRUMPS + htr) * 4 + fate] += 1


@njit(**KERNEL_JIT)
def run_chunk(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card,
              top_trump, policies, seed, start, count, out, acc, off, ptab, scr):
    """Deal and play ``count`` deals, numbered ``start, start+1, …``.

    Deal ``i`` uses an RNG stream keyed by ``(seed, i)`` and dealer ``i % n`` (the deal
    rotates), so results depend on the seed only, never on threads or chunking. The
    kernel releases the GIL: callers run disjoint ranges on several threads.

    Parameters
    ----------
    policies : int64 (n,) policy id per seat.
    seed : uint64.
    start : int64, number of the first deal; count : int64, number of deals.
    out : int16 (count, N_FIXED + n * N_PER_POS) filled with one outcome row per deal, or
        an array with 0 rows for no rows.
    acc : int64 flat accumulator that every deal is folded into (layout ``off``, int64
        offsets ``A_*``; see :func:`catchten_sim.aggregate.acc_layout`), or an empty array.
    ptab : :func:`policy_tables`; scr : :func:`scratch` (one per thread).
    """
    n = params[P_N]
    deck_mask, hon_mask = ptab[0], ptab[1]
    set_hands, hands_cur, owner, cap_mask, seat_tricks, side_trump_leads, spos, side_acc, \
        row = scr
    want_rows = out.shape[0] > 0
    want_acc = acc.shape[0] > 0
    all_random = all_seats_random(policies)
    for i in range(count):
        deal_index = start + i
        s = rng_seed(seed, deal_index)
        dealer = deal_index % n
        trump, turnup, dead, s = deal_trumps(params, deck_mask, trump_power, honours, dealer,
                                             s, set_hands, owner)
        if all_random:
            # a copy of the play loop without the other policies: fewer live values
            ten_taker, s = play_deal(params, side_of_seat, trump_power, honours, ten_card,
                                     top_trump, ptab, set_hands, dealer, trump, turnup,
                                     policies, s, spos, spos, hands_cur, owner, cap_mask,
                                     seat_tricks, side_trump_leads, False,
                                     (spos, side_acc, spos), True, FRESH, False)
        else:
            ten_taker, s = play_deal(params, side_of_seat, trump_power, honours, ten_card,
                                     top_trump, ptab, set_hands, dealer, trump, turnup,
                                     policies, s, spos, spos, hands_cur, owner, cap_mask,
                                     seat_tricks, side_trump_leads, False,
                                     (spos, side_acc, spos), False, FRESH, False)
        outcome_row(row, params, side_of_seat, honours, ten_card, deck_mask, hon_mask,
                    set_hands, owner, dealer, trump, ten_taker, cap_mask, seat_tricks,
                    side_acc)
        if want_acc:
            fold_row(row, n, side_of_seat, acc, off)
        if want_rows:
            for j in range(row.shape[0]):
                out[i, j] = row[j]


@njit(**KERNEL_JIT)
def _deal_one(params, deck_mask, trump_power, honours, seed, deal_index, set_hands, owner,
              res):
    """Kernel of :func:`deal_one`: ``res`` (int64 (4,)) gets dealer, trump, turnup, dead;
    returns the RNG state."""
    n = params[P_N]
    dealer = deal_index % n
    s = rng_seed(seed, deal_index)
    trump, turnup, dead, s = deal_trumps(params, deck_mask, trump_power, honours, dealer, s,
                                         set_hands, owner)
    res[0] = dealer
    res[1] = trump
    res[2] = turnup
    res[3] = dead
    return s


@njit(**KERNEL_JIT)
def _play_given(params, side_of_seat, trump_power, honours, ten_card, top_trump, set_hands,
                dealer, trump, turnup, policies, rng_state, script, ptab, scr, logs,
                cap_hon, cap_cards):
    """Kernel of :func:`play_given`; returns the seat that took the Ten (-1: nobody)."""
    n = params[P_N]
    n_sets = params[P_NSETS]
    n_sides = params[P_NSIDES]
    hon_mask = ptab[1]
    _sh, hands_cur, owner, cap_mask, seat_tricks, side_trump_leads, spos, side_acc, \
        row = scr
    for c in range(52):
        owner[c] = -1
    spos[0] = 0
    for st in range(n_sets):
        for p in range(n):
            m = set_hands[st, p]
            while m != 0:
                owner[lowest_index(m)] = p
                m &= m - 1
    ten_taker, s = play_deal(params, side_of_seat, trump_power, honours, ten_card, top_trump,
                             ptab, set_hands, dealer, trump, turnup, policies, rng_state,
                             script, spos, hands_cur, owner, cap_mask, seat_tricks,
                             side_trump_leads, True, logs, False, FRESH, False)
    hmask = hon_mask[trump]
    for u in range(n_sets):
        for sd in range(n_sides):
            m = cap_mask[u, sd]
            cap_cards[u, sd] = popcount(m)
            cap_hon[u, sd] = 0
            m &= hmask
            while m != 0:
                cap_hon[u, sd] += honours[trump, lowest_index(m)]
                m &= m - 1
    return ten_taker


_NO_ACC = np.zeros(0, dtype=np.int64)


def simulate_chunk(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card,
                   top_trump, policies, seed, start, out):
    """Deal and play ``out.shape[0]`` deals numbered ``start, start+1, …`` and fill ``out``
    (int16, one outcome row per deal): :func:`run_chunk` with rows and no accumulator."""
    run_chunk(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card,
              top_trump, np.asarray(policies, dtype=np.int64), np.uint64(seed),
              np.int64(start), np.int64(out.shape[0]), out, _NO_ACC, _NO_ACC,
              policy_tables(params, deck, side_of_seat, trump_power, rank_power, honours,
                            ten_card), scratch(params, deck))


def deal_one(params, deck, trump_power, honours, seed, deal_index):
    """Deal number ``deal_index`` of a simulation with ``seed``, exactly as
    :func:`run_chunk` deals it.

    Returns
    -------
    set_hands : int64 (n_sets, n); dealer, trump, turnup, dead : ints;
    state : uint64, the RNG state after the deal (what the random policy draws from next).
    """
    set_hands, _, owner = scratch(params, deck)[:3]
    res = np.zeros(4, dtype=np.int64)
    deck_mask = np.int64((np.int64(1) << np.asarray(deck, dtype=np.int64)).sum())
    s = _deal_one(params, deck_mask, trump_power, honours, np.uint64(seed),
                  np.int64(deal_index), set_hands, owner, res)
    return set_hands, int(res[0]), int(res[1]), int(res[2]), int(res[3]), np.uint64(s)


def play_given(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card,
               top_trump, set_hands, dealer, trump, turnup, policies, rng_state, script):
    """Play one deal from given hands (for records, tests and rollouts).

    ``rng_state`` (uint64) feeds the random policy; ``script`` the scripted one.

    Returns
    -------
    log_leader : int64 (tricks,)
    log_cards : int64 (tricks, n) cards in play order within each trick
    log_winner : int64 (tricks,)
    cap_hon, cap_cards : int64 (n_sets, n_sides) honours and cards taken per scoring
        unit (row 0 only without per-set scoring)
    ten_taker : int
    """
    n = int(params[P_N])
    n_sets = int(params[P_NSETS])
    n_sides = int(params[P_NSIDES])
    total_tricks = n_sets * int(params[P_SETSIZE])
    logs = (np.zeros(total_tricks, dtype=np.int64), np.zeros((total_tricks, n), dtype=np.int64),
            np.zeros(total_tricks, dtype=np.int64))
    cap_hon = np.zeros((n_sets, n_sides), dtype=np.int64)
    cap_cards = np.zeros((n_sets, n_sides), dtype=np.int64)
    ten_taker = _play_given(
        params, side_of_seat, trump_power, honours, ten_card, top_trump,
        np.ascontiguousarray(set_hands, dtype=np.int64), np.int64(dealer), np.int64(trump),
        np.int64(turnup), np.asarray(policies, dtype=np.int64), np.uint64(rng_state),
        np.ascontiguousarray(script, dtype=np.int64),
        policy_tables(params, deck, side_of_seat, trump_power, rank_power, honours, ten_card),
        scratch(params, deck), logs, cap_hon, cap_cards)
    return logs[0], logs[1], logs[2], cap_hon, cap_cards, int(ten_taker)
