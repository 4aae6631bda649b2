"""The tilelay web app: tiles, game tiles and maps in the browser (seeds 001/002's routes),
the best routes of recorded games, and Carcassonne.

Run it with ``tilelay serve`` or any ASGI server on :func:`create_app`::

    uvicorn --factory tilelay.web:create_app

Pages are HTML from the package's Jinja2 templates with the SVG drawings inline; static files
come only from the package's own ``static`` folder. The modules: :mod:`~tilelay.web.tile_pages`
(tiles, game tiles, maps, the index), :mod:`~tilelay.web.best_routes` (a record's routes),
:mod:`~tilelay.web.board` (the board page and its API), :mod:`~tilelay.web.saved` (saved
boards), :mod:`~tilelay.web.records` (recorded games on the board page),
:mod:`~tilelay.web.openapi` (the API's description), :mod:`~tilelay.web.carcassonne` (games
between computer players, move by move), :mod:`~tilelay.web.carcassonne_play` (playing in the
browser, games saved in the store), with :mod:`~tilelay.web.params` (query parameters),
:mod:`~tilelay.web.errors` (one error type and shape), :mod:`~tilelay.web.compute` (work off
the event loop) and :mod:`~tilelay.web.templating`.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from tilelay.web import (
    best_routes,
    board,
    carcassonne,
    carcassonne_play,
    openapi,
    records,
    saved,
    tile_pages,
)
from tilelay.web.errors import CatchAll, exception_handlers

__all__ = ["create_app"]

#: The only folder static files are served from.
STATIC_DIR = Path(__file__).resolve().parent / "static"


def create_app(*, db: str | Path | None = None) -> Starlette:
    """The web app: tile pages, maps, best routes, the board page and its API, saved boards,
    records, Carcassonne, static files, error pages.

    ``db`` is the database file of saved boards (default: ``TILELAY_DB``, else the user's
    data directory; see :func:`tilelay.store.default_path`); it is opened on first use.
    """
    from tilelay.store import default_path

    app_routes = [
        *tile_pages.routes(),
        *carcassonne.routes(),
        *carcassonne_play.routes(),
        *best_routes.routes(),
        *board.routes(),
        *saved.routes(),
        *records.routes(),
        *openapi.routes(),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(
        routes=app_routes,
        middleware=[Middleware(CatchAll)],
        exception_handlers=exception_handlers(),
    )
    app.state.db_path = Path(db) if db is not None else default_path()
    return app
