"""Playing Carcassonne in the browser: people and computer players at one table.

A game is a document of kind ``carcassonne`` in the app's :class:`~tilelay.store.Store` (the
same SQLite file as the saved boards) whose body is the saved game of
:mod:`tilelay.carcassonne.record` (seed, rules, the players' kinds, the moves), with a
``summary`` (moves, finished, scores) for the list. Every request restores the game from its
moves (milliseconds), never from the seed alone: computer players search against the clock,
so only their recorded moves say what they did.

Pages:

- ``GET /carcassonne/play``: seats (a person or a computer player of a level), the River and
  the Abbot, a seed; the saved games to resume. ``POST /carcassonne/play`` starts a game
  from that form and goes to its page.
- ``GET /carcassonne/play/<id>``: the table (``static/carcassonne.js``): the board with its
  coordinates, the tile in hand and the pile, every legal square; a person clicks a square
  (or moves there with the arrow keys and presses Enter), turns the tile with ``R`` or the
  buttons, then clicks a follower spot (or a number key) or "no follower" (``N``); computer
  players move one after the other; what a move completes is outlined as it scores; at the
  end the score sheet with every farm city by city.

The JSON API (errors ``{error, status, suggestions}``; a change names the ``version`` it is
based on and answers 409 when the game moved on elsewhere):

- ``GET /api/carcassonne/games``: the saved games; ``POST`` ``{players, seed?, river?,
  abbot?, name?}``: a new game (201, its view); ``seed`` a JSON whole number from 0 to
  :data:`tilelay.carcassonne.game.MAX_SEED` (the setup form's, text, is read as digits), or
  left out for a random one;
- ``POST /api/carcassonne/games/import``: a saved game file (``tilelay carcassonne play
  --save``) becomes a game (201);
- ``GET /api/carcassonne/games/<id>``: the view (see :func:`game_view`); ``DELETE``;
- ``POST /api/carcassonne/games/<id>/move`` ``{version, x, y, rotation, follower?, abbot?,
  return_abbot?}``: a person's move (400 naming the rule when it is illegal);
- ``POST /api/carcassonne/games/<id>/step`` ``{version}``: the computer player to move
  moves (400 when a person is to move), computed off the event loop;
- ``POST /api/carcassonne/games/<id>/undo`` ``{version}``: take back the last move a person
  made, and the computer moves after it;
- ``GET /api/carcassonne/games/<id>/export``: the saved game file.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tilelay.carcassonne.board import ABBOT, RETURN_ABBOT, Rules
from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import (
    MAX_SEED,
    Game,
    Move,
    describe_event,
    describe_feature,
    legal_actions,
    transcript,
)
from tilelay.carcassonne.record import GameRecord, record, restore
from tilelay.carcassonne.summary import SHEET_KINDS, Region, breakdown, completed_by_last_tile
from tilelay.carcassonne.svg import (
    PLAYER_COLOURS,
    board_layout,
    board_svg,
    feature_anchor,
    tile_group,
)
from tilelay.carcassonne.tile import Kind, TileType
from tilelay.errors import NotFoundError
from tilelay.limits import shown
from tilelay.store import Document, Store, StoreError, id_text
from tilelay.web.compute import compute
from tilelay.web.errors import WebError
from tilelay.web.params import flag, json_body, parse_int, read_body
from tilelay.web.stores import get_store, store_error
from tilelay.web.templating import render

__all__ = ["KIND", "MAX_SEATS", "MIN_SEATS", "SEAT_KINDS", "game_view", "routes"]

#: The store's document kind of a game.
KIND = "carcassonne"
#: Seats at a table.
MIN_SEATS, MAX_SEATS = 2, 5
#: The kinds a seat may take, with what the page calls them.
SEAT_KINDS: dict[str, str] = {
    "human": "person",
    "mcts:easy": "computer, easy",
    "mcts:medium": "computer, medium",
    "mcts:hard": "computer, hard",
    "greedy": "computer, greedy",
    "random": "computer, random",
}
#: The board's square size in pixels (the page zooms).
SQUARE = 64
#: A seed left out is drawn below this: short to read (any seed up to
#: :data:`~tilelay.carcassonne.game.MAX_SEED` may be chosen).
RANDOM_SEEDS = 2**31
MAX_BODY = 256 * 1024


# ------------------------------------------------------------------------------ games


def _seat_label(kind: str) -> str:
    return SEAT_KINDS.get(kind, kind)


def new_record(
    players: list[str], seed: int | None = None, *, river: bool = False, abbot: bool = False
) -> GameRecord:
    """A new game's record (400 naming what is wrong)."""
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise WebError(f"a game has {MIN_SEATS} to {MAX_SEATS} seats, not {len(players)}")
    for kind in players:
        if kind not in SEAT_KINDS:
            raise WebError(
                f"unknown player {kind!r} (expected {', '.join(SEAT_KINDS)})",
                suggestions=list(SEAT_KINDS),
            )
    if seed is None:
        seed = secrets.randbelow(RANDOM_SEEDS)
    return GameRecord(seed, Rules(river=river, abbot=abbot), tuple(players))


