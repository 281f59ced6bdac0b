"""Result files the commands write besides their text: a match's report (match.json,
match.txt, match.png) and an equity table with its heatmap. Writing and drawing only: the
numbers come from the results. For the simulation report (:mod:`catchten_sim.report`,
which computes it): its output directory, its figures' files and its ``report.json``."""
from __future__ import annotations

import json
import math
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from .errors import CatchTenError

if TYPE_CHECKING:
    import pandas as pd

PNG_DPI = 150
#: each figure's number, the same whichever figures a report holds (a report without the
#: sweeps, or cut short by Ctrl-C, keeps the numbers of the full report)
FIGURE_NUMBERS = {"summary": 1, "ten_by_players": 2, "points_distribution": 3,
                  "seat_advantage": 4, "convergence": 5, "fate_by_holder": 6,
                  "holding_value": 7, "variants": 8, "policies": 9}


def prepare_out_dir(out_dir: str | Path, force: bool = False, field: str = "out") -> Path:
    """Create ``out_dir`` (only its last level) and check that files can be written in it.

    Parameters
    ----------
    out_dir : path
    force : bool
        Write into a directory that already holds files (the report files of an earlier
        run there are replaced; other files are left alone).
    field : str
        The option's name in the error (``out`` for ``report --out``, ``report`` for
        ``--report DIR``).

    Raises
    ------
    CatchTenError
        ``<field>: not empty`` (without ``force``), ``<field>: cannot write`` naming the
        directory and the reason (a file, a missing parent, no permission).
    """
    from .paths import ensure_dir, is_empty_dir
    path = Path(out_dir)
    if not force and path.is_dir() and not is_empty_dir(path):
        raise CatchTenError(field, "not empty",
                            f"{path} already holds files; choose a new directory, or add "
                            "--force to replace the report in it")
    ensure_dir(path, field)
    try:
        probe = path / ".catchten-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise CatchTenError(field, "cannot write",
                            f"{path}: {exc.strerror or type(exc).__name__}") from None
    return path


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
        prepare_out_dir(outputs["report"], force=True)
        return {"report": write_match_report(res, outputs["report"])}
    return {}


# ------------------------------------------------- the simulation report's files
def write_report_sidecar(out: Path, written: list[Path], sidecar: dict[str, Any],
                         t0: float) -> None:
    """Write ``report.json`` (``sidecar`` with the files and the run time filled in) and
    remove the files of an earlier report that this one did not write."""
    json_path = out / "report.json"
    written.append(json_path)
    _remove_stale(out, {p.name for p in written})
    sidecar["files"] = sorted(p.name for p in written)
    sidecar["run_time_s"] = round(time.perf_counter() - t0, 3)
    json_path.write_text(json.dumps(_clean(sidecar), indent=2, ensure_ascii=False,
                                    allow_nan=False) + "\n", encoding="utf-8")


def write_report_figures(out: Path, specs: list[tuple[str, pd.DataFrame, Callable, dict]],
                         figs_formats: tuple[str, ...], stamp: str | None,
                         pdf_metadata: dict[str, Any], say: Callable[[str], None]
                         ) -> tuple[list[Path], list[dict], dict[str, pd.DataFrame]]:
    """Draw every figure of ``specs`` and write its CSV, PNG and PDF page; returns the files
    written, the figures' sidecar entries and the tables by name."""
    written: list[Path] = []
    figures: list[dict] = []
    tables: dict[str, pd.DataFrame] = {}
    pdf = None
    if "pdf" in figs_formats:
        from matplotlib.backends.backend_pdf import PdfPages
        pdf = PdfPages(out / "report.pdf", metadata=pdf_metadata)
    try:
        for page, (name, df, fn, style) in enumerate(specs, start=1):
            stem = f"fig{FIGURE_NUMBERS[name]:02d}_{name}"
            if stamp:
                style = {**style, "stamp": stamp}
            say(f"figure {page}: {name}")
            fig = fn(df, **style)
            csv_path = out / f"{stem}.csv"
            _write_csv(df, csv_path)
            written.append(csv_path)
            tables[name] = df
            entry = {"name": name, "page": page if pdf is not None else None,
                     "title": style.get("title"), "csv": csv_path.name, "png": None}
            if "png" in figs_formats:
                png_path = out / f"{stem}.png"
                fig.savefig(png_path, dpi=PNG_DPI, metadata={"Software": None})
                written.append(png_path)
                entry["png"] = png_path.name
            if pdf is not None:
                pdf.savefig(fig)
            figures.append(entry)
    finally:
        if pdf is not None:
            pdf.close()
    if pdf is not None:
        written.append(out / "report.pdf")
    return written, figures, tables


_OURS = re.compile(r"^(fig\d\d_[a-z_]+\.(png|csv)|report\.(pdf|json))$")


def _remove_stale(out: Path, keep: set[str]) -> None:
    """Remove report files of an earlier run that this run did not write (so that the
    directory holds exactly one report); other files are left alone."""
    for p in out.iterdir():
        if p.is_file() and _OURS.match(p.name) and p.name not in keep:
            p.unlink()


def _clean(obj: Any) -> Any:
    if isinstance(obj, float):
        return None if math.isnan(obj) or math.isinf(obj) else obj
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item"):  # numpy scalars
        return _clean(obj.item())
    return obj


def _write_csv(df: pd.DataFrame, path: Path) -> None:
    df.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
