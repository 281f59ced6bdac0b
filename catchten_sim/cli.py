"""The ``catchten`` command line: thin, calls the public API only (DESIGN.md §1).

Bad input prints one line ``error: FIELD: WHY (detail)`` on stderr and exits 2; other
failures exit 1; never a traceback.
"""
from __future__ import annotations

import gc
import json
import os
import sys
from typing import Any

import click

from .cli_kit import (CatchtenGroup, PathName, Progress, cards_flag, check_force,
                      check_run_options, echo, emit_json, errors_as_json, given, load_position,
                      fields_as, long_step, one_line, say, seat_policy_flags)
from .cli_out import (print_equity_result, print_games_result, print_match_result,
                      print_run, print_simulation_result, warn_small_pilot)
from .cli_options import (ADVISE_EVALUATOR_OPTIONS, DEAD_OPTION, JSON_OPTION, PROGRESS_OPTION,
                          RESULT_JSON_OPTION, TIMED_CHUNK, make_rules, play_options,
                          position_options, rules_options, run_option, run_options,
                          turnup_option)
from .errors import CatchTenError
from .policies import POLICY_NAMES


# ---------------------------------------------------------------------------- commands
@click.group(cls=CatchtenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="catchten_sim", prog_name="catchten")
def cli() -> None:
    """Catch the Ten (Scotch Whist): simulate, score and advise.

    \b
    catchten simulate                 1,000,000 4-player deals, the headline odds
    catchten rules --players 5        what the rules are, resolved
    catchten score RECORD.json        score a hand or game record
    catchten advise POSITION.json     which card to play, every card evaluated
    catchten solve RECORD.json        double-dummy value of every card
    catchten match heuristic random   is strategy A better than B? (duplicate)
    catchten report                   simulate and write a PDF/PNG/CSV report

    Input files (hand and game records, positions): docs/formats.md.
    """


@cli.command("rules")
@rules_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--switches", is_flag=True,
              help="List the preset's rule switches: values, default, where each applies, "
                   "its docs/rules.md section.")
def rules_cmd(preset, players, rules_file, variants, as_json, switches):
    """Print the resolved rules: deck, seats and sides, shares, honours, trump order,
    dealing, target, tie and revoke rules."""
    rules = make_rules(preset, players, variants, rules_file)
    if switches:
        for flag in given("players", "variants", "rules_file"):
            raise CatchTenError(flag, "not with --switches",
                                "the switch table lists each switch's default for the preset; "
                                f"without --switches, catchten rules --{flag} ... shows the "
                                "rules in effect")
        from .rules import spell_value, switch_table
        table = switch_table(rules.preset)
        if as_json:
            emit_json(table)
            return
        for row in table:
            values = row["values"] if isinstance(row["values"], str) else \
                "|".join(spell_value(v) for v in row["values"])
            # one switch a paragraph: its name, values and default, then where it applies
            # and what it does, indented (wrapped to the terminal's width)
            echo(f"{row['name']}  {values}  (default {spell_value(row['default'])}; "
                 f"{row['section']})")
            echo(f"    {row['applies']}: {row['text']}")
        return
    d = rules.describe()
    if as_json:
        emit_json(d)
        return
    from .text import print_rules
    print_rules(d)


@cli.command("simulate")
@rules_options
@play_options("side 0 (seat 0 and partners)", pimc=True)
@click.option("--deals", "-d", type=int, default=1_000_000, show_default=True,
              help="Number of deals to simulate.")
@click.option("--seat-policy", "seat_policies", multiple=True, metavar="SEAT=POLICY",
              help="Policy of one seat, e.g. 2=random (repeatable).")
@RESULT_JSON_OPTION
@click.option("--out", "out_path", type=PathName(dir_okay=False), default=None,
              help="Also write one row per deal to FILE (.csv or .parquet).")
@PROGRESS_OPTION
@click.option("--report", "report_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR",
              help="Also write a report of this run to DIR (PDF, PNGs, CSVs, JSON; with "
                   "the player-count, variants and policy sweeps, as `catchten report`).")
@click.option("--force", is_flag=True,
              help="With --report: write into DIR even if it already holds files.")
@click.option("--games", "-g", type=int, default=None,
              help="Play N whole games to the target instead of deals: P(win) by who dealt "
                   "first, hands per game, how often the count-out order decided.")
@click.option("--first-dealer", type=str, default=None,
              help="With --games: rotate (game g: seat g mod n; the default), random, or a "
                   "seat number.")
@click.option("--start-score", "start_score", type=str, default=None, metavar="\"A B ...\"",
              help="With --games: each side's score at the start of every game (side "
                   "order; default 0s).")
@run_options("time_limit", "run_dir", "scheduler", "workers", "chunk", time_limit={
    "metavar": "SECONDS",
    "help": "Stop at about this many seconds (at most a tenth, or 1 s, over) with the "
            "deals finished, marked partial."})
