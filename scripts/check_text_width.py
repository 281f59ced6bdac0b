"""Run every command's text output piped (no COLUMNS) with small sizes and print the
widest line and any line ending in spaces: every line printed must fit 80 columns.

    python3 scripts/check_text_width.py            # about a minute warm (dd compiles once)

Exit 1 when a line is wider than 80 or ends in a space. tests/test_cli.py checks the
widest outputs cheaply; this is the whole sweep.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile

EX = "examples"
COMMANDS = [
    ["rules"], ["rules", "--switches"], ["rules", "--players", "8", "-r", "foster"],
    ["simulate", "--deals", "2000", "--threads", "1"],
    ["simulate", "--games", "20", "--threads", "1"],
    ["score", f"{EX}/hand.json"], ["score", f"{EX}/game.json"],
    ["solve", "tests/cases/dd/foster4_left5_lead_01.json", "--line"],
    ["solve", "tests/cases/dd/foster2sets_left18_lead_02.json"],
    ["advise", f"{EX}/position-lead.json", "--samples", "200", "--threads", "1"],
    ["advise", f"{EX}/position-score.json", "--samples", "200", "--threads", "1",
     "--explain", "2"],
    ["advise", f"{EX}/position-lead.json", "--evaluator", "dd", "--time", "3",
     "--threads", "1"],
    ["advise", f"{EX}/position-lead.json", "--evaluator", "dd", "--infer", "heuristic",
     "--time", "3", "--threads", "1"],
    ["advise", f"{EX}/position-lead.json", "--policy", "pimc:10", "--samples", "20",
     "--threads", "1"],
    ["advise", f"{EX}/position-score.json", "--objective", "p_win", "--samples", "200",
     "--threads", "1"],
    ["match", "heuristic", "random", "--deals", "64", "--threads", "1"],
    ["match", "ipimc:10", "pimc:10", "--players", "4", "--deals", "8", "--no-early-stop",
     "--threads", "1"],
    ["equity", "--hands", "2000", "--threads", "1", "--no-cache"],
    ["equity", "--scores", "30 25", "--dealer", "1", "--hands", "2000", "--threads", "1",
     "--no-cache"],
    ["odds", "--hand", "JS AS KS 6H 7H 8D 9D TC QC", "--turnup", "6S", "--deals", "500",
     "--threads", "1"],
]


def main() -> int:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        runs = [["simulate", "--deals", "2000", "--threads", "1", "--run-dir", f"{d}/r"],
                ["summarize", f"{d}/r"],
                ["report", "--deals", "2000", "--sweep-deals", "500", "--no-sweep-variants",
                 "--no-compare-policies", "--format", "png", "--out", f"{d}/rep",
                 "--threads", "1"]]
        for args in COMMANDS + runs:
            p = subprocess.run([sys.executable, "-m", "catchten_sim.cli", *args], env=env,
                               capture_output=True, text=True)
            # an error stays one line (whatever its length: one line to grep and to quote)
            lines = [ln for ln in (p.stdout + p.stderr).splitlines()
                     if not ln.startswith("error:")]
            widest = max((len(ln) for ln in lines), default=0)
            trailing = sum(1 for ln in lines if ln != ln.rstrip())
            flag = "" if widest <= 80 and not trailing and p.returncode == 0 else "  <-- BAD"
            bad += bool(flag)
            print(f"{widest:4d} cols {trailing:3d} trailing rc {p.returncode}  "
                  f"{' '.join(args)[:60]}{flag}")
            if flag:
                for ln in lines:
                    if len(ln) > 80 or ln != ln.rstrip():
                        print("      |" + ln)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
