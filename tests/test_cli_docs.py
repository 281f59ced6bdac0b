"""docs/cli.md is the commands' current ``--help`` (regenerate: scripts/make_cli_docs.py)."""
from pathlib import Path

from catchten_sim.cli_docs import PAGE, render

ROOT = Path(__file__).resolve().parents[1]


def test_cli_page_is_current():
    have = (ROOT / PAGE).read_text(encoding="utf-8")
    assert have == render(), "docs/cli.md is stale: run python3 scripts/make_cli_docs.py"


def test_cli_page_holds_every_command_and_option():
    """The page is the help itself: every command's heading, and options of each."""
    page = render()
    for name in ("advise", "equity", "match", "odds", "report", "resume", "rules", "score",
                 "simulate", "solve", "summarize"):
        assert f"## catchten {name}\n" in page
    assert "--deals" in page and "--evaluator" in page and "--run-dir" in page