def simulate_cmd(preset, players, rules_file, variants, deals, seed, policy, opponents,
                 seat_policies, as_json, out_path, progress, report_dir, force, games,
                 first_dealer, start_score, run):
    """Simulate DEALS deals and print the odds: P(Ten caught) with its 95% interval, and
    each position's expected honours, card points and hand total. With --games N: whole
    games to the target."""
    from pathlib import Path
    from .policies import seat_policies as make_policies
    from .simulate import DealWriter, simulate
    rules = make_rules(preset, players, variants, rules_file)
    pols = make_policies(rules, policy, opponents, seat_policy_flags(seat_policies))
    if games is None and first_dealer is not None:
        raise CatchTenError("first-dealer", "only with --games",
                            "a setting of whole games")
    if games is None and start_score is not None:
        raise CatchTenError("start-score", "only with --games",
                            "a setting of whole games")
    check_force(force, report_dir)
    if games is not None:
        if out_path or report_dir:
            raise CatchTenError("games", "not with --out/--report",
                                "--games prints game results only")
        if given("deals"):
            raise CatchTenError("deals", "not with --games",
                                "each game takes as many deals as it needs")
        from .games import simulate_games
        from .checks import MAX_DEALS, check_count
        games = check_count("games", games, 1, MAX_DEALS)
        fd = "rotate" if first_dealer is None else first_dealer.strip()
        start = None
        if start_score is not None:
            from .gamerollouts import parse_scores
            try:
                start = parse_scores(start_score, rules)
            except CatchTenError as exc:
                raise CatchTenError("start-score", exc.why, exc.detail) from None
        show = sys.stderr.isatty() if progress is None else progress
        bar = Progress(games, "games") if show else None
        try:
            with long_step(f"simulate: {games:,} whole games", progress) as step:
                gres = simulate_games(rules, pols, n_games=games, seed=seed,
                                      threads=run.threads, start_scores=start,
                                      first_dealer=int(fd) if fd.lstrip("-").isdigit() else fd,
                                      progress=bar.update if bar else None, **run.engine())
                step.append(not gres.interrupted)
        finally:
            if bar:
                bar.close()
        return print_games_result(gres, games, as_json, run.run_dir)
    if report_dir is not None:
        from .report import MIN_REPORT_DEALS, prepare_out_dir
        from .checks import check_count
        prepare_out_dir(report_dir, force, "report")   # fail before simulating, not after
        check_count("deals", deals, MIN_REPORT_DEALS)
    from .run import check_seconds, time_limit
    if run.time_limit is not None:
        check_seconds(run.time_limit)
    writer = DealWriter(out_path, rules.players) if out_path else None
    show = sys.stderr.isatty() if progress is None else progress
    bar = Progress(deals) if show else None
    engine = run.engine()
    if run.time_limit is not None and run.chunk is None:
        engine["chunk"] = TIMED_CHUNK       # small chunks: the limit is kept to a chunk
    try:
        with long_step(f"simulate: {deals:,} deals" if isinstance(deals, int) else
                       "simulate", progress) as step, time_limit(run.time_limit) as lim:
            res = simulate(rules, pols, n_deals=deals, seed=seed, threads=run.threads,
                           on_chunk=writer, progress=bar.update if bar else None,
                           **({"outputs": {"report": str(Path(report_dir).resolve())}}
                              if run.run_dir and report_dir else {}), **engine)
            step.append(not res.interrupted or bool(lim and lim.hit))
    finally:
        if bar:
            bar.close()
        if writer:
            writer.close()
    timed = lim is not None and lim.hit and res.n_deals < res.requested
    if timed:
        # stopped by --time (a result short of its deals says "interrupted" by itself)
        if as_json:
            emit_json({**res.to_dict(), "interrupted": False, "partial": "time limit"})
        print_simulation_result(res, as_json, run.run_dir, "time limit", printed=as_json)
    else:
        print_simulation_result(res, as_json, run.run_dir)
    if report_dir is not None:
        import time

        from .report import build_report
        t0 = time.perf_counter()
        rep = build_report(rules, pols, n_deals=res.n_deals, seed=seed, out_dir=report_dir,
                           threads=run.threads, main=res, force=True,
                           progress=say if show else None)
        # the header's time is the main run's: the report's sweeps and figures come on top
        echo(f"report: {len(rep.files)} files written to {rep.out_dir} in "
                   f"{time.perf_counter() - t0:.1f} s (its sweep runs and figures)", err=True)
    if res.interrupted and not timed:
        return 130          # like report, advise and odds: a script can tell it was cut short
    return None


@cli.command("resume")
@click.argument("run_dir", metavar="DIR", type=PathName(file_okay=False))
@run_options("threads", "scheduler", "workers", "time_limit", scheduler={
    "help": "Run the remaining chunks on a running Dask cluster."}, workers={
    "help": "Run the remaining chunks on a local Dask cluster of N processes."}, time_limit={
    "metavar": "SECONDS",
    "help": "Stop after the chunk that ends past this many seconds; the run directory stays "
            "resumable (a match or equity run: their own --time)."})
