"""CPU work of the web app, off the event loop and under a time limit.

Every handler that computes more than a drawing of one tile (a map, a route search, a replay)
awaits :func:`compute`: the work runs in a worker thread, so the event loop keeps answering
other requests, and past the time limit the request answers 503 (the server is busy) instead
of holding its client.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import anyio
import anyio.to_thread

from tilelay.web.errors import WebError

__all__ = ["REQUEST_SECONDS", "compute"]

#: The longest a request may compute before it answers 503.
REQUEST_SECONDS = 20.0

_P = ParamSpec("_P")
_T = TypeVar("_T")


async def compute(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
    """``fn(*args, **kwargs)`` in a worker thread, within :data:`REQUEST_SECONDS`.

    Raises a 503 :class:`~tilelay.web.errors.WebError` when the limit passes first.
    """
    call = functools.partial(fn, *args, **kwargs)
    try:
        with anyio.fail_after(REQUEST_SECONDS):
            return await anyio.to_thread.run_sync(call, abandon_on_cancel=True)
    except TimeoutError:
        raise WebError(
            f"the server is busy: this request needs more than {REQUEST_SECONDS:g} s", 503
        ) from None
