"""Small charts as SVG: each corporation's revenue across a game, run and best.

:func:`revenue_chart` draws one line per corporation in its colour through the revenue it
ran at each operating turn (solid) and a dashed line through the best revenue it could have
run (the route optimiser's), against the position in the game (the action number), with
values on both axes and a legend that wraps onto as many rows as it needs (the chart grows
taller by a row each), the key to the line styles after it. A colour too light to see on
the white ground (1822's minors are white) is drawn over a dark casing, its points and
legend swatch outlined: decided by the colour's luminance (:func:`luminance`), whatever
its name. Elements for tests and browsers: ``<svg class="chart">``, ``<g class="series"
data-corporation="KO">`` (``data-light="1"`` where cased) with ``<polyline class="run">``
and ``<polyline class="best">`` (each over a ``<polyline class="casing">`` where cased),
``<circle class="point" data-step="…" data-run="…" data-best="…">`` per turn, ``<g
class="legend-entry" data-corporation="KO" data-row="0">`` per corporation, ``<g
class="key">``, and ``<text class="tick x">`` and ``<text class="tick y">`` on the axes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tilelay.svg.text import FONT, esc, fmt, text_element

__all__ = ["is_light", "luminance", "revenue_chart", "rgb"]

#: The relative luminance (WCAG's: 0 black, 1 white) above which a line is too light to see
#: well on the chart's white ground, and is drawn over a dark casing.
LIGHT = 0.6
#: The casing under a light line, and the outline of its points and swatch.
CASING = "#4b5563"
#: The colour of a series whose colour cannot be read (a browser would draw it as none).
UNKNOWN = "#444444"
#: A legend row's height.
_ROW = 16.0
#: The legend's font size.
_LEGEND = 10.0

#: CSS's named colours (the engine's corporations name some: ``antiqueWhite``, ``gold``).
_NAMED_TEXT = """
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc
bisque ffe4c4 black 000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a
burlywood deb887 cadetblue 5f9ea0 chartreuse 7fff00 chocolate d2691e coral ff7f50
cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue 00008b darkcyan
008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 darkkhaki
bdb76b darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred
8b0000 darksalmon e9967a darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f
darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet 9400d3 deeppink ff1493 deepskyblue
00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222 floralwhite fffaf0
forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700 goldenrod
daa520 gray 808080 grey 808080 green 008000 greenyellow adff2f honeydew f0fff0 hotpink
ff69b4 indianred cd5c5c indigo 4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa
lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue add8e6 lightcoral f08080
lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey
d3d3d3 lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa
lightslategray 778899 lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 lime
00ff00 limegreen 32cd32 linen faf0e6 magenta ff00ff maroon 800000 mediumaquamarine 66cdaa
mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db mediumseagreen 3cb371
mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred
c71585 midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite
ffdead navy 000080 oldlace fdf5e6 olive 808000 olivedrab 6b8e23 orange ffa500 orangered
ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98 paleturquoise afeeee
palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd
powderblue b0e0e6 purple 800080 red ff0000 rosybrown bc8f8f royalblue 4169e1 saddlebrown
8b4513 salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d silver
c0c0c0 skyblue 87ceeb slateblue 6a5acd slategray 708090 slategrey 708090 snow fffafa
springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080 thistle d8bfd8 tomato ff6347
turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow ffff00
yellowgreen 9acd32 rebeccapurple 663399
"""
_NAMED: dict[str, str] = dict(
    zip(_NAMED_TEXT.split()[::2], ("#" + h for h in _NAMED_TEXT.split()[1::2]), strict=True)
)


def rgb(color: str) -> tuple[int, int, int] | None:
    """The red, green and blue (0–255) of a CSS colour: ``#rgb``, ``#rgba``, ``#rrggbb``,
    ``#rrggbbaa`` or a named colour (any case); None for anything else.

    >>> rgb("#fff"), rgb("antiqueWhite"), rgb("sand")
    ((255, 255, 255), (250, 235, 215), None)
    """
    c = color.strip().lower()
    c = _NAMED.get(c, c)
    m = re.fullmatch(r"#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})", c)
    if m is None:
        return None
    h = m[1]
    if len(h) <= 4:
        h = "".join(ch * 2 for ch in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def luminance(color: str) -> float | None:
    """The relative luminance of a CSS colour (WCAG 2: 0 for black, 1 for white); None for a
    colour :func:`rgb` cannot read.

    >>> luminance("#ffffff"), luminance("black")
    (1.0, 0.0)
    """
    channels = rgb(color)
    if channels is None:
        return None

    def linear(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in channels)
    return round(0.2126 * r + 0.7152 * g + 0.0722 * b, 4)


def is_light(color: str) -> bool:
    """Whether a line in ``color`` is too light to see well on white (its luminance above
    :data:`LIGHT`): white, cream, gold, yellow, cyan, lime, pale greens.

    >>> is_light("#ffffff"), is_light("#fde900"), is_light("#cccc00"), is_light("#000")
    (True, True, False, False)
    """
    value = luminance(color)
    return value is not None and value > LIGHT


def _ticks(top: int) -> list[int]:
    if top <= 0:
        return [0]
    raw = top / 5
    magnitude = 10 ** (len(str(int(raw))) - 1)
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return list(range(0, top + step, step))


def _text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in the chart's font (capitals and digits
    are wider than :func:`tilelay.svg.text.text_width` assumes, in DejaVu Sans most of all):
    legend entries must not run into each other."""
    em = 0.0
    for ch in text:
        if ch.isupper():
            em += 0.7
        elif ch.isdigit():
            em += 0.64
        elif ch.isspace():
            em += 0.32
        elif ch.isalpha():
            em += 0.6
        else:
            em += 0.5
    return em * size


