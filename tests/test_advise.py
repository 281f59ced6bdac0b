"""``advise`` and ``odds``: exact agreement on small endings, common random numbers,
reproducibility, the trump-lead headline, the CLI."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import reference as ref
from catchten_sim import Rules
from catchten_sim.advise import advise, trump_answer
from catchten_sim.explain import explain, model_lines
from catchten_sim.evaluators import legal_cards
from catchten_sim.odds import odds
from catchten_sim.cards import cards_of_mask, format_card, parse_cards
from catchten_sim.cli import cli
from catchten_sim.errors import CatchTenError
from catchten_sim.position import Position

from _positions import cut_position, enumerate_hidden

OPENING = {"players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
           "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []}


# --------------------------------------------------------------------------- exact endings
def _exact(pos: Position):
    """Exact expectations, per legal card, of our side's points, the point difference and
    P(our side ends with the Ten) when every player plays uniformly at random after the
    card: an average over every consistent deal (uniform) and every random line, computed
    with the reference engine's rules (tests/reference.py), independently of the kernels."""
    info = pos.info()
    rr = ref.ref_rules("foster", 4)
    n = 4
    trump = info.trump
    ten = ref.card(ref.RT, trump)
    side = [s % 2 for s in range(n)]
    # the completed tricks, replayed with the reference
    play = list(pos.play)
    leader = (pos.dealer + 1) % n
    cards0 = [0, 0]
    hon0 = [0, 0]
    taker0 = None
    n_done = len(play) // n
    for t in range(n_done):
        tr = play[t * n:(t + 1) * n]
        w = ref.trick_winner(rr, leader, tr, trump)
        cards0[side[w]] += n
        hon0[side[w]] += sum(rr.honour_value(c, trump) for c in tr)
        if ten in tr:
            taker0 = w
        leader = w
    trick0 = play[n_done * n:]
    my = side[info.seat]
    share = rr.share(0)

    def finish(cards, hon, taker):
        tot = [hon[s] + max(0, cards[s] - share) for s in range(2)]
        return (tot[my], tot[my] - tot[1 - my], 1.0 if taker is not None and side[taker] == my
                else 0.0)

    def rec(hands, trick, leader, cards, hon, taker, tricks_left):
        if len(trick) == n:
            w = ref.trick_winner(rr, leader, trick, trump)
            cards = list(cards)
            hon = list(hon)
            cards[side[w]] += n
            hon[side[w]] += sum(rr.honour_value(c, trump) for c in trick)
            if ten in trick:
                taker = w
            if tricks_left == 1:
                return finish(cards, hon, taker)
            return rec(hands, [], w, cards, hon, taker, tricks_left - 1)
        seat = (leader + len(trick)) % n
        legal = ref.legal_cards(rr, hands[seat], trick, trump)
        acc = [0.0, 0.0, 0.0]
        for c in legal:
            h2 = list(hands)
            h2[seat] = [x for x in hands[seat] if x != c]
            r = rec(h2, trick + [c], leader, cards, hon, taker, tricks_left)
            for k in range(3):
                acc[k] += r[k] / len(legal)
        return acc

    buckets = info.buckets()
    deals = enumerate_hidden(info)
    tricks_left = 9 - n_done
    out = {}
    for c in legal_cards(info):
        acc = [0.0, 0.0, 0.0]
        for hid in deals:
            hands = [[] for _ in range(n)]
            hands[info.seat] = [x for x in cards_of_mask(info.my_hand) if x != c]
            for b, m in zip(buckets, hid):
                hands[b["seat"]] = cards_of_mask(m | b["fixed"])
            r = rec(hands, trick0 + [c], leader, cards0, hon0, taker0, tricks_left)
            for k in range(3):
                acc[k] += r[k] / len(deals)
        out[c] = acc
    return out, len(deals)


