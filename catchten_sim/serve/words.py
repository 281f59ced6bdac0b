"""The advice in plain words: which card, and whether to lead a trump, under each model of
play, with units and the 95% interval, each quoted from its own run (``catchten advise
--json`` of that evaluator). No "diff", "paired" or look counts in the headline: those stay
in the details.
"""
from __future__ import annotations

from typing import Any

Advice = dict[str, Any]


def units(objective: str) -> str:
    """The objective's unit in words (a p_win difference is in percentage points)."""
    return {"diff": "points a hand", "points": "points a hand",
            "p_win": "percentage points of P(winning the game)"}.get(objective, objective)


def scale(objective: str) -> float:
    return 100.0 if objective == "p_win" else 1.0


def model(advice: Advice) -> str:
    """What the run assumes about the play after the card, in words."""
    if advice.get("evaluator") == "dd":
        return "if everyone plays perfectly after it (all hands seen)"
    pols = set(advice.get("policies") or [])
    if pols == {"heuristic"}:
        return "with club-level play after it (the heuristic policy)"
    if pols == {"random"}:
        return "with random play after it"
    return f"with the play of {' / '.join(sorted(pols))} after it"


def _num(x: float) -> str:
    return f"{x:.1f}" if abs(x) >= 0.05 or x == 0 else f"{x:.2f}"


def _amount(c: dict, objective: str, better: bool, than: str = "") -> str:
    """``about 3.5 points a hand better (95%: 1.8 to 5.2)`` for a comparison a - b."""
    k = scale(objective)
    m = c["mean"] * k
    lo, hi = (c["ci95"][0] * k, c["ci95"][1] * k)
    word = ("better" if better else "worse") + (f" than {than}" if than else "")
    if not better:
        m, lo, hi = -m, -hi, -lo
    if lo == hi:
        return f"exactly {_num(m)} {units(objective)} {word} (every consistent deal)"
    return f"about {_num(m)} {units(objective)} {word} (95%: {_num(lo)} to {_num(hi)})"


def trump_answer(advice: Advice) -> str | None:
    """"yes", "no", "same" (no practical difference) or "close" (too close to call) for
    "lead a trump?" in one run; None when the question does not arise."""
    c = advice.get("trump_lead")
    if not c:
        return None
    if c.get("verdict") == "no practical difference":
        return "same"
    lo, hi = c["ci95"]
    if lo > 0 or (lo == hi and c["mean"] > 0):
        return "yes"
    if hi < 0 or (lo == hi and c["mean"] < 0):
        return "no"
    return "close"


def trump_words(advice: Advice) -> str | None:
    """The answer to "lead a trump?" of one run in words, or None."""
    a = trump_answer(advice)
    if a is None:
        return None
    c = advice["trump_lead"]
    obj = advice.get("objective", "diff")
    if a == "same":
        return (f"no difference (within {_num(c['practical_margin'] * scale(obj))} "
                f"{units(obj)})")
    lo, hi = c["ci95"]
    if a in ("yes", "no"):
        return f"{a}, {_amount(c, obj, a == 'yes')}"
    k = scale(obj)
    return (f"too close to call ({c['mean'] * k:+.1f} {units(obj)}, 95%: "
            f"{_num(lo * k)} to {_num(hi * k)})")


def best_words(advice: Advice) -> str:
    """The best card of one run and how firmly it beats the second."""
    best = advice["best"]
    m = advice.get("margin")
    obj = advice.get("objective", "diff")
    if m is None:
        return f"play {best} (the only card worth considering)"
    v = m.get("verdict")
    if v == "no practical difference":
        return f"play {best} or {m['b']}: no practical difference between them"
    if v == "separated":
        return f"play {best}, {_amount(m, obj, True, m['b'])}"
    k = scale(obj)
    return (f"{best} by a lean over {m['b']}, not separated ({m['mean'] * k:+.1f} "
            f"{units(obj)}, 95%: {_num(m['ci95'][0] * k)} to {_num(m['ci95'][1] * k)})")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def plain_lines(advice: Advice) -> tuple[str, str | None]:
    """One run's answer in words, ``"<model>: <answer>."``: the best card, and "lead a
    trump?" (None when the question does not arise). ``catchten advise`` prints them
    (``in words:``) as the page does."""
    say = _cap(model(advice))
    t = trump_words(advice)
    return (f"{say}: {best_words(advice)}.",
            None if t is None else f"Lead a trump, {model(advice)}? {_cap(t)}.")


def plain_answer(rollout: Advice | None, dd: Advice | None) -> dict[str, Any]:
    """The headline lines of the page: ``{"best": [...], "trump": [...], "disagree": str,
    "p_win": str}``, each line ``"<model>: <answer>"`` quoted from that model's run."""
    runs = [a for a in (dd, rollout) if a]
    out: dict[str, Any] = {"best": [], "trump": [], "disagree": "", "p_win": ""}
    for a in runs:
        best, trump = plain_lines(a)
        out["best"].append(best)
        if trump is not None:
            out["trump"].append(trump)
    if len(out["trump"]) == 2:      # one sentence, as a player would say it
        t_dd, t_ro = trump_words(dd or {}), trump_words(rollout or {})
        out["trump_line"] = (f"Lead a trump: {t_dd} {model(dd or {})}; "
                             f"{model(rollout or {})}, {t_ro}.")
    elif out["trump"]:
        out["trump_line"] = out["trump"][0]
    if rollout and dd:
        # the best card: only when at least one run separates its pick (a lean is no
        # disagreement)
        differ_best = rollout["best"] != dd["best"] and any(
            (a.get("margin") or {}).get("verdict") == "separated" for a in (rollout, dd))
        a_dd, a_ro = trump_answer(dd), trump_answer(rollout)
        differ_trump = {a_dd, a_ro} == {"yes", "no"}
        if differ_best or differ_trump:
            what = " and ".join(x for x, y in (("the best card", differ_best),
                                               ("whether to lead a trump", differ_trump)) if y)
            out["disagree"] = (f"The two models disagree on {what}. Double-dummy (dd) assumes "
                               "everyone plays perfectly, seeing all hands; the rollouts "
                               "assume the heuristic policy's play (a club player's rules of "
                               "thumb). Each answer above is from its own run.")
    if rollout and rollout.get("objective") == "p_win":
        c = next(x for x in rollout["candidates"] if x["card"] == rollout["best"])
        p = c["p_win"]
        lo, hi = p["ci95"]
        how = (f"exactly {100 * p['mean']:.1f}% (every consistent deal)" if lo == hi else
               f"about {100 * p['mean']:.0f}% (95%: {100 * lo:.0f}% to {100 * hi:.0f}%)")
        out["p_win"] = (f"P(winning the game) after {rollout['best']}: {how}, "
                        f"{model(rollout)}.")
    return out
