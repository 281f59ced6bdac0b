"""Run directories (:class:`RunDir`): a manifest and one Parquet file per finished chunk,
the engine fingerprint that keeps two builds' chunks apart, and opening a directory of any
kind (:func:`open_any`, for ``catchten resume`` / ``catchten summarize``)."""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import CatchTenError
from .plan import Chunk, _version


RUN_FORMAT = "catchten-run/1"
#: manifest entries that say where or when, not what: a run directory reopened with other
#: values there is the same run (``out``: where a report's files go; ``outputs``: the files
#: the command writes besides, e.g. ``equity --out``, ``match --report``, which ``catchten
#: resume`` writes again); a reopening that gives new ones records them
UNCOMPARED = frozenset({"created", "out", "outputs"})
MANIFEST = "manifest.json"
CHUNKS = "chunks"



#: the sources whose code decides a run's numbers, for every kind of run: the kernels, the
#: cards, rules, policies and their tables, the accumulator, and the solvers pimc seats use
#: (paths relative to the package; globs allowed)
ENGINE_SOURCES = ("_kernels/*.py", "cards.py", "rules.py", "policies.py", "tables.py",
                  "aggregate.py", "state.py", "deals.py", "play.py", "determinize.py",
                  "evaluators.py", "pimc.py", "checks.py")
#: and the module of each kind that makes its chunks (its task; a report's runs are
#: simulations with counts from report.py); the chunk plan is in the manifest itself
KIND_SOURCES = {"simulate": ("simulate.py",), "games": ("games.py",),
                "equity": ("games.py", "equity.py"), "match": ("match.py",),
                "report": ("simulate.py", "report.py")}


def engine_fingerprint(kind: str, reduce: str | None = None) -> str:
    """A hash (12 hex digits) of the sources that decide the numbers of a run of ``kind``
    (:data:`ENGINE_SOURCES`, :data:`KIND_SOURCES`; with a ``reduce``, its module too): a run
    directory records it and is refused by a build whose fingerprint differs, since the
    package version does not change with every commit. Any edit of those files (a
    docstring too) changes it: strict by design, chunks of two builds never mix."""
    return _fingerprint(kind, reduce)


@functools.cache
def _fingerprint(kind: str, reduce: str | None) -> str:
    root = Path(__file__).resolve().parent.parent      # the package
    names = list(ENGINE_SOURCES) + list(KIND_SOURCES.get(kind, ()))
    if reduce is not None:
        mod = REDUCERS.get(reduce, "").split(":")[0]
        if mod:
            names.append(mod.split(".", 1)[1].replace(".", "/") + ".py")
    files = sorted({f for n in names for f in root.glob(n)})
    h = hashlib.sha256()
    for f in files:
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(f.read_bytes().replace(b"\r\n", b"\n") + b"\0")
    return h.hexdigest()[:12]


#: the run directory this process last ran chunks in (a Ctrl-C that reaches the command
#: line before any result was printed names it, for ``catchten resume``)
LAST_RUN_DIR: Path | None = None


