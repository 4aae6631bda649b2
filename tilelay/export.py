"""Export drawings to SVG, PNG and PDF files, and print a game's tiles on sheets for cutting out.

The format of a file follows its extension (:data:`FORMATS`). PNG and PDF are made from the SVG
with cairosvg (which needs the system's libcairo2). Each file is drawn in memory first and
written only when the drawing succeeded, and only to the path the caller named.

A *tile sheet* is every tile of a game's manifest, as many copies as the manifest counts, in
rows of hexes of a given size (flat side to flat side, in millimetres) with a cutting margin
between them, on as many A4 or Letter pages as needed: :func:`tile_sheet_pdf`.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cairocffi  # type: ignore[import-untyped]
import cairosvg
import cairosvg.parser
import cairosvg.surface

from tilelay import svg
from tilelay.errors import TilelayError
from tilelay.files import write_bytes
from tilelay.games import Game
from tilelay.hexgeo import Layout
from tilelay.tile import Tile

__all__ = [
    "FORMATS",
    "PAPER_MM",
    "SheetLayout",
    "output_format",
    "sheet_layout",
    "sheet_tiles",
    "tile_sheet_pages",
    "tile_sheet_pdf",
    "to_pdf",
    "to_png",
    "write_drawing",
]

#: The file formats a drawing can be written in, by extension.
FORMATS: tuple[str, ...] = (".svg", ".png", ".pdf")

#: Paper sizes (width, height) in millimetres.
PAPER_MM: dict[str, tuple[float, float]] = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}

#: The usual size of an 18xx tile: 1.5 inches from flat side to flat side.
DEFAULT_HEX_MM = 38.1
#: Page margin, space for the page heading, and the cutting margin between tiles (mm).
PAGE_MARGIN_MM = 10.0
HEADER_MM = 8.0
GAP_MM = 4.0

#: Copies printed of a tile the manifest has in unlimited supply.
UNLIMITED_COPIES = 6

_PT_PER_MM = 72.0 / 25.4


def output_format(path: str | Path) -> str:
    """The format (``.svg``, ``.png`` or ``.pdf``) of ``path`` by its extension.

    Raises :class:`~tilelay.errors.TilelayError` listing the formats for anything else.
    """
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        shown = f"extension {ext!r}" if ext else "no extension"
        raise TilelayError(
            f"cannot tell the format of {str(path)!r} ({shown}): "
            f"expected a file name ending in {', '.join(FORMATS)}"
        )
    return ext


def _write(path: str | Path, data: bytes) -> None:
    write_bytes(path, data)


#: The most pixels a side of a PNG cairo makes.
MAX_PNG_SIDE = 32_767

_SIZE = re.compile(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"')


def _convert(kind: str, drawing: str, scale: float) -> bytes:
    if scale <= 0:
        raise TilelayError(f"scale must be positive, not {scale}")
    size = _SIZE.search(drawing[:2000])
    if kind == "png" and size is not None:
        width, height = (float(v) * scale for v in size.groups())
        if max(width, height) > MAX_PNG_SIDE:
            raise TilelayError(
                f"the drawing is {width:,.0f} × {height:,.0f} pixels: a PNG is at most "
                f"{MAX_PNG_SIDE:,} a side (draw it smaller, or write .svg or .pdf)"
            )
    convert = cairosvg.svg2png if kind == "png" else cairosvg.svg2pdf
    try:
        out: Any = convert(bytestring=drawing.encode("utf-8"), scale=scale, unsafe=False)
    except Exception as err:  # cairosvg raises bare exceptions on bad SVG
        raise TilelayError(f"cannot convert the drawing to {kind.upper()}: {err}") from None
    return bytes(out)


def to_png(drawing: str, path: str | Path, *, scale: float = 1.0) -> None:
    """Write the SVG text ``drawing`` as a PNG image (one SVG pixel = ``scale`` PNG pixels)."""
    _write(path, _convert("png", drawing, scale))


def to_pdf(drawing: str, path: str | Path, *, scale: float = 1.0) -> None:
    """Write the SVG text ``drawing`` as a one-page PDF (96 SVG pixels = one inch × ``scale``)."""
    _write(path, _convert("pdf", drawing, scale))


def write_drawing(drawing: str, path: str | Path, *, scale: float = 1.0) -> str:
    """Write ``drawing`` in the format ``path``'s extension names; returns that format."""
    fmt = output_format(path)
    if fmt == ".svg":
        text = (
            drawing
            if drawing.lstrip().startswith("<?xml")
            else ('<?xml version="1.0" encoding="UTF-8"?>\n' + drawing)
        )
        _write(path, text.encode("utf-8"))
    elif fmt == ".png":
        to_png(drawing, path, scale=scale)
    else:
        to_pdf(drawing, path, scale=scale)
    return fmt


# ------------------------------------------------------------------ tile sheets


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """How tiles fit on a page: ``columns`` × ``rows`` cells of ``cell_w`` × ``cell_h`` mm."""

    paper: str
    page_w: float
    page_h: float
    hex_mm: float
    layout: Layout
    cell_w: float
    cell_h: float
    columns: int
    rows: int

    @property
    def per_page(self) -> int:
        """Tiles on a full page."""
        return self.columns * self.rows

    def pages(self, count: int) -> int:
        """Pages needed for ``count`` tiles (at least one)."""
        return max(1, math.ceil(count / self.per_page))

    def position(self, index: int) -> tuple[int, float, float]:
        """Page number and the centre (x, y) in mm of the ``index``-th tile."""
        page, k = divmod(index, self.per_page)
        row, col = divmod(k, self.columns)
        used_w = self.columns * self.cell_w + (self.columns - 1) * GAP_MM
        left = (self.page_w - used_w) / 2
        x = left + col * (self.cell_w + GAP_MM) + self.cell_w / 2
        y = PAGE_MARGIN_MM + HEADER_MM + row * (self.cell_h + GAP_MM) + self.cell_h / 2
        return page, x, y


