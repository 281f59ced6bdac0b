"""The page's words (catchten_sim.serve.words, ``/api/words``) on the runs the page gets:
a double-dummy run on too few deals says so in its headline line, not only in the
Details; the CLI's ``in words:`` says the same."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from catchten_sim import advise
from catchten_sim.cli import cli
from catchten_sim.errors import ParseError
from catchten_sim.explain import FEW_DEALS
from catchten_sim.serve.words import check_advice, few_words, plain_answer, too_few
from catchten_sim.text import print_advice

CASES = Path(__file__).resolve().parent / "cases" / "advise"
#: 3 tricks left: double-dummy is quick; 12 deals do not separate its best card
THIN = CASES / "foster4_left3_lead_01.json"
#: ... and here 12 deals do separate it: no "too few" claim
FIRM = CASES / "foster4_left3_pos4_04.json"
EXAMPLE = CASES.parent.parent.parent / "examples" / "position-lead.json"
DD12 = dict(evaluator="dd", samples=12, threads=1, seed=1, exact_max=0, time_limit=None)


def _dd_n(path: Path, samples: int) -> dict:
    return json.loads(json.dumps(advise(str(path), **{**DD12, "samples": samples})
                                 .to_dict()))


def _dd(path: Path) -> dict:
    return _dd_n(path, 12)


def test_a_dd_headline_on_too_few_deals_says_so():
    """12 sampled deals, no card separated: the CLI's note says "too few deals to choose
    a card (12)"; the dd headline line says it too, in words (no flags), its pick only
    "so far", and the page is told (``too_few``) so that "Best card:" says it."""
    dd = _dd(THIN)
    assert dd["samples"] == 12 < FEW_DEALS and dd["margin"]["verdict"] == "not separated"
    assert dd["note"].startswith("too few deals to choose a card (12)")
    w = plain_answer(None, dd)
    best = w["best"][0]
    assert best.startswith("If everyone plays perfectly after it (all hands seen): only "
                           "12 deals: too few to choose a card (give it more time); so "
                           f"far {dd['best']} leads by "), best
    assert "--" not in best and "evaluator" not in best
    assert w["too_few"] == {"dd": 12}
    # the CLI's "in words:" line is the same sentence
    res = CliRunner().invoke(cli, ["advise", str(THIN), "--evaluator", "dd", "--samples",
                                   "12", "--exact-max", "0", "--threads", "1"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.output.split())
    assert "in words: " + best in text, text


def test_a_separated_or_enough_deals_run_makes_no_too_few_claim():
    """A run whose best card is separated (12 deals here) has no such note: its headline
    is the plain recommendation; mostly bounded deals (>= 30) are said as such."""
    dd = _dd(FIRM)
    assert dd["margin"]["verdict"] == "separated" and "too few" not in dd["note"]
    w = plain_answer(None, dd)
    assert w["too_few"] == {} and "too few" not in w["best"][0]
    assert w["best"][0].startswith("If everyone plays perfectly after it (all hands "
                                   f"seen): play {dd['best']}, ")
    # the note of 40 deals, 25 of them bounded (explain.run_note's other reason)
    thin = {**_dd(THIN), "samples": 40, "bounded_deals": 25,
            "note": "too few deals to choose a card (40): give more --time"}
    assert too_few(thin) == 40
    assert few_words(thin) == ("40 deals, 25 of them not solved to the end: too few to "
                               "choose a card (give it more time)")


@pytest.mark.parametrize("key, bad", [("note", 3), ("bounded_deals", "x")])
def test_a_wrongly_typed_note_is_refused_naming_it(key, bad):
    with pytest.raises(ParseError) as exc:
        check_advice({**_dd(FIRM), key: bad}, "dd")
    assert exc.value.field == f"dd.{key}" and exc.value.why == "wrong type"


def test_a_pick_on_too_few_deals_is_no_disagreement():
    """The rollouts separate 7D; 12 double-dummy deals lean to JS without separating it:
    double-dummy has not chosen, so the page does not say the models disagree."""
    pos = str(EXAMPLE)
    ro = json.loads(json.dumps(advise(pos, samples=3000, threads=1, seed=1).to_dict()))
    dd = _dd(EXAMPLE)
    assert ro["margin"]["verdict"] == "separated" and ro["best"] != dd["best"]
    w = plain_answer(ro, dd)
    assert w["too_few"] == {"dd": 12} and w["disagree"] == ""
    # the same runs, dd's note without the claim: the disagreement is said
    assert plain_answer(ro, {**dd, "note": ""})["disagree"].startswith(
        "The two models disagree on the best card.")


#: the switches that change nothing under jaques and french52 (their deals and play):
#: foster's player counts only (sets at 2-3 players, 5 or 7 players, 6 as pairs or
#: triples), RULES.md §3 and the registry's ``deal``
FOSTER_COUNTS_ONLY = {"keep_six_of_spades", "small_deal", "set_scoring", "removed_six",
                      "six_players"}


@pytest.mark.parametrize("preset", ["foster", "jaques", "french52"])
def test_the_page_offers_the_presets_switches_in_words(preset):
    """/api/rules: each switch with a label in words (its key kept for the API); a switch
    that can change nothing under the preset at 4 players is not offered (foster's
    player-count switches are foster's at their own counts only:
    test_the_page_offers_a_switch_at_the_player_counts_it_acts_at)."""
    from catchten_sim.serve.api import rules_json
    rows = rules_json({"rules": preset, "players": 4})["switches"]
    for r in rows:
        assert r["label"] and "_" not in r["label"] and r["label"] != r["name"], r
    hidden = {r["name"] for r in rows if not r["offered"]}
    assert hidden == FOSTER_COUNTS_ONLY | ({"six_as_three_pairs"} if preset == "jaques"
                                           else set()), hidden
    assert {"game_at_once", "target", "must_trump"} <= {r["name"] for r in rows
                                                        if r["offered"]}


@pytest.mark.parametrize("players, offered, hidden", [
    (2, {"small_deal", "set_scoring"},
     {"everyone_alone", "keep_six_of_spades", "removed_six", "six_players"}),
    (3, {"small_deal", "set_scoring"}, {"everyone_alone", "six_players"}),
    (4, {"everyone_alone"}, {"small_deal", "set_scoring", "keep_six_of_spades"}),
    (5, {"keep_six_of_spades", "removed_six"}, {"everyone_alone", "small_deal"}),
    (6, {"six_players", "everyone_alone"}, {"removed_six", "set_scoring"}),
    (8, {"everyone_alone"}, {"six_players", "keep_six_of_spades", "small_deal"}),
])
def test_the_page_offers_a_switch_at_the_player_counts_it_acts_at(players, offered, hidden):
    """A new user at 4 players was offered "Deal 2 or 3 players" and "Lay the 36th card
    aside", which do nothing there: /api/rules offers each switch at the player counts
    where it can change something (Switch.acts_at; tests/test_switch_registry.py checks
    it against simulated deals); the game's switches at every count."""
    from catchten_sim.serve.api import rules_json
    rows = {r["name"]: r["offered"] for r in
            rules_json({"rules": "foster", "players": players})["switches"]}
    assert {n for n in offered if rows[n]} == offered, rows
    assert {n for n in hidden if not rows[n]} == hidden, rows
    assert all(rows[n] for n in ("game_at_once", "target", "tie", "revoke", "must_trump"))


