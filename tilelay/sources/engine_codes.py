"""The 18xx.games engine's tile strings as tilelay tiles, with the engine's part positions.

tilelay's tile language (:mod:`tilelay.dsl`) reads every part the engine writes. One fact of the
engine's reading it does not keep is where each part stands: the engine numbers a tile's parts
in the order its string lists them (a path with ``lanes:N`` counting as N parts), and its
records name a city by that number (``"C1-0-1"`` is part 1 of tile ``C1-0``), so a city
written after a border or a town is not "city 0". :func:`parse_engine_code` keeps each node's
part number as ``("part", "N")`` in its :attr:`~tilelay.tile.Node.extra` where it differs
from the node's index among the tile's nodes of its kind (a city's among the cities).

>>> tile = parse_engine_code("border=edge:4,type:impassable;city=revenue:20;path=a:0,b:_0")
>>> tile.nodes[0].extra
(('part', '1'),)
"""

from __future__ import annotations

from tilelay import dsl
from tilelay.tile import Color, Tile

__all__ = ["NODE_PARTS", "city_count", "parse_engine_code", "part_positions"]

#: The parts that are nodes, in the engine's and tilelay's reading alike.
NODE_PARTS = frozenset({"city", "town", "offboard", "junction", "halt", "pass"})


def _lanes(params: str) -> int:
    for item in params.split(","):
        key, _, value = item.strip().partition(":")
        if key == "lanes" and value.strip().isascii() and value.strip().isdigit():
            return max(1, int(value))
    return 1


def _parts(code: str) -> list[tuple[str, str]]:
    """The parts of ``code`` in order: (kind, parameters)."""
    out: list[tuple[str, str]] = []
    for raw in code.split(";"):
        kind, _, params = raw.strip().partition("=")
        out.append((kind.strip(), params))
    return out


def part_positions(code: str) -> list[int]:
    """The engine's part number of each node of ``code``, in node order."""
    out: list[int] = []
    position = 0
    for kind, params in _parts(code):
        if kind in NODE_PARTS:
            out.append(position)
        position += _lanes(params) if kind == "path" else 1
    return out


def city_count(code: str) -> int:
    """How many cities ``code`` has."""
    return sum(1 for kind, _ in _parts(code) if kind == "city")


def parse_engine_code(code: str, *, name: str = "", color: Color | str = Color.WHITE) -> Tile:
    """``code`` read by :func:`tilelay.dsl.parse`, each node keeping its engine part number
    (see the module docstring). Raises :class:`~tilelay.errors.TileSyntaxError` as the parser
    does."""
    tile = dsl.parse(code, name=name, color=color)
    positions = part_positions(code)
    if len(positions) != len(tile.nodes):
        return tile
    return dsl.with_engine_parts(tile, positions)
