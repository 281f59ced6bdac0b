"""The JSON API behind the analysis page: each request's work as a plain function of its
JSON body (run in a worker process by :mod:`catchten_sim.serve.pool`).

``advise_json`` returns exactly what ``catchten advise POSITION --json`` prints with the
same options (the same :func:`catchten_sim.advise` call and ``Advice.to_dict``);
``solve_json`` what ``catchten solve RECORD --json`` prints. Bad input raises
:class:`catchten_sim.errors.CatchTenError`, whose one line the server returns as
``{"error": ...}`` (the line the CLI prints after ``error:``).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..checks import check_count, check_number, check_seed, is_whole
from ..errors import (CatchTenError, IllegalPlayError, ParseError, PositionError, check_keys,
                      described)
from ..explain import page_measures
from ..inputs import json_kind

#: the options of ``POST /api/advise``, named as ``catchten advise``'s flags (``exact-max``
#: may be spelled ``exact_max``), with the keyword of :func:`catchten_sim.advise` each sets
ADVISE_OPTIONS = {"evaluator": "evaluator", "samples": "samples", "seed": "seed",
                  "policy": "policy", "opponents": "opponents", "margin": "margin",
                  "time": "time_limit", "exact_max": "exact_max", "early_stop": "stop_early",
                  "objective": "objective", "explain": "explain"}
ADVISE_BODY_KEYS = ("position", "options")
SOLVE_BODY_KEYS = ("record", "options")
SOLVE_OPTIONS = ("line", "time")
DEAL_BODY_KEYS = ("rules", "players", "variants", "seed", "index")
RULES_BODY_KEYS = ("rules", "players", "variants")
SIMULATE_BODY_KEYS = ("rules", "players", "variants", "options")
#: the options of ``POST /api/simulate``, named as ``catchten simulate``'s flags
SIMULATE_OPTIONS = ("deals", "seed", "policy", "opponents", "figures")
#: resolution of the figures a simulate answer carries with ``"figures": true``
FIGURE_DPI = 110
#: the most deals one request may simulate on this server (a few seconds warm)
MAX_SIM_DEALS = 2_000_000
#: the server's own ceiling on ``time`` (seconds of one request's work)
MAX_TIME = 120.0
#: the policies as the page's API says them where it refuses one (it has no help to point
#: to: the choices themselves; short enough to fit the line beside "opponents")
POLICY_CHOICES = "random, heuristic, pimc, ipimc"


def page_error(exc: CatchTenError) -> CatchTenError:
    """``exc`` as the page's API says it: an unknown policy names the choices
    (:data:`POLICY_CHOICES`) where Python's line points to ``help(catchten_sim.policies)``
    and the CLI's to the command's help (:func:`catchten_sim.policies.pointed`)."""
    from ..policies import pointed
    return pointed(exc, POLICY_CHOICES)


def _object(body: Any, field: str, keys: tuple[str, ...]) -> dict:
    if not isinstance(body, Mapping):
        raise ParseError(field, "not an object", f"the body is {json_kind(body)}, not an object")
    check_keys(body, keys)
    return dict(body)


def _inner(body: Mapping, field: str) -> dict:
    """The body's position or record: a JSON object, never a file name (the functions also
    read a path; a request never names a file on the server's disk)."""
    if field not in body:
        raise ParseError(field, "missing", f"the body's {field} is required")
    value = body[field]
    if not isinstance(value, Mapping):
        raise ParseError(field, "not an object",
                         f"a {field} is a JSON object, not {json_kind(value)}")
    return dict(value)


def _options(body: Mapping, known: tuple[str, ...]) -> dict:
    opts = body.get("options") or {}
    if not isinstance(opts, Mapping):
        raise ParseError("options", "not an object",
                         f"options is {json_kind(opts)}, not an object")
    opts = {str(k).replace("-", "_"): v for k, v in opts.items()}
    check_keys(opts, known)
    return opts


