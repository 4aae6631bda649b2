"""The tile pages: tiles, game tiles, maps, tile strings, and the index.

Routes (seeds 001/002):

- ``/`` — the index: built-in games with links, a form for a tile name or tile string.
- ``/tiles/all`` — every catalogue tile (``r=`` and ``n=`` are ignored here).
- ``/tiles/<names>`` — catalogue tiles at large scale, ``+``-separated; ``NAME-R`` gives the
  rotation in the name (then ``r=`` is ignored for that tile).
- ``/tiles/<game>/<hexes_or_tiles>`` — hexes of the game's map (preprinted, never rotated) or
  tiles of its manifest, ``+``-separated.
- ``/tiles/<games>/all`` — every manifest tile and map hex of one or more games (fuzzy titles,
  ``+``-separated), grouped by game.
- ``/map/<game>`` — the game's map.
- ``/tile?code=…`` — a tile written in the tile language (a plain name redirects to
  ``/tiles/<name>``); a string that does not parse answers 400 showing the column.
- ``/api/games`` and ``/api/tiles/<name>`` — JSON: the built-in games; a catalogue tile's
  colour, rotation and tile string.

Parameters: ``r=`` (``2``, ``0+3`` or ``all``), ``n=`` (a location name on tiles with stops that
have none printed), ``grid`` (present: draw the region grid) and ``layout=flat|pointy`` (the
orientation of generic tiles; a game's tiles use the game's layout).

Names from URLs are only ever looked up among the built-in tiles and games: no request reads a
file named by the request. Every page is built off the event loop under the request time limit
(:func:`~tilelay.web.compute.offloaded`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

from markupsafe import Markup
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from tilelay import catalogue, dsl, svg
from tilelay.actions import split_rotation
from tilelay.errors import NotFoundError, TilelayError
from tilelay.games import Game, find_games, game_names, load_game
from tilelay.games.model import coord_key
from tilelay.games.registry import entries, reference
from tilelay.hexgeo import Layout
from tilelay.limits import text_problem
from tilelay.rules import rules_for
from tilelay.tile import Tile
from tilelay.web.compute import offloaded
from tilelay.web.errors import WebError
from tilelay.web.params import (
    check_query,
    parse_layout,
    parse_rotations,
    safe_name,
    split_plus,
)
from tilelay.web.templating import render

__all__ = ["Figure", "Group", "routes"]

#: Circumradius in pixels of tiles in a grid of many, and of tiles shown alone.
SMALL_SIZE = 56
LARGE_SIZE = 180
#: At most this many tiles on one page (``r=all`` on a long list).
MAX_FIGURES = 3000
#: Longest location name ``n=`` may give.
MAX_NAME = 60


@dataclass(frozen=True, slots=True)
class Figure:
    """One drawn tile with its caption."""

    svg: Markup
    caption: str
    detail: str = ""
    href: str | None = None


@dataclass(slots=True)
class Group:
    """Figures under a heading (one game, or the catalogue's tiles of one colour)."""

    title: str
    figures: list[Figure] = field(default_factory=list)
    note: str = ""


#: The URL parameters of the tile pages (:meth:`Options.from_query`).
OPTIONS = ("r", "n", "grid", "layout")


@dataclass(frozen=True, slots=True)
class Options:
    """The display parameters of a request."""

    rotations: tuple[int, ...]
    location_name: str | None
    grid: bool
    layout: Layout
    layout_given: bool

    @classmethod
    def from_query(cls, q: QueryParams) -> Options:
        """Read ``r``, ``n``, ``grid`` and ``layout``; a bad value is a 400 ``WebError``."""
        n = q.get("n")
        if n is not None and len(n) > MAX_NAME:
            raise WebError(f"n= is too long ({len(n)} characters): at most {MAX_NAME}")
        problem = None if n is None else text_problem(n, MAX_NAME)
        if problem is not None:
            raise WebError(f"n= {problem}")
        return cls(
            rotations=parse_rotations(q.get("r")),
            location_name=n.strip() if n and n.strip() else None,
            grid="grid" in q,
            layout=parse_layout(q.get("layout")),
            layout_given=bool(q.get("layout")),
        )

    def query(self, **extra: str) -> str:
        """A query string keeping ``grid`` and ``layout`` (for links between pages)."""
        params: dict[str, str] = {}
        if self.grid:
            params["grid"] = "1"
        if self.layout_given:
            params["layout"] = self.layout.value
        params.update(extra)
        return "?" + urlencode(params) if params else ""


# ------------------------------------------------------------------ drawing


def _draw(tile: Tile, layout: Layout, size: int, grid: bool) -> Markup:
    return Markup(
        svg.tile_svg(tile, layout=layout, size=size, grid=grid, show_number=True, standalone=True)
    )


def _with_name(tile: Tile, name: str | None) -> Tile:
    """``n=``: a location name on a tile with a stop, never over a preprinted one."""
    if name is None or tile.location_name or not tile.stops:
        return tile
    return tile.with_location_name(name)


def _tile_figures(
    tile: Tile,
    spec_rotation: int | None,
    opts: Options,
    layout: Layout,
    size: int,
    *,
    label: str | None = None,
    href: str | None = None,
) -> list[Figure]:
    rotations = (spec_rotation,) if spec_rotation is not None else opts.rotations
    base = _with_name(tile, opts.location_name)
    out: list[Figure] = []
    for r in rotations:
        t = base.rotated(r)
        out.append(
            Figure(
                _draw(t, layout, size, opts.grid),
                label or tile.name,
                f"r{r}" if size == SMALL_SIZE else f"rotation {r} · {tile.color.value}",
                href,
            )
        )
    return out


def _check_count(n: int) -> None:
    if n > MAX_FIGURES:
        raise WebError(f"too many tiles for one page ({n}); at most {MAX_FIGURES}")


# ------------------------------------------------------------------ lookups


def _game(name: str) -> Game:
    if not safe_name(name):
        raise NotFoundError(f"no game named {name!r}", suggestions=game_names())
    return load_game(name)


def _games(spec: str) -> list[Game]:
    """The games of a URL's path: one game's name (which may hold spaces and ``+``: "18ZOO -
    Map A", "1830+"), else names joined with ``+``."""
    if safe_name(spec):
        try:
            return [load_game(spec)]
        except NotFoundError:
            pass
    games: list[Game] = []
    for part in (p for p in spec.split("+") if p):
        if not safe_name(part):
            raise NotFoundError(f"no game named {part!r}", suggestions=game_names())
        found = find_games(part)
        if not found:
            found = [load_game(part)]  # raises NotFoundError with suggestions
        for g in found:
            if all(g.name != h.name for h in games):
                games.append(g)
    if not games:
        raise NotFoundError("no game named in the URL", suggestions=game_names())
    return games


def _catalogue_spec(item: str) -> tuple[str, int | None]:
    """A catalogue tile's name and the rotation given with it (``NAME-R``)."""
    if not safe_name(item):
        raise NotFoundError(f"no tile named {item!r} in the catalogue")
    name, rotation = split_rotation(item, catalogue.tile_codes())
    if name not in catalogue.tile_codes():
        raise NotFoundError(
            f"no tile named {item!r} in the catalogue",
            suggestions=catalogue.suggest(item, catalogue.tile_names()),
        )
    return name, rotation


# ------------------------------------------------------------------ pages


def _tiles_page(
    request: Request,
    title: str,
    groups: Sequence[Group],
    opts: Options,
    *,
    large: bool,
    generic: bool = True,
    ignored: Iterable[str] = (),
) -> Response:
    return render(
        request,
        "tiles.html",
        {
            "title": title,
            "groups": groups,
            "opts": opts,
            "large": large,
            "generic": generic,
            "ignored": list(ignored),
            "count": sum(len(g.figures) for g in groups),
        },
    )


def _known_games() -> list[tuple[str, Game]]:
    """Every game known (built-in first, then those of the sources given), each with the name
    that finds it."""
    return [(reference(e), e.load()) for e in entries()]


def _game_summary(name: str, g: Game) -> dict[str, Any]:
    """What the index page and ``/api/games`` say of a game."""
    return {
        "name": name,
        "title": g.title,
        "format": g.format,
        "layout": Layout(g.layout).value,
        "hexes": len(g.hexes),
        "problems": len(g.problems),
    }


def _index_rows() -> list[dict[str, Any]]:
    rows = []
    for name, g in _known_games():
        summary = _game_summary(name, g)
        counts = [c for _, c in _manifest_counts(g)]
        summary["tiles"] = sum(c for c in counts if c >= 0)
        # (the kinds of which a game has as many as it needs: 1817's track tiles)
        summary["unlimited"] = sum(1 for c in counts if c < 0)
        summary["q"] = quote(name, safe="")
        rows.append(summary)
    return rows


def index(request: Request) -> Response:
    """The index page: every game known, the catalogue, Carcassonne, a tile form."""
    games = _index_rows()
    return render(
        request,
        "index.html",
        {"title": "tilelay", "games": games, "tile_count": len(catalogue.tile_names())},
    )


@lru_cache(maxsize=8)
def _catalogue_groups(layout: Layout, grid: bool, query: str) -> tuple[Group, ...]:
    """Every catalogue tile drawn small, grouped by colour (the same for every request with
    these options, so drawn once)."""
    groups: dict[str, Group] = {}
    for tile in catalogue.tiles():
        key = tile.color.value
        group = groups.setdefault(key, Group(key.capitalize()))
        group.figures.append(
            Figure(
                _draw(tile, layout, SMALL_SIZE, grid),
                tile.name,
                tile.color.value,
                "/tiles/" + quote(tile.name, safe="") + query,
            )
        )
    return tuple(groups.values())


def tiles_all(request: Request) -> Response:
    """``/tiles/all``: every catalogue tile, grouped by colour (``r=``, ``n=`` ignored)."""
    check_query(request, OPTIONS)
    opts = Options.from_query(request.query_params)
    groups = _catalogue_groups(opts.layout, opts.grid, opts.query())
    ignored = [p for p in ("r", "n") if p in request.query_params]
    return _tiles_page(
        request, "All catalogue tiles", list(groups), opts, large=False, ignored=ignored
    )


def tiles_named(request: Request) -> Response:
    """``/tiles/<names>``: catalogue tiles at large scale, ``NAME-R`` or ``r=`` rotations."""
    check_query(request, OPTIONS)
    opts = Options.from_query(request.query_params)
    names: str = request.path_params["names"]
    request.state.suggest = "/tiles/{}"
    specs = [_catalogue_spec(item) for item in split_plus(names)]
    if not specs:
        raise NotFoundError("no tile named in the URL", suggestions=["all"])
    _check_count(sum(1 if r is not None else len(opts.rotations) for _, r in specs))
    group = Group("")
    for name, rotation in specs:
        tile = catalogue.get_tile(name)
        group.figures.extend(_tile_figures(tile, rotation, opts, opts.layout, LARGE_SIZE))
    return _tiles_page(
        request, "Tile " + " + ".join(name for name, _ in specs), [group], opts, large=True
    )


def _manifest_counts(game: Game) -> list[tuple[str, int]]:
    """``(tile name, count)`` for every tile of the game's manifest (-1: unlimited)."""
    return [(tile.name, count) for tile, count in game.manifest_tiles()]


def _count_text(count: int) -> str:
    return "unlimited" if count < 0 else f"×{count}"


def game_tiles(request: Request) -> Response:
    """``/tiles/<game>/<hexes_or_tiles>`` and ``/tiles/<games>/all``."""
    check_query(request, OPTIONS)
    opts = Options.from_query(request.query_params)
    game_spec: str = request.path_params["game"]
    items: str = request.path_params["items"]
    if items == "all":
        request.state.suggest = "/tiles/{}/all"
        groups, title = _games_all(game_spec, opts)
        return _tiles_page(request, title, groups, opts, large=False, generic=False)
    request.state.suggest = "/tiles/{}/" + quote(items, safe="+")
    game = _game(game_spec)
    request.state.suggest = "/tiles/" + quote(game.name, safe="") + "/{}"
    layout = Layout(game.layout)
    hexes = set(game.hexes)
    manifest = {name for name, _ in _manifest_counts(game)}
    group = Group(game.title)
    if not split_plus(items):
        raise NotFoundError(f"no hex or tile of {game.title} named in the URL")
    for item in split_plus(items):
        if not safe_name(item):
            raise NotFoundError(f"{game.title} has no hex or tile {item!r}")
        if item in hexes:
            tile = game.hex_tile(item)
            group.figures.append(
                Figure(
                    _draw(_with_name(tile, opts.location_name), layout, LARGE_SIZE, opts.grid),
                    item,
                    "preprinted" + (f" · {tile.location_name}" if tile.location_name else ""),
                )
            )
            continue
        name, rotation = split_rotation(item, manifest)
        if name not in manifest:
            raise NotFoundError(
                f"{game.title} has no hex or tile {item!r}",
                suggestions=catalogue.suggest(item, sorted(hexes | manifest)),
            )
        group.figures.extend(_tile_figures(game.tile(name), rotation, opts, layout, LARGE_SIZE))
        _check_count(len(group.figures))
    return _tiles_page(
        request,
        f"{game.title}: {items.replace('+', ' + ')}",
        [group],
        opts,
        large=True,
        generic=False,
    )


def _games_all(spec: str, opts: Options) -> tuple[list[Group], str]:
    groups: list[Group] = []
    total = 0
    for game in _games(spec):
        layout = Layout(game.layout)
        group = Group(game.title, note=f"{layout.value} layout")
        base = f"/tiles/{quote(game.name, safe='')}/"
        for name, count in _manifest_counts(game):
            figs = _tile_figures(
                game.tile(name),
                None,
                opts,
                layout,
                SMALL_SIZE,
                href=base + quote(name, safe="") + opts.query(),
            )
            counted = f"{_count_text(count)} · "
            group.figures.extend(Figure(f.svg, f.caption, counted + f.detail, f.href) for f in figs)
        for coord in sorted(game.hexes, key=coord_key):
            tile = game.hex_tile(coord)
            group.figures.append(
                Figure(
                    _draw(_with_name(tile, opts.location_name), layout, SMALL_SIZE, opts.grid),
                    coord,
                    "map hex" + (f" · {tile.location_name}" if tile.location_name else ""),
                    base + quote(coord, safe="") + opts.query(),
                )
            )
        total += len(group.figures)
        _check_count(total)
        groups.append(group)
    title = " + ".join(g.title for g in _games(spec)) + ": all tiles"
    return groups, title


def game_map(request: Request) -> Response:
    """``/map/<game>``: the game's whole map."""
    check_query(request, ("grid",))
    opts = Options.from_query(request.query_params)
    request.state.suggest = "/map/{}"
    game = _game(request.path_params["game"])
    drawing = Markup(svg.map_svg(game, size=40, grid=opts.grid))
    return render(
        request,
        "map.html",
        {
            "title": f"{game.title}: map",
            "game": game,
            "q": quote(game.name, safe=""),
            "map": drawing,
            "hexes": len(game.hexes),
            "opts": opts,
            "seeded": rules_for(game).seeded,
        },
    )


def tile_code(request: Request) -> Response:
    """``/tile?code=…``: draw a tile-language string; a plain tile name redirects."""
    check_query(request, (*OPTIONS, "code", "color"))
    opts = Options.from_query(request.query_params)
    code = request.query_params.get("code", "")
    color = request.query_params.get("color", "yellow")
    stripped = code.strip()
    if stripped and "=" not in stripped and ";" not in stripped:
        target = stripped.replace(" ", "+")
        if ":" in target:
            game, _, name = target.partition(":")
            url = f"/tiles/{quote(game, safe='')}/{quote(name, safe='+')}"
        else:
            url = "/tiles/" + quote(target, safe="+")
        keep = [(k, v) for k, v in request.query_params.multi_items() if k not in ("code", "color")]
        return RedirectResponse(url + ("?" + urlencode(keep) if keep else ""), status_code=303)
    try:
        tile = dsl.parse(code, name="", color=color, source="tile string")
    except TilelayError as err:
        return render(
            request,
            "tile_code.html",
            {
                "title": "Tile string",
                "code": code,
                "color": color,
                "error": err,
                "opts": opts,
                "figures": [],
                "caret": _caret(code, err.column),
            },
            status_code=400,
        )
    figures = _tile_figures(tile, None, opts, opts.layout, LARGE_SIZE, label="tile string")
    return render(
        request,
        "tile_code.html",
        {
            "title": "Tile string",
            "code": code,
            "color": color,
            "error": None,
            "opts": opts,
            "figures": figures,
            "canonical": dsl.write(tile),
            "caret": "",
        },
    )


def _caret(code: str, column: int | None) -> str:
    """The code with a caret under the column of an error (1-based), for a <pre>."""
    if column is None:
        return ""
    return code + "\n" + " " * max(column - 1, 0) + "^"


def _api_games() -> list[dict[str, Any]]:
    out = []
    for name, g in _known_games():
        summary = _game_summary(name, g)
        summary["manifest"] = dict(_manifest_counts(g))
        out.append(summary)
    return out


def api_games(request: Request) -> Response:
    """``/api/games``: JSON list of every game known."""
    check_query(request, ())
    return JSONResponse(_api_games())


def api_tile(request: Request) -> Response:
    """``/api/tiles/<name>``: JSON with the catalogue tile's colour and tile string."""
    check_query(request, ())  # (a rotation is given in the name: 57-3)
    request.state.suggest = "/api/tiles/{}"
    name, rotation = _catalogue_spec(request.path_params["name"])
    tile = catalogue.get_tile(name, rotation or 0)
    return JSONResponse(
        {
            "name": tile.name,
            "color": tile.color.value,
            "rotation": tile.rotation,
            "code": dsl.write(tile),
        }
    )


def routes() -> list[BaseRoute]:
    """The routes of the tile pages (the static files and Carcassonne are added by the app)."""
    return [
        Route("/", offloaded(index), name="index"),
        Route("/tiles/all", offloaded(tiles_all), name="tiles_all"),
        Route("/tiles/{names}", offloaded(tiles_named), name="tiles_named"),
        Route("/tiles/{game}/{items}", offloaded(game_tiles), name="game_tiles"),
        Route("/map/{game}", offloaded(game_map), name="game_map"),
        Route("/tile", offloaded(tile_code), name="tile_code"),
        Route("/api/games", offloaded(api_games), name="api_games"),
        Route("/api/tiles/{name}", offloaded(api_tile), name="api_tile"),
    ]
