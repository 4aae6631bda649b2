"""Small charts as SVG: each corporation's revenue across a game, run and best.

:func:`revenue_chart` draws one line per corporation in its colour through the revenue it
ran at each operating turn (solid) and a dashed line through the best revenue it could have
run (the route optimiser's), against the position in the game (the action number), with a
legend. Elements for tests and browsers: ``<svg class="chart">``, ``<g class="series"
data-corporation="KO">`` with ``<polyline class="run">`` and ``<polyline class="best">``, and
``<circle class="point" data-step="…" data-run="…" data-best="…">`` per turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tilelay.svg.text import FONT, esc, fmt, text_element

__all__ = ["revenue_chart"]


def _ticks(top: int) -> list[int]:
    if top <= 0:
        return [0]
    raw = top / 5
    magnitude = 10 ** (len(str(int(raw))) - 1)
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return list(range(0, top + step, step))


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
    ``last_step`` is the right end of the x axis (default: the last point's)."""
    points = [p for pts in series.values() for p in pts]
    left, right, top, bottom = 44.0, 12.0, 10.0, 46.0
    plot_w, plot_h = width - left - right, height - top - bottom
    x_max = max([last_step or 0, *(p[0] for p in points)], default=1) or 1
    y_top = max([*(max(p[1], p[2] or 0) for p in points)], default=0)
    ticks = _ticks(y_top)
    y_max = ticks[-1] or 1

    def x(step: int) -> float:
        return left + plot_w * step / x_max

    def y(value: int) -> float:
        return top + plot_h * (1 - value / y_max)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{fmt(width)}"'
        f' height="{fmt(height)}" viewBox="0 0 {fmt(width)} {fmt(height)}" font-family="{FONT}">',
        f'<rect width="{fmt(width)}" height="{fmt(height)}" fill="#fff"/>',
        '<g class="axes" stroke="#d0d4da" stroke-width="1">',
    ]
    for t in ticks:
        out.append(
            f'<line x1="{fmt(left)}" x2="{fmt(width - right)}" y1="{fmt(y(t))}" y2="{fmt(y(t))}"/>'
        )
    out.append("</g>")
    for t in ticks:
        out.append(text_element(left - 4, y(t), str(t), 10, cls="tick", anchor="end", fill="#555"))
    out.append(
        text_element(left + plot_w / 2, height - 30, "action", 10, cls="axis-label", fill="#555")
    )
    for name, pts in series.items():
        color = esc(colors.get(name, "#444"))
        out.append(f'<g class="series" data-corporation="{esc(name)}">')
        searched = [(s, b) for s, _, b in pts if b is not None]
        if len(searched) > 1:
            best = " ".join(f"{fmt(x(s))},{fmt(y(b))}" for s, b in searched)
            out.append(
                f'<polyline class="best" points="{best}" fill="none" stroke="{color}"'
                ' stroke-width="1.5" stroke-dasharray="4 3" stroke-opacity="0.8"/>'
            )
        if len(pts) > 1:
            run = " ".join(f"{fmt(x(s))},{fmt(y(r))}" for s, r, _ in pts)
            out.append(
                f'<polyline class="run" points="{run}" fill="none" stroke="{color}"'
                ' stroke-width="2"/>'
            )
        for s, r, b in pts:
            said = f"best {b}" if b is not None else "best not searched for"
            out.append(
                f'<circle class="point" data-step="{s}" data-run="{r}"'
                f' data-best="{b if b is not None else ""}"'
                f' cx="{fmt(x(s))}" cy="{fmt(y(r))}" r="2.5" fill="{color}">'
                f"<title>{esc(name)} at action {s}: ran {r}, {said}</title></circle>"
            )
        out.append("</g>")
    # legend: one swatch per corporation, then what the line styles mean
    lx, ly = left, height - 14
    for name in series:
        color = esc(colors.get(name, "#444"))
        out.append(f'<rect x="{fmt(lx)}" y="{fmt(ly - 6)}" width="10" height="10" fill="{color}"/>')
        out.append(text_element(lx + 13, ly - 1, name, 10, cls="legend", anchor="start"))
        lx += 18 + len(name) * 6.5
    out.append(
        text_element(
            width - right,
            ly - 1,
            "solid: run · dashed: best",
            10,
            cls="legend",
            anchor="end",
            fill="#555",
        )
    )
    out.append("</svg>")
    return "".join(out)