@pytest.mark.parametrize("seed,n_played", [(4, 28), (9, 29), (21, 26)])
def test_advise_agrees_with_exact_average_on_small_endings(seed, n_played):
    pos, _ = cut_position(Rules("foster", 4), seed, n_played)
    exact, n_deals = _exact(pos)
    assert n_deals >= 2
    # sampling (exact_max=0), not the exhaustive enumeration these few deals would get
    adv = advise(pos, policy="random", samples=20_000, seed=seed, stop_early=False,
                 time_limit=None, threads=2, exact_max=0)
    assert adv.n_samples == 20_000 and adv.stop == "samples"
    for c, (pts, diff, ten_ours) in exact.items():
        e = adv.candidate(c).estimates
        for name, want in (("points", pts), ("diff", diff), ("ten_ours", ten_ours)):
            est = e[name]
            se = est.se if est.se > 0 else 1e-9
            # the 95% interval (z = 1.96) holds the exact value; report the z score too
            z = (est.mean - want) / se if se > 1e-9 else 0.0
            assert abs(est.mean - want) <= 1.96 * se + 1e-9 or abs(z) < 2.6, \
                (format_card(c), name, est.mean, want, z)


def test_advise_exact_when_one_consistent_deal_and_deterministic_policy():
    # the last trick: every hidden card's place is known, the heuristic is deterministic:
    # every sample gives the same outcome and the interval has width 0
    pos, pd = cut_position(Rules("foster", 4), 2, 33, policy="heuristic")
    adv = advise(pos, samples=300, seed=3, stop_early=False, time_limit=None)
    for x in adv.candidates:
        assert x.estimates["points"].se == 0
    final = pd.total[pos.rules.side_of(pos.seat)]
    played_card = pd.play[33]
    assert adv.candidate(played_card).estimates["points"].mean == final


# --------------------------------------------------------------------------- properties
def test_common_random_numbers_and_reproducibility():
    pos = Position.from_dict(OPENING)
    a = advise(pos, samples=3000, seed=7, stop_early=False, time_limit=None, threads=1)
    b = advise(pos, samples=3000, seed=7, stop_early=False, time_limit=None, threads=2)
    fa, fb = a.to_frame(), b.to_frame()
    assert fa.equals(fb)                       # threads do not change the result
    # paired intervals are narrower than unpaired ones (common deals)
    assert a.margin is not None
    best, second = a.candidate(a.margin.a), a.candidate(a.margin.b)
    unpaired = math.hypot(best.estimates[a.objective].se, second.estimates[a.objective].se)
    assert a.margin.diff.se < unpaired


def test_trump_lead_headline_and_stop_reason():
    pos = Position.from_dict(OPENING)
    a = advise(pos, samples=20_000, seed=1)
    assert a.trump_lead is not None
    assert a.trump_lead.a in parse_cards(["JS", "AS", "9S"])
    assert a.trump_lead.b not in parse_cards(["JS", "AS", "9S"])
    assert a.stop in ("separated", "samples", "time")
    d = a.to_dict()
    json.dumps(d)
    assert d["best"] == format_card(a.best) and d["stop_reason"]
    assert len(d["candidates"]) == 9
    deals = explain(a, 2)
    assert len(deals) == 2 and len(deals[0]["tricks"]) == 9
    assert deals[0]["tricks"][0]["cards"][0] == format_card(a.best)


def test_single_legal_card_stops_at_once():
    # second to play with one card of the led suit: one legal card
    for seed in range(1, 60):
        pos, _ = cut_position(Rules("foster", 4), seed, 13)
        if len(legal_cards(pos.info())) == 1:
            a = advise(pos, samples=5000, seed=1)
            assert a.stop == "single" and a.n_samples == 256 and a.margin is None
            return
    pytest.skip("no forced position found")


def test_odds_at_the_deal():
    o = odds(Rules("foster", 4), parse_cards("JS AS 9S KH QH 7D 8C 9C TC".split()),
             parse_cards(["7S"])[0], seat=0, dealer=3, n_deals=4000, seed=2)
    assert 0 < o.points.mean < 60
    assert abs(sum(o.distribution.values()) - 1) < 1e-9
    # the Ten is with partner in 9 of the 26 unseen places
    assert o.ten_holder_ours.lo < 9 / 26 < o.ten_holder_ours.hi
    assert list(o.to_frame().columns) == ["p", "cum_p"]
    o2 = odds(Rules("foster", 4), parse_cards("TS AS 9S KH QH 7D 8C 9C TC".split()),
              parse_cards(["7S"])[0], seat=0, dealer=3, n_deals=2000, seed=2)
    assert o2.ten_lost is not None and o2.ten_holder_ours.mean == 1.0