def _number(name: str, v: Any, lo: float, hi: float) -> float:
    """A number ``lo < v <= hi`` (``hi``: this server's limit): the type first (``not a
    number``), then the range (``out of range``)."""
    return check_number(name, v, lo, hi, what="seconds on this server")


def _flag(opts: Mapping, name: str, default: bool) -> bool:
    """Option ``name`` of ``opts``: JSON true or false only ("false" is a string, truthy)."""
    v = opts.get(name, default)
    if not isinstance(v, bool):
        raise CatchTenError(name, "not true or false", f"got {described(v)}")
    return v


def advise_args(body: Any, max_time: float = MAX_TIME) -> tuple[Any, dict, int | None]:
    """The position, the :func:`catchten_sim.advise` keywords and the ``explain`` count of
    an advise request (checked here: unknown keys, ``time`` within the server's limit, the
    position itself, so that a refused one is an HTTP 400 also on the stream route)."""
    from ..position import Position
    body = _object(body, "body", ADVISE_BODY_KEYS)
    position = _inner(body, "position")
    opts = _options(body, tuple(ADVISE_OPTIONS))
    kw: dict[str, Any] = {"time_limit": 30.0}            # the CLI's --time default
    for k, v in opts.items():
        kw[ADVISE_OPTIONS[k]] = v
    kw["time_limit"] = _number("time", kw["time_limit"], 0, max_time)
    kw["stop_early"] = _flag(opts, "early_stop", True)
    explain_n = kw.pop("explain", None)
    if explain_n is not None:
        from ..explain import MAX_EXPLAIN
        explain_n = check_count("explain", explain_n, 1, MAX_EXPLAIN)
    Position.from_dict(position)
    return position, kw, explain_n


CHECK_BODY_KEYS = ("position", "input")


def check_json(body: Any) -> dict:
    """``POST /api/check``: ``{"position": {...}}`` checked whole, as ``advise`` checks it
    (a field that cannot be taken is a ParseError naming it), before the page takes any
    of it: a pasted position is loaded entire or not at all. Answers
    ``{"ok": true}``. ``{"input": ...}``: whatever was pasted or loaded, a position or,
    with ``hands``, a hand record (checked as ``catchten solve`` checks it, a finished
    play taken: the page shows the hand over and rewinds it); answers ``{"ok": true,
    "kind": "position"}`` or ``"hand record"``; anything else is refused naming what."""
    from ..position import Position
    body = _object(body, "body", CHECK_BODY_KEYS)
    if len(body) != 1:
        raise ParseError("body", "wrong keys", "give position or input (one of them)")
    if "position" in body:
        Position.from_dict(_inner(body, "position"))
        return {"ok": True}
    data = body["input"]
    if not isinstance(data, Mapping):
        raise ParseError("input", "not a position or hand record",
                         f"{json_kind(data)}, not a JSON object")
    if "hands" not in data:
        Position.from_dict(dict(data))
        return {"ok": True, "kind": "position"}
    check_record(dict(data))
    return {"ok": True, "kind": "hand record"}


def check_record(record: dict) -> None:
    """A hand record checked whole as ``catchten solve`` takes it (a game record, a
    revoke in the play, a bad field: the CatchTenError naming it), except that a finished
    play is taken (nothing to solve at its end, everything before it)."""
    from ..solve import _deal_of
    try:
        _deal_of(record)
    except IllegalPlayError as exc:
        if exc.why != "no card left to play":
            raise


def advise_json(body: Any, progress: Callable[[int, int], None] | None = None,
                threads: int | None = None, max_time: float = MAX_TIME,
                running: Callable[[int, dict[str, float]], None] | None = None) -> dict:
    """What ``catchten advise POSITION --json`` prints for the request ``body``
    (``{"position": {...}, "options": {...}}``); ``running(done, {card: mean})`` gets the
    values so far after every batch."""
    from ..advise import advise
    from ..explain import explain
    position, kw, explain_n = advise_args(body, max_time)
    res = advise(position, threads=threads, progress=progress, running=running, **kw)
    d = res.to_dict()
    if explain_n and not res.partial:
        d["explain"] = explain(res, explain_n)
    return d


