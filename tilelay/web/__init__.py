"""The tilelay web app: tiles, game tiles and maps in the browser (seeds 001/002's routes),
the best routes of recorded games, and Carcassonne.

Run it with ``tilelay serve`` or any ASGI server on :func:`create_app`::

    uvicorn --factory tilelay.web:create_app

Pages are HTML from the package's Jinja2 templates with the SVG drawings inline; static files
come only from the package's own ``static`` folder. The modules: :mod:`~tilelay.web.tile_pages`
(tiles, game tiles, maps, the index), :mod:`~tilelay.web.best_routes` (a record's routes),
:mod:`~tilelay.web.carcassonne`, with :mod:`~tilelay.web.params` (query parameters),
:mod:`~tilelay.web.errors` (one error type and shape) and :mod:`~tilelay.web.templating`.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from tilelay.web import best_routes, carcassonne, tile_pages
from tilelay.web.errors import CatchAll, exception_handlers

__all__ = ["create_app"]

#: The only folder static files are served from.
STATIC_DIR = Path(__file__).resolve().parent / "static"


def create_app() -> Starlette:
    """The web app: tile pages, maps, best routes, Carcassonne, static files, error pages."""
    app_routes = [
        *tile_pages.routes(),
        *carcassonne.routes(),
        *best_routes.routes(),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    return Starlette(
        routes=app_routes,
        middleware=[Middleware(CatchAll)],
        exception_handlers=exception_handlers(),
    )