@RESULT_JSON_OPTION
@PROGRESS_OPTION
def resume_cmd(as_json, progress, run):
    """Finish the run in DIR (made by simulate, simulate --games, equity, match or report
    with --run-dir): run only the chunks not yet written there. The numbers equal those of
    an uninterrupted run with the same seed; with --time, those of the chunks done, and
    another resume goes on from there."""
    from .run import check_seconds, open_any
    run_dir, time_limit = run.run_dir, run.time_limit
    if time_limit is not None:
        check_seconds(time_limit)
    rd, finish = open_any(run_dir)
    kind = rd.manifest["kind"]
    show = sys.stderr.isatty() if progress is None else progress
    opts = {"threads": run.threads, "scheduler": run.scheduler, "workers": run.workers}
    if kind == "report":
        if time_limit is not None:
            raise CatchTenError("time", "not for a report run directory",
                                "a report is built once its runs are whole; resume it "
                                "without --time")
        from .report import files_state
        current, why = files_state(rd)
        out = rd.manifest.get("out")
        if current:
            check_run_options(**opts)
            echo(f"{run_dir}: the report is already finished and its files in {out} "
                       "are newer than its runs: nothing to run or draw (delete "
                       f"{os.path.join(str(out), 'report.json')} to draw them again)",
                       err=True)
            return None
        if why:
            echo(f"{run_dir}: every run is finished; drawing the report again "
                       f"({why})", err=True)
        rep = finish(rd, progress=say if show else None, **opts)
        echo(f"{rep.out_dir}: report finished from {run_dir}", err=True)
        return 130 if rep.sidecar.get("interrupted") else None
    # a finished run: nothing runs; its result is printed as `summarize` prints it (the
    # run's own times and executors, not those of this read)
    from .run.resume import resume_run
    done = rd.complete()
    if done:
        check_run_options(**opts)
    bar = Progress(int(rd.manifest["deals"]), "games" if kind == "games" else "deals") \
        if show and not done else None
    try:
        out = resume_run(rd, finish, done=done, time_limit=time_limit,
                         progress=bar.update if bar else None, **opts)
    finally:
        if bar:
            bar.close()
    res, done = out.result, out.done
    if done:
        echo(f"{run_dir}: the run is already finished (nothing to run); its result:",
                   err=True)
    from .writers import write_outputs
    outputs = rd.manifest.get("outputs") or {}
    files = write_outputs(kind, res, outputs)       # the files the command asked for
    code = print_run(kind, res, as_json, run_dir, rd, summary=done,
                      timed_out=out.timed_out, files=files)
    if kind == "simulate" and outputs.get("report") and not res.interrupted:
        from .report import report_state
        m = rd.manifest
        current, why = report_state(outputs["report"],
                                    {k: m.get(k) for k in ("rules", "seed", "deals")}, [rd],
                                    every_run=False)
        if current:
            echo(f"report: {outputs['report']} is newer than the run's chunks: not "
                       "made again", err=True)
            return code
        if why and done:
            echo(f"report: making it again ({why})", err=True)
        # simulate --report DIR: the report of the whole run (its sweeps run again)
        from .report import build_report
        rep = build_report(res.rules, res.policies, n_deals=res.n_deals, seed=res.seed,
                           out_dir=outputs["report"], threads=run.threads, main=res,
                           force=True,
                           progress=say if show else None)
        echo(f"report: {len(rep.files)} files written to {rep.out_dir}", err=True)
    return code


@cli.command("summarize")
@click.argument("run_dir", metavar="DIR", type=PathName(file_okay=False))
@RESULT_JSON_OPTION
@click.option("--sessions", is_flag=True,
              help="With --json: add compute_s and run_on (where and how long each session "
                   "ran; without it the JSON is the result alone, the same bytes for a "
                   "resumed run as for an uninterrupted one).")
def summarize_cmd(run_dir, as_json, sessions):
    """Print the result of the run in DIR from the chunks written there, without running
    anything (a run still going, or stopped, shows what finished so far)."""
    from .run import open_any
    rd, finish = open_any(run_dir, compute=False)
    kind = rd.manifest["kind"]
    if kind == "report":
        from .report import runs_status
        runs = runs_status(rd)
        if as_json:
            emit_json({"kind": "report", "out": rd.manifest.get("out"), "runs": runs})
            return None
        from .text import print_report_runs
        print_report_runs(run_dir, rd.manifest.get("out"), runs)
        return None
    return print_run(kind, finish(rd), as_json, run_dir, rd, summary=True,
                      sessions=sessions)


@cli.command("report")
@rules_options
@play_options("side 0 (seat 0 and partners)", pimc=True)
@click.option("--deals", "-d", type=int, default=1_000_000, show_default=True,
              help="Deals of the main run; each sweep run uses a fifth (at least 1,000).")
@click.option("--sweep-deals", type=int, default=None,
              help="Deals per sweep run (default: a fifth of --deals, at least 1,000).")
@click.option("--out", "out_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR",
              help="Directory to write (default: a new report-PRESET-Np/ in the working "
                   "directory). Only its last level is created.")
@click.option("--force", is_flag=True,
              help="Write into --out even if it already holds files (the earlier report "
                   "files there are replaced).")
@click.option("--format", "formats", type=str, default="pdf,png", show_default=True,
              help="Figure formats, comma-separated: pdf (one multi-page file), png "
                   "(one per figure, 150 dpi). CSVs and report.json are always written.")
@click.option("--sweep-players/--no-sweep-players", default=True, show_default=True,
              help="Run P(Ten caught) for every player count the preset allows.")
@click.option("--sweep-variants/--no-sweep-variants", default=True, show_default=True,
              help="Run the other presets and each switch that changes a deal.")
@click.option("--compare-policies/--no-compare-policies", default=True, show_default=True,
              help="Run heuristic and random play against each other.")
@run_option("progress", help="Say what is running on stderr (default: when stderr is a "
                              "terminal).")