def solve_args(body: Any, max_time: float = MAX_TIME) -> tuple[Any, bool, float]:
    """The record, ``line`` and the time limit of a solve request (``options.time``:
    seconds, at most this server's limit, which is the default)."""
    body = _object(body, "body", SOLVE_BODY_KEYS)
    record = _inner(body, "record")
    opts = _options(body, SOLVE_OPTIONS)
    limit = _number("time", opts.get("time", max_time), 0, max_time)
    return record, _flag(opts, "line", False), limit


def solve_json(body: Any, max_time: float = MAX_TIME, time_limit: float | None = None
               ) -> dict:
    """What ``catchten solve RECORD --json --time T`` prints for ``{"record": {...},
    "options": {"line": bool, "time": T}}``: at the time limit the solve stops with the
    bounds proven so far (``exact`` false, ``stopped_by`` "time limit", each card's
    ``range``), as the CLI's does. An interrupt (the job cancelled, or stopped by the
    server's watchdog) stops the search within a few thousand nodes and is raised as
    :class:`KeyboardInterrupt`: the worker answers "cancelled" instead of being killed.
    ``time_limit``: the job's limit as the server worked it out (instead of ``time``)."""
    from ..solve import solve
    record, line, limit = solve_args(body, max_time)
    if time_limit is not None:
        limit = time_limit
    sol = solve(record, line=line, time_limit=limit, interruptible=True)
    if sol.stopped_by == "interrupted":
        raise KeyboardInterrupt
    return sol.to_dict()


def simulate_json(body: Any, progress: Callable[[int, int], None] | None = None,
                  threads: int | None = None) -> dict:
    """What ``catchten simulate --json`` prints with the same rules and flags
    (``{"rules", "players", "variants", "options": {"deals", "seed", "policy",
    "opponents", "figures"}}``; the CLI's defaults but 100,000 deals). With ``"figures":
    true`` the answer also has ``figures``: the report's figures of this run (see
    :func:`figures_json`)."""
    from ..policies import seat_policies
    from ..simulate import simulate
    body = _object(body, "body", SIMULATE_BODY_KEYS)
    opts = _options(body, SIMULATE_OPTIONS)
    rules = _rules(body)
    deals = check_count("deals", opts.get("deals", 100_000), 1, MAX_SIM_DEALS)
    figures = _flag(opts, "figures", False)
    pols = seat_policies(rules, opts.get("policy", "heuristic"), opts.get("opponents"), {})
    res = simulate(rules, pols, n_deals=deals, seed=opts.get("seed", 1), threads=threads,
                   progress=progress)
    d = res.to_dict()
    if figures:
        d["figures"] = figures_json(res)
    return d


def figures_json(res: Any) -> list[dict[str, str]]:
    """The report's figures of the simulation ``res`` (:func:`catchten_sim.report.
    simulation_figures`), each ``{"name", "title", "png"}`` with the PNG drawn in memory
    as a ``data:image/png;base64,`` URL."""
    import base64
    import io
    from ..report import simulation_figures
    out = []
    for name, df, fn, style in simulation_figures(res):
        fig = fn(df, **style)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=FIGURE_DPI, metadata={"Software": None})
        out.append({"name": name, "title": str(style.get("title") or name),
                    "png": "data:image/png;base64,"
                           + base64.b64encode(buf.getvalue()).decode("ascii")})
    return out


