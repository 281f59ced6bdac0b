"""PlayState (the Python rules of play) and the numba kernel agree (issue 8).

Over random deals of every preset, player count and play switch, the kernel plays each deal
twice through its public one-deal entry (``_kernels.engine.play_given``): once with a random
script (card ``legal[k % len(legal)]``, legal ascending) and once with the heuristic
policy. :class:`~catchten_sim.state.PlayState` replays the same deal and must find

- the same legal cards: the script picks, from PlayState's legal cards, the very card the
  kernel picked from its own (a different legal set almost surely gives a different card);
  every heuristic card passes ``verify_play``;
- the same trick leaders and winners, the same honours and cards taken per scoring unit
  and side, and the same taker of the Ten of trumps.

And the kernel's own scorer (the outcome rows of ``simulate_chunk``) gives every position
the honours, cards, card points and total PlayState scores for the same deals, and the same
holder, taker and fate of the Ten. The kernel play core's ``legal_cards``
(``_kernels/trick.py``, replayed by tests/kernel_replay.py) equals PlayState's legal cards
exactly at every decision point.
"""
from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

from catchten_sim._kernels import engine as K
from catchten_sim.play import Deal, deal
from catchten_sim.rules import Rules
from kernel_replay import replay

DEALS = 25

CONFIGS = [
    ("foster", n, {}) for n in range(2, 9)
] + [
    ("foster", 4, {"exposed_trump": True}),
    ("foster", 4, {"no_trump_first_lead": True}),
    ("foster", 4, {"must_trump": True}),
    ("foster", 4, {"must_trump": True, "no_trump_first_lead": True, "exposed_trump": True}),
    ("foster", 4, {"ten_of_diamonds_bonus": True}),
    ("foster", 4, {"card_points": "off"}),
    ("foster", 4, {"everyone_alone": True}),
    ("foster", 4, {"target": 31, "tie": "replay", "revoke": "hand"}),
    ("foster", 4, {"game_at_once": True}),
    ("foster", 2, {"exposed_trump": True, "no_trump_first_lead": True}),
    ("foster", 2, {"small_deal": "whole"}),
    ("foster", 2, {"set_scoring": "per_deal", "must_trump": True}),
    ("foster", 3, {"exposed_trump": True, "set_scoring": "per_deal"}),
    ("foster", 3, {"small_deal": "whole", "no_trump_first_lead": True}),
    ("foster", 5, {"keep_six_of_spades": True}),
    ("foster", 5, {"removed_six": "C", "ten_of_diamonds_bonus": True}),
    ("foster", 7, {"keep_six_of_spades": True, "exposed_trump": True}),
    ("foster", 6, {"six_players": "triples"}),
    ("foster", 6, {"everyone_alone": True, "must_trump": True}),
    ("foster", 8, {"everyone_alone": True}),
    ("jaques", 4, {}),
    ("jaques", 6, {}),
    ("jaques", 6, {"six_as_three_pairs": True}),
    ("jaques", 4, {"dealer_declares": True}),
    ("jaques", 4, {"deck52": True, "must_trump": True}),
    ("jaques", 4, {"exposed_trump": True, "no_trump_first_lead": True}),
    ("french52", 4, {}),
    ("french52", 4, {"exposed_trump": True, "must_trump": True}),
]


#: the kernels' one-deal entries take the rules' Tables bundle as their first argument
#: after issue 8's play-core split (branch core), the separate arrays before it; the two
#: helpers below accept both until the split is merged everywhere
_BUNDLED = next(iter(inspect.signature(K.play_given).parameters)) == "tab"


def _kernel_play(d: Deal, policy: int, script: list[int]):
    """The kernel's play of ``d``: (leaders, cards per trick, winners, honours, cards taken
    per unit and side, seat that took the Ten or -1)."""
    t = d.rules.tables()
    pol = np.full(d.rules.players, policy, dtype=np.int64)
    args = (d.masks(), d.dealer, d.trump, -1 if d.turnup is None else d.turnup, pol,
            np.uint64(d.rng_state), np.array(script or [0], dtype=np.int64))
    if _BUNDLED:
        leaders, cards, winners, hon, taken, _cp, ten = K.play_given(t, *args)
        return leaders, cards, winners, hon, taken, ten
    return K.play_given(t.params, t.deck, t.side_of_seat, t.trump_power, t.rank_power,
                        t.honours, t.ten_card, t.top_trump, *args)


def _simulate_rows(rules: Rules, seed: int, count: int) -> np.ndarray:
    """Outcome rows of deals ``0 … count-1`` of a random-play simulation with ``seed``."""
    t = rules.tables()
    n = rules.players
    out = np.zeros((count, K.N_FIXED + n * K.N_PER_POS), dtype=np.int16)
    pol = np.zeros(n, dtype=np.int64)
    if _BUNDLED:
        K.simulate_chunk(t, pol, seed, 0, out)
    else:
        K.simulate_chunk(t.params, t.deck, t.side_of_seat, t.trump_power, t.rank_power,
                         t.honours, t.ten_card, t.top_trump, pol, seed, 0, out)
    return out