@click.option("--from", "from_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR",
              help="Take the main run from a run directory (simulate --run-dir) instead of "
                   "simulating it: its rules, policies, seed and finished deals.")
@run_options("time_limit", "run_dir", "scheduler", "workers", "chunk", time_limit={
    "metavar": "SECONDS",
    "help": "Finish the whole report in about this many seconds (at most a tenth, or 1 s, "
            "over): the runs stop in time for the figures, which say so."})
def report_cmd(preset, players, rules_file, variants, deals, sweep_deals, seed, policy,
               opponents, out_dir, force, formats, sweep_players, sweep_variants,
               compare_policies, progress, from_dir, run):
    """Simulate and write a report: one multi-page PDF, a PNG per figure, the numbers
    behind every figure as CSV and a JSON sidecar (rules, policies, deals, seed, versions).

    Figures: headline numbers and rules; P(Ten caught) by player count; a side's points;
    seat advantage by position; convergence; the Ten's fate by its holder's position and
    trumps; the value of a holding; rule variants compared; policies compared.
    """
    from .report import build_report, parse_formats
    from .policies import seat_policies as make_policies
    fmts = parse_formats(formats)
    main = None
    if from_dir is not None:
        for flag in given("preset", "players", "rules_file", "variants"):
            raise CatchTenError(flag, "not with --from", "--from gives the main run's rules")
        for flag in given("policy", "opponents", "seed", "deals", "run_dir"):
            raise CatchTenError(flag, "not with --from", "--sweep-deals sets the sweeps' "
                                "deals" if flag == "deals" else f"--from gives the main "
                                f"run's {flag}")
        from .simulate import summarize
        try:
            main = summarize(from_dir)
        except CatchTenError as e:      # its errors name the directory: here, --from
            raise CatchTenError("from", e.why, e.detail) from None
        rules, pols = main.rules, main.policies
    else:
        rules = make_rules(preset, players, variants, rules_file)
        pols = make_policies(rules, policy, opponents)
    show = sys.stderr.isatty() if progress is None else progress
    with long_step(f"report: the main run, its sweeps and the figures (into "
                   f"{out_dir or 'a new report directory'})", progress) as step:
        rep = build_report(rules, pols, n_deals=deals, seed=seed, out_dir=out_dir,
                           formats=fmts, sweep_players=sweep_players,
                           sweep_variants=sweep_variants, compare_policies=compare_policies,
                           sweep_deals=sweep_deals, threads=run.threads, force=force,
                           progress=say if show else None, main=main, run_dir=run.run_dir,
                           scheduler=run.scheduler, workers=run.workers, chunk=run.chunk,
                           unfinished_from=from_dir, time_limit=run.time_limit)
        step.append(rep.sidecar.get("stopped_by") != "Ctrl-C")
    from .text import print_report_files
    print_report_files(rep)
    if rep.sidecar.get("interrupted"):
        left = rep.sidecar.get("left_out") or []
        timed = rep.sidecar.get("stopped_by") == "time limit"
        echo(f"{'time limit' if timed else 'interrupted'}: stopped after "
             f"{rep.sidecar['interrupted_after_deals']:,} deals in all (main run and sweeps): "
             "the report shows what ran and says so on every figure"
             + (f"; left out: {', '.join(left)}" if left else "")
             + (f"; finish with: catchten resume {run.run_dir}" if run.run_dir else ""),
             err=True)
        return None if timed else 130
    if rep.sidecar.get("unfinished_from"):
        echo(f"unfinished: the run in {from_dir} has {main.n_deals:,} of "
                   f"{main.requested:,} deals; the report shows those and says so; finish "
                   f"the run with: catchten resume {from_dir}", err=True)


@cli.command("score")
@click.argument("record", type=PathName(dir_okay=False, allow_dash=True))
@JSON_OPTION
def score_cmd(record, as_json):
    """Score a hand record or a game record (JSON, docs/formats.md): tricks, honours, card
    points, the Ten's fate, revokes; for games the running totals and the winner."""
    from . import records
    with errors_as_json(as_json):
        data = records.load_record(record)
        result = records.score_any(data)
    if as_json:
        emit_json(result)
    else:
        from .text import print_score
        print_score(result)


@cli.command("solve")
@click.argument("records", nargs=-1, required=True, metavar="RECORD...",
                type=PathName(dir_okay=False, allow_dash=True))
@click.option("--line", "with_line", is_flag=True,
              help="Also show one optimal line of play to the end of the deal.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per record and line.")
@click.option("--max-nodes", type=click.IntRange(1, 10 ** 15), default=None, metavar="N",
              help="The node budget of each solve (default 200,000,000, about a minute); a "
              "solve that reaches it prints each card's proven range instead of its value.")
@click.option("--time", "time_limit", type=float, default=None, metavar="SECONDS",
              help="Stop each solve after this many seconds (the first counted from the "
              "command's start, less a one-time engine compile) with the ranges proven so far.")