def _rules(body: Mapping):
    """The rules of a request: ``rules`` (preset, default foster), ``players`` (default 4),
    ``variants``, checked as a position's are."""
    from ..inputs import preset_name
    from ..rules import Rules
    players = body.get("players", 4)
    if not is_whole(players):
        raise CatchTenError("players", "not a whole number",
                            f"players={json.dumps(players, default=str)} (a JSON integer "
                            "such as 4)")
    variants = body.get("variants") or {}
    if not isinstance(variants, Mapping):
        raise ParseError("variants", "not an object",
                         f"variants is {json_kind(variants)}, not an object")
    return Rules(preset_name(body.get("rules")), int(players), dict(variants))


def deal_json(body: Any) -> dict:
    """A hand record of deal ``index`` (default 0) of ``seed``: the cards a simulation
    with that seed deals (:func:`catchten_sim.deal`)."""
    from ..play import deal
    body = _object(body, "body", DEAL_BODY_KEYS)
    rules = _rules(body)
    seed = check_seed(body.get("seed", 1))
    index = check_count("index", body.get("index", 0), 0, 2 ** 62 - 1)
    return deal(rules, seed=seed, index=index).to_record()


def rules_json(body: Any) -> dict:
    """The resolved rules (``catchten rules --json``) with the preset's switch table
    (``catchten rules --switches --json``, each row with ``offered``: whether it can
    change anything under the preset at the player count) and what the page needs to lay
    out a deal."""
    from ..rules import SWITCH_OF, switch_table
    body = _object(body, "body", RULES_BODY_KEYS)
    rules = _rules(body)
    d = rules.describe()
    allowed = []
    for n in range(2, 9):
        try:
            _rules({**body, "players": n, "variants": {}})
            allowed.append(n)
        except CatchTenError:
            pass
    # the switches the page offers: those that can change anything under the preset at
    # this player count (Switch.acts_at); one the rules set anyway is kept (the page
    # shows it), to be turned back
    switches = [{**row, "offered": SWITCH_OF[row["name"]].acts_at(rules.preset,
                                                                   rules.players)}
                for row in switch_table(rules.preset)]
    return {"rules": d, "switches": switches, "players_allowed": allowed,
            "cards_per_player": rules.cards_per_player, "set_size": rules.set_size,
            "n_sets": rules.n_sets, "n_sides": rules.n_sides,
            "side_of_seat": [rules.side_of(s) for s in range(rules.players)],
            # the column units (the CLI's words, explain.measure_words)
            "measures": page_measures(rules.n_sides)}


