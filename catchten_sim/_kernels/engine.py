"""The playout entry kernels: play a deal, fold its outcome, batches of deals.

Arrays and ints in, arrays and ints out (DESIGN.md §3). Rules arrive as the
:data:`catchten_sim.rules.Tables` bundle ``tab``; nothing here knows a preset by name. The
rules themselves live in :mod:`.trick` (legal cards, the trick winner, §1, §3, §7.3,
§7.6), :mod:`.scoring` (honours, the 10♦ bonus, card points, §2, §7.1, §7.2), :mod:`.deal`
(dealing, §1-§3) and :mod:`.policy` (who plays which card); this module strings them
together. Every function assumes valid input: the Python wrappers validate first.

Entry kernels (``KERNEL_JIT``: no reference counting, allocate nothing)
---------------------------------------------------------------------
``run_chunk(tab, policies, seed, start, count, out, accs, scr)`` (Python) a chunk of
deals, by one of two entry kernels, so that a first run compiles only the play kernel it
needs. Both play the deals in batches of up to ``BATCH`` in a kernel of their own (its
arguments copied once per batch), whose results come back in the rows of
``Scratch.batch`` (:func:`batch_row`) and are folded one by one (:func:`_score_rows`).
When every seat plays ``random``, ``_run_random`` calls ``_random_batch(tab, sp, lanes,
batch, seed, ia, m)`` (a :data:`PairTables`, two :data:`Lane`), which deals and plays
them two at a time in lockstep (:func:`.deal.deal_cards2`, :func:`play_random2`; each
deal exactly as alone). Otherwise ``_run_policies`` calls ``_play_batch(tab, sp, scr,
policies, seed, ia, m)`` (a :data:`PlayTables`, a :data:`PlayScratch`): each deal after
the first dealt card by card while the one before is played (:func:`play_and_deal`).
``_deal_one(tab, seed, deal_index, scr, res)`` and ``_play_given(tab, scr, deal, policies,
rng_state, script, logs, res)``: the kernels of :func:`deal_one` and :func:`play_given`.

Scratch (:func:`scratch`, one per thread) is the named tuple :data:`Scratch`.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .bits import JIT, KERNEL_JIT, ix, lowest_index, popcount, rng_below_s, rng_seed, select_bit
from .deal import deal_begin, deal_cards2, deal_step, deal_trumps, fix_trumps
from .layout import (A_ADV, A_ADVSQ, A_FATE, A_FBH, A_HCP, A_HHON, A_HOLDN, A_HOLDS,
                     A_HOLDSS, A_HTOT, A_NDEALS, A_SIDE, A_SIDESQ, A_SUMS, A_SUMSQ, A_NOFF,
                     C_DEALER, C_HOLDER_TRUMPS, C_TEN_FATE, C_TEN_HOLDER, C_TEN_TAKER,
                     C_TRUMP, F_CARD_POINTS, F_CARDS, F_HONOURS, F_HONOURS_DEALT,
                     F_SEAT_TRICKS, F_SEAT_TRUMPS, F_SIDE_TRICKS, F_TOTAL, FATE_CAUGHT,
                     FATE_DEAD, FATE_NO_TRUMPS, FATE_SAVED, HIST, HIST_TRUMPS, LINE,
                     N_FIELDS, N_FIXED, N_PER_POS, NO_TRUMPS, P_N, P_NSETS, P_NSIDES,
                     P_SETSIZE, POL_HEURISTIC, POL_RANDOM, POL_SCRIPTED)
from .policy import Turn, choose_card
from .scoring import honours_dealt, side_score, unit_of_set, unit_score
from .spec import S_N, S_NSETS, S_NSIDES, S_NUNITS, S_SETSIZE, spec_of
from .trick import (card_suit, legal_cards, lock_bit, suit_mask, take_trick, trump_mask,
                    turnup_lock_bit, winning_card)

__all__ = [  # layout names re-exported for the callers that read them from here
    "A_ADV", "A_ADVSQ", "A_FATE", "A_FBH", "A_HCP", "A_HHON", "A_HOLDN", "A_HOLDS",
    "A_HOLDSS", "A_HTOT", "A_NDEALS", "A_NOFF", "A_SIDE", "A_SIDESQ", "A_SUMS", "A_SUMSQ",
    "C_DEALER", "C_HOLDER_TRUMPS", "C_TEN_FATE", "C_TEN_HOLDER", "C_TEN_TAKER", "C_TRUMP",
    "F_CARD_POINTS", "F_CARDS", "F_HONOURS", "F_HONOURS_DEALT", "F_SEAT_TRICKS",
    "F_SEAT_TRUMPS", "F_SIDE_TRICKS", "F_TOTAL", "FATE_CAUGHT", "FATE_DEAD",
    "FATE_NO_TRUMPS", "FATE_SAVED", "HIST", "HIST_TRUMPS", "N_FIELDS", "N_FIXED",
    "N_PER_POS", "NO_TRUMPS", "POL_HEURISTIC", "POL_RANDOM", "POL_SCRIPTED", "FRESH",
    "Dealt", "Log", "Seats", "Start",
    "Scratch", "deal_one", "padded_zeros", "play_deal", "play_given", "run_chunk", "scratch",
    "simulate_chunk"]

#: a deal as :func:`play_deal` plays it: ``dealer``, ``trump`` (4 = none), ``turnup`` (-1
#: when there is none)
Dealt = namedtuple("Dealt", ["dealer", "trump", "turnup"])
#: who plays the cards (:func:`play_deal`): ``policies`` int64 (n,) policy id per seat;
#: ``script`` int64 choices for ``POL_SCRIPTED`` (``Scratch.spos[0]`` the next position);
#: ``only_random`` bool, every seat plays ``random`` (a leaner loop; ``trump_leads`` is
#: then not kept)
Seats = namedtuple("Seats", ["policies", "script", "only_random"])
#: the card-by-card log of :func:`play_deal`, written when ``on``: ``leader`` (tricks,),
#: ``cards`` (tricks, n) in play order, ``winner`` (tricks,), int64
Log = namedtuple("Log", ["on", "leader", "cards", "winner"])
#: where :func:`play_deal` starts: with ``resume`` False a fresh deal (the rest ignored;
#: captures, tricks and trump leads zeroed); with ``resume`` True from trick ``t0`` (over
#: the whole deal) led by ``leader0``, whose first ``k0`` cards (mask ``tm0``, led suit
#: ``led0``) are already on the table (``k0`` may be ``n``: the trick is then only
#: resolved); ``played0`` the cards of the earlier tricks; ``ten_taker0`` the seat that
#: took the Ten in them (-1 none). :func:`play_deal` then adds to ``cap``,
#: ``seat_tricks`` and ``trump_leads`` as the caller filled them (the current trick's
#: lead is not in ``trump_leads`` yet: it is counted when the trick ends), and
#: ``set_hands[t0 // set_size]`` must hold the cards each seat holds now, later sets
#: their cards, ``owner`` the seat of every card (played ones included).
Start = namedtuple("Start", ["resume", "t0", "leader0", "k0", "tm0", "led0", "played0",
                             "ten_taker0"])
_Z = np.int64(0)
#: the :data:`Start` of a fresh deal
FRESH = Start(False, _Z, _Z, _Z, _Z, _Z, _Z, np.int64(-1))

#: the kernels' work arrays, one per thread: ``set_hands`` (n_sets, n) each seat's cards
#: per set; ``hands`` (n,) the cards held now; ``owner`` (52,) seat dealt each card (-1
#: none); ``cap`` (n_sets, n_sides) cards taken per scoring unit and side (row 0 only
#: without per-set scoring); ``seat_tricks`` (n,); ``trump_leads`` (n_sides,);
#: ``spos`` (1,) position in a script; ``side_acc`` (7, n_sides) per-side sums of a deal;
#: the fold's per-(dealer, side) and per-(dealer, seat) sums (:func:`fold_deal`):
#: ``c_sums`` (n, n_sides, 2, F_SEAT_TRICKS) sums and sums of squares of the side fields,
#: ``c_seat`` (n, n, 2) of seat tricks, ``c_hist`` (n, n_sides, 3, HIST) histograms of
#: total, honours and card points, ``c_adv`` (n, n_sides, 2) of the advantage. All int64.
#: ``batch`` (BATCH, batch_width) the results of a batch of deals played by
#: :func:`_play_batch` (:func:`batch_row`). ``lane``: a :data:`Lane`, the second of two
#: deals played in lockstep by :func:`play_random2` (the first is played in the arrays
#: above); its ``set_hands`` also holds the deal :func:`_play_batch` deals next.
Scratch = namedtuple("Scratch", ["set_hands", "hands", "owner", "cap", "seat_tricks",
                                 "trump_leads", "spos", "side_acc", "c_sums", "c_seat",
                                 "c_hist", "c_adv", "lane", "batch"])
#: deals per call of :func:`_play_batch`
BATCH = 32
#: the play arrays of :data:`Scratch` (same names, shapes and meaning) for the second of
#: two deals played in lockstep
Lane = namedtuple("Lane", ["set_hands", "hands", "owner", "cap", "seat_tricks"])


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


def scratch(tab) -> Scratch:
    """A :data:`Scratch` for the rules of ``tab`` (one per thread, :func:`padded_zeros`)."""
    params = tab.params
    n = int(params[P_N])
    n_sets = int(params[P_NSETS])
    n_sides = int(params[P_NSIDES])
    shapes = [(n_sets, n), (n,), (52,), (n_sets, n_sides), (n,), (n_sides,), (1,),
              (F_HONOURS_DEALT + 1, n_sides), (n, n_sides, 2, F_SEAT_TRICKS), (n, n, 2),
              (n, n_sides, 3, HIST), (n, n_sides, 2), (BATCH, batch_width(n, n_sets, n_sides))]
    lane = Lane._make(padded_zeros(shapes[:5], [None, None, -1, None, None]))
    arrays = padded_zeros(shapes, [None, None, -1] + [None] * 10)
    return Scratch._make(arrays[:-1] + [lane, arrays[-1]])


def batch_width(n, n_sets, n_sides):
    """Words of one deal's results in ``Scratch.batch`` (:func:`batch_row`)."""
    return n_sets * n + n_sets * n_sides + n + 2