def _restore(body: Any) -> Game:
    """The game of a stored body, drawn up to its tile in hand (or scored at its end)."""
    game = restore(GameRecord.from_dict(body))
    game.draw()
    return game


def _body(game: Game) -> dict[str, Any]:
    """The stored body of a game: its record and a summary for the list."""
    out = record(game).to_dict()
    game.draw()
    out["summary"] = {
        "moves": len(game.turns),
        "finished": game.finished,
        "scores": list(game.board.scores),
        "current": None if game.finished else game.current,
    }
    return out


def _default_name(players: tuple[str, ...] | list[str], seed: int) -> str:
    seats = " vs ".join(_seat_label(k) for k in players)
    return f"{seats} (seed {seed})"


def _person_moves(game: Game) -> list[int]:
    """Indices of the turns people made."""
    return [i for i, t in enumerate(game.turns) if game.players[t.player].name == "human"]


# ------------------------------------------------------------------------------ the view


def _where(point: tuple[float, float]) -> str:
    """Where a point of the tile box lies: ``N``, ``SE``, ``middle``..."""
    dx, dy = point[0] - 50, point[1] - 50
    ns = "N" if dy < -12 else "S" if dy > 12 else ""
    ew = "W" if dx < -12 else "E" if dx > 12 else ""
    return ns + ew or "middle"


def _action(tile: TileType, rotation: int, action: int) -> dict[str, Any]:
    tile_features = tile.rotated_features(rotation)
    if action == RETURN_ABBOT:
        return {
            "follower": None,
            "abbot": False,
            "return_abbot": True,
            "label": "take the abbot back",
        }
    if action < 0:
        return {"follower": None, "abbot": False, "return_abbot": False, "label": "no follower"}
    abbot = action >= ABBOT
    feature = action - ABBOT if abbot else action
    what = describe_feature(tile_features[feature])
    if tile_features[feature].kind is Kind.FARM:
        what += " " + _where(feature_anchor(tile, rotation, feature))
    return {
        "follower": feature,
        "abbot": abbot,
        "return_abbot": False,
        "kind": tile_features[feature].kind.name.lower(),
        "label": ("abbot on " if abbot else "follower on ") + what,
    }


def _legal(game: Game) -> list[dict[str, Any]]:
    """Every legal square of the tile in hand, with its rotations and their actions."""
    assert game.tile is not None
    tile = game.tileset.types[game.tile]
    spots: dict[tuple[int, int], dict[int, list[dict[str, Any]]]] = {}
    for move in (
        Move.of(k, r, a) for k, r, a in legal_actions(game.board, game.tile, game.current)
    ):
        rotations = spots.setdefault((move.x, move.y), {})
        rotations.setdefault(move.rotation, []).append(_action(tile, move.rotation, move.action))
    return [
        {
            "x": x,
            "y": y,
            "rotations": [
                {"rotation": r, "actions": actions} for r, actions in sorted(rotations.items())
            ],
        }
        for (x, y), rotations in sorted(spots.items(), key=lambda s: (s[0][1], s[0][0]))
    ]