def _sim(variants: dict) -> dict:
    from catchten_sim import Rules, simulate
    d = simulate(Rules("french52", 4, variants), "heuristic", n_deals=2000, seed=3,
                 threads=1).to_dict()
    return {"positions": d["positions"], "ten": d["ten"]}


def test_a_switch_not_offered_changes_nothing_under_the_preset():
    """What "not offered" rests on: under french52 each such switch, turned from its
    default, leaves every deal's result as it was; an offered one changes them."""
    from catchten_sim.switches import SWITCH_OF
    base = _sim({})
    for name in FOSTER_COUNTS_ONLY:
        sw = SWITCH_OF[name]
        other = sw.flipped(sw.defaults["french52"])
        assert _sim({name: other}) == base, name
    assert _sim({"must_trump": True}) != base


def test_ranges_of_few_deals_are_the_clis_by_students_t():
    """12 deals: the page shows the run's own interval (the CLI's: mean ± c se, checked
    here), whose c is Student's t (11 degrees of freedom at the share of alpha the run's
    first check would spend, aggregate.LookPlan.critical): z would cover less than 95%
    with so few deals; the words say why the range is wider than 1.96."""
    from catchten_sim.aggregate import t_two_sided
    from catchten_sim.serve.words import details_lines
    dd = _dd(THIN)
    z = dd["intervals"]["z"]      # 12 deals planned: one check, all of alpha at it
    assert dd["samples"] == 12 and z == pytest.approx(t_two_sided(0.05, 11), abs=1e-3) and z > 2.2
    for c in dd["candidates"]:
        e = c["diff"]
        assert e["ci95"] == pytest.approx([e["mean"] - z * e["se"], e["mean"] + z * e["se"]],
                                          abs=1e-3)
    ranges = next(x for x in details_lines(dd, "dd") if x.startswith("ranges: "))
    assert ranges.startswith(f"ranges: 95% ranges, each value \u00b1 {z:.2f} standard "
                             "errors (more than the usual 1.96: with only 12 deals the "
                             "spread is itself uncertain (Student's t)"), ranges
    # 40 deals: still Student's t (before the first check at 256 deals)
    many = _dd_n(THIN, 40)
    assert "Student's t" in next(x for x in details_lines(many, "dd")
                                 if x.startswith("ranges: "))
    assert next(x for x in details_lines(many, "dd") if x.startswith("ranges: ")) \
        .startswith("ranges: 95% ranges, each value \u00b1 ")