@njit(inline="always", **JIT)
def play_deal(tab, sp, scr, dealt, seats, s, log, start):
    """:func:`play_and_deal` without dealing a next deal: ``(ten_taker, s)``."""
    z = np.int64(0)
    nd = (False, scr.set_hands, (np.uint64(0), z, z, z, z, z))
    ten_taker, s, _ = play_and_deal(tab, sp, scr, dealt, seats, s, log, start, nd)
    return ten_taker, s


@njit(inline="always", **JIT)
def play_and_deal(tab, sp, scr, dealt, seats, s, log, start, nd):
    """Play one deal from dealt hands (or from a mid-deal state) to the end; fill the
    capture masks (and the log).

    Parameters
    ----------
    tab : :data:`catchten_sim.rules.Tables`; sp : the shape tuple of :mod:`.spec`;
    scr : :data:`Scratch`: ``set_hands`` the
        deal, ``owner`` the seat of every card; ``cap``, ``seat_tricks``, ``trump_leads``
        out; ``hands`` and ``spos`` work.
    dealt : :data:`Dealt`; seats : :data:`Seats`; ``s`` uint64 RNG state (random policy).
    log : :data:`Log`; start : :data:`Start` (a fresh deal: :data:`FRESH`).
    nd : ``(deal_next, hands_next, dl)``: with ``deal_next`` (a compile-time bool), the
        next deal is dealt into ``hands_next`` one card per card played, from the dealing
        state ``dl`` of :func:`.deal.deal_begin` (nothing when its position is -1), and
        finished after the play: its chain of dependent steps runs beside the play's.

    Returns
    -------
    (int, uint64, uint64)
        The seat that took the Ten of trumps (-1 when nobody did), the RNG state, the RNG
        state of the next deal after its dealing.

    Rules: :func:`.trick.legal_cards`, :func:`.trick.winning_card` (kept card by card:
    a card wins so far when it is in ``Tables.beats`` of the card winning before it); set
    transitions (docs/rules.md §2); the trick taken by :func:`.trick.take_trick`.
    """
    side_of_seat = tab.side_of_seat
    top_trump = tab.top_trump
    set_hands = scr.set_hands
    hands_cur = scr.hands
    owner = scr.owner
    cap_mask = scr.cap
    seat_tricks = scr.seat_tricks
    trump_leads = scr.trump_leads
    dealer, trump, turnup = dealt
    policies, script, only_random = seats
    do_log, log_leader, log_cards, log_winner = log
    resume = start.resume
    n = sp[S_N]
    n_sets = sp[S_NSETS]
    set_size = sp[S_SETSIZE]
    n_units = sp[S_NUNITS]
    total_tricks = n_sets * set_size
    play_rules = tab.play_rules
    turnup_bit = turnup_lock_bit(play_rules, turnup)
    tmask = trump_mask(trump)
    beats_t = tab.beats[ix(trump)]
    ten = tab.ten_card[ix(trump)]
    ten_bit = np.int64(1) << ten if ten >= 0 else np.int64(0)
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
        _, t_index, leader, k_first, tm_first, led_first, played, ten_taker = start
    else:
        for u in range(cap_mask.shape[0]):
            for sd in range(cap_mask.shape[1]):
                cap_mask[u, sd] = 0
        for p in range(n):
            seat_tricks[p] = 0
        for sd in range(trump_leads.shape[0]):
            trump_leads[sd] = 0
    deal_next, hands_next, dl = nd
    d_s, d_rest, d_i, d_seat, d_st, d_left = dl
    psc = n * set_size
    st_first = t_index // set_size
    t_first = t_index - st_first * set_size
    for st in range(st_first, n_sets):
        for p in range(n):
            hands_cur[p] = set_hands[st, p]
        unit = unit_of_set(n_units, st)
        for t in range(t_first if st == st_first else 0, set_size):
            lock = lock_bit(turnup_bit, t_index, total_tricks)
            led = 0
            ledmask = np.int64(0)
            tm = np.int64(0)
            k0 = 0
            if resume and t_index == start.t0:
                k0 = k_first
                tm = tm_first
                led = led_first
                ledmask = suit_mask(led) if k0 > 0 else np.int64(0)
            # the card winning the trick so far and its seat, kept card by card
            # (:func:`.trick.winning_card` of the cards on the table)
            win = -1
            win_seat = -1
            if k0 > 0:
                win = winning_card(tm, ledmask, trump, top_trump)
                win_seat = owner[win]
            seat = leader + k0
            seat = seat - n if seat >= n else seat
            for k in range(k0, n):
                if deal_next and d_i >= 0:
                    d_s, d_rest, d_i, d_seat, d_st, d_left = deal_step(
                        (d_s, d_rest, d_i, d_seat, d_st, d_left), hands_next, n, psc)
                hand = hands_cur[ix(seat)]
                legal = legal_cards(play_rules, hand, lock, k, ledmask, t == 0, tmask)
                pol = POL_RANDOM if only_random else policies[ix(seat)]
                turn = Turn(seat, legal, hand, k, led, tm, trump, played, (win, win_seat))
                c, s = choose_card(tab, pol, turn, trump_leads, s, script, scr.spos)
                bit = np.int64(1) << c
                hands_cur[ix(seat)] = hand ^ bit
                tm |= bit
                if do_log:
                    log_cards[t_index, k] = c
                if k == 0:
                    led = card_suit(c)
                    ledmask = suit_mask(led)
                    win = c
                    win_seat = seat
                elif ((beats_t[ix(win)] >> c) & 1) != 0:
                    win = c
                    win_seat = seat
                seat = seat + 1
                seat = 0 if seat == n else seat
            played |= tm
            ten_taker = take_trick(tab, scr, unit, win_seat, tm, ten_bit, ten_taker)
            if not only_random:             # only the heuristic reads trump leads
                trump_leads[ix(side_of_seat[ix(leader)])] += 1 if led == trump else 0
            if do_log:
                log_leader[t_index] = leader
                log_winner[t_index] = win_seat
            leader = win_seat
            t_index += 1
    while deal_next and d_i >= 0:
        d_s, d_rest, d_i, d_seat, d_st, d_left = deal_step(
            (d_s, d_rest, d_i, d_seat, d_st, d_left), hands_next, n, psc)
    return ten_taker, s, d_s


