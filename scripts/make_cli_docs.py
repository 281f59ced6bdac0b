#!/usr/bin/env python3
"""Write docs/cli.md from the commands' ``--help`` (run after changing a command's help;
``tests/test_cli_docs.py`` fails until it is run):

    python3 scripts/make_cli_docs.py
"""
from __future__ import annotations

from pathlib import Path

from catchten_sim.cli_docs import write

if __name__ == "__main__":
    print(write(Path(__file__).resolve().parents[1]))
