"""The built-in catalogue of generic tiles (numbered tiles used across games).

The tiles are written in the project's own data files, ``tilelay/data/tiles/<colour>.toml``,
one canonical tile string per tile number. Load one with :func:`get_tile`:

>>> get_tile("57").cities[0].revenue.value
20

A game's own tiles are not here: a game keeps them under game-qualified names, ``GAME:NAME``
(e.g. ``18Chesapeake:X1``), which :func:`tilelay.games.get_tile` looks up.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from functools import cache
from importlib import resources

from tilelay import dsl
from tilelay.errors import GameDataError, NotFoundError, TilelayError
from tilelay.tile import Color, Tile

__all__ = ["get_tile", "suggest", "tile_codes", "tile_names", "tiles"]


@cache
def tile_codes() -> dict[str, tuple[Color, str]]:
    """Every catalogue tile's name with its colour and canonical tile string."""
    out: dict[str, tuple[Color, str]] = {}
    folder = resources.files("tilelay") / "data" / "tiles"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        source = f"tilelay/data/tiles/{entry.name}"
        try:
            data = tomllib.loads(entry.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as err:
            raise GameDataError(f"malformed TOML: {err}", source=source) from None
        color, _ = Color.parse(str(data.get("color", "white")))
        for name, code in data.get("tiles", {}).items():
            if name in out:
                raise GameDataError(f"tile {name!r} is defined twice", source=source)
            out[name] = (color, str(code))
    return out


def natural_key(name: str) -> tuple[int, int, str]:
    """Sort key putting tile numbers in numeric order, then other names."""
    m = re.match(r"([0-9]+)(.*)", name, re.DOTALL)
    if m is None:
        return (1, 0, name)
    digits = m.group(1)
    return (0, int(digits) if len(digits) <= 18 else 10**18, m.group(2))


def tile_names() -> list[str]:
    """Names of every catalogue tile, in natural order (1, 2, …, 10, …)."""
    return sorted(tile_codes(), key=natural_key)


@cache
def _load(name: str) -> Tile:
    color, code = tile_codes()[name]
    try:
        return dsl.parse(code, name=name, color=color, source=f"catalogue tile {name}")
    except TilelayError:
        raise
    except Exception as err:  # pragma: no cover - the catalogue is tested
        raise GameDataError(f"catalogue tile {name}: {err}") from None


def suggest(name: str, candidates: list[str], n: int = 5) -> list[str]:
    """Names among ``candidates`` close to ``name``."""
    return difflib.get_close_matches(name, candidates, n=n, cutoff=0.5)


def get_tile(name: str, rotation: int = 0) -> Tile:
    """The catalogue tile ``name`` (e.g. ``"57"``), turned ``rotation`` steps clockwise.

    Raises :class:`~tilelay.errors.NotFoundError` with close names when there is no such tile.
    (:func:`tilelay.get_tile` also finds a game's own tiles by ``GAME:NAME``.)
    """
    if name not in tile_codes():
        raise NotFoundError(
            f"no tile named {name!r} in the catalogue", suggestions=suggest(name, tile_names())
        )
    return _load(name).rotated(rotation)


def tiles() -> list[Tile]:
    """Every catalogue tile, in natural order."""
    return [_load(n) for n in tile_names()]