@njit(forceinline=True, **KERNEL_JIT)
def _random_card(play_rules, hands, seat, lock, k, ledmask, first, tmask, s):
    """One card of the random policy for :func:`play_random2`: takes a uniformly drawn
    legal card (:func:`.policy.choose_card`'s draw) out of ``hands[seat]``; returns
    ``(bit, s)``. Compiled once by numba, inlined by LLVM (``forceinline``; ``k`` is
    passed as int64 at every site, so that one signature serves the four)."""
    hand = hands[seat]
    legal = legal_cards(play_rules, hand, lock, k, ledmask, first, tmask)
    s, r = rng_below_s(s, popcount(legal))
    bit = select_bit(legal, r)
    hands[seat] = hand ^ bit
    return bit, s


@njit(inline="always", **JIT)
def _end_trick(tab, lane, unit, tm, ledmask, trump, ten_bit, ten_taker):
    """Resolve a trick of :func:`play_random2` in ``lane`` (:func:`.trick.take_trick`):
    ``(winner, ten_taker)``."""
    win = lane.owner[winning_card(tm, ledmask, trump, tab.top_trump)]
    return win, take_trick(tab, lane, unit, win, tm, ten_bit, ten_taker)


@njit(inline="always", **JIT)
def play_random2(tab, sp, a, b, deal_a, deal_b):
    """Two fresh deals played out by the random policy in lockstep: card ``k`` of trick
    ``t`` of deal ``a``, then of deal ``b``. Their chains of dependent steps (hand, legal
    cards, draw, winner, next leader) are independent, so the CPU overlaps them; each
    deal draws from its own RNG state exactly as :func:`play_deal` (``only_random``)
    does, so each plays exactly as it would alone.

    ``a``, ``b``: :data:`Scratch` or :data:`Lane` holding the dealt ``set_hands`` and
    ``owner``; ``cap`` and ``seat_tricks`` out, ``hands`` work. ``deal_a``, ``deal_b``:
    ``(dealer, trump, turnup, s)`` (``s`` the uint64 RNG state after the deal).
    Returns ``(ten_taker_a, ten_taker_b, s_a, s_b)``. Rules as :func:`play_deal`.
    """
    n = sp[S_N]
    n_sets = sp[S_NSETS]
    set_size = sp[S_SETSIZE]
    n_units = sp[S_NUNITS]
    total_tricks = n_sets * set_size
    pr = tab.play_rules
    dealer_a, trump_a, turnup_a, s_a = deal_a
    dealer_b, trump_b, turnup_b, s_b = deal_b
    tb_a = turnup_lock_bit(pr, turnup_a)
    tb_b = turnup_lock_bit(pr, turnup_b)
    tmask_a = trump_mask(trump_a)
    tmask_b = trump_mask(trump_b)
    ten = tab.ten_card[trump_a]
    ten_a = np.int64(1) << ten if ten >= 0 else np.int64(0)
    ten = tab.ten_card[trump_b]
    ten_b = np.int64(1) << ten if ten >= 0 else np.int64(0)
    tt_a = -1
    tt_b = -1
    lead_a = dealer_a + 1 if dealer_a + 1 < n else 0
    lead_b = dealer_b + 1 if dealer_b + 1 < n else 0
    for u in range(a.cap.shape[0]):
        for sd in range(a.cap.shape[1]):
            a.cap[u, sd] = 0
            b.cap[u, sd] = 0
    for p in range(n):
        a.seat_tricks[p] = 0
        b.seat_tricks[p] = 0
    t_index = 0
    for st in range(n_sets):
        for p in range(n):
            a.hands[p] = a.set_hands[st, p]
            b.hands[p] = b.set_hands[st, p]
        unit = unit_of_set(n_units, st)
        for t in range(set_size):
            first = t == 0
            lock_a = lock_bit(tb_a, t_index, total_tricks)
            lock_b = lock_bit(tb_b, t_index, total_tricks)
            seat_a = lead_a
            seat_b = lead_b
            tm_a, s_a = _random_card(pr, a.hands, seat_a, lock_a, np.int64(0), np.int64(0),
                                     first, tmask_a, s_a)
            tm_b, s_b = _random_card(pr, b.hands, seat_b, lock_b, np.int64(0), np.int64(0),
                                     first, tmask_b, s_b)
            led_a = suit_mask(card_suit(lowest_index(tm_a)))
            led_b = suit_mask(card_suit(lowest_index(tm_b)))
            for k in range(1, n):
                seat_a = seat_a + 1 if seat_a + 1 < n else 0
                seat_b = seat_b + 1 if seat_b + 1 < n else 0
                bit, s_a = _random_card(pr, a.hands, seat_a, lock_a, k, led_a, first,
                                        tmask_a, s_a)
                tm_a |= bit
                bit, s_b = _random_card(pr, b.hands, seat_b, lock_b, k, led_b, first,
                                        tmask_b, s_b)
                tm_b |= bit
            lead_a, tt_a = _end_trick(tab, a, unit, tm_a, led_a, trump_a, ten_a, tt_a)
            lead_b, tt_b = _end_trick(tab, b, unit, tm_b, led_b, trump_b, ten_b, tt_b)
            t_index += 1
    return tt_a, tt_b, s_a, s_b


