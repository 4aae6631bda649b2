"""Export to SVG, PNG and PDF, and printable tile sheets."""

from __future__ import annotations

import math
import re
import struct
from pathlib import Path

import pytest
from PIL import Image  # a dependency of cairosvg

from tilelay import svg
from tilelay.catalogue import get_tile
from tilelay.errors import TilelayError
from tilelay.export import (
    GAP_MM,
    PAPER_MM,
    UNLIMITED_COPIES,
    output_format,
    sheet_layout,
    sheet_tiles,
    tile_sheet_pages,
    tile_sheet_pdf,
    to_pdf,
    to_png,
    write_drawing,
)
from tilelay.games import load_game
from tilelay.hexgeo import Layout

SQUARE = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">'
    '<rect width="120" height="80" fill="white"/><rect x="10" y="10" width="40" height="40" '
    'fill="#ff0000"/></svg>'
)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def pdf_pages(data: bytes) -> int:
    assert data.startswith(b"%PDF-")
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


def pdf_media_box(data: bytes) -> tuple[float, ...]:
    m = re.search(rb"/MediaBox\s*\[\s*([\d.\s-]+)\]", data)
    assert m is not None
    return tuple(float(x) for x in m.group(1).split())


def test_output_format() -> None:
    assert output_format("a.svg") == ".svg"
    assert output_format("dir/a.PNG") == ".png"
    assert output_format(Path("x.pdf")) == ".pdf"
    with pytest.raises(TilelayError, match=r"\.svg, \.png, \.pdf"):
        output_format("tile.gif")
    with pytest.raises(TilelayError, match="no extension"):
        output_format("tile")


def test_png_size_and_pixels(tmp_path: Path) -> None:
    out = tmp_path / "sq.png"
    to_png(SQUARE, out)
    assert png_size(out.read_bytes()) == (120, 80)
    to_png(SQUARE, out, scale=2.5)
    assert png_size(out.read_bytes()) == (300, 200)
    with Image.open(out) as img:
        rgb = img.convert("RGB")
        assert rgb.getpixel((50, 50)) == (255, 0, 0)  # inside the red square (scaled)
        assert rgb.getpixel((250, 150)) == (255, 255, 255)


def test_pdf_one_page(tmp_path: Path) -> None:
    out = tmp_path / "sq.pdf"
    to_pdf(SQUARE, out)
    data = out.read_bytes()
    assert pdf_pages(data) == 1
    # 120 x 80 CSS pixels = 90 x 60 points
    box = pdf_media_box(data)
    assert box[2:] == pytest.approx((90, 60), abs=0.5)


def test_write_drawing_by_extension(tmp_path: Path) -> None:
    assert write_drawing(SQUARE, tmp_path / "a.svg") == ".svg"
    text = (tmp_path / "a.svg").read_text(encoding="utf-8")
    assert text.startswith("<?xml") and "<rect" in text
    assert write_drawing(SQUARE, tmp_path / "a.png") == ".png"
    assert png_size((tmp_path / "a.png").read_bytes()) == (120, 80)
    assert write_drawing(SQUARE, tmp_path / "a.pdf") == ".pdf"
    assert pdf_pages((tmp_path / "a.pdf").read_bytes()) == 1


def test_unknown_format_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(TilelayError):
        write_drawing(SQUARE, tmp_path / "a.gif")
    assert list(tmp_path.iterdir()) == []


def test_missing_folder_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TilelayError, match="does not exist"):
        to_png(SQUARE, tmp_path / "nope" / "a.png")


def test_bad_svg_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(TilelayError):
        to_png("<svg", tmp_path / "a.png")
    assert not (tmp_path / "a.png").exists()


def test_tile_png_is_not_blank(tmp_path: Path) -> None:
    drawing = svg.tile_svg(
        get_tile("57"), layout=Layout.FLAT, size=60, grid=False, show_number=True, standalone=True
    )
    out = tmp_path / "57.png"
    to_png(drawing, out)
    with Image.open(out) as img:
        assert img.width >= 100 and img.height >= 90
        rgb = img.convert("RGB")
        pixels = [
            rgb.getpixel((x, y)) for x in range(0, rgb.width, 2) for y in range(0, rgb.height, 2)
        ]
        assert len(set(pixels)) > 5
        # the yellow of the tile covers much of the picture
        yellowish = sum(
            1 for p in pixels if isinstance(p, tuple) and p[0] > 200 and p[1] > 180 and p[2] < 120
        )
        assert yellowish > len(pixels) * 0.2


# ------------------------------------------------------------------ sheets


def test_sheet_layout_numbers() -> None:
    flat = sheet_layout(Layout.FLAT, paper="A4", hex_size_mm=38.1)
    across = 38.1 * 2 / math.sqrt(3)
    assert flat.cell_w == pytest.approx(across)
    assert flat.cell_h == pytest.approx(38.1)
    assert (flat.columns, flat.rows) == (4, 6)
    pointy = sheet_layout(Layout.POINTY, paper="A4", hex_size_mm=38.1)
    assert (pointy.columns, pointy.rows) == (4, 5)
    letter = sheet_layout(Layout.FLAT, paper="Letter", hex_size_mm=38.1)
    assert letter.page_w == PAPER_MM["Letter"][0]
    assert flat.pages(0) == 1
    assert flat.pages(24) == 1
    assert flat.pages(25) == 2


