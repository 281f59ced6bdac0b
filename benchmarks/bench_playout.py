#!/usr/bin/env python3
"""Playout speed of catchten_sim against the plain C baseline, and the performance targets.

Run from the repository root (the package installed, e.g. ``pip install -e .``)::

    python benchmarks/bench_playout.py            # full run, about 4 minutes
    python benchmarks/bench_playout.py --quick    # smoke run: fewer deals, noisier
    python benchmarks/bench_playout.py --json     # machine-readable

What it measures, in one invocation so that the ratios hold on a noisy machine:

* the C baseline (``../shared/limit/limit.c``, built here with gcc; skipped with a message
  when gcc or the source is missing): uniformly random 4-player deals per second, 1 thread
  and all threads;
* our deals per second through :func:`catchten_sim.simulate.simulate` (4 players, foster),
  policy ``random`` and ``heuristic``, 1 thread and all threads, compile time excluded
  (one small warm-up run first). ``--procs`` worker processes (default 3), one after the
  other, each started with a different amount of environment (so its stack lands at a
  different offset: this engine's speed moves by up to 30% from process to process with
  it, see docs/speed.md), each running ``--repeat`` rounds of C, then ours (random,
  heuristic) in turn; a rate is the median over all rounds of all processes, and a ratio
  to C the median of the per-round ratios (a shared, loaded machine drifts between
  rounds); the per-process medians are printed too;
* cold start: ``catchten simulate --deals 1000`` in a subprocess with an empty
  NUMBA_CACHE_DIR (compile included), then warm start: the same command again with that
  cache;
* peak memory (ru_maxrss of the subprocess) of ``catchten simulate --deals 10000000
  --players 4`` (heuristic); ``--quick`` runs 1,000,000 deals and says so.

The per-process lines are ratios: ``random/C`` and ``heuristic/C`` (ours to that round's C
at the same thread count) and ``heuristic/random`` (the round's pair). The machine's load
average (``os.getloadavg``, per core) is read at the start and at the end and kept in the
JSON (``load``); above 0.7 per core at either point, a warning before the targets table
says the numbers come from a busy machine.

Targets checked (issue 8): random 1 thread >= 0.75 of C 1 thread; random on 2 threads
>= 1.85x random on 1; heuristic >= 0.5 of random (1 thread); peak memory < 400 MB; cold
start < 15 s; warm start < 1 s. Exit status 0 whether or not targets pass (it is a report);
1 only on an error.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIMIT_C = HERE.parent.parent / "shared" / "limit" / "limit.c"
CLI = [sys.executable, "-c", "import sys; from catchten_sim.cli import main; sys.exit(main())"]

TARGETS = {                     # issue 8 "Speed"
    "random_vs_c": 0.75,        # random, 1 thread, ratio to C 1 thread (aim 0.9)
    "two_thread_scaling": 1.85,  # random, 2 threads / 1 thread
    "heuristic_vs_random": 0.50,
    "peak_mem_mb": 400.0,
    "cold_start_s": 15.0,
    "warm_start_s": 1.0,
}


#: a load average per core above this, at the start or the end, marks the run as busy
BUSY_LOAD_PER_CORE = 0.7


def ratio_label(key: str) -> str:
    """The reader's name of a worker ratio key: ``random_t1`` -> ``random/C 1 thread``,
    ``heuristic/random_t2`` -> ``heuristic/random 2 threads``."""
    what, _, th = key.rpartition("_t")
    n = int(th)
    return f"{what if '/' in what else what + '/C'} {n} thread{'' if n == 1 else 's'}"


def load_now() -> dict:
    """The 1, 5 and 15 minute load averages and the 1-minute one per core (None where the
    platform has no ``os.getloadavg``)."""
    cores = os.cpu_count() or 1
    try:
        avg = os.getloadavg()
    except (AttributeError, OSError):
        return {"avg": None, "per_core": None, "cores": cores}
    return {"avg": [round(x, 2) for x in avg], "per_core": round(avg[0] / cores, 2),
            "cores": cores}


def busy_warning(start: dict, end: dict) -> str | None:
    """The warning line when the load per core was above :data:`BUSY_LOAD_PER_CORE` at the
    start or the end of the run, else None."""
    worst = max((x["per_core"] for x in (start, end) if x["per_core"] is not None),
                default=None)
    if worst is None or worst <= BUSY_LOAD_PER_CORE:
        return None
    return (f"WARNING: busy machine: load average per core {start['per_core']} at the start, "
            f"{end['per_core']} at the end (above {BUSY_LOAD_PER_CORE}); these numbers, the "
            "ratios to C included, come from a loaded machine")


def log(msg: str, quiet: bool) -> None:
    if not quiet:
        print(msg, file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- C baseline
def build_c(workdir: Path) -> tuple[Path | None, str]:
    gcc = shutil.which("gcc")
    if gcc is None:
        return None, "gcc not found: C baseline skipped"
    if not LIMIT_C.is_file():
        return None, f"{LIMIT_C} not found: C baseline skipped"
    exe = workdir / "ctt-limit"
    cmd = [gcc, "-O3", "-march=native", "-fopenmp", "-o", str(exe), str(LIMIT_C), "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"gcc failed ({r.stderr.strip()[:200]}): C baseline skipped"
    return exe, " ".join(cmd)


def run_c(exe: Path, deals: int, threads: int) -> float:
    r = subprocess.run([str(exe), str(deals), str(threads)], capture_output=True, text=True)
    m = re.search(r"deals_per_s=(\d+)", r.stdout)
    if m is None:
        raise RuntimeError(f"C baseline output not understood: {r.stdout[:200]!r}")
    return float(m.group(1))


# ----------------------------------------------------------------------------- our engine
def make_runner():
    from catchten_sim import Rules
    from catchten_sim.simulate import simulate

    rules = Rules("foster", 4)

    def run(policy: str, deals: int, threads: int) -> tuple[float, object]:
        t0 = time.perf_counter()
        res = simulate(rules, policy, n_deals=deals, seed=1, threads=threads)
        return deals / (time.perf_counter() - t0), res

    t0 = time.perf_counter()
    run("heuristic", 2000, 1)   # load (or compile) the kernel: not part of the rates
    return run, time.perf_counter() - t0


# A child forked from this (large) process would report this process's memory in its
# ru_maxrss (Linux keeps the pre-exec high-water mark), so a small Python launcher starts
# the measured command and reports its wall time and rusage.
_LAUNCHER = r"""
import json, os, subprocess, sys, time
t0 = time.perf_counter()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = p.stderr.read()
_, status, ru = os.wait4(p.pid, 0)
wall = time.perf_counter() - t0
print(json.dumps({"wall": wall, "rc": os.waitstatus_to_exitcode(status),
                  "maxrss_kb": ru.ru_maxrss, "err": err.decode(errors="replace")[-400:]}))
