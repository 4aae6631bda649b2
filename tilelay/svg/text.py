"""Numbers, text and colours in SVG: the helpers every drawing of :mod:`tilelay.svg` uses.

Numbers are written with at most two decimals, no trailing zeros and never ``-0`` (memoised),
so drawings are small and byte-stable.
"""

from __future__ import annotations

import re
import unicodedata
from html import escape

__all__ = [
    "COLORS",
    "FONT",
    "PHASE_ORDER",
    "WHITE",
    "clear_caches",
    "css_color",
    "esc",
    "fmt",
    "fmt4",
    "fmt_point",
    "phase_color",
    "text_element",
    "text_width",
]

#: Fill colours of tiles and hexes (those of the 18xx.games engine).
COLORS: dict[str, str] = {
    "white": "#eaf0f4",
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "gray": "#bcbdc0",
    "grey": "#bcbdc0",
    "sepia": "#d5b58f",
    "red": "#ec232a",
    "blue": "#35a7ff",
    "purple": "#9e6ab0",
    "orange": "#f48221",
    "black": "#000000",
    "lightblue": "#b0e0e6",
    "salmon": "#f9a98c",
    "gray60": "#96989d",
    "gray50": "#7b7d84",
    "gray40": "#626569",
    "pink": "#ff8ed2",
    "navy": "#2443c1",
}

#: Track colours in phase order (for phased revenues whose phases are not colours).
PHASE_ORDER = ("yellow", "green", "brown", "gray")
#: The font stack of every drawing.
FONT = "Arial, Helvetica, 'DejaVu Sans', sans-serif"

#: White, for bases and gaps.
WHITE = "#ffffff"

# ------------------------------------------------------------------------- numbers


def fmt(x: float) -> str:
    """A number with at most two decimals, no trailing zeros, never ``-0`` (memoised)."""
    s = _F_MEMO.get(x)
    if s is None:
        s = f"{x:.2f}"
        if s[-1] == "0":
            s = s.rstrip("0").rstrip(".")
        if s == "-0":
            s = "0"
        if len(_F_MEMO) > 65536:
            _F_MEMO.clear()
        _F_MEMO[x] = s
    return s


_F_MEMO: dict[float, str] = {}


def fmt_point(p: tuple[float, float]) -> str:
    """A point as ``x,y``."""
    return f"{fmt(p[0])},{fmt(p[1])}"


def esc(text: str) -> str:
    """``text`` escaped for SVG text and attributes."""
    return escape(text, quote=True)


def css_color(name: str) -> str:
    """A fill for a colour name (tile colours and common names) or a literal CSS colour."""
    c = COLORS.get(name.lower())
    if c is not None:
        return c
    if re.fullmatch(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}", name):
        return name
    return "#888888"


def ink_on(fill: str) -> str:
    """The colour of text on ``fill`` (``#rrggbb``): white on a dark fill (a black or navy
    phase's revenue box), else black."""
    if len(fill) != 7 or not fill.startswith("#"):
        return "#000"
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return "#fff" if 0.299 * r + 0.587 * g + 0.114 * b < 90 else "#000"


def phase_color(phase: str, index: int) -> str:
    """The colour of a revenue phase: its own colour, else the ``index``-th track colour."""
    c = COLORS.get(phase.lower())
    if c is not None:
        return c
    return COLORS[PHASE_ORDER[min(index, len(PHASE_ORDER) - 1)]]


def text_element(
    x: float,
    y: float,
    text: str,
    size: float,
    *,
    cls: str,
    bold: bool = False,
    anchor: str = "middle",
    fill: str = "#000",
    extra: str = "",
) -> str:
    """A ``<text>`` centred (or anchored) at (``x``, ``y``), its baseline lowered to centre it.

    A text with pictographs (18USA's coal and oil labels are emoji) names a font that draws
    them first (:data:`PICTOGRAPH_FONT`: a renderer such as cairosvg takes the first family
    only; a browser goes on down the list), and loses its variation selectors (they choose
    between a glyph's text and emoji forms, and draw as boxes where a font lacks them)."""
    weight = ' font-weight="bold"' if bold else ""
    family = ""
    if any(ord(ch) >= 0x2600 and unicodedata.category(ch) == "So" for ch in text):
        text = text.translate(_SELECTORS)
        family = f' font-family="{PICTOGRAPH_FONT}"'
    return (
        f'<text class="{cls}" x="{fmt(x)}" y="{fmt(y + size * 0.35)}" font-size="{fmt(size)}"'
        f' text-anchor="{anchor}"{weight}{family} fill="{fill}"{extra}>{esc(text)}</text>'
    )


#: The fonts of a text with pictographs: Symbola (Debian's ``fonts-symbola``) draws the
#: symbols and emoji that DejaVu lacks, in one colour.
PICTOGRAPH_FONT = f"Symbola, {FONT.replace(chr(39), '')}"
#: The variation selectors, dropped from a text with pictographs.
_SELECTORS = {0xFE0E: None, 0xFE0F: None}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An estimate of the width of ``text`` in font ``size`` (for placing labels)."""
    return len(text) * size * (0.62 if bold else 0.55)


def fmt4(x: float) -> str:
    """A number with at most four decimals (scale factors)."""
    s = f"{x:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def clear_caches() -> None:
    """Forget the memoised numbers (for cold-start measurements)."""
    _F_MEMO.clear()