def solve_cmd(records, with_line, as_json, max_nodes, time_limit):
    """Double-dummy values (all hands visible, best play by all) of the position where each
    hand record's play stops: every legal card's final score difference for the deal (the
    mover's side minus the opponents, together with 3+ sides), the best card(s) and, with
    --line, an optimal line.

    Each RECORD is a hand record (docs/formats.md "Hand record": every seat's cards, the
    turn-up, the play so far; - for stdin), e.g. tests/cases/dd/*.json. A bad record gets
    its error line and the others are still solved (exit 2 at the end). A solve stopped
    early (--max-nodes, --time, Ctrl-C) prints each card's proven range (lowest and highest
    value it can have) and says so; Ctrl-C then stops after that record (exit 130)."""
    from . import records as rec_mod
    from .compile_notice import process_started
    from .solve import solve
    from .text import print_solution
    with errors_as_json(as_json):       # Ctrl-C: the JSON "interrupted" object with --json
        failed = 0
        for i, path in enumerate(records):
            try:
                data = rec_mod.load_record(path)
                nodes = {} if max_nodes is None else {"max_nodes": max_nodes}
                # the first solve's --time counts from the command's start
                sol = solve(data, line=with_line, time_limit=time_limit, interruptible=True,
                            clock_start=None if i else process_started(), **nodes)
            except CatchTenError as exc:
                # a bad record gets its one line and the others are still solved; exit 2 at
                # the end (with --json the error object takes the record's line); 1 when
                # the only failures are solves beyond the node budget
                failed = max(failed, exc.exit_status)
                if as_json:
                    click.echo(json.dumps(exc.to_dict(), ensure_ascii=False))
                else:
                    where = f"{path}: " if len(records) > 1 else ""
                    click.echo(f"error: {where}{one_line(exc.line())}", err=True)
                continue
            if as_json:
                click.echo(json.dumps(sol.to_dict(), ensure_ascii=False))
            else:
                if len(records) > 1:
                    echo(f"== {path}")
                print_solution(sol, data, with_line)
            if sol.stopped_by == "interrupted":
                stop, left = KeyboardInterrupt(), len(records) - i - 1
                stop.line = ("interrupted (Ctrl-C): the ranges shown are what the solve had "
                             "proven" + (f"; {left} more not solved" if left else ""))
                raise stop                  # its line says what was shown (cli_kit)
    return failed or None


# ---------------------------------------------------------------------------- advise / odds
@cli.command("advise")
@click.argument("position", required=False, type=PathName(dir_okay=False, allow_dash=True))
@rules_options
@play_options("your side in the rollouts", pimc=True)
@position_options
@ADVISE_EVALUATOR_OPTIONS
@click.option("--samples", type=int, default=20_000, show_default=True,
              help="At most this many sampled deals (every legal card is played on each).")
@run_option("time_limit", default=30.0, show_default=True,
            help="Seconds at most, from the command's start, less a one-time engine compile; the "
                 "answer follows within about 1 s (dd: a solve under way stops, bounds kept).")
@click.option("--early-stop/--no-early-stop", "stop_early", default=True, show_default=True,
              help="Stop once the best card is separated from the second (or within the "
                   "practical margin of it) at 95%, with intervals valid under early "
                   "stopping; --no-early-stop runs all --samples (fixed-sample intervals).")
@click.option("--margin", type=float, default=None,
              help="Practical margin in the objective's units (default 0.25 points; 0.01 "
                   "for p_win): best two cards whose paired 95% interval lies inside "
                   "±margin are reported as 'no practical difference'.")
@PROGRESS_OPTION
@click.option("--objective", type=click.Choice(["diff", "points", "p_win"]), default=None,
              help="What 'best' means: p_win (default with --score: P(winning the game) "
                   "from the game-equity table), diff (our side's points minus the "
                   "opponents', the best of them with 3+ sides; default without a score), or "
                   "points.")
@click.option("--explain", "explain_n", type=int, default=None, is_flag=False,
              flag_value=3, metavar="[N]",
              help="Also print N sampled deals (default 3, at most 100) with the line played "
                   "after the recommended card.")
@JSON_OPTION
def advise_cmd(position, preset, players, rules_file, variants, dealer, seat, hand, turnup,
               play, score, trump, dead, policy, opponents, evaluator, infer, only, exact_max,
               samples, time_limit, stop_early, margin, progress, objective, seed, threads,
               explain_n, as_json):
    """Which card to play: every legal card evaluated on the same sampled deals.

    POSITION is a docs/formats.md position JSON file (- for stdin; --score may go with it and
    overrides its "score"), or give the position with flags, e.g.

    \b
    catchten advise --players 4 --dealer 3 --seat 0 --turnup 7S \\
        --hand "JS AS 9S KH QH 7D 8C 9C TC" --play ""

    For each card: our side's hand points and those minus the opponents' (the best of them
    with 3+ sides), P(the Ten ends with us), P(we catch it), P(they catch ours), card
    points, with 95% intervals; the best card and its paired margin over the second; on lead
    with trumps, "lead a trump or not?". Sampling stops when the best card is separated from
    the second at 95% or within --margin of it, and so is the trump lead when asked, or at
    --samples / --time (the output says which); intervals are valid under early stopping
    (alpha spent over the planned looks). With dd a solve stopped early counts with proven
    bounds (intervals span them). Ctrl-C prints what finished, marked partial (exit 130).
    """
    from .advise import advise
    from .compile_notice import process_started
    from .explain import MAX_EXPLAIN, explain
    from .checks import check_count
    if explain_n is not None:           # before the advice is computed
        check_count("explain", explain_n, 1, MAX_EXPLAIN)
    show = sys.stderr.isatty() if progress is None else progress
    bar = Progress(samples, "samples") if show and not as_json else None
    try:
        with errors_as_json(as_json):
            pos = load_position(position, preset, players, rules_file, variants, dealer,
                                 seat, hand, turnup, play, score, dead, trump)
            start = process_started()    # --time and the times said count from it
            with long_step(f"advise: every legal card by {evaluator}", progress, start) as step:
                res = advise(pos, policy=policy, opponents=opponents, evaluator=evaluator,
                             samples=samples, time_limit=time_limit, seed=seed, threads=threads,
                             objective=objective, stop_early=stop_early, margin=margin,
                             exact_max=exact_max, infer=infer, cards=only, clock_start=start,
                             progress=bar.update if bar else None)
                step.append(not res.partial)
            deals = explain(res, explain_n) if explain_n and not res.partial else None
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        d = res.to_dict()
        if deals is not None:
            d["explain"] = deals
        emit_json(d)
    else:
        from .text import print_advice, print_explain
        print_advice(res)
        if deals is not None:
            print_explain(res, deals)
    return 130 if res.partial else None


