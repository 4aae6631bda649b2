"""Reading the web app's URL parameters: rotations, tile specs, layouts, game names.

Every function here is pure and raises :class:`BadRequest` (an answer 400) with a message that
says what was wrong and what was expected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tilelay.errors import TilelayError
from tilelay.hexgeo import Layout

__all__ = [
    "BadRequest",
    "TileSpec",
    "parse_layout",
    "parse_rotations",
    "safe_name",
    "split_plus",
    "split_rotation",
]

#: Every rotation, for ``r=all``.
ALL_ROTATIONS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)

# Names in URLs (tiles, hexes, games): letters, digits and a little punctuation. Anything else
# (slashes, backslashes, NUL, "..") is refused before any lookup happens.
_SAFE = re.compile(r"^[\w .:'&()#,~-]{1,80}$")


class BadRequest(TilelayError):
    """A request whose parameters cannot be understood (answered with status 400)."""


@dataclass(frozen=True, slots=True)
class TileSpec:
    """One item of a tile list in a URL: a name and, when given in the name, a rotation."""

    name: str
    rotation: int | None = None


def split_plus(text: str) -> list[str]:
    """Split a ``+``-separated list (a query string decodes ``+`` as a space, so split on both)."""
    return [part for part in re.split(r"[+ ]", text) if part]


def _rotation(text: str, where: str) -> int:
    if not re.fullmatch(r"-?\d+", text):
        raise BadRequest(
            f"bad rotation {text!r} in {where}: expected an integer 0-5, "
            "several joined with '+', or 'all'"
        )
    value = int(text)
    if not 0 <= value <= 5:
        raise BadRequest(f"rotation {value} in {where} is out of range: expected 0-5")
    return value


def parse_rotations(value: str | None) -> tuple[int, ...]:
    """The rotations asked for by ``r=``: ``2``, ``0+3`` or ``all``; none given means ``(0,)``.

    >>> parse_rotations("0+3")
    (0, 3)
    """
    if value is None or not value.strip():
        return (0,)
    if value.strip().lower() == "all":
        return ALL_ROTATIONS
    out: list[int] = []
    for part in split_plus(value):
        r = _rotation(part, "r=")
        if r not in out:
            out.append(r)
    return tuple(out)


def split_rotation(item: str, known: set[str] | frozenset[str]) -> TileSpec:
    """Read ``NAME`` or ``NAME-R`` against the ``known`` names.

    A name that is known as it is wins (so a tile really named ``5-1`` stays itself); otherwise
    a trailing ``-R`` gives the rotation. A rotation out of range is a :class:`BadRequest`.
    """
    if item in known:
        return TileSpec(item)
    m = re.fullmatch(r"(.+)-(-?\d+)", item)
    if m and m.group(1) in known:
        return TileSpec(m.group(1), _rotation(m.group(2), repr(item)))
    return TileSpec(item)


def parse_layout(value: str | None, default: Layout = Layout.FLAT) -> Layout:
    """``layout=flat`` or ``layout=pointy``; ``default`` when absent."""
    if value is None or not value.strip():
        return default
    try:
        return Layout(value.strip().lower())
    except ValueError:
        raise BadRequest(f"bad layout {value!r}: expected 'flat' or 'pointy'") from None


def safe_name(text: str) -> bool:
    """Whether ``text`` may be used as a name to look up (no path characters, not too long)."""
    return bool(_SAFE.fullmatch(text)) and ".." not in text