def sheet_layout(
    layout: Layout, *, paper: str = "A4", hex_size_mm: float = DEFAULT_HEX_MM
) -> SheetLayout:
    """The page grid for hexes ``hex_size_mm`` across the flats on ``paper``."""
    if paper not in PAPER_MM:
        raise TilelayError(f"unknown paper {paper!r}: expected one of {', '.join(PAPER_MM)}")
    page_w, page_h = PAPER_MM[paper]
    if not 5.0 <= hex_size_mm <= 150.0:
        raise TilelayError(f"hex size {hex_size_mm} mm is out of range: expected 5-150 mm")
    across_corners = hex_size_mm * 2 / math.sqrt(3)
    if layout is Layout.FLAT:
        cell_w, cell_h = across_corners, hex_size_mm
    else:
        cell_w, cell_h = hex_size_mm, across_corners
    usable_w = page_w - 2 * PAGE_MARGIN_MM
    usable_h = page_h - 2 * PAGE_MARGIN_MM - HEADER_MM
    columns = int((usable_w + GAP_MM) // (cell_w + GAP_MM))
    rows = int((usable_h + GAP_MM) // (cell_h + GAP_MM))
    if columns < 1 or rows < 1:
        raise TilelayError(f"a {hex_size_mm} mm hex does not fit on {paper} paper")
    return SheetLayout(paper, page_w, page_h, hex_size_mm, layout, cell_w, cell_h, columns, rows)


def sheet_tiles(game: Game) -> list[Tile]:
    """Every tile of the game's manifest, repeated as many times as the manifest counts.

    A tile the manifest has in unlimited supply (count -1) is printed :data:`UNLIMITED_COPIES`
    times.
    """
    out: list[Tile] = []
    for tile, count in game.manifest_tiles():
        out.extend([tile] * (UNLIMITED_COPIES if count < 0 else count))
    return out


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def tile_sheet_pages(
    game: Game, *, paper: str = "A4", hex_size_mm: float = DEFAULT_HEX_MM
) -> list[str]:
    """The SVG of each page of the game's tile sheet (page units are millimetres)."""
    layout = Layout(game.layout)
    grid = sheet_layout(layout, paper=paper, hex_size_mm=hex_size_mm)
    tiles = sheet_tiles(game)
    count = grid.pages(len(tiles))
    bodies: list[list[str]] = [[] for _ in range(count)]
    # the hex (circumradius UNIT) is hex_size_mm across the flats: sqrt(3) * UNIT units
    scale = f"{hex_size_mm / (math.sqrt(3) * svg.UNIT):.5f}"
    for i, tile in enumerate(tiles):
        page, cx, cy = grid.position(i)
        fragment = svg.tile_svg(tile, layout=layout, size=svg.UNIT, standalone=False)
        bodies[page].append(
            f'<g class="sheet-tile" transform="translate({cx:.3f},{cy:.3f}) scale({scale})">'
            f"{fragment}</g>"
        )
    pages: list[str] = []
    pw, ph = grid.page_w, grid.page_h
    for n, body in enumerate(bodies, start=1):
        heading = (
            f'<text x="{PAGE_MARGIN_MM}" y="{PAGE_MARGIN_MM + 4}" font-size="4" '
            f'font-family="DejaVu Sans, sans-serif" fill="#333">{_esc(game.title)} — tiles, '
            f"page {n} of {count} ({len(tiles)} tiles, {hex_size_mm:g} mm)</text>"
        )
        pages.append(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw}mm" height="{ph}mm" '
            f'viewBox="0 0 {pw} {ph}" font-family="{svg.FONT}">{heading}{"".join(body)}</svg>'
        )
    return pages


class _SharedPage(cairosvg.surface.PDFSurface):  # type: ignore[misc]
    """A cairosvg PDF surface that draws onto a page of an existing cairo PDF surface.

    cairosvg writes one page per conversion. Rather than add a PDF library (pypdf) to join
    single-page files, each page's SVG is drawn by cairosvg onto one shared cairocffi
    ``PDFSurface`` (cairocffi is already a dependency of cairosvg) and the page is ended with
    ``show_page``: one multi-page PDF, vector throughout, with no new dependency.
    """

    target: Any = None

    def _create_surface(self, width: float, height: float) -> tuple[Any, float, float]:
        return self.target, width, height


def tile_sheet_pdf(
    game: Game,
    path: str | Path,
    *,
    paper: str = "A4",
    hex_size_mm: float = DEFAULT_HEX_MM,
) -> int:
    """Write the game's tile sheet as a PDF at ``path``; returns the number of pages."""
    if output_format(path) != ".pdf":
        raise TilelayError(f"a tile sheet is written as PDF: expected {str(path)!r} to end in .pdf")
    pages = tile_sheet_pages(game, paper=paper, hex_size_mm=hex_size_mm)
    pw, ph = PAPER_MM[paper]
    buffer = io.BytesIO()
    surface = cairocffi.PDFSurface(buffer, pw * _PT_PER_MM, ph * _PT_PER_MM)
    # A subclass per call keeps concurrent sheets apart.
    page_class = type("_Page", (_SharedPage,), {"target": surface})
    for page in pages:
        tree = cairosvg.parser.Tree(bytestring=page.encode("utf-8"), unsafe=False)
        page_class(tree, None, 96)
        surface.show_page()
    surface.finish()
    _write(path, buffer.getvalue())
    return len(pages)