@cli.command("odds")
@rules_options
@play_options("your side")
@click.option("--hand", type=str, required=True, metavar="\"CARDS\"",
              help="Your cards at the deal (with six-card sets: your first set).")
@turnup_option(True)
@click.option("--seat", type=int, default=None,
              help="Your seat (0 … n-1); default: the eldest hand (left of the dealer).")
@click.option("--dealer", type=int, default=None,
              help="The dealer's seat; default n-1 (so seat 0 is eldest).")
@DEAD_OPTION
@click.option("--deals", "-d", type=int, default=20_000, show_default=True,
              help="Sampled deals consistent with your hand and the turn-up.")
@PROGRESS_OPTION
@JSON_OPTION
def odds_cmd(preset, players, rules_file, variants, hand, turnup, seat, dealer, dead, policy,
             opponents, deals, seed, threads, progress, as_json):
    """The odds of a hand at the deal, before any card is played: our side's hand points
    (distribution), P(our side ends with the Ten), P(we lose our Ten) when we hold it,
    expected card points, with 95% intervals. Ctrl-C prints the deals finished, marked
    partial (exit 130).
    """
    from .odds import odds
    from .cards import parse_card, parse_cards
    show = sys.stderr.isatty() if progress is None else progress
    bar = Progress(deals if isinstance(deals, int) else 0) if show and not as_json else None
    try:
        with errors_as_json(as_json):
            rules = make_rules(preset, players, variants, rules_file)
            if turnup is None:
                raise CatchTenError("turnup", "missing",
                                    "the odds need it: add --turnup "
                                    "CARD, e.g. --turnup 7S")
            n = rules.players
            if dealer is None:
                dealer = n - 1
            if seat is None:
                seat = (dealer + 1) % n if isinstance(dealer, int) and 0 <= dealer < n else 0
            res = odds(rules, parse_cards(cards_flag(hand), "hand"),
                       parse_card(turnup, "turnup"), seat=seat, dealer=dealer,
                       dead=parse_cards(cards_flag(dead), "dead"), policy=policy,
                       opponents=opponents, n_deals=deals, seed=seed, threads=threads,
                       progress=bar.update if bar is not None else None)
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        emit_json(res.to_dict())
    else:
        from .text import print_odds
        print_odds(res)
    return 130 if res.partial else None


# ---------------------------------------------------------------------------- match
_MATCH_HELP = f"""Is strategy A better than B? A duplicate match: every deal played with A on side 0
    and B on the others, then swapped (with three or more sides, every rotation), on the
    same cards; the mean point difference per deal (A minus B) with its 95% interval, made
    narrower by a control variate fitted on a separate pilot (the deals saved against plain
    play, intervals and standard errors: from 30 rounds on). Ctrl-C keeps what finished.

    A and B are strategies: {", ".join(POLICY_NAMES)}, pimc[:N] (N sampled deals a decision,
    default 50; slow) or ipimc[:N] (pimc on deals weighted by what the others' cards
    show), e.g. catchten match pimc:10 heuristic --deals 200."""


@cli.command("match", help=_MATCH_HELP)
@click.argument("a")
@click.argument("b")
@rules_options
@click.option("--deals", "-d", type=int, default=100_000, show_default=True,
              help="Most deals, each played in every seating (rounded up to whole rounds "
                   "of one deal per dealer).")
@run_option("seed")
@run_option("threads")
@run_option("time_limit", help="Stop after this many seconds (whole chunks; a first run's "
                               "one-time compile of the engine not counted).")
@click.option("--precision", type=float, default=None,
              help="Stop at the first look whose 95% interval's half-width is at most this "
                   "many points per deal (not before, even when the interval excludes 0).")
@click.option("--pilot", type=int, default=None,
              help="Deals of the separate pilot set the control variate is fitted on "
                   "(0: none; default 2,000, or 0 when a side is pimc).")
@click.option("--early-stop/--no-early-stop", "stop_early", default=True, show_default=True,
              help="Stop at the first look whose interval excludes 0 (with --precision: "
                   "whose half-width reaches it).")