class RunDir:
    """A run directory: ``manifest.json`` (what the run is) and ``chunks/`` (one Parquet
    file per finished chunk, ``chunk-NNNNNNNN.parquet``, written under a temporary name
    and renamed, so a file that exists is whole). A kill loses only chunks in flight.

    The manifest holds the format, the package version, the engine fingerprint
    (:func:`engine_fingerprint`), the job (``kind`` and its parameters: rules, policies,
    seed, items, chunk) and the plan size. A directory whose manifest differs from the job
    asked for, or from another package version or build of the engine, is refused.

    ``sessions.json`` logs where each session's chunks ran (:meth:`note_session`), for
    ``catchten summarize``; it is not part of the run's identity.

    Each chunk file is a table ``chunk, first, count, i, value`` (int64): the chunk's
    partial result as ``value[i]`` (see the task's ``to_array``), so the directory reads as
    one Parquet dataset (``pandas.read_parquet(DIR / "chunks")``).
    """

    def __init__(self, path: str | Path, manifest: dict[str, Any]) -> None:
        self.path = Path(path)
        self.manifest = manifest
        #: False: :func:`run` folds the chunks there and runs none (``catchten summarize``)
        self.compute = True
        #: chunks this process ran and wrote here (0 after the resume of a finished run)
        self.ran = 0

    # -- creation and opening
    @classmethod
    def create_or_open(cls, path: str | Path | RunDir, job: dict[str, Any]) -> RunDir:
        """Start a run directory for ``job``, or reopen one made for the same job (the run
        then continues where it stopped).

        Raises
        ------
        CatchTenError
            ``run-dir: cannot write`` (read-only, full disk, not a directory),
            ``run-dir: not a run directory`` (a non-empty directory without a manifest),
            ``run-dir: made for another run`` (a different job or package version).
        """
        from ..paths import ensure_dir
        want = {"format": RUN_FORMAT, "version": _version(),
                "engine": engine_fingerprint(job["kind"], job.get("reduce")),
                **json.loads(json.dumps(job))}
        if isinstance(path, RunDir):
            opened: RunDir | None = path
            p = path.path
        else:
            opened, p = None, Path(path)
            ensure_dir(p, "run-dir")
        if opened is not None or (p / MANIFEST).exists():
            rd = opened if opened is not None else cls.open(p)
            first = ["kind", "rules", "policies", "seed", "deals", "chunk", "plan"]
            for k in first + sorted((set(want) | set(rd.manifest)) - set(first)):
                if k not in UNCOMPARED and want.get(k) != rd.manifest.get(k):
                    raise CatchTenError("run-dir", "made for another run",
                                        f"{p}: {k} is {rd.manifest.get(k)!r} there, "
                                        f"{want.get(k)!r} here; use another directory")
            moved = {k: want[k] for k in UNCOMPARED - {"created"}
                     if want.get(k) is not None and want[k] != rd.manifest.get(k)}
            if moved:          # the files go elsewhere now: a resume writes them there
                rd.manifest.update(moved)
                rd._atomic_write(p / MANIFEST,
                                 (json.dumps(rd.manifest, indent=2) + "\n").encode())
            return rd
        if any(p.iterdir()):
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p}: not empty and has no {MANIFEST}")
        rd = cls(p, {**want, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")})
        rd._mkdir(p / CHUNKS)
        rd._atomic_write(p / MANIFEST, (json.dumps(rd.manifest, indent=2) + "\n").encode())
        return rd

    @classmethod
    def open(cls, path: str | Path) -> RunDir:
        """Open an existing run directory (for resume / summarize).

        Raises
        ------
        CatchTenError
            ``run-dir: not a run directory`` (no readable manifest) or ``run-dir: made by
            another version`` (format or package version differ), ``run-dir: made by
            another build of the engine`` (the engine fingerprint differs or is missing).
        """
        p = Path(path)
        try:
            manifest = json.loads((p / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p}: no {MANIFEST}") from None
        except (OSError, ValueError) as exc:
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p / MANIFEST}: {getattr(exc, 'strerror', None) or exc}"
                                ) from None
        if not isinstance(manifest, dict) or manifest.get("format") != RUN_FORMAT:
            fmt = manifest.get("format") if isinstance(manifest, dict) else None
            raise CatchTenError("run-dir", "not a run directory",
                                f"{p}: format {fmt!r}, expected {RUN_FORMAT}")
        if manifest.get("version") != _version():
            raise CatchTenError("run-dir", "made by another version",
                                f"{p}: catchten_sim {manifest.get('version')}, this is "
                                f"{_version()}; resume it with that version")
        kind = manifest.get("kind")
        here = engine_fingerprint(str(kind), manifest.get("reduce"))
        if manifest.get("engine") != here:
            raise CatchTenError("run-dir", "made by another build of the engine",
                                f"{p}: fingerprint {manifest.get('engine') or 'none'}, this "
                                f"is {here}; its chunks would not mix with this build's")
        return cls(p, manifest)

    # -- one run at a time
    LOCK = ".lock"

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the directory for one run: a second run of it (another process) is refused.
        An advisory ``flock`` on ``DIR/.lock`` (which names the holder's pid): the system
        drops it when the holder dies, so a killed run leaves no stale lock. Without
        ``fcntl`` (Windows) runs are not locked.

        Raises
        ------
        CatchTenError
            ``run-dir: in use`` (another process is running it).
        """
        try:
            import fcntl
        except ImportError:         # pragma: no cover - not on POSIX
            yield
            return
        path = self.path / self.LOCK
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise CatchTenError("run-dir", "cannot write", f"{path}: {exc.strerror}") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
                raise CatchTenError("run-dir", "in use",
                                    f"{self.path}: another run (pid {holder}) is running it; "
                                    "wait for it, or stop it first") from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            global LAST_RUN_DIR
            LAST_RUN_DIR = self.path
            try:
                yield
            finally:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)

    # -- where the run ran (the manifest is fixed; this log grows with each session)
    SESSIONS = "sessions.json"

    def sessions(self) -> list[dict[str, Any]]:
        """Each session that ran chunks here: ``executor`` (its description), ``chunks``
        (how many it finished), ``items`` (deals, games) and ``compute_s`` (its wall time
        running them, seconds), ``ended`` (time). Empty when unknown (a killed session
        leaves no entry: its chunks are still counted by the files)."""
        try:
            data = json.loads((self.path / self.SESSIONS).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return data if isinstance(data, list) else []

    def note_session(self, executor: str, chunks: int, items: int = 0,
                     compute_s: float = 0.0) -> None:
        """Add a session to the log (best effort: a log that cannot be written is skipped,
        the chunks themselves are what count)."""
        entry = {"executor": executor, "chunks": chunks, "items": int(items),
                 "compute_s": round(float(compute_s), 3),
                 "ended": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        with contextlib.suppress(CatchTenError):
            self._atomic_write(self.path / self.SESSIONS,
                               (json.dumps(self.sessions() + [entry], indent=1) + "\n").encode())

    def compute_seconds(self) -> float:
        """The run's own compute time: the sum of the logged sessions' ``compute_s`` (a
        killed session's time is not known, so not counted)."""
        return round(sum(float(e.get("compute_s") or 0) for e in self.sessions()), 3)

    def executors_text(self) -> str:
        """Where the chunks ran, for a summary line: ``threads, 2`` or ``threads, 2; then
        Dask LocalCluster, 2 worker threads`` (``unknown`` without a log)."""
        seen: list[str] = []
        for e in self.sessions():
            if e.get("chunks") and e.get("executor") not in seen:
                seen.append(str(e.get("executor")))
        return "; then ".join(seen) if seen else "unknown (no finished session logged)"

    # -- chunks
    def chunk_path(self, index: int) -> Path:
        return self.path / CHUNKS / f"chunk-{index:08d}.parquet"

    def write_chunk(self, c: Chunk, values: np.ndarray) -> None:
        """Write one finished chunk's partial result (atomically)."""
        import pyarrow as pa
        import pyarrow.parquet as pq
        n = len(values)
        table = pa.table({"chunk": np.full(n, c.index, np.int64),
                          "first": np.full(n, c.first, np.int64),
                          "count": np.full(n, c.count, np.int64),
                          "i": np.arange(n, dtype=np.int64),
                          "value": np.asarray(values, np.int64)})
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        self._atomic_write(self.chunk_path(c.index), sink.getvalue().to_pybytes())

    def chunk_files(self) -> list[Path]:
        """The finished chunks' files (not a killed run's temporary ones)."""
        return sorted((self.path / CHUNKS).glob("chunk-*.parquet"))

    def complete(self) -> bool:
        """True when every chunk of the manifest's plan is there: the run is finished, a
        resume has nothing to run (a match that stopped at a look is finished with fewer:
        False here)."""
        n = (self.manifest.get("plan") or {}).get("chunks")
        return isinstance(n, int) and n > 0 and len(self.chunk_files()) >= n

    def read_chunks(self, edges: np.ndarray) -> dict[int, np.ndarray]:
        """The partial results of the finished chunks by index (checked against the plan;
        leftover temporary files of a killed run are ignored)."""
        import pyarrow.parquet as pq
        out: dict[int, np.ndarray] = {}
        for f in self.chunk_files():
            try:
                t = pq.read_table(f)
                idx = int(f.stem.split("-")[1])
                chunk = t.column("chunk").to_numpy()
                first = t.column("first").to_numpy()
                count = t.column("count").to_numpy()
                order = t.column("i").to_numpy()
                values = t.column("value").to_numpy()
            except Exception as exc:  # noqa: BLE001 - any unreadable file: one line
                raise CatchTenError("run-dir", "unreadable chunk file", f"{f}: {exc}") from None
            ok = (0 <= idx < len(edges) - 1 and len(values) > 0
                  and (chunk == idx).all() and (first == edges[idx]).all()
                  and (count == edges[idx + 1] - edges[idx]).all()
                  and (order == np.arange(len(values))).all())
            if not ok:
                raise CatchTenError("run-dir", "chunk file does not fit the plan", str(f))
            out[idx] = values.astype(np.int64)
        return out

    # -- file plumbing: one clear line for read-only or full disks
    def _mkdir(self, p: Path) -> None:
        try:
            p.mkdir(exist_ok=True)
        except OSError as exc:
            raise CatchTenError("run-dir", "cannot write", f"{p}: {exc.strerror}") from None

    def _atomic_write(self, target: Path, data: bytes) -> None:
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, target)
        except OSError as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise CatchTenError("run-dir", "cannot write",
                                f"{target}: {exc.strerror or type(exc).__name__}") from None


def open_of_kind(run_dir: str | Path | RunDir, kinds: tuple[str, ...], what: str,
                 parse: Callable[[dict[str, Any]], Any]) -> tuple[RunDir, Any]:
    """A run directory of one of ``kinds`` (or an opened one) and ``parse(manifest)``: the
    arguments of the call that made it. ``manifest["rules"]`` can be read with
    :func:`manifest_rules`.

    Raises
    ------
    CatchTenError
        As :meth:`RunDir.open`; ``run-dir: not WHAT`` (another kind); ``run-dir: bad
        manifest`` (``parse`` met a missing or ill-typed field).
    """
    rd = run_dir if isinstance(run_dir, RunDir) else RunDir.open(run_dir)
    m = rd.manifest
    if m.get("kind") not in kinds:
        hint = (f"; read it with: catchten summarize {rd.path} (catchten resume {rd.path} "
                "finishes it if it is not finished)") if m.get("kind") in KINDS else ""
        raise CatchTenError("run-dir", f"not {what}",
                            f"{rd.path}: kind {m.get('kind')!r}{hint}")
    try:
        return rd, parse(m)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise CatchTenError("run-dir", "bad manifest", f"{rd.path}: {exc!r}") from None


def manifest_rules(m: dict[str, Any]) -> Any:
    """The :class:`~catchten_sim.rules.Rules` of a manifest."""
    from ..rules import Rules
    r = m["rules"]
    return Rules(r["preset"], r["players"], r["variants"])


#: the ``reduce`` counts a run directory can name (``module:class``, built from the rules)
REDUCERS = {"ten_by_side": "catchten_sim.report:TenBySide"}


#: the module whose ``from_run_dir(run_dir, **options)`` finishes (or, with
#: ``run_dir.compute`` false, summarizes) each kind of run directory
KINDS = {"simulate": "simulate", "games": "games", "equity": "equity", "match": "match",
         "report": "report"}


def open_any(path: str | Path, compute: bool = True) -> tuple[RunDir, Callable[..., Any]]:
    """A run directory of any kind and the ``from_run_dir`` that finishes it.

    Raises
    ------
    CatchTenError
        As :meth:`RunDir.open`; ``run-dir: unknown kind``.
    """
    import importlib
    rd = RunDir.open(path)
    rd.compute = compute
    kind = rd.manifest.get("kind")
    if kind not in KINDS:
        raise CatchTenError("run-dir", "unknown kind", f"{rd.path}: kind {kind!r}")
    mod = importlib.import_module(f"catchten_sim.{KINDS[kind]}")
    return rd, mod.from_run_dir

