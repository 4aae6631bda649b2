"""Actions on a board as values with a text form, as python-chess's ``Move`` has its UCI.

* :class:`TileLay` — a tile laid on a hex: ``K4=57-1`` is tile 57 at K4 in rotation 1;
* :class:`TokenPlacement` — a station token: ``K4=KO@0`` is KO's token in city 0 of K4;
  ``K4=KO@0+`` one in an extra slot, past the city's slots (as abilities place them, and a
  token stays when a tile of fewer slots replaces its city's).

``str()`` writes the canonical text and ``parse()`` reads it back (a rotation or city left out
reads as 0), so actions travel through command lines, URLs, JSON and saved boards as short
strings. :meth:`tilelay.board.Board.apply` performs one.

>>> lay = TileLay.parse("k4=57-1")
>>> lay, str(lay)
(TileLay(coord='K4', tile='57', rotation=1), 'K4=57-1')
>>> str(TokenPlacement.parse("K4=KO"))
'K4=KO@0'
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from tilelay.errors import TilelayError
from tilelay.limits import shown

__all__ = [
    "Action",
    "ActionError",
    "TileLay",
    "TokenPlacement",
    "parse_action",
    "split_rotation",
]

_COORD = re.compile(r"[A-Za-z]{1,3}-?\d{1,3}")
_NAME = re.compile(r"[^\s=@;,]{1,40}")
_SMALL = re.compile(r"-?[0-9]{1,3}")
#: A rotation or city index of any length (said out of range past three digits).
_DIGITS = re.compile(r"-?[0-9]+")


class ActionError(TilelayError, ValueError):
    """A tile lay or token placement written wrongly."""


def _coord(text: str, whole: str, form: str) -> str:
    coord = text.strip().upper()
    if not _COORD.fullmatch(coord):
        raise ActionError(
            f"bad hex {text!r} in {whole!r}: expected letters and a number, as in {form}"
        )
    return coord


def split_rotation(text: str, known: Collection[str] | None = None) -> tuple[str, int | None]:
    """Read ``NAME`` or ``NAME-R`` (a tile and its rotation 0-5).

    With ``known`` names, a name known as it is wins (a tile really named ``5-1`` stays
    itself) and ``NAME-R`` is read only when ``NAME`` is known. A rotation out of 0-5 is an
    :class:`ActionError`.

    >>> split_rotation("57-2"), split_rotation("57"), split_rotation("X-1", {"X-1"})
    (('57', 2), ('57', None), ('X-1', None))
    """
    if known is not None and text in known:
        return text, None
    name, dash, rotation = text.rpartition("-")
    if dash and name and _DIGITS.fullmatch(rotation) and (known is None or name in known):
        value = int(rotation) if _SMALL.fullmatch(rotation) else None
        if value is None or not 0 <= value <= 5:
            said = rotation if len(rotation) <= 12 else rotation[:12] + "…"
            raise ActionError(f"rotation {said} in {shown(text)} is out of range: expected 0-5")
        return name, value
    return text, None


@dataclass(frozen=True, slots=True)
class TileLay:
    """Tile ``tile`` laid at ``coord`` turned ``rotation`` steps clockwise: ``K4=57-1``."""

    coord: str
    tile: str
    rotation: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.rotation <= 5:
            raise ActionError(f"rotation {self.rotation} is out of range: expected 0-5")

    @classmethod
    def parse(cls, text: str) -> TileLay:
        """Read ``COORD=TILE[-ROTATION]``; raises :class:`ActionError` saying what is wrong."""
        coord, sep, rest = text.partition("=")
        if not sep or not rest.strip():
            raise ActionError(
                f"bad tile lay {text!r}: expected COORD=TILE[-ROTATION], e.g. K4=57-1"
            )
        tile, rotation = split_rotation(rest.strip())
        if not _NAME.fullmatch(tile):
            raise ActionError(f"bad tile name {tile!r} in {text!r}")
        return cls(_coord(coord, text, "K4=57-1"), tile, rotation or 0)

    def __str__(self) -> str:
        return f"{self.coord}={self.tile}-{self.rotation}"


@dataclass(frozen=True, slots=True)
class TokenPlacement:
    """``corporation``'s station token in city ``city`` (counting the tile's cities) of
    ``coord``: ``K4=KO@0``; with ``extra``, in a slot past the city's own (``K4=KO@0+``:
    18xx.games' ``extra_slot`` and ``cheater`` abilities, and a token kept when the city's
    new tile has fewer slots)."""

    coord: str
    corporation: str
    city: int = 0
    extra: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.city <= 99:
            raise ActionError(f"city {self.city} is out of range: expected 0-99")

    @classmethod
    def parse(cls, text: str) -> TokenPlacement:
        """Read ``COORD=CORPORATION[@CITY[+]]``; raises :class:`ActionError`."""
        coord, sep, rest = text.partition("=")
        corporation, at, city = rest.strip().partition("@")
        extra = bool(at) and city.endswith("+")
        if extra:
            city = city[:-1]
        if not sep or not corporation or (at and not _SMALL.fullmatch(city)):
            raise ActionError(
                f"bad token placement {text!r}: expected COORD=CORPORATION[@CITY[+]], e.g. K4=KO@0"
            )
        if not _NAME.fullmatch(corporation):
            raise ActionError(f"bad corporation {corporation!r} in {text!r}")
        return cls(_coord(coord, text, "K4=KO@0"), corporation, int(city) if at else 0, extra)

    def __str__(self) -> str:
        return f"{self.coord}={self.corporation}@{self.city}{'+' if self.extra else ''}"


#: An action on a board.
Action = TileLay | TokenPlacement


def parse_action(text: str) -> Action:
    """A token placement when ``text`` has ``@`` (``K4=KO@0``), else a tile lay (``K4=57-1``).

    >>> [str(parse_action(text)) for text in ("K4=KO@0", "K4=57-1")]
    ['K4=KO@0', 'K4=57-1']
    """
    return TokenPlacement.parse(text) if "@" in text else TileLay.parse(text)