def test_sheet_cells_fit_on_the_page_and_do_not_touch() -> None:
    grid = sheet_layout(Layout.FLAT, paper="Letter", hex_size_mm=30)
    boxes = []
    for i in range(grid.per_page):
        page, x, y = grid.position(i)
        assert page == 0
        assert grid.cell_w / 2 <= x <= grid.page_w - grid.cell_w / 2
        assert grid.cell_h / 2 <= y <= grid.page_h - grid.cell_h / 2
        boxes.append((x, y))
    for i, (x1, y1) in enumerate(boxes):
        for x2, y2 in boxes[i + 1 :]:
            apart_x = abs(x1 - x2) >= grid.cell_w + GAP_MM - 1e-9
            apart_y = abs(y1 - y2) >= grid.cell_h + GAP_MM - 1e-9
            assert apart_x or apart_y
    assert grid.position(grid.per_page)[0] == 1


def test_sheet_layout_errors() -> None:
    with pytest.raises(TilelayError, match="paper"):
        sheet_layout(Layout.FLAT, paper="A3")
    with pytest.raises(TilelayError, match="out of range"):
        sheet_layout(Layout.FLAT, hex_size_mm=1)
    with pytest.raises(TilelayError, match="out of range"):
        sheet_layout(Layout.FLAT, hex_size_mm=400)


def test_sheet_tiles_follow_the_manifest() -> None:
    game = load_game("1889")
    tiles = sheet_tiles(game)
    expected = sum(UNLIMITED_COPIES if c < 0 else c for c in game.manifest.values())
    assert len(tiles) == expected
    assert sum(1 for t in tiles if t.name == "8") == game.manifest["8"]
    assert sum(1 for t in tiles if t.name == "439") == game.manifest["439"]


def test_sheet_pages_contain_every_copy() -> None:
    game = load_game("1889")
    pages = tile_sheet_pages(game, paper="A4")
    drawn = sum(len(re.findall(r'class="tile"', p)) for p in pages)
    assert drawn == len(sheet_tiles(game))
    assert all('width="210.0mm"' in p for p in pages)
    assert f"page {len(pages)} of {len(pages)}" in pages[-1]


@pytest.mark.parametrize(("paper", "points"), [("A4", (595.3, 841.9)), ("Letter", (612, 792))])
def test_sheet_pdf_page_count(tmp_path: Path, paper: str, points: tuple[float, float]) -> None:
    game = load_game("1889")
    out = tmp_path / "sheet.pdf"
    pages = tile_sheet_pdf(game, out, paper=paper)
    grid = sheet_layout(game.layout, paper=paper)
    expected = math.ceil(len(sheet_tiles(game)) / grid.per_page)
    assert pages == expected
    assert expected >= 2  # 1889 has more tiles than fit on one page
    data = out.read_bytes()
    assert pdf_pages(data) == expected
    assert pdf_media_box(data)[2:] == pytest.approx(points, abs=0.5)


def test_sheet_smaller_hexes_fewer_pages(tmp_path: Path) -> None:
    game = load_game("1889")
    big = tile_sheet_pdf(game, tmp_path / "big.pdf", hex_size_mm=50)
    small = tile_sheet_pdf(game, tmp_path / "small.pdf", hex_size_mm=25)
    assert small < big


def test_sheet_must_be_pdf(tmp_path: Path) -> None:
    with pytest.raises(TilelayError, match=r"\.pdf"):
        tile_sheet_pdf(load_game("1889"), tmp_path / "sheet.png")
    assert not (tmp_path / "sheet.png").exists()


@pytest.mark.parametrize(("game_name", "size"), [("1889", 38.1), ("1830", 30.0)])
def test_sheet_hexes_have_the_asked_size(game_name: str, size: float) -> None:
    game = load_game(game_name)
    page = tile_sheet_pages(game, hex_size_mm=size)[0]
    m = re.search(r'<g class="sheet-tile" transform="translate\([^)]+\) scale\(([\d.]+)\)">', page)
    assert m is not None
    mm_per_unit = float(m.group(1))
    poly = re.search(r'<polygon class="hex-fill" points="([^"]+)"', page)
    assert poly is not None
    pts = [tuple(float(v) for v in p.split(",")) for p in poly.group(1).split()]
    # across the flats: y-extent of a flat hex, x-extent of a pointy one
    axis = 1 if game.layout is Layout.FLAT else 0
    across = max(p[axis] for p in pts) - min(p[axis] for p in pts)
    assert across * mm_per_unit == pytest.approx(size, abs=0.05)


def test_a_png_past_cairo_s_size_is_said_in_words(tmp_path: Path) -> None:
    drawing = '<svg xmlns="http://www.w3.org/2000/svg" width="40000" height="300"></svg>'
    with pytest.raises(TilelayError) as info:
        to_png(drawing, tmp_path / "big.png")
    assert str(info.value) == (
        "the drawing is 40,000 × 300 pixels: a PNG is at most 32,767 a side (draw it smaller, "
        "or write .svg or .pdf)"
    )
    to_png(drawing.replace("40000", "400"), tmp_path / "fine.png")
    assert (tmp_path / "fine.png").stat().st_size > 0