"""


def timed_cli(args: list[str], env: dict) -> tuple[float, int, float]:
    """Wall time, exit status and peak RSS (MB) of one ``catchten`` subprocess."""
    r = subprocess.run([sys.executable, "-c", _LAUNCHER] + CLI + args, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"launcher failed: {r.stderr.strip()[-300:]}")
    info = json.loads(r.stdout.strip().splitlines()[-1])
    if info["rc"] != 0:
        raise RuntimeError(f"catchten {' '.join(args)} failed: {info['err'].strip()}")
    kb = info["maxrss_kb"] if sys.platform != "darwin" else info["maxrss_kb"] / 1024
    return info["wall"], info["rc"], kb / 1024.0


# ----------------------------------------------------------------------------- worker
def worker(job: dict) -> dict:
    """One throughput process: ``repeat`` rounds of C then ours (random, heuristic) per
    thread count; every run's rate, and each of ours as a ratio to that round's C."""
    run, warm_s = make_runner()
    exe = Path(job["exe"]) if job["exe"] else None
    runs: dict = {}
    ratios: dict = {}
    stats: dict = {}
    for th in job["threads"]:
        for _ in range(job["repeat"]):
            c = run_c(exe, job["n_c"], th) if exe is not None else None
            if c is not None:
                runs.setdefault(f"c_t{th}", []).append(c)
            for policy, n in (("random", job["n_random"]), ("heuristic", job["n_heur"])):
                r, res = run(policy, n, th)
                stats[(policy, th)] = res
                runs.setdefault(f"{policy}_t{th}", []).append(r)
                if c is not None:
                    ratios.setdefault(f"{policy}_t{th}", []).append(r / c)
            # the heuristic against the random run just before it (a pair of one round)
            hr = runs[f"heuristic_t{th}"][-1] / runs[f"random_t{th}"][-1]
            ratios.setdefault(f"heuristic/random_t{th}", []).append(hr)
    out = {"runs": runs, "ratios": ratios, "warm_s": warm_s}
    # sanity: random play statistics (C baseline, 20M deals: 0.4246, 15.99 / 19.65)
    res = stats.get(("random", 1))
    if res is not None:
        f = res.to_frame()
        out["random_check"] = {"deals": res.n_deals, "p_caught": res.ten["p_caught"],
                               "eldest_total": float(f.loc[1, "total_mean"]),
                               "dealer_total": float(f.loc[4, "total_mean"])}
    if len(job["threads"]) > 1:
        d1 = stats[("heuristic", 1)].to_dict()
        dn = stats[("heuristic", job["threads"][-1])].to_dict()
        out["heuristic_threads_identical"] = all(d1[k] == dn[k]
                                                 for k in ("ten", "positions", "sides"))
    return out


# ----------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="fewer deals everywhere (smoke run; numbers are noisier)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--repeat", type=int, default=None,
                    help="rounds, medians taken (default 5, 3 with --quick)")
    ap.add_argument("--skip-cold", action="store_true",
                    help="skip the cold/warm start subprocesses")
    ap.add_argument("--skip-memory", action="store_true", help="skip the memory subprocess")
    ap.add_argument("--procs", type=int, default=3,
                    help="throughput worker processes, each at another stack offset "
                         "(default 3)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        print(json.dumps(worker(json.loads(a.worker))))
        return 0
    if a.procs < 1 or (a.repeat is not None and a.repeat < 1):
        ap.error("--procs and --repeat must be at least 1")
    quiet = a.json
    quick = a.quick
    repeat = a.repeat or (3 if quick else 5)
    n_random = 500_000 if quick else 4_000_000
    n_heur = 200_000 if quick else 1_500_000
    n_c = 2_000_000 if quick else 10_000_000
    n_mem = 1_000_000 if quick else 10_000_000

    from catchten_sim.checks import max_threads
    all_threads = max_threads()
    out: dict = {"machine": {"python": platform.python_version(), "cpu_threads": all_threads,
                             "platform": platform.platform()},
                 "quick": quick, "repeat": repeat, "notes": []}
    out["load"] = {"start": load_now(), "threshold_per_core": BUSY_LOAD_PER_CORE}
    try:
        import numba
        out["machine"]["numba"] = numba.__version__
    except ImportError:  # pragma: no cover
        pass

    with tempfile.TemporaryDirectory(prefix="ctt-bench-") as tmp:
        tmp = Path(tmp)
        exe, how = build_c(tmp)
        out["c_build"] = how
        if exe is None:
            out["notes"].append(how)
            log(how, quiet)
        else:
            log(f"built C baseline: {how}", quiet)

        thread_list = [1] if all_threads == 1 else [1, all_threads]
        log(f"throughput: {a.procs} processes at different stack offsets, {repeat} rounds "
            f"each, medians over all rounds (C {n_c:,} deals, random {n_random:,}, "
            f"heuristic {n_heur:,})…", quiet)
        runs: dict = {}
        ratios: dict = {}
        per_proc: list = []
        for i in range(a.procs):
            job = {"exe": str(exe) if exe is not None else None, "threads": thread_list,
                   "repeat": repeat, "n_c": n_c, "n_random": n_random, "n_heur": n_heur}
            # a different environment size puts the worker's stack at another offset
            env = dict(os.environ, CATCHTEN_BENCH_PAD="x" * (97 * i))
            r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker",
                                json.dumps(job)], env=env, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"throughput worker failed: {r.stderr.strip()[-400:]}")
            w = json.loads(r.stdout.strip().splitlines()[-1])
            for key, vals in w["runs"].items():
                runs.setdefault(key, []).extend(vals)
            for key, vals in w["ratios"].items():
                ratios.setdefault(key, []).extend(vals)
            per_proc.append({k: round(statistics.median(v), 3) for k, v in w["ratios"].items()})
            log(f"  process {i + 1} ratios: "
                + ", ".join(f"{ratio_label(k)} {v}" for k, v in per_proc[-1].items())
                + f" (warm-up {w['warm_s']:.1f} s)", quiet)
            out.setdefault("in_process_warmup_s", round(w["warm_s"], 3))
            if i == 0:
                out.update({k: w[k] for k in ("random_check", "heuristic_threads_identical")
                            if k in w})
        rates = {key: statistics.median(vals) for key, vals in runs.items()}
        for key, vals in runs.items():
            log(f"  {key:24s} {rates[key] / 1e6:8.3f} M deals/s  (runs: "
                + ", ".join(f"{v / 1e6:.3f}" for v in vals) + ")", quiet)
        out["per_process"] = per_proc
        med = {k: round(statistics.median(v), 3) for k, v in ratios.items()}
        out["ratio_to_c"] = {k: v for k, v in med.items() if "/" not in k}
        out["heuristic_vs_random"] = {k.split("_")[-1]: v for k, v in med.items() if "/" in k}
        out["deals_per_s"] = {k: round(v) for k, v in rates.items()}

        # cold and warm start
        if not a.skip_cold:
            cache = tmp / "numba-cache"
            env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
            env.pop("CATCHTEN_NO_CACHE", None)
            args = ["simulate", "--deals", "1000", "--json"]
            log("cold start (empty NUMBA_CACHE_DIR, compile included)…", quiet)
            out["cold_start_s"] = round(timed_cli(args, env)[0], 2)
            log(f"  {out['cold_start_s']} s", quiet)
            log("warm start (same cache)…", quiet)
            out["warm_start_s"] = round(min(timed_cli(args, env)[0] for _ in range(2)), 2)
            log(f"  {out['warm_start_s']} s", quiet)

        # peak memory
        if not a.skip_memory:
            args = ["simulate", "--deals", str(n_mem), "--players", "4", "--json"]
            log(f"peak memory: catchten {' '.join(args)}…", quiet)
            wall, _, rss = timed_cli(args, dict(os.environ))
            out["peak_mem"] = {"deals": n_mem, "mb": round(rss, 1), "wall_s": round(wall, 2)}
            if n_mem != 10_000_000:
                out["notes"].append(f"--quick: peak memory measured with {n_mem:,} deals, "
                                    "not 10,000,000")
            log(f"  {rss:.1f} MB ({wall:.1f} s)", quiet)

    out["load"]["end"] = load_now()
    warning = busy_warning(out["load"]["start"], out["load"]["end"])
    out["load"]["busy"] = warning is not None
    if warning:
        out["notes"].append(warning)

    # targets
    checks = []

    def check(name: str, value, target: float, ok_if_below: bool, unit: str, note: str = ""):
        if value is None:
            checks.append({"target": name, "value": None, "limit": target, "pass": None,
                           "note": note or "not measured"})
            return
        ok = value < target if ok_if_below else value >= target
        checks.append({"target": name, "value": round(value, 3), "limit": target,
                       "pass": bool(ok), "unit": unit, "note": note})

    r1 = rates.get("random_t1")
    c1 = rates.get("c_t1")
    rc1 = out["ratio_to_c"].get("random_t1")
    check("random 1 thread / C 1 thread", rc1,
          TARGETS["random_vs_c"], False, "ratio", "" if c1 else "C baseline skipped")
    if all_threads >= 2:
        rn = rates.get(f"random_t{all_threads}")
        check(f"random {all_threads} threads / 1 thread", rn / r1 if (rn and r1) else None,
              TARGETS["two_thread_scaling"], False, "x",
              "" if all_threads == 2 else f"measured with {all_threads} threads")
    else:
        check("random 2 threads / 1 thread", None, TARGETS["two_thread_scaling"], False, "x",
              "one CPU thread available")
    check("heuristic / random (1 thread)", out["heuristic_vs_random"].get("t1"),
          TARGETS["heuristic_vs_random"], False, "ratio",
          "median of the rounds' paired ratios")
    pm = out.get("peak_mem")
    check("peak memory, 10M heuristic deals", pm["mb"] if pm else None,
          TARGETS["peak_mem_mb"], True, "MB",
          ("" if not pm or pm["deals"] == 10_000_000 else f"{pm['deals']:,} deals (--quick)"))
    check("cold start (compile included)", out.get("cold_start_s"), TARGETS["cold_start_s"],
          True, "s")
    check("warm start", out.get("warm_start_s"), TARGETS["warm_start_s"], True, "s")
    out["targets"] = checks

    if a.json:
        print(json.dumps(out, indent=2))
        return 0

    print()
    print(f"catchten_sim playout benchmark  (python {out['machine']['python']}, "
          f"numba {out['machine'].get('numba', '?')}, {all_threads} CPU threads"
          f"{', QUICK' if quick else ''})")
    print()
    print(f"{'engine':<12}{'policy':<11}{'threads':>8}{'M deals/s':>12}"
          f"{'vs C (same threads)':>22}")
    for th in thread_list:
        c = rates.get(f"c_t{th}")
        if c:
            print(f"{'C baseline':<12}{'random':<11}{th:>8}{c / 1e6:>12.3f}{'1.00':>22}")
        for pol in ("random", "heuristic"):
            v = rates[f"{pol}_t{th}"]
            rr = out["ratio_to_c"].get(f"{pol}_t{th}")
            ratio = f"{rr:.2f}" if rr is not None else "n/a"
            print(f"{'catchten':<12}{pol:<11}{th:>8}{v / 1e6:>12.3f}{ratio:>22}")
    print()
    if "random_check" in out:
        rc = out["random_check"]
        print(f"random play check ({rc['deals']:,} deals): P(Ten caught) {rc['p_caught']:.4f} "
              f"(C: 0.4246), eldest side {rc['eldest_total']:.2f} (15.99), dealer side "
              f"{rc['dealer_total']:.2f} (19.65)")
    if "heuristic_threads_identical" in out:
        print(f"heuristic result identical for 1 and {all_threads} threads: "
              f"{out['heuristic_threads_identical']}")
    print()
    if warning:
        print(warning)
    print(f"{'target':<38}{'value':>10}{'limit':>9}  result")
    for ch in checks:
        v = "-" if ch["value"] is None else f"{ch['value']:g}"
        cmp_ = "<" if ch["target"].startswith(("peak", "cold", "warm")) else ">="
        res = "skipped" if ch["pass"] is None else ("PASS" if ch["pass"] else "FAIL")
        note = f"  ({ch['note']})" if ch.get("note") else ""
        print(f"{ch['target']:<38}{v:>10}{cmp_ + format(ch['limit'], 'g'):>9}  {res}{note}")
    for n in out["notes"]:
        if n != warning:
            print(f"note: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
