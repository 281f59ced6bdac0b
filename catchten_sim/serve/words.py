"""The advice in plain words: which card, and whether to lead a trump, under each model of
play, with units and the 95% interval, each quoted from its own run (``catchten advise
--json`` of that evaluator). No "diff", "paired" or look counts in the headline: those stay
in the details.
"""
from __future__ import annotations

from typing import Any

from ..errors import ParseError
from ..explain import FEW_DEALS, WHICH_TO_TRUST, too_few_in
from ..inputs import json_kind

Advice = dict[str, Any]



def _need(value: Any, kinds: tuple[type, ...], field: str, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise ParseError(field, "wrong type", f"{what}, not {json_kind(value)}")


def _check_comparison(c: Any, field: str, card: bool, verdict: bool = True) -> None:
    """A comparison object (``margin``, ``trump_lead``): mean, ci95 [lo, hi], verdict;
    ``verdict=False``: an estimate (mean, ci95)."""
    _need(c, (dict,), field, "an object")
    for key in ("mean", "ci95") + (("verdict",) if verdict else ()) + (("b",) if card else ()):
        if key not in c:
            raise ParseError(f"{field}.{key}", "missing", "an advise --json answer has it")
    _need(c["mean"], (int, float), f"{field}.mean", "a number")
    if verdict:
        _need(c["verdict"], (str,), f"{field}.verdict", "a string")
    ci = c["ci95"]
    _need(ci, (list,), f"{field}.ci95", "a list [low, high]")
    if len(ci) != 2:
        raise ParseError(f"{field}.ci95", "wrong length", f"[low, high], not {len(ci)} items")
    for i, x in enumerate(ci):        # null: no interval (fewer than 2 deals)
        if x is not None:
            _need(x, (int, float), f"{field}.ci95[{i}]", "a number or null")
    if card:
        _need(c["b"], (str,), f"{field}.b", "a card")
    if "practical_margin" in c:
        _need(c["practical_margin"], (int, float), f"{field}.practical_margin", "a number")


def check_advice(a: Any, field: str) -> None:
    """Refuse an ``advise --json`` answer that the words below cannot read (``/api/words``):
    a missing or wrongly typed field is a ParseError naming it. Other keys of the answer
    are allowed (the page posts the whole answer)."""
    if a is None:
        return
    _need(a, (dict,), field, "an advise --json answer (an object) or null")
    if "best" not in a:
        raise ParseError(f"{field}.best", "missing", "the best card")
    _need(a["best"], (str,), f"{field}.best", "a card")
    if "evaluator" not in a:
        raise ParseError(f"{field}.evaluator", "missing", "rollout or dd")
    for key in ("objective", "evaluator"):
        if key in a:
            _need(a[key], (str,), f"{field}.{key}", "a string")
    if a["evaluator"] != "dd":          # the words name the rollouts' policies
        if not a.get("policies"):
            raise ParseError(f"{field}.policies", "missing", "the rollouts' policies")
        _need(a["policies"], (list,), f"{field}.policies", "a list of policy names")
        for i, x in enumerate(a["policies"]):
            _need(x, (str,), f"{field}.policies[{i}]", "a policy name")
    for key, card in (("margin", True), ("trump_lead", False)):
        if a.get(key) is not None:
            _check_comparison(a[key], f"{field}.{key}", card)
    if a.get("trump_lead") is not None and "practical_margin" not in a["trump_lead"] and \
            a["trump_lead"]["verdict"] == "no practical difference":
        raise ParseError(f"{field}.trump_lead.practical_margin", "missing", "the margin")
    cands = a.get("candidates")
    if cands is not None or a.get("objective") == "p_win":
        _need(cands, (list,), f"{field}.candidates", "a list of candidates")
        for i, c in enumerate(cands):
            _need(c, (dict,), f"{field}.candidates[{i}]", "an object")
            _need(c.get("card"), (str,), f"{field}.candidates[{i}].card", "a card")
            if c.get("equivalent_to") is not None:
                _need(c["equivalent_to"], (str,), f"{field}.candidates[{i}].equivalent_to",
                      "a card or null")
        if a.get("objective") == "p_win":
            best = [c for c in cands if c["card"] == a["best"]]
            if not best:
                raise ParseError(f"{field}.candidates", "missing",
                                 f"no candidate for the best card {a['best']}")
            _check_comparison(best[0].get("p_win"), f"{field}.candidates[].p_win", False,
                              verdict=False)
    for key in ("note", "bounded_deals"):     # the words read them (too_few, few_words)
        if a.get(key) is not None:
            _need(a[key], (str,) if key == "note" else (int,), f"{field}.{key}",
                  "a string" if key == "note" else "a number of deals")
    if "measure" not in a:
        raise ParseError(f"{field}.measure", "missing", "what the values are, in words")
    _need(a["measure"], (str,), f"{field}.measure", "a string")


def units(objective: str) -> str:
    """The objective's unit in words (a p_win difference is in percentage points)."""
    return {"diff": "points a hand", "points": "points a hand",
            "p_win": "percentage points of P(winning the game)"}.get(objective, objective)


def measure(advice: Advice) -> str:
    """What a run's values are, in words: the answer's own ``measure``
    (:func:`~catchten_sim.explain.measure_words`, as the page's column units say)."""
    return str(advice["measure"])


def tied_best(advice: Advice) -> set[str]:
    """The run's best card and the cards with no practical difference from it (tied on
    every deal, level with it (:func:`top_cards`), or the runner-up inside the practical
    margin)."""
    out = set(top_cards(advice)[0])       # equivalent to it, or level with it
    m = advice.get("margin") or {}
    if m.get("verdict") == "no practical difference":
        out.add(m["b"])
    return out


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


def _num(x: float | None) -> str:
    if x is None:                     # no interval (a dd run stopped before 2 deals)
        return "unknown"
    return f"{x:.1f}" if abs(x) >= 0.05 or x == 0 else f"{x:.2f}"


def _scaled(c: dict, k: float) -> tuple[float | None, float | None]:
    """A comparison's interval times ``k`` (None ends: no interval)."""
    lo, hi = c["ci95"]
    return (None if lo is None else lo * k), (None if hi is None else hi * k)


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
    "lead a trump?" in one run, "unknown" on too few deals to choose a card
    (:func:`too_few`: no answer yet, whatever its interval); None when the question does
    not arise."""
    c = advice.get("trump_lead")
    if not c:
        return None
    if too_few(advice) is not None:
        return "unknown"
    if c.get("verdict") == "no practical difference":
        return "same"
    lo, hi = c["ci95"]
    if lo is None or hi is None:
        return "close"
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
    if a == "unknown":
        lo, hi = _scaled(c, scale(obj))
        m = c["mean"] * scale(obj)
        wide = "" if lo is None or hi is None else \
            f", its range {_num(hi - lo)} {units(obj).replace(' a hand', '')} wide"
        how = ("level with the best other lead" if abs(m) < LEVEL else
               f"{_num(abs(m))} {units(obj)} {'better' if m >= 0 else 'worse'}")
        return (f"not known yet, on too few deals ({too_few(advice):,}); so far a trump "
                f"lead is {how}{wide}")
    if a == "same":
        return (f"no difference (within {_num(c['practical_margin'] * scale(obj))} "
                f"{units(obj)})")
    if a in ("yes", "no"):
        return f"{a}, {_amount(c, obj, a == 'yes')}"
    k = scale(obj)
    lo, hi = _scaled(c, k)
    if abs(c["mean"] * k) < LEVEL:          # not "+0.0 points a hand"
        return (f"too close to call (level so far, 95%: {_num(lo)} to {_num(hi)} "
                f"{units(obj)})")
    lean = c["mean"] * k
    return (f"too close to call ({'-' if lean < 0 else '+'}{_num(abs(lean))} {units(obj)}, "
            f"95%: {_num(lo)} to {_num(hi)})")


def _same_cards(advice: Advice) -> list[str]:
    """A run with no second card to compare (no ``margin``): the only legal card, or the
    best and every other, each scored exactly as the best on every deal
    (``equivalent_to``)."""
    best = advice["best"]
    return [best] + [c.get("card") for c in advice.get("candidates") or []
                     if isinstance(c, dict) and c.get("card") not in (best, None)]


def _or(cards: list[str]) -> str:
    return cards[0] if len(cards) == 1 else f"{', '.join(cards[:-1])} or {cards[-1]}"


#: the most cards a list names one by one; beyond, the first two "and N others"
NAMED = 4


def and_list(cards: list[str]) -> str:
    """``JS``, ``JS and AS``, ``JS, AS, QH and KH``; more than :data:`NAMED` cards:
    ``JS, AS and 6 others`` (a line stays short whatever the deal's size)."""
    if len(cards) > NAMED:
        return f"{cards[0]}, {cards[1]} and {len(cards) - 2} others"
    return cards[0] if len(cards) == 1 else f"{', '.join(cards[:-1])} and {cards[-1]}"


#: a difference below this (in the words' units) is said as level: it shows as 0.0
LEVEL = 0.005


def only_card(advice: Advice, the: bool = True) -> str:
    """Why a run has one card to value: ``the only legal card``, or ``the only card asked
    for`` (``advise --cards``, said in its note); ``the=False``: ``only one legal card``."""
    asked = "only the cards asked for" in str(advice.get("note") or "")
    return ("the only " if the else "only one ") + ("card asked for" if asked
                                                    else "legal card")


def _mean(c: Any, obj: str) -> float | None:
    """A candidate's mean of the objective (None: the answer has no number there)."""
    e = c.get(obj) if isinstance(c, dict) else None
    v = e.get("mean") if isinstance(e, dict) else None
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def top_cards(advice: Advice) -> tuple[list[str], bool]:
    """The cards at the top of a run, best first: the best and each card scored as it on
    every deal (``equivalent_to``), and when the best leads its second by nothing (0.0 in
    the words' units) every card level with it; and whether they are level."""
    obj = advice.get("objective", "diff")
    best, m = advice["best"], advice.get("margin")
    if m is None:                 # no second card: every card the same on every deal
        top = _same_cards(advice)
        return top, len(top) > 1
    k = scale(obj)
    level = abs(m["mean"] * k) < LEVEL
    cands = [c for c in advice.get("candidates") or [] if isinstance(c, dict)]
    at = next((_mean(c, obj) for c in cands if c.get("card") == best), None)

    def with_best(c: dict) -> bool:
        x = _mean(c, obj)
        return c.get("equivalent_to") == best or (
            level and x is not None and at is not None and abs(x - at) * k < LEVEL)
    top = [best] + [c["card"] for c in cands if c.get("card") != best and with_best(c)]
    if level and m["b"] not in top:         # (an answer without its candidates)
        top.append(m["b"])
    return top, level


def leader_words(advice: Advice) -> str:
    """Who leads a run so far, as the subject of a sentence: ``JS leads``, ``JS and AS
    lead`` (tied on every deal), or every card level with the best (to 0.0 in the words'
    units) ``TS, KS and TC are level`` (more than four: ``2D, 5D and 3 others are
    level``), best first (:func:`top_cards`)."""
    top, level = top_cards(advice)
    if level:
        return f"{and_list(top)} are level"
    return f"{and_list(top)} {'leads' if len(top) == 1 else 'lead'}"


def same_as_best(advice: Advice) -> str:
    """The cards scored as the best card on every deal (``equivalent_to``), said after it:
    `` (or JC, QC, KC, AC: the same on every deal)``, more than :data:`NAMED`: `` (or JC,
    QC and 3 others: the same on every deal)``; "" when there are none (or no second card
    to compare: :func:`best_words` says "the same value on every deal" itself)."""
    if advice.get("margin") is None:
        return ""
    top, level = top_cards(advice)
    every = {x.get("card") for x in advice.get("candidates") or []
             if isinstance(x, dict) and x.get("equivalent_to") == advice["best"]}
    eq = [c for c in top[1:] if c in every]     # (not the ones only level with it)
    if not eq:
        return ""
    named = ", ".join(eq) if len(eq) <= NAMED else and_list(eq)
    return f" (or {named}: the same on every deal)"


def pick_words(advice: Advice, few: int | None, leading: str) -> str:
    """One run's pick in the page's headline: ``TC (or JC, QC: the same on every deal; a
    lean)``, ``KC (or QC, no practical difference)``; on too few deals to choose a card
    (``few``), none, and who leads so far (``leading``, :func:`leader_words`)."""
    if few is not None:
        return f"none yet, on too few deals to choose a card ({few:,}): {leading} so far"
    m = advice.get("margin")
    eq = same_as_best(advice)
    notes = [eq[2:-1]] if eq else []
    if m is not None and m.get("verdict") == "no practical difference":
        notes.append(f"or {m['b']}, no practical difference")
    elif m is not None and m.get("verdict") != "separated":
        notes.append("a lean")
    return advice["best"] + (f" ({'; '.join(notes)})" if notes else "")


def best_words(advice: Advice) -> str:
    """The best card of one run and how firmly it beats the second."""
    best = advice["best"]
    m = advice.get("margin")
    obj = advice.get("objective", "diff")
    if m is None:
        cards = _same_cards(advice)
        if len(cards) == 1:
            return f"play {best} ({only_card(advice)})"
        return f"play {_or(cards)}: the same value on every deal"
    v = m.get("verdict")
    best += same_as_best(advice)        # " (or JC, QC: the same on every deal)"
    if v == "no practical difference":
        return f"play {best} or {m['b']}: no practical difference between them"
    if v == "separated":
        return f"play {best}, {_amount(m, obj, True, m['b'])}"
    lo, hi = _scaled(m, scale(obj))
    lean = f"{m['mean'] * scale(obj):+.1f}"
    if lean in ("+0.0", "-0.0"):    # e.g. equal on every deal solved, apart on bounded ones
        return (f"{best} or {m['b']}: no difference found between them (95%: {_num(lo)} "
                f"to {_num(hi)} {units(obj)})")
    return (f"{best} by a lean over {m['b']}, not separated ({lean} "
            f"{units(obj)}, 95%: {_num(lo)} to {_num(hi)})")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def too_few(advice: Advice) -> int | None:
    """The run's deals when they are too few to choose a card (its ``note`` begins so:
    :func:`catchten_sim.explain.run_note`, sampled, no card separated, fewer than 30
    deals or mostly ones not solved to the end), else None; None too when there is no
    choice (one legal card)."""
    n = too_few_in(advice.get("note"))
    if n is None or len(advice.get("candidates") or [None, None]) < 2:
        return None
    return n


def few_words(advice: Advice) -> str | None:
    """Why a run's pick is no recommendation, in words (``only 12 deals: too few to
    choose a card (give it more time)``); None when its deals are enough."""
    n = too_few(advice)
    if n is None:
        return None
    b = advice.get("bounded_deals") or 0          # (checked by check_advice)
    how = (f"only {n:,} deal" + ("" if n == 1 else "s") if n < FEW_DEALS or 2 * b < n
           else f"{n:,} deals, {b:,} of them not solved to the end")
    return f"{how}: too few to choose a card (give it more time)"


def so_far_words(advice: Advice) -> str:
    """What a run on too few deals to choose a card knows, in words, and no more: the
    card leading so far and by how much, and how wide the cards' ranges still are (``so
    far JS leads by 3.3 points a hand over 7D, but the cards' ranges are between 19.2
    and 23.1 points a hand wide``); no best card, no 95% amounts (with so few deals they are
    rough: the page's Details say how)."""
    obj = advice.get("objective", "diff")
    k = scale(obj)
    m = advice.get("margin")
    if m is None:
        lead = f"so far {_or(_same_cards(advice))}: the same value on every deal"
    else:
        gap = abs(m["mean"] * k)
        lead = f"so far {leader_words(advice)}" + (
            "" if gap < LEVEL else f" by {_num(gap)} {units(obj)} over {m['b']}")
    widths = []
    for c in advice.get("candidates") or []:
        lo, hi = ((c.get(obj) or {}).get("ci95") or [None, None]) if isinstance(c, dict) \
            else (None, None)
        if isinstance(lo, (int, float)) and isinstance(hi, (int, float)):
            widths.append((hi - lo) * k)
    if not widths:
        return f"{lead}, with no range yet (fewer than 2 deals)"
    a, b = _num(min(widths)), _num(max(widths))
    if a == b:
        return f"{lead}, but each card's range is {a} {units(obj)} wide"
    # (widths, not a range of values: "is 22.4 to 49.0 ... wide" read as one)
    return f"{lead}, but the cards' ranges are between {a} and {b} {units(obj)} wide"


def plain_lines(advice: Advice) -> tuple[str, str | None]:
    """One run's answer in words, ``"<model>: <answer>."``: the best card, and "lead a
    trump?" (None when the question does not arise). ``catchten advise`` prints them
    (``in words:``) as the page does. A run on too few deals to choose a card says so
    first (:func:`few_words`), then only what it knows (:func:`so_far_words`: the card
    leading so far and how wide the ranges are), and "lead a trump?" is "not known yet"."""
    say = _cap(model(advice))
    t = trump_words(advice)
    few = few_words(advice)
    best = best_words(advice) if few is None else f"{few}; {so_far_words(advice)}"
    return (f"{say}: {best}.",
            None if t is None else f"Lead a trump, {model(advice)}? {_cap(t)}.")


def fusion_words(dd: Advice | None) -> str:
    """The dd run's fusion-aware answer in words (``fusion``, each candidate's ``fusion``:
    :func:`catchten_sim.fusion.for_advice`); "" when it does not apply."""
    f = (dd or {}).get("fusion")
    if f is None:
        return ""
    _need(f, (dict,), "dd.fusion", "an object or null")
    _need(f.get("best"), (str,), "dd.fusion.best", "a card")
    _need(f.get("worlds"), (int,), "dd.fusion.worlds", "a number of deals")
    vals = []
    for i, c in enumerate((dd or {}).get("candidates") or []):
        v = c.get("fusion")
        if v is not None:
            _need(v, (int, float), f"dd.candidates[{i}].fusion", "a number or null")
            vals.append((-v, c["card"]))
    shown = ", ".join(f"{card} {-v:+.2f}" for v, card in sorted(vals))
    how = (f"{measure(dd or {})}, as the double-dummy column: {shown}; " if shown else "")
    top = [card for v, card in vals if round(v, 6) == round(min(vals)[0], 6)]
    best = (f"the best card is {f['best']}" if len(top) < 2 else
            "the best cards are " + " and ".join(sorted(top)) + " (equal)")
    return (f"If you must play the same card in every deal you cannot tell apart "
            f"(the others seeing all the cards), {best} "
            f"({how}all {f['worlds']} consistent deals).")


#: what each stop of a run means, in a card player's words (advise.STOP_REASONS)
STOP_WORDS = {
    "separated": "the best card is clearly ahead of the second (95% sure)",
    "equivalent": "the best two cards are too close to matter (within {margin}, 95% sure)",
    "settled": "the best card and whether to lead a trump are both decided (95% sure): "
               "one clearly, one too close to matter (within {margin})",
    "interrupted": "cancelled: the values are those of the deals done so far",
    "samples": "all {samples} deals asked for were played out",
    "time": "the time limit ran out",
    "single": "{single}, nothing to choose",
    "exact": "every possible deal was played out",
}
#: what a stop by the rule adds when the answer asks "lead a trump?" (it waited for that
#: verdict too: explain.stop_reason)
STOP_TRUMP_WORDS = {"separated": "; so is whether to lead a trump",
                    "equivalent": "; so are the best trump and other leads"}
#: the parts of an answer's ``note`` (explain.run_note, equity's reasons) in plain words:
#: (pattern, words); a part not listed is shown as it is
NOTE_WORDS: tuple[tuple[str, str], ...] = (
    (r"too few deals to choose a card \(([\d,]+)\): .*",
     r"too few deals to choose a card yet (\1): give it more time"),
    (r"P\(win\) needs the game score \(score\)",
     "P(winning the game): give the game score before this hand to see it"),
    (r"P\(win\) and the points/Ten measures are not available with the dd evaluator.*",
     "double-dummy gives the points difference only (not P(winning the game))"),
    (r"P\(win\) not available with game_at_once",
     "P(winning the game) is not worked out when the game is a single hand"),
    (r"P\(win\) not available with pimc rollouts.*",
     "P(winning the game) is not worked out with pimc play"),
    (r"P\(win\) not available: the game was decided before this set",
     "P(winning the game): the game was decided before this set"),
    (r"([\d,]+) of ([\d,]+) deals solved within proven bounds only.*",
     r"\1 of the \2 deals were not solved to the end in time: for those only a range "
     "of values is known, each card's range above covers all of it, and the value shown "
     "is its middle"),
    (r"means are the bounds' midpoints", ""),    # said in the part before it
    (r"dd values with three or more sides.*",
     "with three or more sides, double-dummy lets the others play together against our "
     "side"),
    (r"the exact enumeration stopped after ([\d,]+) of ([\d,]+) deals.*",
     r"only \1 of the \2 possible deals were played out before it stopped: they are not "
     "a random choice, so the ranges do not hold (give it more time)"),
    (r"only the cards asked for were evaluated", "only the cards asked for were valued"),
)


def _note_words(note: str) -> list[str]:
    import re
    out = []
    for part in (p for p in note.split("; ") if p):
        for pat, words in NOTE_WORDS:
            if re.fullmatch(pat, part):
                part = re.sub(pat, words, part)
                break
        if part:
            out.append(part)
    return out


def _opt(a: Advice, key: str, kinds: tuple[type, ...], field: str, what: str) -> Any:
    """``a[key]`` checked (None when absent: that line of the Details is left out)."""
    v = a.get(key)
    if v is not None:
        _need(v, kinds, field, what)
    return v


def _ranges_words(a: Advice, field: str) -> str | None:
    """What the run's 95% ranges are: the value plus or minus z standard errors, and why
    z is above the usual 1.96: Student's t when the run has fewer deals than its first
    check (the spread itself is estimated from them: ``aggregate.LookPlan.critical``),
    the stopping rule's checks; None: not said."""
    import re
    iv = _opt(a, "intervals", (dict,), f"{field}.intervals", "an object")
    if iv is None or iv.get("z") is None:
        return None
    z = float(_opt(iv, "z", (int, float), f"{field}.intervals.z", "a number"))
    text = str(_opt(iv, "description", (str,), f"{field}.intervals.description",
                    "a string") or "")
    if a.get("exact") and z == 0:
        return "no range: every possible deal was played out, so the values are exact"
    pm = f"each value \u00b1 {z:.2f} standard errors"
    why = []
    m = re.search(r"\bt \d+(?:\.\d+)?, (\d+) samples", text)
    if m:
        why.append(f"with only {int(m.group(1))} deals the spread is itself uncertain "
                   "(Student's t)")
    m = re.search(r"look (\d+) of (\d+) planned", text)
    if m and int(m.group(2)) > 1:
        k, n = int(m.group(1)), int(m.group(2))
        why.append(f"the run planned {n} checks of whether it could stop" if why else
                   f"the run checked {k} of its {n} planned times whether it could stop")
    if why and z > 1.96:
        return f"95% ranges, {pm} (more than the usual 1.96: {'; '.join(why)})"
    return f"95% ranges, {pm}"


def details_lines(a: Advice, field: str = "run") -> list[str]:
    """One run's Details in plain words (an ``advise --json`` answer, checked as
    :func:`check_advice` does; ``field``: its name in an error): its deals, what the values
    measure, why it stopped, what its ranges are, and its notes (no "objective", look
    counts or field names: those are the JSON's). A field the answer lacks leaves its
    line out."""
    check_advice(a, field)
    obj = a.get("objective", "diff")
    n = _opt(a, "samples", (int,), f"{field}.samples", "a number of deals")
    of = _opt(a, "n_consistent_deals", (int,), f"{field}.n_consistent_deals",
              "a number of deals")
    pm = _opt(a, "practical_margin", (int, float), f"{field}.practical_margin", "a number")
    stop = _opt(a, "stop", (str,), f"{field}.stop", "a string")
    note = _opt(a, "note", (str,), f"{field}.note", "a string")
    out = []
    if n is not None:
        out.append(f"{n:,} deals" + ("" if of is None else
                                     f" of the {of:,} that fit your hand and the cards played"))
    out.append(f"values: {measure(a)}")
    if stop is not None:
        margin = f"{(pm or 0) * scale(obj):g} {units(obj)}"
        out.append("stopped: " + STOP_WORDS.get(stop, stop).format(
            margin=margin, samples="the" if n is None else f"{n:,}",
            single=only_card(a, the=False))
            + (STOP_TRUMP_WORDS.get(stop, "") if a.get("trump_lead") is not None else ""))
    if len(a.get("candidates") or [None, None]) == 1 and stop != "single":
        out.append(f"{only_card(a, the=False)}, nothing to choose")
    ranges = _ranges_words(a, field)
    if ranges is not None:
        out.append(f"ranges: {ranges}")
    return out + _note_words(note or "")


#: the runs' names in a card player's words (the page's column headings)
RUN_WORDS = {"rollout": "the rollouts", "dd": "double-dummy"}


def trust_words(few: dict[str, int]) -> str:
    """The line under the values: :data:`WHICH_TO_TRUST`, and first, for each run on too
    few deals to choose a card (``{"dd": 12}``), that it cannot be trusted yet."""
    if not few:
        return WHICH_TO_TRUST
    head, tail = WHICH_TO_TRUST.split(": ", 1)
    runs = "; ".join(f"not {RUN_WORDS.get(k, k)} yet ({n:,} deals, too few to choose a "
                     "card)" for k, n in few.items())
    return f"{head}: {runs}; otherwise {tail}"


def same_pick(rollout: Advice, dd: Advice) -> bool:
    """Whether the two runs pick the same card: either's best is among the other's tied
    best cards (:func:`tied_best`: the same on every deal, level, or no practical
    difference)."""
    return rollout["best"] in tied_best(dd) or dd["best"] in tied_best(rollout)


def headline(rollout: Advice | None, dd: Advice | None, few: dict[str, int],
             leading: dict[str, str]) -> str:
    """The page's first line: ``Best card: KC (or AC: the same on every deal)``, the
    rollouts' pick (else dd's); and dd's after it when the two do not pick the same card
    (:func:`same_pick`) or either is on too few deals to choose one (:func:`pick_words`)."""
    first, ev = (rollout, "rollout") if rollout else (dd, "dd")
    if first is None:
        return ""
    line = f"Best card: {pick_words(first, few.get(ev), leading.get(ev, ''))}"
    if rollout and dd and (few or not same_pick(rollout, dd)):
        line += (" with club-level play; with perfect play, "
                 + pick_words(dd, few.get("dd"), leading.get("dd", "")))
    return line


def plain_answer(rollout: Advice | None, dd: Advice | None) -> dict[str, Any]:
    """The headline lines of the page: ``{"best": [...], "trump": [...], "disagree": str,
    "p_win": str, "fusion": str, "trust": str, "details": {"rollout": [...], "dd":
    [...]}, "too_few": {"dd": 12}, "leading": {"dd": "JS leads"}}``, each line
    ``"<model>: <answer>"`` quoted from that model's run; ``trust``:
    :data:`WHICH_TO_TRUST`, said under the values; ``details``: each run's Details
    (:func:`details_lines`); ``too_few``: the deals of each run that are too few to
    choose a card (:func:`too_few`; the page's headline says so, and who leads so far:
    ``leading``, :func:`leader_words`); ``headline``: the page's first line
    (:func:`headline`)."""
    check_advice(rollout, "rollout")
    check_advice(dd, "dd")
    runs = [a for a in (dd, rollout) if a]
    named = (("rollout", rollout), ("dd", dd))
    few = {k: n for k, a in named if a and (n := too_few(a)) is not None}
    out: dict[str, Any] = {"best": [], "trump": [], "disagree": "", "p_win": "",
                           "fusion": fusion_words(dd), "trust": trust_words(few),
                           "details": {k: details_lines(a, k) for k, a in named if a},
                           "too_few": few,
                           "leading": {k: leader_words(a) for k, a in named if a and k in few}}
    out["headline"] = headline(rollout, dd, few, out["leading"])
    for a in runs:
        best, trump = plain_lines(a)
        out["best"].append(best)
        if trump is not None:
            out["trump"].append(trump)
    if len(out["trump"]) == 2:      # one sentence, as a player would say it
        t_dd, t_ro = trump_words(dd or {}), trump_words(rollout or {})
        out["trump_line"] = (f"Lead a trump: {t_dd} {model(dd or {})}; "
                             f"{model(rollout or {})}, {t_ro}."
                             if trump_answer(dd or {}) != "unknown"
                             else f"Lead a trump: {model(dd or {})}, {t_dd}; "
                             f"{model(rollout or {})}, {t_ro}.")
    elif out["trump"]:
        out["trump_line"] = out["trump"][0]
    if rollout and dd:
        obj_ro, obj_dd = rollout.get("objective", "diff"), dd.get("objective", "diff")
        # the best card: only when neither pick is among the other run's tied best cards
        # and at least one run separates its pick (a lean is no disagreement), neither
        # on too few deals to choose a card (no pick to disagree with)
        differ_best = (not out["too_few"] and not same_pick(rollout, dd)
                       and any((a.get("margin") or {}).get("verdict") == "separated"
                               for a in (rollout, dd)))
        a_dd, a_ro = trump_answer(dd), trump_answer(rollout)
        differ_trump = {a_dd, a_ro} == {"yes", "no"}
        what = " and ".join(x for x, y in (("the best card", differ_best),
                                           ("whether to lead a trump", differ_trump)) if y)
        if what and obj_ro != obj_dd:
            # not the same question: no disagreement to claim
            out["disagree"] = (f"The two models answer different questions, so their "
                               f"answers on {what} need not agree: the rollouts rank the "
                               f"cards by {measure(rollout)}, double-dummy (dd) by "
                               f"{measure(dd)}. Each answer above is from its own run.")
        elif what:
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
