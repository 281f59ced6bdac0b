"""Result files the commands write besides their text: a match's report (match.json,
match.txt, match.png) and an equity table with its heatmap. Writing and drawing only: the
numbers come from the results (:mod:`catchten_sim.report` writes the simulation report)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def write_match_report(res: Any, out_dir: str | Path) -> list[str]:
    """match.json, match.txt and match.png (plotting.plot_matches) in ``out_dir``; returns
    the files' names."""
    import pandas as pd
    from .plotting import plot_matches
    out = Path(out_dir)
    files = []
    (out / "match.json").write_text(json.dumps(res.to_dict(), indent=2, allow_nan=False) + "\n")
    (out / "match.txt").write_text(res.to_text() + "\n")
    lo, hi = res.ci95
    frame = pd.DataFrame({"label": [f"{res.a.label} vs {res.b.label}"],
                          "mean": [res.mean_difference], "lo": [lo], "hi": [hi]})
    stamp = (f"INTERRUPTED (Ctrl-C) after {res.deals:,} of {res.requested:,} deals"
             if res.stop == "interrupted" else
             f"UNFINISHED run directory: {res.deals:,} of {res.requested:,} deals (finish "
             "it: catchten resume DIR)" if res.stop == "unfinished" else None)
    fig = plot_matches(frame, footer=f"{res.rules.label()}; {res.deals:,} deals x "
                                      f"{len(res.seatings)} seatings; seed {res.seed}",
                       estimate="duplicate + control variate" if res.control_variate_used
                       else "duplicate", stamp=stamp)
    fig.savefig(out / "match.png", dpi=150)
    for name in ("match.json", "match.txt", "match.png"):
        files.append(str(out / name))
    return files


def write_equity(eq: Any, summary: dict[str, Any], out_path: str | Path | None,
                 plot: bool) -> dict[str, Any]:
    """Write an equity table to ``out_path`` (.csv/.parquet) and, with ``plot``, its
    heatmap next to it; ``summary`` (its JSON) gets the files' names and is returned."""
    if out_path:
        summary[Path(out_path).suffix.lower()[1:]] = str(eq.to_csv(out_path))
    if out_path and plot:
        from .plotting import plot_equity
        png = Path(out_path).with_suffix(".png")
        fig = plot_equity(eq.to_frame(),
                          footer=f"{eq.rules.label()}; "
                                 f"{', '.join(p.label for p in eq.policies)}; "
                                 f"{eq.n_hands:,} deals; seed {eq.seed}"
                                 + ("; PARTIAL (interrupted)" if eq.partial else ""))
        fig.savefig(png, dpi=150)
        summary["png"] = str(png)
    return summary


def write_outputs(kind: str, res: Any, outputs: dict[str, Any]) -> dict[str, Any]:
    """Write again the files a run's command asked for besides its result (a run
    directory's manifest ``outputs``, for ``catchten resume``): an equity run's table
    (``out``, with ``plot`` its heatmap), a match's report (``report``); returns the
    files' names by type (the keys its JSON gets). A simulation's report is the
    command's to rebuild."""
    if kind == "equity" and outputs.get("out"):
        return write_equity(res, {}, outputs["out"], bool(outputs.get("plot")))
    if kind == "match" and outputs.get("report"):
        from .report import prepare_out_dir
        prepare_out_dir(outputs["report"], force=True)
        return {"report": write_match_report(res, outputs["report"])}
    return {}
