"""The limits on what input may ask for, and the edge readers of numbers, text, JSON and TOML.

Every reader of user input (the tile language, JSON tiles and records, XML, TOML, the web
app's parameters, the command line) reads numbers with :func:`whole`, checks text with
:func:`text_problem` and reads JSON and TOML with :func:`read_json` / :func:`read_toml`, so
that a number of thousands of digits, a count of millions, a nesting thousands deep or a
character no format can carry is refused at the edge with a
:class:`~tilelay.errors.TilelayError` that names the limit, instead of reaching Python's own
limits (a plain ``ValueError`` past 4,300 digits, ``RecursionError``) or asking the drawing
code for millions of shapes.

The limits are far above what real games use (in brackets: the most any of the 18xx.games
engine's 5,285 tile strings or the reference XML files holds).

>>> whole("12", 0, 99), whole("-3", 0, 99), whole("²", 0, 99), whole("9" * 5000, 0, 99)
(12, None, None, None)
>>> text_problem("OO"), text_problem("a\\x00b")
(None, 'holds the control character U+0000')
"""

from __future__ import annotations

import json
import math
import re
import tomllib
import unicodedata
from collections.abc import Callable, Collection
from typing import Any

from tilelay.errors import TilelayError

__all__ = [
    "MAX_AMOUNT",
    "MAX_CODE",
    "MAX_COUNT",
    "MAX_INT",
    "MAX_ITEMS",
    "MAX_LANES",
    "MAX_NESTING",
    "MAX_NODES",
    "MAX_PATHS",
    "MAX_PLAYERS",
    "MAX_SIZE",
    "MAX_SLOTS",
    "MAX_TEXT",
    "MAX_TRAINS",
    "check_trains",
    "read_json",
    "read_toml",
    "shown",
    "text_problem",
    "tree_problem",
    "whole",
]

#: Token slots of one city [7].
MAX_SLOTS = 12
#: Cities, towns, offboards and junctions of one tile [6].
MAX_NODES = 32
#: Paths of one tile, parallel lanes counted one by one [18].
MAX_PATHS = 128
#: Parallel lanes of one path [5].
MAX_LANES = 8
#: Labels, terrain upgrades, borders or icons of one tile, each; phases of one revenue; groups
#: of one node; terrains of one upgrade [6].
MAX_ITEMS = 32
#: Characters of one label, name, colour or other text of a tile [40].
MAX_TEXT = 200
#: A revenue or cost, either sign [300].
MAX_AMOUNT = 1_000_000
#: Copies of one tile in a manifest or tile set [99].
MAX_COUNT = 9_999
#: Characters of one tile string [302].
MAX_CODE = 4_000
#: Levels of nested arrays and objects in JSON or TOML [8].
MAX_NESTING = 64
#: Players of one game, where a number of trains is given by them [6].
MAX_PLAYERS = 12
#: The largest whole number (either sign) read from JSON or TOML.
MAX_INT = 10**15
#: The drawn size of a terrain symbol or a mountain pass [40].
MAX_SIZE = 1_000
#: Trains of one corporation whose best routes are searched for [5].
MAX_TRAINS = 24

_SIGNED = re.compile(r"-?[0-9]+")
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def check_trains(corporation: str, trains: list[str]) -> list[str]:
    """``trains`` when there are at most :data:`MAX_TRAINS`; else a
    :class:`~tilelay.errors.TilelayError` saying so."""
    if len(trains) > MAX_TRAINS:
        raise TilelayError(
            f"{corporation} holds {len(trains)} trains: tilelay finds the best routes of at most "
            f"{MAX_TRAINS}"
        )
    return trains


def whole(text: str, low: int, high: int) -> int | None:
    """The whole number ``text`` writes in ASCII digits (an optional ``-``, surrounding
    whitespace ignored) when it is from ``low`` to ``high``; ``None`` otherwise.

    Unlike :func:`int` this refuses ``"1_000"``, ``"²"``, ``"٣"`` and ``"+5"``, and never
    converts more digits than the range needs.
    """
    t = text.strip()
    if len(t) > 40 or not _SIGNED.fullmatch(t):
        return None
    digits = len(t.lstrip("-").lstrip("0"))
    if digits > len(str(max(abs(low), abs(high)))):
        return None
    value = int(t)
    return value if low <= value <= high else None


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters."""
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        text = f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    else:
        try:
            text = repr(value)
        except (ValueError, RecursionError):  # a huge integer or a deep nesting inside
            text = f"a {type(value).__name__}"
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def text_problem(text: str, limit: int = MAX_TEXT) -> str | None:
    """Why ``text`` cannot be a text of tilelay's data (too long, or holding a character that
    XML, JSON or the tile language cannot carry), or ``None``."""
    if len(text) > limit:
        return f"is {len(text)} characters long: at most {limit}"
    for ch in text:
        if ch in _ALLOWED_CONTROLS:
            continue
        category = unicodedata.category(ch)
        if category == "Cc" or category == "Cs" or ch in "\ufffe\uffff":
            kind = "control character" if category == "Cc" else "character"
            return f"holds the {kind} U+{ord(ch):04X}"
    return None


def tree_problem(value: object) -> str | None:
    """Why parsed JSON or TOML data is past the limits (nesting, numbers), or ``None``."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            if abs(item) > MAX_INT:
                return f"the number {shown(item)} is too large: at most {MAX_INT:,} either sign"
            continue
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"the number {item} is not finite"
            continue
        else:
            continue
        if depth > MAX_NESTING:
            return f"nested too deeply: at most {MAX_NESTING} levels of arrays and objects"
        stack.extend((child, depth + 1) for child in children)
    return None