def test_a_lean_of_nothing_is_no_difference_found():
    """Two cards equal on every deal solved to the end and apart only on a bounded one
    (its range's midpoint) can differ by less than 0.05 points: that is no lean ("JS by
    a lean over AS, +0.0", a new user's dd advice); a real lean keeps its words."""
    from catchten_sim.serve.words import best_words
    adv = {"best": "JS", "objective": "diff", "margin": {
        "b": "AS", "verdict": "not separated", "mean": 0.004, "ci95": [-1.067, 1.075]}}
    assert best_words(adv) == ("JS or AS: no difference found between them (95%: -1.1 to "
                               "1.1 points a hand)"), best_words(adv)
    adv["margin"]["mean"] = 0.3
    assert best_words(adv).startswith("JS by a lean over AS, not separated (+0.3 ")


def test_a_too_few_answer_says_what_is_known_and_claims_no_card():
    """A new user's dd answer on 12 deals still read as a confident one: "JS by a lean
    over 7D (+3.3 points a hand, 95%: -2.0 to 8.6)", "Lead a trump: too close to call
    (95%: ...)", and the usual "Which to trust" line. Now its lines say the card leading
    so far, by how much, and how wide the ranges are, no 95% amounts and no "play";
    "lead a trump?" is not known yet (never a disagreement); the line under the values
    says not to trust double-dummy yet; the rollouts' lines are as ever."""
    from catchten_sim.explain import WHICH_TO_TRUST
    from catchten_sim.serve.words import trump_answer
    ro = json.loads(json.dumps(advise(str(EXAMPLE), samples=3000, threads=1, seed=1)
                               .to_dict()))
    dd = _dd(EXAMPLE)
    w = plain_answer(ro, dd)
    assert w["too_few"] == {"dd": 12}
    line = w["best"][0]
    m = dd["margin"]
    widths = [c["diff"]["ci95"][1] - c["diff"]["ci95"][0] for c in dd["candidates"]]
    # AS scored as JS on every deal: the two lead together
    assert [dd["best"]] + [c["card"] for c in dd["candidates"]
                           if c["equivalent_to"] == dd["best"]] == ["JS", "AS"]
    assert line == ("If everyone plays perfectly after it (all hands seen): only 12 deals: "
                    "too few to choose a card (give it more time); so far "
                    f"JS and AS lead by {abs(m['mean']):.1f} points a hand over "
                    f"{m['b']}, but the cards' ranges are between {min(widths):.1f} and "
                    f"{max(widths):.1f} points a hand wide."), line
    # (was "each card's range is 19.2 to 23.1 points a hand wide": read as one range
    # from 19.2 to 23.1, not as the widths of the cards' ranges)
    assert min(widths) < max(widths) and "range is " not in line
    assert "95%" not in line and "play " not in line.split(": ", 1)[1]
    assert trump_answer(dd) == "unknown"
    t_dd = w["trump"][0]
    assert t_dd.startswith("Lead a trump, if everyone plays perfectly after it (all hands "
                           "seen)? Not known yet, on too few deals (12); so far a trump "
                           "lead is "), t_dd
    assert "95%" not in t_dd and "points wide." in t_dd
    dd_part, ro_part = w["trump_line"].split("; with club-level play", 1)
    assert dd_part.startswith("Lead a trump: if everyone plays perfectly after it (all "
                              "hands seen), not known yet") and "95%" not in dd_part
    assert "95%" in ro_part                  # the rollouts' answer keeps its amounts
    assert w["best"][1] == plain_answer(ro, None)["best"][0]
    assert w["trust"] == ("Which to trust: not double-dummy yet (12 deals, too few to "
                          "choose a card); otherwise " + WHICH_TO_TRUST.split(": ", 1)[1])
    assert plain_answer(ro, None)["trust"] == WHICH_TO_TRUST
    # a "yes" on too few deals is no answer either: no disagreement with the rollouts
    yes = {**dd, "trump_lead": {**dd["trump_lead"], "ci95": [0.5, 6.0], "mean": 3.0}}
    assert trump_answer(yes) == "unknown" and plain_answer(ro, yes)["disagree"] == ""


