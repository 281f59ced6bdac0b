"""The stopping rule waits for "lead a trump?" when the answer asks it: a look stops only
when the best card against the second AND the best trump lead against the best other lead
are each separated or within the practical margin (docs/methods.md, "The stopping rule").

The synthetic looks build per-deal values by hand and work out what each interval says
with numpy here (mean of the paired differences -/+ z times their standard error), not
with the code under test; the stop each scenario must give is the rule's statement."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from catchten_sim.advise import _look, advise, trump_answer
from catchten_sim.aggregate import BoundedSums, CandidateSums
from catchten_sim.cards import format_card
from catchten_sim.cli import cli
from catchten_sim.evaluators import legal_cards
from catchten_sim.position import Position
from catchten_sim.serve.api import advise_json

OPENING = {"players": 4, "dealer": 3, "seat": 0, "turnup": "7S",
           "hand": "JS AS 9S KH QH 7D 8C 9C TC".split(), "play": []}
#: a french52 opening lead where the old rule stopped at 512 deals (seed 7) with "KC or
#: QC: no practical difference" and "lead a trump? too close to call"; 20,000 deals say NO
F52 = {"rules": "french52", "players": 4, "dealer": 3, "seat": 0, "turnup": "3H",
       "hand": "TC KH TS 5S 9S 2H QS AC KC JC 3S QC KS".split(), "play": []}
Z, MARGIN, N = 3.2, 0.25, 1024
VERDICT_STOP = {"separated", "equivalent", "settled"}


def _sums(values: np.ndarray, lo: np.ndarray | None = None, hi: np.ndarray | None = None
          ) -> CandidateSums:
    """The running sums of ``advise`` over these per-deal values (deals x cards), with
    the proven bounds ``lo``/``hi`` of a dd run whose solves stopped (the values are then
    their midpoints)."""
    acc = CandidateSums(values.shape[1], ["diff"], "diff")
    if lo is not None:
        acc.bounds = BoundedSums(values.shape[1])
        acc.bounds.add(lo, hi)
    acc.add({"diff": values})
    return acc


def _says(d: np.ndarray) -> str:
    """What the paired interval of per-deal differences ``d`` says, worked out here."""
    m, se = d.mean(), d.std(ddof=1) / np.sqrt(len(d))
    lo, hi = m - Z * se, m + Z * se
    if -MARGIN < lo and hi < MARGIN:
        return "within"
    return "separated" if lo > 0 or hi < 0 else "open"


def _scenario(second_gap: float, trump_gap: float, trump_noise: float, seed: int = 3):
    """Per-deal values of the opening lead's nine cards: 7D best, QH ``second_gap`` below it
    (small own noise), JS ``trump_gap`` below 7D with noise ``trump_noise`` of its own (both
    0: JS scores as 7D on every deal); the other cards far below. Returns the position, the
    candidates, the values, and what the best-vs-second (the best against the best card
    not tied with it on every deal) and the trump intervals say (numpy)."""
    rng = np.random.default_rng(seed)
    info = Position.from_dict(OPENING).info()
    cands = list(legal_cards(info))
    names = [format_card(c) for c in cands]
    base = rng.normal(0, 5, N)
    x = np.empty((N, len(cands)))
    for j in range(len(cands)):
        x[:, j] = base - 6 + rng.normal(0, 1, N)          # the others: far below
    x[:, names.index("7D")] = base + 2
    x[:, names.index("QH")] = base + 2 - second_gap + rng.normal(0, 0.2, N)
    x[:, names.index("JS")] = base + 2 - trump_gap + rng.normal(0, trump_noise, N)
    means = x.mean(axis=0)
    order = sorted(range(len(cands)), key=lambda j: -means[j])
    best = order[0]
    second = next(j for j in order[1:] if (x[:, j] != x[:, best]).any())
    trumps = [j for j in order if names[j][1] == "S"]
    others = [j for j in order if names[j][1] != "S"]
    return (info, cands, x, _says(x[:, best] - x[:, second]),
            _says(x[:, trumps[0]] - x[:, others[0]]))


def test_best_two_within_margin_but_trump_open_goes_on():
    """The user's case: the best two cards within the margin, "lead a trump?" open. The
    old rule stopped here ("equivalent"); the answer's trump question would be left too
    close to call."""
    info, cands, x, best, trump = _scenario(0.0, 0.5, 8.0)
    assert (best, trump) == ("within", "open")             # the scenario is what it says
    assert _look(_sums(x), cands, {}, Z, MARGIN, info) is None
    # without the trump question (only the other cards asked for, as --cards does) the
    # same deals stop on the best card alone, as before
    plain = [j for j, c in enumerate(cands) if format_card(c)[1] != "S"]
    assert _look(_sums(x[:, plain]), [cands[j] for j in plain], {}, Z, MARGIN,
                 info) == "equivalent"


@pytest.mark.parametrize("second_gap, trump_gap, trump_noise, says, stop", [
    (0.0, 2.0, 8.0, ("within", "separated"), "settled"),
    (1.0, 2.0, 8.0, ("separated", "separated"), "separated"),
    (0.0, 0.05, 0.2, ("within", "within"), "equivalent"),
    # JS scores as 7D on every deal: tied, so 7D is tested against QH
    (1.0, 0.0, 0.0, ("separated", "within"), "settled"),
    # JS behind QH but noisy: the best card is separated, "lead a trump?" is not
    (0.5, 1.0, 12.0, ("separated", "open"), None),
])
def test_a_look_stops_only_when_both_questions_are_settled(second_gap, trump_gap,
                                                           trump_noise, says, stop):
    info, cands, x, best, trump = _scenario(second_gap, trump_gap, trump_noise)
    assert (best, trump) == says
    assert _look(_sums(x), cands, {}, Z, MARGIN, info) == stop


def test_bounded_deals_keep_the_trump_question_open():
    """dd with solves stopped by the node budget: the trump lead's midpoints are 2 points
    a deal behind (settled without bounds), but on a third of the deals JS is known only
    within +-8, so the exact values could put the trump lead ahead: the look goes on
    (the same conservative bounds as the best-vs-second verdict)."""
    info, cands, x, best, trump = _scenario(0.0, 2.0, 1.0)
    assert (best, trump) == ("within", "separated")
    assert _look(_sums(x), cands, {}, Z, MARGIN, info) == "settled"
    names = [format_card(c) for c in cands]
    js, d7 = names.index("JS"), names.index("7D")
    hw = np.zeros_like(x)
    hw[: N // 3, js] = 8.0
    lo, hi = x - hw, x + hw
    # some exact values within the bounds make JS the better lead on average
    assert (hi[:, js] - lo[:, d7]).mean() > 0
    assert _look(_sums(x, lo, hi), cands, {}, Z, MARGIN, info) is None


@pytest.mark.parametrize("seed", [7, 1, 2])
def test_a_verdict_stop_answers_both_questions_it_prints(seed):
    """On the french52 lead of the report (the old rule: 512 deals, trump too close at
    seed 7), a run stopped by the rule prints a settled verdict on both questions, and
    its stop names them; the CLI and the page run the one rule (same deals, same stop)."""
    a = advise(Position.from_dict(F52), seed=seed, time_limit=None)
    assert a.trump_lead is not None and a.margin is not None
    firm = {"separated": "separated", "no practical difference": "equivalent"}
    answers = (firm.get(a.margin.verdict), firm.get(a.trump_lead.verdict))
    if a.stop in VERDICT_STOP:
        assert None not in answers and trump_answer(a.trump_lead) != "too close to call"
        assert a.stop == (answers[0] if answers[0] == answers[1] else "settled")
        assert "trump" in a.stop_reason
    else:
        assert a.stop == "samples" and a.n_samples == 20_000
    page = advise_json({"position": F52, "options": {"seed": seed}})
    out = CliRunner().invoke(cli, ["advise", "-", "--seed", str(seed), "--json",
                                   "--no-progress"], input=json.dumps(F52))
    assert out.exit_code == 0, out.output
    cli_d = json.loads(out.output)
    for d in (page, cli_d):
        assert (d["stop"], d["samples"], d["stop_reason"]) == (a.stop, a.n_samples,
                                                               a.stop_reason)
        assert d["trump_lead"]["verdict"] == a.trump_lead.verdict
