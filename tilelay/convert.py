"""Conversion between tile formats: the tile language (``dsl``), seed 000's XML (``xml``), Rails'
XML (``rails``, read only) and the tile model as JSON (``json``).

Every conversion returns what the target cannot express, by tile and feature name, next to
the output: nothing is dropped silently.

To the tile language, seed-000 node locations are turned into the language's locs where the
meaning is the same: near-corner locations are already corner locs, near-side locations
(6-11) become edge locs. Other locations cannot be expressed and are reported.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tilelay import dsl, limits
from tilelay.errors import TilelayError, TileSyntaxError
from tilelay.hexgeo import Layout, Loc, xml_side_to_edge
from tilelay.limits import read_json
from tilelay.tile import NODE_END, Tile
from tilelay.tile_json import tile_from_dict, tile_to_dict
from tilelay.xml import rails, tiledefs
from tilelay.xml.safe import parse_xml

__all__ = [
    "FORMATS",
    "Converted",
    "Loss",
    "connections",
    "convert",
    "format_of",
    "read",
    "to_dsl",
    "write",
]

#: Formats by name; ``rails`` is read only.
FORMATS: tuple[str, ...] = ("dsl", "xml", "rails", "json")


@dataclass(frozen=True, slots=True)
class Loss:
    """A feature of tile ``tile`` that the target format cannot express."""

    tile: str
    feature: str

    def __str__(self) -> str:
        return f"tile {self.tile}: {self.feature}"


@dataclass(frozen=True, slots=True)
class Converted:
    """The text written and what it could not express."""

    text: str
    losses: tuple[Loss, ...]


def format_of(path: str | Path) -> str | None:
    """The format a file name suggests (``.xml`` is sniffed later), or ``None``."""
    suffix = Path(path).suffix.lower()
    return {".json": "json", ".xml": "xml", ".txt": "dsl", ".dsl": "dsl", ".tile": "dsl"}.get(
        suffix
    )


def to_dsl(tile: Tile, layout: Layout = Layout.FLAT) -> Tile:
    """``tile`` with seed-000 near-side locations (6-11) turned into the language's edge locs
    (seed 000's sides are numbered by ``layout``)."""

    def fix(loc: Loc | None) -> Loc | None:
        if loc is not None and loc.kind == "location" and 6 <= loc.value <= 11:
            return Loc("edge", xml_side_to_edge(int(loc.value) - 6, layout))
        return loc

    nodes = tuple(replace(n, loc=fix(n.loc), revenue_loc=fix(n.revenue_loc)) for n in tile.nodes)
    return replace(tile, nodes=nodes)


def _dsl_losses(tile: Tile) -> list[str]:
    out = dsl.unsupported(tile)
    out += [f"{k}={v!r} (source attribute)" for k, v in tile.extra]
    for i, n in enumerate(tile.nodes):
        out += [f"node _{i}: {k}={v!r} (source attribute)" for k, v in n.extra]
    return out


def read(
    data: str | bytes,
    fmt: str,
    *,
    source: str | None = None,
    layout: Layout = Layout.FLAT,
) -> list[Tile]:
    """Tiles from text in format ``fmt``.

    ``dsl`` input is a JSON object mapping names to tiles, each ``{"color", "code"}`` (what
    ``convert`` writes, as 18xx.games lists its tiles) or just its tile string (white), or one
    tile string a line (``name: code`` or just ``code``). A JSON object that gives a key twice
    is refused (JSON readers keep the last silently).
    """
    return [tile for tile, _ in _read(data, fmt, source=source, layout=layout)]


def _read(
    data: str | bytes, fmt: str, *, source: str | None, layout: Layout
) -> list[tuple[Tile, str]]:
    """:func:`read`, each tile with where it was read (``line 3``, ``tile 2``)."""
    if not isinstance(data, str | bytes):
        raise TileSyntaxError(
            f"tiles are read from text or bytes, not {type(data).__name__}", source=source
        )
    if fmt in ("xml", "rails"):
        root = parse_xml(data, source=source)
        if root.tag != "Tile" and fmt == "xml":
            first = next((t for t in root if isinstance(t.tag, str) and t.tag == "Tile"), None)
            if first is not None and first.get("id") is not None and first.get("number") is None:
                fmt = "rails"
        if fmt == "rails":
            return _numbered(rails.tiles_from_root(root, source=source))
        return _numbered(tiledefs.tiles_from_root(root, source=source, layout=layout))
    if fmt not in FORMATS:
        raise TileSyntaxError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise TileSyntaxError(
                f"not UTF-8 text: byte {err.start + 1} is {data[err.start]:#04x}",
                source=source,
                line=data[: err.start].count(b"\n") + 1,
            ) from None
    else:
        text = data
    if fmt == "json":
        value = _read_json(text, source)
        items = value if isinstance(value, list) else [value]
        return _numbered([tile_from_dict(item, source=source) for item in items])
    if fmt == "dsl":
        stripped = text.lstrip()
        if stripped.startswith("{"):
            mapping = _read_json(text, source)
            if not isinstance(mapping, dict):
                raise TileSyntaxError(
                    "expected a JSON object of name -> tile string", source=source
                )
            out: list[Tile] = []
            for name, code in mapping.items():
                color: object = "white"
                if isinstance(code, dict):
                    unknown = sorted(set(code) - {"color", "code"})
                    if unknown:
                        raise TileSyntaxError(
                            f"tile {name!r}: unknown field {unknown[0]!r}: expected color and code",
                            source=source,
                        )
                    color = code.get("color", "white")
                    code = code.get("code")
                if not isinstance(code, str) or not isinstance(color, str):
                    raise TileSyntaxError(
                        f"tile {name!r}: expected a tile string, or an object of a colour name "
                        f"and a tile string, got {limits.shown(code)}",
                        source=source,
                    )
                out.append(dsl.parse(code, name=str(name), color=color, source=source))
            return _numbered(out)
        tiles: list[tuple[Tile, str]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            body = line.strip()
            if not body or body.startswith("#"):
                continue
            name = ""
            head, sep, rest = body.partition(":")
            if sep and "=" not in head:
                name, body = head.strip(), rest.strip()
            try:
                tile = dsl.parse(body, name=name or str(number), source=source)
                tiles.append((tile, f"line {number}"))
            except TilelayError as err:
                raise err.located(source=source, line=number) from None
        return tiles
    raise TileSyntaxError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


def _numbered(tiles: list[Tile]) -> list[tuple[Tile, str]]:
    return [(tile, f"tile {i}") for i, tile in enumerate(tiles, start=1)]


def _read_json(text: str, source: str | None) -> object:
    """The JSON value of ``text`` (:func:`~tilelay.limits.read_json`: an object that gives
    a key twice is refused too, two tiles of one name or a node's ``slots`` given twice)."""
    return read_json(text, source=source, error=TileSyntaxError)


def write(
    tiles: Sequence[Tile],
    fmt: str,
    *,
    layout: Layout = Layout.FLAT,
    source: str | None = None,
    origins: Sequence[str] | None = None,
) -> Converted:
    """``tiles`` as text in format ``fmt`` (``dsl``, ``xml`` or ``json``) with the losses.

    The tile language's output maps names to tiles, so two tiles of one name are refused
    (:class:`~tilelay.errors.TilelayError` naming the name, ``source`` and where each tile
    came from: ``origins``, one for each tile, else their places in ``tiles``); xml and json
    keep both.
    """
    losses: list[Loss] = []
    if fmt == "xml":
        for t in tiles:
            losses += [Loss(t.name, f) for f in tiledefs.unexpressible(t, layout)]
        return Converted(tiledefs.write_tiledefs(tiles, layout=layout), tuple(losses))
    if fmt == "json":
        data = [tile_to_dict(t) for t in tiles]
        return Converted(json.dumps(data, indent=1, ensure_ascii=False) + "\n", ())
    if fmt == "dsl":
        mapping: dict[str, dict[str, str]] = {}
        first: dict[str, int] = {}
        for i, t in enumerate(tiles):
            if t.name in first:
                where = origins or [f"tile {n}" for n in range(1, len(tiles) + 1)]
                raise TilelayError(
                    f"two tiles are named {limits.shown(t.name)} ({where[first[t.name]]} and "
                    f"{where[i]}): the tile language's output maps each name to one tile; "
                    "rename one, or write xml or json, which keep both",
                    source=source,
                )
            first[t.name] = i
        for t in tiles:
            d = to_dsl(t, layout)
            losses += [Loss(t.name, f) for f in _dsl_losses(d)]
            mapping[t.name] = {"color": t.color.value, "code": dsl.write(d)}
        return Converted(json.dumps(mapping, indent=1, ensure_ascii=False) + "\n", tuple(losses))
    if fmt == "rails":
        raise TileSyntaxError("the Rails dialect is read only: write dsl, xml or json")
    raise TileSyntaxError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


def convert(
    data: str | bytes,
    source_fmt: str,
    target_fmt: str,
    *,
    source: str | None = None,
    layout: Layout = Layout.FLAT,
) -> Converted:
    """Read ``data`` in ``source_fmt`` and write it in ``target_fmt``."""
    located = _read(data, source_fmt, source=source, layout=layout)
    return write(
        [tile for tile, _ in located],
        target_fmt,
        layout=layout,
        source=source,
        origins=[where for _, where in located],
    )


# ------------------------------------------------------------------- comparisons


def connections(tile: Tile) -> frozenset[tuple[object, object]]:
    """Which edges and stops are joined by track, looking through junctions
    (:meth:`Tile.connections`, paths marked ``ignore`` included).

    Stops are named by kind and the edges they reach, so tiles that draw a junction as
    pairwise side-to-side track (Rails, seed 000's files) compare equal to junction tiles.
    """
    conn = tile.connections(with_ignored=True)

    def label(end: int) -> object:
        if end < NODE_END:
            return ("edge", end)
        i = end - NODE_END
        exits = tuple(e for e in range(6) if conn.node_exits[i] >> e & 1)
        return ("stop", (tile.nodes[i].kind.value, exits))

    out: set[tuple[object, object]] = set()
    for a, b, _ in conn.links:
        x, y = label(a), label(b)
        out.add((x, y) if repr(x) <= repr(y) else (y, x))
    return frozenset(out)


def same_connections_up_to_rotation(a: Tile, b: Tile) -> bool:
    """Whether some rotation of ``a`` joins the same edges and stops as ``b``."""
    target = connections(b)
    return any(connections(a.rotated(r)) == target for r in range(6))