@njit(inline="always", **JIT)
def side_sums(tab, sp, scr, trump):
    """Per-side sums of a played deal into ``scr.side_acc`` (7, n_sides), rows ``F_*`` in the
    order: honours taken, cards taken, card points, total, side tricks, (unused), honours
    dealt (docs/rules.md §2, §7.1, §7.2; :mod:`.scoring`). Returns the seat
    dealt the Ten of trumps (-1: none)."""
    n_sides = sp[S_NSIDES]
    n_units = sp[S_NUNITS]
    acc = scr.side_acc
    for sd in range(n_sides):
        h, k, cp = side_score(tab, trump, scr.cap, sd, n_units)
        acc[F_HONOURS, sd] = h
        acc[F_CARDS, sd] = k
        acc[F_CARD_POINTS, sd] = cp
        acc[F_TOTAL, sd] = h + cp
        acc[F_SIDE_TRICKS, sd] = 0
        acc[F_HONOURS_DEALT, sd] = 0
    for q in range(sp[S_N]):
        acc[F_SIDE_TRICKS, tab.side_of_seat[q]] += scr.seat_tricks[q]
    return honours_dealt(tab, sp[S_N], scr.set_hands, trump, acc[F_HONOURS_DEALT])


@njit(inline="always", **JIT)
def ten_fate(tab, trump, holder, ten_taker):
    """The fate of the Ten of trumps (``FATE_*``)."""
    if trump == NO_TRUMPS:
        return FATE_NO_TRUMPS
    if holder < 0:
        return FATE_DEAD
    if tab.side_of_seat[holder] == tab.side_of_seat[ten_taker]:
        return FATE_SAVED
    return FATE_CAUGHT


