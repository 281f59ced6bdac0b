"""The run engine at scale: peak memory of long runs, and the throughput of a local Dask
cluster against the threads path (issue 12).

    PYTHONPATH=. python benchmarks/bench_runner.py memory --deals 100000000 --policy random
    PYTHONPATH=. python benchmarks/bench_runner.py dask --deals 2000000 --repeats 3
    PYTHONPATH=. python benchmarks/bench_runner.py scaling --deals 4000000 --repeats 2
    PYTHONPATH=. python benchmarks/bench_runner.py compare --deals 2000000 --repeats 5

``compare`` runs the same simulation on threads (1 and all cores) and on one
``LocalCluster`` scaled to 1 and to 2 single-threaded workers, round-robin, and prints
each path's median throughput, the ratios, and the load average before and after (the
machine is shared: quote the load with the numbers).

``memory`` runs ``catchten simulate`` in a child process (threads path, and with
``--run-dir``) and prints the child's peak resident memory. ``dask`` times the same
simulation on threads (all cores) and on a ``LocalCluster`` of one single-threaded worker
per core (cluster start-up excluded: a cluster is started once and reused, as a real
cluster would be), alternating the two, and prints the medians and their ratio. The
machine is shared: compare the ratio, not the absolute rates.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def peak_child(args: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of ``catchten simulate ARGS`` in a fresh child."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    # one child per measurement: RUSAGE_CHILDREN is the max over children so far
    code = ("import resource, subprocess, sys; "
            "r = subprocess.run([sys.executable, '-m', 'catchten_sim.cli', 'simulate', "
            "*sys.argv[1:]], stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); "
            "sys.exit(r.returncode)")
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, check=True,
                         capture_output=True, text=True)
    return time.perf_counter() - t0, int(out.stdout.split()[-1]) / 1024


def memory(a) -> None:
    base = ["--deals", str(a.deals), "--policy", a.policy, "--players", "4",
            "--no-progress", "--json"]
    for label, extra in (("threads", []), ("threads --run-dir", ["--run-dir", None])):
        with tempfile.TemporaryDirectory() as tmp:
            args = [x if x is not None else str(Path(tmp) / "run") for x in base + extra]
            secs, mb = peak_child(args)
        print(f"{label:20s} deals {a.deals:>13,}  {secs:7.1f} s  "
              f"{a.deals / secs:>12,.0f} deals/s  peak RSS {mb:7.1f} MB", flush=True)


def dask(a) -> None:
    from distributed import Client, LocalCluster

    from catchten_sim import Rules
    from catchten_sim.checks import max_threads
    from catchten_sim.simulate import DealTask, simulate
    from catchten_sim.policies import Policy
    rules = Rules("foster", 4)
    cores = max_threads()
    DealTask(rules, Policy.per_seat(a.policy, 4), 1).warm()    # numba cache before workers
    with LocalCluster(n_workers=a.workers or cores, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None, silence_logs=40) as cluster:
        with Client(cluster) as client:
            client.wait_for_workers(a.workers or cores)
        kw = dict(n_deals=a.deals, seed=1)
        simulate(rules, a.policy, n_deals=20_000, seed=1, scheduler=cluster.scheduler_address)
        times = {"threads": [], "dask": []}
        for _ in range(a.repeats):
            for name, extra in (("threads", {"threads": cores}),
                                ("dask", {"scheduler": cluster.scheduler_address})):
                t0 = time.perf_counter()
                res = simulate(rules, a.policy, **kw, **extra)
                times[name].append(time.perf_counter() - t0)
                assert res.n_deals == a.deals
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in med.items():
        print(f"{k:8s} {a.deals:,} deals  median {v:6.2f} s  {a.deals / v:>10,.0f} deals/s  "
              f"(runs: {', '.join(f'{x:.2f}' for x in times[k])})")
    print(f"dask / threads throughput: {med['threads'] / med['dask']:.2f} "
          f"({a.workers or cores} workers x 1 thread vs {cores} threads)")


def scaling(a) -> None:
    """The same simulation on a cluster of 1 worker and of 2 workers (1 thread each),
    alternating, one cluster scaled between them."""
    from distributed import Client, LocalCluster

    from catchten_sim import Rules
    from catchten_sim.policies import Policy
    from catchten_sim.simulate import DealTask, simulate
    rules = Rules("foster", 4)
    DealTask(rules, Policy.per_seat(a.policy, 4), 1).warm()
    times = {1: [], 2: []}
    with LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client:
        simulate(rules, a.policy, n_deals=20_000, seed=1, scheduler=cluster.scheduler_address)
        for _ in range(a.repeats):
            for w in (1, 2):
                cluster.scale(w)
                client.wait_for_workers(w)
                while len(client.scheduler_info()["workers"]) != w:
                    time.sleep(0.1)
                t0 = time.perf_counter()
                simulate(rules, a.policy, n_deals=a.deals, seed=1,
                         scheduler=cluster.scheduler_address)
                times[w].append(time.perf_counter() - t0)
    med = {k: statistics.median(v) for k, v in times.items()}
    for k, v in med.items():
        print(f"{k} worker(s) {a.deals:,} deals  median {v:6.2f} s  {a.deals / v:>10,.0f} "
              f"deals/s  (runs: {', '.join(f'{x:.2f}' for x in times[k])})")
    print(f"2 workers / 1 worker: {med[1] / med[2]:.2f}")


def compare(a) -> None:
    from distributed import Client, LocalCluster

    from catchten_sim import Rules
    from catchten_sim.policies import Policy
    from catchten_sim.checks import max_threads
    from catchten_sim.simulate import DealTask, simulate
    rules = Rules("foster", 4)
    cores = max_threads()
    load0 = os.getloadavg()
    DealTask(rules, Policy.per_seat(a.policy, 4), 1).warm()
    paths = ["threads 1", f"threads {cores}", "dask 1 worker", "dask 2 workers"]
    times: dict[str, list[float]] = {k: [] for k in paths}
    with LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client:
        addr = cluster.scheduler_address
        simulate(rules, a.policy, n_deals=20_000, seed=1, scheduler=addr)
        for _ in range(a.repeats):
            for name in paths:
                extra: dict = {}
                if name.startswith("threads"):
                    extra = {"threads": int(name.split()[1])}
                else:
                    w = int(name.split()[1])
                    cluster.scale(w)
                    client.wait_for_workers(w)
                    while len(client.scheduler_info()["workers"]) != w:
                        time.sleep(0.1)
                    extra = {"scheduler": addr}
                t0 = time.perf_counter()
                res = simulate(rules, a.policy, n_deals=a.deals, seed=1, **extra)
                times[name].append(time.perf_counter() - t0)
                assert res.n_deals == a.deals
    load1 = os.getloadavg()
    med = {k: statistics.median(v) for k, v in times.items()}
    for k in paths:
        print(f"{k:16s} {a.deals:,} deals  median {med[k]:6.2f} s  "
              f"{a.deals / med[k]:>10,.0f} deals/s  (runs: "
              f"{', '.join(f'{x:.2f}' for x in times[k])})")
    top = f"threads {cores}"
    print(f"dask 2 workers / {top}: {med[top] / med['dask 2 workers']:.2f}; "
          f"dask 2 / dask 1: {med['dask 1 worker'] / med['dask 2 workers']:.2f}; "
          f"dask 1 / threads 1: {med['threads 1'] / med['dask 1 worker']:.2f}")
    print(f"load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after "
          f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} on {os.cpu_count()} cores; "
          f"policy {a.policy}, {a.repeats} rounds")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("what", choices=["memory", "dask", "scaling", "compare"])
    p.add_argument("--deals", type=int, default=2_000_000)
    p.add_argument("--policy", default="heuristic")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--workers", type=int, default=None)
    a = p.parse_args()
    {"memory": memory, "dask": dask, "scaling": scaling, "compare": compare}[a.what](a)


if __name__ == "__main__":
    main()
