#!/usr/bin/env python3
"""Speed of PIMC (issue 10 targets, 2 threads, warm numba cache):

1. ``catchten advise --evaluator dd`` at a 4-player opening lead with 200
   determinizations, the whole process (Python start, imports, cache load): < 1 s;
2. one ``pimc:50`` decision at the opening lead: < 0.3 s;
3. a whole 4-player deal with two ``pimc:50`` seats (the others heuristic): < 3 s;
4. exact mode: enumerating and solving every consistent deal of late positions (deals
   per second), the measurement behind ``advise.EXACT_MAX``; and how often ``pimc:N``
   picks the card ``pimc:400`` picks at opening leads (behind ``policies.DEFAULT_N``).

    python benchmarks/bench_pimc.py [--repeat 3] [--threads 2] [--quick]

Medians of ``--repeat`` runs. The machine may be shared: say so next to the numbers.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from catchten_sim import Rules
from catchten_sim.advise import advise
from catchten_sim.cards import cards_of_mask
from catchten_sim.pimc import DealDriver, choose
from catchten_sim.position import info_at
from catchten_sim.play import deal as make_deal
from catchten_sim.play import play
from catchten_sim.policies import PimcPolicy, Policy
from catchten_sim.position import Position

ROOT = Path(__file__).resolve().parent.parent

OPENING = ["--players", "4", "--dealer", "3", "--seat", "0", "--turnup", "7S",
           "--hand", "JS AS 9S KH QH 7D 8C 9C TC", "--play", ""]


def _median(xs):
    return statistics.median(xs)


def bench_advise_process(threads: int, repeat: int) -> float:
    cmd = [sys.executable, "-m", "catchten_sim.cli", "advise", *OPENING, "--evaluator",
           "dd", "--samples", "200", "--no-early-stop", "--threads", str(threads)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # as installed: `pip install` writes the package's bytecode, a source tree under
    # PYTHONDONTWRITEBYTECODE=1 (set on some machines) would compile ~35 modules every run
    import compileall
    compileall.compile_dir(ROOT / "catchten_sim", quiet=1)
    subprocess.run(cmd, env=env, capture_output=True, check=True)       # warm the cache
    import resource
    times, cpu = [], []
    for _ in range(repeat):
        c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - t)
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
    print(f"  (advise process CPU time, all threads: median {_median(cpu):.2f} s)")
    return _median(times)


def bench_decision(threads: int, repeat: int, n: int = 50, preset: str = "foster") -> float:
    r = Rules(preset, 4)
    times, cpu = [], []
    for k in range(repeat + 1):
        d = make_deal(r, seed=100 + k, index=0)
        info = info_at(d, (d.dealer + 1) % 4, [])
        t = time.perf_counter()
        c = time.process_time()
        choose(info, n, seed=k, threads=threads)
        if k:                                   # the first is the warm-up
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
    print(f"  (pimc:{n} decision CPU time, all threads: median {_median(cpu):.3f} s; "
          f"each: {', '.join(f'{x:.2f}' for x in times)} s)")
    return _median(times)


def bench_deal(threads: int, repeat: int) -> float:
    r = Rules("foster", 4)
    pols = [PimcPolicy(50), Policy.HEURISTIC, PimcPolicy(50), Policy.HEURISTIC]
    drv = DealDriver(r, pols, 1, threads=threads)
    drv.play(999)                               # warm-up
    times, cpu = [], []
    for k in range(repeat):
        t = time.perf_counter()
        c = time.process_time()
        drv.play(k)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    print(f"  (deal CPU time, all threads: median {_median(cpu):.2f} s)")
    return _median(times)


def bench_exact(threads: int) -> None:
    from catchten_sim.determinize import Sampler
    r = Rules("foster", 4)
    for n_played in (20, 16, 12):
        rates = []
        for seed in range(1, 4):
            d = make_deal(r, seed=seed, index=0)
            seq = play(d, "heuristic").play[:n_played]
            st = d.play_state()
            for c in seq:
                st.play(c)
            pos = Position(r, d.dealer, st.to_move,
                           tuple(c for c in cards_of_mask(d.set_hands[0][st.to_move])
                                 if c not in seq),
                           d.turnup, tuple(seq), tuple(d.dead))
            s = Sampler(pos.info())
            if s.n_deals > 200_000:
                continue
            t = time.perf_counter()
            adv = advise(pos, evaluator="dd", threads=threads, exact_max=200_000)
            dt = time.perf_counter() - t
            rates.append((s.n_deals, adv.n_samples / dt, dt))
        for nd, rate, dt in rates:
            print(f"  exact dd, {n_played} cards played: {nd:,} deals in {dt:.2f} s "
                  f"({rate:,.0f} deals/s)")


def bench_default_n(threads: int, positions: int, ref_n: int = 400,
                    ns: tuple[int, ...] = (10, 25, 50, 100, 200)) -> None:
    """How often pimc:N picks pimc:ref_n's card at opening leads, and its regret: how many
    points worse its card is by pimc:ref_n's own estimate (0 when it picks a card of
    equal value)."""
    r = Rules("foster", 4)
    ref = {}
    for k in range(positions):
        d = make_deal(r, seed=500 + k, index=0)
        info = info_at(d, (d.dealer + 1) % 4, [])
        c_ref, x = choose(info, ref_n, seed=7, threads=threads)
        ref[k] = (info, c_ref, dict(zip(x["cards"], x["mean"], strict=True)))
    for n in ns:
        agree = 0
        regret = 0.0
        t = time.perf_counter()
        for info, c_ref, means in ref.values():
            c = choose(info, n, seed=11, threads=threads)[0]
            agree += c == c_ref
            regret += means[c_ref] - means[c]
        dt = (time.perf_counter() - t) / len(ref)
        print(f"  pimc:{n:<4} picks pimc:{ref_n}'s card in {agree}/{len(ref)} opening leads, "
              f"mean regret {regret / len(ref):.2f} points (by pimc:{ref_n}), "
              f"{dt:.3f} s a decision")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="targets only (no exact / N study)")
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--only-n", action="store_true", help="only the N study")
    ap.add_argument("--ref-n", type=int, default=400)
    ap.add_argument("--french52", action="store_true",
                    help="only issue 26's pimc:50 decision at french52 opening leads "
                    "(target: median <= 1 s)")
    a = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if a.french52:
        t = bench_decision(a.threads, a.repeat, preset="french52")
        print(f"pimc:50 decision at a french52 opening lead, {a.threads} threads: median "
              f"{t:.2f} s (target <= 1 s: {'PASS' if t <= 1 else 'FAIL'})")
        return
    if a.only_n:
        bench_default_n(a.threads, a.positions, a.ref_n, (10, 25, 50, 100))
        return
    t1 = bench_advise_process(a.threads, a.repeat)
    print(f"advise --evaluator dd, 4p opening, 200 deals, whole process, {a.threads} threads: "
          f"median {t1:.2f} s (target < 1 s: {'PASS' if t1 < 1 else 'FAIL'})")
    t2 = bench_decision(a.threads, a.repeat)
    print(f"pimc:50 decision at the opening lead: median {t2:.3f} s "
          f"(target < 0.3 s: {'PASS' if t2 < 0.3 else 'FAIL'})")
    t3 = bench_deal(a.threads, a.repeat)
    print(f"4p deal, two pimc:50 seats: median {t3:.2f} s "
          f"(target < 3 s: {'PASS' if t3 < 3 else 'FAIL'})")
    if not a.quick:
        print("exact mode (behind EXACT_MAX):")
        bench_exact(a.threads)
        print("determinizations per decision (behind DEFAULT_N):")
        bench_default_n(a.threads, a.positions, a.ref_n)


if __name__ == "__main__":
    main()
