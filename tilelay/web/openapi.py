"""The OpenAPI description of the JSON API, served at ``/api/openapi.json``.

It is written here as data next to the handlers it describes (the board page's API in
:mod:`~tilelay.web.board`, saved boards in :mod:`~tilelay.web.saved`, records in
:mod:`~tilelay.web.records`, Carcassonne games in :mod:`~tilelay.web.carcassonne_play`, and
the older ``/api/games``, ``/api/tiles`` and ``/api/routes``); a test checks that every
``/api/`` route of the app is described and every described path is a route.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

__all__ = ["description", "routes"]

_ERROR = {"$ref": "#/components/responses/Error"}


def _body(schema: dict[str, Any], content: str = "application/json") -> dict[str, Any]:
    return {"required": True, "content": {content: {"schema": schema}}}


def _ok(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": schema or {"type": "object"}}},
    }


def _errors(*codes: int) -> dict[str, Any]:
    return {str(c): _ERROR for c in codes}


def _state_op(summary: str, extra: dict[str, Any] | None = None, *codes: int) -> dict[str, Any]:
    props: dict[str, Any] = {
        "state": {"$ref": "#/components/schemas/BoardState"},
        "reach": {
            "type": "boolean",
            "description": "highlight where the state's corporation may lay track",
        },
    }
    props.update(extra or {})
    required = ["state", *(k for k in (extra or {}) if not k.endswith("?"))]
    props = {k.rstrip("?"): v for k, v in props.items()}
    return {
        "post": {
            "summary": summary,
            "requestBody": _body({"type": "object", "required": required, "properties": props}),
            "responses": {
                "200": _ok(
                    "the board's view after the change", {"$ref": "#/components/schemas/View"}
                ),
                **_errors(400, 413, *codes, 503),
            },
        }
    }


_STR = {"type": "string"}
_INT = {"type": "integer"}
_ID = {"name": "id", "in": "path", "required": True, "schema": _INT}


def description() -> dict[str, Any]:
    """The OpenAPI 3.1 description of every ``/api/`` route."""
    from tilelay import __version__

    state_schema = {
        "type": "object",
        "description": "A board's state (tilelay.sandbox.BoardState.to_json).",
        "required": ["game"],
        "properties": {
            "game": {**_STR, "description": "a game's name, e.g. 1889"},
            "options": {"type": "array", "items": _STR},
            "phase": {"type": ["string", "null"], "description": "null: the first phase"},
            "actions": {
                "type": "array",
                "items": _STR,
                "description": "tile lays 'K4=57-1' and token placements 'K4=KO@0', in order",
            },
            "corporation": {"type": ["string", "null"]},
            "trains": {"type": "array", "items": _STR},
            "done": {"type": "array", "items": _STR, "description": "edits, for undo"},
            "undone": {"type": "array", "items": _STR, "description": "edits, for redo"},
            "seed": {
                "type": ["integer", "null"],
                "description": "what a game that draws its setup when it starts draws it from",
            },
            "players": {"type": ["integer", "null"], "description": "the number of players"},
        },
    }
    view_schema = {
        "type": "object",
        "properties": {
            "state": {"$ref": "#/components/schemas/BoardState"},
            "svg": {**_STR, "description": "the map"},
            "size": _INT,
            "game": {"type": "object"},
            "phase": _STR,
            "history": {"type": "object"},
            "actions": _INT,
            "laid": {"type": "object"},
            "tokens": {"type": "array", "items": {"type": "object"}},
            "routes": {
                "type": ["object", "null"],
                "description": "the best routes of the state's corporation and trains: routes "
                "(train, revenue, hexes, stops, color), revenue, per_train",
            },
            "reach": {"type": ["array", "null"], "items": _STR},
        },
    }
    board_body = {
        "type": "object",
        "required": ["name", "state"],
        "properties": {"name": _STR, "state": {"$ref": "#/components/schemas/BoardState"}},
    }
    paths: dict[str, Any] = {
        "/api/openapi.json": {
            "get": {"summary": "this description", "responses": {"200": _ok("OpenAPI 3.1")}}
        },
        "/api/games": {
            "get": {"summary": "the built-in games", "responses": {"200": _ok("games")}}
        },
        "/api/tiles/{name}": {
            "get": {
                "summary": "a catalogue tile: colour, rotation, tile string",
                "parameters": [{"name": "name", "in": "path", "required": True, "schema": _STR}],
                "responses": {"200": _ok("the tile"), **_errors(400, 404)},
            }
        },
        "/api/routes/{game}": {
            "post": {
                "summary": "a record's best routes at a run_routes action",
                "parameters": [
                    {"name": "game", "in": "path", "required": True, "schema": _STR},
                    {"name": "action", "in": "query", "schema": _INT},
                ],
                "requestBody": _body({"type": "object", "description": "an 18xx.games record"}),
                "responses": {"200": _ok("routes, recorded routes, map"), **_errors(400, 404, 413)},
            }
        },
        "/api/boards/view": _state_op("the view of a board state (map, routes, history)"),
        "/api/boards/lays": {
            "post": {
                "summary": "the legal lays on a hex: tiles with their legal rotations (drawn), "
                "the tile there and what may replace it, its cities and tokens",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["state", "hex"],
                        "properties": {
                            "state": {"$ref": "#/components/schemas/BoardState"},
                            "hex": _STR,
                            "reach": {
                                "type": "boolean",
                                "description": "only what the state's corporation may lay "
                                "where its track reaches",
                            },
                        },
                    }
                ),
                "responses": {"200": _ok("the lays"), **_errors(400, 413, 422, 503)},
            }
        },
        "/api/boards/lay": _state_op(
            "lay a tile (refused with 422 naming the rule)",
            {"hex": _STR, "tile": _STR, "rotation": _INT, "replace?": {"type": "boolean"}},
            422,
        ),
        "/api/boards/rotate": _state_op(
            "turn the tile this board laid on a hex to its next legal rotation",
            {"hex": _STR, "step?": {"type": "integer", "enum": [-1, 1]}},
            422,
        ),
        "/api/boards/token": _state_op(
            "place (or remove) a corporation's station token (refused with 422 naming the rule)",
            {
                "hex": _STR,
                "corporation": _STR,
                "city?": _INT,
                "remove?": {"type": "boolean"},
            },
            422,
        ),
        "/api/boards/phase": _state_op("set the phase", {"phase": _STR}, 422),
        "/api/boards/options": _state_op(
            "choose the game's options", {"options": {"type": "array", "items": _STR}}, 422
        ),
        "/api/boards/setup": _state_op(
            "choose the seed and number of players the game's setup is drawn for (18USA)",
            {"seed": {"type": ["integer", "null"]}, "players": {"type": ["integer", "null"]}},
            422,
        ),
        "/api/boards/routes": _state_op(
            "choose the corporation and trains whose best routes are shown",
            {
                "corporation": {"type": ["string", "null"]},
                "trains": {"type": "array", "items": _STR},
            },
            422,
        ),
        "/api/boards/undo": _state_op("undo the last edit"),
        "/api/boards/redo": _state_op("redo the last undone edit"),
        "/api/boards": {
            "get": {
                "summary": "the database's path and the saved boards",
                "responses": {"200": _ok("boards"), **_errors(503)},
            },
            "post": {
                "summary": "save a new board",
                "requestBody": _body(board_body),
                "responses": {"201": _ok("the board"), **_errors(400, 413, 503)},
            },
        },
        "/api/boards/import": {
            "post": {
                "summary": "import an exported board file as a new board",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["format", "version", "name", "state"],
                        "properties": {
                            "format": {"const": "tilelay-board"},
                            "version": {"const": 1},
                            "name": _STR,
                            "state": {"$ref": "#/components/schemas/BoardState"},
                        },
                    }
                ),
                "responses": {"201": _ok("the board"), **_errors(400, 413, 503)},
            }
        },
        "/api/boards/{id}": {
            "parameters": [_ID],
            "get": {
                "summary": "a saved board",
                "responses": {"200": _ok("board and state"), **_errors(404)},
            },
            "put": {
                "summary": "save a board (optimistic: 409 when saved elsewhere since 'version'; "
                "the refused state is kept as a revision)",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["version", "state"],
                        "properties": {
                            "version": _INT,
                            "name": _STR,
                            "state": {"$ref": "#/components/schemas/BoardState"},
                        },
                    }
                ),
                "responses": {"200": _ok("the board"), **_errors(400, 404, 409, 413, 503)},
            },
            "patch": {
                "summary": "rename a board",
                "requestBody": _body(
                    {"type": "object", "required": ["name"], "properties": {"name": _STR}}
                ),
                "responses": {"200": _ok("the board"), **_errors(400, 404, 503)},
            },
            "delete": {
                "summary": "delete a board",
                "responses": {"200": _ok("deleted"), **_errors(404, 503)},
            },
        },
        "/api/boards/{id}/export": {
            "parameters": [_ID],
            "get": {
                "summary": "a board as a JSON file (format tilelay-board)",
                "responses": {"200": _ok("the file"), **_errors(404)},
            },
        },
        "/api/boards/{id}/revisions": {
            "parameters": [_ID],
            "get": {
                "summary": "earlier and refused (conflicting) versions of a board",
                "responses": {"200": _ok("revisions"), **_errors(404)},
            },
        },
        "/api/records": {
            "get": {"summary": "the records imported", "responses": {"200": _ok("records")}},
            "post": {
                "summary": "import an 18xx.games record: its steps, runs (run and best) and "
                "revenue chart; a record that cannot be replayed is refused naming the action",
                "parameters": [{"name": "name", "in": "query", "schema": _STR}],
                "requestBody": _body({"type": "object", "description": "an 18xx.games record"}),
                "responses": {"201": _ok("the record"), **_errors(400, 413, 503)},
            },
        },
        "/api/records/{id}": {
            "parameters": [_ID],
            "get": {"summary": "a record", "responses": {"200": _ok("the record"), **_errors(404)}},
            "patch": {
                "summary": "rename a record",
                "requestBody": _body(
                    {"type": "object", "required": ["name"], "properties": {"name": _STR}}
                ),
                "responses": {"200": _ok("the record"), **_errors(400, 404, 503)},
            },
            "delete": {
                "summary": "delete a record",
                "responses": {"200": _ok("deleted"), **_errors(404)},
            },
        },
        "/api/records/{id}/steps/{n}": {
            "parameters": [_ID, {"name": "n", "in": "path", "required": True, "schema": _INT}],
            "get": {
                "summary": "the board after step n; at a run_routes the routes run beside the "
                "best ones and the revenue missed",
                "responses": {"200": _ok("the step"), **_errors(404)},
            },
        },
        "/api/records/{id}/branch": {
            "parameters": [_ID],
            "post": {
                "summary": "a new board state from a step of the record",
                "requestBody": _body(
                    {"type": "object", "required": ["step"], "properties": {"step": _INT}}
                ),
                "responses": {"200": _ok("{state}"), **_errors(400, 404)},
            },
        },
    }
    paths.update(_carcassonne_paths())
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tilelay",
            "version": __version__,
            "description": "Tiles, maps, legal lays, best routes, saved boards and recorded "
            "games of 18xx games; Carcassonne games played in the browser. Every error "
            "answers {error, status, suggestions}: 404 when what the URL's path names does "
            "not exist; 400 for a bad value in the body or query, an unknown name there too "
            "(with close names as suggestions); 422 for an edit the game's rules forbid.",
        },
        "paths": paths,
        "components": {
            "schemas": {
                "BoardState": state_schema,
                "View": view_schema,
                "Error": {
                    "type": "object",
                    "required": ["error", "status", "suggestions"],
                    "properties": {
                        "error": _STR,
                        "status": _INT,
                        "suggestions": {"type": "array", "items": _STR},
                    },
                },
            },
            "responses": {
                "Error": {
                    "description": "an error: what was wrong and what was expected",
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                }
            },
        },
    }


def _carcassonne_paths() -> dict[str, Any]:
    """Carcassonne games played in the browser (:mod:`~tilelay.web.carcassonne_play`)."""
    view = _ok(
        "the game's view: game (id, version, seed, river, abbot, finished, current, pile), "
        "players, board (svg, layout), hand (the tile in hand), legal (when a person is to "
        "move: every square with its rotations and follower actions), last, log, sheet (at the "
        "end: points by kind and every farm city by city)"
    )
    version = {"version": {**_INT, "description": "the version the change is based on"}}

    def change(summary: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        props = {**version, **(extra or {})}
        required = ["version", *(k for k in (extra or {}) if k in ("x", "y", "rotation"))]
        return {
            "parameters": [_ID],
            "post": {
                "summary": summary,
                "requestBody": _body({"type": "object", "required": required, "properties": props}),
                "responses": {"200": view, **_errors(400, 404, 409, 413, 503)},
            },
        }

    return {
        "/api/carcassonne/games": {
            "get": {
                "summary": "the saved Carcassonne games, the last played first",
                "responses": {"200": _ok("games"), **_errors(503)},
            },
            "post": {
                "summary": "a new game: 2 to 5 seats, each a person (human) or a computer "
                "player (mcts:easy, mcts:medium, mcts:hard, greedy, random)",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["players"],
                        "properties": {
                            "players": {"type": "array", "items": _STR},
                            "seed": {**_INT, "description": "random when left out"},
                            "river": {"type": "boolean"},
                            "abbot": {"type": "boolean"},
                            "name": _STR,
                        },
                    }
                ),
                "responses": {"201": view, **_errors(400, 413, 503)},
            },
        },
        "/api/carcassonne/games/import": {
            "post": {
                "summary": "a saved game file (format tilelay-carcassonne-game) becomes a game",
                "parameters": [{"name": "name", "in": "query", "schema": _STR}],
                "requestBody": _body({"type": "object"}),
                "responses": {"201": view, **_errors(400, 413, 503)},
            }
        },
        "/api/carcassonne/games/{id}": {
            "parameters": [_ID],
            "get": {"summary": "a game's view", "responses": {"200": view, **_errors(404)}},
            "delete": {
                "summary": "delete a game",
                "responses": {"200": _ok("deleted"), **_errors(404, 503)},
            },
        },
        "/api/carcassonne/games/{id}/move": change(
            "a person's move with the tile in hand (400 naming the rule when it is illegal)",
            {
                "x": _INT,
                "y": _INT,
                "rotation": {"type": "integer", "minimum": 0, "maximum": 3},
                "follower": {
                    "type": ["integer", "null"],
                    "description": "the feature (index into the turned tile's features)",
                },
                "abbot": {"type": "boolean"},
                "return_abbot": {"type": "boolean"},
            },
        ),
        "/api/carcassonne/games/{id}/step": change(
            "the computer player to move moves (400 when a person is to move)"
        ),
        "/api/carcassonne/games/{id}/undo": change(
            "take back the last move a person made and the computer moves after it"
        ),
        "/api/carcassonne/games/{id}/export": {
            "parameters": [_ID],
            "get": {
                "summary": "the game as a saved game file (tilelay carcassonne play --load)",
                "responses": {"200": _ok("the file"), **_errors(404)},
            },
        },
    }


async def openapi(request: Request) -> Response:
    """``GET /api/openapi.json``."""
    return JSONResponse(description())


def routes() -> list[BaseRoute]:
    """The description's route."""
    return [Route("/api/openapi.json", openapi, methods=["GET"], name="openapi")]