def _hand(game: Game) -> dict[str, Any] | None:
    if game.tile is None:
        return None
    tile = game.tileset.types[game.tile]
    return {
        "name": tile.name,
        "about": tile.about,
        "rotations": [
            {
                "svg": tile_group(tile, r),
                "anchors": [list(feature_anchor(tile, r, i)) for i in range(len(tile.features))],
            }
            for r in range(4)
        ],
    }


def _region(r: Region) -> dict[str, Any]:
    return {"kind": r.kind.name.lower(), "tiles": r.tiles, "squares": [list(s) for s in r.squares]}


def _sheet(game: Game, names: list[str]) -> dict[str, Any]:
    sheet = breakdown(game)
    return {
        "kinds": [k.name.lower() for k in SHEET_KINDS],
        "rows": [
            {
                "seat": p,
                "name": names[p],
                "cells": [
                    {"during": sheet.line(p, k).during, "end": sheet.line(p, k).end}
                    for k in SHEET_KINDS
                ],
                "total": sheet.totals[p],
            }
            for p in range(len(game.players))
        ],
        "farms": [
            {
                "farm": _region(f.farm),
                "farmers": list(f.farmers),
                "winners": list(f.winners),
                "cities": [_region(c) for c in f.cities],
                "points": f.points,
            }
            for f in sheet.farms
        ],
    }


def _last(game: Game, names: list[str], log: list[str]) -> dict[str, Any] | None:
    """The last move: its line of the log, what it scored."""
    if not game.turns:
        return None
    turn = game.turns[-1]
    prefix = f"{turn.number:3d}. "
    text = next(line for line in reversed(log) if line.startswith(prefix)).strip()
    return {
        "number": turn.number,
        "seat": turn.player,
        "text": text,
        "x": turn.placement.x,
        "y": turn.placement.y,
        "events": [
            {
                "text": describe_event(e, names),
                "kind": e.kind.name.lower(),
                "complete": e.complete,
                "points": e.points,
                "seats": list(e.players),
            }
            for e in turn.events
        ],
    }


def game_view(doc: Document, game: Game) -> dict[str, Any]:
    """What the table shows: the game and its players, the board (SVG and where its squares
    are), the tile in hand and, when a person is to move, every legal square with its
    rotations and follower actions; the last move and what it scored; the log; at the end
    the score sheet."""
    board = game.board
    game.draw()
    kinds = [p.name for p in game.players]
    names = [f"P{i + 1} ({_seat_label(k)})" for i, k in enumerate(kinds)]
    person = not game.finished and kinds[game.current] == "human"
    highlight = [f for region in completed_by_last_tile(board) for f in region.features]
    layout = board_layout(board, SQUARE, pad=1, coordinates=True)
    log = transcript(game, names)
    players = []
    for i, kind in enumerate(kinds):
        abbot = None
        if game.rules.abbot:
            abbot = "board" if board.abbot_at[i] >= 0 else "supply"
        players.append(
            {
                "seat": i,
                "kind": kind,
                "label": _seat_label(kind),
                "name": names[i],
                "person": kind == "human",
                "colour": PLAYER_COLOURS[i % len(PLAYER_COLOURS)],
                "score": board.scores[i],
                "followers": board.meeples[i],
                "abbot": abbot,
            }
        )
    return {
        "game": {
            "id": doc.id,
            "name": doc.name,
            "version": doc.version,
            "seed": game.seed,
            "river": game.rules.river,
            "abbot": game.rules.abbot,
            "moves": len(game.turns),
            "finished": game.finished,
            "current": None if game.finished else game.current,
            "person_to_move": person,
            "pile": len(game.pile),
            "can_undo": bool(_person_moves(game)),
        },
        "players": players,
        "board": {
            "svg": board_svg(
                board,
                SQUARE,
                pad=1,
                coordinates=True,
                highlight=highlight,
                title="the board",
                last=bool(game.turns),  # the start tile is no one's move
            ),
            "layout": layout.to_dict(),
        },
        "hand": _hand(game),
        "legal": _legal(game) if person else None,
        "last": _last(game, names, log),
        "log": log,
        "sheet": _sheet(game, names) if game.finished else None,
    }


# ------------------------------------------------------------------------------ store