def next_json(body: Any) -> dict:
    """What the page's set-up may take next, for a position still being clicked in
    (``POST /api/next``; the fields of a position, any of them still incomplete).

    The play so far is replayed as :class:`catchten_sim.position.Position` replays it,
    the seat's hand now (with its own plays of this set) known at its turns. The answer:
    ``to_move``, the seat whose card the next recorded card is; ``hand_size``, the cards
    the seat holds now; ``problem``, the one line of the play so far when it is itself
    refused (else null); ``play`` and ``hand``, each card that cannot be the next card
    played or be added to the hand, with the one line saying why (a position with it
    would be refused by ``advise``). ``to_move`` and the two maps are empty until the
    trump is known (the turn-up, or the declared trump); till then ``missing`` names the
    field still to give (``turnup`` or ``trump``; else null), which is not a ``problem``."""
    from ..cards import format_card, parse_card
    from ..position import POSITION_KEYS, _int_field, _json_cards
    from ..state import PlayState
    body = _object(body, "body", POSITION_KEYS)
    rules = _rules(body)
    dealer = _int_field(body, "dealer", 0, rules.players - 1)
    seat = _int_field(body, "seat", 0, rules.players - 1)
    hand, play, dead = (_json_cards(body, k) for k in ("hand", "play", "dead"))
    turnup = None if body.get("turnup") in (None, "") else parse_card(body["turnup"], "turnup")
    trump = _trump(body.get("trump"))
    out: dict[str, Any] = {"to_move": None, "hand_size": None, "problem": None,
                           "missing": None, "play": {}, "hand": {}}

    def replay(held_now: set[int], extra: tuple[int, ...] = ()) -> PlayState:
        """The play (and ``extra``) with the seat's cards known at its turns of the last
        set: ``held_now`` and its plays of that set from that turn on."""
        cards = list(play) + list(extra)
        blank = [[None] * rules.players for _ in range(rules.n_sets)]
        first = PlayState(rules, dealer, blank, turnup=turnup, trump=trump, dead=dead)
        movers = []
        for c in cards:
            movers.append(first.to_move)
            first.play(c)
        start = first.set_index * rules.set_size * rules.players
        held = set(held_now) | {c for i, c in enumerate(cards)
                                if i >= start and movers[i] == seat}
        state = PlayState(rules, dealer, blank, turnup=turnup, trump=trump, dead=dead)
        for i, c in enumerate(cards):
            if i >= start and movers[i] == seat:
                state.hands[seat] = set(held)
                try:
                    state.verify_play(c)
                except IllegalPlayError as exc:
                    raise PositionError(exc.field, exc.why, f"{exc.detail}; the hand now "
                                        "and its later plays show it") from None
                finally:
                    state.hands[seat] = None
                held.discard(c)
            state.play(c)
        return state

    try:
        state = replay(set(hand))
    except CatchTenError as exc:
        if exc.why == "missing" and exc.field in ("turnup", "trump"):
            out["missing"] = exc.field      # not set up yet: nothing is wrong so far
        else:
            out["problem"] = exc.line()
        return out
    you = f"seat {seat} (your seat)"
    out["to_move"] = None if state.finished else state.to_move
    out["hand_size"] = state.held_count[seat]
    played = set(play)
    own_played = any(state.played_by[seat] >> c & 1 for c in play)
    for c in rules.deck:
        name = format_card(c)
        if c in dead:
            continue
        if c in played:
            if c not in hand:
                out["hand"][name] = (f"hand: card both held and played ({name} is recorded as "
                                     "played: take it out of the cards played to hold it)")
            continue
        last_set = rules.n_sets == 1 or state.set_index == rules.n_sets - 1
        if c == turnup and not state.turnup_played and c not in hand \
                and not (seat == dealer and last_set):
            out["hand"][name] = (f"hand: card not in hand ({name} is the turn-up, the "
                                 f"dealer's card: seat {dealer} holds it"
                                 + (")" if last_set else " in the last set)"))
        elif c not in hand and own_played:
            try:
                replay(set(hand) | {c})
            except CatchTenError as exc:
                out["hand"][name] = (f"hand: {name} would make a card seat {seat} played "
                                     f"illegal ({exc.why}: {exc.detail})")
        if state.finished:
            continue
        if c in hand:
            out["play"][name] = (f"play: card both held and played ({name} is in the hand of "
                                 f"{you}: a card held now has not been played)")
        elif state.to_move == seat and len(hand) >= state.held_count[seat]:
            out["play"][name] = (f"play: not the player to move ({you} is to play next, and "
                                 f"its hand has all {state.held_count[seat]} cards it holds: "
                                 "press Advise; to record the card it played, take that card "
                                 "out of Your hand first)")
        else:
            if state.to_move == seat:
                state.hands[seat] = set(hand) | {c}
            try:
                state.verify_play(c)
            except CatchTenError as exc:
                out["play"][name] = exc.line()
            finally:
                state.hands[seat] = None
    return out


def _trump(v: Any) -> int | None:
    """A declared trump as a position writes it (S, H, D, C, the suit symbols, or NT)."""
    from ..cards import _SUIT_INPUT
    from ..rules import NO_TRUMPS
    if v in (None, ""):
        return None
    names = {**{k.upper(): s for k, s in _SUIT_INPUT.items()}, "NT": NO_TRUMPS}
    if str(v).upper() not in names:
        raise ParseError("trump", "bad trump", f"{json.dumps(v, default=str)}: S, H, D, C or NT")
    return names[str(v).upper()]
