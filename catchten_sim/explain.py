"""What an advice says beyond its numbers: a few sampled deals behind it, the hands (a
determinization, or world, of what the player to move does not see) and the line the
rollout policy plays after the recommended card (``catchten advise --explain N``); and the
words the text, the JSON and the page share: which evaluator to trust, how firmly a best
card beats the second, the ``MODEL:`` line when the two evaluators differ."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._kernels import rollout as KR
from .cards import cards_of_mask, format_card, parse_card
from .checks import check_count
from .determinize import Sampler
from .evaluators import RolloutEvaluator

if TYPE_CHECKING:                   # (advise imports the words below)
    from .advise import Advice

#: which evaluator to trust, one line of at most 80 columns, the same words everywhere
#: (``catchten advise`` text and JSON ``which_to_trust``, the page; README "catchten
#: advise"): rollouts assume club-level play (the heuristic) after the card, dd perfect
#: play seeing every hand; where the two differ on "lead a trump?", ipimc:10 rollouts sided
#: with dd 7 times in 30, with the rollouts 4, 19 too close (docs/findings.md)
WHICH_TO_TRUST = ("Which to trust: rollouts vs club players, dd vs strong ones "
                  "(docs/findings.md)")


#: why an advise run stopped (``Advice.stop``; JSON ``stop_reason``, the CLI's
#: ``stopped:`` line through :func:`stop_reason`)
STOP_REASONS = {
    "separated": "the best card is separated from the second at 95%",
    "equivalent": "the best two cards are within the practical margin at 95%",
    "settled": 'the best card and "lead a trump?" are settled at 95%: one separated, '
               "one within the practical margin",
    "interrupted": "interrupted (Ctrl-C): partial result",
    "samples": "the --samples limit was reached",
    "time": "the --time limit was reached",
    "single": "only one legal card",
    "exact": "every consistent deal was evaluated (exact: no sampling error)",
}
#: what a stop on both questions adds when the answer asks "lead a trump?"
_TRUMP_TOO = {"separated": ", and so is the best trump lead from the best other",
              "equivalent": ", and so are the best trump and other leads"}


def stop_reason(stop: str, trump_asked: bool) -> str:
    """:data:`STOP_REASONS` of ``stop``; when the answer asks "lead a trump?"
    (``trump_asked``) a stop by the stopping rule waited for that verdict too, and a
    ``separated`` or ``equivalent`` stop says so.

    >>> stop_reason("equivalent", True)
    'the best two cards are within the practical margin at 95%, and so are the best...'
    """
    return STOP_REASONS[stop] + (_TRUMP_TOO.get(stop, "") if trump_asked else "")


def minus_opponents(evaluator: str, n_sides: int, header: bool = False) -> str:
    """Whom a point difference (``diff``) is against, in the field's terms, the same in
    the CLI's tables, the JSON and the page: the opponents (two sides); with three or
    more, the best opponents (the rollouts' ``diff``: the best opposing side) or, for dd,
    the opponents together (the paranoid search, docs/methods.md). ``header``: a table
    column's short form.

    >>> minus_opponents("rollout", 2), minus_opponents("dd", 3), minus_opponents("x", 3, True)
    ("minus the opponents'", "minus the opponents' together", 'minus best opponents')
    """
    best = "best " if n_sides > 2 and evaluator != "dd" else ""
    together = " together" if n_sides > 2 and evaluator == "dd" else ""
    if header:
        return f"minus {best}opponents{together}"
    return f"minus the {best}opponents'{together}"


def measure_words(objective: str, evaluator: str, n_sides: int, whose: str = "our side's"
                  ) -> str:
    """What a run's values are, in words: the JSON's ``measure``, the page's column units
    (/api/rules ``measures``) and the CLI's tables say these; ``whose``: the side's name.

    >>> measure_words("diff", "dd", 2), measure_words("p_win", "rollout", 2)
    ("our side's points minus the opponents'", 'P(winning the game)')
    """
    if objective == "diff":
        return f"{whose} points {minus_opponents(evaluator, n_sides)}"
    return {"points": f"{whose} points", "p_win": "P(winning the game)"}.get(objective,
                                                                             objective)


def page_measures(n_sides: int) -> dict[str, str]:
    """The page's column units for rules of ``n_sides`` sides (/api/rules ``measures``),
    keyed as its columns are: each objective of the rollouts, ``dd``, and ``solve`` (a
    double-dummy value of the mover's side, said after the side's name)."""
    return {**{o: measure_words(o, "rollout", n_sides) for o in ("diff", "points", "p_win")},
            "dd": measure_words("diff", "dd", n_sides),
            "solve": measure_words("diff", "dd", n_sides, whose="its")}


#: fewer deals than this, sampled and no card separated: too few to choose a card (a
#: note), whatever the intervals say (their normal approximation needs more)
FEW_DEALS = 30
#: how that note begins (the page's words read it: serve/words.too_few)
TOO_FEW = "too few deals to choose a card"


def too_few_in(note: object) -> int | None:
    """The deals a run's note says are too few to choose a card (it begins ``too few
    deals to choose a card (12)``: :func:`run_note`), else None."""
    import re
    m = re.match(re.escape(TOO_FEW) + r" \(([\d,]+)\)", note) \
        if isinstance(note, str) else None
    return None if m is None else int(m.group(1).replace(",", ""))


def run_note(note: str, eq_why: str, stopped_exact: tuple[int, int] | None, bounded: int,
             n: int, paranoid: bool, few: str = "") -> str:
    """The ``note:`` of an advice, its parts joined by "; ": ``note`` (of "lead a trump?"),
    why P(win) is not available (``eq_why``), an exact enumeration stopped after
    ``stopped_exact`` = (deals done, consistent deals), the ``bounded`` of ``n`` deals,
    and dd values with three or more sides (``paranoid``); first, with ``few`` (the
    evaluator's name, when the run was sampled and no card separated), that fewer than
    30 deals, or mostly bounded ones, are too few to choose a card."""
    thin = few and (n < FEW_DEALS or 2 * bounded >= n)
    parts = [f"{TOO_FEW} ({n:,}): give more --time"
             + (", or use --evaluator rollout" if few == "dd" else "") if thin else "",
             note, eq_why]
    if stopped_exact is not None:
        parts.append(f"the exact enumeration stopped after {stopped_exact[0]:,} of "
                     f"{stopped_exact[1]:,} deals: those are not a random sample, so the "
                     "intervals do not hold (rerun with more --time, or --exact-max 0 to "
                     "sample)")
    if bounded:
        parts.append(f"{bounded:,} of {n:,} deals solved within proven bounds only (a solve "
                     "stopped by its node budget or the clock): the intervals of the score "
                     "difference span every value within them; means are the bounds' "
                     "midpoints")
    if paranoid:
        parts.append("dd values with three or more sides: our side against the others "
                     "together (paranoid), not against the best other side")
    return "; ".join(p for p in parts if p)


def policy_label(policies: Any) -> str:
    """The policies of a run in a few characters: ``heuristic``, ``heuristic/random``."""
    return "/".join(sorted({p.label for p in policies}))


def inference_summary(inference: Any, sums: Any, sets: bool = False) -> dict[str, Any]:
    """``Advice.inference``: :meth:`catchten_sim.inference.Inference.summary` of the weighted
    ``sums``, with ``cards_seen`` (the others' cards that count) and, when none does yet,
    a ``note`` saying so (the weights are then all 1: every world equally likely; ``sets``:
    in this set, the cards of earlier sets do not count)."""
    seen = int(inference.scored_cards)
    note = None if seen else ("inference: no cards played by the others yet"
                              + (" in this set" if sets else "") + ", worlds equally likely")
    return inference.summary(sums) | {"cards_seen": seen, "note": note}


def separation(verdict: str | None, exact: bool, short: bool = False) -> str:
    """How firmly a best card beats the second, in the words of the ``best:`` line, from
    the paired interval's ``verdict`` (:func:`catchten_sim.aggregate.verdict`; ``exact``:
    no sampling error, every consistent deal evaluated): ``separated at 95%``, ``not
    separated at 95%``, ``no practical difference``, ``no sampling error`` ("" for no
    second card); ``short``: the ``MODEL:`` line's ``separated``, ``not separated``,
    ``within margin``, ``exact``."""
    if verdict is None:
        return ""
    if verdict == "no practical difference":
        return "within margin" if short else verdict
    if exact:
        return "exact" if short else "no sampling error"
    return ("" if verdict == "separated" else "not ") + (
        "separated" if short else "separated at 95%")


#: the ``MODEL:`` line's short words for the answers to "lead a trump?"
_SHORT_ANSWER = {"too close to call": "too close", "no practical difference": "within margin"}


def model_lines(card: tuple[str, str, str, str] | None, trump: tuple[str, str] | None,
                rollouts: str, n_o: int, planned: int, width: int = 80) -> list[str]:
    """The ``MODEL:`` lines (at most two of ``width`` columns with the heuristic policy)
    when dd and the rollouts beside it differ: ``card`` = (dd's best card, how firmly
    (:func:`separation`, short), the rollouts' best card, how firmly); ``trump`` = each
    one's answer to "lead a trump?"; ``rollouts``: their policies (``heuristic``); ``n_o``
    their deals, fewer than a rollout run's ``planned`` when dd stopped early: said so, as
    a short check (a rollout run may answer otherwise: ``rollouts too close to call on
    256 deals (a short check: run rollouts alone for more)``). [] when neither differs."""
    who = f"{rollouts} rollouts"
    short = n_o < planned        # the rollouts' side is a short check on the dd run's deals
    parts = []
    if card is not None:
        parts.append(f"best card dd {card[0]} ({card[1]}), {who} {card[2]} ({card[3]})")
        who = "rollouts"
    if trump is not None:
        d, o = (_SHORT_ANSWER.get(x, x) for x in trump)
        part = f"lead a trump? dd {d}, {who} {o}"
        if short:     # "too close" on a few deals is no answer against a rollout run's:
            # the rollouts' answer in full when it fits (a second line: with the shortest
            # remark, no third line)
            room = width - (len("MODEL: ") if card is None else
                            len("  ") + len(" (a short check)"))
            full = f"lead a trump? dd {d}, {who} {trump[1]} on {n_o:,} deals"
            part = full if len(full) <= room else f"{part} on {n_o:,} deals"
        parts.append(part)
    if not parts:
        return []
    lines = ["MODEL: " + parts[0]] + ["  " + p for p in parts[1:]]
    if short:      # the longest remark that fits the last line (or one of its own)
        said = lines[-1].endswith(f" on {n_o:,} deals")
        rems = ((["(a short check: run rollouts alone for more)", "(a short check)"]
                 if said else [])
                + [f"(rollouts: a short check on {n_o:,} deals; run them alone for more)",
                   f"(rollouts: a short check on {n_o:,} deals)"])
        for rem in rems:
            if len(lines[-1]) + 1 + len(rem) <= width:
                lines[-1] += " " + rem
                break
        else:
            lines.append("  " + rems[0])
    return lines


def model_note(lines: list[str]) -> str:
    """The ``MODEL:`` lines as one line (JSON ``model_note``)."""
    out = ""
    for x in lines:                 # the parts by "; ", a remark of its own after a space
        x = x.strip().removeprefix("MODEL: ")
        out += x if not out else (" " if x.startswith("(") else "; ") + x
    return out


#: the most deals :func:`explain` shows
MAX_EXPLAIN = 100


def explain(advice: Advice, n_deals: int = 3, *, card: object = None) -> list[dict[str, Any]]:
    """A few sampled deals (the first ``n_deals`` determinizations of the advice's seed)
    with the line played after the recommended card (or ``card``).

    Returns a list of ``{"sample", "hands": {seat: [cards held now]}, "tricks": [{"leader",
    "cards", "winner"}], "totals": [per side]}``.

    Raises
    ------
    CatchTenError
        Field ``explain``: ``n_deals`` not a whole number from 1 to :data:`MAX_EXPLAIN`.
    """
    n_deals = check_count("explain", n_deals, 1, MAX_EXPLAIN)
    pos = advice.position
    info = pos.info()
    r = pos.rules
    c = int(advice.best) if card is None else (int(card) if isinstance(card, int)
                                               else parse_card(card))
    ev = RolloutEvaluator(info, [c], advice.policies, advice.seed, 1)
    sampler = Sampler(info)
    hidden = sampler.sample(n_deals, seed=advice.seed, start=0)
    hands = sampler.full_hands(hidden)
    deals = []
    for i in range(n_deals):
        leaders, cards, winners, row = ev.line(hands[i:i + 1], i, c)
        tricks = []
        for t in range(info.trick_index, r.n_sets * r.set_size):
            cs = [int(x) for x in cards[t]]
            if t == info.trick_index:
                cs[:len(info.trick)] = [cc for _, cc in info.trick]
                cs[len(info.trick)] = c
            tricks.append({"trick": t, "leader": int(leaders[t]),
                           "cards": [format_card(x) for x in cs],
                           "winner": int(winners[t])})
        held = {s: [format_card(x) for x in cards_of_mask(int(hands[i, info.set_index, s]))]
                for s in range(r.players)}
        totals = [int(row[KR.N_R_FIXED + sd * KR.R_PER_SIDE + KR.R_TOTAL])
                  for sd in range(r.n_sides)]
        deals.append({"sample": i, "hands": held, "tricks": tricks, "totals": totals})
    ev.close()
    return deals