# --------------------------------------------------------------------------- CLI
def _run(*args):
    try:
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(cli, list(args), catch_exceptions=False)


def test_cli_advise_flags_and_json(tmp_path):
    res = _run("advise", "--players", "4", "--dealer", "3", "--seat", "0", "--turnup", "7S",
               "--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--play", "", "--samples", "2000",
               "--json")
    assert res.exit_code == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["kind"] == "advice" and d["trump_lead"] is not None
    p = tmp_path / "pos.json"
    p.write_text(json.dumps(OPENING))
    res = _run("advise", str(p), "--samples", "1000", "--explain", "1")
    assert res.exit_code == 0, res.stderr
    assert "lead a trump?" in res.stdout and "stopped:" in res.stdout
    assert "sampled deal 0" in res.stdout


def test_cli_claims_no_best_card_on_too_few_deals():
    """Eight dd deals are too few to choose a card (the note says so): the best line said
    "best: JS, by +1.500 diff over 7D" all the same, where the page says "none yet". Now
    it names no card: what leads so far, by how much, and its paired range."""
    example = Path(__file__).parents[1] / "examples" / "position-lead.json"
    res = _run("advise", str(example), "--evaluator", "dd", "--samples", "8",
               "--threads", "1")
    assert res.exit_code == 0, res.stderr
    best = [ln for ln in res.stdout.splitlines() if ln.startswith("best:")]
    assert len(best) == 1, res.stdout
    assert best[0].startswith("best: none yet (too few deals to choose a card: 8); so far "
                              ), best
    assert "note: too few deals to choose a card (8)" in res.stdout
    # a run of enough deals still names its best card
    res = _run("advise", str(example), "--evaluator", "dd", "--samples", "256",
               "--threads", "1")
    best = [ln for ln in res.stdout.splitlines() if ln.startswith("best:")]
    assert best and not best[0].startswith("best: none yet"), best


@pytest.mark.parametrize("change,field", [
    ({"hand": "JS AS 9S KH QH 7D 8C 9C".split()}, "hand"),          # wrong count
    ({"hand": "JS JS 9S KH QH 7D 8C 9C TC".split()}, "hand"),       # duplicate
    ({"seat": 1}, "seat"),                                           # not to move
    ({"hand": "7S AS 9S KH QH 7D 8C 9C TC".split()}, "hand"),       # the dealer's turn-up
    ({"play": ["JS"]}, "hand"),                                      # held and played
    ({"hand": "JS AS 9S KH QH 7D 8C 9C XX".split()}, "hand"),       # malformed
])
def test_cli_advise_bad_positions_one_line_exit_2(tmp_path, change, field):
    p = tmp_path / "pos.json"
    p.write_text(json.dumps({**OPENING, **change}))
    res = _run("advise", str(p))
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and field in lines[0], lines
    assert "Traceback" not in res.stderr


def test_cli_odds_and_help():
    res = _run("odds", "--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--turnup", "7S", "--seat",
               "0", "--dealer", "3", "--deals", "2000", "--json")
    assert res.exit_code == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["kind"] == "odds" and d["deals"] == 2000
    res = _run("odds", "--hand", "JS AS", "--turnup", "7S")
    assert res.exit_code == 2 and "hand" in res.stderr
    for cmd in ("advise", "odds"):
        res = _run(cmd, "--help")
        assert res.exit_code == 0 and "Usage" in res.stdout
    res = _run("advise", "--players", "4", "--dealer", "3", "--seat", "0", "--turnup", "7S",
               "--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--evaluator", "mcts")
    assert res.exit_code == 2 and "evaluator" in res.stderr