def _id(request: Request) -> int:
    value: int = request.path_params["id"]
    return value


def _get(store: Store, doc_id: int) -> Document:
    try:
        return store.get(doc_id, KIND)
    except NotFoundError:
        raise NotFoundError(f"no Carcassonne game {id_text(doc_id)}") from None


async def _in_store(request: Request, fn: Callable[[Store], Any]) -> Any:
    """``fn(store)`` off the event loop (store errors answered as in saved boards; library
    errors as 400s)."""
    store = get_store(request)

    def work() -> Any:
        try:
            return fn(store)
        except StoreError as err:
            raise store_error(err) from None

    return await compute(work)


def _version(data: dict[str, Any]) -> int:
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise WebError("'version' must be the version of the game the change is based on")
    return version


def _change(
    doc_id: int, version: int, change: Callable[[Game], None]
) -> Callable[[Store], dict[str, Any]]:
    """A change of game ``doc_id`` at ``version``: restore, change, save, view."""

    def work(store: Store) -> dict[str, Any]:
        doc = _get(store, doc_id)
        if doc.version != version:
            raise WebError(
                f"the game moved on elsewhere: it is at version {doc.version}, this change "
                f"was based on version {version} (reload it)",
                409,
            )
        game = _restore(doc.body)
        change(game)
        saved = store.save(doc_id, _body(game), version=version)
        return game_view(saved, game)

    return work


# ------------------------------------------------------------------------------ API


def _create(store: Store, saved: GameRecord, name: str | None) -> dict[str, Any]:
    game = restore(saved)
    doc = store.create(KIND, name or _default_name(saved.players, saved.seed), _body(game))
    return game_view(doc, game)


async def list_games(request: Request) -> Response:
    """``GET /api/carcassonne/games``: every saved game, the last played first."""

    def work(store: Store) -> list[dict[str, Any]]:
        return [_listed(d) for d in store.documents(KIND, fields=("players", "seed", "summary"))]

    return JSONResponse({"games": await _in_store(request, work)})


def _listed(doc: Document) -> dict[str, Any]:
    fields = doc.body or {}
    players = _json_field(fields.get("players")) or []
    summary = _json_field(fields.get("summary")) or {}
    return {
        **doc.summary(),
        "players": players,
        "seats": [_seat_label(k) for k in players if isinstance(k, str)],
        "seed": fields.get("seed"),
        "moves": summary.get("moves", 0),
        "finished": bool(summary.get("finished")),
        "scores": summary.get("scores", []),
        "current": summary.get("current"),
    }


def _json_field(value: Any) -> Any:
    """A field of :meth:`Store.documents` (lists and objects come as JSON text)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return None
    return value


def _players(data: dict[str, Any]) -> list[str]:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise WebError(
            '\'players\' must be a list of player kinds, e.g. ["human", "mcts:hard"]',
            suggestions=list(SEAT_KINDS),
        )
    return players


def _seed(value: Any) -> int | None:
    """The ``seed`` of a JSON body: a whole number (a JSON number, not a string, as every
    number of the API) in range, or absent or null for a random one."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SEED:
        said = f"the text {shown(value)}" if isinstance(value, str) else shown(value)
        raise WebError(
            f"'seed' must be a whole number from 0 to {MAX_SEED} (a JSON number), or null for"
            f" a random one, not {said}"
        )
    return value


def _form_seed(text: str | None) -> int | None:
    """The ``seed`` of the setup form (a form's fields are text): digits in range, or empty
    for a random one."""
    if text is None or not text.strip():
        return None
    return parse_int(text, "'seed'", 0, MAX_SEED)


def _game_name(value: Any) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise WebError("'name' must be a string")
    return value


async def create_game(request: Request) -> Response:
    """``POST /api/carcassonne/games``: a new game."""
    # (a seed may be past the JSON reader's limit on other numbers: up to MAX_SEED)
    data = await json_body(
        request, MAX_BODY, fields=("players", "seed", "river", "abbot", "name"), wide=("seed",)
    )
    saved = new_record(
        _players(data),
        _seed(data.get("seed")),
        river=flag(data, "river"),
        abbot=flag(data, "abbot"),
    )
    name = _game_name(data.get("name"))
    view = await _in_store(request, lambda store: _create(store, saved, name))
    return JSONResponse(view, status_code=201)


