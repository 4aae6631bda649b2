"""The tilelay web app: tiles, game tiles and maps in the browser (seeds 001/002's routes).

Run it with ``tilelay serve`` or any ASGI server on :func:`create_app`::

    uvicorn --factory tilelay.web:create_app

Pages are HTML from the package's Jinja2 templates with the SVG drawings inline; static files
come only from the package's own ``static`` folder. Unknown tiles, games and hexes answer 404
with close names to follow, bad parameters answer 400 saying why, and anything unexpected
answers a plain 500 page (the error is logged, never shown).
"""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from tilelay.carcassonne.web import routes as carcassonne_routes
from tilelay.errors import NotFoundError, TilelayError
from tilelay.web.params import BadRequest
from tilelay.web.routes import routes as tile_routes
from tilelay.web.routes_page import routes as best_routes_pages
from tilelay.web.templating import render

__all__ = ["create_app"]

log = logging.getLogger("tilelay.web")

#: The only folder static files are served from.
STATIC_DIR = Path(__file__).resolve().parent / "static"


def _suggestion_links(request: Request, names: list[str]) -> list[dict[str, str]]:
    """Links for suggested names, following the pattern the page set (``{}`` = the name)."""
    pattern = getattr(request.state, "suggest", "/tiles/{}")
    return [{"name": n, "href": pattern.format(quote(n, safe=""))} for n in names]


async def _not_found(request: Request, exc: Exception) -> Response:
    message = exc.message if isinstance(exc, TilelayError) else "page not found"
    suggestions = exc.suggestions if isinstance(exc, NotFoundError) else []
    if isinstance(exc, NotFoundError):
        message = message.split(" (did you mean")[0]
    else:
        message = f"no page at {request.url.path}"
    return render(
        request,
        "error.html",
        {
            "title": "Not found",
            "status": 404,
            "message": message,
            "suggestions": _suggestion_links(request, suggestions),
        },
        status_code=404,
    )


async def _bad_request(request: Request, exc: Exception) -> Response:
    message = str(exc)
    return render(
        request,
        "error.html",
        {"title": "Bad request", "status": 400, "message": message, "suggestions": []},
        status_code=400,
    )


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        return await _not_found(request, exc)
    return render(
        request,
        "error.html",
        {
            "title": "Error",
            "status": status,
            "message": exc.detail if isinstance(exc, HTTPException) else "error",
            "suggestions": [],
        },
        status_code=status,
    )


async def _internal_error(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path, exc_info=exc)
    return render(
        request,
        "error.html",
        {
            "title": "Internal error",
            "status": 500,
            "message": "internal error: the server could not draw this page",
            "suggestions": [],
        },
        status_code=500,
    )


def create_app() -> Starlette:
    """The web app: tile pages, maps, Carcassonne, static files and error pages."""
    app_routes = [
        *tile_routes(),
        *carcassonne_routes(),
        *best_routes_pages(),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    return Starlette(
        routes=app_routes,
        exception_handlers={
            NotFoundError: _not_found,
            BadRequest: _bad_request,
            TilelayError: _bad_request,
            HTTPException: _http_error,
            Exception: _internal_error,
        },
    )