def test_every_card_level_with_the_leader_is_named():
    """Three dd deals where TS, KS (tied with TS on every deal) and TC are level said "so
    far TS and TC are level", and "a trump lead is 0.0 points a hand better": now every
    level card is named, in the page's headline too (``leading``) and the CLI's best
    line, and a 0.0 difference is said as level."""
    from catchten_sim.serve.words import leader_words
    dd = json.loads(json.dumps(advise(str(THIN), **{**DD12, "samples": 3, "seed": 2})
                               .to_dict()))
    assert [c["card"] for c in dd["candidates"]] == ["TS", "KS", "TC"]
    assert {c["diff"]["mean"] for c in dd["candidates"]} == {41.3333}, dd["candidates"]
    assert dd["candidates"][1]["equivalent_to"] == "TS" and dd["margin"]["b"] == "TC"
    w = plain_answer(None, dd)
    assert "; so far TS, KS and TC are level, but each card's range is " in w["best"][0]
    assert w["leading"] == {"dd": "TS, KS and TC are level"}
    assert w["trump"][0].endswith("so far a trump lead is level with the best other "
                                  "lead, its range 19.9 points wide."), w["trump"][0]
    res = CliRunner().invoke(cli, ["advise", str(THIN), "--evaluator", "dd", "--samples",
                                   "3", "--seed", "2", "--exact-max", "0", "--threads", "1"])
    text = " ".join(res.output.split())
    assert "best: none yet (too few deals to choose a card: 3); so far TS, KS and TC are " \
        "level (paired 95%: " in text, text
    assert "0.0 points" not in text and "+0.000 diff over" not in text
    # more than four level: the first two and how many others; tied ones lead together
    five = {**dd, "best": "2D", "margin": {**dd["margin"], "b": "5D"}, "candidates": [
        {"card": c, "diff": {"mean": 4.0}} for c in ("2D", "5D", "3D", "7D", "9D")]}
    assert leader_words(five) == "2D, 5D and 3 others are level"
    four = {**five, "candidates": five["candidates"][:4] + [{"card": "9D",
                                                             "diff": {"mean": 1.0}}]}
    assert leader_words(four) == "2D, 5D, 3D and 7D are level"
    ahead = {**five, "margin": {**five["margin"], "mean": 2.5}, "candidates": [
        {"card": "2D", "diff": {"mean": 4.0}},
        {"card": "3D", "diff": {"mean": 4.0}, "equivalent_to": "2D"},
        {"card": "5D", "diff": {"mean": 1.5}}]}
    assert leader_words(ahead) == "2D and 3D lead"


def test_too_close_to_call_at_nothing_says_level():
    """"too close to call (+0.0 points a hand, ...)": a difference that shows as 0.0 is
    said as level; a small one keeps its digits."""
    from catchten_sim.serve.words import trump_words
    adv = {"best": "JS", "objective": "diff", "trump_lead": {
        "mean": 0.001, "ci95": [-2.0, 2.0], "verdict": "not separated"}}
    assert trump_words(adv) == ("too close to call (level so far, 95%: -2.0 to 2.0 points "
                                "a hand)")
    adv["trump_lead"]["mean"] = -0.03
    assert trump_words(adv).startswith("too close to call (-0.03 points a hand, 95%: ")


