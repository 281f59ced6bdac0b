"""What the commands print (:mod:`catchten_sim.cli`): a result as text (:mod:`catchten_sim.text`)
or JSON, the line on stderr that says a run is short of what was asked and how to finish
it, and the exit status that goes with it (130: interrupted).
"""
from __future__ import annotations



from .cli_kit import echo, emit_json


def short_of(why: str, done: str, run_dir) -> int | None:
    """Say on stderr why a run is short of what was asked (``why``: ``interrupted``,
    ``unfinished`` (a summary) or ``time limit``) and how to finish it; exit 130 when
    interrupted."""
    echo(f"{why}: {done}; the numbers above are for those"
               + (f"; finish with: catchten resume {run_dir}" if run_dir else ""), err=True)
    return 130 if why == "interrupted" else None


def print_games_result(gres, games: int, as_json: bool, run_dir, why: str = "interrupted",
                 printed: bool = False) -> int | None:
    """Print a games result (``printed``: its JSON is out already); short of the games
    asked for: say so (:func:`short_of`)."""
    if as_json:
        if not printed:
            emit_json({**gres.to_dict(), "interrupted": gres.interrupted})
    else:
        from .text import print_games
        print_games(gres)
    if gres.interrupted:
        return short_of(why, f"{gres.n_games:,} of {games:,} games played", run_dir)
    return None


def print_simulation_result(res, as_json: bool, run_dir, why: str = "interrupted",
                  printed: bool = False) -> int | None:
    """Print a simulation result (``printed``: its JSON is out already); when it is short
    of the deals asked for, say so on stderr (:func:`short_of`)."""
    if as_json:
        if not printed:
            emit_json(res.to_dict())
    else:
        from .text import print_simulation
        print_simulation(res)
    if res.interrupted:
        return short_of(why, f"{res.n_deals:,} of {res.requested:,} deals simulated",
                         run_dir)
    return None


#: fields of a result that describe the session that made it (its executor, its clock):
#: left out of ``catchten summarize --json`` (with ``--sessions`` it gives ``compute_s``, the
#: run's sessions' compute time, and ``run_on``, where they ran, instead)
SUMMARY_DROPS = ("threads", "elapsed_s", "compile_s", "deals_per_s", "games_per_s",
                 "simulation_s", "dp_s")


def print_run(kind: str, res, as_json: bool, run_dir, rd, summary: bool,
               timed_out: bool = False, files: dict | None = None,
               sessions: bool = False) -> int | None:
    """Print the result of a run directory of any kind (resume, summarize; a summary says
    where the chunks ran: ``run on:``, or ``run_on`` in JSON; ``timed_out``: a resume that
    stopped at its time limit, said as such, not as an interruption; ``files``: the files
    written, by type)."""
    files = files or {}
    if as_json:
        d = {**res.to_dict(), "interrupted": res.interrupted} if kind == "games" else \
            with_start(res, {**res.to_dict(), **files}) if kind == "equity" else \
            {**res.to_dict(), **files}
        if summary:
            # the same bytes on every read: no timings of the read, the run's own instead
            for k in SUMMARY_DROPS:
                d.pop(k, None)
            if sessions:        # how the run went, not part of its result
                d["compute_s"] = rd.compute_seconds()
                d["run_on"] = rd.sessions()
        emit_json(d)
    why = "unfinished" if summary else "time limit" if timed_out else "interrupted"
    if kind == "simulate":
        code = print_simulation_result(res, as_json, run_dir, why, printed=as_json)
    elif kind == "games":
        code = print_games_result(res, int(rd.manifest["deals"]), as_json, run_dir, why,
                            printed=as_json)
    elif kind == "equity":
        code = print_equity_result(res, {**res.to_dict(), **files}, as_json, run_dir,
                             printed=as_json)
    else:
        code = print_match_result(res, {**res.to_dict(), **files}, as_json, run_dir,
                            report_dir=(rd.manifest.get("outputs") or {}).get("report")
                            if files else None, printed=as_json)
    if summary and not as_json:
        echo(f"run on: {rd.executors_text()}")
    return code


#: below this many pilot deals ``match`` warns that the control variate's coefficient is
#: unreliable: fitted on under 25 rounds at four players, its own error (relative about
#: 1 / sqrt(rounds)) is a fifth of it or more
MIN_PILOT_DEALS = 100


def warn_small_pilot(pilot) -> None:
    """One warning on stderr (wrapped to the width) for a ``--pilot`` of 1 to
    :data:`MIN_PILOT_DEALS` - 1 deals."""
    if isinstance(pilot, int) and not isinstance(pilot, bool) and 0 < pilot < MIN_PILOT_DEALS:
        echo(f"warning: pilot: {pilot} deals are too few for a reliable control-variate "
                   f"coefficient (under {MIN_PILOT_DEALS}; under 2 rounds none is used): the "
                   "interval stays valid but may be wider; use --pilot 0 or at least "
                   f"{MIN_PILOT_DEALS}", err=True)


def print_match_result(res, d: dict, as_json: bool, run_dir, report_dir=None,
                 printed: bool = False) -> int | None:
    """Print a match (``d``: its JSON, with any extra keys; ``printed``: out already);
    short of its deals (a time limit: only in a run directory, which can go on): say so
    (:func:`short_of`)."""
    if as_json:
        if not printed:
            emit_json(d)
    else:
        from .text import print_match
        print_match(res, d)
        if report_dir is not None:
            echo(f"report: {len(d['report'])} files written to {report_dir}", err=True)
    if res.stop in ("interrupted", "unfinished") or (res.stop == "time" and run_dir):
        why = "time limit" if res.stop == "time" else res.stop
        return short_of(why, f"{res.deals:,} deals played", run_dir)
    return None


def with_start(eq, d: dict) -> dict:
    """An equity table's JSON with ``start``: each side's P(win) from 0-0 by dealer."""
    from .equity import start_p_win
    d["start"] = start_p_win(eq)
    return d


def print_equity_result(eq, summary: dict, as_json: bool, run_dir=None,
                  printed: bool = False) -> int | None:
    """Print an equity table (``summary``: its JSON, with any extra keys; ``printed``: its
    JSON is out already)."""
    with_start(eq, summary)
    code = 130 if eq.stopped == "interrupted" else None
    if eq.stopped == "unfinished":
        echo(f"unfinished: {eq.n_hands:,} of {eq.requested_hands:,} deals in {run_dir}; "
                   f"the table below is built from those; finish with: catchten resume "
                   f"{run_dir}", err=True)
    if as_json:
        if not printed:
            emit_json(summary)
        return code
    from .text import print_equity
    print_equity(eq, summary, run_dir)
    return code