class _Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > len(str(MAX_INT)):
        raise _Refused(f"the number {shown(text, 24)} is too large: at most {MAX_INT:,}")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {shown(text, 24)} is too large")
    return value


def _json_constant(text: str) -> float:
    raise _Refused(f"{text} is not a JSON value")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object, refusing a key given twice: a reader keeps the last value and drops the
    other without a word (two tiles of one name, an edit's field given twice)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(
                    f"the key {shown(key)} is given twice in one object (the second would "
                    "replace the first)"
                )
            seen.add(key)
    return found


#: The most digits of a whole number in a field ``read_json(wide=...)`` names: past the
#: limit on numbers (:data:`MAX_INT`), and enough for the field's own check to say its range.
WIDE_DIGITS = 40


def _wide_int(text: str) -> int:
    if len(text.lstrip("-")) > WIDE_DIGITS:
        raise _Refused("too many digits")
    return int(text)


def _loads(text: str, whole: Callable[[str], int]) -> Any:
    """``text`` parsed with the reader's checks, whole numbers read by ``whole``."""
    return json.loads(
        text,
        parse_int=whole,
        parse_float=_json_float,
        parse_constant=_json_constant,
        object_pairs_hook=_json_object,
    )


def read_json(
    data: bytes | str,
    *,
    source: str | None = None,
    error: type[TilelayError] = TilelayError,
    wide: Collection[str] = (),
) -> Any:
    """The JSON value in ``data`` (UTF-8 bytes, a byte order mark allowed, or text).

    Raises ``error`` (a :class:`~tilelay.errors.TilelayError` class) naming ``source`` and
    the line and column for text that is not UTF-8 or not JSON, for numbers too large
    (:data:`MAX_INT`) or not finite, for an object that gives a key twice, and for nesting
    deeper than :data:`MAX_NESTING`. The whole numbers of the top-level fields ``wide`` may
    be past :data:`MAX_INT`, up to :data:`WIDE_DIGITS` digits (a Carcassonne game's seed):
    their own checks say their ranges.
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            line = data[: err.start].count(b"\n") + 1
            raise error(
                f"not UTF-8 text: byte {err.start + 1} is {data[err.start]:#04x}",
                source=source,
                line=line,
            ) from None
    else:
        text = data
    try:
        try:
            value = _loads(text, _json_int)
        except _Refused as refused:
            # a number past the limit: where the fields ``wide`` may hold one, read again
            # with whole numbers of up to WIDE_DIGITS digits (the others checked below)
            if not wide:
                raise
            try:
                value = _loads(text, _wide_int)
            except _Refused:
                raise refused from None
            if not isinstance(value, dict):
                raise refused from None
    except json.JSONDecodeError as err:
        # ("Unterminated string starting at": the position is the line and column given)
        said = err.msg[: -len(" at")] + " here" if err.msg.endswith(" at") else err.msg
        raise error(
            f"malformed JSON: {said}", source=source, line=err.lineno, column=err.colno
        ) from None
    except _Refused as err:
        raise error(f"malformed JSON: {err.message}", source=source) from None
    except RecursionError:
        raise error(
            f"malformed JSON: nested too deeply: at most {MAX_NESTING} levels of arrays and "
            "objects",
            source=source,
        ) from None
    if wide and isinstance(value, dict):
        problem = tree_problem(
            {k: v for k, v in value.items() if not (k in wide and type(v) is int)}
        )
    else:
        problem = tree_problem(value)
    if problem is not None:
        raise error(f"malformed JSON: {problem}", source=source)
    return value


_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)")


def read_toml(
    text: str, *, source: str | None = None, error: type[TilelayError] = TilelayError
) -> dict[str, Any]:
    """The TOML document ``text``; ``error`` (naming ``source``, line and column) when it is
    malformed or past the limits of :func:`tree_problem`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        m = _TOML_WHERE.search(str(err))
        raise error(
            f"malformed TOML: {_TOML_WHERE.sub('', str(err))}",
            source=source,
            line=int(m.group(1)) if m else None,
            column=int(m.group(2)) if m else None,
        ) from None
    except RecursionError:
        raise error(
            f"malformed TOML: nested too deeply: at most {MAX_NESTING} levels", source=source
        ) from None
    except ValueError:  # an integer of more digits than Python converts
        raise error(
            f"malformed TOML: a number is too large: at most {MAX_INT:,}", source=source
        ) from None
    problem = tree_problem(data)
    if problem is not None:
        raise error(f"malformed TOML: {problem}", source=source)
    return data
