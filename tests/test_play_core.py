"""The kernel play core (_kernels/trick.py, scoring.py): its helpers replay the engine's
deals exactly.

The engine's ``play_deal`` keeps the winning card card by card (``Tables.beats``); the
replay (tests/kernel_replay.py) asks ``winning_card`` of the whole trick, checks every card
against ``legal_cards`` and ends each trick with ``take_trick``: set transitions, captures
per scoring unit, the exposed lock and the Ten's taker must agree with the engine's log
and scores on many deals of every preset and play switch.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from numba import njit

from catchten_sim import Rules
from catchten_sim._kernels import layout as L
from catchten_sim._kernels import policy as P
from catchten_sim._kernels import scoring as S
from catchten_sim._kernels import trick as T
from catchten_sim.play import deal, play
from kernel_replay import replay

CONFIGS = [("foster", 4, {}), ("foster", 2, {}), ("foster", 3, {"set_scoring": "per_deal"}),
           ("foster", 5, {"keep_six_of_spades": True, "no_trump_first_lead": True}),
           ("foster", 6, {"exposed_trump": True}),
           ("jaques", 4, {"dealer_declares": True, "must_trump": True}),
           ("jaques", 6, {}),
           ("french52", 4, {"must_trump": True, "exposed_trump": True,
                            "no_trump_first_lead": True})]


def _py(f):
    """The Python function of a kernel helper (itself under NUMBA_DISABLE_JIT=1)."""
    return getattr(f, "py_func", f)


def _engine_deals(rules, seed):
    """Twelve deals of ``rules`` played by the engine (odd ones heuristic, even ones random):
    ``(k, deal, play)``."""
    rng = random.Random(seed)
    for k in range(12):
        d = deal(rules, seed=rng.randrange(2 ** 63), index=k)
        yield k, d, play(d, "heuristic" if k % 2 else "random")


@pytest.mark.parametrize("preset,players,variants", CONFIGS)
def test_trick_helpers_replay_engine_deals(preset, players, variants) -> None:
    """The engine's deals replayed through the trick helpers (tests/kernel_replay.py): every
    engine card is legal, ``winning_card`` names the winner the engine kept card by card,
    and ``take_trick`` gives the leaders, the Ten's taker and every side's score."""
    rules = Rules(preset, players, variants)
    tab = rules.tables()
    for k, d, p in _engine_deals(rules, f"core-{preset}-{players}"):
        cards = [cs for _, cs, _ in p.tricks]
        masks, leaders, winners, taker, scr = replay(rules, d, cards)
        where = f"{preset} {players} {variants} deal {k}"
        assert list(winners) == [w for _, _, w in p.tricks], where
        flat = [c for cs in cards for c in cs]
        assert all(int(m) >> c & 1 for m, c in zip(masks, flat)), \
            f"{where}: an engine card not in legal_cards"
        assert (None if taker < 0 else taker) == p.ten_taker, where
        assert list(leaders) == [lead for lead, _, _ in p.tricks], where
        assert list(scr.seat_tricks) == [sum(w == seat for w in winners)
                                         for seat in range(players)], where
        for side in range(rules.n_sides):
            hon, cards_n, cp = _side_score(tab, d.trump, scr.cap, side)
            assert (hon, cards_n, cp) == (p.honours[side], p.cards_taken[side],
                                          p.card_points[side]), where


@njit
def _play_forward(tab, ps, dealer, trump, turnup, cards, out):
    """Play ``cards`` (tricks, n) on ``ps`` forward: ``out[t]`` = (winner, legal-ok)."""
    T.start_play(tab, ps, dealer, trump, turnup)
    n = tab.params[L.P_N]
    for t in range(cards.shape[0]):
        ok = 1
        for k in range(n):
            c = cards[t, k]
            if (T.legal_now(tab, ps) >> c) & 1 == 0 or T.to_move(tab, ps) != ps.owner[c]:
                ok = 0
            T.play_card(tab, ps, c)
        out[t, 0] = T.finish_trick(tab, ps)
        out[t, 1] = ok
    return ps.v[L.V_TEN_TAKER]


@pytest.mark.parametrize("preset,players,variants", CONFIGS)
def test_play_state_forward_replays_engine_deals(preset, players, variants) -> None:
    """The forward play-state API (start_play, to_move, legal_now, play_card, finish_trick:
    the inference kernel's) replays the engine's deals: legal cards, the seat to move,
    winners, leaders, trump leads' sides, the Ten's taker and every side's score."""
    rules = Rules(preset, players, variants)
    tab = rules.tables()
    for k, d, p in _engine_deals(rules, f"forward-{preset}-{players}"):
        ps = T.new_play(players, rules.n_sets, rules.set_size, rules.n_sides)
        ps.set_hands[...] = np.array(d.masks(), dtype=np.int64)
        for st in range(rules.n_sets):
            for seat in range(players):
                for c in range(52):
                    if int(ps.set_hands[st, seat]) >> c & 1:
                        ps.owner[c] = seat
        cards = np.array([cs for _, cs, _ in p.tricks], dtype=np.int64)
        out = np.zeros((len(cards), 2), dtype=np.int64)
        taker = _play_forward(tab, ps, d.dealer, d.trump, -1 if d.turnup is None else d.turnup,
                              cards, out)
        where = f"{preset} {players} {variants} deal {k}"
        assert list(out[:, 0]) == [w for _, _, w in p.tricks], where
        assert out[:, 1].all(), f"{where}: an engine card not in legal_now, or out of turn"
        assert (None if taker < 0 else taker) == p.ten_taker, where
        assert list(ps.trick_leader) == [lead for lead, _, _ in p.tricks], where
        leads = [0] * rules.n_sides
        for lead, cs, _ in p.tricks:
            leads[rules.side_of(lead)] += cs[0] // 13 == d.trump
        assert list(ps.trump_leads) == leads, where
        for side in range(rules.n_sides):
            hon, cards_n, cp = _side_score(tab, d.trump, ps.cap, side)
            assert (hon, cards_n, cp) == (p.honours[side], p.cards_taken[side],
                                          p.card_points[side]), where


@njit
def _side_score(tab, trump, cap, side):
    return S.side_score(tab, trump, cap, side, cap.shape[0])


def test_legal_cards_rules() -> None:
    """One case per clause of legal_cards (docs/rules.md §1, §3, §4, §7.3, §7.6)."""
    sm = [0x1FFF << (13 * s) for s in range(4)]
    hand = (1 << 0) | (1 << 14) | (1 << 27)          # 2♣? suits 0, 1, 2: one card each
    from catchten_sim.rules import PlayRules

    def lc(hand, lock, k, led, first, tmask, ntfl, must_trump):
        return T.legal_cards(PlayRules(ntfl, False, must_trump), hand, lock, k, led, first,
                             tmask)
    # follow suit
    assert lc(hand, 0, 1, sm[1], False, sm[2], False, False) == 1 << 14
    # cannot follow: any card, or a trump with must_trump
    assert lc(hand, 0, 1, sm[3], False, sm[2], False, False) == hand
    assert lc(hand, 0, 1, sm[3], False, sm[2], False, True) == 1 << 27
    # no_trump_first_lead on a set's first lead only
    assert lc(hand, 0, 0, 0, True, sm[2], True, False) == hand & ~sm[2]
    assert lc(hand, 0, 0, 0, False, sm[2], True, False) == hand
    # only trumps: the lead may be a trump
    assert lc(1 << 27, 0, 0, 0, True, sm[2], True, False) == 1 << 27
    # the locked turn-up is not playable and does not count as holding its suit
    assert lc(hand, 1 << 14, 1, sm[1], False, sm[2], False, False) == hand & ~(1 << 14)
    assert T.lock_bit(1 << 14, 6, 9) == 1 << 14 and T.lock_bit(1 << 14, 7, 9) == 0
    # the turn-up's lock only with exposed_trump, and only with a turn-up
    assert T.turnup_lock_bit(PlayRules(False, True, False), 14) == 1 << 14
    assert T.turnup_lock_bit(PlayRules(False, False, False), 14) == 0
    assert T.turnup_lock_bit(PlayRules(False, True, False), -1) == 0
    # the solver's predicates say what legal_cards does
    for ntfl in (False, True):
        for must in (False, True):
            pr = PlayRules(ntfl, False, must)
            for first in (False, True):
                for h in (hand, 1 << 27):
                    allowed = (T.legal_cards(pr, h, 0, 0, 0, first, sm[2]) & sm[2]) != 0
                    assert T.trump_lead_allowed(pr, h, first, sm[2]) == allowed
            assert T.void_follower_must_trump(pr) == (lc(hand, 0, 1, sm[3], False, sm[2],
                                                         ntfl, must) == 1 << 27)
            # through the solver's int parameter and back
            assert T.play_rules_of(T.play_rules_code(pr)) == pr
    # no trumps: the trump mask is empty
    assert T.trump_mask(L.NO_TRUMPS) == 0


def test_heuristic_last_to_act_keeps_the_master_jack() -> None:
    """jaques (J 10 A K Q): last to act, holding J and A of trumps with the Ten unseen,
    the cheapest winner is the J (3 points) but it is the master: win with the A (4
    points) now, else the Ten catches the A later (issue 13 §5)."""

    from catchten_sim.cards import Rank, Suit, card_index
    rules = Rules("jaques", 4)
    tab = rules.tables()
    H, C, S_ = Suit.H, Suit.C, Suit.S
    jh, ah, qh = (card_index(H, r) for r in (Rank.JACK, Rank.ACE, Rank.QUEEN))
    ac, c8 = card_index(C, Rank.ACE), card_index(C, Rank.EIGHT)
    s9 = card_index(S_, Rank.NINE)
    hand = (1 << jh) | (1 << ah) | (1 << s9)
    tm = (1 << ac) | (1 << c8) | (1 << qh)             # seat 0 led A♣, seat 2 trumped
    win = (qh, 2)                                      # the trick's winning card, its seat
    leads = np.zeros(2, dtype=np.int64)
    pick = P.heuristic_choice(tab, P.Turn(3, hand, hand, 3, int(C), tm, int(H), 0, win), leads)
    assert pick == ah
    # with the Ten already played the A is a master too: the cheapest winner, the J
    played = 1 << card_index(H, Rank.TEN)
    pick = P.heuristic_choice(tab, P.Turn(3, hand, hand, 3, int(C), tm, int(H), played, win),
                              leads)
    assert pick == jh


@pytest.mark.parametrize("preset,players,variants", CONFIGS + [
    ("jaques", 4, {"deck52": True}), ("foster", 4, {"ten_of_diamonds_bonus": True})])
def test_heuristic_mask_arithmetic_matches_the_cost_tables(preset, players, variants) -> None:
    """The heuristic finds its cheapest cards and the cards no unseen card beats by mask
    arithmetic (policy._cheapest_throw, _cheapest_win, _safe_cards), which relies on the
    cost tables' shape: a card that scores no honour costs less than an honour, a plain
    one less than a trump, plain ones and trumps that score no honour in bit order. Check
    the helpers against the plain loops over the tables on random masks."""
    try:
        rules = Rules(preset, players, variants)
    except Exception as exc:        # a switch this preset lacks: nothing to check
        pytest.skip(str(exc))
    tab = rules.tables()
    rng = np.random.default_rng(5)
    deck = int(tab.deck_mask)
    for trump in range(5):
        tmask = int(_py(T.suit_mask)(trump)) if trump < 4 else 0
        hmask = int(tab.hon_mask[trump])
        for _ in range(300):
            cards = rng.choice(np.asarray(tab.deck), size=int(rng.integers(1, 14)),
                               replace=False)
            mask = np.int64(sum(1 << int(c) for c in cards))
            assert _py(P._cheapest_throw)(mask, hmask, tmask, tab.clow[trump]) == \
                _py(P._cheapest)(mask, tab.clow[trump])
            unseen = np.int64(int(mask) & deck)
            safe = int(_py(P._safe_cards)(unseen, np.int64(tmask), trump, tab.beats[trump],
                                              tab.top_trump))
            for c in tab.deck:      # the heuristic asks about cards it can see
                if not (int(unseen) >> int(c)) & 1:
                    assert ((safe >> int(c)) & 1) == (int(unseen & tab.beats[trump, c]) == 0)
            # winners: trumps and cards of one plain suit
            su = int(rng.integers(0, 4))
            win = np.int64(int(mask) & (tmask | (0x1FFF << (13 * su))))
            if win != 0:
                assert _py(P._cheapest_win)(win, hmask, tmask, tab.cwin[trump]) == \
                    _py(P._cheapest)(win, tab.cwin[trump])


def test_an_edit_of_any_kernel_file_invalidates_every_kernel_cache():
    # numba checks a cached kernel against a hash of its own file only; the package's own
    # cache locators stamp every kernel with a hash of all kernel files, so an edit of an
    # inlined helper's file (policy.py) recompiles _run_policies of engine.py too
    import hashlib
    import os
    from pathlib import Path

    import catchten_sim._kernels as kernels
    from catchten_sim._kernels import engine
    if os.environ.get("NUMBA_DISABLE_JIT") == "1":
        pytest.skip("no compiled kernels to cache")
    files = sorted(Path(kernels.__file__).parent.glob("*.py"))
    h = hashlib.sha256()
    for f in files:                      # every kernel file, policy.py among them
        h.update(f.name.encode())
        h.update(f.read_bytes())
    assert "policy.py" in [f.name for f in files]
    locator = engine._run_policies._cache._impl.locator
    assert type(locator).__name__.startswith("Kernel")
    assert locator.get_source_stamp() == h.digest() == kernels.kernel_fingerprint()
