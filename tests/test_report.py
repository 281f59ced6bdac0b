"""The report layer: tables, figures, files, CLI (catchten report, simulate --report).

One small report (4,000 deals, sweeps of 1,000) is built once per module and inspected;
a second build checks that the same seed rewrites the same files.
"""
from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from catchten_sim import plotting as P
from catchten_sim import tables as T
from catchten_sim.cli import cli
from catchten_sim.report import FIGURES, build_report, parse_formats, variant_rules
from catchten_sim.rules import Rules

# xdist: the report (module fixture) is drawn once, on one worker
pytestmark = pytest.mark.xdist_group("report")

DEALS = 4_000
SEED = 3


def _invoke(args):
    return CliRunner().invoke(cli, args, catch_exceptions=False)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "foster-4p"
    return build_report(Rules("foster", 4), "heuristic", n_deals=DEALS, seed=SEED,
                        out_dir=out)


@pytest.fixture(scope="module")
def sim_json():
    res = _invoke(["simulate", "--deals", str(DEALS), "--seed", str(SEED), "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_every_figure_file_exists_and_is_not_empty(report):
    names = {p.name for p in report.files}
    for i, name in enumerate(FIGURES, start=1):
        for ext in ("png", "csv"):
            f = report.out_dir / f"fig{i:02d}_{name}.{ext}"
            assert f.name in names and f.stat().st_size > 0, f
    for f in ("report.pdf", "report.json"):
        assert (report.out_dir / f).stat().st_size > 0
    assert sorted(p.name for p in report.out_dir.iterdir()) == sorted(names)


def test_pdf_has_one_page_per_figure_and_no_dates(report):
    from pypdf import PdfReader
    pdf = PdfReader(report.out_dir / "report.pdf")
    assert len(pdf.pages) == len(FIGURES)
    meta = pdf.metadata or {}
    assert "/CreationDate" not in meta and "/ModDate" not in meta
    assert "foster 4p" in str(meta.get("/Title"))


def test_png_is_150_dpi(report):
    from PIL import Image
    with Image.open(report.out_dir / "fig02_ten_by_players.png") as im:
        assert im.size == (1500, 938) or im.size[0] == 1500
        dpi = im.info.get("dpi", (150, 150))
        assert round(dpi[0]) == 150


def test_csv_matches_simulate_json(report, sim_json):
    s = pd.read_csv(report.out_dir / "fig01_summary.csv")
    ten = s[(s.section == "ten") & (s.quantity == "ten_caught")].iloc[0]
    assert ten.estimate == pytest.approx(sim_json["ten"]["p_caught"], abs=1e-9)
    assert [ten.lo, ten.hi] == pytest.approx(sim_json["ten"]["wilson95"], abs=1e-9)
    assert int(ten.n) == sim_json["ten"]["in_play"]
    for entry in sim_json["positions"]:
        rows = s[(s.section == "position") & (s.position == entry["position"])]
        for q in ("total", "honours", "card_points"):
            r = rows[rows.quantity == q].iloc[0]
            assert r.estimate == pytest.approx(entry[q]["mean"], abs=1e-9)
            assert r.se == pytest.approx(entry[q]["se"], abs=1e-9)
        adv = rows[rows.quantity == "advantage"].iloc[0]
        assert adv.estimate == pytest.approx(entry["advantage"]["mean"], abs=1e-9)
        assert [adv.lo, adv.hi] == pytest.approx(entry["advantage"]["ci95"], abs=1e-9)
    a = pd.read_csv(report.out_dir / "fig04_seat_advantage.csv")
    assert list(a.position) == [e["position"] for e in sim_json["positions"]]
    assert list(a.advantage_mean) == pytest.approx(
        [e["advantage"]["mean"] for e in sim_json["positions"]], abs=1e-9)
    c = pd.read_csv(report.out_dir / "fig05_convergence.csv")
    assert int(c.deals.iloc[-1]) == DEALS
    assert c.p_caught.iloc[-1] == pytest.approx(sim_json["ten"]["p_caught"], abs=1e-9)
    f = pd.read_csv(report.out_dir / "fig06_fate_by_holder.csv")
    assert f.deals.sum() == sim_json["ten"]["in_play"]
    assert f.caught.sum() == sim_json["ten"]["caught"]
    side = json.loads((report.out_dir / "report.json").read_text())
    assert side["main"]["ten"] == sim_json["ten"]
    assert side["seed"] == SEED and side["deals"] == DEALS
    assert {"numpy", "pandas", "matplotlib", "numba", "catchten_sim"} <= set(side["versions"])
    assert side["run_time_s"] > 0


def test_sweep_tables(report):
    p = pd.read_csv(report.out_dir / "fig02_ten_by_players.csv")
    assert sorted(set(p.players)) == list(range(2, 9))
    assert set(p.policy) == {"heuristic", "random"}
    assert ((p.lo <= p.p_caught) & (p.p_caught <= p.hi)).all()
    v = pd.read_csv(report.out_dir / "fig08_variants.csv")
    assert v.kind.iloc[0] == "baseline"
    assert {"jaques preset", "french52 preset"} <= set(v.variant)
    assert (v.deals == 1_000).all()
    pol = pd.read_csv(report.out_dir / "fig09_policies.csv")
    assert len(pol) == 4
    # the variants baseline and the heuristic-vs-heuristic comparison are the same run
    assert v.p_caught.iloc[0] == pol[(pol.policy == "heuristic")
                                     & (pol.opponents == "heuristic")].p_caught.iloc[0]
    d = pd.read_csv(report.out_dir / "fig03_points_distribution.csv")
    assert d.groupby("kind").share.sum().tolist() == pytest.approx([1, 1, 1])
    h = pd.read_csv(report.out_dir / "fig07_holding_value.csv")
    assert h.sides.sum() == 2 * DEALS         # two sides per 4-player deal


def test_same_seed_gives_the_same_files(report, tmp_path):
    again = build_report(Rules("foster", 4), "heuristic", n_deals=DEALS, seed=SEED,
                         out_dir=tmp_path / "again", threads=1)
    assert [p.name for p in again.files] == [p.name for p in report.files]
    for p in report.files:
        if p.suffix in (".csv", ".pdf"):
            assert p.read_bytes() == (again.out_dir / p.name).read_bytes(), p.name


@pytest.mark.parametrize("name", ["summary", "ten_by_players", "points_distribution",
                                  "seat_advantage", "convergence", "fate_by_holder",
                                  "holding_value", "variants", "policies"])
def test_plotting_functions_accept_an_ax(report, name):
    fn = {"summary": P.plot_summary, "ten_by_players": P.plot_ten_by_players,
          "points_distribution": P.plot_points_distribution,
          "seat_advantage": P.plot_seat_advantage, "convergence": P.plot_convergence,
          "fate_by_holder": P.plot_fate_heatmap, "holding_value": P.plot_holding_value,
          "variants": P.plot_variants, "policies": P.plot_policies}[name]
    data = report.tables[name]
    fig = Figure()
    ax = fig.add_subplot()
    assert fn(data, ax=ax, title="mine") is fig
    assert ax.get_title(loc="left").startswith("mine")
    assert isinstance(fn(data), Figure)


def test_two_panel_figures_accept_a_pair_of_axes(report):
    fig = Figure()
    axes = fig.subplots(1, 2)
    assert P.plot_variants(report.tables["variants"], ax=axes) is fig
    assert all(a.has_data() for a in axes)
    fig = Figure()
    axes = fig.subplots(3, 1)
    assert P.plot_points_distribution(report.tables["points_distribution"], ax=axes) is fig
    with pytest.raises(ValueError):
        P.plot_policies(report.tables["policies"], ax=[Figure().add_subplot()])


def test_report_command_writes_the_files(tmp_path, blank_figures):
    out = tmp_path / "r"
    res = _invoke(["report", "--deals", "2000", "--seed", "5", "--out", str(out),
                   "--format", "pdf", "--no-sweep-players", "--no-sweep-variants",
                   "--no-compare-policies", "--players", "5"])
    assert res.exit_code == 0, res.output
    names = sorted(p.name for p in out.iterdir())
    assert "report.pdf" in names and not any(n.endswith(".png") for n in names)
    assert sum(n.endswith(".csv") for n in names) == 6
    side = json.loads((out / "report.json").read_text())
    assert side["rules"]["players"] == 5 and side["sweep_deals"] is None


def test_simulate_report_option(tmp_path, blank_figures):
    out = tmp_path / "s"
    res = _invoke(["simulate", "--deals", "3000", "--seed", "2", "--policy", "heuristic",
                   "--opponents", "random", "--report", str(out), "--json"])
    assert res.exit_code == 0, res.output
    printed = json.loads(res.stdout)
    side = json.loads((out / "report.json").read_text())
    assert side["main"]["ten"] == printed["ten"]
    assert side["policies"]["opponents"] == "random"
    assert (out / "report.pdf").exists() and (out / "fig09_policies.png").exists()


@pytest.mark.parametrize("args, field", [
    (["report", "--format", "svg"], "format"),
    (["report", "--format", "pdf,gif"], "format"),
    (["report", "--out", "{file}/sub"], "out"),
    (["report", "--out", "{file}"], "error: out: bad option value"),
    (["simulate", "--deals", "10", "--report", "{file}/sub"], "report: cannot write"),
    (["report", "--deals", "0"], "deals"),
    (["report", "--policy", "clever"], "policy"),
])
def test_bad_options_exit_2_with_one_line(tmp_path, args, field):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    args = [a.replace("{file}", str(blocker)) for a in args]
    if "--out" not in args and "--report" not in args:
        args += ["--out", str(tmp_path / "never")]
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and field in lines[0], lines
    assert res.stdout == ""


def test_parse_formats():
    assert parse_formats("pdf,png") == ("pdf", "png")
    assert parse_formats(["PNG"]) == ("png",)
    assert parse_formats("csv") == ()


def test_variant_rules_cover_presets_and_switches():
    labels = [lab for lab, _, _ in variant_rules(Rules("foster", 5))]
    assert labels[0].endswith("(baseline)")
    assert "with keep_six_of_spades" in labels and "removed_six=C" in labels
    assert "with everyone_alone" not in labels          # 5 players already play alone
    assert not any("preset" in lab for lab in labels)   # jaques/french52 have no 5p game
    kinds = {k for _, k, _ in variant_rules(Rules("jaques", 4))}
    assert kinds == {"baseline", "preset", "switch"}


def test_holding_table_counts_sides_once(report):
    h = report.tables["holding_value"]
    assert h.sides.sum() == 2 * DEALS
    assert (h.lo <= h.total_mean).all() and (h.total_mean <= h.hi).all()
    assert not h.total_se.dropna().apply(math.isnan).any()


def test_findings_quote_the_tables(report):
    s = report.tables["summary"]
    p = s[(s.section == "ten") & (s.quantity == "ten_caught")].estimate.iloc[0]
    assert T.pct(p) in report.figures[0]["title"]
    for entry in report.figures:
        assert entry["title"] and entry["png"] and entry["csv"]