def test_p_win_with_score_from_the_equity_table():
    pos = Position.from_dict({**OPENING, "score": [30, 36]})
    a = advise(pos, samples=1000, seed=1)
    assert a.p_win_available and a.objective == "p_win"
    for x in a.candidates:
        e = x.estimates["p_win"]
        assert 0.0 <= e.mean <= 1.0
    # 40 to 0 before the hand: side 0 needs one point; our J of trumps guarantees 11
    near = Position.from_dict({**OPENING, "score": [40, 0]})
    b = advise(near, samples=500, seed=1)
    assert b.candidate("JS").estimates["p_win"].mean == 1.0
    c = advise(Position.from_dict(OPENING), samples=300, seed=1)
    assert not c.p_win_available and "score" in c.note


# ------------------------------------------------------------------ honest stopping (issue 13)
def test_no_early_stop_runs_all_samples_with_fixed_sample_intervals():
    pos = Position.from_dict(OPENING)
    a = advise(pos, samples=3000, seed=2, stop_early=False, time_limit=None, threads=1)
    assert a.n_samples == 3000 and a.stop == "samples"
    assert math.isclose(a.z, 1.959963984540054) and "fixed sample size" in a.intervals
    b = advise(pos, samples=3000, seed=2, time_limit=None, threads=1)
    # early stopping: wider intervals (alpha spent over the looks), on the same samples
    # when it ran to the end
    assert b.z > a.z and "early stopping" in b.intervals
    if b.n_samples == 3000:
        e_a, e_b = a.candidates[0].estimates["diff"], b.candidates[0].estimates["diff"]
        assert e_b.hi - e_b.lo > e_a.hi - e_a.lo
    d = b.to_dict()
    assert d["intervals"]["z"] == round(b.z, 4) and d["verdict"] in (
        "separated", "no practical difference", "not separated")


def test_practical_margin_reports_no_practical_difference():
    pos = Position.from_dict(OPENING)
    a = advise(pos, samples=20_000, seed=1, time_limit=None, threads=1, margin=50.0)
    assert a.stop == "equivalent" and a.n_samples == 256
    assert a.margin.verdict == "no practical difference"
    with pytest.raises(Exception, match="margin"):
        advise(pos, samples=300, margin=-1.0)


def test_ctrl_c_keeps_the_finished_batches():
    pos = Position.from_dict(OPENING)

    def interrupt(done, total):
        if done >= 512:
            raise KeyboardInterrupt

    a = advise(pos, samples=20_000, seed=1, time_limit=None, threads=1, stop_early=False,
               progress=interrupt)
    assert a.partial and a.stop == "interrupted" and a.n_samples == 512
    assert a.to_dict()["partial"] is True
    o = odds(Rules("foster", 4), parse_cards("JS AS 9S KH QH 7D 8C 9C TC".split()),
             parse_cards(["7S"])[0],
             seat=0, dealer=3, n_deals=100_000, seed=1, threads=1, progress=interrupt)
    assert o.partial and o.n_deals == 32_768 and o.to_dict()["requested_deals"] == 100_000


