"""The web app with one more page, for bench_load.py only: ``/bench/slow?seconds=S`` computes
(pure Python, holding a core) for S seconds through :func:`tilelay.web.compute.compute`, the
same path every real page's work takes. It stands for a request that computes for long, so
that the benchmark can show the other pages are answered meanwhile.

Run by bench_load.py as ``uvicorn --factory _slow_app:create_app --app-dir benchmarks``.
"""

from __future__ import annotations

import time

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from tilelay.web import create_app as tilelay_app
from tilelay.web.compute import compute


def _spin(seconds: float) -> int:
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        n += sum(range(200))
    return n


async def slow(request: Request) -> Response:
    seconds = min(float(request.query_params.get("seconds", "1")), 120.0)
    await compute(_spin, seconds)
    return PlainTextResponse(f"computed for {seconds:g} s\n")


def create_app() -> Starlette:
    """tilelay's app with ``/bench/slow`` first among its routes."""
    app = tilelay_app()
    app.router.routes.insert(0, Route("/bench/slow", slow))
    return app