@njit(inline="always", **JIT)
def seat_trumps(sp, scr, trump, seat):
    """Trumps dealt to ``seat`` (over all sets)."""
    tmask = trump_mask(trump)
    k = 0
    for st in range(sp[S_NSETS]):
        k += popcount(scr.set_hands[st, seat] & tmask)
    return k


@njit(inline="always", **JIT)
def outcome_row(tab, sp, scr, dealer, trump, ten_taker, holder, row):
    """Fill one outcome row (``row``, columns ``C_*`` and per-position fields ``F_*``)
    after :func:`side_sums`."""
    n = sp[S_N]
    acc = scr.side_acc
    row[C_DEALER] = dealer
    row[C_TRUMP] = trump
    row[C_TEN_FATE] = ten_fate(tab, trump, holder, ten_taker)
    row[C_TEN_HOLDER] = 0
    row[C_TEN_TAKER] = 0
    row[C_HOLDER_TRUMPS] = 0
    seat = dealer
    for pos in range(n):
        seat += 1
        if seat == n:
            seat = 0
        side = tab.side_of_seat[seat]
        strumps = seat_trumps(sp, scr, trump, seat)
        if seat == holder:
            row[C_HOLDER_TRUMPS] = strumps
            row[C_TEN_HOLDER] = pos + 1
        if seat == ten_taker:
            row[C_TEN_TAKER] = pos + 1
        base = N_FIXED + pos * N_PER_POS
        for j in range(F_SEAT_TRICKS):
            row[base + j] = acc[j, side]
        row[base + F_SEAT_TRICKS] = scr.seat_tricks[seat]
        row[base + F_HONOURS_DEALT] = acc[F_HONOURS_DEALT, side]
        row[base + F_SEAT_TRUMPS] = strumps


@njit(inline="always", **JIT)
def _clip(v, hi):
    v = v if v > 0 else 0
    return v if v < hi else hi


@njit(inline="always", **JIT)
def fold_deal(tab, sp, scr, dealer, trump, ten_taker, holder, acc, off):
    """Add one played deal to the statistics, straight from the per-side sums of
    :func:`side_sums` (no outcome row): the per-position blocks go to the per-(dealer,
    side) and per-(dealer, seat) sums of ``scr`` (a position's values are its side's, so
    one write per side instead of one per position), spread to positions by
    :func:`fold_flush`; the rest to the flat accumulator ``acc`` (layout ``off``, the
    ``A_*`` offsets of :func:`catchten_sim.aggregate.acc_layout`). Together the same
    statistics as :meth:`catchten_sim.aggregate.OutcomeAccumulator.add` of the deal's
    outcome row (checked by tests/test_kernel_fold.py)."""
    n = sp[S_N]
    n_sides = sp[S_NSIDES]
    side_of_seat = tab.side_of_seat
    sacc = scr.side_acc
    fate = ten_fate(tab, trump, holder, ten_taker)
    acc[off[A_FATE] + fate] += 1
    acc[off[A_NDEALS]] += 1
    row_sum = 0
    for q in range(n):
        row_sum += sacc[F_TOTAL, side_of_seat[q]]
        v = scr.seat_tricks[q]
        scr.c_seat[dealer, q, 0] += v
        scr.c_seat[dealer, q, 1] += v * v
    for side in range(n_sides):
        cs = scr.c_sums[dealer, side]
        for j in range(F_SEAT_TRICKS):
            v = sacc[j, side]
            cs[0, j] += v
            cs[1, j] += v * v
        tot = sacc[F_TOTAL, side]
        ch = scr.c_hist[dealer, side]
        ch[0, _clip(tot, HIST - 1)] += 1
        ch[1, _clip(sacc[F_HONOURS, side], HIST - 1)] += 1
        ch[2, _clip(sacc[F_CARD_POINTS, side], HIST - 1)] += 1
        d = n * tot - row_sum
        scr.c_adv[dealer, side, 0] += d
        scr.c_adv[dealer, side, 1] += d * d
        # side totals (by side number), and the value of a holding: each side once
        acc[off[A_SIDE] + side] += tot
        acc[off[A_SIDESQ] + side] += tot * tot
        dealt = _clip(sacc[F_HONOURS_DEALT, side], HIST - 1)
        acc[off[A_HOLDN] + dealt] += 1
        acc[off[A_HOLDS] + dealt] += tot
        acc[off[A_HOLDSS] + dealt] += tot * tot
    hpos = 0
    htr = 0
    if holder >= 0:
        hpos = holder - dealer
        hpos = hpos + n if hpos <= 0 else hpos
        htr = _clip(seat_trumps(sp, scr, trump, holder), HIST_TRUMPS - 1)
    acc[off[A_FBH] + (hpos * HIST_TRUMPS + htr) * 4 + fate] += 1


