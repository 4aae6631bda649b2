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

from tilelay.carcassonne.game import MAX_SEED as CARCASSONNE_MAX_SEED
from tilelay.carcassonne.record import FORMAT as SAVED_GAME_FORMAT
from tilelay.carcassonne.record import VERSION as SAVED_GAME_VERSION
from tilelay.limits import MAX_INT, MAX_PLAYERS
from tilelay.sandbox import MAX_ACTIONS, MAX_HISTORY, MAX_SEED
from tilelay.web.carcassonne_play import MAX_SEATS, MIN_SEATS, SEAT_KINDS
from tilelay.web.saved import EXPORT_FORMAT
from tilelay.web.tile_pages import MAX_NAME

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


def _text(most: int = 80, **more: Any) -> dict[str, Any]:
    """A string with something besides blanks in it, at most ``most`` characters."""
    return {"type": "string", "minLength": 1, "maxLength": most, "pattern": r"\S", **more}


def _whole(low: int, high: int, **more: Any) -> dict[str, Any]:
    """A whole number from ``low`` to ``high`` (a JSON number: every whole number of a body
    is within :data:`~tilelay.limits.MAX_INT`, either sign)."""
    return {
        "type": "integer",
        "minimum": max(low, -MAX_INT),
        "maximum": min(high, MAX_INT),
        **more,
    }


