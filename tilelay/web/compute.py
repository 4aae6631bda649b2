"""CPU work of the web app, off the event loop and under a time limit that holds.

Every handler that computes (a page of drawings, a map, a route search, a replay, a
Carcassonne game) runs its work through :func:`compute` (or is an :func:`offloaded` handler):
the work runs in a worker thread, so the event loop keeps answering other requests, and past
:data:`REQUEST_SECONDS` the request answers 503 (the server is busy) instead of holding its
client. The work itself is stopped then too: the worker thread gets a :class:`Deadline`
exception at its next Python instruction (CPython's ``PyThreadState_SetAsyncExc``), so a
request that would compute for minutes does not keep a core busy after its answer.

The server runs several processes (``tilelay serve --workers N``, one per core by default),
each with its own event loop and worker threads, so throughput grows with the cores.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from tilelay.web.errors import WebError

__all__ = ["REQUEST_SECONDS", "Deadline", "compute", "offloaded", "request_seconds"]

#: The longest a request may compute before it answers 503 (``TILELAY_REQUEST_SECONDS``
#: sets another limit, from 0.1 to 600 seconds).
REQUEST_SECONDS = 20.0

_P = ParamSpec("_P")
_T = TypeVar("_T")


class Deadline(BaseException):
    """Raised inside a computation whose request has run out of time (it has already been
    answered 503). A ``BaseException``, so ``except Exception`` in the work does not catch
    it."""


def request_seconds() -> float:
    """The time limit of a request: ``TILELAY_REQUEST_SECONDS`` when it is a number from 0.1
    to 600, else :data:`REQUEST_SECONDS`."""
    text = os.environ.get("TILELAY_REQUEST_SECONDS", "")
    try:
        value = float(text)
    except ValueError:
        return REQUEST_SECONDS
    return value if 0.1 <= value <= 600 else REQUEST_SECONDS


def _raise_in(ident: int, exc: type[BaseException] | None) -> None:
    """Raise ``exc`` in thread ``ident`` at its next instruction (``None``: clear it)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(exc) if exc is not None else ctypes.c_void_p(0)
    )


class _Run:
    """One computation in a worker thread, which :meth:`stop` can interrupt until it ends."""

    def __init__(self, call: Callable[[], _T]) -> None:
        self.call = call
        self.lock = threading.Lock()
        self.ident: int | None = None
        self.finished = False
        self.stopped = False

    def run(self) -> object:
        try:
            with self.lock:
                self.ident = threading.get_ident()
            return self.call()
        except Deadline:
            return None  # the request has been answered 503 already
        finally:
            self._finish()

    def _finish(self) -> None:
        # After this no Deadline can be pending: one raised while finishing is caught here,
        # and stop() raises none once finished is set.
        while True:
            try:
                with self.lock:
                    self.finished = True
                    if self.stopped and self.ident is not None:
                        _raise_in(self.ident, None)
                return
            except Deadline:
                continue

    def stop(self) -> None:
        with self.lock:
            if self.ident is not None and not self.finished and not self.stopped:
                self.stopped = True
                _raise_in(self.ident, Deadline)


async def compute(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """``fn(*args, **kwargs)`` in a worker thread, within :func:`request_seconds`.

    Raises a 503 :class:`~tilelay.web.errors.WebError` when the limit passes first, and
    stops the computation.
    """
    seconds = request_seconds()
    run = _Run(functools.partial(fn, *args, **kwargs))
    try:
        with anyio.fail_after(seconds):
            result = await anyio.to_thread.run_sync(run.run, abandon_on_cancel=True)
    except TimeoutError:
        run.stop()
        raise WebError(
            f"the server is busy: this request needs more than {seconds:g} s", 503
        ) from None
    return result  # type: ignore[return-value]


def offloaded(handler: Callable[[Request], Response]) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint that runs the synchronous ``handler`` through :func:`compute`."""

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        return await compute(handler, request)

    return endpoint
