"""docs/cli.md from the commands' own ``--help`` (``scripts/make_cli_docs.py`` writes it;
``tests/test_cli_docs.py`` fails when the file is not what :func:`render` gives).

The help is rendered at a fixed width (100 columns), whatever the terminal, so the page
depends only on the code.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import click

WIDTH = 100
#: the page, relative to the repository's root
PAGE = Path("docs") / "cli.md"


def _help(cmd: click.Command, name: str, parent: click.Context | None) -> str:
    ctx = click.Context(cmd, info_name=name, parent=parent, terminal_width=WIDTH,
                        max_content_width=WIDTH, help_option_names=["-h", "--help"])
    return cmd.get_help(ctx).rstrip()


def render() -> str:
    """The whole page: the top-level help, then each command's, in name order."""
    from .cli import cli
    root = click.Context(cli, info_name="catchten", terminal_width=WIDTH,
                         max_content_width=WIDTH, help_option_names=["-h", "--help"])
    names = sorted(cli.list_commands(root))
    out = ["# Command reference", "",
           "Generated from the commands' `--help` by `python3 scripts/make_cli_docs.py`; do not",
           "edit by hand (`tests/test_cli_docs.py` fails when this page is stale).", "",
           textwrap.fill("Commands: " + ", ".join(f"[`{n}`](#catchten-{n})" for n in names)
                         + ".", 92, break_long_words=False, break_on_hyphens=False), "",
           "## catchten", "", "```", _help(cli, "catchten", None), "```"]
    for n in names:
        cmd = cli.get_command(root, n)
        assert cmd is not None
        out += ["", f"## catchten {n}", "", "```", _help(cmd, n, root), "```"]
    return "\n".join(out) + "\n"


def write(root: Path) -> Path:
    """Write the page under the repository ``root``; returns its path."""
    path = root / PAGE
    path.write_text(render(), encoding="utf-8")
    return path
