"""The web app's errors: one type, one shape.

Every answer that is not a success comes from a :class:`WebError` (or a library error turned
into one by :func:`web_error`): a status, a one-line message saying what was wrong and what was
expected, and close names to follow where there are any. The JSON API (paths under ``/api/``)
answers::

    {"error": "no game named '1999'", "status": 404, "suggestions": ["1889"]}

and pages answer the error page with the same message and the suggestions as links. Bad
input is a 4xx; anything unexpected is a plain 500 whose details are logged once, never shown.

Which 4xx: 404 says that what the URL's path names does not exist (a game, a tile, a saved
board's id; on the board page also the saved board its ``?board=`` opens), so a client may
forget it. A value in a request's body or query that is not right is 400, and so is a name
there that the server does not know (a game, hex, tile, corporation, phase, option or train
in a board state, its actions or an edit), still with close names to suggest
(:func:`named_in_request`). 422 is an edit the game's rules forbid; 409 a save based on an
older version; 413 a body too large; 503 a busy server or database.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tilelay.errors import NotFoundError, TilelayError
from tilelay.web.templating import render

__all__ = [
    "CatchAll",
    "WebError",
    "error_response",
    "exception_handlers",
    "named_in_request",
    "web_error",
]

log = logging.getLogger("tilelay.web")

_TITLES = {
    400: "Bad request",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Too large",
    415: "Unsupported media type",
    422: "Cannot be done",
    429: "Too many requests",
    500: "Internal error",
    503: "Busy",
}


class WebError(TilelayError):
    """An answer other than success: ``status`` (4xx, or 503 when the server is busy), the
    message, and close names (``suggestions``) to offer."""

    def __init__(
        self,
        message: str,
        status: int = 400,
        *,
        suggestions: Sequence[str] = (),
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.suggestions = list(suggestions)
        #: headers the answer carries (a 405's ``Allow``: the methods the path answers)
        self.headers = dict(headers or {})


def _not_found(exc: NotFoundError, status: int) -> WebError:
    # (the suggestions go in their own field, not in the message too)
    return WebError(exc.message.split(" (did you mean")[0], status, suggestions=exc.suggestions)


def web_error(exc: Exception) -> WebError:
    """The :class:`WebError` an exception answers with (500 for what is not bad input)."""
    if isinstance(exc, WebError):
        return exc
    if isinstance(exc, NotFoundError):
        return _not_found(exc, 404)
    if isinstance(exc, TilelayError):
        return WebError(str(exc), 400)
    if isinstance(exc, HTTPException):
        if exc.status_code == 404:
            return WebError("no page here", 404)
        return WebError(str(exc.detail), exc.status_code, headers=dict(exc.headers or {}))
    return WebError("internal error: the server could not answer this request", 500)


@contextmanager
def named_in_request() -> Iterator[None]:
    """Run a block that looks up names given in a request's body (or query): a name the
    server does not know (:class:`NotFoundError`) answers 400 with its close names, not 404,
    which would tell the client that the resource of the URL is gone (the board page, told
    404 on a save, takes its saved board for deleted)."""
    try:
        yield
    except NotFoundError as err:
        raise _not_found(err, 400) from None


def _wants_json(request: Request) -> bool:
    path = request.url.path
    return path == "/api" or path.startswith("/api/")


def error_response(request: Request, err: WebError) -> Response:
    """The answer to ``err``: JSON under ``/api/``, else the error page."""
    if _wants_json(request):
        message = err.message
        if err.status == 404 and message == "no page here":
            # (a path the API does not have: where its paths are listed)
            message = f"no API at {request.url.path}: the API is described at /api/openapi.json"
        body: dict[str, Any] = {
            "error": message,
            "status": err.status,
            "suggestions": err.suggestions,
        }
        return JSONResponse(body, status_code=err.status, headers=err.headers)
    pattern = getattr(request.state, "suggest", "/tiles/{}")
    message = err.message
    if err.status == 404 and message == "no page here":
        message = f"no page at {request.url.path}"
    return render(
        request,
        "error.html",
        {
            "title": _TITLES.get(err.status, "Error"),
            "status": err.status,
            "message": message,
            "suggestions": [
                {"name": n, "href": pattern.format(quote(n, safe=""))} for n in err.suggestions
            ],
        },
        status_code=err.status,
        headers=err.headers,
    )


def _allowed(request: Request) -> str | None:
    """The methods the app answers at the request's path, as an ``Allow`` header (None: it
    answers none there): every route of the path, several routes serving one path each
    its own methods (Starlette's own 405 names the first route's alone)."""
    methods: set[str] = set()
    for route in getattr(request.app, "routes", ()):
        route_methods = getattr(route, "methods", None)
        # (a route whose path matches matches at least in part, whatever the method)
        if route_methods and route.matches(request.scope)[0] != Match.NONE:
            methods.update(route_methods)
    return ", ".join(sorted(methods)) if methods else None


async def _handle(request: Request, exc: Exception) -> Response:
    err = web_error(exc)
    if err.status == 405:
        allow = _allowed(request)
        if allow:
            err = WebError(
                f"{request.method} is not answered here: expected {allow}",
                405,
                headers={**err.headers, "Allow": allow},
            )
    return error_response(request, err)


def exception_handlers() -> dict[Any, Any]:
    """The app's handlers of bad input: each answers through :func:`error_response`."""
    return {WebError: _handle, TilelayError: _handle, HTTPException: _handle}


class CatchAll:
    """ASGI middleware answering anything unexpected with a plain 500 (logged once, here)
    instead of letting it reach the server, which would log it a second time."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            request = Request(scope)
            log.error("internal error on %s", request.url.path, exc_info=exc)
            if not started:
                await error_response(request, web_error(exc))(scope, receive, send)
