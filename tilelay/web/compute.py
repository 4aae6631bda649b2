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

A search that may be cut short (:func:`limited_search`) is remembered when it is: the same
search asked again (the same board, corporation, phase and trains, e.g. after an undo, a
toggle of the reach or another look at a record's step) answers at once that it takes too
long, rather than making its client wait out the limit again (:class:`TimedOutSearches`).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from typing import ParamSpec, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import Response

from tilelay.web.errors import WebError

__all__ = [
    "REQUEST_SECONDS",
    "SEARCH_SHARE",
    "TIMED_OUT",
    "Deadline",
    "TimeUp",
    "TimedOutSearches",
    "compute",
    "limited_search",
    "offloaded",
    "request_seconds",
    "search_seconds",
    "time_limit",
]

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


class _Alarm:
    """Interrupts the work of one thread with ``exc`` (:meth:`ring`) until the work ends
    (:meth:`finish`): after that no ``exc`` is raised there, nor left pending."""

    def __init__(self, exc: type[BaseException]) -> None:
        self.exc = exc
        self.lock = threading.Lock()
        self.ident: int | None = None
        self.finished = False
        self.rung = False

    def start(self) -> None:
        """The work begins, in this thread."""
        with self.lock:
            self.ident = threading.get_ident()

    def ring(self) -> None:
        with self.lock:
            if self.ident is not None and not self.finished and not self.rung:
                self.rung = True
                _raise_in(self.ident, self.exc)

    def finish(self) -> None:
        # An exc raised while finishing is caught here, and ring() raises none once finished
        # is set.
        while True:
            try:
                with self.lock:
                    self.finished = True
                    if self.rung and self.ident is not None:
                        _raise_in(self.ident, None)
                return
            except self.exc:
                continue


class _Run:
    """One computation in a worker thread, which :meth:`stop` can interrupt until it ends."""

    def __init__(self, call: Callable[[], _T]) -> None:
        self.call = call
        self.alarm = _Alarm(Deadline)

    def run(self) -> object:
        try:
            self.alarm.start()
            return self.call()
        except Deadline:
            return None  # the request has been answered 503 already
        finally:
            self.alarm.finish()

    def stop(self) -> None:
        self.alarm.ring()


class TimeUp(BaseException):
    """Raised inside a :func:`time_limit` block whose time has passed (a ``BaseException``, as
    :class:`Deadline`)."""


#: The share of a request's time limit that one route search of a page may take: past it the
#: page shows without the best routes (and says so) rather than answering 503.
SEARCH_SHARE = 0.75


def search_seconds(share: float = SEARCH_SHARE) -> float:
    """``share`` of the request's time limit (:func:`request_seconds`)."""
    return share * request_seconds()


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Run the block in this thread for at most ``seconds`` (None: for as long as it takes):
    then it is stopped by :class:`TimeUp` at its next Python instruction (for one part of a
    request's work that may take long, such as one route search of many, which the request
    can do without)."""
    if seconds is None:
        yield
        return
    alarm = _Alarm(TimeUp)
    alarm.start()
    timer = threading.Timer(max(seconds, 0.0), alarm.ring)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        alarm.finish()


class TimedOutSearches:
    """The searches that took longer than their time limit, remembered by their key (any
    JSON data saying what was searched: kept as a digest, 32 bytes however long the board),
    with the limit they ran out of: the most recent ``kept`` for ``seconds`` each (by
    ``clock``).

    Forgotten after ``seconds`` because a search may have run out of time only because the
    machine was busy then; the oldest forgotten first past ``kept``, so the memory stays
    bounded."""

    def __init__(
        self,
        kept: int = 4096,
        seconds: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.kept = kept
        self.seconds = seconds
        self.clock = clock
        self._lock = threading.Lock()
        #: digest of the key -> (the limit it ran out of, when by the clock)
        self._searches: OrderedDict[bytes, tuple[float, float]] = OrderedDict()

    @staticmethod
    def _digest(key: object) -> bytes:
        text = json.dumps(key, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).digest()

    def __len__(self) -> int:
        return len(self._searches)

    def remember(self, key: object, limit: float) -> None:
        """The search of ``key`` took longer than ``limit`` seconds."""
        digest = self._digest(key)
        with self._lock:
            self._searches[digest] = (limit, self.clock())
            self._searches.move_to_end(digest)
            while len(self._searches) > self.kept:
                self._searches.popitem(last=False)

    def timed_out(self, key: object, limit: float) -> bool:
        """Whether the search of ``key`` took longer than ``limit`` seconds, as far as this
        process remembers: it ran out of a limit as long or longer (a longer limit now may
        be enough, so it is searched again)."""
        digest = self._digest(key)
        with self._lock:
            held = self._searches.get(digest)
            if held is None:
                return False
            if self.clock() - held[1] > self.seconds:
                del self._searches[digest]
                return False
            return held[0] >= limit

    def clear(self) -> None:
        """Forget every search."""
        with self._lock:
            self._searches.clear()


#: The searches of this process that took longer than their limit (:func:`limited_search`).
TIMED_OUT = TimedOutSearches()


def limited_search(
    key: object | None, seconds: float | None, search: Callable[[], _T]
) -> _T | None:
    """``search()`` for at most ``seconds`` (:func:`time_limit`; None: for as long as it
    takes; 0 or less: not at all); None when it takes longer, now or before: a search of
    ``key`` (JSON data naming everything the search depends on; None: not remembered) that
    ran out of as much time before is not tried again (:data:`TIMED_OUT`), so asking again
    answers at once. ``search`` returns something other than None."""
    if seconds is None:
        return search()
    if seconds <= 0 or (key is not None and TIMED_OUT.timed_out(key, seconds)):
        return None
    try:
        with time_limit(seconds):
            return search()
    except TimeUp:
        if key is not None:
            TIMED_OUT.remember(key, seconds)
        return None


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
