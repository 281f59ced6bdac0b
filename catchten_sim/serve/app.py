"""The ASGI application of ``catchten serve``: the page, its static files and the JSON API.

Starlette (not FastAPI): the API's input is checked by the package's own parsers, which
give the CLI's one-line errors; FastAPI's pydantic layer would give other messages and
pull in a second validation system. Every request's work runs in the worker pool
(:mod:`catchten_sim.serve.pool`).

Guards: the Host header must name this machine (DNS rebinding), a POST must be
``application/json`` (so that another site's form cannot post here; no CORS headers are
ever sent), bodies are limited to ``MAX_BODY`` bytes, unknown keys are refused.
"""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import CatchTenError, ParseError
from ..inputs import parse_json
from . import api
from .pool import Busy, Job, Pool
from .words import plain_answer

#: the largest request body accepted (bytes): a position or a hand record is a few KB
MAX_BODY = 256 * 1024
STATIC = resources.files("catchten_sim.serve") / "static"
#: HTTP status of a job's error by the CLI's exit status: 2 bad input, 1 a failure on
#: good input (a solve beyond its node budget), 3 an internal error, 5 past the time limit,
#: 130 stopped with the server (Ctrl-C)
STATUS = {2: 400, 1: 422, 3: 500, 5: 504, 130: 503}


class HttpError(Exception):
    def __init__(self, status: int, line: str, field: str | None = None,
                 why: str | None = None) -> None:
        super().__init__(line)
        self.status, self.line, self.field, self.why = status, line, field, why


def _error(status: int, line: str, field: str | None = None, why: str | None = None
           ) -> JSONResponse:
    """``{"error": "<the line the CLI prints>", "field", "why"}``."""
    return JSONResponse({"error": line, "field": field, "why": why}, status_code=status)


def _cli_error(exc: CatchTenError) -> HttpError:
    exc = api.page_error(exc)
    return HttpError(STATUS.get(exc.exit_status, 400), f"error: {exc.line()}", exc.field,
                     exc.why)


async def read_json(request: Request) -> Any:
    """The request's JSON body, checked: content type, size, JSON."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise HttpError(415, "error: body: not JSON (send Content-Type: application/json)",
                        "body", "not JSON")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise HttpError(413, f"error: body: too large (at most {MAX_BODY:,} bytes)", "body",
                        "too large")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise HttpError(413, f"error: body: too large (at most {MAX_BODY:,} bytes)",
                            "body", "too large")
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HttpError(400, f"error: body: not UTF-8 text (byte {exc.start})", "body",
                        "not UTF-8") from None
    try:
        return parse_json(text, "body", "the request body")
    except CatchTenError as exc:
        raise _cli_error(exc) from None


def _time_limit(kind: str, body: Any, max_time: float) -> float:
    """The job's own time limit (checked in the request, before it is queued)."""
    if kind == "advise":
        _, kw, _ = api.advise_args(body, max_time)
        return float(kw["time_limit"])
    if kind == "solve":
        return api.solve_args(body, max_time)[2]
    return max_time


def _final(ev: tuple) -> Response:
    if ev[0] == "result":
        return JSONResponse(ev[1])
    if ev[0] == "cancelled":
        return _error(499, "error: interrupted: the request was cancelled", None,
                      "interrupted")
    _, status, line, field, why = ev
    return _error(STATUS.get(status, 400), f"error: {line}", field, why)


def _sse(event: str, data: Any) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, allow_nan=False)}\n\n".encode()


