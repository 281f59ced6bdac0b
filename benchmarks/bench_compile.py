"""Cold compile of a command, kernel by kernel: where the seconds of a first run go.

Runs one ``catchten`` command in a new process with ``NUMBA_CACHE_DIR`` pointing at a new
empty directory (the shared cache is never touched), listening to numba's
``numba:compile`` event, and prints the process's CPU seconds (user + system, from
``wait4``), its wall seconds, and per compiled kernel: its own compile seconds (the
kernels it compiled on the way subtracted), the number of specialisations and their
argument types when there are several (a kernel compiled twice for int32 and int64, or
for a readonly and a writable array, shows here)::

    PYTHONPATH=$PWD python benchmarks/bench_compile.py solve \\
        tests/cases/dd/foster4_left4_lead_01.json
    PYTHONPATH=$PWD python benchmarks/bench_compile.py advise \\
        examples/position-lead.json --evaluator dd --samples 20 --threads 1
    PYTHONPATH=$PWD python benchmarks/bench_compile.py --pimc

The code measured is the one on ``PYTHONPATH`` (the child runs with ``-P``: the current
directory is not put first), so another tree's code is measured with ``PYTHONPATH=TREE``.

``--pimc``: one ``pimc:5`` decision (the first seat's opening lead of a 4-player foster
deal), :func:`catchten_sim.pimc.choose` as a match's driver calls it.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# the child: a listener on numba's compile event around the command, its report as JSON
_CHILD = r"""
import json, sys, time
from numba.core import event as ev

rows, stack = [], []

class L(ev.Listener):
    def on_start(self, e):
        stack.append([time.process_time(), 0.0])
    def on_end(self, e):
        t0, inner = stack.pop()
        dt = time.process_time() - t0
        if stack:
            stack[-1][1] += dt
        d = e.data["dispatcher"]
        f = d.py_func
        rows.append((f.__module__ + "." + f.__qualname__, dt - inner, dt,
                     str(e.data.get("args"))))

ev.register("numba:compile", L())
out, mode, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
try:
    if mode == "pimc":
        exec(compile(argv[0], "<pimc>", "exec"), {})
    else:
        from catchten_sim.cli import cli
        try:
            cli.main(argv, prog_name="catchten")
        except SystemExit:
            pass
finally:
    with open(out, "w") as fh:
        json.dump(rows, fh)
"""

# one pimc:5 decision as a match's driver makes it (rules, seats, deal 0 of seed 1)
_PIMC = r"""
from catchten_sim.deals import deal
from catchten_sim.pimc import choose
from catchten_sim.position import info_at
from catchten_sim.rules import Rules
d = deal(Rules("foster", 4), seed=1, index=0)
print(choose(info_at(d, (d.dealer + 1) % 4, []), 5, seed=1)[0])
"""


def run(mode: str, argv: list[str]) -> tuple[float, float, list]:
    """CPU and wall seconds of the child, and its compile rows."""
    with tempfile.TemporaryDirectory(prefix="ccache_") as cache, \
            tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        env.pop("CATCHTEN_NO_CACHE", None)
        t0 = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-P", "-c", _CHILD, fh.name, mode, *argv], env=env,
                             stdout=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) not in (0, 2):
            raise SystemExit(f"the command failed: {argv}")
        with open(fh.name) as f:
            rows = json.load(f)
        os.unlink(fh.name)
    return ru.ru_utime + ru.ru_stime, wall, rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pimc", action="store_true", help="one pimc:5 decision")
    ap.add_argument("--top", type=int, default=15, help="kernels listed (default 15)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON too")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="a catchten command")
    a = ap.parse_args()
    mode, argv = ("pimc", [_PIMC]) if a.pimc else ("cli", a.command)
    cpu, wall, rows = run(mode, argv)
    own: dict[str, float] = {}
    sigs: dict[str, list[str]] = {}
    for name, self_s, _incl, args in rows:
        own[name] = own.get(name, 0.0) + self_s
        sigs.setdefault(name, []).append(args)
    print(f"{'pimc decision' if a.pimc else ' '.join(argv)}")
    print(f"  cpu {cpu:.1f} s, wall {wall:.1f} s, compiling {sum(own.values()):.1f} s "
          f"(CPU of the compiling thread), {len(rows)} compiles of {len(own)} kernels")
    for name in sorted(own, key=own.get, reverse=True)[:a.top]:
        print(f"  {own[name]:6.2f} s  x{len(sigs[name])}  {name}")
        if len(sigs[name]) > 1:
            for s in sigs[name]:
                print(f"           {s[:150]}")
    if a.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
