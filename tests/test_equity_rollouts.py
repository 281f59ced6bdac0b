"""Game rollouts: P(win | scores, dealer) at any number of sides (issue 28).

- a rollout from a state is the game ``simulate_games`` plays from that start with the
  same seed (5 players: the same wins, game for game), whatever the other states of the
  call and the threads;
- two sides: rollouts agree with the exact table within |z| <= 3 on a few states;
- ``catchten equity --scores`` at 5 and 8 players, its JSON, and its one-line refusals;
  ``simulate --games --start-score``; ``advise --score`` and ``match --p-win-game`` at 5
  players answer by rollouts and say so.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from catchten_sim import Rules
from catchten_sim.cli import cli
from catchten_sim.equity import equity_states, equity_table
from catchten_sim.gamerollouts import game_rollouts
from catchten_sim.errors import CatchTenError
from catchten_sim.games import simulate_games


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # click < 8.2
    except TypeError:
        return CliRunner()                  # click >= 8.2


def test_rollouts_are_the_games_simulate_plays_from_that_start():
    r = Rules("foster", 5)
    start = (30, 25, 20, 10, 0)
    ro = game_rollouts(r, "heuristic", [((0, 0, 0, 0, 0), 2), (start, 3)], n_games=600,
                       seed=9, threads=1)
    for i, (sc, d) in enumerate([((0, 0, 0, 0, 0), 2), (start, 3)]):
        g = simulate_games(r, "heuristic", n_games=600, seed=9, first_dealer=d,
                           start_scores=sc, threads=1)
        assert ro.wins[i, :-1].tolist() == g.wins.sum(axis=0).tolist()
    assert ro.wins[:, -1].sum() == 0 and (ro.wins.sum(axis=1) == 600).all()
    # the states of one call do not change each other's games, nor do threads
    alone = game_rollouts(r, "heuristic", [(start, 3)], n_games=600, seed=9, threads=2)
    assert alone.wins[0].tolist() == ro.wins[1].tolist()


def test_rollouts_agree_with_the_exact_table_two_sides():
    r = Rules("foster", 4)
    eq = equity_table(r, "heuristic", n_hands=200_000, seed=5)
    states = [((0, 0), 0), ((35, 30), 3), ((10, 38), 1), ((40, 40), 2), ((25, 5), 0)]
    ro = game_rollouts(r, "heuristic", states, n_games=3000, seed=11)
    for i, (sc, d) in enumerate(states):
        exact = eq.p_win(sc, d)
        for s in range(2):
            se = max(ro.se[i, s], 1e-9)
            z = (ro.p_win[i, s] - exact[s]) / se
            assert abs(z) <= 3, (sc, d, s, ro.p_win[i, s], exact[s])
    # equal scores, the dealer's side wins less often than the other (the others lead)
    assert ro.p_win[3, 0] + ro.p_win[3, 1] == pytest.approx(1.0)


def test_equity_states_rollouts_and_exact_answer_and_say_which():
    r5 = Rules("foster", 5)
    d = equity_states(r5, "heuristic", [((30, 25, 20, 10, 0), 0)], n_games=2000, seed=1)
    st = d["states"][0]
    assert st["method"] == "rollouts" and len(st["p_win"]) == 5 and len(st["se"]) == 5
    assert sum(st["p_win"]) == pytest.approx(1.0)
    assert st["p_win"][0] > st["p_win"][4]          # 30 points against 0
    with pytest.raises(CatchTenError, match="method: exact not available"):
        equity_states(r5, "heuristic", [((0,) * 5, 0)], method="exact")
    with pytest.raises(CatchTenError, match="scores"):
        equity_states(r5, "heuristic", [((0, 0, 0, 0), 0)])
    with pytest.raises(CatchTenError, match="dealer"):
        equity_states(r5, "heuristic", [((0,) * 5, 5)])


def test_cli_equity_scores_json_five_and_eight_players():
    res = _runner().invoke(cli, ["equity", "--players", "5", "--scores", "30 25 20 10 0",
                                 "--scores", "0 0 0 0 0", "--dealer", "1", "--games", "1000",
                                 "--json", "--threads", "1"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    assert [s["scores"] for s in d["states"]] == [[30, 25, 20, 10, 0], [0, 0, 0, 0, 0]]
    assert all(s["dealer"] == 1 and s["method"] == "rollouts" for s in d["states"])
    assert all(len(s["se"]) == 5 and max(s["se"]) <= 0.02 for s in d["states"])
    res = _runner().invoke(cli, ["equity", "--players", "8", "--scores", "30 25 20 10",
                                 "--games", "1000", "--threads", "1"])
    assert res.exit_code == 0, res.output
    assert "rollouts" in res.stdout and "side 3" in res.stdout
    assert max(len(line) for line in res.stdout.splitlines()) <= 80


@pytest.mark.parametrize("args, field", [
    (["--players", "5", "--scores", "30 25 20 10"], "scores: bad score"),
    (["--players", "5", "--scores", "30 25 20 10 41"], "scores: bad score"),
    (["--players", "5", "--scores", "30 25 20 x 1"], "scores: not whole numbers"),
    (["--players", "5", "--scores", "0 0 0 0 0", "--dealer", "5"], "dealer: out of range"),
    (["--players", "5", "--scores", "0 0 0 0 0", "--dealer", "-1"], "dealer: out of range"),
    (["--players", "5"], "scores: needed with 4 or more sides"),
    (["--players", "5", "--scores", "0 0 0 0 0", "--method", "exact"],
     "method: exact not available"),
    (["--players", "4", "--scores", "0 0", "--games", "100"], "games: only with --method"),
])
def test_cli_equity_bad_input_one_line(args, field):
    res = _runner().invoke(cli, ["equity", *args])
    assert res.exit_code == 2
    err = res.stderr.strip()
    assert "\n" not in err and field in err and "Traceback" not in err


def test_simulate_games_start_score_and_its_refusals():
    run = _runner()
    res = run.invoke(cli, ["simulate", "--players", "5", "--games", "200", "--start-score",
                           "30 25 20 10 0", "--json", "--threads", "1"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["start_scores"] == [30, 25, 20, 10, 0]
    for args, msg in ((["--games", "10", "--start-score", "1 2"], "start-score: bad score"),
                      (["--start-score", "1 2 3 4 5"], "start-score: only with --games")):
        res = run.invoke(cli, ["simulate", "--players", "5", *args])
        assert res.exit_code == 2 and msg in res.stderr


def test_advise_score_five_players_by_rollouts():
    from catchten_sim.advise import advise
    pos = {"players": 5, "dealer": 0, "seat": 1, "hand": "8S KS 6H 7D 9D JD KD".split(),
           "turnup": "KH", "play": [], "score": [30, 25, 20, 10, 0]}
    a = advise(pos, samples=512, seed=1, threads=1)
    assert a.objective == "p_win" and a.p_win_available and a.p_win_method == "rollouts"
    assert "game rollouts" in a.note
    d = a.to_dict()
    assert d["p_win_method"] == "rollouts"
    for c in a.candidates:
        e = c.estimates["p_win"]
        assert 0.0 <= e.lo <= e.mean <= e.hi <= 1.0
    # the same run again: the same numbers (the games depend on the seed only)
    b = advise(pos, samples=512, seed=1, threads=2)
    assert [c.estimates["p_win"].mean for c in b.candidates] == \
        [c.estimates["p_win"].mean for c in a.candidates]


def test_a_table_cut_by_the_time_limit_gives_way_to_game_rollouts():
    # three sides, no table cached (the tests' own cache dir), the last set of the deal:
    # a table cut short by the time limit errs more than the advice's intervals would say,
    # so the game rollouts answer instead, and the hook says why
    from catchten_sim.cards import cards_of_mask, format_card
    from catchten_sim.equity import game_equity_hook
    from catchten_sim.play import deal, play
    from catchten_sim.policies import Policy
    from catchten_sim.position import Position
    r = Rules("foster", 3)
    d = deal(r, seed=4, index=0)
    seq = play(d, "heuristic").play[:18]              # set 1 played: six tricks of three
    st = d.play_state()
    for c in seq:
        st.play(c)
    assert st.set_index == r.n_sets - 1
    hand = [c for c in cards_of_mask(d.set_hands[1][st.to_move]) if c not in seq]
    pos = Position.from_dict({
        "dealer": d.dealer, "seat": st.to_move, "hand": [format_card(c) for c in hand],
        "turnup": format_card(d.turnup), "play": [format_card(c) for c in seq],
        "score": [0, 0, 0]}, r)
    fn, why = game_equity_hook(pos.info(), [Policy.HEURISTIC] * 3, n_hands=10_000_000,
                               time_limit=0.01, threads=1)
    assert fn is not None and fn.method == "rollouts"
    assert "game rollouts" in why and "--time" in why


def test_advise_score_p_win_interval_stays_within_0_and_1():
    # seven players, a card that nearly never wins the game: the normal interval of the
    # mean P(win) would reach below 0; a probability's interval is cut at 0 and 1
    from catchten_sim.advise import advise
    pos = {"players": 7, "dealer": 6, "seat": 0, "hand": "JS KH 9C QS QD".split(),
           "turnup": "8H", "play": [], "score": [9, 34, 7, 36, 19, 35, 11]}
    a = advise(pos, samples=512, seed=1, threads=1)
    low = min(a.candidates, key=lambda c: c.estimates["p_win"].mean).estimates["p_win"]
    assert 0.0 < low.mean < a.z * low.se       # the case: the interval would cross 0
    for c in a.candidates:
        e = c.estimates["p_win"]
        assert 0.0 <= e.lo <= e.mean <= e.hi <= 1.0
    assert low.lo == 0.0
    assert low.hi == pytest.approx(low.mean + a.z * low.se)


def test_match_p_win_game_five_players_by_rollouts():
    from catchten_sim.match import game_p_win_detail
    r = Rules("foster", 5)
    same = game_p_win_detail(r, "heuristic", "heuristic", n_games=300, threads=1)
    # alike: a seating and its complement play the same games, so exactly one half
    assert same["method"] == "rollouts" and same["p"] == pytest.approx(0.5, abs=1e-12)
    better = game_p_win_detail(r, "heuristic", "random", n_games=300, threads=1)
    assert better["p"] - same["p"] > 3 * (better["se"] ** 2 + same["se"] ** 2) ** 0.5
