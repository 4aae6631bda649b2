"""``tilelay render tile|map|sheet`` and the ``serve`` command's arguments."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from tilelay.cli import build_parser, main
from tilelay.export import sheet_layout, sheet_tiles
from tilelay.games import load_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_render_tile_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "57.png"
    status, stdout, _ = run(capsys, "render", "tile", "57", "--size", "50", "-o", str(out))
    assert status == 0
    assert str(out) in stdout
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack(">II", data[16:24])
    # a flat hex of circumradius 50 is 100 wide and about 87 high (plus any margin)
    assert 100 <= w <= 130 and 86 <= h <= 130


def test_render_tile_svg_rotation_and_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flat = tmp_path / "flat.svg"
    pointy = tmp_path / "pointy.svg"
    assert run(capsys, "render", "tile", "9", "--rotation", "2", "-o", str(flat))[0] == 0
    args = ("render", "tile", "9", "--rotation", "2", "--layout", "pointy", "-o", str(pointy))
    assert run(capsys, *args)[0] == 0
    text = flat.read_text(encoding="utf-8")
    assert text.startswith("<?xml")
    assert 'data-tile="9"' in text and 'data-rotation="2"' in text
    assert flat.read_text(encoding="utf-8") != pointy.read_text(encoding="utf-8")


def test_render_game_tile_uses_game_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 1830 is pointy: its tiles are drawn pointy unless --layout says otherwise
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    assert run(capsys, "render", "tile", "1830:57", "-o", str(a))[0] == 0
    assert run(capsys, "render", "tile", "57", "--layout", "pointy", "-o", str(b))[0] == 0
    assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8")


def test_render_tile_string_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.pdf"
    code = "city=revenue:40,slots:2;path=a:0,b:_0;path=a:_0,b:3;label=Z"
    status, _, _ = run(capsys, "render", "tile", code, "--color", "green", "-o", str(out))
    assert status == 0
    assert out.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (("render", "tile", "57", "-o", "OUT.gif"), ".svg, .png, .pdf"),
        (("render", "tile", "57", "--rotation", "7", "-o", "OUT.svg"), "--rotation"),
        (("render", "tile", "57x", "-o", "OUT.svg"), "57"),
        (("render", "tile", "city=revenue:x", "-o", "OUT.svg"), "column"),
        (("render", "tile", "57", "--size", "0", "-o", "OUT.svg"), "--size"),
        (("render", "map", "nosuchgame", "-o", "OUT.svg"), "no game"),
        (("render", "sheet", "1889", "-o", "OUT.png"), ".pdf"),
        (("render", "sheet", "1889", "--hex-size", "1", "-o", "OUT.pdf"), "out of range"),
    ],
)
def test_render_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], needle: str
) -> None:
    argv = tuple(a.replace("OUT", str(tmp_path / "out")) for a in argv)
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith("tilelay: error: ")
    assert needle in err
    assert "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_render_into_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "render", "tile", "57", "-o", str(tmp_path / "no" / "x.png"))
    assert status == 2
    assert "does not exist" in err


def test_render_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = load_game("1889")
    out = tmp_path / "map.svg"
    status, stdout, _ = run(capsys, "render", "map", "1889", "-o", str(out))
    assert status == 0
    assert "52 hexes" in stdout
    coords = re.findall(r'data-coord="([^"]+)"', out.read_text(encoding="utf-8"))
    assert sorted(set(coords)) == sorted(game.hexes)
    png = tmp_path / "map.png"
    assert run(capsys, "render", "map", "shikoku 1889", "--size", "20", "-o", str(png))[0] == 0
    w, h = struct.unpack(">II", png.read_bytes()[16:24])
    assert w > 200 and h > 200


def test_render_sheet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = load_game("1889")
    out = tmp_path / "sheet.pdf"
    status, stdout, _ = run(capsys, "render", "sheet", "1889", "--paper", "Letter", "-o", str(out))
    assert status == 0
    grid = sheet_layout(game.layout, paper="Letter")
    pages = -(-len(sheet_tiles(game)) // grid.per_page)
    assert f"{pages} pages" in stdout
    data = out.read_bytes()
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", data)) == pages


def test_serve_arguments() -> None:
    args = build_parser().parse_args(["serve", "--host", "0.0.0.0", "--port", "9000"])
    assert (args.host, args.port) == ("0.0.0.0", 9000)
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)


def test_serve_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "serve", "--port", "70000")
    assert status == 2
    assert "--port" in err


SEED_XML = """<Tiles>
  <Tile number="8" type="Yellow"><Track enter="1" exit="3" gauge="NORMAL"/></Tile>
  <Tile number="16" type="Green">
    <Track enter="1" exit="3" gauge="NORMAL"/>
    <Track enter="2" exit="4" gauge="OVERPASS"/>
    <Track enter="2" exit="4" gauge="NORMAL"/>
  </Tile>
</Tiles>
"""


def test_render_tile_from_an_xml_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "tiles.xml"
    src.write_text(SEED_XML)
    out = tmp_path / "all.svg"
    assert main(["render", "tile", str(src), "-o", str(out)]) == 0
    drawing = out.read_text()
    assert drawing.count('class="tile"') == 2  # every tile of the file, as a sheet
    one = tmp_path / "16.svg"
    assert main(["render", "tile", str(src), "--tile", "16", "-o", str(one)]) == 0
    sixteen = one.read_text()
    assert 'data-tile="16"' in sixteen and 'data-tile="8"' not in sixteen
    assert 'class="gap"' in sixteen  # the overpass is drawn with a gap
    capsys.readouterr()
    assert main(["render", "tile", str(src), "--tile", "17", "-o", str(one)]) == 2
    err = capsys.readouterr().err
    assert "no tile named '17'" in err and "16" in err and "Traceback" not in err


def test_tile_option_needs_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", "tile", "57", "--tile", "57", "-o", str(tmp_path / "x.svg")]) == 2
    assert "--tile picks a tile from a tile file" in capsys.readouterr().err


def test_the_server_s_workers_know_the_games_of_other_engines(tmp_path: Path) -> None:
    """``tilelay serve`` with ``TILELAY_GAMES`` (or ``--games``) and two worker processes:
    every worker serves the engine's games (each worker is a new process, which knew only
    the built-in games)."""
    from tests.conftest import reference
    from tests.serving import Server, request

    engine = reference("18xxgames", "engine")
    env = {"TILELAY_GAMES": str(engine), "TILELAY_CACHE": str(tmp_path / "cache")}
    with Server(tmp_path / "boards.sqlite3", env, ("--workers", "2")) as server:
        for _ in range(4):  # (the workers take turns)
            conn = server.connection(timeout=120)
            status, _ = request(conn, "GET", "/board/1846")
            conn.close()
            assert status == 200


@pytest.mark.parametrize("spec", ["57", "1889:437"])
def test_color_is_for_tile_strings_only(
    spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A named tile has its own colour: --color with one was silently ignored."""
    assert main(["render", "tile", spec, "--color", "green", "-o", str(tmp_path / "t.svg")]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"tilelay: error: --color applies to a tile string; {spec!r} names tiles of their own "
        "colour\n"
    )
    assert not (tmp_path / "t.svg").exists()
