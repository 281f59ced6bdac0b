"""``catchten serve``: the analysis page (a position set up by clicking, every legal card
valued by rollouts and double-dummy side by side) and its JSON API (docs/serve.md).

:func:`create_app` builds the ASGI application; :func:`run_server` runs it with uvicorn.
"""
from __future__ import annotations

import os
import socket
import threading
import webbrowser

from ..checks import check_count
from ..errors import CatchTenError

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def create_app(**kw):
    """The Starlette application (:func:`catchten_sim.serve.app.create_app`)."""
    from .app import create_app as make
    return make(**kw)


def default_workers() -> int:
    """Worker processes: two (one advice's rollouts and its dd run side by side), one on a
    single core."""
    return 2 if (os.cpu_count() or 1) >= 2 else 1


def run_server(host: str = "127.0.0.1", port: int = 8765, open_browser: bool = True,
               workers: int | None = None, say=print) -> None:
    """Serve the page until Ctrl-C. Raises :class:`CatchTenError` (``port``) when the
    address cannot be bound."""
    import uvicorn
    port = check_count("port", port, 1, 65535)
    if workers is not None:
        workers = check_count("workers", workers, 1, 64)
    n = workers or default_workers()
    # each job may use every core (numba threads): the page runs its rollouts, then dd
    threads = os.cpu_count() or 1
    try:                           # a clear line instead of uvicorn's log when in use
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        with socket.socket(infos[0][0], socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(infos[0][4])
    except OSError as exc:
        raise CatchTenError("port", "cannot listen", f"{host}:{port}: {exc.strerror or exc}"
                            ) from None
    extra: tuple[str, ...] = ()
    if host not in LOOPBACK:
        say(f"warning: --host {host}: the page and its API answer every machine that can "
            "reach this one (no login); use the default 127.0.0.1 to keep it to this one")
        extra = (host, socket.gethostname().lower(), socket.getfqdn().lower(), "any-ip")
    app = create_app(workers=n, threads=threads, allowed_hosts=extra)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=5, lifespan="on")
    cancelled: dict[str, int] = {}

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            # before uvicorn waits for the open requests: stop their jobs, so that each
            # ends with its final answer (an advice what it finished) and none is cut
            # off by uvicorn's own timeout (a traceback and a bare 500)
            cancelled.update(await app.state.pool.stop_jobs())
            await super().shutdown(sockets)
    server = Server(config)

    def announce() -> None:
        while not server.started and not server.should_exit:
            threading.Event().wait(0.05)
        if server.started:
            say(f"catchten serve: {url}  (Ctrl-C stops it; the engine warms up in the "
                f"background, {n} worker{'s' if n > 1 else ''})")
            if open_browser:
                webbrowser.open(url)
    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:       # uvicorn hands the Ctrl-C on once it has shut down
        pass
    say(f"catchten serve: stopped{stopped_words(cancelled)}")


#: a job's kind in words: (one, several)
KIND_WORDS = {"advise": ("advice", "advice runs"), "simulate": ("simulation", "simulations"),
              "solve": ("solve", "solves"), "deal": ("deal", "deals")}


def stopped_words(cancelled: dict[str, int]) -> str:
    """`` (1 advice cancelled)``: the jobs a stop cancelled, by kind ("" when none)."""
    kinds = [k for k in KIND_WORDS if k in cancelled] + \
        [k for k in cancelled if k not in KIND_WORDS]
    parts = [f"{cancelled[k]} {KIND_WORDS.get(k, (k, k + 's'))[cancelled[k] != 1]}"
             for k in kinds if cancelled[k]]
    return f" ({', '.join(parts)} cancelled)" if parts else ""
