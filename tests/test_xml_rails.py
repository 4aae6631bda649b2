"""Rails' XML dialect: every reference Tiles.xml reads; topology against the catalogue."""

from __future__ import annotations

import pytest

from tests.conftest import REFERENCE
from tilelay import catalogue
from tilelay.convert import same_connections_up_to_rotation
from tilelay.errors import XMLFormatError
from tilelay.hexgeo import Loc
from tilelay.tile import Edge, NodeKind
from tilelay.xml import load_tiles
from tilelay.xml.rails import read_rails_tiles, read_rails_tileset

RAILS = REFERENCE / "rails"

# tile numbers in both Rails and the catalogue whose track differs, and why
EXPLAINED = {
    "80": "Rails draws the junction as side-to-side track (same connections)",
    "81": "as 80",
    "82": "as 80",
    "83": "as 80",
    "544": "as 80",
    "545": "as 80",
    "546": "as 80",
    "54": "18C2C's 54: all four tracks go to city1 (its city2 has none; a slip in the file)",
    "590": "18C2C's own Chicago tile, not the catalogue's 590",
    "591": "18C2C's own Chicago tile, not the catalogue's 591",
    "8858": "1880's 8858 has two towns; the catalogue's 8858 two OO cities (number conflict)",
}
JUNCTION_LIKE = ("80", "81", "82", "83", "544", "545", "546")


def test_sides_and_positions() -> None:
    xml = b"""<Tiles><Tile colour="green" id="54" name="54">
      <Station id="city1" position="352" slots="1" type="City" value="60"/>
      <Station id="city2" position="552" slots="1" type="City" value="60"/>
      <Track from="city1" gauge="normal" to="side3"/><Track from="city1" gauge="normal" to="side4"/>
      <Track from="city2" gauge="normal" to="side5"/><Track from="city2" gauge="normal" to="side0"/>
    </Tile></Tiles>"""
    (t,) = read_rails_tiles(xml)
    assert t.nodes[0].loc == Loc("corner", 0.5)
    assert t.nodes[1].loc == Loc("corner", 2.5)
    assert t.node_exits(0) == frozenset({0, 1})
    assert t.same_topology(catalogue.get_tile("54"))


def test_track_to_missing_station() -> None:
    xml = b'<Tiles><Tile colour="yellow" id="1"><Track from="city1" to="side1"/></Tile></Tiles>'
    with pytest.raises(XMLFormatError, match="missing station"):
        read_rails_tiles(xml, source="t.xml")


def test_every_rails_file_reads_and_topology_report() -> None:
    if not RAILS.is_dir():
        pytest.skip(f"reference data absent: {RAILS}")
    names = set(catalogue.tile_names())
    same = 0
    differ: dict[str, list[str]] = {}
    total = 0
    for f in sorted(RAILS.glob("*/Tiles.xml")):
        tiles = load_tiles(f)
        total += len(tiles)
        for t in tiles:
            if t.name in names:
                if t.same_topology_up_to_rotation(catalogue.get_tile(t.name)):
                    same += 1
                else:
                    differ.setdefault(t.name, []).append(f.parent.name)
    print(f"rails tiles {total}; same topology as the catalogue: {same}; differ: {differ}")
    assert total == 1231
    assert same == 840
    assert set(differ) == set(EXPLAINED)
    assert sum(len(v) for v in differ.values()) == 18
    for f in sorted(RAILS.glob("*/Tiles.xml")):
        for t in load_tiles(f):
            if t.name in JUNCTION_LIKE:
                assert same_connections_up_to_rotation(t, catalogue.get_tile(t.name))


def test_rails_tile_57_and_tileset() -> None:
    f = RAILS / "1830" / "Tiles.xml"
    if not f.exists():
        pytest.skip(f"reference data absent: {f}")
    tiles = {t.name: t for t in read_rails_tiles(f)}
    t57 = tiles["57"]
    assert t57.nodes[0].kind is NodeKind.CITY and t57.nodes[0].slots == 1
    assert {e.num for p in t57.paths for e in p.ends if isinstance(e, Edge)} == {0, 3}
    ts = read_rails_tileset(RAILS / "1830" / "TileSet.xml")
    assert ts["0"].upgrades[0].ids == ("7", "8", "9")
    assert ts["57"].quantity == 4
    for path in RAILS.glob("*/TileSet.xml"):
        assert read_rails_tileset(path)