def _check(d: Deal, policy: int, script: list[int]) -> None:
    leaders, cards, winners, cap_hon, cap_cards, ten_taker = _kernel_play(d, policy, script)
    state = d.play_state()
    i = 0
    for k in range(len(leaders)):
        assert state.leader == leaders[k], (k, "leader")
        for c in cards[k]:
            c = int(c)
            legal = state.legal_cards()
            if policy == K.POL_SCRIPTED:
                want = legal[script[i] % len(legal)]
                assert c == want, (f"play[{i}]: kernel played {c}, PlayState's legal cards "
                                   f"{legal} give {want}")
            assert c in legal and state.can_play(c), (i, c, legal)
            state.play(c)
            i += 1
        assert state.tricks[-1].winner == winners[k], (k, "winner")
    assert state.finished
    for u in range(state.n_units):
        hon, taken = state.captured(u)
        assert hon == [int(x) for x in cap_hon[u]], (u, "honours")
        assert taken == [int(x) for x in cap_cards[u]], (u, "cards taken")
    assert (state.ten_taker if state.ten_taker is not None else -1) == ten_taker


@pytest.mark.parametrize("preset,players,variants", CONFIGS,
                         ids=[f"{p}{n}-" + "-".join(f"{k}={v}" for k, v in sorted(var.items()))
                              for p, n, var in CONFIGS])
def test_playstate_and_kernel_agree(preset, players, variants) -> None:
    rules = Rules(preset, players, variants)
    rng = random.Random(f"{preset}{players}{sorted(variants.items())}")
    for index in range(DEALS):
        d = deal(rules, seed=11, index=index)
        _check(d, K.POL_SCRIPTED, [rng.randrange(10 ** 6) for _ in range(rules.n_dealt)])
        _check(d, K.POL_HEURISTIC, [])


def _position(seat, dealer: int, n: int) -> int:
    """Position of ``seat`` (1 = eldest … n = dealer), 0 for nobody."""
    return 0 if seat is None else (seat - dealer - 1) % n + 1


ROW_CONFIGS = CONFIGS[::3] + [c for c in CONFIGS[1::3] if c[0] != "foster"]


@pytest.mark.parametrize("preset,players,variants", ROW_CONFIGS,
                         ids=[f"{p}{n}-" + "-".join(f"{k}={v}" for k, v in sorted(var.items()))
                              for p, n, var in ROW_CONFIGS])
def test_playstate_scores_equal_the_simulation_rows(preset, players, variants) -> None:
    """The kernel's outcome rows of ``simulate`` (random play) hold, for every position, the
    side's honours, cards, card points and total that PlayState scores for the same deal
    (replayed from the same random stream), and the Ten's holder, taker and fate."""
    rules = Rules(preset, players, variants)
    n = rules.players
    out = _simulate_rows(rules, 5, DEALS)
    for index in range(DEALS):
        d = deal(rules, seed=5, index=index)
        _, cards, _, _, _, _ = _kernel_play(d, K.POL_RANDOM, [])
        state = d.play_state()
        for c in cards.reshape(-1):
            state.play(int(c))
        units = [state.unit_scores(u) for u in range(state.n_units)]
        row = out[index]
        assert row[K.C_DEALER] == d.dealer and row[K.C_TRUMP] == d.trump
        for pos in range(n):
            seat = (d.dealer + 1 + pos) % n
            side = rules.side_of(seat)
            base = K.N_FIXED + pos * K.N_PER_POS
            for field, key in ((K.F_HONOURS, "honours"), (K.F_CARDS, "cards_taken"),
                               (K.F_CARD_POINTS, "card_points"), (K.F_TOTAL, "total")):
                assert row[base + field] == sum(u[side][key] for u in units), (index, pos, key)
            assert row[base + K.F_SEAT_TRICKS] == sum(tr.winner == seat for tr in state.tricks)
        holder, taker = state.ten_holder(), state.ten_taker
        assert row[K.C_TEN_HOLDER] == _position(holder, d.dealer, n)
        assert row[K.C_TEN_TAKER] == _position(taker, d.dealer, n)
        if d.trump == 4:
            assert row[K.C_TEN_FATE] == K.FATE_NO_TRUMPS
        elif holder is None:
            assert row[K.C_TEN_FATE] == K.FATE_DEAD
        else:
            caught = rules.side_of(holder) != rules.side_of(taker)
            assert row[K.C_TEN_FATE] == (K.FATE_CAUGHT if caught else K.FATE_SAVED)


# ------------------------------------------------------------------ the kernel's trick helpers
@pytest.mark.parametrize("preset,players,variants", CONFIGS,
                         ids=[f"{p}{n}-" + "-".join(f"{k}={v}" for k, v in sorted(var.items()))
                              for p, n, var in CONFIGS])
def test_playstate_legal_cards_equal_the_kernel_play_core(preset, players, variants) -> None:
    """At every decision point of deals played by PlayState (random legal cards), the kernel
    play core's ``legal_cards`` gives exactly PlayState's legal cards, ``winning_card`` the
    same winners and ``take_trick`` the same tricks per seat (tests/kernel_replay.py)."""
    rules = Rules(preset, players, variants)
    rng = random.Random(f"core-{preset}{players}{sorted(variants.items())}")
    for index in range(DEALS):
        d = deal(rules, seed=17, index=index)
        state = d.play_state()
        legal_sets = []
        while not state.finished:
            legal = state.legal_cards()
            legal_sets.append(sum(1 << c for c in legal))
            state.play(rng.choice(legal))
        cards = [t.cards for t in state.tricks]
        masks, _, winners, _, scr = replay(rules, d, cards)
        for i, (mine, kernel) in enumerate(zip(legal_sets, masks)):
            assert mine == int(kernel), (index, i, state.played[:i + 1])
        assert list(winners) == [t.winner for t in state.tricks], index
        assert list(scr.seat_tricks) == [sum(t.winner == seat for t in state.tricks)
                                         for seat in range(players)], index
