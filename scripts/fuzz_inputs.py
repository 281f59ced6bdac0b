"""Bad input, fuzzed: every record, position and command-line option must be refused with
one clear line, never a traceback or another exception.

* ``records``: the worked hand and game records of ``tests/cases`` mutated at random
  (values swapped for odd types, keys deleted or unknown ones added, list items
  duplicated or swapped, numbers off by one or a suit) through ``records.score_any``;
* ``positions``: the worked positions mutated the same way through
  ``Position.from_dict(...).info()``;
* ``cli``: every option of every ``catchten`` command with 14 bad values (through click's
  test runner): exit 0 or 2, and on 2 exactly one line; ``--show-accepted`` lists the bad
  values a command took without complaint, to read by eye (some are meant: ``--time inf``).

Only ``CatchTenError`` (one line) counts as a refusal; any other exception is reported
once per kind with its input. Run from the repository root:

    PYTHONPATH=$PWD python scripts/fuzz_inputs.py records --seconds 60
    PYTHONPATH=$PWD python scripts/fuzz_inputs.py cli --show-accepted
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from catchten_sim.errors import CatchTenError  # noqa: E402

CASES = ROOT / "tests" / "cases"
WEIRD = [None, True, False, 0, -1, 1, 2, 3, 9, 10 ** 20, -10 ** 20, 1.5, float("nan"), "",
         "x", "10D", "TD", "10d", " 2S", "2S ", "XX", [], {}, [[]], ["2S"], {"a": 1}, "NT",
         "S", 41, "41", 1e308]


def _paths(x, pre=()):
    yield pre
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, pre + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, pre + (i,))


def mutate(d, rng: random.Random):
    """``d`` with one to three random changes."""
    d = copy.deepcopy(d)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        paths = [p for p in _paths(d) if p]
        if not paths:
            break
        p = rng.choice(paths)
        parent = d
        for k in p[:-1]:
            parent = parent[k]
        k = p[-1]
        op = rng.random()
        if op < 0.35:
            parent[k] = copy.deepcopy(rng.choice(WEIRD))
        elif op < 0.5:
            del parent[k]
        elif op < 0.6 and isinstance(parent, dict):
            parent["zz_unknown"] = 1
        elif op < 0.75 and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[k]))
        elif op < 0.85 and isinstance(parent, list) and len(parent) > 1:
            j = rng.randrange(len(parent))
            parent[k], parent[j] = parent[j], parent[k]
        else:
            v = parent[k]
            if isinstance(v, str) and v:
                parent[k] = v[::-1] if rng.random() < 0.5 else v.lower()
            elif isinstance(v, int) and not isinstance(v, bool):
                parent[k] = v + rng.choice((-1, 1, 13, -13))
            else:
                parent[k] = copy.deepcopy(rng.choice(WEIRD))
    return d


def fuzz(kind: str, seconds: float, seed: int) -> int:
    from catchten_sim import records
    from catchten_sim.position import Position
    if kind == "records":
        dirs = ("score", "illegal", "games", "dd")
        run = records.score_any
    else:
        dirs = ("advise",)

        def run(d):
            return Position.from_dict(d).info()
    bases = [json.loads(f.read_text()) for k in dirs for f in sorted((CASES / k).glob("*.json"))
             if not f.name.endswith("expected.json") and f.name != "index.json"]
    rng = random.Random(seed)
    t0 = time.time()
    n = taken = refused = 0
    bugs: dict = {}
    while time.time() - t0 < seconds:
        d = mutate(rng.choice(bases), rng)
        n += 1
        try:
            run(d)
            taken += 1
        except CatchTenError as e:
            refused += 1
            if "\n" in e.line():
                bugs.setdefault(("multi-line", 0), json.dumps(d, default=str)[:400])
        except Exception as e:  # noqa: BLE001 - what we are looking for
            key = (type(e).__name__, traceback.extract_tb(e.__traceback__)[-1].lineno)
            if key not in bugs:
                bugs[key] = json.dumps(d, default=str)[:400]
                print(f"{type(e).__name__}: {e}\n  input: {bugs[key]}\n"
                      f"{traceback.format_exc()[-600:]}", flush=True)
    print(f"{kind}: {n} inputs, {taken} taken, {refused} refused, {len(bugs)} kinds of bug")
    return 1 if bugs else 0


BAD_OPTION_VALUES = ["-1", "0", "abc", "", "1e400", "nan", "99999999999999999999999", "3.5",
                     "foster=1", "=", "x=y", "--", "NT", "-0"]


def fuzz_cli(show_accepted: bool) -> int:
    import click
    from click.testing import CliRunner

    from catchten_sim.cli import cli
    files = {"score": str(next((CASES / "score").glob("*[!d].json"))),
             "solve": str(sorted((CASES / "dd").glob("*[!d].json"))[0]),
             "advise": str(sorted((CASES / "advise").glob("foster*[!d].json"))[0])}
    runner = CliRunner()
    n = bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)           # run directories named by the bad values land here
        for name, cmd in sorted(cli.commands.items()):
            args = [files[name]] if name in files else []
            if any(isinstance(p, click.Argument) for p in cmd.params) and not args:
                continue
            opts = [p for p in cmd.params if isinstance(p, click.Option)]
            small = ["--deals", "50"] if any("--deals" in p.opts for p in opts) else []
            for p in opts:
                if p.is_flag or p.count:
                    continue
                opt = max(p.opts, key=len)
                for v in BAD_OPTION_VALUES:
                    a = [name, *args, opt, v] + (small if opt != "--deals" else [])
                    n += 1
                    r = runner.invoke(cli, a, catch_exceptions=True)
                    lines = [x for x in (r.output or "").strip().splitlines() if x.strip()]
                    if r.exception is not None and not isinstance(r.exception, SystemExit):
                        why = f"{type(r.exception).__name__}: {r.exception}"
                    elif r.exit_code not in (0, 2):
                        why = f"exit {r.exit_code}: {' | '.join(lines)[:200]}"
                    elif r.exit_code == 2 and len(lines) != 1:
                        why = f"{len(lines)} lines: {' | '.join(lines)[:200]}"
                    else:
                        if r.exit_code == 0 and show_accepted and v != "0":
                            print(f"accepted: catchten {' '.join(a)}")
                        continue
                    bad += 1
                    print(f"catchten {' '.join(repr(x) if not x else x for x in a)}: {why}")
    print(f"cli: {n} invocations, {bad} problems")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["records", "positions", "cli"])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show-accepted", action="store_true")
    args = ap.parse_args()
    if args.what == "cli":
        return fuzz_cli(args.show_accepted)
    return fuzz(args.what, args.seconds, args.seed)


if __name__ == "__main__":
    sys.exit(main())
