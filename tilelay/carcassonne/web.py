"""Web pages for Carcassonne: a game between computer players, shown move by move.

:func:`routes` gives Starlette routes to mount in the web app:

- ``/carcassonne``: a form (seed, players, kinds of players) and the tile set;
- ``/carcassonne/game?seed=1&players=2&move=17[&kinds=greedy,random][&autoplay=1]``: the board
  after move 17, the scores, whose turn it is, links to the first, previous, next and last
  move and a "play" button that steps through the game;
- ``/carcassonne/board.svg?...``: just the board drawing;
- ``/carcassonne/tile/{name}.svg?rotation=R``: one tile's drawing.

Games are replayed from their seed for each request (a random game takes milliseconds). Bad
query parameters answer 400 with a one-line message.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from html import escape
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from tilelay.carcassonne.errors import CarcassonneError
from tilelay.carcassonne.game import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLAYER_KINDS,
    Game,
    new_game,
    transcript,
)
from tilelay.carcassonne.svg import PLAYER_COLOURS, board_svg, tile_svg
from tilelay.carcassonne.tileset import base_tileset

MAX_SEED = 2**63 - 1
MAX_MOVES = 72


class BadQuery(CarcassonneError):
    """A query parameter that is missing or malformed."""


def _int(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadQuery(
            f"query parameter {name!r}: expected a whole number from {low} to {high}, not {raw!r}"
        ) from None
    if not low <= value <= high:
        raise BadQuery(f"query parameter {name!r}: expected {low} to {high}, not {value}")
    return value


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
    """Read ``seed``, ``players``, ``kinds``, ``move`` and ``autoplay``; raise :class:`BadQuery`."""
    seed = _int(request, "seed", 1, 0, MAX_SEED)
    players = _int(request, "players", 2, MIN_PLAYERS, MAX_PLAYERS)
    move = _int(request, "move", 0, 0, MAX_MOVES)
    autoplay = _int(request, "autoplay", 0, 0, 1) == 1
    raw = request.query_params.get("kinds", "")
    kinds = [k.strip() for k in raw.split(",") if k.strip()] if raw else ["random"]
    for kind in kinds:
        if kind not in PLAYER_KINDS:
            raise BadQuery(
                f"query parameter 'kinds': unknown player {kind!r} "
                f"(expected {', '.join(sorted(PLAYER_KINDS))})"
            )
    if len(kinds) == 1:
        kinds = kinds * players
    elif len(kinds) != players:
        raise BadQuery(f"query parameter 'kinds': {len(kinds)} kinds given for {players} players")
    return GameQuery(seed, tuple(kinds), move, autoplay)


def _game_at(query: GameQuery) -> Game:
    """The game after ``query.move`` moves; from the last move on, with final scoring."""
    game = new_game(list(query.kinds), seed=query.seed)
    if query.move >= _total_moves(query.seed, query.kinds):
        game.play()
    else:
        game.play_to(query.move)
    return game


def _bad(err: CarcassonneError) -> PlainTextResponse:
    return PlainTextResponse(f"Bad request: {err}\n", status_code=400)


_STYLE = """
.carcassonne nav a,.carcassonne button{margin-right:.6em}
.carcassonne .board{overflow:auto;border:1px solid #ccc;background:#f7f5ef;padding:4px;
max-width:100%}
.carcassonne table.scores td{padding:.1em .8em}
.carcassonne .swatch{display:inline-block;width:.9em;height:.9em;border-radius:50%;
border:1px solid #000}
.carcassonne pre{background:#f0eee6;padding:.5em;max-height:14em;overflow:auto}
.carcassonne .tiles svg{margin:2px}
""".strip()


def _page(request: Request, title: str, body: str) -> HTMLResponse:
    """The page in the web app's frame (header, navigation, footer)."""
    # imported here: tilelay.web mounts these routes, so importing it at the top would be
    # circular
    from markupsafe import Markup

    from tilelay.web.templating import render

    return render(
        request,
        "carcassonne.html",
        {"title": title, "style": Markup(_STYLE), "body": Markup(body)},
    )


async def index(request: Request) -> Response:
    """The start page: a form to choose a game, and the tile set."""
    ts = base_tileset()
    kind_options = "".join(f'<option value="{k}">{k}</option>' for k in sorted(PLAYER_KINDS))
    tiles = "".join(
        f'<figure style="display:inline-block;margin:4px;text-align:center">'
        f"{tile_svg(t, 0, 64)}<figcaption>{escape(t.name)} x{t.count}</figcaption></figure>"
        for t in ts.types
    )
    body = (
        "<h1>Carcassonne</h1>"
        "<p>Computer players play the base game; step through the game move by move.</p>"
        '<form action="/carcassonne/game" method="get">'
        '<label>Seed <input name="seed" type="number" min="0" value="1"></label> '
        f'<label>Players <input name="players" type="number" min="{MIN_PLAYERS}" '
        f'max="{MAX_PLAYERS}" value="2"></label> '
        f'<label>Players are <select name="kinds">{kind_options}</select></label> '
        '<input type="hidden" name="move" value="0"> '
        '<button type="submit">Show game</button></form>'
        f'<h2>The tiles ({ts.total})</h2><div class="tiles">{tiles}</div>'
    )
    return _page(request, "Carcassonne", body)


async def game_page(request: Request) -> Response:
    """The board of a game after a given move, with scores and navigation."""
    try:
        query = parse_query(request)
    except CarcassonneError as err:
        return _bad(err)
    game = _game_at(query)
    shown = len(game.turns)
    total = _total_moves(query.seed, query.kinds)
    names = [f"P{i + 1} ({p.name})" for i, p in enumerate(game.players)]
    rows = "".join(
        f'<tr><td><span class="swatch" style="background:{PLAYER_COLOURS[i]}"></span> '
        f"{escape(name)}</td><td>{game.board.scores[i]}</td>"
        f"<td>{game.board.meeples[i]} followers left</td></tr>"
        for i, name in enumerate(names)
    )
    if game.finished:
        status = "Game over (final scoring done)."
    else:
        status = f"Next: {escape(names[game.current])} to move."
    last = ""
    if game.turns:
        turn = game.turns[-1]
        p = turn.placement
        last = (
            f"Move {turn.number}: {escape(names[turn.player])} placed {escape(turn.tile)} at "
            f"({p.x}, {p.y}) turned {p.rotation * 90}."
        )
    prev_move = max(0, shown - 1)
    next_move = min(total, shown + 1)
    nav = (
        f'<a href="{escape(query.url(move=0, autoplay=False))}">first</a>'
        f'<a href="{escape(query.url(move=prev_move, autoplay=False))}" rel="prev">prev</a>'
        f'<a href="{escape(query.url(move=next_move, autoplay=False))}" rel="next">next</a>'
        f'<a href="{escape(query.url(move=total, autoplay=False))}">last</a>'
    )
    if query.autoplay and shown < total:
        button = (
            f'<button id="play" data-href="{escape(query.url(move=shown, autoplay=False))}">'
            "Pause</button>"
        )
        script = (
            "<script>const b=document.getElementById('play');"
            "b.onclick=()=>{location.href=b.dataset.href};"
            f"setTimeout(()=>{{location.href={_js(query.url(move=next_move, autoplay=True))}}},"
            "700);</script>"
        )
    else:
        button = (
            f'<button id="play" data-href="{escape(query.url(move=next_move, autoplay=True))}"'
            f"{' disabled' if shown >= total else ''}>Play</button>"
        )
        script = (
            "<script>const b=document.getElementById('play');"
            "b.onclick=()=>{location.href=b.dataset.href};</script>"
        )
    log = "\n".join(transcript(game)[-12:])
    body = (
        f'<h1><a href="/carcassonne">Carcassonne</a>: seed {query.seed}</h1>'
        f"<nav>{nav}{button} move {shown} of {total}</nav>"
        f'<p id="status">{last} {status}</p>'
        f'<table class="scores">{rows}</table>'
        f'<div class="board">{board_svg(game.board, 48, title=f"after move {shown}")}</div>'
        f"<pre>{escape(log)}</pre>{script}"
    )
    return _page(request, f"Carcassonne seed {query.seed}, move {shown}", body)


def _js(text: str) -> str:
    """A JavaScript string literal (safe inside a script element)."""
    out = text.replace("\\", "\\\\").replace("'", "\\'").replace("<", "\\x3c")
    return f"'{out}'"


@lru_cache(maxsize=256)
def _total_moves(seed: int, kinds: tuple[str, ...]) -> int:
    """How many tiles are placed in the whole game (tiles that fit nowhere are not moves)."""
    game = new_game(list(kinds), seed=seed)
    game.play()
    return len(game.turns)


async def board_image(request: Request) -> Response:
    """The board drawing alone, as SVG."""
    try:
        query = parse_query(request)
    except CarcassonneError as err:
        return _bad(err)
    game = _game_at(query)
    return Response(board_svg(game.board), media_type="image/svg+xml")


async def tile_image(request: Request) -> Response:
    """One tile's drawing, as SVG."""
    name = request.path_params["name"]
    try:
        rotation = _int(request, "rotation", 0, 0, 3)
        tile = base_tileset().type(name)
    except CarcassonneError as err:
        return _bad(err)
    return Response(tile_svg(tile, rotation), media_type="image/svg+xml")


def routes() -> list[Route]:
    """The Carcassonne routes, to mount in the web app."""
    return [
        Route("/carcassonne", index, methods=["GET"]),
        Route("/carcassonne/game", game_page, methods=["GET"]),
        Route("/carcassonne/board.svg", board_image, methods=["GET"]),
        Route("/carcassonne/tile/{name}.svg", tile_image, methods=["GET"]),
    ]