def create_app(workers: int = 2, queue: int = 8, threads: int | None = None,
               warm: bool = True, allowed_hosts: tuple[str, ...] = (),
               max_time: float = api.MAX_TIME) -> HostCheck:
    """The application. ``allowed_hosts``: host names besides this machine's loopback
    names that the Host header may give (``catchten serve --host``)."""
    pool = Pool(workers=workers, queue=queue, threads=threads, warm=warm)
    hosts = {"127.0.0.1", "localhost", "::1", *allowed_hosts}

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await pool.start()
        try:
            yield
        finally:
            await pool.close()

    async def submit(kind: str, request: Request) -> Job:
        body = await read_json(request)
        try:
            limit = _time_limit(kind, body, max_time)
        except CatchTenError as exc:
            raise _cli_error(exc) from None
        try:
            return pool.submit(kind, body, limit)
        except Busy as exc:
            raise HttpError(503, f"error: busy: {exc}", None, "busy") from None

    async def wait(request: Request, job: Job) -> Response:
        """The job's answer; the job is cancelled when the client goes away."""
        waiter = asyncio.ensure_future(job.result())
        try:
            while True:
                done, _ = await asyncio.wait({waiter}, timeout=0.25)
                if done:
                    return _final(waiter.result())
                if await request.is_disconnected():
                    job.cancel()
                    return _final(await waiter)
        finally:
            if not waiter.done():
                job.cancel()
                waiter.cancel()

    def job_route(kind: str):
        async def route(request: Request) -> Response:
            return await wait(request, await submit(kind, request))
        return route

    def stream_route(kind: str):
        async def route(request: Request) -> Response:
            job = await submit(kind, request)

            async def events():
                try:
                    # "queued" says the job's own place: how many jobs wait before it,
                    # and its state: "waiting" for a free worker (every one busy or
                    # warming) or "starting" (one is taking it); "started" follows when
                    # a worker takes it, at once when one is free
                    yield _sse("queued", {**pool.status(), "job": job.id, "ahead": pool.ahead(
                        job), "state": pool.job_state(job), "time": job.time_limit})
                    while True:
                        ev = await job.events.get()
                        if ev[0] == "started":
                            yield _sse("started", {"job": job.id, "time": job.time_limit})
                            continue
                        if ev[0] == "progress":
                            yield _sse("progress", {"done": ev[1], "total": ev[2]})
                            continue
                        if ev[0] == "running":
                            yield _sse("running", {"done": ev[1], "means": ev[2]})
                            continue
                        if ev[0] == "result":
                            yield _sse("result", ev[1])
                        elif ev[0] == "cancelled":
                            yield _sse("error", {"error": "error: interrupted: the request "
                                                 "was cancelled", "why": "interrupted"})
                        else:
                            _, status, line, field, why = ev
                            yield _sse("error", {"error": f"error: {line}", "field": field,
                                                 "why": why, "status": STATUS.get(status)})
                        return
                finally:
                    job.cancel()        # the page went away, or Cancel: stop the work
            return StreamingResponse(events(), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-store",
                                              "X-Accel-Buffering": "no"})
        return route

    async def inline(request: Request, fn) -> Response:
        body = await read_json(request)
        try:
            return JSONResponse(fn(body))
        except CatchTenError as exc:
            raise _cli_error(exc) from None

    def inline_route(fn):
        async def route(request: Request) -> Response:
            return await inline(request, fn)
        return route

    async def words_route(request: Request) -> Response:
        def words(body):
            if not isinstance(body, dict):
                raise ParseError("body", "not an object", "a JSON object")
            from ..errors import check_keys
            check_keys(body, ("rollout", "dd"))
            if body.get("rollout") is None and body.get("dd") is None:
                raise ParseError("rollout", "missing",
                                 "give rollout or dd (an advise --json answer), or both")
            return plain_answer(body.get("rollout"), body.get("dd"))
        return await inline(request, words)

    async def status_route(request: Request) -> Response:
        # max_time: this server's cap on one request's time (the page says it)
        return JSONResponse({**pool.status(), "max_time": max_time})

    async def index(request: Request) -> Response:
        return FileResponse(str(STATIC / "index.html"), headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", index),
        Route("/api/status", status_route),
        Route("/api/advise", job_route("advise"), methods=["POST"]),
        Route("/api/advise/stream", stream_route("advise"), methods=["POST"]),
        Route("/api/solve", job_route("solve"), methods=["POST"]),
        Route("/api/deal", job_route("deal"), methods=["POST"]),
        Route("/api/simulate", job_route("simulate"), methods=["POST"]),
        Route("/api/simulate/stream", stream_route("simulate"), methods=["POST"]),
        Route("/api/rules", inline_route(api.rules_json), methods=["POST"]),
        Route("/api/words", words_route, methods=["POST"]),
        Route("/api/next", inline_route(api.next_json), methods=["POST"]),
        Route("/api/check", inline_route(api.check_json), methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HttpError)
        return _error(exc.status, exc.line, exc.field, exc.why)

    async def not_found(request: Request, exc: Exception) -> Response:
        code = getattr(exc, "status_code", 404)
        return _error(code, f"error: {request.url.path}: "
                      f"{'no such page' if code == 404 else 'method not allowed'}")

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HttpError: http_error, 404: not_found,
                                        405: not_found})
    app.state.pool = pool
    return HostCheck(app, hosts)


class HostCheck:
    """Refuse a request whose Host header names another machine (a page of another site
    reaching this server through DNS rebinding), before it reaches the application."""

    def __init__(self, app, hosts: set[str]) -> None:
        self.app = app
        self.hosts = hosts
        self.state = app.state

    def allowed(self, host: str) -> bool:
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        name = name.strip("[]").lower()
        if name in self.hosts or "*" in self.hosts:
            return True
        if "any-ip" in self.hosts:
            with contextlib.suppress(ValueError):
                ipaddress.ip_address(name)
                return True
        return False

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not self.allowed(host):
                resp = _error(421, f"error: host: not allowed ({host!r}: this server answers "
                              "only requests addressed to it by name)", "host", "not allowed")
                await resp(scope, receive, send)
                return
        await self.app(scope, receive, send)

