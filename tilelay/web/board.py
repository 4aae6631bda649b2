"""The board page: a sandbox on any game's map, with the best routes live.

The page (``GET /board/<game>``; ``?board=ID`` opens a saved board, ``?options=a+b`` chooses
game options, ``?seed=N&players=P`` the seed and players a game that draws its setup when it
starts is drawn for: 18USA's red hexes and metropolises; a new board of such a game takes a
seed at random and the most players the game has) draws the map; a click (or Enter on the
keyboard's hex cursor) on a hex asks the API for the tiles that may be laid there, each in
its legal rotations. Everything the
page changes is a :class:`~tilelay.sandbox.BoardState`, which the page keeps and sends with
every request: the server keeps no session, so undo, redo and saving are simple.

The JSON API (every body a JSON object of at most :data:`~tilelay.web.params.MAX_BODY` bytes
with the ``state``; every answer a *view*: the new state, the map as SVG, the game's phases,
corporations, options and trains, the history, and the best routes of the chosen corporation
and trains):

* ``POST /api/boards/view`` – the view of a state (``reach``: highlight where the chosen
  corporation may lay track);
* ``POST /api/boards/lays`` – ``{state, hex, reach?}``: the legal lays on a hex with their
  drawings, the tile there and the tiles that may replace it, its cities and tokens;
* ``POST /api/boards/lay`` – ``{state, hex, tile, rotation, replace?}``;
* ``POST /api/boards/rotate`` – ``{state, hex, step?}``: the next legal rotation;
* ``POST /api/boards/token`` – ``{state, hex, corporation, city?, remove?}``;
* ``POST /api/boards/phase`` – ``{state, phase}``; ``POST /api/boards/options`` –
  ``{state, options}``; ``POST /api/boards/setup`` – ``{state, seed, players}``;
  ``POST /api/boards/routes`` – ``{state, corporation, trains}``;
* ``POST /api/boards/undo`` and ``POST /api/boards/redo`` – ``{state}``.

An edit the rules forbid answers 422 naming the rule; a malformed state 400 naming the field
or action, and so does a name in the body that the game does not have (the game, a hex, tile,
corporation, phase, option or train, in the state, its actions or the edit), with close names
(:func:`~tilelay.web.errors.named_in_request`: 404 is only for what the URL's path names).
All the work runs off the event loop (:func:`~tilelay.web.compute.compute`); the best
routes are searched for as long as a page's search may
(:func:`~tilelay.web.compute.search_seconds`): a position whose search takes longer shows
without them, its revenue null and a note saying why, and is not searched again while the
server remembers that (:func:`~tilelay.web.compute.limited_search`: the same position asked
again answers at once; an edit that changes it searches again).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tilelay.board import Board
from tilelay.errors import NotFoundError
from tilelay.games import Game, game_names, load_game
from tilelay.limits import MAX_PLAYERS
from tilelay.routes import RoutePlanner
from tilelay.rules import rules_for
from tilelay.sandbox import (
    MAX_SEED,
    BoardState,
    IllegalEdit,
    StateError,
    game_key,
    player_range,
)
from tilelay.store import StoreError
from tilelay.svg import ROUTE_COLORS, map_svg, tile_svg
from tilelay.svg.text import css_color
from tilelay.tile import NodeKind
from tilelay.upgrades import distinct_rotations
from tilelay.web.compute import compute, limited_search, search_seconds
from tilelay.web.errors import WebError, named_in_request
from tilelay.web.params import check_query, flag, json_body, safe_name, split_plus
from tilelay.web.stores import get_store, store_error, store_path
from tilelay.web.templating import render

__all__ = ["MAP_SIZE", "board_view", "hex_lays", "routes", "view_of"]

#: Hex circumradius (px) of the drawn map (the page scales it to its width).
MAP_SIZE = 40
#: Hex circumradius (px) of the tiles offered on a hex.
CHOICE_SIZE = 30
#: Colour of the hexes a corporation reaches (``reach``).
REACH_COLOR = "#16a34a"


# ------------------------------------------------------------------------------ reading


def _text(data: Mapping[str, Any], key: str, *, required: bool = True) -> str | None:
    value = data.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 80:
        raise WebError(f"{key!r} must be a non-empty string of at most 80 characters")
    return value.strip()


def _int(data: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise WebError(f"{key!r} must be a whole number from {low} to {high}")
    return value


def _strings(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= 80 for v in value):
        raise WebError(f"{key!r} must be a list of strings")
    if len(value) > 50:
        raise WebError(f"{key!r} has at most 50 entries")
    return list(value)


def read_state(data: Mapping[str, Any]) -> BoardState:
    """The ``state`` of a request body (400 naming what is wrong, with close names where
    it names a game, option, phase, corporation or train that there is not)."""
    if "state" not in data:
        raise WebError("the body has no 'state' (a board state)")
    try:
        with named_in_request():
            return BoardState.from_json(data["state"])
    except IllegalEdit as err:
        raise WebError(str(err)) from None


# ------------------------------------------------------------------------------ views


def _game_info(game: Game) -> dict[str, Any]:
    trains: list[str] = []
    for card in game.trains.card_types:
        for side in card.sides:
            if side.name not in trains and side.runs:
                trains.append(side.name)
    return {
        "name": game_key(game),
        "title": game.title,
        "layout": game.layout.value,
        "phases": [{"name": p.name, "tiles": list(p.tiles)} for p in game.phases],
        "corporations": [
            {
                "sym": c.sym,
                "name": c.name,
                "color": css_color(c.color),
                "text_color": css_color(c.text_color) if c.text_color else None,
                "home": c.home,
                "homes": [h for h in (c.home, *(h for h, _ in c.more_homes)) if h is not None],
                "tokens": len(c.tokens),
                "kind": c.kind,
            }
            for c in game.corporations
        ],
        "options": [
            {
                "name": o.name,
                "title": o.title,
                "description": o.description,
                "chosen": o.name in game.chosen_options,
                "changes_tiles": o.changes_tiles,
                # what it changes that the board shows (tiles, map, trains, …), and the
                # numbers of players it is for (none: any)
                "changes": list(o.changes),
                "players": list(o.players),
            }
            for o in game.options
        ],
        "trains": trains,
        # whether the game draws its setup from a seed when it starts, and for how many
        "seeded": rules_for(game).seeded,
        "players": list(player_range(game)),
        # whether its map or its trains depend on the number of players (Game.for_players)
        "by_players": bool(game.hexes_by_players)
        or any(c.quantity_by_players for c in game.trains.card_types),
    }


def _search_key(state: BoardState, phase: str) -> list[object]:
    """What a board's best routes depend on: the game and its options, the actions (the
    board), the phase, the corporation and its trains; not the history, which an undo or a
    redo changes while the board comes back."""
    return [
        "board",
        state.game,
        state.options,
        state.seed,
        state.players,
        state.actions,
        phase,
        state.corporation,
        state.trains,
    ]


def _best_routes(state: BoardState) -> dict[str, Any] | None:
    if state.corporation is None or not state.trains:
        return None
    board = state.board()
    phase = state.current_phase()
    out: dict[str, Any] = {
        "corporation": state.corporation,
        "phase": phase.name,
        "trains": list(state.trains),
        "routes": [],
        "revenue": 0,
        "per_train": [],
    }
    if not board.tokens_of(state.corporation):
        out["note"] = f"{state.corporation} has no token on the map: it cannot run"
        out["per_train"] = [{"train": t, "revenue": 0, "color": None} for t in state.trains]
        return out
    seconds = search_seconds()
    corporation, trains = state.corporation, state.trains
    result = limited_search(
        _search_key(state, phase.name),
        seconds,
        lambda: RoutePlanner(board, corporation, phase).best(trains),
    )
    if result is None:
        # the board shows without its best routes rather than not at all
        out["revenue"] = None
        out["note"] = f"the best routes take longer than {seconds:g} s to find: not shown"
        out["per_train"] = [{"train": t, "revenue": None, "color": None} for t in state.trains]
        return out
    routes = [
        {
            "train": r.train,
            "revenue": r.revenue,
            "hexes": list(r.hexes),
            "stops": [[c, n] for c, n in r.stops],
            "color": ROUTE_COLORS[i % len(ROUTE_COLORS)],
        }
        for i, r in enumerate(result.routes)
    ]
    out["routes"] = routes
    out["revenue"] = result.revenue
    free = list(routes)
    per_train = []
    for train in state.trains:
        match = next((r for r in free if r["train"] == train), None)
        if match is not None:
            free.remove(match)
        per_train.append(
            {
                "train": train,
                "revenue": match["revenue"] if match else 0,
                "color": match["color"] if match else None,
            }
        )
    out["per_train"] = per_train
    out["_result"] = result
    return out


def board_view(state: BoardState, *, reach: bool = False) -> dict[str, Any]:
    """Everything the page shows of ``state`` (JSON data, with the map as SVG)."""
    board = state.board()
    game = board.game
    routes = _best_routes(state)
    result = routes.pop("_result", None) if routes else None
    highlights: dict[str, str] = {}
    reached: list[str] | None = None
    if reach and state.corporation is not None:
        reached = sorted(board.reach(state.corporation))
        highlights = {coord: REACH_COLOR for coord in reached}
    svg = map_svg(
        game,
        board=board,
        size=MAP_SIZE,
        routes=list(result.routes) if result is not None else None,
        highlights=highlights or None,
    )
    laid = {}
    for i, text in enumerate(state.actions):
        coord, _, rest = text.partition("=")
        if "@" not in rest:
            tile, _, rotation = rest.rpartition("-")
            laid[coord] = {"tile": tile, "rotation": int(rotation), "action": i}
    return {
        "state": state.to_json(),
        "svg": svg,
        "size": MAP_SIZE,
        "game": _game_info(game),
        "phase": state.current_phase().name,
        "history": {
            "undo": len(state.done),
            "redo": len(state.undone),
            # the edits in words (the state keeps their text forms)
            "last": state.done[-1].describe() if state.done else None,
            "next": state.undone[-1].describe() if state.undone else None,
        },
        "actions": len(state.actions),
        "laid": laid,
        "tokens": [
            {"hex": coord, "city": city, "corporations": list(corps)}
            for (coord, city), corps in sorted(board.tokens.items())
        ],
        "routes": routes,
        "reach": reached,
    }


def _choices(board: Board, legal: Mapping[str, tuple[int, ...]]) -> list[dict[str, Any]]:
    """The tiles offered, each with its legal rotations (``all``) and a drawing of each
    rotation that places the tile differently (a symmetric tile's twins left out)."""
    game = board.game
    out = []
    for name, rotations in legal.items():
        tile = game.tile(name)
        out.append(
            {
                "tile": name,
                "color": tile.color.value,
                "left": board.available(name),
                "all": list(rotations),
                "rotations": [
                    {
                        "rotation": r,
                        "svg": tile_svg(tile.rotated(r), layout=game.layout, size=CHOICE_SIZE),
                    }
                    for r in distinct_rotations(tile, rotations)
                ],
            }
        )
    return out


def hex_lays(state: BoardState, coord: str, *, reach: bool = False) -> dict[str, Any]:
    """What may be done on hex ``coord``: the legal lays (with drawings), the tile there
    and, when this board laid it, the tiles that may replace it; its cities and tokens."""
    board = state.board()
    game = board.game
    coord = game.hex_tile(coord).name
    legal = state.legal_lays(coord, reach=reach)
    tile = board.tile_at(coord)
    index = state.laid_by(coord)
    replacing: list[dict[str, Any]] = []
    if index is not None:
        before = replace(state, actions=state.actions[:index])
        replacing = _choices(before.board(), before.legal_lays(coord))
    cities = []
    tokens = board.tokens
    city_nodes = [i for i, n in enumerate(tile.nodes) if n.kind is NodeKind.CITY]
    for k, node in enumerate(city_nodes):
        revenue = tile.nodes[node].revenue
        cities.append(
            {
                "city": k,
                "slots": tile.nodes[node].slots,
                "tokens": list(tokens.get((coord, k), ())),
                "revenue": revenue.value if revenue is not None else None,
            }
        )
    return {
        "hex": coord,
        "location": tile.location_name or game.hex_tile(coord).location_name,
        "tile": {
            "name": tile.name,
            "color": tile.color.value,
            "rotation": tile.rotation % 6,
            "preprinted": index is None,
            "action": index,
        },
        "phase": state.current_phase().name,
        "reach": reach,
        # why nothing may be laid where the corporation reaches: it has no token
        "reach_note": (
            f"{state.corporation} has no station token on the map: it reaches nowhere yet"
            if reach and not any(state.corporation in c for c in tokens.values())
            else None
        ),
        "legal": _choices(board, legal),
        "replace": replacing,
        "cities": cities,
        "homes": [
            c.sym
            for c in game.corporations
            if c.home == coord or any(h == coord for h, _ in c.more_homes)
        ],
    }


def view_of(state: BoardState, reach: bool) -> dict[str, Any]:
    """The view answered after an edit."""
    return board_view(state, reach=reach)


# ------------------------------------------------------------------------------ HTTP


#: The fields of every board edit's body: the state, and whether to show the reach.
_COMMON = ("state", "reach")


def _edit(
    fn: Callable[[BoardState, Mapping[str, Any]], BoardState], fields: tuple[str, ...]
) -> Callable[..., Any]:
    async def handler(request: Request) -> Response:
        data = await json_body(request, fields={*_COMMON, *fields})
        reach = flag(data, "reach")

        def work() -> dict[str, Any]:
            state = read_state(data)
            try:
                with named_in_request():
                    new = fn(state, data)
            except IllegalEdit as err:
                raise WebError(str(err), 422) from None
            except StateError as err:
                raise WebError(str(err)) from None
            return view_of(new, reach)

        return JSONResponse(await compute(work))

    handler.__doc__ = fn.__doc__
    return handler


def _lay(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Lay a tile (``replace``: instead of the tile this board laid there)."""
    coord = str(_text(data, "hex"))
    tile = str(_text(data, "tile"))
    if "rotation" not in data:
        raise WebError("the body has no 'rotation' (0 to 5)")
    rotation = _int(data, "rotation", 0, 0, 5)
    if flag(data, "replace"):
        return state.replace_tile(coord, tile, rotation)
    return state.lay(coord, tile, rotation)


def _rotate(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Turn the tile this board laid on a hex to its next legal rotation."""
    step = data.get("step", 1)
    if step not in (-1, 1) or isinstance(step, bool):
        raise WebError("'step' must be 1 (the next rotation) or -1 (the one before)")
    return state.rotate(str(_text(data, "hex")), step)


def _token(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Place (or with ``remove``, take off) a corporation's station token."""
    coord = str(_text(data, "hex"))
    corp = str(_text(data, "corporation"))
    if flag(data, "remove"):
        return state.remove_token(coord, corp)
    return state.place_token(coord, corp, _int(data, "city", 0, 0, 20))


def _phase(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Set the phase."""
    return state.set_phase(str(_text(data, "phase")))


def _options(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Choose the game's options."""
    return state.with_options(_strings(data, "options"))


def _optional(data: Mapping[str, Any], key: str, most: int) -> int | None:
    if data.get(key) is None:
        return None
    return _int(data, key, 0, 0, most)


def _setup(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Choose the seed and number of players the game's setup is drawn for."""
    seed = _optional(data, "seed", MAX_SEED)
    return state.with_setup(seed, _optional(data, "players", MAX_PLAYERS))


def _routes(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Choose the corporation and trains whose best routes are shown."""
    corp = _text(data, "corporation", required=False)
    return state.with_routes(corp, _strings(data, "trains"))


def _undo(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Undo the last edit."""
    return state.undo()


def _redo(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """Redo the last undone edit."""
    return state.redo()


def _view(state: BoardState, data: Mapping[str, Any]) -> BoardState:
    """The view of a state."""
    return state


async def lays_api(request: Request) -> Response:
    """``POST /api/boards/lays``: the legal lays on a hex."""
    data = await json_body(request, fields=(*_COMMON, "hex"))
    coord = str(_text(data, "hex"))
    reach = flag(data, "reach")

    def work() -> dict[str, Any]:
        state = read_state(data)
        try:
            with named_in_request():
                return hex_lays(state, coord, reach=reach)
        except IllegalEdit as err:
            raise WebError(str(err), 422) from None

    return JSONResponse(await compute(work))


def _game(request: Request) -> Game:
    name = str(request.path_params["game"])
    request.state.suggest = "/board/{}"
    if not safe_name(name.replace("@", " ", 1)):  # TITLE@FORMAT names one source's game
        raise NotFoundError(f"no game named {name!r}", suggestions=game_names())
    return load_game(name)


async def board_page(request: Request) -> Response:
    """``GET /board/<game>``: the board page (``?board=ID``: a saved board; ``?record=ID``:
    an imported record, stepped through; ``?options=a+b``: the game's options;
    ``?seed=N&players=P``: what its setup is drawn for, see the module docstring)."""
    check_query(request, ("options", "board", "record", "seed", "players"))
    game = _game(request)
    options = split_plus(request.query_params.get("options", "").replace(",", " "))
    seed, players = _query_setup(request, game)
    saved_id = request.query_params.get("board", "").strip()
    record_id = request.query_params.get("record", "").strip()
    for what, value in (("board", saved_id), ("record", record_id)):
        if value and not (value.isascii() and value.isdigit() and len(value) < 12):
            raise WebError(f"bad {what} id {value[:20]!r}: expected a number", 400)
    store = get_store(request) if saved_id or record_id else None

    def work() -> tuple[dict[str, Any], dict[str, Any] | None]:
        if record_id and store is not None:
            # a record that is not there is a page that is not there, as a board's is
            try:
                store.get(int(record_id), "record")
            except StoreError as err:
                raise store_error(err) from None
        if not saved_id or store is None:
            try:
                with named_in_request():  # (?options= modifies the page, names no resource)
                    state = BoardState(game_key(game)).with_options(options)
                    if seed is not None or players is not None:
                        state = state.with_setup(seed, players)
            except IllegalEdit as err:
                raise WebError(str(err)) from None
            return board_view(state), None
        try:
            doc = store.get(int(saved_id), "board")
        except StoreError as err:
            raise store_error(err) from None
        state = read_state({"state": doc.body})
        if state.game != game_key(game):
            raise WebError(
                f"board {doc.id} is a board of {state.game}, not {game.name}",
                404,
                suggestions=[state.game],
            )
        return board_view(state), {"id": doc.id, "name": doc.name, "version": doc.version}

    view, saved = await compute(work)
    # "<" written as \u003c: nothing in the data can end the script element
    record = int(record_id) if record_id else None
    boot = json.dumps({"view": view, "board": saved, "record": record}).replace("<", "\\u003c")
    return render(
        request,
        "board.html",
        {
            "title": f"{game.title}: board",
            "game": game,
            "q": quote(game_key(game), safe=""),
            "boot": Markup(boot),
            "map": Markup(view["svg"]),
            "database": str(store_path(request)),
            "max_record_mb": 5,
        },
    )


def _query_setup(request: Request, game: Game) -> tuple[int | None, int | None]:
    """The page's ``?seed=`` and ``?players=`` (400 for what is not a number); for a game
    that draws its setup, a seed at random and the most players the game has where the
    query gives none."""
    found: list[int | None] = []
    for key in ("seed", "players"):
        text = request.query_params.get(key, "").strip()
        if text and not (text.isascii() and text.isdigit() and len(text) <= 19):
            raise WebError(f"bad {key} {text[:20]!r}: expected a whole number", 400)
        found.append(int(text) if text else None)
    seed, players = found
    if rules_for(game).seeded:
        if seed is None:
            seed = secrets.randbelow(1_000_000)
        if players is None:
            players = player_range(game)[1]
    return seed, players


def routes() -> list[BaseRoute]:
    """The board page and the board-state API."""
    # each edit, and the fields of its body besides the common ones
    edits: dict[str, tuple[Callable[[BoardState, Mapping[str, Any]], BoardState], tuple[str, ...]]]
    edits = {
        "view": (_view, ()),
        "lay": (_lay, ("hex", "tile", "rotation", "replace")),
        "rotate": (_rotate, ("hex", "step")),
        "token": (_token, ("hex", "corporation", "city", "remove")),
        "phase": (_phase, ("phase",)),
        "options": (_options, ("options",)),
        "setup": (_setup, ("seed", "players")),
        "routes": (_routes, ("corporation", "trains")),
        "undo": (_undo, ()),
        "redo": (_redo, ()),
    }
    out: list[BaseRoute] = [Route("/board/{game}", board_page, name="board_page")]
    out.append(Route("/api/boards/lays", lays_api, methods=["POST"], name="board_lays"))
    for name, (fn, fields) in edits.items():
        handler = _edit(fn, fields)
        out.append(Route(f"/api/boards/{name}", handler, methods=["POST"], name=f"board_{name}"))
    return out