@PROGRESS_OPTION
@click.option("--report", "report_dir", type=PathName(file_okay=False), default=None,
              metavar="DIR", help="Also write match.json, match.txt and match.png to DIR.")
@click.option("--force", is_flag=True,
              help="With --report: write into DIR even if it already holds files.")
@click.option("--p-win-game", "p_win_game", is_flag=True,
              help="Also P(A wins a game from 0-0): through the game-equity table of each "
                   "seating where it can be built (two or three sides, kernel policies; "
                   "cached, minutes on a cold cache), else by game rollouts from 0-0 (se).")
@JSON_OPTION
@run_options("run_dir", "scheduler", "workers")
def match_cmd(a, b, preset, players, rules_file, variants, deals, seed,
              precision, pilot, stop_early, progress, report_dir, force, p_win_game,
              as_json, run):
    from pathlib import Path
    from .match import match
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    try:
        with errors_as_json(as_json), fields_as({"a": "A", "b": "B"}):
            rules = make_rules(preset, players, variants, rules_file)
            check_force(force, report_dir)
            if report_dir is not None:
                from .report import prepare_out_dir
                prepare_out_dir(report_dir, force, "report")
            warn_small_pilot(pilot)
            bar = Progress(max(deals, 1) if isinstance(deals, int) else 0) if show else None
            with long_step(f"match: {a} against {b}", progress) as step:
                res = match(rules, a, b, deals=deals, seed=seed, threads=run.threads,
                            time_limit=run.time_limit, precision=precision, pilot=pilot,
                            stop_early=stop_early, progress=bar.update if bar else None,
                            **({"outputs": {"report": str(Path(report_dir).resolve())}}
                               if run.run_dir and report_dir else {}), **run.engine())
                step.append(res.stop != "interrupted")
    finally:
        if bar is not None:
            bar.close()
    d = res.to_dict()
    if p_win_game:
        from .match import game_p_win_detail
        with errors_as_json(as_json), fields_as({"a": "A", "b": "B"}):
            g = game_p_win_detail(rules, a, b, seed=seed, threads=run.threads)
            d["p_win_game"] = g["p"]
            d["p_win_game_se"] = g["se"]
            d["p_win_game_method"] = g["method"]
    if report_dir is not None:
        from .writers import write_match_report
        d["report"] = write_match_report(res, report_dir)
    return print_match_result(res, d, as_json, run.run_dir, report_dir)


# ---------------------------------------------------------------------------- equity
@cli.command("equity")
@rules_options
@play_options("side 0 (seat 0 and partners)")
@click.option("--hands", type=int, default=None,
              help="Simulated deals the per-deal outcome distribution is estimated from "
                   "(default 1,000,000 with two sides; with three sides, whose table is "
                   "41^3 states, 200,000, or 50,000 with six-card sets: a few minutes).")
@click.option("--out", "out_path", type=PathName(dir_okay=False), default=None,
              help="Write the table: .csv or .parquet; columns score_0, score_1, "
                   "dealer_side, p_win_0, p_win_1.")
@click.option("--plot", is_flag=True,
              help="Also write a heatmap PNG next to the table (two sides; needs --out).")
@click.option("--cache/--no-cache", default=True, show_default=True,
              help="Reuse / store the table in the cache directory ($CATCHTEN_CACHE_DIR, "
                   "default ~/.cache/catchten_sim); advise --score reads it.")
@click.option("--scores", "scores", multiple=True, metavar="\"A B ...\"",
              help="Each side's score before a deal (side order; repeatable): P(win) at "
                   "these states only. Needed with 4 or more sides.")
@click.option("--dealer", type=int, default=0, show_default=True,
              help="With --scores: the seat that deals next.")
@click.option("--method", type=click.Choice(["exact", "rollouts"]), default=None,
              help="With --scores: exact (the DP table; 2 sides, or 3 with tie=count_out) "
                   "or rollouts (games played out from each state, with se); default: "
                   "exact where it can be.")
@click.option("--games", type=int, default=None,
              help="With --method rollouts: games played out per state (default 10,000: "
                   "se <= 0.005).")