async def import_game(request: Request) -> Response:
    """``POST /api/carcassonne/games/import``: a saved game file becomes a game."""
    data = await json_body(request, MAX_BODY)
    data.pop("summary", None)
    # (the name an export gives the game; the query's ?name= first)
    exported = data.pop("name", None)
    try:
        saved = GameRecord.from_dict(data)
    except CarcassonneError as err:
        raise WebError(str(err)) from None
    if not MIN_SEATS <= len(saved.players) <= MAX_SEATS or not all(
        k in SEAT_KINDS for k in saved.players
    ):
        raise WebError(
            f"a game here has {MIN_SEATS} to {MAX_SEATS} players of kinds {', '.join(SEAT_KINDS)}"
        )
    name = _game_name(request.query_params.get("name")) or _game_name(exported)
    view = await _in_store(request, lambda store: _create(store, saved, name))
    return JSONResponse(view, status_code=201)


async def get_game(request: Request) -> Response:
    """``GET /api/carcassonne/games/<id>``: the game's view."""
    doc_id = _id(request)

    def work(store: Store) -> dict[str, Any]:
        doc = _get(store, doc_id)
        return game_view(doc, _restore(doc.body))

    return JSONResponse(await _in_store(request, work))


async def delete_game(request: Request) -> Response:
    """``DELETE /api/carcassonne/games/<id>``."""
    doc_id = _id(request)

    def work(store: Store) -> None:
        _get(store, doc_id)
        store.delete(doc_id)

    await _in_store(request, work)
    return JSONResponse({"deleted": doc_id})