def test_cli_advise_flags():
    args = ["advise", "--players", "4", "--dealer", "3", "--seat", "0", "--turnup", "7S",
            "--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--play", "", "--samples", "1000",
            "--time", "60"]
    r = CliRunner().invoke(cli, args + ["--no-early-stop", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["samples"] == 1000 and d["intervals"]["z"] == 1.96
    r = CliRunner().invoke(cli, args + ["--margin", "100"])
    assert r.exit_code == 0 and "no practical difference" in r.output


# --------------------------------------------------------------------------- --cards
@pytest.mark.parametrize("evaluator", ["rollout", "dd"])
def test_only_cards_gives_those_cards_the_full_runs_values(evaluator):
    """``cards``: only the cards asked for, each with the very values it has in the run of
    every legal card (the same deals and rollout streams: a candidate's row does not depend
    on which others are evaluated), and the trump-lead question between them."""
    kw = dict(evaluator=evaluator, samples=64, stop_early=False, seed=3, threads=1,
              time_limit=None)
    full = advise(OPENING, **kw)
    two = advise(OPENING, cards="7D JS", **kw)
    assert sorted(x.name for x in two.candidates) == ["7D", "JS"]
    for x in two.candidates:
        assert x.estimates["diff"].mean == full.candidate(x.card).estimates["diff"].mean
    assert two.trump_lead is not None and str(two.trump_lead.a) == "JS"
    assert "only the cards asked for" in two.note


def test_only_cards_refuses_an_illegal_card_and_leaves_the_trump_question_open():
    with pytest.raises(CatchTenError) as e:
        advise(OPENING, cards="JS 7H", samples=16, threads=1)
    assert e.value.field == "cards" and "7H" in str(e.value)
    r = CliRunner().invoke(cli, ["advise", "--players", "4", "--dealer", "3", "--seat", "0",
                                 "--turnup", "7S", "--hand", " ".join(OPENING["hand"]),
                                 "--play", "", "--cards", "7D 8C", "--samples", "32",
                                 "--threads", "1"])
    assert r.exit_code == 0, r.output
    # no trump among the cards asked for: no answer, and not "a trump lead is not allowed"
    assert "lead a trump?" not in r.output and "not allowed" not in r.output
    bad = CliRunner().invoke(cli, ["advise", "--players", "4", "--dealer", "3", "--seat",
                                   "0", "--turnup", "7S", "--hand", " ".join(OPENING["hand"]),
                                   "--play", "", "--cards", "XX"])
    assert bad.exit_code == 2 and "cards" in bad.output


def test_pimc_rollouts_stop_at_the_time_limit_within_a_small_batch():
    """pimc rollouts cost seconds a deal: batches of PIMC_BATCH deals, so ``--time`` stops
    the run after a few deals, not after a first look of hundreds."""
    from catchten_sim.advise import PIMC_BATCH
    adv = advise(OPENING, policy="pimc:2", cards="JS 7D", samples=256, time_limit=0.001,
                 threads=1, seed=2)
    assert adv.stop == "time" and adv.n_samples == PIMC_BATCH


# ------------------------------------------- the rollouts' answer beside dd (MODEL line)
def _model_line(planned: int, n: int = 256):
    """The dd run's model comparison on fabricated per-deal values of ``n`` deals (no
    engine): dd says lead the trump JS (+2 a deal, no spread), the rollouts lean to 7D by
    1.7 points a deal with a spread of 10.5 (se 0.66 at 256 deals), at the critical value
    the rollout evaluator itself uses after ``n`` of ``planned`` deals."""
    from catchten_sim.advise import _compare_models, _ranked
    from catchten_sim.aggregate import CandidateSums, LookPlan
    info = Position.from_dict(OPENING).info()
    cands = legal_cards(info)
    js, d7 = cands.index(parse_cards(["JS"])[0]), cands.index(parse_cards(["7D"])[0])
    base = np.tile(np.arange(len(cands), dtype=float) * -3 + 20, (n, 1))
    dd, ro = base.copy(), base.copy()
    dd[:, js], dd[:, d7] = 30.0, 28.0
    ro[:, d7] = 25.0
    ro[:, js] = 25.0 - 1.7 + 10.5 * np.where(np.arange(n) % 2, 1.0, -1.0)
    acc, acc_o = CandidateSums(len(cands), ["diff"], "diff"), \
        CandidateSums(len(cands), ["diff"], "diff")
    acc.add({"diff": dd})
    acc_o.add({"diff": ro})
    z = LookPlan(planned).z_at(n)
    return _compare_models(acc, acc_o, cands, info, (0.0, z), 0.25,
                           _ranked(acc, cands, {}, 0.0, 0.25), planned)


def test_model_line_states_each_models_answer_and_a_smaller_sample():
    """The MODEL lines give each model's best card with how firmly it beats its own second
    (the ``best:`` line's test) and each one's answer to "lead a trump?", and say when the
    rollouts' deals are fewer than a rollout run takes; at most two lines of 80 columns.
    The JSON carries the rollouts' deals, interval and answer. (Was: "too close to call
    (-1.71)" with no deals, beside a rollout run's firm NO; then a five-line sentence.)
    No engine: well under 1 s."""
    other, lines = _model_line(planned=20_000)      # stopped at the first look: z 3.19
    tl = other["trump_lead"]
    assert tl["answer"] == "too close to call" and tl["n"] == 256
    assert tl["ci95"][0] < tl["mean"] < 0 < tl["ci95"][1]
    assert other["samples"] == 256 and other["planned_samples"] == 20_000
    assert other["z"] == pytest.approx(3.19, abs=0.01)
    assert other["best"] == "7D" and other["separation"] == "not separated at 95%"
    assert lines == ["MODEL: best card dd JS (exact), heuristic rollouts 7D (not separated)",
                     "  lead a trump? dd YES, rollouts too close to call on 256 deals (a "
                     "short check)"]
    # alone on its line the remark says how to learn more (was: "rollouts too close
    # (rollouts: 256 of 20,000 deals)", read as the rollouts' answer, where a rollout
    # run on its own says NO)
    assert model_lines(None, ("YES", "too close to call"), "heuristic", 256, 20_000) == [
        "MODEL: lead a trump? dd YES, heuristic rollouts too close to call on 256 deals",
        "  (a short check: run rollouts alone for more)"]
    # every planned deal done (one look, z 1.96): a firm NO, and no smaller-sample remark
    other, lines = _model_line(planned=256)
    assert other["trump_lead"]["answer"] == "NO" and lines[-1].endswith("rollouts NO")
    assert len(lines) == 2 and not any("deals" in x for x in lines)


def test_rollouts_beside_dd_use_the_rollout_runs_own_intervals(monkeypatch):
    """The rollouts beside an exact dd run answer "lead a trump?" with the very interval
    and answer of an exact rollout run on the same deals: with a random policy that has
    error of its own (z 1.96), though dd has none (was: z 0, a zero-width interval).
    (The fusion-aware values, seconds here and beside the point, are left out.)"""
    import sys      # (the package's name ``advise`` is the function, not the module)
    monkeypatch.setattr(sys.modules["catchten_sim.advise"], "fusion_for", lambda *a: {})
    path = "tests/cases/advise/foster4_left3_lead_01.json"
    kw = dict(policy="random", threads=1, seed=3)
    dd = advise(path, evaluator="dd", **kw)
    ro = advise(path, evaluator="rollout", **kw)
    assert dd.exact and ro.exact and dd.z == 0 and ro.z > 0
    other = dd.to_dict()["other_evaluator"]
    tl = dict(other["trump_lead"])
    assert tl.pop("answer") == trump_answer(ro.trump_lead)
    assert tl == ro.trump_lead.to_dict() and tl["ci95"][0] < tl["ci95"][1]
    assert other["samples"] == ro.n_samples and other["z"] == round(ro.z, 4)


@pytest.mark.parametrize("variants, shown", [({}, False), ({"card_points": "on"}, True)])
def test_the_card_points_column_is_left_out_when_the_rules_score_none(variants, shown):
    """french52 scores no card points (card_points off): its rollout table had a "card
    pts" column of 0.00; it is shown when the rules score card points."""
    from rich.console import Console

    from catchten_sim.play import deal
    from catchten_sim.text import print_advice
    rules = Rules("french52", 4, variants)
    rec = deal(rules, seed=3, index=0).to_record()
    seat = (rec["dealer"] + 1) % 4
    pos = Position.from_dict({"rules": "french52", "players": 4, "variants": variants,
                              "dealer": rec["dealer"], "seat": seat,
                              "hand": rec["hands"][seat], "turnup": rec["turnup"],
                              "play": []})
    a = advise(pos, samples=64, stop_early=False, threads=1, seed=1, time_limit=None)
    con = Console(record=True, width=80)
    print_advice(a, con)
    text = con.export_text()
    assert "The Ten of trumps, per card:" in text         # the table itself is there
    assert ("card pts" in text) == shown, text
