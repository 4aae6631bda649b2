"""Saved boards: the store's API and the page that lists them.

Boards are kept in the app's :class:`~tilelay.store.Store` (an SQLite file: ``tilelay serve
--db PATH``, the ``TILELAY_DB`` variable, or the user's data directory), each a document of
kind ``board`` whose body is the board's state (:meth:`BoardState.to_json`).

* ``GET /api/boards`` – the database's path and every saved board (id, name, game,
  version, times);
* ``POST /api/boards`` – ``{name, state}``: a new board (201);
* ``GET /api/boards/<id>`` – ``{board, state}``;
* ``PUT /api/boards/<id>`` – ``{version, state, name?}``: save; 409 when the board was saved
  elsewhere since ``version`` (the refused state is kept as a revision: nothing is lost);
* ``PATCH /api/boards/<id>`` – ``{name}``: rename; ``DELETE /api/boards/<id>``: delete;
* ``GET /api/boards/<id>/revisions`` – earlier and refused versions;
* ``GET /api/boards/<id>/export`` – the board as a JSON file ``{format: "tilelay-board",
  version: 1, name, state}``; ``POST /api/boards/import`` – such a file: a new board (201).

A state is checked (:meth:`BoardState.from_json`: the game, options, phase and every action)
before anything is written, so a bad request never changes what was saved. ``GET /boards``
is the page listing the saved boards and records.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tilelay.sandbox import BoardState
from tilelay.store import Document, Store, StoreError
from tilelay.web.board import read_state
from tilelay.web.compute import compute
from tilelay.web.errors import WebError
from tilelay.web.params import json_body
from tilelay.web.stores import get_store, store_error, store_path
from tilelay.web.templating import render

__all__ = ["EXPORT_FORMAT", "routes"]

#: The ``format`` of an exported board file.
EXPORT_FORMAT = "tilelay-board"


def _id(request: Request) -> int:
    value: int = request.path_params["id"]
    return value


def _summary(doc: Document) -> dict[str, Any]:
    out = doc.summary()
    if isinstance(doc.body, dict):
        out["game"] = doc.body.get("game")
    return out


def _name(data: dict[str, Any], default: str | None = None) -> str:
    name = data.get("name", default)
    if not isinstance(name, str) or not name.strip():
        raise WebError("'name' must be a non-empty string")
    return name


async def _in_store(request: Request, fn: Any, *args: Any) -> Any:
    store = get_store(request)

    def work() -> Any:
        try:
            return fn(store, *args)
        except StoreError as err:
            raise store_error(err) from None

    return await compute(work)


# ------------------------------------------------------------------------------ API


async def list_boards(request: Request) -> Response:
    """``GET /api/boards``: every saved board."""

    def work(store: Store) -> list[dict[str, Any]]:
        return [_summary(d) for d in store.documents("board", fields=("game",))]

    boards = await _in_store(request, work)
    return JSONResponse({"database": str(store_path(request)), "boards": boards})


async def create_board(request: Request) -> Response:
    """``POST /api/boards``: a new board from ``{name, state}``."""
    data = await json_body(request, fields=("name", "state"))
    name = _name(data)
    state = await compute(read_state, data)

    def work(store: Store) -> Document:
        return store.create("board", name, state.to_json())

    doc = await _in_store(request, work)
    return JSONResponse({"board": _summary(doc), "state": doc.body}, status_code=201)


async def get_board(request: Request) -> Response:
    """``GET /api/boards/<id>``: a saved board and its state."""
    doc_id = _id(request)
    doc = await _in_store(request, lambda store: store.get(doc_id, "board"))
    return JSONResponse({"board": _summary(doc), "state": doc.body})


async def save_board(request: Request) -> Response:
    """``PUT /api/boards/<id>``: save ``{version, state, name?}`` (409 on a conflict)."""
    doc_id = _id(request)
    data = await json_body(request, fields=("version", "state", "name"))
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise WebError("'version' must be the version the save is based on (a whole number)")
    name = _name(data) if "name" in data else None
    state = await compute(read_state, data)

    def work(store: Store) -> Document:
        store.get(doc_id, "board")
        return store.save(doc_id, state.to_json(), version=version, name=name)

    doc = await _in_store(request, work)
    return JSONResponse({"board": _summary(doc), "state": doc.body})


async def rename_board(request: Request) -> Response:
    """``PATCH /api/boards/<id>``: rename to ``{name}``."""
    doc_id = _id(request)
    data = await json_body(request, fields=("name",))
    name = _name(data)

    def work(store: Store) -> Document:
        store.get(doc_id, "board")
        store.rename(doc_id, name)
        return store.get(doc_id)

    doc = await _in_store(request, work)
    return JSONResponse({"board": _summary(doc)})


async def delete_board(request: Request) -> Response:
    """``DELETE /api/boards/<id>``."""
    doc_id = _id(request)

    def work(store: Store) -> None:
        store.get(doc_id, "board")
        store.delete(doc_id)

    await _in_store(request, work)
    return JSONResponse({"deleted": doc_id})


async def board_revisions(request: Request) -> Response:
    """``GET /api/boards/<id>/revisions``: earlier and refused versions, newest first."""
    doc_id = _id(request)

    def work(store: Store) -> list[dict[str, Any]]:
        store.get(doc_id, "board")
        return [
            {
                "id": r.id,
                "version": r.version,
                "reason": r.reason,
                "created": r.created,
                "state": r.body,
            }
            for r in store.revisions(doc_id)
        ]

    return JSONResponse({"revisions": await _in_store(request, work)})


async def export_board(request: Request) -> Response:
    """``GET /api/boards/<id>/export``: the board as a JSON file."""
    doc_id = _id(request)
    doc = await _in_store(request, lambda store: store.get(doc_id, "board"))
    body = {"format": EXPORT_FORMAT, "version": 1, "name": doc.name, "state": doc.body}
    filename = "".join(c if c.isalnum() or c in "-_" else "-" for c in doc.name)[:60] or "board"
    return JSONResponse(
        body,
        headers={
            "Content-Disposition": f'attachment; filename="{filename}.json"; '
            f"filename*=UTF-8''{quote(filename)}.json"
        },
    )


async def import_board(request: Request) -> Response:
    """``POST /api/boards/import``: an exported board file becomes a new board."""
    data = await json_body(request, fields=("format", "version", "name", "state"))
    if data.get("format") != EXPORT_FORMAT:
        raise WebError(f"not an exported board: 'format' must be {EXPORT_FORMAT!r}")
    if data.get("version") != 1:
        raise WebError("an exported board of an unknown version (expected 1)")
    name = _name(data)
    state: BoardState = await compute(read_state, data)

    def work(store: Store) -> Document:
        return store.create("board", name, state.to_json())

    doc = await _in_store(request, work)
    return JSONResponse({"board": _summary(doc), "state": doc.body}, status_code=201)


# ------------------------------------------------------------------------------ page


async def boards_page(request: Request) -> Response:
    """``GET /boards``: the saved boards and records."""

    def work(store: Store) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        boards = [_summary(d) for d in store.documents("board", fields=("game",))]
        records = [
            {**d.summary(), "game": (d.body or {}).get("title")}
            for d in store.documents("record", fields=("title",))
        ]
        return boards, records

    boards, records = await _in_store(request, work)
    return render(
        request,
        "boards.html",
        {
            "title": "Saved boards",
            "boards": boards,
            "records": records,
            "database": str(store_path(request)),
            "quote": lambda s: quote(str(s), safe=""),
        },
    )


def routes() -> list[BaseRoute]:
    """The saved boards' API and page."""
    return [
        Route("/boards", boards_page, name="boards_page"),
        Route("/api/boards", list_boards, methods=["GET"], name="boards_list"),
        Route("/api/boards", create_board, methods=["POST"], name="boards_create"),
        Route("/api/boards/import", import_board, methods=["POST"], name="boards_import"),
        Route("/api/boards/{id:id}", get_board, methods=["GET"], name="boards_get"),
        Route("/api/boards/{id:id}", save_board, methods=["PUT"], name="boards_save"),
        Route("/api/boards/{id:id}", rename_board, methods=["PATCH"], name="boards_rename"),
        Route("/api/boards/{id:id}", delete_board, methods=["DELETE"], name="boards_delete"),
        Route("/api/boards/{id:id}/export", export_board, methods=["GET"], name="boards_export"),
        Route(
            "/api/boards/{id:id}/revisions",
            board_revisions,
            methods=["GET"],
            name="boards_revisions",
        ),
    ]