def _or_null(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _strings(most: int, length: int, **more: Any) -> dict[str, Any]:
    """A list of at most ``most`` strings of at most ``length`` characters."""
    return {
        "type": "array",
        "maxItems": most,
        "items": {"type": "string", "maxLength": length},
        **more,
    }


def _object(
    properties: dict[str, Any], required: tuple[str, ...] = (), *, closed: bool = True
) -> dict[str, Any]:
    """An object of ``properties`` (``required`` ones); ``closed``: no other field (the
    server refuses a field it does not know, naming it)."""
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = list(required)
    if closed:
        out["additionalProperties"] = False
    return out


def _state_op(
    summary: str, extra: dict[str, Any] | None = None, *codes: int, required: tuple[str, ...] = ()
) -> dict[str, Any]:
    props: dict[str, Any] = {
        "state": {"$ref": "#/components/schemas/BoardState"},
        "reach": {
            "type": "boolean",
            "description": "highlight where the state's corporation may lay track",
        },
    }
    props.update(extra or {})
    return {
        "post": {
            "summary": summary,
            "requestBody": _body(_object(props, ("state", *required))),
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
#: A stored document's id, or a step's number, in a path (up to 100 digits: a longer one is
#: no path of the API)
_ID_SCHEMA = {"type": "integer", "minimum": 0}
_ID = {"name": "id", "in": "path", "required": True, "schema": _ID_SCHEMA}
#: A record of 18xx.games (what the engine exports; the server replays it)
_RECORD = {
    "type": "object",
    "description": "an 18xx.games record: its title (the game), players, settings and actions",
    "required": ["actions"],
    "properties": {"actions": {"type": "array", "items": {"type": "object"}}},
}
#: A name given to a saved board, record or game
_NAME = {"type": "string", "pattern": r"\S"}


def description() -> dict[str, Any]:
    """The OpenAPI 3.1 description of every ``/api/`` route."""
    from tilelay import __version__

    state_schema = _object(
        {
            "game": _text(description="a game's name, e.g. 1889"),
            "options": _strings(50, 200),
            "phase": _or_null(
                {"type": "string", "maxLength": 80, "description": "null: the first phase"}
            ),
            "actions": _strings(
                MAX_ACTIONS,
                200,
                description="tile lays 'K4=57-1' and token placements 'K4=KO@0', in order",
            ),
            "corporation": _or_null({"type": "string", "maxLength": 80}),
            "trains": _strings(50, 200),
            "done": _strings(MAX_HISTORY, 200, description="edits, for undo"),
            "undone": _strings(MAX_HISTORY, 200, description="edits, for redo"),
            "seed": _or_null(
                _whole(
                    0,
                    MAX_SEED,
                    description="what a game that draws its setup when it starts draws it from",
                )
            ),
            "players": _or_null(_whole(0, MAX_PLAYERS, description="the number of players")),
        },
        ("game",),
    )
    state_schema["description"] = "A board's state (tilelay.sandbox.BoardState.to_json)."
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
    board_body = _object(
        {"name": _NAME, "state": {"$ref": "#/components/schemas/BoardState"}}, ("name", "state")
    )
    paths: dict[str, Any] = {
        "/api/openapi.json": {
            "get": {"summary": "this description", "responses": {"200": _ok("OpenAPI 3.1")}}
        },
        "/api/games": {
            "get": {
                "summary": "the games known: name, title, format, hexes, manifest, …",
                "responses": {
                    "200": _ok("games", {"type": "array", "items": {"type": "object"}}),
                },
            }
        },
        "/api/tiles/{name}": {
            "get": {
                "summary": "a catalogue tile: colour, rotation, tile string",
                "parameters": [
                    {"name": "name", "in": "path", "required": True, "schema": _text(MAX_NAME)}
                ],
                "responses": {"200": _ok("the tile"), **_errors(400, 404)},
            }
        },
        "/api/routes/{game}": {
            "post": {
                "summary": "a record's best routes at a run_routes action",
                "parameters": [
                    {"name": "game", "in": "path", "required": True, "schema": _STR},
                    {"name": "action", "in": "query", "schema": _whole(0, 10**9)},
                ],
                "requestBody": _body(_RECORD),
                "responses": {"200": _ok("routes, recorded routes, map"), **_errors(400, 404, 413)},
            }
        },
        "/api/boards/view": _state_op("the view of a board state (map, routes, history)"),
        "/api/boards/lays": {
            "post": {
                "summary": "the legal lays on a hex: tiles with their legal rotations (drawn), "
                "the tile there and what may replace it, its cities and tokens",
                "requestBody": _body(
                    _object(
                        {
                            "state": {"$ref": "#/components/schemas/BoardState"},
                            "hex": _text(),
                            "reach": {
                                "type": "boolean",
                                "description": "only what the state's corporation may lay "
                                "where its track reaches",
                            },
                        },
                        ("state", "hex"),
                    )
                ),
                "responses": {"200": _ok("the lays"), **_errors(400, 413, 422, 503)},
            }
        },
        "/api/boards/lay": _state_op(
            "lay a tile (refused with 422 naming the rule)",
            {
                "hex": _text(),
                "tile": _text(),
                "rotation": _whole(0, 5, description="0 when left out"),
                "replace": {"type": "boolean"},
            },
            422,
            required=("hex", "tile"),
        ),
        "/api/boards/rotate": _state_op(
            "turn the tile this board laid on a hex to its next legal rotation",
            {"hex": _text(), "step": {"type": "integer", "enum": [-1, 1]}},
            422,
            required=("hex",),
        ),
        "/api/boards/token": _state_op(
            "place (or remove) a corporation's station token (refused with 422 naming the rule)",
            {
                "hex": _text(),
                "corporation": _text(),
                "city": _whole(0, 20),
                "remove": {"type": "boolean"},
            },
            422,
            required=("hex", "corporation"),
        ),
        "/api/boards/phase": _state_op(
            "set the phase", {"phase": _text()}, 422, required=("phase",)
        ),
        "/api/boards/options": _state_op(
            "choose the game's options", {"options": _strings(50, 80)}, 422
        ),
        "/api/boards/setup": _state_op(
            "choose the seed and number of players the game's setup is drawn for (18USA)",
            {
                "seed": _or_null(_whole(0, MAX_SEED)),
                "players": _or_null(_whole(0, MAX_PLAYERS)),
            },
            422,
        ),
        "/api/boards/routes": _state_op(
            "choose the corporation and trains whose best routes are shown",
            {"corporation": _or_null(_text()), "trains": _strings(50, 80)},
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
                    _object(
                        {
                            "format": {"const": EXPORT_FORMAT},
                            "version": {"const": 1},
                            "name": _NAME,
                            "state": {"$ref": "#/components/schemas/BoardState"},
                        },
                        ("format", "version", "name", "state"),
                    )
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
                    _object(
                        {
                            "version": _whole(1, MAX_INT),
                            "name": _NAME,
                            "state": {"$ref": "#/components/schemas/BoardState"},
                        },
                        ("version", "state"),
                    )
                ),
                "responses": {"200": _ok("the board"), **_errors(400, 404, 409, 413, 503)},
            },
            "patch": {
                "summary": "rename a board",
                "requestBody": _body(_object({"name": _NAME}, ("name",))),
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
                "requestBody": _body(_RECORD),
                "responses": {"201": _ok("the record"), **_errors(400, 413, 503)},
            },
        },
        "/api/records/{id}": {
            "parameters": [_ID],
            "get": {"summary": "a record", "responses": {"200": _ok("the record"), **_errors(404)}},
            "patch": {
                "summary": "rename a record",
                "requestBody": _body(_object({"name": _NAME}, ("name",))),
                "responses": {"200": _ok("the record"), **_errors(400, 404, 503)},
            },
            "delete": {
                "summary": "delete a record",
                "responses": {"200": _ok("deleted"), **_errors(404)},
            },
        },
        "/api/records/{id}/steps/{n}": {
            "parameters": [
                _ID,
                {"name": "n", "in": "path", "required": True, "schema": _ID_SCHEMA},
            ],
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
                "requestBody": _body(_object({"step": _whole(0, MAX_INT)}, ("step",))),
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
            "(with close names as suggestions); 405 for a method a path does not answer "
            "(Allow names those it does); 422 for an edit the game's rules forbid. A whole "
            "number in a body is a JSON integer (1, not 1.0), at most 10**15 either side (a "
            "Carcassonne game's seed excepted); a field an object does not list is refused.",
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
    version = {"version": _whole(1, MAX_INT, description="the version the change is based on")}

    def change(
        summary: str, extra: dict[str, Any] | None = None, *, closed: bool = False
    ) -> dict[str, Any]:
        props = {**version, **(extra or {})}
        required = ("version", *(k for k in (extra or {}) if k in ("x", "y", "rotation")))
        return {
            "parameters": [_ID],
            "post": {
                "summary": summary,
                "requestBody": _body(_object(props, required, closed=closed)),
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
                    _object(
                        {
                            "players": {
                                "type": "array",
                                "items": {"enum": list(SEAT_KINDS)},
                                "minItems": MIN_SEATS,
                                "maxItems": MAX_SEATS,
                            },
                            "seed": _or_null(
                                {
                                    "type": "integer",
                                    "minimum": 0,
                                    "maximum": CARCASSONNE_MAX_SEED,
                                    "description": "random when left out or null",
                                }
                            ),
                            "river": {"type": "boolean"},
                            "abbot": {"type": "boolean"},
                            "name": _or_null(_STR),
                        },
                        ("players",),
                    )
                ),
                "responses": {"201": view, **_errors(400, 413, 503)},
            },
        },
        "/api/carcassonne/games/import": {
            "post": {
                "summary": "a saved game file (format tilelay-carcassonne-game) becomes a game",
                "parameters": [{"name": "name", "in": "query", "schema": _STR}],
                "requestBody": _body(
                    _object(
                        {
                            "format": {"const": SAVED_GAME_FORMAT},
                            "version": {"const": SAVED_GAME_VERSION},
                            "players": {
                                "type": "array",
                                "items": {"enum": list(SEAT_KINDS)},
                                "minItems": MIN_SEATS,
                                "maxItems": MAX_SEATS,
                            },
                            "seed": _whole(0, CARCASSONNE_MAX_SEED),
                            "rules": {"type": "object"},
                            "moves": {"type": "array"},
                        },
                        ("format", "version", "players", "seed"),
                        closed=False,
                    )
                ),
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
                "x": _whole(-127, 127),
                "y": _whole(-127, 127),
                "rotation": _whole(0, 3),
                "follower": _or_null(
                    _whole(0, 15, description="the feature (index into the turned tile's features)")
                ),
                "abbot": {"type": "boolean"},
                "return_abbot": {"type": "boolean"},
            },
            closed=True,
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
