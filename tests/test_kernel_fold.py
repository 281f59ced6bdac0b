"""The kernel folds deals into the accumulator itself (engine.fold_row, per thread): it must
agree exactly with OutcomeAccumulator.add on the same rows, and the result must not depend
on threads or chunk size. Also: rows of run_chunk are the deals of deal_one played by
play_given (the simulation and the single-deal entry points agree)."""
from __future__ import annotations

import numpy as np
import pytest

from catchten_sim import Rules
from catchten_sim._kernels import engine as K
from catchten_sim.aggregate import OutcomeAccumulator
from catchten_sim.policies import seat_policies
from catchten_sim.simulate import simulate

CONFIGS = [("foster", 4, {}), ("foster", 3, {}), ("foster", 5, {"keep_six_of_spades": True}),
           ("foster", 6, {}), ("jaques", 4, {"dealer_declares": True}),
           ("french52", 4, {"must_trump": True, "exposed_trump": True})]


@pytest.mark.parametrize("preset,players,variants", CONFIGS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_fold_matches_numpy_add_and_threads(preset, players, variants, policy):
    rules = Rules(preset, players, variants)
    chunks = []
    res = simulate(rules, policy, n_deals=1500, seed=3, threads=2, chunk=333,
                   on_chunk=lambda rows, first: chunks.append(rows.copy()))
    acc = OutcomeAccumulator(rules.players, rules.tables().side_of_seat)
    for rows in chunks:
        acc.add(rows)
    assert np.array_equal(acc.flat, res.acc.flat)
    one = simulate(rules, policy, n_deals=1500, seed=3, threads=1)
    assert np.array_equal(one.acc.flat, res.acc.flat)
    assert one.to_dict()["positions"] == res.to_dict()["positions"]


@pytest.mark.parametrize("preset,players,variants", CONFIGS[:4])
def test_chunk_rows_are_deal_one_played(preset, players, variants):
    rules = Rules(preset, players, variants)
    t = rules.tables()
    pols = np.array([int(p) for p in seat_policies(rules, "heuristic", "random")], np.int64)
    out = np.zeros((30, K.N_FIXED + players * K.N_PER_POS), np.int16)
    K.simulate_chunk(t, pols, np.uint64(9), 500, out)
    for i in range(30):
        sh, dealer, trump, turnup, dead, state = K.deal_one(t, np.uint64(9), np.int64(500 + i))
        _, _, lw, cap_hon, cap_cards, cap_cp, ten_taker = K.play_given(
            t, sh, dealer, trump, turnup, pols, state, np.zeros(1, np.int64))
        assert out[i, K.C_DEALER] == dealer and out[i, K.C_TRUMP] == trump
        units = rules.n_sets if rules.per_set_scoring else 1
        for pos in range(players):
            seat = (dealer + 1 + pos) % players
            side = int(t.side_of_seat[seat])
            base = K.N_FIXED + pos * K.N_PER_POS
            assert out[i, base + K.F_HONOURS] == cap_hon[:units, side].sum()
            assert out[i, base + K.F_CARDS] == cap_cards[:units, side].sum()
            assert out[i, base + K.F_CARD_POINTS] == cap_cp[:units, side].sum()
            assert out[i, base + K.F_SEAT_TRICKS] == int((lw == seat).sum())
        taker_pos = 0 if ten_taker < 0 else (ten_taker - dealer - 1) % players + 1
        assert out[i, K.C_TEN_TAKER] == taker_pos


@pytest.mark.parametrize("preset,players,variants", CONFIGS)
def test_random_pairs_play_as_single_deals(preset, players, variants):
    """All-random chunks play two deals at a time in lockstep (engine.play_random2, in
    engine._run_random); each deal must come out exactly as the one-deal loop of any
    other policies (engine._run_policies, play_and_deal) plays it with every seat random.
    Odd counts: the last deal is the first of a pair whose second is not kept."""
    t = Rules(preset, players, variants).tables()
    pols = np.zeros(players, np.int64)          # every seat random
    cols = K.N_FIXED + players * K.N_PER_POS
    no_acc = (np.zeros(0, np.int64), np.zeros(0, np.int64))
    for count in (41, 1):
        paired = np.zeros((count, cols), np.int16)
        K.simulate_chunk(t, pols, np.uint64(11), 300, paired)
        single = np.zeros((count, cols), np.int16)
        K._run_policies(t, pols, np.uint64(11), np.int64(300), np.int64(count), single,
                        no_acc, K.scratch(t))
        for i in range(count):
            assert np.array_equal(paired[i], single[i]), (count, i)