def _key(x: float, y: float) -> str:
    """The key to the line styles at (``x``, ``y``): a solid line "run", a dashed "best"."""
    out = ['<g class="key">']
    for label, dash, width in (("run", "", 2), ("best", ' stroke-dasharray="4 3"', 1.5)):
        out.append(
            f'<line x1="{fmt(x)}" x2="{fmt(x + 16)}" y1="{fmt(y)}" y2="{fmt(y)}" stroke="#555"'
            f' stroke-width="{width}"{dash}/>'
        )
        out.append(text_element(x + 19, y, label, _LEGEND, cls="legend", anchor="start"))
        x += 19 + _text_width(label, _LEGEND) + 10
    out.append("</g>")
    return "".join(out)


_KEY_WIDTH = 2 * (19 + 10) + _text_width("run", _LEGEND) + _text_width("best", _LEGEND) - 10


def revenue_chart(
    series: Mapping[str, Sequence[tuple[int, int, int | None]]],
    colors: Mapping[str, str],
    *,
    width: float = 640,
    height: float = 260,
    last_step: int | None = None,
) -> str:
    """A chart of ``series``: corporation -> ``(step, run, best)`` points in step order
    (``best`` None where it was not searched for), each line in ``colors[corporation]``.
    ``last_step`` is the right end of the x axis (default: the last point's). ``height`` is
    the chart's with a legend of one row: each further row adds 16."""
    points = [p for pts in series.values() for p in pts]
    left, right, top, bottom = 44.0, 12.0, 10.0, 58.0
    # the legend's rows: each entry where it fits, the key after the last one
    limit = width - right
    placed: list[tuple[str, float, int]] = []
    lx, row = left, 0
    for name in series:
        w = 13 + _text_width(name, _LEGEND)
        if lx > left and lx + w > limit:
            lx, row = left, row + 1
        placed.append((name, lx, row))
        lx += w + 12
    key_x = limit - _KEY_WIDTH
    if lx > left and lx - 4 > key_x:
        row += 1
    total = height + row * _ROW
    plot_w, plot_h = width - left - right, height - top - bottom
    plot_bottom = top + plot_h
    x_max = max([last_step or 0, *(p[0] for p in points)], default=1) or 1
    y_top = max([*(max(p[1], p[2] or 0) for p in points)], default=0)
    ticks = _ticks(y_top)
    y_max = ticks[-1] or 1
    x_ticks = [t for t in _ticks(x_max) if t <= x_max]

    def x(step: int) -> float:
        return left + plot_w * step / x_max

    def y(value: int) -> float:
        return top + plot_h * (1 - value / y_max)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{fmt(width)}"'
        f' height="{fmt(total)}" viewBox="0 0 {fmt(width)} {fmt(total)}" font-family="{FONT}">',
        f'<rect width="{fmt(width)}" height="{fmt(total)}" fill="#fff"/>',
        '<g class="axes" stroke="#d0d4da" stroke-width="1">',
    ]
    for t in ticks:
        out.append(
            f'<line x1="{fmt(left)}" x2="{fmt(width - right)}" y1="{fmt(y(t))}" y2="{fmt(y(t))}"/>'
        )
    for t in x_ticks:
        out.append(
            f'<line x1="{fmt(x(t))}" x2="{fmt(x(t))}" y1="{fmt(plot_bottom)}"'
            f' y2="{fmt(plot_bottom + 4)}" stroke="#9ca3af"/>'
        )
    out.append("</g>")
    for t in ticks:
        out.append(
            text_element(left - 4, y(t), str(t), 10, cls="tick y", anchor="end", fill="#555")
        )
    for t in x_ticks:
        out.append(text_element(x(t), plot_bottom + 11, str(t), 10, cls="tick x", fill="#555"))
    out.append(
        text_element(
            left + plot_w / 2, plot_bottom + 25, "action", 10, cls="axis-label", fill="#555"
        )
    )
    inks = {name: _ink(colors.get(name, UNKNOWN)) for name in series}
    for name, pts in series.items():
        color, light = inks[name]
        lit = ' data-light="1"' if light else ""
        out.append(f'<g class="series" data-corporation="{esc(name)}"{lit}>')
        searched = [(s, b) for s, _, b in pts if b is not None]
        faded = "" if light else ' stroke-opacity="0.8"'
        if len(searched) > 1:
            best = " ".join(f"{fmt(x(s))},{fmt(y(b))}" for s, b in searched)
            if light:
                out.append(
                    f'<polyline class="casing" points="{best}" fill="none" stroke="{CASING}"'
                    ' stroke-width="3.5" stroke-dasharray="4 3"/>'
                )
            out.append(
                f'<polyline class="best" points="{best}" fill="none" stroke="{color}"'
                ' stroke-width="1.5" stroke-dasharray="4 3"'
                f"{faded}/>"
            )
        if len(pts) > 1:
            run = " ".join(f"{fmt(x(s))},{fmt(y(r))}" for s, r, _ in pts)
            if light:
                out.append(
                    f'<polyline class="casing" points="{run}" fill="none" stroke="{CASING}"'
                    ' stroke-width="4" stroke-linejoin="round"/>'
                )
            out.append(
                f'<polyline class="run" points="{run}" fill="none" stroke="{color}"'
                ' stroke-width="2" stroke-linejoin="round"/>'
            )
        outline = f' stroke="{CASING}" stroke-width="1"' if light else ""
        for s, r, b in pts:
            said = f"best {b}" if b is not None else "best not searched for"
            out.append(
                f'<circle class="point" data-step="{s}" data-run="{r}"'
                f' data-best="{b if b is not None else ""}"'
                f' cx="{fmt(x(s))}" cy="{fmt(y(r))}" r="2.5" fill="{color}"{outline}>'
                f"<title>{esc(name)} at action {s}: ran {r}, {said}</title></circle>"
            )
        out.append("</g>")
    # the legend: a swatch and a name per corporation, row after row, then the key
    first = plot_bottom + 42
    for name, ex, r in placed:
        color, light = inks[name]
        ly = first + r * _ROW
        border = f' stroke="{CASING}" stroke-width="1"' if light else ""
        out.append(
            f'<g class="legend-entry" data-corporation="{esc(name)}" data-row="{r}">'
            f'<rect x="{fmt(ex + 0.5)}" y="{fmt(ly - 4.5)}" width="9" height="9"'
            f' fill="{color}"{border}/>'
        )
        out.append(text_element(ex + 13, ly, name, _LEGEND, cls="legend", anchor="start"))
        out.append("</g>")
    out.append(_key(key_x, first + row * _ROW))
    out.append("</svg>")
    return "".join(out)


def _ink(color: str) -> tuple[str, bool]:
    """A series' colour as drawn (escaped; :data:`UNKNOWN` for one no browser would draw) and
    whether it is light (:func:`is_light`)."""
    if rgb(color) is None:
        return UNKNOWN, False
    return esc(color), is_light(color)