@pytest.mark.parametrize("stop_early", [True, False])
def test_one_legal_card_is_nothing_to_choose_not_too_few_deals(stop_early):
    """With one legal card the dd Details said "too few deals to choose a card yet (16)"
    beside "stopped: only one card can be played": there is nothing to choose. The note
    claims no "too few"; the Details, the words and the CLI's best line say "only one
    legal card" (its words: "the only legal card"), however the run stopped."""
    from _positions import cut_position
    from catchten_sim import Rules
    from catchten_sim.evaluators import legal_cards
    from catchten_sim.serve.words import details_lines
    pos, _ = cut_position(Rules("foster", 4), 4, 13)
    assert len(legal_cards(pos.info())) == 1
    a = advise(pos, evaluator="dd", samples=20, seed=1, stop_early=stop_early, threads=1,
               time_limit=None)
    d = json.loads(json.dumps(a.to_dict()))
    assert d["samples"] < FEW_DEALS and d["stop"] == ("single" if stop_early else "samples")
    assert "too few" not in d["note"], d["note"]
    det = details_lines(d, "dd")
    said = [x for x in det if x.endswith("only one legal card, nothing to choose")]
    assert len(said) == 1 and said[0].startswith("stopped: ") == stop_early, det
    assert not any("too few" in x or "can be played" in x for x in det), det
    assert plain_answer(None, d)["best"][0].endswith(": play KS (the only legal card).")
    con = Console(record=True, width=80)
    print_advice(a, con)
    assert "best: KS (the only legal card)" in con.export_text()


def test_the_switches_say_card_points_as_the_rules_do():
    """"Card points scored" (set_scoring) and "Points for cards" (card_points) read as two
    names of one thing: the switches say the rules' term, card points (docs/rules.md),
    and no label or line says "points for cards"."""
    from catchten_sim.switches import switch_table
    rows = {r["name"]: r for r in switch_table("foster")}
    assert rows["card_points"]["label"] == "Card points"
    assert rows["set_scoring"]["label"] == "Card points counted"
    for r in rows.values():
        assert "points for cards" not in (r["label"] + " " + r["text"]).lower(), r


def test_every_stop_has_words_and_a_settled_stop_says_both_questions():
    """Every stop an advise run can give is said in words on the page (a new stop,
    ``settled``, was shown as its bare name); a rollout run on the README's opening lead
    stops when the best card and "lead a trump?" are both decided, and the Details say
    so, naming the trump question."""
    from catchten_sim.explain import STOP_REASONS
    from catchten_sim.serve.words import STOP_WORDS, details_lines
    assert set(STOP_WORDS) == set(STOP_REASONS)
    d = json.loads(json.dumps(advise(str(EXAMPLE), seed=1,
                                     threads=1).to_dict()))
    assert d["trump_lead"] is not None
    assert d["stop"] in ("separated", "equivalent", "settled"), d["stop"]
    stopped = [ln for ln in details_lines(d) if ln.startswith("stopped: ")]
    assert len(stopped) == 1 and d["stop"] not in stopped[0].split(), stopped
    assert "trump" in stopped[0], stopped


def _run(ev: str, best: str, b: str, verdict: str, mean: float, cands: list) -> dict:
    """A run's answer as /api/words gets it (no engine): ``cands`` (card, mean, the card
    it equals on every deal or None), best first."""
    return {"evaluator": ev, "objective": "diff", "policies": ["heuristic"] * 4,
            "measure": "our side's points minus the opponents'", "best": best,
            "samples": 1000, "note": None, "trump_lead": None,
            "margin": {"a": best, "b": b, "mean": mean, "ci95": [mean - 2, mean + 2],
                       "verdict": verdict, "practical_margin": 0.25},
            "candidates": [{"card": c, "diff": {"mean": v, "ci95": [v - 5, v + 5]},
                            "equivalent_to": e} for c, v, e in cands]}


