"""Reading the web app's requests: URL parameters (rotations, layouts, lists, names) and
bodies (bounded, JSON objects read through :func:`tilelay.limits.read_json`).

Every function here is pure and raises :class:`~tilelay.web.errors.WebError` (an answer 400)
with a message that says what was wrong and what was expected.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping
from typing import Any

from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request

from tilelay.errors import TilelayError
from tilelay.hexgeo import Layout
from tilelay.limits import read_json, shown
from tilelay.web.errors import WebError

__all__ = [
    "MAX_BODY",
    "check_query",
    "flag",
    "json_body",
    "parse_int",
    "parse_layout",
    "parse_rotations",
    "read_body",
    "safe_name",
    "split_plus",
]

#: The largest JSON request body by default (bytes): a board state of thousands of actions.
MAX_BODY = 1024 * 1024
#: Every rotation, for ``r=all``.
ALL_ROTATIONS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
#: The most rotations ``r=`` may list.
MAX_ROTATIONS = 12

# Names in URLs (tiles, hexes, games): letters, digits and a little punctuation. Anything else
# (slashes, backslashes, NUL, "..") is refused before any lookup happens.
_SAFE = re.compile(r"^[\w .:'&()#,~@+-]{1,80}$")


def check_query(request: Request, known: Collection[str]) -> None:
    """Refuse (400) a URL parameter the page or endpoint does not take: left out, it would
    be ignored without a word (``/api/tiles/57?rotation=3`` answered rotation 0), naming
    those it takes and the close ones."""
    unknown = sorted(set(request.query_params) - set(known))
    if not unknown:
        return
    name = unknown[0]
    takes = ", ".join(sorted(known)) if known else "none"
    raise WebError(
        f"unknown URL parameter {shown(name)} (this page takes {takes})",
        400,
        suggestions=difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.5),
    )


def split_plus(text: str) -> list[str]:
    """Split a ``+``-separated list (a query string decodes ``+`` as a space, so split on both)."""
    return [part for part in re.split(r"[+ ]", text) if part]


def _rotation(text: str, where: str) -> int:
    if not re.fullmatch(r"-?[0-9]{1,4}", text):
        raise WebError(
            f"bad rotation {text!r} in {where}: expected an integer 0-5, "
            "several joined with '+', or 'all'"
        )
    value = int(text)
    if not 0 <= value <= 5:
        raise WebError(f"rotation {value} in {where} is out of range: expected 0-5")
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
    parts = split_plus(value)
    if len(parts) > MAX_ROTATIONS:
        raise WebError(
            f"r= lists {len(parts)} rotations: at most {MAX_ROTATIONS} (there are 6; 'all' "
            "gives every one)"
        )
    out: list[int] = []
    for part in parts:
        r = _rotation(part, "r=")
        if r not in out:
            out.append(r)
    return tuple(out)


def parse_layout(value: str | None, default: Layout = Layout.FLAT) -> Layout:
    """``layout=flat`` or ``layout=pointy``; ``default`` when absent."""
    if value is None or not value.strip():
        return default
    try:
        return Layout(value.strip().lower())
    except ValueError:
        raise WebError(f"bad layout {value!r}: expected 'flat' or 'pointy'") from None


def safe_name(text: str) -> bool:
    """Whether ``text`` may be used as a name to look up (no path characters, not too long)."""
    return bool(_SAFE.fullmatch(text)) and ".." not in text


def parse_int(text: str, what: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high`` written in ASCII digits (no more digits than
    the range needs); a 400 :class:`WebError` naming ``what`` otherwise."""
    raw = text.strip()
    digits = len(str(max(abs(low), abs(high))))
    if not re.fullmatch(rf"-?[0-9]{{1,{digits}}}", raw) or not low <= int(raw) <= high:
        raise WebError(f"{what} must be a whole number from {low} to {high}, not {text[:40]!r}")
    return int(raw)


def flag(data: Mapping[str, Any], key: str) -> bool:
    """Field ``key`` of a request body, true or false (false when absent); a 400
    :class:`WebError` naming it otherwise."""
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise WebError(f"{key!r} must be true or false")
    return value


async def read_body(request: Request, limit: int) -> bytes:
    """The request's body, at most ``limit`` bytes (a 413 :class:`WebError` past it)."""
    too_large = f"the request is too large: at most {limit // 2**20 or 1} MB"
    length = request.headers.get("content-length", "")
    if length.isascii() and length.isdigit() and len(length) < 20 and int(length) > limit:
        raise WebError(too_large, 413)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise WebError(too_large, 413)
        chunks.append(chunk)
    return b"".join(chunks)


async def json_body(
    request: Request,
    limit: int = MAX_BODY,
    *,
    fields: Collection[str] | None = None,
    wide: Collection[str] = (),
) -> dict[str, Any]:
    """The request's body as a JSON object (400 saying why when it is not, or when it has a
    field not among ``fields``, where given; 413 past ``limit`` bytes). The whole numbers
    of the fields ``wide`` may be larger than the reader's limit on numbers (a Carcassonne
    game's seed): their own checks say their ranges."""
    body = await read_body(request, limit)
    if not body.strip():
        raise WebError("the request body is empty: a JSON object was expected")
    try:
        data = read_json(body, source="the request body", wide=wide)
    except TilelayError as err:  # not UTF-8, not JSON, numbers or nesting past the limits
        raise WebError(str(err)) from None
    if not isinstance(data, dict):
        raise WebError("the request body must be a JSON object")
    unknown = sorted(set(data) - set(fields)) if fields is not None else []
    if unknown:
        said = ", ".join(shown(k) for k in unknown[:5])
        raise WebError(
            f"unknown field{'s' if len(unknown) > 1 else ''} {said} in the request body "
            f"(expected {', '.join(sorted(fields or ()))})"
        )
    return data


class _Id(Convertor[int]):
    """A stored document's id or a step's number in a URL (``{id:id}``): up to 100 digits, so
    that the number read is never one Python refuses to read (4,300 digits and more gave a
    500); a longer one matches no route (404), as a word does."""

    regex = "[0-9]{1,100}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


# (registered when the web app's modules import this one, before their routes are made)
register_url_convertor("id", _Id())
