"""Actions on a board as values with a text form, as python-chess's ``Move`` has its UCI.

* :class:`TileLay` — a tile laid on a hex: ``K4=57-1`` is tile 57 at K4 in rotation 1;
* :class:`TokenPlacement` — a station token: ``K4=KO@0`` is KO's token in city 0 of K4;
  ``K4=KO@0+`` one in an extra slot, past the city's slots (as abilities place them, and a
  token stays when a tile of fewer slots replaces its city's).

``str()`` writes the canonical text and ``parse()`` reads it back to an equal value (a
rotation or city left out reads as 0), so actions travel through command lines, URLs, JSON and
saved boards as short strings. :meth:`tilelay.board.Board.apply` performs one.

The constructors check their arguments as ``parse()`` checks text, so every value has a text
that reads back to it: a coordinate is letters and a number (``K4``; written in capitals, as
given in any case), a tile name has no spaces, no ``=@;,`` and does not end in ``-`` (which
starts a rotation), a corporation has no ``=@;,`` and no space at either end, a rotation is a
whole number 0-5 and a city 0-99 (``int``, not ``bool``). A wrong type or value, and text that
does not read, raise :class:`ActionError` saying what is wrong.

>>> lay = TileLay.parse("k4=57-1")
>>> lay, str(lay)
(TileLay(coord='K4', tile='57', rotation=1), 'K4=57-1')
>>> TileLay("k4", "57", 1) == lay
True
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
    "MAX_NAME",
    "Action",
    "ActionError",
    "TileLay",
    "TokenPlacement",
    "parse_action",
    "split_rotation",
]

_COORD = re.compile(r"[A-Za-z]{1,3}-?[0-9]{1,3}")
_SMALL = re.compile(r"-?[0-9]{1,3}")
#: A rotation or city index of any length (said out of range past three digits).
_DIGITS = re.compile(r"-?[0-9]+")
#: Characters that separate the parts of an action's text, or actions in a list.
_SEPARATORS = "=@;,"
#: The longest tile or corporation name an action takes.
MAX_NAME = 40


class ActionError(TilelayError, ValueError):
    """A tile lay or token placement written wrongly, or made of wrong values."""


def _text(value: object, what: str) -> str:
    """``value`` as a plain ``str``; :class:`ActionError` when it is not text."""
    if not isinstance(value, str):
        raise ActionError(f"{what} must be text, not {type(value).__name__} {shown(value)}")
    return str.__str__(value)  # (a subclass of str as a plain one)


def _whole(value: object, what: str, high: int) -> int:
    """``value`` as a plain ``int`` in 0..``high``; :class:`ActionError` otherwise (a
    ``bool`` is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ActionError(
            f"{what} must be a whole number 0-{high}, not {type(value).__name__} {shown(value)}"
        )
    if not 0 <= value <= high:
        raise ActionError(f"{what} {shown(value)} is out of range: expected 0-{high}")
    return int(value)


def _coord(value: object, whole: str | None = None, form: str = "K4") -> str:
    """A coordinate in canonical form (spaces around it dropped, letters in capitals)."""
    coord = _text(value, "a hex coordinate").strip()
    if not _COORD.fullmatch(coord):
        where = f" in {shown(whole)}" if whole is not None else ""
        raise ActionError(
            f"bad hex {shown(value)}{where}: expected letters and a number, as in {form}"
        )
    return coord.upper()


def _name_problem(name: str, *, spaces: bool) -> str | None:
    """Why ``name`` cannot be a tile's (``spaces`` false) or a corporation's name in an
    action's text, or ``None``."""
    if not name:
        return "is empty"
    if len(name) > MAX_NAME:
        return f"is longer than {MAX_NAME} characters"
    if not name.isprintable():
        return "holds a line break or another control character"
    if name != name.strip():
        return "starts or ends with a space"
    if not spaces and " " in name:
        return "holds a space"
    bad = next((c for c in name if c in _SEPARATORS), None)
    if bad is not None:
        return f"holds {bad!r} (the characters {_SEPARATORS} separate an action's parts)"
    return None


def split_rotation(text: str, known: Collection[str] | None = None) -> tuple[str, int | None]:
    """Read ``NAME`` or ``NAME-R`` (a tile and its rotation 0-5).

    With ``known`` names, a name known as it is wins (a tile really named ``5-1`` stays
    itself) and ``NAME-R`` is read only when ``NAME`` is known. A rotation out of 0-5 is an
    :class:`ActionError`.

    >>> split_rotation("57-2"), split_rotation("57"), split_rotation("X-1", {"X-1"})
    (('57', 2), ('57', None), ('X-1', None))
    """
    text = _text(text, "a tile and its rotation")
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
    """Tile ``tile`` laid at ``coord`` turned ``rotation`` steps clockwise: ``K4=57-1``.

    Raises :class:`ActionError` for a value no text can say (see the module's docstring);
    ``coord`` is kept in canonical form (``k4`` is ``K4``)."""

    coord: str
    tile: str
    rotation: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "coord", _coord(self.coord))
        tile = _text(self.tile, "a tile name")
        problem = _name_problem(tile, spaces=False)
        if problem is None and tile.endswith("-"):
            problem = "ends with '-' (which starts a rotation)"
        if problem is not None:
            raise ActionError(f"bad tile name {shown(tile)}: it {problem}")
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "rotation", _whole(self.rotation, "rotation", 5))

    @classmethod
    def parse(cls, text: str) -> TileLay:
        """Read ``COORD=TILE[-ROTATION]``; raises :class:`ActionError` saying what is wrong."""
        text = _text(text, "a tile lay")
        coord, sep, rest = text.partition("=")
        rest = rest.strip()
        if not sep or not rest:
            raise ActionError(
                f"bad tile lay {shown(text)}: expected COORD=TILE[-ROTATION], e.g. K4=57-1"
            )
        if rest.endswith("-"):
            raise ActionError(f"bad tile lay {shown(text)}: expected a rotation 0-5 after '-'")
        tile, rotation = split_rotation(rest)
        problem = _name_problem(tile, spaces=False)
        if problem is not None:
            raise ActionError(f"bad tile name {shown(tile)} in {shown(text)}: it {problem}")
        return cls(_coord(coord, text, "K4=57-1"), tile, rotation or 0)

    def __str__(self) -> str:
        return f"{self.coord}={self.tile}-{self.rotation}"


