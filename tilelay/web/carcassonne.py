"""The Carcassonne pages: a game between computer players, shown move by move.

:func:`routes` gives Starlette routes to mount in the web app:

- ``/carcassonne``: a form (seed, players, kinds of players) and the tile set;
- ``/carcassonne/game?seed=1&players=2&move=17[&kinds=greedy,random][&autoplay=1]``: the board
  after move 17, the scores, whose turn it is, links to the first, previous, next and last
  move and a "play" button that steps through the game;
- ``/carcassonne/board.svg?...``: just the board drawing;
- ``/carcassonne/tile/{name}.svg?rotation=R``: one tile's drawing (the base game's, the
  River's and the tiles with gardens).

Games with people, the River and the Abbot are played in :mod:`tilelay.web.carcassonne_play`.

Games are replayed from their seed for each request (a random game takes milliseconds), off
the event loop under the request time limit (:func:`~tilelay.web.compute.offloaded`). Bad
query parameters answer 400 with a one-line message (:mod:`tilelay.web.errors`). Seeds are 0
to :data:`tilelay.carcassonne.game.MAX_SEED`, as in the games played in the browser and on the
command line.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlencode

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import (
    MAX_PLAYERS,
    MAX_SEED,
    MIN_PLAYERS,
    PLAYER_KINDS,
    Game,
    transcript,
)
from tilelay.carcassonne.players import new_game
from tilelay.carcassonne.svg import PLAYER_COLOURS, board_svg, tile_svg
from tilelay.carcassonne.tileset import base_tileset, game_tileset
from tilelay.web.compute import offloaded
from tilelay.web.errors import WebError
from tilelay.web.params import parse_int
from tilelay.web.templating import render

__all__ = ["GameQuery", "parse_query", "routes"]

MAX_MOVES = 72


def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    return parse_int(raw, f"query parameter {name!r}", low, high)


@dataclass(frozen=True, slots=True)
class GameQuery:
    """The parameters that name a game and a point in it."""

    seed: int
    kinds: tuple[str, ...]
    move: int
    autoplay: bool

    def url(self, path: str = "/carcassonne/game", **changes: int | bool) -> str:
        """The URL of this game at another move (or with autoplay on or off)."""
        move = int(changes.get("move", self.move))
        autoplay = bool(changes.get("autoplay", self.autoplay))
        params: dict[str, str | int] = {"seed": self.seed, "players": len(self.kinds)}
        if any(k != "random" for k in self.kinds):
            params["kinds"] = ",".join(self.kinds)
        params["move"] = move
        if autoplay:
            params["autoplay"] = 1
        return f"{path}?{urlencode(params)}"


def parse_query(request: Request) -> GameQuery:
    """Read ``seed``, ``players``, ``kinds``, ``move`` and ``autoplay``; raise :class:`WebError`."""
    seed = _int(request, "seed", 1, 0, MAX_SEED)
    players = _int(request, "players", 2, MIN_PLAYERS, MAX_PLAYERS)
    move = _int(request, "move", 0, 0, MAX_MOVES)
    autoplay = _int(request, "autoplay", 0, 0, 1) == 1
    raw = request.query_params.get("kinds", "")
    kinds = [k.strip() for k in raw.split(",") if k.strip()] if raw else ["random"]
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise WebError(
                f"query parameter 'kinds': unknown player {kind!r} "
                f"(expected {', '.join(sorted(PLAYER_KINDS))})"
            )
    if len(kinds) == 1:
        kinds = kinds * players
    elif len(kinds) != players:
        raise WebError(f"query parameter 'kinds': {len(kinds)} kinds given for {players} players")
    return GameQuery(seed, tuple(kinds), move, autoplay)


def _game_at(query: GameQuery) -> Game:
    """The game after ``query.move`` moves; from the last move on, with final scoring."""
    game = new_game(list(query.kinds), seed=query.seed)
    if query.move >= _total_moves(query.seed, query.kinds):
        game.play()
    else:
        game.play_to(query.move)
    return game


def index(request: Request) -> Response:
    """The start page: a form to choose a game, and the tile set."""
    ts = base_tileset()
    tiles = [
        {"svg": Markup(tile_svg(t, 0, 64)), "name": t.name, "count": t.count} for t in ts.types
    ]
    return render(
        request,
        "carcassonne_index.html",
        {
            "title": "Carcassonne",
            "kinds": sorted(PLAYER_KINDS),
            "min_players": MIN_PLAYERS,
            "max_players": MAX_PLAYERS,
            "max_seed": MAX_SEED,
            "tiles": tiles,
            "total": ts.total,
        },
    )


def game_page(request: Request) -> Response:
    """The board of a game after a given move, with scores and navigation."""
    query = parse_query(request)
    game = _game_at(query)
    shown = len(game.turns)
    total = _total_moves(query.seed, query.kinds)
    names = [f"P{i + 1} ({p.name})" for i, p in enumerate(game.players)]
    players = [
        {
            "name": name,
            "colour": PLAYER_COLOURS[i],
            "score": game.board.scores[i],
            "followers": game.board.meeples[i],
        }
        for i, name in enumerate(names)
    ]
    last = None
    if game.turns:
        turn = game.turns[-1]
        p = turn.placement
        last = (
            f"Move {turn.number}: {names[turn.player]} placed {turn.tile} at "
            f"({p.x}, {p.y}) turned {p.rotation * 90}."
        )
    status = (
        "Game over (final scoring done)."
        if game.finished
        else f"Next: {names[game.current]} to move."
    )
    next_move = min(total, shown + 1)
    playing = query.autoplay and shown < total
    return render(
        request,
        "carcassonne_game.html",
        {
            "title": f"Carcassonne seed {query.seed}, move {shown}",
            "seed": query.seed,
            "shown": shown,
            "total": total,
            "nav": {
                "first": query.url(move=0, autoplay=False),
                "prev": query.url(move=max(0, shown - 1), autoplay=False),
                "next": query.url(move=next_move, autoplay=False),
                "last": query.url(move=total, autoplay=False),
            },
            "playing": playing,
            "play_href": query.url(move=shown if playing else next_move, autoplay=not playing),
            "next_auto": query.url(move=next_move, autoplay=True),
            "at_end": shown >= total,
            "last": last,
            "status": status,
            "players": players,
            "board": Markup(
                board_svg(game.board, 48, coordinates=True, title=f"after move {shown}")
            ),
            "log": "\n".join(transcript(game)[-12:]),
        },
    )


@lru_cache(maxsize=256)
def _total_moves(seed: int, kinds: tuple[str, ...]) -> int:
    """How many tiles are placed in the whole game (tiles that fit nowhere are not moves)."""
    game = new_game(list(kinds), seed=seed)
    game.play()
    return len(game.turns)


def board_image(request: Request) -> Response:
    """The board drawing alone, as SVG."""
    query = parse_query(request)
    game = _game_at(query)
    return Response(board_svg(game.board), media_type="image/svg+xml")


def tile_image(request: Request) -> Response:
    """One tile's drawing, as SVG."""
    name = request.path_params["name"]
    rotation = _int(request, "rotation", 0, 0, 3)
    try:
        tile = game_tileset(river=True, abbot=True).type(name)
    except CarcassonneError as err:
        raise WebError(str(err), 404) from None
    return Response(tile_svg(tile, rotation), media_type="image/svg+xml")


def routes() -> list[Route]:
    """The Carcassonne routes, to mount in the web app."""
    return [
        Route("/carcassonne", offloaded(index), methods=["GET"]),
        Route("/carcassonne/game", offloaded(game_page), methods=["GET"]),
        Route("/carcassonne/board.svg", offloaded(board_image), methods=["GET"]),
        Route("/carcassonne/tile/{name}.svg", offloaded(tile_image), methods=["GET"]),
    ]