@njit(inline="always", **JIT)
def fold_flush(tab, sp, scr, acc, off):
    """Spread the per-(dealer, side/seat) sums of :func:`fold_deal` to the positions of
    ``acc`` (position ``p`` of dealer ``d`` is seat ``(d + 1 + p) % n``) and zero them."""
    n = sp[S_N]
    o_sums = off[A_SUMS]
    o_sumsq = off[A_SUMSQ]
    for d in range(n):
        for p in range(n):
            seat = (d + 1 + p) % n
            side = tab.side_of_seat[seat]
            b = p * N_FIELDS
            for j in range(F_SEAT_TRICKS):
                acc[o_sums + b + j] += scr.c_sums[d, side, 0, j]
                acc[o_sumsq + b + j] += scr.c_sums[d, side, 1, j]
            acc[o_sums + b + F_SEAT_TRICKS] += scr.c_seat[d, seat, 0]
            acc[o_sumsq + b + F_SEAT_TRICKS] += scr.c_seat[d, seat, 1]
            for k, blk in enumerate((A_HTOT, A_HHON, A_HCP)):
                o = off[blk] + p * HIST
                for v in range(HIST):
                    acc[o + v] += scr.c_hist[d, side, k, v]
            acc[off[A_ADV] + p] += scr.c_adv[d, side, 0]
            acc[off[A_ADVSQ] + p] += scr.c_adv[d, side, 1]
    scr.c_sums[:] = 0
    scr.c_seat[:] = 0
    scr.c_hist[:] = 0
    scr.c_adv[:] = 0


#: the tables :func:`_random_batch` reads (the fewer arrays a kernel call passes, the
#: cheaper the call)
PairTables = namedtuple("PairTables", ["deck_mask", "play_rules", "deal_rules", "honours",
                                       "ten_card", "top_trump", "side_of_seat"])


@njit(**KERNEL_JIT)
def _random_batch(tab, sp, lanes, batch, seed, ia, m):
    """Deals ``ia`` to ``ia + m - 1`` of :func:`_run_random` (``m <= BATCH``) with every
    seat random, dealt and played two at a time in lockstep (:func:`.deal.deal_cards2`,
    :func:`play_random2`: each deal exactly as alone) in the two :data:`Lane` of
    ``lanes`` (``tab`` a :data:`PairTables`); their results in the rows of ``batch``
    (:func:`batch_row`). With ``m`` odd the last pair's second deal (the next deal's
    number) is played and not kept. A kernel of its own, called once per batch: its
    arguments are copied once per ``m`` deals, not once per pair."""
    n = sp[S_N]
    scr, lane = lanes
    for j in range(0, m, 2):
        a = ia + j
        da = a % n
        db = (a + 1) % n
        tu_a, tu_b, s_a, s_b = deal_cards2(tab, sp, scr, lane, (da, rng_seed(seed, a)),
                                           (db, rng_seed(seed, a + 1)))
        tr_a, tu_a = fix_trumps(tab, scr.set_hands, da, tu_a)
        tr_b, tu_b = fix_trumps(tab, lane.set_hands, db, tu_b)
        tt_a, tt_b, _, _ = play_random2(tab, sp, scr, lane, (da, tr_a, tu_a, s_a),
                                        (db, tr_b, tu_b, s_b))
        batch_row(scr, batch[ix(j)], tr_a, tt_a, True)
        if j + 1 < m:
            batch_row(lane, batch[ix(j + 1)], tr_b, tt_b, True)


#: the tables and scratch arrays :func:`_play_batch` reads (the fewer arrays a kernel
#: call passes, the cheaper the call)
PlayTables = namedtuple("PlayTables", ["deck_mask", "play_rules", "deal_rules", "honours",
                                       "ten_card", "top_trump", "side_of_seat", "trump_power",
                                       "hon_mask", "beats", "clow", "cwin", "pw", "top3",
                                       "opp_after"])
PlayScratch = namedtuple("PlayScratch", ["set_hands", "hands", "owner", "cap", "seat_tricks",
                                         "trump_leads", "spos", "side_acc", "next_hands",
                                         "batch"])


@njit(inline="always", **JIT)
def batch_row(scr, row, trump, ten_taker, save):
    """One deal's results (dealt hands, captures, tricks per seat, trumps, the seat that
    took the Ten) between ``scr`` and ``row`` (a row of ``scr.batch``): ``save`` copies
    them into ``row``, else out of it into ``scr``. Returns ``(trump, ten_taker)``."""
    w = 0
    for a in (scr.set_hands, scr.cap):
        for u in range(a.shape[0]):
            for v in range(a.shape[1]):
                if save:
                    row[w] = a[u, v]
                else:
                    a[u, v] = row[w]
                w += 1
    for p in range(scr.seat_tricks.shape[0]):
        if save:
            row[w] = scr.seat_tricks[p]
        else:
            scr.seat_tricks[p] = row[w]
        w += 1
    if save:
        row[w] = trump
        row[w + 1] = ten_taker
    return row[w], row[w + 1]