@PROGRESS_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary (errors too).")
@run_options()
def equity_cmd(preset, players, rules_file, variants, hands, seed, policy, opponents,
               out_path, plot, cache, scores, dealer, method, games, progress, as_json, run):
    """The game-equity table: P(each side wins the game | scores before a deal, who deals),
    exact by dynamic programming over the deal outcomes of HANDS simulated deals (2 sides;
    3 sides with tie=count_out). With --scores, P(win) at those states, at any number of
    sides: from the table, or by game rollouts (4 or more sides, or --method rollouts).
    Ctrl-C while the deals are simulated solves from the deals finished, marked partial
    (exit 130)."""
    from pathlib import Path
    from .equity import cached_equity_table, equity_table
    from .policies import seat_policies as make_policies
    show = sys.stderr.isatty() if progress is None else progress
    bar = None
    if scores or method or games is not None:
        return _equity_states(preset, players, rules_file, variants, hands, seed, policy,
                              opponents, out_path, plot, scores, dealer, method, games,
                              as_json, run)
    try:
        with errors_as_json(as_json):
            rules = make_rules(preset, players, variants, rules_file)
            pols = make_policies(rules, policy, opponents)
            if rules.n_sides >= 4:
                raise CatchTenError("scores", "needed with 4 or more sides",
                                    f"{rules.n_sides} sides: the full table is 2-3 sides "
                                    f"only; name states with --scores "
                                    f"\"{' '.join(['0'] * rules.n_sides)}\" (game rollouts)")
            if plot and not out_path:
                raise CatchTenError("plot", "needs --out", "the PNG is written next to the table")
            if plot and rules.n_sides != 2:
                raise CatchTenError("plot", "two sides only", f"{rules.n_sides} sides")
            if out_path and Path(out_path).suffix.lower() not in (".csv", ".parquet"):
                raise CatchTenError("out", "unknown file type",
                                    f"{Path(out_path).name}: use a .csv or .parquet file name")
            if out_path:
                from .paths import ensure_parent
                ensure_parent(out_path)         # refused before the run, not after it
            from .equity import default_equity_hands
            from .equity import MAX_EQUITY_HANDS
            from .checks import check_count
            if hands is None:
                hands = default_equity_hands(rules)
            hands = check_count("hands", hands, 1, MAX_EQUITY_HANDS)
            if show and not as_json:
                bar = Progress(hands if isinstance(hands, int) else 0)

            def solving(k: int, est: float) -> None:
                nonlocal bar
                if bar is not None:
                    bar.close()
                    bar = None
                if show and not as_json and est >= 2:
                    echo(f"solving the game-equity DP over {k:,} distinct deal outcomes "
                         f"(about {est:.0f} s; Ctrl-C stops it, without a table)", err=True)

            extra: dict[str, Any] = {}
            if any(x is not None for x in (run.run_dir, run.scheduler, run.workers, run.chunk)):
                # the cache is for plain runs
                build = equity_table
                extra = run.engine()
                if run.run_dir and out_path:        # catchten resume writes them too
                    extra["outputs"] = {"out": str(Path(out_path).resolve()),
                                        "plot": bool(plot)}
            else:
                build = cached_equity_table if cache else equity_table
            with long_step(f"equity: simulating {hands:,} deals, then solving the "
                           "game-equity DP", progress) as step:
                eq = build(rules, pols, n_hands=hands, seed=seed, threads=run.threads,
                           progress=bar.update if bar is not None else None,
                           on_solve=solving, **extra)
                step.append(eq.stopped != "interrupted")
            from .writers import write_equity
            summary = write_equity(eq, eq.to_dict(), out_path, plot)
    finally:
        if bar is not None:
            bar.close()
    return print_equity_result(eq, summary, as_json, run.run_dir)

# ---------------------------------------------------------------------------- serve
@cli.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (another than 127.0.0.1 prints a warning: the page "
                   "has no login).")
@click.option("--port", type=int, default=8765, show_default=True, help="Port.")
@click.option("--no-browser", is_flag=True, help="Do not open the page in a browser.")
@click.option("--workers", type=int, default=None,
              help="Worker processes for the advice (default 2, 1 on one core).")
def serve_cmd(host, port, no_browser, workers):
    """The analysis page: set up a position by clicking, see every legal card valued by
    rollouts and double-dummy side by side, play through a deal (docs/serve.md)."""
    from .serve import run_server
    run_server(host, port, open_browser=not no_browser, workers=workers,
               say=lambda msg: echo(msg, err=msg.startswith("warning")))


def _equity_states(preset, players, rules_file, variants, hands, seed, policy, opponents,
                   out_path, plot, scores, dealer, method, games, as_json, run):
    """``catchten equity --scores``: P(win) at the named states (exact or rollouts)."""
    from .equity import equity_states
    from .gamerollouts import parse_scores
    from .policies import seat_policies as make_policies
    with errors_as_json(as_json):
        rules = make_rules(preset, players, variants, rules_file)
        pols = make_policies(rules, policy, opponents)
        if not scores:
            raise CatchTenError("scores", "needed", "--method/--games name states: give "
                                "--scores \"" + " ".join(["0"] * rules.n_sides) + "\"")
        if out_path or plot:
            raise CatchTenError("out", "not with --scores", "--out/--plot write the full table")
        if games is not None and method != "rollouts" and (
                method == "exact" or rules.n_sides <= 3):
            raise CatchTenError("games", "only with --method rollouts",
                                "the exact table is built from --hands deals")
        n = rules.players
        if isinstance(dealer, bool) or not 0 <= dealer < n:
            raise CatchTenError("dealer", "out of range", f"dealer={dealer} (a seat 0 … {n - 1})")
        states = [(parse_scores(t, rules), dealer) for t in scores]
        from .checks import check_count
        kw = {} if games is None else {"n_games": check_count("games", games, 1, 10 ** 9)}
        d = equity_states(rules, pols, states, method=method, n_hands=hands, seed=seed,
                          threads=run.threads, **kw)
    if as_json:
        emit_json(d)
        return None
    from .text import print_equity_states
    print_equity_states(d)
    return None


def main() -> None:
    """Console-script entry point.

    The objects made by the imports (numba's, most of them) live as long as the process:
    frozen (``gc.freeze``), the cyclic collector's full passes no longer walk them (0.1 to
    0.25 s of a one-second ``advise``). Only here, where the process is ours: the API and
    click's test runner leave the collector as it is."""
    gc.freeze()
    cli.main(prog_name="catchten")


if __name__ == "__main__":  # pragma: no cover
    main()