def test_cards_the_same_on_every_deal_as_the_best_are_named_with_it():
    """A new user's french52 lead: dd marks JC, QC, KC and AC "= TC", the rollouts AC
    "= KC" (and QC within the practical margin), yet each pick was named alone ("best:
    TC", "TC by a lean over QS") and the page's headline read "K♣ (or Q♣, no practical
    difference) with club-level play; with perfect play, 10♣ (a lean)", as if the two
    models disagreed though dd rates K♣ exactly as 10♣. Now every card the same as the
    best on every deal is named with it (more than four: the first two and how many
    others), and a pick among the other run's equal or level cards is the same pick."""
    from catchten_sim.serve.words import same_as_best
    dd = _run("dd", "TC", "QS", "not separated", 0.9,
              [("TC", -15.8, None)] + [(c, -15.8, "TC") for c in ("JC", "QC", "KC", "AC")]
              + [("QS", -16.7, None)])
    ro = _run("rollout", "KC", "QC", "no practical difference", 0.02,
              [("KC", -9.20, None), ("AC", -9.20, "KC"), ("QC", -9.22, None)])
    w = plain_answer(ro, dd)
    assert w["headline"] == ("Best card: KC (or AC: the same on every deal; or QC, no "
                             "practical difference)"), w["headline"]
    assert w["best"][0].endswith(": TC (or JC, QC, KC, AC: the same on every deal) by a "
                                 "lean over QS, not separated (+0.9 points a hand, 95%: "
                                 "-1.1 to 2.9)."), w["best"][0]
    assert w["best"][1].endswith(": play KC (or AC: the same on every deal) or QC: no "
                                 "practical difference between them."), w["best"][1]
    assert w["disagree"] == ""
    assert plain_answer(None, dd)["headline"] == ("Best card: TC (or JC, QC, KC, AC: the "
                                                  "same on every deal; a lean)")
    # more than four: the first two and how many others
    five = {**dd, "candidates": dd["candidates"][:-1] + [
        {"card": "3S", "diff": {"mean": -15.8}, "equivalent_to": "TC"}]}
    assert same_as_best(five) == " (or JC, QC and 3 others: the same on every deal)"
    # two different picks, one separated: both in the headline, and a disagreement
    sep = _run("rollout", "QS", "KC", "separated", 1.5,
               [("QS", -9.0, None), ("KC", -10.5, None)])
    w = plain_answer(sep, dd)
    assert w["headline"] == ("Best card: QS with club-level play; with perfect play, TC "
                             "(or JC, QC, KC, AC: the same on every deal; a lean)")
    assert "disagree on the best card" in w["disagree"]
    # a card level with dd's best (0.0 points a hand) is the same pick as well
    level = _run("dd", "TC", "QS", "not separated", 0.001,
                 [("TC", -15.8, None), ("QS", -15.801, None), ("KC", -17.0, None)])
    w = plain_answer(sep, level)
    assert w["headline"] == "Best card: QS" and w["disagree"] == "", w


def test_the_cli_names_every_card_the_same_as_the_best():
    """The CLI's best line and its "in words:" name the cards the same as the best on
    every deal; its footnote explains every "=" pair of the table, not only the first."""
    from types import SimpleNamespace
    from catchten_sim.cards import parse_card
    from catchten_sim.text import _tie_legend
    cards = ["TC", "JC", "QC", "KC", "AC", "QS"]
    tc = parse_card("TC")
    a = SimpleNamespace(objective="diff", candidates=[
        SimpleNamespace(name=c, equivalent_to=None if c in ("TC", "QS") else tc)
        for c in cards])
    con = Console(record=True, width=80)
    y = "TC"
    _tie_legend(a, con)
    text = " ".join(con.export_text().split())
    assert text == (f"JC={y}, QC={y}, KC={y} and AC={y}: each gave {y}'s point difference "
                    "exactly on every deal evaluated (a tie)."), text
    a.candidates.insert(1, SimpleNamespace(name="9C", equivalent_to=tc))
    _tie_legend(a, con := Console(record=True, width=80))
    assert " ".join(con.export_text().split()).startswith(
        f"9C={y}, JC={y} and 3 others: each gave {y}'s point difference")
    res = CliRunner().invoke(cli, [
        "advise", "-r", "french52", "-n", "4", "--dealer", "3", "--seat", "0",
        "--turnup", "3H", "--hand", "TC KH TS 5S 9S 2H QS AC KC JC 3S QC KS", "--play", "",
        "--samples", "2048", "--threads", "1"])
    assert res.exit_code == 0, res.output
    assert max(len(x) for x in res.output.splitlines()) <= 80
    text = " ".join(res.output.split())
    assert "AC=KC: AC gave KC's point difference exactly on every deal" in text, text
    assert "best: no practical difference between KC (or AC: the same on every deal) " \
        "and QC: " in text, text
    assert "in words: With club-level play after it (the heuristic policy): play KC (or " \
        "AC: the same on every deal) or QC: no practical difference between them." in text