@njit(**KERNEL_JIT)
def _play_batch(tab, sp, scr, policies, seed, ia, m):
    """Deals ``ia`` to ``ia + m - 1`` of :func:`run_chunk` (``m <= BATCH``) dealt and
    played by ``policies``; their results in the rows of ``scr.batch`` (:func:`batch_row`).
    A kernel of its own, called once per batch: the play loop keeps its values in
    registers instead of sharing them with run_chunk's fold, and the call (which copies
    every array of ``tab`` and ``scr``) is paid once per batch. Each deal after the
    first is dealt card by card while the deal before it is played
    (:func:`.deal.deal_step` in :func:`play_and_deal`: the CPU overlaps the two chains
    of work), into ``scr.next_hands``; the deals are the same as :func:`.deal.deal_cards`
    deals them (``owner`` is filled for the first only: nothing in run_chunk reads it)."""
    n = sp[S_N]
    log = Log(False, scr.spos, scr.side_acc, scr.spos)        # not written
    trump, turnup, _, s = deal_trumps(tab, sp, ia % n, rng_seed(seed, ia),
                                      scr.set_hands, scr.owner)
    z = np.int64(0)
    for j in range(m):
        a = ia + j
        dn = (a + 1) % n
        deal_next = j + 1 < m
        tu_n = z
        dl = (np.uint64(0), z, np.int64(-1), z, z, z)
        if deal_next:
            tu_n, dl = deal_begin(tab, sp, dn, rng_seed(seed, a + 1), scr.next_hands)
        ten_taker, s, s_n = play_and_deal(tab, sp, scr, Dealt(a % n, trump, turnup),
                                          Seats(policies, scr.spos, False), s, log, FRESH,
                                          (True, scr.next_hands, dl))
        batch_row(scr, scr.batch[ix(j)], trump, ten_taker, True)
        if deal_next:
            trump, turnup = fix_trumps(tab, scr.next_hands, dn, tu_n)
            s = s_n
            for st in range(sp[S_NSETS]):
                for p in range(n):
                    scr.set_hands[st, p] = scr.next_hands[st, p]


def run_chunk(tab, policies, seed, start, count, out, accs, scr):
    """Deal and play ``count`` deals, numbered ``start, start+1, …``.

    Deal ``i`` uses an RNG stream keyed by ``(seed, i)`` and dealer ``i % n`` (the deal
    rotates), so results depend on the seed only, never on threads or chunking. The
    kernels release the GIL: callers run disjoint ranges on several threads.

    Two entry kernels, chosen here: :func:`_run_random` when every seat plays ``random``,
    else :func:`_run_policies`. Each compiles only its own play kernel, so a first run
    compiles one of them (a heuristic run does not compile the random batch kernel, nor
    a random run the policies' batch kernel).

    Parameters
    ----------
    tab : :data:`catchten_sim.rules.Tables`.
    policies : int64 (n,) policy id per seat.
    seed : uint64.
    start : int64, number of the first deal; count : int64, number of deals.
    out : int16 (count, N_FIXED + n * N_PER_POS) filled with one outcome row per deal, or
        an array with 0 rows for no rows.
    accs : ``(acc, off)``: int64 flat accumulator that every deal is folded into (layout
        ``off``, int64 offsets ``A_*``; see :func:`catchten_sim.aggregate.acc_layout`),
        or an empty array.
    scr : :data:`Scratch` (one per thread).
    """
    if bool((policies == POL_RANDOM).all()):
        _run_random(tab, seed, start, count, out, accs, scr)
    else:
        _run_policies(tab, policies, seed, start, count, out, accs, scr)


@njit(inline="always", **JIT)
def _score_deal(tab, sp, scr, result, dest, accs, want):
    """The deal now in ``scr`` (``result`` = ``(dealer, trump, ten_taker)``): its side sums,
    folded into ``accs`` and written to ``out[row]`` (``dest`` = ``(out, row)``) as
    ``want`` = ``(rows wanted, accumulator wanted)`` says."""
    dealer, trump, ten_taker = result
    out, row = dest
    acc, off = accs
    holder = side_sums(tab, sp, scr, trump)
    if want[1]:
        fold_deal(tab, sp, scr, dealer, trump, ten_taker, holder, acc, off)
    if want[0]:
        outcome_row(tab, sp, scr, dealer, trump, ten_taker, holder, out[row])


@njit(inline="always", **JIT)
def _score_rows(tab, sp, scr, ia, i, m, out, accs, want):
    """Deals ``ia`` to ``ia + m - 1``, in the rows of ``scr.batch``, each scored by
    :func:`_score_deal` (``out`` rows from ``i``)."""
    n = sp[S_N]
    for j in range(m):
        trump, ten_taker = batch_row(scr, scr.batch[j], 0, 0, False)
        _score_deal(tab, sp, scr, ((ia + j) % n, trump, ten_taker), (out, i + j), accs, want)


@njit(**KERNEL_JIT)
def _run_random(tab, seed, start, count, out, accs, scr):
    """:func:`run_chunk` with every seat random: batches of up to ``BATCH`` deals played
    two at a time in lockstep by :func:`_random_batch`, their results folded from the
    rows of ``scr.batch`` (as :func:`_run_policies` folds its batches)."""
    sp = spec_of(tab)
    acc, off = accs
    # the bundle the batch kernel takes, built once per call
    pair_tab = PairTables(tab.deck_mask, tab.play_rules, tab.deal_rules, tab.honours,
                          tab.ten_card, tab.top_trump, tab.side_of_seat)
    lanes = (Lane(scr.set_hands, scr.hands, scr.owner, scr.cap, scr.seat_tricks), scr.lane)
    want = (out.shape[0] > 0, acc.shape[0] > 0)
    i = 0
    while i < count:
        m = min(count - i, BATCH)
        _random_batch(pair_tab, sp, lanes, scr.batch, seed, start + i, m)
        _score_rows(tab, sp, scr, start + i, i, m, out, accs, want)
        i += m
    if want[1]:
        fold_flush(tab, sp, scr, acc, off)