def _int_field(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WebError(f"{key!r} must be a whole number from {low} to {high}")
    return value


async def make_move(request: Request) -> Response:
    """``POST /api/carcassonne/games/<id>/move``: a person's move."""
    doc_id = _id(request)
    fields = ("version", "x", "y", "rotation", "follower", "abbot", "return_abbot")
    data = await json_body(request, MAX_BODY, fields=fields)
    version = _version(data)
    x = _int_field(data, "x", -127, 127)
    y = _int_field(data, "y", -127, 127)
    rotation = _int_field(data, "rotation", 0, 3)
    follower = data.get("follower")
    if follower is not None:
        follower = _int_field(data, "follower", 0, 15)
    try:
        move = Move(x, y, rotation, follower, flag(data, "abbot"), flag(data, "return_abbot"))
    except CarcassonneError as err:
        raise WebError(str(err)) from None

    def change(game: Game) -> None:
        if game.finished:
            raise WebError("the game is over")
        if game.players[game.current].name != "human":
            raise WebError(f"player {game.current + 1} is a computer player: it moves with /step")
        game.make_move(move)

    return JSONResponse(await _in_store(request, _change(doc_id, version, change)))


async def step_game(request: Request) -> Response:
    """``POST /api/carcassonne/games/<id>/step``: the computer player to move moves."""
    doc_id = _id(request)
    version = _version(await json_body(request, MAX_BODY))

    def change(game: Game) -> None:
        if game.finished:
            raise WebError("the game is over")
        if game.players[game.current].name == "human":
            raise WebError(
                f"player {game.current + 1} is a person: their move comes with /move, not /step"
            )
        game.step()

    return JSONResponse(await _in_store(request, _change(doc_id, version, change)))


async def undo_move(request: Request) -> Response:
    """``POST /api/carcassonne/games/<id>/undo``: take back the last move of a person (and
    the computer moves after it)."""
    doc_id = _id(request)
    version = _version(await json_body(request, MAX_BODY))

    def change(game: Game) -> None:
        people = _person_moves(game)
        if not people:
            raise WebError("no move of a person to take back")
        moves = [(t.tile, t.move) for t in game.turns[: people[-1]]]
        saved = record(game)
        fresh = restore(GameRecord(saved.seed, saved.rules, saved.players, tuple(moves)))
        fresh.draw()
        for name in Game.__slots__:
            setattr(game, name, getattr(fresh, name))

    return JSONResponse(await _in_store(request, _change(doc_id, version, change)))


async def export_game(request: Request) -> Response:
    """``GET /api/carcassonne/games/<id>/export``: the saved game file."""
    doc_id = _id(request)
    doc: Document = await _in_store(request, lambda store: _get(store, doc_id))
    body = {k: v for k, v in doc.body.items() if k != "summary"}
    body["name"] = doc.name  # (the saved game file has no name: an import takes it back)
    filename = "".join(c if c.isalnum() or c in "-_" else "-" for c in doc.name)[:60] or "game"
    return JSONResponse(
        body, headers={"Content-Disposition": f'attachment; filename="{filename}.json"'}
    )


# ------------------------------------------------------------------------------ pages


async def play_page(request: Request) -> Response:
    """``GET /carcassonne/play``: start a game; the saved games."""

    def work(store: Store) -> list[dict[str, Any]]:
        return [_listed(d) for d in store.documents(KIND, fields=("players", "seed", "summary"))]

    games = await _in_store(request, work)
    return render(
        request,
        "carcassonne_play.html",
        {
            "title": "Play Carcassonne",
            "kinds": SEAT_KINDS,
            "seats": range(MAX_SEATS),
            "defaults": ["human", "mcts:medium", "", "", ""],
            "colours": PLAYER_COLOURS,
            "max_seed": MAX_SEED,
            "games": games,
        },
    )


async def start_game(request: Request) -> Response:
    """``POST /carcassonne/play``: the form's game, then its page."""
    raw = await read_body(request, MAX_BODY)
    try:
        form = {k: v[-1] for k, v in parse_qs(raw.decode("utf-8")).items()}
    except UnicodeDecodeError:
        raise WebError("the form must be UTF-8") from None
    players = [form[f"seat{i}"] for i in range(MAX_SEATS) if form.get(f"seat{i}")]
    saved = new_record(
        players,
        _form_seed(form.get("seed")),
        river=form.get("river") == "on",
        abbot=form.get("abbot") == "on",
    )
    name = _game_name(form.get("name"))
    view = await _in_store(request, lambda store: _create(store, saved, name))
    return RedirectResponse(f"/carcassonne/play/{view['game']['id']}", status_code=303)


async def table_page(request: Request) -> Response:
    """``GET /carcassonne/play/<id>``: the game's table."""
    doc_id = _id(request)

    def work(store: Store) -> dict[str, Any]:
        doc = _get(store, doc_id)
        return game_view(doc, _restore(doc.body))

    view = await _in_store(request, work)
    boot = Markup(json.dumps(view).replace("<", "\\u003c").replace(">", "\\u003e"))
    return render(
        request,
        "carcassonne_table.html",
        {"title": view["game"]["name"], "view": view, "boot": boot},
    )


def routes() -> list[BaseRoute]:
    """The pages and the API of games played in the browser."""
    return [
        Route("/carcassonne/play", play_page, methods=["GET"], name="carc_play"),
        Route("/carcassonne/play", start_game, methods=["POST"], name="carc_start"),
        Route("/carcassonne/play/{id:id}", table_page, methods=["GET"], name="carc_table"),
        Route("/api/carcassonne/games", list_games, methods=["GET"], name="carc_list"),
        Route("/api/carcassonne/games", create_game, methods=["POST"], name="carc_create"),
        Route("/api/carcassonne/games/import", import_game, methods=["POST"], name="carc_import"),
        Route("/api/carcassonne/games/{id:id}", get_game, methods=["GET"], name="carc_get"),
        Route(
            "/api/carcassonne/games/{id:id}", delete_game, methods=["DELETE"], name="carc_delete"
        ),
        Route("/api/carcassonne/games/{id:id}/move", make_move, methods=["POST"], name="carc_move"),
        Route("/api/carcassonne/games/{id:id}/step", step_game, methods=["POST"], name="carc_step"),
        Route("/api/carcassonne/games/{id:id}/undo", undo_move, methods=["POST"], name="carc_undo"),
        Route(
            "/api/carcassonne/games/{id:id}/export",
            export_game,
            methods=["GET"],
            name="carc_export",
        ),
    ]
