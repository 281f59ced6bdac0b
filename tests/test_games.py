"""Whole games and the game-equity table (issue 5).

- resolution of a scoring unit: count-out steps, several sides at one step, higher_total,
  replay, game_at_once (hand-computed cases, docs/rules.md §7.9-§7.13);
- whole games from the kernel agree with ``records.score_game`` on game records rebuilt
  from the same deals (``play.deal``/``play``), over presets and switches;
- the DP on synthetic outcome distributions against closed forms;
- the table against direct game simulation started from chosen scores;
- threads do not change results; the CLI commands.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from catchten_sim import Rules
from catchten_sim import records
from catchten_sim._kernels import games as G
from catchten_sim.cli import cli
from catchten_sim.errors import CatchTenError
from catchten_sim.equity import EquityTable, equity_table, solve_equity
from catchten_sim.games import simulate_games, unit_shape
from catchten_sim.play import deal, play
from catchten_sim.rules import COUNT_OUT_STEPS

TEN, TD, CARDS, ACE, KING, QUEEN, JACK, NINE = range(8)


def unit(ns, **points):
    """A count-out step matrix: ``unit(2, ten=(10, 0), cards=(0, 3))``."""
    m = np.zeros((G.N_STEPS, ns), dtype=np.int64)
    for name, vals in points.items():
        m[COUNT_OUT_STEPS.index(name)] = vals
    return m


def apply(before, steps, target=41, tie="count_out", at_once=False, tside=None, flags=0):
    running = np.array(before, dtype=np.int64)
    fl = np.array([flags], dtype=np.int64)
    ts = np.full(steps.shape[0], -1, dtype=np.int64) if tside is None else \
        np.array(tside, dtype=np.int64)
    code = {"count_out": 0, "higher_total": 1, "replay": 2}[tie]
    w, how, step = G.apply_unit_py(running, fl, np.ascontiguousarray(steps, dtype=np.int64), ts,
                                   np.int64(target), np.int64(code), at_once)
    return int(w), G_HOW[int(how)], (COUNT_OUT_STEPS[step] if step >= 0 else None), \
        list(running), int(fl[0])


G_HOW = ("none", "reached", "count_out", "higher_total", "unfinished")


# ------------------------------------------------------------------------------ units
def test_count_out_ten_first_beats_higher_total():
    # side 1 has more in all, but side 0's Ten counts first (docs/rules.md §7.10)
    w, how, step, after, _ = apply([35, 38], unit(2, ten=(10, 0), cards=(0, 5), ace=(0, 4)))
    assert (w, how, step, after) == (0, "count_out", "ten", [45, 47])


def test_count_out_cards_before_honours():
    w, how, step, _, _ = apply([38, 39], unit(2, cards=(3, 0), jack=(0, 11), ace=(0, 4)))
    assert (w, how, step) == (0, "count_out", "cards")


def test_count_out_order_ace_king_queen_jack():
    w, how, step, _, _ = apply([37, 38], unit(2, king=(3, 0), ace=(0, 4), queen=(2, 0)))
    assert (w, how, step) == (1, "count_out", "ace")
    w, how, step, _, _ = apply([38, 39], unit(2, queen=(2, 0), jack=(0, 11), king=(3, 0)))
    assert (w, how, step) == (0, "count_out", "king")


def test_one_side_alone_is_reached_not_count_out():
    w, how, step, after, _ = apply([40, 10], unit(2, jack=(11, 0), ten=(0, 10)))
    assert (w, how, step, after) == (0, "reached", None, [51, 20])


def test_several_at_one_step_fewer_needed_wins():
    # three sides pass at the card step: side 2 needed 1, side 0 needed 3
    w, how, step, _, _ = apply([38, 0, 40], unit(3, cards=(5, 0, 2)))
    assert (w, how, step) == (2, "count_out", "cards")


def test_several_at_one_step_same_need_higher_final_total():
    w, how, step, _, _ = apply([38, 0, 38], unit(3, cards=(3, 0, 3), ace=(0, 0, 4)))
    assert (w, step) == (2, "cards")


def test_several_at_one_step_all_equal_lower_side():
    w, how, step, _, _ = apply([38, 0, 38], unit(3, cards=(3, 0, 3)))
    assert (w, step) == (0, "cards")


def test_ten_of_diamonds_bonus_counts_second():
    w, how, step, _, _ = apply([35, 39], unit(2, ten_of_diamonds=(10, 0), cards=(0, 2)))
    assert (w, step) == (0, "ten_of_diamonds")


def test_higher_total_and_tie_replays():
    st = unit(2, ten=(10, 0), ace=(0, 4), cards=(0, 3))
    assert apply([35, 37], st, tie="higher_total")[:3] == (0, "higher_total", None)
    w, how, _, after, fl = apply([35, 38], st, tie="higher_total")     # 45 = 45
    assert (w, how, after, fl) == (-1, "none", [45, 45], 1)
    # the carried tie: the next unit's higher total wins, equal again goes on
    assert apply([45, 45], unit(2, king=(3, 0)), tie="higher_total", flags=1)[0] == 0
    assert apply([45, 45], unit(2, king=(3, 0), queen=(0, 3)), tie="higher_total",
                 flags=1)[0] == -1


def test_replay_first_tie_always_another_hand():
    st = unit(2, ten=(10, 0), ace=(0, 4), cards=(0, 3))
    w, how, _, after, fl = apply([35, 37], st, tie="replay")
    assert (w, after, fl) == (-1, [45, 44], 1)
    # then the higher (running) total among those at or over the target
    assert apply([45, 44], unit(2, king=(0, 3)), tie="replay", flags=1)[:2] == (1, "higher_total")
    assert apply([45, 44], unit(2, king=(0, 1)), tie="replay", flags=1)[:2] == (-1, "none")


def test_game_at_once_trick_order_and_cards_last():
    # rows: tricks in order (taker's honours), card points last
    steps = np.array([[0, 0], [0, 4], [11, 0], [0, 10], [0, 0], [3, 0]], dtype=np.int64)
    tside = [1, 1, 0, 1, -1, -1]
    # side 1 reaches at its Ten (the 4th trick) only; side 0 at the Jack (3rd)
    w, how, step, after, _ = apply([30, 30], steps, at_once=True, tside=tside)
    assert (w, how, after) == (0, "reached", [41, 34])
    # nobody reaches by honours; both by the card points: fewer needed wins
    steps = np.array([[4, 0], [0, 0], [0, 0], [0, 0], [0, 0], [3, 2]], dtype=np.int64)
    w, how, step, _, _ = apply([35, 40], steps, at_once=True, tside=[0, -1, -1, -1, -1, -1])
    assert (w, how, step) == (1, "count_out", "cards")


def test_game_at_once_carried_tie_first_trick_wins():
    steps = np.array([[0, 0], [0, 11], [0, 0]], dtype=np.int64)
    w, how, _, _, _ = apply([45, 45], steps, tie="higher_total", at_once=True,
                            tside=[0, 1, -1], flags=1)
    assert (w, how) == (0, "reached")


# ------------------------------------------------------------------------------ parity
def _kernel_games(rules, pols, seed, n_games):
    rows = []
    simulate_games(rules, pols, n_games=n_games, seed=seed, threads=1,
                   on_rows=lambda r, first: rows.append(r))
    return np.concatenate(rows)


def _record_of_game(rules, pols, seed, g, n_hands):
    n = rules.players
    dealer = g % n
    hands = []
    for h in range(n_hands):
        d = deal(rules, seed=seed, index=(g * G.MAX_HANDS + h) * n + dealer)
        assert d.dealer == dealer
        hands.append(play(d, pols).to_record())
        dealer = (dealer + 1) % n
    return {"rules": rules.preset, "variants": dict(rules.given_variants()), "players": n,
            "hands": hands}


PARITY = [
    ("foster", 4, {"target": 21}, "heuristic"),
    ("foster", 4, {}, "heuristic"),
    ("foster", 2, {"target": 21}, "heuristic"),
    ("foster", 3, {"target": 21}, "random"),
    ("foster", 4, {"target": 21, "game_at_once": True}, "heuristic"),
    ("foster", 3, {"target": 15, "game_at_once": True}, "heuristic"),
    ("foster", 4, {"target": 21, "tie": "higher_total"}, "random"),
    ("foster", 2, {"target": 15, "tie": "replay"}, "heuristic"),
    ("foster", 3, {"target": 11, "tie": "replay", "game_at_once": True}, "random"),
    ("foster", 6, {"target": 15}, "heuristic"),
    ("foster", 2, {"target": 15, "set_scoring": "per_deal"}, "heuristic"),
    ("foster", 4, {"target": 21, "ten_of_diamonds_bonus": True}, "heuristic"),
    ("jaques", 4, {"target": 15}, "heuristic"),
]


@pytest.mark.parametrize("preset,players,variants,pol", PARITY)
def test_games_agree_with_records_score_game(preset, players, variants, pol):
    rules = Rules(preset, players, variants)
    seed = 11
    rows = _kernel_games(rules, pol, seed, 12)
    for g, row in enumerate(rows):
        n_hands = int(row[G.G_HANDS])
        rec = _record_of_game(rules, pol, seed, g, n_hands)
        out = records.score_game(rec)
        assert out["finished"], (g, out)
        assert out["hands_scored"] == n_hands
        assert out["winner"] == row[G.G_WINNER], (g, out, row)
        assert out["how"] == G_HOW[row[G.G_HOW]], (g, out, row)
        step = COUNT_OUT_STEPS[row[G.G_STEP]] if row[G.G_STEP] >= 0 else None
        assert out["step"] == step, (g, out, row)
        assert out["running"][-1] == list(row[G.G_RUNNING:]), (g, out, row)
        if "set" in out and rules.per_set_scoring:
            assert out["set"] == row[G.G_UNIT] + 1
        # one hand fewer is unfinished
        if n_hands > 1:
            rec["hands"] = rec["hands"][:-1]
            assert records.score_game(rec)["finished"] is False


def test_tie_rules_all_exercised():
    """The parity runs above hit count-out, higher-total and carried ties somewhere."""
    seen = set()
    for preset, players, variants, pol in PARITY:
        rows = _kernel_games(Rules(preset, players, variants), pol, 11, 12)
        seen |= {G_HOW[h] for h in rows[:, G.G_HOW]}
        if (rows[:, G.G_REPLAYS] > 0).any():
            seen.add("carried")
    assert {"reached", "count_out", "higher_total", "carried"} <= seen


def test_games_same_with_one_and_two_threads():
    rules = Rules("foster", 4, {"target": 31})
    a = simulate_games(rules, n_games=3000, seed=5, threads=1)
    b = simulate_games(rules, n_games=3000, seed=5, threads=2, chunk=700)
    assert (a.wins == b.wins).all() and (a.hands_hist == b.hands_hist).all()
    assert (a.count_out_steps == b.count_out_steps).all()


def test_random_first_dealer_is_stated_and_spread():
    res = simulate_games(Rules("foster", 4), n_games=2000, seed=3, first_dealer="random")
    assert res.to_dict()["first_dealer"] == "random"
    per_seat = res.wins.sum(axis=1)
    assert (per_seat > 350).all()
    rot = simulate_games(Rules("foster", 4), n_games=2000, seed=3)
    assert rot.to_dict()["first_dealer"] == "rotate"
    assert list(rot.wins.sum(axis=1)) == [500] * 4


def test_simulate_games_result_views():
    res = simulate_games(Rules("foster", 2), n_games=500, seed=1)
    df = res.to_frame()
    assert {"first_dealer_seat", "first_dealer_side", "side", "games", "wins", "p_win", "lo",
            "hi"} <= set(df.columns)
    d = res.to_dict()
    json.dumps(d, allow_nan=False)
    assert sum(e["wins"] for e in d["p_win"]) == 500
    assert d["deciding_set"] is not None          # sets: which set decided
    assert sum(int(v) for v in d["hands_per_game"]["hist"].values()) == 500
    assert "count-out order decided" in res.to_text()


def test_bad_game_arguments():
    with pytest.raises(CatchTenError):
        simulate_games(Rules("foster", 4), n_games=0)
    with pytest.raises(CatchTenError):
        simulate_games(Rules("foster", 4), n_games=10, first_dealer="cut")
    with pytest.raises(CatchTenError):
        simulate_games(Rules("foster", 4), n_games=10, start_scores=(41, 0))


# ------------------------------------------------------------------------------ DP
def _dist(rules, outcomes):
    """Synthetic distribution: ``outcomes`` per class, a list of (prob, unit matrix)."""
    mats, probs = [], []
    for c, lst in enumerate(outcomes):
        for p, m in lst:
            mats.append(m[None] if m.ndim == 2 else m)
            row = [0.0] * len(outcomes)
            row[c] = p
            probs.append(row)
    steps = np.array(mats, dtype=np.int64)
    tside = np.full(steps.shape[:3], -1, dtype=np.int64)
    return steps, tside, np.array(probs).T.copy()


def test_dp_race_closed_form():
    # one point a deal to side 0 with probability p, else to side 1: a race to 3
    rules = Rules("foster", 4, {"target": 3})
    p = 0.6
    steps, tside, prob = _dist(rules, [[(p, unit(2, cards=(1, 0))), (1 - p, unit(2, cards=(0, 1)))]])
    V, *_ = solve_equity(rules, steps, tside, prob, np.array([0]))

    def race(a, b):   # P(side 0 gets 3 - a points before side 1 gets 3 - b)
        if a >= 3:
            return 1.0
        if b >= 3:
            return 0.0
        return p * race(a + 1, b) + (1 - p) * race(a, b + 1)

    for a in range(3):
        for b in range(3):
            assert V[0, a, b] == pytest.approx(race(a, b), abs=1e-12)


def test_dp_count_out_decides_when_both_pass():
    # both sides pass 10 in every deal; who took the Ten wins from 0-0
    rules = Rules("foster", 4, {"target": 10})
    a = unit(2, ten=(10, 0), jack=(0, 11))
    b = unit(2, ten=(0, 10), cards=(12, 0))
    steps, tside, prob = _dist(rules, [[(0.3, a), (0.7, b)], [(0.9, a), (0.1, b)]])
    V, *_ = solve_equity(rules, steps, tside, prob, np.array([1, 0]))
    assert V[0, 0, 0] == pytest.approx(0.3)
    assert V[1, 0, 0] == pytest.approx(0.9)


def test_dp_two_classes_alternate():
    # dealer class 0: side 0 scores 1 surely; class 1: side 1 scores 1 with p = 0.5,
    # else nothing. Target 2: from (0, 0) in class 0 -> (1, 0) in class 1 -> ...
    rules = Rules("foster", 4, {"target": 2})
    steps, tside, prob = _dist(rules, [[(1.0, unit(2, cards=(1, 0)))],
                                       [(0.5, unit(2, cards=(0, 1))), (0.5, unit(2))]])
    V, *_ = solve_equity(rules, steps, tside, prob, np.array([1, 0]))
    # (1,0) class 1: 1/2 -> (1,1) class 0 -> side 0 reaches 2; 1/2 -> (1,0) class 0 -> too
    assert V[1, 1, 0] == pytest.approx(1.0)
    # (1,1) class 1: 1/2 side 1 reaches 2; 1/2 -> (1,1) class 0 -> side 0 reaches 2
    assert V[1, 1, 1] == pytest.approx(0.5)
    assert V[0, 0, 1] == pytest.approx(0.5)          # -> (1,1) class 1
    assert V[1, 0, 1] == pytest.approx(0.25)         # 1/2 lost, 1/2 -> (0,1) class 0
    assert V[1, 0, 0] == pytest.approx(0.75)         # 1/2 -> (0,1) c0, 1/2 -> (0,0) c0


def test_dp_zero_outcome_loops():
    rules = Rules("foster", 4, {"target": 1})
    steps, tside, prob = _dist(rules, [[(0.5, unit(2)), (0.3, unit(2, cards=(1, 0))),
                                        (0.2, unit(2, cards=(0, 1)))]])
    V, *_ = solve_equity(rules, steps, tside, prob, np.array([0]))
    assert V[0, 0, 0] == pytest.approx(0.6)


def test_dp_higher_total_tie_geometric():
    # both at 5 need 1; each deal: side 0 +2/side 1 +1 (q0), reversed (q1), equal +1/+1 (z)
    rules = Rules("foster", 4, {"target": 6, "tie": "higher_total"})
    q0, q1, z = 0.2, 0.3, 0.5
    steps, tside, prob = _dist(rules, [[(q0, unit(2, cards=(2, 1))), (q1, unit(2, cards=(1, 2))),
                                        (z, unit(2, cards=(1, 1)))]])
    V, F, W, dmax = solve_equity(rules, steps, tside, prob, np.array([0]))
    assert V[0, 5, 5] == pytest.approx(q0 / (q0 + q1))
    # replay: the first tie always replays, then the higher running total: from 5-5 a
    # (2, 1) deal leaves 7-6 (side 0 leads by 1) and the next deal decides unless it is
    # (1, 2) (back level) ...
    rules = Rules("foster", 4, {"target": 6, "tie": "replay"})
    V, F, W, dmax = solve_equity(rules, steps, tside, prob, np.array([0]))
    w0 = q0 / (q0 + q1)                 # from level
    lead1 = q0 + z + q1 * w0            # side 0 leads by 1
    behind1 = q1 * 0 + z * 0 + q0 * w0  # side 0 behind by 1
    assert V[0, 5, 5] == pytest.approx(q0 * lead1 + q1 * behind1 + z * w0)


def test_dp_game_at_once_order_and_first_trick():
    rules = Rules("foster", 4, {"target": 5, "game_at_once": True, "tie": "higher_total"})
    U, S = unit_shape(rules)
    m1 = np.zeros((U, S, 2), dtype=np.int64)
    t1 = np.full((U, S), -1, dtype=np.int64)
    m1[0, 0] = (0, 0)
    t1[0, 0] = 1                  # side 1 takes the first trick, no honours
    m1[0, 1] = (0, 4)
    t1[0, 1] = 1                  # side 1's 4, then side 0's 11
    m1[0, 2] = (11, 0)
    t1[0, 2] = 0
    m2 = np.zeros_like(m1)
    t2 = t1.copy()
    m2[0, 0] = (3, 0)
    t2[0, 0] = 0
    t2[0, 1:] = -1
    m2[0, S - 1] = (4, 4)         # cards: both reach 5+ at the end: 7 vs 4+... tie rule
    steps = np.array([m1, m2])
    tside = np.array([t1, t2])
    prob = np.array([[0.5, 0.5]])
    V, F, W, dmax = solve_equity(rules, steps, tside, prob, np.array([0]))
    # from 1-1: m1: side 1 reaches 5 at its 4 -> side 1. m2: side 0 at 4 (+3) -> not yet;
    # cards: 8 vs 5 -> higher total side 0
    assert V[0, 1, 1] == pytest.approx(0.5)
    # from 0-1: m2 gives 7-5, side 0 higher; m1 side 1 reaches 5 first
    assert V[0, 0, 1] == pytest.approx(0.5)
    # from 2-2... m2: 2+3=5 at a trick -> side 0 wins at once
    assert V[0, 2, 2] == pytest.approx(0.5)
    assert F[0] == pytest.approx(0.5)


def test_dp_refuses_four_sides_and_three_sided_ties():
    with pytest.raises(CatchTenError, match="too big"):
        equity_table(Rules("foster", 8), n_hands=1000)
    with pytest.raises(CatchTenError, match="count_out"):
        equity_table(Rules("foster", 3, {"tie": "higher_total"}), n_hands=1000)


# ------------------------------------------------------------------------------ table
@pytest.fixture(scope="module")
def table4():
    return equity_table(Rules("foster", 4), "heuristic", n_hands=200_000, seed=7)


STATES = [((0, 0), 0), ((0, 0), 1), ((10, 25), 0), ((25, 10), 1), ((30, 30), 0), ((30, 30), 3),
          ((35, 20), 1), ((20, 35), 2), ((38, 38), 0), ((40, 30), 1), ((30, 40), 0),
          ((36, 39), 3)]


@pytest.mark.xdist_group("games_table4")     # xdist: the table is made once
def test_table_agrees_with_direct_game_simulation(table4):
    rules = Rules("foster", 4)
    z = 3.29   # 99.9% for each of the dozen states
    for k, (scores, dealer) in enumerate(STATES):
        g = simulate_games(rules, "heuristic", n_games=4000, seed=100 + k, first_dealer=dealer,
                           start_scores=scores)
        p_sim = g.p_win(0)[0]
        p_tab = table4.p_win(scores, dealer)[0]
        se = math.sqrt(max(p_tab * (1 - p_tab), 1e-4) / 4000 + 1e-5)  # + table's own error
        assert abs(p_sim - p_tab) < z * se, (scores, dealer, p_sim, p_tab)


@pytest.mark.xdist_group("games_table4")     # xdist: the table is made once
def test_table_views(table4, tmp_path):
    p = table4.p_win((12, 34), 2)
    assert sum(p) == pytest.approx(1.0)
    # dealer seats of one side are pooled
    assert table4.p_win((12, 34), 0) == table4.p_win((12, 34), 2)
    # a unit that decides the game: certainty; else the next state's value, next dealer
    assert table4.p_win_after((35, 30), unit(2, ten=(10, 0)), dealer=1) == (1.0, 0.0)
    nxt = table4.p_win_after((10, 20), unit(2, ten=(10, 0), jack=(0, 11)), dealer=1)
    assert nxt == pytest.approx(table4.p_win((20, 31), 2))
    df = table4.to_frame()
    assert list(df.columns[:5]) == ["score_0", "score_1", "dealer_side", "p_win_0", "p_win_1"]
    assert len(df) == 41 * 41 * 2
    assert ((df.p_win_0 >= 0) & (df.p_win_0 <= 1)).all()
    out = table4.to_csv(tmp_path / "eq.csv")
    assert out.read_text().startswith("score_0,score_1,dealer_side,p_win_0,p_win_1")
    with pytest.raises(CatchTenError):
        table4.p_win((41, 0), 0)


def test_table_monotone_in_own_score(table4):
    V = table4.V
    assert (np.diff(V, axis=1) >= -0.02).all()      # more points for side 0: not worse
    assert (np.diff(V, axis=2) <= 0.02).all()


def test_per_set_table_mid_deal_and_three_sides():
    eq = equity_table(Rules("foster", 2, {"target": 21}), n_hands=20_000, seed=3)
    assert eq.steps.shape[1] == 3                     # the deal's three sets jointly
    p0 = eq.p_win((15, 15), 0, set_index=2)
    assert sum(p0) == pytest.approx(1.0)
    # set 3 at 20-0: side 0 needs one point; bounds from a direct count over outcomes
    p = eq.p_win((20, 0), 1, set_index=2)
    set3 = eq.steps[:, 2].sum(axis=1)                # (K, 2) points in set 3
    pr = eq.prob[eq.class_of(1)]
    scores = pr[(set3[:, 0] > 0) & (set3[:, 1] < 21)].sum()
    assert scores <= p[0] <= scores + pr[set3[:, 0] == 0].sum()
    eq3 = equity_table(Rules("foster", 6, {"target": 11}), n_hands=20_000, seed=3)
    assert sum(eq3.p_win((5, 5, 5), 0)) == pytest.approx(1.0)
    assert eq3.to_frame().shape[0] == 11 ** 3 * 3


def test_plot_equity(table4):
    from catchten_sim.plotting import plot_equity
    fig = plot_equity(table4.to_frame())
    assert len(fig.axes) == 3        # two panels and the colour bar


# ------------------------------------------------------------------------------ CLI
def test_cli_simulate_games_json():
    r = CliRunner().invoke(cli, ["simulate", "--games", "300", "--players", "4", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["games"] == 300 and d["first_dealer"] == "rotate"
    assert {"p_win", "p_win_by_first_dealer_side", "hands_per_game", "count_out",
            "final_scores"} <= set(d)
    r = CliRunner().invoke(cli, ["simulate", "--games", "300", "--first-dealer", "random"])
    assert r.exit_code == 0 and "first dealer: random" in r.output


def test_cli_equity_csv_plot_and_refusal(tmp_path):
    out = tmp_path / "eq.csv"
    r = CliRunner().invoke(cli, ["equity", "--hands", "5000", "-V", "target=21", "--out",
                                 str(out), "--plot"])
    assert r.exit_code == 0, r.output
    assert out.exists() and out.with_suffix(".png").exists()
    # four sides have no full table: the one line says how to name states (game rollouts)
    r = CliRunner().invoke(cli, ["equity", "--players", "8", "--hands", "1000"])
    assert r.exit_code == 2 and "--scores \"0 0 0 0\"" in r.output


# ------------------------------------------------------------------ cache, Parquet, partial
def test_equity_table_disk_cache(tmp_path, monkeypatch):
    from catchten_sim.equity import cached_equity_table
    monkeypatch.setenv("CATCHTEN_CACHE_DIR", str(tmp_path))
    r = Rules("foster", 2, {"target": 11})
    a = cached_equity_table(r, n_hands=2000, seed=4)
    assert len(list(tmp_path.glob("equity-*.npz"))) == 1
    b = cached_equity_table(r, n_hands=2000, seed=4)
    assert b.sim_s == 0.0 and np.array_equal(a.V, b.V) and b.n_outcomes == a.n_outcomes
    assert b.p_win((3, 5), 0) == a.p_win((3, 5), 0)
    cached_equity_table(r, n_hands=2000, seed=5)                  # another key
    assert len(list(tmp_path.glob("equity-*.npz"))) == 2


def test_equity_table_interrupted_keeps_the_deals_done():
    r = Rules("foster", 2, {"target": 11})

    def interrupt(done, total):
        raise KeyboardInterrupt

    eq = equity_table(r, n_hands=100_000, seed=1, progress=interrupt)
    assert eq.partial and eq.stopped == "interrupted" and eq.n_hands == 1 << 15
    assert eq.to_dict()["requested_hands"] == 100_000


def test_cli_equity_parquet_and_bad_inputs(tmp_path):
    import pandas as pd
    out = tmp_path / "eq.parquet"
    r = CliRunner().invoke(cli, ["equity", "--hands", "2000", "-V", "target=11", "--out",
                                 str(out)])
    assert r.exit_code == 0, r.output
    assert list(pd.read_parquet(out).columns)[:2] == ["score_0", "score_1"]
    r = CliRunner().invoke(cli, ["equity", "--hands", "2000", "--out", str(tmp_path / "x.xlsx")])
    assert r.exit_code == 2 and "unknown file type" in r.output
    r = CliRunner().invoke(cli, ["equity", "--hands", "10000000000000"])
    assert r.exit_code == 2 and "hands" in r.output and "out of range" in r.output
    assert len(r.output.strip().splitlines()) == 1