@dataclass(frozen=True, slots=True)
class TokenPlacement:
    """``corporation``'s station token in city ``city`` (counting the tile's cities) of
    ``coord``: ``K4=KO@0``; with ``extra``, in a slot past the city's own (``K4=KO@0+``:
    18xx.games' ``extra_slot`` and ``cheater`` abilities, and a token kept when the city's
    new tile has fewer slots).

    Raises :class:`ActionError` for a value no text can say (see the module's docstring);
    ``coord`` is kept in canonical form (``k4`` is ``K4``)."""

    coord: str
    corporation: str
    city: int = 0
    extra: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "coord", _coord(self.coord, form="K4=KO@0"))
        corporation = _text(self.corporation, "a corporation")
        problem = _name_problem(corporation, spaces=True)
        if problem is not None:
            raise ActionError(f"bad corporation {shown(corporation)}: it {problem}")
        object.__setattr__(self, "corporation", corporation)
        object.__setattr__(self, "city", _whole(self.city, "city", 99))
        if not isinstance(self.extra, bool):
            raise ActionError(
                f"extra must be True or False, not {type(self.extra).__name__} {shown(self.extra)}"
            )

    @classmethod
    def parse(cls, text: str) -> TokenPlacement:
        """Read ``COORD=CORPORATION[@CITY[+]]``; raises :class:`ActionError`."""
        text = _text(text, "a token placement")
        coord, sep, rest = text.partition("=")
        corporation, at, city = rest.partition("@")
        corporation, city = corporation.strip(), city.strip()
        extra = bool(at) and city.endswith("+")
        if extra:
            city = city[:-1].strip()
        if not sep or not corporation or (at and not _SMALL.fullmatch(city)):
            raise ActionError(
                f"bad token placement {shown(text)}: expected COORD=CORPORATION[@CITY[+]], "
                "e.g. K4=KO@0"
            )
        problem = _name_problem(corporation, spaces=True)
        if problem is not None:
            raise ActionError(
                f"bad corporation {shown(corporation)} in {shown(text)}: it {problem}"
            )
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
    text = _text(text, "an action")
    return TokenPlacement.parse(text) if "@" in text else TileLay.parse(text)
