"""The double-dummy solver: the exact value of every legal card, all hands visible.

``solve(record)`` takes a hand record (FORMATS.md) whose ``play`` stops at the position to
solve and returns a :class:`Solution`: for every legal card of the player to move, the final
hand score difference for the whole deal (the mover's side total minus the other sides'
totals added together; tricks already played and every remaining set included; card points
per scoring unit, RULES.md §2, §7.1, §7.2) when everyone plays best with every hand visible.
With three or more sides the value is *paranoid*: the mover's side against the union of the
others (every other seat plays to minimise it).

The search is in :mod:`catchten_sim._kernels.solve` (alpha-beta on points with zero-window
tests, a fixed-size transposition table, equivalent cards searched once).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from .cards import cards_of_mask, format_card
from .checks import MAX_NODES, check_number
from .compile_notice import Stopwatch
from .errors import CatchTenError, IllegalPlayError, ParseError
from .records import hand_from_record, load_record, record_kind, score_game, score_record
from .rules import Rules
from .state import PlayState, card_points
from ._kernels import solve as _k

__all__ = ["Solution", "solve", "solve_values", "solve_deals", "solver_tables", "Solver",
           "run_watched"]

INF = _k.INF


def _card_order(c: int) -> tuple[int, int]:
    """Output order: suits S H D C, high rank first (the order of the worked cases)."""
    return (c // 13, -(c % 13))


@dataclass(frozen=True)
class Solution:
    """The double-dummy values of one position.

    Attributes
    ----------
    rules : str
        The rules label (preset, players, switches that differ from the preset).
    to_move : int
        The seat to move.
    side : int
        The side whose score difference the values are (the mover's).
    n_sides : int
    paranoid : bool
        True with three or more sides: the mover's side against the union of the others.
    value : int
        The best value (points): the maximum of ``values`` (when ``exact`` is False, the
        best value's proven lower bound).
    values : Mapping[str, int]
        Each legal card (canonical text) -> its value in points, suits S H D C and high
        cards first (when ``exact`` is False, its proven lower bound).
    best : tuple of str
        The cards of the best value, in the same order (when ``exact`` is False, every card
        that may be best: its upper bound reaches the best lower bound).
    line : tuple of str or None
        With ``line=True``: the remaining cards of one optimal play to the end of the deal,
        this position's best card first.
    nodes : int
        Search nodes visited.
    exact : bool
        False when the solve stopped early (its node budget spent, a time limit, Ctrl-C):
        then only ``ranges`` is proven.
    ranges : Mapping[str, tuple of int]
        Each legal card -> its proven ``(low, high)`` bounds (equal when exact).
    value_range : tuple of int
        The best value's proven ``(low, high)``.
    stopped_by : str or None
        Why a solve that is not exact stopped: "node budget", "time limit", "interrupted".
    """

    rules: str
    to_move: int
    side: int
    n_sides: int
    paranoid: bool
    value: int
    values: Mapping[str, int]
    best: tuple[str, ...]
    line: tuple[str, ...] | None = None
    nodes: int = 0
    exact: bool = True
    ranges: Mapping[str, tuple[int, int]] | None = None
    value_range: tuple[int, int] | None = None
    stopped_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The ``catchten solve --json`` object (``line`` only when computed)."""
        out: dict[str, Any] = {
            "to_move": self.to_move,
            "side": self.side,
            "paranoid": self.paranoid,
            "value": self.value,
            "cards": [{"card": c, "value": v} for c, v in self.values.items()],
            "best": list(self.best),
        }
        if not self.exact and self.ranges is not None and self.value_range is not None:
            # bounds only: a value is known where its range is one number (a lower bound
            # elsewhere would read as the value: null), each card's proven range is
            lo, hi = self.value_range
            out["value"] = lo if lo == hi else None
            out["exact"] = False
            out["stopped_by"] = self.stopped_by
            out["value_range"] = list(self.value_range)
            for row in out["cards"]:
                a, b = self.ranges[row["card"]]
                row["value"] = a if a == b else None
                row["range"] = [a, b]
        if self.line is not None:
            out["line"] = list(self.line)
        return out

    def to_frame(self):
        """A pandas DataFrame, one row per legal card: ``card``, ``value``, ``best``."""
        import pandas as pd
        return pd.DataFrame({"card": list(self.values),
                             "value": list(self.values.values()),
                             "best": [c in self.best for c in self.values]})


# ------------------------------------------------------------------------------ tables
_LEADER_KEYS = _k.leader_keys()
_TABLE_CACHE: dict[tuple, Any] = {}


def _merge_ok(tp: np.ndarray, rp: np.ndarray, hon: np.ndarray, deck: Sequence[int]) -> bool:
    """True when, in every suit, the cards between two cards without honour points are the
    same in rank order and in trick order, so that the kernel's equivalence test (which
    walks rank order) is right."""
    pw = np.where(tp > 0, tp, rp)
    for s in range(4):
        cards = [c for c in deck if c // 13 == s]
        plain = [c for c in cards if hon[c] == 0]
        for a in plain:
            for b in plain:
                if a >= b:
                    continue
                by_rank = {c for c in cards if a < c < b}
                lo, hi = sorted((pw[a], pw[b]))
                by_power = {c for c in cards if lo < pw[c] < hi}
                if by_rank != by_power or (pw[a] < pw[b]) != (a < b):
                    return False
    return True


def _rank_order_ok(pw: np.ndarray, named: int, deck: Sequence[int]) -> bool:
    """True when, in every suit, rank order (card index) and trick order (``pw``) agree on
    every pair of cards but two named ones (honours, an exposed turn-up): then the owners of
    a suit's remaining cards in rank order, with the named cards by name, give their owners
    in trick order, and the kernel may key positions by bit compression (``K_FASTKEY``)."""
    for a in deck:
        for b in deck:
            if a // 13 != b // 13 or a >= b or ((named >> a) & 1 and (named >> b) & 1):
                continue
            if pw[a] >= pw[b]:
                return False
    return True


def solver_tables(rules: Rules, trump: int, turnup: int, dealer: int) -> _k.SolveTables:
    """The kernel tables of one deal (cached by rules, trump, turn-up and dealer).

    Parameters
    ----------
    rules : Rules
    trump : int
        Suit code 0-3 (4: no trumps).
    turnup : int
        Card index of the turn-up (-1: none).
    dealer : int
        The dealer's seat.
    """
    key = (rules.preset, rules.players, tuple(sorted(rules.variants.items())), trump, turnup,
           dealer)
    hit = _TABLE_CACHE.get(key)
    if hit is not None:
        return hit
    kt = rules.tables()
    n = rules.players
    tp = np.ascontiguousarray(kt.trump_power[trump], dtype=np.int64)
    rp = np.ascontiguousarray(kt.rank_power, dtype=np.int64)
    hon = np.ascontiguousarray(kt.honours[trump], dtype=np.int64)
    pw = np.where(tp > 0, tp, rp).astype(np.int64)
    side = np.zeros(_k.MAX_SEATS, np.int64)
    side[:n] = kt.side_of_seat
    unit = rules.set_size if rules.per_set_scoring else rules.cards_per_player
    # honours only when taking every card of a unit scores no card points (the
    # ``card_points`` switch off, docs/rules.md §3): asked of the one Python rule
    if card_points(rules, n * unit) == 0:
        mode = _k.MODE_HONOURS
    elif rules.n_sides == 2 and 2 * rules.share == n * unit:
        mode = _k.MODE_LINEAR
    else:
        mode = _k.MODE_COUNTS
    p = np.zeros(_k.K_NPARAMS, np.int64)
    p[_k.K_N] = n
    p[_k.K_NSIDES] = rules.n_sides
    p[_k.K_SETSIZE] = rules.set_size
    p[_k.K_NTRICKS] = rules.cards_per_player
    p[_k.K_UNIT] = unit
    p[_k.K_SHARE] = rules.share
    p[_k.K_MODE] = mode
    p[_k.K_TRUMP] = trump
    p[_k.K_TURNUP] = turnup
    _k.set_play_rules(p, kt.play_rules)
    p[_k.K_HALFN] = n // 2
    p[_k.K_HONMASK] = int(sum(1 << c for c in range(52) if hon[c] != 0))
    p[_k.K_MERGE] = int(_merge_ok(tp, rp, hon, rules.deck))
    p[_k.K_NSETS] = rules.n_sets
    p[_k.K_DEALER] = dealer
    named = int(p[_k.K_HONMASK]) | int(p[_k.K_TLOCK])
    p[_k.K_FASTKEY] = int(_rank_order_ok(pw, named, rules.deck))
    order = np.full((4, 14), -1, np.int64)
    for s in range(4):
        cards = sorted((c for c in rules.deck if c // 13 == s), key=lambda c: -pw[c])
        order[s, :len(cards)] = cards
    l1, l2 = _LEADER_KEYS
    tables = _k.make_tables(p, tp, rp, pw, hon, side, order,
                            np.ascontiguousarray(kt.top_trump, dtype=np.int64), l1, l2)
    _TABLE_CACHE[key] = tables
    return tables


#: nodes one solve may search by default (~1 minute at ~4 million nodes a second); a solve
#: that reaches it returns proven bounds instead of values
DEFAULT_NODE_LIMIT = 200_000_000

#: the table's size by the deal (``Solver(tt_bits=None)``): ``2**17`` entries (4 MB) for
#: deals of up to ``BIG_DEAL`` cards, ``2**21`` (64 MB) for larger ones (french52, jaques
#: ``deck52``): on 30 french52 deals from the opening lead the larger table needs 12%
#: fewer nodes and leaves 3 of them at a 20 M-node budget instead of 5, at about the same
#: cost a node; on foster deals it only costs page faults (docs/speed.md)
SMALL_TT_BITS = 17
BIG_TT_BITS = 21
BIG_DEAL = 40


class SolveLimitError(CatchTenError):
    """A solve that stopped before its values were exact (its node budget spent, or
    stopped), where exact values are needed (:meth:`Solver.run`, the line): not bad input,
    so the CLI exits 1, not 2."""

    exit_status = 1


class Solver:
    """A reusable search context: scratch and a fixed-size transposition table.

    Parameters
    ----------
    tt_bits : int or None
        The table holds ``2**tt_bits`` entries (32 bytes each); it never grows. ``None``
        (the default): ``2**17`` entries (4 MB), and a table of ``2**21`` (64 MB) made the
        first time a deal of more than 40 cards is solved (:data:`BIG_TT_BITS`).
    node_limit : int or None
        Most nodes one solve may search (default 200 million, roughly a minute). A solve
        that reaches it stops with proven lower and upper bounds for each card
        (:meth:`run_bounds`) instead of running on. ``None``: no limit.
    """

    def __init__(self, tt_bits: int | None = None,
                 node_limit: int | None = DEFAULT_NODE_LIMIT) -> None:
        if tt_bits is not None and not 4 <= int(tt_bits) <= 30:
            raise ValueError("tt_bits must be 4 to 30")
        if node_limit is not None and int(node_limit) < 1:
            raise ValueError("node_limit must be positive or None")
        self.state = _k.new_state()
        self.tt_bits = None if tt_bits is None else int(tt_bits)
        self.table = _k.new_table(SMALL_TT_BITS if tt_bits is None else int(tt_bits))
        self._big: _k.TTable | None = None
        self.node_limit = None if node_limit is None else int(node_limit)

    def table_for(self, tables: _k.SolveTables) -> _k.TTable:
        """The table to solve deals of these rules with: the one of ``tt_bits``, or by the
        deal's size (``tt_bits=None``; the large table is made once and kept)."""
        p = tables.p
        if self.tt_bits is not None or int(p[_k.K_N]) * int(p[_k.K_NTRICKS]) <= BIG_DEAL:
            return self.table
        if self._big is None:
            self._big = _k.new_table(BIG_TT_BITS)
        return self._big

    def stats(self) -> dict[str, int]:
        """Counters since creation: nodes, table probes, hits, stores, solves left with
        bounds."""
        st = self.state.st
        return {"nodes": int(st[_k.S_NODES]), "probes": int(st[_k.S_PROBES]),
                "hits": int(st[_k.S_HITS]), "stores": int(st[_k.S_STORES]),
                "bounded": int(st[_k.S_BOUNDED])}

    def stop(self) -> None:
        """Stop the solve under way (from another thread): it returns within a few
        thousand nodes with the bounds proven so far, and so does every solve after it
        until :meth:`resume`."""
        self.state.st[_k.S_FLAG] = 1

    def resume(self) -> None:
        """Let solves run again after :meth:`stop`."""
        self.state.st[_k.S_FLAG] = 0

    @property
    def stopped(self) -> bool:
        return bool(self.state.st[_k.S_FLAG])

    def run_bounds(self, tables: _k.SolveTables, deals: np.ndarray, play: Sequence[int], *,
                   root_side: int = -1, all_cards: bool = True,
                   deadline: float | Callable[[], float] | None = None,
                   interruptible: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Solve deals (int64, (n_deals, n_sets, n_seats) masks) after ``play``; returns
        ``(low, high)``, int64 (n_deals, 53) each: the proven lower and upper bound of each
        legal card's value at its index (INF elsewhere) and of the best value at 52. They
        are equal (the exact value) unless a solve reached the node budget or was stopped.

        ``deadline`` (a ``time.monotonic()`` time, or a function giving it, read again at
        every look) stops the solves then; with
        ``interruptible`` a Ctrl-C stops them within a few thousand nodes and is raised
        here (as :class:`KeyboardInterrupt`, the bounds in its ``bounds`` attribute). Both
        run the search in a helper thread while this one waits."""
        deals = np.ascontiguousarray(deals, dtype=np.int64)
        play_arr = np.zeros(max(1, len(play)), np.int64)
        play_arr[:len(play)] = play
        out = np.empty((deals.shape[0], 2, 53), np.int64)
        self.state.st[_k.S_LIMIT] = 0 if self.node_limit is None else int(self.node_limit)
        _k.ready(self.state, tables)
        args = (tables, self.state, self.table_for(tables), deals, play_arr, len(play),
                int(root_side), int(bool(all_cards)), out)
        if deadline is None and not interruptible:
            _k.solve_batch(*args)
        else:
            self._watched(args, deadline)
        return out[:, 0], out[:, 1]

    def _watched(self, args: tuple, deadline: float | Callable[[], float] | None) -> None:
        """The kernel in a helper thread (it releases the GIL), this thread watching the
        clock and Ctrl-C; the stop flag is ours, put down when the kernel has returned."""
        try:
            run_watched(lambda: _k.solve_batch(*args), self.stop, deadline)
        except KeyboardInterrupt as exc:
            out = args[-1]
            exc.bounds = (out[:, 0], out[:, 1])   # type: ignore[attr-defined]
            raise
        finally:
            self.resume()

    def run(self, tables: _k.SolveTables, deals: np.ndarray, play: Sequence[int], *,
            root_side: int = -1, all_cards: bool = True) -> np.ndarray:
        """Solve deals (int64, (n_deals, n_sets, n_seats) masks) after ``play``; returns
        int64 (n_deals, 53): each legal card's exact value at its index (INF elsewhere), the
        best value at 52. Raises :class:`SolveLimitError` when a solve stopped with bounds
        only (:meth:`run_bounds` returns them)."""
        low, high = self.run_bounds(tables, deals, play, root_side=root_side,
                                    all_cards=all_cards)
        if (low != high).any():
            why = (f"a deal needed more than {self.node_limit:,} nodes"
                   if not self.stopped else "the solve was stopped")
            raise SolveLimitError(
                "position", "not solved exactly",
                f"{why}: only bounds on its values are proven (catchten solve prints them; "
                "from Python: Solver.run_bounds, or Solver(node_limit=None); advise and the "
                "pimc players use the bounds)")
        return low


def run_watched(work: Callable[[], None], stop: Callable[[], None],
                deadline: float | Callable[[], float] | None = None) -> None:
    """Run ``work`` in a helper thread while this thread watches the clock and Ctrl-C: at
    ``deadline`` (``time.monotonic()``) or on Ctrl-C it calls ``stop`` (e.g.
    :meth:`Solver.stop` of the solvers ``work`` uses), waits for ``work`` to return, and
    then raises the :class:`KeyboardInterrupt` (none for the deadline; a callable
    ``deadline`` is read again at every look, e.g. one that leaves a compile out). ``work``
    must release the GIL while it runs long (the solver's kernels do)."""
    due = deadline if callable(deadline) or deadline is None else (lambda: deadline)
    err: list[BaseException] = []
    # finished is an Event, not Thread.join: a join interrupted by Ctrl-C may take the
    # thread for finished while it still runs (CPython's bpo-45274 handling)
    finished = threading.Event()

    def body() -> None:
        try:
            work()
        except BaseException as exc:
            err.append(exc)
        finally:
            finished.set()

    interrupted: KeyboardInterrupt | None = None
    stopped = due is not None and time.monotonic() >= due()
    if stopped:         # already past: the work starts stopped (a fast solve could finish
        stop()          # before this thread's first look)
    threading.Thread(target=body, name="catchten-solve", daemon=True).start()
    try:
        while not finished.is_set():
            wait = 0.05 if due is None or stopped else \
                max(0.0, min(0.05, due() - time.monotonic()))
            finished.wait(wait)
            if not stopped and due is not None and time.monotonic() >= due():
                stop()
                stopped = True
    except KeyboardInterrupt as exc:
        interrupted = exc
        stop()
    while not finished.is_set():
        try:
            finished.wait(0.05)
        except KeyboardInterrupt:         # a second Ctrl-C: still wait for the work
            pass
    if interrupted is not None:           # (what ``work`` raised after the stop follows it)
        raise interrupted
    if err:
        raise err[0]


_DEFAULT: Solver | None = None


def _default_solver() -> Solver:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = Solver()
    return _DEFAULT


# ------------------------------------------------------------------------------ records
@dataclass(frozen=True)
class _Deal:
    rules: Rules
    dealer: int
    masks: np.ndarray       # int64 (n_sets, n)
    turnup: int
    play: tuple[int, ...]
    to_move: int
    legal: tuple[int, ...]


def _load(record: Any) -> dict:
    if isinstance(record, (str, Path)):
        return load_record(record)
    return record


def _deal_of(record: Any) -> _Deal:
    """Validate a hand record (``catchten score``'s checks and errors) into a deal."""
    data = _load(record)
    kind = record_kind(data)
    hands = data.get("hands") if isinstance(data, dict) else None
    if kind == "game record" and not any(isinstance(h, dict) for h in
                                         (hands if isinstance(hands, list) else [])):
        score_game(data)      # a malformed ``hands``, not a game: the error names the field
    if kind != "hand record":
        hint = "solve one of its hands" if kind == "game record" else "try catchten advise"
        raise ParseError("record", "not a hand record", f"this is a {kind}; {hint}")
    scored = score_record(data)   # the checking order of RULES.md; revokes are reported
    rev = scored.get("revoke")
    if rev is not None:
        raise IllegalPlayError(
            "play", "revoke in play",
            f"seat {rev['seat']} revoked with {rev['card']} in trick {rev['trick']}; the "
            "solver needs a legal play (every card following suit when able)")
    rules, dealer, set_hands, turnup, _dead, play = hand_from_record(data)
    n = rules.players
    if len(play) >= rules.n_dealt:
        raise IllegalPlayError("play", "no card left to play",
                               f"all {rules.n_dealt} cards are played: nothing to solve")
    masks = np.zeros((rules.n_sets, n), np.int64)
    for k, seats in enumerate(set_hands):
        for seat, cards in enumerate(seats):
            masks[k, seat] = sum(1 << c for c in cards)
    return _Deal(rules, dealer, masks, turnup, tuple(play), -1, ())


def _tables_of(deal: _Deal) -> _k.SolveTables:
    return solver_tables(deal.rules, deal.turnup // 13, deal.turnup, deal.dealer)


def _mover(deal: _Deal, play: Sequence[int]) -> int:
    """The seat to move after ``play`` (the play core's :class:`~catchten_sim.state.PlayState`
    replays it: trick winners, sets)."""
    ps = PlayState(deal.rules, deal.dealer,
                   [[cards_of_mask(int(m)) for m in row] for row in deal.masks],
                   turnup=deal.turnup)
    for c in play:
        ps.play(int(c))
    return ps.to_move


def solve_values(record: Any, *, root_side: int | None = None,
                 solver: Solver | None = None) -> tuple[int, int, dict[int, int]]:
    """``(to_move, best, {card index: value})`` of a record's position, the values seen by
    ``root_side`` (default: the mover's side; when another side is given, the mover's
    best is that side's minimum)."""
    deal = _deal_of(record)
    return _values(deal, deal.play, root_side, solver or _default_solver())


def _values(deal: _Deal, play: Sequence[int], root_side: int | None,
            solver: Solver) -> tuple[int, int, dict[int, int]]:
    out = solver.run(_tables_of(deal), deal.masks[None], play,
                     root_side=-1 if root_side is None else root_side)[0]
    values = {c: int(out[c]) for c in range(52) if out[c] < INF}
    return _mover(deal, play), int(out[52]), values


def solve(record: Any, *, line: bool = False, solver: Solver | None = None,
          max_nodes: int | None = -1, time_limit: float | None = None,
          interruptible: bool = False, clock_start: float | None = None) -> Solution:
    """Solve the position a hand record's ``play`` stops at.

    Parameters
    ----------
    record : dict or str or Path
        A hand record (FORMATS.md "Hand record"), or the path of one.
    line : bool
        Also find one optimal line of play to the end of the deal (only when the values
        are exact).
    solver : Solver, optional
        Reuse a search context (table size); default: one shared :class:`Solver` (its
        table sized by the deal: 4 MB, 64 MB for deals of more than 40 cards).
    max_nodes : int or None
        The node budget of this solve (default: the solver's, 200 million; ``None``: no
        limit). A solve that reaches it returns proven bounds (``Solution.exact`` False).
    time_limit : float, optional
        Seconds this solve may take; then it stops with the bounds proven so far. They
        count from ``clock_start`` (a ``time.perf_counter()`` reading; default the call:
        ``catchten solve`` gives its first record the process's start, as ``advise``),
        leaving out a one-time compile of the solver.
    interruptible : bool
        A Ctrl-C stops the solve within a few thousand nodes and returns its bounds
        (``stopped_by`` "interrupted"), instead of waiting for the kernel.

    Returns
    -------
    Solution

    Raises
    ------
    CatchTenError
        The record is refused as ``catchten score`` refuses it (field, why); a play holding
        a revoke (``play: revoke in play``), a finished play (``play: no card left to
        play``), a game record or a position (``record: not a hand record``) are refused
        too.
    """
    solver = solver or _default_solver()
    deal = _deal_of(record)
    r = deal.rules
    nodes0 = solver.stats()["nodes"]
    saved = solver.node_limit
    if max_nodes != -1:
        if max_nodes is not None and not 1 <= int(max_nodes) <= MAX_NODES:
            raise ValueError(f"max_nodes must be 1 to {MAX_NODES:.0e} or None")
        solver.node_limit = None if max_nodes is None else int(max_nodes)
    deadline = None if time_limit is None else Stopwatch(clock_start).deadline(
        check_number("time", time_limit, 0, what="seconds"))
    stopped_by = None
    try:
        try:
            low, high = solver.run_bounds(_tables_of(deal), deal.masks[None], deal.play,
                                          deadline=deadline, interruptible=interruptible)
        except KeyboardInterrupt as exc:
            if not hasattr(exc, "bounds"):
                raise     # not from inside a watched search (e.g. a SIGINT handled as
                #           an unwatched kernel returned): nothing proven to show
            low, high = exc.bounds
            stopped_by = "interrupted"
    finally:
        solver.node_limit = saved
    lo, hi = low[0], high[0]
    to_move = _mover(deal, deal.play)
    order = sorted((c for c in range(52) if lo[c] < INF), key=_card_order)
    vals = {c: int(lo[c]) for c in order}
    exact = bool((lo == hi).all())
    value = int(lo[52])
    values = {format_card(c): vals[c] for c in order}
    ranges = {format_card(c): (int(lo[c]), int(hi[c])) for c in order}
    if exact:
        best = tuple(format_card(c) for c in order if vals[c] == value)
    else:
        best = tuple(format_card(c) for c in order if hi[c] >= value)
        if stopped_by is None:
            late = deadline is not None and time.monotonic() >= deadline()
            stopped_by = "time limit" if late else "node budget"
    side = r.side_of(to_move)
    line_cards = None
    if line and exact:
        line_cards = tuple(format_card(c) for c in _line(deal, side, solver, order, vals))
    return Solution(rules=r.label(), to_move=to_move, side=side, n_sides=r.n_sides,
                    paranoid=r.n_sides > 2, value=value, values=values, best=best,
                    line=line_cards, nodes=solver.stats()["nodes"] - nodes0, exact=exact,
                    ranges=ranges, value_range=(int(lo[52]), int(hi[52])),
                    stopped_by=stopped_by)


def _line(deal: _Deal, side: int, solver: Solver, order: list[int],
          vals: dict[int, int]) -> list[int]:
    """One optimal play to the end: at each step a card of the best value for its seat
    (the root side maximises, the others minimise), values seen by ``side``."""
    r = deal.rules
    play = list(deal.play)
    target = max(vals.values())
    first = next(c for c in order if vals[c] == target)
    out = [first]
    play.append(first)
    while len(play) < r.n_dealt:
        seat, best, v = _values(deal, play, side, solver)
        assert best == target, "the line lost value: solver inconsistency"
        pick = next(c for c in sorted(v, key=_card_order) if v[c] == best)
        out.append(pick)
        play.append(pick)
    return out


def solve_deals(rules: Rules, dealer: int, turnup: int, deals: np.ndarray,
                play: Sequence[int] = (), *, all_cards: bool = True,
                solver: Solver | None = None) -> np.ndarray:
    """Solve many deals of the same rules, dealer, turn-up and play (e.g. determinizations).

    Parameters
    ----------
    deals : int64 array (n_deals, n_sets, players)
        Each seat's cards as dealt (masks, bit = card index), set by set.
    play : sequence of int
        Card indices played so far, legal in every deal (not checked).

    Returns
    -------
    int64 array (n_deals, 53)
        Per deal the value of each legal card at its index (30000 elsewhere) and the best
        value at index 52, for the side of the player to move.
    """
    solver = solver or _default_solver()
    tables = solver_tables(rules, turnup // 13, turnup, dealer)
    return solver.run(tables, deals, play, all_cards=all_cards)