@njit(**KERNEL_JIT)
def _run_policies(tab, policies, seed, start, count, out, accs, scr):
    """:func:`run_chunk` with any policies: batches of up to ``BATCH`` deals played by
    :func:`_play_batch`, their results folded from the rows of ``scr.batch``."""
    sp = spec_of(tab)
    acc, off = accs
    # the bundles the batch kernel takes, built once per call
    play_tab = PlayTables(tab.deck_mask, tab.play_rules, tab.deal_rules, tab.honours,
                          tab.ten_card, tab.top_trump, tab.side_of_seat, tab.trump_power,
                          tab.hon_mask, tab.beats, tab.clow, tab.cwin, tab.pw, tab.top3,
                          tab.opp_after)
    play_scr = PlayScratch(scr.set_hands, scr.hands, scr.owner, scr.cap, scr.seat_tricks,
                           scr.trump_leads, scr.spos, scr.side_acc, scr.lane.set_hands,
                           scr.batch)
    want = (out.shape[0] > 0, acc.shape[0] > 0)
    i = 0
    while i < count:
        ia = start + i
        m = min(count - i, BATCH)
        _play_batch(play_tab, sp, play_scr, policies, seed, ia, m)
        _score_rows(tab, sp, scr, ia, i, m, out, accs, want)
        i += m
    if want[1]:
        fold_flush(tab, sp, scr, acc, off)


@njit(**KERNEL_JIT)
def _deal_one(tab, seed, deal_index, scr, res):
    """Kernel of :func:`deal_one`: ``res`` (int64 (4,)) gets dealer, trump, turnup, dead;
    returns the RNG state."""
    sp = spec_of(tab)
    dealer = deal_index % sp[S_N]
    s = rng_seed(seed, deal_index)
    trump, turnup, dead, s = deal_trumps(tab, sp, dealer, s, scr.set_hands, scr.owner)
    res[0] = dealer
    res[1] = trump
    res[2] = turnup
    res[3] = dead
    return s


@njit(**KERNEL_JIT)
def _play_given(tab, scr, deal, policies, rng_state, script, logs, res):
    """Kernel of :func:`play_given`: ``deal`` int64 (3,) dealer, trump, turnup (the hands
    in ``scr.set_hands``); ``res`` (cap_hon, cap_cards, cap_cp) int64 (n_sets, n_sides)
    filled: honours, cards and card points per scoring unit and side.
    Returns the seat that took the Ten (-1: nobody)."""
    params = tab.params
    n = params[P_N]
    n_sets = params[P_NSETS]
    n_sides = params[P_NSIDES]
    cap_hon, cap_cards, cap_cp = res
    owner = scr.owner
    for c in range(52):
        owner[c] = -1
    scr.spos[0] = 0
    for st in range(n_sets):
        for p in range(n):
            m = scr.set_hands[st, p]
            while m != 0:
                owner[lowest_index(m)] = p
                m &= m - 1
    trump = deal[1]
    ten_taker, s = play_deal(tab, spec_of(tab), scr, Dealt(deal[0], trump, deal[2]),
                             Seats(policies, script, False), rng_state,
                             Log(True, logs[0], logs[1], logs[2]), FRESH)
    for u in range(n_sets):
        for sd in range(n_sides):
            cap_hon[u, sd], cap_cards[u, sd], cap_cp[u, sd] = unit_score(tab, trump,
                                                                         scr.cap[u, sd])
    return ten_taker


_NO_ACC = np.zeros(0, dtype=np.int64)


def simulate_chunk(tab, policies, seed, start, out):
    """Deal and play ``out.shape[0]`` deals numbered ``start, start+1, …`` and fill ``out``
    (int16, one outcome row per deal): :func:`run_chunk` with rows and no accumulator."""
    run_chunk(tab, np.asarray(policies, dtype=np.int64), np.uint64(seed), np.int64(start),
              np.int64(out.shape[0]), out, (_NO_ACC, _NO_ACC), scratch(tab))


def deal_one(tab, seed, deal_index):
    """Deal number ``deal_index`` of a simulation with ``seed``, exactly as
    :func:`run_chunk` deals it.

    Returns
    -------
    set_hands : int64 (n_sets, n); dealer, trump, turnup, dead : ints;
    state : uint64, the RNG state after the deal (what the random policy draws from next).
    """
    scr = scratch(tab)
    res = np.zeros(4, dtype=np.int64)
    s = _deal_one(tab, np.uint64(seed), np.int64(deal_index), scr, res)
    return (scr.set_hands.copy(), int(res[0]), int(res[1]), int(res[2]), int(res[3]),
            np.uint64(s))


def play_given(tab, set_hands, dealer, trump, turnup, policies, rng_state, script):
    """Play one deal from given hands (for records, tests and rollouts).

    ``rng_state`` (uint64) feeds the random policy; ``script`` the scripted one.

    Returns
    -------
    log_leader : int64 (tricks,)
    log_cards : int64 (tricks, n) cards in play order within each trick
    log_winner : int64 (tricks,)
    cap_hon, cap_cards, cap_cp : int64 (n_sets, n_sides) honours, cards taken and card
        points per scoring unit (row 0 only without per-set scoring)
    ten_taker : int
    """
    params = tab.params
    n = int(params[P_N])
    n_sets = int(params[P_NSETS])
    n_sides = int(params[P_NSIDES])
    total_tricks = n_sets * int(params[P_SETSIZE])
    logs = (np.zeros(total_tricks, dtype=np.int64), np.zeros((total_tricks, n), dtype=np.int64),
            np.zeros(total_tricks, dtype=np.int64))
    res = tuple(np.zeros((n_sets, n_sides), dtype=np.int64) for _ in range(3))
    scr = scratch(tab)
    scr.set_hands[...] = np.asarray(set_hands, dtype=np.int64)
    ten_taker = _play_given(tab, scr, np.array([dealer, trump, turnup], dtype=np.int64),
                            np.asarray(policies, dtype=np.int64), np.uint64(rng_state),
                            np.ascontiguousarray(script, dtype=np.int64), logs, res)
    return logs[0], logs[1], logs[2], res[0], res[1], res[2], int(ten_taker)
